/*
 * test_status_led.c - the status LED on the simulator's board models: the
 * BCM283x GPIO block (sim_gpio.c), the firmware's mailbox with its GPIO
 * expander (sim_mbox.c) and the BCM2712's always-on GPIO block
 * (sim_gio_aon.c).
 *  - per board (revision code): the LED line the device tree names, made
 *    an output with its latch at "off" first (no flash), the other pins'
 *    functions untouched, lit and dark with the board's polarity;
 *  - the expander tag refused: the LED is left alone, the console says so;
 *  - each end code flashes as docs/led.md's table says (read from the
 *    file), with the documented timing, the crash code too;
 *  - a quick suite through the whole program blinks the LED between
 *    operations and prints the same figures, to the nanosecond, as the
 *    same run with led = off.
 * The expected lines below are typed from the device trees (docs/led.md
 * lists them), not taken from platform/board_led.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/record.h"
#include "bench/engine/workload.h"
#include "bench/env.h"
#include "bench/run.h"
#include "bench/status_led.h"
#include "bench/storage/write_guard.h"
#include "drivers/gpio.h"
#include "drivers/led.h"
#include "drivers/mailbox.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "lib/host/host_console.h"
#include "platform/board_led.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "sim/sim_records.h"
#include "tests/unit/check.h"

#define OUT_MAX (1u << 21)

static char *out;
static size_t out_len;
static char err[400];

static void capture(char c)
{
	if (out_len + 1 < OUT_MAX)
		out[out_len++] = c;
	out[out_len] = 0;
}

static void capture_start(void)
{
	if (!out)
		out = malloc(OUT_MAX);
	out[0] = 0;
	out_len = 0;
	host_console_hook = capture;
}

/* The simulated Pi 0-3 board; its peripheral base under the EMMC. */
static uintptr_t board_setup(void)
{
	struct sim_config c;
	uintptr_t periph;

	sim_config_default(&c);
	CHECK_EQ_I(sim_setup(&c, sim_profile_find("sdhc-c10-16g")), 0);
	periph = sim_get_config()->base - 0x300000u;
	gpio_init(periph, false);
	mbox_init(periph + 0xb880u, 0xc0000000u);
	timer_init(0);
	return periph;
}

static const struct {
	uint32_t rev;
	const char *board;
	enum sim_led_src src;	/* SIM_LED_NONE: no LED may be driven */
	unsigned line;
	int lit;		/* the level that lights it */
} boards[] = {
	{ 0x0002, "B rev 1 (old code)", SIM_LED_GPIO, 16, 0 },
	{ 0x000e, "B rev 2 (old code)", SIM_LED_GPIO, 16, 0 },
	{ 0x0008, "A (old code)", SIM_LED_GPIO, 16, 0 },
	{ 0x0010, "B+ (old code)", SIM_LED_GPIO, 47, 1 },
	{ 0x1000015, "A+ (old code, warranty bit)", SIM_LED_GPIO, 47, 1 },
	{ 0x0011, "Compute Module 1 (old code)", SIM_LED_NONE, 0, 0 },
	{ 0x900021, "A+", SIM_LED_GPIO, 47, 1 },
	{ 0x900032, "B+", SIM_LED_GPIO, 47, 1 },
	{ 0xa21041, "2 B", SIM_LED_GPIO, 47, 1 },
	{ 0xa22042, "2 B v1.2 (BCM2837)", SIM_LED_GPIO, 47, 1 },
	{ 0x920092, "Zero", SIM_LED_GPIO, 47, 0 },
	{ 0x9000c1, "Zero W", SIM_LED_GPIO, 47, 0 },
	{ 0xa02082, "3 B", SIM_LED_EXPANDER, 2, 1 },
	{ 0xa020d3, "3 B+", SIM_LED_GPIO, 29, 1 },
	{ 0x9020e0, "3 A+", SIM_LED_GPIO, 29, 1 },
	{ 0x902120, "Zero 2 W", SIM_LED_GPIO, 29, 0 },
	{ 0xa020a0, "Compute Module 3", SIM_LED_NONE, 0, 0 },
	{ 0xb03115, "4 B", SIM_LED_GPIO, 42, 1 },
	{ 0xa03140, "CM4", SIM_LED_GPIO, 42, 1 },
	{ 0xc03130, "400", SIM_LED_NONE, 0, 0 },
	{ 0xc04170, "5", SIM_LED_AON, 9, 0 },
	{ 0xd04190, "500 (not checked)", SIM_LED_NONE, 0, 0 },
};

/* The level the watched line drives now (-1 not driven). */
static int level_now(enum sim_led_src src, unsigned line)
{
	if (src == SIM_LED_GPIO)
		return sim_gpio_pin(line);
	if (src == SIM_LED_EXPANDER)
		return sim_mbox_expgpio(line);
	return sim_gio_aon_line(line);
}

static void pi5_setup(void)
{
	struct sim_config c;

	sim_config_default(&c);
	CHECK_EQ_I(sim_host_load("pi5", &c, err, sizeof(err)), 0);
	CHECK_EQ_I(sim_setup(&c, sim_profile_find("sdhc-c10-16g")), 0);
	timer_init(0);
}

static void check_board(unsigned i)
{
	struct board_led bl;
	struct sim_led_edge e[8];
	unsigned fn[54], p, n;
	int failed_before = check_cur_failed;

	check_cur_failed = 0;

	if (boards[i].src == SIM_LED_AON)
		pi5_setup();
	else
		board_setup();
	for (p = 0; p < 54; p++)
		fn[p] = sim_gpio_function(p);
	board_led_for(boards[i].rev, &bl);
	if (boards[i].src == SIM_LED_NONE) {
		CHECK_EQ_I(bl.line.kind, LED_NONE);
		CHECK_EQ_I(led_init(&bl.line), -ENODEV);
		for (p = 0; p < 54; p++)
			CHECK_EQ_U(sim_gpio_function(p), fn[p]);
		return;
	}
	sim_led_watch(boards[i].src, boards[i].line);
	sim_violation_clear();
	CHECK_EQ_I(led_init(&bl.line), 0);
	/* Dark first, and no flash on the way: the first level it ever
	 * drives is the dark one. */
	CHECK_EQ_I(level_now(boards[i].src, boards[i].line), !boards[i].lit);
	n = sim_led_edges(e, 8);
	CHECK_EQ_U(n, 1);
	CHECK_EQ_I(e[0].level, !boards[i].lit);
	if (boards[i].src == SIM_LED_GPIO) {
		CHECK_EQ_U(sim_gpio_function(boards[i].line), 1);
		for (p = 0; p < 54; p++)
			if (p != boards[i].line)
				CHECK_EQ_U(sim_gpio_function(p), fn[p]);
	}
	CHECK_EQ_I(led_set(&bl.line, true), 0);
	CHECK_EQ_I(level_now(boards[i].src, boards[i].line), boards[i].lit);
	CHECK_EQ_I(led_set(&bl.line, false), 0);
	CHECK_EQ_I(level_now(boards[i].src, boards[i].line), !boards[i].lit);
	CHECK_EQ_U(sim_led_edges(e, 8), 3);
	CHECK_EQ_U(sim_violation_count(), 0);
	if (check_cur_failed)
		printf("  board %s (revision 0x%08x)\n", boards[i].board, (unsigned)boards[i].rev);
	check_cur_failed |= failed_before;
}

TEST(every_board_drives_the_led_its_device_tree_names)
{
	unsigned i;

	for (i = 0; i < sizeof(boards) / sizeof(boards[0]); i++)
		check_board(i);
}

TEST(the_pi5_led_leaves_the_other_aon_lines_alone)
{
	struct board_led bl;

	pi5_setup();
	board_led_for(0xc04170, &bl);
	CHECK_EQ_I(sim_gio_aon_line(3), 0);	/* 3.3 V, as the firmware left it */
	CHECK_EQ_I(sim_gio_aon_line(4), 1);	/* the card powered */
	CHECK_EQ_I(led_init(&bl.line), 0);
	CHECK_EQ_I(led_set(&bl.line, true), 0);
	CHECK_EQ_I(sim_gio_aon_line(3), 0);
	CHECK_EQ_I(sim_gio_aon_line(4), 1);
	CHECK_EQ_I(sim_gio_aon_line(2), 1);	/* RP1_RUN */
	CHECK_EQ_U(sim_gio_aon_power_offs(), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* One run's end as the records say, then one cycle of the end code. */
static const char *end_of_run(const struct led_line *l, const char *records, unsigned errors)
{
	capture_start();
	status_led_start(l, "ACT");
	status_led_enable(true);
	con_printf("%s", records);
	status_led_report(errors);
	host_console_hook = NULL;
	return simrec_last(out, "led", NULL, NULL);
}

TEST(a_refused_expander_tag_leaves_the_led_alone_and_says_so)
{
	struct board_led bl;
	const char *rec;
	uint64_t t0;

	board_setup();
	sim_mbox_expander(false);
	board_led_for(0xa02082, &bl);
	t0 = timer_now_us();
	rec = end_of_run(&bl.line, "@ {\"type\":\"card\",\"present\":true}\n", 0);
	CHECK(rec != NULL);
	CHECK(rec && strstr(rec, "\"kind\":\"expander\",\"line\":2"));
	CHECK(rec && strstr(rec, "\"driven\":false"));
	CHECK(strstr(out, "status LED: not used: the firmware did not set its GPIO expander "
			  "line (mailbox tag 0x00038041): EIO") != NULL);
	CHECK_EQ_I(sim_mbox_expgpio(2), -1);
	CHECK(sim_mbox_refused_tags() >= 1);
	CHECK(!status_led_show_end());
	/* The refusal came at once: well inside the mailbox's 100 ms. */
	CHECK(timer_now_us() - t0 < 100000u);
}

/* docs/led.md's table: "| N | `code` | meaning |" -> N, or -1. */
static int doc_flashes(const char *code)
{
	FILE *f = fopen("docs/led.md", "r");
	char line[512], pat[64];
	int n = -1;

	CHECK(f != NULL);
	if (!f)
		return -1;
	snprintf(pat, sizeof(pat), " | `%s` | ", code);
	while (fgets(line, sizeof(line), f))
		if (line[0] == '|' && strstr(line, pat))
			n = atoi(line + 1);
	fclose(f);
	return n;
}

static const struct {
	const char *code, *records;
	unsigned errors;
} outcomes[] = {
	{ "pass", "@ {\"type\":\"card\",\"present\":true}\n"
		  "@ {\"type\":\"test_area\",\"usable\":true}\n", 0 },
	{ "no_test_area", "@ {\"type\":\"card\",\"present\":true}\n"
			  "@ {\"type\":\"test_area\",\"usable\":false}\n", 0 },
	{ "errors", "@ {\"type\":\"card\",\"present\":true}\n"
		    "@ {\"type\":\"test_area\",\"usable\":true}\n"
		    "@ {\"type\":\"error\",\"context\":\"seq-write\"}\n", 1 },
	{ "stopped", "@ {\"type\":\"card\",\"present\":true}\n"
		     "@ {\"type\":\"test_area\",\"usable\":true}\n"
		     "@ {\"type\":\"sustained\",\"stopped_by\":\"user\"}\n", 0 },
	{ "stopped", "@ {\"type\":\"card\",\"present\":true}\n"
		     "@ {\"type\":\"suite\",\"aborted\":false,\"interrupted\":true}\n", 0 },
	{ "pass", "@ {\"type\":\"card\",\"present\":true}\n"
		  "@ {\"type\":\"test_area\",\"usable\":false}\n"
		  "@ {\"type\":\"test_area\",\"usable\":true}\n"
		  "@ {\"type\":\"suite\",\"aborted\":false,\"interrupted\":false}\n", 0 },
	{ "no_card", "@ {\"type\":\"error\",\"context\":\"init\",\"code\":\"ENOMEDIUM\"}\n", 1 },
	/* A line of sdbench.txt not read: nothing written (config.h). */
	{ "config_unread", "@ {\"type\":\"card\",\"present\":true}\n"
			   "@ {\"type\":\"config\",\"file\":true,\"fully_read\":false}\n"
			   "@ {\"type\":\"test_area\",\"usable\":false}\n", 0 },
	{ "pass", "@ {\"type\":\"card\",\"present\":true}\n"
		  "@ {\"type\":\"config\",\"file\":true,\"fully_read\":true}\n"
		  "@ {\"type\":\"test_area\",\"usable\":true}\n", 0 },
};

/* The flashes of one cycle: their count, each on and off time checked. */
static int flashes(const struct sim_led_edge *e, unsigned n, int lit, uint64_t end_ns)
{
	unsigned i, count = 0;

	for (i = 0; i + 1 < n; i++) {
		uint64_t d = e[i + 1].t_ns - e[i].t_ns;

		if (e[i].level == lit) {
			count++;
			CHECK(d >= 300000000u && d < 301000000u);	/* 0.3 s on */
		} else if (i + 2 < n) {
			CHECK(d >= 300000000u && d < 301000000u);	/* 0.3 s off */
		}
	}
	/* The last flash's 0.3 s off and the 1.5 s pause: 1.8 s dark. */
	CHECK(n >= 2 && e[n - 1].level != lit);
	if (n >= 2)
		CHECK(end_ns - e[n - 1].t_ns >= 1800000000u && end_ns - e[n - 1].t_ns < 1801000000u);
	return (int)count;
}

TEST(end_codes_flash_as_the_docs_say)
{
	struct board_led bl;
	struct sim_led_edge e[64];
	unsigned i, n;

	for (i = 0; i < sizeof(outcomes) / sizeof(outcomes[0]); i++) {
		const char *rec;
		char want[48];
		int doc = doc_flashes(outcomes[i].code), failed_before = check_cur_failed;

		check_cur_failed = 0;
		board_setup();
		board_led_for(0xa21041, &bl);	/* 2 B: GPIO 47, lit when high */
		rec = end_of_run(&bl.line, outcomes[i].records, outcomes[i].errors);
		snprintf(want, sizeof(want), "\"code\":\"%s\"", outcomes[i].code);
		CHECK(rec && strstr(rec, want));
		CHECK(rec && strstr(rec, "\"driven\":true"));
		CHECK(doc >= 1);
		CHECK(rec && simrec_num(rec, "flashes") == doc);
		sim_led_watch(SIM_LED_GPIO, 47);
		CHECK(status_led_show_end());
		n = sim_led_edges(e, 64);
		CHECK_EQ_I(flashes(e, n, 1, sim_now_ns()), doc);
		if (check_cur_failed)
			printf("  outcome %s\n", outcomes[i].code);
		check_cur_failed |= failed_before;
	}
}

TEST(a_crash_before_the_report_flashes_the_crash_code)
{
	struct board_led bl;
	struct sim_led_edge e[64];
	int doc = doc_flashes("crash");

	board_setup();
	board_led_for(0x920092, &bl);	/* Zero: GPIO 47, lit when low */
	status_led_start(&bl.line, "ACT");
	status_led_enable(true);
	status_led_crashed();
	sim_led_watch(SIM_LED_GPIO, 47);
	CHECK(doc >= 1);
	CHECK(status_led_show_end());
	CHECK_EQ_I(flashes(e, sim_led_edges(e, 64), 0, sim_now_ns()), doc);
	/* led = off: nothing driven, nothing shown. */
	board_setup();
	status_led_start(&bl.line, "ACT");
	status_led_enable(false);
	status_led_crashed();
	CHECK(!status_led_show_end());
	CHECK_EQ_I(sim_gpio_pin(47), -1);
}

/* The "result" lines of a run's records, one per line. */
static char *results_of(const char *text)
{
	char *r = calloc(1, strlen(text) + 1);
	const char *p = text;

	while ((p = strstr(p, "{\"type\":\"result\"")) != NULL) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		strncat(r, p, n);
		strcat(r, "\n");
		p += n;
	}
	return r;
}

/* One read workload of 'ops' 64 KiB reads through the engine, long
 * enough (several seconds simulated) that the LED changes during it when
 * led is set; its measured time and the LED changes during it. */
static uint64_t engine_reads(bool led, unsigned ops, unsigned *changes)
{
	static struct simh s;
	static struct write_guard guard;
	static struct wl_ctx c;
	static struct wl_meas m;
	static struct test_area none;
	static uint8_t mem[1u << 20];
	struct sim_config cfg;
	struct board_led bl;
	struct sim_led_edge e[64];
	unsigned i;

	sim_config_default(&cfg);
	CHECK_EQ_I(simh_start(&s, "sdhc-c10-16g", &cfg), 0);
	gpio_init(sim_get_config()->base - 0x300000u, false);
	timer_init(0);
	board_led_for(0xa21041, &bl);
	status_led_start(&bl.line, "ACT");
	status_led_enable(led);
	sim_led_watch(SIM_LED_GPIO, 47);
	write_guard_init(&guard, &s.card, &none, false);
	wl_ctx_init(&c, &guard, mem, sizeof(mem), true, false, 0x1234, 42);
	wl_begin(&c, &m, "test", "led-reads", "LED reads", false, WL_MULTI_AUTO12, 128, 0);
	for (i = 0; i < ops; i++) {
		struct wl_op op = { false, 0x10000u + i * 128u, 128, WL_MULTI_AUTO12 };

		CHECK_EQ_I(wl_do(&c, &m, &op), 0);
	}
	wl_end(&c, &m);
	*changes = sim_led_edges(e, 64);
	status_led_enable(false);
	return m.elapsed_ns;
}

TEST(led_changes_inside_a_workload_are_not_measured)
{
	unsigned dark_n, lit_n;
	uint64_t dark = engine_reads(false, 1500, &dark_n);
	uint64_t lit = engine_reads(true, 1500, &lit_n);
	double d = (double)lit - (double)dark;

	printf("  %u LED changes during %.2f s of reads: measured time %+.0f ns\n", lit_n,
	       dark / 1e9, d);
	CHECK_EQ_U(dark_n, 0);
	CHECK(lit_n >= 6);
	/* Each change costs a 60 ns register write and the two timer reads
	 * that take it out; only what excluding anything costs may reach
	 * the measured time (about a timer read and a 12 ns tick of
	 * rounding, as for the progress line): 51 ns a change reach it when
	 * the toggle is not excluded, 19 ns when it is. */
	CHECK(fabs(d) <= 30.0 * lit_n);
}

/* Line by line: equal but for elapsed_ns, which is within 100 ns (a few
 * ticks of the clock: the exclusions' own rounding, see above). */
static void same_results(const char *a, const char *b)
{
	char la[1024], lb[1024];
	unsigned lines = 0;

	while (*a && *b) {
		const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
		size_t na = ea ? (size_t)(ea - a) : strlen(a), nb = eb ? (size_t)(eb - b) : strlen(b);
		double d;
		char *p;

		snprintf(la, sizeof(la), "%.*s", (int)na, a);
		snprintf(lb, sizeof(lb), "%.*s", (int)nb, b);
		d = simrec_num(la, "elapsed_ns") - simrec_num(lb, "elapsed_ns");
		if (fabs(d) > 100)
			printf("  %.60s: elapsed_ns %+.0f\n", la, d);
		CHECK(fabs(d) <= 100);
		for (p = strstr(la, "\"elapsed_ns\":"); p && *p != ','; p++)
			*p = ' ';
		for (p = strstr(lb, "\"elapsed_ns\":"); p && *p != ','; p++)
			*p = ' ';
		CHECK_STR(la, lb);
		a += na + (ea != NULL);
		b += nb + (eb != NULL);
		lines++;
	}
	CHECK(!*a && !*b && lines > 20);
}

/* A quick suite through the whole program on the simulated Pi 2 B (seed
 * 42); led = on or off. The LED's changes are in sim_led_edges. */
static char *quick_run(bool led)
{
	static struct simh_board_slot bs;
	static const char on[] = "suite = quick\nseed = 42\n";
	static const char off[] = "suite = quick\nseed = 42\nled = off\n";
	const struct sim_profile *p;
	struct board_led bl;
	struct bench_env env;

	board_setup();
	p = sim_get_profile();
	CHECK_EQ_I(sim_layout_pi_card(p->real_bytes ? p->real_bytes : p->capacity_bytes,
				      led ? on : off, led ? sizeof(on) - 1 : sizeof(off) - 1), 0);
	board_led_for(0xa21041, &bl);
	sim_led_watch(SIM_LED_GPIO, 47);
	capture_start();
	record_reset_errors();
	status_led_start(&bl.line, "ACT");
	simh_program_env(&env, &bs, 64u << 20);
	bench_main(&env);
	status_led_report(record_error_count());
	record_done(timer_now_us());
	host_console_hook = NULL;
	free(env.buf);
	return results_of(out);
}

TEST(the_suite_blinks_between_operations_and_measures_the_same)
{
	static struct sim_led_edge e[SIM_LED_EDGES];
	char *dark, *lit;
	uint64_t max_gap = 0;
	unsigned n, i;

	dark = quick_run(false);
	CHECK_EQ_U(sim_led_edges(e, SIM_LED_EDGES), 0);
	CHECK(simrec_last(out, "led", "\"driven\":false", "\"reason\":\"led = off\"") != NULL);
	lit = quick_run(true);
	n = sim_led_edges(e, SIM_LED_EDGES);
	/* Blinking: many changes, never two within half a second. */
	CHECK(n > 20);
	for (i = 1; i < n; i++) {
		uint64_t d = e[i].t_ns - e[i - 1].t_ns;

		CHECK(d >= STATUS_BLINK_US * 1000ull);
		if (d > max_gap)
			max_gap = d;
	}
	printf("  %u LED changes over %.1f s simulated, longest gap %.2f s\n", n,
	       n ? (e[n - 1].t_ns - e[0].t_ns) / 1e9 : 0.0, max_gap / 1e9);
	CHECK(simrec_last(out, "led", "\"code\":\"pass\"", "\"driven\":true") != NULL);
	/* The same figures with the LED blinking: every field of every
	 * result (MB/s, IOPS, ...) the same, the measured time within a few
	 * clock ticks. */
	CHECK(strlen(dark) > 1000);
	same_results(lit, dark);
	free(dark);
	free(lit);
}

/*
 * test_pathologies.c - cards that lie or fail, run through the whole
 * program (bench_main, quick suite) on the simulator:
 *  - fake capacity: the CSD claims 64 GB, the flash is 1, 2, 4 or 8 GiB and
 *    the addresses wrap. The test-area decision must see the wrap (the MBR
 *    read back at a power-of-two LBA), say so in words, and no write or
 *    erase may reach the bus;
 *  - read-only mid-run: after some writes the card answers every write
 *    with WP_VIOLATION (worn cards lock themselves). The run reports it with
 *    the command and status, stops writing (at most the one write that
 *    found out, plus one erase sequence in flight) and still ends with done.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/engine/record.h"
#include "bench/env.h"
#include "bench/run.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "drivers/timer.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define OUT_MAX (1u << 21)
#define BUF_BYTES (16u << 20)

static struct {
	char *out;
	size_t len;
	unsigned seen, writes, writes_after;
	unsigned wp_after;	/* turn read-only after this many bus writes (0 = never) */
	int wp_on;
} P;

static unsigned count_writes(void)
{
	unsigned n = sim_truth_count(), w = 0;

	for (; P.seen < n; P.seen++) {
		const struct sim_truth *t = sim_truth_get(P.seen);

		if (t && !(t->flags & SIM_T_APP) &&
		    (t->cmd == 24 || t->cmd == 25 || t->cmd == 38))
			w++;
	}
	return w;
}

static void capture(char c)
{
	if (P.len + 1 < OUT_MAX)
		P.out[P.len++] = c;
	P.out[P.len] = 0;
	if (c != '\n')
		return;
	{
		unsigned w = count_writes();

		P.writes += w;
		if (P.wp_on)
			P.writes_after += w;
		if (P.wp_after && !P.wp_on && P.writes >= P.wp_after) {
			/* the card locks itself: every further write gets
			 * WP_VIOLATION (the profile is the simulator's copy) */
			((struct sim_profile *)sim_get_profile())->csd_tmp_wp = true;
			P.wp_on = 1;
		}
	}
}

static void run_program(const struct sim_profile *p, uint64_t real_bytes)
{
	static struct simh_board_slot bs;
	static const char cfg[] = "suite = quick\n";
	struct sim_config sc;
	struct bench_env env;

	P.out = malloc(OUT_MAX);
	P.out[0] = 0;
	P.len = 0;
	P.seen = 0;
	P.writes = P.writes_after = 0;
	P.wp_on = 0;
	sim_config_default(&sc);
	CHECK_EQ_I(sim_setup(&sc, p), 0);
	CHECK_EQ_I(sim_layout_pi_card(real_bytes, cfg, sizeof(cfg) - 1), 0);
	host_console_hook = capture;
	record_reset_errors();
	timer_init(0);
	simh_program_env(&env, &bs, BUF_BYTES);
	bench_main(&env);
	record_done(timer_now_us());
	host_console_hook = NULL;
	capture('\n');
	free(env.buf);
}

static const char *record_line(const char *type)
{
	static char line[4096];
	char key[64];
	const char *p, *e;

	snprintf(key, sizeof(key), "@ {\"type\":\"%s\"", type);
	p = strstr(P.out, key);
	if (!p)
		return "";
	e = strchr(p, '\n');
	snprintf(line, sizeof(line), "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
	return line;
}

TEST(fake_capacity_wrapping_at_1_2_4_8_gib_is_recognised)
{
	static const unsigned gib[] = { 1, 2, 4, 8 };
	const struct sim_profile *base = sim_profile_find("fake-64g-8g");

	CHECK(base != NULL);
	for (unsigned i = 0; base && i < 4; i++) {
		struct sim_profile p = *base;
		const char *ta;

		p.real_bytes = (uint64_t)gib[i] << 30;
		snprintf(p.name, sizeof(p.name), "fake-64g-%ug", gib[i]);
		run_program(&p, p.real_bytes);
		ta = record_line("test_area");
		printf("  real %u GiB: %u writes on the bus; %s\n", gib[i], P.writes, ta);
		CHECK(strstr(ta, "\"usable\":false") != NULL);
		CHECK(strstr(ta, "wrap") != NULL);
		CHECK(strstr(record_line("done"), "\"type\":\"done\"") != NULL);
		CHECK_EQ_U(P.writes, 0);
		free(P.out);
	}
}

TEST(card_turning_read_only_mid_run_stops_the_writes)
{
	const struct sim_profile *base = sim_profile_find("sdhc-c10-16g");
	struct sim_profile p;
	const char *err;

	CHECK(base != NULL);
	if (!base)
		return;
	p = *base;
	P.wp_after = 300;
	run_program(&p, p.capacity_bytes);
	P.wp_after = 0;
	err = strstr(P.out, "EROFS");
	if (getenv("SDB_PATH_DUMP"))
		fputs(P.out, stdout);
	printf("  read-only after %u writes: %u write commands after that; first report: %.160s\n",
	       300u, P.writes_after, err ? err : "(none)");
	CHECK(P.wp_on);
	CHECK(err != NULL);
	CHECK(strstr(P.out, "turned read-only during the run") != NULL);
	/* the write that found out, and at most one more request in flight */
	CHECK(P.writes_after <= 2);
	CHECK(strstr(record_line("done"), "\"type\":\"done\"") != NULL);
	free(P.out);
}

/*
 * run.c - the program flow after start-up:
 *   1. select the SD pins' controller, initialise the host and the card;
 *   2. the card report (every register, decoded);
 *   3. the card layout (MBR), the configuration file sdbench.txt from the
 *      boot partition, and the test area where writes may go;
 *   4. the offer of the interactive console (a key within 3 s), else what
 *      the configuration asks for: the self-test, the quick or the full
 *      benchmark suite, or nothing; then what "end" says: halt, the
 *      console, or the suite again.
 * A missing card, a card that fails to initialise, an unreadable layout or a
 * bad configuration value each get a clear message; the run continues with
 * what is still safe, or ends cleanly.
 */
#include <string.h>

#include "bench/card_report.h"
#include "bench/console/console.h"
#include "bench/dispatch.h"
#include "bench/storage/config.h"
#include "bench/env.h"
#include "bench/hosts.h"
#include "bench/storage/mbr.h"
#include "bench/engine/record.h"
#include "bench/run.h"
#include "bench/storage/storage.h"
#include "bench/storage/test_area.h"
#include "bench/storage/write_guard.h"
#include "drivers/sd/sd.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"

static struct sd_card card;
static struct storage st;
static struct write_guard guard;

static int card_read(void *ctx, uint32_t lba, uint32_t count, void *buf)
{
	return sd_read_blocks((struct sd_card *)ctx, lba, count, buf, SD_STOP_AUTO12, NULL);
}

static int init_card(const struct bench_env *env)
{
	const struct sd_host *host = env->host;
	int r;

	if (!host) {
		r = env->host_error ? env->host_error : -ENODEV;
		record_error("init", r, "%s (controller at 0x%08llx)",
			     env->host_error_what ? env->host_error_what : "no SD host controller",
			     (unsigned long long)env->host_error_base);
		return r;
	}
	hosts_report(host);
	r = sd_init(&card, env->host);
	if (r == -ENOMEDIUM) {
		record_error("init", r, "no SD card found: check that a card is inserted "
			     "(under QEMU: give -drive file=IMAGE,if=sd,format=raw)");
		return r;
	}
	if (r) {
		const struct sd_host_err *e = &card.last_err;

		record_error_cmd("init", r, e->cmd, e->arg, e->status,
				 "card initialisation failed in the %s phase",
				 e->phase ? e->phase : "?");
		return r;
	}
	return 0;
}

static void print_layout(const struct mbr_info *mi)
{
	struct json *j;
	unsigned i;

	con_printf("\ncard layout: %s%s%s\n", mbr_kind_name(mi->kind),
		   mi->reason[0] ? " - " : "", mi->reason);
	for (i = 0; i < mi->nparts; i++) {
		char d[120];

		mbr_part_describe(&mi->parts[i], d, sizeof(d));
		con_printf("  %s\n", d);
	}
	j = record_begin("layout");
	storage_mbr_json(mi, j);
	record_end();
}

static void report_config(struct config *cfg, int status, bool emulated)
{
	struct json *j;
	unsigned i;

	if (status == 0)
		con_printf("\nconfiguration: sdbench.txt read from the boot partition\n");
	else if (status == -ENOENT)
		con_printf("\nconfiguration: no sdbench.txt in the boot partition, defaults used\n");
	for (i = 0; i < cfg->nmsgs; i++)
		con_printf("  %s\n", cfg->msgs[i]);
	if (cfg->dropped)
		con_printf("  (%u more messages)\n", cfg->dropped);
	if (!config_has(cfg, CFG_SUITE))
		config_set_default(cfg, CFG_SUITE, emulated ? "quick" : "full");
	j = record_begin("config");
	json_bool(j, "file", status == 0);
	config_json(cfg, j);
	json_arr_begin(j, "messages");
	for (i = 0; i < cfg->nmsgs; i++)
		json_str(j, NULL, cfg->msgs[i]);
	json_arr_end(j);
	record_end();
	/* A bad value is the user's to fix, but it is not a failed run. */
}

/* sdbench.txt's bus_mode: the card was brought up with auto (the fastest
 * both sides accept); a pinned mode initialises it again in that mode, or
 * the next slower one with the reason (sd_init_mode). */
static void apply_bus_mode(const struct bench_env *env)
{
	int want = config_enum(&st.cfg, CFG_BUS_MODE);
	struct sd_host *h = card.host ? card.host : env->host; /* after the host key */
	int r;

	if (want <= SD_MODE_AUTO || want >= SD_MODE_COUNT)
		return;
	con_printf("\nbus_mode = %s: initialising the card again\n",
		   sd_bus_mode_name((unsigned)want));
	r = sd_init_mode(&card, h, (unsigned)want);
	if (r) {
		const struct sd_host_err *e = &card.last_err;

		record_error_cmd("init", r, e->cmd, e->arg, e->status,
				 "card initialisation in bus_mode %s failed in the %s phase",
				 sd_bus_mode_name((unsigned)want), e->phase ? e->phase : "?");
		/* Back to what worked. */
		r = sd_init_mode(&card, h, SD_MODE_AUTO);
		if (r)
			return;
	}
	card_report_print(&card);
	card_report_record(&card);
}

static void report_area(const struct test_area *area)
{
	static struct test_area shown;
	struct json *j;

	if (area->usable)
		con_printf("\ntest area (writes go only here): LBA %u..%u, %u MiB, %s\n  %s\n",
			   (unsigned)area->first_lba, (unsigned)(area->first_lba + area->count - 1),
			   (unsigned)(area->count >> 11), test_area_source_name(area->source),
			   area->reason);
	else
		con_printf("\nno test area: write workloads will be skipped\n  %s\n  %s\n",
			   area->reason, area->hint);
	if (area->note[0])
		con_printf("  note: %s\n", area->note);
	if (card.write_protected)
		con_printf("  the card is write-protected: every write workload is skipped\n");
	/* The record's "usable" says whether writes may happen at all. */
	shown = *area;
	shown.usable = area->usable && !card.write_protected;
	j = record_begin("test_area");
	test_area_json(&shown, j);
	json_bool(j, "write_protected", card.write_protected);
	record_end();
}

/* max_clock_hz (sdbench.txt): an upper bound for the SD clock from here on;
 * the card's maximum is lowered to it, so the clock sweep stops there too. */
static void apply_max_clock(const struct config *cfg)
{
	uint32_t hz;
	int r;

	if (!config_has(cfg, CFG_MAX_CLOCK_HZ))
		return;
	hz = (uint32_t)config_u64(cfg, CFG_MAX_CLOCK_HZ);
	if (hz >= card.max_clock_hz)
		return;
	card.max_clock_hz = hz;
	r = sd_set_bus(&card, hz, card.width);
	if (r)
		record_error("card", r, "max_clock_hz: cannot set the SD clock to %u Hz",
			     (unsigned)hz);
	else
		con_printf("max_clock_hz: SD clock %u Hz (at most %u Hz)\n",
			   (unsigned)card.clock_hz, (unsigned)hz);
}

/* data_path (sdbench.txt), once the configuration is read: auto = the path
 * the platform chose for this host on this board (host->auto_path, set
 * where the slot is built: docs/config.md says which on each board) when
 * the host has it, else PIO; a path the host lacks is refused with the
 * reason, and data keeps moving by PIO. The "data_path" record says what
 * runs; every "result" record repeats it. */
static void apply_data_path(const struct bench_env *env, const struct config *cfg)
{
	struct sd_host *h = card.host ? card.host : env->host; /* after the host key */
	const char *want = config_enum_name(cfg, CFG_DATA_PATH);
	bool has_dma = (h->data_paths & (1u << SD_PATH_DMA)) && h->ops->set_data_path;
	bool is_auto = !want || !strcmp(want, "auto");
	bool auto_dma = has_dma && h->auto_path == SD_PATH_DMA;
	unsigned path = is_auto ? (auto_dma ? SD_PATH_DMA : SD_PATH_PIO) :
		!strcmp(want, "dma") ? SD_PATH_DMA : SD_PATH_PIO;
	const char *why = NULL;
	struct json *j;
	int r = 0;

	/* Small requests on the DMA path: the driver's threshold unless
	 * sdbench.txt sets one. */
	if (config_has(cfg, CFG_DMA_PIO_BLOCKS))
		h->dma_pio_blocks = (uint32_t)config_u64(cfg, CFG_DMA_PIO_BLOCKS);
	if (h->ops->set_data_path)
		r = h->ops->set_data_path(h, path);
	else if (path != SD_PATH_PIO)
		r = -ENOTSUP;
	if (r) {
		why = env->dma_note ? env->dma_note : "the host has no DMA data path";
		con_printf("\ndata_path = %s refused: %s (%s); data moves by PIO\n",
			   want, why, err_name(r));
		if (h->ops->set_data_path)
			(void)h->ops->set_data_path(h, SD_PATH_PIO);
	}
	con_printf("\ndata path: %s%s\n", h->data_path == SD_PATH_DMA ? "DMA" : "PIO",
		   is_auto ? " (auto)" : "");
	j = record_begin("data_path");
	json_str(j, "host", h->name);
	json_str(j, "requested", want ? want : "auto");
	json_str(j, "path", h->data_path == SD_PATH_DMA ? "dma" : "pio");
	json_arr_begin(j, "available");
	json_str(j, NULL, "pio");
	if (has_dma)
		json_str(j, NULL, "dma");
	json_arr_end(j);
	if (has_dma)
		json_u64(j, "dma_pio_blocks", h->dma_pio_blocks);
	if (why)
		json_str(j, "refused", why);
	else if (!has_dma && env->dma_note)
		json_str(j, "no_dma", env->dma_note);
	record_end();
}

/* A key within console_wait seconds (sdbench.txt; default
 * 3 s, config_keys.h; 0 = no offer) opens the console; otherwise the
 * configured suite runs, and "end" says what follows it. */
static void run_or_console(const struct bench_env *env, const struct blkdev *dev)
{
	struct console_io io = { env, &card, dev, &st, &guard, report_area };
	unsigned wait = (unsigned)config_u64(&st.cfg, CFG_CONSOLE_WAIT);
	bool console = console_offer(env, wait);

	for (unsigned rep = 0; !console; rep++) {
		const char *end = config_enum_name(&st.cfg, CFG_END);

		if (rep) {
			const char *suite = config_enum_name(&st.cfg, CFG_SUITE);

			bench_run_start("repeat", suite ? suite : "none");
		}
		bench_dispatch(env, &st.cfg, &guard);
		if (end && strcmp(end, "halt") && !env->console_getc) {
			con_printf("\nend = %s: this platform has no console input; the run ends\n", end);
			return;
		}
		if (end && !strcmp(end, "console")) {
			con_printf("\nend = console\n");
			console = true;
		} else if (end && !strcmp(end, "repeat")) {
			con_printf("\nend = repeat: the suite again\n");
			console = console_offer(env, wait);
		} else {
			return;
		}
	}
	console_run(&io);
}

/* sdbench.txt "host": sdbench.txt was read through the board's usual
 * controller; another one asked for gets the card now (the same card, the
 * same layout), before anything is measured. */
static int apply_host_key(struct bench_env *env)
{
	const char *want = config_enum_name(&st.cfg, CFG_HOST);
	int r;

	if (!want || !strcmp(want, "auto") || (env->host && !strcmp(want, env->host->name)))
		return 0;
	r = hosts_switch(env, &card, want);
	if (r)
		return r;
	card_report_record(&card);
	return 0;
}

unsigned bench_main(const struct bench_env *env_in)
{
	static struct bench_env cur;
	struct bench_env *env = &cur;
	struct blkdev dev;
	struct json *j;
	int r;

	/* The host may change (sdbench.txt "host"): a copy the run owns. */
	cur = *env_in;

	if (env->sd_unsupported) {
		con_printf("\nSD card: not tested: %s\n", env->sd_unsupported);
		j = record_begin("skipped");
		json_str(j, "workload", "all");
		json_str(j, "reason", env->sd_unsupported);
		record_end();
		return record_error_count();
	}
	r = init_card(env);
	if (r)
		return record_error_count();
	card_report_print(&card);
	card_report_record(&card);

	dev.read = card_read;
	dev.ctx = &card;
	dev.total_blocks = card.blocks;
	/* One read-only pass: partition table, sdbench.txt, test area. */
	storage_probe(&st, &dev);
	print_layout(&st.mbr);
	report_config(&st.cfg, st.config_status, env->emulated);
	if (apply_host_key(env))
		return record_error_count();
	apply_bus_mode(env);
	dev.total_blocks = card.blocks;
	apply_max_clock(&st.cfg);
	report_area(&st.area);
	apply_data_path(env, &st.cfg);

	/* The one decision where writes may go, for the whole run (the
	 * console rebuilds it from its effective configuration). */
	write_guard_init(&guard, &card, &st.area, config_bool(&st.cfg, CFG_WRITE_TESTS));
	run_or_console(env, &dev);
	return record_error_count();
}

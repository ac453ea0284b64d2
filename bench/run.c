/*
 * run.c - the program flow after start-up:
 *   1. select the SD pins' controller, initialise the host and the card;
 *   2. the card report (every register, decoded);
 *   3. the card layout (MBR), the configuration file sdbench.txt from the
 *      boot partition, and the test area where writes may go;
 *   4. the offer of the interactive console (Enter within 3 s), else what
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
#include "bench/results_log.h"
#include "bench/run.h"
#include "bench/settings.h"
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
	/* The one rule of config.h: not read whole, nothing written. */
	if (!config_fully_read(cfg))
		con_printf("  NOTHING IS WRITTEN THIS RUN: %s (reads go on; correct the line, "
			   "docs/config.md)\n", config_no_writes_why(cfg));
	j = record_begin("config");
	json_bool(j, "file", status == 0);
	/* Early in the record: the LED's sink reads a line's first 256 bytes. */
	json_bool(j, "fully_read", config_fully_read(cfg));
	if (!config_fully_read(cfg)) {
		json_u64(j, "unread_line", cfg->unread_line);
		json_u64(j, "unread_lines", cfg->unread_lines);
		json_str(j, "no_writes_why", config_no_writes_why(cfg));
	}
	config_json(cfg, j);
	json_arr_begin(j, "messages");
	for (i = 0; i < cfg->nmsgs; i++)
		json_str(j, NULL, cfg->msgs[i]);
	json_arr_end(j);
	record_end();
	/* A bad value is the user's to fix, but it is not a failed run. */
}

/* Enter within console_wait seconds (sdbench.txt; default 3 s,
 * config_keys.h; 0 = no offer) opens the console; otherwise the configured
 * suite runs, and "end" says what follows it (the console, after Ctrl-C
 * twice stopped it). A console left without a command for console_idle
 * seconds goes back to what sdbench.txt says: the suite when it has not
 * run yet, else the end of the run. */
/* Whatever a workload turned on in the card's Performance Enhancement
 * function (cache, command queue) is flushed and turned off again at the
 * end of a suite, on Ctrl-C and at the end of the run, errors or not: the
 * card is left as it was found. */
static void leave_card_as_found(void)
{
	int r = write_guard_card_as_found(&guard);

	if (r)
		record_error_cmd("card left as found", r, card.last_err.cmd, card.last_err.arg,
				 card.last_err.status, "cache / command queue not turned off");
}

static void run_or_console(struct settings *set)
{
	const struct bench_env *env = set->env;
	struct console_io io = { env, set->card, set->dev, set->st, set->guard, set };
	bool console = console_offer(env, (unsigned)config_u64(&st.cfg, CFG_CONSOLE_WAIT));
	bool suite_ran = false;
	const char *why = "end = console";

	for (;;) {
		const char *end;

		if (console) {
			if (console_run(&io) == CONSOLE_HALT)
				return;
			if (suite_ran) {
				con_printf("the suite has run (%s): the run ends\n", why);
				return;
			}
		}
		/* Stopped with Ctrl-C: whoever pressed it is at the serial
		 * line, so the console opens, whatever "end" says. */
		if (bench_dispatch(env, &st.cfg, &guard)) {
			leave_card_as_found();
			con_printf("\nstopped by Ctrl-C: the console opens\n");
			why = "stopped by Ctrl-C";
			console = suite_ran = true;
			continue;
		}
		suite_ran = true;
		leave_card_as_found();
		end = config_enum_name(&st.cfg, CFG_END);
		if (end && strcmp(end, "halt") && !env->console_getc) {
			con_printf("\nend = %s: this platform has no console input; the run ends\n", end);
			return;
		}
		if (end && !strcmp(end, "console")) {
			con_printf("\nend = console\n");
			console = true;
		} else if (end && !strcmp(end, "repeat")) {
			con_printf("\nend = repeat: the suite again\n");
			console = console_offer(env, (unsigned)config_u64(&st.cfg, CFG_CONSOLE_WAIT));
			suite_ran = false;
		} else {
			return;
		}
	}
}

/* SDBENCH.LOG: found read-only by storage_probe(), then written only
 * through the guard. */
static void open_results_file(void)
{
	/* It gates writes: a value that could not be read means off. */
	bool on = config_bool(&st.cfg, CFG_RESULTS_FILE) && !config_bad(&st.cfg, CFG_RESULTS_FILE);

	results_log_open(&st.results, st.results_status, on, &guard);
}

unsigned bench_main(const struct bench_env *env_in)
{
	static struct bench_env cur;
	static struct settings set;
	struct bench_env *env = &cur;
	static struct blkdev dev;
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
	/* Every key applied to the running system, as the console's "set"
	 * does (settings.c). */
	settings_init(&set, env, &card, &dev, &st, &guard);
	if (settings_apply_file(&set))
		return record_error_count();
	open_results_file();
	run_or_console(&set);
	leave_card_as_found();
	return record_error_count();
}

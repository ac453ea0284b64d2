/*
 * console.c - the interactive console's I/O (see console.h): reads bytes
 * from the platform's input (polled, never blocking), edits the line,
 * runs the commands. The checking of words and values is parse.c.
 */
#include <string.h>

#include "bench/card_report.h"
#include "bench/console/console.h"
#include "bench/console/parse.h"
#include "bench/dispatch.h"
#include "bench/engine/headline_report.h"
#include "bench/engine/record.h"
#include "bench/engine/workload.h"
#include "bench/engine/workload_report.h"
#include "bench/hosts.h"
#include "bench/settings.h"
#include "bench/storage/test_area.h"
#include "bench/suite.h"
#include "bench/workloads/silicon.h"
#include "bench/workloads/table.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"

#define PROMPT "sdbench> "

static struct wl_ctx ctx;
static struct con_run run_args;

bool console_offer(const struct bench_env *env, unsigned seconds)
{
	timer_deadline_t d;

	if (!env->console_getc)
		return false;
	if (!seconds) {
		con_printf("\nconsole not offered (console_wait = 0)\n");
		return false;
	}
	con_printf("\npress Enter within %u s for the console\n", seconds);
	d = timer_deadline_us((uint64_t)seconds * 1000000u);
	while (!timer_expired(d)) {
		int ch;

		/* A short spin without device access between two looks: the
		 * same wait on a Pi (a byte takes 87 us at 115200 baud), far
		 * fewer device reads for an emulator that counts instructions
		 * as time (QEMU -icount, the golden run). */
		for (unsigned i = 0; i < 4000; i++)
			__asm__ volatile("" ::: "memory");
		ch = env->console_getc();
		/* Only Enter: a byte of noise on an unconnected RX pin must
		 * not stop an unattended run. */
		if (ch == '\r' || ch == '\n') {
			/* The rest of what came with the key (CR LF, a burst). */
			timer_deadline_t q = timer_deadline_us(20000);

			while (!timer_expired(q))
				(void)env->console_getc();
			return true;
		}
	}
	con_printf("no Enter: running what sdbench.txt says\n");
	return false;
}

static bool quick_default(const struct console_io *io)
{
	const char *s = config_enum_name(&io->st->cfg, CFG_SUITE);

	/* The configured profile; full unless quick was asked for (or is the
	 * default here: QEMU). */
	if (s && !strcmp(s, "quick"))
		return true;
	if (s && !strcmp(s, "full"))
		return false;
	return io->env->emulated;
}

static void cmd_help(void)
{
	con_printf("commands:\n");
	for (int i = 0; i < CON_NCMDS; i++) {
		char u[48];

		fmt_snprintf(u, sizeof(u), "%s %s", con_cmds[i].name, con_cmds[i].args);
		con_printf("  %-32s %s\n", u, con_cmds[i].help);
	}
	con_printf("Ctrl-C stops a running workload at the next operation and returns here.\n");
}

static void cmd_list(void)
{
	con_printf("workloads (run NAME [key=value ...]):\n");
	for (unsigned i = 0; i < wl_table_count; i++)
		if (!wl_table[i].suite_only)
			con_printf("  %-10s %s%s\n             keys: %s\n", wl_table[i].name,
				   wl_table[i].help,
				   wl_table[i].writes ? " (writes: needs the test area)" : "",
				   wl_table[i].keys);
	con_printf("profile = quick|full; the other keys as in sdbench.txt (show, docs/config.md)\n");
}

static void cmd_show(const struct config *cfg)
{
	con_printf("configuration (set key=value changes it; sdbench.txt is not written):\n");
	for (int i = 0; i < CFG_NKEYS; i++) {
		enum config_id id = (enum config_id)i;
		const struct config_value *v = &cfg->v[i];
		char val[CONFIG_MAX_LIST * 24], from[40];
		const char *ch = config_key_choices(id);

		config_format(cfg, id, val, sizeof(val));
		if (v->from_console)
			fmt_snprintf(from, sizeof(from), "set here");
		else if (v->from_file)
			fmt_snprintf(from, sizeof(from), "sdbench.txt line %u", (unsigned)v->line);
		else
			fmt_snprintf(from, sizeof(from), v->has ? "default" : "not set");
		con_printf("  %-15s = %-20s (%s)%s%s\n", config_key_name(id), val[0] ? val : "-",
			   from, ch ? "  one of " : "", ch ? ch : "");
	}
}

static void cmd_info(const struct console_io *io)
{
	con_printf("board: Raspberry Pi %s%s\n", io->env->board_model ? io->env->board_model : "?",
		   io->env->emulated ? " (under QEMU)" : "");
	card_report_print(io->card);
	card_report_record(io->card);
}

static void cmd_hosts(const struct console_io *io)
{
	const struct sd_host *h = io->env->host;
	const char *const *names = io->env->host_names;
	unsigned i, n = 1, p;

	con_printf("host configurations of this board's SD slot:\n");
	if (!h) {
		con_printf("  none%s%s\n", io->env->sd_unsupported ? ": " : "",
			   io->env->sd_unsupported ? io->env->sd_unsupported : "");
		return;
	}
	for (p = 0; p < 8; p++)
		if (h->data_paths & (1u << p))
			con_printf("  %u. %s at 0x%08llx, base clock %u Hz, version 0x%08x, caps 0x%08x, "
				   "data by %s%s\n", n++, h->name, (unsigned long long)h->base,
				   (unsigned)h->base_clock_hz, (unsigned)h->version,
				   (unsigned)h->caps, p == SD_PATH_PIO ? "the CPU (PIO)" : "DMA",
				   p == h->data_path ? " - in use" : "");
	for (i = 0; io->env->switch_host && names && names[i]; i++)
		if (strcmp(names[i], h->name))
			con_printf("  %u. %s (host = %s in sdbench.txt; compare_hosts = on "
				   "measures every one)\n", n++, names[i], names[i]);
}

/* The card's state after a run, by CMD13: "tran" is ready for the next. */
static void card_state(const struct console_io *io)
{
	uint32_t st = 0;
	int r = sd_send_status(io->card, &st);

	if (r)
		record_error("console", r, "CMD13 (card status) failed after the run");
	else
		con_printf("card state: %s\n", sd_state_name((st >> 9) & 15u));
}

static void run_workload(const struct console_io *io, const struct con_run *a)
{
	struct wl_ctx *c = &ctx;

	bench_run_start("console", a->wl < 0 ? (a->quick ? "suite quick" : "suite full")
						: wl_table[a->wl].name);
	settings_guard(io->settings, &a->cfg);
	if (bench_ctx_init(c, io->env, &a->cfg, io->guard, a->quick))
		return;
	if (a->wl < 0) {
		wl_run_suite(c, &a->cfg);
		/* compare_hosts as in a configured run (dispatch.c) */
		if (config_bool(&a->cfg, CFG_COMPARE_HOSTS) && !c->abort_all) {
			static struct hosts_switch_ctx hc;
			struct wl_host_switch sw;

			hosts_switcher(&hc, &sw, io->env, io->card);
			wl_compare_hosts(c, &sw);
		}
	} else {
		c->verify = config_bool(&a->cfg, CFG_VERIFY);
		con_printf("\n%s (%s profile%s); run id 0x%08x\n", wl_table[a->wl].name,
			   a->quick ? "quick" : "full",
			   c->emulated ? ", QEMU: emulation speed, not card speed" : "",
			   (unsigned)c->run_id);
		/* A workload alone: the controller probed first, once. */
		if (c->card->host->blkcnt_look == SD_BLKCNT_UNPROBED)
			wl_silicon_probe(c);
		wl_table[a->wl].run(c, &a->cfg);
		if (c->interrupted)
			con_printf("\ninterrupted (Ctrl-C)\n");
		wl_print_summary(c);
	}
	wl_print_headline(c);
	if (c->interrupted)
		card_state(io);
}

static void cmd_set(const struct console_io *io, int argc, char **argv)
{
	static struct config want;	/* ~5 KiB: not on the stack */
	char err[320];
	unsigned changed, refused;

	want = io->st->cfg;
	if (con_parse_set(argc, argv, &want, &changed, err, sizeof(err))) {
		/* config.h's rule: a setting that could not be read writes
		 * nothing, here as in sdbench.txt (it may have meant
		 * write_tests=off). */
		config_set_unreadable(&io->st->cfg, err);
		settings_guard(io->settings, &io->st->cfg);
		con_printf("%s (nothing changed; writes are off until set write_tests=on)\n", err);
		return;
	}
	refused = settings_apply_set(io->settings, &want, changed);
	if (refused)
		con_printf("not applied: %u of the keys (see above); the rest applied\n", refused);
	else
		con_printf("ok\n");
}

/* "run" or "suite" once parsed: bad (the parser's result) says err, else
 * the workload or the suite runs. */
static void run_parsed(const struct console_io *io, int bad, const struct con_run *a,
		       const char *err)
{
	if (bad)
		con_printf("%s\n", err);
	else
		run_workload(io, a);
}

static void execute(const struct console_io *io, int argc, char **argv, bool *halt)
{
	char err[320];
	int cmd = con_find_cmd(argv[0]);

	if (cmd < 0) {
		char names[160];

		con_cmd_names(names, sizeof(names));
		con_printf("unknown command \"%.40s\"; the commands: %s (help explains them)\n",
			   argv[0], names);
		return;
	}
	if (argc - 1 < con_cmds[cmd].min_args || argc - 1 > con_cmds[cmd].max_args) {
		con_printf("usage: %s %s\n", con_cmds[cmd].name, con_cmds[cmd].args);
		return;
	}
	switch ((enum con_cmd)cmd) {
	case CON_CMD_HELP: cmd_help(); break;
	case CON_CMD_INFO: cmd_info(io); break;
	case CON_CMD_LIST: cmd_list(); break;
	case CON_CMD_SHOW: cmd_show(&io->st->cfg); break;
	case CON_CMD_AREA: settings_report_area(io->settings); break;
	case CON_CMD_HOSTS: cmd_hosts(io); break;
	case CON_CMD_SET: cmd_set(io, argc, argv); break;
	case CON_CMD_HALT: *halt = true; break;
	case CON_CMD_RUN:
		run_parsed(io, con_parse_run(argc, argv, &io->st->cfg, quick_default(io), &run_args,
					     err, sizeof(err)), &run_args, err);
		break;
	case CON_CMD_SWEEP: {
		char *a[2] = { "run", "sweep" };

		if (!con_parse_run(2, a, &io->st->cfg, quick_default(io), &run_args, err, sizeof(err)))
			run_workload(io, &run_args);
		break;
	}
	case CON_CMD_SUITE:
		run_parsed(io, con_parse_suite(argc, argv, &io->st->cfg, quick_default(io),
					       &run_args, err, sizeof(err)), &run_args, err);
		break;
	case CON_NCMDS: break;
	}
}

/* Idle: console_idle seconds without a command (a line of noise is not
 * one); 0 = never. */
static timer_deadline_t idle_deadline(const struct console_io *io)
{
	uint64_t idle = config_u64(&io->st->cfg, CFG_CONSOLE_IDLE);

	return idle ? timer_deadline_us(idle * 1000000u) : 0;
}

/* One finished line: the command, or why nothing runs. True when it was a
 * command (the idle clock starts again). */
static bool line_done(const struct console_io *io, struct con_line *line, enum con_edit e,
		      bool *halt)
{
	char *argv[CON_MAX_ARGS];
	int argc;

	if (e == CON_EDIT_TOOLONG) {
		con_printf("line longer than %d characters: refused, nothing run\n", CON_LINE_MAX);
		return false;
	}
	if (e != CON_EDIT_DONE)
		return false;
	argc = con_split(line->buf, argv, CON_MAX_ARGS);
	if (argc < 0) {
		con_printf("too many words (at most %d)\n", CON_MAX_ARGS);
		return false;
	}
	if (argc == 0)
		return false;
	execute(io, argc, argv, halt);
	return con_find_cmd(argv[0]) >= 0;
}

enum console_end console_run(const struct console_io *io)
{
	static struct con_line line;
	timer_deadline_t idle = idle_deadline(io);
	bool halt = false;

	con_printf("\nsdbench console: help lists the commands, halt ends the run\n");
	con_line_reset(&line);
	con_puts(PROMPT);
	while (!halt) {
		char echo[8];
		int ch = io->env->console_getc();
		enum con_edit e;

		if (ch < 0) {
			if (idle && timer_expired(idle)) {
				con_printf("\nno command for %u s (console_idle): back to what "
					   "sdbench.txt says\n",
					   (unsigned)config_u64(&io->st->cfg, CFG_CONSOLE_IDLE));
				return CONSOLE_IDLE;
			}
			continue;
		}
		e = con_line_feed(&line, ch, echo);
		con_puts(echo);
		if (e == CON_EDIT_MORE)
			continue;
		if (line_done(io, &line, e, &halt))
			idle = idle_deadline(io);
		/* What the line did is in the results file before the next
		 * prompt: a card pulled between commands keeps it. */
		con_flush();
		con_line_reset(&line);
		if (!halt)
			con_puts(PROMPT);
	}
	con_printf("the run ends\n");
	return CONSOLE_HALT;
}

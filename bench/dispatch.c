/*
 * dispatch.c - runs what sdbench.txt's "suite" asks for: the benchmark
 * (quick or full profile), the SD stack self-test, or nothing.
 */
#include <string.h>

#include "bench/dispatch.h"
#include "bench/engine/headline_report.h"
#include "bench/engine/record.h"
#include "bench/hosts.h"
#include "bench/selftest.h"
#include "bench/engine/workload.h"
#include "bench/suite.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/json.h"

static struct wl_ctx ctx;
static unsigned runs_started;   /* measuring runs since boot */

/* Unattended, the serial line may be an unconnected RX pin picking up
 * noise, and one Ctrl-C byte in it must not end a night's run: two in a
 * row, with no other byte between them, are a person. The first says so;
 * the second stops the run as one Ctrl-C does in the console. Every other
 * byte is dropped (none opens the console). */
static int (*line_getc)(void);
static bool ctrl_c_once;

static int unattended_key(void)
{
	int ch = line_getc();

	if (ch < 0)
		return ch;
	if (ch != WL_KEY_INTERRUPT) {
		ctrl_c_once = false;
		return 0;
	}
	if (ctrl_c_once)
		return WL_KEY_INTERRUPT;
	ctrl_c_once = true;
	con_printf("\nCtrl-C: press it again to stop the run (one alone may be noise on the "
		   "serial line)\n");
	return 0;
}

void bench_run_start(const char *source, const char *what)
{
	struct json *j = record_begin("run_start");

	json_u64(j, "n", ++runs_started);
	json_str(j, "source", source);
	json_str(j, "what", what);
	record_end();
}

int bench_ctx_init(struct wl_ctx *c, const struct bench_env *env, const struct config *cfg,
		   struct write_guard *guard, bool quick)
{
	struct sd_card *card = guard->card;
	const struct test_area *area = guard->area;
	uint32_t run_id = (uint32_t)timer_now_us() ^ (timer_ticks() << 16) ^ 0x5db00000u;
	uint32_t seed = config_has(cfg, CFG_SEED) ? (uint32_t)config_u64(cfg, CFG_SEED) : run_id;

	if (env->buf_bytes < (16u << 20)) {
		record_error("suite", -ENOSPC, "only %u bytes of memory for buffers; need 16 MiB",
			     (unsigned)env->buf_bytes);
		return -ENOSPC;
	}
	wl_ctx_init(c, guard, env->buf, env->buf_bytes, quick, env->emulated, run_id, seed);
	c->simulated = env->simulated;
	/* Reads start where writes go (the same flash), else mid-card. */
	c->read_base = area->usable && !card->write_protected ? area->first_lba : (card->blocks / 2) & ~8191u;
	/* Ctrl-C on the console ends the run at the next operation boundary. */
	c->poll_key = env->console_getc;
	return 0;
}

bool bench_dispatch(const struct bench_env *env, const struct config *cfg,
		    struct write_guard *guard)
{
	const char *suite = config_enum_name(cfg, CFG_SUITE);

	con_printf("\nsuite: %s\n", suite ? suite : "none");
	if (!suite || !strcmp(suite, "none"))
		return false;
	/* Not the first measuring run of this boot (end = repeat, or the
	 * configured suite after console commands): say so. */
	if (runs_started)
		bench_run_start("config", suite);
	else
		runs_started = 1;
	if (!strcmp(suite, "selftest")) {
		selftest_run(env, guard->card, cfg, guard);
		return false;
	}
	if (bench_ctx_init(&ctx, env, cfg, guard, strcmp(suite, "full") != 0))
		return false;
	line_getc = env->console_getc;
	ctrl_c_once = false;
	ctx.poll_key = line_getc ? unattended_key : NULL;
	if (!strcmp(suite, "hostcost"))
		wl_run_hostcost(&ctx);
	else
		wl_run_suite(&ctx, cfg);
	if (config_bool(cfg, CFG_COMPARE_HOSTS) && !ctx.abort_all) {
		static struct hosts_switch_ctx hc;
		struct wl_host_switch sw;

		hosts_switcher(&hc, &sw, env, guard->card);
		wl_compare_hosts(&ctx, &sw);
	}
	/* Last: what a person reads first after the run. */
	if (strcmp(suite, "hostcost") != 0)
		wl_print_headline(&ctx);
	return ctx.interrupted;
}

/*
 * table.c - see table.h.
 */
#include "bench/workloads/app_class.h"
#include "bench/workloads/au.h"
#include "bench/workloads/basic.h"
#include "bench/workloads/clock_sweep.h"
#include "bench/workloads/modes.h"
#include "bench/workloads/queue.h"
#include "bench/workloads/sustained.h"
#include "bench/workloads/table.h"

static void seq_read(struct wl_ctx *c, const struct config *cfg)
{
	(void)cfg;
	wl_seq_sweep(c, false);
}

static void seq_write(struct wl_ctx *c, const struct config *cfg)
{
	(void)cfg;
	wl_seq_sweep(c, true);
}

static void random_rw(struct wl_ctx *c, const struct config *cfg)
{
	wl_random(c, config_u64(cfg, CFG_SPAN));
}

/* The workloads that take nothing from the configuration. */
#define PLAIN(fn)							\
	static void run_##fn(struct wl_ctx *c, const struct config *cfg) \
	{								\
		(void)cfg;						\
		fn(c);							\
	}
PLAIN(wl_variants)
PLAIN(wl_clock_sweep)
PLAIN(wl_app_class)
PLAIN(wl_au_detect)
PLAIN(wl_open_au)
PLAIN(wl_erase_per_au)
PLAIN(wl_sustained)
PLAIN(wl_modes)
PLAIN(wl_queue)

#define KEYS "profile seed"
#define WKEYS KEYS " verify write_tests"

/* Columns: name, help, writes, keys, suite_only, suites, run (table.h). */
const struct wl_entry wl_table[] = {
	{ "seq-read", "sequential reads, 512 B to 4 MiB transfers", false, KEYS, false,
	  WL_SUITE_BOTH, seq_read },
	{ "seq-write", "sequential writes, 512 B to 4 MiB transfers", true, WKEYS, false,
	  WL_SUITE_BOTH, seq_write },
	{ "random", "random reads (and writes, mixed 70/30, with a test area)", false,
	  KEYS " span verify write_tests", false, WL_SUITE_BOTH, random_rw },
	{ "variants", "command variants: CMD12, Auto-CMD12, CMD23, CMD17/24", false, WKEYS,
	  false, WL_SUITE_BOTH, run_wl_variants },
	{ "sweep", "clock and bus-width sweep, T(f) = a + b/f fit", false, WKEYS, false,
	  WL_SUITE_BOTH, run_wl_clock_sweep },
	{ "class", "the speed and application class check", false, WKEYS, false,
	  WL_SUITE_BOTH, run_wl_app_class },
	{ "au", "allocation unit size from read timing (reads only)", false, KEYS, false,
	  WL_SUITE_BOTH, run_wl_au_detect },
	{ "open-au", "how many AUs the card keeps open", true, WKEYS, false, WL_SUITE_BOTH,
	  run_wl_open_au },
	{ "erase", "erase time per AU", true, WKEYS, false, WL_SUITE_BOTH,
	  run_wl_erase_per_au },
	{ "sustained", "sustained writes until the rate settles", true, WKEYS, false,
	  WL_SUITE_BOTH, run_wl_sustained },
	{ "queue", "the command queue: IOPS and latency at depth 1..max, its checks", false,
	  WKEYS, false, WL_SUITE_FULL, run_wl_queue },
	/* Last: it initialises the card again in every mode. */
	{ "modes", "every bus mode both sides accept", false, KEYS, true, WL_SUITE_BOTH,
	  run_wl_modes },
};

const unsigned wl_table_count = sizeof(wl_table) / sizeof(wl_table[0]);

unsigned wl_suite_bit(bool quick)
{
	return quick ? WL_SUITE_QUICK : WL_SUITE_FULL;
}

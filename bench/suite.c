/*
 * suite.c - the benchmark suite: the controller's probe, the
 * measurement's own cost, the bus calibration, then every workload of
 * bench/workloads/table.c that names the suite, in table order.
 *
 * Profiles: "full" (about 10 minutes on a typical card) and "quick" (used
 * automatically under QEMU, where timings are emulation speed; each
 * workload moves little data so a whole QEMU run stays under a minute).
 */
#include "bench/engine/confirm.h"
#include "bench/engine/overhead.h"
#include "bench/storage/config.h"
#include "bench/engine/record.h"
#include "bench/suite.h"
#include "bench/engine/workload.h"
#include "bench/engine/workload_report.h"
#include "bench/workloads/silicon.h"
#include "bench/workloads/clock_sweep.h"
#include "bench/workloads/hostcost.h"
#include "bench/workloads/table.h"
#include "drivers/timer.h"
#include "lib/console.h"

/* The cost of the measurement itself, measured and printed. */
static void measure_overhead(struct wl_ctx *c)
{
	struct wl_overhead o;

	wl_measure_overhead(c, &o);
	wl_overhead_report(&o);
}

/* The "suite" record (docs/records.md) of a run that started at t0;
 * returns the number of errors reported so far. */
static unsigned suite_record(const struct wl_ctx *c, const char *profile, uint64_t t0)
{
	struct json *j = record_begin("suite");

	json_str(j, "profile", profile);
	json_u64(j, "elapsed_us", timer_now_us() - t0);
	json_bool(j, "aborted", c->abort_all);
	json_bool(j, "interrupted", c->interrupted);
	json_bool(j, "emulated", c->emulated);
	record_end();
	return record_error_count();
}

unsigned wl_run_hostcost(struct wl_ctx *c)
{
	uint64_t t0 = timer_now_us();

	con_printf("\nrequest-path cost, run id 0x%08x\n", (unsigned)c->run_id);
	measure_overhead(c);
	wl_hostcost(c);
	return suite_record(c, "hostcost", t0);
}

/* After each workload: the output so far goes to the results file (a few
 * blocks, between two measurements); false once the card stopped
 * answering. */
static bool between_workloads(struct wl_ctx *c)
{
	con_flush();
	return !c->abort_all;
}

unsigned wl_run_suite(struct wl_ctx *c, const struct config *cfg)
{
	uint64_t t0 = timer_now_us();
	unsigned suite = wl_suite_bit(c->quick);
	unsigned i, done = 0;

	c->verify = config_bool(cfg, CFG_VERIFY);
	/* The write guard already refuses every write (run.c built it from
	 * write_tests); say so once. */
	if (!config_bool(cfg, CFG_WRITE_TESTS) && c->ta)
		con_printf("write_tests = off: every write workload is skipped\n");
	con_printf("\nbenchmark: %s profile%s; run id 0x%08x\n", c->quick ? "quick" : "full",
		   c->emulated ? " (QEMU: every number below is emulation speed, not card speed)" : "",
		   (unsigned)c->run_id);
	/* The controller first: which of its looks the split may use. */
	wl_silicon_probe(c);
	measure_overhead(c);
	wl_bus_calibrate(c);
	/* Every workload of the table this suite names, in table order;
	 * from the second on, the output so far is flushed first and none
	 * runs once the card stopped answering. */
	for (i = 0; i < wl_table_count; i++) {
		if (!(wl_table[i].suites & suite))
			continue;
		if (!done++ || between_workloads(c))
			wl_table[i].run(c, cfg);
	}
	con_flush();
	/* Each summary verdict against an experiment (confirm.h). */
	if (config_bool(cfg, CFG_CONFIRM) && !c->abort_all)
		wl_confirm_run(c, config_u64(cfg, CFG_SPAN));
	if (c->interrupted)
		con_printf("\ninterrupted (Ctrl-C): the remaining workloads were skipped\n");
	else if (c->abort_all)
		con_printf("\nthe card stopped answering: the remaining workloads were skipped\n");
	wl_print_summary(c);
	return suite_record(c, c->quick ? "quick" : "full", t0);
}

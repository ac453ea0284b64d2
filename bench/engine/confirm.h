/*
 * confirm.h - each verdict confirmed by experiment on the device
 * (confirm.c; docs/attribution.md §6, docs/records.md "check").
 *
 * After the suite, each summary workload (the full suite) or headline
 * workload (the quick suite) runs again for a few operations: first as it
 * ran (the baseline), then under three counterfactuals whose outcome its
 * split predicts:
 *   clock      at half the SD clock: the time the split books on the bus
 *              (and the card's clock-paced waits) doubles, the rest stays;
 *   width      on a 1-bit bus at the same clock: each block's data frame
 *              grows by 3072 clocks at the clock's true period, nothing
 *              else changes (a divider off by one or a frame model off
 *              by a factor shows here, not at half the clock);
 *   cpu_delay  with a known CPU delay per block before each operation,
 *              timed by the 1 MHz system timer: the host time the engine
 *              measures (on the tick counter) grows by that, give or
 *              take what changes hands inside the requests.
 * A `check` record and a console line each; the summary's verdict says
 * "confirmed by ..." or "contradicted: ...". sdbench.txt "confirm = off"
 * turns it off. What they print: confirm_report.h.
 */
#ifndef SDB_BENCH_CONFIRM_H
#define SDB_BENCH_CONFIRM_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/engine/confirm_report.h"
#include "bench/engine/workload.h"

/* Called by wl_report for the summary entry it just added. */
void wl_confirm_note(struct wl_ctx *c, const struct wl_meas *m, uint32_t summary_index);

/* Pure: the clock check's prediction of the median operation time at
 * 'scale' times the clock period, from the baseline's median and the
 * workload's split: [*lo, *hi]. */
void wl_check_predict_clock(const struct wl_cf_src *s, double base_ns, double scale,
			    double *lo, double *hi);
/* Pure: the width check's prediction of the median operation time when
 * each operation's data frames take delta_ns longer (a 1-bit bus at the
 * same clock), from the baseline's median: [*lo, *hi]. */
void wl_check_predict_width(const struct wl_cf_src *s, double base_ns, double delta_ns,
			    double *lo, double *hi);
/* Pure: the cpu_delay check's prediction of the host time per operation
 * with delay_ns more between requests, from the baseline's: [*lo, *hi]. */
void wl_check_predict_delay(const struct wl_cf_src *s, double base_ns, double delay_ns,
			    double *lo, double *hi);
/* Pure: the tolerance from the prediction and the workload's spread. */
double wl_check_tolerance(const struct wl_cf_src *s, double predicted_ns);
/* Pure: confirmed when lo - tol <= measured <= hi + tol. */
enum wl_check_verdict wl_check_judge(double lo, double hi, double measured, double tol);

/* The checks of one workload (summary entry i): c must be where the suite
 * left it. out[kind] (enum wl_check_kind). Prints and records nothing. */
void wl_confirm_one(struct wl_ctx *c, const struct wl_cf_src *s, const char *name,
		    uint32_t span_blocks, struct wl_check out[WL_CHECK_KINDS]);

/* The suite's step: the targets of the profile (full: the summary's best
 * sequential read and write, random 4 KiB read and write and 70/30 mix;
 * quick: the same without the mix), their checks printed and recorded,
 * and the summary's verdicts updated. span_bytes: sdbench.txt "span". */
void wl_confirm_run(struct wl_ctx *c, uint64_t span_bytes);


#endif

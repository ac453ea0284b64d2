/*
 * confirm_report.h - what the counterfactual checks (confirm.h) print
 * (confirm_report.c): `check` and `checks` records (docs/records.md),
 * console lines, and the summary's verdict after them.
 */
#ifndef SDB_BENCH_CONFIRM_REPORT_H
#define SDB_BENCH_CONFIRM_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/engine/workload.h"

enum wl_check_kind { WL_CHECK_CLOCK, WL_CHECK_CPU_DELAY, WL_CHECK_WIDTH };
#define WL_CHECK_KINDS 3
enum wl_check_verdict { WL_CHECK_CONFIRMED, WL_CHECK_CONTRADICTED, WL_CHECK_NOT_RUN };

/* The tolerance: the larger of this share of the prediction, the
 * workload's own spread (p90 - p50 of its operations) and a floor. */
#define WL_CHECK_TOL_FRAC     0.03
#define WL_CHECK_TOL_SPREAD   1.0
#define WL_CHECK_TOL_MIN_NS   2000.0
/* ... and at least this times what the unchanged operations moved
 * between repeated runs (confirm.c, cf_drift). */
#define WL_CHECK_TOL_DRIFT    1.0

/* One check's outcome (what the record carries). */
struct wl_check {
	char workload[40];
	enum wl_check_kind kind;
	enum wl_check_verdict verdict;
	double predicted_ns;     /* low end of the prediction */
	double predicted_hi_ns;  /* high end (= low unless the bus may surface
				    from behind a slower CPU) */
	double measured_ns;
	double tolerance_ns;
	double baseline_ns;      /* the same measure in the baseline run */
	double drift_ns;         /* what it moved between repeated baseline runs */
	uint32_t ops;            /* operations of the counterfactual run */
	uint32_t clock_hz, cf_clock_hz;   /* clock: the workload's, the counterfactual's */
	uint32_t delay_ns_per_block;      /* cpu_delay */
	uint8_t width, cf_width;          /* width: the workload's bus width, the counterfactual's */
	uint64_t cost_us;
	char reason[96];         /* not_run: why */
};

const char *wl_check_kind_name(enum wl_check_kind k);
const char *wl_check_verdict_name(enum wl_check_verdict v);

/* One check: its console line and its record. */
void wl_check_report(const struct wl_check *k, bool emulated);
/* The step's heading, and its end: the counts and what it cost. */
void wl_checks_heading(void);
void wl_checks_report(const unsigned count[3], uint64_t elapsed_us, bool emulated);
/* The summary's verdict after a workload's checks: "..., confirmed by
 * ..." or "contradicted: ..." (and then no diagnosis); unchanged when
 * neither ran. */
void wl_confirm_verdict(struct wl_summary *s, const struct wl_check k[WL_CHECK_KINDS]);

#endif

/*
 * clock_sweep_report.h - what the clock and bus-width sweep
 * (clock_sweep.c) found, and how it is shown: one line and one "sweep"
 * record per clock as it is measured, then the fit T(f) = a + b/f per
 * direction and width (docs/records.md). clock_sweep.c measures and
 * analysis.c fits into struct sweep_result; the functions here only print
 * it (workload.h: measure, decide, report).
 */
#ifndef SDB_BENCH_WORKLOADS_CLOCK_SWEEP_REPORT_H
#define SDB_BENCH_WORKLOADS_CLOCK_SWEEP_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/workloads/analysis.h"

#define SWEEP_MAX_POINTS 8

struct sweep_point {
	uint32_t clock_hz;         /* what the host set */
	uint32_t requested_hz;
	uint32_t ops;
	double mean_ns;            /* mean operation time */
	double mbs;
	double ceiling_mbs;        /* the bus model's ceiling at this clock */
};

/* One direction at one bus width, every clock. */
struct sweep_result {
	/* plan */
	bool write;
	uint8_t width;
	bool emulated;
	uint32_t xfer_bytes;
	double model_bus_clocks;   /* the bus model's clocks per operation */
	/* measured */
	unsigned npoints;
	struct sweep_point pt[SWEEP_MAX_POINTS];
	/* decided */
	bool fitted;
	struct wla_sweep_fit fit;
};

/* The heading, before the first clock. */
void clock_sweep_report_heading(bool emulated);
/* The line and "sweep" record of point i, as soon as it is measured. */
void clock_sweep_report_point(const struct sweep_result *r, unsigned i);
/* The fit's "sweep" record and line. */
void clock_sweep_report_fit(const struct sweep_result *r);

#endif

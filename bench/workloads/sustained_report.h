/*
 * sustained_report.h - what the sustained write (sustained.c) found, and
 * how it is shown: the heading, the knee and stall lines and the
 * "sustained" record (docs/records.md). sustained.c measures and
 * analysis.c decides into struct sustained_result; the functions here only
 * print it (workload.h: measure, decide, report).
 */
#ifndef SDB_BENCH_WORKLOADS_SUSTAINED_REPORT_H
#define SDB_BENCH_WORKLOADS_SUSTAINED_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/workloads/analysis.h"

#define SUSTAINED_RATE_POINTS 32

struct sustained_result {
	/* plan */
	uint32_t xfer_bytes;       /* each write */
	uint32_t first_lba;
	uint64_t area_bytes;       /* the test area */
	uint64_t budget_bytes;     /* what the plan allows to write */
	bool emulated;
	/* measured */
	uint32_t ops;              /* successful writes (one latency sample each) */
	const char *stopped_by;    /* "budget", "area", "time", "errors" or "user" (Ctrl-C) */
	/* decided, on the samples in issue order */
	struct wla_knee knee;
	unsigned nrates;
	double rate_mbs[SUSTAINED_RATE_POINTS];
	uint32_t rate_group_ops;   /* writes per rate point */
};

/* The heading, before the writes. */
void sustained_report_heading(const struct sustained_result *r);
/* The knee and stall lines and the "sustained" record. */
void sustained_report(const struct sustained_result *r);

#endif

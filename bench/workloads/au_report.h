/*
 * au_report.h - what the erase-block / AU workloads (au.c) found, and how
 * it is shown: text lines and the "au" record (docs/records.md). The
 * result structs are filled by au.c (measure) and analysis.c (decide);
 * the functions here only print them (workload.h: measure, decide,
 * report).
 */
#ifndef SDB_BENCH_WORKLOADS_AU_REPORT_H
#define SDB_BENCH_WORKLOADS_AU_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/workloads/analysis.h"

#define AU_ALIGN_MAX_SIZES 13 /* 16 KiB .. 64 MiB */

/* The alignment read test (wl_au_detect). */
struct au_align_result {
	/* plan */
	uint32_t read_bytes;       /* each timed read */
	uint32_t base_lba;         /* boundaries are odd multiples of A from here */
	uint32_t positions;        /* boundaries per alignment */
	uint32_t au_bytes;         /* the declared AU, or the assumed one */
	bool au_declared;
	bool emulated;
	/* measured: one point per alignment, ascending */
	unsigned npoints;
	struct wla_align_point pt[AU_ALIGN_MAX_SIZES];
	/* decided */
	struct wla_boundary boundary;
	enum wla_au_match match;
};

/* The heading, before the reads. */
void au_report_align_heading(const struct au_align_result *r);
/* The table of the alignment points, the erase-block line and the "au"
 * record. */
void au_report_align(const struct au_align_result *r);

#endif

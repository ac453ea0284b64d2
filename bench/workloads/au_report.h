/*
 * au_report.h - what the erase-block / AU workloads (au.c) found, and how
 * it is shown: text lines and the "au", "open_au" and "erase" records
 * (docs/records.md). The
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

#define AU_OPEN_MAX_POINTS 16

/* The AU the open-AU and erase tests use, and where they start. */
struct au_plan {
	uint32_t au_bytes;
	bool au_declared;
	bool quick;                /* the quick profile's small AU, not the card's */
	bool emulated;
	uint32_t first_lba;        /* the first of the AUs used */
};

/* The open-AU test (wl_open_au). */
struct au_open_result {
	/* plan */
	struct au_plan plan;
	uint32_t chunk_bytes;      /* each write */
	/* measured: one point per number of open AUs, ascending */
	unsigned npoints;
	unsigned n[AU_OPEN_MAX_POINTS];
	double mbs[AU_OPEN_MAX_POINTS];
	uint32_t p50_ns[AU_OPEN_MAX_POINTS], p99_ns[AU_OPEN_MAX_POINTS];
	uint32_t max_ns[AU_OPEN_MAX_POINTS];
	bool errors[AU_OPEN_MAX_POINTS];
	const char *stopped_by;    /* "list", "area", "time" or "collapse" */
	/* decided */
	double rise;               /* the collapse: a median write this much longer */
	struct wla_open_au decision;
};

/* The heading, before the writes. */
void au_report_open_heading(const struct au_open_result *r);
/* The line of point i, as soon as it is measured. */
void au_report_open_point(const struct au_open_result *r, unsigned i);
/* The conclusion and the "open_au" record. */
void au_report_open(const struct au_open_result *r);

#define AU_ERASE_MAX_SINGLE 8

/* The erase time per AU (wl_erase_per_au). */
struct au_erase_result {
	/* plan */
	struct au_plan plan;
	bool have_timeout;         /* the SD Status gives an erase timeout */
	uint32_t timeout_ms;       /* ... for one AU */
	/* measured */
	unsigned count;            /* single-AU erases that succeeded */
	uint32_t t_us[AU_ERASE_MAX_SINGLE];
	bool multi_ok;             /* the erase of several AUs at once succeeded */
	uint32_t multi_aus;
	uint64_t multi_ns;
	/* decided */
	struct wla_spread single_us;
	double per_au_us;          /* each further AU of the multi-AU erase */
};

/* The heading, before the erases. */
void au_report_erase_heading(const struct au_erase_result *r);
/* The lines and the "erase" record. */
void au_report_erase(const struct au_erase_result *r);

#endif

/*
 * integrity_report.h - what the read-back check of written blocks
 * (wl_verify_written, workload.c) found, and how it is shown: one line
 * and the "integrity" record (docs/records.md), and an error when blocks
 * did not read back as written. It needs nothing of the engine but the
 * pattern classes, so the engine can print through it (workload.h:
 * measure, decide, report).
 */
#ifndef SDB_BENCH_INTEGRITY_REPORT_H
#define SDB_BENCH_INTEGRITY_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/engine/pattern.h"

struct wl_integrity {
	const char *workload;
	uint32_t blocks;                 /* read back and classified */
	uint32_t count[PAT_CORRUPTED + 1]; /* per enum pattern_class */
	uint32_t bad;                    /* blocks not PAT_OK */
	uint32_t first_bad_lba;          /* valid when bad */
	uint32_t read_errors;            /* ranges that could not be read */
	bool partial;                    /* only the first written ranges were remembered */
};

void wl_report_integrity(const struct wl_integrity *v);

#endif

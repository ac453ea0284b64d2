/*
 * table.h - every workload, registered once (table.c): each suite runs
 * the rows that name it, in table order; the console's "list" shows and
 * its "run" runs the ones it offers. A new workload is a row here
 * (docs/extending.md); a row names its suites, so adding one to a suite
 * changes no other suite's run (tests/test_suite_rows.py).
 */
#ifndef SDB_BENCH_WORKLOADS_TABLE_H
#define SDB_BENCH_WORKLOADS_TABLE_H

#include <stdbool.h>

#include "bench/engine/workload.h"
#include "bench/storage/config.h"

/* The suites a row belongs to (sdbench.txt's suite = quick|full; the
 * console's "suite [quick|full]"). */
#define WL_SUITE_QUICK 0x1u
#define WL_SUITE_FULL  0x2u
#define WL_SUITE_BOTH  (WL_SUITE_QUICK | WL_SUITE_FULL)

struct wl_entry {
	const char *name;        /* "run NAME" on the console */
	const char *help;        /* the console's "list" line */
	bool writes;             /* needs the test area (the write guard decides) */
	const char *keys;        /* the keys "run" takes, space-separated */
	bool suite_only;         /* run by the suite, not offered by "run" */
	unsigned suites;         /* WL_SUITE_*: the suites that run it */
	void (*run)(struct wl_ctx *c, const struct config *cfg);
};

extern const struct wl_entry wl_table[];
extern const unsigned wl_table_count;

/* The suite bit of a profile: WL_SUITE_QUICK or WL_SUITE_FULL. */
unsigned wl_suite_bit(bool quick);

#endif

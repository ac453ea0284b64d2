/*
 * table.h - every workload, registered once (table.c): the suite runs
 * them in this order, the console's "list" shows and its "run" runs the
 * ones it offers. A new workload is a row here (docs/extending.md).
 */
#ifndef SDB_BENCH_WORKLOADS_TABLE_H
#define SDB_BENCH_WORKLOADS_TABLE_H

#include <stdbool.h>

#include "bench/engine/workload.h"
#include "bench/storage/config.h"

struct wl_entry {
	const char *name;        /* "run NAME" on the console */
	const char *help;        /* the console's "list" line */
	bool writes;             /* needs the test area (the write guard decides) */
	const char *keys;        /* the keys "run" takes, space-separated */
	bool suite_only;         /* run by the suite, not offered by "run" */
	void (*run)(struct wl_ctx *c, const struct config *cfg);
};

extern const struct wl_entry wl_table[];
extern const unsigned wl_table_count;

#endif

/*
 * suite.h - the benchmark suite (suite.c): which workloads run, in which
 * order, with which budgets.
 */
#ifndef SDB_BENCH_SUITE_H
#define SDB_BENCH_SUITE_H

#include "bench/engine/workload.h"
#include "bench/storage/config.h"

/* Runs the whole suite the configuration asks for; returns the number of
 * errors reported so far. */
unsigned wl_run_suite(struct wl_ctx *c, const struct config *cfg);
/* suite = hostcost: the measurement's own cost ("overhead") and the
 * request-path cost per data path and request size ("hostcost"); reads
 * only. Returns the number of errors reported so far. */
unsigned wl_run_hostcost(struct wl_ctx *c);

#endif

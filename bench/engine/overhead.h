/*
 * overhead.h - the cost of the measurement itself: one timestamp, and the
 * bookkeeping wl_do does per operation (phase accumulation, latency sample,
 * series), measured by running the bookkeeping alone on synthetic
 * operations. overhead_report.c prints it.
 */
#ifndef SDB_BENCH_ENGINE_OVERHEAD_H
#define SDB_BENCH_ENGINE_OVERHEAD_H

#include "bench/engine/overhead_report.h"
#include "bench/engine/workload.h"

void wl_measure_overhead(struct wl_ctx *c, struct wl_overhead *o);

#endif

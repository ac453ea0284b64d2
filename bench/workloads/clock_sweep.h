/*
 * clock_sweep.h - the clock and bus-width sweep (clock_sweep.c) with the
 * fit T(f) = a + b/f ("sweep" records).
 */
#ifndef SDB_BENCH_WORKLOADS_CLOCK_SWEEP_H
#define SDB_BENCH_WORKLOADS_CLOCK_SWEEP_H

#include "bench/engine/workload.h"

void wl_clock_sweep(struct wl_ctx *c);

#endif

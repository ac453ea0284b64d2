/*
 * clock_sweep.h - the clock and bus-width sweep (clock_sweep.c) with the
 * fit T(f) = a + b/f ("sweep" records).
 */
#ifndef SDB_BENCH_WORKLOADS_CLOCK_SWEEP_H
#define SDB_BENCH_WORKLOADS_CLOCK_SWEEP_H

#include "bench/engine/workload.h"

void wl_clock_sweep(struct wl_ctx *c);
/* Measure the bus clocks per block (two reduced clocks, reads and, with a
 * test area, writes) into c->bus_cal, which the split of every later
 * workload at this width uses instead of the framing model alone ("bus"
 * record). Skipped under QEMU. */
void wl_bus_calibrate(struct wl_ctx *c);

#endif

/*
 * basic.h - the basic workloads (see basic.c) and the clock/width
 * sweep (clock_sweep.c).
 */
#ifndef SDB_BENCH_WL_BASIC_H
#define SDB_BENCH_WL_BASIC_H

#include "bench/engine/workload.h"

void wl_seq_sweep(struct wl_ctx *c, bool write);
void wl_random(struct wl_ctx *c, uint64_t span_bytes);
void wl_variants(struct wl_ctx *c);

#endif

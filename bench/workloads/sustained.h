/*
 * sustained.h - sustained sequential write (sustained.c): initial rate,
 * the cache-full knee, steady rate and stalls ("sustained" record).
 */
#ifndef SDB_BENCH_WORKLOADS_SUSTAINED_H
#define SDB_BENCH_WORKLOADS_SUSTAINED_H

#include "bench/engine/workload.h"

void wl_sustained(struct wl_ctx *c);

#endif

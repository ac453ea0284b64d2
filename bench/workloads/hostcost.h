/*
 * hostcost.h - the request-path cost step (hostcost.c): what one read
 * request costs the CPU, per data path of the host and request size.
 */
#ifndef SDB_BENCH_WORKLOADS_HOSTCOST_H
#define SDB_BENCH_WORKLOADS_HOSTCOST_H

#include "bench/engine/workload.h"

/* Sequential reads, then writes (into the test area, through the write
 * guard; skipped without one), of 1, 8, 128 and 8192 blocks through every
 * data path the host offers (host->data_paths): a table and one "hostcost"
 * record per path, direction and size. */
void wl_hostcost(struct wl_ctx *c);

#endif

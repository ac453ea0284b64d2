/*
 * hostcost.h - the request-path cost step (hostcost.c): what one read
 * request costs the CPU, per data path of the host and request size.
 */
#ifndef SDB_BENCH_WORKLOADS_HOSTCOST_H
#define SDB_BENCH_WORKLOADS_HOSTCOST_H

#include "bench/engine/workload.h"

/* Sequential reads of 1, 8, 128 and 8192 blocks through every data path
 * the host offers (host->data_paths): a table and one "hostcost" record
 * per path and size. Reads only. */
void wl_hostcost(struct wl_ctx *c);

#endif

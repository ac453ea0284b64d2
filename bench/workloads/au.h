/*
 * au.h - the erase-block / allocation-unit workloads (au.c): AU size from
 * alignment read timing (read-only, "au" record), how many AUs the card
 * keeps open for writing ("open_au"), and CMD38 erase time per AU
 * ("erase"); each prints a "skipped" record when it cannot run.
 */
#ifndef SDB_BENCH_WORKLOADS_AU_H
#define SDB_BENCH_WORKLOADS_AU_H

#include "bench/engine/workload.h"

void wl_au_detect(struct wl_ctx *c);
void wl_open_au(struct wl_ctx *c);
void wl_erase_per_au(struct wl_ctx *c);

#endif

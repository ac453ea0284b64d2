/*
 * app_class.h - the application and speed class check (app_class.c):
 * A1/A2 (SD Physical Layer §4.16) and Speed/UHS/Video class (§4.13),
 * measured inside the test area, next to what the card claims. Prints its
 * lines, the records of its timed parts and a "class" record, or "skipped".
 */
#ifndef SDB_BENCH_WORKLOADS_APP_CLASS_H
#define SDB_BENCH_WORKLOADS_APP_CLASS_H

#include "bench/engine/workload.h"

void wl_app_class(struct wl_ctx *c);

#endif

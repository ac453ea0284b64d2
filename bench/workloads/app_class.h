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

struct app_class_queued;
/* The A2 verdict on the queue workload's figures (a: its figures and
 * state, see app_class_report.h), with the class check's sequential write
 * when it ran: prints it and keeps it for the headline (c->claims). */
void wl_app_class_queued(struct wl_ctx *c, struct app_class_queued *a);

#endif

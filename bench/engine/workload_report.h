/*
 * workload_report.h - what the engine prints for a workload (the "report"
 * step of workload.h): the table line with MB/s, IOPS and latency
 * percentiles, the verdict line, and the result, latency, histogram,
 * series, phases and verdict records (docs/records.md); the "skipped"
 * record; the closing summary. Nothing here reads the card or the clock.
 */
#ifndef SDB_BENCH_WORKLOAD_REPORT_H
#define SDB_BENCH_WORKLOAD_REPORT_H

#include "bench/engine/workload.h"

/* Print what wl_end computed: the table and verdict lines, and when the
 * workload ran any operation its records, and enter it into the closing
 * summary. Uses the latency samples c->lat[0..m->nlat) (any order). */
void wl_report(struct wl_ctx *c, const struct wl_meas *m);

/* A workload that did not run, and why (text + "skipped" record). */
void wl_skip(const char *name, const char *why);

/* The closing summary: best sequential rates, random 4 KiB IOPS, their
 * verdicts (text + a "summary" record). */
void wl_print_summary(const struct wl_ctx *c);
/* The summary's best sequential workload whose name starts with prefix
 * ("seq-read-"): the highest measured rate (bytes over the workload's
 * time); NULL when none finished. The headline shows the same one. */
const struct wl_summary *wl_best_seq(const struct wl_ctx *c, const char *prefix);
/* The summary of the workload called name (NULL: it did not run). */
const struct wl_summary *wl_summary_named(const struct wl_ctx *c, const char *name);

#endif

/*
 * headline_report.h - the run's headline (headline_report.c): what the card
 * is, what it measured, what limits each figure, in a few lines at the end
 * of the console output, and the "headline" record (docs/records.md).
 */
#ifndef SDB_BENCH_HEADLINE_REPORT_H
#define SDB_BENCH_HEADLINE_REPORT_H

#include "bench/engine/workload.h"

/* Operations a figure needs to count as a median with a spread. */
#define HEADLINE_MIN_OPS 3

/* From c->summary (the finished workloads) and the card's registers as
 * read at initialisation; prints nothing when no workload finished. */
void wl_print_headline(const struct wl_ctx *c);

#endif

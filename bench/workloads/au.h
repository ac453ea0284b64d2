/*
 * wl_extra.h - the card-characterising workloads: the application and speed
 * class checks (wl_appclass.c), the erase-block / AU tests (wl_au.c) and the
 * sustained write (wl_sustained.c). Each prints its readable lines, the
 * standard records of its timed parts and one record of its own ("class",
 * "au", "open_au", "erase", "sustained"; docs/records.md), or a "skipped"
 * record saying why it could not run.
 */
#ifndef SDB_BENCH_WL_EXTRA_H
#define SDB_BENCH_WL_EXTRA_H

#include "bench/workload.h"

/* A1/A2 (SD Physical Layer §4.16) and Speed/UHS/Video class (§4.13),
 * measured inside the test area, next to what the card claims. */
void wl_app_class(struct wl_ctx *c);
/* Erase-block / AU size from alignment read timing (read-only). */
void wl_au_detect(struct wl_ctx *c);
/* How many AUs the card keeps open for writing at once. */
void wl_open_au(struct wl_ctx *c);
/* CMD38 erase time per AU in the test area. */
void wl_erase_per_au(struct wl_ctx *c);
/* Sustained sequential write: initial rate, knee, steady rate, stalls. */
void wl_sustained(struct wl_ctx *c);

#endif

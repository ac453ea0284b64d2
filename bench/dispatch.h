/*
 * dispatch.h - run what sdbench.txt's "suite" asks for (dispatch.c): the
 * benchmark (quick or full), the SD stack self-test, or nothing.
 */
#ifndef SDB_BENCH_DISPATCH_H
#define SDB_BENCH_DISPATCH_H

#include "bench/engine/workload.h"
#include "bench/env.h"
#include "bench/storage/config.h"
#include "bench/storage/write_guard.h"
#include "drivers/sd/sd.h"

/* Set up c for a benchmark run (the quick or full profile): memory, run id,
 * seed (cfg), where reads start, Ctrl-C polling. 0, or -ENOSPC (reported)
 * when there is too little memory. */
int bench_ctx_init(struct wl_ctx *c, const struct bench_env *env, const struct config *cfg,
		   struct write_guard *guard, bool quick);

/* A measurement run starts in the session (a console command; the
 * configured suite when it is not the first run of the boot): the
 * run_start record (docs/records.md), so that a capture of the session
 * reads as several runs. source: "console" or "config"; what: the workload
 * or suite. */
void bench_run_start(const char *source, const char *what);

/* Reads go anywhere; every write and erase goes through guard. Ctrl-C
 * twice in a row on the serial line stops the suite (one alone may be
 * noise); true when it did. */
bool bench_dispatch(const struct bench_env *env, const struct config *cfg,
		    struct write_guard *guard);

#endif

/*
 * console.h - the interactive serial console (console.c): the offer at
 * boot ("press any key within 3 s for the console") and the prompt
 * "sdbench> " with its commands (parse.h has the tables and the checks).
 * Workloads run from here print the same records as in a suite.
 */
#ifndef SDB_BENCH_CONSOLE_H
#define SDB_BENCH_CONSOLE_H

#include <stdbool.h>

#include "bench/env.h"
#include "bench/storage/blkdev.h"
#include "bench/storage/storage.h"
#include "bench/storage/write_guard.h"
#include "drivers/sd/sd.h"

/* What the console works on: the run's card, what was found on it, the
 * write guard (rebuilt from the effective configuration before each
 * command), and the caller's test-area report. */
struct console_io {
	const struct bench_env *env;
	struct sd_card *card;
	const struct blkdev *dev;
	struct storage *st;
	struct write_guard *guard;
	void (*report_area)(const struct test_area *area);
};

/* Print the offer and wait (bounded by the timer) for a key. True when one
 * came; false at once when the platform has no console input. */
bool console_offer(const struct bench_env *env, unsigned seconds);

/* The prompt loop; returns after "halt". */
void console_run(const struct console_io *io);

#endif

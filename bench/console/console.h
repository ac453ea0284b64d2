/*
 * console.h - the interactive serial console (console.c): the offer at
 * boot ("press Enter within 3 s for the console") and the prompt
 * "sdbench> " with its commands (parse.h has the tables and the checks).
 * Workloads run from here print the same records as in a suite.
 */
#ifndef SDB_BENCH_CONSOLE_H
#define SDB_BENCH_CONSOLE_H

#include <stdbool.h>

#include "bench/env.h"
#include "bench/settings.h"
#include "bench/storage/blkdev.h"
#include "bench/storage/storage.h"
#include "bench/storage/write_guard.h"
#include "drivers/sd/sd.h"

/* What the console works on: the run's card, what was found on it, the
 * write guard (rebuilt from the effective configuration before each
 * command), and the settings "set" applies through (settings.h). */
struct console_io {
	const struct bench_env *env;
	struct sd_card *card;
	const struct blkdev *dev;
	struct storage *st;
	struct write_guard *guard;
	struct settings *settings;
};

/* Print the offer and wait (bounded by the timer) for Enter (CR or LF);
 * other bytes are ignored, so noise on the line cannot open the console.
 * True when Enter came; false at once when the platform has no console
 * input. */
bool console_offer(const struct bench_env *env, unsigned seconds);

enum console_end {
	CONSOLE_HALT,	/* "halt": the run ends */
	CONSOLE_IDLE,	/* console_idle seconds without a command */
};

/* The prompt loop; returns after "halt", or after console_idle seconds
 * (sdbench.txt; 0 = never) in which no command was entered. */
enum console_end console_run(const struct console_io *io);

#endif

/*
 * settings.h - one path from a setting to the running system: sdbench.txt
 * at boot and the console's "set" both go through here. A key that changes
 * the running system (host, bus_mode, max_clock_hz, data_path,
 * dma_pio_blocks, test_area, write_tests, led) is applied at once; the others are
 * read by the next run. A key that cannot be applied keeps its previous
 * value and the refusal names where the value came from (sdbench.txt line
 * N, or the console). docs/config.md lists the keys.
 */
#ifndef SDB_BENCH_SETTINGS_H
#define SDB_BENCH_SETTINGS_H

#include <stdint.h>

#include "bench/env.h"
#include "bench/storage/blkdev.h"
#include "bench/storage/config.h"
#include "bench/storage/storage.h"
#include "bench/storage/write_guard.h"
#include "drivers/sd/sd.h"

/* What the settings act on: the run's own copies (env->host follows the
 * "host" key; the console reads the same objects). */
struct settings {
	struct bench_env *env;
	struct sd_card *card;
	struct blkdev *dev;
	struct storage *st;
	struct write_guard *guard;
	const char *usual_host;   /* the board's own choice ("host = auto") */
	uint32_t card_max_hz;     /* the card's maximum before max_clock_hz */
};

void settings_init(struct settings *s, struct bench_env *env, struct sd_card *card,
		   struct blkdev *dev, struct storage *st, struct write_guard *guard);

/* sdbench.txt, once read: host, bus_mode, max_clock_hz, the test area,
 * data_path and the write guard, in that order. Returns 0, or the error
 * when no host is left to drive the card (the run ends). */
int settings_apply_file(struct settings *s);

/* The console's "set": want is the effective configuration with the keys
 * in the bit set 'changed' given new values (con_parse_set checked their
 * syntax). Each is applied in the order above, then the others are taken
 * as they are. Returns the number of keys refused (their old values stay). */
unsigned settings_apply_set(struct settings *s, const struct config *want, unsigned changed);

/* The write guard from cfg's write_tests and the current test area (the
 * console passes a run's own key=value overrides). */
void settings_guard(struct settings *s, const struct config *cfg);

/* The test area line and its record (the console's "area"). */
void settings_report_area(const struct settings *s);

#endif

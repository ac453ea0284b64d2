/*
 * run.c - the program flow after start-up: select the SD controller,
 * initialise the card, and run what the configuration asks for.
 */
#include "bench/env.h"
#include "bench/record.h"
#include "lib/console.h"
#include "lib/err.h"

unsigned bench_main(const struct bench_env *env)
{
	if (env->select_emmc_pins) {
		int r = env->select_emmc_pins();

		if (r)
			record_error("init", r, "could not select the EMMC controller pins");
	}
	return record_error_count();
}

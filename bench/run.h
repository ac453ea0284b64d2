/*
 * run.h - the second half of the program flow: run what the configuration
 * asks for (the suite or the self-test) on an initialised card.
 */
#ifndef SDB_BENCH_RUN_H
#define SDB_BENCH_RUN_H

#include "bench/config.h"
#include "bench/env.h"
#include "bench/test_area.h"
#include "drivers/sd/sd.h"

void bench_dispatch(const struct bench_env *env, struct sd_card *card,
		    const struct config *cfg, const struct test_area *area);

#endif

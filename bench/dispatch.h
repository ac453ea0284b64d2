/*
 * dispatch.h - run what sdbench.txt's "suite" asks for (dispatch.c): the
 * benchmark (quick or full), the SD stack self-test, or nothing.
 */
#ifndef SDB_BENCH_DISPATCH_H
#define SDB_BENCH_DISPATCH_H

#include "bench/env.h"
#include "bench/storage/config.h"
#include "bench/storage/test_area.h"
#include "drivers/sd/sd.h"

void bench_dispatch(const struct bench_env *env, struct sd_card *card,
		    const struct config *cfg, const struct test_area *area);

#endif

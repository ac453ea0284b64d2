/*
 * run.h - the program flow after start-up (run.c): the card, its report,
 * the layout, sdbench.txt, the test area, then what the configuration asks
 * for (dispatch.h).
 */
#ifndef SDB_BENCH_RUN_H
#define SDB_BENCH_RUN_H

#include "bench/env.h"

/* Runs the whole program after start-up; returns the number of errors. */
unsigned bench_main(const struct bench_env *env);

#endif

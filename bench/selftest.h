/*
 * selftest.h - the SD stack self-test: reads known LBAs with every command
 * and termination mode and reports a CRC-32 per mode, writes a
 * self-identifying pattern into a range inside the test area and reads it
 * back. The QEMU tests (tests/qemu/test_sd_stack.py) check its records
 * against the image file.
 */
#ifndef SDB_BENCH_SELFTEST_H
#define SDB_BENCH_SELFTEST_H

#include <stdint.h>

#include "bench/storage/blkdev.h"
#include "bench/env.h"
#include "bench/storage/write_guard.h"
#include "drivers/sd/sd.h"

struct config;
struct test_area;

/* Every block written by the self-test is a test block of
 * bench/engine/pattern.h: pattern_fill(block, lba, run_id, seq) with seq the
 * block's index in the written range. */

struct selftest_cfg {
	const struct lba_range *reads; /* ranges to read (selftest_lbas) */
	unsigned nreads;
	const struct lba_range *write; /* range to write (selftest_write) or NULL */
	struct write_guard *guard;     /* every write and erase goes through it */
	uint32_t run_id;
	uint8_t *buf;                  /* scratch, cacheable */
	uint32_t buf_bytes;
};

/* Runs the tests, prints one "selftest" record per test. Returns the
 * number of failures (each also reported with record_error). */
int selftest_sd(struct sd_card *card, const struct selftest_cfg *cfg);

/* The self-test as sdbench.txt configures it: selftest_lbas (the ranges to
 * read; without it the first and the last 8 blocks of the card), selftest_write (the range to write, only inside 'area'), seed (the
 * run id; the time otherwise). Returns the number of failures. */
int selftest_run(const struct bench_env *env, struct sd_card *card,
		 const struct config *cfg, struct write_guard *guard);

#endif

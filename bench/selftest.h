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

/* Every block written by the self-test: little-endian 32-bit words
 * w[0] = SELFTEST_MAGIC, w[1] = lba, w[2] = run_id, w[3] = seq (index in
 * the written range), w[i] = lba * 2654435761 ^ run_id * 40503 ^
 * i * 16777619 (mod 2^32) for i = 4..127. */
#define SELFTEST_MAGIC 0x57424453u /* "SDBW" */

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

/* Fill one block of the pattern above. */
void selftest_fill(uint32_t *block, uint32_t lba, uint32_t run_id, uint32_t seq);

/* The self-test as sdbench.txt configures it: selftest_lbas (the ranges to
 * read; without it the first and the last 8 blocks of the card), selftest_write (the range to write, only inside 'area'), seed (the
 * run id; the time otherwise). Returns the number of failures. */
int selftest_run(const struct bench_env *env, struct sd_card *card,
		 const struct config *cfg, struct write_guard *guard);

#endif

/*
 * write_guard.h - the one place that decides "may this block be written?"
 * and the only code in bench/ that sends writes and erases to the card.
 *
 * Built once per run from the test-area decision (test_area.h), the card's
 * write protection (the slot's switch or the CSD) and sdbench.txt's
 * write_tests. Every write and erase of the engine, the workloads and the
 * self-test goes through write_guard_write(), write_guard_write_single() or
 * write_guard_erase(): each checks the range first and sends nothing when
 * it is refused. tests/test_layering.py checks that no other code in
 * bench/ calls the card layer's write or erase functions, and the simulator
 * test test_write_guard.c that a guard refusing everything puts no write or
 * erase command on the bus in any workload.
 */
#ifndef SDB_BENCH_STORAGE_WRITE_GUARD_H
#define SDB_BENCH_STORAGE_WRITE_GUARD_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/storage/test_area.h"
#include "drivers/sd/sd.h"

/* Test modes, to show that no write path goes around the guard. */
enum write_guard_test {
	WRITE_GUARD_NORMAL = 0,
	WRITE_GUARD_REFUSE_ALL,  /* no writes possible at all */
	WRITE_GUARD_REFUSE_EACH, /* writes look possible, every request is refused */
};

/* The second region writes may go to: the data blocks of the results file
 * (bench/storage/results_file.c), in up to this many runs. */
#define WRITE_GUARD_LOG_RUNS 16

struct write_guard {
	struct sd_card *card;
	const struct test_area *area; /* where writes may go (bounds even when refused) */
	bool write_tests;             /* sdbench.txt write_tests */
	const char *off_why;          /* why write_tests is off when not by choice
				       * (an unreadable value), NULL otherwise */
	uint32_t refused;             /* requests refused so far */
	bool card_refused;            /* the card answered a write or erase with
				       * WP_VIOLATION (-EROFS) during the run: it
				       * turned read-only (worn cards do); no
				       * further writes */
	enum write_guard_test test;   /* tests only; WRITE_GUARD_NORMAL otherwise */
	/* The results file's data blocks (none until write_guard_allow_log);
	 * only write_guard_log_write() may write there. */
	struct lba_range log[WRITE_GUARD_LOG_RUNS];
	unsigned nlog;
	/* What the guard turned on in the card's Performance Enhancement
	 * function (write_guard_cache / write_guard_cq), to turn off again. */
	bool cache_on, cq_on;
};

void write_guard_init(struct write_guard *g, struct sd_card *card,
		      const struct test_area *area, bool write_tests);
/* The same with a new area and write_tests, keeping the results file's
 * region (the console rebuilds the guard from its settings). */
void write_guard_rebuild(struct write_guard *g, struct sd_card *card,
			 const struct test_area *area, bool write_tests);

/* Whether any write may happen at all on this run. */
bool write_guard_writes_possible(const struct write_guard *g);
/* Why not (NULL when writes are possible): the card's write protection
 * first, then write_tests = off, then the missing test area. */
const char *write_guard_why_not(const struct write_guard *g);
/* [lba, lba + count) lies inside the test area's bounds (whether or not
 * writes are possible now). */
bool write_guard_in_area(const struct write_guard *g, uint32_t lba, uint32_t count);
/* The decision for one request: 0 when [lba, lba + count) may be written,
 * -EROFS on a write-protected card, -EPERM otherwise. Counts refusals. */
int write_guard_check(struct write_guard *g, uint32_t lba, uint32_t count);

/* The card layer's writes and erase, after write_guard_check(). */
int write_guard_write(struct write_guard *g, uint32_t lba, uint32_t count, const void *buf,
		      enum sd_stop_mode stop, struct sd_req_times *times);
int write_guard_write_single(struct write_guard *g, uint32_t lba, const void *buf,
			     struct sd_req_times *times);
int write_guard_erase(struct write_guard *g, uint32_t lba, uint32_t count,
		      struct sd_req_times *times);

/*
 * The card's cache and command queue (SD 6.00 Performance Enhancement,
 * drivers/sd/sd_cq.h, CMD49 with read-back). Turning either on is a write:
 * only when writes are possible (-EROFS / -EPERM otherwise, nothing sent;
 * never in the test modes); turning off is always allowed. A flush
 * commits what the card holds (only where the guard turned the cache on,
 * else -EPERM). The guard remembers what it turned on.
 */
int write_guard_cache(struct write_guard *g, bool on);
int write_guard_cq(struct write_guard *g, bool on);
int write_guard_flush(struct write_guard *g, uint32_t *us);
/* Queue a task (drivers/sd/sd_cq.h sd_cq_queue): a write only into the
 * test area and when writes are possible (write_guard_check's answer,
 * nothing sent otherwise); a read anywhere on the card. Running it
 * (sd_cq_run) then moves the blocks the guard allowed. */
int write_guard_cq_queue(struct write_guard *g, unsigned id, bool read, uint32_t lba,
			 uint32_t count);
/* Leave the card as it was found: the queue off, the cache flushed and off,
 * where the guard turned them on (the end of every run, every stop, every
 * error). 0, or the first error (the later steps are still tried). */
int write_guard_card_as_found(struct write_guard *g);

/*
 * The results file: allow writes to the runs ext[0..n) as well (the blocks
 * inside the file's own clusters, fat_file_chain()). Refused (-EINVAL, the
 * region stays empty) when there are more than WRITE_GUARD_LOG_RUNS runs,
 * a run is empty, wraps, lies past the card's end or overlaps the test area
 * (the benchmark would overwrite the output). 0 on success.
 */
int write_guard_allow_log(struct write_guard *g, const struct lba_range *ext, unsigned n);
/* Write count blocks at lba of the results file: the whole range must lie
 * inside one run of the log region. -EROFS on a write-protected card,
 * -EPERM outside the region or when the guard refuses everything (test
 * modes); else the card's answer. write_tests does not gate it (the file
 * is the user's request for output, not a test write). */
int write_guard_log_write(struct write_guard *g, uint32_t lba, uint32_t count, const void *buf);

#endif

/*
 * test_area.h - where the benchmark may write: the one run of blocks that is
 * provably unused by the card's partitions and files, or none (with the
 * reason and a hint how to make room). docs/test-area.md explains the rules
 * to users.
 *
 * Order (first that qualifies wins):
 *   1. an explicit test_area range from sdbench.txt that is inside the card,
 *      does not touch LBA 0 and overlaps no partition (a range that fails
 *      is refused with a note naming the partition, and the search goes on);
 *   2. the unpartitioned space after the last MBR partition, start aligned
 *      up to 4 MiB, at least 16 MiB;
 *   3. SDBENCH.DAT in the root of the FAT boot partition, if it is one
 *      contiguous run of clusters of at least 16 MiB (start aligned up to
 *      4 MiB inside the file when the rest is still large enough).
 * A GPT card, an unreadable, missing or inconsistent MBR gives no area.
 * Areas 1 and 2 are also refused on a card whose addresses wrap (a
 * fake-capacity card that reads its MBR back at a power-of-two LBA).
 *
 * Every write path of the benchmark calls test_area_contains() first.
 */
#ifndef SDB_BENCH_TEST_AREA_H
#define SDB_BENCH_TEST_AREA_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/storage/blkdev.h"

struct mbr_info;
struct json;

#define TEST_AREA_FILE_NAME	"SDBENCH.DAT"
#define TEST_AREA_ALIGN_BLOCKS	8192u	/* 4 MiB */
#define TEST_AREA_MIN_BLOCKS	32768u	/* 16 MiB */

enum test_area_source {
	TEST_AREA_NONE,
	TEST_AREA_CONFIG,
	TEST_AREA_UNPARTITIONED,
	TEST_AREA_FILE,
};

struct test_area {
	bool usable;
	enum test_area_source source;
	uint32_t first_lba;
	uint32_t count;
	char reason[224];	/* which area and why, or why there is none */
	char note[160];		/* a refused explicit range ("" if none) */
	char hint[448];		/* how to make room ("" when usable) */
	bool wrap_checked;	/* the capacity (wrap) check read the card through */
	uint64_t wrap_lba;	/* where the addresses wrap (0: no wrap found) */
};

/*
 * Choose the test area of dev, whose partition table mbr_parse() has read
 * into mi. explicit_range is the configured test_area or NULL. Reads (never
 * writes) the card: the FAT boot partition for SDBENCH.DAT and a few blocks
 * for the wrap check. Returns 0 when an area is usable, else -ENOSPC (no
 * room), -ENOTSUP (GPT), -EINVAL (bad table) or a read error; ta is always
 * filled in.
 */
int test_area_choose(struct test_area *ta, const struct blkdev *dev, const struct mbr_info *mi,
		     const struct lba_range *explicit_range);
/* The same, naming where explicit_range came from in the messages ("from
 * sdbench.txt", "set on the console"). */
int test_area_choose_from(struct test_area *ta, const struct blkdev *dev,
			  const struct mbr_info *mi, const struct lba_range *explicit_range,
			  const char *from);
/* No area because the configuration could not be read whole (why: which
 * line and what was wrong, config_no_writes_why()): writes are off rather
 * than going elsewhere. */
void test_area_refuse_bad_config(struct test_area *ta, const char *why);

/* The write guard: true only when [lba, lba + count) lies inside a usable
 * test area (count 0 is never inside). */
bool test_area_contains(const struct test_area *ta, uint32_t lba, uint32_t count);

/* "config", "unpartitioned", "file", "none" */
const char *test_area_source_name(enum test_area_source s);

/* usable, source, first_lba, count, bytes, reason, note, hint as members of
 * the open JSON object j (the caller picks the record type). */
void test_area_json(const struct test_area *ta, struct json *j);

#endif

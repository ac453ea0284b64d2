/*
 * storage.h - the whole read-only look at a card before a run, in the order
 * the rules need it: partition table (mbr.h), sdbench.txt from the boot
 * partition (config_card.h), SDBENCH.LOG there (results_file.h), then the
 * write test area (test_area.h) with the configured test_area range. Used by the firmware and by tools/sdarea.c, so
 * a user can see on a PC what the firmware will decide.
 */
#ifndef SDB_BENCH_STORAGE_H
#define SDB_BENCH_STORAGE_H

#include "bench/storage/blkdev.h"
#include "bench/storage/config.h"
#include "bench/storage/mbr.h"
#include "bench/storage/results_file.h"
#include "bench/storage/test_area.h"

struct json;

struct storage {
	struct mbr_info mbr;
	int mbr_status;		/* mbr_parse()'s return */
	struct config cfg;	/* defaults + sdbench.txt */
	int config_status;	/* 0 read, -ENOENT no file, else -errno */
	struct test_area area;
	int area_status;	/* test_area_choose()'s return: 0 = usable */
	struct results_file results;	/* SDBENCH.LOG (results_file.h) */
	int results_status;	/* results_file_find()'s return: 0 = usable */
};

/*
 * Fill st (about 5 KiB: keep it static) from dev. Reads only. Always
 * completes; the three status fields and the reason strings say what was
 * found. Returns 0 when a write area is usable, else area_status.
 */
int storage_probe(struct storage *st, const struct blkdev *dev);

/* mbr kind, reason, disk_id, partitions[] as members of the open JSON
 * object j. */
void storage_mbr_json(const struct mbr_info *mi, struct json *j);

#endif

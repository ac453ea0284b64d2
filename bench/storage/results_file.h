/*
 * results_file.h - where the console output may be kept on the card: the
 * data blocks of SDBENCH.LOG in the root directory of the FAT boot
 * partition (make image and make install create it at full size, filled
 * with a pattern; docs/results-file.md).
 *
 * Reads only: finds the directory entry, follows the cluster chain
 * (FAT12/16/32, fat_file_chain()) and checks that chain and size agree.
 * The writes go through the write guard (write_guard_log_write()).
 */
#ifndef SDB_BENCH_STORAGE_RESULTS_FILE_H
#define SDB_BENCH_STORAGE_RESULTS_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/storage/blkdev.h"
#include "bench/storage/write_guard.h"

struct fat_vol;

#define RESULTS_FILE_NAME	"SDBENCH.LOG"
/* Smaller than this is refused: a run's output would not fit. */
#define RESULTS_FILE_MIN_BLOCKS	128u	/* 64 KiB */

struct results_file {
	bool usable;
	struct lba_range ext[WRITE_GUARD_LOG_RUNS]; /* data blocks, in file order */
	unsigned n;
	uint32_t blocks;	/* whole blocks of the file: the bytes it can hold / 512 */
	uint32_t size;		/* the directory entry's size */
	char reason[192];	/* why not ("" when usable) */
};

/* Fill rf from the mounted boot volume (NULL: there is none). 0 when
 * usable, else -errno with rf->reason (-ENOENT: no such file). Reads the
 * card only where the volume's cache does not hold the blocks already
 * (the root directory sdbench.txt was just read from usually is). */
int results_file_find(struct results_file *rf, struct fat_vol *vol);

#endif

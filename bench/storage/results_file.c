/*
 * results_file.c - find SDBENCH.LOG and its data blocks (results_file.h).
 */
#include <string.h>

#include "bench/storage/fat.h"
#include "bench/storage/results_file.h"
#include "lib/err.h"
#include "lib/fmt.h"

int results_file_find(struct results_file *rf, struct fat_vol *vol)
{
	struct fat_dirent de;
	int ret;

	memset(rf, 0, sizeof(*rf));
	if (!vol) {
		fmt_snprintf(rf->reason, sizeof(rf->reason), "no FAT boot partition");
		return -ENOENT;
	}
	ret = fat_find_root(vol, RESULTS_FILE_NAME, &de);
	if (!ret) {
		rf->size = de.size;
		ret = fat_file_chain(vol, &de, rf->ext, WRITE_GUARD_LOG_RUNS, &rf->n);
	}
	if (ret) {
		fmt_snprintf(rf->reason, sizeof(rf->reason), "%s", vol->why);
		rf->n = 0;
		return ret;
	}
	for (unsigned i = 0; i < rf->n; i++)
		rf->blocks += rf->ext[i].count;
	if (rf->blocks < RESULTS_FILE_MIN_BLOCKS) {
		fmt_snprintf(rf->reason, sizeof(rf->reason), "%s is only %lu bytes (at least "
			     "%u KiB needed)", RESULTS_FILE_NAME, (unsigned long)de.size,
			     RESULTS_FILE_MIN_BLOCKS / 2);
		rf->n = 0;
		return -ENOSPC;
	}
	rf->usable = true;
	return 0;
}

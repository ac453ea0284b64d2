/*
 * fuzz_fat.c - libFuzzer target: the FAT reader (bench/storage/fat.c,
 * bpb.c) on a fuzzed volume (fuzz_image.h: the volume starts at LBA 0 of
 * the image). Mounts it, looks up SDBENCH.TXT and SDBENCH.DAT in the root
 * directory, reads the first, proves the contiguity of the second and
 * checks the extent it returns: inside the volume, inside the data region
 * (never the boot sector, FATs or fixed root directory), on the file's own
 * clusters. The chain follower (fat_file_chain, for SDBENCH.LOG) runs on
 * the same file: its runs must lie in the data region and the volume, not
 * overlap each other, and hold no more blocks than the file's size.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/storage/bpb.h"
#include "bench/storage/fat.h"
#include "tests/fuzz/fuzz_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len);

static void check_chain(struct fat_vol *vol, const struct fat_dirent *de, uint32_t part_blocks)
{
	struct lba_range r[8];
	uint64_t vol_blocks = (uint64_t)vol->total_sec * vol->blocks_per_sec;
	uint64_t data0 = (uint64_t)vol->data_sec * vol->blocks_per_sec, total = 0;
	unsigned n, i, j;

	if (fat_file_chain(vol, de, r, 8, &n))
		return;
	for (i = 0; i < n; i++) {
		total += r[i].count;
		if (!r[i].count || r[i].first < data0 || lba_range_end(&r[i]) > vol_blocks ||
		    (part_blocks && lba_range_end(&r[i]) > part_blocks))
			abort();
		for (j = 0; j < i; j++)
			if (lba_range_overlap(&r[i], &r[j]))
				abort();
	}
	if (n == 0 || n > 8 || total * BLKDEV_BLOCK_SIZE > de->size)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	static struct fat_vol vol;
	static uint8_t file[4096];
	struct fz_image im;
	struct blkdev dev;
	struct fat_dirent de;
	struct lba_range ext;
	uint32_t part_blocks;

	if (fz_image_open(&im, &dev, in, len))
		return 0;
	/* The partition's size: the card, or (low byte of the header's
	 * second word) unknown. */
	part_blocks = (len > 5 && in[4] == 0xFA) ? 0 : im.total_blocks;
	if (fat_mount(&vol, &dev, 0, part_blocks))
		return 0;
	if (fat_find_root(&vol, "SDBENCH.TXT", &de) == 0) {
		int n = fat_read_file(&vol, &de, file, sizeof(file));

		if (n > (int)sizeof(file))
			abort();
	}
	if (fat_find_root(&vol, "SDBENCH.DAT", &de) == 0)
		check_chain(&vol, &de, part_blocks);
	if (fat_find_root(&vol, "SDBENCH.DAT", &de) == 0 &&
	    fat_file_extent(&vol, &de, &ext) == 0) {
		uint64_t vol_blocks = (uint64_t)vol.total_sec * vol.blocks_per_sec;
		uint64_t data0 = (uint64_t)vol.data_sec * vol.blocks_per_sec;
		uint64_t first = data0 + (uint64_t)(de.first_cluster - 2) * vol.sec_per_clus *
				 vol.blocks_per_sec;

		if (!ext.count || (uint64_t)ext.first + ext.count > vol_blocks ||
		    ext.first < data0 || ext.first != first ||
		    (uint64_t)ext.count * BLKDEV_BLOCK_SIZE > de.size ||
		    (part_blocks && (uint64_t)ext.first + ext.count > part_blocks)) {
			fprintf(stderr, "bad extent %lu+%lu (data from %llu, volume %llu blocks, "
				"file %lu bytes from cluster %lu)\n", (unsigned long)ext.first,
				(unsigned long)ext.count, (unsigned long long)data0,
				(unsigned long long)vol_blocks, (unsigned long)de.size,
				(unsigned long)de.first_cluster);
			abort();
		}
	}
	return 0;
}

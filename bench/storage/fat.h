/*
 * fat.h - a small read-only FAT12/16/32 reader for the boot partition: check
 * the BPB, find a file by its 8.3 name in the root directory, read a small
 * file (the configuration), prove that a file (SDBENCH.DAT) is one
 * contiguous run of clusters, returning the blocks it covers, and follow a
 * file's chain into a list of runs (SDBENCH.LOG, the results file).
 *
 * Follows the Microsoft FAT specification (FAT type by cluster count, BPB
 * fields, directory entries, end-of-chain markers). Not supported:
 * subdirectories, long file names (entries are matched by their short name,
 * which every FAT implementation also writes), exFAT, writing anything.
 * Every loop is bounded (cluster counts, directory size) so a corrupt file
 * system gives an error, never a hang.
 */
#ifndef SDB_BENCH_FAT_H
#define SDB_BENCH_FAT_H

#include <stddef.h>
#include <stdint.h>

#include "bench/storage/blkdev.h"

struct mbr_info;

#define FAT_WHY_LEN		128
#define FAT_CACHE_BLOCKS	8	/* 4 KiB: one multi-block read per window */

/* Directory entry attributes. */
#define FAT_ATTR_READ_ONLY	0x01
#define FAT_ATTR_HIDDEN		0x02
#define FAT_ATTR_SYSTEM		0x04
#define FAT_ATTR_VOLUME_ID	0x08
#define FAT_ATTR_DIRECTORY	0x10
#define FAT_ATTR_ARCHIVE	0x20
#define FAT_ATTR_LFN		0x0F

struct fat_vol {
	const struct blkdev *dev;
	uint32_t part_lba;	/* LBA of the boot sector */
	uint32_t part_blocks;	/* blocks of the partition holding the volume */
	uint8_t type;		/* 12, 16 or 32 */
	uint8_t nfats;
	uint16_t bytes_per_sec;
	uint32_t blocks_per_sec;	/* 512-byte blocks per FAT sector */
	uint32_t sec_per_clus;
	uint32_t cluster_bytes;
	uint32_t total_sec;
	uint32_t fat_sec;	/* first sector of the FAT in use (volume-relative) */
	uint32_t fat_secs;	/* sectors per FAT */
	uint32_t root_sec;	/* FAT12/16: first sector of the fixed root directory */
	uint32_t root_entries;	/* FAT12/16: its entry count */
	uint32_t root_cluster;	/* FAT32: first cluster of the root directory */
	uint32_t data_sec;	/* first sector of cluster 2 */
	uint32_t nclusters;	/* valid cluster numbers are 2 .. nclusters + 1 */
	/* a window of FAT_CACHE_BLOCKS blocks read at once (volume reads go
	 * through it); blk points at the block asked for last */
	uint32_t cache_lba;
	uint32_t cache_count;	/* 0 = empty */
	const uint8_t *blk;
	uint8_t cache[FAT_CACHE_BLOCKS * BLKDEV_BLOCK_SIZE] __attribute__((aligned(4)));
	char why[FAT_WHY_LEN];	/* the reason of the last failure, "" after success */
};

struct fat_dirent {
	char name[12];		/* the raw 11-character short name, NUL-terminated */
	uint8_t attr;
	uint32_t first_cluster;
	uint32_t size;
};

/* Mount the volume whose boot sector is at part_lba; part_blocks bounds it
 * (0 = the partition size is unknown). 0 or -errno with vol->why set. */
int fat_mount(struct fat_vol *vol, const struct blkdev *dev, uint32_t part_lba,
	      uint32_t part_blocks);

/*
 * Mount the boot partition: the first primary partition with a FAT type ID
 * that mounts, else the first other primary partition that mounts; the
 * whole card for a superfloppy. -ENOENT when there is none, -ENOTSUP for a
 * GPT card, -EINVAL for an unusable table (vol->why says which).
 */
int fat_mount_boot(struct fat_vol *vol, const struct blkdev *dev, const struct mbr_info *mi);

/* Find a file (not a directory or label) by 8.3 name ("SDBENCH.TXT",
 * case-insensitive) in the root directory. 0, -ENOENT or -errno. */
int fat_find_root(struct fat_vol *vol, const char *name, struct fat_dirent *de);

/* Read a whole file into buf. Returns its size, -EFBIG when it is larger
 * than cap, -EIO for a broken cluster chain, or the read error. */
int fat_read_file(struct fat_vol *vol, const struct fat_dirent *de, void *buf, uint32_t cap);

/*
 * Prove the file is one contiguous run of clusters covering its size and
 * return the whole 512-byte blocks inside it (rounded down). Also scans the
 * whole FAT: no cluster outside the run may link into it (a cross-linked
 * file system, where writing the run would corrupt another file). 0, or
 * -EINVAL (fragmented, empty, corrupt chain, cross-linked; vol->why says
 * which) or the read error.
 */
int fat_file_extent(struct fat_vol *vol, const struct fat_dirent *de, struct lba_range *ext);

/*
 * Follow a file's whole cluster chain and return the 512-byte blocks of its
 * data as up to max runs (ext[0..*n), in file order, trimmed to the whole
 * blocks inside its size). The chain must hold exactly the clusters the
 * size needs and end there (end-of-chain mark), visit no cluster twice and
 * touch no free or bad cluster; no cluster outside it may link into it
 * (cross-linked). 0, or -EINVAL with vol->why (too small, shorter or longer
 * than its directory entry says, broken, looping, cross-linked, in more
 * than max pieces), or the read error.
 */
int fat_file_chain(struct fat_vol *vol, const struct fat_dirent *de, struct lba_range *ext,
		   unsigned max, unsigned *n);

/* "SDBENCH.TXT" -> "SDBENCH TXT"; -EINVAL when name is not a valid 8.3 name. */
int fat_name83(const char *name, char out[12]);

#endif

/*
 * blkdev.h - the block-read seam of the storage layer (MBR, FAT, config,
 * test-area choice): everything above it reads 512-byte blocks through one
 * callback, so the same code runs on the card (through drivers/sd) and on
 * the host (disk images in memory or in files) without touching hardware.
 *
 * Only reads: nothing in the storage layer ever writes to the card.
 */
#ifndef SDB_BENCH_BLKDEV_H
#define SDB_BENCH_BLKDEV_H

#include <stdbool.h>
#include <stdint.h>

#define BLKDEV_BLOCK_SIZE	512u
#define BLKDEV_BLOCK_SHIFT	9

/* Read count 512-byte blocks starting at lba into buf; 0 or -errno. */
typedef int (*blkdev_read_fn)(void *ctx, uint32_t lba, uint32_t count, void *buf);

struct blkdev {
	blkdev_read_fn read;
	void *ctx;
	uint32_t total_blocks;	/* card capacity in blocks; 0 = unknown */
};

/* A run of blocks [first, first + count). */
struct lba_range {
	uint32_t first;
	uint32_t count;
};

/* Bounds-checked read: -EINVAL for count 0, -ERANGE beyond total_blocks
 * (when known), else whatever the callback returns. */
int blkdev_read(const struct blkdev *dev, uint32_t lba, uint32_t count, void *buf);

/* One past the last block of r, computed without 32-bit overflow. */
static inline uint64_t lba_range_end(const struct lba_range *r)
{
	return (uint64_t)r->first + r->count;
}

/* True when [a) and [b) share at least one block. */
static inline bool lba_range_overlap(const struct lba_range *a, const struct lba_range *b)
{
	return a->count && b->count &&
	       (uint64_t)a->first < lba_range_end(b) &&
	       (uint64_t)b->first < lba_range_end(a);
}

/* Little-endian fields of on-disk structures (any alignment). */
static inline uint16_t blkdev_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t blkdev_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

#endif

/*
 * blkdev.c - the bounds check in front of every storage-layer read.
 */
#include "bench/storage/blkdev.h"
#include "lib/err.h"

int blkdev_read(const struct blkdev *dev, uint32_t lba, uint32_t count, void *buf)
{
	if (!dev || !dev->read || !buf || count == 0)
		return -EINVAL;
	if (dev->total_blocks && (uint64_t)lba + count > dev->total_blocks)
		return -ERANGE;
	return dev->read(dev->ctx, lba, count, buf);
}

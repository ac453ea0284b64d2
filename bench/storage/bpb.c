/*
 * bpb.c - the FAT boot sector's BIOS Parameter Block (see bpb.h).
 *
 * Microsoft FAT specification ("FAT: General Overview of On-Disk Format"),
 * §3: BPB fields at their byte offsets; FAT12/16/32 decided by the count of
 * data clusters (FAT32 by its BPB layout, as Linux does).
 */
#include <stddef.h>

#include "bench/storage/blkdev.h"
#include "bench/storage/bpb.h"
#include "lib/err.h"

/* BPB byte offsets */
#define BS_JMPBOOT		0
#define BPB_BYTSPERSEC		11
#define BPB_SECPERCLUS		13
#define BPB_RSVDSECCNT		14
#define BPB_NUMFATS		16
#define BPB_ROOTENTCNT		17
#define BPB_TOTSEC16		19
#define BPB_MEDIA		21
#define BPB_FATSZ16		22
#define BPB_TOTSEC32		32
#define BPB_FATSZ32		36
#define BPB_EXTFLAGS		40
#define BPB_ROOTCLUS		44
#define BS_SIG			510

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

const char *bpb_decode(const uint8_t *sec, struct bpb *b)
{
	uint32_t meta;

	if (sec[BS_SIG] != 0x55 || sec[BS_SIG + 1] != 0xAA)
		return "no 0x55AA boot sector signature";
	if (sec[BS_JMPBOOT] != 0xEB && sec[BS_JMPBOOT] != 0xE9)
		return "no jump instruction at the start of the boot sector";
	b->bps = blkdev_le16(sec + BPB_BYTSPERSEC);
	if (b->bps != 512 && b->bps != 1024 && b->bps != 2048 && b->bps != 4096)
		return "bytes per sector is not 512, 1024, 2048 or 4096";
	b->spc = sec[BPB_SECPERCLUS];
	if (!is_pow2(b->spc))
		return "sectors per cluster is not a power of two";
	b->rsvd = blkdev_le16(sec + BPB_RSVDSECCNT);
	if (b->rsvd == 0)
		return "no reserved sectors";
	b->nfats = sec[BPB_NUMFATS];
	if (b->nfats == 0 || b->nfats > 4)
		return "number of FATs is not 1 to 4";
	if (sec[BPB_MEDIA] != 0xF0 && sec[BPB_MEDIA] < 0xF8)
		return "invalid media byte";
	b->root_ents = blkdev_le16(sec + BPB_ROOTENTCNT);
	b->tot_sec = blkdev_le16(sec + BPB_TOTSEC16);
	if (b->tot_sec == 0)
		b->tot_sec = blkdev_le32(sec + BPB_TOTSEC32);
	b->fat_sz = blkdev_le16(sec + BPB_FATSZ16);
	if (b->fat_sz == 0)
		b->fat_sz = blkdev_le32(sec + BPB_FATSZ32);
	if (b->tot_sec == 0 || b->fat_sz == 0)
		return "zero total sectors or zero FAT size";
	if ((uint64_t)b->tot_sec * (b->bps / BLKDEV_BLOCK_SIZE) > 0xFFFFFFFFull)
		return "volume larger than 2^32 blocks";
	b->root_secs = (b->root_ents * FAT_DIR_ENTRY_BYTES + b->bps - 1) / b->bps;
	meta = b->rsvd;
	if ((uint64_t)b->nfats * b->fat_sz + b->root_secs + meta >= b->tot_sec)
		return "no room for data after the FATs";
	meta += b->nfats * b->fat_sz + b->root_secs;
	b->data_secs = b->tot_sec - meta;
	b->nclusters = b->data_secs / b->spc;
	if (b->nclusters == 0)
		return "no data clusters";
	/* The specification decides by cluster count alone; Linux (and
	 * mkfs.vfat -F 32, which makes small FAT32 volumes with a warning)
	 * treat a BPB without a 16-bit FAT size as FAT32. Accept both: FAT32
	 * layout means FAT32, otherwise the count picks FAT12 or FAT16. */
	if (blkdev_le16(sec + BPB_FATSZ16) == 0)
		b->type = 32;
	else if (b->nclusters <= FAT12_MAX_CLUSTERS)
		b->type = 12;
	else if (b->nclusters <= FAT16_MAX_CLUSTERS)
		b->type = 16;
	else
		return "FAT12/16 layout with more clusters than FAT16 allows";

	if (b->type == 32) {
		if (b->root_ents != 0)
			return "FAT32 volume with a fixed root directory";
		if (b->nclusters > 0x0FFFFFF5u)
			return "too many clusters for FAT32";
		b->root_clus = blkdev_le32(sec + BPB_ROOTCLUS);
		if (b->root_clus < 2 || b->root_clus > b->nclusters + 1)
			return "FAT32 root cluster out of range";
		b->ext_flags = blkdev_le16(sec + BPB_EXTFLAGS);
		if ((b->ext_flags & EXTFLAGS_NO_MIRROR) &&
		    (b->ext_flags & EXTFLAGS_ACTIVE_MASK) >= b->nfats)
			return "active FAT number out of range";
	} else {
		if (b->root_ents == 0)
			return "FAT12/16 volume without root directory entries";
		b->root_clus = 0;
		b->ext_flags = 0;
	}
	/* The FAT must hold an entry for every cluster (plus the two reserved). */
	if (((uint64_t)b->nclusters + 2) * b->type > (uint64_t)b->fat_sz * b->bps * 8)
		return "FAT too small for the cluster count";
	return NULL;
}

int bpb_check(const uint8_t *sec, uint32_t *total_blocks, const char **why)
{
	struct bpb b;
	const char *w = bpb_decode(sec, &b);

	if (why)
		*why = w;
	if (w)
		return -EINVAL;
	if (total_blocks)
		*total_blocks = b.tot_sec * (b.bps / BLKDEV_BLOCK_SIZE);
	return 0;
}


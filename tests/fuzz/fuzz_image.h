/*
 * fuzz_image.h - a card image for the fuzz targets and the property test,
 * and an independent "what could be used" oracle for the test-area rule.
 *
 * Image format (so that small inputs can describe large cards):
 *   bytes 0..3   the card's size in 512-byte blocks (little-endian; 0 means
 *                "as many blocks as the data holds")
 *   bytes 4..    the card's first blocks, LBA 0 onwards; every block beyond
 *                the data reads as zeros, a partial last block is padded
 *                with zeros.
 *
 * The oracle reads the raw bytes itself (not through bench/storage) and
 * collects every block that some reading of the table could call used:
 * LBA 0, every MBR entry with a size (any type, any status), every EBR
 * reachable through any link entry (links relative to the extended
 * partition, with their size), every other entry of every EBR read both
 * relative to its EBR and relative to the extended partition; the whole card when LBA 0 holds no table, holds a
 * FAT file system (a superfloppy, whatever its partition entries say) or
 * names GPT (0xEE) in the MBR. The check then says whether an area
 * the code chose overlaps any of them.
 */
#ifndef SDB_TESTS_FUZZ_IMAGE_H
#define SDB_TESTS_FUZZ_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bench/storage/blkdev.h"
#include "bench/storage/bpb.h"
#include "bench/storage/test_area.h"

struct fz_image {
	const uint8_t *data;	/* the card's blocks from LBA 0 */
	size_t len;
	uint32_t total_blocks;
	unsigned reads;		/* reads served (a bound on the work done) */
	/* Sparse blocks (the property test): when nsparse is set, block
	 * sparse_lba[i] holds sparse_data[i] and data/len are not used. */
	unsigned nsparse;
	const uint32_t *sparse_lba;
	const uint8_t (*sparse_data)[BLKDEV_BLOCK_SIZE];
};

static inline const uint8_t *fz_sparse_block(const struct fz_image *im, uint64_t lba)
{
	for (unsigned i = 0; i < im->nsparse; i++)
		if (im->sparse_lba[i] == lba)
			return im->sparse_data[i];
	return NULL;
}

static inline int fz_image_read(void *ctx, uint32_t lba, uint32_t count, void *buf)
{
	struct fz_image *im = (struct fz_image *)ctx;
	uint8_t *out = (uint8_t *)buf;

	im->reads++;
	if (im->nsparse) {
		for (uint32_t i = 0; i < count; i++) {
			const uint8_t *b = fz_sparse_block(im, (uint64_t)lba + i);

			if (b)
				memcpy(out + (size_t)i * BLKDEV_BLOCK_SIZE, b, BLKDEV_BLOCK_SIZE);
			else
				memset(out + (size_t)i * BLKDEV_BLOCK_SIZE, 0, BLKDEV_BLOCK_SIZE);
		}
		return 0;
	}
	for (uint32_t i = 0; i < count; i++) {
		uint64_t off = ((uint64_t)lba + i) * BLKDEV_BLOCK_SIZE;
		size_t n = 0;

		if (off < im->len)
			n = im->len - off < BLKDEV_BLOCK_SIZE ? im->len - (size_t)off
							      : BLKDEV_BLOCK_SIZE;
		if (n)
			memcpy(out + (size_t)i * BLKDEV_BLOCK_SIZE, im->data + off, n);
		memset(out + (size_t)i * BLKDEV_BLOCK_SIZE + n, 0, BLKDEV_BLOCK_SIZE - n);
	}
	return 0;
}

/* Set up im and dev over a fuzz input; 0, or -1 when it is too short. */
static inline int fz_image_open(struct fz_image *im, struct blkdev *dev, const uint8_t *in,
				size_t len)
{
	if (len < 4)
		return -1;
	im->data = in + 4;
	im->len = len - 4;
	im->total_blocks = blkdev_le32(in);
	if (im->total_blocks == 0)
		im->total_blocks = (uint32_t)((im->len + BLKDEV_BLOCK_SIZE - 1) / BLKDEV_BLOCK_SIZE);
	im->reads = 0;
	im->nsparse = 0;
	dev->read = fz_image_read;
	dev->ctx = im;
	dev->total_blocks = im->total_blocks;
	return 0;
}

/* One byte of the image (zeros beyond the data). */
static inline uint8_t fz_byte(const struct fz_image *im, uint64_t lba, unsigned off)
{
	uint64_t o = lba * BLKDEV_BLOCK_SIZE + off;

	if (im->nsparse) {
		const uint8_t *b = fz_sparse_block(im, lba);

		return b ? b[off] : 0;
	}
	return o < im->len ? im->data[o] : 0;
}

static inline uint32_t fz_le32(const struct fz_image *im, uint64_t lba, unsigned off)
{
	return (uint32_t)fz_byte(im, lba, off) | ((uint32_t)fz_byte(im, lba, off + 1) << 8) |
	       ((uint32_t)fz_byte(im, lba, off + 2) << 16) |
	       ((uint32_t)fz_byte(im, lba, off + 3) << 24);
}

#define FZ_MAX_USED 1024

struct fz_used {
	unsigned n;
	int whole_card;		/* GPT, or something the oracle cannot bound */
	uint64_t first[FZ_MAX_USED], end[FZ_MAX_USED];	/* [first, end) */
};

static inline void fz_used_add(struct fz_used *u, uint64_t first, uint64_t count)
{
	if (!count)
		return;
	if (u->n == FZ_MAX_USED) {
		u->whole_card = 1;
		return;
	}
	u->first[u->n] = first;
	u->end[u->n] = first + count;
	u->n++;
}

static inline int fz_is_ext(uint8_t t)
{
	return t == 0x05 || t == 0x0F || t == 0x85;
}

/* Every EBR reachable from an extended partition at base, both link
 * readings (relative to base, relative to the current EBR), bounded. */
static inline void fz_oracle_ebr(const struct fz_image *im, struct fz_used *u, uint64_t base)
{
	uint64_t stack[256];
	unsigned sp = 0, visited = 0;

	stack[sp++] = base;
	while (sp && visited < 512) {
		uint64_t ebr = stack[--sp];

		visited++;
		fz_used_add(u, ebr, 1);
		if (fz_byte(im, ebr, 510) != 0x55 || fz_byte(im, ebr, 511) != 0xAA)
			continue;
		for (int e = 0; e < 4; e++) {
			unsigned off = 446 + 16 * e;
			uint8_t type = fz_byte(im, ebr, off + 4);
			uint32_t lba = fz_le32(im, ebr, off + 8), cnt = fz_le32(im, ebr, off + 12);

			if (!cnt && !fz_is_ext(type))
				continue;
			if (fz_is_ext(type)) {
				/* a link: relative to the extended partition
				 * (every reader); its size spans the next
				 * EBR and its logical partition */
				fz_used_add(u, base + lba, cnt);
				if (lba && sp < 256)
					stack[sp++] = base + lba;
				continue;
			}
			/* a logical partition, in any of the four entries
			 * (Linux reads them all): relative to its EBR, and
			 * relative to the extended partition */
			fz_used_add(u, ebr + lba, cnt);
			fz_used_add(u, base + lba, cnt);
		}
	}
	if (sp)
		u->whole_card = 1;	/* gave up following: all of it is in doubt */
}

/* A FAT file system at LBA 0 (mountable as a whole-card volume). */
static inline int fz_looks_fat(const struct fz_image *im)
{
	uint8_t sec[BLKDEV_BLOCK_SIZE];

	for (unsigned i = 0; i < BLKDEV_BLOCK_SIZE; i++)
		sec[i] = fz_byte(im, 0, i);
	return bpb_check(sec, NULL, NULL) == 0;
}

static inline void fz_oracle(const struct fz_image *im, struct fz_used *u)
{
	memset(u, 0, sizeof(*u));
	fz_used_add(u, 0, 1);
	if (fz_looks_fat(im)) {
		/* a superfloppy: the file system may be the whole card */
		u->whole_card = 1;
	}
	if (fz_byte(im, 0, 510) != 0x55 || fz_byte(im, 0, 511) != 0xAA)
		u->whole_card = 1;	/* no table: nothing shows what is free */
	for (int e = 0; e < 4; e++) {
		unsigned off = 446 + 16 * e;
		uint8_t type = fz_byte(im, 0, off + 4);
		uint32_t lba = fz_le32(im, 0, off + 8), cnt = fz_le32(im, 0, off + 12);

		if (type == 0xEE)
			u->whole_card = 1;
		fz_used_add(u, lba, cnt);
		if (fz_is_ext(type) && cnt)
			fz_oracle_ebr(im, u, lba);
	}
}

/*
 * Is ta a safe choice for image im? Returns NULL when it is, else a static
 * description of the rule it breaks. An area from SDBENCH.DAT lies inside a
 * partition by design: only its bounds are checked here (fuzz_fat checks
 * the FAT walk).
 */
static inline const char *fz_check_area(const struct fz_image *im, const struct test_area *ta)
{
	static struct fz_used u;
	uint64_t a0, a1;

	if (!ta->usable)
		return ta->count || ta->first_lba ? "an unusable area with blocks" : NULL;
	if (!ta->count)
		return "a usable area of 0 blocks";
	a0 = ta->first_lba;
	a1 = a0 + ta->count;
	if (a0 == 0)
		return "the area includes LBA 0";
	if (a1 > im->total_blocks)
		return "the area extends past the card's end";
	if (ta->source == TEST_AREA_FILE)
		return NULL;	/* inside a partition by design: the FAT check decides */
	fz_oracle(im, &u);
	if (u.whole_card)
		return "an area on a card where the oracle sees everything as used";
	for (unsigned i = 0; i < u.n; i++)
		if (a0 < u.end[i] && u.first[i] < a1)
			return "the area overlaps a block some reading of the table uses";
	return NULL;
}

#endif

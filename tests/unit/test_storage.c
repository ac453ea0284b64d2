/*
 * test_storage.c - the storage layer on disk images built in memory: MBR
 * and EBR parsing, the FAT reader (FAT12/16/32), sdbench.txt parsing, and
 * the choice of the write test area on several card layouts.
 *
 * The images are sparse (only written blocks are stored), so a 2 GiB "card"
 * costs a few hundred blocks. The FAT builder below is written from the FAT
 * specification independently of bench/storage/fat.c and computes its own layout,
 * which the tests use as the expected values.
 */
#include <stdlib.h>

#include "tests/unit/check.h"
#include "bench/storage/blkdev.h"
#include "bench/storage/config.h"
#include "bench/storage/config_card.h"
#include "bench/storage/fat.h"
#include "bench/storage/mbr.h"
#include "bench/storage/storage.h"
#include "bench/storage/test_area.h"
#include "lib/err.h"
#include "lib/fmt.h"
#include "lib/json.h"

/* ---- a sparse in-memory card ---------------------------------------------- */

#define MD_SLOTS 8192

struct memdisk {
	uint32_t total;
	uint32_t wrap;		/* fake capacity: LBA >= wrap reads LBA % wrap (0 = off) */
	uint32_t fail_lba;	/* reading this LBA fails with -EIO (0 = never) */
	unsigned reads;
	unsigned used;
	uint32_t lba[MD_SLOTS];
	uint8_t *data;		/* MD_SLOTS * 512 */
	uint8_t present[MD_SLOTS];
	struct blkdev dev;
};

static int md_slot(struct memdisk *m, uint32_t lba, int create)
{
	uint32_t h = (lba * 2654435761u) % MD_SLOTS;

	for (unsigned i = 0; i < MD_SLOTS; i++, h = (h + 1) % MD_SLOTS) {
		if (!m->present[h]) {
			if (!create)
				return -1;
			m->present[h] = 1;
			m->lba[h] = lba;
			memset(m->data + (size_t)h * 512, 0, 512);
			m->used++;
			return (int)h;
		}
		if (m->lba[h] == lba)
			return (int)h;
	}
	return -1;
}

static int md_read(void *ctx, uint32_t lba, uint32_t count, void *buf)
{
	struct memdisk *m = ctx;
	uint8_t *out = buf;

	for (uint32_t i = 0; i < count; i++) {
		uint32_t l = lba + i;
		int s;

		m->reads++;
		if (m->fail_lba && l == m->fail_lba)
			return -EIO;
		if (m->wrap)
			l %= m->wrap;
		s = md_slot(m, l, 0);
		if (s < 0)
			memset(out + i * 512, 0, 512);
		else
			memcpy(out + i * 512, m->data + (size_t)s * 512, 512);
	}
	return 0;
}

static struct memdisk *md_new(uint32_t total_blocks)
{
	struct memdisk *m = calloc(1, sizeof(*m));

	m->data = malloc((size_t)MD_SLOTS * 512);
	m->total = total_blocks;
	m->dev.read = md_read;
	m->dev.ctx = m;
	m->dev.total_blocks = total_blocks;
	return m;
}

static void md_free(struct memdisk *m)
{
	free(m->data);
	free(m);
}

static uint8_t *md_block(struct memdisk *m, uint32_t lba)
{
	int s = md_slot(m, lba, 1);

	if (s < 0) {
		fprintf(stderr, "memdisk full\n");
		abort();
	}
	return m->data + (size_t)s * 512;
}

static void put_le16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, v);
	put_le16(p + 2, v >> 16);
}

/* ---- partition tables ----------------------------------------------------- */

static void mbr_entry_put(struct memdisk *m, uint32_t sector_lba, int i, uint8_t status,
			  uint8_t type, uint32_t lba, uint32_t count)
{
	uint8_t *b = md_block(m, sector_lba), *e = b + 446 + 16 * i;

	e[0] = status;
	e[1] = 0xFE; e[2] = 0xFF; e[3] = 0xFF;
	e[4] = type;
	e[5] = 0xFE; e[6] = 0xFF; e[7] = 0xFF;
	put_le32(e + 8, lba);
	put_le32(e + 12, count);
	b[510] = 0x55;
	b[511] = 0xAA;
}

static void mbr_put(struct memdisk *m, int i, uint8_t type, uint32_t lba, uint32_t count)
{
	put_le32(md_block(m, 0) + 440, 0x1234ABCD);
	mbr_entry_put(m, 0, i, i == 0 ? 0x80 : 0, type, lba, count);
}

/* ---- a FAT formatter and file writer (test side) -------------------------- */

struct tfat {
	struct memdisk *m;
	uint32_t lba, blocks;	/* partition */
	int type;
	uint32_t spc, rsvd, nfats, fatsz, root_ents, root_secs, data_sec, nclus;
	uint32_t root_next;	/* next free root directory slot */
};

static void tfat_set(struct tfat *f, uint32_t clus, uint32_t val)
{
	for (uint32_t n = 0; n < f->nfats; n++) {
		uint32_t fat = f->lba + f->rsvd + n * f->fatsz;

		if (f->type == 32) {
			uint32_t off = clus * 4;

			put_le32(md_block(f->m, fat + off / 512) + off % 512, val & 0x0FFFFFFF);
		} else if (f->type == 16) {
			uint32_t off = clus * 2;

			put_le16(md_block(f->m, fat + off / 512) + off % 512, val & 0xFFFF);
		} else {
			uint32_t off = clus + clus / 2;
			uint8_t *b0 = md_block(f->m, fat + off / 512) + off % 512;
			uint8_t *b1 = md_block(f->m, fat + (off + 1) / 512) + (off + 1) % 512;

			val &= 0xFFF;
			if (clus & 1) {
				*b0 = (uint8_t)((*b0 & 0x0F) | ((val & 0xF) << 4));
				*b1 = (uint8_t)(val >> 4);
			} else {
				*b0 = (uint8_t)val;
				*b1 = (uint8_t)((*b1 & 0xF0) | (val >> 8));
			}
		}
	}
}

static uint32_t tfat_eoc(const struct tfat *f)
{
	return f->type == 32 ? 0x0FFFFFFF : f->type == 16 ? 0xFFFF : 0xFFF;
}

static uint32_t tfat_clus_lba(const struct tfat *f, uint32_t clus)
{
	return f->lba + f->data_sec + (clus - 2) * f->spc;
}

/* Allow FAT32 volumes below the specification's cluster minimum (as
 * mkfs.vfat -F 32 makes them on small partitions). */
static int tfat_small_fat32_ok;

/* Format [lba, lba + blocks) as FAT type (12/16/32) with spc sectors per
 * cluster of 512 bytes; MBR not touched. */
static void tfat_format(struct tfat *f, struct memdisk *m, uint32_t lba, uint32_t blocks,
			int type, uint32_t spc)
{
	uint8_t *bs;
	uint32_t bits = (uint32_t)type;

	memset(f, 0, sizeof(*f));
	f->m = m;
	f->lba = lba;
	f->blocks = blocks;
	f->type = type;
	f->spc = spc;
	f->nfats = 2;
	f->rsvd = type == 32 ? 32 : 1;
	f->root_ents = type == 32 ? 0 : 512;
	f->root_secs = f->root_ents * 32 / 512;
	/* FAT size: iterate until the cluster count and FAT size agree. */
	f->fatsz = 1;
	for (int i = 0; i < 20; i++) {
		f->nclus = (blocks - f->rsvd - f->root_secs - f->nfats * f->fatsz) / spc;
		f->fatsz = (uint32_t)(((uint64_t)(f->nclus + 2) * bits + 4095) / 4096);
	}
	f->nclus = (blocks - f->rsvd - f->root_secs - f->nfats * f->fatsz) / spc;
	f->data_sec = f->rsvd + f->nfats * f->fatsz + f->root_secs;
	if ((type == 12) != (f->nclus < 4085) ||
	    (type == 32 && f->nclus < 65525 && !tfat_small_fat32_ok) ||
	    (type == 16 && f->nclus >= 65525)) {
		fprintf(stderr, "test layout error: %u clusters is not FAT%d\n", f->nclus, type);
		abort();
	}

	bs = md_block(m, lba);
	bs[0] = 0xEB; bs[1] = type == 32 ? 0x58 : 0x3C; bs[2] = 0x90;
	memcpy(bs + 3, "MSWIN4.1", 8);
	put_le16(bs + 11, 512);
	bs[13] = (uint8_t)spc;
	put_le16(bs + 14, f->rsvd);
	bs[16] = (uint8_t)f->nfats;
	put_le16(bs + 17, f->root_ents);
	if (blocks < 65536 && type != 32)
		put_le16(bs + 19, blocks);
	else
		put_le32(bs + 32, blocks);
	bs[21] = 0xF8;
	if (type == 32) {
		put_le32(bs + 36, f->fatsz);
		put_le32(bs + 44, 2);	/* root cluster */
		put_le16(bs + 48, 1);	/* FSInfo */
		memcpy(bs + 82, "FAT32   ", 8);
	} else {
		put_le16(bs + 22, f->fatsz);
		memcpy(bs + 54, type == 16 ? "FAT16   " : "FAT12   ", 8);
	}
	bs[510] = 0x55;
	bs[511] = 0xAA;
	tfat_set(f, 0, 0x0FFFFFF8);
	tfat_set(f, 1, tfat_eoc(f));
	if (type == 32)
		tfat_set(f, 2, tfat_eoc(f));	/* the root directory */
}

/* A root directory entry; clusters[] is the chain (n entries) written to
 * the FAT; content (may be NULL) is written into the clusters. */
static void tfat_file(struct tfat *f, const char name11[12], uint8_t attr, uint32_t size,
		      const uint32_t *clusters, uint32_t n, const char *content)
{
	uint32_t slot = f->root_next++, off = slot * 32, dir_lba;
	uint8_t *e;

	dir_lba = f->type == 32 ? tfat_clus_lba(f, 2) : f->lba + f->rsvd + f->nfats * f->fatsz;
	e = md_block(f->m, dir_lba + off / 512) + off % 512;
	memcpy(e, name11, 11);
	e[11] = attr;
	put_le16(e + 20, n ? clusters[0] >> 16 : 0);
	put_le16(e + 26, n ? clusters[0] & 0xFFFF : 0);
	put_le32(e + 28, size);
	for (uint32_t i = 0; i < n; i++)
		tfat_set(f, clusters[i], i + 1 < n ? clusters[i + 1] : tfat_eoc(f));
	for (uint32_t done = 0, i = 0; content && done < size; i++) {
		for (uint32_t b = 0; b < f->spc && done < size; b++) {
			uint32_t k = size - done > 512 ? 512 : size - done;

			memcpy(md_block(f->m, tfat_clus_lba(f, clusters[i]) + b), content + done, k);
			done += k;
		}
	}
}

/* A contiguous chain first .. first + n - 1 in a caller's array. */
static uint32_t *run(uint32_t first, uint32_t n)
{
	uint32_t *c = malloc(n * sizeof(*c));

	for (uint32_t i = 0; i < n; i++)
		c[i] = first + i;
	return c;
}

/* ---- layouts -------------------------------------------------------------- */

#define GIB_BLOCKS	(2u * 1024 * 1024)
#define MIB		2048u

/* Pi OS-like: FAT32 boot at 8192 (256 MiB), ext4-type root, free space after. */
static struct memdisk *layout_pios(struct tfat *f, uint32_t root_blocks)
{
	struct memdisk *m = md_new(2 * GIB_BLOCKS);

	mbr_put(m, 0, 0x0C, 8192, 256 * MIB);
	mbr_put(m, 1, 0x83, 8192 + 256 * MIB, root_blocks);
	tfat_format(f, m, 8192, 256 * MIB, 32, 4);
	return m;
}

/* ---- MBR -------------------------------------------------------------------- */

static struct memdisk *layout_extended(uint32_t *ext_start, uint32_t *ext_count);

TEST(mbr_pios_layout)
{
	struct tfat f;
	struct memdisk *m = layout_pios(&f, 1024 * MIB);
	struct mbr_info mi;

	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_U(mi.kind, MBR_OK);
	CHECK_EQ_U(mi.nparts, 2);
	CHECK_EQ_U(mi.parts[0].first_lba, 8192);
	CHECK_EQ_U(mi.parts[0].count, 256 * MIB);
	CHECK_EQ_U(mi.parts[0].status, 0x80);
	CHECK_EQ_U(mi.parts[1].type, 0x83);
	CHECK_EQ_U(mi.parts[1].number, 2);
	CHECK_EQ_U(mi.used_end, 8192 + 1280 * MIB);
	CHECK_EQ_U(mi.disk_id, 0x1234ABCD);
	CHECK_STR(mi.reason, "");
	md_free(m);
}

TEST(mbr_no_signature)
{
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct mbr_info mi;

	mbr_put(m, 0, 0x0C, 8192, 1000);
	md_block(m, 0)[511] = 0;
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EINVAL);
	CHECK_EQ_U(mi.kind, MBR_NONE);
	CHECK(strstr(mi.reason, "0x55AA") != NULL);
	md_free(m);
}

TEST(mbr_gpt_protective)
{
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct mbr_info mi;

	mbr_put(m, 0, 0xEE, 1, GIB_BLOCKS - 1);
	md_block(m, 0)[446] = 0;	/* protective MBRs are not active */
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -ENOTSUP);
	CHECK_EQ_U(mi.kind, MBR_GPT);
	CHECK(strstr(mi.reason, "GPT") != NULL);
	md_free(m);
}

TEST(mbr_overlapping_entries)
{
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct mbr_info mi;

	mbr_put(m, 0, 0x0C, 8192, 100000);
	mbr_put(m, 1, 0x83, 108191, 5000);	/* first block = last block of p1 */
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EINVAL);
	CHECK_EQ_U(mi.kind, MBR_INCONSISTENT);
	CHECK_STR(mi.reason, "partitions 1 and 2 overlap");

	/* Touching but not overlapping is fine. */
	mbr_put(m, 1, 0x83, 108192, 5000);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	md_free(m);
}

TEST(mbr_past_end_start0_status)
{
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct mbr_info mi;

	mbr_put(m, 0, 0x0C, 8192, GIB_BLOCKS - 8191);	/* one block too long */
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EINVAL);
	CHECK_EQ_U(mi.kind, MBR_INCONSISTENT);
	CHECK(strstr(mi.reason, "past the card's end") != NULL);

	mbr_put(m, 0, 0x0C, 8192, GIB_BLOCKS - 8192);	/* exactly to the end */
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_U(mi.used_end, GIB_BLOCKS);
	{
		struct lba_range u[4];

		mbr_put(m, 0, 0x0C, 1, GIB_BLOCKS / 2 - 1);	/* touching LBA 0 and p2 */
		mbr_put(m, 1, 0x83, GIB_BLOCKS / 2, 1000);
		CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
		CHECK_EQ_U(mbr_used_extents(&mi, u, 4), 1);
		CHECK_EQ_U(u[0].first, 0);
		CHECK_EQ_U(u[0].count, GIB_BLOCKS / 2 + 1000);
		mbr_put(m, 1, 0, 0, 0);
	}

	mbr_put(m, 0, 0x0C, 0, 1000);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EINVAL);
	CHECK(strstr(mi.reason, "starts at LBA 0") != NULL);

	mbr_put(m, 0, 0x0C, 8192, 1000);
	md_block(m, 0)[446 + 16] = 0x12;	/* status of entry 2 */
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EINVAL);
	CHECK_STR(mi.reason, "partition entry 2: invalid status byte 0x12");
	md_free(m);
}

TEST(mbr_unreadable)
{
	uint32_t e, ec;
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct blkdev bad = m->dev;
	struct mbr_info mi;
	struct test_area ta;

	/* LBA 0 cannot be read (a device whose read always fails). */
	bad.read = NULL;
	CHECK(mbr_parse(&mi, &bad) < 0);
	CHECK_EQ_U(mi.kind, MBR_UNREADABLE);
	CHECK(test_area_choose(&ta, &bad, &mi, NULL) < 0);
	CHECK(!ta.usable);
	CHECK(strstr(ta.reason, "unreadable") != NULL);
	md_free(m);

	/* An EBR that cannot be read. */
	m = layout_extended(&e, &ec);
	m->fail_lba = e + 600 * MIB;
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EIO);
	CHECK_EQ_U(mi.kind, MBR_UNREADABLE);
	CHECK(strstr(mi.reason, "reading LBA") != NULL);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), -EIO);
	CHECK(!ta.usable);
	md_free(m);
}

TEST(mbr_empty_table)
{
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct mbr_info mi;
	struct test_area ta;
	struct lba_range r = { 65536, 32768 };

	mbr_put(m, 0, 0, 0, 0);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_U(mi.kind, MBR_EMPTY);
	CHECK_EQ_U(mi.nparts, 0);
	/* No partitions does not prove the card unused ... */
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), -ENOSPC);
	CHECK(!ta.usable);
	CHECK(strstr(ta.reason, "empty") != NULL);
	/* ... but an explicit range is the user's word. */
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &r), 0);
	CHECK_EQ_U(ta.source, TEST_AREA_CONFIG);
	md_free(m);
}

/* p1 FAT at 8192, p2 extended 0x0F at 1 GiB with logicals 5 and 6 (EBR at
 * the container start, second EBR in the middle). */
static struct memdisk *layout_extended(uint32_t *ext_start, uint32_t *ext_count)
{
	struct memdisk *m = md_new(4 * GIB_BLOCKS);
	uint32_t e = GIB_BLOCKS, ec = GIB_BLOCKS;

	mbr_put(m, 0, 0x0C, 8192, 128 * MIB);
	mbr_put(m, 1, 0x0F, e, ec);
	/* EBR 1: logical 5 at e + 2048, 256 MiB; link to EBR 2 at e + 600 MiB. */
	mbr_entry_put(m, e, 0, 0, 0x83, 2048, 256 * MIB);
	mbr_entry_put(m, e, 1, 0, 0x05, 600 * MIB, 400 * MIB);
	/* EBR 2: logical 6 at +2048 relative to itself, 300 MiB; end. */
	mbr_entry_put(m, e + 600 * MIB, 0, 0, 0x82, 2048, 300 * MIB);
	*ext_start = e;
	*ext_count = ec;
	return m;
}

TEST(mbr_extended_chain)
{
	uint32_t e, ec;
	struct memdisk *m = layout_extended(&e, &ec);
	struct mbr_info mi;
	struct test_area ta;

	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_U(mi.kind, MBR_OK);
	CHECK_EQ_U(mi.nparts, 4);
	CHECK_EQ_U(mi.parts[1].flags, MBR_PART_EXTENDED);
	CHECK_EQ_U(mi.parts[2].number, 5);
	CHECK_EQ_U(mi.parts[2].first_lba, e + 2048);
	CHECK_EQ_U(mi.parts[2].count, 256 * MIB);
	CHECK_EQ_U(mi.parts[2].flags, MBR_PART_LOGICAL);
	CHECK_EQ_U(mi.parts[3].number, 6);
	CHECK_EQ_U(mi.parts[3].first_lba, e + 600 * MIB + 2048);
	CHECK_EQ_U(mi.parts[3].type, 0x82);
	CHECK_EQ_U(mi.used_end, e + ec);
	{
		struct lba_range u[8];

		CHECK_EQ_U(mbr_used_extents(&mi, u, 8), 3);
		CHECK_EQ_U(u[0].first, 0);
		CHECK_EQ_U(u[0].count, 1);
		CHECK_EQ_U(u[1].first, 8192);
		CHECK_EQ_U(u[1].count, 128 * MIB);
		CHECK_EQ_U(u[2].first, e);
		CHECK_EQ_U(u[2].count, ec);
		CHECK_EQ_U(mbr_used_extents(&mi, u, 1), 3);
	}

	/* Free space after the container: 2 GiB. */
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), 0);
	CHECK_EQ_U(ta.source, TEST_AREA_UNPARTITIONED);
	CHECK_EQ_U(ta.first_lba, e + ec);
	CHECK_EQ_U(ta.count, 4 * GIB_BLOCKS - (e + ec));

	/* A logical partition sticking out of its container. */
	mbr_entry_put(m, e + 600 * MIB, 0, 0, 0x82, 2048, 500 * MIB);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EINVAL);
	CHECK(strstr(mi.reason, "outside its extended partition") != NULL);
	CHECK(test_area_choose(&ta, &m->dev, &mi, NULL) < 0);
	CHECK(!ta.usable);
	md_free(m);
}

TEST(mbr_extended_loop_and_overlap)
{
	uint32_t e, ec;
	struct memdisk *m = layout_extended(&e, &ec);
	struct mbr_info mi;

	/* EBR 2 links back to EBR 1: a loop, found, not followed forever. */
	mbr_entry_put(m, e + 600 * MIB, 1, 0, 0x05, 0 + 1, 10);
	mbr_entry_put(m, e + 1, 0, 0, 0, 0, 0);
	mbr_entry_put(m, e + 1, 1, 0, 0x05, 600 * MIB, 10);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EINVAL);
	CHECK(strstr(mi.reason, "loops") != NULL);
	CHECK(m->reads < 10);

	/* Logical partitions overlapping each other. */
	md_free(m);
	m = layout_extended(&e, &ec);
	mbr_entry_put(m, e, 0, 0, 0x83, 2048, 700 * MIB);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EINVAL);
	CHECK(strstr(mi.reason, "covers the EBR") != NULL ||
	      strstr(mi.reason, "overlap") != NULL);

	/* A missing EBR signature. */
	md_free(m);
	m = layout_extended(&e, &ec);
	md_block(m, e + 600 * MIB)[510] = 0;
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EINVAL);
	CHECK(strstr(mi.reason, "no 0x55AA") != NULL);
	md_free(m);
}

TEST(mbr_extended_chain_bounded)
{
	struct memdisk *m = md_new(4 * GIB_BLOCKS);
	struct mbr_info mi;

	/* A chain of 100 EBRs, each linking to the next: more than the limit. */
	mbr_put(m, 0, 0x0C, 8192, 128 * MIB);
	mbr_put(m, 1, 0x05, GIB_BLOCKS, GIB_BLOCKS);
	for (uint32_t i = 0; i < 100; i++) {
		uint32_t ebr = GIB_BLOCKS + i * 4096;

		mbr_entry_put(m, ebr, 0, 0, 0x83, 2048, 2048);
		mbr_entry_put(m, ebr, 1, 0, 0x05, (i + 1) * 4096, 4096);
	}
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EINVAL);
	CHECK(strstr(mi.reason, "more than") != NULL);
	CHECK(m->reads <= MBR_MAX_LOGICAL + 2);
	md_free(m);
}

/* ---- FAT -------------------------------------------------------------------- */

static const char sdbench_dat[12] = "SDBENCH DAT";
static const char sdbench_txt[12] = "SDBENCH TXT";

TEST(fat_types_and_small_file)
{
	static const struct { int type; uint32_t blocks, spc; } v[] = {
		{ 12, 8 * MIB, 8 },	/* 2043 clusters */
		{ 16, 64 * MIB, 4 },	/* ~32K clusters */
		{ 32, 512 * MIB, 8 },	/* ~131K clusters */
	};
	char text[3000];

	for (unsigned i = 0; i < sizeof(text); i++)
		text[i] = (char)('a' + i % 26);
	for (unsigned k = 0; k < 3; k++) {
		struct memdisk *m = md_new(GIB_BLOCKS);
		struct tfat f;
		struct fat_vol vol;
		struct fat_dirent de;
		char buf[4096];
		uint32_t c[3] = { 10, 11, 40 };	/* fragmented is fine for reading */

		tfat_format(&f, m, 2048, v[k].blocks, v[k].type, v[k].spc);
		/* A label and a deleted entry before the file. */
		tfat_file(&f, "BOOT       ", FAT_ATTR_VOLUME_ID, 0, NULL, 0, NULL);
		tfat_file(&f, "\xE5" "DBENCH TXT", 0, 0, NULL, 0, NULL);
		tfat_file(&f, sdbench_txt, FAT_ATTR_ARCHIVE, 3000, c,
			  (3000 + f.spc * 512 - 1) / (f.spc * 512), text);
		CHECK_EQ_I(fat_mount(&vol, &m->dev, 2048, v[k].blocks), 0);
		CHECK_EQ_U(vol.type, v[k].type);
		CHECK_EQ_U(vol.nclusters, f.nclus);
		CHECK_EQ_U(vol.data_sec, f.data_sec);
		CHECK_EQ_I(fat_find_root(&vol, "sdbench.txt", &de), 0);
		CHECK_EQ_U(de.size, 3000);
		CHECK_EQ_U(de.first_cluster, 10);
		memset(buf, 0, sizeof(buf));
		CHECK_EQ_I(fat_read_file(&vol, &de, buf, sizeof(buf)), 3000);
		CHECK(memcmp(buf, text, 3000) == 0);
		CHECK_EQ_I(fat_read_file(&vol, &de, buf, 2999), -EFBIG);
		CHECK_EQ_I(fat_find_root(&vol, "MISSING.TXT", &de), -ENOENT);
		CHECK_EQ_I(fat_find_root(&vol, "TOOLONGNAME.TXT", &de), -EINVAL);
		/* A partition smaller than its file system is refused. */
		CHECK_EQ_I(fat_mount(&vol, &m->dev, 2048, v[k].blocks - 1), -EINVAL);
		md_free(m);
	}
}

TEST(fat32_below_the_cluster_minimum)
{
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct tfat f;
	struct fat_vol vol;
	struct fat_dirent de;
	uint32_t c[1] = { 5 };
	char buf[16];

	/* 40 MiB, 4 KiB clusters: ~10K clusters, a FAT32 layout (Linux and
	 * mkfs.vfat accept it; by count alone it would be FAT16). */
	tfat_small_fat32_ok = 1;
	tfat_format(&f, m, 8192, 40 * MIB, 32, 8);
	tfat_small_fat32_ok = 0;
	CHECK(f.nclus < 65525);
	tfat_file(&f, sdbench_txt, 0, 9, c, 1, "seed = 77");
	CHECK_EQ_I(fat_mount(&vol, &m->dev, 8192, 40 * MIB), 0);
	CHECK_EQ_U(vol.type, 32);
	CHECK_EQ_I(fat_find_root(&vol, "SDBENCH.TXT", &de), 0);
	CHECK_EQ_I(fat_read_file(&vol, &de, buf, sizeof(buf)), 9);
	CHECK(memcmp(buf, "seed = 77", 9) == 0);
	md_free(m);
}

TEST(fat_bpb_rejects)
{
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct tfat f;
	struct fat_vol vol;
	uint8_t *bs;

	tfat_format(&f, m, 2048, 64 * MIB, 16, 4);
	bs = md_block(m, 2048);
	CHECK_EQ_I(fat_mount(&vol, &m->dev, 2048, 0), 0);
	bs[13] = 3;	/* sectors per cluster not a power of two */
	CHECK_EQ_I(fat_mount(&vol, &m->dev, 2048, 0), -EINVAL);
	CHECK(strstr(vol.why, "power of two") != NULL);
	bs[13] = 4;
	put_le16(bs + 11, 500);
	CHECK_EQ_I(fat_mount(&vol, &m->dev, 2048, 0), -EINVAL);
	put_le16(bs + 11, 512);
	bs[510] = 0;
	CHECK_EQ_I(fat_mount(&vol, &m->dev, 2048, 0), -EINVAL);
	bs[510] = 0x55;
	put_le16(bs + 22, 1);	/* FAT far too small */
	CHECK_EQ_I(fat_mount(&vol, &m->dev, 2048, 0), -EINVAL);
	md_free(m);
}

TEST(fat_extent_contiguous_fat32_fat16_fat12)
{
	static const struct { int type; uint32_t blocks, spc, first, size; } v[] = {
		{ 32, 512 * MIB, 8, 1000, 40u << 20 },
		{ 16, 256 * MIB, 8, 300, 20u << 20 },
		{ 12, 100 * MIB, 64, 7, 20u << 20 },
	};

	for (unsigned k = 0; k < 3; k++) {
		struct memdisk *m = md_new(GIB_BLOCKS);
		struct tfat f;
		struct fat_vol vol;
		struct fat_dirent de;
		struct lba_range ext;
		uint32_t n, *c;

		tfat_format(&f, m, 8192, v[k].blocks, v[k].type, v[k].spc);
		CHECK_EQ_U(f.type, v[k].type);
		n = (v[k].size + f.spc * 512 - 1) / (f.spc * 512);
		/* size + 100 bytes spills into one more cluster. */
		c = run(v[k].first, n + 1);
		tfat_file(&f, sdbench_dat, FAT_ATTR_ARCHIVE, v[k].size + 100, c, n + 1, NULL);
		CHECK_EQ_I(fat_mount(&vol, &m->dev, 8192, v[k].blocks), 0);
		CHECK_EQ_U(vol.type, v[k].type);
		CHECK_EQ_I(fat_find_root(&vol, "SDBENCH.DAT", &de), 0);
		CHECK_EQ_I(fat_file_extent(&vol, &de, &ext), 0);
		CHECK_EQ_U(ext.first, tfat_clus_lba(&f, v[k].first));
		CHECK_EQ_U(ext.count, (v[k].size + 100) / 512);	/* whole blocks only */

		/* Another chain entering the run: cross-linked. */
		tfat_set(&f, v[k].first + n + 40, v[k].first + n / 3);
		vol.cache_count = 0;
		CHECK_EQ_I(fat_file_extent(&vol, &de, &ext), -EINVAL);
		CHECK(strstr(vol.why, "cross-linked") != NULL);
		/* A chain ending right before the run, and one going from the
		 * file's extra cluster onwards, are fine. */
		tfat_set(&f, v[k].first + n + 40, tfat_eoc(&f));
		tfat_set(&f, v[k].first - 1, tfat_eoc(&f));
		tfat_set(&f, v[k].first + n, v[k].first + n + 1);
		tfat_set(&f, v[k].first + n + 1, tfat_eoc(&f));
		vol.cache_count = 0;
		CHECK_EQ_I(fat_file_extent(&vol, &de, &ext), 0);

		/* One wrong link in the middle: fragmented. */
		tfat_set(&f, v[k].first + n / 2, v[k].first + n + 5);
		CHECK_EQ_I(fat_file_extent(&vol, &de, &ext), -EINVAL);
		CHECK(strstr(vol.why, "fragmented") != NULL);
		CHECK_EQ_U(ext.count, 0);
		/* The chain ending early. */
		tfat_set(&f, v[k].first + n / 2, tfat_eoc(&f));
		vol.cache_count = 0;
		CHECK_EQ_I(fat_file_extent(&vol, &de, &ext), -EINVAL);
		CHECK(strstr(vol.why, "ends after") != NULL);
		/* A loop back to the start: bounded, reported as fragmented. */
		tfat_set(&f, v[k].first + n / 2, v[k].first);
		vol.cache_count = 0;
		CHECK_EQ_I(fat_file_extent(&vol, &de, &ext), -EINVAL);
		free(c);
		md_free(m);
	}
}

/* SDBENCH.LOG: a chain in pieces is followed; every inconsistency refused. */
TEST(fat_chain_fat32_fat16_fat12)
{
	static const struct { int type; uint32_t blocks, spc, first; } v[] = {
		{ 32, 512 * MIB, 8, 1000 },
		{ 16, 256 * MIB, 8, 300 },
		{ 12, 100 * MIB, 64, 7 },
	};
	static const char sdbench_log[12] = "SDBENCH LOG";

	for (unsigned k = 0; k < 3; k++) {
		struct memdisk *m = md_new(GIB_BLOCKS);
		struct tfat f;
		struct fat_vol vol;
		struct fat_dirent de;
		struct lba_range ext[4];
		uint32_t c[12], size, cb;
		unsigned n, i;

		tfat_format(&f, m, 8192, v[k].blocks, v[k].type, v[k].spc);
		cb = f.spc * 512;
		/* 12 clusters in three pieces: 4 at first, 5 at first + 20, then
		 * 3 before the first piece; the last cluster half used. */
		for (i = 0; i < 12; i++)
			c[i] = i < 4 ? v[k].first + i : i < 9 ? v[k].first + 16 + i :
			       v[k].first - 12 + i;
		size = 11 * cb + cb / 2;
		tfat_file(&f, sdbench_log, FAT_ATTR_ARCHIVE, size, c, 12, NULL);
		CHECK_EQ_I(fat_mount(&vol, &m->dev, 8192, v[k].blocks), 0);
		CHECK_EQ_I(fat_find_root(&vol, "SDBENCH.LOG", &de), 0);
		CHECK_EQ_I(fat_file_chain(&vol, &de, ext, 4, &n), 0);
		CHECK_EQ_U(n, 3);
		CHECK_EQ_U(ext[0].first, tfat_clus_lba(&f, c[0]));
		CHECK_EQ_U(ext[0].count, 4 * f.spc);
		CHECK_EQ_U(ext[1].first, tfat_clus_lba(&f, c[4]));
		CHECK_EQ_U(ext[1].count, 5 * f.spc);
		CHECK_EQ_U(ext[2].first, tfat_clus_lba(&f, c[9]));
		CHECK_EQ_U(ext[2].count, 2 * f.spc + f.spc / 2);	/* whole blocks of the size */
		/* More pieces than the caller takes. */
		CHECK_EQ_I(fat_file_chain(&vol, &de, ext, 2, &n), -EINVAL);
		CHECK(strstr(vol.why, "more than 2 pieces") != NULL);

		/* Shorter than the entry says: the chain ends early. */
		tfat_set(&f, c[6], tfat_eoc(&f));
		vol.cache_count = 0;
		CHECK_EQ_I(fat_file_chain(&vol, &de, ext, 4, &n), -EINVAL);
		CHECK(strstr(vol.why, "ends after 7 of 12") != NULL);
		/* Broken: the chain runs into a free cluster. */
		tfat_set(&f, c[6], c[6] + 200);
		vol.cache_count = 0;
		CHECK_EQ_I(fat_file_chain(&vol, &de, ext, 4, &n), -EINVAL);
		CHECK(strstr(vol.why, "broken after 8 of 12") != NULL);
		/* A loop back into the chain. */
		tfat_set(&f, c[6], c[2]);
		vol.cache_count = 0;
		CHECK_EQ_I(fat_file_chain(&vol, &de, ext, 4, &n), -EINVAL);
		CHECK(strstr(vol.why, "loops") != NULL);
		/* Longer than the entry says. */
		tfat_set(&f, c[6], c[7]);
		tfat_set(&f, c[11], c[11] + 300);
		tfat_set(&f, c[11] + 300, tfat_eoc(&f));
		vol.cache_count = 0;
		CHECK_EQ_I(fat_file_chain(&vol, &de, ext, 4, &n), -EINVAL);
		CHECK(strstr(vol.why, "goes on past") != NULL);
		/* Whole again, then another chain links into it. */
		tfat_set(&f, c[11], tfat_eoc(&f));
		tfat_set(&f, c[11] + 300, 0);
		vol.cache_count = 0;
		CHECK_EQ_I(fat_file_chain(&vol, &de, ext, 4, &n), 0);
		tfat_set(&f, c[11] + 400, c[5]);
		vol.cache_count = 0;
		CHECK_EQ_I(fat_file_chain(&vol, &de, ext, 4, &n), -EINVAL);
		CHECK(strstr(vol.why, "cross-linked") != NULL);
		CHECK_EQ_U(n, 3);
		md_free(m);
	}
}

TEST(fat32_root_dir_loop_is_bounded)
{
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct tfat f;
	struct fat_vol vol;
	struct fat_dirent de;
	uint8_t *e;

	tfat_format(&f, m, 8192, 512 * MIB, 32, 1);
	/* Fill the first root cluster with entries so the scan continues,
	 * then let the root chain point to itself. */
	for (unsigned i = 0; i < 16; i++) {
		e = md_block(m, tfat_clus_lba(&f, 2)) + i * 32;
		memcpy(e, "FILLER  BIN", 11);
	}
	tfat_set(&f, 2, 2);
	CHECK_EQ_I(fat_mount(&vol, &m->dev, 8192, 0), 0);
	CHECK_EQ_I(fat_find_root(&vol, "SDBENCH.DAT", &de), -EIO);
	CHECK(strstr(vol.why, "root directory") != NULL);
	md_free(m);
}

/* ---- test area ------------------------------------------------------------ */

TEST(choose_pios_free_space_after)
{
	struct tfat f;
	struct memdisk *m = layout_pios(&f, 1024 * MIB + 1);	/* root ends off a 4 MiB boundary */
	struct mbr_info mi;
	struct test_area ta;
	uint32_t end = 8192 + 1280 * MIB + 1, start = (end + 8191) / 8192 * 8192;

	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), 0);
	CHECK(ta.usable);
	CHECK_EQ_U(ta.source, TEST_AREA_UNPARTITIONED);
	CHECK_EQ_U(ta.first_lba, start);
	CHECK_EQ_U(ta.first_lba % 8192, 0);
	CHECK_EQ_U(ta.count, 2 * GIB_BLOCKS - start);
	CHECK_STR(ta.hint, "");
	CHECK(strstr(ta.reason, "unpartitioned") != NULL);

	/* The write guard. */
	CHECK(test_area_contains(&ta, start, 1));
	CHECK(test_area_contains(&ta, start, ta.count));
	CHECK(test_area_contains(&ta, 2 * GIB_BLOCKS - 8, 8));
	CHECK(!test_area_contains(&ta, start - 1, 2));
	CHECK(!test_area_contains(&ta, start - 1, 1));
	CHECK(!test_area_contains(&ta, 2 * GIB_BLOCKS - 8, 9));
	CHECK(!test_area_contains(&ta, start, 0));
	CHECK(!test_area_contains(&ta, 0xFFFFFFFFu, 2));
	CHECK(!test_area_contains(&ta, 0, 1));
	CHECK(!test_area_contains(NULL, start, 1));
	md_free(m);
}

TEST(choose_boot_only_with_free_space)
{
	struct memdisk *m = md_new(256 * MIB);
	struct tfat f;
	struct mbr_info mi;
	struct test_area ta;

	mbr_put(m, 0, 0x0E, 2048, 64 * MIB);
	tfat_format(&f, m, 2048, 64 * MIB, 16, 4);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), 0);
	CHECK_EQ_U(ta.source, TEST_AREA_UNPARTITIONED);
	CHECK_EQ_U(ta.first_lba, 139264);	/* 2048 + 131072 rounded up to 8192 */
	CHECK_EQ_U(ta.count, 256 * MIB - 139264);
	md_free(m);
}

TEST(choose_too_little_free_space_then_file)
{
	/* 10 MiB free after the last partition: below the 16 MiB minimum. */
	struct tfat f;
	struct memdisk *m = layout_pios(&f, 2 * GIB_BLOCKS - 8192 - 256 * MIB - 10 * MIB);
	struct mbr_info mi;
	struct test_area ta;

	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), -ENOSPC);
	CHECK(!ta.usable);
	CHECK_EQ_U(ta.source, TEST_AREA_NONE);
	CHECK(strstr(ta.reason, "only 10 MiB unpartitioned") != NULL);
	CHECK(strstr(ta.reason, "SDBENCH.DAT not found") != NULL);
	CHECK(strstr(ta.hint, "GParted") != NULL);
	CHECK(strstr(ta.hint, "fsutil file createnew") != NULL);
	CHECK(strstr(ta.hint, "fallocate") != NULL);
	CHECK(!test_area_contains(&ta, 2 * GIB_BLOCKS - 100, 1));
	md_free(m);
}

/* Full card: boot FAT32 + root to the end, optional SDBENCH.DAT. */
static struct memdisk *layout_full(struct tfat *f)
{
	return layout_pios(f, 2 * GIB_BLOCKS - 8192 - 256 * MIB);
}

TEST(choose_full_card_contiguous_file)
{
	struct tfat f;
	struct memdisk *m = layout_full(&f);
	struct mbr_info mi;
	struct test_area ta;
	uint32_t size = 64u << 20, n = size / (f.spc * 512), *c = run(3000, n);
	uint32_t first, skip;

	tfat_file(&f, sdbench_dat, FAT_ATTR_ARCHIVE, size, c, n, NULL);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_U(mi.used_end, 2 * GIB_BLOCKS);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), 0);
	CHECK_EQ_U(ta.source, TEST_AREA_FILE);
	first = tfat_clus_lba(&f, 3000);
	skip = (8192 - first % 8192) % 8192;
	CHECK_EQ_U(ta.first_lba, first + skip);
	CHECK_EQ_U(ta.first_lba % 8192, 0);
	CHECK_EQ_U(ta.count, size / 512 - skip);
	/* Inside the boot partition, never outside the file. */
	CHECK(ta.first_lba >= 8192 && ta.first_lba + ta.count <= 8192 + 256 * MIB);
	CHECK(test_area_contains(&ta, first + skip, 8));
	CHECK(!test_area_contains(&ta, first + size / 512, 1));
	CHECK(strstr(ta.reason, "SDBENCH.DAT") != NULL);
	free(c);
	md_free(m);
}

TEST(choose_full_card_fragmented_file)
{
	struct tfat f;
	struct memdisk *m = layout_full(&f);
	struct mbr_info mi;
	struct test_area ta;
	uint32_t size = 64u << 20, n = size / (f.spc * 512), *c = run(3000, n);

	c[n / 3] = 3000 + n + 50;	/* one cluster elsewhere */
	tfat_file(&f, sdbench_dat, FAT_ATTR_ARCHIVE, size, c, n, NULL);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), -ENOSPC);
	CHECK(!ta.usable);
	CHECK(strstr(ta.reason, "fragmented") != NULL);
	CHECK(strstr(ta.hint, "contiguous") != NULL);
	free(c);
	md_free(m);
}

TEST(choose_full_card_small_file)
{
	struct tfat f;
	struct memdisk *m = layout_full(&f);
	struct mbr_info mi;
	struct test_area ta;
	uint32_t size = 8u << 20, n = size / (f.spc * 512), *c = run(3000, n);

	tfat_file(&f, sdbench_dat, FAT_ATTR_ARCHIVE, size, c, n, NULL);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), -ENOSPC);
	CHECK(strstr(ta.reason, "only 8192 KiB") != NULL);
	free(c);
	md_free(m);
}

TEST(choose_gpt_and_inconsistent_refuse_even_explicit)
{
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct mbr_info mi;
	struct test_area ta;
	struct lba_range r = { 1 << 20, 65536 };

	mbr_put(m, 0, 0xEE, 1, GIB_BLOCKS - 1);
	mbr_parse(&mi, &m->dev);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &r), -ENOTSUP);
	CHECK(!ta.usable);
	CHECK(strstr(ta.reason, "GPT") != NULL);
	CHECK(strstr(ta.hint, "MBR") != NULL);
	CHECK(!test_area_contains(&ta, 1 << 20, 1));

	mbr_put(m, 0, 0x0C, 8192, 100000);
	mbr_put(m, 1, 0x83, 50000, 100000);
	mbr_parse(&mi, &m->dev);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &r), -EINVAL);
	CHECK(!ta.usable);
	CHECK(strstr(ta.reason, "overlap") != NULL);
	md_free(m);
}

TEST(choose_explicit_range)
{
	struct tfat f;
	struct memdisk *m = layout_pios(&f, 1024 * MIB);
	struct mbr_info mi;
	struct test_area ta;
	uint32_t root = 8192 + 256 * MIB;
	struct lba_range ok = { 1800 * MIB, 64 * MIB };
	struct lba_range gap = { 2048, 4096 };	/* between the MBR and partition 1 */
	struct lba_range over = { root + 1024 * MIB - 10, 100 };
	struct lba_range lba0 = { 0, 100 };
	struct lba_range past = { 2 * GIB_BLOCKS - 10, 11 };

	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &ok), 0);
	CHECK_EQ_U(ta.source, TEST_AREA_CONFIG);
	CHECK_EQ_U(ta.first_lba, 1800 * MIB);
	CHECK_EQ_U(ta.count, 64 * MIB);
	CHECK_STR(ta.note, "");

	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &gap), 0);
	CHECK_EQ_U(ta.source, TEST_AREA_CONFIG);
	CHECK_EQ_U(ta.first_lba, 2048);

	/* Overlapping partition 2: refused by name, and no area at all: the
	 * user named where writes may go, so they never go anywhere else. */
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &over), -EINVAL);
	CHECK(!ta.usable);
	CHECK_EQ_U(ta.source, TEST_AREA_NONE);
	CHECK(strstr(ta.note, "refused") != NULL);
	CHECK(strstr(ta.note, "partition 2 (Linux, type 0x83") != NULL);
	CHECK(strstr(ta.reason, "never guessed") != NULL);
	CHECK(!test_area_contains(&ta, over.first, 1));
	CHECK(!test_area_contains(&ta, 1800 * MIB, 1));

	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &lba0), -EINVAL);
	CHECK(strstr(ta.note, "LBA 0") != NULL);
	CHECK_EQ_U(ta.source, TEST_AREA_NONE);

	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &past), -EINVAL);
	CHECK(strstr(ta.note, "past the card's end") != NULL);
	CHECK(!ta.usable);
	md_free(m);
}

TEST(choose_explicit_overlap_on_full_card_gives_none)
{
	struct tfat f;
	struct memdisk *m = layout_full(&f);
	struct mbr_info mi;
	struct test_area ta;
	struct lba_range r = { 8192 + 10, 100 };

	mbr_parse(&mi, &m->dev);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &r), -EINVAL);
	CHECK(!ta.usable);
	CHECK(strstr(ta.note, "partition 1 (FAT32 (LBA), type 0x0c, LBA 8192-532479)") != NULL);
	md_free(m);
}

TEST(choose_extended_explicit_overlap_names_logical)
{
	uint32_t e, ec;
	struct memdisk *m = layout_extended(&e, &ec);
	struct mbr_info mi;
	struct test_area ta;
	struct lba_range r = { e + 600 * MIB + 4096, 10 };
	struct lba_range free_in_ext = { e + 300 * MIB, 10 };

	mbr_parse(&mi, &m->dev);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &r), -EINVAL);
	/* The container is listed first, so it is the one named; either way it
	 * is refused. */
	CHECK(strstr(ta.note, "partition 2 (extended (LBA)") != NULL);
	/* Unused space inside the extended container is still refused. */
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &free_in_ext), -EINVAL);
	CHECK(strstr(ta.note, "refused") != NULL);
	CHECK_EQ_U(ta.source, TEST_AREA_NONE);
	md_free(m);
}

TEST(choose_fake_capacity_wrap)
{
	struct tfat f;
	struct memdisk *m = layout_pios(&f, 512 * MIB);
	struct mbr_info mi;
	struct test_area ta;

	m->wrap = GIB_BLOCKS;	/* reports 2 GiB, holds 1 GiB */
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), -EIO);
	CHECK(!ta.usable);
	CHECK(strstr(ta.reason, "wrap at 1024 MiB") != NULL);
	CHECK(strstr(ta.hint, "fake") != NULL);
	m->wrap = 0;
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), 0);
	/* A read error during the check also refuses. */
	m->fail_lba = 1u << 20;
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), -EIO);
	CHECK(strstr(ta.reason, "capacity check") != NULL);
	md_free(m);
}

TEST(choose_superfloppy)
{
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct tfat f;
	struct mbr_info mi;
	struct test_area ta;
	struct lba_range r = { 1 << 20, 65536 };
	uint32_t size = 32u << 20, n, *c;

	tfat_format(&f, m, 0, GIB_BLOCKS, 32, 8);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -ENOTSUP);
	CHECK_EQ_U(mi.kind, MBR_SUPERFLOPPY);
	CHECK_EQ_U(mi.used_end, GIB_BLOCKS);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &r), -EINVAL);
	CHECK(strstr(ta.note, "FAT file system at LBA 0") != NULL);
	n = size / (f.spc * 512);
	c = run(500, n);
	tfat_file(&f, sdbench_dat, 0, size, c, n, NULL);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, NULL), 0);
	CHECK_EQ_U(ta.source, TEST_AREA_FILE);
	CHECK(ta.first_lba >= tfat_clus_lba(&f, 500));
	free(c);
	md_free(m);
}

/* A FAT boot sector at LBA 0 that also carries partition entries (found
 * by fuzz_storage): either reading may hold the user's data, so no area. */
TEST(choose_fat_boot_sector_with_table)
{
	struct memdisk *m = md_new(GIB_BLOCKS);
	struct tfat f;
	struct mbr_info mi;
	struct test_area ta;

	tfat_format(&f, m, 0, GIB_BLOCKS / 2, 32, 8);
	mbr_put(m, 0, 0x0C, 8192, 65536);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), -EINVAL);
	CHECK_EQ_U(mi.kind, MBR_INCONSISTENT);
	CHECK(strstr(mi.reason, "FAT boot sector and partition entries") != NULL);
	CHECK(test_area_choose(&ta, &m->dev, &mi, NULL) != 0);
	CHECK(!ta.usable);
	md_free(m);
}

TEST(choose_json)
{
	struct tfat f;
	struct memdisk *m = layout_full(&f);
	struct mbr_info mi;
	struct test_area ta;
	struct json j;
	char buf[2048];

	mbr_parse(&mi, &m->dev);
	test_area_choose(&ta, &m->dev, &mi, NULL);
	json_init(&j, buf, sizeof(buf));
	json_obj_begin(&j, NULL);
	test_area_json(&ta, &j);
	json_obj_end(&j);
	CHECK(!j.overflow);
	CHECK(strstr(buf, "\"usable\":false") != NULL);
	CHECK(strstr(buf, "\"source\":\"none\"") != NULL);
	CHECK(strstr(buf, "\"hint\":") != NULL);
	md_free(m);
}

/* ---- configuration -------------------------------------------------------- */

static struct config cfg;

static void parse(const char *text)
{
	config_init(&cfg);
	config_parse(&cfg, text, strlen(text));
}

static int has_msg(const char *s)
{
	for (unsigned i = 0; i < cfg.nmsgs; i++)
		if (strstr(cfg.msgs[i], s))
			return 1;
	return 0;
}

static void dump_msgs(void)
{
	for (unsigned i = 0; i < cfg.nmsgs; i++)
		printf("    msg: %s\n", cfg.msgs[i]);
}

TEST(config_defaults)
{
	struct lba_range r;
	const struct lba_range *items;

	config_init(&cfg);
	CHECK_EQ_U(cfg.nmsgs, 0);	/* every default in the table parses */
	CHECK_EQ_U(config_u64(&cfg, CFG_SPAN), 256u << 20);
	CHECK(config_bool(&cfg, CFG_WRITE_TESTS));
	CHECK(config_has(&cfg, CFG_VERIFY));
	CHECK(!config_has(&cfg, CFG_SUITE));
	CHECK_EQ_I(config_enum(&cfg, CFG_SUITE), -1);
	CHECK(config_enum_name(&cfg, CFG_SUITE) == NULL);
	CHECK(!config_range(&cfg, CFG_TEST_AREA, &r));
	CHECK_EQ_U(config_list(&cfg, CFG_SELFTEST_LBAS, &items), 0);
	CHECK(!config_has(&cfg, CFG_SEED));
	CHECK(!config_from_file(&cfg, CFG_SPAN));
	CHECK_EQ_I(config_find_key("SPAN"), CFG_SPAN);
	CHECK_EQ_I(config_find_key("nope"), -1);
	CHECK_EQ_I(config_enum_index(CFG_SUITE, "selftest"), 2);

	/* Run-time defaults: used unless the file set the key. */
	CHECK_EQ_I(config_set_default(&cfg, CFG_SUITE, "quick"), 0);
	CHECK_STR(config_enum_name(&cfg, CFG_SUITE), "quick");
	CHECK(!config_from_file(&cfg, CFG_SUITE));
	CHECK_EQ_I(config_set_default(&cfg, CFG_SUITE, "fastest"), -EINVAL);
	CHECK_STR(config_enum_name(&cfg, CFG_SUITE), "quick");
	config_parse(&cfg, "suite = none\n", 13);
	CHECK_EQ_I(config_set_default(&cfg, CFG_SUITE, "full"), 0);
	CHECK_STR(config_enum_name(&cfg, CFG_SUITE), "none");
}

TEST(config_good_file)
{
	const struct lba_range *items;
	struct lba_range r;
	char buf[128];

	parse("\xEF\xBB\xBF# sdbench configuration\r\n"
	      "\r\n"
	      "suite = Full\r\n"
	      "  span=1G   # inline comment\n"
	      "write_tests = off\n"
	      "verify = yes\n"
	      "max_clock_hz = 25MHz\n"
	      "seed = 0xDEADBEEF\n"
	      "test_area = 4194304+256M\n"
	      "selftest_lbas = 0:1, 8192:16 1000000\n"
	      "selftest_write = 4194304-4194311\n");
	dump_msgs();
	CHECK_EQ_U(cfg.nmsgs, 0);
	CHECK_EQ_I(config_enum(&cfg, CFG_SUITE), 1);
	CHECK_STR(config_enum_name(&cfg, CFG_SUITE), "full");
	CHECK_EQ_U(config_u64(&cfg, CFG_SPAN), 1u << 30);
	CHECK(!config_bool(&cfg, CFG_WRITE_TESTS));
	CHECK(config_bool(&cfg, CFG_VERIFY));
	CHECK_EQ_U(config_u64(&cfg, CFG_MAX_CLOCK_HZ), 25000000);
	CHECK_EQ_U(config_u64(&cfg, CFG_SEED), 0xDEADBEEF);
	CHECK(config_range(&cfg, CFG_TEST_AREA, &r));
	CHECK_EQ_U(r.first, 4194304);
	CHECK_EQ_U(r.count, 524288);
	CHECK(config_range(&cfg, CFG_SELFTEST_WRITE, &r));
	CHECK_EQ_U(r.first, 4194304);
	CHECK_EQ_U(r.count, 8);	/* END is inclusive */
	CHECK_EQ_U(config_list(&cfg, CFG_SELFTEST_LBAS, &items), 3);
	CHECK_EQ_U(items[0].first, 0);
	CHECK_EQ_U(items[0].count, 1);
	CHECK_EQ_U(items[1].first, 8192);
	CHECK_EQ_U(items[1].count, 16);
	CHECK_EQ_U(items[2].first, 1000000);
	CHECK_EQ_U(items[2].count, 1);
	CHECK(config_from_file(&cfg, CFG_SPAN));
	CHECK_EQ_U(cfg.v[CFG_SPAN].line, 4);

	config_format(&cfg, CFG_SPAN, buf, sizeof(buf));
	CHECK_STR(buf, "1G");
	config_format(&cfg, CFG_MAX_CLOCK_HZ, buf, sizeof(buf));
	CHECK_STR(buf, "25MHz");
	config_format(&cfg, CFG_SELFTEST_LBAS, buf, sizeof(buf));
	CHECK_STR(buf, "0:1,8192:16,1000000:1");
	config_format(&cfg, CFG_TEST_AREA, buf, sizeof(buf));
	CHECK_STR(buf, "4194304+524288");
}

TEST(config_bad_values_keep_defaults)
{
	parse("span = 12x\n"
	      "write_tests = maybe\n"
	      "suite = fastest\n"
	      "# comment\n"
	      "max_clock_hz = 1GHz\n"
	      "span = 1000\n"
	      "test_area = 100\n"
	      "seed = -1\n"
	      "max_clock_hz = 50000\n"
	      "span = 256MB\n"
	      "selftest_lbas = 5:x\n"
	      "test_area = 200-100\n"
	      "seed = 99999999999999999999999\n");
	dump_msgs();
	CHECK(has_msg("config: line 1: span = 12x: not a size"));
	CHECK(has_msg("keeping 256M"));
	CHECK(has_msg("config: line 2: write_tests = maybe: not on or off; no writes"));
	/* The first line not read whole is the one named. */
	CHECK(!config_fully_read(&cfg));
	CHECK_EQ_U(cfg.unread_line, 1);
	CHECK_EQ_U(cfg.unread_lines, 12);
	CHECK_STR(config_no_writes_why(&cfg), "sdbench.txt line 1 could not be read (span = 12x: "
		  "not a size (k, M, G suffixes allowed))");
	CHECK(has_msg("config: line 3: suite = fastest: not one of quick|full|selftest|hostcost|none; left unset"));
	CHECK(has_msg("config: line 5: max_clock_hz = 1GHz: not a frequency"));
	CHECK(has_msg("config: line 6: span = 1000: not a whole number of 512-byte blocks"));
	CHECK(has_msg("config: line 7: test_area = 100: not a range"));
	CHECK(has_msg("config: line 8: seed = -1: not a number"));
	CHECK(has_msg("config: line 9: max_clock_hz = 50000: out of range"));
	CHECK(has_msg("config: line 10: span = 256MB: ambiguous unit"));
	CHECK(has_msg("config: line 11: selftest_lbas = 5:x"));
	CHECK(has_msg("config: line 12: test_area = 200-100: range ends before it starts"));
	CHECK(has_msg("config: line 13: seed = 99999999999999999999999: number too large"));
	CHECK_EQ_U(cfg.nmsgs, 12);
	CHECK_EQ_U(config_u64(&cfg, CFG_SPAN), 256u << 20);
	/* The keys that gate writes fail safe: no writes. */
	CHECK(!config_bool(&cfg, CFG_WRITE_TESTS) && config_bad(&cfg, CFG_WRITE_TESTS));
	CHECK(!config_has(&cfg, CFG_SUITE));
	CHECK(!config_has(&cfg, CFG_TEST_AREA) && config_bad(&cfg, CFG_TEST_AREA));
	CHECK_EQ_U(cfg.v[CFG_TEST_AREA].line, 12);
	CHECK(!config_from_file(&cfg, CFG_SPAN) && !config_bad(&cfg, CFG_SPAN));
}

/* Issue cases: a typo in a key that gates writes means no writes; enum
 * words match whole (no prefixes); a later good line replaces a bad one. */
TEST(config_fail_safe)
{
	static const char *const bad_bool[] = { "of", "1x", "", "onn", "o" };
	char line[64], big[400];

	for (unsigned i = 0; i < sizeof(bad_bool) / sizeof(bad_bool[0]); i++) {
		fmt_snprintf(line, sizeof(line), "write_tests = %s\n", bad_bool[i]);
		parse(line);
		dump_msgs();
		CHECK(!config_bool(&cfg, CFG_WRITE_TESTS));
		CHECK(config_bad(&cfg, CFG_WRITE_TESTS) && config_from_file(&cfg, CFG_WRITE_TESTS));
		CHECK(has_msg("config: line 1: write_tests") && has_msg("no writes"));
	}
	parse("data_path = d\nbus_mode = sdr\nhost = sd\nsuite = q\n");
	CHECK_STR(config_enum_name(&cfg, CFG_DATA_PATH), "auto");
	CHECK_STR(config_enum_name(&cfg, CFG_BUS_MODE), "auto");
	CHECK_STR(config_enum_name(&cfg, CFG_HOST), "auto");
	CHECK(!config_has(&cfg, CFG_SUITE));
	CHECK(has_msg("config: line 1: data_path = d: not one of auto|pio|dma; keeping auto"));
	CHECK(has_msg("config: line 2: bus_mode = sdr: not one of"));
	CHECK(!config_bad(&cfg, CFG_DATA_PATH));
	CHECK_EQ_I(config_enum_index(CFG_DATA_PATH, "dm"), -1);
	CHECK_EQ_I(config_enum_index(CFG_DATA_PATH, "DMA"), 2);
	parse("test_area = lots\n");
	CHECK(config_bad(&cfg, CFG_TEST_AREA) && !config_has(&cfg, CFG_TEST_AREA));
	CHECK(has_msg("config: line 1: test_area = lots: not a range") && has_msg("no writes"));
	parse("write_tests = of\nwrite_tests = on\n");
	CHECK(config_bool(&cfg, CFG_WRITE_TESTS) && !config_bad(&cfg, CFG_WRITE_TESTS));
	/* A line too long to read that names write_tests: no writes. */
	fmt_snprintf(big, sizeof(big), "write_tests = on%300s\nspan = 8M\n", "#");
	parse(big);
	CHECK(!config_bool(&cfg, CFG_WRITE_TESTS) && config_bad(&cfg, CFG_WRITE_TESTS));
	CHECK(has_msg("config: line 1: longer than 200 characters: not read; no writes"));
	/* Any line too long to read: its key is unknown, so no writes. */
	fmt_snprintf(big, sizeof(big), "  spanx = 8M%300s\n", "#");
	parse(big);
	CHECK(!config_bool(&cfg, CFG_WRITE_TESTS) && config_bad(&cfg, CFG_TEST_AREA));
	CHECK(config_bool(&cfg, CFG_RESULTS_FILE));
}

TEST(config_unknown_keys_and_syntax)
{
	parse("speed = fast\n"
	      "just some words\n"
	      "= 5\n"
	      "span =\n"
	      "SPAN = 64M\n"
	      "span = 128k\n");
	dump_msgs();
	CHECK(has_msg("config: line 1: unknown key \"speed\"; no writes this run"));
	CHECK(has_msg("config: line 2: \"just some words\": expected key = value"));
	CHECK(has_msg("config: line 3: no key before '='"));
	CHECK(has_msg("config: line 4: span: no value; keeping 256M"));
	CHECK(has_msg("config: line 6: span set again (replaces line 5)"));
	CHECK_EQ_U(cfg.nmsgs, 5);
	CHECK_EQ_U(config_u64(&cfg, CFG_SPAN), 128u << 10);
	/* Reads go on with the rest; nothing is written. */
	CHECK(!config_fully_read(&cfg) && cfg.unread_line == 1 && cfg.unread_lines == 4);
	CHECK(!config_bool(&cfg, CFG_WRITE_TESTS) && config_bad(&cfg, CFG_WRITE_TESTS));
	CHECK(!config_has(&cfg, CFG_TEST_AREA) && config_bad(&cfg, CFG_TEST_AREA));
	/* A clean file is read whole and writes. */
	parse("span = 64M\nwrite_tests = on\n# a comment\n\n  seed=3  # and another\n");
	CHECK(config_fully_read(&cfg) && !config_no_writes_why(&cfg));
	CHECK(config_bool(&cfg, CFG_WRITE_TESTS) && !config_bad(&cfg, CFG_TEST_AREA));
	CHECK(config_bool(&cfg, CFG_RESULTS_FILE));
}

/* Every way a user has been seen to misspell a line that gates writes, and
 * any unknown key: no writes, no test area; a key that looks like
 * results_file turns the results file off too. */
TEST(config_unreadable_line_writes_nothing)
{
	static const char *const lines[] = {
		"write_test = off", "write-tests = off", "write_tests: off", "write_tests off",
		"Write Tests = off", "writetests=off", "test_aera = 600000+8192",
		"test_area: 600000+8192", "test-area = 600000+8192", "test_area 600000+8192",
		"colour = blue", "write_tests == off", "= off", "span = 64 M",
		"results-file = off", "result_file = off", "results_file: off",
	};
	char text[96];

	for (unsigned i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		bool results_like = i >= 14;

		fmt_snprintf(text, sizeof(text), "span = 64M\n%s\nseed = 5\n", lines[i]);
		parse(text);
		if (config_bool(&cfg, CFG_WRITE_TESTS) || config_has(&cfg, CFG_TEST_AREA) ||
		    config_fully_read(&cfg) || cfg.unread_line != 2)
			fprintf(stderr, "  line \"%s\" was taken\n", lines[i]);
		CHECK(!config_bool(&cfg, CFG_WRITE_TESTS) && config_bad(&cfg, CFG_WRITE_TESTS));
		CHECK(!config_has(&cfg, CFG_TEST_AREA) && config_bad(&cfg, CFG_TEST_AREA));
		CHECK(!config_fully_read(&cfg) && cfg.unread_line == 2);
		CHECK(strstr(config_no_writes_why(&cfg), "line 2") != NULL);
		CHECK_EQ_I(config_bool(&cfg, CFG_RESULTS_FILE), !results_like);
		/* The other settings are still read. */
		CHECK_EQ_U(config_u64(&cfg, CFG_SEED), 5);
	}
	/* A key far from results_file leaves the results file on. */
	parse("results = off\n");
	CHECK(config_bool(&cfg, CFG_RESULTS_FILE) && !config_bool(&cfg, CFG_WRITE_TESTS));
}

TEST(config_limits)
{
	char text[4096];
	size_t n = 0;

	/* A line too long, a NUL byte, more messages than kept. */
	memset(text, 'a', 300);
	n = 300;
	memcpy(text + n, "\nspan = 8M\n", 11);
	n += 11;
	memcpy(text + n, "verify = o\0n\n", 13);
	n += 13;
	for (int i = 0; i < 20; i++) {
		memcpy(text + n, "bogus = 1\n", 10);
		n += 10;
	}
	config_init(&cfg);
	CHECK_EQ_U(config_parse(&cfg, text, n), 22);
	CHECK(has_msg("config: line 1: longer than"));
	CHECK(has_msg("config: line 3: contains a NUL byte"));
	CHECK_EQ_U(cfg.nmsgs, CONFIG_MAX_MSGS);
	CHECK_EQ_U(cfg.dropped, 22 - CONFIG_MAX_MSGS);
	CHECK_EQ_U(config_u64(&cfg, CFG_SPAN), 8u << 20);

	/* A list with too many items and one with a count over the limit. */
	parse("selftest_lbas = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"
	      "selftest_lbas = 0:4096\n"
	      "test_area = 4294967295+2\n");
	CHECK(has_msg("too many items"));
	CHECK(has_msg("item count too large"));
	CHECK(has_msg("beyond LBA 2^32"));
	/* Lone CR line ends, quoted values. */
	parse("seed = 1\rspan = \"64M\"\rsuite=\"full\"\r\rbogus\r");
	CHECK_EQ_U(config_u64(&cfg, CFG_SEED), 1);
	CHECK_EQ_U(config_u64(&cfg, CFG_SPAN), 64u << 20);
	CHECK_STR(config_enum_name(&cfg, CFG_SUITE), "full");
	CHECK(has_msg("config: line 5: \"bogus\": expected key = value"));
	CHECK_EQ_U(cfg.nmsgs, 1);
	/* No text at all, text without a final newline. */
	config_init(&cfg);
	CHECK_EQ_U(config_parse(&cfg, "", 0), 0);
	CHECK_EQ_U(config_parse(&cfg, "seed=7", 6), 0);
	CHECK_EQ_U(config_u64(&cfg, CFG_SEED), 7);
}

TEST(config_json_output)
{
	struct json j;
	char buf[1024];

	parse("suite = quick\nspan = 64M\n");
	json_init(&j, buf, sizeof(buf));
	json_obj_begin(&j, NULL);
	config_json(&cfg, &j);
	json_obj_end(&j);
	CHECK(!j.overflow);
	CHECK(strstr(buf, "\"suite\":\"quick\"") != NULL);
	CHECK(strstr(buf, "\"span\":67108864") != NULL);
	CHECK(strstr(buf, "\"write_tests\":true") != NULL);
	CHECK(strstr(buf, "\"test_area\":null") != NULL);
	CHECK(strstr(buf, "\"from_file\":[\"suite\",\"span\"]") != NULL);
}

TEST(config_from_card_then_area)
{
	static const char text[] =
		"# sdbench.txt\n"
		"suite = selftest\n"
		"test_area = 1800M+64M\n"
		"colour = blue\n";
	struct tfat f;
	struct memdisk *m = layout_pios(&f, 1024 * MIB);
	struct mbr_info mi;
	struct test_area ta;
	struct lba_range r;
	uint32_t c[1] = { 77 };

	tfat_file(&f, "README  TXT", 0, 5, c, 1, "hello");
	c[0] = 78;
	tfat_file(&f, sdbench_txt, 0, sizeof(text) - 1, c, 1, text);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	config_init(&cfg);
	CHECK_EQ_I(config_load_card(&cfg, &m->dev, &mi), 0);
	dump_msgs();
	CHECK_STR(config_enum_name(&cfg, CFG_SUITE), "selftest");
	CHECK(has_msg("config: line 4: unknown key \"colour\""));
	/* A line not read: no test area, although test_area itself was read. */
	CHECK(!config_range(&cfg, CFG_TEST_AREA, &r) && config_bad(&cfg, CFG_TEST_AREA));
	md_free(m);

	/* The same file without that line: the area it names. */
	m = layout_pios(&f, 1024 * MIB);
	c[0] = 77;
	tfat_file(&f, "README  TXT", 0, 5, c, 1, "hello");
	c[0] = 78;
	tfat_file(&f, sdbench_txt, 0, sizeof(text) - 1 - 15, c, 1, text);
	CHECK_EQ_I(mbr_parse(&mi, &m->dev), 0);
	config_init(&cfg);
	CHECK_EQ_I(config_load_card(&cfg, &m->dev, &mi), 0);
	CHECK(config_fully_read(&cfg));
	CHECK(config_range(&cfg, CFG_TEST_AREA, &r));
	CHECK_EQ_U(r.first, 1800 * MIB);
	CHECK_EQ_I(test_area_choose(&ta, &m->dev, &mi, &r), 0);
	CHECK_EQ_U(ta.source, TEST_AREA_CONFIG);
	CHECK_EQ_U(ta.first_lba, 1800 * MIB);
	CHECK_EQ_U(ta.count, 64 * MIB);
	md_free(m);

	/* No file: -ENOENT, no message, defaults. */
	m = layout_pios(&f, 1024 * MIB);
	mbr_parse(&mi, &m->dev);
	config_init(&cfg);
	CHECK_EQ_I(config_load_card(&cfg, &m->dev, &mi), -ENOENT);
	CHECK_EQ_U(cfg.nmsgs, 0);
	md_free(m);

	/* GPT: a message, no file. */
	m = md_new(GIB_BLOCKS);
	mbr_put(m, 0, 0xEE, 1, GIB_BLOCKS - 1);
	mbr_parse(&mi, &m->dev);
	config_init(&cfg);
	CHECK_EQ_I(config_load_card(&cfg, &m->dev, &mi), -ENOTSUP);
	CHECK(has_msg("GPT"));
	md_free(m);
}

/* ---- random tables: bounded, and the safety rule holds -------------------- */

static uint32_t rng_state = 0x12345678;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* A value that is often plausible, sometimes wild. */
static uint32_t pick(uint32_t plausible_max)
{
	switch (rnd() % 8) {
	case 0: return rnd();
	case 1: return 0;
	default: return rnd() % (plausible_max ? plausible_max : 1);
	}
}

TEST(random_tables_are_safe)
{
	static struct storage st;
	unsigned usable = 0, from_file = 0, kinds[8] = { 0 };
	struct memdisk *m = md_new(1);

	for (int iter = 0; iter < 3000; iter++) {
		uint32_t total = (1u << 18) << (rnd() % 6);	/* 128 MiB .. 4 GiB */
		struct tfat f;

		memset(m->present, 0, sizeof(m->present));
		m->used = 0;
		m->reads = 0;
		m->wrap = 0;
		m->total = m->dev.total_blocks = total;
		int nparts = (int)(rnd() % 5);

		for (int i = 0; i < nparts; i++) {
			static const uint8_t types[] = { 0x0C, 0x83, 0x05, 0x0F, 0x0B, 0x06, 0x82, 0xEE };
			uint8_t type = types[rnd() % (sizeof(types) - (rnd() % 4 ? 1 : 0))];

			mbr_put(m, i, type, pick(total), pick(total / 2));
			if (mbr_type_is_extended(type)) {
				uint32_t e = blkdev_le32(md_block(m, 0) + 446 + 16 * i + 8);

				for (int k = 0; k < 3; k++) {
					uint32_t ebr = e + (k ? pick(total / 4) : 0);

					mbr_entry_put(m, ebr, 0, 0, 0x83, pick(4096), pick(total / 8));
					mbr_entry_put(m, ebr, 1, 0, 0x05, pick(total / 4), pick(total / 8));
				}
			}
		}
		if (nparts && rnd() % 2) {
			uint32_t lba = blkdev_le32(md_block(m, 0) + 446 + 8);
			uint32_t cnt = blkdev_le32(md_block(m, 0) + 446 + 12);

			if (lba && cnt >= 64 * MIB && (uint64_t)lba + cnt <= total) {
				uint32_t n = 20 + rnd() % 12000, first = 2 + rnd() % 100, *c = run(first, n);

				tfat_format(&f, m, lba, 64 * MIB, 16, 4);
				for (uint32_t k = 0; k < 2; k++)	/* random FAT damage */
					tfat_set(&f, 2 + rnd() % f.nclus, rnd());
				if (first + n < f.nclus)
					tfat_file(&f, "SDBENCH DAT", 0, n * 2048 - rnd() % 2048, c, n, NULL);
				if (rnd() % 4 == 0)
					md_block(m, lba)[11 + rnd() % 40] = (uint8_t)rnd();
				if (rnd() % 2 && (uint64_t)lba + cnt < total) {	/* fill the card */
					for (int i = 1; i < 4; i++)
						mbr_put(m, i, 0, 0, 0);
					mbr_put(m, 1, 0x83, lba + cnt, total - lba - cnt);
				}
				free(c);
			}
		}
		if (rnd() % 3 == 0 && total > 8)	/* a fake card now and then */
			m->wrap = total >> (1 + rnd() % 3);

		storage_probe(&st, &m->dev);
		kinds[st.mbr.kind]++;
		CHECK(m->reads < 200000);
		if (st.area.usable) {
			struct lba_range a = { st.area.first_lba, st.area.count };

			usable++;
			CHECK(st.area.first_lba > 0);
			CHECK(lba_range_end(&a) <= total);
			CHECK(st.mbr.kind == MBR_OK || st.mbr.kind == MBR_EMPTY ||
			      st.mbr.kind == MBR_SUPERFLOPPY);
			if (st.area.source == TEST_AREA_FILE) {
				/* Inside exactly one FAT partition. */
				from_file++;
				const struct mbr_part *p = mbr_overlap(&st.mbr, &a);

				CHECK(p != NULL);
				if (p) {
					struct lba_range pr = { p->first_lba, p->count };

					CHECK(a.first >= pr.first && lba_range_end(&a) <= lba_range_end(&pr));
				}
			} else {
				CHECK(mbr_overlap(&st.mbr, &a) == NULL);
				CHECK(!m->wrap || m->wrap >= total);
			}
		}
	}
	md_free(m);
	printf("    usable %u of 3000 (%u from SDBENCH.DAT); kinds ok %u empty %u gpt %u none %u inconsistent %u\n",
	       usable, from_file, kinds[MBR_OK], kinds[MBR_EMPTY], kinds[MBR_GPT], kinds[MBR_NONE],
	       kinds[MBR_INCONSISTENT]);
	CHECK(usable > 100);
	CHECK(from_file > 5);
	CHECK(kinds[MBR_INCONSISTENT] > 100);
}

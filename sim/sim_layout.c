/*
 * sim_layout.c - put a Pi-style card layout on the simulated card: an MBR
 * with one FAT32 boot partition holding SDBENCH.TXT, the rest of the card
 * unpartitioned (the test area a flashed sdbench card has).
 *
 * Written with the simulator's own byte access (no bus, no time), from the
 * FAT specification (Microsoft FAT32 File System Specification 1.03: BPB at
 * offset 11, FSInfo in sector 1, 28-bit FAT entries, 8.3 directory entries)
 * and the MBR layout (partition entries at 446, signature 0x55AA at 510).
 * Deliberately independent of bench/storage/, which reads what this writes.
 */
#include <string.h>

#include "sim/sim.h"

#define SEC 512u
#define PART_LBA 8192u            /* 4 MiB alignment, like the Pi images */
#define PART_SECTORS 131072u      /* 64 MiB */
#define RESERVED 32u
#define FAT_SECTORS 1024u         /* 131072 entries x 4 bytes / 512 */
#define DATA_LBA (PART_LBA + RESERVED + 2u * FAT_SECTORS)

static void le16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void le32(uint8_t *p, uint32_t v)
{
	le16(p, v);
	le16(p + 2, v >> 16);
}

static void put_sector(uint32_t lba, const uint8_t *s)
{
	sim_card_poke((uint64_t)lba * SEC, s, SEC);
}

/* Cluster n (>= 2) starts at DATA_LBA + n - 2 (one sector per cluster). */
static uint32_t cluster_lba(uint32_t n)
{
	return DATA_LBA + n - 2u;
}

int sim_layout_pi_card(uint64_t card_bytes, const char *sdbench_txt, size_t len)
{
	uint8_t s[SEC];
	uint32_t clusters = len ? (uint32_t)((len + SEC - 1) / SEC) : 0;
	uint32_t i, fat_copy, entries_per_sec = SEC / 4u;

	if (card_bytes < (uint64_t)(PART_LBA + PART_SECTORS) * SEC + (32u << 20))
		return -1;
	if (clusters > 64)
		return -1;

	/* MBR: one FAT32 (LBA) partition, type 0x0C. */
	memset(s, 0, SEC);
	s[446] = 0x00;
	s[446 + 4] = 0x0C;
	le32(s + 446 + 8, PART_LBA);
	le32(s + 446 + 12, PART_SECTORS);
	s[510] = 0x55;
	s[511] = 0xAA;
	put_sector(0, s);

	/* Boot sector with the FAT32 BPB. */
	memset(s, 0, SEC);
	s[0] = 0xEB; s[1] = 0x58; s[2] = 0x90;
	memcpy(s + 3, "SDBSIM  ", 8);
	le16(s + 11, SEC);            /* bytes per sector */
	s[13] = 1;                    /* sectors per cluster */
	le16(s + 14, RESERVED);
	s[16] = 2;                    /* FATs */
	s[21] = 0xF8;                 /* media */
	le16(s + 24, 63);
	le16(s + 26, 255);
	le32(s + 28, PART_LBA);       /* hidden sectors */
	le32(s + 32, PART_SECTORS);
	le32(s + 36, FAT_SECTORS);
	le32(s + 44, 2);              /* root directory cluster */
	le16(s + 48, 1);              /* FSInfo sector */
	le16(s + 50, 6);              /* backup boot sector */
	s[64] = 0x80;
	s[66] = 0x29;
	le32(s + 67, 0x5db51a7eu);
	memcpy(s + 71, "SDBSIM     ", 11);
	memcpy(s + 82, "FAT32   ", 8);
	s[510] = 0x55;
	s[511] = 0xAA;
	put_sector(PART_LBA, s);
	put_sector(PART_LBA + 6, s);

	/* FSInfo. */
	memset(s, 0, SEC);
	le32(s, 0x41615252u);
	le32(s + 484, 0x61417272u);
	le32(s + 488, 0xFFFFFFFFu);
	le32(s + 492, 0xFFFFFFFFu);
	le32(s + 508, 0xAA550000u);
	put_sector(PART_LBA + 1, s);

	/* The FAT (both copies): entries 0 and 1 reserved, 2 = root directory
	 * (one cluster), 3 .. 3 + clusters - 1 = SDBENCH.TXT, chained. */
	for (fat_copy = 0; fat_copy < 2; fat_copy++) {
		uint32_t base = PART_LBA + RESERVED + fat_copy * FAT_SECTORS;

		memset(s, 0, SEC);
		le32(s + 0, 0x0FFFFFF8u);
		le32(s + 4, 0x0FFFFFFFu);
		le32(s + 8, 0x0FFFFFFFu);
		for (i = 0; i < clusters; i++) {
			uint32_t n = 3 + i;
			uint32_t next = i + 1 < clusters ? n + 1 : 0x0FFFFFFFu;

			le32(s + (n % entries_per_sec) * 4, next);
		}
		put_sector(base, s);
	}

	/* Root directory: a volume label and the file. */
	memset(s, 0, SEC);
	memcpy(s, "SDBSIM     ", 11);
	s[11] = 0x08;
	if (clusters) {
		memcpy(s + 32, "SDBENCH TXT", 11);
		s[32 + 11] = 0x20;
		le16(s + 32 + 20, 0);
		le16(s + 32 + 26, 3);
		le32(s + 32 + 28, (uint32_t)len);
	}
	put_sector(cluster_lba(2), s);

	for (i = 0; i < clusters; i++) {
		size_t off = (size_t)i * SEC, n = len - off < SEC ? len - off : SEC;

		memset(s, 0, SEC);
		memcpy(s, sdbench_txt + off, n);
		put_sector(cluster_lba(3 + i), s);
	}
	return 0;
}

/*
 * mbr.h - the card's partition table as far as write safety needs it: the
 * MBR at LBA 0 with its four primary entries and the EBR chain of an extended
 * partition, checked for consistency, turned into a list of used extents.
 *
 * Not supported (reported, never guessed): GPT (a protective MBR with type
 * 0xEE is reported as MBR_GPT), logical sector sizes other than 512 bytes,
 * CHS-only tables (the CHS fields are ignored; LBA fields are authoritative).
 */
#ifndef SDB_BENCH_MBR_H
#define SDB_BENCH_MBR_H

#include <stddef.h>
#include <stdint.h>

#include "bench/storage/blkdev.h"

#define MBR_MAX_LOGICAL		60
#define MBR_MAX_PARTS		(4 + MBR_MAX_LOGICAL)
#define MBR_REASON_LEN		128

/* Partition type IDs with a meaning here. */
#define MBR_TYPE_EMPTY		0x00
#define MBR_TYPE_EXTENDED_CHS	0x05
#define MBR_TYPE_EXTENDED_LBA	0x0F
#define MBR_TYPE_EXTENDED_LINUX	0x85
#define MBR_TYPE_GPT		0xEE

enum mbr_kind {
	MBR_OK,			/* a consistent MBR with at least one partition */
	MBR_EMPTY,		/* signature, but all four entries empty */
	MBR_GPT,		/* protective or hybrid MBR: the card uses GPT */
	MBR_SUPERFLOPPY,	/* a FAT file system at LBA 0, no partition table */
	MBR_NONE,		/* no 0x55AA signature at LBA 0 */
	MBR_INCONSISTENT,	/* a table that cannot be trusted (see reason) */
	MBR_UNREADABLE,		/* reading LBA 0 or an EBR failed (see err) */
};

#define MBR_PART_EXTENDED	(1u << 0)	/* the container of logical partitions */
#define MBR_PART_LOGICAL	(1u << 1)	/* found through the EBR chain */
#define MBR_PART_WHOLE_DISK	(1u << 2)	/* superfloppy: the file system is the card */

struct mbr_part {
	uint32_t first_lba;
	uint32_t count;
	uint8_t number;		/* 1-4 primary, 5... logical (the Linux numbering) */
	uint8_t type;
	uint8_t status;		/* 0x00 or 0x80 (active) */
	uint8_t flags;		/* MBR_PART_* */
};

struct mbr_info {
	enum mbr_kind kind;
	int err;		/* -errno when kind is MBR_UNREADABLE */
	uint32_t total_blocks;	/* the card size the table was checked against (0 = unknown) */
	uint32_t disk_id;	/* the 32-bit disk signature at offset 440 */
	unsigned nparts;	/* entries used in parts[], in table order */
	struct mbr_part parts[MBR_MAX_PARTS];
	uint64_t used_end;	/* one past the last block used by LBA 0, a partition or an EBR */
	char reason[MBR_REASON_LEN];	/* why the kind is not MBR_OK; "" when it is */
};

/*
 * Read and check the partition table of dev. Returns 0 for MBR_OK and
 * MBR_EMPTY, -ENOTSUP for GPT and superfloppy, -EINVAL for a missing or
 * inconsistent table, the read error for an unreadable one. mi is always
 * filled in (kind, reason) so the caller can say why.
 */
int mbr_parse(struct mbr_info *mi, const struct blkdev *dev);

/* The first partition (in table order) that overlaps r, or NULL. Every
 * partition counts, the extended container too. LBA 0 is not a partition:
 * callers check it themselves. */
const struct mbr_part *mbr_overlap(const struct mbr_info *mi, const struct lba_range *r);

/*
 * The used space as sorted, merged extents: LBA 0 and every partition
 * (extended containers include their EBRs and logical partitions). At most
 * max extents are stored; returns how many there are (which may exceed
 * max). Meaningful for MBR_OK, MBR_EMPTY and MBR_SUPERFLOPPY.
 */
unsigned mbr_used_extents(const struct mbr_info *mi, struct lba_range *out, unsigned max);

/* "MBR", "GPT", "inconsistent", ... */
const char *mbr_kind_name(enum mbr_kind kind);
/* "FAT32 (LBA)", "Linux", ... or "unknown" */
const char *mbr_type_name(uint8_t type);
/* True for 0x05, 0x0F, 0x85. */
int mbr_type_is_extended(uint8_t type);
/* True for the FAT type IDs 0x01, 0x04, 0x06, 0x0B, 0x0C, 0x0E. */
int mbr_type_is_fat(uint8_t type);

/* "partition 2 (Linux, type 0x83, LBA 532480-62333951)"; returns the length
 * like snprintf. */
int mbr_part_describe(const struct mbr_part *p, char *buf, size_t cap);

#endif

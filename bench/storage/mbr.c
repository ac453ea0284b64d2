/*
 * mbr.c - reads and checks the MBR partition table and the EBR chain of an
 * extended partition (the classic IBM PC layout as Linux' msdos partition
 * parser and fdisk use it: LBA fields authoritative, logical partitions
 * relative to their EBR, EBR links relative to the extended partition).
 *
 * The purpose is write safety, so every doubt makes the table
 * "inconsistent" with a reason, and the result never claims a block is free
 * that some reading of the table could consider used. Not supported: GPT
 * (reported as such), sector sizes other than 512 bytes.
 */
#include <string.h>

#include "bench/storage/mbr.h"
#include "bench/storage/bpb.h"
#include "lib/err.h"
#include "lib/fmt.h"

#define MBR_DISK_ID_OFF		440
#define MBR_TABLE_OFF		446
#define MBR_ENTRY_SIZE		16
#define MBR_SIG_OFF		510
#define MBR_SIG0		0x55
#define MBR_SIG1		0xAA

/* Fields of one 16-byte entry. */
#define MBR_E_STATUS		0
#define MBR_E_TYPE		4
#define MBR_E_LBA		8
#define MBR_E_COUNT		12

#define MBR_STATUS_ACTIVE	0x80

struct mbr_entry {
	uint8_t status, type;
	uint32_t lba, count;
};

static void entry_get(const uint8_t *sec, int i, struct mbr_entry *e)
{
	const uint8_t *p = sec + MBR_TABLE_OFF + i * MBR_ENTRY_SIZE;

	e->status = p[MBR_E_STATUS];
	e->type = p[MBR_E_TYPE];
	e->lba = blkdev_le32(p + MBR_E_LBA);
	e->count = blkdev_le32(p + MBR_E_COUNT);
}

static int has_signature(const uint8_t *sec)
{
	return sec[MBR_SIG_OFF] == MBR_SIG0 && sec[MBR_SIG_OFF + 1] == MBR_SIG1;
}

static int status_ok(uint8_t s)
{
	return s == 0 || s == MBR_STATUS_ACTIVE;
}

int mbr_type_is_extended(uint8_t type)
{
	return type == MBR_TYPE_EXTENDED_CHS || type == MBR_TYPE_EXTENDED_LBA ||
	       type == MBR_TYPE_EXTENDED_LINUX;
}

int mbr_type_is_fat(uint8_t type)
{
	return type == 0x01 || type == 0x04 || type == 0x06 || type == 0x0B ||
	       type == 0x0C || type == 0x0E;
}

const char *mbr_type_name(uint8_t type)
{
	switch (type) {
	case 0x00: return "empty";
	case 0x01: return "FAT12";
	case 0x04: return "FAT16 <32M";
	case 0x05: return "extended";
	case 0x06: return "FAT16";
	case 0x07: return "NTFS/exFAT";
	case 0x0B: return "FAT32";
	case 0x0C: return "FAT32 (LBA)";
	case 0x0E: return "FAT16 (LBA)";
	case 0x0F: return "extended (LBA)";
	case 0x82: return "Linux swap";
	case 0x83: return "Linux";
	case 0x85: return "Linux extended";
	case 0x8E: return "Linux LVM";
	case 0xDA: return "non-FS data";
	case 0xEE: return "GPT protective";
	case 0xEF: return "EFI system";
	case 0xFD: return "Linux RAID";
	default: return "unknown";
	}
}

const char *mbr_kind_name(enum mbr_kind kind)
{
	switch (kind) {
	case MBR_OK: return "MBR";
	case MBR_EMPTY: return "empty MBR";
	case MBR_GPT: return "GPT";
	case MBR_SUPERFLOPPY: return "superfloppy";
	case MBR_NONE: return "none";
	case MBR_INCONSISTENT: return "inconsistent";
	case MBR_UNREADABLE: return "unreadable";
	}
	return "?";
}

int mbr_part_describe(const struct mbr_part *p, char *buf, size_t cap)
{
	uint64_t last = (uint64_t)p->first_lba + p->count - 1;

	if (p->flags & MBR_PART_WHOLE_DISK)
		return fmt_snprintf(buf, cap, "the FAT file system at LBA 0 (no partition table)");
	return fmt_snprintf(buf, cap, "partition %u (%s, type 0x%02x, LBA %lu-%llu)",
			    p->number, mbr_type_name(p->type), p->type,
			    (unsigned long)p->first_lba, (unsigned long long)last);
}

static int fail(struct mbr_info *mi, enum mbr_kind kind, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(struct mbr_info *mi, enum mbr_kind kind, int ret, const char *fmt, ...)
{
	va_list ap;

	mi->kind = kind;
	va_start(ap, fmt);
	fmt_vsnprintf(mi->reason, sizeof(mi->reason), fmt, ap);
	va_end(ap);
	return ret;
}

static int unreadable(struct mbr_info *mi, int err, uint32_t lba)
{
	mi->err = err;
	return fail(mi, MBR_UNREADABLE, err, "reading LBA %lu failed: %s",
		    (unsigned long)lba, err_text(err));
}

static struct mbr_part *add_part(struct mbr_info *mi, uint32_t lba, uint32_t count,
				 uint8_t number, uint8_t type, uint8_t status, uint8_t flags)
{
	struct mbr_part *p;

	if (mi->nparts >= MBR_MAX_PARTS)
		return NULL;
	p = &mi->parts[mi->nparts++];
	*p = (struct mbr_part){ .first_lba = lba, .count = count, .number = number,
				.type = type, .status = status, .flags = flags };
	return p;
}

static int past_end(const struct mbr_info *mi, uint32_t lba, uint32_t count)
{
	return mi->total_blocks && (uint64_t)lba + count > mi->total_blocks;
}

/* Logical partitions (from first_logical on) must not overlap each other
 * nor any of the EBRs visited. */
static int check_logical_overlaps(struct mbr_info *mi, unsigned first_logical,
				  const uint32_t *visited, unsigned nvisited)
{
	for (unsigned i = first_logical; i < mi->nparts; i++) {
		struct lba_range a = { mi->parts[i].first_lba, mi->parts[i].count };

		for (unsigned j = i + 1; j < mi->nparts; j++) {
			struct lba_range b = { mi->parts[j].first_lba, mi->parts[j].count };

			if (lba_range_overlap(&a, &b))
				return fail(mi, MBR_INCONSISTENT, -EINVAL,
					    "logical partitions %u and %u overlap",
					    mi->parts[i].number, mi->parts[j].number);
		}
		for (unsigned k = 0; k < nvisited; k++) {
			struct lba_range b = { visited[k], 1 };

			if (lba_range_overlap(&a, &b))
				return fail(mi, MBR_INCONSISTENT, -EINVAL,
					    "logical partition %u covers the EBR at LBA %lu",
					    mi->parts[i].number, (unsigned long)visited[k]);
		}
	}
	return 0;
}

/*
 * Follows the EBR chain of the extended partition ext. Each EBR holds the
 * logical partition (entry 0, relative to the EBR) and the link to the next
 * EBR (entry 1, relative to the start of the extended partition). Bounded by
 * MBR_MAX_LOGICAL links and by a list of visited EBRs (a loop is an error,
 * not an endless walk).
 */
/* The EBR at LBA ebr read into sec: its logical partition and its link
 * to the next. 0, or the error (mi says why). */
static int read_ebr(struct mbr_info *mi, const struct blkdev *dev, uint32_t ebr,
		    uint8_t *sec, struct mbr_entry *log, struct mbr_entry *link)
{
	unsigned i;
	int ret = blkdev_read(dev, ebr, 1, sec);

	if (ret)
		return unreadable(mi, ret, ebr);
	if (!has_signature(sec))
		return fail(mi, MBR_INCONSISTENT, -EINVAL,
			    "the EBR at LBA %lu has no 0x55AA signature",
			    (unsigned long)ebr);
	entry_get(sec, 0, log);
	entry_get(sec, 1, link);
	/* Entries 3 and 4 of an EBR are unused; Linux reads any with a
	 * size as further logical partitions. Not tracked here, so a
	 * table that has them is not trusted. */
	for (i = 2; i < 4; i++) {
		struct mbr_entry extra;

		entry_get(sec, (int)i, &extra);
		if (extra.count)
			return fail(mi, MBR_INCONSISTENT, -EINVAL,
				    "the EBR at LBA %lu has a partition in entry %u",
				    (unsigned long)ebr, i + 1);
	}
	return 0;
}

/* The logical partition of the EBR at LBA ebr (log: its entry, number its
 * number), checked against its extended partition (ending at ext_end). */
static int add_logical(struct mbr_info *mi, uint32_t ebr, const struct mbr_entry *log,
		       uint8_t number, uint64_t ext_end)
{
	uint64_t start = (uint64_t)ebr + log->lba;

	if (!status_ok(log->status))
		return fail(mi, MBR_INCONSISTENT, -EINVAL,
			    "logical partition %u: invalid status byte 0x%02x",
			    number, log->status);
	if (log->lba == 0 || start + log->count > ext_end)
		return fail(mi, MBR_INCONSISTENT, -EINVAL,
			    "logical partition %u (LBA %llu+%lu) lies outside its "
			    "extended partition", number,
			    (unsigned long long)start, (unsigned long)log->count);
	if (mbr_type_is_extended(log->type))
		return fail(mi, MBR_INCONSISTENT, -EINVAL,
			    "logical partition %u has an extended type 0x%02x",
			    number, log->type);
	if (!add_part(mi, (uint32_t)start, log->count, number, log->type,
		      log->status, MBR_PART_LOGICAL))
		return fail(mi, MBR_INCONSISTENT, -EINVAL,
			    "too many partitions");
	return 0;
}

static int walk_ebr_chain(struct mbr_info *mi, const struct blkdev *dev,
			  const struct mbr_part *ext, uint8_t *sec)
{
	uint32_t visited[MBR_MAX_LOGICAL];
	uint64_t ext_end = (uint64_t)ext->first_lba + ext->count;
	uint32_t ebr = ext->first_lba;
	unsigned nvisited = 0, first_logical = mi->nparts;
	uint8_t number = 5;
	int ret;

	for (;;) {
		struct mbr_entry log, link;
		unsigned i;

		for (i = 0; i < nvisited; i++)
			if (visited[i] == ebr)
				return fail(mi, MBR_INCONSISTENT, -EINVAL,
					    "the EBR chain loops back to LBA %lu",
					    (unsigned long)ebr);
		if (nvisited == MBR_MAX_LOGICAL)
			return fail(mi, MBR_INCONSISTENT, -EINVAL,
				    "more than %d logical partitions", MBR_MAX_LOGICAL);
		visited[nvisited++] = ebr;

		ret = read_ebr(mi, dev, ebr, sec, &log, &link);
		if (ret)
			return ret;
		if (log.count) {
			ret = add_logical(mi, ebr, &log, number, ext_end);
			if (ret)
				return ret;
			number++;
		}

		if (link.count == 0 && link.type == MBR_TYPE_EMPTY)
			break;
		if (!mbr_type_is_extended(link.type) || link.lba == 0 ||
		    (uint64_t)ext->first_lba + link.lba + link.count > ext_end ||
		    (uint64_t)ext->first_lba + link.lba >= ext_end)
			return fail(mi, MBR_INCONSISTENT, -EINVAL,
				    "the EBR at LBA %lu links to an invalid next EBR "
				    "(type 0x%02x, offset %lu)", (unsigned long)ebr,
				    link.type, (unsigned long)link.lba);
		ebr = ext->first_lba + link.lba;
	}

	return check_logical_overlaps(mi, first_logical, visited, nvisited);
}

/* A FAT boot sector at LBA 0 instead of an MBR: the whole card is the file
 * system (some cameras and old tools format cards this way). */
static int superfloppy(struct mbr_info *mi, const uint8_t *sec)
{
	uint32_t fs_blocks;

	if (bpb_check(sec, &fs_blocks, NULL))
		return 0;
	add_part(mi, 0, mi->total_blocks > fs_blocks ? mi->total_blocks : fs_blocks, 1,
		 MBR_TYPE_EMPTY, 0, MBR_PART_WHOLE_DISK);
	mi->used_end = mi->total_blocks > fs_blocks ? mi->total_blocks : fs_blocks;
	fail(mi, MBR_SUPERFLOPPY, 0,
	     "LBA 0 holds a FAT file system, not a partition table");
	return 1;
}

/* Primary entry i (with a size) against the card and entries 0..i-1. */
static int check_primary(struct mbr_info *mi, const struct mbr_entry *e, int i)
{
	int j;

	if (e[i].lba == 0)
		return fail(mi, MBR_INCONSISTENT, -EINVAL,
			    "partition %d starts at LBA 0 (the MBR itself)", i + 1);
	if (past_end(mi, e[i].lba, e[i].count))
		return fail(mi, MBR_INCONSISTENT, -EINVAL,
			    "partition %d (LBA %lu+%lu) extends past the card's end "
			    "(%lu blocks)", i + 1, (unsigned long)e[i].lba,
			    (unsigned long)e[i].count, (unsigned long)mi->total_blocks);
	if ((uint64_t)e[i].lba + e[i].count > 0xFFFFFFFFull + 1)
		return fail(mi, MBR_INCONSISTENT, -EINVAL,
			    "partition %d extends past LBA 2^32", i + 1);
	for (j = 0; j < i; j++) {
		struct lba_range a = { e[i].lba, e[i].count }, b = { e[j].lba, e[j].count };

		if (lba_range_overlap(&a, &b))
			return fail(mi, MBR_INCONSISTENT, -EINVAL,
				    "partitions %d and %d overlap", j + 1, i + 1);
	}
	return 0;
}

/* The four primary entries of the MBR in sec into e, *nprimary those with
 * a size. 0, or the error: a GPT's protective MBR, an invalid status byte
 * (-ENOTSUP when LBA 0 is a whole-card FAT volume instead). */
static int read_entries(struct mbr_info *mi, uint8_t *sec, struct mbr_entry *e,
			unsigned *nprimary)
{
	int i;

	for (i = 0; i < 4; i++)
		entry_get(sec, i, &e[i]);
	for (i = 0; i < 4; i++)
		if (e[i].type == MBR_TYPE_GPT)
			return fail(mi, MBR_GPT, -ENOTSUP,
				    "the card uses a GPT partition table (protective MBR "
				    "entry %d, type 0xEE)", i + 1);

	for (i = 0; i < 4; i++) {
		if (!status_ok(e[i].status)) {
			if (superfloppy(mi, sec))
				return -ENOTSUP;
			return fail(mi, MBR_INCONSISTENT, -EINVAL,
				    "partition entry %d: invalid status byte 0x%02x",
				    i + 1, e[i].status);
		}
		/* Like Linux: an entry counts when it has a size, whatever its
		 * type; a type with size 0 occupies nothing. */
		if (e[i].count)
			(*nprimary)++;
	}
	return 0;
}

/* Logical partitions after the primaries, as Linux numbers them: the
 * chain of the one extended partition (sec: a sector's buffer). */
static int add_logicals(struct mbr_info *mi, const struct blkdev *dev, uint8_t *sec)
{
	unsigned next = mi->nparts;
	int ret;

	for (unsigned k = 0, found = 0; k < next; k++) {
		if (!(mi->parts[k].flags & MBR_PART_EXTENDED))
			continue;
		if (found++)
			return fail(mi, MBR_INCONSISTENT, -EINVAL,
				    "more than one extended partition");
		ret = walk_ebr_chain(mi, dev, &mi->parts[k], sec);
		if (ret)
			return ret;
	}
	return 0;
}

int mbr_parse(struct mbr_info *mi, const struct blkdev *dev)
{
	uint8_t sec[BLKDEV_BLOCK_SIZE] __attribute__((aligned(4)));
	struct mbr_entry e[4];
	unsigned nprimary = 0;
	int ret, i;

	memset(mi, 0, sizeof(*mi));
	mi->total_blocks = dev->total_blocks;
	mi->used_end = 1;	/* LBA 0 itself */

	ret = blkdev_read(dev, 0, 1, sec);
	if (ret)
		return unreadable(mi, ret, 0);
	if (!has_signature(sec))
		return fail(mi, MBR_NONE, -EINVAL,
			    "no partition table (no 0x55AA signature at LBA 0)");
	mi->disk_id = blkdev_le32(sec + MBR_DISK_ID_OFF);

	ret = read_entries(mi, sec, e, &nprimary);
	if (ret)
		return ret;
	if (nprimary == 0) {
		if (superfloppy(mi, sec))
			return -ENOTSUP;
		fail(mi, MBR_EMPTY, 0, "the partition table has no partitions");
		return 0;
	}
	/* LBA 0 decodes both as a FAT boot sector and as a table with
	 * partitions. Linux reads the table; Windows, cameras and other
	 * devices may mount LBA 0 as one volume over the whole card. The user's
	 * data may follow either reading, so no block is provably unused. */
	if (bpb_check(sec, NULL, NULL) == 0)
		return fail(mi, MBR_INCONSISTENT, -EINVAL,
			    "LBA 0 holds both a FAT boot sector and partition entries "
			    "(a PC may read the card either way)");

	for (i = 0; i < 4; i++) {
		if (!e[i].count)
			continue;
		ret = check_primary(mi, e, i);
		if (ret)
			return ret;
		add_part(mi, e[i].lba, e[i].count, (uint8_t)(i + 1), e[i].type, e[i].status,
			 mbr_type_is_extended(e[i].type) ? MBR_PART_EXTENDED : 0);
	}

	ret = add_logicals(mi, dev, sec);
	if (ret)
		return ret;

	for (unsigned k = 0; k < mi->nparts; k++) {
		uint64_t end = (uint64_t)mi->parts[k].first_lba + mi->parts[k].count;

		if (end > mi->used_end)
			mi->used_end = end;
	}
	mi->kind = MBR_OK;
	mi->reason[0] = 0;
	return 0;
}

const struct mbr_part *mbr_overlap(const struct mbr_info *mi, const struct lba_range *r)
{
	for (unsigned i = 0; i < mi->nparts; i++) {
		struct lba_range p = { mi->parts[i].first_lba, mi->parts[i].count };

		if (lba_range_overlap(&p, r))
			return &mi->parts[i];
	}
	return NULL;
}

unsigned mbr_used_extents(const struct mbr_info *mi, struct lba_range *out, unsigned max)
{
	struct lba_range all[MBR_MAX_PARTS + 1];
	unsigned n = 0, m = 0;

	all[n++] = (struct lba_range){ 0, 1 };
	for (unsigned i = 0; i < mi->nparts; i++)
		all[n++] = (struct lba_range){ mi->parts[i].first_lba, mi->parts[i].count };
	/* Insertion sort by start: at most 65 entries. */
	for (unsigned i = 1; i < n; i++) {
		struct lba_range t = all[i];
		unsigned j = i;

		for (; j > 0 && all[j - 1].first > t.first; j--)
			all[j] = all[j - 1];
		all[j] = t;
	}
	/* Merge overlapping and touching runs. */
	for (unsigned i = 1; i < n; i++) {
		struct lba_range *last = &all[m];
		uint64_t end = lba_range_end(last);

		if ((uint64_t)all[i].first <= end) {
			if (lba_range_end(&all[i]) > end)
				last->count = (uint32_t)(lba_range_end(&all[i]) - last->first);
		} else {
			all[++m] = all[i];
		}
	}
	m++;
	for (unsigned i = 0; i < m && i < max; i++)
		out[i] = all[i];
	return m;
}

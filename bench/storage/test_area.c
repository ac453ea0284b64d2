/*
 * test_area.c - chooses the only blocks the benchmark may write (rules in
 * test_area.h, for users in docs/test-area.md).
 *
 * Everything here reads; the decision is made from the partition table, the
 * FAT of the boot partition and a wrap check, and every doubt ends in "no
 * write area" with a reason and a hint. Not supported: GPT, test areas made
 * of several runs, SDBENCH.DAT outside the root directory.
 */
#include <string.h>

#include "bench/storage/test_area.h"
#include "bench/storage/fat.h"
#include "bench/storage/mbr.h"
#include "lib/err.h"
#include "lib/fmt.h"
#include "lib/json.h"

#define MIB_BLOCKS		2048u	/* 512-byte blocks per MiB */
/* The smallest power-of-two LBA the wrap check reads (4 KiB). */
#define WRAP_FIRST_LBA		8u

static const char hint_make_room[] =
	"to allow write tests, leave at least 16 MiB unpartitioned at the end of the card "
	"(shrink the last partition, e.g. with GParted) or create a contiguous SDBENCH.DAT "
	"(e.g. 256 MiB) in the boot partition of a freshly formatted card (Linux: fallocate "
	"-l 256M SDBENCH.DAT; macOS: mkfile 256m SDBENCH.DAT; Windows: fsutil file "
	"createnew SDBENCH.DAT 268435456); see docs/test-area.md";
static const char hint_fragmented[] =
	"SDBENCH.DAT must be one contiguous run of clusters: copy the boot partition's files "
	"to a PC, format it, create SDBENCH.DAT first (fallocate -l 256M / mkfile 256m / "
	"fsutil file createnew SDBENCH.DAT 268435456), then copy the files back; "
	"see docs/test-area.md";
static const char hint_gpt[] =
	"sdbench writes only to cards with an MBR (DOS) partition table; read tests still "
	"run; see docs/test-area.md";
static const char hint_table[] =
	"repair or recreate the MBR partition table (fdisk, GParted), or use a card with a "
	"plain MBR layout; read tests still run; see docs/test-area.md";
static const char hint_wrap[] =
	"the card's real capacity looks smaller than it reports (a fake-capacity card); "
	"writing beyond it would overwrite the start of the card; check it with f3 or H2testw";

static void say(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
}

static int none(struct test_area *ta, int ret, const char *hint)
{
	ta->usable = false;
	ta->source = TEST_AREA_NONE;
	ta->first_lba = ta->count = 0;
	fmt_snprintf(ta->hint, sizeof(ta->hint), "%s", hint);
	return ret;
}

static int use(struct test_area *ta, enum test_area_source src, uint32_t first, uint32_t count)
{
	ta->usable = true;
	ta->source = src;
	ta->first_lba = first;
	ta->count = count;
	ta->hint[0] = 0;
	return 0;
}

const char *test_area_source_name(enum test_area_source s)
{
	switch (s) {
	case TEST_AREA_CONFIG: return "config";
	case TEST_AREA_UNPARTITIONED: return "unpartitioned";
	case TEST_AREA_FILE: return "file";
	case TEST_AREA_NONE: break;
	}
	return "none";
}

bool test_area_contains(const struct test_area *ta, uint32_t lba, uint32_t count)
{
	return ta && ta->usable && ta->count && count && lba >= ta->first_lba &&
	       (uint64_t)lba + count <= (uint64_t)ta->first_lba + ta->count;
}

static uint32_t mib(uint64_t blocks)
{
	return (uint32_t)(blocks / MIB_BLOCKS);
}

/*
 * A fake-capacity card maps LBA C + x to x, C its real size (usually a
 * power of two). Reading LBA 0's exact bytes back at a power-of-two LBA
 * shows it. Read-only; a read error here also refuses (a card that cannot
 * read its own claimed range is no place for writes). 0 when no wrap.
 */
static int wrap_check(struct test_area *ta, const struct blkdev *dev)
{
	uint8_t mbr[BLKDEV_BLOCK_SIZE] __attribute__((aligned(4)));
	uint8_t sec[BLKDEV_BLOCK_SIZE] __attribute__((aligned(4)));
	int ret = blkdev_read(dev, 0, 1, mbr);

	if (ret) {
		say(ta->reason, sizeof(ta->reason), "reading LBA 0 failed: %s", err_text(ret));
		return ret;
	}
	for (uint64_t lba = WRAP_FIRST_LBA; lba < dev->total_blocks; lba <<= 1) {
		ret = blkdev_read(dev, (uint32_t)lba, 1, sec);
		if (ret) {
			say(ta->reason, sizeof(ta->reason),
			    "reading LBA %llu failed during the capacity check: %s",
			    (unsigned long long)lba, err_text(ret));
			return ret;
		}
		if (memcmp(mbr, sec, sizeof(sec)) == 0) {
			ta->wrap_lba = lba;
			say(ta->reason, sizeof(ta->reason),
			    "LBA %llu reads back the MBR: the card's addresses seem to wrap "
			    "at %lu MiB although it reports %lu MiB", (unsigned long long)lba,
			    (unsigned long)mib(lba), (unsigned long)mib(dev->total_blocks));
			return -EIO;
		}
	}
	ta->wrap_checked = true;
	return 0;
}

/* Rule 1. Returns 1 when the range is acceptable, else 0 with ta->note. */
static int explicit_ok(struct test_area *ta, const struct blkdev *dev,
		       const struct mbr_info *mi, const struct lba_range *r, const char *from)
{
	const struct mbr_part *p;
	char what[96];

	if (r->count == 0) {
		say(ta->note, sizeof(ta->note), "test_area %s refused: empty range", from);
		return 0;
	}
	if (r->first == 0) {
		say(ta->note, sizeof(ta->note),
		    "test_area %lu+%lu %s refused: it includes LBA 0 (the MBR)",
		    (unsigned long)r->first, (unsigned long)r->count, from);
		return 0;
	}
	if (!dev->total_blocks || lba_range_end(r) > dev->total_blocks) {
		say(ta->note, sizeof(ta->note),
		    "test_area %lu+%lu %s refused: it extends past the card's "
		    "end (%lu blocks)", (unsigned long)r->first, (unsigned long)r->count, from,
		    (unsigned long)dev->total_blocks);
		return 0;
	}
	p = mbr_overlap(mi, r);
	if (p) {
		mbr_part_describe(p, what, sizeof(what));
		say(ta->note, sizeof(ta->note),
		    "test_area %lu+%lu %s refused: it overlaps %s",
		    (unsigned long)r->first, (unsigned long)r->count, from, what);
		return 0;
	}
	return 1;
}

/* Rule 3: SDBENCH.DAT. 0 with the area, else -errno with ta->reason. */
static int file_area(struct test_area *ta, const struct blkdev *dev, const struct mbr_info *mi,
		     struct lba_range *area, int *fragmented)
{
	static struct fat_vol vol;	/* 600 bytes: kept off the stack */
	struct fat_dirent de;
	uint32_t skip;
	int ret;

	*fragmented = 0;
	ret = fat_mount_boot(&vol, dev, mi);
	if (!ret)
		ret = fat_find_root(&vol, TEST_AREA_FILE_NAME, &de);
	if (!ret) {
		ret = fat_file_extent(&vol, &de, area);
		*fragmented = ret == -EINVAL;
	}
	if (ret) {
		say(ta->reason, sizeof(ta->reason), "%s", vol.why);
		return ret;
	}
	/* Start on a 4 MiB boundary (where the card's erase blocks start)
	 * when the file is large enough to afford it. */
	skip = (TEST_AREA_ALIGN_BLOCKS - area->first % TEST_AREA_ALIGN_BLOCKS) %
	       TEST_AREA_ALIGN_BLOCKS;
	if (area->count >= skip + TEST_AREA_MIN_BLOCKS) {
		area->first += skip;
		area->count -= skip;
	}
	if (area->count < TEST_AREA_MIN_BLOCKS) {
		say(ta->reason, sizeof(ta->reason), "%s is only %lu KiB (at least %u MiB needed)",
		    TEST_AREA_FILE_NAME, (unsigned long)(area->count / 2),
		    TEST_AREA_MIN_BLOCKS / MIB_BLOCKS);
		return -ENOSPC;
	}
	return 0;
}

int test_area_choose(struct test_area *ta, const struct blkdev *dev, const struct mbr_info *mi,
		     const struct lba_range *explicit_range)
{
	return test_area_choose_from(ta, dev, mi, explicit_range, "from sdbench.txt");
}

/* The configured range (from: where it was set), used when the rules
 * allow it; else no area at all. */
static int configured_area(struct test_area *ta, const struct blkdev *dev,
			   const struct mbr_info *mi, const struct lba_range *range,
			   const char *from)
{
	char size[24];

	if (!explicit_ok(ta, dev, mi, range, from)) {
		say(ta->reason, sizeof(ta->reason), "%s: no writes (a test area is never "
		    "guessed past a refused setting)", ta->note);
		return none(ta, -EINVAL, "choose a range that overlaps no partition and "
			    "lies inside the card, or remove the test_area line "
			    "(docs/test-area.md)");
	}
	if (wrap_check(ta, dev))
		return none(ta, -EIO, hint_wrap);
	say(ta->reason, sizeof(ta->reason), "test_area %lu+%lu %s "
	    "(%s, overlaps no partition)", (unsigned long)range->first,
	    (unsigned long)range->count, from,
	    fmt_size(size, sizeof(size), (uint64_t)range->count * 512u, FMT_SIZE_ABOUT));
	return use(ta, TEST_AREA_CONFIG, range->first, range->count);
}

/* The unpartitioned space after the last partition: 0 (used), an error,
 * or 1 with why (cap bytes) saying why there is none. */
static int unpartitioned_area(struct test_area *ta, const struct blkdev *dev,
			      const struct mbr_info *mi, char *why, size_t cap)
{
	uint64_t start = (mi->used_end + TEST_AREA_ALIGN_BLOCKS - 1) / TEST_AREA_ALIGN_BLOCKS *
		TEST_AREA_ALIGN_BLOCKS;

	if (mi->kind == MBR_EMPTY) {
		say(why, cap, "the partition table is empty (nothing "
		    "shows which blocks are unused)");
	} else if (mi->kind == MBR_SUPERFLOPPY) {
		say(why, cap, "the whole card is one FAT file system");
	} else if (!dev->total_blocks) {
		say(why, cap, "the card's size is unknown");
	} else if (start + TEST_AREA_MIN_BLOCKS > dev->total_blocks) {
		uint64_t left = dev->total_blocks > mi->used_end ? dev->total_blocks - mi->used_end : 0;

		say(why, cap, "only %lu MiB unpartitioned after the last "
		    "partition (at least %u MiB needed)", (unsigned long)mib(left),
		    TEST_AREA_MIN_BLOCKS / MIB_BLOCKS);
	} else {
		if (wrap_check(ta, dev))
			return none(ta, -EIO, hint_wrap);
		say(ta->reason, sizeof(ta->reason), "unpartitioned space after the last "
		    "partition (LBA %llu, %lu MiB)", (unsigned long long)start,
		    (unsigned long)mib(dev->total_blocks - start));
		return use(ta, TEST_AREA_UNPARTITIONED, (uint32_t)start,
			   (uint32_t)(dev->total_blocks - start));
	}
	return 1;
}

int test_area_choose_from(struct test_area *ta, const struct blkdev *dev,
			  const struct mbr_info *mi, const struct lba_range *explicit_range,
			  const char *from)
{
	char unpart_why[112];
	struct lba_range area;
	int ret, fragmented;

	memset(ta, 0, sizeof(*ta));
	switch (mi->kind) {
	case MBR_OK:
	case MBR_EMPTY:
	case MBR_SUPERFLOPPY:
		break;
	case MBR_GPT:
		say(ta->reason, sizeof(ta->reason), "%s", mi->reason);
		return none(ta, -ENOTSUP, hint_gpt);
	case MBR_UNREADABLE:
		say(ta->reason, sizeof(ta->reason), "the partition table is "
		    "unreadable (%s)", mi->reason);
		return none(ta, mi->err ? mi->err : -EIO, hint_table);
	default:
		say(ta->reason, sizeof(ta->reason), "%s", mi->reason);
		return none(ta, -EINVAL, hint_table);
	}

	/* 1. The configured range. One the rules refuse means no area: the
	 * user named where writes may go, so they never go anywhere else. */
	if (explicit_range)
		return configured_area(ta, dev, mi, explicit_range, from);
	/* 2. Unpartitioned space after the last partition. */
	ret = unpartitioned_area(ta, dev, mi, unpart_why, sizeof(unpart_why));
	if (ret <= 0)
		return ret;

	/* 3. SDBENCH.DAT in the boot partition. */
	ret = file_area(ta, dev, mi, &area, &fragmented);
	if (ret == 0) {
		say(ta->reason, sizeof(ta->reason), "%s in the boot partition (contiguous, "
		    "LBA %lu, %lu MiB)", TEST_AREA_FILE_NAME, (unsigned long)area.first,
		    (unsigned long)mib(area.count));
		return use(ta, TEST_AREA_FILE, area.first, area.count);
	}
	{
		char file_why[sizeof(ta->reason)];

		memcpy(file_why, ta->reason, sizeof(file_why));
		say(ta->reason, sizeof(ta->reason), "%s; %s", unpart_why, file_why);
	}
	if (ret != -ENOENT && ret != -EINVAL && ret != -ENOSPC && ret != -ENOTSUP)
		return none(ta, ret, hint_make_room);	/* a read error */
	return none(ta, -ENOSPC, fragmented ? hint_fragmented : hint_make_room);
}

void test_area_json(const struct test_area *ta, struct json *j)
{
	json_bool(j, "usable", ta->usable);
	json_str(j, "source", test_area_source_name(ta->source));
	json_u64(j, "first_lba", ta->first_lba);
	json_u64(j, "count", ta->count);
	json_u64(j, "bytes", (uint64_t)ta->count * BLKDEV_BLOCK_SIZE);
	json_str(j, "reason", ta->reason);
	if (ta->note[0])
		json_str(j, "note", ta->note);
	if (ta->hint[0])
		json_str(j, "hint", ta->hint);
	if (ta->wrap_lba)
		json_u64(j, "wrap_bytes", ta->wrap_lba * BLKDEV_BLOCK_SIZE);
}

void test_area_refuse_bad_config(struct test_area *ta, const char *why)
{
	memset(ta, 0, sizeof(*ta));
	say(ta->reason, sizeof(ta->reason), "%s: no writes (a test area is never guessed past "
	    "a setting that could not be read)", why);
	none(ta, -EINVAL, "correct or remove that line in sdbench.txt (docs/config.md)");
}
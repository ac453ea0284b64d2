/*
 * test_pattern.c - self-identifying blocks and their classification (each
 * class: ok, changed bits, overwritten from another LBA as on a wrapping
 * fake-capacity card, stale run / sequence, zeros / 0xff / garbage). The
 * CRC-32 of the header is lib/crc32's (tests/unit/test_crc32.c).
 */
#include "tests/unit/check.h"
#include "bench/engine/pattern.h"

#define RUN 0x1234abcdu

TEST(fill_layout)
{
	uint8_t b[512], c[512];
	unsigned i, diff = 0;

	pattern_fill(b, 0x01020304u, RUN, 5);
	CHECK_EQ_U(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24, PATTERN_MAGIC);
	CHECK_EQ_U(b[4], 0x04);
	CHECK_EQ_U(b[7], 0x01);
	CHECK_EQ_U(b[12], 5);
	/* neighbouring LBAs have unrelated payloads */
	pattern_fill(c, 0x01020305u, RUN, 5);
	for (i = PATTERN_HDR_BYTES; i < 512; i++)
		diff += b[i] != c[i];
	CHECK(diff > 450);
	/* the payload is not constant */
	diff = 0;
	for (i = PATTERN_HDR_BYTES + 1; i < 512; i++)
		diff += b[i] != b[i - 1];
	CHECK(diff > 450);
}

TEST(class_ok)
{
	uint8_t b[512];
	struct pattern_result r;

	pattern_fill(b, 100, RUN, 1);
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_OK);
	CHECK_EQ_U(r.bad_bytes, 0);
	CHECK_EQ_U(r.found_lba, 100);
}

TEST(class_ok_unaligned_buffer)
{
	uint8_t raw[520];
	struct pattern_result r;

	pattern_fill(raw + 3, 7, RUN, 2);
	pattern_check(raw + 3, 7, RUN, 2, &r);
	CHECK_EQ_U(r.cls, PAT_OK);
}

TEST(class_changed_bits)
{
	uint8_t b[512];
	struct pattern_result r;

	pattern_fill(b, 100, RUN, 1);
	b[300] ^= 0x10;
	b[511] ^= 0x01;
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_CHANGED);
	CHECK_EQ_U(r.bad_bytes, 2);
	CHECK_EQ_U(r.found_lba, 100);

	/* a flipped bit in the header still counts as changed, not corrupted */
	pattern_fill(b, 100, RUN, 1);
	b[5] ^= 0x80;
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_CHANGED);
	CHECK_EQ_U(r.bad_bytes, 1);

	/* many changed payload bytes under an intact header: still changed */
	pattern_fill(b, 100, RUN, 1);
	for (unsigned i = 100; i < 300; i++)
		b[i] = 0;
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_CHANGED);
	CHECK(r.bad_bytes > 190 && r.bad_bytes <= 200);
}

TEST(class_overwritten_wrap)
{
	/* a 1 GiB fake card claiming more: LBA 100 + 2^21 lands on LBA 100 */
	uint32_t real = 1u << 21;
	uint8_t b[512];
	struct pattern_result r;

	pattern_fill(b, 100 + real, RUN, 1);
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_OVERWRITTEN);
	CHECK_EQ_U(r.found_lba, 100 + real);
	CHECK_EQ_U(r.found_run, RUN);
	CHECK(r.bad_bytes > 400);
	/* same run, another LBA, another sequence number: still overwritten */
	pattern_fill(b, 5, RUN, 9);
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_OVERWRITTEN);
	CHECK_EQ_U(r.found_lba, 5);
}

TEST(class_stale)
{
	uint8_t b[512];
	struct pattern_result r;

	/* an older run's block: the write of this run never landed */
	pattern_fill(b, 100, RUN - 1, 1);
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_STALE);
	CHECK_EQ_U(r.found_run, RUN - 1);
	CHECK_EQ_U(r.found_lba, 100);
	/* same run, an earlier pass over the same LBA */
	pattern_fill(b, 100, RUN, 0);
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_STALE);
	CHECK_EQ_U(r.found_seq, 0);
	/* older run, another LBA */
	pattern_fill(b, 42, RUN + 1, 1);
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_STALE);
	CHECK_EQ_U(r.found_lba, 42);
}

TEST(class_corrupted)
{
	uint8_t b[512];
	struct pattern_result r;
	unsigned i;

	memset(b, 0, sizeof(b));
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_CORRUPTED);
	CHECK(r.bad_bytes > 480);

	memset(b, 0xff, sizeof(b));
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_CORRUPTED);
	CHECK(r.bad_bytes > 480);

	/* the right magic but a broken header CRC and foreign payload */
	pattern_fill(b, 100, RUN, 1);
	for (i = 8; i < 512; i++)
		b[i] = (uint8_t)(i * 37u);
	pattern_check(b, 100, RUN, 1, &r);
	CHECK_EQ_U(r.cls, PAT_CORRUPTED);
	CHECK_EQ_U(r.found_lba, 100);
}

TEST(class_names)
{
	CHECK_STR(pattern_class_name(PAT_OK), "ok");
	CHECK_STR(pattern_class_name(PAT_CHANGED), "changed");
	CHECK_STR(pattern_class_name(PAT_OVERWRITTEN), "overwritten");
	CHECK_STR(pattern_class_name(PAT_STALE), "stale");
	CHECK_STR(pattern_class_name(PAT_CORRUPTED), "corrupted");
}

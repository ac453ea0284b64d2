/*
 * test_pattern.c - self-identifying blocks and their classification (each
 * class: ok, changed bits, overwritten from another LBA as on a wrapping
 * fake-capacity card, stale run / sequence, zeros / 0xff / garbage). The
 * CRC-32 of the header is lib/crc32's (tests/unit/test_crc32.c).
 */
#include "tests/unit/check.h"
#include "bench/engine/pattern.h"
#include "lib/crc32.h"

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

/* The format pinned byte for byte: the same vectors are in
 * tests/qemu/test_sd_stack.py, whose independent Python pattern_block()
 * checks what the self-test wrote into the image. The payload is pinned by
 * its CRC (a CRC over the whole block would not pin the header: a message
 * followed by its own CRC always leaves the same CRC state). */
TEST(known_blocks)
{
	static const struct {
		uint32_t lba, run, seq;
		uint8_t hdr[PATTERN_HDR_BYTES];
		uint32_t payload_crc;
	} v[] = {
		{ 100, RUN, 1, { 0x53, 0x44, 0x42, 0x31, 0x64, 0x00, 0x00, 0x00,
				 0xcd, 0xab, 0x34, 0x12, 0x01, 0x00, 0x00, 0x00,
				 0x12, 0x4a, 0xb9, 0x85 }, 0x44996ad5u },
		{ 0, 0, 0, { 0x53, 0x44, 0x42, 0x31, 0x00, 0x00, 0x00, 0x00,
			     0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
			     0x2b, 0x2e, 0x95, 0x37 }, 0xaa22095du },
		{ 0xffffffffu, 7, 0xffffffffu,
		  { 0x53, 0x44, 0x42, 0x31, 0xff, 0xff, 0xff, 0xff,
		    0x07, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
		    0x41, 0x3e, 0xc1, 0x67 }, 0x38e81fc1u },
	};
	uint8_t b[512];
	unsigned k, i;

	for (k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		pattern_fill(b, v[k].lba, v[k].run, v[k].seq);
		for (i = 0; i < PATTERN_HDR_BYTES; i++)
			CHECK_EQ_U(b[i], v[k].hdr[i]);
		CHECK_EQ_U(crc32_update(0, b + PATTERN_HDR_BYTES, 512 - PATTERN_HDR_BYTES),
			   v[k].payload_crc);
	}
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

/*
 * test_crc32.c - lib/crc32 against published check values (the CRC-32
 * catalogue's "123456789", zlib's results for a few fixed inputs), against
 * a bit-by-bit reference over many lengths and alignments, and zlib's
 * chaining rule.
 */
#include <stdint.h>
#include <string.h>

#include "tests/unit/check.h"
#include "lib/crc32.h"

/* The definition, one bit at a time (reflected, polynomial 0xEDB88320). */
static uint32_t crc_bitwise(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;
	unsigned k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1u));
	}
	return ~crc;
}

TEST(check_values)
{
	static const char fox[] = "The quick brown fox jumps over the lazy dog";
	uint8_t b[256];
	unsigned i;

	CHECK_EQ_U(crc32_update(0, "123456789", 9), 0xCBF43926u);
	CHECK_EQ_U(crc32_update(0, "", 0), 0);
	CHECK_EQ_U(crc32_update(0, "a", 1), 0xE8B7BE43u);
	CHECK_EQ_U(crc32_update(0, fox, sizeof(fox) - 1), 0x414FA339u);
	memset(b, 0, 32);
	CHECK_EQ_U(crc32_update(0, b, 32), 0x190A55ADu);
	memset(b, 0xff, 32);
	CHECK_EQ_U(crc32_update(0, b, 32), 0xFF6CAB0Bu);
	for (i = 0; i < 256; i++)
		b[i] = (uint8_t)i;
	CHECK_EQ_U(crc32_update(0, b, 256), 0x29058C73u);
}

TEST(chaining_like_zlib)
{
	CHECK_EQ_U(crc32_update(crc32_update(0, "1234", 4), "56789", 5), 0xCBF43926u);
	CHECK_EQ_U(crc32_update(crc32_update(0, "123456789", 9), "", 0), 0xCBF43926u);
}

TEST(matches_the_bitwise_definition)
{
	uint8_t buf[600];
	uint32_t x = 0x2545f491u;
	unsigned i, off, n;

	for (i = 0; i < sizeof(buf); i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (uint8_t)x;
	}
	for (off = 0; off < 4; off++)
		for (n = 0; n + off <= 520; n += n < 16 ? 1 : 37)
			CHECK_EQ_U(crc32_update(0, buf + off, n), crc_bitwise(buf + off, n));
}

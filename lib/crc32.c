/*
 * crc32.c - CRC-32 (see crc32.h), four bits per table step: the 16-entry
 * table (64 bytes) stays in one or two cache lines instead of the 1 KiB of
 * a byte-wise table, and needs no initialisation.
 */
#include "lib/crc32.h"

/* crc_nibble[n]: the CRC register after shifting n through four steps of
 * the reflected polynomial 0xEDB88320. */
static const uint32_t crc_nibble[16] = {
	0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu,
	0x76dc4190u, 0x6b6b51f4u, 0x4db26158u, 0x5005713cu,
	0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
	0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
};

uint32_t crc32_update(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc_nibble[crc & 0xfu];
		crc = (crc >> 4) ^ crc_nibble[crc & 0xfu];
	}
	return ~crc;
}

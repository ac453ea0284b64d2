/*
 * crc32.h - CRC-32 of IEEE 802.3 as zlib's crc32() computes it (reflected
 * polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF; check value
 * 0xCBF43926 for "123456789"). Used wherever sdbench checks data it
 * wrote or read (test-block headers, the self-test's per-mode checksums),
 * so the host tools and the tests can recompute it with zlib.
 */
#ifndef SDB_LIB_CRC32_H
#define SDB_LIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC of buf[0..len) continued from crc (0 to start), with zlib's
 * chaining: crc32_update(crc32_update(0, a), b) == crc32_update(0, a || b).
 * Any alignment of buf. */
uint32_t crc32_update(uint32_t crc, const void *buf, size_t len);

#endif

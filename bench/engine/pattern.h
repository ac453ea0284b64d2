/*
 * pattern.h - the one test-block format: every block sdbench writes to
 * check it (write/verify workloads, the self-test) is pattern_fill()'s.
 * Also the classification of what reads back (after f3's idea):
 *   every 512-byte block written carries a header with a magic, the LBA it
 *   was written to, the run id and a sequence number, then pseudo-random
 *   bytes seeded by (lba, run id, seq), so any block read back tells where
 *   it was meant to be.
 *
 * Block layout (little endian): 0 magic, 4 lba, 8 run id, 12 seq, 16 CRC-32
 * (lib/crc32) of bytes 0..15, 20..511 payload (xorshift32 stream).
 *
 * Classification order: a valid header (magic + header CRC) decides by its
 * fields; without one, a block within PATTERN_CHANGED_MAX_BYTES of what
 * was expected is CHANGED (bit flips that hit the header), else CORRUPTED.
 */
#ifndef SDB_BENCH_PATTERN_H
#define SDB_BENCH_PATTERN_H

#include <stdint.h>

#define PATTERN_MAGIC 0x31424453u /* bytes 53 44 42 31: "SDB1" in a dump */
#define PATTERN_BLOCK 512u
#define PATTERN_HDR_BYTES 20u
/* A block without a valid header but at most this many bytes off the
 * expected one counts as CHANGED rather than CORRUPTED. */
#define PATTERN_CHANGED_MAX_BYTES 32u

/* Fill one 512-byte block for lba. */
void pattern_fill(void *block, uint32_t lba, uint32_t run_id, uint32_t seq);

enum pattern_class {
	PAT_OK = 0,          /* exactly what was written at this LBA */
	PAT_CHANGED,         /* header intact for this LBA, payload bits differ */
	PAT_OVERWRITTEN,     /* a valid block of this run that belongs to another LBA
			        (address wrap / fake capacity) */
	PAT_STALE,           /* a valid block for this LBA from another run / seq,
				or from another run for any LBA (this run's
				write never landed; found_lba says which) */
	PAT_CORRUPTED,       /* no valid header at all (garbage, zeros, 0xff) */
};

struct pattern_result {
	enum pattern_class cls;
	uint32_t found_lba;  /* for PAT_OVERWRITTEN / PAT_STALE: which LBA the data
				was for (= lba for OK/CHANGED/CORRUPTED) */
	uint32_t found_run;  /* run id / seq in a valid header, else 0 */
	uint32_t found_seq;
	uint32_t bad_bytes;  /* bytes that differ from the expected block */
};

/* Classify a block read from lba against what (run_id, seq) wrote there. */
void pattern_check(const void *block, uint32_t lba, uint32_t run_id, uint32_t seq,
		   struct pattern_result *out);
const char *pattern_class_name(enum pattern_class c);

#endif

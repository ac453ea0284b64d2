/*
 * pattern.c - self-identifying test blocks and the classification of what
 * reads back (see pattern.h for the layout and the classes).
 *
 * Blocks are always 512 bytes and accessed byte-wise, so any buffer
 * alignment works.
 */
#include "bench/engine/pattern.h"
#include "lib/crc32.h"

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* A 32-bit mixer (avalanche) so that neighbouring LBAs give unrelated
 * streams. */
static uint32_t mix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	h ^= h >> 16;
	return h;
}

static uint32_t seed_of(uint32_t lba, uint32_t run_id, uint32_t seq)
{
	uint32_t s = mix32(lba ^ mix32(run_id ^ mix32(seq + 0x9e3779b9u)));

	return s ? s : 0x6d2b79f5u; /* xorshift must not start at 0 */
}

void pattern_fill(void *block, uint32_t lba, uint32_t run_id, uint32_t seq)
{
	uint8_t *b = block;
	uint32_t x = seed_of(lba, run_id, seq);
	uint32_t i;

	put32(b + 0, PATTERN_MAGIC);
	put32(b + 4, lba);
	put32(b + 8, run_id);
	put32(b + 12, seq);
	put32(b + 16, crc32_update(0, b, 16));
	for (i = PATTERN_HDR_BYTES; i < PATTERN_BLOCK; i += 4) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		put32(b + i, x);
	}
}

static uint32_t count_diff(const uint8_t *a, const uint8_t *b)
{
	uint32_t i, n = 0;

	for (i = 0; i < PATTERN_BLOCK; i++)
		n += a[i] != b[i];
	return n;
}

void pattern_check(const void *block, uint32_t lba, uint32_t run_id, uint32_t seq,
		   struct pattern_result *out)
{
	const uint8_t *b = block;
	uint8_t expect[PATTERN_BLOCK];
	uint32_t h_lba, h_run, h_seq;
	int hdr_ok;

	pattern_fill(expect, lba, run_id, seq);
	out->bad_bytes = count_diff(b, expect);
	out->found_lba = lba;
	out->found_run = 0;
	out->found_seq = 0;
	if (out->bad_bytes == 0) {
		out->cls = PAT_OK;
		out->found_run = run_id;
		out->found_seq = seq;
		return;
	}
	hdr_ok = get32(b) == PATTERN_MAGIC &&
		 get32(b + 16) == crc32_update(0, b, 16);
	if (!hdr_ok) {
		out->cls = out->bad_bytes <= PATTERN_CHANGED_MAX_BYTES ?
			   PAT_CHANGED : PAT_CORRUPTED;
		return;
	}
	h_lba = get32(b + 4);
	h_run = get32(b + 8);
	h_seq = get32(b + 12);
	out->found_lba = h_lba;
	out->found_run = h_run;
	out->found_seq = h_seq;
	if (h_run != run_id)
		out->cls = PAT_STALE;
	else if (h_lba != lba)
		out->cls = PAT_OVERWRITTEN;
	else if (h_seq != seq)
		out->cls = PAT_STALE;
	else
		out->cls = PAT_CHANGED; /* our header, payload differs */
}

const char *pattern_class_name(enum pattern_class c)
{
	switch (c) {
	case PAT_OK: return "ok";
	case PAT_CHANGED: return "changed";
	case PAT_OVERWRITTEN: return "overwritten";
	case PAT_STALE: return "stale";
	case PAT_CORRUPTED: return "corrupted";
	}
	return "unknown";
}

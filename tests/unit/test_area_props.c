/*
 * test_area_props.c - property test of the test-area decision
 * (bench/storage/mbr.c + test_area.c): for many random partition tables -
 * overlapping entries, extended chains that loop or link with the wrong
 * base, partitions past the card's end, zero-length entries with a type,
 * GPT protective MBRs with and without a GPT behind them, hybrid MBRs,
 * FAT boot sectors at LBA 0 that also carry entries, invalid status bytes,
 * configured ranges anywhere - the chosen area never overlaps a block that
 * any reading of the table could call used (the independent oracle in
 * tests/fuzz/fuzz_image.h), never includes LBA 0, never passes the card's
 * end, and on a card where the oracle sees no safe free space there is no
 * area at all.
 *
 * Deterministic (fixed seeds); SDB_PROP_SEED=N and SDB_PROP_CASES=N in the
 * environment run other seeds / more cases. A failing case prints its seed
 * and the table.
 */
#include <stdlib.h>

#include "lib/err.h"

#include "bench/storage/mbr.h"
#include "bench/storage/test_area.h"
#include "tests/fuzz/fuzz_image.h"
#include "tests/unit/check.h"

#define MAXB 80

struct gen {
	uint64_t s;
	uint32_t lba[MAXB];
	uint8_t data[MAXB][BLKDEV_BLOCK_SIZE];
	unsigned n;
	uint32_t total;
};

static uint64_t rnd(struct gen *g)
{
	/* splitmix64 */
	uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t below(struct gen *g, uint64_t n)
{
	return n ? (uint32_t)(rnd(g) % n) : 0;
}

static uint8_t *blk(struct gen *g, uint32_t lba)
{
	for (unsigned i = 0; i < g->n; i++)
		if (g->lba[i] == lba)
			return g->data[i];
	if (g->n == MAXB)
		return NULL;
	g->lba[g->n] = lba;
	memset(g->data[g->n], 0, BLKDEV_BLOCK_SIZE);
	return g->data[g->n++];
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void entry(uint8_t *sec, int i, uint8_t status, uint8_t type, uint32_t lba, uint32_t cnt)
{
	uint8_t *p = sec + 446 + 16 * i;

	p[0] = status;
	p[4] = type;
	put32(p + 8, lba);
	put32(p + 12, cnt);
}

static void sig(uint8_t *sec)
{
	sec[510] = 0x55;
	sec[511] = 0xAA;
}

/* A plausible or hostile start/size inside (mostly) a card of g->total. */
static void pick_range(struct gen *g, uint32_t *lba, uint32_t *cnt)
{
	switch (below(g, 8)) {
	case 0: /* past the end */
		*lba = below(g, g->total);
		*cnt = g->total - *lba + 1 + below(g, 100000);
		break;
	case 1: /* zero length */
		*lba = below(g, g->total);
		*cnt = 0;
		break;
	case 2: /* wraps 2^32 */
		*lba = 0xFFFFFFFFu - below(g, 1000);
		*cnt = 1 + below(g, 100000);
		break;
	case 3: /* starts at 0 or 1 */
		*lba = below(g, 2);
		*cnt = 1 + below(g, g->total / 4 + 1);
		break;
	default: /* inside the first half: room for an area behind */
		*lba = 1 + below(g, g->total / 2);
		*cnt = 1 + below(g, g->total / 4);
		break;
	}
}

static uint8_t pick_type(struct gen *g)
{
	static const uint8_t types[] = { 0x00, 0x0C, 0x0B, 0x06, 0x83, 0x82, 0x05, 0x0F,
					 0x85, 0xEE, 0xEF, 0x07, 0x01 };

	return types[below(g, sizeof(types))];
}

static uint8_t pick_status(struct gen *g)
{
	uint32_t r = below(g, 20);

	return r == 0 ? (uint8_t)below(g, 256) : r < 4 ? 0x80 : 0x00;
}

/* An EBR chain for an extended partition at base of cnt blocks. */
static void gen_chain(struct gen *g, uint32_t base, uint32_t cnt)
{
	uint32_t ebr = base, links = 1 + below(g, 6);

	for (uint32_t k = 0; k < links; k++) {
		uint8_t *sec = blk(g, ebr);
		uint32_t l_lba, l_cnt, next;

		if (!sec)
			return;
		if (below(g, 12))
			sig(sec);
		/* the logical partition, relative to its EBR (or hostile) */
		l_lba = below(g, 4) ? 1 + below(g, 64) : below(g, cnt + 100);
		l_cnt = below(g, 4) ? 1 + below(g, cnt / 8 + 1) : below(g, cnt * 2 + 1);
		entry(sec, 0, pick_status(g), below(g, 8) ? 0x83 : pick_type(g), l_lba, l_cnt);
		if (k + 1 == links)
			break;
		/* the link, relative to the extended partition; sometimes
		 * relative to this EBR (the wrong base), a loop, out of range */
		switch (below(g, 6)) {
		case 0: next = ebr - base; break;			/* loop to itself */
		case 1: next = below(g, 2) ? 0 : cnt + below(g, 1000); break;
		case 2: next = (ebr - base) + below(g, cnt / 4 + 1); break;
		default: next = (ebr - base) + l_lba + l_cnt + below(g, 16); break;
		}
		entry(sec, 1, 0, below(g, 10) ? 0x05 : pick_type(g), next,
		      1 + below(g, cnt / 4 + 1));
		if (below(g, 10) == 0)	/* an extra entry Linux ignores */
			entry(sec, 2, 0, pick_type(g), below(g, cnt), below(g, cnt));
		ebr = base + next;
	}
}

/* A FAT12 boot sector (valid BPB) at LBA 0 of sec. */
static void fat_bpb(uint8_t *sec, uint32_t total)
{
	static const uint8_t bpb[] = { 0xEB, 0x3C, 0x90, 'm', 'k', 'f', 's', '.', 'f', 'a',
				       't', 0x00, 0x02, 0x04, 0x01, 0x00, 0x02, 0x00, 0x02,
				       0x00, 0x00, 0xF8, 0x08, 0x00 };

	memcpy(sec, bpb, sizeof(bpb));
	put32(sec + 32, total > 0xFFFF0 ? 0xFFFF0 : total);	/* TotSec32 */
	sig(sec);
}

static void gen_card(struct gen *g)
{
	static const uint32_t sizes[] = { 65536, 131072, 1u << 21, 1u << 24, 62333952,
					  0xFFFFFFFFu };
	uint8_t *mbr;
	int n_ee = 0;

	g->n = 0;
	g->total = below(g, 4) ? sizes[below(g, 6)] : 1 + below(g, 1u << 26);
	mbr = blk(g, 0);
	if (below(g, 30))
		sig(mbr);
	if (below(g, 15) == 0)
		fat_bpb(mbr, g->total);
	for (int i = 0; i < 4; i++) {
		uint32_t lba, cnt;
		uint8_t type;

		if (below(g, 3) == 0)
			continue;
		pick_range(g, &lba, &cnt);
		type = pick_type(g);
		if (type == 0xEE && below(g, 2)) {	/* protective: the whole card */
			lba = 1;
			cnt = g->total - 1;
		}
		if (type == 0xEE)
			n_ee++;
		entry(mbr, i, pick_status(g), type, lba, cnt);
		if ((type == 0x05 || type == 0x0F || type == 0x85) && cnt)
			gen_chain(g, lba, cnt);
	}
	/* a GPT behind a protective MBR - or a leftover one without it */
	if (n_ee || below(g, 10) == 0) {
		uint8_t *h = blk(g, 1);

		if (h) {
			memcpy(h, "EFI PART", 8);
			put32(h + 72, 2);	/* partition entries at LBA 2 */
		}
	}
}

static void describe(const struct gen *g, const struct test_area *ta, const struct mbr_info *mi)
{
	const uint8_t *m = NULL;

	for (unsigned i = 0; i < g->n; i++)
		if (g->lba[i] == 0)
			m = g->data[i];
	printf("    card %lu blocks; mbr %s: %s\n", (unsigned long)g->total,
	       mbr_kind_name(mi->kind), mi->reason);
	for (int i = 0; m && i < 4; i++) {
		const uint8_t *p = m + 446 + 16 * i;

		printf("    entry %d: status %02x type %02x lba %lu count %lu\n", i + 1, p[0], p[4],
		       (unsigned long)blkdev_le32(p + 8), (unsigned long)blkdev_le32(p + 12));
	}
	for (unsigned i = 0; i < g->n; i++) {
		const uint8_t *p = g->data[i] + 446;

		if (g->lba[i] > 1)
			printf("    EBR at %lu: [%02x %lu+%lu] [%02x %lu+%lu]\n",
			       (unsigned long)g->lba[i], p[4], (unsigned long)blkdev_le32(p + 8),
			       (unsigned long)blkdev_le32(p + 12), p[20],
			       (unsigned long)blkdev_le32(p + 24),
			       (unsigned long)blkdev_le32(p + 28));
	}
	printf("    area: %s %lu+%lu (%s)\n", test_area_source_name(ta->source),
	       (unsigned long)ta->first_lba, (unsigned long)ta->count, ta->reason);
}

static unsigned env_u(const char *name, unsigned def)
{
	const char *v = getenv(name);

	return v && *v ? (unsigned)strtoul(v, NULL, 0) : def;
}

TEST(random_tables_never_give_an_unsafe_area)
{
	static struct gen g;
	static struct mbr_info mi;
	static struct test_area ta;
	unsigned cases = env_u("SDB_PROP_CASES", 100000), failures = 0;
	unsigned usable = 0, refused = 0, with_config = 0, ok_tables = 0, sources[4] = { 0 };
	uint64_t seed0 = env_u("SDB_PROP_SEED", 1);

	for (unsigned c = 0; c < cases; c++) {
		struct fz_image im;
		struct blkdev dev;
		struct lba_range cfg;
		const char *bad;

		memset(&im, 0, sizeof(im));
		g.s = seed0 * 1000003u + c;
		gen_card(&g);
		im.total_blocks = g.total;
		im.nsparse = g.n;
		im.sparse_lba = g.lba;
		im.sparse_data = (const uint8_t (*)[BLKDEV_BLOCK_SIZE])g.data;
		dev.read = fz_image_read;
		dev.ctx = &im;
		dev.total_blocks = g.total;
		mbr_parse(&mi, &dev);
		ok_tables += mi.kind == MBR_OK;
		/* a configured range half of the time: anywhere */
		cfg.first = below(&g, 3) ? below(&g, g.total) : below(&g, 4096);
		cfg.count = below(&g, 2) ? below(&g, g.total) : 1 + below(&g, 1u << 16);
		with_config += c & 1;
		test_area_choose(&ta, &dev, &mi, (c & 1) ? &cfg : NULL);
		bad = fz_check_area(&im, &ta);
		if (ta.usable) {
			usable++;
			sources[ta.source]++;
		} else {
			refused++;
		}
		if (bad) {
			if (failures++ < 5) {
				CHECK_FAIL_("case %u (SDB_PROP_SEED=%lu): %s", c,
					    (unsigned long)seed0, bad);
				describe(&g, &ta, &mi);
			}
		}
	}
	printf("  %u random tables (%u consistent MBRs, %u with a configured range): "
	       "%u areas chosen (config %u, unpartitioned %u, file %u), %u refused, "
	       "%u unsafe\n", cases, ok_tables, with_config, usable, sources[TEST_AREA_CONFIG],
	       sources[TEST_AREA_UNPARTITIONED], sources[TEST_AREA_FILE], refused, failures);
	CHECK_EQ_U(failures, 0);
	/* The generator must reach both outcomes, or the property says
	 * nothing. */
	if (cases >= 1000) {
		CHECK(sources[TEST_AREA_CONFIG] > cases / 100);
		CHECK(sources[TEST_AREA_UNPARTITIONED] > cases / 100);
		CHECK(refused > cases / 10);
	}
}

/* Cases the property found (fixed in mbr.c), kept as plain regressions. */
static struct mbr_info reg_mi;

static int reg_parse(struct gen *g)
{
	static struct fz_image im;
	struct blkdev dev;

	memset(&im, 0, sizeof(im));
	im.total_blocks = g->total;
	im.nsparse = g->n;
	im.sparse_lba = g->lba;
	im.sparse_data = (const uint8_t (*)[BLKDEV_BLOCK_SIZE])g->data;
	dev.read = fz_image_read;
	dev.ctx = &im;
	dev.total_blocks = g->total;
	return mbr_parse(&reg_mi, &dev);
}

/* Extended 7529249+3818586; its second EBR's link (offset 3687380, size
 * 569474) reaches past the container, where the area after the last
 * partition would start. */
TEST(ebr_link_past_the_extended_partition_is_inconsistent)
{
	static struct gen g;
	uint8_t *m, *e;

	memset(&g, 0, sizeof(g));
	g.total = 16777216;
	m = blk(&g, 0);
	sig(m);
	entry(m, 0, 0x80, 0x0C, 2849292, 662858);
	entry(m, 1, 0x00, 0x0F, 7529249, 3818586);
	e = blk(&g, 7529249);
	sig(e);
	entry(e, 0, 0, 0x83, 3454300, 233080);
	entry(e, 1, 0, 0x05, 3687380, 569474);
	e = blk(&g, 7529249 + 3687380);
	sig(e);
	entry(e, 0, 0, 0x83, 36, 39053);
	CHECK_EQ_I(reg_parse(&g), -EINVAL);
	CHECK_EQ_U(reg_mi.kind, MBR_INCONSISTENT);
	CHECK(strstr(reg_mi.reason, "invalid next EBR") != NULL);
	/* the same link, sized to end at the container's end, is fine */
	entry(blk(&g, 7529249), 1, 0, 0x05, 3687380, 3818586 - 3687380);
	CHECK_EQ_I(reg_parse(&g), 0);
	CHECK_EQ_U(reg_mi.kind, MBR_OK);
}

/* Linux reads entries 3 and 4 of an EBR as further logical partitions;
 * mbr.c does not track them, so it does not trust such a table. */
TEST(ebr_with_a_third_entry_is_inconsistent)
{
	static struct gen g;
	uint8_t *m, *e;

	memset(&g, 0, sizeof(g));
	g.total = 2097152;
	m = blk(&g, 0);
	sig(m);
	entry(m, 0, 0x00, 0x05, 8192, 100000);
	e = blk(&g, 8192);
	sig(e);
	entry(e, 0, 0, 0x83, 2048, 10000);
	CHECK_EQ_I(reg_parse(&g), 0);
	entry(e, 2, 0, 0x83, 20000, 500000);
	CHECK_EQ_I(reg_parse(&g), -EINVAL);
	CHECK(strstr(reg_mi.reason, "entry 3") != NULL);
}

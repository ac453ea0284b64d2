/*
 * test_bench_au.c - the erase-block detector and the open-AU step against
 * generated cards (sim/sim_gen.c) whose flash geometry is known.
 *
 * For each card seed: the alignment test as the full suite runs it
 * (wl_au_detect, reads only) and the open-AU step as the quick suite runs
 * it (wl_open_au, on the AU the card declares), on the "sim" host. The
 * card's boundary step is the median of the extra time its read pays after
 * an erase-block boundary (read_cross_eb: min + ln 2 x the exponential's
 * mean); the detector states its own threshold (the au record's
 * threshold_ns). Printed, as the result: the cards whose step is above
 * that threshold and how many of those had their erase block found,
 * called inconclusive, or given a wrong size (a false boundary); the same
 * for the cards under the threshold (there "no step" and "inconclusive"
 * are honest answers, a size other than the card's is not); the cards
 * whose erase block is not a power of two (12 MiB AUs: 12 or 3 MiB), which
 * a doubling alignment test cannot name; and the open AUs found (the
 * collapse right after the card's number), apart for the cards whose
 * AU-close busy (au_switch's median) is above the rise the open_au record
 * states of the median write it measured, and per number drawn.
 *
 * SIM_AU_GEN=N cards (default GEN_CARDS_TEST), SIM_AU_GEN_FIRST=K from
 * seed K (default 1); `make bench-au` runs 200. The floors (FLOOR_*) hold
 * for make test's seeds; no list excuses a card.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/workload.h"
#include "bench/workloads/au.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "sim/sim_gen.h"
#include "harness/sim_harness.h"
#include "sim/sim_records.h"
#include "tests/unit/check.h"

#define GEN_CARDS_TEST 30
/* What the code met when they were set, rounded down (% of cards). */
#define FLOOR_FOUND_PCT   100.0  /* step above the threshold: erase block found */
#define FLOOR_OPEN_AU_PCT 100.0  /* AU-close cost above the rise: open AUs found */
#define MAX_FALSE          0     /* a size other than the card's, any card */

#define MEM_BYTES (24u << 20)
#define TA_FIRST  (1u << 18)   /* 128 MiB: every generated card holds 1 GiB */
#define TA_MAX    (1u << 20)   /* 512 MiB: nine 16 MiB AUs and more */

static char out[1 << 20];
static uint8_t *mem;
static struct simh sh;
static struct test_area ta;
static struct write_guard guard;
static struct wl_ctx ctx;

/* The card on the default simulated host, a test area of up to 512 MiB
 * from 128 MiB, a fresh console capture. */
static int setup(const struct sim_profile *p, bool quick)
{
	uint32_t blocks;
	int r = simh_start_p(&sh, p, NULL);

	if (r)
		return r;
	blocks = sh.card.blocks;
	memset(&ta, 0, sizeof(ta));
	ta.usable = blocks > 2 * TA_FIRST;
	ta.source = TEST_AREA_CONFIG;
	ta.first_lba = TA_FIRST;
	ta.count = blocks - TA_FIRST < TA_MAX ? blocks - TA_FIRST : TA_MAX;
	simh_wl_ctx(&sh, &ta, true, quick, mem, MEM_BYTES, &guard, &ctx);
	simh_capture_start(out, sizeof(out));
	return ta.usable ? 0 : -1;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* How one set of cards went: found, inconclusive, no step, wrong size. */
struct tally {
	unsigned cards, found, inconclusive, none, wrong;
};

static void count(struct tally *t, double measured, bool inconclusive, uint64_t eb)
{
	t->cards++;
	if (!isnan(measured) && (uint64_t)measured == eb)
		t->found++;
	else if (!isnan(measured))
		t->wrong++;
	else if (inconclusive)
		t->inconclusive++;
	else
		t->none++;
}

static void print_tally(const char *what, const struct tally *t)
{
	printf("  %-44s %4u cards: found %u (%.1f%%), inconclusive %u, no step %u, "
	       "wrong size %u\n", what, t->cards, t->found,
	       t->cards ? 100.0 * t->found / t->cards : 0.0, t->inconclusive, t->none, t->wrong);
}

static struct tally above, below, odd;
static unsigned oa_drawn[9], oa_hit[9], negative_steps, not_run;

/* Open AUs: [1] the card's AU-close cost above the rise the step states
 * (of its measured median write), [0] at or below it. */
struct oa_tally {
	unsigned cards, found, early;
};
static struct oa_tally oa[2];

/* The alignment test on card p: which tally it falls in and how. */
static void align_case(uint64_t seed, const struct sim_profile *p)
{
	double step_ns = (double)p->read_cross_eb.min_ns + 0.693 * (double)p->read_cross_eb.mean_extra_ns;
	const char *r;
	double thr, measured, st;
	bool inc;

	if (setup(p, false)) {
		not_run++;
		return;
	}
	wl_au_detect(&ctx);
	simh_capture_stop();
	r = simrec_last(out, "au", NULL, NULL);
	if (!r) {
		not_run++;
		return;
	}
	thr = simrec_num(r, "threshold_ns");
	measured = simrec_num(r, "measured_bytes");
	inc = simrec_num(r, "inconclusive") == 1;
	st = simrec_num(r, "step_ns");
	if (!isnan(measured) && !(st > 0))
		negative_steps++;
	if (!is_pow2(p->erase_block_bytes))
		count(&odd, measured, inc, p->erase_block_bytes);
	else
		count(step_ns > thr ? &above : &below, measured, inc, p->erase_block_bytes);
	if (getenv("SIM_AU_SHOW") || (!isnan(measured) && (uint64_t)measured != p->erase_block_bytes))
		printf("  card %llu: erase block %llu KiB, step %.0f us, threshold %.0f us: %.*s\n",
		       (unsigned long long)seed, (unsigned long long)(p->erase_block_bytes >> 10),
		       step_ns / 1e3, thr / 1e3, (int)(strchr(r, '\n') - r), r);
}

/* The quick suite's open-AU step on card p. The card's step: the median
 * of its AU-close busy (au_switch) against the median write the step
 * measured with few AUs (base_p50_us) and the rise the record states. */
static void open_au_case(uint64_t seed, const struct sim_profile *p)
{
	double close_us = ((double)p->au_switch.min_ns + 0.693 * (double)p->au_switch.mean_extra_ns) /
			  1e3;
	const char *r;
	double handled, base, rise;
	bool found, big;

	if (setup(p, true)) {
		not_run++;
		return;
	}
	wl_open_au(&ctx);
	simh_capture_stop();
	r = simrec_last(out, "open_au", NULL, NULL);
	if (!r) {
		not_run++;
		return;
	}
	handled = simrec_num(r, "handled");
	base = simrec_num(r, "base_p50_us");
	rise = simrec_num(r, "rise_pct");
	big = close_us > base * rise / 100.0;
	found = handled == p->open_aus && simrec_num(r, "collapsed") == 1;
	oa[big].cards++;
	oa[big].found += found;
	oa[big].early += simrec_num(r, "collapsed") == 1 && handled < p->open_aus;
	oa_drawn[p->open_aus]++;
	oa_hit[p->open_aus] += found;
	if (!found && (big || getenv("SIM_AU_SHOW")))
		printf("  card %llu: %u open AUs of %llu KiB, AU close %.0f us: %.*s\n",
		       (unsigned long long)seed, (unsigned)p->open_aus,
		       (unsigned long long)(p->open_au_bytes >> 10), close_us,
		       (int)(strchr(r, '\n') - r), r);
}

static void print_oa(const char *what, const struct oa_tally *t)
{
	printf("  %-44s %4u cards: found %u (%.1f%%), a collapse before the card's %u\n", what,
	       t->cards, t->found, t->cards ? 100.0 * t->found / t->cards : 0.0, t->early);
}

TEST(erase_block_and_open_aus_on_generated_cards)
{
	const char *gn = getenv("SIM_AU_GEN"), *gf = getenv("SIM_AU_GEN_FIRST");
	uint64_t n = gn ? strtoull(gn, NULL, 0) : GEN_CARDS_TEST;
	uint64_t first = gf ? strtoull(gf, NULL, 0) : 1, s;
	static struct sim_profile p;
	unsigned k;

	mem = malloc(MEM_BYTES);
	CHECK(mem != NULL);
	if (!mem)
		return;
	for (s = first; s < first + n; s++) {
		sim_gen_card(s, &p);
		align_case(s, &p);
		open_au_case(s, &p);
	}
	free(mem);
	printf("  alignment test (full suite) on %llu generated cards from seed %llu, "
	       "\"sim\" host:\n", (unsigned long long)n, (unsigned long long)first);
	print_tally("step above the detector's threshold:", &above);
	print_tally("step at or below the threshold:", &below);
	print_tally("erase block not a power of two:", &odd);
	printf("  boundaries reported with a step of 0 or less: %u; cards not run: %u\n",
	       negative_steps, not_run);
	printf("  open AUs (quick suite, declared AU), found = collapse right after the card's "
	       "number:\n");
	print_oa("AU-close cost above the stated rise:", &oa[1]);
	print_oa("AU-close cost at or below it:", &oa[0]);
	printf("  per number of open AUs drawn (found/cards):");
	for (k = 1; k <= 8; k++)
		printf(" %u: %u/%u", k, oa_hit[k], oa_drawn[k]);
	printf("\n");
	CHECK_EQ_U(negative_steps, 0);
	CHECK(above.wrong + below.wrong + odd.wrong <= MAX_FALSE);
	if (n == GEN_CARDS_TEST && first == 1) {
		CHECK(above.cards >= 5);
		CHECK(100.0 * above.found >= FLOOR_FOUND_PCT * above.cards);
		CHECK(oa[1].cards >= 10);
		CHECK(100.0 * oa[1].found >= FLOOR_OPEN_AU_PCT * oa[1].cards);
		CHECK_EQ_U(not_run, 0);
	}
}

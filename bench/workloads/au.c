/*
 * au.c - what the card's flash management looks like from outside:
 * wl_au_detect() (erase-block size by alignment read timing, after
 * flashbench -a; read-only), wl_open_au() (open AUs, after flashbench -O)
 * and wl_erase_per_au() (CMD38 time per AU against the SD Status erase
 * timeout, §4.14). The method and what is not covered: docs/workloads.md,
 * "bench/workloads/au.c". Measures into its result structs (au_report.h);
 * analysis.c decides, au_report.c prints (workload.h).
 */
#include "bench/engine/workload_report.h"
#include "bench/workloads/analysis.h"
#include "bench/workloads/au.h"
#include "bench/workloads/au_report.h"
#include "bench/workloads/common.h"
#include "drivers/sd/sd_regs.h"
#include "lib/fmt.h"

/* ---- alignment test ------------------------------------------------------ */

#define AL_READ_BLOCKS   8u             /* 4 KiB reads */
#define AL_MIN_BYTES     (16u << 10)
#define AL_MAX_BYTES     (64u << 20)
#define AL_MAX_SIZES     AU_ALIGN_MAX_SIZES
#define AL_POSITIONS     16u
#define AL_QUICK_POS     4u
#define AL_MAX_POS       64u            /* when undecided: 4x the samples, twice */
#define AL_QUICK_MAX     (2u << 20)

/* One timed 4 KiB read from lba, after an untimed read of its first block:
 * a card that keeps the page it read last in a buffer then starts every
 * timed read from that same state, whichever of the three reads of a
 * position comes first (without it the first, the read ending at the
 * boundary, alone missed the buffer and outweighed the step it measures). */
static uint32_t time_read(struct wl_ctx *c, struct wl_meas *m, uint32_t lba)
{
	struct wl_op op = { false, lba, AL_READ_BLOCKS, WL_MULTI_AUTO12 };
	uint32_t before;
	int r;

	wl_untimed_begin(c, m);
	r = sd_read_blocks(c->card, lba, 1, c->buf, SD_STOP_AUTO12, NULL);
	wl_untimed_end(c, m);
	if (r)
		return 0;
	before = m->nlat;
	if (wl_do(c, m, &op))
		return 0;
	return wlx_last_lat(c, m, before);
}

/* Alignments up to *max_bytes at r->positions boundaries each, from
 * r->base_lba. Returns false when the card is too small. */
static bool align_plan(const struct wl_ctx *c, struct au_align_result *r, uint32_t *max_bytes)
{
	uint32_t npos, base, card_end = c->card->blocks, maxb;

	r->au_bytes = wlx_au_bytes(c, &r->au_declared);
	r->read_bytes = AL_READ_BLOCKS * SD_BLOCK_SIZE;
	r->emulated = c->emulated;
	npos = r->positions ? r->positions : c->quick ? AL_QUICK_POS : AL_POSITIONS;
	if (c->quick)
		maxb = AL_QUICK_MAX;
	else {
		maxb = r->au_declared ? 2 * r->au_bytes : 2 * WLX_DEFAULT_AU_BYTES;
		if (maxb < (8u << 20))
			maxb = 8u << 20;
		if (maxb > AL_MAX_BYTES)
			maxb = AL_MAX_BYTES;
	}
	/* Positions (2j+1)*A from a base aligned to 2*max: the region needs
	 * 2*npos*max bytes. Shrink to what the card holds. */
	for (;;) {
		uint32_t align = 2 * (maxb / SD_BLOCK_SIZE);

		base = wlx_align_up(c->read_base, align);
		if ((uint64_t)base + (uint64_t)2 * npos * (maxb / SD_BLOCK_SIZE) <= card_end)
			break;
		if (npos > 4)
			npos /= 2;
		else if (maxb > 4 * AL_MIN_BYTES)
			maxb /= 2;
		else
			break;
	}
	r->base_lba = base;
	r->positions = npos;
	*max_bytes = maxb;
	return (uint64_t)base + (uint64_t)2 * npos * (maxb / SD_BLOCK_SIZE) <= card_end;
}

/* For A = AL_MIN_BYTES .. max_bytes: reads ending at, straddling and
 * starting at odd multiples of A; one point per A (wla_align_point_of). */
static void align_measure(struct wl_ctx *c, struct wl_meas *m, uint32_t max_bytes,
			  struct au_align_result *r)
{
	uint32_t size;

	r->npoints = 0;
	for (size = AL_MIN_BYTES; size <= max_bytes && r->npoints < AL_MAX_SIZES && !c->abort_all;
	     size <<= 1) {
		uint32_t pre[AL_MAX_POS], on[AL_MAX_POS], post[AL_MAX_POS], dev[AL_MAX_POS];
		uint32_t sb = size / SD_BLOCK_SIZE, jpos, got = 0;

		for (jpos = 0; jpos < r->positions && !wl_should_stop(c, m); jpos++) {
			uint32_t x = r->base_lba + (2 * jpos + 1) * sb; /* a boundary of A, not of 2A */
			uint32_t a, o, p;

			a = time_read(c, m, x - AL_READ_BLOCKS);
			o = time_read(c, m, x - AL_READ_BLOCKS / 2);
			p = time_read(c, m, x);
			if (!a || !o || !p)
				continue;
			pre[got] = a;
			on[got] = o;
			post[got] = p;
			got++;
		}
		if (!got)
			break;
		wla_align_point_of(size, pre, on, post, got, dev, &r->pt[r->npoints++]);
	}
}

/* One pass over every alignment at r->positions boundaries each. Returns
 * false when too few points could be measured (already said). */
static bool align_pass(struct wl_ctx *c, struct au_align_result *r, uint32_t max_bytes,
		       bool again)
{
	struct wl_meas m;
	char name[40];

	/* a second pass has its own workload name: au-align-64pos */
	fmt_snprintf(name, sizeof(name), again ? "au-align-%upos" : "au-align",
		     (unsigned)r->positions);
	au_report_align_heading(r);
	wl_begin(c, &m, "au", name, "alignment reads 4 KiB", false, WL_MULTI_AUTO12,
		 AL_READ_BLOCKS, 0);
	align_measure(c, &m, max_bytes, r);
	wl_end(c, &m);
	wl_report(c, &m);
	if (r->npoints < 2) {
		wl_skip("au-align", "too few alignment points could be measured");
		return false;
	}
	wla_find_boundary(r->pt, r->npoints, &r->boundary);
	return true;
}

/* Undecided (a lasting rise under the noise threshold): 4x the boundaries
 * per size halve the threshold's noise term (analysis.h); again, up to
 * AL_MAX_POS and what the card holds, the same largest alignment. */
static bool align_more(struct wl_ctx *c, struct au_align_result *r, uint32_t max_bytes)
{
	uint32_t want = r->positions * 4, maxb;

	if (!r->boundary.inconclusive || want > AL_MAX_POS || c->abort_all)
		return false;
	r->positions = want;
	if (!align_plan(c, r, &maxb) || r->positions != want || maxb != max_bytes) {
		r->positions = want / 4;
		return false;
	}
	return true;
}

void wl_au_detect(struct wl_ctx *c)
{
	struct au_align_result r;
	uint32_t max_bytes;

	r.positions = 0;
	if (!align_plan(c, &r, &max_bytes)) {
		wl_skip("au-align", "the card is too small for the alignment test");
		return;
	}
	if (!align_pass(c, &r, max_bytes, false))
		return;
	while (align_more(c, &r, max_bytes))
		if (!align_pass(c, &r, max_bytes, true))
			return;
	r.match = wla_au_match(r.boundary.size_bytes, r.au_declared ? r.au_bytes : 0);
	au_report_align(&r);
}

/* ---- open AUs --------------------------------------------------------------- */

#define OA_CHUNK_BLOCKS        64u          /* 32 KiB writes */
#define OA_QUICK_CHUNK_BLOCKS  32u          /* 16 KiB */
#define OA_QUICK_AU_BYTES      (256u << 10)
#define OA_BYTES_PER_N         (4u << 20)
#define OA_QUICK_BYTES_PER_N   (256u << 10)
#define OA_MIN_CHUNKS_PER_AU   4u
#define OA_MAX_POINTS          AU_OPEN_MAX_POINTS
#define OA_TIME_NS             (60ull * 1000000000ull)
#define OA_QUICK_TIME_NS       (5ull * 1000000000ull)
#define OA_N_TIME_NS           (10ull * 1000000000ull) /* per N: a collapsed card */
#define OA_QUICK_N_TIME_NS     (1ull * 1000000000ull)  /* copies an AU per write */
#define OA_RISE                0.2   /* the median write 20% longer: wla_open_au */

static const unsigned oa_n_full[OA_MAX_POINTS] = { 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16,
						   20, 24, 28, 32 };
/* quick: up to 9, so a card keeping 8 AUs open still collapses */
static const unsigned oa_n_quick[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

/* The AU both AU tests use: the one the card declares in its SD Status,
 * in the quick profile too; without one, quick_au in the quick profile or
 * the assumed one, with the first whole AU of the test area, in *p.
 * Returns how many whole AUs the test area holds from there. */
static uint32_t au_plan(const struct wl_ctx *c, uint32_t quick_au, struct au_plan *p)
{
	uint32_t au_blocks, avail;

	p->quick = c->quick;
	p->emulated = c->emulated;
	p->au_bytes = wlx_au_bytes(c, &p->au_declared);
	if (c->quick && !p->au_declared)
		p->au_bytes = quick_au;
	au_blocks = p->au_bytes / SD_BLOCK_SIZE;
	p->first_lba = wlx_align_up(c->ta->first_lba, au_blocks);
	avail = p->first_lba < c->ta->first_lba + c->ta->count ?
		(c->ta->first_lba + c->ta->count - p->first_lba) / au_blocks : 0;
	return avail;
}

/* AU size, write size and the first AU; returns how many whole AUs the
 * test area holds from there. */
static uint32_t open_au_plan(const struct wl_ctx *c, struct au_open_result *r)
{
	/* a 4 or 16 MiB AU never collapses when written as 256 KiB ones */
	uint32_t avail = au_plan(c, OA_QUICK_AU_BYTES, &r->plan);

	r->chunk_bytes = (c->quick ? OA_QUICK_CHUNK_BLOCKS : OA_CHUNK_BLOCKS) * SD_BLOCK_SIZE;
	return avail;
}

/* N = 1, 2, 3 ... AUs written round-robin, one point per N, until the
 * list, the area or the time ends, or a collapse is confirmed. */
static void open_au_measure(struct wl_ctx *c, struct au_open_result *r, uint32_t avail_aus)
{
	const unsigned *nlist = c->quick ? oa_n_quick : oa_n_full;
	unsigned nmax = c->quick ? sizeof(oa_n_quick) / sizeof(oa_n_quick[0]) : OA_MAX_POINTS, i;
	uint32_t au_blocks = r->plan.au_bytes / SD_BLOCK_SIZE, chunk = r->chunk_bytes / SD_BLOCK_SIZE;
	uint64_t t_start, limit_ns = c->quick ? OA_QUICK_TIME_NS : OA_TIME_NS;
	uint64_t n_limit_ns = c->quick ? OA_QUICK_N_TIME_NS : OA_N_TIME_NS;

	r->npoints = 0;
	r->stopped_by = "list";
	t_start = wl_now_ns(c);
	for (i = 0; i < nmax && !c->abort_all; i++) {
		unsigned nopen = nlist[i], k = r->npoints;
		uint32_t per_au = au_blocks / chunk, ops, op_i;
		uint64_t bytes = c->quick ? OA_QUICK_BYTES_PER_N : OA_BYTES_PER_N;
		struct wla_open_au so_far;
		struct wl_meas m;
		char nm[40], lb[64];

		if (nopen > avail_aus) {
			r->stopped_by = "area";
			break;
		}
		if (wl_now_ns(c) - t_start > limit_ns) {
			r->stopped_by = "time";
			break;
		}
		if (bytes < (uint64_t)nopen * OA_MIN_CHUNKS_PER_AU * chunk * SD_BLOCK_SIZE)
			bytes = (uint64_t)nopen * OA_MIN_CHUNKS_PER_AU * chunk * SD_BLOCK_SIZE;
		ops = (uint32_t)(bytes / ((uint64_t)chunk * SD_BLOCK_SIZE));
		fmt_snprintf(nm, sizeof(nm), "open-au-%u", nopen);
		fmt_snprintf(lb, sizeof(lb), "open AUs N=%u", nopen);
		wl_begin(c, &m, "open-au", nm, lb, true, WL_MULTI_AUTO12, chunk, bytes);
		for (op_i = 0; op_i < ops && !wl_should_stop(c, &m); op_i++) {
			struct wl_op op = { true, r->plan.first_lba + (op_i % nopen) * au_blocks +
					    ((op_i / nopen) % per_au) * chunk, chunk,
					    WL_MULTI_AUTO12 };

			if (op_i >= nopen && wl_now_ns(c) - m.start_ns > n_limit_ns)
				break;
			wl_do(c, &m, &op);
		}
		wl_end(c, &m);
		if (!m.ops)
			break;
		r->n[k] = nopen;
		r->mbs[k] = m.mbs;
		r->p50_ns[k] = m.sum.p50_ns;
		r->p99_ns[k] = m.sum.p99_ns;
		r->max_ns[k] = m.sum.max_ns;
		r->errors[k] = m.errors != 0;
		r->npoints++;
		au_report_open_point(r, k);
		/* Stop once the collapse is confirmed by a second N. */
		wla_open_au(r->n, r->p50_ns, r->npoints, OA_RISE, &so_far);
		if (wla_open_au_confirmed(r->p50_ns, r->npoints, OA_RISE, &so_far)) {
			r->stopped_by = "collapse";
			break;
		}
	}
}

void wl_open_au(struct wl_ctx *c)
{
	const char *why = wlx_no_write_reason(c);
	struct au_open_result r;
	uint32_t avail_aus;

	if (why) {
		wl_skip("open-au", why);
		return;
	}
	avail_aus = open_au_plan(c, &r);
	if (avail_aus < 2) {
		wl_skip("open-au", "the test area holds fewer than two whole AUs");
		return;
	}
	au_report_open_heading(&r);
	open_au_measure(c, &r, avail_aus);
	if (!r.npoints)
		return;
	r.rise = OA_RISE;
	wla_open_au(r.n, r.p50_ns, r.npoints, OA_RISE, &r.decision);
	au_report_open(&r);
	if (c->verify)
		wl_verify_written(c, "open-au");
}

/* ---- erase time per AU --------------------------------------------------------- */

#define ER_SINGLE        AU_ERASE_MAX_SINGLE
#define ER_QUICK_SINGLE  2u
#define ER_MULTI         4u
#define ER_QUICK_MULTI   2u
#define ER_QUICK_AU      (1u << 20)

/* AU size, first AU and the SD Status timeout; how many single and
 * multi-AU erases fit (*nsingle = 0: none). */
static void erase_plan(const struct wl_ctx *c, struct au_erase_result *r, uint32_t *nsingle,
		       uint32_t *nmulti)
{
	uint32_t avail = au_plan(c, ER_QUICK_AU, &r->plan);
	struct sd_ssr ssr;

	*nsingle = c->quick ? ER_QUICK_SINGLE : ER_SINGLE;
	*nmulti = c->quick ? ER_QUICK_MULTI : ER_MULTI;
	if (*nsingle > avail)
		*nsingle = avail;
	if (*nmulti > avail)
		*nmulti = avail;
	r->have_timeout = false;
	r->timeout_ms = 0;
	if (c->card->have_ssr) {
		sd_ssr_decode(c->card->ssr, &ssr);
		r->have_timeout = sd_ssr_erase_timeout_ms(&ssr, 1, &r->timeout_ms) == 0;
	}
}

/* nsingle AUs erased one by one, then nmulti AUs at once. */
static void erase_measure(struct wl_ctx *c, struct au_erase_result *r, uint32_t nsingle,
			  uint32_t nmulti)
{
	uint32_t au_blocks = r->plan.au_bytes / SD_BLOCK_SIZE, i;
	uint64_t ns;

	r->count = 0;
	for (i = 0; i < nsingle && !c->abort_all; i++) {
		if (wlx_erase(c, "erase-au", r->plan.first_lba + i * au_blocks, au_blocks, &ns))
			continue;
		r->t_us[r->count++] = (uint32_t)(ns / 1000);
	}
	r->multi_aus = nmulti;
	r->multi_ok = false;
	r->multi_ns = 0;
	if (nmulti >= 2 && !c->abort_all &&
	    !wlx_erase(c, "erase-au", r->plan.first_lba, nmulti * au_blocks, &ns)) {
		r->multi_ns = ns;
		r->multi_ok = true;
	}
}

void wl_erase_per_au(struct wl_ctx *c)
{
	const char *why = wlx_no_write_reason(c);
	struct au_erase_result r;
	uint32_t nsingle, nmulti;

	if (why) {
		wl_skip("erase-au", why);
		return;
	}
	if (!wlx_erase_supported(c)) {
		wl_skip("erase-au", "the card does not implement erase (CSD CCC class 5)");
		return;
	}
	erase_plan(c, &r, &nsingle, &nmulti);
	if (!nsingle) {
		wl_skip("erase-au", "the test area holds no whole AU");
		return;
	}
	au_report_erase_heading(&r);
	erase_measure(c, &r, nsingle, nmulti);
	if (!r.count) {
		wl_skip("erase-au", "every erase failed (see the errors above)");
		return;
	}
	wla_spread_u32(r.t_us, r.count, &r.single_us);
	r.per_au_us = r.multi_ok ? wla_erase_per_au_us(r.multi_ns, r.multi_aus, r.single_us.median)
				 : 0.0;
	au_report_erase(&r);
}

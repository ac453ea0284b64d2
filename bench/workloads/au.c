/*
 * wl_au.c - what the card's flash management looks like from outside:
 *
 *   wl_au_detect()    erase-block / AU size by alignment read timing, after
 *                     flashbench's -a test: for alignments A = 16 KiB ..
 *                     max, time small reads that end at, straddle and start
 *                     at boundaries that are odd multiples of A. Straddling
 *                     reads touch two flash units once A reaches the unit's
 *                     size, and cost more from there on; the largest such
 *                     step is taken as the erase-block boundary and set
 *                     against the AU the card declares (SD Status AU_SIZE,
 *                     SD Physical Layer §4.10.2, §4.13.1.1). Read-only: it
 *                     runs anywhere on the card.
 *   wl_open_au()      after flashbench's -O test: small writes round-robin
 *                     into N AUs of the test area, N = 1, 2, 3 ... until the
 *                     throughput collapses (the card ran out of open AUs
 *                     and copies a whole AU for each write).
 *   wl_erase_per_au() CMD38 time for single AUs of the test area and for
 *                     several at once (the slope is the per-AU cost),
 *                     next to the erase timeout the SD Status allows
 *                     (§4.14).
 *
 * Not covered: cards that hide the alignment effect (many modern ones read
 * through a cache or map pages freely: the record then says "no step"),
 * the AU size of the video speed class (VSC_AU_SIZE), the card's own
 * garbage-collection state, and erase-group sizes of SDSC cards (CSD
 * SECTOR_SIZE): erases are done in whole AUs.
 */
#include "bench/engine/record.h"
#include "bench/engine/workload_report.h"
#include "bench/workloads/analysis.h"
#include "bench/workloads/au.h"
#include "bench/workloads/au_report.h"
#include "bench/workloads/common.h"
#include "drivers/sd/sd_regs.h"
#include "lib/console.h"
#include "lib/fmt.h"

/* ---- alignment test ------------------------------------------------------ */

#define AL_READ_BLOCKS   8u             /* 4 KiB reads */
#define AL_MIN_BYTES     (16u << 10)
#define AL_MAX_BYTES     (64u << 20)
#define AL_MAX_SIZES     AU_ALIGN_MAX_SIZES
#define AL_POSITIONS     16u
#define AL_QUICK_POS     4u
#define AL_QUICK_MAX     (2u << 20)

static uint32_t time_read(struct wl_ctx *c, struct wl_meas *m, uint32_t lba)
{
	struct wl_op op = { false, lba, AL_READ_BLOCKS, WL_MULTI_AUTO12 };
	uint32_t before = m->nlat;

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
	npos = c->quick ? AL_QUICK_POS : AL_POSITIONS;
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
		uint32_t pre[AL_POSITIONS], on[AL_POSITIONS], post[AL_POSITIONS], dev[AL_POSITIONS];
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

void wl_au_detect(struct wl_ctx *c)
{
	struct au_align_result r;
	struct wl_meas m;
	uint32_t max_bytes;

	if (!align_plan(c, &r, &max_bytes)) {
		wl_skip("au-align", "the card is too small for the alignment test");
		return;
	}
	au_report_align_heading(&r);
	wl_begin(c, &m, "au", "au-align", "alignment reads 4 KiB", false, WL_MULTI_AUTO12,
		 AL_READ_BLOCKS, 0);
	align_measure(c, &m, max_bytes, &r);
	wl_end(c, &m);
	wl_report(c, &m);
	if (r.npoints < 2) {
		wl_skip("au-align", "too few alignment points could be measured");
		return;
	}
	wla_find_boundary(r.pt, r.npoints, &r.boundary);
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
#define OA_COLLAPSE_FRAC       0.5

static const unsigned oa_n_full[OA_MAX_POINTS] = { 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16,
						   20, 24, 28, 32 };
static const unsigned oa_n_quick[] = { 1, 2, 3, 4 };

/* AU size, write size and the first AU; returns how many whole AUs the
 * test area holds from there. */
static uint32_t open_au_plan(const struct wl_ctx *c, struct au_open_result *r)
{
	uint32_t au_blocks, base;

	r->quick = c->quick;
	r->emulated = c->emulated;
	r->au_declared = false;
	r->au_bytes = c->quick ? OA_QUICK_AU_BYTES : wlx_au_bytes(c, &r->au_declared);
	au_blocks = r->au_bytes / SD_BLOCK_SIZE;
	r->chunk_bytes = (c->quick ? OA_QUICK_CHUNK_BLOCKS : OA_CHUNK_BLOCKS) * SD_BLOCK_SIZE;
	base = wlx_align_up(c->ta->first_lba, au_blocks);
	r->first_lba = base;
	return base < c->ta->first_lba + c->ta->count ?
	       (c->ta->first_lba + c->ta->count - base) / au_blocks : 0;
}

/* N = 1, 2, 3 ... AUs written round-robin, one point per N, until the
 * list, the area or the time ends, or a collapse is confirmed. */
static void open_au_measure(struct wl_ctx *c, struct au_open_result *r, uint32_t avail_aus)
{
	const unsigned *nlist = c->quick ? oa_n_quick : oa_n_full;
	unsigned nmax = c->quick ? 4 : OA_MAX_POINTS, i;
	uint32_t au_blocks = r->au_bytes / SD_BLOCK_SIZE, chunk = r->chunk_bytes / SD_BLOCK_SIZE;
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
			struct wl_op op = { true, r->first_lba + (op_i % nopen) * au_blocks +
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
		wla_open_au(r->n, r->mbs, r->npoints, OA_COLLAPSE_FRAC, &so_far);
		if (wla_open_au_confirmed(r->mbs, r->npoints, OA_COLLAPSE_FRAC, &so_far)) {
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
	wla_open_au(r.n, r.mbs, r.npoints, OA_COLLAPSE_FRAC, &r.decision);
	au_report_open(&r);
	if (c->verify)
		wl_verify_written(c, "open-au");
}

/* ---- erase time per AU --------------------------------------------------------- */

#define ER_SINGLE        8u
#define ER_QUICK_SINGLE  2u
#define ER_MULTI         4u
#define ER_QUICK_MULTI   2u
#define ER_QUICK_AU      (1u << 20)

void wl_erase_per_au(struct wl_ctx *c)
{
	const char *why = wlx_no_write_reason(c);
	struct sd_ssr ssr;
	bool declared = false;
	uint32_t au, au_blocks, base, avail, nsingle, nmulti, i, got = 0, tmo_ms = 0;
	uint32_t t_us[ER_SINGLE];
	uint64_t ns, multi_ns = 0;
	uint32_t med_us = 0, min_us = 0, max_us = 0;
	bool have_tmo = false, multi_ok = false;
	char s1[24];
	struct json *j;

	if (why) {
		wl_skip("erase-au", why);
		return;
	}
	if (!wlx_erase_supported(c)) {
		wl_skip("erase-au", "the card does not implement erase (CSD CCC class 5)");
		return;
	}
	au = c->quick ? ER_QUICK_AU : wlx_au_bytes(c, &declared);
	if (c->quick)
		declared = false;
	au_blocks = au / SD_BLOCK_SIZE;
	base = wlx_align_up(c->ta->first_lba, au_blocks);
	avail = base < c->ta->first_lba + c->ta->count ?
		(c->ta->first_lba + c->ta->count - base) / au_blocks : 0;
	nsingle = c->quick ? ER_QUICK_SINGLE : ER_SINGLE;
	nmulti = c->quick ? ER_QUICK_MULTI : ER_MULTI;
	if (nsingle > avail)
		nsingle = avail;
	if (nmulti > avail)
		nmulti = avail;
	if (!nsingle) {
		wl_skip("erase-au", "the test area holds no whole AU");
		return;
	}
	if (c->card->have_ssr) {
		sd_ssr_decode(c->card->ssr, &ssr);
		have_tmo = sd_ssr_erase_timeout_ms(&ssr, 1, &tmo_ms) == 0;
	}
	con_printf("\nerase (CMD38) time per AU of %s (%s)%s\n", wlx_size_str(au, s1, sizeof(s1)),
		   c->quick ? "quick profile" : declared ? "declared AU" : "assumed AU",
		   c->emulated ? " - emulated" : "");
	for (i = 0; i < nsingle && !c->abort_all; i++) {
		if (wlx_erase(c, "erase-au", base + i * au_blocks, au_blocks, &ns))
			continue;
		t_us[got++] = (uint32_t)(ns / 1000);
	}
	if (nmulti >= 2 && !c->abort_all &&
	    !wlx_erase(c, "erase-au", base, nmulti * au_blocks, &ns)) {
		multi_ns = ns;
		multi_ok = true;
	}
	if (!got) {
		wl_skip("erase-au", "every erase failed (see the errors above)");
		return;
	}
	for (i = 0; i < got; i++) {
		if (!i || t_us[i] < min_us)
			min_us = t_us[i];
		if (t_us[i] > max_us)
			max_us = t_us[i];
	}
	med_us = wla_median_u32(t_us, got);
	con_printf("  1 AU: min %.3f ms, median %.3f ms, max %.3f ms over %u erases\n",
		   min_us / 1e3, med_us / 1e3, max_us / 1e3, (unsigned)got);
	if (multi_ok)
		con_printf("  %u AUs at once: %.3f ms -> %.3f ms per further AU\n", (unsigned)nmulti,
			   multi_ns / 1e6,
			   ((double)multi_ns / 1e3 - med_us) / (nmulti - 1) / 1e3);
	if (have_tmo)
		con_printf("  the card's SD Status allows up to %u ms for one AU\n", (unsigned)tmo_ms);
	else
		con_printf("  the card gives no erase timeout in its SD Status\n");

	j = record_begin("erase");
	json_str(j, "workload", "erase-au");
	json_u64(j, "au_bytes", au);
	json_bool(j, "au_declared", declared);
	json_u64(j, "first_lba", base);
	json_u64(j, "count", got);
	json_u64(j, "min_us", min_us);
	json_u64(j, "median_us", med_us);
	json_u64(j, "max_us", max_us);
	if (multi_ok) {
		json_u64(j, "multi_aus", nmulti);
		json_u64(j, "multi_us", multi_ns / 1000);
		json_double(j, "per_au_us", ((double)multi_ns / 1e3 - med_us) / (nmulti - 1), 1);
	} else {
		json_null(j, "multi_aus");
		json_null(j, "multi_us");
		json_null(j, "per_au_us");
	}
	if (have_tmo)
		json_u64(j, "timeout_ms_1au", tmo_ms);
	else
		json_null(j, "timeout_ms_1au");
	json_bool(j, "emulated", c->emulated);
	record_end();
}

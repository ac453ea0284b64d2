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
#include "bench/workloads/common.h"
#include "drivers/sd/sd_regs.h"
#include "lib/console.h"
#include "lib/fmt.h"

/* ---- alignment test ------------------------------------------------------ */

#define AL_READ_BLOCKS   8u             /* 4 KiB reads */
#define AL_MIN_BYTES     (16u << 10)
#define AL_MAX_BYTES     (64u << 20)
#define AL_MAX_SIZES     13             /* 16 KiB .. 64 MiB */
#define AL_POSITIONS     16u
#define AL_QUICK_POS     4u
#define AL_QUICK_MAX     (2u << 20)

static uint32_t abs_diff(uint32_t a, uint32_t b)
{
	return a > b ? a - b : b - a;
}

/* Median absolute deviation of v (n <= AL_POSITIONS); v is left sorted. */
static uint32_t mad(uint32_t *v, unsigned n, uint32_t *median)
{
	uint32_t d[AL_POSITIONS];
	unsigned i;

	*median = wla_median_u32(v, n);
	for (i = 0; i < n; i++)
		d[i] = abs_diff(v[i], *median);
	return wla_median_u32(d, n);
}

static uint32_t time_read(struct wl_ctx *c, struct wl_meas *m, uint32_t lba)
{
	struct wl_op op = { false, lba, AL_READ_BLOCKS, WL_MULTI_AUTO12 };
	uint32_t before = m->nlat;

	if (wl_do(c, m, &op))
		return 0;
	return wlx_last_lat(c, m, before);
}

void wl_au_detect(struct wl_ctx *c)
{
	struct wla_align_point pt[AL_MAX_SIZES];
	struct wla_boundary b;
	struct wl_meas m;
	bool declared;
	uint32_t au = wlx_au_bytes(c, &declared);
	uint32_t max_bytes, npos, base, size, card_end = c->card->blocks;
	unsigned n = 0, k;
	char s1[24], s2[24], text[240];
	struct json *j;
	const char *match;

	npos = c->quick ? AL_QUICK_POS : AL_POSITIONS;
	if (c->quick)
		max_bytes = AL_QUICK_MAX;
	else {
		max_bytes = declared ? 2 * au : 2 * WLX_DEFAULT_AU_BYTES;
		if (max_bytes < (8u << 20))
			max_bytes = 8u << 20;
		if (max_bytes > AL_MAX_BYTES)
			max_bytes = AL_MAX_BYTES;
	}
	/* Positions (2j+1)*A from a base aligned to 2*max: the region needs
	 * 2*npos*max bytes. Shrink to what the card holds. */
	for (;;) {
		uint32_t align = 2 * (max_bytes / SD_BLOCK_SIZE);

		base = wlx_align_up(c->read_base, align);
		if ((uint64_t)base + (uint64_t)2 * npos * (max_bytes / SD_BLOCK_SIZE) <= card_end)
			break;
		if (npos > 4)
			npos /= 2;
		else if (max_bytes > 4 * AL_MIN_BYTES)
			max_bytes /= 2;
		else
			break;
	}
	if ((uint64_t)base + (uint64_t)2 * npos * (max_bytes / SD_BLOCK_SIZE) > card_end) {
		wl_skip("au-align", "the card is too small for the alignment test");
		return;
	}

	con_printf("\nerase-block / AU detection by alignment read timing (read-only, %u-byte "
		   "reads, %u boundaries per size)%s\n", (unsigned)(AL_READ_BLOCKS * SD_BLOCK_SIZE),
		   (unsigned)npos, c->emulated ? " - emulated: timings are QEMU's" : "");
	wl_begin(c, &m, "au", "au-align", "alignment reads 4 KiB", false, WL_MULTI_AUTO12,
		 AL_READ_BLOCKS, 0);
	for (size = AL_MIN_BYTES; size <= max_bytes && n < AL_MAX_SIZES && !c->abort_all;
	     size <<= 1) {
		uint32_t pre[AL_POSITIONS], on[AL_POSITIONS], post[AL_POSITIONS];
		uint32_t sb = size / SD_BLOCK_SIZE, jpos, got = 0, med_on;

		for (jpos = 0; jpos < npos && !wl_should_stop(c, &m); jpos++) {
			uint32_t x = base + (2 * jpos + 1) * sb; /* a boundary of A, not of 2A */
			uint32_t a, o, p;

			a = time_read(c, &m, x - AL_READ_BLOCKS);
			o = time_read(c, &m, x - AL_READ_BLOCKS / 2);
			p = time_read(c, &m, x);
			if (!a || !o || !p)
				continue;
			pre[got] = a;
			on[got] = o;
			post[got] = p;
			got++;
		}
		if (!got)
			break;
		pt[n].size_bytes = size;
		pt[n].noise_ns = mad(on, got, &med_on);
		pt[n].on_ns = med_on;
		pt[n].pre_ns = wla_median_u32(pre, got);
		pt[n].post_ns = wla_median_u32(post, got);
		n++;
	}
	wl_end(c, &m);
	wl_report(c, &m);
	if (n < 2) {
		wl_skip("au-align", "too few alignment points could be measured");
		return;
	}
	wla_find_boundary(pt, n, &b);

	con_printf("  %10s %10s %10s %10s %10s\n", "align", "pre us", "on us", "post us",
		   "diff us");
	for (k = 0; k < n; k++)
		con_printf("  %10s %10.1f %10.1f %10.1f %10.1f\n",
			   wlx_size_str(pt[k].size_bytes, s1, sizeof(s1)), pt[k].pre_ns / 1e3,
			   pt[k].on_ns / 1e3, pt[k].post_ns / 1e3,
			   (double)wla_align_diff(&pt[k]) / 1e3);
	if (!b.size_bytes) {
		match = "unknown";
		fmt_snprintf(text, sizeof(text), "no alignment step: the card hides its erase "
			     "blocks from reads (or the effect is below the noise)%s",
			     declared ? "" : "; the card declares no AU size either");
	} else if (!declared) {
		match = "unknown";
		fmt_snprintf(text, sizeof(text), "boundary at %s; the card declares no AU size",
			     wlx_size_str(b.size_bytes, s1, sizeof(s1)));
	} else if (b.size_bytes == au) {
		match = "equal";
		fmt_snprintf(text, sizeof(text), "boundary at %s = the declared AU",
			     wlx_size_str(b.size_bytes, s1, sizeof(s1)));
	} else if (b.size_bytes < au) {
		match = "smaller";
		fmt_snprintf(text, sizeof(text), "boundary at %s, inside the declared %s AU "
			     "(the AU spans several erase blocks)",
			     wlx_size_str(b.size_bytes, s1, sizeof(s1)),
			     wlx_size_str(au, s2, sizeof(s2)));
	} else {
		match = "larger";
		fmt_snprintf(text, sizeof(text), "boundary at %s, larger than the declared %s AU",
			     wlx_size_str(b.size_bytes, s1, sizeof(s1)),
			     wlx_size_str(au, s2, sizeof(s2)));
	}
	if (c->emulated) {
		size_t len = 0;

		while (text[len])
			len++;
		fmt_snprintf(text + len, sizeof(text) - len, " (emulated: QEMU's timing, not a "
			     "card's geometry)");
	}
	con_printf("  erase block: %s\n", text);

	j = record_begin("au");
	json_str(j, "workload", "au-align");
	json_u64(j, "read_bytes", AL_READ_BLOCKS * SD_BLOCK_SIZE);
	json_u64(j, "base_lba", base);
	json_u64(j, "positions", npos);
	json_arr_begin(j, "align_bytes");
	for (k = 0; k < n; k++)
		json_u64(j, NULL, pt[k].size_bytes);
	json_arr_end(j);
	json_arr_begin(j, "pre_ns");
	for (k = 0; k < n; k++)
		json_u64(j, NULL, pt[k].pre_ns);
	json_arr_end(j);
	json_arr_begin(j, "on_ns");
	for (k = 0; k < n; k++)
		json_u64(j, NULL, pt[k].on_ns);
	json_arr_end(j);
	json_arr_begin(j, "post_ns");
	for (k = 0; k < n; k++)
		json_u64(j, NULL, pt[k].post_ns);
	json_arr_end(j);
	json_arr_begin(j, "noise_ns");
	for (k = 0; k < n; k++)
		json_u64(j, NULL, pt[k].noise_ns);
	json_arr_end(j);
	if (b.size_bytes) {
		json_u64(j, "measured_bytes", b.size_bytes);
		json_i64(j, "step_ns", b.step_ns);
		json_u64(j, "first_step_bytes", b.first_step_bytes);
	} else {
		json_null(j, "measured_bytes");
		json_null(j, "step_ns");
		json_null(j, "first_step_bytes");
	}
	if (declared)
		json_u64(j, "declared_au_bytes", au);
	else
		json_null(j, "declared_au_bytes");
	json_str(j, "match", match);
	json_str(j, "text", text);
	json_bool(j, "emulated", c->emulated);
	record_end();
}

/* ---- open AUs --------------------------------------------------------------- */

#define OA_CHUNK_BLOCKS        64u          /* 32 KiB writes */
#define OA_QUICK_CHUNK_BLOCKS  32u          /* 16 KiB */
#define OA_QUICK_AU_BYTES      (256u << 10)
#define OA_BYTES_PER_N         (4u << 20)
#define OA_QUICK_BYTES_PER_N   (256u << 10)
#define OA_MIN_CHUNKS_PER_AU   4u
#define OA_MAX_POINTS          16
#define OA_TIME_NS             (60ull * 1000000000ull)
#define OA_QUICK_TIME_NS       (5ull * 1000000000ull)
#define OA_N_TIME_NS           (10ull * 1000000000ull) /* per N: a collapsed card */
#define OA_QUICK_N_TIME_NS     (1ull * 1000000000ull)  /* copies an AU per write */
#define OA_COLLAPSE_FRAC       0.5

static const unsigned oa_n_full[OA_MAX_POINTS] = { 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16,
						   20, 24, 28, 32 };
static const unsigned oa_n_quick[] = { 1, 2, 3, 4 };

void wl_open_au(struct wl_ctx *c)
{
	const char *why = wlx_no_write_reason(c);
	const unsigned *nlist = c->quick ? oa_n_quick : oa_n_full;
	unsigned nmax = c->quick ? 4 : OA_MAX_POINTS, npts = 0, i;
	unsigned n_done[OA_MAX_POINTS];
	double mbs[OA_MAX_POINTS];
	uint32_t p99_us[OA_MAX_POINTS];
	struct wla_open_au res = { 0, false, 0, 0 };
	bool declared = false;
	uint32_t au, au_blocks, chunk, base, avail_aus;
	uint64_t t_start, limit_ns, n_limit_ns;
	char s1[24], s2[24];
	const char *stop = "list";
	struct json *j;

	if (why) {
		wl_skip("open-au", why);
		return;
	}
	au = c->quick ? OA_QUICK_AU_BYTES : wlx_au_bytes(c, &declared);
	if (c->quick)
		declared = false;
	au_blocks = au / SD_BLOCK_SIZE;
	chunk = c->quick ? OA_QUICK_CHUNK_BLOCKS : OA_CHUNK_BLOCKS;
	base = wlx_align_up(c->ta->first_lba, au_blocks);
	avail_aus = base < c->ta->first_lba + c->ta->count ?
		    (c->ta->first_lba + c->ta->count - base) / au_blocks : 0;
	if (avail_aus < 2) {
		wl_skip("open-au", "the test area holds fewer than two whole AUs");
		return;
	}
	limit_ns = c->quick ? OA_QUICK_TIME_NS : OA_TIME_NS;
	n_limit_ns = c->quick ? OA_QUICK_N_TIME_NS : OA_N_TIME_NS;
	con_printf("\nopen AUs: %s writes round-robin into N AUs of %s (%s AU size)%s\n",
		   wlx_size_str((uint64_t)chunk * SD_BLOCK_SIZE, s1, sizeof(s1)),
		   wlx_size_str(au, s2, sizeof(s2)), c->quick ? "quick-profile" :
		   declared ? "declared" : "assumed", c->emulated ? " - emulated" : "");
	t_start = wl_now_ns(c);
	for (i = 0; i < nmax && !c->abort_all; i++) {
		unsigned nopen = nlist[i];
		uint32_t per_au = au_blocks / chunk, ops, op_i;
		uint64_t bytes = c->quick ? OA_QUICK_BYTES_PER_N : OA_BYTES_PER_N;
		struct wl_meas m;
		char nm[40], lb[64];

		if (nopen > avail_aus) {
			stop = "area";
			break;
		}
		if (wl_now_ns(c) - t_start > limit_ns) {
			stop = "time";
			break;
		}
		if (bytes < (uint64_t)nopen * OA_MIN_CHUNKS_PER_AU * chunk * SD_BLOCK_SIZE)
			bytes = (uint64_t)nopen * OA_MIN_CHUNKS_PER_AU * chunk * SD_BLOCK_SIZE;
		ops = (uint32_t)(bytes / ((uint64_t)chunk * SD_BLOCK_SIZE));
		fmt_snprintf(nm, sizeof(nm), "open-au-%u", nopen);
		fmt_snprintf(lb, sizeof(lb), "open AUs N=%u", nopen);
		wl_begin(c, &m, "open-au", nm, lb, true, WL_MULTI_AUTO12, chunk, bytes);
		for (op_i = 0; op_i < ops && !wl_should_stop(c, &m); op_i++) {
			struct wl_op op = { true, base + (op_i % nopen) * au_blocks +
					    ((op_i / nopen) % per_au) * chunk, chunk,
					    WL_MULTI_AUTO12 };

			if (op_i >= nopen && wl_now_ns(c) - m.start_ns > n_limit_ns)
				break;
			wl_do(c, &m, &op);
		}
		wl_end(c, &m);
		if (!m.ops)
			break;
		n_done[npts] = nopen;
		mbs[npts] = m.mbs;
		p99_us[npts] = m.sum.p99_ns / 1000;
		npts++;
		con_printf("  N=%-3u %9.3f MB/s  p50 %8.1f us  p99 %9.1f us  max %9.1f us%s\n",
			   nopen, m.mbs, m.sum.p50_ns / 1e3, m.sum.p99_ns / 1e3, m.sum.max_ns / 1e3,
			   m.errors ? "  (errors)" : "");
		/* Stop once the collapse is confirmed by a second N. */
		wla_open_au(n_done, mbs, npts, OA_COLLAPSE_FRAC, &res);
		if (res.collapsed && npts >= 2 && mbs[npts - 2] < OA_COLLAPSE_FRAC * res.best_mbs) {
			stop = "collapse";
			break;
		}
	}
	if (!npts)
		return;
	wla_open_au(n_done, mbs, npts, OA_COLLAPSE_FRAC, &res);
	if (res.collapsed)
		con_printf("  open AUs: the card handles %u; with %u the rate falls below half "
			   "of %.2f MB/s\n", res.handled, res.collapse_at, res.best_mbs);
	else
		con_printf("  open AUs: no collapse up to N=%u (%.2f MB/s best)\n", res.handled,
			   res.best_mbs);

	j = record_begin("open_au");
	json_str(j, "workload", "open-au");
	json_u64(j, "au_bytes", au);
	json_bool(j, "au_declared", declared);
	json_u64(j, "chunk_bytes", (uint64_t)chunk * SD_BLOCK_SIZE);
	json_u64(j, "first_lba", base);
	json_arr_begin(j, "n");
	for (i = 0; i < npts; i++)
		json_u64(j, NULL, n_done[i]);
	json_arr_end(j);
	json_arr_begin(j, "mbs");
	for (i = 0; i < npts; i++)
		json_double(j, NULL, mbs[i], 3);
	json_arr_end(j);
	json_arr_begin(j, "p99_us");
	for (i = 0; i < npts; i++)
		json_u64(j, NULL, p99_us[i]);
	json_arr_end(j);
	json_u64(j, "handled", res.handled);
	json_bool(j, "collapsed", res.collapsed);
	if (res.collapsed)
		json_u64(j, "collapse_at", res.collapse_at);
	else
		json_null(j, "collapse_at");
	json_str(j, "stopped_by", stop);
	json_bool(j, "emulated", c->emulated);
	record_end();
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

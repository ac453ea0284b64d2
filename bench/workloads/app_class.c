/*
 * app_class.c - does the card keep the classes it claims? Application
 * Performance Class (SD Physical Layer §4.16: A1/A2 random IOPS and a
 * sustained write) and Speed Class / UHS Speed Grade / Video Speed Class
 * (§4.13: Pw over AU-filling RU writes), measured inside the test area
 * only and judged on the card's own time. The method and its
 * approximations: docs/workloads.md, "bench/workloads/app_class.c".
 * Measures into struct app_class_result; analysis.c decides,
 * app_class_report.c prints (workload.h).
 */
#include "bench/engine/busmodel.h"
#include "bench/engine/workload_report.h"
#include "bench/workloads/analysis.h"
#include "bench/workloads/app_class.h"
#include "bench/workloads/app_class_report.h"
#include "bench/workloads/common.h"
#include "drivers/sd/sd_regs.h"
#include "lib/fmt.h"

#define AC_SPAN_BYTES        (256u << 20)
#define AC_QUICK_SPAN_BYTES  (2u << 20)
#define AC_RU_BLOCKS         1024u          /* 512 KiB */
#define AC_QUICK_RU_BLOCKS   128u           /* 64 KiB */
#define AC_PW_AUS            APP_CLASS_MAX_PW_AUS
#define AC_QUICK_PW_AUS      1u
#define AC_PW_MAX_BYTES      (64ull << 20)
#define AC_QUICK_AU_BYTES    (512u << 10)
#define AC_RAND_BLOCKS       8u             /* 4 KiB */
#define AC_READ_OPS          4000u
#define AC_WRITE_OPS         2000u
#define AC_QUICK_READ_OPS    64u
#define AC_QUICK_WRITE_OPS   32u
#define AC_RAND_TIME_NS      (15ull * 1000000000ull)
#define AC_QUICK_TIME_NS     (2ull * 1000000000ull)
#define AC_FILL_TIME_NS      (60ull * 1000000000ull)
#define AC_QUICK_FILL_TIME_NS (5ull * 1000000000ull)

/* Pw: erase each AU, then fill it with RU writes. Sets the worst AU's rate
 * (MB/s, -1 if none) and each AU's rate. */
static void measure_pw(struct wl_ctx *c, struct app_class_result *r, uint32_t base,
		       uint32_t naus)
{
	struct wl_meas m;
	uint32_t a, au_blocks = r->au_bytes / SD_BLOCK_SIZE, ru = r->ru_bytes / SD_BLOCK_SIZE;
	char lb[64], s1[24];

	r->pw_done = 0;
	r->pw_mbs = -1;
	fmt_snprintf(lb, sizeof(lb), "speed class Pw %s RUs",
		     fmt_size(s1, sizeof(s1), r->ru_bytes, FMT_SIZE_EXACT));
	/* Erase first, outside the measured part. */
	if (r->pw_erased)
		for (a = 0; a < naus && !c->abort_all; a++) {
			uint64_t ns;

			wlx_erase(c, "class-pw", base + a * au_blocks, au_blocks, &ns);
		}
	wl_begin(c, &m, "class", "class-pw", lb, true, WL_MULTI_AUTO12, ru,
		 (uint64_t)naus * au_blocks * SD_BLOCK_SIZE);
	for (a = 0; a < naus && !wl_should_stop(c, &m); a++) {
		uint64_t ns = 0;
		uint32_t off, bad = 0;
		double *each = &r->pw_au_mbs[r->pw_done];

		for (off = 0; off + ru <= au_blocks && !wl_should_stop(c, &m); off += ru) {
			struct wl_op op = { true, base + a * au_blocks + off, ru, WL_MULTI_AUTO12 };
			uint32_t before = m.nlat;

			if (wl_do(c, &m, &op)) {
				bad++;
				continue;
			}
			ns += wlx_last_lat(c, &m, before);
		}
		if (bad || !ns)
			continue;
		*each = (double)au_blocks * SD_BLOCK_SIZE * 1000.0 / (double)ns;
		if (r->pw_mbs < 0 || *each < r->pw_mbs)
			r->pw_mbs = *each;
		r->pw_done++;
	}
	wl_end(c, &m);
	wl_report(c, &m);
	app_class_report_pw(r);
}

/* Writes the area front to back; a slow card gets AC_FILL_TIME_NS, and the
 * area then shrinks to what was written. Sets the card-time rate. */
static void measure_seq(struct wl_ctx *c, struct app_class_result *r)
{
	struct wl_meas m;
	uint32_t off, ru = r->ru_bytes / SD_BLOCK_SIZE;
	uint64_t limit = c->quick ? AC_QUICK_FILL_TIME_NS : AC_FILL_TIME_NS;
	char lb[64], s1[24];

	fmt_snprintf(lb, sizeof(lb), "class seq write %s",
		     fmt_size(s1, sizeof(s1), r->ru_bytes, FMT_SIZE_EXACT));
	wl_begin(c, &m, "class", "class-seq-write", lb, true, WL_MULTI_AUTO12, ru,
		 (uint64_t)r->area_blocks * SD_BLOCK_SIZE);
	for (off = 0; off + ru <= r->area_blocks && !wl_should_stop(c, &m); off += ru) {
		struct wl_op op = { true, r->area_first_lba + off, ru, WL_MULTI_AUTO12 };

		if (off && wl_now_ns(c) - m.start_ns > limit)
			break;
		wl_do(c, &m, &op);
	}
	wl_end(c, &m);
	wl_report(c, &m);
	if (off < r->area_blocks) {
		r->area_blocks = off;
		app_class_report_area_cut(r);
	}
	r->app.seq_mbs = m.nlat ? wla_card_mbs(c->lat, m.nlat, r->ru_bytes) : -1.0;
}

/* Random 4 KiB operations as Linux issues them: CMD23 + CMD18/CMD25 when
 * the card supports CMD23 (the card then knows the length up front), else
 * CMD18/CMD25 with Auto-CMD12. */
static enum wl_cmd rand_cmd(const struct wl_ctx *c)
{
	return c->card->cmd23 ? WL_MULTI_CMD23 : WL_MULTI_AUTO12;
}

/* Returns the card-time IOPS (-1: none), *wall_iops the wall-clock ones. */
static double measure_rand(struct wl_ctx *c, bool write, uint32_t first, uint32_t span_blocks,
			   uint32_t nops, double *wall_iops)
{
	struct wl_meas m;
	uint32_t slots = span_blocks / AC_RAND_BLOCKS, i;
	uint64_t limit = c->quick ? AC_QUICK_TIME_NS : AC_RAND_TIME_NS;

	*wall_iops = -1;
	if (!slots)
		return -1;
	wl_begin(c, &m, "class", write ? "class-rand-write-4k" : "class-rand-read-4k",
		 write ? "class random write 4 KiB" : "class random read 4 KiB", write,
		 rand_cmd(c), AC_RAND_BLOCKS, (uint64_t)nops * AC_RAND_BLOCKS * SD_BLOCK_SIZE);
	for (i = 0; i < nops && !wl_should_stop(c, &m); i++) {
		struct wl_op op = { write, first + (wl_rand(c) % slots) * AC_RAND_BLOCKS,
				    AC_RAND_BLOCKS, rand_cmd(c) };

		if (wl_now_ns(c) - m.start_ns > limit)
			break;
		wl_do(c, &m, &op);
	}
	wl_end(c, &m);
	wl_report(c, &m);
	if (!m.nlat)
		return -1;
	*wall_iops = m.iops;
	return wla_card_iops(c->lat, m.nlat);
}

/* What the card claims: its SD Status, if it was read. */
static void read_claims(const struct wl_ctx *c, struct app_class_result *r)
{
	r->have_ssr = c->card->have_ssr;
	r->speed_claim.speed_class = 0;
	r->speed_claim.uhs_grade = 0;
	r->speed_claim.video = 0;
	if (!r->have_ssr)
		return;
	sd_ssr_decode(c->card->ssr, &r->ssr);
	r->speed_claim.speed_class = r->ssr.speed_class_num;
	r->speed_claim.uhs_grade = r->ssr.uhs_speed_grade_valid ? r->ssr.uhs_speed_grade : 0;
	r->speed_claim.video = r->ssr.video_speed_class_valid ? r->ssr.video_speed_class : 0;
}

/* Sizes, the measurement area and the Pw AUs (*pw_base, *naus). */
static void plan(const struct wl_ctx *c, struct app_class_result *r, uint32_t *pw_base,
		 uint32_t *naus)
{
	uint64_t span_max = c->quick ? AC_QUICK_SPAN_BYTES : AC_SPAN_BYTES;
	uint32_t ru = c->quick ? AC_QUICK_RU_BLOCKS : AC_RU_BLOCKS, au_blocks, first, span;

	r->emulated = c->emulated;
	r->clock_hz = c->card->clock_hz;
	r->width = c->card->width;
	/* What the bus carries for the Pw writes (busmodel.h): RUs written
	 * with CMD25 + Auto-CMD12 at the clock and width in use. */
	r->bus_ceiling_mbs = bus_xfer_ceiling_mbs(ru, SD_BLOCK_SIZE, c->card->width,
						  c->card->clock_hz, BUS_MULTI | BUS_STOP | BUS_WRITE |
						  (sd_timing_ddr(c->card->timing) ? BUS_DDR : 0u));
	r->rand_bytes = AC_RAND_BLOCKS * SD_BLOCK_SIZE;
	r->rand_cmd23 = rand_cmd(c) == WL_MULTI_CMD23;
	r->ru_bytes = ru * SD_BLOCK_SIZE;
	r->au_declared = false;
	au_blocks = (c->quick ? AC_QUICK_AU_BYTES : wlx_au_bytes(c, &r->au_declared)) / SD_BLOCK_SIZE;
	if (au_blocks < ru)
		au_blocks = ru;
	r->au_bytes = au_blocks * SD_BLOCK_SIZE;
	r->pw_erased = false;
	r->pw_mbs = -1.0;
	r->pw_done = 0;
	r->app.read_iops = r->app.write_iops = r->app.seq_mbs = -1.0;
	r->read_iops_wall = r->write_iops_wall = -1.0;
	*pw_base = 0;
	*naus = 0;
	if (r->writes) {
		uint32_t ta_end = c->ta->first_lba + c->ta->count;

		first = wlx_align_up(c->ta->first_lba, AC_RAND_BLOCKS);
		span = first < ta_end ? ta_end - first : 0;
		if ((uint64_t)span * SD_BLOCK_SIZE > span_max)
			span = (uint32_t)(span_max / SD_BLOCK_SIZE);
		span -= span % ru;
		*pw_base = wlx_align_up(c->ta->first_lba, au_blocks);
		*naus = *pw_base < ta_end ? (ta_end - *pw_base) / au_blocks : 0;
		if (*naus > (c->quick ? AC_QUICK_PW_AUS : AC_PW_AUS))
			*naus = c->quick ? AC_QUICK_PW_AUS : AC_PW_AUS;
		/* Large AUs (SDXC: up to 64 MiB): keep Pw to 64 MiB of writes. */
		while (*naus > 1 && (uint64_t)*naus * au_blocks * SD_BLOCK_SIZE > AC_PW_MAX_BYTES)
			(*naus)--;
		r->pw_erased = wlx_erase_supported(c);
	} else {
		uint64_t left = c->card->blocks > c->read_base ? c->card->blocks - c->read_base : 0;

		first = wlx_align_up(c->read_base, AC_RAND_BLOCKS);
		span = left > span_max / SD_BLOCK_SIZE ? (uint32_t)(span_max / SD_BLOCK_SIZE)
						       : (uint32_t)left;
		span = span > AC_RAND_BLOCKS ? span - AC_RAND_BLOCKS : 0;
	}
	r->area_first_lba = first;
	r->area_blocks = span;
}

/* What the headline's verdict per claim needs (headline_claims.c). */
static void keep_claims(struct wl_ctx *c, const struct app_class_result *r)
{
	struct wl_claims *k = &c->claims;

	k->checked = true;
	k->have_ssr = r->have_ssr;
	k->speed_class = r->speed_claim.speed_class;
	k->uhs_grade = (uint8_t)r->speed_claim.uhs_grade;
	k->video = (uint8_t)r->speed_claim.video;
	k->app = r->have_ssr ? r->ssr.app_perf_class : 0;
	k->pw_mbs = r->pw_mbs;
	k->bus_ceiling_mbs = r->bus_ceiling_mbs;
	k->app_ok = r->verdict.app_ok;
	k->writes = r->writes;
	k->speed_class_met = r->verdict.speed_class_met;
	k->uhs_grade_met = r->verdict.uhs_grade_met;
	k->video_class_met = r->verdict.video_class_met;
	k->seq_mbs = r->app.seq_mbs;
}

/* The queued figures judged against A2 (SD Physical Layer 6.00 §4.16: A2 =
 * 4000 read / 2000 write IOPS of random 4 KiB, 10 MB/s sustained, with
 * the command queue and cache enabled - analysis.c's thresholds). */
static void queued_measured(struct app_class_queued *a)
{
	struct wla_app_meas m = { a->read_iops, a->write_iops, a->seq_mbs };
	char v[300];
	size_t n;
	int ok = wla_app_verdict(WLA_APP_A2, &m, true, v, sizeof(v));

	n = (size_t)fmt_snprintf(a->text, sizeof(a->text), "A2 at queue depth %u, command queue "
				 "%s: %s", a->depth, a->cache ? "and cache on" :
				 "on, no cache", v);
	if (n < sizeof(a->text))
		fmt_snprintf(a->text + n, sizeof(a->text) - n, "; at depth 1, cache off: %.0f read, "
			     "%.0f write IOPS", a->read_iops_d1, a->write_iops_d1);
	/* A2 asks for the cache as well as the queue (§4.16) */
	a->app_ok = !a->card_cache ? 0 : ok;
	fmt_snprintf(a->detail, sizeof(a->detail), "depth %u%s: %.0f read, %.0f write IOPS, "
		     "needs %.0f, %.0f%s", a->depth, a->cache ? " with cache" : "", a->read_iops,
		     a->write_iops, wla_app_threshold(WLA_APP_A2)->read_iops,
		     wla_app_threshold(WLA_APP_A2)->write_iops,
		     !a->card_cache ? "; no cache" : m.seq_mbs < 0 ? "; no sequential write" : "");
}

static void queued_decide(struct app_class_queued *a)
{
	const char *why = a->why ? a->why : "";

	a->app_ok = -1;
	switch (a->state) {
	case ACQ_BROKEN:
		a->app_ok = 0;
		fmt_snprintf(a->text, sizeof(a->text), "A2: command queue BROKEN: %s: %s",
			     a->broken, a->evidence);
		fmt_snprintf(a->detail, sizeof(a->detail), "command queue BROKEN: %s", a->broken);
		break;
	case ACQ_NO_QUEUE:
		/* A2 cards support the command queue (§4.16) */
		a->app_ok = 0;
		fmt_snprintf(a->text, sizeof(a->text), "A2: no command queue (%s); the class needs "
			     "one", why);
		fmt_snprintf(a->detail, sizeof(a->detail), "no command queue");
		break;
	case ACQ_NOT_MEASURED:
	case ACQ_UNKNOWN:
		fmt_snprintf(a->text, sizeof(a->text), "A2 not checked: queue not measured: %s", why);
		fmt_snprintf(a->detail, sizeof(a->detail), "queue not measured: %.50s", why);
		break;
	default:
		queued_measured(a);
	}
}

void wl_app_class_queued(struct wl_ctx *c, struct app_class_queued *a)
{
	struct sd_ssr ssr;
	struct wl_claims *k = &c->claims;

	a->have_ssr = c->card->have_ssr;
	a->claim = 0;
	if (a->have_ssr) {
		sd_ssr_decode(c->card->ssr, &ssr);
		a->claim = ssr.app_perf_class;
	}
	a->seq_mbs = k->checked ? k->seq_mbs : -1.0;
	queued_decide(a);
	app_class_report_queued(a);
	if (a->claim != WLA_APP_A2)
		return;
	k->queue_judged = true;
	k->queue_app_ok = a->app_ok;
	fmt_snprintf(k->queue_detail, sizeof(k->queue_detail), "%s", a->detail);
}

void wl_app_class(struct wl_ctx *c)
{
	const char *why = wlx_no_write_reason(c);
	struct app_class_result r;
	uint32_t nread = c->quick ? AC_QUICK_READ_OPS : AC_READ_OPS;
	uint32_t nwrite = c->quick ? AC_QUICK_WRITE_OPS : AC_WRITE_OPS;
	uint32_t pw_base, naus;

	read_claims(c, &r);
	r.writes = !why;
	plan(c, &r, &pw_base, &naus);
	app_class_report_heading(&r);

	if (r.writes) {
		if (naus)
			measure_pw(c, &r, pw_base, naus);
		else
			wl_skip("class-pw", "the test area holds no whole AU");
		if (r.area_blocks >= r.ru_bytes / SD_BLOCK_SIZE && !c->abort_all)
			measure_seq(c, &r);
		if (!c->abort_all)
			r.app.read_iops = measure_rand(c, false, r.area_first_lba, r.area_blocks,
						       nread, &r.read_iops_wall);
		if (!c->abort_all)
			r.app.write_iops = measure_rand(c, true, r.area_first_lba, r.area_blocks,
							nwrite, &r.write_iops_wall);
	} else {
		wl_skip("class-write", why);
		r.app.read_iops = measure_rand(c, false, r.area_first_lba, r.area_blocks, nread,
					       &r.read_iops_wall);
	}

	wla_class_verdict(r.have_ssr, r.have_ssr ? r.ssr.app_perf_class : 0, &r.speed_claim,
			  &r.app, r.pw_mbs, r.bus_ceiling_mbs,
			  why ? why : "no whole AU in the test area, or the writes failed", &r.verdict);
	app_class_report(&r);
	keep_claims(c, &r);

	if (r.writes && c->verify)
		wl_verify_written(c, "class");
}

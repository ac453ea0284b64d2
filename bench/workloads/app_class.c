/*
 * wl_appclass.c - does the card keep the classes it claims?
 *
 * Application Performance Class (SD Physical Layer §4.16): A1 needs random
 * 4 KiB reads >= 1500 IOPS, random 4 KiB writes >= 500 IOPS and a sustained
 * sequential write >= 10 MB/s; A2 needs 4000 / 2000 IOPS and 10 MB/s with
 * the card's command queue and cache enabled. Speed Class / UHS Speed Grade
 * / Video Speed Class (§4.13): the write performance Pw - the average over
 * sequential recording-unit (RU) writes that fill one free AU - must reach
 * 2/4/6/10 (C2..C10), 10/30 (U1/U3) or 6..90 MB/s (V6..V90).
 *
 * How it is measured here, inside the test area only:
 *   1. Pw: each of up to 4 AUs (AU-aligned, size from the SD Status) is
 *      erased with CMD38 (it becomes free) and written front to back in
 *      512 KiB RUs (CMD25 + Auto-CMD12); Pw is the worst AU's average.
 *   2. Sequential write: the whole measurement area (256 MiB or the test
 *      area if smaller) is written in 512 KiB RUs; this is the "sustained
 *      sequential" figure and also puts data into every block the random
 *      tests touch (reads of never-written blocks can be unrealistically
 *      fast). A slow card gets 60 s for it, and the area shrinks to what
 *      was written.
 *   3. Random reads, then random writes, of 4 KiB aligned to 4 KiB at
 *      uniformly random addresses of the area, queue depth 1, each one
 *      multi-block command (with CMD23 when the card supports it, as
 *      Linux does).
 * IOPS and MB/s are judged on the time the card took (sum of the operation
 * latencies: command issue to transfer complete, busy included); the host's
 * own bookkeeping between operations is left out, as a faster host would
 * not have it. The wall-clock IOPS are recorded too.
 *
 * Approximations (printed with the result, listed in docs/records.md):
 * no command queue and no cache (the driver enables neither), so an A2
 * claim can only be checked for the A1 level an A2 card keeps without them;
 * the spec's own preconditioning of the card is not reproduced (the card is
 * in whatever state its earlier life left it, the area is written once);
 * the video speed class is measured on the SD-Status AU, not its VSC AU,
 * without CMD20 stream control; classes above the bus ceiling in use (e.g.
 * U3 on a 25 MB/s bus) are reported as not measurable, not as failed.
 */
#include "bench/engine/busmodel.h"
#include "bench/engine/record.h"
#include "bench/engine/workload_report.h"
#include "bench/workloads/analysis.h"
#include "bench/workloads/app_class.h"
#include "bench/workloads/common.h"
#include "drivers/sd/sd_regs.h"
#include "lib/console.h"
#include "lib/fmt.h"

#define AC_SPAN_BYTES        (256u << 20)
#define AC_QUICK_SPAN_BYTES  (2u << 20)
#define AC_RU_BLOCKS         1024u          /* 512 KiB */
#define AC_QUICK_RU_BLOCKS   128u           /* 64 KiB */
#define AC_PW_AUS            4u
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

struct ac_claims {
	bool have;            /* the SD Status was read */
	struct sd_ssr ssr;
	struct wla_speed_claim speed;
};

/* Card time of the samples of m (order does not matter: also after wl_end). */
static uint64_t lat_sum(const struct wl_ctx *c, const struct wl_meas *m)
{
	uint64_t s = 0;
	uint32_t i;

	for (i = 0; i < m->nlat; i++)
		s += c->lat[i];
	return s;
}

static double card_mbs(const struct wl_ctx *c, const struct wl_meas *m)
{
	uint64_t ns = lat_sum(c, m);

	return ns ? (double)m->nlat * m->xfer_blocks * SD_BLOCK_SIZE * 1000.0 / (double)ns : -1.0;
}

static double card_iops(const struct wl_ctx *c, const struct wl_meas *m)
{
	uint64_t ns = lat_sum(c, m);

	return ns ? (double)m->nlat * 1e9 / (double)ns : -1.0;
}

/* Pw: erase each AU, then fill it with RU writes. Returns the worst AU's
 * rate (MB/s) or -1; each AU's rate in each[]. */
static double measure_pw(struct wl_ctx *c, uint32_t base, uint32_t au_blocks, uint32_t naus,
			 uint32_t ru, bool erase, double *each, uint32_t *done)
{
	struct wl_meas m;
	double worst = -1;
	uint32_t a;
	char lb[64], s1[24], s2[24];

	*done = 0;
	fmt_snprintf(lb, sizeof(lb), "speed class Pw %s RUs",
		     fmt_size(s1, sizeof(s1), (uint64_t)ru * SD_BLOCK_SIZE, FMT_SIZE_EXACT));
	/* Erase first, outside the measured part. */
	if (erase)
		for (a = 0; a < naus && !c->abort_all; a++) {
			uint64_t ns;

			wlx_erase(c, "class-pw", base + a * au_blocks, au_blocks, &ns);
		}
	wl_begin(c, &m, "class", "class-pw", lb, true, WL_MULTI_AUTO12, ru,
		 (uint64_t)naus * au_blocks * SD_BLOCK_SIZE);
	for (a = 0; a < naus && !wl_should_stop(c, &m); a++) {
		uint64_t ns = 0;
		uint32_t off, bad = 0;

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
		each[*done] = (double)au_blocks * SD_BLOCK_SIZE * 1000.0 / (double)ns;
		if (worst < 0 || each[*done] < worst)
			worst = each[*done];
		(*done)++;
	}
	wl_end(c, &m);
	wl_report(c, &m);
	con_printf("  %-28s %s: %s AUs %s, written in %s RUs\n", "", "Pw",
		   fmt_size(s2, sizeof(s2), (uint64_t)au_blocks * SD_BLOCK_SIZE, FMT_SIZE_EXACT),
		   erase ? "erased first" : "not erased (no CMD38)", s1);
	return worst;
}

/* Writes the area front to back; a slow card gets AC_FILL_TIME_NS, and the
 * area then shrinks to what was written (*span_blocks). */
static double measure_seq(struct wl_ctx *c, uint32_t first, uint32_t *span_blocks, uint32_t ru)
{
	struct wl_meas m;
	uint32_t off;
	uint64_t limit = c->quick ? AC_QUICK_FILL_TIME_NS : AC_FILL_TIME_NS;
	char lb[64], s1[24];

	fmt_snprintf(lb, sizeof(lb), "class seq write %s",
		     fmt_size(s1, sizeof(s1), (uint64_t)ru * SD_BLOCK_SIZE, FMT_SIZE_EXACT));
	wl_begin(c, &m, "class", "class-seq-write", lb, true, WL_MULTI_AUTO12, ru,
		 (uint64_t)*span_blocks * SD_BLOCK_SIZE);
	for (off = 0; off + ru <= *span_blocks && !wl_should_stop(c, &m); off += ru) {
		struct wl_op op = { true, first + off, ru, WL_MULTI_AUTO12 };

		if (off && wl_now_ns(c) - m.start_ns > limit)
			break;
		wl_do(c, &m, &op);
	}
	wl_end(c, &m);
	wl_report(c, &m);
	if (off < *span_blocks) {
		con_printf("  %-28s the time budget filled %u MiB: the random tests use that much\n",
			   "", (unsigned)(off >> 11));
		*span_blocks = off;
	}
	return m.nlat ? card_mbs(c, &m) : -1.0;
}

/* Random 4 KiB operations as Linux issues them: CMD23 + CMD18/CMD25 when
 * the card supports CMD23 (the card then knows the length up front), else
 * CMD18/CMD25 with Auto-CMD12. */
static enum wl_cmd rand_cmd(const struct wl_ctx *c)
{
	return c->card->cmd23 ? WL_MULTI_CMD23 : WL_MULTI_AUTO12;
}

static double measure_rand(struct wl_ctx *c, bool write, uint32_t first, uint32_t span_blocks,
			   uint32_t nops, double *wall_iops)
{
	struct wl_meas m;
	uint32_t slots = span_blocks / AC_RAND_BLOCKS, i;
	uint64_t limit = c->quick ? AC_QUICK_TIME_NS : AC_RAND_TIME_NS;
	double iops;

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
	iops = card_iops(c, &m);
	*wall_iops = m.iops;
	return iops;
}

static void read_claims(const struct wl_ctx *c, struct ac_claims *cl)
{
	cl->have = c->card->have_ssr;
	cl->speed.speed_class = 0;
	cl->speed.uhs_grade = 0;
	cl->speed.video = 0;
	if (!cl->have)
		return;
	sd_ssr_decode(c->card->ssr, &cl->ssr);
	cl->speed.speed_class = cl->ssr.speed_class_num;
	cl->speed.uhs_grade = cl->ssr.uhs_speed_grade_valid ? cl->ssr.uhs_speed_grade : 0;
	cl->speed.video = cl->ssr.video_speed_class_valid ? cl->ssr.video_speed_class : 0;
}

/* "the card claims: application class A1, speed class C10 U1 V30, AU 4 MiB" */
static void print_claims(const struct ac_claims *cl)
{
	char sp[32], s1[24];
	unsigned len = 0;

	sp[0] = 0;
	if (cl->speed.speed_class > 0)
		len += (unsigned)fmt_snprintf(sp + len, sizeof(sp) - len, " C%d",
					      cl->speed.speed_class);
	else if (cl->speed.speed_class < 0)
		len += (unsigned)fmt_snprintf(sp + len, sizeof(sp) - len, " (reserved code)");
	if (cl->speed.uhs_grade && len < sizeof(sp))
		len += (unsigned)fmt_snprintf(sp + len, sizeof(sp) - len, " U%u",
					      cl->speed.uhs_grade);
	if (cl->speed.video && len < sizeof(sp))
		fmt_snprintf(sp + len, sizeof(sp) - len, " V%u", cl->speed.video);
	con_printf("  the card claims: application class %s, speed class%s, AU %s\n",
		   sd_ssr_app_perf_name(cl->ssr.app_perf_class), sp[0] ? sp : " none",
		   cl->ssr.au_size_bytes ? fmt_size(s1, sizeof(s1), cl->ssr.au_size_bytes, FMT_SIZE_EXACT) :
		   "not declared");
}

/* Without an SD Status the verdict lines' "card claims no class" is not
 * true: the claim is unknown. Replace what precedes the first ':'. */
static void no_ssr_prefix(char *text, unsigned cap)
{
	char tmp[400];
	unsigned len = 0;

	while (text[len] && text[len] != ':')
		len++;
	fmt_snprintf(tmp, sizeof(tmp), "no SD Status, no claim%s", text + len);
	fmt_snprintf(text, cap, "%s", tmp);
}

static void json_num_or_null(struct json *j, const char *key, double v, int decimals)
{
	if (v < 0)
		json_null(j, key);
	else
		json_double(j, key, v, decimals);
}

void wl_app_class(struct wl_ctx *c)
{
	const char *why = wlx_no_write_reason(c);
	struct ac_claims cl;
	struct wla_app_meas am = { -1.0, -1.0, -1.0 };
	double pw = -1.0, pw_each[AC_PW_AUS], read_wall = -1.0, write_wall = -1.0;
	double ceiling;
	uint32_t pw_done = 0, first, span_blocks, ru, au_blocks, naus = 0, i;
	uint32_t nread = c->quick ? AC_QUICK_READ_OPS : AC_READ_OPS;
	uint32_t nwrite = c->quick ? AC_QUICK_WRITE_OPS : AC_WRITE_OPS;
	uint64_t span_max = c->quick ? AC_QUICK_SPAN_BYTES : AC_SPAN_BYTES;
	bool declared = false, erase = false;
	int app_ok, speed_ok = -1, lvl;
	char app_text[400], speed_text[300];
	struct json *j;

	read_claims(c, &cl);
	ru = c->quick ? AC_QUICK_RU_BLOCKS : AC_RU_BLOCKS;
	/* What the bus carries for the Pw writes (busmodel.h): RUs written
	 * with CMD25 + Auto-CMD12 at the clock and width in use. */
	ceiling = bus_xfer_ceiling_mbs(ru, SD_BLOCK_SIZE, c->card->width, c->card->clock_hz,
				       BUS_MULTI | BUS_STOP | BUS_WRITE);
	au_blocks = (c->quick ? AC_QUICK_AU_BYTES : wlx_au_bytes(c, &declared)) / SD_BLOCK_SIZE;
	if (c->quick)
		declared = false;
	if (au_blocks < ru)
		au_blocks = ru;

	con_printf("\napplication and speed class check (SD Physical Layer 4.16, 4.13; "
		   "MB = 10^6 B)%s\n", c->emulated ? " - emulated: the figures are QEMU's, "
		   "not a card's" : "");
	if (!cl.have)
		con_printf("  the card's SD Status was not read: there is no claim to compare\n");
	else
		print_claims(&cl);

	if (!why) {
		uint32_t ta_end = c->ta->first_lba + c->ta->count, pw_base;

		first = wlx_align_up(c->ta->first_lba, AC_RAND_BLOCKS);
		span_blocks = first < ta_end ? ta_end - first : 0;
		if ((uint64_t)span_blocks * SD_BLOCK_SIZE > span_max)
			span_blocks = (uint32_t)(span_max / SD_BLOCK_SIZE);
		span_blocks -= span_blocks % ru;
		pw_base = wlx_align_up(c->ta->first_lba, au_blocks);
		naus = pw_base < ta_end ? (ta_end - pw_base) / au_blocks : 0;
		if (naus > (c->quick ? AC_QUICK_PW_AUS : AC_PW_AUS))
			naus = c->quick ? AC_QUICK_PW_AUS : AC_PW_AUS;
		/* Large AUs (SDXC: up to 64 MiB): keep Pw to 64 MiB of writes. */
		while (naus > 1 && (uint64_t)naus * au_blocks * SD_BLOCK_SIZE > AC_PW_MAX_BYTES)
			naus--;
		erase = wlx_erase_supported(c);
		if (naus)
			pw = measure_pw(c, pw_base, au_blocks, naus, ru, erase, pw_each, &pw_done);
		else
			wl_skip("class-pw", "the test area holds no whole AU");
		if (span_blocks >= ru && !c->abort_all)
			am.seq_mbs = measure_seq(c, first, &span_blocks, ru);
		if (!c->abort_all)
			am.read_iops = measure_rand(c, false, first, span_blocks, nread, &read_wall);
		if (!c->abort_all)
			am.write_iops = measure_rand(c, true, first, span_blocks, nwrite, &write_wall);
	} else {
		uint64_t left = c->card->blocks > c->read_base ? c->card->blocks - c->read_base : 0;

		first = wlx_align_up(c->read_base, AC_RAND_BLOCKS);
		span_blocks = left > span_max / SD_BLOCK_SIZE ? (uint32_t)(span_max / SD_BLOCK_SIZE)
							      : (uint32_t)left;
		span_blocks = span_blocks > AC_RAND_BLOCKS ? span_blocks - AC_RAND_BLOCKS : 0;
		wl_skip("class-write", why);
		am.read_iops = measure_rand(c, false, first, span_blocks, nread, &read_wall);
	}

	/* Verdicts. The driver enables neither command queue nor cache. */
	app_ok = wla_app_verdict(cl.have ? cl.ssr.app_perf_class : 0, &am, false, app_text,
				 sizeof(app_text));
	if (!cl.have)
		no_ssr_prefix(app_text, sizeof(app_text));
	lvl = wla_app_level(&am);
	if (pw >= 0) {
		speed_ok = wla_speed_verdict(&cl.speed, pw, ceiling, speed_text, sizeof(speed_text));
		if (!cl.have)
			no_ssr_prefix(speed_text, sizeof(speed_text));
	} else
		fmt_snprintf(speed_text, sizeof(speed_text), "Pw not measured (%s)",
			     why ? why : "no whole AU in the test area, or the writes failed");
	con_printf("  application class: %s\n", app_text);
	con_printf("  speed class:       %s\n", speed_text);
	con_printf("  (queue depth 1, no command queue, no cache; card time: host bookkeeping "
		   "between commands excluded; bus %u Hz %u-bit carries at most %.1f MB/s)\n",
		   (unsigned)c->card->clock_hz, (unsigned)c->card->width, ceiling);

	j = record_begin("class");
	json_str(j, "workload", "class");
	json_bool(j, "ssr", cl.have);
	if (cl.have) {
		json_str(j, "app_claim", sd_ssr_app_perf_name(cl.ssr.app_perf_class));
		json_i64(j, "speed_class_claim", cl.speed.speed_class);
		json_u64(j, "uhs_grade_claim", cl.speed.uhs_grade);
		json_u64(j, "video_class_claim", cl.speed.video);
		json_u64(j, "cq_depth", cl.ssr.cq_depth);
		json_bool(j, "cache_support", cl.ssr.cache);
	} else {
		json_null(j, "app_claim");
		json_null(j, "speed_class_claim");
		json_null(j, "uhs_grade_claim");
		json_null(j, "video_class_claim");
	}
	json_u64(j, "area_first_lba", first);
	json_u64(j, "area_bytes", (uint64_t)span_blocks * SD_BLOCK_SIZE);
	json_u64(j, "rand_bytes", AC_RAND_BLOCKS * SD_BLOCK_SIZE);
	json_str(j, "rand_cmd", rand_cmd(c) == WL_MULTI_CMD23 ? "cmd23" : "auto-cmd12");
	json_u64(j, "queue_depth", 1);
	json_bool(j, "cq_enabled", false);
	json_bool(j, "cache_enabled", false);
	json_num_or_null(j, "read_iops", am.read_iops, 1);
	json_num_or_null(j, "write_iops", am.write_iops, 1);
	json_num_or_null(j, "read_iops_wall", read_wall, 1);
	json_num_or_null(j, "write_iops_wall", write_wall, 1);
	json_num_or_null(j, "seq_write_mbs", am.seq_mbs, 3);
	if (lvl >= 0)
		json_u64(j, "app_level_measured", (uint64_t)lvl);
	else
		json_null(j, "app_level_measured");
	if (app_ok >= 0)
		json_bool(j, "app_meets_claim", app_ok == 1);
	else
		json_null(j, "app_meets_claim");
	json_str(j, "app_text", app_text);
	json_u64(j, "au_bytes", (uint64_t)au_blocks * SD_BLOCK_SIZE);
	json_bool(j, "au_declared", declared);
	json_u64(j, "ru_bytes", (uint64_t)ru * SD_BLOCK_SIZE);
	json_bool(j, "pw_erased", erase);
	json_num_or_null(j, "pw_mbs", pw, 3);
	json_arr_begin(j, "pw_au_mbs");
	for (i = 0; i < pw_done; i++)
		json_double(j, NULL, pw_each[i], 3);
	json_arr_end(j);
	if (pw >= 0) {
		json_u64(j, "speed_class_met", wla_speed_class_met(pw));
		json_u64(j, "uhs_grade_met", wla_uhs_grade_met(pw));
		json_u64(j, "video_class_met", wla_video_class_met(pw));
	} else {
		json_null(j, "speed_class_met");
		json_null(j, "uhs_grade_met");
		json_null(j, "video_class_met");
	}
	if (speed_ok >= 0)
		json_bool(j, "speed_meets_claim", speed_ok == 1);
	else
		json_null(j, "speed_meets_claim");
	json_str(j, "speed_text", speed_text);
	json_double(j, "bus_ceiling_mbs", ceiling, 2);
	json_u64(j, "clock_hz", c->card->clock_hz);
	json_u64(j, "width", c->card->width);
	json_bool(j, "emulated", c->emulated);
	record_end();

	if (!why && c->verify)
		wl_verify_written(c, "class");
}

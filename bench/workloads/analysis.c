/*
 * analysis.c - pure decisions of the class, AU, sustained and clock-sweep
 * workloads (see analysis.h).
 *
 * Thresholds: SD Physical Layer Simplified Specification §4.16 (A1: random
 * 4 KiB read >= 1500 IOPS, write >= 500 IOPS, sustained sequential write
 * >= 10 MB/s; A2: 4000 / 2000 / 10 with command queue and cache enabled) and
 * §4.13 (Speed Class 2/4/6/10, UHS Speed Grade 1/3 = 10/30 MB/s, Video Speed
 * Class V6..V90 = 6..90 MB/s of minimum write performance).
 */
#include "bench/workloads/analysis.h"

#include <string.h>

#include "bench/engine/stats.h"
#include "lib/fmt.h"

/* ---- helpers ------------------------------------------------------------- */

uint32_t wla_median_u32(uint32_t *v, unsigned n)
{
	unsigned i, j;

	if (!n)
		return 0;
	/* Insertion sort: the callers' arrays are small (<= a few thousand). */
	for (i = 1; i < n; i++) {
		uint32_t x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return v[(n - 1) / 2];
}

/* Append to buf at *len (bounded, always terminated). */
static void put(char *buf, unsigned cap, unsigned *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void put(char *buf, unsigned cap, unsigned *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= cap)
		return;
	va_start(ap, fmt);
	n = fmt_vsnprintf(buf + *len, cap - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (unsigned)n < cap ? *len + (unsigned)n : cap - 1;
}

/* ---- Application Performance Class --------------------------------------- */

static const struct wla_app_thr app_thr[3] = {
	[WLA_APP_A1] = { 1500.0, 500.0, 10.0 },
	[WLA_APP_A2] = { 4000.0, 2000.0, 10.0 },
};

const struct wla_app_thr *wla_app_threshold(unsigned level)
{
	return (level == WLA_APP_A1 || level == WLA_APP_A2) ? &app_thr[level] : NULL;
}

unsigned wla_app_failures(const struct wla_app_meas *m, unsigned level)
{
	const struct wla_app_thr *t = wla_app_threshold(level);
	unsigned f = 0;

	if (!t)
		return WLA_UNMEASURED;
	if (m->read_iops < 0 || m->write_iops < 0 || m->seq_mbs < 0)
		f |= WLA_UNMEASURED;
	if (m->read_iops >= 0 && m->read_iops < t->read_iops)
		f |= WLA_FAIL_READ;
	if (m->write_iops >= 0 && m->write_iops < t->write_iops)
		f |= WLA_FAIL_WRITE;
	if (m->seq_mbs >= 0 && m->seq_mbs < t->seq_mbs)
		f |= WLA_FAIL_SEQ;
	return f;
}

int wla_app_level(const struct wla_app_meas *m)
{
	if (m->read_iops < 0 || m->write_iops < 0 || m->seq_mbs < 0)
		return -1;
	if (!wla_app_failures(m, WLA_APP_A2))
		return WLA_APP_A2;
	if (!wla_app_failures(m, WLA_APP_A1))
		return WLA_APP_A1;
	return WLA_APP_NONE;
}

/* One measured figure v (fmt, its one %f), or missing when it was not
 * measured (v < 0), and the class's need when there is one (need >= 0). */
static void put_figure(char *buf, unsigned cap, unsigned *len, double v, const char *fmt,
		       const char *missing, double need)
{
	if (v >= 0)
		put(buf, cap, len, fmt, v);
	else
		put(buf, cap, len, "%s", missing);
	if (need >= 0)
		put(buf, cap, len, " (needs %.0f)", need);
}

static void put_figures(char *buf, unsigned cap, unsigned *len, const struct wla_app_meas *m,
			unsigned level)
{
	const struct wla_app_thr *t = wla_app_threshold(level);

	put_figure(buf, cap, len, m->read_iops, "%.0f read IOPS", "read IOPS not measured",
		   t ? t->read_iops : -1);
	put_figure(buf, cap, len, m->write_iops, ", %.0f write IOPS",
		   ", write IOPS not measured", t ? t->write_iops : -1);
	put_figure(buf, cap, len, m->seq_mbs, ", %.2f MB/s sequential write",
		   ", sequential write not measured", t ? t->seq_mbs : -1);
}

int wla_app_verdict(unsigned claim, const struct wla_app_meas *m, bool cq_cache,
		    char *buf, unsigned cap)
{
	unsigned len = 0, f;
	int lvl = wla_app_level(m);

	if (!cap)
		return -1;
	buf[0] = 0;
	if (claim > WLA_APP_A2) {
		put(buf, cap, &len, "card claims a reserved class code %u: measured ", claim);
		put_figures(buf, cap, &len, m, WLA_APP_A1);
		put(buf, cap, &len, " -> %s", lvl < 0 ? "incomplete" :
		    lvl >= 1 ? "at A1 level or better" : "below A1");
		return -1;
	}
	if (claim == WLA_APP_NONE) {
		put(buf, cap, &len, "card claims no application class: measured ");
		put_figures(buf, cap, &len, m, WLA_APP_A1);
		put(buf, cap, &len, " -> %s", lvl < 0 ? "incomplete" :
		    lvl == WLA_APP_A2 ? "A2 figures reached (queue depth 1)" :
		    lvl == WLA_APP_A1 ? "would meet A1" : "below A1");
		return -1;
	}
	if (claim == WLA_APP_A2 && !cq_cache) {
		/* A2 is defined with command queue and cache on; a host without
		 * them can only check the A1 level the card must still give. */
		f = wla_app_failures(m, WLA_APP_A1);
		put(buf, cap, &len, "card claims A2 (needs command queue + cache, not enabled by this "
		    "host): measured ");
		put_figures(buf, cap, &len, m, WLA_APP_A1);
		if (f & WLA_UNMEASURED)
			put(buf, cap, &len, " -> incomplete");
		else if (f)
			put(buf, cap, &len, " -> below even A1");
		else
			put(buf, cap, &len, " -> meets A1 without them; A2 itself %s",
			    wla_app_failures(m, WLA_APP_A2) ? "not verifiable here" :
			    "figures reached even at queue depth 1");
		return f ? ((f & WLA_UNMEASURED) ? -1 : 0) : -1;
	}
	f = wla_app_failures(m, claim);
	put(buf, cap, &len, "card claims A%u: measured ", claim);
	put_figures(buf, cap, &len, m, claim);
	if (f & WLA_UNMEASURED) {
		put(buf, cap, &len, " -> incomplete");
		return -1;
	}
	put(buf, cap, &len, " -> %s A%u", f ? "does not meet" : "meets", claim);
	return f ? 0 : 1;
}

/* ---- speed classes -------------------------------------------------------- */

/* Highest entry of table[] (ascending) that pw_mbs reaches, 0 if none. */
static unsigned highest_met(const unsigned *table, unsigned n, double pw_mbs)
{
	unsigned best = 0, i;

	for (i = 0; i < n; i++)
		if (pw_mbs >= (double)table[i])
			best = table[i];
	return best;
}

static const unsigned speed_tab[] = { 2, 4, 6, 10 };
static const unsigned uhs_mbs_tab[] = { 10, 30 };  /* U1, U3 */
static const unsigned video_tab[] = { 6, 10, 30, 60, 90 };

unsigned wla_speed_class_met(double pw_mbs)
{
	return highest_met(speed_tab, 4, pw_mbs);
}

unsigned wla_uhs_grade_met(double pw_mbs)
{
	unsigned mbs = highest_met(uhs_mbs_tab, 2, pw_mbs);

	return mbs == 30 ? 3 : mbs == 10 ? 1 : 0;
}

unsigned wla_video_class_met(double pw_mbs)
{
	return highest_met(video_tab, 5, pw_mbs);
}

/* One claimed class: "meets"/"does not meet"/"not measurable". */
struct one_claim {
	char name[8];
	unsigned need_mbs;
};

int wla_speed_verdict(const struct wla_speed_claim *claim, double pw_mbs,
		      double bus_ceiling_mbs, char *buf, unsigned cap)
{
	struct one_claim cl[3];
	unsigned n = 0, i, len = 0, met = 0, failed = 0, unmeasurable = 0;

	if (!cap)
		return -1;
	buf[0] = 0;
	if (claim->speed_class > 0) {
		fmt_snprintf(cl[n].name, sizeof(cl[n].name), "C%d", claim->speed_class);
		cl[n++].need_mbs = (unsigned)claim->speed_class;
	}
	if (claim->uhs_grade == 1 || claim->uhs_grade == 3) {
		fmt_snprintf(cl[n].name, sizeof(cl[n].name), "U%u", claim->uhs_grade);
		cl[n++].need_mbs = claim->uhs_grade * 10;
	}
	if (claim->video) {
		fmt_snprintf(cl[n].name, sizeof(cl[n].name), "V%u", claim->video);
		cl[n++].need_mbs = claim->video;
	}
	if (!n) {
		put(buf, cap, &len, "card claims no speed class%s: measured Pw %.2f MB/s -> "
		    "would meet C%u", claim->speed_class < 0 ? " (reserved code)" : "",
		    pw_mbs, wla_speed_class_met(pw_mbs));
		if (wla_uhs_grade_met(pw_mbs))
			put(buf, cap, &len, " U%u", wla_uhs_grade_met(pw_mbs));
		if (wla_video_class_met(pw_mbs))
			put(buf, cap, &len, " V%u", wla_video_class_met(pw_mbs));
		return -1;
	}
	put(buf, cap, &len, "card claims");
	for (i = 0; i < n; i++)
		put(buf, cap, &len, " %s", cl[i].name);
	put(buf, cap, &len, ": measured Pw %.2f MB/s ->", pw_mbs);
	for (i = 0; i < n; i++) {
		const char *sep = i ? "," : "";

		if (pw_mbs >= (double)cl[i].need_mbs) {
			put(buf, cap, &len, "%s meets %s", sep, cl[i].name);
			met++;
		} else if (bus_ceiling_mbs > 0 && bus_ceiling_mbs < (double)cl[i].need_mbs) {
			put(buf, cap, &len, "%s %s not measurable (needs %u MB/s, this bus carries "
			    "%.1f)", sep, cl[i].name, cl[i].need_mbs, bus_ceiling_mbs);
			unmeasurable++;
		} else {
			put(buf, cap, &len, "%s does not meet %s (needs %u MB/s)", sep, cl[i].name,
			    cl[i].need_mbs);
			failed++;
		}
	}
	(void)met;
	if (failed)
		return 0;
	return unmeasurable ? -1 : 1;
}

void wla_no_claim_prefix(char *text, unsigned cap)
{
	char tmp[400];
	unsigned len = 0;

	while (text[len] && text[len] != ':')
		len++;
	fmt_snprintf(tmp, sizeof(tmp), "no SD Status, no claim%s", text + len);
	fmt_snprintf(text, cap, "%s", tmp);
}

void wla_class_verdict(bool have_ssr, unsigned app_claim, const struct wla_speed_claim *speed,
		       const struct wla_app_meas *m, double pw_mbs, double bus_ceiling_mbs,
		       const char *pw_missing, struct wla_class_verdict *out)
{
	out->app_ok = wla_app_verdict(have_ssr ? app_claim : 0, m, false, out->app_text,
				      sizeof(out->app_text));
	if (!have_ssr)
		wla_no_claim_prefix(out->app_text, sizeof(out->app_text));
	out->app_level = wla_app_level(m);
	out->speed_ok = -1;
	out->speed_class_met = pw_mbs >= 0 ? wla_speed_class_met(pw_mbs) : 0;
	out->uhs_grade_met = pw_mbs >= 0 ? wla_uhs_grade_met(pw_mbs) : 0;
	out->video_class_met = pw_mbs >= 0 ? wla_video_class_met(pw_mbs) : 0;
	if (pw_mbs >= 0) {
		out->speed_ok = wla_speed_verdict(speed, pw_mbs, bus_ceiling_mbs, out->speed_text,
						  sizeof(out->speed_text));
		if (!have_ssr)
			wla_no_claim_prefix(out->speed_text, sizeof(out->speed_text));
	} else
		fmt_snprintf(out->speed_text, sizeof(out->speed_text), "Pw not measured (%s)",
			     pw_missing);
}

/* ---- card time ------------------------------------------------------------- */

static uint64_t lat_sum(const uint32_t *lat_ns, uint32_t n)
{
	uint64_t s = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		s += lat_ns[i];
	return s;
}

double wla_card_mbs(const uint32_t *lat_ns, uint32_t n, uint32_t xfer_bytes)
{
	uint64_t ns = lat_sum(lat_ns, n);

	return ns ? (double)n * xfer_bytes * 1000.0 / (double)ns : -1.0;
}

double wla_card_iops(const uint32_t *lat_ns, uint32_t n)
{
	uint64_t ns = lat_sum(lat_ns, n);

	return ns ? (double)n * 1e9 / (double)ns : -1.0;
}

/* ---- alignment step detector -------------------------------------------- */

int64_t wla_align_diff(const struct wla_align_point *p)
{
	return (int64_t)p->on_ns - ((int64_t)p->pre_ns + (int64_t)p->post_ns) / 2;
}

/* 3x the two points' spread, scaled by 2/sqrt(n) beyond 4 samples (the
 * median's uncertainty), n the smaller of the two sample counts. */
static int64_t noise_term(const struct wla_align_point *a, const struct wla_align_point *b)
{
	uint32_t n = a->samples < b->samples ? a->samples : b->samples;
	int64_t sum = 3 * ((int64_t)a->noise_ns + (int64_t)b->noise_ns);
	uint32_t r = 2;

	if (n <= 4)
		return sum;
	while ((r + 1) * (r + 1) <= n) /* integer sqrt: no libm on the target */
		r++;
	return sum * 2 / (int64_t)r;
}

static int64_t step_threshold(const struct wla_align_point *a, const struct wla_align_point *b)
{
	int64_t noise = noise_term(a, b);
	int64_t ref = ((int64_t)b->pre_ns + (int64_t)b->post_ns) / 2;
	int64_t rel = ref / 20; /* 5% */
	int64_t t = 500;

	if (noise > t)
		t = noise;
	if (rel > t)
		t = rel;
	return t;
}

/* The straddling penalty's level over points [from, to) (at most three):
 * their median, so one disturbed point neither makes nor hides a step
 * (of two, the smaller). */
static int64_t level(const struct wla_align_point *p, unsigned from, unsigned to)
{
	int64_t v[3], t;
	unsigned n = 0, i, j;

	for (i = from; i < to && n < 3; i++) {
		t = wla_align_diff(&p[i]);
		for (j = n++; j > 0 && v[j - 1] > t; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
	return n ? v[(n - 1) / 2] : 0;
}

void wla_find_boundary(const struct wla_align_point *p, unsigned n, struct wla_boundary *out)
{
	unsigned k, j;

	out->size_bytes = 0;
	out->first_step_bytes = 0;
	out->step_ns = 0;
	out->steps = 0;
	out->threshold_ns = 0;
	out->inconclusive = false;
	out->candidate_bytes = 0;
	out->candidate_ns = 0;
	/* One threshold for every step, the largest any pair of points needs:
	 * the one the record states, so no boundary is reported with a step
	 * under it (a step that passed a quieter pair's lower threshold was
	 * a false boundary on a noisy card). */
	for (k = 1; k < n; k++) {
		int64_t t = step_threshold(&p[k - 1], &p[k]);

		if (t > out->threshold_ns)
			out->threshold_ns = t;
	}
	for (k = 1; k < n; k++) {
		int64_t before = wla_align_diff(&p[k - 1]), at = wla_align_diff(&p[k]);
		/* and the levels of up to three points each side: a step the
		 * neighbours alone make (one of them disturbed) is not one */
		int64_t shift = level(p, k, k + 3 < n ? k + 3 : n) -
				level(p, k >= 3 ? k - 3 : 0, k);
		int64_t step = at - before < shift ? at - before : shift, t = out->threshold_ns;
		unsigned later = 0, kept = 0;

		/* a boundary costs the straddling read more than its neighbours */
		if (step <= 0 || at <= 0)
			continue;
		for (j = k + 1; j < n; j++) {
			int64_t d = wla_align_diff(&p[j]);

			later++;
			if (d > 0 && d >= before + step / 2)
				kept++;
		}
		/* A step must be confirmed by larger alignments: one seen only at
		 * the largest size tried could be a single disturbed point. */
		if (!later || 4 * kept < 3 * later)
			continue;
		if (step <= t) {
			/* lasting but not significant: undecided when it is at
			 * least half of what the noise lets through */
			if (2 * step >= t && step > out->candidate_ns) {
				out->candidate_bytes = p[k].size_bytes;
				out->candidate_ns = step;
			}
			continue;
		}
		out->steps++;
		if (!out->first_step_bytes)
			out->first_step_bytes = p[k].size_bytes;
		out->size_bytes = p[k].size_bytes;
		out->step_ns = step;
	}
	out->inconclusive = !out->steps && out->candidate_bytes;
}

static uint32_t abs_diff(uint32_t a, uint32_t b)
{
	return a > b ? a - b : b - a;
}

uint32_t wla_mad_u32(uint32_t *v, unsigned n, uint32_t *dev, uint32_t *median)
{
	unsigned i;

	*median = wla_median_u32(v, n);
	for (i = 0; i < n; i++)
		dev[i] = abs_diff(v[i], *median);
	return wla_median_u32(dev, n);
}

void wla_align_point_of(uint32_t size_bytes, uint32_t *pre, uint32_t *on, uint32_t *post,
			unsigned n, uint32_t *dev, struct wla_align_point *out)
{
	out->size_bytes = size_bytes;
	out->samples = n;
	out->noise_ns = wla_mad_u32(on, n, dev, &out->on_ns);
	out->pre_ns = wla_median_u32(pre, n);
	out->post_ns = wla_median_u32(post, n);
}

enum wla_au_match wla_au_match(uint32_t measured_bytes, uint32_t declared_bytes)
{
	if (!measured_bytes)
		return WLA_AU_NO_STEP;
	if (!declared_bytes)
		return WLA_AU_UNDECLARED;
	if (measured_bytes == declared_bytes)
		return WLA_AU_EQUAL;
	return measured_bytes < declared_bytes ? WLA_AU_SMALLER : WLA_AU_LARGER;
}

/* ---- open AUs -------------------------------------------------------------- */

/* A write costs more than rise x the fastest median before it: every
 * write of that N paid it, not a few (a stall moves the median of one N
 * at most). */
static bool oa_above(uint32_t p50, uint32_t base, double rise)
{
	return (double)p50 > (1.0 + rise) * (double)base;
}

void wla_open_au(const unsigned *n_open, const uint32_t *p50_ns, unsigned count, double rise,
		 struct wla_open_au *out)
{
	uint32_t kept[WLA_OPEN_AU_MAX], tmp[WLA_OPEN_AU_MAX];
	unsigned i, nk = 0;

	out->handled = 0;
	out->collapsed = false;
	out->collapse_at = 0;
	out->base_ns = 0;
	out->at_ns = 0;
	for (i = 0; i < count && i < WLA_OPEN_AU_MAX; i++) {
		if (nk && oa_above(p50_ns[i], out->base_ns, rise)) {
			/* one slow N followed by a fast one was the card busy with
			 * something else (garbage collection), not out of open AUs */
			if (i + 1 < count && !oa_above(p50_ns[i + 1], out->base_ns, rise)) {
				out->handled = n_open[i];
				continue;
			}
			out->collapsed = true;
			out->collapse_at = n_open[i];
			out->at_ns = p50_ns[i];
			return;
		}
		/* the base: the median of the Ns handled so far (one fast N
		 * alone would set the bar by its luck) */
		kept[nk++] = p50_ns[i];
		memcpy(tmp, kept, nk * sizeof(kept[0]));
		out->base_ns = wla_median_u32(tmp, nk);
		out->handled = n_open[i];
	}
}

bool wla_open_au_confirmed(const uint32_t *p50_ns, unsigned count, double rise,
			   const struct wla_open_au *r)
{
	return r->collapsed && count >= 2 && oa_above(p50_ns[count - 1], r->base_ns, rise) &&
	       oa_above(p50_ns[count - 2], r->base_ns, rise);
}

/* ---- erase time ------------------------------------------------------------ */

void wla_spread_u32(uint32_t *v, unsigned n, struct wla_spread *out)
{
	unsigned i;

	out->min = 0;
	out->max = 0;
	for (i = 0; i < n; i++) {
		if (!i || v[i] < out->min)
			out->min = v[i];
		if (v[i] > out->max)
			out->max = v[i];
	}
	out->median = wla_median_u32(v, n);
}

double wla_erase_per_au_us(uint64_t multi_ns, unsigned aus, uint32_t single_us)
{
	return ((double)multi_ns / 1e3 - single_us) / (aus - 1);
}

/* ---- knee of a sustained write -------------------------------------------- */

static double rate_mbs(uint64_t bytes, double ns)
{
	return ns > 0 ? (double)bytes * 1000.0 / ns : 0.0;
}

/* The k-th smallest (from 0) of v[from, to), without touching v and without
 * memory: the smallest value x with more than k elements <= x, found by
 * bisection over the 32-bit range (32 passes over the segment). */
static uint32_t seg_kth(const uint32_t *v, uint32_t from, uint32_t to, uint32_t k)
{
	uint32_t lo = 0, hi = 0xffffffffu;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2, cnt = 0, i;

		for (i = from; i < to; i++)
			cnt += v[i] <= mid;
		if (cnt > k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Median of lat[from, to) as wla_median_u32 takes it (the lower one for an
 * even count), without touching lat. 0 for an empty segment. */
static uint32_t seg_median(const uint32_t *lat, uint32_t from, uint32_t to)
{
	return to > from ? seg_kth(lat, from, to, (to - from - 1) / 2) : 0;
}

/* The running median of 5 at i over lat[0, m). */
static uint32_t filtered(const uint32_t *lat, uint32_t i, uint32_t m)
{
	uint32_t lo = i >= 2 ? i - 2 : 0, hi = i + 3 <= m ? i + 3 : m;
	uint32_t w[5], k;

	for (k = lo; k < hi; k++)
		w[k - lo] = lat[k];
	return wla_median_u32(w, hi - lo);
}

/* Two runs [0, k) and [k, m) of the filtered latencies: the k that
 * minimises the summed squared error (0: none). A running median of 5
 * removes isolated stalls (garbage collection) that would otherwise pull
 * the split towards themselves. (A short trailing run could be a burst of
 * stalls: the slow part is kept at least an eighth of the write.) */
static uint32_t knee_split(const uint32_t *lat_ns, uint32_t m)
{
	double s = 0, sq = 0, sl = 0, sql = 0, best = -1;
	uint32_t i, best_k = 0;

	for (i = 0; i < m; i++) {
		double x = filtered(lat_ns, i, m);

		s += x;
		sq += x * x;
	}
	for (i = 0; i + 2 < m; i++) {
		double x = filtered(lat_ns, i, m);
		uint32_t k = i + 1;
		double sr, sqr, err;

		sl += x;
		sql += x * x;
		if (k < 2)
			continue;
		if (m - k < m / 8)
			break;
		sr = s - sl;
		sqr = sq - sql;
		err = (sql - sl * sl / k) + (sqr - sr * sr / (m - k));
		if (best < 0 || err < best) {
			best = err;
			best_k = k;
		}
	}
	return best_k;
}

/* Whether the split at k is a lasting drop: the typical operation after
 * it slower by min_drop, not just the average, and the two runs told apart
 * operation by operation (irregular stalls give medians that differ by
 * chance). */
static bool knee_lasting(const uint32_t *lat_ns, uint32_t m, uint32_t k, double min_drop)
{
	double med0 = seg_median(lat_ns, 0, k);
	double med1 = seg_median(lat_ns, k, m);
	double thr = med0 / (1.0 - min_drop);
	uint32_t i, fast_before = 0, slow_after = 0;

	if (med1 <= 0 || med0 / med1 > 1.0 - min_drop)
		return false;
	for (i = 0; i < m; i++) {
		if (i < k && lat_ns[i] <= thr)
			fast_before++;
		else if (i >= k && lat_ns[i] > thr)
			slow_after++;
	}
	return 8 * fast_before >= 7 * k && 4 * slow_after >= 3 * (m - k);
}

void wla_find_knee(const uint32_t *lat_ns, uint32_t n, uint32_t xfer_bytes, double min_drop,
		   struct wla_knee *out)
{
	uint32_t i, m = n < WLA_KNEE_MAX_OPS ? n : WLA_KNEE_MAX_OPS, best_k;
	double total = 0, before_ns = 0, after_ns = 0;

	out->found = false;
	out->knee_op = 0;
	out->knee_bytes = 0;
	out->worst_ns = 0;
	out->worst_op = 0;
	for (i = 0; i < n; i++) {
		total += lat_ns[i];
		if (lat_ns[i] > out->worst_ns) {
			out->worst_ns = lat_ns[i];
			out->worst_op = i;
		}
	}
	out->median_ns = seg_median(lat_ns, 0, m);
	out->overall_mbs = rate_mbs((uint64_t)n * xfer_bytes, total);
	out->initial_mbs = out->overall_mbs;
	out->steady_mbs = out->overall_mbs;
	if (m < 8)
		return;
	best_k = knee_split(lat_ns, m);
	if (!best_k || !knee_lasting(lat_ns, m, best_k, min_drop))
		return;
	for (i = 0; i < n; i++) {
		if (i < best_k)
			before_ns += lat_ns[i];
		else
			after_ns += lat_ns[i];
	}
	out->found = true;
	out->knee_op = best_k;
	out->knee_bytes = (uint64_t)best_k * xfer_bytes;
	out->initial_mbs = rate_mbs((uint64_t)best_k * xfer_bytes, before_ns);
	out->steady_mbs = rate_mbs((uint64_t)(n - best_k) * xfer_bytes, after_ns);
}

unsigned wla_rate_by_bytes(const uint32_t *lat_ns, uint32_t n, uint32_t xfer_bytes,
			   unsigned points, double *out, uint32_t *group_ops)
{
	uint32_t g = points ? (n + points - 1) / points : 0, i, k = 0;

	*group_ops = g;
	if (!g)
		return 0;
	for (i = 0; i < n; i += g, k++) {
		uint64_t ns = 0;
		uint32_t j, cnt = 0;

		for (j = i; j < i + g && j < n; j++, cnt++)
			ns += lat_ns[j];
		out[k] = ns ? (double)cnt * xfer_bytes * 1000.0 / (double)ns : 0.0;
	}
	return k;
}

/* ---- clock sweep ----------------------------------------------------------- */

bool wla_sweep_fit(const uint32_t *clock_hz, const double *t_s, unsigned n,
		   struct wla_sweep_fit *out)
{
	double x[WLA_SWEEP_MAX_POINTS], y[WLA_SWEEP_MAX_POINTS], tmax;
	struct linfit f;
	unsigned i;

	memset(out, 0, sizeof(*out));
	if (n > WLA_SWEEP_MAX_POINTS)
		n = WLA_SWEEP_MAX_POINTS;
	for (i = 0; i < n; i++) {
		x[i] = 1.0 / clock_hz[i];
		y[i] = t_s[i];
		if (clock_hz[i] > out->fmax_hz)
			out->fmax_hz = clock_hz[i];
	}
	if (n < 2 || !stats_linfit(x, y, n, &f))
		return false;
	out->a_s = f.a;
	out->b_clocks = f.b;
	out->r2 = f.r2;
	out->rms_s = f.rms_residual;
	tmax = f.a + f.b / out->fmax_hz;
	out->bus_pct = tmax > 0 ? 100.0 * (f.b / out->fmax_hz) / tmax : 0.0;
	return true;
}

unsigned wla_best_index(const double *v, unsigned n)
{
	unsigned i, best = n;

	for (i = 0; i < n; i++)
		if (v[i] >= 0 && (best == n || v[i] > v[best]))
			best = i;
	return best;
}

/*
 * stats.c - latency summaries, log histograms, time series, least-squares
 * fit and throughput helpers (see stats.h).
 *
 * Percentiles follow the nearest-rank definition (rank = ceil(P/100 * n)),
 * computed in integers so that e.g. p90 of 10 samples is exactly the 9th.
 * Floating point is soft-float on the target and there is no libm: the
 * square root is a local Newton iteration.
 */
#include "bench/engine/stats.h"

/* ---- sorting ----------------------------------------------------------- */

static void sift_down(uint32_t *v, uint32_t root, uint32_t n)
{
	uint32_t x = v[root];

	for (;;) {
		uint32_t child = 2u * root + 1u;

		if (child >= n)
			break;
		if (child + 1u < n && v[child + 1u] > v[child])
			child++;
		if (v[child] <= x)
			break;
		v[root] = v[child];
		root = child;
	}
	v[root] = x;
}

void stats_sort_u32(uint32_t *v, uint32_t n)
{
	uint32_t i;

	if (n < 2)
		return;
	/* Heapsort: bounded time and no extra memory whatever the input (a
	 * latency array is often nearly sorted or full of ties). */
	for (i = n / 2u; i-- > 0;)
		sift_down(v, i, n);
	for (i = n - 1u; i > 0; i--) {
		uint32_t t = v[0];

		v[0] = v[i];
		v[i] = t;
		sift_down(v, 0, i);
	}
}

/* ---- summaries --------------------------------------------------------- */

double stats_sqrt(double x)
{
	double g, y, next;
	unsigned i;

	if (!(x > 0.0))
		return 0.0;
	/* Start from a power of two within a factor 2 of sqrt(x), so that a
	 * few iterations suffice even for ns^2 values. */
	g = 1.0;
	for (y = x; y >= 4.0; y *= 0.25)
		g *= 2.0;
	for (; y < 0.25; y *= 4.0)
		g *= 0.5;
	/* After one step Newton approaches sqrt(x) from above, decreasing
	 * monotonically: stop when it no longer decreases. */
	g = 0.5 * (g + x / g);
	for (i = 0; i < 64; i++) {
		next = 0.5 * (g + x / g);
		if (!(next < g))
			break;
		g = next;
	}
	return g;
}

uint32_t stats_percentile_sorted(const uint32_t *sorted, uint32_t n, double pct)
{
	uint64_t milli, rank;

	if (n == 0)
		return 0;
	if (!(pct > 0.0))
		return sorted[0];
	if (pct >= 100.0)
		return sorted[n - 1];
	milli = (uint64_t)(pct * 1000.0 + 0.5);
	/* rank = ceil(milli / 100000 * n), 1-based */
	rank = (milli * n + 99999u) / 100000u;
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

void stats_summarise(uint32_t *samples, uint32_t n, struct lat_summary *out)
{
	uint64_t sum = 0;
	double mean, ss = 0.0;
	uint32_t i;

	*out = (struct lat_summary){ 0 };
	if (n == 0)
		return;
	stats_sort_u32(samples, n);
	for (i = 0; i < n; i++)
		sum += samples[i];
	mean = (double)sum / (double)n;
	/* Two passes: the sum of squares of 1M ns values overflows 64 bits
	 * and the one-pass formula loses precision in doubles. */
	for (i = 0; i < n; i++) {
		double d = (double)samples[i] - mean;

		ss += d * d;
	}
	out->count = n;
	out->min_ns = samples[0];
	out->max_ns = samples[n - 1];
	out->sum_ns = sum;
	out->mean_ns = mean;
	out->stddev_ns = n > 1 ? stats_sqrt(ss / (double)(n - 1)) : 0.0;
	out->p50_ns = stats_percentile_sorted(samples, n, 50.0);
	out->p90_ns = stats_percentile_sorted(samples, n, 90.0);
	out->p99_ns = stats_percentile_sorted(samples, n, 99.0);
	out->p999_ns = stats_percentile_sorted(samples, n, 99.9);
}

/* ---- log histogram ----------------------------------------------------- */

/* 2^(j/4) for j = 0..3 in Q24 fixed point (rounded). */
static const uint32_t quarter_octave_q24[4] = {
	16777216u, /* 1 */
	19951585u, /* 2^0.25 = 1.189207115 */
	23726566u, /* 2^0.5  = 1.414213562 */
	28215802u, /* 2^0.75 = 1.681792831 */
};

uint64_t hist_bucket_lo_ns(unsigned k)
{
	uint64_t base;

	if (k == 0)
		return 0;
	if (k > HIST_BUCKETS)
		k = HIST_BUCKETS;
	/* 1000 ns * 2^(k/4), rounded to the nearest ns */
	base = 1000ull << (k / 4u);
	return (base * quarter_octave_q24[k % 4u] + (1u << 23)) >> 24;
}

void hist_init(struct log_hist *h)
{
	unsigned k;

	for (k = 0; k < HIST_BUCKETS; k++)
		h->count[k] = 0;
	h->total = 0;
}

void hist_add(struct log_hist *h, uint32_t ns)
{
	unsigned lo = 0, hi = HIST_BUCKETS - 1u;

	/* Largest k with lo_k <= ns (lo_0 = 0 takes everything small). */
	while (lo < hi) {
		unsigned mid = (lo + hi + 1u) / 2u;

		if (hist_bucket_lo_ns(mid) <= ns)
			lo = mid;
		else
			hi = mid - 1u;
	}
	h->count[lo]++;
	h->total++;
}

/* ---- time series ------------------------------------------------------- */

void series_init(struct series *s, struct series_point *pt, uint32_t max_points,
		 uint64_t interval_ns, uint64_t start_ns)
{
	uint32_t i;

	s->pt = pt;
	s->max_points = pt ? max_points : 0;
	s->npoints = 0;
	s->interval_ns = interval_ns ? interval_ns : 1;
	s->start_ns = start_ns;
	s->dropped = 0;
	s->cur_lo = s->cur_hi = s->cur_start = 0;
	s->cur_idx = 0;
	for (i = 0; i < s->max_points; i++)
		pt[i] = (struct series_point){ 0 };
}

void series_add_spread(struct series *s, uint64_t end_ns, uint32_t bytes, uint32_t lat_ns)
{
	uint64_t idx = 0, first, k, begin, given = 0;
	uint64_t span;
	struct series_point *p;

	/* Fast path: the whole operation inside the interval of the last one
	 * (the same result as below, without the divisions). */
	begin = end_ns > lat_ns ? end_ns - lat_ns : 0;
	if (s->cur_hi && s->cur_start == s->start_ns && begin >= s->cur_lo &&
	    end_ns < s->cur_hi) {
		p = &s->pt[s->cur_idx];
		p->bytes += bytes;
		p->ops++;
		if (lat_ns > p->worst_ns)
			p->worst_ns = lat_ns;
		return;
	}
	if (end_ns > s->start_ns)
		idx = (end_ns - s->start_ns) / s->interval_ns;
	/* The operation ran from end_ns - lat_ns to end_ns: its bytes are
	 * spread over the intervals it spans, in proportion to its time in
	 * each (a 45 ms write in 10 ms intervals is not 0, 0, 0, 0 and then
	 * everything), the remainder of the division going to the last. */
	if (begin < s->start_ns)
		begin = s->start_ns;
	span = end_ns > begin ? end_ns - begin : 0;
	first = begin > s->start_ns ? (begin - s->start_ns) / s->interval_ns : 0;
	for (k = first; span && k < idx && k < s->max_points; k++) {
		uint64_t a = s->start_ns + k * s->interval_ns, e = a + s->interval_ns;
		uint64_t part;

		if (a < begin)
			a = begin;
		part = (uint64_t)bytes * (e - a) / span;
		s->pt[k].bytes += (uint32_t)part;
		given += part;
		if (k + 1u > s->npoints)
			s->npoints = (uint32_t)k + 1u;
	}
	if (idx >= s->max_points) {
		s->dropped++;
		return;
	}
	p = &s->pt[idx];
	p->bytes += (uint32_t)(bytes - given);
	p->ops++;
	if (lat_ns > p->worst_ns)
		p->worst_ns = lat_ns;
	if (idx + 1u > s->npoints)
		s->npoints = (uint32_t)idx + 1u;
	s->cur_idx = (uint32_t)idx;
	s->cur_lo = s->start_ns + idx * s->interval_ns;
	s->cur_hi = s->cur_lo + s->interval_ns;
	s->cur_start = s->start_ns;
}

/* ---- fit and throughput ----------------------------------------------- */

bool stats_linfit(const double *x, const double *y, unsigned n, struct linfit *out)
{
	double mx = 0.0, my = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0, ssr = 0.0;
	unsigned i;

	*out = (struct linfit){ 0 };
	if (n < 2)
		return false;
	for (i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= n;
	my /= n;
	/* Centred sums: x = 1/f is ~1e-8 s, raw sums would cancel badly. */
	for (i = 0; i < n; i++) {
		double dx = x[i] - mx, dy = y[i] - my;

		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
	}
	if (!(sxx > 0.0))
		return false;
	out->b = sxy / sxx;
	out->a = my - out->b * mx;
	for (i = 0; i < n; i++) {
		double r = y[i] - (out->a + out->b * x[i]);

		ssr += r * r;
	}
	out->r2 = syy > 0.0 ? 1.0 - ssr / syy : 1.0;
	out->rms_residual = stats_sqrt(ssr / n);
	return true;
}

double stats_mbs(uint64_t bytes, uint64_t ns)
{
	if (ns == 0)
		return 0.0;
	return (double)bytes * 1e3 / (double)ns;
}

double stats_mibs(uint64_t bytes, uint64_t ns)
{
	if (ns == 0)
		return 0.0;
	return (double)bytes * 1e9 / ((double)ns * 1048576.0);
}

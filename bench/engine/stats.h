/*
 * stats.h - statistics of measured operations: latency summaries with
 * percentiles, logarithmic histograms, per-interval time series, and the
 * least-squares fit T(f) = a + b/f used by the clock sweep.
 *
 * All inputs are nanoseconds (uint32_t: up to 4.29 s per operation, which is
 * longer than any SD timeout). Nothing here allocates: callers give arrays.
 */
#ifndef SDB_BENCH_STATS_H
#define SDB_BENCH_STATS_H

#include <stdbool.h>
#include <stdint.h>

struct lat_summary {
	uint32_t count;
	uint32_t min_ns, max_ns;
	uint64_t sum_ns;
	double mean_ns;
	double stddev_ns;    /* sample standard deviation (n - 1); 0 for n < 2 */
	/* Percentiles by the nearest-rank method (p = ceil(P/100 * n)-th smallest). */
	uint32_t p50_ns, p90_ns, p99_ns, p999_ns;
};

/* Sorts samples in place (ascending) and summarises them. n may be 0
 * (everything 0). */
void stats_summarise(uint32_t *samples, uint32_t n, struct lat_summary *out);
/* Nearest-rank percentile of already sorted samples; pct in (0, 100]
 * (resolution 0.001; out of range values are clamped; n = 0 gives 0). */
uint32_t stats_percentile_sorted(const uint32_t *sorted, uint32_t n, double pct);
/* In-place ascending sort: heapsort, O(n log n), no recursion, no memory. */
void stats_sort_u32(uint32_t *v, uint32_t n);
/* Square root by Newton's method (no libm on the target); x <= 0 gives 0. */
double stats_sqrt(double x);

/* Log histogram: bucket k counts samples in [lo_k, lo_{k+1}) where the
 * bucket edges are 1 us * 2^(k/4) (four buckets per octave) from 1 us up;
 * bucket 0 also takes everything below 1 us, the last everything above. */
#define HIST_BUCKETS 96
struct log_hist {
	uint32_t count[HIST_BUCKETS];
	uint32_t total;
};
void hist_init(struct log_hist *h);
void hist_add(struct log_hist *h, uint32_t ns);
/* Lower edge of bucket k in ns (k = 0 gives 0). */
uint64_t hist_bucket_lo_ns(unsigned k);

/* Time series: per fixed interval, bytes moved and the worst latency. */
struct series_point {
	uint32_t bytes;
	uint32_t ops;
	uint32_t worst_ns;
};
struct series {
	struct series_point *pt; /* caller-provided array */
	uint32_t max_points;
	uint32_t npoints;
	uint64_t interval_ns;
	uint64_t start_ns;
	uint32_t dropped;    /* operations that ended after the last point */
	/* The interval the last operation ended in, [cur_lo, cur_hi) on the
	 * same time base, for start_ns == cur_start (0: none yet): the next
	 * operation usually lies wholly inside it, and then needs no 64-bit
	 * division (a library call on 32-bit ARM, the largest part of the
	 * engine's cost per request). */
	uint64_t cur_lo, cur_hi, cur_start;
	uint32_t cur_idx;
};
void series_init(struct series *s, struct series_point *pt, uint32_t max_points,
		 uint64_t interval_ns, uint64_t start_ns);
/* An operation that took lat_ns and ended at end_ns (same time base as
 * start_ns). Its bytes are spread over the intervals [end - lat, end]
 * spans, in proportion to its time in each (before start_ns: the first);
 * it counts as an operation, and its latency for the worst, in the
 * interval containing end_ns. Intervals without anything stay zero. An
 * operation ending after the last point is dropped (its bytes in earlier
 * points stay). */
void series_add_spread(struct series *s, uint64_t end_ns, uint32_t bytes, uint32_t lat_ns);
/* Inline for the usual case, once per operation of every workload: the
 * whole operation inside the interval of the last one (the same result as
 * series_add_spread(), without its divisions and its call). */
static inline void series_add(struct series *s, uint64_t end_ns, uint32_t bytes,
			      uint32_t lat_ns)
{
	if (s->cur_hi && end_ns < s->cur_hi && end_ns >= s->cur_lo + lat_ns &&
	    s->cur_start == s->start_ns) {
		struct series_point *p = &s->pt[s->cur_idx];

		p->bytes += bytes;
		p->ops++;
		if (lat_ns > p->worst_ns)
			p->worst_ns = lat_ns;
		return;
	}
	series_add_spread(s, end_ns, bytes, lat_ns);
}

/* Least squares of y = a + b * x over n points; r2 and the RMS residual
 * are filled. Returns false when the fit is undetermined (n < 2 or all x
 * equal). For the clock sweep: x = 1/f (s), y = T (s). */
struct linfit {
	double a, b;
	double r2;
	double rms_residual;
};
bool stats_linfit(const double *x, const double *y, unsigned n, struct linfit *out);

/* Throughput helpers: bytes over ns, as 10^6 B/s and 2^20 B/s. */
double stats_mbs(uint64_t bytes, uint64_t ns);
double stats_mibs(uint64_t bytes, uint64_t ns);

#endif

/*
 * test_stats.c - bench/engine/stats.c against hand-computed values: nearest-rank
 * percentiles (ties, n = 1, n = 0), mean and sample stddev, the sort on
 * large arrays, histogram bucket edges, time-series intervals, the
 * least-squares fit on exact and noisy data, MB/s vs MiB/s.
 */
#include <math.h>
#include <stdlib.h>

#include "tests/unit/check.h"
#include "bench/engine/stats.h"

TEST(percentiles_small_set)
{
	uint32_t v[5] = { 5, 1, 3, 2, 4 };
	struct lat_summary s;

	stats_summarise(v, 5, &s);
	CHECK_EQ_U(s.count, 5);
	CHECK_EQ_U(s.min_ns, 1);
	CHECK_EQ_U(s.max_ns, 5);
	CHECK_EQ_U(s.sum_ns, 15);
	/* ranks: p50 ceil(2.5)=3, p90 ceil(4.5)=5, p99 5, p99.9 5 */
	CHECK_EQ_U(s.p50_ns, 3);
	CHECK_EQ_U(s.p90_ns, 5);
	CHECK_EQ_U(s.p99_ns, 5);
	CHECK_EQ_U(s.p999_ns, 5);
	CHECK_EQ_U(stats_percentile_sorted(v, 5, 20.0), 1); /* rank 1 exactly */
	CHECK_EQ_U(stats_percentile_sorted(v, 5, 40.0), 2); /* rank 2 exactly */
	CHECK_EQ_U(stats_percentile_sorted(v, 5, 40.1), 3);
	CHECK_EQ_U(stats_percentile_sorted(v, 5, 100.0), 5);
	CHECK_EQ_U(stats_percentile_sorted(v, 5, 0.001), 1);
	/* sorted in place */
	for (unsigned i = 0; i < 5; i++)
		CHECK_EQ_U(v[i], i + 1);
}

TEST(percentiles_exact_ranks_of_ten)
{
	/* 0.9 * 10 is 9.000000000000002 in doubles: the rank must still be 9 */
	uint32_t v[10] = { 100, 90, 80, 70, 60, 50, 40, 30, 20, 10 };
	struct lat_summary s;

	stats_summarise(v, 10, &s);
	CHECK_EQ_U(s.p50_ns, 50);
	CHECK_EQ_U(s.p90_ns, 90);
	CHECK_EQ_U(s.p99_ns, 100);
	CHECK_EQ_U(s.p999_ns, 100);
	CHECK_EQ_U(stats_percentile_sorted(v, 10, 10.0), 10);
	CHECK_EQ_U(stats_percentile_sorted(v, 10, 70.0), 70);
}

TEST(percentiles_with_ties)
{
	uint32_t v[6] = { 7, 7, 7, 1, 9, 7 };
	struct lat_summary s;

	stats_summarise(v, 6, &s);
	/* sorted 1 7 7 7 7 9: p50 rank 3, p90 rank ceil(5.4)=6 */
	CHECK_EQ_U(s.p50_ns, 7);
	CHECK_EQ_U(s.p90_ns, 9);
	CHECK_EQ_U(s.min_ns, 1);
	CHECK_EQ_U(s.max_ns, 9);
	CHECK_NEAR(s.mean_ns, 38.0 / 6.0, 1e-12);
	CHECK_EQ_U(stats_percentile_sorted(v, 6, 16.7), 7); /* rank ceil(1.002)=2 */
	CHECK_EQ_U(stats_percentile_sorted(v, 6, 16.6), 1);
}

TEST(percentiles_of_1000)
{
	static uint32_t v[1000];
	struct lat_summary s;
	unsigned i;

	srand(1);
	for (i = 0; i < 1000; i++)
		v[i] = i + 1;
	for (i = 999; i > 0; i--) { /* shuffle */
		unsigned j = (unsigned)rand() % (i + 1);
		uint32_t t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
	stats_summarise(v, 1000, &s);
	CHECK_EQ_U(s.p50_ns, 500);
	CHECK_EQ_U(s.p90_ns, 900);
	CHECK_EQ_U(s.p99_ns, 990);
	CHECK_EQ_U(s.p999_ns, 999);
	CHECK_NEAR(s.mean_ns, 500.5, 1e-9);
}

TEST(single_and_empty)
{
	uint32_t one = 12345;
	struct lat_summary s;

	stats_summarise(&one, 1, &s);
	CHECK_EQ_U(s.count, 1);
	CHECK_EQ_U(s.min_ns, 12345);
	CHECK_EQ_U(s.max_ns, 12345);
	CHECK_EQ_U(s.p50_ns, 12345);
	CHECK_EQ_U(s.p999_ns, 12345);
	CHECK_NEAR(s.mean_ns, 12345.0, 0);
	CHECK_NEAR(s.stddev_ns, 0.0, 0);

	s.p50_ns = 99;
	stats_summarise(NULL, 0, &s);
	CHECK_EQ_U(s.count, 0);
	CHECK_EQ_U(s.p50_ns, 0);
	CHECK_EQ_U(s.max_ns, 0);
	CHECK_EQ_U(stats_percentile_sorted(NULL, 0, 50.0), 0);
}

TEST(mean_and_stddev)
{
	/* mean 5, squared deviations sum 32: sample variance 32/7 */
	uint32_t v[8] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct lat_summary s;

	stats_summarise(v, 8, &s);
	CHECK_NEAR(s.mean_ns, 5.0, 1e-12);
	CHECK_NEAR(s.stddev_ns, 2.1380899352993950, 1e-12);

	/* large values: 4e9 and 4e9 + 2 -> mean 4e9 + 1, stddev sqrt(2) */
	uint32_t w[2] = { 4000000002u, 4000000000u };
	stats_summarise(w, 2, &s);
	CHECK_NEAR(s.mean_ns, 4000000001.0, 1e-6);
	CHECK_NEAR(s.stddev_ns, 1.4142135623730951, 1e-9);
	CHECK_EQ_U(s.sum_ns, 8000000002ull);
}

TEST(sqrt_newton)
{
	CHECK_NEAR(stats_sqrt(2.0), 1.4142135623730951, 1e-15);
	CHECK_NEAR(stats_sqrt(1e18), 1e9, 1e-6);
	CHECK_NEAR(stats_sqrt(0.25), 0.5, 1e-16);
	CHECK_NEAR(stats_sqrt(1e-20), 1e-10, 1e-25);
	CHECK_NEAR(stats_sqrt(0.0), 0.0, 0);
	CHECK_NEAR(stats_sqrt(-4.0), 0.0, 0);
	for (double x = 0.001; x < 1e12; x *= 7.3) {
		double r = stats_sqrt(x);

		CHECK_NEAR(r * r, x, x * 1e-14);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

TEST(sort_million_samples)
{
	uint32_t n = 1000000, i;
	uint32_t *v = malloc(n * sizeof(*v)), *ref = malloc(n * sizeof(*v));

	CHECK(v && ref);
	if (!v || !ref)
		return;
	srand(7);
	for (i = 0; i < n; i++) /* many ties: values below 50000 */
		ref[i] = v[i] = ((uint32_t)rand() ^ ((uint32_t)rand() << 15)) % 50000u;
	stats_sort_u32(v, n);
	qsort(ref, n, sizeof(*ref), cmp_u32);
	CHECK(memcmp(v, ref, n * sizeof(*v)) == 0);
	/* already sorted and reverse-sorted input */
	for (i = 0; i < n; i++)
		v[i] = n - i;
	stats_sort_u32(v, n);
	for (i = 1; i < n && v[i - 1] <= v[i]; i++)
		;
	CHECK_EQ_U(i, n);
	CHECK_EQ_U(v[0], 1);
	stats_sort_u32(v, n);
	CHECK_EQ_U(v[n - 1], n);
	free(v);
	free(ref);
}

TEST(histogram_edges)
{
	struct log_hist h;
	unsigned k;
	uint32_t sum = 0;

	CHECK_EQ_U(hist_bucket_lo_ns(0), 0);
	CHECK_EQ_U(hist_bucket_lo_ns(1), 1189);  /* 1000 * 2^0.25 */
	CHECK_EQ_U(hist_bucket_lo_ns(2), 1414);
	CHECK_EQ_U(hist_bucket_lo_ns(3), 1682);
	CHECK_EQ_U(hist_bucket_lo_ns(4), 2000);
	CHECK_EQ_U(hist_bucket_lo_ns(8), 4000);
	CHECK_EQ_U(hist_bucket_lo_ns(40), 1024000);
	CHECK_EQ_U(hist_bucket_lo_ns(41), 1217748); /* 1024000 * 1.189207 */
	for (k = 2; k < HIST_BUCKETS; k++)
		CHECK(hist_bucket_lo_ns(k) > hist_bucket_lo_ns(k - 1));
	/* every edge against the host's libm (the target has none) */
	for (k = 1; k < HIST_BUCKETS; k++) {
		double e = 1000.0 * pow(2.0, k / 4.0);

		CHECK_NEAR((double)hist_bucket_lo_ns(k), e, 0.5 + e * 2e-8);
	}

	hist_init(&h);
	hist_add(&h, 0);
	hist_add(&h, 999);
	hist_add(&h, 1188);
	CHECK_EQ_U(h.count[0], 3);
	hist_add(&h, 1189);
	CHECK_EQ_U(h.count[1], 1);
	hist_add(&h, 1999);
	CHECK_EQ_U(h.count[3], 1);
	hist_add(&h, 2000);
	CHECK_EQ_U(h.count[4], 1);
	hist_add(&h, 1023999);
	CHECK_EQ_U(h.count[39], 1);
	hist_add(&h, 1024000);
	CHECK_EQ_U(h.count[40], 1);
	/* 4.29 s: 1000 * 2^22 = 4194304000 <= max < 1000 * 2^22.25 */
	hist_add(&h, 0xffffffffu);
	CHECK_EQ_U(h.count[88], 1);
	CHECK_EQ_U(h.total, 9);
	for (k = 0; k < HIST_BUCKETS; k++)
		sum += h.count[k];
	CHECK_EQ_U(sum, 9);
}

TEST(series_intervals)
{
	struct series_point pt[4];
	struct series s;

	pt[2].bytes = 77; /* init must clear */
	series_init(&s, pt, 4, 1000, 500);
	series_add(&s, 500, 100, 10);   /* [500, 1500) -> 0 */
	series_add(&s, 1499, 100, 30);  /* 0 */
	series_add(&s, 1520, 200, 20);  /* 1: ran [1500, 1520] */
	series_add(&s, 100, 50, 5);     /* before start -> 0 */
	series_add(&s, 3600, 400, 50);  /* 3 */
	series_add(&s, 4500, 1, 1);     /* after the last point: dropped */
	CHECK_EQ_U(s.npoints, 4);
	CHECK_EQ_U(s.dropped, 1);
	CHECK_EQ_U(pt[0].bytes, 250);
	CHECK_EQ_U(pt[0].ops, 3);
	CHECK_EQ_U(pt[0].worst_ns, 30);
	CHECK_EQ_U(pt[1].bytes, 200);
	CHECK_EQ_U(pt[1].worst_ns, 20);
	CHECK_EQ_U(pt[2].bytes, 0);
	CHECK_EQ_U(pt[2].ops, 0);
	CHECK_EQ_U(pt[3].ops, 1);
	CHECK_EQ_U(pt[3].worst_ns, 50);

	series_init(&s, pt, 4, 1000, 0);
	series_add(&s, 1200, 1, 1);
	CHECK_EQ_U(s.npoints, 2);
}

/* A 45 ms write in 10 ms intervals: 4.5 intervals of a steady rate, not
 * 0, 0, 0, 0 and then all of it. The total stays exact. */
TEST(series_spreads_an_operation_over_its_intervals)
{
	struct series_point pt[8];
	struct series s;
	uint32_t k, sum = 0;

	series_init(&s, pt, 8, 10000000, 0);
	series_add(&s, 50000000, 589824, 45000000); /* 576 KiB from 5 to 50 ms */
	CHECK_EQ_U(s.npoints, 6);
	CHECK_EQ_U(pt[0].bytes, 65536);   /* 5 of its 45 ms */
	CHECK_EQ_U(pt[1].bytes, 131072);  /* 10 of 45 */
	CHECK_EQ_U(pt[4].bytes, 131072);
	CHECK_EQ_U(pt[5].bytes, 0);       /* it ended exactly at 50 ms */
	for (k = 0; k < 8; k++)
		sum += pt[k].bytes;
	CHECK_EQ_U(sum, 589824);
	CHECK_EQ_U(pt[5].ops, 1);         /* counted where it ended */
	CHECK_EQ_U(pt[5].worst_ns, 45000000);
	CHECK_EQ_U(pt[0].ops + pt[1].ops + pt[4].ops, 0);
	/* uneven division: the remainder goes to the last interval */
	series_init(&s, pt, 8, 10000000, 0);
	series_add(&s, 25000000, 1000, 30000000); /* began before the start */
	CHECK_EQ_U(pt[0].bytes + pt[1].bytes + pt[2].bytes, 1000);
	CHECK_EQ_U(pt[0].bytes, 400);
	CHECK_EQ_U(pt[1].bytes, 400);
	/* past the last point: the op is dropped, its earlier bytes stay */
	series_init(&s, pt, 2, 10000000, 0);
	series_add(&s, 30000000, 300, 30000000);
	CHECK_EQ_U(s.dropped, 1);
	CHECK_EQ_U(pt[0].bytes + pt[1].bytes, 200);
}

TEST(linfit_exact)
{
	double x[5] = { 1, 2, 3, 4, 5 }, y[5];
	struct linfit f;
	unsigned i;

	for (i = 0; i < 5; i++)
		y[i] = 3.0 + 2.0 * x[i];
	CHECK(stats_linfit(x, y, 5, &f));
	CHECK_NEAR(f.a, 3.0, 1e-12);
	CHECK_NEAR(f.b, 2.0, 1e-12);
	CHECK_NEAR(f.r2, 1.0, 1e-12);
	CHECK_NEAR(f.rms_residual, 0.0, 1e-12);
}

TEST(linfit_noisy_known_residual)
{
	/* mx 1.5, my 2.5, Sxx 5, Sxy 4: b 0.8, a 1.3; residuals -0.3 0.9
	 * -0.9 0.3: SSres 1.8, rms sqrt(0.45), Syy 5, r2 0.64 */
	double x[4] = { 0, 1, 2, 3 }, y[4] = { 1, 3, 2, 4 };
	struct linfit f;

	CHECK(stats_linfit(x, y, 4, &f));
	CHECK_NEAR(f.b, 0.8, 1e-12);
	CHECK_NEAR(f.a, 1.3, 1e-12);
	CHECK_NEAR(f.r2, 0.64, 1e-12);
	CHECK_NEAR(f.rms_residual, 0.6708203932499369, 1e-12);
}

TEST(linfit_clock_sweep)
{
	/* T(f) = a + b/f with a = 2 ms, b = 0.5 s*Hz, x = 1/f */
	double hz[5] = { 400e3, 10e6, 20.8e6, 25e6, 50e6 }, x[5], y[5];
	struct linfit f;
	unsigned i;

	for (i = 0; i < 5; i++) {
		x[i] = 1.0 / hz[i];
		y[i] = 0.002 + 0.5 * x[i];
	}
	CHECK(stats_linfit(x, y, 5, &f));
	CHECK_NEAR(f.a, 0.002, 1e-12);
	CHECK_NEAR(f.b, 0.5, 1e-9);
	CHECK_NEAR(f.r2, 1.0, 1e-9);
	CHECK(f.rms_residual < 1e-12);
}

TEST(linfit_undetermined)
{
	double x[3] = { 2, 2, 2 }, y[3] = { 1, 2, 3 };
	struct linfit f;

	CHECK(!stats_linfit(x, y, 1, &f));
	CHECK(!stats_linfit(x, y, 3, &f));
	CHECK(!stats_linfit(x, y, 0, &f));
}

TEST(throughput_units)
{
	CHECK_NEAR(stats_mbs(1048576, 1000000000ull), 1.048576, 1e-12);
	CHECK_NEAR(stats_mibs(1048576, 1000000000ull), 1.0, 1e-12);
	CHECK_NEAR(stats_mbs(1000000, 1000000), 1000.0, 1e-9);
	CHECK_NEAR(stats_mibs(1000000, 1000000), 1000.0 / 1.048576, 1e-9);
	CHECK_NEAR(stats_mbs(512, 0), 0.0, 0);
	CHECK_NEAR(stats_mibs(512, 0), 0.0, 0);
}

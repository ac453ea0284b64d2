/*
 * test_wl_analysis.c - the pure decisions of the class, AU and sustained
 * workloads (bench/workloads/analysis.c) on synthetic measurements: class
 * thresholds and verdict texts, the alignment step detector, the open-AU
 * collapse point and the cache-full knee of a sustained write.
 */
#include <string.h>

#include "bench/workloads/analysis.h"
#include "lib/fmt.h"
#include "tests/unit/check.h"

/* ---- application class ---------------------------------------------------- */

TEST(app_thresholds_are_the_spec_values)
{
	const struct wla_app_thr *a1 = wla_app_threshold(1), *a2 = wla_app_threshold(2);

	CHECK(a1 && a2);
	CHECK_NEAR(a1->read_iops, 1500, 0);
	CHECK_NEAR(a1->write_iops, 500, 0);
	CHECK_NEAR(a1->seq_mbs, 10, 0);
	CHECK_NEAR(a2->read_iops, 4000, 0);
	CHECK_NEAR(a2->write_iops, 2000, 0);
	CHECK_NEAR(a2->seq_mbs, 10, 0);
	CHECK(wla_app_threshold(0) == NULL);
	CHECK(wla_app_threshold(3) == NULL);
}

TEST(app_level_edges)
{
	struct wla_app_meas m = { 1500, 500, 10 };

	CHECK_EQ_I(wla_app_level(&m), 1);              /* exactly on the line meets */
	m.read_iops = 1499.9;
	CHECK_EQ_I(wla_app_level(&m), 0);
	CHECK_EQ_U(wla_app_failures(&m, 1), WLA_FAIL_READ);
	m.read_iops = 4000;
	m.write_iops = 2000;
	CHECK_EQ_I(wla_app_level(&m), 2);
	m.seq_mbs = 9.99;
	CHECK_EQ_I(wla_app_level(&m), 0);
	CHECK_EQ_U(wla_app_failures(&m, 2), WLA_FAIL_SEQ);
	m.write_iops = -1;                              /* not measured */
	CHECK_EQ_I(wla_app_level(&m), -1);
	CHECK(wla_app_failures(&m, 1) & WLA_UNMEASURED);
	CHECK(wla_app_failures(&m, 1) & WLA_FAIL_SEQ);
}

TEST(app_verdict_claimed_a1_failing_read)
{
	struct wla_app_meas m = { 1320, 610, 18.2 };
	char buf[400];

	CHECK_EQ_I(wla_app_verdict(1, &m, false, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "card claims A1: measured 1320 read IOPS (needs 1500), 610 write IOPS "
		  "(needs 500), 18.20 MB/s sequential write (needs 10) -> does not meet A1");
}

TEST(app_verdict_claimed_a1_met)
{
	struct wla_app_meas m = { 2100, 800, 12 };
	char buf[400];

	CHECK_EQ_I(wla_app_verdict(1, &m, false, buf, sizeof(buf)), 1);
	CHECK(strstr(buf, "-> meets A1") != NULL);
}

TEST(app_verdict_a2_without_cq_is_judged_on_a1)
{
	struct wla_app_meas m = { 2100, 800, 12 };
	char buf[400];

	/* A2 cannot be confirmed without CQ/cache: "cannot tell". */
	CHECK_EQ_I(wla_app_verdict(2, &m, false, buf, sizeof(buf)), -1);
	CHECK(strstr(buf, "meets A1 without them") != NULL);
	m.write_iops = 300;
	CHECK_EQ_I(wla_app_verdict(2, &m, false, buf, sizeof(buf)), 0);
	CHECK(strstr(buf, "below even A1") != NULL);
	/* With CQ/cache the A2 thresholds apply directly. */
	m.write_iops = 800;
	CHECK_EQ_I(wla_app_verdict(2, &m, true, buf, sizeof(buf)), 0);
	CHECK(strstr(buf, "does not meet A2") != NULL);
}

TEST(app_verdict_no_claim_and_truncation)
{
	struct wla_app_meas m = { 1600, 700, 11 };
	char buf[400], tiny[16];

	CHECK_EQ_I(wla_app_verdict(0, &m, false, buf, sizeof(buf)), -1);
	CHECK(strstr(buf, "would meet A1") != NULL);
	wla_app_verdict(1, &m, false, tiny, sizeof(tiny));
	CHECK_EQ_U(strlen(tiny), sizeof(tiny) - 1);
}

/* ---- speed classes ----------------------------------------------------------- */

TEST(speed_class_tables)
{
	CHECK_EQ_U(wla_speed_class_met(1.9), 0);
	CHECK_EQ_U(wla_speed_class_met(2.0), 2);
	CHECK_EQ_U(wla_speed_class_met(5.99), 4);
	CHECK_EQ_U(wla_speed_class_met(9.9), 6);
	CHECK_EQ_U(wla_speed_class_met(25), 10);
	CHECK_EQ_U(wla_uhs_grade_met(9.9), 0);
	CHECK_EQ_U(wla_uhs_grade_met(10), 1);
	CHECK_EQ_U(wla_uhs_grade_met(30), 3);
	CHECK_EQ_U(wla_video_class_met(5), 0);
	CHECK_EQ_U(wla_video_class_met(29), 10);
	CHECK_EQ_U(wla_video_class_met(95), 90);
}

TEST(speed_verdict_met_failed_unmeasurable)
{
	struct wla_speed_claim cl = { 10, 1, 10 };
	char buf[300];

	CHECK_EQ_I(wla_speed_verdict(&cl, 12.31, 24.5, buf, sizeof(buf)), 1);
	CHECK_STR(buf, "card claims C10 U1 V10: measured Pw 12.31 MB/s -> meets C10, meets U1, meets V10");
	CHECK_EQ_I(wla_speed_verdict(&cl, 8.0, 24.5, buf, sizeof(buf)), 0);
	CHECK(strstr(buf, "does not meet C10 (needs 10 MB/s)") != NULL);
	/* U3 needs 30 MB/s: on a 25 MB/s bus that is not a failure of the card. */
	cl.uhs_grade = 3;
	cl.video = 30;
	CHECK_EQ_I(wla_speed_verdict(&cl, 22.0, 24.5, buf, sizeof(buf)), -1);
	CHECK(strstr(buf, "U3 not measurable") != NULL);
	CHECK(strstr(buf, "meets C10") != NULL);
	/* ... but a card slower than a class the bus could carry fails it. */
	CHECK_EQ_I(wla_speed_verdict(&cl, 22.0, 48.0, buf, sizeof(buf)), 0);
	CHECK(strstr(buf, "does not meet U3") != NULL);
	cl.speed_class = 0;
	cl.uhs_grade = 0;
	cl.video = 0;
	CHECK_EQ_I(wla_speed_verdict(&cl, 7.0, 24.5, buf, sizeof(buf)), -1);
	CHECK(strstr(buf, "would meet C6 V6") != NULL);
}

/* ---- alignment detector -------------------------------------------------------- */

/* ---- the class check's verdicts and card-time rates ---------------------- */

TEST(no_claim_prefix)
{
	char t[64] = "card claims A1: measured 1 -> x", u[16] = "no colon here", v[20];

	wla_no_claim_prefix(t, sizeof(t));
	CHECK_STR(t, "no SD Status, no claim: measured 1 -> x");
	wla_no_claim_prefix(u, sizeof(u));
	CHECK_STR(u, "no SD Status, n");             /* bounded by cap */
	fmt_snprintf(v, sizeof(v), "card claims C4: Pw");
	wla_no_claim_prefix(v, sizeof(v));
	CHECK_STR(v, "no SD Status, no cl");         /* terminated */
}

TEST(class_verdict_with_and_without_an_sd_status)
{
	struct wla_speed_claim none = { 0, 0, 0 }, c10u1 = { 10, 1, 0 };
	struct wla_app_meas m = { 1600, 700, 12.0 };
	struct wla_class_verdict v;

	wla_class_verdict(true, WLA_APP_A1, &c10u1, &m, 11.5, 20.0, "unused", &v);
	CHECK_EQ_I(v.app_ok, 1);
	CHECK_EQ_I(v.app_level, 1);
	CHECK(strstr(v.app_text, "card claims A1: measured 1600 read IOPS") == v.app_text);
	CHECK_EQ_I(v.speed_ok, 1);
	CHECK_STR(v.speed_text, "card claims C10 U1: measured Pw 11.50 MB/s -> meets C10, meets U1");
	CHECK_EQ_U(v.speed_class_met, 10);
	CHECK_EQ_U(v.uhs_grade_met, 1);
	CHECK_EQ_U(v.video_class_met, 10);
	/* No SD Status: judged as "no claim", and the texts say the claim is unknown. */
	wla_class_verdict(false, WLA_APP_A2, &none, &m, 11.5, 20.0, "unused", &v);
	CHECK_EQ_I(v.app_ok, -1);
	CHECK(strstr(v.app_text, "no SD Status, no claim: measured 1600 read IOPS") == v.app_text);
	CHECK(strstr(v.app_text, "-> would meet A1") != NULL);
	CHECK_STR(v.speed_text, "no SD Status, no claim: measured Pw 11.50 MB/s -> would meet C10 U1 V10");
	CHECK_EQ_I(v.speed_ok, -1);
	/* Pw not measured. */
	m.write_iops = -1;
	wla_class_verdict(true, WLA_APP_A1, &c10u1, &m, -1.0, 20.0, "no test area", &v);
	CHECK_EQ_I(v.app_ok, -1);
	CHECK_EQ_I(v.app_level, -1);
	CHECK_EQ_I(v.speed_ok, -1);
	CHECK_STR(v.speed_text, "Pw not measured (no test area)");
	CHECK_EQ_U(v.speed_class_met, 0);
}

TEST(card_time_rates)
{
	uint32_t lat[4] = { 1000000, 2000000, 500000, 500000 }; /* 4 ms in all */

	CHECK_NEAR(wla_card_iops(lat, 4), 1000.0, 1e-9);
	CHECK_NEAR(wla_card_mbs(lat, 4, 4096), 4.096, 1e-9);
	CHECK_NEAR(wla_card_iops(lat, 0), -1.0, 0);
	CHECK_NEAR(wla_card_mbs(lat, 0, 4096), -1.0, 0);
}

/* A card with a flash page of page bytes and erase blocks of eb bytes:
 * reading across a page costs page_ns more, across an erase block eb_ns. */
static void synth_align(struct wla_align_point *p, unsigned n, uint32_t page, uint32_t eb,
			uint32_t page_ns, uint32_t eb_ns, uint32_t jitter)
{
	unsigned k;
	uint32_t size = 16u << 10;

	for (k = 0; k < n; k++, size <<= 1) {
		p[k].size_bytes = size;
		p[k].pre_ns = 300000 + (k * 7919 % 5) * jitter;
		p[k].post_ns = 300000 + (k * 104729 % 3) * jitter;
		p[k].on_ns = 300000 + (size >= page ? page_ns : 0) + (size >= eb ? eb_ns : 0) +
			     (k * 31 % 4) * jitter;
		p[k].noise_ns = jitter;
		p[k].samples = 0;
	}
}

TEST(align_finds_erase_block)
{
	struct wla_align_point p[10]; /* 16 KiB .. 8 MiB */
	struct wla_boundary b;

	synth_align(p, 10, 32u << 10, 4u << 20, 40000, 250000, 2000);
	wla_find_boundary(p, 10, &b);
	CHECK_EQ_U(b.size_bytes, 4u << 20);
	CHECK_EQ_U(b.first_step_bytes, 32u << 10);
	CHECK_EQ_U(b.steps, 2);
	CHECK_NEAR((double)b.step_ns, 250000, 10000);
}

TEST(align_flat_timing_has_no_boundary)
{
	struct wla_align_point p[10];
	struct wla_boundary b;

	synth_align(p, 10, 1u << 30, 1u << 30, 0, 0, 3000);
	wla_find_boundary(p, 10, &b);
	CHECK_EQ_U(b.size_bytes, 0);
	CHECK_EQ_U(b.steps, 0);
}

TEST(align_single_spike_is_not_a_boundary)
{
	struct wla_align_point p[10];
	struct wla_boundary b;

	synth_align(p, 10, 1u << 30, 1u << 30, 0, 0, 1000);
	p[4].on_ns += 200000; /* one disturbed size, gone at the next */
	wla_find_boundary(p, 10, &b);
	CHECK_EQ_U(b.size_bytes, 0);
	/* The same rise kept by the larger sizes is a boundary. */
	p[5].on_ns += 200000;
	p[6].on_ns += 200000;
	p[7].on_ns += 200000;
	p[8].on_ns += 200000;
	p[9].on_ns += 200000;
	wla_find_boundary(p, 10, &b);
	CHECK_EQ_U(b.size_bytes, p[4].size_bytes);
}

/* A generated card's noisy points (tests/sim/test_bench_au.c, card 159):
 * the rise from the disturbed point before 256 KiB passes the threshold by
 * itself, the levels either side do not: inconclusive, no boundary (the
 * card's step, 76 us at 512 KiB, is under its threshold). */
TEST(align_rise_after_one_low_point_is_not_a_boundary)
{
	static const int32_t diff[10] = { -12000, 17760, -17196, -37452, 65736, 20676, 46824,
					  21060, 86724, 62580 };
	struct wla_align_point p[10];
	struct wla_boundary b;
	unsigned k;

	for (k = 0; k < 10; k++) {
		p[k].size_bytes = 16384u << k;
		p[k].samples = 16;
		p[k].pre_ns = p[k].post_ns = 700000;
		p[k].on_ns = (uint32_t)(700000 + diff[k]);
		p[k].noise_ns = 34000;   /* threshold 1.5 x (34 + 34) us = 102 us */
	}
	wla_find_boundary(p, 10, &b);
	CHECK_EQ_I(b.threshold_ns, 102000);
	CHECK_EQ_U(b.size_bytes, 0);
	CHECK(b.inconclusive);
	CHECK_EQ_U(b.candidate_bytes, 256u << 10);
}

TEST(align_step_at_the_largest_size_is_unconfirmed)
{
	struct wla_align_point p[8]; /* 16 KiB .. 2 MiB */
	struct wla_boundary b;

	synth_align(p, 8, 1u << 30, 2u << 20, 0, 250000, 1000);
	wla_find_boundary(p, 8, &b);
	CHECK_EQ_U(b.size_bytes, 0);
	synth_align(p, 8, 1u << 30, 1u << 20, 0, 250000, 1000);
	wla_find_boundary(p, 8, &b);
	CHECK_EQ_U(b.size_bytes, 1u << 20);
}

TEST(align_step_below_noise_is_ignored)
{
	struct wla_align_point p[8];
	struct wla_boundary b;

	synth_align(p, 8, 1u << 30, 256u << 10, 0, 12000, 5000); /* step < 3x noise x2 */
	wla_find_boundary(p, 8, &b);
	CHECK_EQ_U(b.size_bytes, 0);
	synth_align(p, 8, 1u << 30, 256u << 10, 0, 60000, 5000);
	wla_find_boundary(p, 8, &b);
	CHECK_EQ_U(b.size_bytes, 256u << 10);
	CHECK_EQ_I(wla_align_diff(&p[0]) < 20000, 1);
}

TEST(align_negative_penalties_are_no_boundary)
{
	struct wla_align_point p[8]; /* 16 KiB .. 2 MiB */
	struct wla_boundary b;
	unsigned k;

	/* Straddling reads faster than their neighbours everywhere (an
	 * emulator's noise), with a lasting rise at 1 MiB that stays below 0:
	 * no boundary, and nothing to be undecided about. */
	synth_align(p, 8, 1u << 30, 1u << 30, 0, 0, 1000);
	for (k = 0; k < 8; k++)
		p[k].on_ns -= k >= 6 ? 20000 : 80000;
	wla_find_boundary(p, 8, &b);
	CHECK_EQ_U(b.size_bytes, 0);
	CHECK_EQ_U(b.steps, 0);
	CHECK(!b.inconclusive);
	for (k = 0; k < 8; k++)
		CHECK(wla_align_diff(&p[k]) < 0);
}

TEST(align_small_lasting_step_is_inconclusive_and_more_samples_decide)
{
	struct wla_align_point p[8];
	struct wla_boundary b;
	unsigned k;

	/* A 0.59 ms step at 256 KiB under a threshold of 3 x (2 x 187 us) =
	 * 1.12 ms (four samples a point): undecided, and it says so. */
	synth_align(p, 8, 1u << 30, 256u << 10, 0, 590000, 0);
	for (k = 0; k < 8; k++)
		p[k].noise_ns = 186667;
	wla_find_boundary(p, 8, &b);
	CHECK_EQ_U(b.size_bytes, 0);
	CHECK(b.inconclusive);
	CHECK_EQ_U(b.candidate_bytes, 256u << 10);
	CHECK_NEAR((double)b.candidate_ns, 590000, 1);
	CHECK_NEAR((double)b.threshold_ns, 1120002, 2);
	/* 64 boundaries a point: the medians are 4 times as sure */
	for (k = 0; k < 8; k++)
		p[k].samples = 64;
	wla_find_boundary(p, 8, &b);
	CHECK_EQ_U(b.size_bytes, 256u << 10);
	CHECK(!b.inconclusive);
	CHECK_NEAR((double)b.threshold_ns, 280000, 2);
	/* a rise under half the threshold is noise, not a question */
	synth_align(p, 8, 1u << 30, 256u << 10, 0, 500000, 0);
	for (k = 0; k < 8; k++)
		p[k].noise_ns = 186667;
	wla_find_boundary(p, 8, &b);
	CHECK(!b.inconclusive);
	CHECK_EQ_U(b.size_bytes, 0);
}

TEST(align_point_from_samples)
{
	uint32_t pre[5] = { 310, 300, 305, 900, 302 };
	uint32_t on[5] = { 400, 420, 380, 10000, 410 };
	uint32_t post[5] = { 301, 299, 298, 297, 500 };
	uint32_t dev[5], v[4] = { 10, 20, 40, 30 }, med;
	struct wla_align_point p;

	wla_align_point_of(32768, pre, on, post, 5, dev, &p);
	CHECK_EQ_U(p.size_bytes, 32768);
	CHECK_EQ_U(p.pre_ns, 305);
	CHECK_EQ_U(p.on_ns, 410);
	CHECK_EQ_U(p.post_ns, 299);
	CHECK_EQ_U(p.noise_ns, 10);   /* |400,420,380,10000,410 - 410| -> 10,10,30,9590,0 */
	CHECK_EQ_I((int)wla_align_diff(&p), 410 - (305 + 299) / 2);
	CHECK_EQ_U(wla_mad_u32(v, 4, dev, &med), 10); /* median 20: 10,0,20,10 -> 10 */
	CHECK_EQ_U(med, 20);
	CHECK_EQ_U(wla_mad_u32(v, 0, dev, &med), 0);
	CHECK_EQ_U(med, 0);
}

TEST(au_match)
{
	CHECK_EQ_I(wla_au_match(0, 4u << 20), WLA_AU_NO_STEP);
	CHECK_EQ_I(wla_au_match(0, 0), WLA_AU_NO_STEP);
	CHECK_EQ_I(wla_au_match(1u << 20, 0), WLA_AU_UNDECLARED);
	CHECK_EQ_I(wla_au_match(4u << 20, 4u << 20), WLA_AU_EQUAL);
	CHECK_EQ_I(wla_au_match(1u << 20, 4u << 20), WLA_AU_SMALLER);
	CHECK_EQ_I(wla_au_match(8u << 20, 4u << 20), WLA_AU_LARGER);
}

/* ---- open AUs ------------------------------------------------------------------ */

TEST(open_au_collapse)
{
	unsigned n[] = { 1, 2, 3, 4, 5, 6, 8 };
	uint32_t p50[] = { 4000, 3800, 4100, 3900, 4000, 9000, 9500 };
	struct wla_open_au r;

	wla_open_au(n, p50, 7, 0.2, &r);
	CHECK(r.collapsed);
	CHECK_EQ_U(r.handled, 5);
	CHECK_EQ_U(r.collapse_at, 6);
	CHECK_EQ_U(r.base_ns, 4000); /* the median of the five before */
	CHECK_EQ_U(r.at_ns, 9000);
	p50[5] = 4500; /* within 20% of the median before: no collapse */
	p50[6] = 4550;
	wla_open_au(n, p50, 7, 0.2, &r);
	CHECK(!r.collapsed);
	CHECK_EQ_U(r.handled, 8);
	p50[2] = 12000; /* one slow N between fast ones: a stall, handled */
	wla_open_au(n, p50, 7, 0.2, &r);
	CHECK(!r.collapsed);
	CHECK_EQ_U(r.handled, 8);
	wla_open_au(n, p50, 0, 0.2, &r);
	CHECK_EQ_U(r.handled, 0);
}

TEST(open_au_collapse_confirmed_by_a_second_n)
{
	unsigned n[4] = { 1, 2, 3, 4 };
	uint32_t p50[4] = { 1000, 1100, 2000, 2100 };
	struct wla_open_au r;

	wla_open_au(n, p50, 3, 0.2, &r);   /* one point above: not yet */
	CHECK(r.collapsed);
	CHECK(!wla_open_au_confirmed(p50, 3, 0.2, &r));
	wla_open_au(n, p50, 4, 0.2, &r);   /* the next one too: confirmed */
	CHECK(wla_open_au_confirmed(p50, 4, 0.2, &r));
	p50[2] = 1200;                     /* exactly 1.2x is no collapse */
	wla_open_au(n, p50, 3, 0.2, &r);
	CHECK(!r.collapsed);
	CHECK(!wla_open_au_confirmed(p50, 3, 0.2, &r));
	wla_open_au(n, p50, 1, 0.2, &r);
	CHECK(!wla_open_au_confirmed(p50, 1, 0.2, &r));
}

TEST(open_au_one_slow_n_between_fast_ones_is_a_stall)
{
	/* garbage collection doubles N=5's median write; N=6 is fast again */
	unsigned n[7] = { 1, 2, 3, 4, 5, 6, 7 };
	uint32_t p50[7] = { 910, 870, 910, 870, 1800, 870, 9000 };
	struct wla_open_au r;

	wla_open_au(n, p50, 6, 0.2, &r);
	CHECK(!r.collapsed);
	CHECK_EQ_U(r.handled, 6);
	CHECK(!wla_open_au_confirmed(p50, 6, 0.2, &r));
	/* the last point alone below: a collapse, not yet confirmed */
	wla_open_au(n, p50, 7, 0.2, &r);
	CHECK(r.collapsed);
	CHECK_EQ_U(r.collapse_at, 7);
	CHECK_EQ_U(r.handled, 6);
	CHECK(!wla_open_au_confirmed(p50, 7, 0.2, &r));
}

/* ---- erase time ------------------------------------------------------------------ */

TEST(erase_spread_and_per_au_cost)
{
	uint32_t t[5] = { 900, 300, 500, 700, 400 }, one[1] = { 42 };
	struct wla_spread sp;

	wla_spread_u32(t, 5, &sp);
	CHECK_EQ_U(sp.min, 300);
	CHECK_EQ_U(sp.median, 500);
	CHECK_EQ_U(sp.max, 900);
	wla_spread_u32(one, 1, &sp);
	CHECK_EQ_U(sp.min, 42);
	CHECK_EQ_U(sp.median, 42);
	CHECK_EQ_U(sp.max, 42);
	wla_spread_u32(t, 0, &sp);
	CHECK_EQ_U(sp.min, 0);
	CHECK_EQ_U(sp.median, 0);
	CHECK_EQ_U(sp.max, 0);
	/* 4 AUs at once in 2.5 ms, one alone 1 ms: 0.5 ms per further AU */
	CHECK_NEAR(wla_erase_per_au_us(2500000, 4, 1000), 500.0, 1e-9);
	/* erasing several at once can be faster than one alone */
	CHECK_NEAR(wla_erase_per_au_us(800000, 2, 1000), -200.0, 1e-9);
}

/* ---- knee ------------------------------------------------------------------------ */

TEST(knee_cache_full)
{
	static uint32_t lat[200];
	struct wla_knee k;
	unsigned i;

	/* 4 MiB writes: 100 ms (41.9 MB/s) for the first 60, then 400 ms
	 * (10.5 MB/s) with jitter and one 2.5 s stall. */
	for (i = 0; i < 200; i++)
		lat[i] = (i < 60 ? 100000000u : 400000000u) + (i * 2654435761u % 7) * 1000000u;
	lat[150] = 2500000000u;
	wla_find_knee(lat, 200, 4u << 20, 0.2, &k);
	CHECK(k.found);
	CHECK_EQ_U(k.knee_op, 60);
	CHECK_EQ_U(k.knee_bytes, 60ull * (4u << 20));
	CHECK(k.initial_mbs > 39.0 && k.initial_mbs < 42.0);
	CHECK(k.steady_mbs < 11.0 && k.steady_mbs > 9.0);
	CHECK_EQ_U(k.worst_op, 150);
	CHECK_EQ_U(k.worst_ns, 2500000000u);
}

TEST(knee_none_on_flat_write_with_stalls)
{
	static uint32_t lat[100];
	struct wla_knee k;
	unsigned i;

	for (i = 0; i < 100; i++)
		lat[i] = 200000000u + (i % 5) * 3000000u;
	lat[10] = 1500000000u; /* GC stalls early and late */
	lat[90] = 1500000000u;
	wla_find_knee(lat, 100, 4u << 20, 0.2, &k);
	CHECK(!k.found);
	CHECK_NEAR(k.initial_mbs, k.steady_mbs, 1e-9);
	CHECK_EQ_U(k.worst_ns, 1500000000u);
	CHECK_EQ_U(k.median_ns, 206000000u);
}

TEST(knee_small_drop_rejected_and_tiny_input)
{
	static uint32_t lat[50];
	struct wla_knee k;
	unsigned i;

	for (i = 0; i < 50; i++)
		lat[i] = i < 25 ? 100000 : 115000; /* 13% slower: below min_drop */
	wla_find_knee(lat, 50, 65536, 0.2, &k);
	CHECK(!k.found);
	wla_find_knee(lat, 50, 65536, 0.1, &k);
	CHECK(k.found);
	CHECK_EQ_U(k.knee_op, 25);
	wla_find_knee(lat, 3, 65536, 0.1, &k);
	CHECK(!k.found);
	wla_find_knee(lat, 0, 65536, 0.1, &k);
	CHECK(!k.found);
	CHECK_NEAR(k.overall_mbs, 0, 0);
}

/* Irregular stalls (garbage collection) on a card without a cache: no
 * seed of a heavy-tailed random series may produce a knee. */
TEST(knee_none_on_random_stalls)
{
	static uint32_t lat[64];
	unsigned seed, i, found = 0;

	for (seed = 1; seed <= 200; seed++) {
		uint32_t x = seed * 2654435761u;
		struct wla_knee k;

		for (i = 0; i < 64; i++) {
			x = x * 1664525u + 1013904223u;
			/* 2 ms base, one op in four stalls 10..200 ms */
			lat[i] = 2000000u + ((x >> 8) % 4 == 0 ? 10000000u + (x >> 12) % 190000000u
							  : (x >> 16) % 500000u);
		}
		wla_find_knee(lat, 64, 131072, 0.2, &k);
		found += k.found;
	}
	CHECK_EQ_U(found, 0);
}

/* The medians inside the knee search work on the samples in place, without
 * scratch memory: the lower median for an even count, the full 32-bit
 * range, and only the first WLA_KNEE_MAX_OPS operations. */
TEST(knee_medians_without_scratch)
{
	static uint32_t lat[2 * WLA_KNEE_MAX_OPS + 100];
	uint32_t four[4] = { 0xffffffffu, 0, 7, 0xfffffffeu }, copy[4];
	uint32_t top[5] = { 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu };
	struct wla_knee k;
	unsigned i;

	memcpy(copy, four, sizeof(copy));
	wla_find_knee(four, 4, 512, 0.2, &k);
	CHECK_EQ_U(k.median_ns, 7);
	CHECK(memcmp(four, copy, sizeof(copy)) == 0); /* the samples stay in issue order */
	CHECK_EQ_U(k.worst_ns, 0xffffffffu);
	CHECK_EQ_U(k.worst_op, 0);
	wla_find_knee(top, 5, 512, 0.2, &k);
	CHECK_EQ_U(k.median_ns, 0xffffffffu);
	for (i = 0; i < 2 * WLA_KNEE_MAX_OPS + 100; i++)
		lat[i] = i < WLA_KNEE_MAX_OPS ? 100 + i % 3 : 1;
	lat[WLA_KNEE_MAX_OPS + 10] = 5000;
	wla_find_knee(lat, 2 * WLA_KNEE_MAX_OPS + 100, 512, 0.2, &k);
	CHECK_EQ_U(k.median_ns, 101);  /* the fast tail is not searched */
	CHECK(!k.found);
	CHECK_EQ_U(k.worst_ns, 5000);  /* but every operation counts for the worst */
	CHECK_EQ_U(k.worst_op, WLA_KNEE_MAX_OPS + 10);
}

TEST(rate_by_bytes)
{
	uint32_t lat[70], group = 99;
	double r[32];
	unsigned i;

	for (i = 0; i < 70; i++)
		lat[i] = i < 40 ? 1000000 : 4000000;   /* 1 ms, then 4 ms per 64 KiB */
	CHECK_EQ_U(wla_rate_by_bytes(lat, 70, 65536, 32, r, &group), 24);
	CHECK_EQ_U(group, 3);                       /* ceil(70 / 32) */
	CHECK_NEAR(r[0], 65.536, 1e-9);
	CHECK_NEAR(r[13], 3 * 65536 * 1000.0 / 9000000, 1e-9); /* ops 39, 40, 41: 1 + 4 + 4 ms */
	CHECK_NEAR(r[14], 16.384, 1e-9);
	CHECK_NEAR(r[23], 16.384, 1e-9);           /* the last group holds one operation */
	CHECK_EQ_U(wla_rate_by_bytes(lat, 5, 65536, 32, r, &group), 5);
	CHECK_EQ_U(group, 1);
	CHECK_EQ_U(wla_rate_by_bytes(lat, 0, 65536, 32, r, &group), 0);
	CHECK_EQ_U(group, 0);
}

/* ---- clock sweep fit ---------------------------------------------------------- */

TEST(sweep_fit_recovers_a_and_b)
{
	uint32_t hz[4] = { 400000, 12500000, 25000000, 50000000 };
	double t[4];
	struct wla_sweep_fit f;
	unsigned i;

	/* 300 us of card and host, 140000 bus clocks per operation */
	for (i = 0; i < 4; i++)
		t[i] = 300e-6 + 140000.0 / hz[i];
	CHECK(wla_sweep_fit(hz, t, 4, &f));
	CHECK_NEAR(f.a_s, 300e-6, 1e-12);
	CHECK_NEAR(f.b_clocks, 140000.0, 1e-3);
	CHECK_NEAR(f.r2, 1.0, 1e-9);
	CHECK_NEAR(f.rms_s, 0.0, 1e-12);
	CHECK_EQ_U(f.fmax_hz, 50000000);
	CHECK_NEAR(f.bus_pct, 100.0 * 2800e-6 / 3100e-6, 1e-6);
	CHECK(!wla_sweep_fit(hz, t, 1, &f));     /* one point: no fit */
	CHECK_EQ_U(f.fmax_hz, 400000);
	hz[1] = 400000;
	CHECK(!wla_sweep_fit(hz, t, 2, &f));     /* two points at one clock */
}

TEST(median)
{
	uint32_t v[] = { 5, 1, 4, 2, 3 }, w[] = { 8, 2, 6, 4 };

	CHECK_EQ_U(wla_median_u32(v, 5), 3);
	CHECK_EQ_U(v[0], 1);
	CHECK_EQ_U(wla_median_u32(w, 4), 4);
	CHECK_EQ_U(wla_median_u32(w, 0), 0);
}

/* The host comparison's fastest row: the largest value, failed rows (< 0)
 * never, n when none. */
TEST(best_index_of_the_host_comparison)
{
	const double v[] = { 7.2, -1.0, 9.5, 9.5, 3.0 };
	const double none[] = { -1.0, -1.0 };

	CHECK_EQ_U(wla_best_index(v, 5), 2);
	CHECK_EQ_U(wla_best_index(v, 2), 0);
	CHECK_EQ_U(wla_best_index(none, 2), 2);
	CHECK_EQ_U(wla_best_index(v, 0), 0);
}

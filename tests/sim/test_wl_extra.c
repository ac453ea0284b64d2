/*
 * test_wl_extra.c - the class, AU and sustained workloads (bench/workloads/app_class.h, au.h, sustained.h)
 * on simulated cards whose truth is known: the knee of a card with a 1 MiB
 * write cache, no knee on a card without one, random-read IOPS against the
 * simulator's own record of every request, no alignment step on a card that
 * has none, the erase record, the skip paths, and that no write or erase
 * ever leaves the test area.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/busmodel.h"
#include "bench/workloads/app_class.h"
#include "bench/workloads/au.h"
#include "bench/workloads/sustained.h"
#include "bench/engine/workload.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "sim/sim_records.h"
#include "tests/unit/check.h"

#define MEM_BYTES (24u << 20)
#define TA_FIRST  (1u << 21)   /* 1 GiB */
#define TA_COUNT  (1u << 17)   /* 64 MiB */

static char out[1 << 20];
static uint8_t *mem;
static struct simh sh;
static struct test_area ta;
static struct write_guard guard;
static struct wl_ctx ctx;

/* The card p on the default simulated host, the test area (usable or
 * none), the workload context and a fresh console capture. */
static int setup_p(const struct sim_profile *p, bool quick, bool usable)
{
	int r;

	if (!mem)
		mem = malloc(MEM_BYTES);
	r = simh_start_p(&sh, p, NULL);
	if (r)
		return r;
	memset(&ta, 0, sizeof(ta));
	ta.usable = usable;
	ta.source = usable ? TEST_AREA_CONFIG : TEST_AREA_NONE;
	ta.first_lba = TA_FIRST;
	ta.count = TA_COUNT;
	simh_wl_ctx(&sh, &ta, true, quick, mem, MEM_BYTES, &guard, &ctx);
	simh_capture_start(out, sizeof(out));
	sim_truth_reset();
	return 0;
}

static int setup(const char *profile, bool quick, bool usable)
{
	return setup_p(sim_profile_find(profile), quick, usable);
}

/* setup() on a copy of a built-in profile with its SD Status AU (AU_SIZE
 * code) and the number of AUs it keeps open changed; the open-AU model
 * then works on the declared AU (open_au_size unset). */
static int setup_au(const char *base, uint8_t au_code, uint32_t open_aus)
{
	static struct sim_profile p;
	char err[160];

	if (sim_profile_load(base, &p, err, sizeof(err)))
		return -1;
	p.au_size = au_code;
	p.open_aus = open_aus;
	p.open_au_bytes = 0;
	return setup_p(&p, true, true);
}

static void done(void)
{
	simh_capture_stop();
}

static const char *rec(const char *type)
{
	return simrec_last(out, type, NULL, NULL);
}

static double num(const char *line, const char *key)
{
	return simrec_num(line, key);
}

static bool has(const char *line, const char *text)
{
	const char *end = line ? strchr(line, '\n') : NULL;
	const char *p = line ? strstr(line, text) : NULL;

	return p && (!end || p < end);
}

/* Every write and erase command the card saw stayed inside the test area
 * (SDSC cards take byte addresses). */
static unsigned writes_outside(void)
{
	unsigned i, bad = 0, n = sim_truth_count();
	uint32_t div = sh.card.high_capacity ? 1 : 512;

	for (i = 0; i < n; i++) {
		const struct sim_truth *t = sim_truth_get(i);
		uint32_t lba;

		if (!t || (t->flags & SIM_T_APP))
			continue;
		lba = t->arg / div;
		if (t->cmd == 24 || t->cmd == 25) {
			if (lba < TA_FIRST || lba + (t->blocks ? t->blocks : 1) > TA_FIRST + TA_COUNT)
				bad++;
		} else if (t->cmd == 32 || t->cmd == 33) {
			if (lba < TA_FIRST || lba >= TA_FIRST + TA_COUNT)
				bad++;
		}
	}
	return bad;
}

static unsigned count_cmd(uint8_t cmd)
{
	unsigned i, k = 0, n = sim_truth_count();

	for (i = 0; i < n; i++) {
		const struct sim_truth *t = sim_truth_get(i);

		if (t && !(t->flags & SIM_T_APP) && t->cmd == cmd)
			k++;
	}
	return k;
}

/* The Pw the simulator saw: the 8 RU writes (64 KiB into the 512 KiB AU of
 * the quick profile) that follow the first erase, MB/s; 0 if not found. */
static double truth_pw(void)
{
	unsigned i, n = sim_truth_count(), seen = 0;
	bool after_erase = false;
	double ns = 0;

	for (i = 0; i < n && seen < 8; i++) {
		const struct sim_truth *t = sim_truth_get(i);

		if (!t || (t->flags & SIM_T_APP))
			continue;
		if (t->cmd == 38)
			after_erase = true;
		else if (after_erase && t->cmd == 25) {
			ns += (double)(t->t_end_ns - t->t_issue_ns);
			seen++;
		}
	}
	return seen == 8 ? (512u << 10) * 1000.0 / ns : 0;
}

TEST(sustained_finds_the_1mib_cache)
{
	const char *r;
	double knee;

	CHECK_EQ_I(setup("sdhc-small-cache-8g", true, true), 0);
	wl_sustained(&ctx);
	done();
	r = rec("sustained");
	CHECK(r != NULL);
	printf("  %.*s\n", (int)(strchr(r, '\n') - r), r);
	CHECK_EQ_I(num(r, "knee_found"), 1);
	/* 2048 cache blocks + what drained (1 block/ms) while writing them. */
	knee = num(r, "knee_bytes");
	CHECK(knee >= (1u << 20) && knee <= (1u << 20) + (256u << 10));
	CHECK(num(r, "initial_mbs") > 5.0);
	/* Once full, the cache takes a block only as fast as it drains one
	 * (1 block/ms = 0.512 MB/s): that is the steady rate. */
	CHECK(num(r, "steady_mbs") > 0.45 && num(r, "steady_mbs") < 0.6);
	CHECK(num(r, "worst_ns") >= num(r, "median_op_ns"));
	CHECK(rec("series") != NULL);
	CHECK_EQ_U(writes_outside(), 0);
}

TEST(sustained_no_knee_without_cache)
{
	const char *r;

	CHECK_EQ_I(setup("sdhc-slow-writer-8g", true, true), 0);
	wl_sustained(&ctx);
	done();
	r = rec("sustained");
	CHECK(r != NULL);
	CHECK_EQ_I(num(r, "knee_found"), 0);
	CHECK(isnan(num(r, "knee_bytes")));
	CHECK_NEAR(num(r, "initial_mbs"), num(r, "steady_mbs"), 1e-3);
	CHECK_EQ_U(writes_outside(), 0);
}

TEST(sustained_worst_stall_matches_the_truth)
{
	const char *r;
	unsigned i, n;
	double worst_truth = 0, worst;

	CHECK_EQ_I(setup("sdhc-gc-stalls-16g", true, true), 0);
	wl_sustained(&ctx);
	done();
	r = rec("sustained");
	CHECK(r != NULL);
	n = sim_truth_count();
	for (i = 0; i < n; i++) {
		const struct sim_truth *t = sim_truth_get(i);

		if (t && t->cmd == 25 && (double)(t->t_end_ns - t->t_issue_ns) > worst_truth)
			worst_truth = (double)(t->t_end_ns - t->t_issue_ns);
	}
	printf("  %.*s\n", (int)(strchr(r, '\n') - r), r);
	worst = num(r, "worst_ns");
	printf("  worst stall %.3f ms, simulator truth %.3f ms, knee %s\n", worst / 1e6,
	       worst_truth / 1e6, num(r, "knee_found") == 1 ? "yes" : "no");
	CHECK(worst_truth >= 100e6); /* the profile stalls 100..600 ms */
	CHECK_EQ_I(num(r, "knee_found"), 0); /* stalls, no cache exhausted */
	CHECK(worst >= worst_truth);
	CHECK(worst <= worst_truth + 1e6);
	CHECK_EQ_U(writes_outside(), 0);
}

TEST(app_class_a1_card)
{
	const char *r;
	unsigned i, n, reads = 0;
	double sum_ns = 0, truth_iops, iops;

	CHECK_EQ_I(setup("sdhc-a1-32g", true, true), 0);
	wl_app_class(&ctx);
	done();
	r = rec("class");
	CHECK(r != NULL);
	printf("  %.*s\n", (int)(strchr(r, '\n') - r), r);
	CHECK(has(r, "\"app_claim\":\"A1\""));
	CHECK_EQ_I(num(r, "speed_class_claim"), 10);
	CHECK_EQ_I(num(r, "uhs_grade_claim"), 1);
	CHECK_EQ_I(num(r, "video_class_claim"), 10);
	CHECK(has(r, "card claims A1: measured"));
	CHECK(has(r, "\"rand_cmd\":\"cmd23\"")); /* the profile supports CMD23 */
	CHECK(has(r, "card claims C10 U1 V10: measured Pw"));
	CHECK(!isnan(num(r, "pw_mbs")));
	CHECK(!isnan(num(r, "seq_write_mbs")));
	/* The random-read figure against the simulator's own request times:
	 * the measured time includes the driver's own work, so it is a bit
	 * lower, never higher. */
	n = sim_truth_count();
	for (i = 0; i < n; i++) {
		const struct sim_truth *t = sim_truth_get(i);

		if (t && t->cmd == 18 && t->blocks == 8) {
			sum_ns += (double)(t->t_end_ns - t->t_issue_ns);
			reads++;
		}
	}
	CHECK(reads > 0);
	truth_iops = reads ? reads * 1e9 / sum_ns : 0;
	iops = num(r, "read_iops");
	printf("  read IOPS %.1f, simulator truth %.1f\n", iops, truth_iops);
	CHECK(iops <= truth_iops * 1.001);
	CHECK(iops >= truth_iops * 0.85);
	CHECK(num(r, "app_level_measured") >= 0);
	/* Pw against the truth. */
	{
		double pw = num(r, "pw_mbs"), tp = truth_pw();

		printf("  Pw %.3f MB/s, simulator truth %.3f\n", pw, tp);
		CHECK(tp > 0);
		CHECK(pw <= tp * 1.001);
		CHECK(pw >= tp * 0.9);
	}
	CHECK_EQ_U(count_cmd(38), 1); /* the quick profile erases one AU for Pw */
	CHECK_EQ_U(writes_outside(), 0);
	/* The bus ceiling of the speed verdict is the bus model's, for the Pw
	 * writes: RUs of CMD25 + Auto-CMD12 at the clock and width in use. */
	{
		double ru = num(r, "ru_bytes") / 512.0;
		double want = bus_xfer_ceiling_mbs((uint32_t)ru, 512, sh.card.width,
						   sh.card.clock_hz,
						   BUS_MULTI | BUS_STOP | BUS_WRITE);

		printf("  bus ceiling %.2f MB/s, model %.4f\n", num(r, "bus_ceiling_mbs"), want);
		CHECK(ru >= 1);
		CHECK(fabs(num(r, "bus_ceiling_mbs") - want) < 0.005 + 1e-9);
		CHECK(num(r, "pw_mbs") < want);
	}
}

/* Card time of the simulator's requests of one kind: command index and
 * block count, optionally only after the first CMD38. */
static double truth_rate(uint8_t cmd, uint32_t blocks, unsigned *count)
{
	unsigned i, n = sim_truth_count();
	double ns = 0;

	*count = 0;
	for (i = 0; i < n; i++) {
		const struct sim_truth *t = sim_truth_get(i);

		if (t && !(t->flags & SIM_T_APP) && t->cmd == cmd && t->blocks == blocks) {
			ns += (double)(t->t_end_ns - t->t_issue_ns);
			(*count)++;
		}
	}
	return *count ? *count * 1e9 / ns : 0;
}

/* Every writable profile: the class check's random IOPS agree with the
 * simulator's own request times. The measured time also holds the card
 * layer's own work around the request, so it may be lower, never higher. */
TEST(app_class_iops_match_the_truth_on_every_profile)
{
	unsigned i, runs = 0;
	double worst_r = 0, worst_w = 0, worst_p = 0;

	for (i = 0; i < sim_profile_count(); i++) {
		const struct sim_profile *p = sim_profile_get(i);
		unsigned nr, nw;
		double tr, tw, r_iops, w_iops, dr, dw, tp, dp;
		const char *r;

		if (p->wp_switch || p->csd_tmp_wp || p->real_bytes ||
		    p->capacity_bytes < (uint64_t)(TA_FIRST + TA_COUNT) * 512)
			continue;
		if (setup(p->name, true, true))
			continue;
		wl_app_class(&ctx);
		done();
		r = rec("class");
		CHECK(r != NULL);
		if (!r)
			continue;
		tr = truth_rate(18, 8, &nr);
		tw = truth_rate(25, 8, &nw);
		r_iops = num(r, "read_iops");
		w_iops = num(r, "write_iops");
		dr = tr > 0 ? (tr - r_iops) / tr : 1;
		dw = tw > 0 ? (tw - w_iops) / tw : 1;
		tp = truth_pw();
		dp = tp > 0 ? (tp - num(r, "pw_mbs")) / tp : 1;
		CHECK(dp > -0.001 && dp < 0.05);
		if (dp > worst_p)
			worst_p = dp;
		printf("  %-22s read %8.1f IOPS (truth %8.1f, %5.2f%% lower), write %7.1f (truth "
		       "%7.1f, %5.2f%% lower)\n", p->name, r_iops, tr, 100 * dr, w_iops, tw, 100 * dw);
		CHECK(nr > 0 && nw > 0);
		CHECK(dr > -0.001 && dr < 0.05);
		CHECK(dw > -0.001 && dw < 0.05);
		CHECK_EQ_U(writes_outside(), 0);
		if (dr > worst_r)
			worst_r = dr;
		if (dw > worst_w)
			worst_w = dw;
		runs++;
	}
	printf("  %u profiles; worst: read %.2f%%, write %.2f%%, Pw %.2f%% below the truth\n",
	       runs, 100 * worst_r, 100 * worst_w, 100 * worst_p);
	CHECK(runs >= 10);
}

TEST(app_class_read_only_without_test_area)
{
	const char *r;

	CHECK_EQ_I(setup("sdhc-a1-32g", true, false), 0);
	wl_app_class(&ctx);
	done();
	r = rec("class");
	CHECK(r != NULL);
	CHECK(!isnan(num(r, "read_iops")));
	CHECK(isnan(num(r, "write_iops")));
	CHECK(isnan(num(r, "app_meets_claim")));
	CHECK(has(r, "incomplete"));
	CHECK(rec("skipped") != NULL);
	CHECK_EQ_U(count_cmd(24) + count_cmd(25) + count_cmd(38), 0);
}

TEST(app_class_without_sd_status_claims_nothing)
{
	const char *r;

	CHECK_EQ_I(setup("sdhc-a1-32g", true, true), 0);
	sh.card.have_ssr = false;
	wl_app_class(&ctx);
	done();
	r = rec("class");
	CHECK(r != NULL);
	CHECK_EQ_I(num(r, "ssr"), 0);
	CHECK(isnan(num(r, "speed_class_claim")));
	CHECK(has(r, "\"app_text\":\"no SD Status, no claim: measured "));
	CHECK(has(r, "\"speed_text\":\"no SD Status, no claim: measured Pw "));
	CHECK(isnan(num(r, "app_meets_claim")) && isnan(num(r, "speed_meets_claim")));
}

TEST(au_detect_finds_no_step_on_a_card_without_one)
{
	const char *r;

	CHECK_EQ_I(setup("sdhc-c10-16g", false, true), 0);
	wl_au_detect(&ctx);
	done();
	r = rec("au");
	CHECK(r != NULL);
	printf("  %.*s\n", (int)(strchr(r, '\n') - r), r);
	CHECK(isnan(num(r, "measured_bytes")));
	CHECK_EQ_I(num(r, "declared_au_bytes"), 4u << 20);
	CHECK(has(r, "\"match\":\"unknown\""));
	CHECK_EQ_U(count_cmd(24) + count_cmd(25) + count_cmd(38), 0); /* read-only */
}

TEST(open_au_and_erase_records)
{
	const char *r;

	CHECK_EQ_I(setup("sdhc-c10-16g", true, true), 0);
	wl_open_au(&ctx);
	wl_erase_per_au(&ctx);
	done();
	r = rec("open_au");
	CHECK(r != NULL);
	printf("  %.*s\n", (int)(strchr(r, '\n') - r), r);
	/* the quick list goes to 9; this card keeps every AU open */
	CHECK_EQ_I(num(r, "handled"), 9);
	CHECK_EQ_I(num(r, "collapsed"), 0);
	/* its SD Status declares 4 MiB (AU_SIZE 9): the quick profile uses it */
	CHECK_EQ_I(num(r, "au_bytes"), 4u << 20);
	CHECK(has(r, "\"au_declared\":true"));
	r = rec("erase");
	CHECK(r != NULL);
	printf("  %.*s\n", (int)(strchr(r, '\n') - r), r);
	CHECK_EQ_I(num(r, "count"), 2);
	/* erase_base is 2 ms + exp(2 ms) plus 250 us per AU touched. */
	CHECK(num(r, "min_us") >= 2000);
	CHECK(num(r, "max_us") < 60000);
	CHECK(!isnan(num(r, "timeout_ms_1au")));
	CHECK_EQ_U(count_cmd(38), 3);
	CHECK_EQ_U(writes_outside(), 0);
}

/* The quick profile's open-AU step on the AU the card declares: a card
 * keeping 2 AUs of 4 MiB or of 16 MiB open collapses at 3 (written as
 * 256 KiB AUs, both would look like one open AU and never collapse). */
TEST(open_au_uses_the_declared_au_of_4_and_16_mib)
{
	static const uint8_t code[2] = { 9, 12 };   /* AU_SIZE: 4 MiB, 16 MiB */
	static const uint32_t bytes[2] = { 4u << 20, 16u << 20 };
	unsigned k;

	for (k = 0; k < 2; k++) {
		const char *r;

		CHECK_EQ_I(setup_au("sdhc-a1-32g", code[k], 2), 0);
		wl_open_au(&ctx);
		wl_erase_per_au(&ctx);
		done();
		r = rec("open_au");
		CHECK(r != NULL);
		if (!r)
			continue;
		printf("  %.*s\n", (int)(strchr(r, '\n') - r), r);
		CHECK_EQ_I(num(r, "au_bytes"), bytes[k]);
		CHECK(has(r, "\"au_declared\":true"));
		CHECK(has(r, "\"collapsed\":true"));
		CHECK_EQ_I(num(r, "collapse_at"), 3);
		CHECK_EQ_I(num(r, "handled"), 2);
		r = rec("erase");
		CHECK(r != NULL && num(r, "au_bytes") == bytes[k]);
		CHECK_EQ_U(writes_outside(), 0);
	}
}

/* Every number of open AUs from 1 to 8 is found (4 MiB AUs). */
TEST(open_au_finds_one_to_eight_open_aus)
{
	uint32_t k;

	for (k = 1; k <= 8; k++) {
		const char *r;

		CHECK_EQ_I(setup_au("sdhc-a1-32g", 9, k), 0);
		wl_open_au(&ctx);
		done();
		r = rec("open_au");
		CHECK(r != NULL);
		if (!r)
			continue;
		printf("  open_aus %u: %.*s\n", (unsigned)k, (int)(strchr(r, '\n') - r), r);
		CHECK_EQ_I(num(r, "handled"), k);
		CHECK_EQ_I(num(r, "collapse_at"), k + 1);
		CHECK_EQ_U(writes_outside(), 0);
	}
}

TEST(write_protected_card_skips_every_write_workload)
{
	CHECK_EQ_I(setup("wp-switch-8g", true, true), 0);
	wl_sustained(&ctx);
	wl_open_au(&ctx);
	wl_erase_per_au(&ctx);
	done();
	CHECK(strstr(out, "\"workload\":\"sustained-write\",\"reason\":\"the card is write-protected")
	      != NULL);
	CHECK(strstr(out, "\"workload\":\"open-au\"") != NULL);
	CHECK(strstr(out, "\"workload\":\"erase-au\"") != NULL);
	CHECK(rec("sustained") == NULL);
	CHECK_EQ_U(count_cmd(24) + count_cmd(25) + count_cmd(38), 0);
}

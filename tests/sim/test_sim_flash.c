/*
 * test_sim_flash.c - the flash workloads end to end, against the values in
 * the card profiles (sim/profiles): the erase-block size the
 * alignment test finds, the open-AU limit the round-robin test finds, the
 * effect of ACMD23 pre-erase, the erase time per AU, and the bus time the
 * clock sweep's fit recovers (compared with the wire truth, on a host
 * whose controller adds gaps the framing model does not know).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/workload.h"
#include "bench/engine/workload_report.h"
#include "bench/workloads/app_class.h"
#include "bench/workloads/au.h"
#include "bench/workloads/basic.h"
#include "bench/workloads/clock_sweep.h"
#include "bench/workloads/sustained.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "sim/sim_records.h"
#include "tests/unit/check.h"

#define MEM_BYTES (24u << 20)
#define TA_FIRST  (1u << 21)   /* 1 GiB */
#define TA_COUNT  (1u << 17)   /* 64 MiB */

static char out[4 << 20];
static uint8_t *mem;
static struct simh sh;
static struct test_area ta;
static struct write_guard guard;
static struct wl_ctx ctx;

static int setup(const char *profile, const char *host, bool quick)
{
	struct sim_config c;
	char err[200];
	int r;

	if (!mem)
		mem = malloc(MEM_BYTES);
	sim_config_default(&c);
	if (sim_host_load(host, &c, err, sizeof(err)))
		return -1;
	r = simh_start(&sh, profile, &c);
	if (r)
		return r;
	simh_config_area(&ta, TA_FIRST, TA_COUNT);
	simh_wl_ctx(&sh, &ta, true, quick, mem, MEM_BYTES, &guard, &ctx);
	simh_capture_start(out, sizeof(out));
	return 0;
}

static void done(void)
{
	simh_capture_stop();
}

static const char *rec_with(const char *type, const char *t1, const char *t2)
{
	return simrec_last(out, type, t1, t2);
}

static double num(const char *line, const char *key)
{
	return simrec_num(line, key);
}

static void show(const char *r)
{
	if (r)
		printf("  %.*s\n", (int)(strchr(r, '\n') - r), r);
}

static void erase_block_case(const char *profile)
{
	const struct sim_profile *p = sim_profile_find(profile);
	const char *r;

	CHECK(p != NULL);
	if (!p || setup(profile, "sim", false))
		return;
	wl_au_detect(&ctx);
	done();
	r = rec_with("au", NULL, NULL);
	CHECK(r != NULL);
	show(r);
	CHECK_EQ_U(num(r, "measured_bytes"), p->erase_block_bytes);
	CHECK(strstr(r, "\"match\":\"equal\"") != NULL);
}

TEST(erase_block_found_equals_the_profile)
{
	erase_block_case("sdhc-flash-2g"); /* 1 MiB */
	erase_block_case("sdhc-c4-8g");    /* 4 MiB, with a smaller step at its 16 KiB pages */
}

static void open_au_case(const char *profile)
{
	const struct sim_profile *p = sim_profile_find(profile);
	const char *r;

	CHECK(p != NULL);
	if (!p || setup(profile, "sim", false))
		return;
	wl_open_au(&ctx);
	done();
	r = rec_with("open_au", NULL, NULL);
	CHECK(r != NULL);
	show(r);
	CHECK_EQ_U(num(r, "handled"), p->open_aus);
	CHECK_EQ_I(num(r, "collapsed"), 1);
	CHECK_EQ_U(num(r, "collapse_at"), p->open_aus + 1);
}

TEST(open_au_limit_found_equals_the_profile)
{
	open_au_case("sdhc-flash-2g"); /* 3 */
	open_au_case("sdhc-c4-8g");    /* 2 */
}

static double variant_mbs(const char *name)
{
	char k[64];

	snprintf(k, sizeof(k), "\"workload\":\"%s\"", name);
	return num(rec_with("result", k, NULL), "mbs");
}

TEST(preerase_shows_its_effect)
{
	const struct sim_profile *p = sim_profile_find("sdhc-flash-2g");
	double with, without, expect;
	uint64_t pitch;

	/* A card whose pre-erased blocks program in 10 us instead of 60 us. */
	CHECK_EQ_I(setup("sdhc-flash-2g", "pi4", true), 0);
	wl_variants(&ctx);
	done();
	with = variant_mbs("var-write-acmd23");
	without = variant_mbs("var-write-auto12");
	/* Per block: the write pitch on the wires (N_WR 2, the frame, N_CRC,
	 * the CRC token) plus the programming busy. */
	pitch = sim_clocks_ns(2 + sim_wire_block_clocks(512, 4) + 2 + 5, sh.card.clock_hz);
	expect = (double)(pitch + p->write_next.min_ns) /
		 (double)(pitch + p->write_next_preerased.min_ns);
	printf("  sdhc-flash-2g: CMD25 %.3f MB/s, ACMD23+CMD25 %.3f MB/s: x%.2f (the profile "
	       "says about x%.2f per block)\n", without, with, with / without, expect);
	CHECK(with / without > 0.85 * expect && with / without < 1.05 * expect);

	/* A card without the effect: ACMD23 only costs its two commands. */
	CHECK_EQ_I(setup("sdhc-c10-16g", "pi4", true), 0);
	wl_variants(&ctx);
	done();
	with = variant_mbs("var-write-acmd23");
	without = variant_mbs("var-write-auto12");
	printf("  sdhc-c10-16g: CMD25 %.3f MB/s, ACMD23+CMD25 %.3f MB/s: x%.2f\n", without, with,
	       with / without);
	CHECK(with / without > 0.85 && with / without < 1.05);
}

TEST(erase_time_per_au_matches_the_profile)
{
	const struct sim_profile *p = sim_profile_find("sdhc-flash-2g");
	const char *r;

	/* The quick suite erases 1 MiB units: this card's AU. */
	CHECK_EQ_I(setup("sdhc-flash-2g", "sim", true), 0);
	wl_erase_per_au(&ctx);
	done();
	r = rec_with("erase", NULL, NULL);
	show(r);
	CHECK_NEAR(num(r, "per_au_us"), p->erase_per_au_ns / 1000.0, 0.02 * p->erase_per_au_ns / 1000.0);
	CHECK_NEAR(num(r, "median_us"), (p->erase_base.min_ns + p->erase_per_au_ns) / 1000.0, 50);
}

/* The clock sweep fits T(f) = a + b/f: b must be the bus clocks one
 * operation really costs (the wire truth, whatever the controller adds),
 * not what the framing model says. */
static void sweep_case(const char *host, double *fit_b, double *truth_b, double *model_b)
{
	const char *r;
	struct sim_wire_sum w0, w1, w;
	struct wl_meas m;
	unsigned i, ops = 8;

	if (setup("sdhc-c10-16g", host, true))
		return;
	wl_clock_sweep(&ctx);
	r = rec_with("sweep", "\"op\":\"read\",\"width\":4,\"fit\"", NULL);
	show(r);
	*fit_b = num(r, "b_clocks");
	*model_b = num(r, "model_bus_clocks");
	/* The truth: the same 64 KiB reads at the full clock, bus time in
	 * clocks per operation (bits, gaps and the controller's gaps). */
	wl_begin(&ctx, &m, "test", "t", "t", false, WL_MULTI_AUTO12, 128, 0);
	sim_wire_totals(&w0);
	for (i = 0; i < ops; i++) {
		struct wl_op op = { false, TA_FIRST + i * 128, 128, WL_MULTI_AUTO12 };

		CHECK_EQ_I(wl_do(&ctx, &m, &op), 0);
	}
	sim_wire_totals(&w1);
	wl_end(&ctx, &m);
	done();
	sim_wire_diff(&w1, &w0, &w);
	*truth_b = (double)sim_wire_bus_ns(&w) / ops * sh.card.clock_hz / 1e9;
	printf("  host %s: fit b %.0f clocks, truth %.0f bus clocks per 64 KiB read, "
	       "framing model %.0f\n", host, *fit_b, *truth_b, *model_b);
}

TEST(sweep_fit_recovers_the_bus)
{
	double fit, truth, model;

	sweep_case("sim", &fit, &truth, &model);
	CHECK_NEAR(fit / truth, 1.0, 0.02);
	CHECK_NEAR(model / truth, 1.0, 0.02);
	/* A controller that stops the clock 300 clocks after each block: the
	 * fit still finds the bus, the framing model does not. */
	sweep_case("test-gaps", &fit, &truth, &model);
	CHECK_NEAR(fit / truth, 1.0, 0.02);
	CHECK(model / truth < 0.8);
}

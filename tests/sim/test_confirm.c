/*
 * test_confirm.c - the counterfactual checks (bench/engine/confirm.c) on
 * the simulator: a split that is right is confirmed, a broken one is
 * contradicted.
 *
 * The real engine runs the summary's kinds of workload on simulated
 * hosts and cards (a set of shipped pairs and SIM_CONFIRM_GEN generated
 * pairs, default GEN_PAIRS_TEST, from seed SIM_CONFIRM_GEN_FIRST, default
 * 1), then wl_confirm_one runs the same operations at half the SD clock
 * and with a CPU delay and judges them against the workload's own split.
 * The simulator's clock follows only what the drivers do; its cards'
 * times move from run to run as a card's do.
 *
 * Checks:
 *  - unbroken, at most MAX_CONTRA_PCT of the checks that ran are
 *    contradicted on each set (the figure is printed), and most ran; a
 *    check's tolerance includes what the unchanged operations moved
 *    between repeated runs (the card's own state), so a contradiction
 *    here is the split's or the prediction's;
 *  - the same splits broken by hand (the bus time of each workload 10%
 *    longer, taken from the card, as a bus model 10% too long books it):
 *    the clock check contradicts at least MIN_CAUGHT_PCT of the workloads
 *    it confirmed with a narrow prediction (its range within the
 *    tolerance) whose bus on the critical path is at least
 *    BROKEN_MIN_BUS_PCT of the time (the tolerance is small enough to see
 *    a bus model 10% off where the bus matters);
 *  - the pure functions: the prediction of a bus-bound and a card-bound
 *    operation, the tolerance, the judge.
 * make bench-mutations breaks the split in the code (sim/mutations.py:
 * the bus model, the clock divider, the Block Count's meaning) and counts
 * the contradictions this test prints (its CONFIRM_COUNTS line).
 * Each check that did not confirm is printed; SIM_CONFIRM_VERBOSE=1 prints
 * every one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/confirm.h"
#include "bench/engine/workload.h"
#include "bench/workloads/clock_sweep.h"
#include "bench/workloads/silicon.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "sim/sim_gen.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define GEN_PAIRS_TEST     12
#define MAX_CONTRA_PCT     1.05  /* contradictions of an unbroken split, at most: met
				  * 2 of 198 shipped (1.01%) once verdicts undecided between
				  * the critical path's bounds went without a diagnosis (the
				  * same 2 as before, 3 fewer checks run); before that
				  * 2 of 201 shipped (1.00%) and 1 of 216 generated (0.46%,
				  * seeds 1-12) once the write probe's 4-block write moved the
				  * simulated cards' draws; before it 0 of 300 on seeds 13-42
				  * (where the cpu_delay range and the drift were developed) and
				  * on seeds 43-72 (not looked at before); docs/attribution.md §6 */
/* The shipped pairs: 2 contradictions (pi3/sdsc-v2-2g seq-write-64k's clock
 * check, pi3/sdhc-gaps-16g rand-write-4k's width check), the same two since
 * they were first seen, of 186 checks once the SDHOST fill probe and the
 * arrivals' bound silenced more verdicts (1.08%), of 174 once the test-gaps
 * reads whose idle clocks may be the controller's did (1.15%). A share of a
 * set that shrinks as verdicts go silent moves with every silenced one: the
 * shipped ceiling is a count, any third contradiction fails. */
#define MAX_CONTRA_SHIPPED 2u
#define MIN_RAN_PCT        84.0  /* checks that ran (not "not_run"), at least: met 198 of
				  * 234 shipped (84.6%) with the critical path's bounds
				  * (docs/attribution.md, "Bounds of the critical path"); 201 of
				  * 234 shipped (85.9%): the instant card's writes get no
				  * diagnosis (its card never holds DAT0, so the write probe
				  * cannot confirm the DAT[0] level: docs/silicon.md) and a
				  * 1-bit card has no width check */
#define BROKEN_MIN_BUS_PCT 60.0  /* a split broken by hand must be caught from this bus share */
#define MIN_CAUGHT_PCT     45.0  /* ... in this share at least (met: 25/26 shipped, 3/6
				  * generated; seeds 13-42 5/11, the same with the drift term at
				  * 0: a sequential read's median of a few operations moves by
				  * about 10% of its bus from run to run) */
#define MEM_BYTES (24u << 20)

struct combo {
	const char *host, *card;
};

static const struct combo combos[] = {
	{ "pi3", "sdhc-c10-16g" }, { "pi3", "sdxc-u3-128g" }, { "pi3", "sdhc-slow-writer-8g" },
	{ "pi3", "instant-4g" }, { "pi3", "sdsc-v2-2g" }, { "pi3", "sdhc-gaps-16g" },
	{ "pi1", "sdhc-c10-16g" }, { "pi1", "instant-4g" }, { "pi0", "sdxc-a2-64g" },
	{ "pi4", "sdhc-c10-16g" }, { "pi4", "instant-4g" }, { "sim", "sdhc-1bit-4g" },
	{ "test-gaps", "sdhc-c10-16g" },
};

enum pat { SEQ, RANDOM, MIX70 };

struct wl_case {
	const char *name, *kind;
	bool write;
	enum pat pat;
	uint32_t blocks, ops;
};

/* The kinds of the summary's workloads (basic.c). */
static const struct wl_case cases[] = {
	{ "seq-read-1m", "seq", false, SEQ, 2048, 4 },
	{ "seq-read-64k", "seq", false, SEQ, 128, 16 },
	{ "seq-write-64k", "seq", true, SEQ, 128, 16 },
	{ "rand-read-4k", "random", false, RANDOM, 8, 48 },
	{ "rand-write-4k", "random", true, RANDOM, 8, 32 },
	{ "mix70-4k", "mix", false, MIX70, 8, 48 },
};

struct tally {
	const char *what;
	unsigned n[WL_CHECK_KINDS][3];     /* [kind][verdict] */
	unsigned silent;                   /* of the not run: no diagnosis to confirm */
	double max_contra;                 /* MAX_CONTRA_PCT of the checks that ran */
	unsigned max_contra_n;             /* or at most this many (MAX_CONTRA_SHIPPED) */
	unsigned broken, broken_caught;
};

static struct tally shipped = { .what = "shipped pairs", .max_contra_n = MAX_CONTRA_SHIPPED };
static struct tally generated = { .what = "generated pairs", .max_contra = MAX_CONTRA_PCT };
static uint8_t *mem;
static struct test_area area;
static struct write_guard guard;

static void quiet(char c)
{
	(void)c;
}

static void measure(struct wl_ctx *c, const struct wl_case *k, struct wl_meas *m)
{
	uint32_t slots = area.count / k->blocks, i;
	enum wl_cmd cmd = WL_MULTI_AUTO12;

	wl_begin(c, m, k->kind, k->name, k->name, k->write, cmd, k->blocks, 0);
	for (i = 0; i < k->ops; i++) {
		struct wl_op op;

		op.write = k->pat == MIX70 ? (wl_rand(c) % 10) < 3 : k->write;
		op.blocks = k->blocks;
		op.cmd = cmd;
		op.lba = area.first_lba + (k->pat == SEQ ? i * k->blocks
					   : (wl_rand(c) % slots) * k->blocks);
		CHECK_EQ_I(wl_do(c, m, &op), 0);
	}
	wl_end(c, m);
}

/* The split broken by hand: 10% more bus, taken from the card. */
static void break_split(struct wl_cf_src *s)
{
	s->bus_pct *= 1.1;
	s->crit_bus_pct *= 1.1;
}

static void run_case(struct wl_ctx *c, const struct wl_case *k, const char *label,
		     struct tally *t)
{
	struct wl_meas m;
	struct wl_check out[WL_CHECK_KINDS];
	struct wl_cf_src broken;
	unsigned i;

	measure(c, k, &m);
	wl_confirm_note(c, &m, 0);
	broken = c->cf[0];
	wl_confirm_one(c, &c->cf[0], k->name, 0, out);
	for (i = 0; i < WL_CHECK_KINDS; i++) {
		const struct wl_check *o = &out[i];

		t->n[i][o->verdict]++;
		t->silent += o->verdict == WL_CHECK_NOT_RUN && strstr(o->reason, "no diagnosis");
		if (o->verdict == WL_CHECK_CONFIRMED && !getenv("SIM_CONFIRM_VERBOSE"))
			continue;
		printf("  %-34s %-14s %-9s bus %5.1f (crit %5.1f, clock-paced card %4.1f) | "
		       "base %9.1f us, measured %9.1f us, predicted %9.1f-%9.1f +/- %6.1f: %s%s%s\n",
		       label, k->name, wl_check_kind_name(o->kind), m.split.bus_pct,
		       m.split.crit_bus_pct, m.split.card_clock_pct, o->baseline_ns / 1e3,
		       o->measured_ns / 1e3, o->predicted_ns / 1e3, o->predicted_hi_ns / 1e3,
		       o->tolerance_ns / 1e3, wl_check_verdict_name(o->verdict),
		       o->reason[0] ? ": " : "", o->reason);
	}
	/* The same operations judged against the broken split, where the bus
	 * is most of the time and the prediction narrow. */
	if (out[0].verdict != WL_CHECK_CONFIRMED || broken.crit_bus_pct < BROKEN_MIN_BUS_PCT ||
	    out[0].predicted_hi_ns - out[0].predicted_ns > out[0].tolerance_ns)
		return;
	break_split(&broken);
	wl_confirm_one(c, &broken, k->name, 0, out);
	t->broken++;
	t->broken_caught += out[0].verdict == WL_CHECK_CONTRADICTED;
	if (out[0].verdict != WL_CHECK_CONTRADICTED)
		printf("    MISS broken split of %s %s confirmed (measured %.1f us, predicted "
		       "%.1f us)\n", label, k->name, out[0].measured_ns / 1e3,
		       out[0].predicted_ns / 1e3);
}

static void run_cases(struct simh *s, const char *label, struct tally *t)
{
	static struct wl_ctx c;
	unsigned k;

	memset(&area, 0, sizeof(area));
	area.usable = true;
	area.source = TEST_AREA_CONFIG;
	area.first_lba = 1u << 16;
	area.count = 1u << 16;
	if ((uint64_t)area.first_lba + area.count > s->card.blocks) {
		area.first_lba = s->card.blocks / 2;
		area.count = s->card.blocks / 4;
	}
	write_guard_init(&guard, &s->card, &area, true);
	wl_ctx_init(&c, &guard, mem, MEM_BYTES, true, false, 0x1234, 42);
	c.read_base = area.first_lba;
	/* As the suite does first: probe the controller
	 * (bench/workloads/silicon.c), then measure the bus. */
	wl_silicon_probe(&c);
	wl_bus_calibrate(&c);
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		if ((cases[k].write || cases[k].pat == MIX70) && s->card.write_protected)
			continue;
		run_case(&c, &cases[k], label, t);
	}
}

static void run_combo(const struct combo *cb)
{
	struct simh s;
	struct sim_config cfg;
	char err[300], label[64];

	snprintf(label, sizeof(label), "%s/%s", cb->host, cb->card);
	sim_config_default(&cfg);
	CHECK_EQ_I(sim_host_load(cb->host, &cfg, err, sizeof(err)), 0);
	CHECK_EQ_I(simh_start(&s, cb->card, &cfg), 0);
	if (!s.init_ret)
		run_cases(&s, label, &shipped);
}

static void run_generated(uint64_t i)
{
	static struct sim_profile p;
	static struct sim_gen_host h;
	char label[64];
	struct simh s;

	sim_gen_card(i, &p);
	sim_gen_host(i, &h);
	/* The data path by the DMA engine needs a channel set up
	 * (test_bench_accuracy does); the PIO and ADMA2 paths here. */
	if (h.path == SIM_GEN_SDHOST_DMA || h.path == SIM_GEN_EMMC_DMA)
		return;
	snprintf(label, sizeof(label), "gen %llu %s:%s", (unsigned long long)i, h.c.host_name,
		 sim_gen_path_name(h.path));
	if (h.path == SIM_GEN_SDHCI_UHS)
		CHECK_EQ_I(simh_start_uhs_p(&s, &p, &h.c, 0), 0);
	else
		CHECK_EQ_I(simh_start_p(&s, &p, &h.c), 0);
	if (!s.init_ret)
		run_cases(&s, label, &generated);
}

static double pct(unsigned n, unsigned of)
{
	return of ? 100.0 * n / of : 0.0;
}

/* The set's figures; checks the unbroken floor and the broken catch. */
static void print_tally(const struct tally *t)
{
	unsigned k, ran = 0, contra = 0, all = 0;

	for (k = 0; k < WL_CHECK_KINDS; k++) {
		printf("  %s, %s: %u confirmed, %u contradicted, %u not run\n", t->what,
		       wl_check_kind_name((enum wl_check_kind)k), t->n[k][WL_CHECK_CONFIRMED],
		       t->n[k][WL_CHECK_CONTRADICTED], t->n[k][WL_CHECK_NOT_RUN]);
		ran += t->n[k][0] + t->n[k][1];
		contra += t->n[k][1];
		all += t->n[k][0] + t->n[k][1] + t->n[k][2];
	}
	printf("CONFIRM_COUNTS %s: %u checks ran of %u (%u of them on verdicts with a diagnosis), "
	       "%u contradicted (%.2f%%); split broken by hand: %u of %u contradicted\n", t->what,
	       ran, all, all - t->silent, contra, pct(contra, ran), t->broken_caught, t->broken);
	if (!all)
		return;
	if (t->max_contra_n)
		CHECK(contra <= t->max_contra_n);
	else
		CHECK(pct(contra, ran) <= t->max_contra);
	/* A verdict without a diagnosis has nothing to confirm: the share
	 * that ran is of the checks on diagnosed verdicts. */
	CHECK(pct(ran, all - t->silent) >= MIN_RAN_PCT);
	if (t == &shipped)
		CHECK(t->broken > 0);
	if (t->broken)
		CHECK(pct(t->broken_caught, t->broken) >= MIN_CAUGHT_PCT);
}

/* One prediction: a source, the check (clock halved, 1-bit bus, CPU
 * delay) with its base and argument, the range it must give (hi < 0:
 * the low end only). */
struct pred_case {
	const char *what;
	const struct wl_cf_src *s;
	char check; /* 'c', 'w' or 'd' */
	double base, arg, lo, hi;
};

static void check_prediction(const struct pred_case *k)
{
	double lo, hi;

	if (k->check == 'c')
		wl_check_predict_clock(k->s, k->base, k->arg, &lo, &hi);
	else if (k->check == 'w')
		wl_check_predict_width(k->s, k->base, k->arg, &lo, &hi);
	else
		wl_check_predict_delay(k->s, k->base, k->arg, &lo, &hi);
	if (fabs(lo - k->lo) >= 1e-6 || (k->hi >= 0 && fabs(hi - k->hi) >= 1e-6))
		CHECK_FAIL_("%s: [%.1f, %.1f], expected [%.1f, %.1f]", k->what, lo, hi, k->lo,
			    k->hi);
}

TEST(the_prediction_and_the_judge)
{
	static const struct wl_cf_src bus = { .wall_per_op_ns = 1e5, .bus_pct = 90.0,
		.crit_bus_pct = 90.0, .p50_ns = 100000, .p90_ns = 100000 };
	static const struct wl_cf_src card = { .wall_per_op_ns = 1e5, .bus_pct = 5.0,
		.crit_bus_pct = 5.0, .card_clock_pct = 10.0, .p50_ns = 100000, .p90_ns = 140000 };
	static const struct wl_cf_src card_cpu = { .wall_per_op_ns = 1e5, .bus_pct = 5.0,
		.crit_bus_pct = 5.0, .card_clock_pct = 10.0, .p50_ns = 100000, .p90_ns = 140000,
		.host_xfer_pct = 2.0, .cpu_work_pct = 30.0 };
	static const struct wl_cf_src card_host = { .wall_per_op_ns = 1e5, .bus_pct = 5.0,
		.crit_bus_pct = 5.0, .card_clock_pct = 10.0, .p50_ns = 100000, .p90_ns = 140000,
		.host_xfer_pct = 50.0, .cpu_work_pct = 30.0 };
	static const struct wl_cf_src hidden = { .wall_per_op_ns = 1e5, .bus_pct = 40.0,
		.crit_bus_pct = 10.0 };
	static const struct wl_cf_src stalls_w = { .wall_per_op_ns = 1e5, .bus_pct = 50.0,
		.crit_bus_pct = 50.0, .card_access_pct = 20.0, .write = true };
	static const struct wl_cf_src stalls_r = { .wall_per_op_ns = 1e5, .bus_pct = 50.0,
		.crit_bus_pct = 50.0, .card_access_pct = 20.0 };
	static const struct wl_cf_src stalls_r5 = { .wall_per_op_ns = 1e5, .bus_pct = 50.0,
		.crit_bus_pct = 50.0, .card_access_pct = 20.0, .card_clock_pct = 5.0 };
	static const struct pred_case preds[] = {
		{ "a bus-bound operation nearly doubles, exactly as its split says",
		  &bus, 'c', 1e5, 2.0, 190000.0, 190000.0 },
		{ "a card-bound one hardly changes; its clock-paced waits may follow",
		  &card, 'c', 1e5, 2.0, 105000.0, 115000.0 },
		{ "frames hidden behind the CPU: up to all of them once more",
		  &hidden, 'c', 1e5, 2.0, 110000.0, 170000.0 },
		{ "a card that waits inside a write may wait less for a slower bus",
		  &stalls_w, 'c', 1e5, 2.0, 130000.0, 150000.0 },
		{ "a read's card time there is its access latency: nothing hides it",
		  &stalls_r, 'c', 1e5, 2.0, 150000.0, 150000.0 },
		{ "a 1-bit bus: a bus-bound read grows by the frames' growth exactly",
		  &bus, 'w', 1e5, 3e5, 400000.0, 400000.0 },
		/* their critical share at least, up to all of it and the hidden
		 * frames once more */
		{ "1-bit bus, frames hidden behind the CPU",
		  &hidden, 'w', 1e5, 4e4, 110000.0, 170000.0 },
		{ "a write's not-ready waits may be covered by the longer frames",
		  &stalls_w, 'w', 1e5, 5e4, 130000.0, 150000.0 },
		{ "a read's idle clocks between blocks too, not its access latency",
		  &stalls_r5, 'w', 1e5, 5e4, 145000.0, 150000.0 },
		/* the host grows by it, less at most the host's time inside the
		 * requests, plus at most the CPU's work in the pipeline (the
		 * critical path may change hands) */
		{ "a CPU delay between requests",
		  &card_cpu, 'd', 20000.0, 5000.0, 23000.0, 55000.0 },
		{ "never below the baseline: the delay is the host's",
		  &card_host, 'd', 20000.0, 5000.0, 20000.0, -1.0 },
		{ "no host inside the requests, no CPU work in a pipeline: exactly the delay",
		  &bus, 'd', 20000.0, 5000.0, 25000.0, 25000.0 },
	};
	unsigned i;

	for (i = 0; i < sizeof(preds) / sizeof(preds[0]); i++)
		check_prediction(&preds[i]);
	/* the spread sets the card-bound tolerance, the share the steady one */
	CHECK(fabs(wl_check_tolerance(&card, 105000.0) - 40000.0) < 1e-6);
	CHECK(fabs(wl_check_tolerance(&bus, 190000.0) - 5700.0) < 1e-6);
	CHECK(fabs(wl_check_tolerance(&bus, 1000.0) - WL_CHECK_TOL_MIN_NS) < 1e-6);
	CHECK_EQ_I(wl_check_judge(100.0, 120.0, 121.0, 2.0), WL_CHECK_CONFIRMED);
	CHECK_EQ_I(wl_check_judge(100.0, 120.0, 123.0, 2.0), WL_CHECK_CONTRADICTED);
	CHECK_EQ_I(wl_check_judge(100.0, 120.0, 97.0, 2.0), WL_CHECK_CONTRADICTED);
}

TEST(counterfactuals_on_simulated_pairs)
{
	const char *gn = getenv("SIM_CONFIRM_GEN"), *gf = getenv("SIM_CONFIRM_GEN_FIRST");
	uint64_t ngen = gn ? strtoull(gn, NULL, 0) : GEN_PAIRS_TEST;
	uint64_t first = gf ? strtoull(gf, NULL, 0) : 1, i;
	unsigned p;

	mem = aligned_alloc(64, MEM_BYTES);
	CHECK(mem != NULL);
	if (!mem)
		return;
	host_console_hook = quiet;
	if (!getenv("SIM_CONFIRM_GEN_ONLY"))
		for (p = 0; p < sizeof(combos) / sizeof(combos[0]); p++)
			run_combo(&combos[p]);
	for (i = first; i < first + ngen; i++)
		run_generated(i);
	host_console_hook = NULL;
	free(mem);
	print_tally(&shipped);
	print_tally(&generated);
}

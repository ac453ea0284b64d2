/*
 * test_bench_accuracy.c - the benchmark's card / bus / host split against
 * the simulator's ground truth.
 *
 * The real engine (bench/wl_core.c) and attribution (bench/attribution.c)
 * run workloads on the real drivers over simulated cards whose truth is
 * known: for every command the simulator records how long the bus, the card
 * and the waiting host each took. For each profile and workload the test
 * sums that truth over the workload's time window and checks that the
 * measured shares are within 5 percentage points, and that a verdict that
 * names a part names the one that truly dominates.
 *
 * Truth shares over the window [first op issued, last op ended]:
 *   card = access + busy, bus = command + auto command + data frames,
 *   host = the bus waiting for the CPU + everything between commands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/workload.h"
#include "lib/host/host_console.h"
#include "tests/sim/sim.h"
#include "tests/sim/sim_harness.h"
#include "tests/unit/check.h"

#define MEM_BYTES (24u << 20)
#define TOL_PCT 5.0

static uint8_t *mem;
static struct test_area area;
static struct write_guard guard;

static void quiet(char c)
{
	(void)c;
}

struct truth {
	double card_pct, bus_pct, host_pct;
};

static void truth_window(unsigned first_seq, unsigned end_seq, uint64_t t0, uint64_t t1,
			 struct truth *out)
{
	uint64_t card = 0, bus = 0, host = 0, in_cmds = 0, wall = t1 - t0;
	unsigned s;

	for (s = first_seq; s < end_seq; s++) {
		const struct sim_truth *t = sim_truth_get(s);

		if (!t)
			continue;
		card += t->access_ns + t->busy_ns;
		bus += t->cmd_ns + t->auto_cmd_ns + t->data_bus_ns;
		host += t->host_wait_ns;
		in_cmds += t->t_end_ns - t->t_issue_ns;
	}
	host += wall > in_cmds ? wall - in_cmds : 0;
	out->card_pct = 100.0 * (double)card / (double)wall;
	out->bus_pct = 100.0 * (double)bus / (double)wall;
	out->host_pct = 100.0 * (double)host / (double)wall;
}

enum pat { SEQ, RANDOM, MIX70 };

struct wl_case {
	const char *name;
	bool write;
	enum pat pat;
	uint32_t blocks;
	enum wl_cmd cmd;
	uint32_t ops;
};

static const struct wl_case cases[] = {
	{ "seq-read-64k", false, SEQ, 128, WL_MULTI_AUTO12, 24 },
	{ "seq-write-64k", true, SEQ, 128, WL_MULTI_AUTO12, 24 },
	{ "seq-read-1m", false, SEQ, 2048, WL_MULTI_CMD12, 4 },
	{ "rand-read-4k", false, RANDOM, 8, WL_MULTI_AUTO12, 64 },
	{ "rand-write-4k", true, RANDOM, 8, WL_MULTI_AUTO12, 48 },
	{ "rand-read-512", false, RANDOM, 1, WL_MULTI_CMD12, 64 },
	{ "read-cmd17-loop", false, SEQ, 16, WL_SINGLE_LOOP, 16 },
	{ "write-cmd24-loop", true, SEQ, 16, WL_SINGLE_LOOP, 8 },
	{ "write-preerase-64k", true, SEQ, 128, WL_MULTI_PREERASE, 12 },
	{ "read-cmd23-64k", false, SEQ, 128, WL_MULTI_CMD23, 12 },
	{ "mix70-4k", false, MIX70, 8, WL_MULTI_AUTO12, 64 },
};

static const char *const profiles[] = {
	"sdhc-c4-8g", "sdhc-c10-16g", "sdhc-c10-32g-cmd23", "sdxc-u1-64g", "sdxc-u3-128g",
	"sdhc-a1-32g", "sdxc-a2-64g", "sdhc-no-hs-4g", "sdhc-1bit-4g", "sdhc-slow-writer-8g",
	"sdhc-gc-stalls-16g", "instant-4g", "fixed-800us-8g", "sdsc-v2-2g", "sdsc-v1-128m",
	"qemu-like-1g",
};

static unsigned checked, within, verdicts_checked;
static double worst_err;
static char worst_what[96];

static void run_case(struct simh *s, struct wl_ctx *c, const struct wl_case *k,
		     const char *profile)
{
	struct wl_meas m;
	struct truth tr;
	unsigned seq0, seq1, i;
	uint64_t t0 = 0, t1;
	double e_card, e_bus, e_host, e;
	uint32_t slots = area.count / k->blocks;

	wl_begin(c, &m, "test", k->name, k->name, k->write, k->cmd, k->blocks, 0);
	seq0 = sim_truth_count();
	for (i = 0; i < k->ops; i++) {
		struct wl_op op;

		op.write = k->pat == MIX70 ? (wl_rand(c) % 10) < 3 : k->write;
		op.blocks = k->blocks;
		op.cmd = k->cmd;
		op.lba = area.first_lba + (k->pat == SEQ ? i * k->blocks
					   : (wl_rand(c) % slots) * k->blocks);
		if (i == 0)
			t0 = sim_now_ns();
		CHECK_EQ_I(wl_do(c, &m, &op), 0);
	}
	t1 = sim_now_ns();
	seq1 = sim_truth_count();
	wl_end(c, &m);
	if (seq0 < seq1 && sim_truth_get(seq0))
		t0 = sim_truth_get(seq0)->t_issue_ns;
	truth_window(seq0, seq1, t0, t1, &tr);

	e_card = m.split.card_pct - tr.card_pct;
	e_bus = m.split.bus_pct - tr.bus_pct;
	e_host = m.split.host_pct - tr.host_pct;
	e = e_card < 0 ? -e_card : e_card;
	if ((e_bus < 0 ? -e_bus : e_bus) > e)
		e = e_bus < 0 ? -e_bus : e_bus;
	if ((e_host < 0 ? -e_host : e_host) > e)
		e = e_host < 0 ? -e_host : e_host;
	checked++;
	if (e <= TOL_PCT)
		within++;
	if (e > worst_err) {
		worst_err = e;
		snprintf(worst_what, sizeof(worst_what), "%s/%s", profile, k->name);
	}
	printf("  %-20s %-16s measured card %5.1f bus %5.1f host %5.1f | truth %5.1f %5.1f %5.1f | %s\n",
	       profile, k->name, m.split.card_pct, m.split.bus_pct, m.split.host_pct,
	       tr.card_pct, tr.bus_pct, tr.host_pct, bottleneck_name(m.split.verdict));
	if (e > TOL_PCT)
		CHECK_FAIL_("%s/%s: share error %.1f pp > %.1f", profile, k->name, e, TOL_PCT);

	/* A verdict that names one part must name the part that truly
	 * dominates (>= 60% of the time), or the bus when the ceiling rule
	 * fired. */
	if (m.split.verdict != BOTTLENECK_MIXED) {
		double top = tr.card_pct;
		enum bottleneck tb = BOTTLENECK_CARD;

		if (tr.bus_pct > top) {
			top = tr.bus_pct;
			tb = BOTTLENECK_BUS;
		}
		if (tr.host_pct > top) {
			top = tr.host_pct;
			tb = BOTTLENECK_HOST;
		}
		verdicts_checked++;
		if (m.split.verdict != tb && !(m.split.verdict == BOTTLENECK_BUS &&
					       m.split.ceiling_pct >= ATTR_CEILING_BUS_PCT))
			CHECK_FAIL_("%s/%s: verdict %s, truth says %s (%.1f%%)", profile, k->name,
				    bottleneck_name(m.split.verdict), bottleneck_name(tb), top);
	}
}

static void run_profile(const char *profile)
{
	struct simh s;
	struct wl_ctx c;
	unsigned k;

	CHECK_EQ_I(simh_start(&s, profile, NULL), 0);
	if (s.init_ret)
		return;
	memset(&area, 0, sizeof(area));
	area.usable = true;
	area.source = TEST_AREA_CONFIG;
	area.first_lba = 1u << 16;
	area.count = 1u << 16; /* 32 MiB */
	if ((uint64_t)area.first_lba + area.count > s.card.blocks) {
		area.first_lba = s.card.blocks / 2;
		area.count = s.card.blocks / 4;
	}
	write_guard_init(&guard, &s.card, &area, true);
	wl_ctx_init(&c, &guard, mem, MEM_BYTES, true, false, 0x1234, 42);
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		if ((cases[k].write || cases[k].pat == MIX70) && s.card.write_protected)
			continue;
		if (cases[k].cmd == WL_MULTI_CMD23 && !s.card.cmd23)
			continue;
		run_case(&s, &c, &cases[k], profile);
	}
}

TEST(shares_within_5pp_of_truth_on_every_profile)
{
	unsigned p;

	mem = malloc(MEM_BYTES);
	CHECK(mem != NULL);
	if (!mem)
		return;
	host_console_hook = quiet;
	for (p = 0; p < sizeof(profiles) / sizeof(profiles[0]); p++)
		run_profile(profiles[p]);
	host_console_hook = NULL;
	printf("  %u workload/profile pairs: %u within %.0f pp, worst %.2f pp (%s); %u verdicts checked\n",
	       checked, within, TOL_PCT, worst_err, worst_what, verdicts_checked);
	CHECK(checked >= 80);
	free(mem);
}

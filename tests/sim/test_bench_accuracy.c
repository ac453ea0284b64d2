/*
 * test_bench_accuracy.c - the benchmark's card / bus / host split against
 * what happened on the simulated wires.
 *
 * The real engine (bench/engine/workload.c) and attribution (bench/engine/attribution.c)
 * run workloads on the real drivers over simulated cards and hosts. The
 * simulator's truth (sim_wire.c, sim/README.md "Ground truth") is
 * not computed with the firmware's bus model or split rules: it books what
 * the wires carried and what they waited for, including what the firmware
 * does not know about (the controller's own gaps, clock-edge waits, the
 * card's N_CR, a CPU slower than the bus). For each host / card / workload
 * the truth is summed over the workload's window and compared with the
 * measured shares, and the verdict with the truth's shares.
 *
 * (tests/test_sdbsim.py does the same over the whole quick suite, run by
 * build/host/sdbsim.)
 *
 * Two sets of pairs: the shipped host and card profiles (combos[] below),
 * and cards and hosts drawn from the physical envelope (sim/sim_gen.c),
 * pair i = card seed i with host seed i, SIM_ACCURACY_GEN pairs (default
 * GEN_PAIRS_TEST; make bench-sim runs 200). No list excuses a miss: the
 * figure is the result. For each set the test prints the share of
 * workloads with every share within 5 and within 10 points of the truth,
 * the worst, the verdicts right (naming the truth's largest part of the
 * critical path, check_verdict), without a diagnosis and wrong, and the
 * regimes of the misses (direction, the card's clock-counted gaps, the
 * host's CPU cost per word, the data path); it fails when a figure falls
 * below the floor the code met when the floor was set (FLOOR_* below), so
 * a regression shows.
 *
 * Parts: SIM_ACCURACY_ONLY=text runs only the hosts whose label contains
 * it (e.g. "+sdhost", "-dma", "gen-"); SIM_ACCURACY_GEN=N runs N generated
 * pairs (0: none), SIM_ACCURACY_GEN_FIRST=K from seed K. The floors apply
 * in every mode, to the part that ran (check_floors): a hold-out run of
 * other seeds fails when its figures are below them. SIM_ACCURACY_PHASES=1
 * prints each pair's measured phases and the truth's categories.
 *
 * Controller variants (docs/silicon.md): SIM_ACCURACY_VARIANT=bus, drain,
 * stale or drawn gives every host that SDHCI Block Count behaviour
 * (sim.h enum sim_blkcnt; drawn: per generated host, the shipped ones
 * keep theirs); bwe-empty, dat0-lag, dat0-none the SDHCI write looks,
 * fill-lag, fill-stepped SDHOST's SDEDM fill. A workload whose split the firmware marks "no diagnosis"
 * is counted apart; one that is diagnosed and off by more than the
 * tolerance is confidently wrong. On the generated pairs: none may be
 * (every variant), and on hosts whose probe confirmed the look at least
 * MIN_DIAG_PCT of the workloads must be diagnosed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/workload.h"
#include "drivers/dma/bcm2835_dma.h"
#include "bench/workloads/clock_sweep.h"
#include "bench/workloads/silicon.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "sim/sim_gen.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

/* ---- the tolerances and minimums, stated once ------------------------------- */

#define TOL_PP        5.0  /* each share within this many points of the truth */
#define TOL_WIDE_PP  10.0  /* ... and the second figure: within this many */
/* The verdict must name the truth's largest part of the critical path; a
 * part within this many points of the largest counts as the largest (two
 * parts that close are a tie no measurement decides; docs/attribution.md,
 * "The verdict against the truth"). */
#define TOL_VERDICT_PP 5.0
#define MIN_PAIRS     300  /* workload pairs compared (shipped profiles) */
#define MIN_VERDICTS  200  /* verdicts checked (named + mixed) */
#define MIN_MIXED     10   /* mixed verdicts among them */
#define MIN_HOST_TRUE 20   /* pairs whose critical path is >= 60% host in truth */
#define GEN_PAIRS_TEST 40  /* generated card / host pairs in make test */
#define MIN_DIAG_PCT  90.0 /* diagnosed, on hosts whose probe confirmed the look */
/* The floors: what the code met when they were last set (the figures
 * printed, rounded down), in % of workloads (of verdicts). A change that
 * makes the split worse fails here; one that makes it better should raise
 * them. They apply in every mode, to the part that ran (check_floors):
 * per host group of the shipped profiles, and over the generated pairs of
 * whatever seeds ran. */
#define FLOOR_SHIPPED_5        97.0  /* the whole shipped list */
#define FLOOR_SHIPPED_10       98.0
#define FLOOR_SHIPPED_HOST_5  100.0  /* each shipped host (test-gaps: its reads whose idle
				      * clocks may be the controller's are no diagnosis) */
#define FLOOR_SHIPPED_HOST_10 100.0
#define FLOOR_GEN_TEST_5      100.0  /* make test's generated pairs (seeds 1-40) */
#define FLOOR_GEN_TEST_10     100.0
#define FLOOR_GEN_5            99.5  /* the generated pairs of any seeds */
#define FLOOR_GEN_10          100.0
#define FLOOR_SHIPPED_VERDICT  99.0  /* verdicts right (no diagnosis is not right) */
#define FLOOR_SHIPPED_HOST_VERDICT 90.0 /* ... of each shipped host */
#define FLOOR_GEN_VERDICT 100.0  /* of the diagnosed: right or silent (a verdict that differs
				   * within the critical path's bounds is no diagnosis,
				   * docs/attribution.md §3 "Bounds of the critical path") */
/* Right or silent on the generated pairs of any seeds and on the shipped
 * profiles: none diagnosed and off by more than TOL_PP, no diagnosed
 * verdict wrong; and at least FLOOR_GEN_DIAG % of the generated pairs'
 * workloads diagnosed. */
#define FLOOR_CONFIDENTLY_WRONG 0u
#define FLOOR_GEN_DIAG     90.0

#define MEM_BYTES (24u << 20)

/* ---- what runs ---------------------------------------------------------------- */

struct combo {
	const char *host;  /* sim/hosts */
	const char *card;  /* sim/profiles */
	uint8_t width;     /* 0 = the card's best, 1 = force 1-bit */
	uint8_t mode;      /* UHS-I hosts: enum sd_bus_mode (0 = auto) */
	bool sdhost;       /* the SDHOST controller (sim_sdhost.c) instead of the SDHCI */
	bool dma;          /* data through the BCM2835 DMA engine (sim_bcm2835_dma.c) */
};

/* A pair on the host profile's own controller; on SDHOST by PIO (w: 1 =
 * force 1-bit) or by the DMA engine; on the EMMC by the DMA engine. */
#define C(h, c, w, m) { h, c, w, m, false, false }
#define SDHOST_PIO(h, c, w) { h, c, w, 0, true, false }
#define SDHOST_DMA(h, c) { h, c, 0, 0, true, true }
#define EMMC_DMA(h, c) { h, c, 0, 0, false, true }

static const struct combo combos[] = {
	/* Every kind of card behind a Pi 3 (Arasan controller, 8-clock gaps). */
	C("pi3", "sdhc-c4-8g", 0, 0), C("pi3", "sdhc-c10-16g", 0, 0),
	C("pi3", "sdhc-c10-32g-cmd23", 0, 0), C("pi3", "sdxc-u1-64g", 0, 0),
	C("pi3", "sdxc-u3-128g", 0, 0), C("pi3", "sdhc-a1-32g", 0, 0),
	C("pi3", "sdxc-a2-64g", 0, 0), C("pi3", "sdhc-no-hs-4g", 0, 0),
	C("pi3", "sdhc-1bit-4g", 0, 0), C("pi3", "sdhc-slow-writer-8g", 0, 0),
	C("pi3", "sdhc-gc-stalls-16g", 0, 0), C("pi3", "instant-4g", 0, 0),
	C("pi3", "fixed-800us-8g", 0, 0), C("pi3", "sdsc-v2-2g", 0, 0),
	C("pi3", "sdsc-v1-128m", 0, 0), C("pi3", "qemu-like-1g", 0, 0),
	C("pi3", "sdhc-gaps-16g", 0, 0), C("pi3", "sdhc-c10-16g", 1, 0),
	/* The idealised host the split was first checked on. */
	C("sim", "sdhc-c10-16g", 0, 0), C("sim", "instant-4g", 0, 0),
	C("sim", "sdhc-1bit-4g", 0, 0), C("sim", "sdxc-a2-64g", 0, 0),
	/* CPU-paced hosts: the data port is slower than the bus. */
	C("pi1", "sdhc-c10-16g", 0, 0), C("pi1", "sdxc-u3-128g", 0, 0),
	C("pi1", "sdhc-a1-32g", 0, 0), C("pi1", "instant-4g", 0, 0),
	C("pi1", "sdhc-1bit-4g", 0, 0), C("pi1", "sdhc-no-hs-4g", 0, 0),
	C("pi0", "sdhc-c10-16g", 0, 0), C("pi0", "sdxc-a2-64g", 0, 0),
	C("pi0", "instant-4g", 0, 0), C("pi0", "sdhc-c4-8g", 0, 0),
	C("pi2", "sdhc-c10-16g", 0, 0), C("pi2", "instant-4g", 0, 0),
	/* UHS-I: every mode the cards run, on a 200 MHz SDR104 host and
	 * on the Pi 4's EMMC2 (SDR50/DDR50 at 100 MHz). */
	C("uhs-sdr104", "uhs-sdr104-a2-64g", 0, 0),
	C("uhs-sdr104", "uhs-sdr104-a1-32g", 0, 0),
	C("uhs-sdr104", "uhs-sdr50-16g", 0, 0),
	C("uhs-sdr104", "uhs-ddr50-32g", 0, 0),
	C("uhs-sdr104", "uhs-narrow-window-128g", 0, 0),
	C("uhs-sdr104", "uhs-sdr104-a1-32g", 0, SD_MODE_SDR25),
	C("pi4-uhs", "uhs-sdr104-a2-64g", 0, 0),
	C("pi4-uhs", "uhs-sdr104-a2-64g", 0, SD_MODE_SDR50),
	C("pi4-uhs", "uhs-sdr50-16g", 0, 0),
	/* The fastest CPU. */
	C("pi4", "sdhc-c10-16g", 0, 0), C("pi4", "sdxc-a2-64g", 0, 0),
	C("pi4", "instant-4g", 0, 0), C("pi4", "sdhc-slow-writer-8g", 0, 0),
	/* The Pi 4's EMMC2 moving data by ADMA2: no CPU in the data path. */
	C("pi4-emmc2", "sdhc-c10-16g", 0, 0), C("pi4-emmc2", "sdxc-a2-64g", 0, 0),
	C("pi4-emmc2", "instant-4g", 0, 0), C("pi4-emmc2", "sdhc-slow-writer-8g", 0, 0),
	C("pi4-emmc2", "sdhc-1bit-4g", 0, 0), C("pi4-emmc2", "sdxc-u3-128g", 0, 0),
	/* A controller with long gaps of its own. */
	C("test-gaps", "sdhc-c10-16g", 0, 0), C("test-gaps", "sdxc-u3-128g", 0, 0),
	C("test-gaps", "instant-4g", 0, 0), C("test-gaps", "sdhc-a1-32g", 0, 0),
	/* The BCM2835 SDHOST controller (its 16-word FIFO; the clock held
	 * while the FIFO is full on a read, empty on a write), by PIO: the
	 * CPU-paced Pi 0 / Pi 1, the Pi 3, the idealised and the fastest CPU;
	 * slow, typical, fast and slow-writing cards. */
	SDHOST_PIO("pi1", "sdhc-c10-16g", 0), SDHOST_PIO("pi1", "instant-4g", 0),
	SDHOST_PIO("pi1", "sdhc-c4-8g", 0),
	SDHOST_PIO("pi0", "sdhc-c10-16g", 0), SDHOST_PIO("pi0", "sdxc-a2-64g", 0),
	SDHOST_PIO("pi3", "sdhc-c10-16g", 0), SDHOST_PIO("pi3", "instant-4g", 0),
	SDHOST_PIO("pi3", "sdhc-c4-8g", 0),
	SDHOST_PIO("pi3", "sdhc-slow-writer-8g", 0),
	SDHOST_PIO("pi3", "sdhc-c10-16g", 1),
	SDHOST_PIO("sim", "sdhc-c10-16g", 0), SDHOST_PIO("pi4", "instant-4g", 0),
	/* SDHOST by the DMA engine (DREQ 13; a read's last 3 words by the CPU). */
	SDHOST_DMA("pi1", "sdhc-c10-16g"), SDHOST_DMA("pi1", "instant-4g"),
	SDHOST_DMA("pi3", "sdhc-c10-16g"), SDHOST_DMA("pi3", "instant-4g"),
	SDHOST_DMA("pi3", "sdhc-c4-8g"),
	SDHOST_DMA("pi3", "sdhc-slow-writer-8g"),
	SDHOST_DMA("pi0", "sdxc-a2-64g"),
	/* The EMMC (SDHCI) by the DMA engine (DREQ 11). */
	EMMC_DMA("pi1", "sdhc-c10-16g"), EMMC_DMA("pi1", "instant-4g"),
	EMMC_DMA("pi3", "sdhc-c10-16g"), EMMC_DMA("pi3", "instant-4g"),
	EMMC_DMA("pi3", "sdhc-slow-writer-8g"),
	EMMC_DMA("pi0", "sdxc-a2-64g"),
};

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
	{ "seq-read-64k", false, SEQ, 128, WL_MULTI_AUTO12, 16 },
	{ "seq-write-64k", true, SEQ, 128, WL_MULTI_AUTO12, 16 },
	{ "seq-read-1m", false, SEQ, 2048, WL_MULTI_CMD12, 3 },
	{ "rand-read-4k", false, RANDOM, 8, WL_MULTI_AUTO12, 48 },
	{ "rand-write-4k", true, RANDOM, 8, WL_MULTI_AUTO12, 32 },
	{ "rand-read-512", false, RANDOM, 1, WL_MULTI_CMD12, 48 },
	{ "read-cmd17-loop", false, SEQ, 16, WL_SINGLE_LOOP, 12 },
	{ "write-cmd24-loop", true, SEQ, 16, WL_SINGLE_LOOP, 6 },
	{ "write-preerase-64k", true, SEQ, 128, WL_MULTI_PREERASE, 10 },
	{ "read-cmd23-64k", false, SEQ, 128, WL_MULTI_CMD23, 10 },
	{ "mix70-4k", false, MIX70, 8, WL_MULTI_AUTO12, 48 },
};

/* ---- bookkeeping ----------------------------------------------------------------- */

/* SIM_ACCURACY_VARIANT: enum sim_blkcnt, SIM_GEN_DRAWN, or -1 (none given:
 * every host its own, the generated ones bus). */
static int variant = -1;

static uint8_t *mem;
static struct dma_chan dch;
static struct test_area area;
static struct write_guard guard;

/* One set of pairs (the shipped profiles, the generated ones). */
struct figure {
	const char *what;
	unsigned pairs, within, within_wide, verdicts, verdict_fail, no_diag, mixed, host_true;
	/* no diagnosis; of them / of all on hosts whose probe confirmed the
	 * Block Count look; diagnosed and off by more than TOL_PP */
	unsigned nodiag, look_nodiag, look_all, wrong;
	double worst;
	char worst_what[160];
	/* the regimes of the misses: a label and how many */
	char regime[64][96];
	unsigned regime_n[64], nregimes;
};
static struct figure shipped = { .what = "shipped profiles" };
static struct figure generated = { .what = "generated pairs" };

struct group {
	const char *host;
	unsigned pairs, within, within_wide, verdicts, verdicts_right;
	double worst;
};
static struct group groups[48];
static unsigned ngroups;

/* The pair being run: its label, and for a generated one the regime its
 * misses are counted under. */
struct pair_ctx {
	const char *label;
	const char *card;
	struct figure *fig;
	const struct sim_profile *prof;  /* generated card (NULL: shipped) */
	const struct sim_gen_host *ghost; /* generated host */
};

static void quiet(char c)
{
	(void)c;
}

static struct group *group_of(const char *host)
{
	unsigned i;

	for (i = 0; i < ngroups; i++)
		if (!strcmp(groups[i].host, host))
			return &groups[i];
	if (ngroups == sizeof(groups) / sizeof(groups[0]))
		return &groups[0];
	groups[ngroups].host = host;
	return &groups[ngroups++];
}

/* The host as the pairs name it: the host profile, and the controller and
 * data path when they are not the profile's own (SDHOST, the DMA engine). */
static const char *host_label(const struct combo *cb)
{
	static char labels[sizeof(combos) / sizeof(combos[0])][48];
	size_t i = (size_t)(cb - combos);

	if (!labels[i][0])
		snprintf(labels[i], sizeof(labels[i]), "%s%s%s", cb->host,
			 cb->sdhost ? "+sdhost" : cb->dma ? "+emmc" : "", cb->dma ? "-dma" : "");
	return labels[i];
}

/* The per-host rows of the generated pairs: one per data path. */
static const char *gen_group(enum sim_gen_path p)
{
	static char names[SIM_GEN_NPATHS][32];

	if (!names[p][0])
		snprintf(names[p], sizeof(names[p]), "generated %s", sim_gen_path_name(p));
	return names[p];
}

static const char *part(enum bottleneck b)
{
	return b == BOTTLENECK_CARD ? "card" : b == BOTTLENECK_BUS ? "bus" :
	       b == BOTTLENECK_HOST ? "host" : "mixed";
}

/* The bucket a value falls in, as text ("200-799"). */
static const char *bucket(unsigned v, const unsigned *edges, unsigned n, char *buf, size_t cap)
{
	unsigned i;

	for (i = 0; i + 1 < n && v >= edges[i + 1]; i++)
		;
	if (i + 1 < n)
		snprintf(buf, cap, "%u-%u", edges[i], edges[i + 1] - 1);
	else
		snprintf(buf, cap, "%u+", edges[i]);
	return buf;
}

/* What regime a miss is in: for a generated pair the direction, the card's
 * clock-counted waits, the host's CPU cost per word in that direction and
 * the data path; for a shipped pair its host. */
static void regime_of(const struct pair_ctx *pc, const struct wl_case *k, char *buf,
		      size_t cap)
{
	static const unsigned clk[] = { 0, 1, 50, 200, 800 };
	static const unsigned ns[] = { 0, 80, 200, 350 };
	const char *dir = k->pat == MIX70 ? "mixed" : k->write ? "write" : "read";
	enum sim_gen_path gp;
	char b1[24], b2[24];

	if (!pc->prof) {
		snprintf(buf, cap, "%s, shipped %s/%s", dir, pc->label, pc->card);
		return;
	}
	gp = pc->ghost->path;
	bucket(k->write ? pc->prof->busy_min_clocks : pc->prof->read_gap_clocks, clk, 5, b1,
	       sizeof(b1));
	bucket(k->write ? pc->ghost->c.data_write_ns : pc->ghost->c.data_read_ns, ns, 4, b2,
	       sizeof(b2));
	if (gp == SIM_GEN_ADMA2 || gp == SIM_GEN_SDHOST_DMA || gp == SIM_GEN_EMMC_DMA)
		snprintf(buf, cap, "%s, card clocks %s, DMA (%s)", dir, b1, sim_gen_path_name(gp));
	else
		snprintf(buf, cap, "%s, card clocks %s, PIO %s ns/word%s", dir, b1, b2,
			 gp == SIM_GEN_SDHOST_PIO ? " (SDHOST)" : "");
}

static void count_regime(struct figure *f, const char *r)
{
	unsigned i;

	for (i = 0; i < f->nregimes; i++)
		if (!strcmp(f->regime[i], r))
			break;
	if (i == f->nregimes) {
		if (f->nregimes == sizeof(f->regime) / sizeof(f->regime[0]))
			i = f->nregimes - 1; /* the last one collects the rest */
		else
			snprintf(f->regime[f->nregimes++], sizeof(f->regime[0]), "%s", r);
	}
	f->regime_n[i]++;
}

/* The truth's parts ordered by share. */
static void rank(const double sh[3], enum bottleneck order[3])
{
	unsigned i, j;

	order[0] = BOTTLENECK_CARD;
	order[1] = BOTTLENECK_BUS;
	order[2] = BOTTLENECK_HOST;
	for (i = 1; i < 3; i++)
		for (j = i; j > 0 && sh[order[j]] > sh[order[j - 1]]; j--) {
			enum bottleneck t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

/* tr: the wire shares; cr: the critical-path shares (the verdict is about
 * the critical path: what a faster part would have shortened); valid: the
 * firmware gave a diagnosis (no broken bound, validity.c). The verdict must
 * name the truth's largest part of the critical path, or be "no
 * diagnosis" (docs/attribution.md, "The verdict against the truth").
 * Returns whether the verdict is not wrong. */
static bool check_verdict(struct figure *f, const char *id, const struct phase_split *ms,
			  bool valid, const double tr[3], const double cr[3])
{
	enum bottleneck order[3];
	char detail[200];
	bool ok;

	rank(cr, order);
	f->verdicts++;
	if (!valid) {
		f->no_diag++;
		return true;
	}
	if (ms->verdict == BOTTLENECK_MIXED) {
		/* Mixed: no part truly dominates, the first part named is the
		 * truth's largest and the second its second (each within the
		 * tolerance of the part it stands for). */
		bool top_ok = cr[order[0]] < ATTR_DOMINANT_PCT + TOL_VERDICT_PP;
		bool two_ok = (ms->top == order[0] ||
			       cr[ms->top] >= cr[order[0]] - TOL_VERDICT_PP) &&
			      (ms->second == order[1] || ms->second == order[0] ||
			       fabs(cr[ms->second] - cr[order[1]]) <= TOL_VERDICT_PP);

		ok = top_ok && two_ok;
		f->mixed++;
		snprintf(detail, sizeof(detail), "mixed %s/%s, critical truth card %.1f bus %.1f "
			 "host %.1f", part(ms->top), part(ms->second), cr[0], cr[1], cr[2]);
	} else {
		/* A named part must be the critical path's largest (within the
		 * tolerance) and dominant. The ceiling rule names the bus when
		 * the workload runs within 10% of what the bus allows: the bus
		 * must then be the critical path's largest too, and the wires
		 * busy that much. */
		bool ceiling = ms->verdict == BOTTLENECK_BUS &&
			       ms->ceiling_pct >= ATTR_CEILING_BUS_PCT;
		bool largest = order[0] == ms->verdict ||
			       cr[ms->verdict] >= cr[order[0]] - TOL_VERDICT_PP;

		if (ceiling)
			ok = largest && tr[BOTTLENECK_BUS] >= ATTR_CEILING_BUS_PCT - TOL_VERDICT_PP;
		else
			ok = largest && cr[ms->verdict] >= ATTR_DOMINANT_PCT - TOL_VERDICT_PP;
		snprintf(detail, sizeof(detail), "%s%s, critical truth card %.1f bus %.1f host %.1f, "
			 "wire bus %.1f", part(ms->verdict), ceiling ? " (ceiling rule)" : "",
			 cr[0], cr[1], cr[2], tr[BOTTLENECK_BUS]);
	}
	if (!ok) {
		f->verdict_fail++;
		printf("    MISS verdict %s: %s\n", id, detail);
	}
	return ok;
}

/* Run one workload; its measured split and the truth's shares. */
static void measure_case(struct wl_ctx *c, const struct wl_case *k, struct wl_meas *m,
			 double tr[3], double cr[3], struct sim_wire_sum *w)
{
	struct sim_wire_sum w0, w1;
	uint32_t slots = area.count / k->blocks;
	double wall;
	unsigned i;

	wl_begin(c, m, "test", k->name, k->name, k->write, k->cmd, k->blocks, 0);
	sim_wire_totals(&w0);
	for (i = 0; i < k->ops; i++) {
		struct wl_op op;

		op.write = k->pat == MIX70 ? (wl_rand(c) % 10) < 3 : k->write;
		op.blocks = k->blocks;
		op.cmd = k->cmd;
		op.lba = area.first_lba + (k->pat == SEQ ? i * k->blocks
					   : (wl_rand(c) % slots) * k->blocks);
		CHECK_EQ_I(wl_do(c, m, &op), 0);
	}
	sim_wire_totals(&w1);
	wl_end(c, m);
	sim_wire_diff(&w1, &w0, w);
	CHECK_EQ_U(w1.t_to, sim_now_ns()); /* nothing left undecided */
	wall = (double)(w->t_to - w->t_from);
	tr[BOTTLENECK_CARD] = 100.0 * (double)sim_wire_card_ns(w) / wall;
	tr[BOTTLENECK_BUS] = 100.0 * (double)sim_wire_bus_ns(w) / wall;
	tr[BOTTLENECK_HOST] = 100.0 * (double)sim_wire_host_ns(w) / wall;
	sim_wire_critical(w, &cr[BOTTLENECK_CARD], &cr[BOTTLENECK_BUS], &cr[BOTTLENECK_HOST]);
}

static void print_phases(const struct wl_meas *m, const struct sim_wire_sum *w)
{
	double wall = (double)(w->t_to - w->t_from);
	unsigned i;

	printf("    phases: cmd %.1f access %.1f data %.1f busy %.1f gap %.1f | "
	       "host xfer %.1f sw %.1f, cpu busy %.1f of pipe %.1f\n", m->split.cmd_pct,
	       m->split.access_pct, m->split.data_pct, m->split.busy_pct, m->split.gap_pct,
	       m->split.host_xfer_pct, m->split.host_sw_pct, m->split.cpu_busy_pct,
	       m->split.pipe_pct);
	printf("    bounds: hide bus %.1f-%.1f card %.1f-%.1f; shares +- %.1f\n",
	       m->split.hide_lo_bus_pct, m->split.hide_hi_bus_pct, m->split.hide_lo_card_pct,
	       m->split.hide_hi_card_pct, m->split.share_unc_pct);
	printf("    pace: %llu of %llu pipeline blocks waited for, %.1f%% of the time\n",
	       (unsigned long long)m->acc.wait_blocks, (unsigned long long)m->acc.counted_blocks,
	       100.0 * (double)m->acc.wait_ns / wall);
	if (m->acc.fifo_reqs)
		printf("    fifo: %llu of %llu requests looked, %llu words; seams %llu, %.1f%% of "
		       "the time, %llu words; full %llu, %.1f%%, %llu words\n",
		       (unsigned long long)m->acc.fifo_reqs, (unsigned long long)m->acc.ops,
		       (unsigned long long)m->acc.fifo_words, (unsigned long long)m->acc.seams,
		       100.0 * (double)m->acc.seam_ns / wall, (unsigned long long)m->acc.seam_words,
		       (unsigned long long)m->acc.seams_full, 100.0 * (double)m->acc.seam_full_ns / wall,
		       (unsigned long long)m->acc.seam_full_words);
	printf("    truth:");
	for (i = 0; i < SIM_W_NCAT; i++)
		printf(" %s %.1f", sim_wcat_name((enum sim_wcat)i), 100.0 * (double)w->ns[i] / wall);
	printf("\n");
}

/* The probe confirmed every look the driver's split uses: SDHCI's Block
 * Count on the bus, and (where it probed writes) the DAT[0] level live
 * and Buffer Write Enable set with a block waiting; SDHOST's FIFO fill
 * live. */
static bool looks_confirmed(const struct sd_host *h)
{
	/* SDHOST's one look: its FIFO fill in SDEDM, found live */
	if (h->fill_look != SD_FILL_UNPROBED)
		return h->fill_look == SD_FILL_LIVE;
	return h->blkcnt_look == SD_BLKCNT_BUS &&
	       (h->dat0_look == SD_DAT0_UNPROBED || h->dat0_look == SD_DAT0_LIVE) &&
	       (h->bwe_look == SD_BWE_UNPROBED || h->bwe_look == SD_BWE_SLOT);
}

static void run_case(struct wl_ctx *c, const struct wl_case *k, const struct pair_ctx *pc)
{
	struct wl_meas m;
	struct sim_wire_sum w;
	struct figure *f = pc->fig;
	struct group *g = group_of(pc->ghost ? gen_group(pc->ghost->path) : pc->label);
	double tr[3], me[3], cr[3], e = 0;
	char id[160], reg[96];
	unsigned i;
	bool ok, vok;

	snprintf(id, sizeof(id), "%s/%s/%s", pc->label, pc->card, k->name);
	measure_case(c, k, &m, tr, cr, &w);
	f->look_all += looks_confirmed(c->card->host);
	if (!m.validity.valid) {
		/* Silent, not wrong: counted apart. */
		f->nodiag++;
		f->look_nodiag += looks_confirmed(c->card->host);
		printf("  %-52s no diagnosis: %s\n", id, m.validity.why);
		return;
	}
	me[BOTTLENECK_CARD] = m.split.card_pct;
	me[BOTTLENECK_BUS] = m.split.bus_pct;
	me[BOTTLENECK_HOST] = m.split.host_pct;
	for (i = 0; i < 3; i++) {
		double d = fabs(me[i] - tr[i]);

		/* NaN on either side is a miss, never a pass. */
		if (isnan(d) || isnan(e))
			e = NAN;
		else if (d > e)
			e = d;
	}
	f->pairs++;
	g->pairs++;
	ok = e <= TOL_PP; /* false for NaN */
	f->wrong += !ok;
	f->within += ok;
	g->within += ok;
	g->within_wide += e <= TOL_WIDE_PP;
	f->within_wide += e <= TOL_WIDE_PP;
	if (!(e <= f->worst)) {
		f->worst = e;
		snprintf(f->worst_what, sizeof(f->worst_what), "%s", id);
	}
	if (!(e <= g->worst))
		g->worst = e;
	if (cr[BOTTLENECK_HOST] >= ATTR_DOMINANT_PCT)
		f->host_true++;
	printf("  %-52s measured %5.1f %5.1f %5.1f | truth %5.1f %5.1f %5.1f | err %5.1f | "
	       "critical %5.1f %5.1f %5.1f | %s\n", id, me[0], me[1], me[2], tr[0], tr[1], tr[2], e,
	       cr[0], cr[1], cr[2],
	       m.validity.valid ? bottleneck_name(m.split.verdict) : "no diagnosis");
	if (getenv("SIM_ACCURACY_PHASES"))
		print_phases(&m, &w);
	vok = check_verdict(f, id, &m.split, m.validity.valid, tr, cr);
	g->verdicts++;
	g->verdicts_right += vok && m.validity.valid;
	if (!ok || !vok) {
		regime_of(pc, k, reg, sizeof(reg));
		count_regime(f, reg);
	}
	if (!ok)
		printf("    MISS share %s: error %.1f pp [%s]\n", id, e, reg);
}

/* The engine on the card and host that are up: the calibration, then every
 * workload the card allows. */
static void run_cases(struct simh *s, const struct pair_ctx *pc)
{
	struct wl_ctx c;
	unsigned k;

	memset(&area, 0, sizeof(area));
	area.usable = true;
	area.source = TEST_AREA_CONFIG;
	area.first_lba = 1u << 16;
	area.count = 1u << 16; /* 32 MiB */
	if ((uint64_t)area.first_lba + area.count > s->card.blocks) {
		area.first_lba = s->card.blocks / 2;
		area.count = s->card.blocks / 4;
	}
	write_guard_init(&guard, &s->card, &area, true);
	wl_ctx_init(&c, &guard, mem, MEM_BYTES, true, false, 0x1234, 42);
	c.read_base = area.first_lba;
	/* As the suite does first: probe the controller
	 * (bench/workloads/silicon.c), measure the bus
	 * (bench/workloads/clock_sweep.c). */
	wl_silicon_probe(&c);
	printf("  silicon: Block Count %s\n", wl_blkcnt_name(s->host->blkcnt_look));
	printf("  silicon: Buffer Write Enable %s, DAT0 %s\n", wl_bwe_name(s->host->bwe_look),
	       wl_dat0_name(s->host->dat0_look));
	if (s->host->fill_look != SD_FILL_UNPROBED)
		printf("  silicon: SDHOST fill %s\n", wl_fill_name(s->host->fill_look));
	wl_bus_calibrate(&c);
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		if ((cases[k].write || cases[k].pat == MIX70) && s->card.write_protected)
			continue;
		if (cases[k].cmd == WL_MULTI_CMD23 && !s->card.cmd23)
			continue;
		run_case(&c, &cases[k], pc);
	}
	CHECK_EQ_U(sim_violation_count(), 0);
}

static void attach_dma(struct simh *s, uintptr_t base, bool sdhost)
{
	CHECK_EQ_I(simh_attach_dma(s, &dch, base, sdhost), 0);
}

static void check_dma_moved(const char *label, const char *card)
{
	/* The data did go through the engine (not by PIO). */
	struct sim_dma_stats ds;

	sim_dma_get_stats(&ds);
	if (!(ds.words_from_port > 0 && ds.words_to_port > 0))
		CHECK_FAIL_("%s/%s: the DMA engine moved %u words from and %u to the port",
			    label, card, ds.words_from_port, ds.words_to_port);
}

/* The write looks' variants by name (SIM_ACCURACY_VARIANT=bwe-empty,
 * dat0-lag, dat0-none): Block Count as on the bus, that behaviour for
 * every host. */
static const struct {
	const char *name;
	uint8_t bwe, dat0;
} write_variants[] = {
	{ "bwe-empty", SIM_BWE_EMPTY, SIM_DAT0_LIVE },
	{ "dat0-lag", SIM_BWE_SLOT, SIM_DAT0_LAG },
	{ "dat0-none", SIM_BWE_SLOT, SIM_DAT0_NONE },
};
static int write_variant = -1;

/* SDHOST's SDEDM fill variants by name (SIM_ACCURACY_VARIANT=fill-lag,
 * fill-stepped): every other look as the authorities read it, that fill
 * for every host (a lag of 100 SD clocks on the shipped ones; the
 * generated ones draw theirs, sim/sim_gen.c). */
static const struct {
	const char *name;
	uint8_t fill;
} fill_variants[] = {
	{ "fill-lag", SIM_FILL_LAG },
	{ "fill-stepped", SIM_FILL_STEPPED },
};
static int fill_variant = -1;

/* A shipped host under the variant asked for (the generated ones:
 * sim_gen_*). */
static void variant_config(struct sim_config *cfg)
{
	if (variant >= 0 && variant < SIM_BLKCNT_N)
		cfg->blkcnt = (uint8_t)variant;
	if (write_variant >= 0) {
		cfg->bwe = write_variants[write_variant].bwe;
		cfg->dat0 = write_variants[write_variant].dat0;
		cfg->dat0_lag_ns = 20000;
	}
	if (fill_variant >= 0) {
		cfg->sdhost_fill = fill_variants[fill_variant].fill;
		cfg->sdhost_fill_lag = 100;
	}
}

static void run_combo(const struct combo *cb)
{
	struct simh s;
	struct sim_config cfg;
	char err[300], card[80];
	struct pair_ctx pc = { host_label(cb), card, &shipped, NULL, NULL };

	snprintf(card, sizeof(card), "%s%s%s%s", cb->card, cb->width == 1 ? "@1bit" : "",
		 cb->mode ? "@" : "", cb->mode ? sd_bus_mode_name(cb->mode) : "");

	sim_config_default(&cfg);
	CHECK_EQ_I(sim_host_load(cb->host, &cfg, err, sizeof(err)), 0);
	if (cb->sdhost) {
		/* SDHOST at its BCM2835 address, on the core clock. */
		cfg.sdhost = true;
		cfg.base = 0x20202000u;
	}
	if (cb->dma)
		cfg.dma_mem_alias = DMA_MEM_ALIAS_BCM2835;
	variant_config(&cfg); /* the UHS hosts below keep theirs */
	if (cfg.caps_hi)
		CHECK_EQ_I(simh_start_uhs(&s, cb->card, cb->host, cb->mode), 0);
	else
		CHECK_EQ_I(simh_start(&s, cb->card, &cfg), 0);
	if (s.init_ret)
		return;
	if (cb->dma)
		attach_dma(&s, cfg.base, cb->sdhost);
	if (cb->width == 1)
		CHECK_EQ_I(sd_set_bus(&s.card, 0, 1), 0);
	run_cases(&s, &pc);
	if (cb->dma)
		check_dma_moved(pc.label, pc.card);
}

/* Generated pair i: card seed i, host seed i (sim/sim_gen.c). */
static void run_generated(uint64_t i)
{
	static struct sim_profile p;
	static struct sim_gen_host h;
	static char label[48];
	struct simh s;
	bool dma;
	struct pair_ctx pc = { label, p.name, &generated, &p, &h };

	sim_gen_card(i, &p);
	sim_gen_host(i, &h);
	snprintf(label, sizeof(label), "%s:%s", h.c.host_name, sim_gen_path_name(h.path));
	if (getenv("SIM_ACCURACY_ONLY") && !strstr(label, getenv("SIM_ACCURACY_ONLY")))
		return;
	printf("  pair %llu: %s | %s\n", (unsigned long long)i, p.desc, h.desc);
	dma = h.path == SIM_GEN_SDHOST_DMA || h.path == SIM_GEN_EMMC_DMA;
	if (dma)
		h.c.dma_mem_alias = DMA_MEM_ALIAS_BCM2835;
	if (h.path == SIM_GEN_SDHCI_UHS)
		CHECK_EQ_I(simh_start_uhs_p(&s, &p, &h.c, 0), 0);
	else
		CHECK_EQ_I(simh_start_p(&s, &p, &h.c), 0);
	if (s.init_ret)
		return;
	if (dma)
		attach_dma(&s, h.c.base, h.path == SIM_GEN_SDHOST_DMA);
	run_cases(&s, &pc);
	if (dma)
		check_dma_moved(label, p.name);
}

static const char *variant_name(void)
{
	if (write_variant >= 0)
		return write_variants[write_variant].name;
	if (fill_variant >= 0)
		return fill_variants[fill_variant].name;
	return variant < 0 ? "as profiled" : variant == (int)SIM_GEN_DRAWN ? "drawn" :
	       sim_blkcnt_name((unsigned)variant);
}

static void variant_from_env(void)
{
	const char *v = getenv("SIM_ACCURACY_VARIANT");
	unsigned i;

	if (!v)
		return;
	if (!strcmp(v, "drawn"))
		variant = (int)SIM_GEN_DRAWN;
	for (i = 0; i < SIM_BLKCNT_N; i++)
		if (!strcmp(v, sim_blkcnt_name(i)))
			variant = (int)i;
	for (i = 0; i < sizeof(write_variants) / sizeof(write_variants[0]); i++)
		if (!strcmp(v, write_variants[i].name)) {
			write_variant = (int)i;
			variant = SIM_BLKCNT_BUS;
			sim_gen_bwe = write_variants[i].bwe;
			sim_gen_dat0 = write_variants[i].dat0;
		}
	for (i = 0; i < sizeof(fill_variants) / sizeof(fill_variants[0]); i++)
		if (!strcmp(v, fill_variants[i].name)) {
			fill_variant = (int)i;
			variant = SIM_BLKCNT_BUS;
			sim_gen_fill = fill_variants[i].fill;
		}
	CHECK(variant >= 0);
	sim_gen_blkcnt = (unsigned)variant;
}

static double share(unsigned n, unsigned of)
{
	return of ? 100.0 * n / of : 0.0;
}

/* The figure of one set, as the result. */
static void print_figure(struct figure *f)
{
	unsigned i, j;

	/* the regimes with the most misses first */
	for (i = 1; i < f->nregimes; i++)
		for (j = i; j > 0 && f->regime_n[j] > f->regime_n[j - 1]; j--) {
			char t[sizeof(f->regime[0])];
			unsigned n = f->regime_n[j];

			memcpy(t, f->regime[j], sizeof(t));
			memcpy(f->regime[j], f->regime[j - 1], sizeof(t));
			memcpy(f->regime[j - 1], t, sizeof(t));
			f->regime_n[j] = f->regime_n[j - 1];
			f->regime_n[j - 1] = n;
		}

	printf("  %s: %u workloads, %u within %.0f pp (%.1f%%), %u within %.0f pp (%.1f%%), "
	       "worst %.2f pp (%s); verdicts right %u of %u (%.1f%%), %u no diagnosis, %u wrong\n",
	       f->what, f->pairs, f->within, TOL_PP, share(f->within, f->pairs), f->within_wide,
	       TOL_WIDE_PP, share(f->within_wide, f->pairs), f->worst, f->worst_what,
	       f->verdicts - f->verdict_fail - f->no_diag, f->verdicts,
	       share(f->verdicts - f->verdict_fail - f->no_diag, f->verdicts), f->no_diag,
	       f->verdict_fail);
	for (i = 0; i < f->nregimes; i++)
		printf("    misses (share or verdict) in regime %-60s %3u\n", f->regime[i],
		       f->regime_n[i]);
	printf("  %s: %u workloads, %u diagnosed (%.1f%%); confidently wrong: %u shares, %u "
	       "verdicts\n", f->what, f->pairs + f->nodiag, f->pairs,
	       share(f->pairs, f->pairs + f->nodiag), f->wrong, f->verdict_fail);
	printf("  %s, Block Count %s: %u workloads, %u no diagnosis, %u confidently wrong "
	       "(diagnosed, off by more than %.0f pp); on hosts whose probe confirmed the look "
	       "%u of %u diagnosed (%.1f%%)\n", f->what, variant_name(), f->pairs + f->nodiag,
	       f->nodiag, f->wrong, TOL_PP, f->look_all - f->look_nodiag, f->look_all,
	       share(f->look_all - f->look_nodiag, f->look_all));
}

/* One floor: a figure below it fails, naming the set. */
static void floor_check(const char *what, const char *fig, unsigned n, unsigned of, double floor,
			const char *name)
{
	if (of && !(share(n, of) >= floor))
		CHECK_FAIL_("%s: %s %u of %u (%.1f%%), below %s %.1f%%", what, fig, n, of,
			    share(n, of), name, floor);
}
/* a floor by its name */
#define FLOOR(what, fig, n, of, f) floor_check(what, fig, n, of, f, #f)

/* The floors, in every mode: each applies to the part that ran (a host
 * group of the shipped profiles, the generated pairs of the seeds run),
 * so a run of a subset - the hold-out command among them - checks its
 * figures as the whole run does. The counts (MIN_*) need the whole
 * shipped list; the generated floors of make test's own pairs are the
 * stricter ones measured there. */
static void confidently_wrong(const struct figure *t)
{
	if (t->wrong + t->verdict_fail > FLOOR_CONFIDENTLY_WRONG)
		CHECK_FAIL_("%s: confidently wrong: %u shares off by more than %.0f pp and %u "
			    "verdicts wrong, diagnosed (floor %u)", t->what, t->wrong, TOL_PP,
			    t->verdict_fail, FLOOR_CONFIDENTLY_WRONG);
}

static void check_floors(bool all_shipped, bool test_pairs)
{
	unsigned p;

	for (p = 0; p < ngroups; p++) {
		const struct group *g = &groups[p];

		if (!strncmp(g->host, "generated ", 10))
			continue; /* the generated pairs' floors are the set's */
		FLOOR(g->host, "within 5 pp", g->within, g->pairs, FLOOR_SHIPPED_HOST_5);
		FLOOR(g->host, "within 10 pp", g->within_wide, g->pairs, FLOOR_SHIPPED_HOST_10);
		FLOOR(g->host, "verdicts right", g->verdicts_right, g->verdicts,
		      FLOOR_SHIPPED_HOST_VERDICT);
	}
	FLOOR(generated.what, "verdicts right", generated.verdicts - generated.verdict_fail -
	      generated.no_diag, generated.verdicts, FLOOR_GEN_VERDICT);
	confidently_wrong(&generated);
	confidently_wrong(&shipped);
	/* Under a variant whose look the probe refuses, silence is the
	 * promise: its floor is MIN_DIAG_PCT on the hosts whose probe
	 * confirmed the look (below, split_against_the_wire_truth). */
	if (variant < 0)
		FLOOR(generated.what, "diagnosed", generated.pairs,
		      generated.pairs + generated.nodiag, FLOOR_GEN_DIAG);
	if (test_pairs) {
		FLOOR(generated.what, "within 5 pp", generated.within, generated.pairs,
		      FLOOR_GEN_TEST_5);
		FLOOR(generated.what, "within 10 pp", generated.within_wide, generated.pairs,
		      FLOOR_GEN_TEST_10);
	}
	FLOOR(generated.what, "within 5 pp", generated.within, generated.pairs, FLOOR_GEN_5);
	FLOOR(generated.what, "within 10 pp", generated.within_wide, generated.pairs,
	      FLOOR_GEN_10);
	if (all_shipped) {
		CHECK(shipped.pairs >= MIN_PAIRS);
		CHECK(shipped.verdicts >= MIN_VERDICTS);
		CHECK(shipped.mixed >= MIN_MIXED);
		CHECK(shipped.host_true >= MIN_HOST_TRUE);
		FLOOR(shipped.what, "within 5 pp", shipped.within, shipped.pairs,
		      FLOOR_SHIPPED_5);
		FLOOR(shipped.what, "within 10 pp", shipped.within_wide, shipped.pairs,
		      FLOOR_SHIPPED_10);
		FLOOR(shipped.what, "verdicts right", shipped.verdicts - shipped.verdict_fail -
		      shipped.no_diag, shipped.verdicts, FLOOR_SHIPPED_VERDICT);
	}
	if (test_pairs)
		CHECK(generated.pairs >= 8 * GEN_PAIRS_TEST);
}

TEST(split_against_the_wire_truth)
{
	const char *only = getenv("SIM_ACCURACY_ONLY"), *gn = getenv("SIM_ACCURACY_GEN");
	const char *gf = getenv("SIM_ACCURACY_GEN_FIRST");
	uint64_t ngen = gn ? strtoull(gn, NULL, 0) : GEN_PAIRS_TEST;
	uint64_t first = gf ? strtoull(gf, NULL, 0) : 1, i;
	unsigned p;

	variant_from_env();
	mem = aligned_alloc(64, MEM_BYTES); /* cache-line aligned: the DMA paths take it */
	CHECK(mem != NULL);
	if (!mem)
		return;
	host_console_hook = quiet;
	for (p = 0; p < sizeof(combos) / sizeof(combos[0]); p++)
		if (!only || strstr(host_label(&combos[p]), only))
			run_combo(&combos[p]);
	for (i = first; i < first + ngen; i++)
		run_generated(i);
	host_console_hook = NULL;
	free(mem);

	printf("  tolerance %.0f pp per share; per host:\n", TOL_PP);
	for (p = 0; p < ngroups; p++)
		printf("  host %-24s %3u pairs, %3u within %.0f pp, worst %.2f pp\n", groups[p].host,
		       groups[p].pairs, groups[p].within, TOL_PP, groups[p].worst);
	print_figure(&shipped);
	print_figure(&generated);
	/* The floors were set on the controllers as profiled: under a
	 * variant the shipped list's counts and floors are not checked. */
	check_floors(only == NULL && variant < 0, ngen == GEN_PAIRS_TEST && first == 1);
	/* Right or silent on every controller the authorities allow: on
	 * make test's pairs, and on any number of pairs under a variant
	 * (make bench-silicon). */
	if (variant >= 0 || (ngen == GEN_PAIRS_TEST && first == 1)) {
		CHECK_EQ_U(generated.wrong, 0);
		if (generated.look_all)
			CHECK(share(generated.look_all - generated.look_nodiag,
				    generated.look_all) >= MIN_DIAG_PCT);
	}
}

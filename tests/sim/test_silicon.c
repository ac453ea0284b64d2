/*
 * test_silicon.c - the probe of the controller's behaviour (sdhci.c
 * sdhci_characterise, bench/workloads/silicon.c; docs/silicon.md) on every
 * SDHCI Block Count behaviour the simulator models (sim.h enum
 * sim_blkcnt): it must name each one right, on fast and CPU-paced hosts,
 * buffers of one to four blocks, fast and slow cards, 1-bit and 4-bit, and
 * on generated hosts; it costs little (printed); and the driver's read
 * uses the Block Count look only where the probe confirmed it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/sd/sd.h"
#include "drivers/sd/sd_regs.h"
#include "drivers/timer.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "sim/sim_gen.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

/* What the probe must say of each simulated behaviour. */
static const uint8_t expect[SIM_BLKCNT_N] = {
	[SIM_BLKCNT_BUS] = SD_BLKCNT_BUS,
	[SIM_BLKCNT_DRAIN] = SD_BLKCNT_DRAIN,
	[SIM_BLKCNT_STALE] = SD_BLKCNT_STALE,
};

/* The probe's cost bound: four blocks and two waits, on the slowest card. */
#define PROBE_MAX_US 20000.0

static double worst_us;

/* CMD6 is in the card's command set (SD 1.10 and later: SCR SD_SPEC). */
static bool cmd6_ok(const struct simh *s)
{
	struct sd_scr scr;

	if (!s->card.have_scr)
		return false;
	sd_scr_decode(s->card.scr, &scr);
	return scr.sd_spec >= 1;
}

/* The Pi 1's host profile, for a test to change its silicon behaviour. */
static void pi1_config(struct sim_config *cfg)
{
	char err[200];

	sim_config_default(cfg);
	CHECK_EQ_I(sim_host_load("pi1", cfg, err, sizeof(err)), 0);
}

/* A card on that host with a buffer of buf blocks and a w-bit bus; its
 * name in what. */
static void pi1_start(struct simh *s, struct sim_config *cfg, unsigned buf, unsigned w,
		      char *what, size_t cap)
{
	cfg->buf_blocks = buf;
	CHECK_EQ_I(simh_start(s, "sdhc-c10-16g", cfg), 0);
	if (w == 1)
		CHECK_EQ_I(sd_set_bus(&s->card, 0, 1), 0);
	snprintf(what, cap, "pi1, %u-block buffer, %u-bit", buf, w);
}

/* The first 60 generated cards, each on its generated host when the
 * host's path is in 'paths' (a bit per enum sim_gen_path) and the drivers
 * came up on it: fn(s, host, name). Returns how many ran. */
static unsigned on_generated_hosts(unsigned paths,
				   void (*fn)(struct simh *s, const struct sim_gen_host *h,
					      const char *what))
{
	uint64_t i;
	unsigned n = 0;

	sim_gen_blkcnt = SIM_GEN_DRAWN;
	for (i = 1; i <= 60; i++) {
		static struct sim_profile p;
		static struct sim_gen_host h;
		struct simh s;
		char what[80];

		sim_gen_card(i, &p);
		sim_gen_host(i, &h);
		if (!(paths & 1u << h.path))
			continue;
		if (h.path == SIM_GEN_SDHCI_UHS)
			CHECK_EQ_I(simh_start_uhs_p(&s, &p, &h.c, 0), 0);
		else
			CHECK_EQ_I(simh_start_p(&s, &p, &h.c), 0);
		if (s.init_ret)
			continue;
		snprintf(what, sizeof(what), "gen %llu (%s)", (unsigned long long)i,
			 sim_gen_path_name(h.path));
		fn(&s, &h, what);
		n++;
	}
	sim_gen_blkcnt = SIM_BLKCNT_BUS;
	return n;
}

static void probe_one(struct simh *s, const char *what, unsigned v)
{
	struct sd_silicon out = { 0 };
	int r = sd_host_characterise(s->host, &out);
	double us = (double)timer_ticks_to_ns(out.ticks) / 1e3;

	CHECK_EQ_I(r, 0);
	if (out.blkcnt != expect[v])
		CHECK_FAIL_("%s, Block Count %s: the probe says %u (counts %u %u %u of %u)", what,
			    sim_blkcnt_name(v), out.blkcnt, out.cnt_ready, out.cnt_full,
			    out.cnt_drained, out.blocks);
	CHECK_EQ_U(s->host->blkcnt_look, out.blkcnt);
	/* Every simulated bus takes its time on the wire (docs/silicon.md,
	 * read-wire): the block no sooner than its frame after the command
	 * was written, and the probe says so; a card without CMD6 (SD 1.0,
	 * SCR SD_SPEC 0) leaves it unprobed, never instant. */
	if (out.wire == SD_WIRE_INSTANT ||
	    (out.wire == SD_WIRE_TIMED && out.first_ns < out.frame_ns) ||
	    (out.wire == SD_WIRE_UNPROBED && cmd6_ok(s)))
		CHECK_FAIL_("%s: read wire %u, first block %u ns after the command, frame %u ns",
			    what, out.wire, out.first_ns, out.frame_ns);
	CHECK_EQ_U(s->host->read_wire, out.wire);
	CHECK(us < PROBE_MAX_US);
	if (us > worst_us)
		worst_us = us;
	printf("  %-40s %-5s -> %u (%u %u %u of %u), first %.1f / frame %.1f us, %.1f us\n",
	       what, sim_blkcnt_name(v), out.blkcnt, out.cnt_ready, out.cnt_full, out.cnt_drained,
	       out.blocks, out.first_ns / 1e3, out.frame_ns / 1e3, us);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* The shipped hosts and cards both probe tests run over. */
static const char *const hosts[] = { "sim", "pi0", "pi1", "pi2", "pi3", "pi4", "test-gaps",
				     "pi4-emmc2" };
static const char *const cards[] = { "sdhc-c10-16g", "instant-4g", "fixed-800us-8g",
				     "sdsc-v1-128m" };

TEST(the_probe_names_every_block_count_behaviour_on_the_shipped_hosts)
{
	unsigned h, c, v;

	worst_us = 0;
	for (h = 0; h < sizeof(hosts) / sizeof(hosts[0]); h++)
		for (c = 0; c < sizeof(cards) / sizeof(cards[0]); c++)
			for (v = 0; v < SIM_BLKCNT_N; v++) {
				struct sim_config cfg;
				struct simh s;
				char err[200], what[80];

				sim_config_default(&cfg);
				CHECK_EQ_I(sim_host_load(hosts[h], &cfg, err, sizeof(err)), 0);
				cfg.blkcnt = (uint8_t)v;
				CHECK_EQ_I(simh_start(&s, cards[c], &cfg), 0);
				snprintf(what, sizeof(what), "%s/%s", hosts[h], cards[c]);
				probe_one(&s, what, v);
			}
	printf("  the probe's cost: at most %.1f us per boot\n", worst_us);
}

TEST(the_probe_names_them_with_any_buffer_and_width)
{
	unsigned buf, v, w;

	for (buf = 1; buf <= 4; buf++)
		for (w = 1; w <= 4; w += 3)
			for (v = 0; v < SIM_BLKCNT_N; v++) {
				struct sim_config cfg;
				struct simh s;
				char what[80];

				pi1_config(&cfg);
				cfg.blkcnt = (uint8_t)v;
				pi1_start(&s, &cfg, buf, w, what, sizeof(what));
				probe_one(&s, what, v);
			}
}

static void gen_probe(struct simh *s, const struct sim_gen_host *h, const char *what)
{
	probe_one(s, what, h->c.blkcnt);
}

TEST(the_probe_names_them_on_generated_hosts)
{
	CHECK(on_generated_hosts(~(1u << SIM_GEN_SDHOST_PIO | 1u << SIM_GEN_SDHOST_DMA),
				 gen_probe) >= 30);
}

/* A 64-block read on the CPU-paced Pi 1 (the CPU moves a block slower
 * than the bus carries one: the wait decisions need the look). */
static uint32_t undecided_after_t(unsigned v, bool probe, int wire, struct sd_req_times *tp)
{
	static uint8_t buf[64 * 512];
	struct sim_config cfg;
	struct sd_req_times t;
	struct sd_silicon out = { 0 };
	struct simh s;
	char err[200];

	sim_config_default(&cfg);
	CHECK_EQ_I(sim_host_load("pi1", &cfg, err, sizeof(err)), 0);
	cfg.blkcnt = (uint8_t)v;
	CHECK_EQ_I(simh_start(&s, "sdhc-c10-16g", &cfg), 0);
	if (probe)
		CHECK_EQ_I(sd_host_characterise(s.host, &out), 0);
	if (wire >= 0)
		s.host->read_wire = (uint8_t)wire;
	memset(&t, 0, sizeof(t));
	CHECK_EQ_I(sd_read_blocks(&s.card, 4096, 64, buf, SD_STOP_AUTO12, &t), 0);
	CHECK_EQ_U(t.waits_counted, 2);
	if (tp)
		*tp = t;
	return t.undecided_blocks;
}

static uint32_t undecided_after(unsigned v, bool probe)
{
	return undecided_after_t(v, probe, -1, NULL);
}

TEST(the_read_look_is_used_only_where_the_probe_confirmed_it)
{
	/* confirmed: every wait decided */
	CHECK_EQ_U(undecided_after(SIM_BLKCNT_BUS, true), 0);
	/* not probed, or another behaviour: the blocks the CPU found ready
	 * are undecided, never guessed */
	CHECK(undecided_after(SIM_BLKCNT_BUS, false) > 32);
	CHECK(undecided_after(SIM_BLKCNT_DRAIN, true) > 32);
	CHECK(undecided_after(SIM_BLKCNT_STALE, true) > 32);
}

/* Where the probe found the data takes no time on the wire (only an
 * emulator; forced here, on a simulated bus that does take it): the read
 * needs no look whatever Block Count does, and books every wait between
 * blocks to the CPU: none to the card, the bus standing for the CPU. */
TEST(an_instant_wire_needs_no_look_and_books_the_waits_to_the_cpu)
{
	struct sd_req_times t;
	unsigned v;

	for (v = 0; v < SIM_BLKCNT_N; v++) {
		CHECK_EQ_U(undecided_after_t(v, true, SD_WIRE_INSTANT, &t), 0);
		CHECK_EQ_U(t.wait_blocks, 0);
		CHECK(t.stood_ticks > 0);
		CHECK(t.stood_ticks <= (uint64_t)(t.t_data_done - t.t_first_data) +
				       (t.t_data_done - t.t_first_data) / 63u + 1u);
	}
	/* timed (what the probe says on every simulated bus): as before */
	CHECK(undecided_after_t(SIM_BLKCNT_DRAIN, true, SD_WIRE_TIMED, NULL) > 32);
}

TEST(a_host_without_the_block_count_look_has_no_block_count_probe)
{
	struct sim_config cfg;
	struct sd_silicon out;
	struct simh s;
	char err[200];

	sim_config_default(&cfg);
	CHECK_EQ_I(sim_host_load("pi1", &cfg, err, sizeof(err)), 0);
	cfg.sdhost = true;
	cfg.base = 0x20202000u;
	CHECK_EQ_I(simh_start(&s, "sdhc-c10-16g", &cfg), 0);
	/* its probe is of its FIFO fill (tests/sim/test_sdhost_fill.c) */
	CHECK_EQ_I(sd_host_characterise(s.host, &out), 0);
	CHECK(out.fprobed);
	CHECK_EQ_U(s.host->blkcnt_look, SD_BLKCNT_UNPROBED);
	CHECK_EQ_U(s.host->read_wire, SD_WIRE_UNPROBED);
}

/* A 64-block SDHOST write on the CPU-paced Pi 1 with SDEDM's fill after
 * the last word full or the FIFO's level: the driver does not read it
 * (docs/silicon.md, sdhost-fifo-after-write), so its stamps are the same. */
static void sdhost_write(bool level, struct sd_req_times *t)
{
	static uint8_t buf[64 * 512];
	struct sim_config cfg;
	struct simh s;
	char err[200];

	sim_config_default(&cfg);
	CHECK_EQ_I(sim_host_load("pi1", &cfg, err, sizeof(err)), 0);
	cfg.sdhost = true;
	cfg.base = 0x20202000u;
	cfg.sdhost_end_fill_level = level;
	CHECK_EQ_I(simh_start(&s, "sdhc-c10-16g", &cfg), 0);
	memset(buf, 0x5a, sizeof(buf));
	memset(t, 0, sizeof(*t));
	CHECK_EQ_I(sd_write_blocks(&s.card, 1u << 16, 64, buf, SD_STOP_AUTO12, t), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(the_sdhost_write_does_not_depend_on_the_fill_after_its_last_word)
{
	struct sd_req_times a, b;

	sdhost_write(false, &a);
	sdhost_write(true, &b);
	CHECK_EQ_U(a.fifo_counted, 1);
	CHECK_EQ_U(a.fifo_words, b.fifo_words);
	CHECK_EQ_U(a.seam_ticks, b.seam_ticks);
	CHECK_EQ_U(a.seam_words, b.seam_words);
	CHECK_EQ_U(a.seams, b.seams);
	CHECK_EQ_U(a.host_ticks, b.host_ticks);
	CHECK_EQ_U(a.t_data_done - a.t_issue, b.t_data_done - b.t_issue);
	/* The busy wait after the last word polls SDEDM for the state
	 * machine; a fill that changes between two polls keeps the
	 * simulator from skipping ahead over identical reads (fast_forward),
	 * so the end may fall one poll apart. */
	CHECK((int32_t)((a.t_end - a.t_issue) - (b.t_end - b.t_issue)) < 1000);
	CHECK((int32_t)((b.t_end - b.t_issue) - (a.t_end - a.t_issue)) < 1000);
}

/* ---- the write probe: Buffer Write Enable and the DAT[0] level ------------------- */

/* The write looks the probe must find for a host: Buffer Write Enable
 * (with a one-block buffer "slot" is seen as "empty": the CPU sees one
 * block either way), and the DAT[0] level where the card's busy is long
 * enough to see; a lag within the probe's tolerance is "live". */
static uint8_t want_bwe(const struct sim_config *c)
{
	return c->bwe == SIM_BWE_SLOT && c->buf_blocks >= 2 ? SD_BWE_SLOT : SD_BWE_EMPTY;
}

/* The answers that are right (1 << enum sd_dat0_look). */
static unsigned want_dat0(const struct sim_config *c, const struct sd_silicon *o, bool busy)
{
	unsigned lag_us = c->dat0_lag_ns / 1000u;

	if (c->dat0 == SIM_DAT0_LAG) {
		/* at the tolerance's edge either is right; without a busy
		 * to see, a lag may still show a card's few clocks of busy */
		if (lag_us + 2u >= o->tol_us && lag_us <= o->tol_us + 2u)
			return 1u << SD_DAT0_LAG | 1u << SD_DAT0_LIVE |
			       (busy ? 0u : 1u << SD_DAT0_SHORT);
		if (lag_us > o->tol_us)
			return 1u << SD_DAT0_LAG | (busy ? 0u : 1u << SD_DAT0_SHORT);
	}
	if (!busy)
		return 1u << SD_DAT0_SHORT;
	return 1u << (c->dat0 == SIM_DAT0_NONE ? SD_DAT0_NONE : SD_DAT0_LIVE);
}

static double worst_wus;

/* Arm the write probe, write 4 blocks (as bench/workloads/silicon.c does,
 * here without a guard), check what it says. busy: the card holds DAT0
 * long enough after a write to be seen. */
static void wprobe_one(struct simh *s, const struct sim_config *c, const char *what, bool busy)
{
	static uint8_t buf[4 * 512] __attribute__((aligned(64)));
	struct sd_silicon out = { 0 };
	unsigned wd;
	uint8_t wb;
	double us;

	sd_host_probe_write(s->host, &out);
	CHECK_EQ_I(sd_write_blocks(&s->card, 1u << 16, 4, buf, SD_STOP_AUTO12, NULL), 0);
	sd_host_probe_write(s->host, NULL);
	CHECK(out.wprobed);
	us = (double)timer_ticks_to_ns(out.wticks) / 1e3;
	wb = want_bwe(c);
	wd = want_dat0(c, &out, busy);
	if (out.bwe != wb || !(wd & 1u << out.dat0))
		CHECK_FAIL_("%s, buf_write_enable %s, dat0_level %s (lag %u ns): the probe says "
			    "bwe %u dat0 %u, want %u and one of 0x%x (busy %u us, low %d, late %u us, "
			    "tol %u us)",
			    what, sim_bwe_name(c->bwe), sim_dat0_name(c->dat0), c->dat0_lag_ns,
			    out.bwe, out.dat0, wb, wd, out.busy_us, out.dat0_low, out.dat0_late_us,
			    out.tol_us);
	CHECK_EQ_U(s->host->bwe_look, out.bwe);
	CHECK_EQ_U(s->host->dat0_look, out.dat0);
	if (us > worst_wus)
		worst_wus = us;
	printf("  %-34s %-5s %-4s -> bwe %u dat0 %u (busy %u us, late %u, tol %u), %.1f us\n",
	       what, sim_bwe_name(c->bwe), sim_dat0_name(c->dat0), out.bwe, out.dat0,
	       out.busy_us, out.dat0_late_us, out.tol_us, us);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(the_write_probe_names_every_write_look_on_the_shipped_hosts)
{
	/* (the instant and the fixed-800us cards program at once: their
	 * write probe cannot tell) */
	static const uint32_t lags[] = { 20000, 3000 };
	unsigned h, c, b, d, l;

	worst_wus = 0;
	for (h = 0; h < sizeof(hosts) / sizeof(hosts[0]); h++)
		for (c = 0; c < sizeof(cards) / sizeof(cards[0]); c++)
			for (b = 0; b < SIM_BWE_N; b++)
				for (d = 0; d < SIM_DAT0_N; d++)
					for (l = 0; l < (d == SIM_DAT0_LAG ? 2u : 1u); l++) {
						struct sim_config cfg;
						struct simh s;
						char err[200], what[80];

						sim_config_default(&cfg);
						CHECK_EQ_I(sim_host_load(hosts[h], &cfg, err,
									 sizeof(err)), 0);
						cfg.bwe = (uint8_t)b;
						cfg.dat0 = (uint8_t)d;
						cfg.dat0_lag_ns = lags[l];
						CHECK_EQ_I(simh_start(&s, cards[c], &cfg), 0);
						snprintf(what, sizeof(what), "%s/%s", hosts[h], cards[c]);
						wprobe_one(&s, &cfg, what, c == 0 || c == 3);
					}
	printf("  the write probe's cost: at most %.1f us per boot\n", worst_wus);
}

TEST(the_write_probe_names_them_with_any_buffer_and_width)
{
	unsigned buf, b, d, w;

	for (buf = 1; buf <= 4; buf++)
		for (w = 1; w <= 4; w += 3)
			for (b = 0; b < SIM_BWE_N; b++)
				for (d = 0; d < SIM_DAT0_N; d++) {
					struct sim_config cfg;
					struct simh s;
					char what[80];

					pi1_config(&cfg);
					cfg.bwe = (uint8_t)b;
					cfg.dat0 = (uint8_t)d;
					cfg.dat0_lag_ns = 30000;
					pi1_start(&s, &cfg, buf, w, what, sizeof(what));
					wprobe_one(&s, &cfg, what, true);
				}
}

/* generated cards hold DAT0 at least 50 us after a write's last block
 * (sim_gen.c write_last) */
static void gen_wprobe(struct simh *s, const struct sim_gen_host *h, const char *what)
{
	wprobe_one(s, &h->c, what, true);
}

TEST(the_write_probe_names_them_on_generated_hosts)
{
	CHECK(on_generated_hosts(1u << SIM_GEN_SDHCI_PIO | 1u << SIM_GEN_SDHCI_UHS |
				 1u << SIM_GEN_ADMA2, gen_wprobe) >= 20);
}

/* A 32-block PIO write on the CPU-paced Pi 1 after the write probe (or
 * none), read_wire forced to wire (-1: as the host has it): the blocks
 * whose wait was left undecided, and the request's times (tp). */
static uint32_t write_undecided_after_t(unsigned bwe, unsigned dat0, bool probe, int wire,
					uint8_t *looks, struct sd_req_times *tp)
{
	static uint8_t buf[32 * 512] __attribute__((aligned(64)));
	struct sim_config cfg;
	struct sd_req_times t;
	struct sd_silicon out = { 0 };
	struct simh s;
	char err[200];

	sim_config_default(&cfg);
	CHECK_EQ_I(sim_host_load("pi1", &cfg, err, sizeof(err)), 0);
	cfg.bwe = (uint8_t)bwe;
	cfg.dat0 = (uint8_t)dat0;
	cfg.dat0_lag_ns = 30000;
	CHECK_EQ_I(simh_start(&s, "sdhc-c10-16g", &cfg), 0);
	if (probe) {
		sd_host_probe_write(s.host, &out);
		CHECK_EQ_I(sd_write_blocks(&s.card, 1u << 16, 4, buf, SD_STOP_AUTO12, NULL), 0);
		sd_host_probe_write(s.host, NULL);
	}
	if (wire >= 0)
		s.host->read_wire = (uint8_t)wire;
	memset(&t, 0, sizeof(t));
	CHECK_EQ_I(sd_write_blocks(&s.card, (1u << 16) + 64u, 32, buf, SD_STOP_AUTO12, &t), 0);
	CHECK_EQ_U(t.waits_counted, 1);
	*looks = t.undecided_looks;
	if (tp)
		*tp = t;
	return t.undecided_blocks;
}

static uint32_t write_undecided_after(unsigned bwe, unsigned dat0, bool probe, uint8_t *looks)
{
	return write_undecided_after_t(bwe, dat0, probe, -1, looks, NULL);
}

/* Where the read probe found the data takes no time on the wire (only an
 * emulator, QEMU: its card takes a written block inside the CPU's last
 * word and is never busy; forced here, on a simulated bus that does take
 * it): a PIO write needs neither look whatever the write probe found, and
 * books every wait before a block to the CPU. */
TEST(an_instant_wire_needs_no_write_look_and_books_the_waits_to_the_cpu)
{
	static const unsigned bwe[] = { SIM_BWE_SLOT, SIM_BWE_EMPTY };
	static const unsigned dat0[] = { SIM_DAT0_LIVE, SIM_DAT0_LAG, SIM_DAT0_NONE };
	struct sd_req_times t;
	uint8_t looks;
	unsigned i, j;

	for (i = 0; i < 2; i++) {
		for (j = 0; j < 3; j++) {
			CHECK_EQ_U(write_undecided_after_t(bwe[i], dat0[j], true, SD_WIRE_INSTANT,
							   &looks, &t), 0);
			CHECK_EQ_U(looks, 0);
			CHECK_EQ_U(t.wait_blocks, 0);
		}
	}
	/* timed (what the probe says on every simulated bus): as before */
	CHECK_EQ_U(write_undecided_after_t(SIM_BWE_EMPTY, SIM_DAT0_LIVE, true, SD_WIRE_TIMED,
					   &looks, NULL), 31);
	/* the card's waits are seen where the looks are confirmed */
	write_undecided_after_t(SIM_BWE_SLOT, SIM_DAT0_LIVE, true, SD_WIRE_TIMED, &looks, &t);
	CHECK(t.wait_blocks > 0);
}

TEST(the_write_looks_are_used_only_where_the_probe_confirmed_them)
{
	uint8_t looks;

	/* confirmed (a slot free with a block waiting, a live level):
	 * every wait decided */
	CHECK_EQ_U(write_undecided_after(SIM_BWE_SLOT, SIM_DAT0_LIVE, true, &looks), 0);
	/* Buffer Write Enable only when empty: no overlap to split, every
	 * block after the first undecided */
	CHECK_EQ_U(write_undecided_after(SIM_BWE_EMPTY, SIM_DAT0_LIVE, true, &looks), 31);
	CHECK_EQ_U(looks, SD_UNDECIDED_WRITE);
	/* a level that lags or does not show the busy: the decisions that
	 * need it are undecided, and say which look */
	CHECK(write_undecided_after(SIM_BWE_SLOT, SIM_DAT0_NONE, true, &looks) > 0);
	CHECK_EQ_U(looks, SD_UNDECIDED_WRITE);
	CHECK(write_undecided_after(SIM_BWE_EMPTY, SIM_DAT0_LAG, true, &looks) == 31);
	CHECK_EQ_U(looks, SD_UNDECIDED_WRITE);
	/* never probed (drivers' unit tests): the authority's reading */
	CHECK_EQ_U(write_undecided_after(SIM_BWE_SLOT, SIM_DAT0_LIVE, false, &looks), 0);
}

/*
 * test_sdhost_fill.c - the SDHOST fill probe (bcm2835_sdhost.c
 * sdh_characterise; docs/silicon.md, sdhost-edm-fifo) on every SDEDM fill
 * behaviour the simulator models (sim.h enum sim_sdhost_fill) and both
 * state machine behaviours (enum sim_sdhost_fsm): it must name each fill
 * right, on the shipped Pi hosts and generated ones, at 1 and 4 bits, and
 * never call a fill live that is not; it costs little (printed); and the
 * PIO split uses the fill only where the probe found it live.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/sd/sd.h"
#include "drivers/timer.h"
#include "sim/sim.h"
#include "sim/sim_gen.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

/* The probe's cost bound: one 16-word block at about 100 kHz, and the
 * card's access time. */
#define PROBE_MAX_US 20000.0

static double worst_us;

/* The answers that are right for a host (1 << enum sd_fill_look). A lag
 * whose first word comes well beyond what the probe allows a live fill
 * (out->fill_limit_ns: the probe's own figure, from its record) must be
 * named; one near it may be unconfirmed; neither is ever live. The
 * delay the test expects is its own: the word takes 32 / width clocks
 * after the start bit (SD Physical Layer §4.5: a start bit, then the
 * data), seen at the start bit or, with the state machine that waits for
 * a word, at the word. */
static unsigned want(const struct sim_config *c, unsigned width, const struct sd_silicon *o)
{
	uint64_t clocks, ns;

	if (c->sdhost_fill == SIM_FILL_LIVE)
		return 1u << SD_FILL_LIVE;
	if (c->sdhost_fill == SIM_FILL_STEPPED)
		return 1u << SD_FILL_STEPPED;
	clocks = c->sdhost_fill_lag + (c->sdhost_fsm == SIM_SDH_FSM_START ? 1u + 32u / width : 0u);
	ns = o->fill_clock_hz ? clocks * 1000000000ull / o->fill_clock_hz : 0;
	return ns > (uint64_t)o->fill_limit_ns * 3u / 2u ? 1u << SD_FILL_LAG :
	       1u << SD_FILL_LAG | 1u << SD_FILL_UNCONFIRMED;
}

static const char *fill_name(unsigned v)
{
	static const char *const n[SD_FILL_COUNT] = { "unprobed", "live", "lag", "stepped",
						      "unconfirmed", "failed" };

	return v < SD_FILL_COUNT ? n[v] : "?";
}

static void probe_one(struct simh *s, const struct sim_config *c, unsigned width,
		      const char *what)
{
	struct sd_silicon out = { 0 };
	int r = sd_host_characterise(s->host, &out);
	double us = (double)timer_ticks_to_ns(out.ticks) / 1e3;

	CHECK_EQ_I(r, 0);
	if (!(want(c, width, &out) & 1u << out.fill))
		CHECK_FAIL_("%s, fill %s (lag %u clocks, step %u, fsm %s) at %u bits: the probe "
			    "says %s (first word %u ns after the reference, live within %u ns, "
			    "step %u, %u looks)", what, sim_sdhost_fill_name(c->sdhost_fill),
			    c->sdhost_fill_lag, c->sdhost_fill_step,
			    sim_sdhost_fsm_name(c->sdhost_fsm), width, fill_name(out.fill),
			    out.fill_delay_ns, out.fill_limit_ns, out.fill_jump, out.fill_samples);
	CHECK_EQ_U(s->host->fill_look, out.fill);
	/* SDHOST has no Block Count look: it stays unprobed */
	CHECK_EQ_U(s->host->blkcnt_look, SD_BLKCNT_UNPROBED);
	CHECK(us < PROBE_MAX_US);
	if (us > worst_us)
		worst_us = us;
	CHECK_EQ_U(sim_violation_count(), 0);
}

static void sdhost_on(struct sim_config *cfg, const char *host)
{
	char err[200];

	sim_config_default(cfg);
	CHECK_EQ_I(sim_host_load(host, cfg, err, sizeof(err)), 0);
	cfg->sdhost = true;
	cfg->base = 0x20202000u;
}

/* The variants of one host: fill x state machine, lags and steps. */
static const struct {
	uint8_t fill, fsm, step;
	uint16_t lag;
} variants[] = {
	{ SIM_FILL_LIVE, SIM_SDH_FSM_START, 4, 0 },
	{ SIM_FILL_LIVE, SIM_SDH_FSM_WORDS, 4, 0 },
	{ SIM_FILL_LAG, SIM_SDH_FSM_START, 4, 48 },
	{ SIM_FILL_LAG, SIM_SDH_FSM_WORDS, 4, 48 },
	{ SIM_FILL_LAG, SIM_SDH_FSM_WORDS, 4, 200 },
	{ SIM_FILL_STEPPED, SIM_SDH_FSM_START, 4, 0 },
	{ SIM_FILL_STEPPED, SIM_SDH_FSM_WORDS, 8, 0 },
};

TEST(the_fill_probe_names_every_fill_behaviour_on_the_shipped_hosts)
{
	static const char *const hosts[] = { "pi0", "pi1", "pi2", "pi3" };
	static const char *const cards[] = { "sdhc-c10-16g", "fixed-800us-8g" };
	unsigned h, k, v, w;
	char what[96];

	for (h = 0; h < sizeof(hosts) / sizeof(hosts[0]); h++)
		for (k = 0; k < sizeof(cards) / sizeof(cards[0]); k++)
			for (v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
				for (w = 0; w < 2; w++) {
					struct sim_config cfg;
					struct simh s;

					sdhost_on(&cfg, hosts[h]);
					cfg.sdhost_fill = variants[v].fill;
					cfg.sdhost_fsm = variants[v].fsm;
					cfg.sdhost_fill_step = variants[v].step;
					cfg.sdhost_fill_lag = variants[v].lag;
					CHECK_EQ_I(simh_start(&s, cards[k], &cfg), 0);
					if (w)
						CHECK_EQ_I(sd_set_bus(&s.card, 0, 1), 0);
					snprintf(what, sizeof(what), "%s/%s", hosts[h], cards[k]);
					probe_one(&s, &cfg, w ? 1u : 4u, what);
				}
	printf("  the fill probe's cost: at most %.1f us\n", worst_us);
}

TEST(the_fill_probe_names_the_fill_of_generated_sdhost_hosts)
{
	static struct sim_profile p;
	static struct sim_gen_host gh;
	unsigned seed, n = 0, seen[SIM_FILL_N] = { 0 };
	char what[64];

	sim_gen_fill = SIM_GEN_DRAWN;
	for (seed = 1; seed < 300 && n < 24; seed++) {
		struct simh s;

		sim_gen_host(seed, &gh);
		if (gh.path != SIM_GEN_SDHOST_PIO && gh.path != SIM_GEN_SDHOST_DMA)
			continue;
		sim_gen_card(seed, &p);
		CHECK_EQ_I(simh_start_p(&s, &p, &gh.c), 0);
		if (s.init_ret)
			continue;
		snprintf(what, sizeof(what), "gen-host-%u/gen-card-%u", seed, seed);
		probe_one(&s, &gh.c, s.card.width == 1 ? 1u : 4u, what);
		seen[gh.c.sdhost_fill]++;
		n++;
	}
	sim_gen_fill = SIM_FILL_LIVE;
	printf("  generated SDHOST hosts: %u (live %u, lag %u, stepped %u)\n", n,
	       seen[SIM_FILL_LIVE], seen[SIM_FILL_LAG], seen[SIM_FILL_STEPPED]);
	CHECK(n >= 20);
	CHECK(seen[SIM_FILL_LIVE] && seen[SIM_FILL_LAG] && seen[SIM_FILL_STEPPED]);
}

/* A 32-block PIO read and write on the Pi 1's SDHOST under a fill
 * behaviour, probed or not: the blocks the split leaves undecided. */
static uint32_t undecided_after(uint8_t fill, bool probe, uint8_t *looks)
{
	static uint8_t buf[32 * 512];
	struct sim_config cfg;
	struct sd_silicon out;
	struct sd_req_times rt, wt;
	struct simh s;

	sdhost_on(&cfg, "pi1");
	cfg.sdhost_fill = fill;
	cfg.sdhost_fill_lag = 100;
	CHECK_EQ_I(simh_start(&s, "sdhc-c10-16g", &cfg), 0);
	if (probe)
		CHECK_EQ_I(sd_host_characterise(s.host, &out), 0);
	memset(&rt, 0, sizeof(rt));
	memset(&wt, 0, sizeof(wt));
	memset(buf, 0x3c, sizeof(buf));
	CHECK_EQ_I(sd_write_blocks(&s.card, 1u << 16, 32, buf, SD_STOP_AUTO12, &wt), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 1u << 16, 32, buf, SD_STOP_AUTO12, &rt), 0);
	CHECK_EQ_U(rt.undecided_blocks, wt.undecided_blocks);
	*looks = (uint8_t)(rt.undecided_looks | wt.undecided_looks);
	CHECK_EQ_U(sim_violation_count(), 0);
	return rt.undecided_blocks;
}

TEST(the_pio_split_uses_the_fill_only_where_the_probe_found_it_live)
{
	uint8_t looks;

	CHECK_EQ_U(undecided_after(SIM_FILL_LIVE, true, &looks), 0);
	CHECK_EQ_U(looks, 0);
	CHECK_EQ_U(undecided_after(SIM_FILL_LAG, true, &looks), 32);
	CHECK_EQ_U(looks, SD_UNDECIDED_FILL);
	CHECK_EQ_U(undecided_after(SIM_FILL_STEPPED, true, &looks), 32);
	CHECK_EQ_U(looks, SD_UNDECIDED_FILL);
	/* never probed (the drivers' unit tests): the authorities' reading */
	CHECK_EQ_U(undecided_after(SIM_FILL_LAG, false, &looks), 0);
}



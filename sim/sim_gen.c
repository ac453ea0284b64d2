/*
 * sim_gen.c - cards and hosts drawn from the physical envelope documented
 * in sim/README.md ("Generated cards and hosts"). Every draw comes from a
 * splitmix64 stream of the generator's own, seeded by the seed alone (not
 * the simulator's stream: a card's latencies and its description never
 * share numbers). The envelope is stratified by the seed where the split
 * has known regimes, so that consecutive seeds cover them: the card's
 * clock-counted gaps between read blocks (seed % 5: none, 2-49, 50-199,
 * 200-799, 800-2000 clocks) and the host's CPU cost per data-port word
 * written (seed % 4) and read ((seed / 4) % 4: 30-80, 80-200, 200-350,
 * 350-500 ns).
 *
 * The figures are plausible ranges for SD cards and Pi-class hosts, not
 * measurements of products.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim_gen.h"

struct rng {
	uint64_t s;
};

static uint64_t next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double unit(struct rng *r)
{
	return (double)(next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* true with probability p */
static bool chance(struct rng *r, double p)
{
	return unit(r) < p;
}

/* uniform integer lo..hi */
static uint64_t uni(struct rng *r, uint64_t lo, uint64_t hi)
{
	return lo + next(r) % (hi - lo + 1);
}

/* log-uniform lo..hi (ns, clocks, blocks), rounded */
static uint64_t logu(struct rng *r, double lo, double hi)
{
	return (uint64_t)(exp(log(lo) + unit(r) * (log(hi) - log(lo))) + 0.5);
}

/* A latency: minimum lo..hi, an exponential tail of up to tail x the
 * minimum, and with probability stall rare stalls s_lo..s_hi. */
static struct sim_dist dist(struct rng *r, double lo, double hi, double tail, double stall_ppm,
			    double s_lo, double s_hi)
{
	struct sim_dist d = { 0 };

	d.min_ns = logu(r, lo, hi);
	d.mean_extra_ns = (uint64_t)((double)d.min_ns * tail * unit(r));
	if (stall_ppm > 0 && chance(r, 0.7)) {
		d.stall_ppm = (uint32_t)uni(r, 1, (uint64_t)stall_ppm);
		d.stall_min_ns = logu(r, s_lo, s_hi);
		d.stall_max_ns = d.stall_min_ns + logu(r, s_lo, s_hi);
	}
	return d;
}

/* ---- cards ------------------------------------------------------------------ */

static const uint16_t gap_bucket[5][2] = { { 0, 0 }, { 2, 49 }, { 50, 199 }, { 200, 799 },
					   { 800, 2000 } };

static void card_identity(struct rng *r, uint64_t seed, struct sim_profile *p)
{
	snprintf(p->name, sizeof(p->name), "gen-card-%llu", (unsigned long long)seed);
	p->mid = (uint8_t)uni(r, 1, 0xfe);
	memcpy(p->oid, "GN", 3);
	snprintf(p->pnm, sizeof(p->pnm), "G%04u", (unsigned)(seed % 10000));
	p->prv = 0x10;
	p->psn = (uint32_t)next(r);
	p->mdt_year = (uint16_t)uni(r, 2010, 2025);
	p->mdt_month = (uint8_t)uni(r, 1, 12);
	p->sd_spec = 2;
	p->sd_spec3 = 1;
	p->ccc = 0x5b5;
	p->r2w_factor = 2;
	p->init_busy_us = (uint32_t)uni(r, 20000, 400000);
	if (chance(r, 0.1)) {
		p->kind = SIM_SDSC_V2;
		p->capacity_bytes = (uint64_t)uni(r, 1, 2) << 30;
		p->read_bl_len = 10;
		p->taac = 38;
	} else if (chance(r, 0.55)) {
		p->kind = SIM_SDHC;
		p->capacity_bytes = (uint64_t)uni(r, 4, 32) * 953ull << 20;
	} else {
		p->kind = SIM_SDXC;
		p->capacity_bytes = (uint64_t)uni(r, 64, 256) * 953ull << 20;
	}
}

/* Widths, clock limits and UHS-I modes. */
static void card_bus(struct rng *r, struct sim_profile *p)
{
	p->bus4 = !chance(r, 0.08);
	p->hs = !chance(r, 0.1);
	p->cmd23 = chance(r, 0.5);
	p->ncr_clocks = (uint16_t)uni(r, 2, 64);
	p->speed_class = (uint8_t)uni(r, 1, 4);
	p->app_class = (uint8_t)uni(r, 0, 2);
	if (p->kind != SIM_SDSC_V2 && p->hs && p->bus4 && chance(r, 0.35)) {
		p->uhs = true;
		p->sdr50 = true;
		p->sdr104 = chance(r, 0.6);
		p->ddr50 = chance(r, 0.5);
		p->tune_first = (uint8_t)uni(r, 2, 16);
		p->tune_window = (uint8_t)uni(r, 8, 20);
		p->uhs_grade = (uint8_t)uni(r, 1, 3);
		p->sd_spec4 = 1;
	}
}

/* Reads: access time, the wait between blocks in time and in clocks. */
static void card_reads(struct rng *r, uint64_t seed, struct sim_profile *p)
{
	const uint16_t *g = gap_bucket[seed % 5];

	p->read_first = dist(r, 40e3, 900e3, 1.0, 2000, 1e6, 20e6);
	if (chance(r, 0.4))
		p->read_next = (struct sim_dist){ 0 };
	else
		p->read_next = dist(r, 200, 50e3, 2.0, 500, 100e3, 2e6);
	p->read_gap_clocks = (uint16_t)(g[1] ? uni(r, g[0], g[1]) : 0);
	if (chance(r, 0.3)) {
		p->page_blocks = (uint32_t)(8u << uni(r, 0, 4));
		p->read_page_hit = dist(r, 5e3, 60e3, 0.5, 0, 0, 0);
	}
}

/* Writes: busy per block and its clock minimum, caches, pre-erase, random
 * and periodic garbage collection, isolated 4 KiB writes. */
static void card_writes(struct rng *r, uint64_t seed, struct sim_profile *p)
{
	const uint16_t *g = gap_bucket[(seed / 5) % 5];

	p->write_single = dist(r, 80e3, 3e6, 1.0, 5000, 5e6, 100e6);
	p->write_next = dist(r, 1e3, 400e3, 1.5, 1000, 1e6, 50e6);
	p->write_last = dist(r, 50e3, 2e6, 1.0, 0, 0, 0);
	p->busy_min_clocks = (uint16_t)(g[1] && chance(r, 0.6) ? uni(r, g[0], g[1]) : 0);
	if (chance(r, 0.5)) {
		p->cache_blocks = (uint32_t)logu(r, 256, 65536);
		p->cache_drain_blocks_per_ms = (uint32_t)uni(r, 5, 100);
		p->write_slow = dist(r, 20e3, 800e3, 1.0, 0, 0, 0);
	}
	if (chance(r, 0.4)) {
		p->preerase = true;
		p->write_next_preerased = p->write_next;
		p->write_next_preerased.min_ns = p->write_next.min_ns * uni(r, 3, 9) / 10;
		p->write_last_preerased = p->write_last;
	}
	if (chance(r, 0.3)) {
		p->periodic_stall_blocks = (uint32_t)logu(r, 64, 4096);
		p->periodic_stall = dist(r, 2e6, 50e6, 0.5, 0, 0, 0);
	}
	if (chance(r, 0.4))
		p->write_isolated = dist(r, 200e3, 5e6, 0.5, 0, 0, 0);
}

/* AUs (512 KiB .. 16 MiB: SSR codes 6..12), open AUs, boundary costs,
 * erase. */
static void card_aus(struct rng *r, struct sim_profile *p)
{
	static const uint64_t au_bytes[] = { 512 << 10, 1 << 20, 2 << 20, 4 << 20, 8 << 20,
					     12 << 20, 16 << 20 };
	unsigned k = (unsigned)uni(r, 0, 6);

	p->au_size = (uint8_t)(6 + k);
	p->erase_size = (uint16_t)uni(r, 1, 64);
	p->erase_timeout = (uint8_t)uni(r, 1, 30);
	p->erase_offset = (uint8_t)uni(r, 0, 3);
	p->open_aus = (uint32_t)uni(r, 1, 8);
	p->open_au_bytes = au_bytes[k];
	p->au_switch = dist(r, 1e6, 50e6, 0.5, 0, 0, 0);
	p->erase_block_bytes = chance(r, 0.5) ? au_bytes[k] : au_bytes[k] / 4;
	p->read_cross_eb = dist(r, 10e3, 500e3, 0.5, 0, 0, 0);
	p->write_cross_eb = dist(r, 100e3, 5e6, 0.5, 0, 0, 0);
	p->erase_base = dist(r, 500e3, 5e6, 1.0, 0, 0, 0);
	p->erase_per_au_ns = logu(r, 50e3, 2e6);
}

/* A queue's task scheduling cost (the card's firmware taking a task in
 * before it starts on it, reads and writes: sim_card_cq.c cq_task) on 70%
 * of the queues, 5-200 us: from a stream of its own, so that the queue
 * keys drawn below stay those of the cards generated before it existed. */
static void card_task_cost(uint64_t seed, struct sim_profile *p)
{
	struct rng r = { seed * 0xd1b54a32d192ed03ull + 0x7a5cull };

	if (p->cq_depth >= 2 && chance(&r, 0.7))
		p->cq_task = dist(&r, 5e3, 200e3, 1.0, 0, 0, 0);
}

/* SD 6.00 extension registers, the Performance Enhancement cache and
 * command queue, and their broken implementations (sim_card_cq.c). From a
 * stream of their own (seeded apart from the card's), so that the draws
 * above stay what they were before these keys existed. Most A2 cards have
 * them (the class asks for both, SD Physical Layer 6.00 §4.19); some A1
 * cards have a cache. */
static void card_perf(uint64_t seed, struct sim_profile *p)
{
	static const uint8_t depths[] = { 2, 8, 16, 32 };
	struct rng r = { seed * 0x9e3779b97f4a7c15ull + 0xa2a2a2ull };

	/* The class applies to SDHC/SDXC only (sdcard.org, Application
	 * Performance Class: "can be applied to UHS SDHC/SDXC Memory Card
	 * product family"); an SDSC card gets no extension registers. */
	if (p->kind == SIM_SDSC_V2 || p->app_class == 0 ||
	    !chance(&r, p->app_class == 2 ? 0.85 : 0.3))
		return;
	p->sd_specx = 2; /* 6.xx */
	p->sd_spec4 = 1;
	p->ext_regs = true;
	if (chance(&r, p->app_class == 2 ? 0.9 : 0.5)) {
		p->perf_cache_blocks = (uint32_t)logu(&r, 256, 4096);
		p->perf_cache_write = dist(&r, 20e3, 200e3, 1.0, 0, 0, 0);
		p->perf_cache_drain_per_ms = (uint32_t)uni(&r, 1, 40);
		p->perf_flush = dist(&r, 100e3, 2e6, 0.5, 0, 0, 0);
		p->perf_flush_per_block_ns = logu(&r, 20e3, 300e3);
	}
	if (p->app_class == 2 && chance(&r, 0.85)) {
		p->cq_depth = depths[uni(&r, 0, 3)];
		p->cq_lanes = (uint8_t)uni(&r, 1, 8);
		if (chance(&r, 0.08))
			p->cq_timeout_depth = (uint8_t)uni(&r, 1, p->cq_depth - 1);
		if (chance(&r, 0.05))
			p->cq_rejects_cmd44 = true;
	}
	if (p->perf_cache_blocks && chance(&r, 0.06))
		p->flush_reorders = true;
	if (p->perf_cache_blocks && chance(&r, 0.06))
		p->flush_ignored = true;
	card_task_cost(seed, p);
}

void sim_gen_card(uint64_t seed, struct sim_profile *p)
{
	struct rng r = { seed * 0x2545f4914f6cdd1dull + 0xc0ffee };

	memset(p, 0, sizeof(*p));
	card_identity(&r, seed, p);
	card_bus(&r, p);
	card_reads(&r, seed, p);
	card_writes(&r, seed, p);
	card_aus(&r, p);
	card_perf(seed, p);
	snprintf(p->desc, sizeof(p->desc), "generated %s %s%s%s: read gap %u clocks%s, busy "
		 "min %u clocks, write_next %llu ns, %u open AUs of %llu KiB",
		 p->kind == SIM_SDSC_V2 ? "SDSC" : p->kind == SIM_SDHC ? "SDHC" : "SDXC",
		 p->bus4 ? "4-bit" : "1-bit", p->hs ? " HS" : "", p->uhs ? " UHS-I" : "",
		 p->read_gap_clocks, p->read_next.min_ns ? " + time" : "", p->busy_min_clocks,
		 (unsigned long long)p->write_next.min_ns, p->open_aus,
		 (unsigned long long)(p->open_au_bytes >> 10));
}

/* ---- hosts ------------------------------------------------------------------ */

static const uint16_t word_bucket[4][2] = { { 30, 80 }, { 80, 200 }, { 200, 350 },
					    { 350, 500 } };

unsigned sim_gen_blkcnt = SIM_BLKCNT_BUS;
unsigned sim_gen_bwe = SIM_BWE_SLOT;
unsigned sim_gen_dat0 = SIM_DAT0_LIVE;
unsigned sim_gen_fill = SIM_FILL_LIVE;

const char *sim_gen_path_name(enum sim_gen_path p)
{
	static const char *const n[] = { "sdhci-pio", "sdhci-uhs-pio", "adma2", "sdhost-pio",
					 "sdhost-dma", "emmc-dma" };

	return p < SIM_GEN_NPATHS ? n[p] : "?";
}

static enum sim_gen_path pick_path(struct rng *r)
{
	double u = unit(r);

	return u < 0.35 ? SIM_GEN_SDHCI_PIO : u < 0.45 ? SIM_GEN_SDHCI_UHS :
	       u < 0.60 ? SIM_GEN_ADMA2 : u < 0.80 ? SIM_GEN_SDHOST_PIO :
	       u < 0.90 ? SIM_GEN_SDHOST_DMA : SIM_GEN_EMMC_DMA;
}

/* The controller of the path: base clock (the clock limit), UHS-I modes,
 * ADMA2, SDHOST. */
static void host_controller(struct rng *r, struct sim_gen_host *h)
{
	static const uint32_t base[] = { 50000000u, 100000000u, 200000000u, 250000000u };
	struct sim_config *c = &h->c;

	c->base_clock_hz = base[uni(r, 0, 3)];
	switch (h->path) {
	case SIM_GEN_SDHCI_UHS:
		c->base_clock_hz = chance(r, 0.5) ? 100000000u : 200000000u;
		/* SDR50 and DDR50, SDR104 on a 200 MHz base; tuning for SDR50 */
		c->caps_hi = 0x1u | 0x4u | (c->base_clock_hz >= 200000000u ? 0x2u : 0) | 0x2000u;
		break;
	case SIM_GEN_ADMA2:
		snprintf(c->controller, sizeof(c->controller), "emmc2");
		c->adma2 = true;
		c->dma_word_ns = (uint32_t)uni(r, 1, 10);
		c->dma_desc_ns = (uint32_t)uni(r, 50, 300);
		break;
	case SIM_GEN_SDHOST_PIO:
	case SIM_GEN_SDHOST_DMA:
		c->sdhost = true;
		c->base = 0x20202000u;
		c->base_clock_hz = chance(r, 0.5) ? 250000000u : 200000000u;
		break;
	default:
		break;
	}
}

/* Buffer Write Enable and the DAT[0] level (enum sim_bwe, enum
 * sim_dat0): as sim_gen_bwe / sim_gen_dat0 say, or drawn with the Block
 * Count behaviour (sim_gen_blkcnt = SIM_GEN_DRAWN); a lag's length drawn
 * from a stream of its own either way, so the host's other draws stay. */
static void gen_write_looks(uint64_t seed, struct sim_config *c)
{
	struct rng v = { seed * 0x94d049bb133111ebull + 0xda70ull };

	c->bwe = (uint8_t)(sim_gen_bwe < SIM_BWE_N ? sim_gen_bwe : 0);
	c->dat0 = (uint8_t)(sim_gen_dat0 < SIM_DAT0_N ? sim_gen_dat0 : 0);
	if (sim_gen_blkcnt == SIM_GEN_DRAWN || sim_gen_bwe == SIM_GEN_DRAWN)
		c->bwe = (uint8_t)uni(&v, 0, SIM_BWE_N - 1);
	if (sim_gen_blkcnt == SIM_GEN_DRAWN || sim_gen_dat0 == SIM_GEN_DRAWN)
		c->dat0 = (uint8_t)uni(&v, 0, SIM_DAT0_N - 1);
	c->dat0_lag_ns = c->dat0 == SIM_DAT0_LAG ? (uint32_t)uni(&v, 2000, 50000) : 0;
}

/* SDHOST's SDEDM fill and state machine (enum sim_sdhost_fill, enum
 * sim_sdhost_fsm): as sim_gen_fill says, or drawn with the Block Count
 * behaviour; from a stream of their own. A lag of 48-200 SD clocks (more
 * than a word and the probe's slack at either width: a shorter one
 * counts as live, docs/silicon.md), steps of 4 or 8 words. */
static void gen_sdhost_looks(uint64_t seed, struct sim_config *c)
{
	struct rng v = { seed * 0xd6e8feb86659fd93ull + 0xf111ull };
	const bool drawn = sim_gen_blkcnt == SIM_GEN_DRAWN || sim_gen_fill == SIM_GEN_DRAWN;

	c->sdhost_fill = (uint8_t)(sim_gen_fill < SIM_FILL_N ? sim_gen_fill : 0);
	c->sdhost_fsm = SIM_SDH_FSM_START;
	if (drawn) {
		c->sdhost_fill = (uint8_t)uni(&v, 0, SIM_FILL_N - 1);
		c->sdhost_fsm = (uint8_t)uni(&v, 0, SIM_SDH_FSM_N - 1);
	}
	c->sdhost_fill_lag = (uint16_t)uni(&v, 48, 200);
	c->sdhost_fill_step = chance(&v, 0.5) ? 4u : 8u;
}

void sim_gen_host(uint64_t seed, struct sim_gen_host *h)
{
	struct rng r = { seed * 0x9e3779b97f4a7c15ull + 0x5eedull };
	const uint16_t *wr = word_bucket[seed % 4], *rd = word_bucket[(seed / 4) % 4];
	struct sim_config *c = &h->c;

	memset(h, 0, sizeof(*h));
	sim_config_default(c);
	snprintf(c->host_name, sizeof(c->host_name), "gen-host-%llu", (unsigned long long)seed);
	c->data_read_ns = (uint32_t)uni(&r, rd[0], rd[1]);
	c->data_write_ns = (uint32_t)uni(&r, wr[0], wr[1]);
	c->mmio_read_ns = c->data_read_ns;
	c->mmio_write_ns = c->data_write_ns * (uint32_t)uni(&r, 5, 10) / 10 + 10;
	c->timer_read_ns = (uint32_t)uni(&r, 5, 20);
	c->tick_ns = 1;
	c->buf_blocks = 2;
	c->cmd_latency_ns = (uint32_t)uni(&r, 0, 1000);
	c->cmd_gap_clocks = (uint16_t)uni(&r, 8, 32);
	c->read_gap_clocks = (uint16_t)(chance(&r, 0.5) ? 0 : uni(&r, 1, 16));
	c->write_nwr_clocks = (uint16_t)uni(&r, 2, 16);
	h->path = pick_path(&r);
	host_controller(&r, h);
	c->blkcnt = (uint8_t)sim_gen_blkcnt;
	if (sim_gen_blkcnt == SIM_GEN_DRAWN) {
		struct rng v = { seed * 0xbf58476d1ce4e5b9ull + 0xb1c0ull };

		c->blkcnt = (uint8_t)uni(&v, 0, SIM_BLKCNT_N - 1);
		c->sdhost_end_fill_level = chance(&v, 0.5);
	}
	gen_write_looks(seed, c);
	gen_sdhost_looks(seed, c);
	c->seed = seed;
	snprintf(h->desc, sizeof(h->desc), "generated host: %s, data port %u/%u ns per word "
		 "read/write, controller gap %u clocks, base clock %u MHz",
		 sim_gen_path_name(h->path), c->data_read_ns, c->data_write_ns, c->read_gap_clocks,
		 (unsigned)(c->base_clock_hz / 1000000u));
}

int sim_gen_host_format(const struct sim_gen_host *h, char *buf, unsigned cap)
{
	const struct sim_config *c = &h->c;
	char lag[160] = "";
	int n = 0;

	if (c->dat0 == SIM_DAT0_LAG)
		n = snprintf(lag, sizeof(lag), "dat0_lag = %uns\n", c->dat0_lag_ns);
	if (c->sdhost && n >= 0 && (unsigned)n < sizeof(lag))
		snprintf(lag + n, sizeof(lag) - (unsigned)n, "sdhost_edm_fill = %s\n"
			 "sdhost_fill_lag = %u\nsdhost_fill_step = %u\nsdhost_edm_fsm = %s\n",
			 sim_sdhost_fill_name(c->sdhost_fill), c->sdhost_fill_lag,
			 c->sdhost_fill_step, sim_sdhost_fsm_name(c->sdhost_fsm));
	return snprintf(buf, cap,
			"# %s\n# data path: %s\nname = %s\nmmio_read = %uns\nmmio_write = %uns\n"
			"data_read = %uns\ndata_write = %uns\ntimer_read = %uns\ntick = %uns\n"
			"buffer_blocks = %u\ncmd_latency = %uns\ncmd_gap_clocks = %u\n"
			"read_gap_clocks = %u\nwrite_nwr_clocks = %u\nbase_clock = %u\n"
			"caps_hi = 0x%08x\ncontroller = %s\nadma2 = %s\ndma_word = %uns\n"
			"dma_desc = %uns\nblkcnt = %s\n%s%s%s", h->desc, sim_gen_path_name(h->path), c->host_name,
			c->mmio_read_ns, c->mmio_write_ns, c->data_read_ns, c->data_write_ns,
			c->timer_read_ns, c->tick_ns, c->buf_blocks, c->cmd_latency_ns,
			c->cmd_gap_clocks, c->read_gap_clocks, c->write_nwr_clocks,
			c->base_clock_hz, c->caps_hi, c->controller, c->adma2 ? "yes" : "no",
			c->dma_word_ns, c->dma_desc_ns, sim_blkcnt_name(c->blkcnt),
			c->bwe ? "buf_write_enable = empty\n" : "",
			c->dat0 ? (c->dat0 == SIM_DAT0_LAG ? "dat0_level = lag\n" :
				   "dat0_level = none\n") : "", lag);
}

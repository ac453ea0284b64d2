/*
 * test_long_ops.c - one operation longer than the tick counter's wrap
 * (2^32 ticks: 4.29 s with the simulated host's 1 ns tick) is timed and
 * split right, on every host controller and data path: a 4 MiB write on a
 * card that takes 0.6 ms per block (about 5 s), or a 4 MiB read with 0.6
 * ms between blocks, run by the engine, against the wire truth of the same
 * window. The stamps of the request wrap once; the engine's 64-bit clock
 * gives the wrap back (phase_acc_add_long, bench/engine/phase_ticks.c),
 * and the drivers' sums of tick differences over the request (SDHCI's
 * per-block waits, SDHOST's seams, the CPU's work: struct sd_req_times)
 * are 64-bit, so they lose nothing. A 32-bit sum of them wraps to a small
 * number and books seconds of the card's time as the CPU's (Pi 1 + SDHOST
 * with sdhc-slow-writer-8g: seq-write-4m 69 points off, "host-bound").
 *
 * The paths: SDHCI by PIO (its waits, summed per block), SDHCI with the
 * BCM2835 DMA engine moving the data, SDHCI's own ADMA2 (the Pi 4's
 * EMMC2), SDHOST by PIO (its seams, summed per block) and SDHOST with the
 * DMA engine. The DMA paths sum nothing per block: their cases fail with
 * the long-operation accounting reverted (sim/mutations.py
 * long-op-wrap-reverted), the PIO paths' also with a 32-bit sum.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/workload.h"
#include "drivers/dma/bcm2835_dma.h"
#include "drivers/timer.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define MEM_BYTES (24u << 20)
#define BLOCKS 8192u /* 4 MiB */
#define PER_BLOCK_NS 600000u /* 0.6 ms: 4.9 s for 4 MiB */

static void quiet(char c)
{
	(void)c;
}

enum lo_ctrl { LO_SDHCI, LO_SDHOST };

/* What makes the request long:
 *  LO_SLOW_CARD  the card takes 0.6 ms per block (writes: its busy after
 *                each block; reads: the gap before each block);
 *  LO_STALLS     the card is quick but stalls 80 ms at every 64 KiB
 *                boundary (an erase block, sim.h write_cross_eb /
 *                read_cross_eb): SDHCI's rule books the idle bus the CPU
 *                did not wait for as the CPU's, so the sum of its waits
 *                (wait_ticks, 5 s) must be right;
 *  LO_SLOW_CPU   a data port of 5 us per word (0.64 ms per block of the
 *                CPU's): the bus stands for the CPU for seconds in one
 *                request (SDHCI's stood_ticks, host_ticks). */
enum lo_kind { LO_SLOW_CARD, LO_STALLS, LO_SLOW_CPU };

struct long_case {
	const char *what;
	const char *host;  /* sim/hosts profile */
	enum lo_ctrl ctrl;
	bool dma;          /* the host's DMA path (ADMA2 where the host has it,
			      else the BCM2835 DMA engine) */
	bool write;
	enum lo_kind kind;
};

static struct dma_chan dch;

/* The controller and data path of lc on its host profile, the card s. */
static int start(struct simh *s, const struct long_case *lc, const struct sim_profile *p)
{
	struct sim_config cfg;
	char err[200];
	int r;

	sim_config_default(&cfg);
	CHECK_EQ_I(sim_host_load(lc->host, &cfg, err, sizeof(err)), 0);
	if (lc->kind == LO_SLOW_CPU)
		cfg.data_read_ns = cfg.data_write_ns = 5000;
	if (lc->ctrl == LO_SDHOST) {
		/* SDHOST at its BCM2835 address */
		cfg.sdhost = true;
		cfg.base = 0x20202000u;
	}
	if (lc->dma && !cfg.adma2)
		cfg.dma_mem_alias = DMA_MEM_ALIAS_BCM2835;
	r = simh_start_p(s, p, &cfg);
	if (r || s->init_ret)
		return r ? r : s->init_ret;
	if (lc->dma && !cfg.adma2)
		return simh_attach_dma(s, &dch, cfg.base, lc->ctrl == LO_SDHOST);
	return sd_host_set_data_path(s->host, lc->dma ? SD_PATH_DMA : SD_PATH_PIO);
}

/* The card of lc (enum lo_kind): nothing random, no cache or read
 * buffer. */
static void long_card(struct sim_profile *p, const struct long_case *lc)
{
	uint32_t per = lc->kind == LO_SLOW_CARD ? PER_BLOCK_NS : 0;

	*p = *sim_profile_find("sdhc-c10-16g");
	memset(&p->write_next, 0, sizeof(p->write_next));
	memset(&p->read_next, 0, sizeof(p->read_next));
	p->write_next.min_ns = p->read_next.min_ns = per;
	p->cache_blocks = 0;
	p->page_blocks = 0;
	if (lc->kind == LO_STALLS) {
		p->erase_block_bytes = 64u << 10;
		memset(&p->write_cross_eb, 0, sizeof(p->write_cross_eb));
		memset(&p->read_cross_eb, 0, sizeof(p->read_cross_eb));
		p->write_cross_eb.min_ns = p->read_cross_eb.min_ns = 80000000u;
	}
}

static void long_op(const struct long_case *lc)
{
	static struct sim_profile p;
	static struct test_area area;
	static struct write_guard guard;
	struct sim_wire_sum w0, w1, w;
	struct wl_meas m;
	struct wl_ctx c;
	struct simh s;
	struct wl_op op = { lc->write, 1u << 16, BLOCKS, WL_MULTI_AUTO12 };
	uint8_t *mem = aligned_alloc(64, MEM_BYTES);
	double wall, tr_card, tr_bus, tr_host;

	CHECK(mem != NULL);
	if (!mem)
		return;
	long_card(&p, lc);
	CHECK_EQ_I(start(&s, lc, &p), 0);
	CHECK_EQ_U(sim_get_config()->tick_ns, 1);
	CHECK(timer_wrap_ns() < 4400000000ull); /* 2^32 ticks of 1 ns */
	simh_config_area(&area, 1u << 16, 1u << 16);
	write_guard_init(&guard, &s.card, &area, true);
	host_console_hook = quiet;
	wl_ctx_init(&c, &guard, mem, MEM_BYTES, true, false, 0x1234, 42);
	/* The controller characterised first, as the suite does
	 * (bench/workloads/silicon.c): the looks are used where confirmed. */
	{
		struct sd_silicon sil;
		int r = sd_host_characterise(s.card.host, &sil);

		CHECK(r == 0 || r == -ENOTSUP);
	}
	wl_begin(&c, &m, "test", lc->write ? "long-write-4m" : "long-read-4m", "long op",
		 lc->write, WL_MULTI_AUTO12, BLOCKS, 0);
	sim_wire_totals(&w0);
	CHECK_EQ_I(wl_do(&c, &m, &op), 0);
	sim_wire_totals(&w1);
	wl_end(&c, &m);
	host_console_hook = NULL;
	sim_wire_diff(&w1, &w0, &w);
	wall = (double)(w.t_to - w.t_from);
	tr_card = 100.0 * (double)sim_wire_card_ns(&w) / wall;
	tr_bus = 100.0 * (double)sim_wire_bus_ns(&w) / wall;
	tr_host = 100.0 * (double)sim_wire_host_ns(&w) / wall;
	printf("  %-24s 4 MiB %s: %.3f s on the wires; phases %.3f s, wall %.3f s; "
	       "measured card %.1f bus %.1f host %.1f, truth %.1f %.1f %.1f%s\n", lc->what,
	       lc->write ? "write" : "read", wall / 1e9,
	       (double)(m.acc.cmd_ns + m.acc.access_ns + m.acc.data_ns + m.acc.busy_ns) / 1e9,
	       (double)m.split.wall_ns / 1e9, m.split.card_pct, m.split.bus_pct,
	       m.split.host_pct, tr_card, tr_bus, tr_host,
	       m.validity.valid ? "" : " (no diagnosis)");
	CHECK(wall > 4.5e9);
	/* the request's phases add up to the window, within 1 ms */
	CHECK(fabs((double)m.split.wall_ns - wall) < 1e6);
	CHECK(fabs(m.split.card_pct - tr_card) <= 5.0);
	CHECK(fabs(m.split.bus_pct - tr_bus) <= 5.0);
	CHECK(fabs(m.split.host_pct - tr_host) <= 5.0);
	CHECK(m.validity.valid);
	/* its latency sample saturates at 2^32 ns (stats.h), not the wrapped
	 * stamps' difference */
	CHECK_EQ_U(m.sum.max_ns, 0xffffffffu);
	/* the path asked for moved the data (no request sent back to PIO) */
	CHECK_EQ_U(s.host->data_path, lc->dma ? SD_PATH_DMA : SD_PATH_PIO);
	CHECK_EQ_U(s.host->dma_pio_reqs, 0);
	CHECK_EQ_U(sim_violation_count(), 0);
	free(mem);
}

TEST(an_operation_longer_than_the_tick_wrap_is_timed_and_split_right)
{
	/* SDHCI by PIO, the card 0.6 ms per block */
	static const struct long_case lc = { "SDHCI PIO", "sim", LO_SDHCI, false, true,
					     LO_SLOW_CARD };

	long_op(&lc);
}

TEST(sdhci_pio_its_waits_and_the_cpu_longer_than_the_wrap)
{
	/* the driver's per-block waits (wait_ticks) over 5 s of stalls; a
	 * read's standing bus (stood_ticks) and the CPU's work (host_ticks)
	 * over 5 s of a slow data port */
	static const struct long_case w = { "SDHCI PIO, stalls", "pi1", LO_SDHCI, false, true,
					    LO_STALLS };
	static const struct long_case r = { "SDHCI PIO, stalls", "pi1", LO_SDHCI, false, false,
					    LO_STALLS };
	static const struct long_case rc = { "SDHCI PIO, slow CPU", "pi1", LO_SDHCI, false, false,
					     LO_SLOW_CPU };
	static const struct long_case wc = { "SDHCI PIO, slow CPU", "pi1", LO_SDHCI, false, true,
					     LO_SLOW_CPU };

	long_op(&w);
	long_op(&r);
	long_op(&rc);
	long_op(&wc);
}

TEST(sdhci_with_the_dma_engine_longer_than_the_wrap)
{
	static const struct long_case w = { "SDHCI + DMA engine", "pi1", LO_SDHCI, true, true,
					    LO_SLOW_CARD };
	static const struct long_case r = { "SDHCI + DMA engine", "pi1", LO_SDHCI, true, false,
					    LO_SLOW_CARD };

	long_op(&w);
	long_op(&r);
}

TEST(sdhci_adma2_longer_than_the_wrap)
{
	static const struct long_case w = { "SDHCI ADMA2", "pi4-emmc2", LO_SDHCI, true, true,
					    LO_SLOW_CARD };
	static const struct long_case r = { "SDHCI ADMA2", "pi4-emmc2", LO_SDHCI, true, false,
					    LO_SLOW_CARD };

	long_op(&w);
	long_op(&r);
}

TEST(sdhost_pio_longer_than_the_wrap)
{
	/* the seams the driver sums per block (seam_ticks, seam_full_ticks) */
	static const struct long_case w = { "SDHOST PIO", "pi1", LO_SDHOST, false, true,
					    LO_SLOW_CARD };
	static const struct long_case r = { "SDHOST PIO", "pi1", LO_SDHOST, false, false,
					    LO_SLOW_CARD };

	long_op(&w);
	long_op(&r);
}

TEST(sdhost_with_the_dma_engine_longer_than_the_wrap)
{
	static const struct long_case w = { "SDHOST + DMA engine", "pi1", LO_SDHOST, true, true,
					    LO_SLOW_CARD };
	static const struct long_case r = { "SDHOST + DMA engine", "pi1", LO_SDHOST, true, false,
					    LO_SLOW_CARD };

	long_op(&w);
	long_op(&r);
}

/*
 * test_sim_adma.c - the SDHCI core's ADMA2 path on the simulated EMMC2
 * (host pi4-emmc2: the bcm2711_emmc2 quirk set, ADMA2 in CAPABILITIES,
 * the emmc2bus view ARM + 0xC0000000): descriptor tables, data byte for
 * byte against a reference model, multi-descriptor transfers, the cache
 * maintenance order, ADMA errors with the failing descriptor, the DMA
 * address view, and the hosts that must stay on PIO.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/dma/cache.h"
#include "drivers/sd/sd.h"
#include "drivers/sdhci/sdhci_adma.h"
#include "drivers/sdhci/sdhci_regs.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

static uint64_t rs = 0xada2;

static uint32_t rnd(uint32_t n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (uint32_t)(rs % n);
}

static int start(struct simh *s, const char *profile, struct sim_config *c)
{
	struct sim_config d;
	char err[160];

	if (!c) {
		sim_config_default(&d);
		c = &d;
	}
	if (sim_host_load("pi4-emmc2", c, err, sizeof(err))) {
		CHECK_FAIL_("%s", err);
		return -1;
	}
	return simh_start(s, profile, c);
}

/* ---- the descriptor table (pure) ------------------------------------------ */

TEST(descriptor_table_splits_at_64k)
{
	uint32_t t[8];

	CHECK_EQ_U(sdhci_adma_desc_count(512), 1);
	CHECK_EQ_U(sdhci_adma_desc_count(65536), 1);
	CHECK_EQ_U(sdhci_adma_desc_count(65537), 2);
	CHECK_EQ_I(sdhci_adma_build(t, 8, 0xC0100000u, 512), 1);
	CHECK_EQ_U(t[0], 512u << 16 | SDHCI_ADMA_ACT_TRAN | SDHCI_ADMA_END | SDHCI_ADMA_VALID);
	CHECK_EQ_U(t[1], 0xC0100000u);
	/* 150 KiB: 64 + 64 + 22 KiB; 65536 is length 0. */
	CHECK_EQ_I(sdhci_adma_build(t, 8, 0xC0000004u, 150u * 1024), 3);
	CHECK_EQ_U(t[0], SDHCI_ADMA_ACT_TRAN | SDHCI_ADMA_VALID);
	CHECK_EQ_U(t[1], 0xC0000004u);
	CHECK_EQ_U(t[2], SDHCI_ADMA_ACT_TRAN | SDHCI_ADMA_VALID);
	CHECK_EQ_U(t[3], 0xC0010004u);
	CHECK_EQ_U(t[4], (22u * 1024) << 16 | SDHCI_ADMA_ACT_TRAN | SDHCI_ADMA_END |
		   SDHCI_ADMA_VALID);
	CHECK_EQ_U(t[5], 0xC0020004u);
	CHECK_EQ_I(sdhci_adma_build(t, 2, 0xC0000000u, 150u * 1024), -EINVAL);
	CHECK_EQ_I(sdhci_adma_build(t, 8, 0xC0000002u, 512), -EINVAL);
	CHECK_EQ_I(sdhci_adma_build(t, 8, 0xFFFFFE00u, 1024), -EINVAL);
	CHECK_EQ_I(sdhci_adma_build(t, 8, 0xC0000000u, 0), -EINVAL);
}

TEST(failing_descriptor_from_the_error_state)
{
	uint32_t a;

	/* Fetching: the address names the bad descriptor itself. */
	CHECK_EQ_I(sdhci_adma_failing_desc(SDHCI_ADMA_ST_FDS, 0x1010, 0x1000, 4, &a), 2);
	CHECK_EQ_U(a, 0x1010);
	/* Transferring: it already points at the next one. */
	CHECK_EQ_I(sdhci_adma_failing_desc(SDHCI_ADMA_ST_TFR | SDHCI_ADMA_ERR_LEN,
					   0x1010, 0x1000, 4, &a), 1);
	CHECK_EQ_I(sdhci_adma_failing_desc(SDHCI_ADMA_ST_FDS, 0x2000, 0x1000, 4, &a), -1);
}

/* ---- data --------------------------------------------------------------- */

#define WINDOW 4096u
#define MAXN 300u /* 150 KiB: three descriptors */

static void random_sequence(const char *profile, unsigned ops)
{
	struct simh s;
	struct simh_xfers x;
	unsigned nw, nr;
	uint64_t bytes0;

	if (start(&s, profile, NULL) || s.init_ret) {
		CHECK_FAIL_("%s: init %d", profile, s.init_ret);
		return;
	}
	CHECK_EQ_U(s.host->data_path, SD_PATH_DMA);
	CHECK(s.host->data_paths & (1u << SD_PATH_DMA));
	bytes0 = sim_dma_bytes();
	if (simh_random_transfers(&s, ops, WINDOW, MAXN, rnd, &x))
		CHECK_FAIL_("%s: %s", profile, x.why);
	nw = x.writes;
	nr = x.reads;
	/* The master moved the data (not the CPU), with no violation. */
	CHECK(sim_dma_bytes() - bytes0 > (uint64_t)(nw + nr) * 512);
	CHECK_EQ_U(sim_violation_count(), 0);
	printf("  %-20s %u writes, %u reads by ADMA2, %llu descriptors, %.3f s virtual\n",
	       profile, nw, nr, (unsigned long long)sim_dma_desc_fetched(),
	       sim_now_ns() / 1e9);
}

TEST(random_adma2_against_reference)
{
	random_sequence("sdhc-c10-32g-cmd23", 160);
	random_sequence("sdxc-a2-64g", 80);
	random_sequence("sdsc-v2-2g", 60);
}

/* One request larger than a descriptor: 300 blocks = 150 KiB, three
 * descriptors, each way; and the largest single descriptor (128 blocks). */
TEST(multi_descriptor_transfers)
{
	static uint8_t w[MAXN * 512], r[MAXN * 512];
	struct simh s;
	uint32_t k;
	uint64_t d0;

	if (start(&s, "sdhc-c10-32g-cmd23", NULL) || s.init_ret)
		return;
	for (k = 0; k < sizeof(w); k++)
		w[k] = (uint8_t)(k * 7 + (k >> 9));
	d0 = sim_dma_desc_fetched();
	CHECK_EQ_I(sd_write_blocks(&s.card, 1000, MAXN, w, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched() - d0, 3);
	d0 = sim_dma_desc_fetched();
	CHECK_EQ_I(sd_read_blocks(&s.card, 1000, MAXN, r, SD_STOP_AUTO23, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched() - d0, 3);
	CHECK(memcmp(w, r, sizeof(w)) == 0);
	d0 = sim_dma_desc_fetched();
	memset(r, 0, sizeof(r));
	CHECK_EQ_I(sd_read_blocks(&s.card, 1000, 128, r, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched() - d0, 1);
	CHECK(memcmp(w, r, 128 * 512) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* The small register reads stay PIO (no descriptor fetched for the SCR,
 * SSR and CMD6 of sd_init), and so do buffers that are not 4-byte
 * aligned; both still read the right data. */
TEST(small_and_unaligned_go_by_pio)
{
	static uint8_t w[8 * 512], r[8 * 512 + 3];
	struct simh s;

	if (start(&s, "sdhc-c10-16g", NULL) || s.init_ret)
		return;
	CHECK_EQ_U(sim_dma_desc_fetched(), 0); /* sd_init: SCR, SSR, CMD6 */
	memset(w, 0x3C, sizeof(w));
	CHECK_EQ_I(sd_write_blocks(&s.card, 20, 8, w, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched(), 1);
	CHECK_EQ_I(sd_read_blocks(&s.card, 20, 8, r + 1, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched(), 1);
	CHECK(memcmp(w, r + 1, sizeof(w)) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* ---- cache maintenance ------------------------------------------------------- */

static struct cache_call {
	enum cache_op op;
	uintptr_t addr;
	size_t n;
	uint64_t t;
} calls[16];
static unsigned ncalls;

static void hook(enum cache_op op, uintptr_t addr, size_t n)
{
	if (ncalls < 16)
		calls[ncalls++] = (struct cache_call){ op, addr, n, sim_now_ns() };
}

TEST(cache_clean_before_write_invalidate_around_read)
{
	static uint8_t buf[16 * 512];
	const struct sim_truth *t;
	struct simh s;

	if (start(&s, "sdhc-c10-16g", NULL) || s.init_ret)
		return;
	cache_test_hook = hook;
	/* Write: the table and the buffer are cleaned before the command. */
	ncalls = 0;
	CHECK_EQ_I(sd_write_blocks(&s.card, 64, 16, buf, SD_STOP_AUTO12, NULL), 0);
	t = sim_truth_find_last(25);
	CHECK_EQ_U(ncalls, 2);
	CHECK(t != NULL);
	if (ncalls == 2 && t) {
		CHECK_EQ_U(calls[0].op, CACHE_CLEAN);          /* the table */
		CHECK_EQ_U(calls[0].n, 8);
		CHECK_EQ_U(calls[1].op, CACHE_CLEAN);          /* the data */
		CHECK_EQ_U(calls[1].addr, (uintptr_t)buf);
		CHECK_EQ_U(calls[1].n, sizeof(buf));
		CHECK(calls[1].t <= t->t_issue_ns);
	}
	/* Read: table cleaned, buffer invalidated before the command and
	 * again after the transfer completed. */
	ncalls = 0;
	CHECK_EQ_I(sd_read_blocks(&s.card, 64, 16, buf, SD_STOP_AUTO12, NULL), 0);
	t = sim_truth_find_last(18);
	CHECK_EQ_U(ncalls, 3);
	CHECK(t != NULL);
	if (ncalls == 3 && t) {
		CHECK_EQ_U(calls[0].op, CACHE_CLEAN);
		CHECK_EQ_U(calls[1].op, CACHE_INVALIDATE);
		CHECK_EQ_U(calls[1].addr, (uintptr_t)buf);
		CHECK_EQ_U(calls[1].n, sizeof(buf));
		CHECK(calls[1].t <= t->t_issue_ns);
		CHECK_EQ_U(calls[2].op, CACHE_INVALIDATE);
		CHECK_EQ_U(calls[2].addr, (uintptr_t)buf);
		CHECK(calls[2].t >= t->t_end_ns);
	}
	cache_test_hook = NULL;
}

/* ---- errors ------------------------------------------------------------------- */

static void check_recovers(struct simh *s)
{
	static uint8_t b[8 * 512];

	CHECK_EQ_I(sd_read_blocks(&s->card, 0, 8, b, SD_STOP_AUTO12, NULL), 0);
}

TEST(adma_error_names_the_failing_descriptor)
{
	static uint8_t b[300 * 512];
	struct sim_fault f = { 0 };
	struct simh s;
	int ret;

	if (start(&s, "sdhc-c10-32g-cmd23", NULL) || s.init_ret)
		return;
	/* The second descriptor of a 3-descriptor read reads back invalid. */
	f.kind = SIM_FAULT_ADMA_DESC;
	f.cmd = 18;
	f.block = 1;
	sim_fault_add(&f);
	ret = sd_read_blocks(&s.card, 0, 300, b, SD_STOP_AUTO12, NULL);
	CHECK_EQ_I(ret, -EIO);
	CHECK(s.card.last_err.phase && !strcmp(s.card.last_err.phase, "adma"));
	CHECK(s.card.last_err.status & SDHCI_INT_ADMA_ERR);
	CHECK_EQ_U(s.card.last_err.dma_status & 3u, SDHCI_ADMA_ST_FDS);
	CHECK_EQ_I(s.card.last_err.dma_desc, 1);
	CHECK_EQ_U(s.card.last_err.dma_desc_addr & 7u, 0);
	/* The first 64 KiB arrived; the block count (what the driver sees)
	 * is ahead of the master by what the controller's buffer holds. */
	CHECK(s.card.last_err.block >= 128 && s.card.last_err.block <= 130);
	CHECK_EQ_U(sim_violation_count(), 1);   /* the model reports it */
	sim_violation_clear();
	sim_fault_clear();
	check_recovers(&s);

	/* A table 512 bytes short on a write: a length mismatch while
	 * transferring, named at the short descriptor (the last one). */
	f.kind = SIM_FAULT_ADMA_LEN;
	f.cmd = 25;
	f.block = 2;
	sim_fault_add(&f);
	ret = sd_write_blocks(&s.card, 0, 300, b, SD_STOP_AUTO12, NULL);
	CHECK_EQ_I(ret, -EIO);
	CHECK(s.card.last_err.phase && !strcmp(s.card.last_err.phase, "adma"));
	CHECK(s.card.last_err.dma_status & SDHCI_ADMA_ERR_LEN);
	CHECK_EQ_U(s.card.last_err.dma_status & 3u, SDHCI_ADMA_ST_TFR);
	CHECK_EQ_I(s.card.last_err.dma_desc, 2);
	sim_violation_clear();
	sim_fault_clear();
	check_recovers(&s);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* The DMA address view: a master that sees ARM memory 1:1 (the C0
 * stepping) while the driver adds the B0 offset cannot reach the table:
 * ADMA error at descriptor 0, the request fails cleanly. After
 * sdhci_set_dma_view() with the right view the same read works. */
TEST(dma_view_mismatch_is_an_adma_error)
{
	static uint8_t b[8 * 512];
	struct sim_config c;
	struct simh s;
	char err[160];

	sim_config_default(&c);
	CHECK_EQ_I(sim_host_load("pi4-emmc2", &c, err, sizeof(err)), 0);
	c.dma_offset = 0;
	if (simh_start(&s, "sdhc-c10-16g", &c) || s.init_ret)
		return;
	CHECK_EQ_I(sd_read_blocks(&s.card, 0, 8, b, SD_STOP_AUTO12, NULL), -EIO);
	CHECK(s.card.last_err.phase && !strcmp(s.card.last_err.phase, "adma"));
	CHECK_EQ_U(s.card.last_err.dma_status & 3u, SDHCI_ADMA_ST_FDS);
	CHECK_EQ_I(s.card.last_err.dma_desc, 0);
	CHECK_EQ_U(s.card.last_err.dma_desc_addr >> 30, 3); /* 0xC....... */
	sim_violation_clear();
	sdhci_set_dma_view(&s.emmc, 0, 0xFC000000u);
	CHECK_EQ_I(sd_read_blocks(&s.card, 0, 8, b, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* A buffer above the master's window goes by PIO instead. */
TEST(buffer_outside_the_window_goes_by_pio)
{
	static uint8_t w[8 * 512], r[8 * 512];
	struct simh s;
	uint64_t d0;

	if (start(&s, "sdhc-c10-16g", NULL) || s.init_ret)
		return;
	memset(w, 0x77, sizeof(w));
	sim_dma_place_next(0x50000000u);
	d0 = sim_dma_desc_fetched();
	CHECK_EQ_I(sd_write_blocks(&s.card, 8, 8, w, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 8, 8, r, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched(), d0);
	CHECK(memcmp(w, r, sizeof(w)) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* ---- which hosts use it ----------------------------------------------------- */

/* The BCM2835 EMMC quirk set never uses ADMA2, even if CAPABILITIES said
 * so; PIO and ADMA2 give the same data on the EMMC2 when switched. */
TEST(path_selection)
{
	static uint8_t w[32 * 512], r[32 * 512];
	struct sim_config c;
	struct simh s;
	char err[160];

	sim_config_default(&c);
	CHECK_EQ_I(sim_host_load("pi4-emmc2", &c, err, sizeof(err)), 0);
	snprintf(c.controller, sizeof(c.controller), "emmc");
	if (simh_start(&s, "sdhc-c10-16g", &c) || s.init_ret)
		return;
	CHECK_EQ_U(s.host->data_paths, 1u << SD_PATH_PIO);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_DMA), -ENOTSUP);

	if (start(&s, "sdhc-c10-16g", NULL) || s.init_ret)
		return;
	memset(w, 0xA5, sizeof(w));
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_PIO), 0);
	CHECK_EQ_I(sd_write_blocks(&s.card, 100, 32, w, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched(), 0);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_DMA), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 100, 32, r, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched(), 1);
	CHECK(memcmp(w, r, sizeof(w)) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* ---- figures (printed, not asserted) ------------------------------------------
 *
 * The same transfers on the same simulated Pi 4 EMMC2 by PIO and by ADMA2:
 * throughput over the requests (virtual time) and the CPU's data-moving
 * share the driver measured (host_ticks over issue..end). README's PIO vs
 * ADMA2 figures come from this output. */
TEST(figures_pio_vs_adma2)
{
	struct simh s;

	if (start(&s, "instant-4g", NULL) || s.init_ret)
		return;
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "", "instant-4g read 64K", false, 128, 16), 0);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "", "instant-4g write 64K", true, 128, 16), 0);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "", "instant-4g read 1M", false, 2048, 4), 0);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "", "instant-4g read 4K", false, 8, 64), 0);
	if (start(&s, "sdxc-a2-64g", NULL) || s.init_ret)
		return;
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "", "sdxc-a2-64g read 64K", false, 128, 16), 0);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "", "sdxc-a2-64g read 4K", false, 8, 64), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

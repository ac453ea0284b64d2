/*
 * test_sim_pi5_adma.c - 64-bit ADMA2 on the simulated Pi 5 (host pi5: the
 * BCM2712 quirk set, CAPABILITIES with ADMA2 and 64-bit System Bus
 * Support, the identity DMA view up to 16 GiB): the 96-bit descriptor
 * table, DMA Select 11b, data byte for byte against a reference model,
 * multi-descriptor transfers, an ADMA error naming the failing 12-byte
 * descriptor, buffers and the table above 4 GiB, and the same quirk set
 * falling back to 32-bit ADMA2 when CAPABILITIES lacks bit 28.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/dma/dma_addr.h"
#include "drivers/mmio.h"
#include "drivers/sd/sd.h"
#include "drivers/sdhci/sdhci_adma.h"
#include "drivers/sdhci/sdhci_regs.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

static uint64_t rs = 0x5ada64;

static uint32_t rnd(uint32_t n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (uint32_t)(rs % n);
}

/* Host pi5; adma64 false: the same controller without CAPABILITIES bit 28. */
static int start(struct simh *s, const char *profile, bool adma64)
{
	struct sim_config c;
	char err[160];

	sim_config_default(&c);
	if (sim_host_load("pi5", &c, err, sizeof(err))) {
		CHECK_FAIL_("%s", err);
		return -1;
	}
	c.adma64 = adma64;
	return simh_start(s, profile, &c);
}

static uint32_t dma_select(const struct simh *s)
{
	return mmio_read32(s->emmc.priv.base + SDHCI_CONTROL0) & SDHCI_C0_HCTL_DMA_MASK;
}

/* ---- the descriptor table (pure) ------------------------------------------ */

TEST(descriptor_table_64)
{
	uint32_t t[3 * 8];
	uint64_t a;

	/* 150 KiB at 0x3_0000_0004: 64 + 64 + 22 KiB, three 12-byte
	 * descriptors, the high word in the third. */
	CHECK_EQ_I(sdhci_adma_build64(t, 8, 0x300000004ull, 150u * 1024), 3);
	CHECK_EQ_U(t[0], SDHCI_ADMA_ACT_TRAN | SDHCI_ADMA_VALID);
	CHECK_EQ_U(t[1], 0x00000004u);
	CHECK_EQ_U(t[2], 3u);
	CHECK_EQ_U(t[3], SDHCI_ADMA_ACT_TRAN | SDHCI_ADMA_VALID);
	CHECK_EQ_U(t[4], 0x00010004u);
	CHECK_EQ_U(t[5], 3u);
	CHECK_EQ_U(t[6], (22u * 1024) << 16 | SDHCI_ADMA_ACT_TRAN | SDHCI_ADMA_END |
		   SDHCI_ADMA_VALID);
	CHECK_EQ_U(t[7], 0x00020004u);
	CHECK_EQ_U(t[8], 3u);
	/* Crossing 4 GiB inside a descriptor carries into the high word. */
	CHECK_EQ_I(sdhci_adma_build64(t, 8, 0xFFFF8000ull, 65536), 1);
	CHECK_EQ_I(sdhci_adma_build64(t, 8, 0xFFFF0000ull, 65537), 2);
	CHECK_EQ_U(t[4], 0x00000000u);
	CHECK_EQ_U(t[5], 1u);
	CHECK_EQ_I(sdhci_adma_build64(t, 2, 0x100000000ull, 150u * 1024), -EINVAL);
	CHECK_EQ_I(sdhci_adma_build64(t, 8, 0x100000002ull, 512), -EINVAL);
	CHECK_EQ_I(sdhci_adma_build64(t, 8, 0xFFFFFFFFFFFFFE00ull, 1024), -EINVAL);
	CHECK_EQ_I(sdhci_adma_build64(t, 8, 0x100000000ull, 0), -EINVAL);
	/* The failing descriptor at a 12-byte stride, above 4 GiB. */
	CHECK_EQ_I(sdhci_adma_failing_desc_sz(SDHCI_ADMA_ST_FDS, 0x100001018ull,
					      0x100001000ull, 4, SDHCI_ADMA_DESC64_SZ, &a), 2);
	CHECK_EQ_U(a, 0x100001018ull);
	CHECK_EQ_I(sdhci_adma_failing_desc_sz(SDHCI_ADMA_ST_TFR, 0x100001018ull,
					      0x100001000ull, 4, SDHCI_ADMA_DESC64_SZ, &a), 1);
	CHECK_EQ_I(sdhci_adma_failing_desc_sz(SDHCI_ADMA_ST_FDS, 0x100001010ull,
					      0x100001000ull, 4, SDHCI_ADMA_DESC64_SZ, &a), -1);
}

/* ---- which ADMA2 --------------------------------------------------------- */

TEST(pi5_runs_64bit_adma2)
{
	struct simh s;

	if (start(&s, "sdhc-c10-16g", true) || s.init_ret) {
		CHECK_FAIL_("init %d", s.init_ret);
		return;
	}
	CHECK(s.host->caps & SDHCI_CAP0_ADMA2);
	CHECK(s.host->caps & SDHCI_CAP0_SYS64);
	CHECK(s.emmc.priv.adma64);
	CHECK_EQ_U(s.emmc.priv.dma_offset, 0);
	CHECK_EQ_U(s.emmc.priv.dma_window, 0x400000000ull);
	CHECK_EQ_U(s.host->data_path, SD_PATH_DMA);
	CHECK_EQ_U(dma_select(&s), SDHCI_C0_HCTL_DMA_ADMA2_64);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_PIO), 0);
	CHECK_EQ_U(dma_select(&s), 0);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_DMA), 0);
	CHECK_EQ_U(dma_select(&s), SDHCI_C0_HCTL_DMA_ADMA2_64);

	/* Without bit 28: 32-bit ADMA2, window clamped to 4 GiB. */
	if (start(&s, "sdhc-c10-16g", false) || s.init_ret)
		return;
	CHECK(!(s.host->caps & SDHCI_CAP0_SYS64));
	CHECK(!s.emmc.priv.adma64);
	CHECK_EQ_U(s.emmc.priv.dma_window, 0x100000000ull);
	CHECK_EQ_U(dma_select(&s), SDHCI_C0_HCTL_DMA_ADMA2);
}

/* ---- data --------------------------------------------------------------- */

#define WINDOW 4096u
#define MAXN 300u

static void random_sequence(const char *profile, unsigned ops)
{
	struct simh s;
	struct simh_xfers x;
	unsigned nw, nr;
	uint64_t bytes0, d0;

	if (start(&s, profile, true) || s.init_ret) {
		CHECK_FAIL_("%s: init %d", profile, s.init_ret);
		return;
	}
	CHECK_EQ_U(s.host->data_path, SD_PATH_DMA);
	bytes0 = sim_dma_bytes();
	d0 = sim_dma_desc_fetched();
	if (simh_random_transfers(&s, ops, WINDOW, MAXN, rnd, &x))
		CHECK_FAIL_("%s: %s", profile, x.why);
	nw = x.writes;
	nr = x.reads;
	CHECK(sim_dma_bytes() - bytes0 > (uint64_t)(nw + nr) * 512);
	CHECK(sim_dma_desc_fetched() - d0 >= nw + nr);
	CHECK_EQ_U(sim_violation_count(), 0);
	printf("  %-20s %u writes, %u reads by 64-bit ADMA2, %llu descriptors\n",
	       profile, nw, nr, (unsigned long long)(sim_dma_desc_fetched() - d0));
}

TEST(random_adma64_against_reference)
{
	random_sequence("sdhc-c10-32g-cmd23", 160);
	random_sequence("sdxc-a2-64g", 80);
}

TEST(multi_descriptor_transfers)
{
	static uint8_t w[MAXN * 512], r[MAXN * 512];
	struct simh s;
	uint32_t k;
	uint64_t d0;

	if (start(&s, "sdhc-c10-32g-cmd23", true) || s.init_ret)
		return;
	for (k = 0; k < sizeof(w); k++)
		w[k] = (uint8_t)(k * 13 + (k >> 9));
	d0 = sim_dma_desc_fetched();
	CHECK_EQ_I(sd_write_blocks(&s.card, 1000, MAXN, w, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched() - d0, 3);
	d0 = sim_dma_desc_fetched();
	CHECK_EQ_I(sd_read_blocks(&s.card, 1000, MAXN, r, SD_STOP_AUTO23, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched() - d0, 3);
	CHECK(memcmp(w, r, sizeof(w)) == 0);
	/* The table the driver built: three 12-byte descriptors. */
	CHECK_EQ_U(s.emmc.priv.adma_tbl[3] & 0x3Fu, SDHCI_ADMA_ACT_TRAN | SDHCI_ADMA_VALID);
	CHECK_EQ_U(s.emmc.priv.adma_tbl[6] & 0x3Fu,
		   SDHCI_ADMA_ACT_TRAN | SDHCI_ADMA_VALID | SDHCI_ADMA_END);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* ---- errors ------------------------------------------------------------------- */

TEST(adma64_error_names_the_failing_descriptor)
{
	static uint8_t b[MAXN * 512];
	struct sim_fault f = { 0 };
	struct simh s;
	uint64_t tbl;

	if (start(&s, "sdhc-c10-32g-cmd23", true) || s.init_ret)
		return;
	f.kind = SIM_FAULT_ADMA_DESC;
	f.cmd = 18;
	f.block = 1;
	sim_fault_add(&f);
	CHECK_EQ_I(sd_read_blocks(&s.card, 0, MAXN, b, SD_STOP_AUTO12, NULL), -EIO);
	tbl = dma_arm_phys(s.emmc.priv.adma_tbl, sizeof(s.emmc.priv.adma_tbl));
	CHECK(s.card.last_err.phase && !strcmp(s.card.last_err.phase, "adma"));
	CHECK(s.card.last_err.status & SDHCI_INT_ADMA_ERR);
	CHECK_EQ_U(s.card.last_err.dma_status & 3u, SDHCI_ADMA_ST_FDS);
	CHECK_EQ_I(s.card.last_err.dma_desc, 1);
	CHECK_EQ_U(s.card.last_err.dma_desc_addr, (uint32_t)(tbl + 12u));
	CHECK_EQ_U(sim_violation_count(), 1);
	sim_violation_clear();
	sim_fault_clear();

	/* A write table 512 bytes short: length mismatch in state TFR, named
	 * at the short (third) descriptor. */
	f.kind = SIM_FAULT_ADMA_LEN;
	f.cmd = 25;
	f.block = 2;
	sim_fault_add(&f);
	CHECK_EQ_I(sd_write_blocks(&s.card, 0, MAXN, b, SD_STOP_AUTO12, NULL), -EIO);
	CHECK(s.card.last_err.dma_status & SDHCI_ADMA_ERR_LEN);
	CHECK_EQ_U(s.card.last_err.dma_status & 3u, SDHCI_ADMA_ST_TFR);
	CHECK_EQ_I(s.card.last_err.dma_desc, 2);
	CHECK_EQ_U(s.card.last_err.dma_desc_addr, (uint32_t)(tbl + 24u));
	sim_violation_clear();
	sim_fault_clear();
	CHECK_EQ_I(sd_read_blocks(&s.card, 0, 8, b, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* ---- above 4 GiB ------------------------------------------------------------ */

/* The first DMA request maps its buffer and then the table: placed at
 * 12 GiB + 1 MiB, both are above 4 GiB; the descriptors carry the high
 * word, ADMA_ADDR_HI names the table, and the data arrives. */
TEST(buffer_and_table_above_4g)
{
	static uint8_t w[200 * 512], r[200 * 512];
	struct simh s;
	uint64_t d0, bphys, tphys;
	uint32_t k;

	if (start(&s, "sdhc-c10-16g", true) || s.init_ret)
		return;
	for (k = 0; k < sizeof(w); k++)
		w[k] = (uint8_t)(k * 31 + 7);
	sim_dma_place_next(0x300100000ull);
	d0 = sim_dma_desc_fetched();
	CHECK_EQ_I(sd_write_blocks(&s.card, 500, 200, w, SD_STOP_AUTO12, NULL), 0);
	bphys = dma_arm_phys(w, sizeof(w));
	tphys = dma_arm_phys(s.emmc.priv.adma_tbl, sizeof(s.emmc.priv.adma_tbl));
	CHECK(bphys >= 0x300100000ull && bphys < 0x400000000ull);
	CHECK(tphys > 0x100000000ull && tphys < 0x400000000ull);
	CHECK_EQ_U(sim_dma_desc_fetched() - d0, 2);
	CHECK_EQ_U(s.emmc.priv.adma_tbl[1], (uint32_t)bphys);
	CHECK_EQ_U(s.emmc.priv.adma_tbl[2], (uint32_t)(bphys >> 32));
	CHECK_EQ_U(mmio_read32(s.emmc.priv.base + SDHCI_ADMA_ADDR_HI), (uint32_t)(tphys >> 32));
	sim_dma_place_next(0x3F0000000ull);
	d0 = sim_dma_desc_fetched();
	CHECK_EQ_I(sd_read_blocks(&s.card, 500, 200, r, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched() - d0, 2);
	CHECK(dma_arm_phys(r, sizeof(r)) >= 0x3F0000000ull);
	CHECK(memcmp(w, r, sizeof(w)) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* Without 64-bit System Bus Support the quirk set runs 32-bit ADMA2: a
 * buffer below 4 GiB goes by DMA, one above it by PIO, both correct. */
TEST(without_bit28_32bit_adma2_below_4g)
{
	static uint8_t w[16 * 512], r[16 * 512], r2[16 * 512];
	struct simh s;
	uint64_t d0;

	if (start(&s, "sdhc-c10-16g", false) || s.init_ret)
		return;
	memset(w, 0x6B, sizeof(w));
	d0 = sim_dma_desc_fetched();
	CHECK_EQ_I(sd_write_blocks(&s.card, 40, 16, w, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 40, 16, r, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched() - d0, 2);
	CHECK(memcmp(w, r, sizeof(w)) == 0);
	sim_dma_place_next(0x200000000ull);
	d0 = sim_dma_desc_fetched();
	CHECK_EQ_I(sd_read_blocks(&s.card, 40, 16, r2, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched(), d0);
	CHECK(memcmp(w, r2, sizeof(w)) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* ---- figures (printed, not asserted) ------------------------------------------
 *
 * PIO and 64-bit ADMA2 on the simulated Pi 5: throughput over the requests
 * (virtual time) and the CPU's data-moving share (host_ticks over
 * issue..end). */
TEST(figures_pi5_pio_vs_adma2)
{
	struct simh s;

	if (start(&s, "instant-4g", true) || s.init_ret)
		return;
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "pi5 ", "instant-4g read 64K", false, 128, 16), 0);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "pi5 ", "instant-4g write 64K", true, 128, 16), 0);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "pi5 ", "instant-4g read 1M", false, 2048, 4), 0);
	if (start(&s, "sdxc-a2-64g", true) || s.init_ret)
		return;
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "pi5 ", "sdxc-a2-64g read 64K", false, 128, 16), 0);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "pi5 ", "sdxc-a2-64g read 4K", false, 8, 64), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
	/* SDR104 at 200 MHz on the Pi 5's board (1.8 V regulator). */
	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "pi5", SD_MODE_AUTO), 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_SDR104);
	CHECK(s.emmc.priv.adma64);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "pi5 ", "sdr104-a2-64g read 64K", false, 128, 16), 0);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "pi5 ", "sdr104-a2-64g write 64K", true, 128, 16), 0);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "pi5 ", "sdr104-a2-64g read 1M", false, 2048, 4), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/*
 * test_sim_adma.c - the SDHCI core's ADMA2 path on the simulator, on every
 * host that has it: the Pi 4's EMMC2 (host pi4-emmc2: the bcm2711_emmc2
 * quirk set, 32-bit ADMA2, the emmc2bus view ARM + 0xC0000000) and the
 * Pi 5's SDIO (host pi5: the BCM2712 quirk set, CAPABILITIES with ADMA2
 * and 64-bit System Bus Support, 96-bit descriptors, the identity view up
 * to 16 GiB). What every ADMA2 host must do (data byte for byte against a
 * reference model, multi-descriptor transfers, ADMA errors naming the
 * failing descriptor, the PIO vs ADMA2 figures) runs as one body over the
 * table of hosts below; then each board's own: the descriptor tables, the
 * cache maintenance order, the DMA address view and the hosts that must
 * stay on PIO (Pi 4); DMA Select 11b, buffers and the table above 4 GiB
 * and the fall back to 32-bit ADMA2 without CAPABILITIES bit 28 (Pi 5).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/dma/cache.h"
#include "drivers/dma/dma_addr.h"
#include "drivers/mmio.h"
#include "drivers/sd/sd.h"
#include "drivers/sdhci/sdhci_adma.h"
#include "drivers/sdhci/sdhci_regs.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

/* The ADMA2 hosts: the host file, whether to force CAPABILITIES bit 28
 * (-1: as the host file says), a descriptor's size in 32-bit words, the
 * seed of the host's random sequences and the tag of its figure lines. */
static const struct adma_host {
	const char *name;
	int adma64;
	unsigned desc_words;
	uint64_t seed;
	const char *tag;
} adma_hosts[] = {
	{ "pi4-emmc2", -1, 2, 0xada2, "" },
	{ "pi5", 1, 3, 0x5ada64, "pi5 " },
};
#define NHOST (sizeof(adma_hosts) / sizeof(adma_hosts[0]))

static uint64_t rs;

static uint32_t rnd(uint32_t n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (uint32_t)(rs % n);
}

/* The simulator on host with the card profile; adma64 as in the table. */
static int start_on(struct simh *s, const char *host, const char *profile, int adma64)
{
	struct sim_config c;
	char err[160];

	sim_config_default(&c);
	if (sim_host_load(host, &c, err, sizeof(err))) {
		CHECK_FAIL_("%s", err);
		return -1;
	}
	if (adma64 >= 0)
		c.adma64 = adma64 != 0;
	return simh_start(s, profile, &c);
}

static int start_h(struct simh *s, const struct adma_host *h, const char *profile)
{
	return start_on(s, h->name, profile, h->adma64);
}

/* The Pi 4's EMMC2. */
static int start(struct simh *s, const char *profile)
{
	return start_h(s, &adma_hosts[0], profile);
}

/* The Pi 5; adma64 false: the same controller without CAPABILITIES bit 28. */
static int start_pi5(struct simh *s, const char *profile, bool adma64)
{
	return start_on(s, "pi5", profile, adma64);
}

static uint32_t dma_select(const struct simh *s)
{
	return mmio_read32(s->emmc.priv.base + SDHCI_CONTROL0) & SDHCI_C0_HCTL_DMA_MASK;
}

/* The bus address of descriptor k of the driver's table, as the master
 * sees it (through the host's DMA view). */
static uint32_t desc_bus(const struct simh *s, const struct adma_host *h, unsigned k)
{
	uint64_t tbl = dma_arm_phys(s->emmc.priv.adma_tbl, sizeof(s->emmc.priv.adma_tbl));

	return (uint32_t)(tbl + s->emmc.priv.dma_offset + 4u * h->desc_words * k);
}

/* ======== every ADMA2 host ================================================ */

#define WINDOW 4096u
#define MAXN 300u /* 150 KiB: three descriptors */

static void random_sequence(const struct adma_host *h, const char *profile, unsigned ops)
{
	struct simh s;
	struct simh_xfers x;
	unsigned nw, nr;
	uint64_t bytes0, d0;

	if (start_h(&s, h, profile) || s.init_ret) {
		CHECK_FAIL_("%s %s: init %d", h->name, profile, s.init_ret);
		return;
	}
	CHECK_EQ_U(s.host->data_path, SD_PATH_DMA);
	CHECK(s.host->data_paths & (1u << SD_PATH_DMA));
	bytes0 = sim_dma_bytes();
	d0 = sim_dma_desc_fetched();
	if (simh_random_transfers(&s, ops, WINDOW, MAXN, rnd, &x))
		CHECK_FAIL_("%s %s: %s", h->name, profile, x.why);
	nw = x.writes;
	nr = x.reads;
	/* The master moved the data (not the CPU), with no violation. */
	CHECK(sim_dma_bytes() - bytes0 > (uint64_t)(nw + nr) * 512);
	CHECK(sim_dma_desc_fetched() - d0 >= nw + nr);
	CHECK_EQ_U(sim_violation_count(), 0);
	printf("  %-10s %-20s %u writes, %u reads by ADMA2, %llu descriptors, %.3f s virtual\n",
	       h->name, profile, nw, nr, (unsigned long long)(sim_dma_desc_fetched() - d0),
	       sim_now_ns() / 1e9);
}

TEST(random_adma2_against_reference)
{
	unsigned h;

	for (h = 0; h < NHOST; h++) {
		rs = adma_hosts[h].seed;
		random_sequence(&adma_hosts[h], "sdhc-c10-32g-cmd23", 160);
		random_sequence(&adma_hosts[h], "sdxc-a2-64g", 80);
		random_sequence(&adma_hosts[h], "sdsc-v2-2g", 60);
	}
}

/* One request larger than a descriptor: 300 blocks = 150 KiB, three
 * descriptors, each way (the table the driver built: three descriptors of
 * the host's size, the last one ending it); and the largest single
 * descriptor (128 blocks). */
static void multi_descriptor(const struct adma_host *h)
{
	static uint8_t w[MAXN * 512], r[MAXN * 512];
	const uint32_t *t;
	struct simh s;
	uint32_t k;
	uint64_t d0;

	if (start_h(&s, h, "sdhc-c10-32g-cmd23") || s.init_ret) {
		CHECK_FAIL_("%s: init %d", h->name, s.init_ret);
		return;
	}
	t = s.emmc.priv.adma_tbl;
	for (k = 0; k < sizeof(w); k++)
		w[k] = (uint8_t)(k * 7 + (k >> 9) + h->desc_words);
	d0 = sim_dma_desc_fetched();
	CHECK_EQ_I(sd_write_blocks(&s.card, 1000, MAXN, w, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched() - d0, 3);
	d0 = sim_dma_desc_fetched();
	CHECK_EQ_I(sd_read_blocks(&s.card, 1000, MAXN, r, SD_STOP_AUTO23, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched() - d0, 3);
	CHECK(memcmp(w, r, sizeof(w)) == 0);
	CHECK_EQ_U(t[h->desc_words] & 0x3Fu, SDHCI_ADMA_ACT_TRAN | SDHCI_ADMA_VALID);
	CHECK_EQ_U(t[2 * h->desc_words] & 0x3Fu,
		   SDHCI_ADMA_ACT_TRAN | SDHCI_ADMA_VALID | SDHCI_ADMA_END);
	d0 = sim_dma_desc_fetched();
	memset(r, 0, sizeof(r));
	CHECK_EQ_I(sd_read_blocks(&s.card, 1000, 128, r, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_dma_desc_fetched() - d0, 1);
	CHECK(memcmp(w, r, 128 * 512) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(multi_descriptor_transfers)
{
	unsigned h;

	for (h = 0; h < NHOST; h++)
		multi_descriptor(&adma_hosts[h]);
}

static void check_recovers(struct simh *s)
{
	static uint8_t b[8 * 512];

	CHECK_EQ_I(sd_read_blocks(&s->card, 0, 8, b, SD_STOP_AUTO12, NULL), 0);
}

/* A DMA fault of kind at descriptor desc of a MAXN-block read (CMD18) or
 * write (CMD25): the request fails in phase "adma", named at that
 * descriptor by index and bus address. */
static void adma_fault(struct simh *s, const struct adma_host *h, enum sim_fault_kind kind,
		       int cmd, uint32_t desc)
{
	static uint8_t b[MAXN * 512];
	struct sim_fault f = { 0 };

	f.kind = kind;
	f.cmd = cmd;
	f.block = desc;
	sim_fault_add(&f);
	CHECK_EQ_I(cmd == 25 ? sd_write_blocks(&s->card, 0, MAXN, b, SD_STOP_AUTO12, NULL) :
		   sd_read_blocks(&s->card, 0, MAXN, b, SD_STOP_AUTO12, NULL), -EIO);
	CHECK(s->card.last_err.phase && !strcmp(s->card.last_err.phase, "adma"));
	CHECK_EQ_I(s->card.last_err.dma_desc, (int)desc);
	CHECK_EQ_U(s->card.last_err.dma_desc_addr, desc_bus(s, h, desc));
}

/* The fault and what the model reported cleared: the host recovers. */
static void cleared_recovers(struct simh *s)
{
	sim_violation_clear();
	sim_fault_clear();
	check_recovers(s);
}

static void adma_error(const struct adma_host *h)
{
	struct simh s;

	if (start_h(&s, h, "sdhc-c10-32g-cmd23") || s.init_ret) {
		CHECK_FAIL_("%s: init %d", h->name, s.init_ret);
		return;
	}
	/* The second descriptor of a 3-descriptor read reads back invalid. */
	adma_fault(&s, h, SIM_FAULT_ADMA_DESC, 18, 1);
	CHECK(s.card.last_err.status & SDHCI_INT_ADMA_ERR);
	CHECK_EQ_U(s.card.last_err.dma_status & 3u, SDHCI_ADMA_ST_FDS);
	/* The first 64 KiB arrived; the block count (what the driver sees)
	 * is ahead of the master by what the controller's buffer holds. */
	CHECK(s.card.last_err.block >= 128 && s.card.last_err.block <= 130);
	CHECK_EQ_U(sim_violation_count(), 1);   /* the model reports it */
	cleared_recovers(&s);

	/* A table 512 bytes short on a write: a length mismatch while
	 * transferring, named at the short descriptor (the last one). */
	adma_fault(&s, h, SIM_FAULT_ADMA_LEN, 25, 2);
	CHECK(s.card.last_err.dma_status & SDHCI_ADMA_ERR_LEN);
	CHECK_EQ_U(s.card.last_err.dma_status & 3u, SDHCI_ADMA_ST_TFR);
	cleared_recovers(&s);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(adma_error_names_the_failing_descriptor)
{
	unsigned h;

	for (h = 0; h < NHOST; h++)
		adma_error(&adma_hosts[h]);
}

/* ---- figures (printed, not asserted) ------------------------------------------
 *
 * The same transfers on each host by PIO and by ADMA2: throughput over the
 * requests (virtual time) and the CPU's data-moving share the driver
 * measured (host_ticks over issue..end). README's PIO vs ADMA2 figures
 * come from this output. */
static void figures(const struct adma_host *h)
{
	static const struct { const char *card, *what; bool write; uint32_t blocks; unsigned reps; } f[] = {
		{ "instant-4g", "instant-4g read 64K", false, 128, 16 },
		{ "instant-4g", "instant-4g write 64K", true, 128, 16 },
		{ "instant-4g", "instant-4g read 1M", false, 2048, 4 },
		{ "instant-4g", "instant-4g read 4K", false, 8, 64 },
		{ "sdxc-a2-64g", "sdxc-a2-64g read 64K", false, 128, 16 },
		{ "sdxc-a2-64g", "sdxc-a2-64g read 4K", false, 8, 64 },
	};
	struct simh s;
	unsigned i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if ((i == 0 || strcmp(f[i].card, f[i - 1].card)) &&
		    (start_h(&s, h, f[i].card) || s.init_ret)) {
			CHECK_FAIL_("%s %s: init %d", h->name, f[i].card, s.init_ret);
			return;
		}
		CHECK_EQ_I(simh_figure_pio_vs_dma(&s, h->tag, f[i].what, f[i].write,
						  f[i].blocks, f[i].reps), 0);
	}
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(figures_pio_vs_adma2)
{
	unsigned h;

	for (h = 0; h < NHOST; h++)
		figures(&adma_hosts[h]);
}

/* ======== the Pi 4's EMMC2 ================================================ */

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

/* The small register reads stay PIO (no descriptor fetched for the SCR,
 * SSR and CMD6 of sd_init), and so do buffers that are not 4-byte
 * aligned; both still read the right data. */
TEST(small_and_unaligned_go_by_pio)
{
	static uint8_t w[8 * 512], r[8 * 512 + 3];
	struct simh s;

	if (start(&s, "sdhc-c10-16g") || s.init_ret)
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

	if (start(&s, "sdhc-c10-16g") || s.init_ret)
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

	if (start(&s, "sdhc-c10-16g") || s.init_ret)
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

	if (start(&s, "sdhc-c10-16g") || s.init_ret)
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

/* ======== the Pi 5 ======================================================== */

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

	if (start_pi5(&s, "sdhc-c10-16g", true) || s.init_ret) {
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
	if (start_pi5(&s, "sdhc-c10-16g", false) || s.init_ret)
		return;
	CHECK(!(s.host->caps & SDHCI_CAP0_SYS64));
	CHECK(!s.emmc.priv.adma64);
	CHECK_EQ_U(s.emmc.priv.dma_window, 0x100000000ull);
	CHECK_EQ_U(dma_select(&s), SDHCI_C0_HCTL_DMA_ADMA2);
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

	if (start_pi5(&s, "sdhc-c10-16g", true) || s.init_ret)
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

	if (start_pi5(&s, "sdhc-c10-16g", false) || s.init_ret)
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

/* PIO and 64-bit ADMA2 on the simulated Pi 5 at SDR104, 200 MHz on the
 * Pi 5's board (1.8 V regulator); printed, not asserted. */
TEST(figures_pi5_sdr104_pio_vs_adma2)
{
	struct simh s;

	/* SDR104 at 200 MHz on the Pi 5's board (1.8 V regulator). */
	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "pi5", SD_MODE_AUTO), 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_SDR104);
	CHECK(s.emmc.priv.adma64);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "pi5 ", "sdr104-a2-64g read 64K", false, 128, 16), 0);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "pi5 ", "sdr104-a2-64g write 64K", true, 128, 16), 0);
	CHECK_EQ_I(simh_figure_pio_vs_dma(&s, "pi5 ", "sdr104-a2-64g read 1M", false, 2048, 4), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

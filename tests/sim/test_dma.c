/*
 * test_dma.c - the BCM2835 DMA engine driver (drivers/dma/bcm2835_dma.c)
 * and the EMMC's DMA data path, on the simulator's DMA model
 * (sim/sim_bcm2835_dma.c) with the real drivers:
 *  - channel choice from the firmware's mask (full before lite, none);
 *  - control blocks: addresses (memory alias, the data port's bus
 *    address), TI bits, lengths, stride, chaining on a lite channel;
 *  - the order of cache maintenance, control-block cleaning and the start
 *    write (cache_test_hook and the model's register write log in one
 *    sequence): clean -> CB -> start for writes, invalidate -> transfer ->
 *    invalidate for reads;
 *  - random transfers through the DMA path compared byte for byte with a
 *    reference and the card's flash, buffers the engine cannot maintain
 *    going by PIO;
 *  - errors: an engine error, an engine that never finishes, a data CRC
 *    error of the controller during the transfer: each a clear error, and
 *    the next transfer works;
 *  - the wait's bound is progress: an engine that stops mid-transfer fails
 *    after about one block's bound, a slow transfer that keeps moving is
 *    not cut however long it takes in all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/dma/bcm2835_dma.h"
#include "drivers/dma/cache.h"
#include "drivers/dma/dma_addr.h"
#include "drivers/sd/sd.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "sim/sim_dma_log.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define PERIPH (SIM_EMMC_BASE_DEFAULT - 0x300000u)
#define DMA_REGS (PERIPH + 0x7000u)
#define PORT_BUS 0x7E300020u

/* ---- set-up ----------------------------------------------------------------- */

static struct dma_chan ch;

static int start_dma_host(struct simh *s, const char *profile, uint32_t mask,
			  uint32_t alias_model, uint32_t alias_driver)
{
	struct sim_config cfg;
	int r;

	sim_config_default(&cfg);
	cfg.dma_mem_alias = alias_model;
	r = simh_start(s, profile, &cfg);
	if (r)
		return r;
	r = dma_chan_init(&ch, PERIPH, alias_driver, mask);
	if (r)
		return r;
	bcm2835_emmc_attach_dma(&s->emmc, &ch, DMA_DREQ_EMMC);
	return sd_host_set_data_path(s->host, SD_PATH_DMA);
}

/* ---- channel choice ----------------------------------------------------- */

TEST(channel_choice)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	CHECK_EQ_I(sim_setup(&cfg, sim_profile_find("instant-4g")), 0);
	/* QEMU's answer: channels 2-5. The highest full one. */
	sim_dma_log_start();
	CHECK_EQ_I(dma_chan_init(&ch, PERIPH, DMA_MEM_ALIAS_BCM2836, 0x3C), 0);
	sim_dma_log_stop();
	CHECK_EQ_I(ch.channel, 5);
	CHECK(!ch.lite);
	CHECK_EQ_U(ch.max_len, DMA_MAX_LEN_FULL);
	CHECK_EQ_U(ch.regs, DMA_REGS + 0x500u);
	/* The channel's enable bit is set, then the channel reset. */
	CHECK(sim_dma_log_find(0, SIM_EV_WRITE, DMA_REGS + 0xFF0u, 1u << 5) >= 0);
	CHECK(sim_dma_log_find(0, SIM_EV_WRITE, DMA_REGS + 0x500u, DMA_CS_RESET) >= 0);
	/* A Pi firmware's mask (0,2,4,5,8-14): 5 again, never 15. */
	CHECK_EQ_I(dma_chan_init(&ch, PERIPH, DMA_MEM_ALIAS_BCM2836, 0xFF35), 0);
	CHECK_EQ_I(ch.channel, 5);
	/* Only lite channels: the highest, with the 16-bit length. */
	CHECK_EQ_I(dma_chan_init(&ch, PERIPH, DMA_MEM_ALIAS_BCM2836, 0x0F00), 0);
	CHECK_EQ_I(ch.channel, 11);
	CHECK(ch.lite);
	CHECK_EQ_U(ch.max_len, DMA_MAX_LEN_LITE);
	/* Nothing left to the ARM (channel 15 is not used). */
	CHECK_EQ_I(dma_chan_init(&ch, PERIPH, DMA_MEM_ALIAS_BCM2836, 0x8000), -ENODEV);
	CHECK(strstr(dma_error(&ch), "mask 0x8000") != NULL);
	CHECK_EQ_I(dma_start(&ch, DMA_TO_MEM, DMA_DREQ_EMMC, PORT_BUS, NULL, 512), -EINVAL);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* ---- control blocks --------------------------------------------------------- */

TEST(control_blocks_read_and_write)
{
	static uint8_t buf[4096] __attribute__((aligned(64)));
	struct sim_config cfg;
	uint32_t phys;

	sim_config_default(&cfg);
	CHECK_EQ_I(sim_setup(&cfg, sim_profile_find("instant-4g")), 0);
	CHECK_EQ_I(dma_chan_init(&ch, PERIPH, DMA_MEM_ALIAS_BCM2835, 0x3C), 0);
	CHECK_EQ_I(dma_start(&ch, DMA_TO_MEM, DMA_DREQ_EMMC, PORT_BUS, buf, 4096), 0);
	phys = (uint32_t)dma_arm_phys(buf, 4096);
	CHECK_EQ_U(ch.cb[0].ti, DMA_TI_WAIT_RESP | DMA_TI_NO_WIDE_BURSTS | DMA_TI_DEST_INC |
		   DMA_TI_SRC_DREQ | DMA_TI_PERMAP(11));
	CHECK_EQ_U(ch.cb[0].source_ad, PORT_BUS);
	CHECK_EQ_U(ch.cb[0].dest_ad, 0x40000000u | phys);
	CHECK_EQ_U(ch.cb[0].txfr_len, 4096);
	CHECK_EQ_U(ch.cb[0].stride, 0);
	CHECK_EQ_U(ch.cb[0].nextconbk, 0);
	CHECK_EQ_U((uintptr_t)&ch.cb[0] & 31u, 0);
	/* No transfer on the controller: the engine waits for DREQ. */
	CHECK_EQ_I(dma_poll(&ch), 1);
	CHECK_EQ_I(dma_start(&ch, DMA_TO_MEM, DMA_DREQ_EMMC, PORT_BUS, buf, 4096), -EBUSY);
	dma_abort(&ch, "test");
	CHECK(strstr(dma_error(&ch), "DMA channel 5: test: CS 0x") != NULL);

	/* Memory to the SDHOST port (DREQ 13), BCM2836 alias. */
	CHECK_EQ_I(dma_chan_init(&ch, PERIPH, DMA_MEM_ALIAS_BCM2836, 0x3C), 0);
	CHECK_EQ_U(dma_periph_bus_addr(&ch, PERIPH + 0x202040u), 0x7E202040u);
	CHECK_EQ_I(dma_start(&ch, DMA_FROM_MEM, DMA_DREQ_SDHOST, 0x7E202040u, buf, 1024), 0);
	CHECK_EQ_U(ch.cb[0].ti, DMA_TI_WAIT_RESP | DMA_TI_NO_WIDE_BURSTS | DMA_TI_SRC_INC |
		   DMA_TI_DEST_DREQ | DMA_TI_PERMAP(13));
	CHECK_EQ_U(ch.cb[0].source_ad, 0xC0000000u | phys);
	CHECK_EQ_U(ch.cb[0].dest_ad, 0x7E202040u);
	CHECK_EQ_U(ch.cb[0].txfr_len, 1024);
	dma_abort(&ch, NULL);

	/* Buffers that cannot be maintained safely are refused. */
	CHECK_EQ_I(dma_start(&ch, DMA_TO_MEM, DMA_DREQ_EMMC, PORT_BUS, buf + 4, 512), -EINVAL);
	CHECK_EQ_I(dma_start(&ch, DMA_TO_MEM, DMA_DREQ_EMMC, PORT_BUS, buf, 520), -EINVAL);
	CHECK(!dma_buffer_ok(buf, 0));
	CHECK(dma_buffer_ok(buf, 512));
}

TEST(control_blocks_chained_on_a_lite_channel)
{
	static uint8_t big[200 * 1024] __attribute__((aligned(64)));
	struct sim_config cfg;
	uint32_t i, phys, total = 0;

	sim_config_default(&cfg);
	CHECK_EQ_I(sim_setup(&cfg, sim_profile_find("instant-4g")), 0);
	CHECK_EQ_I(dma_chan_init(&ch, PERIPH, DMA_MEM_ALIAS_BCM2836, 0x4000), 0);
	CHECK_EQ_I(ch.channel, 14);
	CHECK_EQ_I(dma_start(&ch, DMA_TO_MEM, DMA_DREQ_EMMC, PORT_BUS, big, sizeof(big)), 0);
	phys = (uint32_t)dma_arm_phys(big, sizeof(big));
	for (i = 0; i < 4; i++) {
		CHECK_EQ_U(ch.cb[i].dest_ad, 0xC0000000u + phys + i * DMA_MAX_LEN_LITE);
		CHECK_EQ_U(ch.cb[i].txfr_len, i < 3 ? DMA_MAX_LEN_LITE : sizeof(big) - 3 * DMA_MAX_LEN_LITE);
		CHECK_EQ_U(ch.cb[i].source_ad, PORT_BUS);
		total += ch.cb[i].txfr_len;
		if (i < 3)
			CHECK_EQ_U(ch.cb[i].nextconbk,
				   dma_mem_bus_addr(&ch, &ch.cb[i + 1], sizeof(ch.cb[0])));
	}
	CHECK_EQ_U(ch.cb[3].nextconbk, 0);
	CHECK_EQ_U(total, sizeof(big));
	dma_abort(&ch, NULL);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* ---- ordering: cache maintenance, control blocks, start ----------------- */

static void check_order(bool write, const uint8_t *buf, size_t len, uint32_t words)
{
	uintptr_t cs = ch.regs + DMA_CS, ad = ch.regs + DMA_CONBLK_AD;
	int first = sim_dma_log_find(0, write ? SIM_EV_CLEAN : SIM_EV_INVAL, (uintptr_t)buf, 0);
	int cb = first >= 0 ? sim_dma_log_find((unsigned)first, SIM_EV_CLEAN, (uintptr_t)&ch.cb[0], 0) : -1;
	int conblk = cb >= 0 ? sim_dma_log_find((unsigned)cb, SIM_EV_WRITE, ad, 0) : -1;
	int start = conblk >= 0 ? sim_dma_log_find((unsigned)conblk, SIM_EV_WRITE, cs, DMA_CS_ACTIVE) : -1;
	int after = start >= 0 ? sim_dma_log_find((unsigned)start, SIM_EV_INVAL, (uintptr_t)buf, 0) : -1;

	CHECK(first >= 0);
	CHECK(cb > first);
	CHECK(conblk > cb);
	CHECK(start > conblk);
	if (first >= 0)
		CHECK_EQ_U(sim_dma_evs[first].n, len);
	if (conblk >= 0)
		CHECK_EQ_U(sim_dma_evs[conblk].v, dma_mem_bus_addr(&ch, &ch.cb[0], sizeof(ch.cb[0])));
	if (write) {
		/* Nothing invalidated: the CPU's data must reach the card. */
		CHECK_EQ_I(sim_dma_log_find(0, SIM_EV_INVAL, (uintptr_t)buf, 0), -1);
	} else {
		/* Invalidated again once every word has arrived. */
		CHECK(after > start);
		if (after > 0) {
			CHECK_EQ_U(sim_dma_evs[after].n, len);
			CHECK_EQ_U(sim_dma_evs[after].words_in, words);
		}
		/* Nothing cleaned over the incoming data. */
		CHECK_EQ_I(sim_dma_log_find(0, SIM_EV_CLEAN, (uintptr_t)buf, 0), -1);
	}
}

TEST(order_of_maintenance_and_start)
{
	static uint8_t buf[8 * 512] __attribute__((aligned(64)));
	struct simh s;

	CHECK_EQ_I(start_dma_host(&s, "sdhc-c10-16g", 0x3C, 0xC0000000u,
				  DMA_MEM_ALIAS_BCM2836), 0);
	memset(buf, 0x5A, sizeof(buf));
	sim_dma_log_start();
	CHECK_EQ_I(sd_write_blocks(&s.card, 1000, 8, buf, SD_STOP_AUTO12, NULL), 0);
	sim_dma_log_stop();
	check_order(true, buf, sizeof(buf), 0);

	memset(buf, 0, sizeof(buf));
	sim_dma_log_start();
	CHECK_EQ_I(sd_read_blocks(&s.card, 1000, 8, buf, SD_STOP_AUTO12, NULL), 0);
	sim_dma_log_stop();
	check_order(false, buf, sizeof(buf), sizeof(buf) / 4);
	CHECK_EQ_U(buf[0], 0x5A);
	CHECK_EQ_U(buf[sizeof(buf) - 1], 0x5A);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* ---- byte for byte against the reference -------------------------------- */

/* pio_blocks: the host's dma_pio_blocks for the run (requests of at most
 * that many blocks move by PIO on the DMA path; 0: every aligned one by
 * DMA, single blocks included). */
static void random_transfers(const char *profile, uint32_t mask, unsigned ops,
			     uint32_t pio_blocks)
{
	enum { MAXB = 64, SPAN = 4096 };
	static uint8_t ref[SPAN * 512];
	static uint8_t wbuf[MAXB * 512 + 64] __attribute__((aligned(64)));
	static uint8_t rbuf[MAXB * 512 + 64] __attribute__((aligned(64)));
	struct sim_dma_stats st;
	struct simh s;
	uint32_t seed = 777, i, k, lba, n, pio0;
	uint64_t dma_bytes = 0;
	unsigned fails = 0, pio_reqs = 0;

	CHECK_EQ_I(start_dma_host(&s, profile, mask, 0xC0000000u, DMA_MEM_ALIAS_BCM2836), 0);
	if (s.init_ret)
		return;
	memset(ref, sim_get_profile()->erase_ff ? 0xff : 0, sizeof(ref));
	memset(ref, 0, sizeof(ref));
	/* the driver's own threshold: one block, as the Linux SDHOST
	 * driver's PIO_THRESHOLD */
	CHECK_EQ_U(s.host->dma_pio_blocks, 1);
	s.host->dma_pio_blocks = pio_blocks;
	pio0 = s.emmc.priv.dma_pio;
	for (i = 0; i < ops && fails < 3; i++) {
		bool wr, odd;
		int r;

		seed = seed * 1103515245u + 12345u;
		wr = (seed >> 8) & 1;
		odd = ((seed >> 9) & 7) == 0;  /* an odd buffer: PIO */
		n = 1 + (seed >> 12) % MAXB;
		lba = (seed >> 3) % (SPAN - n);
		if (wr) {
			for (k = 0; k < n * 512; k++)
				wbuf[odd + k] = (uint8_t)(k * 7 + i);
			r = sd_write_blocks(&s.card, lba, n, wbuf + odd, SD_STOP_AUTO12, NULL);
			CHECK_EQ_I(r, 0);
			if (r) {
				fails++;
				continue;
			}
			memcpy(ref + (size_t)lba * 512, wbuf + odd, (size_t)n * 512);
		} else {
			r = n == 1 ? sd_read_single(&s.card, lba, rbuf + odd, NULL) :
				sd_read_blocks(&s.card, lba, n, rbuf + odd, SD_STOP_AUTO12, NULL);
			CHECK_EQ_I(r, 0);
			if (r || memcmp(rbuf + odd, ref + (size_t)lba * 512, (size_t)n * 512)) {
				CHECK_FAIL_("%s: read %u+%u differs", profile, lba, n);
				fails++;
				continue;
			}
		}
		if (n <= pio_blocks || odd)
			pio_reqs++;
		else
			dma_bytes += (uint64_t)n * 512;
	}
	for (k = 0; k < SPAN && !fails; k++) {
		uint8_t b[512];

		sim_card_peek((uint64_t)k * 512, b, 512);
		if (memcmp(b, ref + (size_t)k * 512, 512)) {
			CHECK_FAIL_("%s: flash block %u differs", profile, k);
			break;
		}
	}
	sim_dma_get_stats(&st);
	/* Every aligned transfer went through the engine, word for word; the
	 * odd buffers went by PIO. */
	CHECK_EQ_U((uint64_t)(st.words_from_port + st.words_to_port) * 4, dma_bytes);
	CHECK(s.emmc.priv.dma_pio > pio0);
	CHECK_EQ_U(s.host->dma_pio_reqs, pio_reqs);
	CHECK_EQ_U(sim_violation_count(), 0);
	printf("  %-20s dma_pio_blocks %u, channel %d: %u starts, %u control blocks, %llu bytes by DMA, "
	       "%u requests by PIO\n", profile, (unsigned)pio_blocks, ch.channel, st.starts, st.cbs,
	       (unsigned long long)dma_bytes, s.emmc.priv.dma_pio - pio0);
}

TEST(random_transfers_full_channel)
{
	random_transfers("sdhc-c10-16g", 0x3C, 300, 0);
}

TEST(random_transfers_lite_channel)
{
	random_transfers("sdsc-v2-2g", 0x4000, 150, 1);
}

/* More than one run of control blocks on a lite channel (> 16 x 65532). */
TEST(long_read_on_a_lite_channel)
{
	enum { N = 2200 };
	uint8_t *a = aligned_alloc(64, N * 512), *b = aligned_alloc(64, N * 512);
	struct simh s;
	uint32_t k;

	CHECK_EQ_I(start_dma_host(&s, "instant-4g", 0x0100, 0xC0000000u, DMA_MEM_ALIAS_BCM2836), 0);
	for (k = 0; k < N * 512; k++)
		a[k] = (uint8_t)(k ^ (k >> 9));
	CHECK_EQ_I(sd_write_blocks(&s.card, 50, N, a, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(ch.runs, 2);
	memset(b, 0, N * 512);
	CHECK_EQ_I(sd_read_blocks(&s.card, 50, N, b, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(ch.runs, 2);
	CHECK(memcmp(a, b, N * 512) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
	free(a);
	free(b);
}

/* ---- errors --------------------------------------------------------------- */

TEST(errors_are_clear_and_recovered)
{
	static uint8_t buf[16 * 512] __attribute__((aligned(64)));
	struct simh s;
	int r;

	CHECK_EQ_I(start_dma_host(&s, "sdhc-c10-16g", 0x3C, 0xC0000000u, DMA_MEM_ALIAS_BCM2836), 0);
	CHECK_EQ_I(sd_write_blocks(&s.card, 200, 16, buf, SD_STOP_AUTO12, NULL), 0);

	/* The engine reports an error: -EIO, the channel and its bits named. */
	sim_dma_fault(SIM_DMA_READ_ERROR);
	r = sd_read_blocks(&s.card, 200, 16, buf, SD_STOP_AUTO12, NULL);
	CHECK_EQ_I(r, -EIO);
	CHECK(s.card.last_err.phase && strstr(s.card.last_err.phase, "DMA channel 5: error: CS 0x"));
	CHECK(s.card.last_err.phase && strstr(s.card.last_err.phase, "DEBUG 0x00000004"));
	if (s.card.last_err.phase)
		printf("  engine error: %s\n", s.card.last_err.phase);
	CHECK_EQ_I(sd_read_blocks(&s.card, 200, 16, buf, SD_STOP_AUTO12, NULL), 0);

	/* The engine never finishes (a DREQ that never comes): bounded. */
	sim_dma_fault(SIM_DMA_HANG);
	r = sd_write_blocks(&s.card, 200, 16, buf, SD_STOP_AUTO12, NULL);
	CHECK_EQ_I(r, -ETIMEDOUT);
	CHECK(s.card.last_err.phase && strstr(s.card.last_err.phase, "DMA channel 5: timed out"));
	if (s.card.last_err.phase)
		printf("  engine hung: %s\n", s.card.last_err.phase);
	CHECK_EQ_I(sd_write_blocks(&s.card, 200, 16, buf, SD_STOP_AUTO12, NULL), 0);

	/* The controller's own error while the engine runs. */
	CHECK_EQ_I(sim_fault_add(&(struct sim_fault){ .kind = SIM_FAULT_DATA_CRC, .cmd = 18,
						      .block = 5 }), 0);
	r = sd_read_blocks(&s.card, 200, 16, buf, SD_STOP_AUTO12, NULL);
	CHECK_EQ_I(r, -EILSEQ);
	CHECK(s.card.last_err.phase && !strcmp(s.card.last_err.phase, "read data (DMA)"));
	sim_fault_clear();
	CHECK_EQ_I(sd_read_blocks(&s.card, 200, 16, buf, SD_STOP_AUTO12, NULL), 0);
	/* The violations: none but what the faults caused on purpose. */
	sim_violation_clear();
}

/* ---- the wait is bounded by progress -------------------------------------- */

static void show(const char *what, const struct simh *s, uint64_t ns)
{
	printf("  %-28s %.3f s, CMD%u status 0x%08x, %s\n", what, ns / 1e9,
	       s->card.last_err.cmd, (unsigned)s->card.last_err.status,
	       s->card.last_err.phase ? s->card.last_err.phase : "?");
}

/* The engine stops moving data mid-transfer (its DREQ stops coming after
 * a few blocks): the request fails after about one block's bound without
 * progress (a read: 0.5 s; a write: 1 s of busy; the wait looks every
 * quarter bound, so 1 to 1.25 bounds, then the recovery), not after the 16
 * blocks' summed bound (8 s / 16 s); the error names the command, the
 * controller's status and the channel's CS/DEBUG; the next request works. */
TEST(an_engine_that_stops_mid_transfer_fails_after_one_block_bound)
{
	static uint8_t a[16 * 512] __attribute__((aligned(64)));
	static uint8_t b[16 * 512] __attribute__((aligned(64)));
	struct simh s;
	uint64_t t0, ns;
	uint32_t k;
	int r;

	CHECK_EQ_I(start_dma_host(&s, "sdhc-c10-16g", 0x3C, 0xC0000000u, DMA_MEM_ALIAS_BCM2836), 0);
	for (k = 0; k < sizeof(a); k++)
		a[k] = (uint8_t)(k * 7 + (k >> 9));
	CHECK_EQ_I(sd_write_blocks(&s.card, 300, 16, a, SD_STOP_AUTO12, NULL), 0);

	/* A read that stops after 3 of 16 blocks. */
	sim_dma_stall_after(3 * 128);
	t0 = sim_now_ns();
	r = sd_read_blocks(&s.card, 300, 16, b, SD_STOP_AUTO12, NULL);
	ns = sim_now_ns() - t0;
	CHECK_EQ_I(r, -ETIMEDOUT);
	CHECK(ns >= 500000000ull);
	CHECK(ns < 900000000ull);
	CHECK_EQ_U(s.card.last_err.cmd, 18);
	/* The controller holds the next block for the engine. */
	CHECK(s.card.last_err.status & (1u << 5)); /* Buffer Read Ready (SDHCI §2.2.17) */
	CHECK(s.card.last_err.phase &&
	      strstr(s.card.last_err.phase, "DMA channel 5: timed out, no data moved in 500000 us: CS 0x"));
	CHECK(s.card.last_err.phase && strstr(s.card.last_err.phase, " DEBUG 0x"));
	show("read stalled after 3 blocks:", &s, ns);
	memset(b, 0, sizeof(b));
	CHECK_EQ_I(sd_read_blocks(&s.card, 300, 16, b, SD_STOP_AUTO12, NULL), 0);
	CHECK(memcmp(a, b, sizeof(a)) == 0);

	/* A write that stops after 5 of 16 blocks: bounded by the busy bound. */
	sim_dma_stall_after(5 * 128);
	t0 = sim_now_ns();
	r = sd_write_blocks(&s.card, 300, 16, b, SD_STOP_AUTO12, NULL);
	ns = sim_now_ns() - t0;
	CHECK_EQ_I(r, -ETIMEDOUT);
	CHECK(ns >= 1000000000ull);
	CHECK(ns < 1700000000ull);
	CHECK_EQ_U(s.card.last_err.cmd, 25);
	CHECK(s.card.last_err.phase &&
	      strstr(s.card.last_err.phase, "DMA channel 5: timed out, no data moved in 1000000 us"));
	show("write stalled after 5 blocks:", &s, ns);
	CHECK_EQ_I(sd_write_blocks(&s.card, 300, 16, a, SD_STOP_AUTO12, NULL), 0);
	memset(b, 0, sizeof(b));
	CHECK_EQ_I(sd_read_blocks(&s.card, 300, 16, b, SD_STOP_AUTO12, NULL), 0);
	CHECK(memcmp(a, b, sizeof(a)) == 0);
	/* The violations: none but what the stalls caused on purpose. */
	sim_violation_clear();
}

/* A transfer longer in all than one block's bound that moves all the time
 * is not cut: 120 blocks at 400 kHz on one data line (about 10 ms each,
 * more than 1 s in all; the read bound is 0.5 s). */
TEST(a_long_slow_transfer_is_not_cut)
{
	static uint8_t a[120 * 512] __attribute__((aligned(64)));
	static uint8_t b[120 * 512] __attribute__((aligned(64)));
	struct simh s;
	uint64_t t0, ns;
	uint32_t k;

	CHECK_EQ_I(start_dma_host(&s, "sdhc-c10-16g", 0x3C, 0xC0000000u, DMA_MEM_ALIAS_BCM2836), 0);
	for (k = 0; k < sizeof(a); k++)
		a[k] = (uint8_t)(k * 31 + (k >> 9));
	CHECK_EQ_I(sd_write_blocks(&s.card, 7000, 120, a, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_set_bus(&s.card, 400000, 1), 0);
	t0 = sim_now_ns();
	CHECK_EQ_I(sd_read_blocks(&s.card, 7000, 120, b, SD_STOP_AUTO12, NULL), 0);
	ns = sim_now_ns() - t0;
	CHECK(ns > 1000000000ull);
	CHECK(memcmp(a, b, sizeof(a)) == 0);
	printf("  120 blocks at 400 kHz, 1 bit: %.3f s by DMA\n", ns / 1e9);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* ---- what the model catches ------------------------------------------------ */

TEST(wrong_memory_alias_is_caught)
{
	static uint8_t buf[4 * 512] __attribute__((aligned(64)));
	struct simh s;

	/* A BCM2836-style alias on a BCM2835 (whose engine wants 0x4...). */
	CHECK_EQ_I(start_dma_host(&s, "instant-4g", 0x3C, 0x40000000u, DMA_MEM_ALIAS_BCM2836), 0);
	sim_violation_clear();
	(void)sd_read_blocks(&s.card, 10, 4, buf, SD_STOP_AUTO12, NULL);
	CHECK(sim_violation_count() > 0);
	CHECK(strstr(sim_violation_msg(0), "memory alias") != NULL);
	sim_violation_clear();
}

TEST(data_path_refused_without_a_channel)
{
	struct simh s;

	CHECK_EQ_I(simh_start(&s, "instant-4g", NULL), 0);
	CHECK_EQ_U(s.host->data_paths, 1u << SD_PATH_PIO);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_DMA), -ENOTSUP);
	CHECK_EQ_U(s.host->data_path, SD_PATH_PIO);
	/* A channel that failed to initialise offers nothing either. */
	CHECK_EQ_I(dma_chan_init(&ch, PERIPH, DMA_MEM_ALIAS_BCM2836, 0), -ENODEV);
	bcm2835_emmc_attach_dma(&s.emmc, &ch, DMA_DREQ_EMMC);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_DMA), -ENOTSUP);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_PIO), 0);
}

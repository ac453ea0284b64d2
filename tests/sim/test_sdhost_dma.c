/*
 * test_sdhost_dma.c - SDHOST's DMA data path (drivers/sdhost/bcm2835_sdhost.c
 * with drivers/dma/bcm2835_dma.c) on the simulator's SDHOST model
 * (sim/sim_sdhost.c) and DMA engine model (sim_bcm2835_dma.c), with
 * the real drivers and card layer:
 *  - the control block: SDDATA's bus address 0x7E202040 on the port side,
 *    DREQ 13 (PERMAP, SRC_DREQ / DEST_DREQ), the memory alias, a read's
 *    length without its last 3 words (the FIFO raises no DREQ for them:
 *    the model's engine would wait for ever);
 *  - the order of cache maintenance, control-block cleaning and the start
 *    write, and that a read's last words are stored by the CPU only after
 *    the buffer's final invalidation (cache_test_hook, the engine's
 *    register log and the model's port counters in one sequence);
 *  - random transfers through SDHOST by DMA, byte for byte against a
 *    reference and the card's flash; odd buffers by PIO;
 *  - faults during DMA transfers (the engine's error, an engine that never
 *    ends, the controller's CRC16 and data timeout, a write's negative CRC
 *    status): each a clear error naming the command and the status bits,
 *    and the next transfer works.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/dma/bcm2835_dma.h"
#include "drivers/dma/cache.h"
#include "drivers/dma/dma_addr.h"
#include "drivers/sd/sd.h"
#include "drivers/sdhost/bcm2835_sdhost.h"
#include "drivers/sdhost/bcm2835_sdhost_regs.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "sim/sim_dma_log.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define PERIPH 0x20000000u
#define SDHOST_BASE (PERIPH + 0x202000u)
#define SDDATA_BUS 0x7E202040u
#define ALIAS 0xC0000000u

/* ---- set-up ----------------------------------------------------------------- */

static struct dma_chan ch;

static int start(struct simh *s, const char *profile, uint32_t mask)
{
	struct sim_config cfg;
	int r;

	sim_config_default(&cfg);
	cfg.sdhost = true;
	cfg.base = SDHOST_BASE;
	cfg.dma_mem_alias = ALIAS;
	r = simh_start(s, profile, &cfg);
	if (r)
		return r;
	r = dma_chan_init(&ch, PERIPH, DMA_MEM_ALIAS_BCM2836, mask);
	if (r)
		return r;
	bcm2835_sdhost_attach_dma(&s->sdhost, &ch, DMA_DREQ_SDHOST);
	CHECK_EQ_U(s->host->data_paths, 1u << SD_PATH_PIO | 1u << SD_PATH_DMA);
	return sd_host_set_data_path(s->host, SD_PATH_DMA);
}

/* ---- control blocks and order ------------------------------------------------ */

TEST(control_block_and_order_of_a_write)
{
	static uint8_t buf[8 * 512] __attribute__((aligned(64)));
	uintptr_t cs, ad;
	int clean, cb, conblk, go;
	struct simh s;

	CHECK_EQ_I(start(&s, "sdhc-c10-16g", 0x3C), 0);
	memset(buf, 0xA5, sizeof(buf));
	sim_dma_log_start();
	CHECK_EQ_I(sd_write_blocks(&s.card, 3000, 8, buf, SD_STOP_AUTO12, NULL), 0);
	sim_dma_log_stop();
	cs = ch.regs + DMA_CS;
	ad = ch.regs + DMA_CONBLK_AD;
	CHECK_EQ_U(ch.cb[0].ti, DMA_TI_WAIT_RESP | DMA_TI_NO_WIDE_BURSTS | DMA_TI_SRC_INC |
		   DMA_TI_DEST_DREQ | DMA_TI_PERMAP(13));
	CHECK_EQ_U(ch.cb[0].source_ad, ALIAS | (uint32_t)dma_arm_phys(buf, sizeof(buf)));
	CHECK_EQ_U(ch.cb[0].dest_ad, SDDATA_BUS);
	CHECK_EQ_U(ch.cb[0].txfr_len, sizeof(buf));
	CHECK_EQ_U(ch.cb[0].nextconbk, 0);
	/* clean the buffer -> clean the control block -> CONBLK_AD -> start */
	clean = sim_dma_log_find(0, SIM_EV_CLEAN, (uintptr_t)buf, 0);
	cb = clean >= 0 ? sim_dma_log_find((unsigned)clean, SIM_EV_CLEAN, (uintptr_t)&ch.cb[0], 0) : -1;
	conblk = cb >= 0 ? sim_dma_log_find((unsigned)cb, SIM_EV_WRITE, ad, 0) : -1;
	go = conblk >= 0 ? sim_dma_log_find((unsigned)conblk, SIM_EV_WRITE, cs, DMA_CS_ACTIVE) : -1;
	CHECK(clean >= 0 && cb > clean && conblk > cb && go > conblk);
	if (clean >= 0)
		CHECK_EQ_U(sim_dma_evs[clean].n, sizeof(buf));
	if (go > 0) /* nothing had reached the port before the start */
		CHECK_EQ_U(sim_dma_evs[go].port.dma_words_written + sim_dma_evs[go].port.cpu_words_written, 0);
	/* A write's buffer is never invalidated (the CPU's data must reach
	 * the card). */
	CHECK_EQ_I(sim_dma_log_find(0, SIM_EV_INVAL, (uintptr_t)buf, 0), -1);
	{
		struct sim_sdhost_stats st;

		sim_sdhost_get_stats(&st);
		CHECK_EQ_U(st.dma_words_written, sizeof(buf) / 4);
		CHECK_EQ_U(st.cpu_words_written, 0);
	}
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(control_block_and_order_of_a_read)
{
	static uint8_t buf[8 * 512] __attribute__((aligned(64)));
	static uint8_t ref[8 * 512];
	const uint32_t words = sizeof(buf) / 4;
	struct sim_sdhost_stats st0, st;
	uintptr_t cs, ad;
	int inv, cb, conblk, go, after;
	struct simh s;
	uint32_t k;

	CHECK_EQ_I(start(&s, "sdhc-c10-16g", 0x3C), 0);
	for (k = 0; k < sizeof(ref); k++)
		ref[k] = (uint8_t)(k * 13 + 7);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_PIO), 0);
	CHECK_EQ_I(sd_write_blocks(&s.card, 3000, 8, ref, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_DMA), 0);
	memset(buf, 0, sizeof(buf));
	sim_sdhost_get_stats(&st0);
	sim_dma_log_start();
	CHECK_EQ_I(sd_read_blocks(&s.card, 3000, 8, buf, SD_STOP_AUTO12, NULL), 0);
	sim_dma_log_stop();
	sim_sdhost_get_stats(&st);
	CHECK(memcmp(buf, ref, sizeof(buf)) == 0);
	cs = ch.regs + DMA_CS;
	ad = ch.regs + DMA_CONBLK_AD;
	CHECK_EQ_U(ch.cb[0].ti, DMA_TI_WAIT_RESP | DMA_TI_NO_WIDE_BURSTS | DMA_TI_DEST_INC |
		   DMA_TI_SRC_DREQ | DMA_TI_PERMAP(13));
	CHECK_EQ_U(ch.cb[0].source_ad, SDDATA_BUS);
	CHECK_EQ_U(ch.cb[0].dest_ad, ALIAS | (uint32_t)dma_arm_phys(buf, sizeof(buf)));
	/* All but the last 3 words: the FIFO's read threshold is 4. */
	CHECK_EQ_U(ch.cb[0].txfr_len, sizeof(buf) - 12);
	CHECK_EQ_U(st.dma_words_read - st0.dma_words_read, words - 3);
	CHECK_EQ_U(st.cpu_words_read - st0.cpu_words_read, 3);
	/* invalidate -> clean CB -> CONBLK_AD -> start -> invalidate again
	 * when the engine has ended, then the CPU's last words. */
	inv = sim_dma_log_find(0, SIM_EV_INVAL, (uintptr_t)buf, 0);
	cb = inv >= 0 ? sim_dma_log_find((unsigned)inv, SIM_EV_CLEAN, (uintptr_t)&ch.cb[0], 0) : -1;
	conblk = cb >= 0 ? sim_dma_log_find((unsigned)cb, SIM_EV_WRITE, ad, 0) : -1;
	go = conblk >= 0 ? sim_dma_log_find((unsigned)conblk, SIM_EV_WRITE, cs, DMA_CS_ACTIVE) : -1;
	after = go >= 0 ? sim_dma_log_find((unsigned)go, SIM_EV_INVAL, (uintptr_t)buf, 0) : -1;
	CHECK(inv >= 0 && cb > inv && conblk > cb && go > conblk && after > go);
	if (inv >= 0)
		CHECK_EQ_U(sim_dma_evs[inv].n, sizeof(buf));
	if (after > 0) {
		/* The whole buffer, once the engine had moved its part and
		 * before the CPU stored a word of its own. */
		CHECK_EQ_U(sim_dma_evs[after].n, sizeof(buf));
		CHECK_EQ_U(sim_dma_evs[after].port.dma_words_read - st0.dma_words_read, words - 3);
		CHECK_EQ_U(sim_dma_evs[after].port.cpu_words_read - st0.cpu_words_read, 0);
	}
	CHECK_EQ_I(sim_dma_log_find(0, SIM_EV_CLEAN, (uintptr_t)buf, 0), -1);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* ---- byte for byte against the reference -------------------------------- */

/* pio_blocks: the host's dma_pio_blocks for the run (requests of at most
 * that many blocks move by PIO on the DMA path; 0: every aligned one by
 * DMA, single blocks included). */
static void random_transfers(const char *profile, uint32_t mask, unsigned ops,
			     uint32_t pio_blocks)
{
	enum { MAXB = 48, SPAN = 3000 };
	static uint8_t ref[SPAN * 512];
	static uint8_t wbuf[MAXB * 512 + 64] __attribute__((aligned(64)));
	static uint8_t rbuf[MAXB * 512 + 64] __attribute__((aligned(64)));
	struct sim_sdhost_stats st;
	struct simh s;
	uint32_t seed = 4242, i, k, lba, n, pio0;
	uint64_t dma_bytes = 0;
	unsigned fails = 0, pio_reqs = 0, reads = 0;

	CHECK_EQ_I(start(&s, profile, mask), 0);
	if (s.init_ret)
		return;
	/* The span starts as the card's flash holds it. */
	for (k = 0; k < SPAN; k++)
		sim_card_peek((uint64_t)k * 512, ref + (size_t)k * 512, 512);
	/* the driver's own threshold: one block, as the Linux SDHOST
	 * driver's PIO_THRESHOLD */
	CHECK_EQ_U(s.host->dma_pio_blocks, 1);
	s.host->dma_pio_blocks = pio_blocks;
	pio0 = s.sdhost.priv.dma_pio;
	for (i = 0; i < ops && fails < 3; i++) {
		bool wr, odd;
		int r;

		seed = seed * 1103515245u + 12345u;
		wr = (seed >> 8) & 1;
		odd = ((seed >> 9) & 7) == 0; /* an odd buffer: PIO */
		n = 1 + (seed >> 12) % MAXB;
		lba = (seed >> 3) % (SPAN - n);
		if (wr) {
			for (k = 0; k < n * 512; k++)
				wbuf[odd + k] = (uint8_t)(k * 7 + i);
			r = n == 1 ? sd_write_blocks(&s.card, lba, 1, wbuf + odd, SD_STOP_NONE, NULL) :
				sd_write_blocks(&s.card, lba, n, wbuf + odd, SD_STOP_AUTO12, NULL);
			CHECK_EQ_I(r, 0);
			if (r) {
				fails++;
				continue;
			}
			memcpy(ref + (size_t)lba * 512, wbuf + odd, (size_t)n * 512);
		} else {
			reads++;
			memset(rbuf, 0xEE, sizeof(rbuf));
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
	sim_sdhost_get_stats(&st);
	/* Every aligned transfer went through the engine but a read's last 3
	 * words; the odd buffers by PIO. */
	CHECK(reads > 0);
	CHECK((uint64_t)(st.dma_words_read + st.dma_words_written) * 4 < dma_bytes);
	CHECK((uint64_t)(st.dma_words_read + st.dma_words_written) * 4 + 12u * reads >= dma_bytes);
	CHECK(s.sdhost.priv.dma_pio > pio0);
	CHECK_EQ_U(s.host->dma_pio_reqs, pio_reqs);
	CHECK_EQ_U(sim_violation_count(), 0);
	printf("  %-20s dma_pio_blocks %u, channel %d: %llu bytes by DMA (%u words by the engine), %u requests by PIO\n",
	       profile, (unsigned)pio_blocks, ch.channel, (unsigned long long)dma_bytes,
	       st.dma_words_read + st.dma_words_written, s.sdhost.priv.dma_pio - pio0);
}

TEST(random_transfers_full_channel)
{
	random_transfers("sdhc-c10-16g", 0x3C, 200, 0);
}

TEST(random_transfers_lite_channel_sdsc)
{
	random_transfers("sdsc-v2-2g", 0x4000, 100, 1);
}

/* ---- faults during DMA transfers ------------------------------------------ */

static void show(const char *what, const struct simh *s)
{
	printf("  %-34s CMD%u status 0x%03x, %s\n", what, s->card.last_err.cmd,
	       (unsigned)s->card.last_err.status,
	       s->card.last_err.phase ? s->card.last_err.phase : "?");
}

TEST(faults_during_dma_are_clear_and_recovered)
{
	static uint8_t buf[16 * 512] __attribute__((aligned(64)));
	struct simh s;
	uint64_t t0;
	int r;

	CHECK_EQ_I(start(&s, "sdhc-c10-16g", 0x3C), 0);
	CHECK_EQ_I(sd_write_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL), 0);

	/* The engine reports an error: -EIO, the channel and its bits. */
	sim_dma_fault(SIM_DMA_READ_ERROR);
	r = sd_read_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL);
	CHECK_EQ_I(r, -EIO);
	CHECK_EQ_U(s.card.last_err.cmd, 18);
	CHECK(s.card.last_err.phase && strstr(s.card.last_err.phase, "DMA channel 5: error: CS 0x"));
	CHECK(s.card.last_err.phase && strstr(s.card.last_err.phase, "DEBUG 0x00000004"));
	show("engine error (read):", &s);
	CHECK_EQ_I(sd_read_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL), 0);

	/* The engine never ends (a DREQ that never comes): bounded by the
	 * per-block bound since the engine last moved (write: 1 s of busy),
	 * not by the 16 blocks' sum. */
	sim_dma_fault(SIM_DMA_HANG);
	t0 = sim_now_ns();
	r = sd_write_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL);
	CHECK_EQ_I(r, -ETIMEDOUT);
	CHECK(sim_now_ns() - t0 < 1500000000ull);
	CHECK(sim_now_ns() - t0 >= 1000000000ull);
	CHECK_EQ_U(s.card.last_err.cmd, 25);
	CHECK(s.card.last_err.phase && strstr(s.card.last_err.phase, "DMA channel 5: timed out"));
	show("engine hung (write):", &s);
	CHECK_EQ_I(sd_write_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL), 0);

	/* The controller's CRC16 while the engine reads. */
	CHECK(sim_fault_add(&(struct sim_fault){ .kind = SIM_FAULT_DATA_CRC, .cmd = 18,
						 .block = 5 }) >= 0);
	r = sd_read_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL);
	CHECK_EQ_I(r, -EILSEQ);
	CHECK_EQ_U(s.card.last_err.cmd, 18);
	CHECK(s.card.last_err.status & SDH_HSTS_CRC16);
	CHECK(s.card.last_err.phase && !strcmp(s.card.last_err.phase, "read data (DMA)"));
	show("CRC16 during a DMA read:", &s);
	sim_fault_clear();
	CHECK_EQ_I(sd_read_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL), 0);

	/* A data timeout (REW_TIME_OUT) while the engine waits. */
	CHECK(sim_fault_add(&(struct sim_fault){ .kind = SIM_FAULT_DATA_TIMEOUT, .cmd = 18,
						 .block = 3 }) >= 0);
	r = sd_read_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL);
	CHECK_EQ_I(r, -ETIMEDOUT);
	CHECK_EQ_U(s.card.last_err.cmd, 18);
	CHECK(s.card.last_err.status & SDH_HSTS_REW_TMO);
	CHECK(s.card.last_err.phase && !strcmp(s.card.last_err.phase, "read data (DMA)"));
	show("data timeout during a DMA read:", &s);
	sim_fault_clear();
	CHECK_EQ_I(sd_read_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL), 0);

	/* A write's negative CRC status while the engine writes. */
	CHECK(sim_fault_add(&(struct sim_fault){ .kind = SIM_FAULT_DATA_CRC, .cmd = 25,
						 .block = 2 }) >= 0);
	r = sd_write_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL);
	CHECK_EQ_I(r, -EILSEQ);
	CHECK_EQ_U(s.card.last_err.cmd, 25);
	CHECK(s.card.last_err.status & SDH_HSTS_CRC16);
	CHECK(s.card.last_err.phase && !strcmp(s.card.last_err.phase, "write data (DMA)"));
	show("CRC status during a DMA write:", &s);
	sim_fault_clear();
	CHECK_EQ_I(sd_write_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 400, 16, buf, SD_STOP_AUTO12, NULL), 0);
	/* The violations: none but what the faults caused on purpose. */
	sim_violation_clear();
}

TEST(data_path_refused_without_a_channel)
{
	struct sim_config cfg;
	struct simh s;

	sim_config_default(&cfg);
	cfg.sdhost = true;
	cfg.base = SDHOST_BASE;
	CHECK_EQ_I(simh_start(&s, "instant-4g", &cfg), 0);
	CHECK_EQ_U(s.host->data_paths, 1u << SD_PATH_PIO);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_DMA), -ENOTSUP);
	CHECK_EQ_U(s.host->data_path, SD_PATH_PIO);
	CHECK_EQ_I(dma_chan_init(&ch, PERIPH, DMA_MEM_ALIAS_BCM2836, 0), -ENODEV);
	bcm2835_sdhost_attach_dma(&s.sdhost, &ch, DMA_DREQ_SDHOST);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_DMA), -ENOTSUP);
	CHECK_EQ_I(sd_host_set_data_path(s.host, SD_PATH_PIO), 0);
}

/* A transfer that takes longer than the per-block bound in all but moves
 * all the time is not cut: 120 blocks at 400 kHz on one data line (about
 * 10 ms each, 1.2 s in all, the read bound being 0.5 s). */
TEST(a_long_slow_transfer_is_not_cut)
{
	static uint8_t a[120 * 512] __attribute__((aligned(64)));
	static uint8_t b[120 * 512] __attribute__((aligned(64)));
	struct simh s;
	uint64_t t0;
	uint32_t k;

	CHECK_EQ_I(start(&s, "sdhc-c10-16g", 0x3C), 0);
	for (k = 0; k < sizeof(a); k++)
		a[k] = (uint8_t)(k * 31 + (k >> 9));
	CHECK_EQ_I(sd_write_blocks(&s.card, 7000, 120, a, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_set_bus(&s.card, 400000, 1), 0);
	t0 = sim_now_ns();
	CHECK_EQ_I(sd_read_blocks(&s.card, 7000, 120, b, SD_STOP_AUTO12, NULL), 0);
	CHECK(sim_now_ns() - t0 > 1000000000ull);
	CHECK(memcmp(a, b, sizeof(a)) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

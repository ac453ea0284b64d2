/*
 * test_sim_data.c - data integrity through the real drivers: random
 * sequences of reads, writes (every termination mode, any buffer
 * alignment) and erases against a reference model, compared byte for byte
 * with what the drivers read back and with the card's flash itself.
 * Covers byte addressing (SDSC), block addressing, erase to 0x00 and 0xFF,
 * the top of a 2 TB card and a fake-capacity card whose addresses wrap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/sd/sd.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define WINDOW 2048u   /* blocks per region */
#define MAXN 40u

static uint64_t rs = 12345;

static uint32_t rnd(uint32_t n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (uint32_t)(rs % n);
}

/* Two regions: the start of the card and its last WINDOW blocks. */
struct ref {
	uint8_t *lo, *hi;
	uint32_t blocks;
	uint8_t erased;
};

static uint8_t *ref_blk(struct ref *r, uint32_t lba)
{
	if (lba < WINDOW)
		return r->lo + (size_t)lba * 512;
	return r->hi + (size_t)(lba - (r->blocks - WINDOW)) * 512;
}

static uint32_t pick_lba(struct ref *r, uint32_t n)
{
	if (rnd(2))
		return rnd(WINDOW - n + 1);
	return r->blocks - WINDOW + rnd(WINDOW - n + 1);
}

static void run_sequence_cfg(const char *profile, unsigned ops, bool erase_ok,
			     const struct sim_config *cfg)
{
	static uint8_t wbuf[MAXN * 512 + 8], rbuf[MAXN * 512 + 8];
	struct simh s;
	struct ref r;
	unsigned i, fails = 0, nw = 0, nr = 0, ne = 0;
	uint32_t lba, n, k;
	int ret;

	CHECK_EQ_I(simh_start(&s, profile, cfg), 0);
	if (s.init_ret)
		return;
	r.blocks = s.card.blocks;
	r.erased = sim_get_profile()->erase_ff ? 0xff : 0;
	r.lo = calloc(WINDOW, 512);
	r.hi = calloc(WINDOW, 512);
	memset(r.lo, 0, (size_t)WINDOW * 512);
	memset(r.hi, 0, (size_t)WINDOW * 512);
	/* Unwritten blocks read as the erased value only after an erase;
	 * a new card in this model reads 0 (or 0xFF on erase_ff cards). */
	memset(r.lo, r.erased, (size_t)WINDOW * 512);
	memset(r.hi, r.erased, (size_t)WINDOW * 512);

	for (i = 0; i < ops && fails < 5; i++) {
		unsigned op = rnd(10);
		unsigned off = rnd(4);
		enum sd_stop_mode stop = (enum sd_stop_mode)rnd(s.card.cmd23 ? 3 : 2);

		n = 1 + rnd(rnd(4) ? 8 : MAXN);
		lba = pick_lba(&r, n);
		if (op < 4) {
			for (k = 0; k < n * 512; k++)
				wbuf[off + k] = (uint8_t)(rnd(256));
			ret = rnd(4) == 0 && n == 1 ?
				sd_write_single(&s.card, lba, wbuf + off, NULL) :
				sd_write_blocks(&s.card, lba, n, wbuf + off, stop, NULL);
			CHECK_EQ_I(ret, 0);
			if (ret) {
				fails++;
				printf("    write %u+%u stop %d: %s\n", lba, n, stop,
				       err_name(ret));
				continue;
			}
			for (k = 0; k < n; k++)
				memcpy(ref_blk(&r, lba + k), wbuf + off + k * 512, 512);
			nw++;
		} else if (op < 9 || !erase_ok) {
			ret = rnd(4) == 0 && n == 1 ?
				sd_read_single(&s.card, lba, rbuf + off, NULL) :
				sd_read_blocks(&s.card, lba, n, rbuf + off, stop, NULL);
			CHECK_EQ_I(ret, 0);
			if (ret) {
				fails++;
				printf("    read %u+%u stop %d: %s\n", lba, n, stop,
				       err_name(ret));
				continue;
			}
			for (k = 0; k < n; k++) {
				if (memcmp(ref_blk(&r, lba + k), rbuf + off + k * 512, 512)) {
					CHECK_FAIL_("%s: block %u differs (read %u+%u stop %d)",
						    profile, lba + k, lba, n, stop);
					fails++;
					break;
				}
			}
			nr++;
		} else {
			ret = sd_erase(&s.card, lba, n, NULL);
			CHECK_EQ_I(ret, 0);
			if (ret) {
				fails++;
				continue;
			}
			for (k = 0; k < n; k++)
				memset(ref_blk(&r, lba + k), r.erased, 512);
			ne++;
		}
	}
	/* The flash itself holds exactly the reference. */
	for (k = 0; k < WINDOW && !fails; k++) {
		uint8_t b[512];

		sim_card_peek((uint64_t)k * 512, b, 512);
		if (memcmp(b, ref_blk(&r, k), 512)) {
			CHECK_FAIL_("%s: flash block %u differs", profile, k);
			break;
		}
	}
	CHECK_EQ_U(sim_violation_count(), 0);
	printf("  %-20s %u writes, %u reads, %u erases, %.3f s virtual\n",
	       profile, nw, nr, ne, sim_now_ns() / 1e9);
	free(r.lo);
	free(r.hi);
}

static void run_sequence(const char *profile, unsigned ops, bool erase_ok)
{
	run_sequence_cfg(profile, ops, erase_ok, NULL);
}

TEST(random_sdhc_all_stop_modes)
{
	run_sequence("sdhc-c10-32g-cmd23", 300, true);
}

TEST(random_sdsc_byte_addressing)
{
	run_sequence("sdsc-v2-2g", 200, true);
	run_sequence("sdsc-v1-128m", 120, true);
}

TEST(random_erase_to_ff)
{
	run_sequence("sdsc-v2-512m-ff", 150, true);
}

TEST(random_top_of_2tb_card)
{
	run_sequence("sdxc-2t", 150, true);
}

TEST(random_instant_and_1bit)
{
	run_sequence("instant-4g", 150, true);
	run_sequence("sdhc-1bit-4g", 60, true);
}

/* A fake card: writing past its real size overwrites the start. */
TEST(fake_capacity_wraps)
{
	struct simh s;
	static uint8_t a[4096], b[4096], c[4096];
	uint32_t real_blocks;

	CHECK_EQ_I(simh_start(&s, "fake-64g-8g", NULL), 0);
	if (s.init_ret)
		return;
	real_blocks = (uint32_t)(sim_get_profile()->real_bytes / 512);
	CHECK(s.card.blocks > real_blocks); /* the driver believes the CSD */
	memset(a, 0xa5, sizeof(a));
	memset(b, 0x5a, sizeof(b));
	CHECK_EQ_I(sd_write_blocks(&s.card, 100, 8, a, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_write_blocks(&s.card, 100 + real_blocks, 8, b,
				   SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 100, 8, c, SD_STOP_AUTO12, NULL), 0);
	CHECK(memcmp(c, b, sizeof(c)) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* The same without the poll fast-forward (the CPU really spins) and with
 * a one-block controller buffer. */
TEST(random_real_polling_one_block_buffer)
{
	struct sim_config c;

	sim_config_default(&c);
	c.fast_forward = false;
	c.buf_blocks = 1;
	run_sequence_cfg("sdxc-a2-64g", 80, true, &c);
}

/* QEMU's controller: 52 MHz base clock from CAPABILITIES, its version
 * register; the clocks become 400, 13 and 26 MHz. */
TEST(random_qemu_like_controller)
{
	struct sim_config c;

	sim_config_qemu(&c);
	run_sequence_cfg("qemu-like-1g", 80, true, &c);
	CHECK_EQ_U(sim_sd_clock_hz(), 26000000u);
}

/* A short random sequence on every writable profile. */
TEST(random_every_profile)
{
	unsigned i;

	for (i = 0; i < sim_profile_count(); i++) {
		const struct sim_profile *p = sim_profile_get(i);

		if (p->wp_switch || p->csd_tmp_wp)
			continue;
		run_sequence(p->name, 40, true);
	}
}

/* The same through the SDHOST controller (its driver and the simulator's
 * SDHOST model): SDHC with block addressing and an SDSC card. */
TEST(random_through_sdhost)
{
	struct sim_config c;

	sim_config_default(&c);
	c.sdhost = true;
	run_sequence_cfg("sdxc-a2-64g", 80, true, &c);
	run_sequence_cfg("qemu-like-1g", 60, true, &c);
}

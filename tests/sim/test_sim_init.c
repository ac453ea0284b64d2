/*
 * test_sim_init.c - the real drivers initialise every simulated card
 * profile, and what they report matches the profile: capacity, addressing,
 * bus width, high speed, CMD23, write protection, the registers, the clock.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/sd/sd.h"
#include "lib/err.h"
#include "tests/sim/sim.h"
#include "tests/sim/sim_harness.h"
#include "tests/unit/check.h"

static void check_profile(const struct sim_profile *p)
{
	struct simh s;
	uint8_t cid[16], csd[16], scr[8];
	bool hc = p->kind == SIM_SDHC || p->kind == SIM_SDXC;
	bool hs = p->hs && !p->no_cmd6 && p->sd_spec >= 1;
	int ret = simh_start(&s, p->name, NULL);

	printf("  %-20s init %s in %u us (virtual), %u Hz %u-bit, v=%u\n",
	       p->name, ret ? err_name(ret) : "ok", s.card.init_us, s.card.clock_hz,
	       s.card.width, sim_violation_count());
	CHECK_EQ_I(ret, 0);
	if (ret) {
		printf("    last_err %s cmd %u arg 0x%x status 0x%x phase %s\n",
		       err_name(s.card.last_err.code), s.card.last_err.cmd,
		       s.card.last_err.arg, s.card.last_err.status,
		       s.card.last_err.phase ? s.card.last_err.phase : "-");
		return;
	}
	CHECK_EQ_U(sim_violation_count(), 0);
	CHECK(s.card.initialised);
	CHECK_EQ_U(s.card.capacity_bytes, p->capacity_bytes);
	CHECK_EQ_U(s.card.blocks, p->capacity_bytes / 512);
	CHECK_EQ_U(s.card.high_capacity, hc);
	CHECK_EQ_U(s.card.v2, p->kind != SIM_SDSC_V1);
	CHECK_EQ_U(s.card.width, p->bus4 ? 4 : 1);
	CHECK_EQ_U(sim_bus_width(), p->bus4 ? 4 : 1);
	CHECK_EQ_U(s.card.timing, hs ? SD_TIMING_HS : SD_TIMING_DS);
	/* 250 MHz base clock: 25 MHz (N=5) or 41.67 MHz (N=3). */
	CHECK_EQ_U(s.card.clock_hz, hs ? 250000000u / 6 : 25000000u);
	CHECK_EQ_U(sim_sd_clock_hz(), s.card.clock_hz);
	CHECK_EQ_U(s.card.cmd23, p->cmd23 && hc);
	CHECK_EQ_U(s.card.write_protected, p->wp_switch || p->csd_tmp_wp);
	CHECK_EQ_I(sim_card_state(), 4 /* tran */);
	sim_card_regs(cid, csd, scr, NULL);
	/* The driver's R2 words carry bits 127..8; the CRC byte is lost. */
	CHECK_EQ_U(s.card.cid[0], (uint32_t)cid[0] << 24 | cid[1] << 16 | cid[2] << 8 | cid[3]);
	CHECK_EQ_U(s.card.cid[3] >> 8, (uint32_t)cid[12] << 16 | cid[13] << 8 | cid[14]);
	CHECK_EQ_U(s.card.csd[1], (uint32_t)csd[4] << 24 | csd[5] << 16 | csd[6] << 8 | csd[7]);
	CHECK(memcmp(s.card.scr, scr, 8) == 0);
}

TEST(every_profile_initialises)
{
	unsigned i;

	CHECK(sim_profile_count() >= 20);
	for (i = 0; i < sim_profile_count(); i++)
		check_profile(sim_profile_get(i));
}

TEST(no_card_is_reported)
{
	struct simh s;
	int ret;

	simh_host_only(&s, "sdhc-c10-16g", NULL);
	sim_card_set_present(false);
	ret = sd_init(&s.card, &s.host);
	CHECK_EQ_I(ret, -ENOMEDIUM);
	CHECK(sim_now_ns() < 2000000000ull);
}

TEST(init_time_follows_acmd41_busy)
{
	struct simh s;

	CHECK_EQ_I(simh_start(&s, "sdhc-slow-init-16g", NULL), 0);
	CHECK(s.card.init_us >= 900000);
	CHECK(s.card.init_us < 1000000);
	CHECK_EQ_I(simh_start(&s, "instant-4g", NULL), 0);
	CHECK(s.card.init_us < 20000);
}

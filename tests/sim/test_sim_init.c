/*
 * test_sim_init.c - the real drivers initialise every simulated card
 * profile, and what they report matches the profile: capacity, addressing,
 * bus width, high speed, CMD23, write protection, the registers, the clock.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "drivers/sd/sd.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
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
	ret = sd_init(&s.card, s.host);
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

/* The Arasan loses a second write to a register within two SD clocks;
 * the driver must pace its writes (at 400 kHz: 5 us). */
TEST(driver_respects_the_write_hazard)
{
	struct simh s;
	struct sim_config c;
	static uint8_t b[8 * 512];

	sim_config_default(&c);
	c.write_hazard = true;
	CHECK_EQ_I(simh_start(&s, "sdsc-v1-128m", &c), 0);
	CHECK_EQ_I(sd_write_blocks(&s.card, 10, 8, b, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 10, 8, b, SD_STOP_NONE, NULL), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
	CHECK_EQ_I(simh_start(&s, "sdhc-c10-32g-cmd23", &c), 0);
	CHECK_EQ_I(sd_write_blocks(&s.card, 10, 8, b, SD_STOP_AUTO23, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 10, 8, b, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* A one-block buffer (no ping-pong) changes timing, not results. */
TEST(one_block_buffer)
{
	struct simh s;
	struct sim_config c;
	static uint8_t b[16 * 512], r[16 * 512];
	unsigned i;

	sim_config_default(&c);
	c.buf_blocks = 1;
	for (i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i ^ (i >> 8));
	CHECK_EQ_I(simh_start(&s, "sdhc-c10-32g-cmd23", &c), 0);
	CHECK_EQ_I(sd_write_blocks(&s.card, 10, 16, b, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 10, 16, r, SD_STOP_AUTO12, NULL), 0);
	CHECK(memcmp(b, r, sizeof(b)) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* The BCM2711 EMMC2 quirk set on the simulated controller, as under QEMU
 * (base clock from CAPABILITIES, card detect used): named emmc2, never
 * below its 200 kHz minimum, the card initialises and data round-trips
 * with no protocol violation. */
TEST(emmc2_quirks_from_capabilities)
{
	static uint8_t b[16 * 512], r[16 * 512];
	struct simh s;
	struct sim_config c;
	unsigned i;

	sim_config_default(&c);
	CHECK_EQ_I(simh_host_only(&s, "sdhc-c10-32g-cmd23", &c), 0);
	CHECK_EQ_I(bcm2711_emmc2_init(&s.emmc, c.base, 0), 0);
	CHECK(strcmp(s.host->name, "emmc2") == 0);
	CHECK_EQ_U(s.host->base, c.base);
	CHECK(s.host->f_min_hz >= 200000u);
	CHECK_EQ_I(s.host->ops->reset(s.host), 0);
	CHECK_EQ_I(s.host->ops->get_cd(s.host), 1);
	CHECK_EQ_I(sd_init(&s.card, s.host), 0);
	CHECK_EQ_U(s.card.width, 4);
	for (i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i * 7 ^ (i >> 9));
	CHECK_EQ_I(sd_write_blocks(&s.card, 100, 16, b, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 100, 16, r, SD_STOP_AUTO12, NULL), 0);
	CHECK(memcmp(b, r, sizeof(b)) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* EMMC2 on hardware: the mailbox's EMMC2 clock is the base clock, card
 * detect is not trusted (the Pi 4 device tree: broken-cd); a missing card
 * is found by its silence, a present one initialises. */
TEST(emmc2_hardware_clock_ignores_card_detect)
{
	struct simh s;
	struct sim_config c;

	sim_config_default(&c);
	c.base_clock_hz = 100000000u; /* what the mailbox would say */
	CHECK_EQ_I(simh_host_only(&s, "sdhc-c10-16g", &c), 0);
	CHECK_EQ_I(s.host->ops->get_cd(s.host), 1); /* used without a clock given */
	CHECK_EQ_I(bcm2711_emmc2_init(&s.emmc, c.base, 100000000u), 0);
	CHECK_EQ_U(s.host->base_clock_hz, 100000000u);
	CHECK_EQ_I(s.host->ops->reset(s.host), 0);
	CHECK_EQ_I(s.host->ops->get_cd(s.host), -ENOTSUP);
	sim_card_set_present(false);
	CHECK_EQ_I(sd_init(&s.card, s.host), -ENOMEDIUM);
	sim_card_set_present(true);
	CHECK_EQ_I(sd_init(&s.card, s.host), 0);
	CHECK(s.card.clock_hz <= 50000000u && s.card.clock_hz > 25000000u);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* BCM2835 hardware: CAPABILITIES reads 0; the base clock comes from the
 * mailbox (here: given to bcm2835_emmc_init), or the host cannot start. */
TEST(hardware_without_capabilities)
{
	struct simh s;
	struct sim_config c;

	sim_config_default(&c);
	c.caps_zero = true;
	CHECK_EQ_I(simh_host_only(&s, "sdhc-c10-16g", &c), -ENODEV);
	CHECK_EQ_I(bcm2835_emmc_init(&s.emmc, c.base, 250000000u), 0);
	CHECK_EQ_I(sd_init(&s.card, s.host), 0);
	CHECK_EQ_U(s.card.clock_hz, 250000000u / 6);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* BCM2835/6/7 hardware whose CAPABILITIES read non-zero: the base clock
 * comes from the mailbox, and the card-detect input is not trusted (it
 * means nothing on the Pi); a missing card is still found by its silence
 * to CMD8 and CMD55, and a present one initialises. */
TEST(hardware_clock_ignores_card_detect)
{
	struct simh s;
	struct sim_config c;

	sim_config_default(&c);
	CHECK_EQ_I(simh_host_only(&s, "sdhc-c10-16g", &c), 0);
	CHECK_EQ_I(s.host->ops->get_cd(s.host), 1);
	CHECK_EQ_I(bcm2835_emmc_init(&s.emmc, c.base, 250000000u), 0);
	CHECK_EQ_I(s.host->ops->reset(s.host), 0);
	CHECK_EQ_I(s.host->ops->get_cd(s.host), -ENOTSUP);
	sim_card_set_present(false);
	CHECK_EQ_I(s.host->ops->get_cd(s.host), -ENOTSUP);
	CHECK_EQ_I(sd_init(&s.card, s.host), -ENOMEDIUM);
	sim_card_set_present(true);
	CHECK_EQ_I(sd_init(&s.card, s.host), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

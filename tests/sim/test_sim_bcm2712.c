/*
 * test_sim_bcm2712.c - the simulator's BCM2712 (Pi 5) platform and the
 * driver's BCM2712 quirk set on it: the controller above 4 GiB, its cfg
 * block, card presence forced by the driver (without it the controller sees
 * no card), data through the real card layer, the I/O regulator, and the
 * host file keys. No emulator models a Pi 5: this is the only place where
 * drivers/sdhci/bcm2712_sdhci.c runs.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/mmio.h"
#include "drivers/sd/sd.h"
#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/sdhci/bcm2712_sdhci.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "tests/unit/check.h"

static char err[400];
static struct sdhci_host sh;
static struct sd_card card;

static void pi5_setup(const char *profile)
{
	struct sim_config c;

	sim_config_default(&c);
	CHECK_EQ_I(sim_host_load("pi5", &c, err, sizeof(err)), 0);
	CHECK_EQ_I(sim_setup(&c, sim_profile_find(profile)), 0);
}

TEST(pi5_host_is_the_bcm2712_platform)
{
	struct sim_config c;

	sim_config_default(&c);
	CHECK_EQ_I(sim_host_load("pi5", &c, err, sizeof(err)), 0);
	CHECK_EQ_I(c.platform, SIM_PLATFORM_BCM2712);
	CHECK(c.sdr104);
	/* Above 4 GiB, and the same address the firmware uses. */
	CHECK_EQ_U((uint64_t)c.base, 0x1000fff000ull);
	CHECK_EQ_U((uint64_t)c.base, BCM2712_SDIO1_HOST_BASE);
	CHECK_EQ_U(SIM_BCM2712_CFG_OFFSET, BCM2712_SDIO1_CFG_BASE - BCM2712_SDIO1_HOST_BASE);
	CHECK_EQ_U(c.base_clock_hz, BCM2712_SDIO1_CLOCK_HZ);
	/* The other hosts stay on the BCM2835 platform. */
	sim_config_default(&c);
	CHECK_EQ_I(sim_host_load("pi4", &c, err, sizeof(err)), 0);
	CHECK_EQ_I(c.platform, SIM_PLATFORM_BCM2835);
	CHECK(!c.sdr104);
}

TEST(host_file_platform_key)
{
	struct sim_config c;

	sim_config_default(&c);
	CHECK_EQ_I(sim_host_parse("name = x\nplatform = bcm2999\n", "h.txt", &c, err,
				  sizeof(err)), -1);
	CHECK_STR(err, "h.txt:2: platform: 'bcm2999' is not bcm2835 or bcm2712");
	CHECK_EQ_I(sim_host_parse("name = x\nplatform = bcm2712\nsdr104 = no\n", "h.txt", &c,
				  err, sizeof(err)), 0);
	CHECK_EQ_I(c.platform, SIM_PLATFORM_BCM2712);
	CHECK(!c.sdr104);
}

TEST(driver_forces_presence_and_runs_the_card)
{
	static uint8_t wbuf[4 * 512], rbuf[4 * 512];
	uintptr_t cfg;
	unsigned i;

	pi5_setup("sdhc-c10-16g");
	cfg = sim_get_config()->base + SIM_BCM2712_CFG_OFFSET;
	/* The clock passed in as on a Pi 5: card detect counts as broken. */
	CHECK_EQ_I(bcm2712_sdhci_init(&sh, sim_get_config()->base, cfg,
				      BCM2712_SDIO1_CLOCK_HZ), 0);
	CHECK_STR(sh.host.name, "sdio1");
	CHECK_EQ_U((uint64_t)sh.host.base, 0x1000fff000ull);
	CHECK_EQ_U(sh.host.base_clock_hz, 200000000u);
	CHECK_EQ_I(sh.host.ops->get_cd(&sh.host), -ENOTSUP);
	/* SDIO_CFG_CTRL: override on, level "present"; the timer clock in MHz. */
	CHECK_EQ_U(mmio_read32(cfg + BCM2712_CFG_CTRL) >> 30, 2u);
	CHECK_EQ_U(mmio_read32(cfg + BCM2712_CFG_CQ_CAPABILITY), 0x3000u | 200u);
	CHECK_EQ_I(sd_init(&card, &sh.host), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
	/* 200 MHz / (2 * 2) = 50 MHz high speed, 4-bit. */
	CHECK_EQ_U(card.clock_hz, 50000000u);
	CHECK_EQ_U(card.width, 4);
	for (i = 0; i < sizeof(wbuf); i++)
		wbuf[i] = (uint8_t)(i * 7 + 3);
	CHECK_EQ_I(sd_write_blocks(&card, 1000, 4, wbuf, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&card, 1000, 4, rbuf, SD_STOP_AUTO12, NULL), 0);
	CHECK(memcmp(wbuf, rbuf, sizeof(wbuf)) == 0);
	CHECK_EQ_U(sim_violation_count(), 0);
	/* The tuning PHY selection (for UHS-I later) sets the strap override
	 * and clears the 50 MHz limit. */
	mmio_write32(cfg + BCM2712_CFG_MAX_50MHZ_MODE, BCM2712_CFG_MAX_50MHZ_ENABLE);
	bcm2712_sdhci_select_tuning_phy(cfg);
	CHECK_EQ_U(mmio_read32(cfg + BCM2712_CFG_MAX_50MHZ_MODE),
		   BCM2712_CFG_MAX_50MHZ_STRAP_OVERRIDE);
}

TEST(without_the_override_the_controller_sees_no_card)
{
	pi5_setup("sdhc-c10-16g");
	/* Another SoC's quirk set at the same address does not touch the cfg
	 * block: every command goes out while the controller sees no card. */
	CHECK_EQ_I(bcm2711_emmc2_init(&sh, sim_get_config()->base, 0), 0);
	CHECK_EQ_I(sh.host.ops->get_cd(&sh.host), 0);
	/* With the clock passed in (card detect not trusted, as on hardware)
	 * the driver tries the card: every command is a violation. */
	CHECK_EQ_I(bcm2711_emmc2_init(&sh, sim_get_config()->base, BCM2712_SDIO1_CLOCK_HZ), 0);
	(void)sd_init(&card, &sh.host);
	CHECK(sim_violation_count() > 0);
	CHECK(sim_violation_count() && strstr(sim_violation_msg(0), "sees no card") != NULL);
}

TEST(cfg_block_exists_only_on_the_bcm2712)
{
	struct sim_config c;

	sim_config_default(&c);
	CHECK_EQ_I(sim_setup(&c, sim_profile_find("sdhc-c10-16g")), 0);
	mmio_write32(c.base + SIM_BCM2712_CFG_OFFSET, 0x80000000u);
	CHECK_EQ_U(sim_violation_count(), 1);
	CHECK(strstr(sim_violation_last(), "unmapped") != NULL);
}

TEST(io_regulator)
{
	struct sim_config c;

	pi5_setup("sdhc-c10-16g");
	CHECK_EQ_I(bcm2712_sdhci_init(&sh, sim_get_config()->base,
				      sim_get_config()->base + SIM_BCM2712_CFG_OFFSET,
				      BCM2712_SDIO1_CLOCK_HZ), 0);
	CHECK_EQ_U(sim_io_voltage_mv(), 3300);
	CHECK_EQ_I(sim_set_io_voltage(1800), 0);
	CHECK_EQ_U(sim_io_voltage_mv(), 1800);
	CHECK_EQ_U(sim_violation_count(), 0);
	/* A command before the regulator settles. */
	(void)sd_init(&card, &sh.host);
	CHECK(sim_violation_count() > 0);
	CHECK(sim_violation_count() &&
	      strstr(sim_violation_msg(0), "after an I/O voltage switch") != NULL);
	sim_violation_clear();
	CHECK_EQ_I(sim_set_io_voltage(1200), -1);
	CHECK_EQ_U(sim_violation_count(), 1);
	/* No regulator on the BCM2835 platform. */
	sim_config_default(&c);
	CHECK_EQ_I(sim_setup(&c, sim_profile_find("sdhc-c10-16g")), 0);
	CHECK_EQ_I(sim_set_io_voltage(1800), -1);
	CHECK_EQ_U(sim_io_voltage_mv(), 3300);
	CHECK(strstr(sim_violation_last(), "without a regulator") != NULL);
}

/*
 * bcm2712_sdhci.c - the quirk set and cfg set-up of the BCM2712 SD slot
 * controller (see bcm2712_sdhci.h), from the public descriptions (Linux
 * sdhci-brcmstb and the Pi 5 device tree, Zephyr): standard SDHCI 3.0,
 * forced card presence, identity DMA view, 64-bit ADMA2, SDR104 through
 * the divider bypass, the delay-line PHY for tuning. Why each:
 * docs/drivers.md, "drivers/sdhci/bcm2712_sdhci.c". Nothing here has run
 * on a Pi 5: no emulator models one.
 */
#include "drivers/mmio.h"
#include "drivers/sdhci/bcm2712_sdhci.h"

static const struct sdhci_quirks bcm2712_sdhci_quirks = {
	.name = BCM2712_SDHCI_NAME,
	.pace_below_hz = 0,
	.f_min_hz = 0,
	.missing_caps_max_block = 0,
	.no_hispd_bit = false,
	.cd_broken_on_hw = true,
	.dma_offset = 0,
	.uhs_modes = 1u << SD_TIMING_SDR12 | 1u << SD_TIMING_SDR25 |
		     1u << SD_TIMING_SDR50 | 1u << SD_TIMING_SDR104 |
		     1u << SD_TIMING_DDR50,
	.uhs_max_hz = 0, /* the base clock: 200 MHz, the divider bypassed */
	.uhs_modes_fixed = true,
	.dma_window = 0x400000000ull,
	.adma2 = true,
	.adma64 = true,
};

int bcm2712_sdhci_init(struct sdhci_host *sh, uintptr_t base, uintptr_t cfg_base,
		       uint32_t base_clock_hz)
{
	uint32_t v, mhz;
	int r;

	r = sdhci_host_init(sh, &bcm2712_sdhci_quirks, base, base_clock_hz);
	if (r)
		return r;
	v = mmio_read32(cfg_base + BCM2712_CFG_CTRL);
	v &= ~BCM2712_CFG_CTRL_SDCD_N_TEST_LEV;
	v |= BCM2712_CFG_CTRL_SDCD_N_TEST_EN;
	mmio_write32(cfg_base + BCM2712_CFG_CTRL, v);
	mhz = sh->host.base_clock_hz / 1000000u;
	if (!mhz)
		mhz = 1;
	mmio_write32(cfg_base + BCM2712_CFG_CQ_CAPABILITY, BCM2712_CFG_CQ_FMUL | (mhz & 0xffu));
	/* SDR50/SDR104 are in the quirk set: the delay-line PHY. */
	bcm2712_sdhci_select_tuning_phy(cfg_base);
	mmio_barrier();
	return 0;
}

void bcm2712_sdhci_select_tuning_phy(uintptr_t cfg_base)
{
	uint32_t v = mmio_read32(cfg_base + BCM2712_CFG_MAX_50MHZ_MODE);

	v &= ~BCM2712_CFG_MAX_50MHZ_ENABLE;
	v |= BCM2712_CFG_MAX_50MHZ_STRAP_OVERRIDE;
	mmio_write32(cfg_base + BCM2712_CFG_MAX_50MHZ_MODE, v);
}

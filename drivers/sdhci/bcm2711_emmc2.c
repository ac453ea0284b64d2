/*
 * bcm2711_emmc2.c - the quirk set of the BCM2711 EMMC2 (see
 * bcm2711_emmc2.h; what each quirk does: sdhci.c): input clock from the
 * mailbox, writes paced at identification clocks, card detect broken on
 * hardware, UHS-I up to SDR50/DDR50 through the Pi 4's expander, ADMA2 with
 * the B0 stepping's DMA view. Why each: docs/drivers.md,
 * "drivers/sdhci/bcm2711_emmc2.c".
 */
#include "drivers/sdhci/bcm2711_emmc2.h"

static const struct sdhci_quirks bcm2711_emmc2_quirks = {
	.name = BCM2711_EMMC2_NAME,
	.pace_below_hz = 400001u,
	.f_min_hz = 200000u,
	.missing_caps_max_block = 512u,
	.no_hispd_bit = false,
	.cd_broken_on_hw = true,
	.dma_offset = 0xC0000000u,
	.uhs_modes = 1u << SD_TIMING_SDR12 | 1u << SD_TIMING_SDR25 |
		     1u << SD_TIMING_SDR50 | 1u << SD_TIMING_DDR50,
	.uhs_max_hz = 100000000u,
	.dma_window = 0x40000000u,
	.adma2 = true,
};


int bcm2711_emmc2_init(struct sdhci_host *sh, uintptr_t base, uint32_t base_clock_hz)
{
	return sdhci_host_init(sh, &bcm2711_emmc2_quirks, base, base_clock_hz);
}

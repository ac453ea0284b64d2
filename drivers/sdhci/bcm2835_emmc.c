/*
 * bcm2835_emmc.c - the quirk set of the BCM2835/6/7 Arasan EMMC (see
 * bcm2835_emmc.h and, for what each quirk does, sdhci.c).
 *
 *  - Write-hazard pacing: the Arasan can lose the second of two writes to
 *    one register within two SD clocks (BCM2835 ARM Peripherals §5; U-Boot's
 *    bcm2835_sdhci and Linux's sdhci-iproc pace their writes for the same
 *    reason). Below 2 MHz (two clocks >= 1 us) every write is followed by
 *    two SD clocks.
 *  - 32-bit accesses only (the core makes no other).
 *  - No usable CAPABILITIES on hardware: 4-bit, high speed, 3.3 V and
 *    1024-byte blocks are known to work; card detect is not wired.
 *  - The high-speed enable bit is not set (Linux NO_HISPD_BIT).
 *  - No DMA: the Arasan's own DMA is not used by any known driver; data
 *    moves by PIO.
 */
#include "drivers/sdhci/bcm2835_emmc.h"

static const struct sdhci_quirks bcm2835_emmc_quirks = {
	.name = "emmc",
	.pace_below_hz = 2000000u,
	.f_min_hz = 0,
	.missing_caps_max_block = 1024u,
	.no_hispd_bit = true,
	.cd_broken_on_hw = true,
	.dma_offset = 0,
};

int bcm2835_emmc_init(struct sdhci_host *sh, uintptr_t base, uint32_t base_clock_hz)
{
	return sdhci_host_init(sh, &bcm2835_emmc_quirks, base, base_clock_hz);
}

/*
 * bcm2712_sdhci.c - the quirk set and cfg set-up of the BCM2712 SD slot
 * controller (see bcm2712_sdhci.h; for what each quirk does, sdhci.c).
 * Learnt from the public descriptions of this controller (Linux
 * bcm2712.dtsi / bcm2712-rpi-5-b.dts and sdhci-brcmstb's "brcm,bcm2712-sdhci"
 * match data, Zephyr's brcm,bcm2712-sdhci driver, the Pi 5 UEFI port's
 * BCM2712 header); what follows from them here:
 *
 *  - The standard SDHCI 3.0 register set, driven with the standard clock
 *    and power sequences (Linux uses the generic set_clock/set_power for
 *    it): no write pacing, no NO_HISPD, the divider's lowest clock.
 *  - Its input clock is a fixed 200 MHz clock in the device tree; the
 *    platform passes it (or the mailbox's EMMC2 clock).
 *  - Card detect: the slot's switch (SD_CDET_N) goes to an always-on GPIO,
 *    not to the controller; Linux forces presence through SDIO_CFG_CTRL
 *    for a slot it polls. Done here in any case, and the core treats card
 *    detect as broken on hardware: a missing card shows as no answer to
 *    CMD8/CMD55 (sd.c), as on the Pi 4.
 *  - SDIO_CFG_CQ_CAPABILITY carries the base clock in MHz for the
 *    controller's timers (Linux writes it at start-up).
 *  - DMA address view: identity (the device tree's axi dma-ranges map ARM
 *    physical 0 at bus 0); ADMA2 with 64-bit addresses is the controller's.
 *    Data moves by PIO here.
 *  - Not handled yet: the 1.8 V switch (the I/O regulator is on AON GPIO 3,
 *    the platform's hook, drivers/sd_slot.c), SDR104 and tuning.
 *
 * Nothing here has run on a Pi 5: no emulator models one.
 */
#include "drivers/mmio.h"
#include "drivers/sdhci/bcm2712_sdhci.h"

static const struct sdhci_quirks bcm2712_sdhci_quirks = {
	.name = "sdio1",
	.pace_below_hz = 0,
	.f_min_hz = 0,
	.missing_caps_max_block = 0,
	.no_hispd_bit = false,
	.cd_broken_on_hw = true,
	.dma_offset = 0,
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

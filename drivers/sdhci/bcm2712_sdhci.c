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
 *  - DMA address view: identity. The BCM2712 device tree as posted for
 *    mainline Linux puts sdio1 (mmc@1000fff000) under the "axi" simple-bus
 *    with a plain "ranges" and no "dma-ranges" on the way down, i.e. the
 *    controller's DMA master sees ARM physical addresses unchanged, above
 *    4 GiB too (no 0xC0000000 alias, unlike the Pi 4's emmc2bus). So:
 *    dma_offset 0 and a window of 16 GiB (the largest Pi 5 memory).
 *  - ADMA2 with 64-bit addresses (adma64: Host Control 1 DMA Select 11b,
 *    96-bit descriptors) when CAPABILITIES says ADMA2 and 64-bit System
 *    Bus Support (bits 19 and 28). Not verified on a Pi 5: the platform
 *    (platform/slot.c) keeps PIO the default there, ADMA2 only when
 *    data_path = dma asks for it.
 *  - UHS-I: the Pi 5 device tree lists sd-uhs-sdr50, sd-uhs-ddr50 and
 *    sd-uhs-sdr104 for this slot, and sdhci-brcmstb clears the UHS mode
 *    bits it reads from CAPABILITIES[63:32] so that the device tree's
 *    list is the one used: here the quirk set's list is the one
 *    (uhs_modes_fixed), SDR12/SDR25 coming with it. The 1.8 V switch
 *    needs the board's regulator (vqmmc = sd_io_1v8_reg on AON GPIO 3,
 *    platform/sd_io_pi5.c), attached by the platform (platform/slot.c).
 *  - Clock for SDR104: the 200 MHz input clock through the divider's
 *    bypass (N = 0: SDHCI 3.00 divided clock mode gives the base clock),
 *    200 MHz on the wire, below the 208 MHz of the mode; SDR50 100 MHz
 *    (N = 1), DDR50 50 MHz (N = 2). The core tunes SDR104 (and SDR50
 *    when CAPABILITIES bit 45 asks for it) with CMD19 through Execute
 *    Tuning, at most 40 commands.
 *  - Tuning PHY: the tuned modes need the delay-line PHY as the clock
 *    source instead of the 50 MHz-only path: SDIO_CFG_MAX_50MHZ_MODE with
 *    the strap override set and its enable bit clear. Linux does it at
 *    start-up whenever SDR50/SDR104 are allowed, as here (init).
 *
 * Nothing here has run on a Pi 5: no emulator models one.
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

/*
 * bcm2711_emmc2.c - the quirk set of the BCM2711 EMMC2 (see bcm2711_emmc2.h
 * and, for what each quirk does, sdhci.c). What the public drivers of this
 * controller handle (Linux sdhci-iproc "brcm,bcm2711-emmc2" with the Pi 4
 * device tree, U-Boot bcm2835_sdhci), and what follows from it here:
 *
 *  - Its input clock is not in CAPABILITIES on hardware: it comes from the
 *    firmware (mailbox clock id 12, EMMC2), passed in by the platform.
 *  - Registers are accessed 32 bits at a time (Linux runs it with 32-bit
 *    only accessors, shadowing Transfer Mode until the Command write); the
 *    core makes no other access.
 *  - Writes are paced at identification clocks (below 400 kHz plus), as
 *    the 32-bit accessor of those drivers does for every controller of the
 *    family; at transfer clocks no pacing.
 *  - The lowest clock used is 200 kHz (the identification clock is 400 kHz).
 *  - Card detect: the Pi 4 device tree marks it broken-cd; on hardware a
 *    missing card shows as no answer to CMD8/CMD55 (sd.c). QEMU's model
 *    reports it, and it is used there.
 *  - The high-speed enable bit is a real SDHCI bit here (no NO_HISPD quirk).
 *  - UHS-I: the Pi 4 device tree gives EMMC2 vqmmc = sd_io_1v8_reg, a
 *    GPIO regulator on the firmware's expander line 4 (high = 1.8 V,
 *    low = 3.3 V, 5 ms settling) and vmmc = sd_vcc_reg on expander line 6
 *    (SD_PWR_ON). The board hook (platform/sd_io_pi4.c) drives both
 *    through the mailbox's "set GPIO state" tag (0x00038041, line 128 + n).
 *    The integration runs SDR12, SDR25, SDR50 and DDR50 when the
 *    capabilities list them; not SDR104: the EMMC2 input clock is 100 MHz
 *    on the Pi 4, so 208 MHz cannot be made (uhs_max_hz).
 *  - ADMA2: the controller is an SDHCI 3.00 with ADMA2 (Linux runs it
 *    with ADMA); the core uses it when CAPABILITIES also says so (QEMU's
 *    model does not: PIO there).
 *  - DMA address view: the EMMC2 sits on a bus of its own in the Linux
 *    device tree (bcm2711.dtsi, node emmc2bus), whose dma-ranges
 *    <0x0 0xc0000000  0x0 0x00000000  0x40000000> put ARM physical
 *    0x0..0x3FFFFFFF at bus address 0xC0000000 for the controller's DMA
 *    master: descriptors and buffers must lie in the first GiB and carry
 *    A + 0xC0000000. That is the view of the first BCM2711 stepping (B0).
 *    The C0 stepping (Pi 400, CM4, later Pi 4 B of any memory size) sees
 *    ARM memory 1:1 below 0xFC000000; the firmware rewrites the emmc2bus
 *    dma-ranges to say which (the Linux bcm2711-rpi-4-b-b0 discussion), and
 *    the board revision code does not tell the steppings apart. The quirk
 *    carries the B0 view; sdhci_set_dma_view() replaces it for a board
 *    whose view is known.
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

/*
 * bcm2712.c - the BCM2712's SD slot (Pi 5, CM5, Pi 500): the SoC's own
 * SDHCI ("sdio1") with dedicated pads above 4 GiB, reachable from the
 * 64-bit build only. SDR104 with 1.8 V signalling: the I/O regulator and
 * the card's supply on AON GPIO 3 and 4 (platform/sd_io_pi5.c). Not
 * verified on hardware.
 */
#include "drivers/sdhci/bcm2712_sdhci.h"
#include "platform/board_desc.h"
#include "platform/sd_io_pi5.h"

static const struct slot_ctrl ctrls[] = {
	{
		.name = BCM2712_SDHCI_NAME,
		.driver = SLOT_DRV_BCM2712_SDHCI,
		.base = BCM2712_SDIO1_HOST_BASE,
		.cfg_base = BCM2712_SDIO1_CFG_BASE,
		/* the mailbox's EMMC2 clock, else the device tree's 200 MHz */
		.clock = SLOT_CLK_EMMC2, .clock_fallback_hz = BCM2712_SDIO1_CLOCK_HZ,
		/* data_path = auto: PIO. ADMA2 (64-bit) has run on the
		 * simulator only: used when data_path = dma asks for it. */
		.auto_path = SD_PATH_PIO, .auto_path_emulated = SD_PATH_PIO,
		.io = &sd_io_pi5_board, .io_emulated = true,
		.init_failed = "the BCM2712 SD host controller did not initialise",
	},
};

/* The peripherals sit above 4 GiB (Linux bcm2712.dtsi): periph_base is
 * the legacy block's base, where the system timer (+0x3000) and the
 * mailbox are. The mailbox moved (0x7c013880 on a bus based at
 * 0x10_0000_0000); its buffer is still named through the 0xC0000000 alias
 * of the first GiB, as on the BCM2711 (the downstream device tree's
 * dma-ranges; not verified on a Pi 5). GPIO 14/15 of the header belong to
 * the RP1 chip behind PCIe (not driven): the console is the SoC's debug
 * UART on the 3-pin connector (a PL011 with the fixed 9.216 MHz clk_uart),
 * which needs no pin routing. Only a 64-bit build reaches any of it (the
 * Pi 5 boots only 64-bit). */
const struct board_desc board_bcm2712 = {
	.soc = "BCM2712",
	.id = SOC_BCM2712,
	.cpu = CPU_CORTEX_A76,
	.periph_base = 0x107c000000ull,
	.periph_size = 0x04000000u,
	.mbox_offset = 0x13880u,
	.mbox_bus_alias = 0xc0000000u,
	.emmc2_clock = true,
	.gpio = BOARD_GPIO_NONE,
	.debug_uart_base = 0x107d001000ull,
	.debug_uart_hz = 9216000u,
	.note = "Raspberry Pi 5 family: sdbench has not been verified on this hardware "
		"(no emulator models it)",
	.ctrls = ctrls,
	.n_ctrls = sizeof(ctrls) / sizeof(ctrls[0]),
};

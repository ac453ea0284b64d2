/*
 * bcm2711.c - the BCM2711's SD slot (Pi 4, Pi 400, CM4): EMMC2 on pads of
 * its own (no GPIO function to select). The Arasan EMMC at +0x300000 and
 * GPIO 34-39 serve the Wi-Fi chip and are never touched; SDHOST is not
 * wired to the slot.
 */
#include "drivers/sdhci/bcm2711_emmc2.h"
#include "platform/bcm2835.h"
#include "platform/board_desc.h"
#include "platform/sd_io_pi4.h"

static const struct slot_ctrl ctrls[] = {
	{
		.name = BCM2711_EMMC2_NAME,
		.driver = SLOT_DRV_BCM2711_EMMC2,
		.base = BCM2711_EMMC2_ARM_OFFSET, .periph_relative = true,
		/* the mailbox's EMMC2 clock; QEMU's comes from CAPABILITIES */
		.clock = SLOT_CLK_EMMC2, .caps_clock_emulated = true,
		/* data_path = auto: its DMA master's view of ARM memory
		 * depends on the SoC stepping (drivers/sdhci/bcm2711_emmc2.c),
		 * which the board revision does not tell: PIO on hardware,
		 * ADMA2 only when data_path = dma asks. PIO under QEMU
		 * too: its SDHCI model (hw/sd/sdhci.c, sdhci_data_transfer
		 * from the command register's write) moves an ADMA2
		 * transfer whole inside the CPU's start write, which hides
		 * the card/bus/host split. */
		.auto_path = SD_PATH_PIO, .auto_path_emulated = SD_PATH_PIO,
		/* UHS-I through the firmware's GPIO expander; not under QEMU
		 * (no UHS-I in its SDHCI, no expander). */
		.io = &sd_io_pi4_board,
		.init_failed = "the EMMC2 host controller did not initialise (no base "
			       "clock from the mailbox's EMMC2 clock or the capabilities "
			       "register)",
	},
};

/* BCM2711 ARM Peripherals §1.2.4: in the low-peripheral mode 32-bit
 * kernels boot in, the main peripherals at 0xFE000000 (24 MiB, up to the
 * ARM local peripherals and the GIC at 0xFF800000); the mailbox where the
 * BCM2835 had it, its buffer named through 0xC0000000 (bcm2711.dtsi
 * dma-ranges). The SD slot's clock is the mailbox's EMMC2 clock. */
const struct board_desc board_bcm2711 = {
	.soc = "BCM2711",
	.id = SOC_BCM2711,
	.cpu = CPU_CORTEX_A72,
	.periph_base = 0xfe000000u,
	.periph_size = 0x01800000u,
	.arm_local_base = 0xff800000u,
	.mbox_offset = BCM2835_MBOX_OFFSET,
	.mbox_bus_alias = 0xc0000000u,
	.emmc2_clock = true,
	.gpio = BOARD_GPIO_BCM2711,
	.ctrls = ctrls,
	.n_ctrls = sizeof(ctrls) / sizeof(ctrls[0]),
};

/*
 * bcm2835.c - the BCM2835's SD slot (Pi 1, Pi Zero, Zero W): GPIO 48-53
 * reach either the Arasan EMMC (ALT3) or SDHOST (ALT0); both can move data
 * through the DMA engine, which sees ARM memory through the L2-coherent
 * alias (BCM2835 ARM Peripherals §1.2.3, §4.2.1.3 for the DREQs).
 */
#include "platform/bcm2835.h"
#include "platform/board_desc.h"
#include "drivers/gpio.h"

/* On boards with Wi-Fi (Pi 3, 3A+/3B+, Zero W, Zero 2 W) the firmware
 * leaves GPIO 34-39 on ALT3, which connects the Wi-Fi chip to the same
 * EMMC (§6.2: ALT3 of 34-39 and of 48-53 are both SD1_CLK/CMD/DAT0-3):
 * they are released to inputs. */
const struct slot_pins bcm2835_emmc_pins = {
	.first = 48, .last = 53, .fn = GPIO_FN_ALT3, .via_input = true,
	.release_first = 34, .release_last = 39,
};

const struct slot_pins bcm2835_sdhost_pins = {
	.first = 48, .last = 53, .fn = GPIO_FN_ALT0,
};

static const struct slot_ctrl ctrls[] = {
	BCM2835_SLOT_EMMC(DMA_MEM_ALIAS_BCM2835),
	BCM2835_SLOT_SDHOST(DMA_MEM_ALIAS_BCM2835),
};

/* BCM2835 ARM Peripherals §1.2.3: the peripherals at ARM physical
 * 0x20000000 (16 MiB); the mailbox at +0xB880 (its addendum). The ARM's
 * accesses go through the VideoCore L2, so the mailbox buffer is named
 * through the L2-cached alias 0x40000000 (Linux bcm2835.dtsi dma-ranges;
 * drivers/mailbox.c). No ARM local peripheral block. */
const struct board_desc board_bcm2835 = {
	.soc = "BCM2835",
	.id = SOC_BCM2835,
	.cpu = CPU_ARM1176,
	.periph_base = 0x20000000u,
	.periph_size = 0x01000000u,
	.mbox_offset = BCM2835_MBOX_OFFSET,
	.mbox_bus_alias = 0x40000000u,
	.gpio = BOARD_GPIO_BCM2835,
	.ctrls = ctrls,
	.n_ctrls = sizeof(ctrls) / sizeof(ctrls[0]),
};

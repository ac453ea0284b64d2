/*
 * bcm2836.c - the BCM2836 and BCM2837 (Pi 2, Pi 3, Zero 2 W, CM3): their
 * memory map and SD slot, the BCM2835's wiring (platform/bcm2835.h); the DMA engine sees ARM
 * memory through the uncached alias (the L2 cache is off for it).
 */
#include "platform/bcm2835.h"
#include "platform/board_desc.h"

static const struct slot_ctrl ctrls[] = {
	BCM2835_SLOT_EMMC(DMA_MEM_ALIAS_BCM2836),
	BCM2835_SLOT_SDHOST(DMA_MEM_ALIAS_BCM2836),
};

/* The BCM2836/7 map (Linux bcm2836.dtsi, bcm2837.dtsi): the peripherals
 * at 0x3F000000 (16 MiB), the ARM local peripherals (ARM timers, mailboxes;
 * BCM2836 "Quad-A7 control" document) at 0x40000000; no L2 in the ARM's
 * path to memory, so the mailbox buffer's bus alias is 0xC0000000. */
#define BCM2836_MAP						\
	.periph_base = 0x3f000000u,				\
	.periph_size = 0x01000000u,				\
	.arm_local_base = 0x40000000u,				\
	.mbox_offset = BCM2835_MBOX_OFFSET,			\
	.mbox_bus_alias = 0xc0000000u,				\
	.gpio = BOARD_GPIO_BCM2835,				\
	.ctrls = ctrls,						\
	.n_ctrls = sizeof(ctrls) / sizeof(ctrls[0])

/* Pi 2 B (v1.1) */
const struct board_desc board_bcm2836 = {
	.soc = "BCM2836",
	.id = SOC_BCM2836,
	.cpu = CPU_CORTEX_A7,
	BCM2836_MAP,
};

/* Pi 3, Zero 2 W, Pi 2 B v1.2, CM3 */
const struct board_desc board_bcm2837 = {
	.soc = "BCM2837",
	.id = SOC_BCM2837,
	.cpu = CPU_CORTEX_A53,
	BCM2836_MAP,
};

/*
 * bcm2835.h - the SD slot wiring the BCM2835, BCM2836 and BCM2837 share
 * (platform/bcm2835.c, bcm2836.c): GPIO 48-53 to the EMMC or SDHOST, each
 * with a DMA engine path; only the engine's view of memory differs.
 */
#ifndef SDB_PLATFORM_BCM2835_H
#define SDB_PLATFORM_BCM2835_H

#include "drivers/dma/bcm2835_dma.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "drivers/sdhost/bcm2835_sdhost.h"
#include "platform/board_desc.h"

/* The mailbox's offset in the BCM2835/6/7 and BCM2711 peripheral block
 * (BCM2835 ARM Peripherals addendum: ARM mailbox 0 at 0x7E00B880). */
#define BCM2835_MBOX_OFFSET 0xb880u

extern const struct slot_pins bcm2835_emmc_pins;
extern const struct slot_pins bcm2835_sdhost_pins;

/* The Arasan EMMC: under QEMU CAPABILITIES gives the clock, on hardware
 * (where it reads 0) the mailbox's EMMC clock. data_path = auto: the DMA
 * engine (DREQ 11), as the Raspberry Pi kernel's bcm2835-mmc used it; PIO
 * under QEMU, whose DMA engine model (hw/dma/bcm2835_dma.c) copies the
 * whole transfer inside the CPU's write of the channel's CS register, so
 * the card, bus and host parts of a request cannot be told apart
 * (data_path = dma still asks for it). */
#define BCM2835_SLOT_EMMC(alias) {					\
	.name = BCM2835_EMMC_NAME,					\
	.driver = SLOT_DRV_BCM2835_EMMC,				\
	.base = BCM2835_EMMC_ARM_OFFSET, .periph_relative = true,	\
	.clock = SLOT_CLK_EMMC, .caps_clock_emulated = true,		\
	.pins = &bcm2835_emmc_pins,					\
	.dma = { .dreq = DMA_DREQ_EMMC, .mem_alias = (alias) },	\
	.auto_path = SD_PATH_DMA, .auto_path_emulated = SD_PATH_PIO,	\
	.init_failed = "the EMMC host controller did not initialise",	\
}

/* SDHOST: its input is the core clock (QEMU ignores the divider, so the
 * mailbox's answer serves there too); DMA engine on DREQ 13, PIO under
 * QEMU for the EMMC's reason. */
#define BCM2835_SLOT_SDHOST(alias) {					\
	.name = BCM2835_SDHOST_NAME,					\
	.driver = SLOT_DRV_BCM2835_SDHOST,				\
	.base = BCM2835_SDHOST_ARM_OFFSET, .periph_relative = true,	\
	.clock = SLOT_CLK_CORE,						\
	.pins = &bcm2835_sdhost_pins,					\
	.dma = { .dreq = DMA_DREQ_SDHOST, .mem_alias = (alias) },	\
	.auto_path = SD_PATH_DMA, .auto_path_emulated = SD_PATH_PIO,	\
	.init_failed = "the SDHOST controller did not initialise "	\
		       "(no core clock from the mailbox)",		\
}

#endif

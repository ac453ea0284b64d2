/*
 * bcm2836.c - the BCM2836 and BCM2837's SD slot (Pi 2, Pi 3, Zero 2 W,
 * CM3): the BCM2835's wiring (platform/bcm2835.h); the DMA engine sees ARM
 * memory through the uncached alias (the L2 cache is off for it).
 */
#include "platform/bcm2835.h"
#include "platform/board_desc.h"

static const struct slot_ctrl ctrls[] = {
	BCM2835_SLOT_EMMC(DMA_MEM_ALIAS_BCM2836),
	BCM2835_SLOT_SDHOST(DMA_MEM_ALIAS_BCM2836),
};

const struct board_desc board_bcm2836 = {
	.soc = "BCM2836/7",
	.ctrls = ctrls,
	.n_ctrls = sizeof(ctrls) / sizeof(ctrls[0]),
};

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

const struct board_desc board_bcm2712 = {
	.soc = "BCM2712",
	.ctrls = ctrls,
	.n_ctrls = sizeof(ctrls) / sizeof(ctrls[0]),
};

/*
 * board_desc.h - what a SoC's board offers its SD slot, as data: one
 * description per SoC (platform/bcm2835.c, bcm2836.c, bcm2711.c,
 * bcm2712.c; the simulator's in platform/sim.c), read by the one slot
 * builder (platform/slot.c). The first controller of a description is
 * the one the slot uses unless sdbench.txt's "host" names another; the
 * list is also what the host comparison measures. docs/extending.md says
 * how to add a board or a controller.
 */
#ifndef SDB_PLATFORM_BOARD_DESC_H
#define SDB_PLATFORM_BOARD_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/sdhci/sdhci.h"
#include "platform/board.h"

/* Which driver (and quirk set) a slot controller is built with. */
enum slot_driver {
	SLOT_DRV_BCM2835_EMMC,   /* drivers/sdhci/bcm2835_emmc.c */
	SLOT_DRV_BCM2835_SDHOST, /* drivers/sdhost/bcm2835_sdhost.c */
	SLOT_DRV_BCM2711_EMMC2,  /* drivers/sdhci/bcm2711_emmc2.c */
	SLOT_DRV_BCM2712_SDHCI,  /* drivers/sdhci/bcm2712_sdhci.c */
	SLOT_DRV_SDHCI,          /* an SDHCI with the row's own quirk set */
};

/* Where the controller's input clock comes from. */
enum slot_clock {
	SLOT_CLK_CAPS,       /* its CAPABILITIES register (0 passed to the driver) */
	SLOT_CLK_EMMC,       /* the mailbox's EMMC clock */
	SLOT_CLK_EMMC2,      /* the mailbox's EMMC2 clock */
	SLOT_CLK_CORE,       /* the mailbox's core clock (SDHOST) */
};

/* GPIO first..last carry CLK, CMD and DAT0-3 (first is the clock: no
 * pull-up); fn (enum gpio_fn) routes them to this controller. */
struct slot_pins {
	uint8_t first, last;
	uint8_t fn;
	/* Every pin through INPUT first: QEMU moves the card back from
	 * SDHOST to the EMMC only when all six read INPUT. */
	bool via_input;
	/* Pins release_first..release_last found on fn are released to
	 * inputs first: they would connect a second device (the Wi-Fi chip)
	 * to the same controller. release_last 0: none. */
	uint8_t release_first, release_last;
};

/* The BCM2835/6/7 DMA engine as the controller's data path: a channel of
 * those the firmware leaves to the ARM, paced by dreq, reaching ARM memory
 * through mem_alias (DMA_MEM_ALIAS_*). dreq 0: no engine path. */
struct slot_dma {
	uint8_t dreq;
	uint32_t mem_alias;
};

/* The controller's own DMA master's view of ARM memory (ADMA2):
 * bus address = ARM address + offset below window. window 0: the quirk
 * set's default. */
struct slot_dma_view {
	uint32_t offset;
	uint64_t window;
};

struct slot_ctrl {
	const char *name;            /* sdbench.txt "host", host->name */
	enum slot_driver driver;
	const struct sdhci_quirks *quirks; /* SLOT_DRV_SDHCI */
	uint64_t base;               /* ARM address; + periph_base when periph_relative */
	bool periph_relative;
	uint64_t cfg_base;           /* BCM2712: the integration's cfg block */
	enum slot_clock clock;
	uint32_t clock_fallback_hz;  /* when the mailbox gives none (0: an error) */
	bool caps_clock_emulated;    /* under QEMU: CAPABILITIES gives the clock */
	const struct slot_pins *pins;     /* NULL: pads of its own */
	struct slot_dma dma;
	struct slot_dma_view dma_view;
	/* What data_path = auto selects (enum sd_data_path), on hardware and
	 * under QEMU; the engine path needs a channel, else PIO. */
	uint8_t auto_path, auto_path_emulated;
	/* The host starts on its auto path when it has it (the simulator's
	 * tests take ADMA2 unless they ask for PIO). */
	bool start_on_auto;
	/* The board's SD I/O regulator and card supply for UHS-I (NULL:
	 * 3.3 V only); io_emulated: also under QEMU. */
	const struct sdhci_board *io;
	bool io_emulated;
	const char *init_failed;     /* what the user reads when init fails */
};

struct board_desc {
	const char *soc;             /* "BCM2835", ..., "sim" */
	const struct slot_ctrl *ctrls;
	unsigned n_ctrls;            /* ctrls[0]: the slot's usual controller */
};

/* The longest controller list of any description. */
#define SLOT_MAX_CTRLS 4

/* What the slot builder needs from the board besides the table: routing
 * pins (target: GPIO; simulator: which model has the card) and the DMA
 * channels the firmware leaves to the ARM. */
struct slot_services {
	/* Route the slot to ctrl at base (ctrl->pins NULL: its own pads). */
	int (*route)(const struct slot_ctrl *ctrl, uintptr_t base);
	/* The DMA channel mask (mailbox tag 0x00060001); nonzero on error. */
	int (*dma_channels)(uint32_t *mask);
};

#endif

/*
 * board_desc.h - what a SoC's board offers its SD slot, as data: one
 * description per SoC (platform/bcm2835.c, bcm2836.c, bcm2711.c,
 * bcm2712.c; the simulator's in harness/sim_board.c), read by the one slot
 * builder (platform/slot.c). The first controller of a description is
 * the one the slot uses unless sdbench.txt's "host" names another; the
 * list is also what the host comparison measures. docs/extending.md says
 * how to add a board or a controller.
 */
#ifndef SDB_PLATFORM_BOARD_DESC_H
#define SDB_PLATFORM_BOARD_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/cpu.h"
#include "drivers/sdhci/sdhci.h"

enum soc { SOC_BCM2835, SOC_BCM2836, SOC_BCM2837, SOC_BCM2711, SOC_UNKNOWN, SOC_BCM2712 };

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

/* Which GPIO block drives the header's pins (the console's GPIO 14/15). */
enum board_gpio {
	BOARD_GPIO_BCM2835,   /* BCM2835/6/7: pulls through GPPUD/GPPUDCLK */
	BOARD_GPIO_BCM2711,   /* BCM2711: pulls in GPIO_PUP_PDN_CNTRL */
	BOARD_GPIO_NONE,      /* BCM2712: the header is the RP1's, behind PCIe */
};

/* A SoC: where its blocks are, what its mailbox and console need, its SD
 * slot. Every fact the firmware keys on the SoC is a field here (the
 * code reads the table, it compares no SoC and no address). */
struct board_desc {
	const char *soc;             /* "BCM2835", ..., the board record's "soc" */
	enum soc id;
	enum cpu_kind cpu;           /* the core it is recognised by (MIDR) */
	/* The legacy peripheral block: system timer (+0x3000), mailbox,
	 * GPIO, UART, DMA engine; mapped as device memory. */
	uint64_t periph_base;
	uint32_t periph_size;
	/* The ARM local peripherals (ARM timers, mailboxes; the GIC on the
	 * BCM2711): one more device section at this address, 0 none. */
	uint32_t arm_local_base;
	/* The mailbox: its offset from periph_base, and the bus alias of
	 * the first GiB the VideoCore is given the message buffer through
	 * (bits 31:30 of the buffer's bus address). */
	uint32_t mbox_offset;
	uint32_t mbox_bus_alias;
	/* The mailbox has an EMMC2 clock (clock id 12): the slot's input. */
	bool emmc2_clock;
	enum board_gpio gpio;
	/* The console: 0, the PL011 at periph_base + 0x201000 on GPIO 14/15
	 * with the mailbox's UART clock; else a PL011 of its own at this
	 * address with a fixed clock. */
	uint64_t debug_uart_base;
	uint32_t debug_uart_hz;
	/* Printed under the board line (NULL: nothing). */
	const char *note;
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

/*
 * sd_slot.h - which host controller serves this board's SD card slot, built
 * ready for the card layer (sd_slot.c).
 *
 * The platform decides, not the benchmark: on BCM2835/6/7 (Pi 0-3) the
 * slot's pins GPIO 48-53 are routed to the Arasan EMMC; on a BCM2711
 * (Pi 4/400/CM4) the slot is on EMMC2 and the Arasan EMMC serves the Wi-Fi
 * chip, so it is never probed for the card there: the slot is built on
 * EMMC2 (drivers/sdhci/bcm2711_emmc2.c). Each controller's state belongs
 * to the slot (no driver singleton): a second controller can exist beside
 * it.
 *
 * A new host controller goes here: its driver in drivers/<name>/ (or a quirk
 * set in drivers/sdhci/ for another SDHCI) behind
 * struct sd_host_ops, and a branch below that builds it for the boards
 * that wire the slot to it.
 */
#ifndef SDB_DRIVERS_SD_SLOT_H
#define SDB_DRIVERS_SD_SLOT_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/board.h"
#include "drivers/dma/bcm2835_dma.h"
#include "drivers/sd/sd_host.h"
#include "drivers/sdhci/sdhci.h"
#include "drivers/sdhost/bcm2835_sdhost.h"

struct sd_slot {
	struct sd_host *host;     /* ready for host->ops->reset(); NULL when not */
	struct sdhci_host sdhci;  /* the controller's state, owned by the slot */
	struct dma_chan dma;      /* BCM2835/6/7: the DMA engine channel of the EMMC's or SDHOST's DMA path */
	const char *dma_note;     /* why the host has no DMA path (NULL: it has one) */
	struct bcm2835_sdhost sdhost; /* SDHOST's state (Pi 0-3), when chosen */
	const char *unsupported;  /* the slot is on a controller not driven yet */
	int error;                /* 0, or what building the host returned */
	const char *error_what;   /* which step failed, for the user */
	uintptr_t error_base;     /* the controller concerned */
	/* The board allows SDR104 on this slot (Pi 5: the regulator hooks
	 * are attached to the controller, sdhci_set_board). */
	bool sdr104_allowed;
};

/* The controllers a slot can be built on (sdbench.txt "host"). */
enum sd_slot_ctrl {
	SD_SLOT_AUTO = 0, /* the board's usual one: EMMC (Pi 0-3), EMMC2 (Pi 4) */
	SD_SLOT_EMMC,     /* the Arasan EMMC, GPIO 48-53 on ALT3 (Pi 0-3) */
	SD_SLOT_SDHOST,   /* SDHOST, GPIO 48-53 on ALT0 (Pi 0-3) */
	SD_SLOT_EMMC2,    /* EMMC2 (Pi 4 / 400 / CM4) */
};

/* Route the pins and bring up the controller that serves b's SD slot.
 * Returns slot->error; slot is always filled in. */
int sd_slot_build(struct sd_slot *slot, const struct board_info *b);

/* The same on a chosen controller (the pins are routed to it).
 * -ENODEV with slot->error_what set when the board has no such
 * controller for its slot (nothing is changed then). */
int sd_slot_build_on(struct sd_slot *slot, const struct board_info *b,
		     enum sd_slot_ctrl ctrl);

/* Whether b's slot can be served by ctrl (AUTO: always). */
bool sd_slot_has(const struct board_info *b, enum sd_slot_ctrl ctrl);

#endif

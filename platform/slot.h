/*
 * slot.h - the SD slot built from the board's description
 * (platform/board_desc.h): the controller that serves it, its pins routed,
 * its DMA path and data-path default set, ready for the card layer. The
 * firmware (boot/main.c) and the simulator (harness/sim_harness.c's
 * simh_program_env, which sdbsim runs) build it the same way; each controller's state belongs to the slot (no driver
 * singleton).
 */
#ifndef SDB_PLATFORM_SLOT_H
#define SDB_PLATFORM_SLOT_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/dma/bcm2835_dma.h"
#include "drivers/sd/sd_host.h"
#include "drivers/sdhci/sdhci.h"
#include "drivers/sdhost/bcm2835_sdhost.h"
#include "platform/board.h"
#include "platform/board_desc.h"

struct sd_slot {
	/* What the slot is built from (sd_slot_init). */
	const struct board_desc *desc;
	const struct board_info *board;
	const struct slot_services *svc;
	/* The description's controller names, NULL-terminated: what
	 * sdbench.txt's "host" may name and the host comparison measures. */
	const char *names[SLOT_MAX_CTRLS + 1];
	const struct slot_ctrl *ctrl; /* the controller built (NULL: none) */
	struct sd_host *host;     /* ready for host->ops->reset(); NULL when not */
	struct sdhci_host sdhci;  /* an SDHCI controller's state */
	struct bcm2835_sdhost sdhost; /* SDHOST's state */
	struct dma_chan dma;      /* the DMA engine channel of the data path */
	const char *dma_note;     /* why the host has no DMA path (NULL: it has one) */
	const char *unsupported;  /* the slot is on a controller not driven yet */
	int error;                /* 0, or what building the host returned */
	const char *error_what;   /* which step failed, for the user */
	uintptr_t error_base;     /* the controller concerned */
};

/* Tie slot to a board's description, its detected facts and services
 * (nothing is built yet). */
void sd_slot_init(struct sd_slot *slot, const struct board_desc *desc,
		  const struct board_info *b, const struct slot_services *svc);

/* Route the pins and bring up the controller called name ("auto" or NULL:
 * the description's first). Returns slot->error (slot->host NULL then);
 * -ENODEV with slot->error_what saying so when this board's slot has no
 * such controller. */
int sd_slot_build(struct sd_slot *slot, const char *name);

/* The slot the program runs on: sd_slot_init, then the controller called
 * name built (NULL: the description's usual one); sd_slot_switch acts on
 * it from then on. Returns slot->error. */
int sd_slot_start(struct sd_slot *slot, const struct board_desc *desc,
		  const struct board_info *b, const struct slot_services *svc, const char *name);

/* bench_env.switch_host on the slot sd_slot_start began: the controller
 * called name built there; *host the new host (NULL when none), *why
 * what failed. */
int sd_slot_switch(const char *name, struct sd_host **host, const char **why);

/* Only the SDHCI of row c (not SDHOST) into sh, with the row's board
 * hooks and data-path default; no pins, no DMA engine (the simulator's
 * tests drive the SDHCI directly). Returns the driver's init result. */
int sd_slot_build_sdhci(struct sdhci_host *sh, const struct slot_ctrl *c,
			const struct board_info *b);

/* The description's controller called name; NULL when there is none
 * ("auto": the first). */
const struct slot_ctrl *sd_slot_find(const struct board_desc *desc, const char *name);

#endif

/*
 * sim_board.h - the simulator's board (harness/sim_board.c): its description, from
 * the host profile the simulator was set up with, and the services the
 * slot builder uses on it. Host builds only.
 */
#ifndef SDB_HARNESS_SIM_BOARD_H
#define SDB_HARNESS_SIM_BOARD_H

#include "platform/board.h"
#include "platform/board_desc.h"
#include "sim/sim.h"

/* The description for the simulator as sim_setup() left it; b gets the
 * facts a detected board would have (peripheral base, clocks). The
 * description stays valid until the next call. */
const struct board_desc *sim_board_desc(struct board_info *b);

extern const struct slot_services sim_slot_services;

/* c placed on the table of soc (below): the controller called ctrl
 * (NULL: the slot's usual one) where that SoC has it, the simulator's
 * model for it, c->soc set; before sim_setup. NULL when no table has
 * that name or that controller. */
const struct board_desc *sim_soc_place(const char *soc, const char *ctrl, struct sim_config *c);

/* The table the simulator's configuration names (its soc), b filled as
 * below; NULL when it names none (the generic board: sim_board_desc). */
const struct board_desc *sim_soc_desc(struct board_info *b);

/* A simulated board on a real SoC's table: the description platform/
 * boards.c lists under soc ("BCM2835", "BCM2836", "BCM2837", "BCM2711",
 * "BCM2712"); c (the host profile's figures) gets the simulator's
 * controller placed where that table's first row is, its model (SDHCI
 * of the BCM2835/2711 family or the BCM2712's) and the DMA engine's
 * memory alias; b the facts detection would give (the table's peripheral
 * base, the mailbox's clocks: c's base clock). Then sim_setup(c, p).
 * NULL when no table has that name or the simulator refuses. */
const struct board_desc *sim_soc_board(const char *soc, struct sim_config *c,
				       const struct sim_profile *p, struct board_info *b);

/* UHS-I: the simulator's board (SD I/O regulator and card supply, sim.h
 * sim_board_*) as a struct sdhci_board. */
extern const struct sdhci_board simh_board;
/* The quirk set of a host profile's controller = sdhci (no Pi's). */
extern const struct sdhci_quirks sim_nopi_quirks;

#endif

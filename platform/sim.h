/*
 * sim.h - the simulator's board (platform/sim.c): its description, from
 * the host profile the simulator was set up with, and the services the
 * slot builder uses on it. Host builds only.
 */
#ifndef SDB_PLATFORM_SIM_H
#define SDB_PLATFORM_SIM_H

#include "platform/board_desc.h"

/* The description for the simulator as sim_setup() left it; b gets the
 * facts a detected board would have (peripheral base, clocks). The
 * description stays valid until the next call. */
const struct board_desc *sim_board_desc(struct board_info *b);

extern const struct slot_services sim_slot_services;

#endif

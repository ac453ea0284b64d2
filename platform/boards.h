/*
 * boards.h - the SoC descriptions (one file per SoC in platform/) and
 * which one a board uses (platform/boards.c).
 */
#ifndef SDB_PLATFORM_BOARDS_H
#define SDB_PLATFORM_BOARDS_H

#include "platform/board_desc.h"

/* Every SoC's description, NULL-terminated (those whose peripherals this
 * build cannot address included: board_desc_for_cpu skips them). */
extern const struct board_desc *const board_descs[];

/* The description of the SoC built around this core; NULL when no SoC
 * this build can reach has it. */
const struct board_desc *board_desc_for_cpu(enum cpu_kind cpu);

/* The best guess for a core no description names: the BCM2836/7's map
 * for an ARMv7 or later core, else the BCM2835's. */
const struct board_desc *board_desc_guess(bool armv7);

#endif

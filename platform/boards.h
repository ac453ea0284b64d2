/*
 * boards.h - the board descriptions (one file per SoC in platform/) and
 * which one a detected board uses (platform/boards.c).
 */
#ifndef SDB_PLATFORM_BOARDS_H
#define SDB_PLATFORM_BOARDS_H

#include "platform/board.h"
#include "platform/board_desc.h"

extern const struct board_desc board_bcm2835; /* platform/bcm2835.c */
extern const struct board_desc board_bcm2836; /* platform/bcm2836.c, also BCM2837 */
extern const struct board_desc board_bcm2711; /* platform/bcm2711.c */
extern const struct board_desc board_bcm2712; /* platform/bcm2712.c */

/* The description of the SoC b was detected as (an unknown SoC: the
 * BCM2836/7's). */
const struct board_desc *board_desc_for(const struct board_info *b);

#endif

/*
 * boards.h - which board description (one file per SoC in platform/) a
 * detected board uses (platform/boards.c).
 */
#ifndef SDB_PLATFORM_BOARDS_H
#define SDB_PLATFORM_BOARDS_H

#include "platform/board.h"
#include "platform/board_desc.h"

/* The description of the SoC b was detected as (an unknown SoC: the
 * BCM2836/7's). */
const struct board_desc *board_desc_for(const struct board_info *b);

#endif

/*
 * board_led.h - which LED sdbench shows its status on, per board model
 * (platform/board_led.c): the green ACT LED as each board's device tree
 * describes it (the line, its polarity, on a SoC GPIO, the firmware's
 * GPIO expander or the BCM2712's always-on GPIO block). docs/led.md.
 */
#ifndef SDB_PLATFORM_BOARD_LED_H
#define SDB_PLATFORM_BOARD_LED_H

#include <stdint.h>

#include "drivers/led.h"

struct board_led {
	struct led_line line;	/* kind LED_NONE: no LED sdbench may drive */
	const char *label;	/* "ACT", or why there is none */
};

/* The LED of the board with this revision code (mailbox "get board
 * revision"; old- and new-style codes). */
void board_led_for(uint32_t revision, struct board_led *out);

#endif

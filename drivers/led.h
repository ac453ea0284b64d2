/*
 * led.h - one LED line on or off (drivers/led.c): a SoC GPIO of the
 * BCM2835/6/7/2711 (drivers/gpio.c), a line of the VideoCore firmware's
 * GPIO expander (mailbox tag "set GPIO state"), or a bank-0 line of a
 * Broadcom STB GPIO block (the BCM2712's always-on block). Which line a
 * board's LED is on is the board's fact (platform/board_led.c).
 */
#ifndef SDB_DRIVERS_LED_H
#define SDB_DRIVERS_LED_H

#include <stdbool.h>
#include <stdint.h>

enum led_kind {
	LED_NONE = 0,		/* the board has no LED sdbench may drive */
	LED_SOC_GPIO,		/* GPFSEL/GPSET/GPCLR; gpio_init() done */
	LED_FW_EXPANDER,	/* the firmware's expander line (128 + line) */
	LED_STB_GPIO,		/* bank 0 of the STB GPIO block at base */
};

struct led_line {
	enum led_kind kind;
	unsigned line;
	bool active_low;	/* the LED lights when the line is low */
	uintptr_t base;		/* LED_STB_GPIO: the block's address */
};

/* "gpio", "expander", "aon_gpio" or "none" (the led record's kind). */
const char *led_kind_name(enum led_kind k);

/* The line made an output with the LED off. 0, or -errno: -ENODEV (no
 * line), -EINVAL, or the mailbox's -EIO / -ETIMEDOUT when the firmware
 * refused or did not answer the tag (bounded by the mailbox's deadline). */
int led_init(const struct led_line *l);

/* The LED lit (on) or dark, through the line's polarity. 0 or -errno. */
int led_set(const struct led_line *l, bool on);

#endif

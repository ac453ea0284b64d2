/*
 * board_led.c - see board_led.h. Every row is the led-act node of the
 * board's Linux device tree (torvalds/linux arch/arm/boot/dts/broadcom/,
 * unless named otherwise), "gpios = <&controller line polarity>":
 *
 *   A, B rev 1/2   bcm2835-rpi-a.dts, -b.dts, -b-rev2.dts  gpio 16 ACTIVE_LOW
 *   A+, B+         bcm2835-rpi-a-plus.dts, -b-plus.dts     gpio 47 ACTIVE_HIGH
 *   2 B (2836/7)   bcm2836-rpi-2-b.dts, bcm2837-rpi-2-b.dts gpio 47 ACTIVE_HIGH
 *   Zero           raspberrypi/linux bcm2708-rpi-zero.dts  gpio 47 ACTIVE_LOW
 *                  (upstream bcm2835-rpi-zero.dts says ACTIVE_HIGH, but
 *                  names the line STATUS_LED_N, "active low", as the
 *                  Zero W's; the downstream tree the Pi's own OS uses
 *                  says low)
 *   Zero W         bcm2835-rpi-zero-w.dts                  gpio 47 ACTIVE_LOW
 *   3 B            bcm2837-rpi-3-b.dts      expgpio 2 ACTIVE_HIGH (STATUS_LED)
 *   3 B+, 3 A+     bcm2837-rpi-3-b-plus.dts, bcm2837-rpi-3-a-plus.dts
 *                                                          gpio 29 ACTIVE_HIGH
 *   Zero 2 W       bcm2837-rpi-zero-2-w.dts                gpio 29 ACTIVE_LOW
 *   4 B            bcm2711-rpi-4-b.dts                     gpio 42 ACTIVE_HIGH
 *   CM4            bcm2711-rpi-cm4-io.dts                  gpio 42 ACTIVE_HIGH
 *   5              raspberrypi/linux arch/arm64/boot/dts/broadcom/
 *                  bcm2712-rpi-5-b.dts  gio_aon 9 ACTIVE_LOW (2712_STAT_LED)
 *
 * No LED: the Compute Modules 1 and 3/3+ (bcm2835-rpi-cm1-io1.dts: GPIO 47
 * is EMMC_EN_N, "also used as ACT LED": toggling it would switch the
 * module's eMMC; bcm2837-rpi-cm3-io3.dts has no led-act), the Pi 400
 * (bcm2711-rpi-400.dts deletes led-act; GPIO 42 is its power LED there),
 * and every board whose tree was not checked (CM4S, CM5, Pi 500, unknown
 * codes): sdbench never drives a line it cannot name.
 */
#include <stddef.h>

#include "platform/board_led.h"

#if UINTPTR_MAX > 0xffffffffu
#define AON_GPIO ((uintptr_t)0x107d517c00ull) /* bcm2712.dtsi gio_aon */
#else
#define AON_GPIO ((uintptr_t)0)	/* a 32-bit kernel never runs on a BCM2712 */
#endif

#define GPIO(n, low)	{ LED_SOC_GPIO, (n), (low), 0 }

/* New-style codes: by board type (bits 4-11). */
static const struct {
	uint8_t type;
	struct led_line line;
} by_type[] = {
	{ 0x00, GPIO(16, true) },	/* A */
	{ 0x01, GPIO(16, true) },	/* B */
	{ 0x02, GPIO(47, false) },	/* A+ */
	{ 0x03, GPIO(47, false) },	/* B+ */
	{ 0x04, GPIO(47, false) },	/* 2 B */
	{ 0x08, { LED_FW_EXPANDER, 2, false, 0 } },	/* 3 B */
	{ 0x09, GPIO(47, true) },	/* Zero */
	{ 0x0c, GPIO(47, true) },	/* Zero W */
	{ 0x0d, GPIO(29, false) },	/* 3 B+ */
	{ 0x0e, GPIO(29, false) },	/* 3 A+ */
	{ 0x11, GPIO(42, false) },	/* 4 B */
	{ 0x12, GPIO(29, true) },	/* Zero 2 W */
	{ 0x14, GPIO(42, false) },	/* CM4 */
	{ 0x17, { LED_STB_GPIO, 9, true, 0 } },	/* 5 */
};

/* Old-style codes (Pi 1 only): 0002-000f A and B, 0010/0013 B+, 0012/0015
 * A+; 0011/0014 are the Compute Module (no LED). */
static void old_style(uint32_t code, struct board_led *out)
{
	if (code >= 0x0002 && code <= 0x000f)
		out->line = (struct led_line)GPIO(16, true);
	else if (code == 0x0010 || code == 0x0012 || code == 0x0013 || code == 0x0015)
		out->line = (struct led_line)GPIO(47, false);
}

void board_led_for(uint32_t revision, struct board_led *out)
{
	unsigned i;

	out->line = (struct led_line){ LED_NONE, 0, false, 0 };
	if (!(revision & (1u << 23))) {
		old_style(revision & 0xffffu, out); /* bit 24: warranty */
	} else {
		for (i = 0; i < sizeof(by_type) / sizeof(by_type[0]); i++)
			if (by_type[i].type == ((revision >> 4) & 0xffu))
				out->line = by_type[i].line;
	}
	if (out->line.kind == LED_STB_GPIO) {
		out->line.base = AON_GPIO;
		if (!AON_GPIO)
			out->line.kind = LED_NONE;
	}
	out->label = out->line.kind == LED_NONE ? "none" : "ACT";
}

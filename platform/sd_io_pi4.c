/*
 * sd_io_pi4.c - see sd_io_pi4.h.
 *
 * The Linux device tree of the Pi 4 (bcm2711-rpi-4-b.dts) gives EMMC2
 *  - vqmmc = sd_io_1v8_reg: a GPIO regulator on the firmware's expander
 *    line 4, high = 1.8 V, low = 3.3 V, 5 ms settling time;
 *  - vmmc = sd_vcc_reg: a fixed 3.3 V supply enabled by expander line 6
 *    ("SD_PWR_ON"), active high.
 * The expander belongs to the VideoCore firmware; its lines are set with
 * the mailbox property tag "set GPIO state" (0x00038041) on line 128 + n.
 * The 5 ms settling wait is the SDHCI core's (sdhci_voltage_switch).
 */
#include "drivers/mailbox.h"
#include "platform/sd_io_pi4.h"

#define PI4_EXPGPIO_SD_IO_1V8 4u /* sd_io_1v8_reg: 1 = 1.8 V */
#define PI4_EXPGPIO_SD_PWR_ON 6u /* sd_vcc_reg: 1 = card powered */

static int pi4_set_io_mv(void *ctx, unsigned mv)
{
	(void)ctx;
	return mbox_set_gpio_state(MBOX_EXPGPIO_BASE + PI4_EXPGPIO_SD_IO_1V8,
				   mv == 1800 ? 1 : 0);
}

static int pi4_set_card_power(void *ctx, bool on)
{
	(void)ctx;
	return mbox_set_gpio_state(MBOX_EXPGPIO_BASE + PI4_EXPGPIO_SD_PWR_ON,
				   on ? 1 : 0);
}

const struct sdhci_board sd_io_pi4_board = {
	.name = "pi4-expgpio",
	.set_io_mv = pi4_set_io_mv,
	.set_card_power = pi4_set_card_power,
	.ctx = 0,
};

/*
 * led.c - see led.h.
 *
 * SoC GPIO: the latch is written first (GPCLR/GPSET) and the pin made an
 * output after it, so the line never shows the wrong level for a moment
 * (BCM2835 ARM Peripherals §6.1: the set/clear registers act on the latch
 * whatever the pin's function). GPFSEL is read-modify-write
 * (gpio_set_function): the LED shares its register with the SD pins on
 * GPIO 47 (GPFSEL4 holds 40-49).
 *
 * Firmware expander: the tag 0x00038041 with line 128 + n, as Linux's
 * gpio-raspberrypi-exp driver names the lines; the firmware owns the
 * line's direction. A firmware (or QEMU) that does not know the tag
 * answers without the response bit: -EIO, reported by the caller.
 *
 * STB GPIO (Linux gpio-brcmstb): DATA then IODIR (0 = output), both
 * read-modify-write, so the other lines of the bank keep their state.
 */
#include "drivers/gpio.h"
#include "drivers/led.h"
#include "drivers/mailbox.h"
#include "drivers/mmio.h"
#include "lib/err.h"

#define STB_DATA	0x04u
#define STB_IODIR	0x08u
#define STB_LINES	17u

const char *led_kind_name(enum led_kind k)
{
	static const char *const names[] = { "none", "gpio", "expander", "aon_gpio" };

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "none";
}

static int stb_level(const struct led_line *l, bool high, bool make_output)
{
	uint32_t bit = 1u << l->line, v;

	if (!l->base || l->line >= STB_LINES)
		return -EINVAL;
	v = mmio_read32(l->base + STB_DATA);
	mmio_write32(l->base + STB_DATA, high ? (v | bit) : (v & ~bit));
	if (make_output) {
		v = mmio_read32(l->base + STB_IODIR);
		if (v & bit)
			mmio_write32(l->base + STB_IODIR, v & ~bit);
	}
	return 0;
}

static int drive(const struct led_line *l, bool on, bool first)
{
	bool high = on != l->active_low;
	int r;

	switch (l->kind) {
	case LED_SOC_GPIO:
		r = gpio_write(l->line, high);
		if (!r && first)
			r = gpio_set_function(l->line, GPIO_FN_OUTPUT);
		return r;
	case LED_FW_EXPANDER:
		return mbox_set_gpio_state(MBOX_EXPGPIO_BASE + l->line, high ? 1 : 0);
	case LED_STB_GPIO:
		return stb_level(l, high, first);
	default:
		return -ENODEV;
	}
}

int led_init(const struct led_line *l)
{
	return drive(l, false, true);
}

int led_set(const struct led_line *l, bool on)
{
	return drive(l, on, false);
}

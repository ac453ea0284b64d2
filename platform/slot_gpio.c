/*
 * slot_gpio.c - see slot_gpio.h.
 */
#include "drivers/gpio.h"
#include "drivers/mailbox.h"
#include "platform/slot_gpio.h"

/* Pins p->first..p->last to fn, pull-ups on CMD and DAT0-3 (the first
 * pin is the clock). */
static int route_pins(const struct slot_pins *p, enum gpio_fn fn)
{
	unsigned pin;
	int r;

	for (pin = p->first; pin <= p->last; pin++) {
		r = gpio_set_function(pin, fn);
		if (!r && fn != GPIO_FN_INPUT)
			r = gpio_set_pull(pin, pin == p->first ? GPIO_PULL_NONE : GPIO_PULL_UP);
		if (r)
			return r;
	}
	return 0;
}

static int route(const struct slot_ctrl *ctrl, uintptr_t base)
{
	const struct slot_pins *p = ctrl->pins;
	unsigned pin;
	int r;

	(void)base;
	if (!p)
		return 0;
	/* Pins of a second device on the same function would share the
	 * controller (the Wi-Fi chip): released to inputs; pins on any
	 * other function are left alone. */
	for (pin = p->release_first; p->release_last && pin <= p->release_last; pin++)
		if (gpio_get_function(pin) == (int)p->fn) {
			r = gpio_set_function(pin, GPIO_FN_INPUT);
			if (r)
				return r;
		}
	/* On hardware the pins float for a moment, between commands. */
	if (p->via_input) {
		r = route_pins(p, GPIO_FN_INPUT);
		if (r)
			return r;
	}
	return route_pins(p, (enum gpio_fn)p->fn);
}

static int dma_channels(uint32_t *mask)
{
	return mbox_get_dma_channels(mask);
}

const struct slot_services slot_gpio_services = {
	.route = route,
	.dma_channels = dma_channels,
};

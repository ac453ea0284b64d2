/*
 * gpio.h - GPIO function select and pulls (BCM2835 ARM Peripherals §6,
 * BCM2711 ARM Peripherals §5).
 */
#ifndef SDB_DRIVERS_GPIO_H
#define SDB_DRIVERS_GPIO_H

#include <stdbool.h>
#include <stdint.h>

enum gpio_fn {
	GPIO_FN_INPUT = 0, GPIO_FN_OUTPUT = 1,
	GPIO_FN_ALT0 = 4, GPIO_FN_ALT1 = 5, GPIO_FN_ALT2 = 6,
	GPIO_FN_ALT3 = 7, GPIO_FN_ALT4 = 3, GPIO_FN_ALT5 = 2,
};

enum gpio_pull { GPIO_PULL_NONE = 0, GPIO_PULL_DOWN = 1, GPIO_PULL_UP = 2 };

/* is_bcm2711 selects the BCM2711 pull-control registers. */
void gpio_init(uintptr_t periph_base, bool is_bcm2711);
int gpio_set_function(unsigned pin, enum gpio_fn fn);
int gpio_get_function(unsigned pin);
int gpio_set_pull(unsigned pin, enum gpio_pull pull);
/* An output's level: 1 high, 0 low (GPSET/GPCLR); the pin's level as read
 * (GPLEV): 0 or 1, or -EINVAL. */
int gpio_write(unsigned pin, bool high);
int gpio_read(unsigned pin);

#endif

/*
 * gpio.c - GPIO function select and pull-up/down.
 *
 * BCM2835/6/7 use the GPPUD + GPPUDCLK sequence with 150-cycle waits
 * (datasheet §6.1); BCM2711 replaced it by GPIO_PUP_PDN_CNTRL_REGn with two
 * bits per pin and different encoding (up = 01, down = 10).
 */
#include "drivers/gpio.h"
#include "drivers/mmio.h"
#include "drivers/timer.h"
#include "lib/err.h"

#define GPIO_OFFSET	0x200000
#define GPFSEL(n)	(0x00 + 4 * (n))
#define GPSET(n)	(0x1c + 4 * (n))
#define GPCLR(n)	(0x28 + 4 * (n))
#define GPLEV(n)	(0x34 + 4 * (n))
#define GPPUD		0x94
#define GPPUDCLK(n)	(0x98 + 4 * (n))
#define GPIO_PUP_PDN_CNTRL(n)	(0xe4 + 4 * (n)) /* BCM2711 */

#define GPIO_PINS	54

static uintptr_t gpio_base;
static bool bcm2711;

void gpio_init(uintptr_t periph_base, bool is_bcm2711)
{
	gpio_base = periph_base + GPIO_OFFSET;
	bcm2711 = is_bcm2711;
}

int gpio_set_function(unsigned pin, enum gpio_fn fn)
{
	uintptr_t reg;
	uint32_t v, shift;

	if (!gpio_base || pin >= GPIO_PINS || (unsigned)fn > 7)
		return -EINVAL;
	reg = gpio_base + GPFSEL(pin / 10);
	shift = (pin % 10) * 3;
	v = mmio_read32(reg);
	v &= ~(7u << shift);
	v |= (uint32_t)fn << shift;
	mmio_write32(reg, v);
	return 0;
}

int gpio_get_function(unsigned pin)
{
	if (!gpio_base || pin >= GPIO_PINS)
		return -EINVAL;
	return (int)((mmio_read32(gpio_base + GPFSEL(pin / 10)) >> ((pin % 10) * 3)) & 7);
}

/* GPSETn/GPCLRn (§6.1) write the output latch: a 1 bit acts on its pin,
 * 0 bits leave the others alone (no read-modify-write). The latch holds
 * its level while the pin is still an input. */
int gpio_write(unsigned pin, bool high)
{
	if (!gpio_base || pin >= GPIO_PINS)
		return -EINVAL;
	mmio_write32(gpio_base + (high ? GPSET(pin / 32) : GPCLR(pin / 32)), 1u << (pin % 32));
	return 0;
}

int gpio_read(unsigned pin)
{
	if (!gpio_base || pin >= GPIO_PINS)
		return -EINVAL;
	return (int)((mmio_read32(gpio_base + GPLEV(pin / 32)) >> (pin % 32)) & 1);
}

int gpio_set_pull(unsigned pin, enum gpio_pull pull)
{
	if (!gpio_base || pin >= GPIO_PINS)
		return -EINVAL;
	if (bcm2711) {
		static const uint32_t enc[3] = { 0, 2, 1 }; /* none, down, up */
		uintptr_t reg = gpio_base + GPIO_PUP_PDN_CNTRL(pin / 16);
		uint32_t shift = (pin % 16) * 2;
		uint32_t v = mmio_read32(reg);

		v = (v & ~(3u << shift)) | (enc[pull] << shift);
		mmio_write32(reg, v);
		return 0;
	}
	/* §6.1: set GPPUD, wait 150 cycles, clock it into the pin, wait, clear.
	 * 150 cycles are well under 1 us at any core clock. */
	mmio_write32(gpio_base + GPPUD, (uint32_t)pull);
	timer_udelay(2);
	mmio_write32(gpio_base + GPPUDCLK(pin / 32), 1u << (pin % 32));
	timer_udelay(2);
	mmio_write32(gpio_base + GPPUD, 0);
	mmio_write32(gpio_base + GPPUDCLK(pin / 32), 0);
	return 0;
}

/*
 * sd_slot.c - see sd_slot.h.
 */
#include <stddef.h>

#include "drivers/gpio.h"
#include "drivers/sd_io_pi4.h"
#include "drivers/sd_slot.h"
#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "lib/err.h"

static int select_emmc_pins(void)
{
	unsigned pin;
	int r;

	/* On boards with Wi-Fi (Pi 3, 3A+/3B+, Zero W, Zero 2 W) the firmware
	 * leaves GPIO 34-39 on ALT3, which connects the Wi-Fi chip to the same
	 * EMMC controller (BCM2835 ARM Peripherals §6.2: ALT3 of 34-39 and of
	 * 48-53 are both SD1_CLK/CMD/DAT0-3). With both groups selected the
	 * controller would drive the Wi-Fi chip too and read CMD/DAT from two
	 * pads. Release them to inputs, as Circle's EMMC driver does on those
	 * boards; pins on any other function are left alone. */
	for (pin = 34; pin <= 39; pin++)
		if (gpio_get_function(pin) == GPIO_FN_ALT3) {
			r = gpio_set_function(pin, GPIO_FN_INPUT);
			if (r)
				return r;
		}
	/* GPIO 48-53 carry the SD card; ALT3 connects them to the Arasan
	 * EMMC controller (ALT0 would select SDHOST). Pull-ups on CMD/DAT. */
	for (pin = 48; pin <= 53; pin++) {
		r = gpio_set_function(pin, GPIO_FN_ALT3);
		if (r)
			return r;
		r = gpio_set_pull(pin, pin == 48 ? GPIO_PULL_NONE : GPIO_PULL_UP);
		if (r)
			return r;
	}
	return 0;
}

static int fail(struct sd_slot *slot, int r, const char *what, uintptr_t base)
{
	slot->host = NULL;
	slot->error = r;
	slot->error_what = what;
	slot->error_base = base;
	return r;
}

int sd_slot_build(struct sd_slot *slot, const struct board_info *b)
{
	uintptr_t base;
	int r;

	slot->host = NULL;
	slot->unsupported = NULL;
	slot->error = 0;
	slot->error_what = NULL;
	slot->error_base = 0;
	if (b->soc == SOC_BCM2711) {
		/* Pi 4 / 400 / CM4: the slot is wired to EMMC2 on pads of its
		 * own (no GPIO function to select); the Arasan EMMC at +0x300000
		 * and GPIO 34-39 serve the Wi-Fi chip and are left alone. The
		 * input clock is the mailbox's EMMC2 clock on hardware, the
		 * capabilities register's under QEMU. */
		base = b->periph_base + BCM2711_EMMC2_ARM_OFFSET;
		r = bcm2711_emmc2_init(&slot->sdhci, base,
				       b->emulated ? 0 : b->emmc2_clock_hz);
		if (r)
			return fail(slot, r, "the EMMC2 host controller did not initialise "
				    "(no base clock from the mailbox's EMMC2 clock or the "
				    "capabilities register)", base);
		/* UHS-I through the firmware's GPIO expander; not under QEMU
		 * (its SDHCI has no UHS-I, and no expander). */
		if (!b->emulated)
			sdhci_set_board(&slot->sdhci, &sd_io_pi4_board);
		slot->host = &slot->sdhci.host;
		/* Its DMA master's view of ARM memory depends on the SoC
		 * stepping (bcm2711_emmc2.c), which the board revision does not
		 * tell: on hardware PIO stays the default and ADMA2 is only
		 * used when asked for (data_path). */
		if (!b->emulated)
			slot->host->ops->set_data_path(slot->host, SD_PATH_PIO);
		return 0;
	}
	base = b->periph_base + BCM2835_EMMC_ARM_OFFSET;
	r = select_emmc_pins();
	if (r)
		return fail(slot, r, "could not route GPIO 48-53 to the EMMC controller", base);
	/* Under QEMU the capabilities register gives the base clock; on
	 * hardware it reads 0 and the mailbox's EMMC clock is the one. */
	r = bcm2835_emmc_init(&slot->sdhci, base, b->emulated ? 0 : b->emmc_clock_hz);
	if (r)
		return fail(slot, r, "the EMMC host controller did not initialise", base);
	slot->host = &slot->sdhci.host;
	return 0;
}

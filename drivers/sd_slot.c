/*
 * sd_slot.c - see sd_slot.h.
 */
#include <stddef.h>

#include "drivers/gpio.h"
#include "drivers/mailbox.h"
#include "drivers/sd_io_pi4.h"
#include "drivers/sd_io_pi5.h"
#include "drivers/sd_slot.h"
#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/sdhci/bcm2712_sdhci.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "drivers/mmio.h"
#include "drivers/timer.h"
#include "drivers/sdhost/bcm2835_sdhost.h"
#include "lib/err.h"

static int route_slot_pins(enum gpio_fn fn);

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
	 * EMMC controller (ALT0 would select SDHOST). Pull-ups on CMD/DAT.
	 * All six go through INPUT first: QEMU moves the card back from
	 * SDHOST to the EMMC only when all six read INPUT (it ignores ALT3);
	 * on hardware the pins float for a moment, between commands. */
	for (pin = 48; pin <= 53; pin++) {
		r = gpio_set_function(pin, GPIO_FN_INPUT);
		if (r)
			return r;
	}
	return route_slot_pins(GPIO_FN_ALT3);
}

/* GPIO 48-53 to function fn (ALT3 = EMMC, ALT0 = SDHOST), pull-ups on
 * CMD and DAT0-3 (48 is the clock). */
static int route_slot_pins(enum gpio_fn fn)
{
	unsigned pin;
	int r;

	for (pin = 48; pin <= 53; pin++) {
		r = gpio_set_function(pin, fn);
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

/* The DMA data path of the EMMC or SDHOST: a channel of the DMA engine from
 * the ones the firmware leaves to the ARM (mailbox tag 0x00060001). The
 * engine sees ARM memory through the BCM2835's L2-coherent alias, or the
 * BCM2836/7's uncached one. false (slot->dma_note says why): PIO only. */
static bool take_dma_channel(struct sd_slot *slot, const struct board_info *b)
{
	uint32_t mask = 0;

	slot->dma_note = NULL;
	if (mbox_get_dma_channels(&mask)) {
		slot->dma_note = "the firmware did not give the DMA channel mask";
		return false;
	}
	if (dma_chan_init(&slot->dma, b->periph_base, b->soc == SOC_BCM2835 ?
			  DMA_MEM_ALIAS_BCM2835 : DMA_MEM_ALIAS_BCM2836, mask)) {
		slot->dma_note = dma_error(&slot->dma);
		return false;
	}
	return true;
}

/* What data_path = auto selects on Pi 0-3 (the EMMC and SDHOST alike): the
 * DMA engine when the slot took a channel for it. It runs under QEMU on
 * every Pi 0-3 machine (tests/qemu/test_dma.py, test_sdhost.py) and takes
 * the per-word work off the CPU; the Raspberry Pi Linux kernel's
 * bcm2835-mmc and bcm2835-sdhost drivers used the same engine. */
static void attach_emmc_dma(struct sd_slot *slot, const struct board_info *b)
{
	if (take_dma_channel(slot, b)) {
		bcm2835_emmc_attach_dma(&slot->sdhci, &slot->dma);
		slot->sdhci.host.auto_path = SD_PATH_DMA;
	}
}

static void clear(struct sd_slot *slot)
{
	slot->host = NULL;
	slot->unsupported = NULL;
	slot->error = 0;
	slot->error_what = NULL;
	slot->error_base = 0;
	slot->dma_note = "no DMA engine path on this controller";
	slot->sdr104_allowed = false;
}

bool sd_slot_has(const struct board_info *b, enum sd_slot_ctrl ctrl)
{
	switch (ctrl) {
	case SD_SLOT_AUTO:
		return true;
	case SD_SLOT_EMMC:
	case SD_SLOT_SDHOST:
		/* Pi 0-3: GPIO 48-53 go to either. On a Pi 4 the slot has
		 * pads of its own on EMMC2; its EMMC and SDHOST are not wired
		 * to the slot. */
		return b->soc != SOC_BCM2711 && b->soc != SOC_BCM2712;
	case SD_SLOT_EMMC2:
		return b->soc == SOC_BCM2711;
	}
	return false;
}

static int build_sdhost(struct sd_slot *slot, const struct board_info *b)
{
	uintptr_t base = b->periph_base + BCM2835_SDHOST_ARM_OFFSET;
	int r;

	/* QEMU's model ignores the divider, so the mailbox's core clock
	 * (QEMU answers 700 MHz) serves both. */
	r = bcm2835_sdhost_init(&slot->sdhost, base, b->core_clock_hz);
	if (r)
		return fail(slot, r, "the SDHOST controller did not initialise "
			    "(no core clock from the mailbox)", base);
	r = route_slot_pins(GPIO_FN_ALT0);
	if (r)
		return fail(slot, r, "could not route GPIO 48-53 to the SDHOST controller", base);
	slot->host = &slot->sdhost.host;
	/* The DMA engine as its data path too (DREQ 13), what auto selects
	 * (as on the EMMC, attach_emmc_dma). */
	if (take_dma_channel(slot, b)) {
		bcm2835_sdhost_attach_dma(&slot->sdhost, &slot->dma);
		slot->sdhost.host.auto_path = SD_PATH_DMA;
	}
	return 0;
}

int sd_slot_build_on(struct sd_slot *slot, const struct board_info *b,
		     enum sd_slot_ctrl ctrl)
{
	if (!sd_slot_has(b, ctrl)) {
		slot->error_what = "this board's SD slot is not wired to that controller";
		return -ENODEV;
	}
	if (ctrl == SD_SLOT_SDHOST) {
		clear(slot);
		return build_sdhost(slot, b);
	}
	return sd_slot_build(slot, b);
}

int sd_slot_build(struct sd_slot *slot, const struct board_info *b)
{
	uintptr_t base;
	int r;

	clear(slot);
#if UINTPTR_MAX > 0xffffffffu
	if (b->soc == SOC_BCM2712) {
		/* Pi 5 / CM5 / Pi 500: the slot is on the SoC's own SDHCI
		 * (sdio1) with dedicated pads; SDR104 with 1.8 V signalling
		 * on the board: the I/O regulator and the card's supply on
		 * AON GPIO 3 and 4 (drivers/sd_io_pi5.c). The clock: the
		 * mailbox's EMMC2 clock, else the device tree's fixed
		 * 200 MHz. Not verified on hardware. */
		base = (uintptr_t)BCM2712_SDIO1_HOST_BASE;
		r = bcm2712_sdhci_init(&slot->sdhci, base, (uintptr_t)BCM2712_SDIO1_CFG_BASE,
				       b->emmc2_clock_hz ? b->emmc2_clock_hz :
				       BCM2712_SDIO1_CLOCK_HZ);
		if (r)
			return fail(slot, r, "the BCM2712 SD host controller did not initialise",
				    base);
		slot->sdr104_allowed = true;
		sdhci_set_board(&slot->sdhci, &sd_io_pi5_board);
		slot->host = &slot->sdhci.host;
		/* data_path = auto: PIO. ADMA2 (64-bit) has run on the
		 * simulator only, so it is used only when data_path = dma
		 * asks for it. */
		slot->host->auto_path = SD_PATH_PIO;
		return 0;
	}
#endif
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
		/* data_path = auto: its DMA master's view of ARM memory
		 * depends on the SoC stepping (bcm2711_emmc2.c), which the
		 * board revision does not tell: on hardware PIO, ADMA2 only
		 * when data_path = dma asks for it; under QEMU (flat memory,
		 * no stepping) ADMA2 where the emulated controller offers it. */
		slot->host->auto_path = b->emulated ? SD_PATH_DMA : SD_PATH_PIO;
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
	attach_emmc_dma(slot, b);
	return 0;
}

/*
 * sd_io_pi5.c - see sd_io_pi5.h: the Pi 5's SD I/O regulator (AON GPIO 3,
 * SD_IOVDD_SEL) and card supply (AON GPIO 4, SD_PWR_ON) as its device tree
 * gives them, driven read-modify-write on the always-on GPIO block (bank 0
 * also carries RP1_RUN), each change read back and settled under the
 * timer. The device-tree facts and what is not verified on a Pi 5:
 * docs/drivers.md, "platform/sd_io_pi5.c".
 */
#include <stdint.h>

#include "drivers/mmio.h"
#include "platform/sd_io_pi5.h"
#include "drivers/timer.h"
#include "lib/err.h"

#if UINTPTR_MAX > 0xffffffffu
#define GIO_AON ((uintptr_t)BCM2712_GIO_AON_BASE)
#else
#define GIO_AON ((uintptr_t)0) /* a 32-bit kernel never runs on a BCM2712 */
#endif

/* Drive AON GPIO 'line' (bank 0) to 'level', keep every other line. */
static int aon_drive(unsigned line, bool level)
{
	uint32_t bit = 1u << line, v;
	timer_deadline_t d;

	if (!GIO_AON)
		return -ENODEV;
	v = mmio_read32(GIO_AON + GIO_DATA);
	v = level ? (v | bit) : (v & ~bit);
	mmio_write32(GIO_AON + GIO_DATA, v);
	v = mmio_read32(GIO_AON + GIO_IODIR);
	if (v & bit)
		mmio_write32(GIO_AON + GIO_IODIR, v & ~bit);
	d = timer_deadline_us(PI5_AON_READBACK_US);
	for (;;) {
		v = mmio_read32(GIO_AON + GIO_DATA);
		if (((v & bit) != 0) == level)
			return 0;
		if (timer_expired(d))
			return -EIO;
	}
}

static int pi5_set_io_mv(void *ctx, unsigned mv)
{
	int r;

	(void)ctx;
	if (mv != 1800 && mv != 3300)
		return -EINVAL;
	r = aon_drive(PI5_AON_SD_IOVDD_SEL, mv == 1800);
	if (r)
		return r;
	timer_udelay(PI5_SD_IO_SETTLE_US);
	return 0;
}

static int pi5_set_card_power(void *ctx, bool on)
{
	(void)ctx;
	return aon_drive(PI5_AON_SD_PWR_ON, on);
}

const struct sdhci_board sd_io_pi5_board = {
	.name = "pi5-gio-aon",
	.set_io_mv = pi5_set_io_mv,
	.set_card_power = pi5_set_card_power,
	.ctx = 0,
};

/*
 * sd_io_pi5.c - see sd_io_pi5.h.
 *
 * The Linux device tree of the Pi 5 (bcm2712-rpi-5-b.dts) gives the SD
 * slot controller (sdio1)
 *  - vqmmc = sd_io_1v8_reg: a "regulator-gpio" on gio_aon line 3
 *    (SD_IOVDD_SEL), active high, states 1.8 V = 1 and 3.3 V = 0,
 *    regulator-settling-time-us 5000;
 *  - vmmc = sd_vcc_reg: a fixed 3.3 V supply enabled by gio_aon line 4
 *    (SD_PWR_ON), active high.
 * gio_aon is the BCM2712's own always-on Broadcom STB GPIO block (Linux
 * gpio-brcmstb: per bank ODEN, DATA, IODIR ... at 0x00, 0x04, 0x08, IODIR
 * 1 = input), not the RP1 chip behind PCIe: the ARM reaches it without
 * any other driver. A line is driven by writing its DATA bit and clearing
 * its IODIR bit, read-modify-write: bank 0 also carries RP1_RUN (line 2,
 * held high by the firmware: clearing it would stop the RP1), the status
 * LED and the PMIC interrupt, which must keep their state.
 *
 * Each change is checked by reading DATA back until it shows the level
 * written, bounded by the timer (PI5_AON_READBACK_US; -EIO when it does
 * not), then the regulator's settling time is waited with the timer. The
 * SDHCI core adds the 5 ms of the switch sequence itself.
 *
 * Not verified on a Pi 5 (no emulator models one; this ran only against
 * the simulator's model of the block, sim/sim_gio_aon.c): that the
 * firmware leaves AON GPIO 3 and 4 in their GPIO function (pinctrl_aon)
 * and the block clocked, that DATA reads back the level of an output line
 * (Linux's gpio-brcmstb reads it so), that no firmware agent writes bank 0
 * at the same moment (the read-modify-write is not atomic against the
 * VideoCore), that 5 ms is enough for the real regulator, and that
 * switching SD_PWR_ON off and on power-cycles the card as the device tree
 * says.
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

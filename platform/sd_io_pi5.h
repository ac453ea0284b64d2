/*
 * sd_io_pi5.h - the Pi 5 / CM5 / Pi 500 board around the BCM2712 SD slot
 * controller for UHS-I: the SD I/O (signalling) regulator and the card's
 * supply, both driven by lines of the SoC's always-on GPIO block
 * (sd_io_pi5.c). Not verified on hardware: no emulator models a Pi 5; the
 * simulator models the block (sim/sim_gio_aon.c) on its Pi 5 board
 * (harness/sim_board.c).
 */
#ifndef SDB_PLATFORM_SD_IO_PI5_H
#define SDB_PLATFORM_SD_IO_PI5_H

#include "drivers/sdhci/sdhci.h"

/* ARM physical address of the always-on GPIO block (Linux bcm2712.dtsi:
 * gio_aon at bus 0x7d517c00 in the soc node, which maps bus 0 at
 * 0x10_0000_0000; a Broadcom STB GPIO block, banks of 17 and 6 lines). */
#define BCM2712_GIO_AON_BASE	0x107d517c00ull
#define BCM2712_GIO_AON_SPAN	0x40u
/* Registers of one bank (0x20 bytes a bank; bank 0 holds AON GPIO 0-16). */
#define GIO_ODEN		0x00u /* open drain enable */
#define GIO_DATA		0x04u /* output latch on write, line level on read */
#define GIO_IODIR		0x08u /* 1 = input, 0 = output */
/* The Pi 5's lines (bcm2712-rpi-5-b.dts, gpio-line-names of gio_aon). */
#define PI5_AON_SD_IOVDD_SEL	3u    /* sd_io_1v8_reg: 1 = 1.8 V, 0 = 3.3 V */
#define PI5_AON_SD_PWR_ON	4u    /* sd_vcc_reg: 1 = card powered */
/* regulator-settling-time-us of sd_io_1v8_reg. */
#define PI5_SD_IO_SETTLE_US	5000u
/* How long a line may take to read back the level written to it. */
#define PI5_AON_READBACK_US	1000u

extern const struct sdhci_board sd_io_pi5_board;

#endif

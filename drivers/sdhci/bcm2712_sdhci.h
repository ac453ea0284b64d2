/*
 * bcm2712_sdhci.h - the SD card slot controller of the BCM2712 (Pi 5, CM5,
 * Pi 500): a Broadcom STB SDHCI ("sdio1" in the device tree) with a block
 * of integration registers of its own ("cfg") beside the standard SDHCI
 * registers, both above 4 GiB. The generic core (sdhci.h) with this SoC's
 * quirk set and the cfg set-up.
 *
 * Not verified on hardware: no emulator models a Pi 5; the simulator's
 * Pi 5 board (harness/sim_board.c, from platform/bcm2712.c's table) is
 * where this code runs.
 */
#ifndef SDB_DRIVERS_SDHCI_BCM2712_SDHCI_H
#define SDB_DRIVERS_SDHCI_BCM2712_SDHCI_H

#include <stdint.h>

#include "drivers/sdhci/sdhci.h"

/* ARM physical addresses (Linux bcm2712.dtsi: soc ranges put bus
 * 0x00000000 at 0x10_0000_0000; sdio1 host at 0xfff000, cfg at 0xfff400).
 * A 64-bit build only: a 32-bit kernel never runs on a BCM2712. */
#define BCM2712_SDHCI_NAME "sdio1" /* host->name: its device tree node */
#define BCM2712_SDIO1_HOST_BASE	0x1000fff000ull
#define BCM2712_SDIO1_CFG_BASE	0x1000fff400ull
#define BCM2712_SDIO1_CFG_OFFSET 0x400u /* cfg from the host base */
/* The controller's input clock: a fixed 200 MHz clock in the device tree
 * (clk_emmc2), used when the mailbox does not answer for clock id 12. */
#define BCM2712_SDIO1_CLOCK_HZ	200000000u

/* cfg registers (offsets from the cfg base) the driver touches. */
#define BCM2712_CFG_CTRL		0x000u
#define  BCM2712_CFG_CTRL_SDCD_N_TEST_EN	(1u << 31) /* override card detect */
#define  BCM2712_CFG_CTRL_SDCD_N_TEST_LEV	(1u << 30) /* overridden level, 0 = present */
#define BCM2712_CFG_CQ_CAPABILITY	0x04cu
#define  BCM2712_CFG_CQ_FMUL		(3u << 12) /* timer clock multiplier field */
#define BCM2712_CFG_MAX_50MHZ_MODE	0x1acu
#define  BCM2712_CFG_MAX_50MHZ_ENABLE		(1u << 0)
#define  BCM2712_CFG_MAX_50MHZ_STRAP_OVERRIDE	(1u << 31)
#define BCM2712_CFG_SPAN		0x200u

/* sdhci_host_init() with the BCM2712 quirks, then the cfg set-up: card
 * presence forced (the slot's card-detect switch is wired to a GPIO, not to
 * the controller), the controller's timer clock advisory and the tuning
 * PHY for SDR50/SDR104. base_clock_hz:
 * the mailbox's EMMC2 clock or BCM2712_SDIO1_CLOCK_HZ on hardware; 0 takes
 * it from CAPABILITIES. */
int bcm2712_sdhci_init(struct sdhci_host *sh, uintptr_t base, uintptr_t cfg_base,
		       uint32_t base_clock_hz);

/* For UHS-I (SDR50/SDR104, tuning): select the delay-line PHY as the
 * clock source, as the controller needs for the tuned modes (init does
 * it). */
void bcm2712_sdhci_select_tuning_phy(uintptr_t cfg_base);

#endif

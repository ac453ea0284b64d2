/*
 * emmc.h - the Arasan EMMC host controller (BCM2835/6/7, Pi 0-3) as an SD
 * host (drivers/sd/sd_host.h).
 *
 * The caller owns each controller's state (struct emmc_host): the
 * platform builds one per controller it uses, so two may exist at once.
 */
#ifndef SDB_DRIVERS_EMMC_H
#define SDB_DRIVERS_EMMC_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/sd/sd_host.h"

/* The driver's state of one controller; private to emmc.c (here only so
 * the caller can own the storage). */
struct emmc_priv {
	uintptr_t base;
	uint32_t wdelay_us;   /* delay after a register write (2 SD clocks) */
	uint32_t max_block;
	bool v3;              /* SDHCI >= 3.00: 10-bit divider, Auto-CMD23 */
	bool caps_missing;
	bool cd_broken;       /* the card-detect input means nothing here */
	uint32_t ctl0;        /* shadow of CONTROL0 (width, HS, power) */
	uint32_t req_hz;      /* clock asked for by the last set_ios */
};

struct emmc_host {
	struct sd_host host; /* what the card layer uses */
	struct emmc_priv priv;
};

/* Bind eh->host to the controller at 'base' (ARM physical address: peripheral
 * base + EMMC_ARM_OFFSET). base_clock_hz is the controller's input clock
 * (mailbox clock id 1 on hardware); 0 takes it from the capabilities
 * register (QEMU fills it in; hardware does not). Reads the version and
 * capabilities, fills h->caps/version/cap_* and f_min/f_max, does not touch
 * the card: call h->ops->reset() next. Returns 0 or -ENODEV when no base
 * clock can be determined. */
int emmc_host_init(struct emmc_host *eh, uintptr_t base, uint32_t base_clock_hz);

/* The divider the driver would program for 'hz' and the frequency it gives
 * (for reports and tests). Returns the actual frequency in Hz. */
uint32_t emmc_clock_for(uint32_t base_clock_hz, uint32_t hz, bool v3,
			uint32_t *divider);

#endif

/*
 * emmc.h - the Arasan EMMC host controller (BCM2835/6/7, Pi 0-3) as an SD
 * host (drivers/sd/sd_host.h).
 *
 * One controller instance: emmc_host_init() binds the struct sd_host given
 * to the driver's single private state.
 */
#ifndef SDB_DRIVERS_EMMC_H
#define SDB_DRIVERS_EMMC_H

#include <stdint.h>

#include "drivers/sd/sd_host.h"

/* Bind h to the controller at 'base' (ARM physical address: peripheral
 * base + EMMC_ARM_OFFSET). base_clock_hz is the controller's input clock
 * (mailbox clock id 1 on hardware); 0 takes it from the capabilities
 * register (QEMU fills it in; hardware does not). Reads the version and
 * capabilities, fills h->caps/version/cap_* and f_min/f_max, does not touch
 * the card: call h->ops->reset() next. Returns 0 or -ENODEV when no base
 * clock can be determined. */
int emmc_host_init(struct sd_host *h, uintptr_t base, uint32_t base_clock_hz);

/* The divider the driver would program for 'hz' and the frequency it gives
 * (for reports and tests). Returns the actual frequency in Hz. */
uint32_t emmc_clock_for(uint32_t base_clock_hz, uint32_t hz, bool v3,
			uint32_t *divider);

#endif

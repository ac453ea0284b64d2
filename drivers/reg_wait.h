/*
 * reg_wait.h - the bounded wait on one status register, shared by the
 * SDHCI and SDHOST drivers: poll until any bit of 'mask' is set or the
 * deadline passes, then look once more (a bit set while the timer was read
 * is not lost). Returns the register's value, or 0 on timeout.
 */
#ifndef SDB_DRIVERS_REG_WAIT_H
#define SDB_DRIVERS_REG_WAIT_H

#include <stdint.h>

#include "drivers/mmio.h"
#include "drivers/timer.h"

static inline uint32_t reg_wait_any(uintptr_t addr, uint32_t mask, uint32_t timeout_us)
{
	timer_deadline_t d = timer_deadline_us(timeout_us);
	uint32_t v;

	for (;;) {
		v = mmio_read32(addr);
		if (v & mask)
			return v;
		if (timer_expired(d)) {
			v = mmio_read32(addr);
			return (v & mask) ? v : 0;
		}
	}
}

#endif

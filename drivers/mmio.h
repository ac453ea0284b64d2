/*
 * mmio.h - the one register accessor of the project.
 *
 * On the target these are volatile 32-bit loads/stores (the Arasan EMMC and
 * most BCM283x blocks must only be accessed 32 bits wide). In host builds
 * (SDB_HOST defined) every access goes to host_bus_read32/write32, which
 * whatever the host program links in provides (the register-level models
 * of sim/): the seam that lets the real drivers run on the host.
 *
 * Ordering: BCM2835 peripherals sit behind a bus that can return data out of
 * order between *different* peripherals (BCM2835 ARM Peripherals §1.3); the
 * drivers call mmio_barrier() when they switch from one peripheral to
 * another. Device memory (MMU attribute) keeps accesses to one peripheral in
 * order.
 */
#ifndef SDB_DRIVERS_MMIO_H
#define SDB_DRIVERS_MMIO_H

#include <stdint.h>

#ifdef SDB_HOST

/* The host program's bus: every register read and write of a host build. */
uint32_t host_bus_read32(uintptr_t addr);
void host_bus_write32(uintptr_t addr, uint32_t val);

static inline uint32_t mmio_read32(uintptr_t addr)
{
	return host_bus_read32(addr);
}

static inline void mmio_write32(uintptr_t addr, uint32_t val)
{
	host_bus_write32(addr, val);
}

static inline void mmio_barrier(void)
{
}

static inline void mmio_dsb(void)
{
}

#else

static inline uint32_t mmio_read32(uintptr_t addr)
{
	return *(volatile uint32_t *)addr;
}

static inline void mmio_write32(uintptr_t addr, uint32_t val)
{
	*(volatile uint32_t *)addr = val;
}

#ifdef __aarch64__
static inline void mmio_barrier(void)
{
	__asm__ volatile("dmb sy" ::: "memory");
}

static inline void mmio_dsb(void)
{
	__asm__ volatile("dsb sy" ::: "memory");
}
#else
/* Data memory barrier that works on ARMv6 (CP15) and ARMv7+ alike. */
static inline void mmio_barrier(void)
{
	__asm__ volatile("mcr p15, 0, %0, c7, c10, 5" : : "r"(0) : "memory");
}

/* Data synchronization barrier (all earlier memory accesses complete),
 * ARMv6 CP15 form, also valid on ARMv7+. */
static inline void mmio_dsb(void)
{
	__asm__ volatile("mcr p15, 0, %0, c7, c10, 4" : : "r"(0) : "memory");
}
#endif

#endif

#endif

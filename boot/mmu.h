/*
 * mmu.h - MMU and caches (mmu.c).
 */
#ifndef SDB_BOOT_MMU_H
#define SDB_BOOT_MMU_H

#include <stdbool.h>
#include <stdint.h>

/* Identity-map the address space: RAM [0, ram_bytes) normal write-back
 * cacheable, the non-cacheable section from the linker script normal
 * uncached, [periph_base, periph_base + periph_bytes) device memory,
 * the section or block holding local_base (the ARM local peripherals; 0:
 * none) device memory too, everything else a translation fault. Then
 * enable MMU, I/D caches and branch prediction. */
void cpu_mmu_enable(uint32_t ram_bytes, uintptr_t periph_base, uint32_t periph_bytes,
		    uint32_t local_base);
/* The memory type the identity map gives unit i of the address space (a
 * 1 MiB section on ARMv6/v7, a 2 MiB block on ARMv8), as cpu_mmu_enable
 * above says; both mmu.c fill their tables from it. Bounds in units. */
enum mmu_mem { MMU_FAULT, MMU_DEVICE, MMU_NORMAL_NC, MMU_NORMAL_WB, MMU_MEM_N };
struct mmu_plan {
	uintptr_t p_first, p_last;   /* peripherals: [p_first, p_last) */
	uintptr_t nc_first, nc_last; /* the non-cacheable section: [nc_first, nc_last] */
	uintptr_t ram_units;         /* RAM: [0, ram_units) */
};
static inline enum mmu_mem mmu_unit_mem(const struct mmu_plan *p, uintptr_t i)
{
	if (i >= p->p_first && i < p->p_last)
		return MMU_DEVICE;
	if (i >= p->nc_first && i <= p->nc_last)
		return MMU_NORMAL_NC;
	return i < p->ram_units ? MMU_NORMAL_WB : MMU_FAULT;
}
/* The system control register: SCTLR on ARMv6/v7 (MRC p15, 0, c1, c0, 0),
 * SCTLR_EL1 on ARMv8 (MRS). */
uint64_t cpu_sctlr_read(void);
/* MMU (M, bit 0), data cache (C, bit 2) and instruction cache (I, bit 12)
 * all on: the same bits in SCTLR and SCTLR_EL1 (Arm ARM DDI 0406C, SCTLR;
 * DDI 0487, SCTLR_EL1). */
static inline bool cpu_caches_on(void)
{
	const uint64_t on = (1u << 0) | (1u << 2) | (1u << 12);

	return (cpu_sctlr_read() & on) == on;
}
/* After cpu_mmu_enable: map [base, base + bytes) (in the low 4 GiB) as
 * normal uncached memory, e.g. the framebuffer the VideoCore scans out
 * (what the ARM writes must reach memory without cache maintenance). */
void cpu_mmu_map_uncached(uintptr_t base, uint32_t bytes);

#endif

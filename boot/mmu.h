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
bool cpu_caches_on(void);
/* After cpu_mmu_enable: map [base, base + bytes) (in the low 4 GiB) as
 * normal uncached memory, e.g. the framebuffer the VideoCore scans out
 * (what the ARM writes must reach memory without cache maintenance). */
void cpu_mmu_map_uncached(uintptr_t base, uint32_t bytes);

#endif

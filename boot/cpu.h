/*
 * cpu.h - CPU identification, caches and MMU, exception support, exit.
 */
#ifndef SDB_BOOT_CPU_H
#define SDB_BOOT_CPU_H

#include <stdbool.h>
#include <stdint.h>

enum cpu_kind {
	CPU_UNKNOWN = 0,
	CPU_ARM1176, /* Pi Zero / 1 (BCM2835), ARMv6 */
	CPU_CORTEX_A7,  /* Pi 2 (BCM2836) */
	CPU_CORTEX_A53, /* Pi 3 / Zero 2 (BCM2837) */
	CPU_CORTEX_A72, /* Pi 4 (BCM2711) */
};

uint32_t cpu_midr(void);
enum cpu_kind cpu_kind(void);
const char *cpu_name(enum cpu_kind k);
bool cpu_is_armv7(void); /* ARMv7 or later in AArch32 */

/* Identity-map the address space: RAM [0, ram_bytes) normal write-back
 * cacheable, the non-cacheable section from the linker script normal
 * uncached, [periph_base, periph_base + periph_bytes) device memory,
 * everything else a translation fault. Then enable MMU, I/D caches and
 * branch prediction. */
void cpu_mmu_enable(uint32_t ram_bytes, uintptr_t periph_base, uint32_t periph_bytes);
bool cpu_caches_on(void);

/* Run fn(arg) with undefined-instruction exceptions caught: returns false
 * if fn hit an undefined instruction (used to probe optional counters). */
bool cpu_probe(void (*fn)(void *), void *arg);

/* Exception frame as pushed by start.S. */
struct exc_frame {
	uint32_t spsr;
	uint32_t type;
	uint32_t r[13];
	uint32_t pc;
};

#endif

/*
 * cache.c - see cache.h.
 *
 * AArch32 (ARM1176 = ARMv6, Cortex-A7 = ARMv7, Cortex-A53/A72 in AArch32):
 * the CP15 c7 operations by MVA have the same encodings on ARMv6 and ARMv7
 * (ARMv6: ARM1176JZF-S TRM §3.2.22; ARMv7: DCCMVAC, DCIMVAC, DCCIMVAC), so
 * one sequence serves kernel.img on every board. The line size comes from
 * CTR: ARMv6 format (bit 31 clear: DSize.Len in bits 13:12, 8 << Len words
 * ... bytes) or ARMv7 format (DminLine in bits 19:16, log2 of words).
 * AArch64: DC CVAC / DC IVAC / DC CIVAC, line size from CTR_EL0.DminLine.
 */
#include "drivers/dma/cache.h"

#ifdef SDB_HOST

void (*cache_test_hook)(enum cache_op op, uintptr_t addr, size_t n);

uint32_t cache_line_bytes(void)
{
	return 64;
}

void cache_clean_range(const void *p, size_t n)
{
	if (cache_test_hook)
		cache_test_hook(CACHE_CLEAN, (uintptr_t)p, n);
}

void cache_invalidate_range(void *p, size_t n)
{
	if (cache_test_hook)
		cache_test_hook(CACHE_INVALIDATE, (uintptr_t)p, n);
}

#else

#ifdef __aarch64__

uint32_t cache_line_bytes(void)
{
	uint64_t ctr;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	return 4u << ((ctr >> 16) & 0xF);
}

#define DC_CLEAN(a)      __asm__ volatile("dc cvac, %0" : : "r"(a) : "memory")
#define DC_INVAL(a)      __asm__ volatile("dc ivac, %0" : : "r"(a) : "memory")
#define DC_CLEAN_INVAL(a) __asm__ volatile("dc civac, %0" : : "r"(a) : "memory")
#define DSB()            __asm__ volatile("dsb sy" ::: "memory")

#else

uint32_t cache_line_bytes(void)
{
	uint32_t ctr;

	__asm__ volatile("mrc p15, 0, %0, c0, c0, 1" : "=r"(ctr));
	if (ctr & 0x80000000u)
		return 4u << ((ctr >> 16) & 0xF); /* ARMv7 format: DminLine */
	return 8u << ((ctr >> 12) & 0x3);         /* ARMv6 format: DSize.Len */
}

#define DC_CLEAN(a)      __asm__ volatile("mcr p15, 0, %0, c7, c10, 1" : : "r"(a) : "memory")
#define DC_INVAL(a)      __asm__ volatile("mcr p15, 0, %0, c7, c6, 1" : : "r"(a) : "memory")
#define DC_CLEAN_INVAL(a) __asm__ volatile("mcr p15, 0, %0, c7, c14, 1" : : "r"(a) : "memory")
/* The ARMv6 CP15 DSB, also valid on ARMv7 and ARMv8 AArch32 (mmio.h). */
#define DSB()            __asm__ volatile("mcr p15, 0, %0, c7, c10, 4" : : "r"(0) : "memory")

#endif

void cache_clean_range(const void *p, size_t n)
{
	uintptr_t line = cache_line_bytes(), a = (uintptr_t)p & ~(line - 1), end = (uintptr_t)p + n;

	DSB(); /* the CPU's stores to the buffer before the cleans */
	for (; a < end; a += line)
		DC_CLEAN(a);
	DSB();
}

void cache_invalidate_range(void *p, size_t n)
{
	uintptr_t line = cache_line_bytes(), start = (uintptr_t)p, end = start + n;
	uintptr_t a = start & ~(line - 1);

	if (!n)
		return;
	DSB();
	for (; a < end; a += line) {
		/* Edge lines shared with other data: clean + invalidate. */
		if (a < start || a + line > end)
			DC_CLEAN_INVAL(a);
		else
			DC_INVAL(a);
	}
	DSB();
}

#endif

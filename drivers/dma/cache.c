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
#include <stdbool.h>

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

/* The loops below are the DMA paths' whole per-block CPU cost (16 lines
 * per 512-byte block with 32-byte lines): one operation and an add per
 * line, the loop test once per four lines. */
#define DC_LOOP(OP, a, count, line) do { \
	uintptr_t n_ = (count); \
	for (; n_ >= 4; n_ -= 4) { \
		OP(a); (a) += (line); OP(a); (a) += (line); \
		OP(a); (a) += (line); OP(a); (a) += (line); \
	} \
	for (; n_; n_--) { \
		OP(a); (a) += (line); \
	} \
} while (0)

#ifndef __aarch64__
/* ARMv6 (ARM1176, BCM2835: a 16 KiB data cache, no L2 on the ARM side):
 * above twice the cache, clean (and invalidate) the whole data cache with
 * one CP15 operation instead of a line at a time. Cleaning lines of other
 * data is harmless; nothing is discarded without being cleaned. ARMv7 and
 * later have no such operation to the point of coherency (their L2 is
 * outside the set/way operations of L1): by address only. */
#define V6_WHOLE_CACHE_BYTES (32u * 1024u)
#define DC_CLEAN_ALL()       __asm__ volatile("mcr p15, 0, %0, c7, c10, 0" : : "r"(0) : "memory")
#define DC_CLEAN_INVAL_ALL() __asm__ volatile("mcr p15, 0, %0, c7, c14, 0" : : "r"(0) : "memory")

static int is_armv6(void)
{
	uint32_t ctr;

	__asm__ volatile("mrc p15, 0, %0, c0, c0, 1" : "=r"(ctr));
	return !(ctr & 0x80000000u);
}
#endif

/* A large range on the ARM1176 (see V6_WHOLE_CACHE_BYTES): the whole data
 * cache cleaned (and invalidated when 'inval') instead, then a DSB. False
 * when the range goes line by line. */
static bool whole_cache(size_t n, bool inval)
{
#ifndef __aarch64__
	if (n >= V6_WHOLE_CACHE_BYTES && is_armv6()) {
		if (inval)
			DC_CLEAN_INVAL_ALL();
		else
			DC_CLEAN_ALL();
		DSB();
		return true;
	}
#else
	(void)n;
	(void)inval;
#endif
	return false;
}

void cache_clean_range(const void *p, size_t n)
{
	uintptr_t line = cache_line_bytes(), a = (uintptr_t)p & ~(line - 1), end = (uintptr_t)p + n;

	DSB(); /* the CPU's stores to the buffer before the cleans */
	if (whole_cache(n, false))
		return;
	if (n)
		DC_LOOP(DC_CLEAN, a, (end - a + line - 1) / line, line);
	DSB();
}

void cache_invalidate_range(void *p, size_t n)
{
	uintptr_t line = cache_line_bytes(), start = (uintptr_t)p, end = start + n;
	uintptr_t lo = start & ~(line - 1), hi = (end + line - 1) & ~(line - 1);

	if (!n)
		return;
	DSB();
	if (whole_cache(n, true))
		return;
	/* Edge lines shared with other data: clean + invalidate. */
	if (lo != start) {
		DC_CLEAN_INVAL(lo);
		lo += line;
	}
	if (hi != end && hi > lo) {
		hi -= line;
		DC_CLEAN_INVAL(hi);
	}
	if (hi > lo)
		DC_LOOP(DC_INVAL, lo, (hi - lo) / line, line);
	DSB();
}

#endif

/*
 * mmu.c - MMU and caches for ARM1176 (ARMv6) and
 * Cortex-A7/A53/A72 (ARMv7-A / ARMv8-A AArch32), one code path with small
 * per-architecture differences (ARM ARM B3/B4; ARM1176JZF-S TRM §3 and §6).
 *
 * Short-descriptor 1 MiB sections only. Not done here: L2 / SMP coherency
 * set-up (the firmware's stub sets ACTLR.SMP on the Cortex cores; secondary
 * cores stay parked), and cache maintenance for DMA (see the DMA driver).
 */
#include "boot/mmu.h"
#include "drivers/cpu.h"

extern uint32_t __ttb_start[];
extern char __nocache_start[], __nocache_end[];

/* Section descriptor fields (ARM ARM B3.5.1). */
#define SECT		(2u << 0)
#define SECT_B		(1u << 2)
#define SECT_C		(1u << 3)
#define SECT_XN		(1u << 4)
#define SECT_AP_RW	(3u << 10)
#define SECT_TEX(x)	((uint32_t)(x) << 12)
/* Normal, inner/outer write-back write-allocate: TEX=001 C=1 B=1. */
#define SECT_NORMAL_WB	(SECT | SECT_AP_RW | SECT_TEX(1) | SECT_C | SECT_B)
/* Normal, non-cacheable: TEX=001 C=0 B=0. */
#define SECT_NORMAL_NC	(SECT | SECT_AP_RW | SECT_TEX(1))
/* Shareable device: TEX=000 C=0 B=1, never executable. */
#define SECT_DEVICE	(SECT | SECT_AP_RW | SECT_B | SECT_XN)

/* SCTLR bits. */
#define SCTLR_M		(1u << 0)
#define SCTLR_A		(1u << 1)
#define SCTLR_C		(1u << 2)
#define SCTLR_Z		(1u << 11)
#define SCTLR_I		(1u << 12)
#define SCTLR_U		(1u << 22) /* ARMv6: unaligned access model (RES1 on v7) */
#define SCTLR_XP	(1u << 23) /* ARMv6: extended page tables, XN (RES1 on v7) */

static inline void dsb(void)
{
	__asm__ volatile("mcr p15, 0, %0, c7, c10, 4" : : "r"(0) : "memory");
}

static inline void isb(void)
{
	__asm__ volatile("mcr p15, 0, %0, c7, c5, 4" : : "r"(0) : "memory");
}

/* ARMv7: invalidate the data/unified caches by set/way, every level
 * (ARM ARM B4.2.1 example; the cache may hold garbage after reset). */
static void v7_dcache_invalidate_all(void)
{
	uint32_t clidr, level;

	__asm__ volatile("mrc p15, 1, %0, c0, c0, 1" : "=r"(clidr));
	for (level = 0; level < 7; level++) {
		uint32_t ctype = (clidr >> (level * 3)) & 7;
		uint32_t ccsidr, line_shift, ways, sets, way_shift, w, s;

		if (ctype == 0)
			break;
		if (ctype < 2)
			continue; /* instruction cache only */
		__asm__ volatile("mcr p15, 2, %0, c0, c0, 0" : : "r"(level << 1));
		isb();
		__asm__ volatile("mrc p15, 1, %0, c0, c0, 0" : "=r"(ccsidr));
		line_shift = (ccsidr & 7) + 4;
		ways = ((ccsidr >> 3) & 0x3ff) + 1;
		sets = ((ccsidr >> 13) & 0x7fff) + 1;
		way_shift = (uint32_t)__builtin_clz(ways - 1);
		if (ways == 1)
			way_shift = 0;
		for (w = 0; w < ways; w++)
			for (s = 0; s < sets; s++) {
				uint32_t sw = (level << 1) | (s << line_shift) |
					      (ways > 1 ? (w << way_shift) : 0);

				__asm__ volatile("mcr p15, 0, %0, c7, c6, 2" : : "r"(sw));
			}
	}
	dsb();
}

/* The descriptor bits of each memory type, in the order of enum mmu_mem. */
static const uint32_t mem_attr[MMU_MEM_N] = { 0, SECT_DEVICE, SECT_NORMAL_NC, SECT_NORMAL_WB };

uint64_t cpu_sctlr_read(void)
{
	uint32_t v;

	__asm__ volatile("mrc p15, 0, %0, c1, c0, 0" : "=r"(v));
	return v;
}

void cpu_mmu_enable(uint32_t ram_bytes, uintptr_t periph_base, uint32_t periph_bytes,
		    uint32_t local_base)
{
	uint32_t i, sctlr;
	uint32_t *ttb = __ttb_start;
	uint32_t p_first = (uint32_t)periph_base >> 20;
	const struct mmu_plan plan = {
		.p_first = p_first,
		.p_last = p_first + (periph_bytes >> 20),
		.nc_first = (uint32_t)(uintptr_t)__nocache_start >> 20,
		.nc_last = ((uint32_t)(uintptr_t)__nocache_end - 1) >> 20,
		.ram_units = ram_bytes >> 20,
	};

	for (i = 0; i < 4096; i++) {
		enum mmu_mem k = mmu_unit_mem(&plan, i);

		ttb[i] = k == MMU_FAULT ? 0 : (i << 20) | mem_attr[k]; /* 0: translation fault */
	}
	/* The ARM local peripherals (platform/<soc>.c: the BCM2836/7's at
	 * 0x40000000, the BCM2711's at 0xff800000). */
	if (local_base)
		ttb[local_base >> 20] = (local_base & 0xfff00000u) | SECT_DEVICE;

	dsb();
	if (cpu_is_armv7()) {
		v7_dcache_invalidate_all();
	} else {
		/* ARM1176: invalidate both caches (c7, c7, 0). */
		__asm__ volatile("mcr p15, 0, %0, c7, c7, 0" : : "r"(0));
	}
	__asm__ volatile("mcr p15, 0, %0, c7, c5, 0" : : "r"(0)); /* ICIALLU */
	__asm__ volatile("mcr p15, 0, %0, c8, c7, 0" : : "r"(0)); /* TLBIALL */
	__asm__ volatile("mcr p15, 0, %0, c2, c0, 2" : : "r"(0)); /* TTBCR: TTBR0 only */
	__asm__ volatile("mcr p15, 0, %0, c2, c0, 0" : : "r"((uint32_t)(uintptr_t)ttb));
	__asm__ volatile("mcr p15, 0, %0, c3, c0, 0" : : "r"(0x1u)); /* domain 0: client */
	dsb();
	isb();

	sctlr = (uint32_t)cpu_sctlr_read();
	sctlr &= ~SCTLR_A;
	sctlr |= SCTLR_M | SCTLR_C | SCTLR_I | SCTLR_Z;
	if (!cpu_is_armv7())
		sctlr |= SCTLR_U | SCTLR_XP;
	__asm__ volatile("mcr p15, 0, %0, c1, c0, 0" : : "r"(sctlr) : "memory");
	isb();
}

void cpu_mmu_map_uncached(uintptr_t base, uint32_t bytes)
{
	uint32_t *ttb = __ttb_start;
	uint32_t i, first = (uint32_t)base >> 20, last = (uint32_t)(base + bytes - 1) >> 20;

	if (!bytes)
		return;
	for (i = first; i <= last && i < 4096; i++)
		ttb[i] = (i << 20) | SECT_NORMAL_NC;
	dsb();
	__asm__ volatile("mcr p15, 0, %0, c8, c7, 0" : : "r"(0) : "memory"); /* TLBIALL */
	dsb();
	isb();
}

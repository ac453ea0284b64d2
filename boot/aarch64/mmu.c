/*
 * mmu.c - MMU and caches for AArch64 at EL1 (Cortex-A53/A72), the
 * counterpart of boot/mmu.c (ARM ARM D5: VMSAv8-64).
 *
 * A 4 KiB-granule identity map of the low 4 GiB (TCR_EL1.T0SZ = 32, so the
 * walk starts at level 1): one level-1 table of four 1 GiB entries, each
 * pointing to a level-2 table of 512 2 MiB blocks. RAM is normal
 * write-back (inner and outer, read/write-allocate, inner shareable), the
 * linker script's non-cacheable region normal non-cacheable, the
 * peripherals and the ARM local peripherals Device-nGnRnE and never
 * executable, everything else a translation fault.
 *
 * BCM2712 (Pi 5): its peripherals lie above 4 GiB (0x10_0000_0000 ..
 * 0x10_7FFF_FFFF: the SD slot controller, the legacy block with the system
 * timer, mailbox and debug UART). The walk then covers 512 GiB (T0SZ =
 * 25, still starting at level 1, 40-bit physical addresses): level-1
 * entries 64 and 65 are 1 GiB Device-nGnRnE blocks, the low 4 GiB as
 * above. Not verified on a Pi 5 (no emulator models one).
 *
 * Not done here, as in the AArch32 build: SMP coherency for secondary
 * cores (they stay parked) and cache maintenance for DMA.
 */
#include "boot/mmu.h"
#include "drivers/cpu.h"

extern uint64_t __ttb_start[];
extern char __nocache_start[], __nocache_end[];

#define BLOCK_SHIFT	21 /* 2 MiB */
#define N_BLOCKS	2048 /* 4 GiB */

/* MAIR_EL1 attribute indexes. */
#define ATTR_DEVICE	0 /* 0x00: Device-nGnRnE */
#define ATTR_NORMAL_WB	1 /* 0xff: normal, inner/outer WB RW-allocate */
#define ATTR_NORMAL_NC	2 /* 0x44: normal, inner/outer non-cacheable */
#define MAIR_VALUE	((0x00ull << (8 * ATTR_DEVICE)) | (0xffull << (8 * ATTR_NORMAL_WB)) | \
			 (0x44ull << (8 * ATTR_NORMAL_NC)))

/* Level-1/2 descriptor fields (ARM ARM D5.3). */
#define DESC_BLOCK	1ull
#define DESC_TABLE	3ull
#define DESC_ATTR(i)	((uint64_t)(i) << 2)
#define DESC_SH_INNER	(3ull << 8)
#define DESC_AF		(1ull << 10)
#define DESC_PXN	(1ull << 53)
#define DESC_UXN	(1ull << 54)
#define BLK_NORMAL_WB	(DESC_BLOCK | DESC_ATTR(ATTR_NORMAL_WB) | DESC_SH_INNER | DESC_AF)
#define BLK_NORMAL_NC	(DESC_BLOCK | DESC_ATTR(ATTR_NORMAL_NC) | DESC_SH_INNER | DESC_AF)
#define BLK_DEVICE	(DESC_BLOCK | DESC_ATTR(ATTR_DEVICE) | DESC_AF | DESC_PXN | DESC_UXN)

/* TCR_EL1: T0SZ = 32 (4 GiB), table walks inner/outer WB-cacheable and
 * inner shareable, 4 KiB granule for TTBR0; no TTBR1 walks (EPD1); IPS =
 * 32-bit physical addresses. */
#define TCR_VALUE	((32ull << 0) | (1ull << 8) | (1ull << 10) | (3ull << 12) | \
			 (0ull << 14) | (1ull << 23) | (0ull << 32))
/* The same with T0SZ = 25 (512 GiB) and IPS = 40 bits, for the BCM2712. */
#define TCR_VALUE_HIGH	((25ull << 0) | (1ull << 8) | (1ull << 10) | (3ull << 12) | \
			 (0ull << 14) | (1ull << 23) | (2ull << 32))
#define HIGH_IO_FIRST	64 /* 0x10_0000_0000 in 1 GiB level-1 entries */
#define HIGH_IO_LAST	65 /* up to 0x10_7FFF_FFFF */

#define SCTLR_M		(1ull << 0)
#define SCTLR_A		(1ull << 1)
#define SCTLR_C		(1ull << 2)
#define SCTLR_I		(1ull << 12)

#define SYSREG_READ(name, v) __asm__ volatile("mrs %0, " #name : "=r"(v))
#define SYSREG_WRITE(name, v) __asm__ volatile("msr " #name ", %0" : : "r"((uint64_t)(v)) : "memory")

static inline void dsb_sy(void)
{
	__asm__ volatile("dsb sy" ::: "memory");
}

static inline void isb(void)
{
	__asm__ volatile("isb" ::: "memory");
}

/* Invalidate the data/unified caches by set/way, every level (the caches
 * may hold garbage while they are off; ARM ARM D4.4.7). */
static void dcache_invalidate_all(void)
{
	uint64_t clidr, ccsidr;
	uint32_t level;

	SYSREG_READ(clidr_el1, clidr);
	for (level = 0; level < 7; level++) {
		uint32_t ctype = (uint32_t)(clidr >> (level * 3)) & 7;
		uint32_t line_shift, ways, sets, way_shift, w, s;

		if (ctype == 0)
			break;
		if (ctype < 2)
			continue; /* instruction cache only */
		SYSREG_WRITE(csselr_el1, level << 1);
		isb();
		SYSREG_READ(ccsidr_el1, ccsidr);
		line_shift = (uint32_t)(ccsidr & 7) + 4;
		ways = (uint32_t)((ccsidr >> 3) & 0x3ff) + 1;
		sets = (uint32_t)((ccsidr >> 13) & 0x7fff) + 1;
		way_shift = ways > 1 ? (uint32_t)__builtin_clz(ways - 1) : 0;
		for (w = 0; w < ways; w++)
			for (s = 0; s < sets; s++) {
				uint64_t sw = (level << 1) | ((uint64_t)s << line_shift) |
					      (ways > 1 ? ((uint64_t)w << way_shift) : 0);

				__asm__ volatile("dc isw, %0" : : "r"(sw) : "memory");
			}
	}
	dsb_sy();
}

/* The descriptor bits of each memory type, in the order of enum mmu_mem. */
static const uint64_t mem_attr[MMU_MEM_N] = { 0, BLK_DEVICE, BLK_NORMAL_NC, BLK_NORMAL_WB };

uint64_t cpu_sctlr_read(void)
{
	uint64_t v;

	SYSREG_READ(sctlr_el1, v);
	return v;
}

void cpu_mmu_enable(uint32_t ram_bytes, uintptr_t periph_base, uint32_t periph_bytes,
		    uint32_t local_base)
{
	uint64_t *l1 = __ttb_start;
	uint64_t *l2 = __ttb_start + 512;
	bool high = periph_base > 0xffffffffu;
	uintptr_t p_first = high ? 0 : periph_base >> BLOCK_SHIFT;
	const struct mmu_plan plan = {
		.p_first = p_first,
		.p_last = high ? 0 : p_first + (periph_bytes >> BLOCK_SHIFT),
		.nc_first = (uintptr_t)__nocache_start >> BLOCK_SHIFT,
		.nc_last = ((uintptr_t)__nocache_end - 1) >> BLOCK_SHIFT,
		.ram_units = ram_bytes >> BLOCK_SHIFT,
	};
	uintptr_t i;
	uint64_t sctlr;

	for (i = 0; i < 512; i++)
		l1[i] = i < 4 ? ((uint64_t)(uintptr_t)(l2 + 512 * i) | DESC_TABLE) : 0;
	if (high)
		for (i = HIGH_IO_FIRST; i <= HIGH_IO_LAST; i++)
			l1[i] = ((uint64_t)i << 30) | BLK_DEVICE;
	for (i = 0; i < N_BLOCKS; i++) {
		enum mmu_mem k = mmu_unit_mem(&plan, i);

		/* 0: a translation fault */
		l2[i] = k == MMU_FAULT ? 0 : ((uint64_t)i << BLOCK_SHIFT) | mem_attr[k];
	}
	/* The ARM local peripherals (platform/<soc>.c: the BCM2836/7's at
	 * 0x40000000, the BCM2711's and its GIC at 0xff800000). */
	if (local_base)
		l2[local_base >> BLOCK_SHIFT] =
			((uint64_t)local_base & ~(((uint64_t)1 << BLOCK_SHIFT) - 1)) | BLK_DEVICE;

	dsb_sy();
	dcache_invalidate_all();
	__asm__ volatile("ic iallu" ::: "memory");
	__asm__ volatile("tlbi vmalle1" ::: "memory");
	dsb_sy();
	SYSREG_WRITE(mair_el1, MAIR_VALUE);
	SYSREG_WRITE(tcr_el1, high ? TCR_VALUE_HIGH : TCR_VALUE);
	SYSREG_WRITE(ttbr0_el1, (uintptr_t)l1);
	isb();

	sctlr = cpu_sctlr_read();
	sctlr &= ~SCTLR_A;
	sctlr |= SCTLR_M | SCTLR_C | SCTLR_I;
	SYSREG_WRITE(sctlr_el1, sctlr);
	isb();
}

void cpu_mmu_map_uncached(uintptr_t base, uint32_t bytes)
{
	uint64_t *l2 = __ttb_start + 512;
	uintptr_t i, first = base >> BLOCK_SHIFT, last = (base + bytes - 1) >> BLOCK_SHIFT;

	if (!bytes)
		return;
	for (i = first; i <= last && i < N_BLOCKS; i++)
		l2[i] = ((uint64_t)i << BLOCK_SHIFT) | BLK_NORMAL_NC;
	dsb_sy();
	__asm__ volatile("tlbi vmalle1" ::: "memory");
	dsb_sy();
	isb();
}

/*
 * cache.h - data-cache maintenance for buffers a DMA master reads or writes
 * (the BCM2835 DMA engine, the EMMC2's ADMA2), on every core the project
 * runs on.
 *
 * The rule (ARM ARM, "Data cache maintenance"; what Linux's
 * dma_map_single does for DMA_TO_DEVICE / DMA_FROM_DEVICE):
 *   - before a DMA master reads memory (a write to the card): clean the
 *     buffer's lines, so the master sees what the CPU wrote;
 *   - before and after a DMA master writes memory (a read from the card):
 *     invalidate the lines, so no dirty line is evicted over the data and the
 *     CPU does not read stale lines afterwards.
 * A buffer that does not start and end on a cache line shares its edge lines
 * with other data: cache_invalidate_range() cleans and invalidates those two
 * lines instead of discarding them (the caller's neighbours survive; the DMA
 * data in those lines is then only correct if the CPU did not touch them
 * while the transfer ran, which the drivers guarantee by not using them).
 *
 * Every function ends with a DSB, so the maintenance is complete before the
 * caller starts (or reads the result of) the transfer.
 *
 * Host builds (SDB_HOST): no cache; each call is passed to cache_test_hook
 * when one is set, so tests can check which ranges were maintained and in
 * which order relative to the controller's register writes.
 */
#ifndef SDB_DRIVERS_DMA_CACHE_H
#define SDB_DRIVERS_DMA_CACHE_H

#include <stddef.h>
#include <stdint.h>

enum cache_op {
	CACHE_CLEAN = 1,      /* write dirty lines back; keep them */
	CACHE_INVALIDATE = 2, /* discard lines (edges: clean + invalidate) */
};

/* The smallest data-cache line of this core, in bytes (CTR). */
uint32_t cache_line_bytes(void);

/* Before a DMA master reads [p, p+n). */
void cache_clean_range(const void *p, size_t n);

/* Before and after a DMA master writes [p, p+n). */
void cache_invalidate_range(void *p, size_t n);

#ifdef SDB_HOST
extern void (*cache_test_hook)(enum cache_op op, uintptr_t addr, size_t n);
#endif

#endif

/*
 * dma_addr.c - see dma_addr.h.
 */
#include "drivers/dma/dma_addr.h"

#ifdef SDB_HOST

uint64_t (*dma_phys_test_hook)(const void *p, size_t n);

uint64_t dma_arm_phys(const void *p, size_t n)
{
	return dma_phys_test_hook ? dma_phys_test_hook(p, n) : DMA_PHYS_NONE;
}

#else

uint64_t dma_arm_phys(const void *p, size_t n)
{
	(void)n;
	return (uint64_t)(uintptr_t)p;
}

#endif

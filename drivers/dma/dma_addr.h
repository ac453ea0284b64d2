/*
 * dma_addr.h - the ARM physical address of a buffer, for programming a DMA
 * master (the EMMC2's ADMA2 descriptors). Each master then adds its own
 * view of ARM memory (a bus offset and window, e.g. the EMMC2's emmc2bus
 * dma-ranges; see drivers/sdhci/bcm2711_emmc2.c).
 *
 * Target builds: the MMU maps memory flat (boot/mmu.c, boot/aarch64/mmu.c:
 * identity maps), so the physical address is the pointer.
 *
 * Host builds (SDB_HOST): pointers are host addresses, not ARM physical
 * ones. dma_phys_test_hook, when set (the simulator's memory map), gives
 * the ARM physical address the simulated machine uses for [p, p+n); without
 * it there is no DMA-able memory and DMA_PHYS_NONE is returned.
 */
#ifndef SDB_DRIVERS_DMA_ADDR_H
#define SDB_DRIVERS_DMA_ADDR_H

#include <stddef.h>
#include <stdint.h>

#define DMA_PHYS_NONE UINT64_MAX

/* ARM physical address of p, valid for the n bytes that follow. */
uint64_t dma_arm_phys(const void *p, size_t n);

#ifdef SDB_HOST
extern uint64_t (*dma_phys_test_hook)(const void *p, size_t n);
#endif

#endif

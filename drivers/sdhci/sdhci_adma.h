/*
 * sdhci_adma.h - ADMA2 descriptor tables of the SDHCI core (SD Host
 * Controller Simplified Specification 3.00 §1.13): building the 32-bit
 * descriptor table for one contiguous buffer, and finding the descriptor
 * an ADMA error points at. Pure functions (no registers); sdhci.c
 * programs the controller.
 */
#ifndef SDB_DRIVERS_SDHCI_ADMA_H
#define SDB_DRIVERS_SDHCI_ADMA_H

#include <stdint.h>

/* Descriptors (8 bytes each) a table needs for len bytes: one per 64 KiB. */
uint32_t sdhci_adma_desc_count(uint32_t len);

/* Fill tbl (2 words per descriptor, little-endian in memory) with "tran"
 * descriptors covering len bytes from bus address addr, at most 64 KiB
 * each (a 65536-byte descriptor has length field 0), the last one with
 * END. Returns the number of descriptors, or -EINVAL when len is 0, addr
 * is not 4-byte aligned, the range wraps the 32-bit bus, or more than
 * max_desc descriptors would be needed. */
int sdhci_adma_build(uint32_t *tbl, uint32_t max_desc, uint32_t addr,
		     uint32_t len);

/* The descriptor an ADMA error names (SDHCI 3.00 §2.2.29): in state
 * ST_FDS the ADMA System Address points at the descriptor that failed to
 * be fetched or was invalid; in ST_TFR and ST_STOP at the one after the
 * descriptor being executed. tbl_addr is the table's bus address, n its
 * length in descriptors. Returns the index of the failing descriptor, or
 * -1 when the address is outside the table. *desc_addr gets its bus
 * address. */
int sdhci_adma_failing_desc(uint32_t adma_err, uint32_t sys_addr,
			    uint32_t tbl_addr, uint32_t n, uint32_t *desc_addr);

/* 64-bit ADMA2 (SDHCI 3.00 §1.13.4, Host Control 1 DMA Select 11b): the
 * same tables with 96-bit descriptors, three words each (attribute and
 * length, address [31:0], address [63:32]), packed at a 12-byte stride
 * (4-byte aligned). Returns the number of descriptors, or -EINVAL when
 * len is 0, addr is not 4-byte aligned, the range wraps the 64-bit bus,
 * or more than max_desc descriptors would be needed. */
int sdhci_adma_build64(uint32_t *tbl, uint32_t max_desc, uint64_t addr,
		       uint32_t len);

/* sdhci_adma_failing_desc for descriptors of desc_sz bytes
 * (SDHCI_ADMA_DESC32_SZ or SDHCI_ADMA_DESC64_SZ) and 64-bit addresses. */
int sdhci_adma_failing_desc_sz(uint32_t adma_err, uint64_t sys_addr,
			       uint64_t tbl_addr, uint32_t n, uint32_t desc_sz,
			       uint64_t *desc_addr);

#endif

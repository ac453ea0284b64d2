/*
 * bcm2835_emmc.h - the Arasan EMMC controller of the BCM2835/6/7 (Pi 0-3,
 * ARM peripheral base + 0x300000) as an SDHCI host: the generic core
 * (sdhci.h) with this SoC's quirk set.
 */
#ifndef SDB_DRIVERS_SDHCI_BCM2835_EMMC_H
#define SDB_DRIVERS_SDHCI_BCM2835_EMMC_H

#include <stdint.h>

#include "drivers/dma/bcm2835_dma.h"
#include "drivers/sdhci/sdhci.h"

#define BCM2835_EMMC_NAME "emmc"   /* host->name, sdbench.txt "host" */
#define BCM2835_EMMC_ARM_OFFSET 0x300000u /* from the ARM peripheral base */

/* sdhci_host_init() with the BCM2835 EMMC quirks. base_clock_hz: the
 * mailbox's EMMC clock (id 1) on hardware, 0 under QEMU and the simulator
 * (from CAPABILITIES). */
int bcm2835_emmc_init(struct sdhci_host *sh, uintptr_t base, uint32_t base_clock_hz);

/* Offer the DMA data path through channel c of the DMA engine (initialised
 * by dma_chan_init; NULL or a channel that failed: PIO only). The caller
 * owns c for as long as the host lives. */
void bcm2835_emmc_attach_dma(struct sdhci_host *sh, struct dma_chan *c, uint8_t dreq);

#endif

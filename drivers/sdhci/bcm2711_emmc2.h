/*
 * bcm2711_emmc2.h - the EMMC2 controller of the BCM2711 (Pi 4 / 400 / CM4,
 * ARM peripheral base + 0x340000), which serves the SD card slot, as an
 * SDHCI host: the generic core (sdhci.h) with this SoC's quirk set. The
 * legacy Arasan EMMC of the BCM2711 (base + 0x300000) drives the Wi-Fi
 * chip and is never probed for the card.
 */
#ifndef SDB_DRIVERS_SDHCI_BCM2711_EMMC2_H
#define SDB_DRIVERS_SDHCI_BCM2711_EMMC2_H

#include <stdint.h>

#include "drivers/sdhci/sdhci.h"

#define BCM2711_EMMC2_NAME "emmc2" /* host->name, sdbench.txt "host" */
#define BCM2711_EMMC2_ARM_OFFSET 0x340000u /* from the ARM peripheral base */

/* sdhci_host_init() with the BCM2711 EMMC2 quirks. base_clock_hz: the
 * mailbox's EMMC2 clock (id 12) on hardware, 0 under QEMU (from
 * CAPABILITIES). */
int bcm2711_emmc2_init(struct sdhci_host *sh, uintptr_t base, uint32_t base_clock_hz);

#endif

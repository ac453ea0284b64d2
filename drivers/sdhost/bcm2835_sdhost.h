/*
 * bcm2835_sdhost.h - the BCM2835/6/7 SDHOST controller (Pi 0-3, ARM
 * peripheral base + 0x202000) behind struct sd_host_ops. It is the
 * controller the Pi firmware itself reads the card with on the Pi 3 and
 * Zero W; GPIO 48-53 on ALT0 route the slot to it (the BCM2835's slot
 * wiring, platform/bcm2835.h, built by platform/slot.c).
 *
 * The caller owns the state (struct bcm2835_sdhost): no singleton.
 */
#ifndef SDB_DRIVERS_SDHOST_BCM2835_SDHOST_H
#define SDB_DRIVERS_SDHOST_BCM2835_SDHOST_H

#include <stdint.h>

#include "drivers/dma/bcm2835_dma.h"
#include "drivers/sd/sd_host.h"

#define BCM2835_SDHOST_NAME "sdhost" /* host->name, sdbench.txt "host" */
#define BCM2835_SDHOST_ARM_OFFSET 0x202000u /* from the ARM peripheral base */

struct bcm2835_sdhost_priv {
	uintptr_t base;
	uint32_t hcfg;    /* SDHCFG as last written */
	uint32_t cdiv;    /* SDCDIV as last written */
	uint32_t req_hz;  /* the clock last asked for */
	struct dma_chan *dma; /* the DMA path's channel (NULL: PIO only) */
	bool dma_on;      /* host.data_path == SD_PATH_DMA */
	uint32_t dma_pio; /* DMA-path requests that went by PIO (buffer not
			   * on cache lines, or too short) */
	bool fill_unsure; /* the probe did not find SDEDM's fill live
			   * (host.fill_look): the PIO seams are undecided */
};

struct bcm2835_sdhost {
	struct sd_host host; /* what the card layer uses */
	struct bcm2835_sdhost_priv priv;
};

/* Bind s->host to the SDHOST at 'base'. core_clock_hz: the VideoCore core
 * clock (mailbox clock id 4), the controller's input clock. -ENODEV when
 * it is 0. Touches no register (reset() does). */
int bcm2835_sdhost_init(struct bcm2835_sdhost *s, uintptr_t base,
			uint32_t core_clock_hz);

/* The DMA engine as the data path (set_data_path SD_PATH_DMA): a channel
 * that dma_chan_init took (the caller owns it; c NULL or without a channel:
 * PIO only). The engine moves the data between the buffer and SDDATA (bus
 * address 0x7E202040), paced by DREQ 13; a read's last words (below the
 * FIFO's read threshold, for which the controller raises no DREQ) are read
 * by the CPU once the engine has ended. Buffers the engine cannot maintain
 * safely (dma_buffer_ok) go by PIO. */
void bcm2835_sdhost_attach_dma(struct bcm2835_sdhost *s, struct dma_chan *c, uint8_t dreq);

/* The divider for 'hz' from a core clock (f = core / (CDIV + 2), never
 * above hz, CDIV at most 0x7FF) and the frequency it gives. */
uint32_t bcm2835_sdhost_clock_for(uint32_t core_clock_hz, uint32_t hz,
				  uint32_t *cdiv);

#endif

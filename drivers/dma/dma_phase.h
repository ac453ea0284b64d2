/*
 * dma_phase.h - a controller's data phase through a DMA mover, the part
 * both controllers' drivers share (drivers/sdhci/sdhci.c with the EMMC's
 * external mover, drivers/sdhost/bcm2835_sdhost.c with the DMA engine):
 * the mover started, the bounded wait that watches the controller's error
 * bits, the stamps of the CPU's part, and the error named with the
 * controller's status. What is the controller's own (its status register,
 * its recovery, a read's last words from the FIFO, the end stamps) stays in
 * its driver, behind struct dma_phase.
 */
#ifndef SDB_DRIVERS_DMA_PHASE_H
#define SDB_DRIVERS_DMA_PHASE_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/dma/bcm2835_dma.h"
#include "drivers/sd/sd_host.h"

/* One controller's side of the phase; ctx is handed back to each hook. */
struct dma_phase {
	/* Start moving req->data between its buffer and the data port: 0
	 * started; -EAGAIN: this buffer goes by PIO; another -errno: failed
	 * (the text from engine_error). */
	int (*start)(void *ctx, const struct sd_request *req);
	/* Wait for the end, bounded by progress (dma_wait_progress's
	 * contract, bcm2835_dma.h). */
	int (*wait)(void *ctx, struct dma_watch *w);
	const char *(*engine_error)(void *ctx);   /* the mover's last failure */
	uint32_t (*status)(void *ctx);            /* the controller's status, for req->err */
	int (*status_err)(uint32_t status);       /* its error bits as an -errno */
	void (*recover)(void *ctx, bool is_read); /* the controller back to idle */
	void *ctx;
};

/*
 * The phase up to the mover's end. w: block_us (one block's bound) and
 * host_errors (the controller's error bits, polled) set by the caller.
 * Stamps t0 before the start: req->t.host_ticks is the start's cost (cache
 * maintenance, control blocks) and req->t.t_first_data its end; after the
 * wait w->t_poll is the start of the poll that saw the end, the caller's to
 * book (the end stamps differ per controller). Returns 0 (the mover ended),
 * 1 (this buffer goes by PIO: nothing started) or the error code with
 * req->err filled in: the controller's error ("read data (DMA)" with its
 * status) or the mover's (its text, with the status at that moment); the
 * controller is recovered then.
 */
int dma_phase_run(const struct dma_phase *ph, struct sd_request *req, struct dma_watch *w);

#endif

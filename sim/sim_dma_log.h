/*
 * sim_dma_log.h - one ordered log of the cache-maintenance calls
 * (cache_test_hook) and the CPU's writes to DMA engine registers
 * (sim_dma_write_hook), with the simulator's data-port counters at each
 * event: the DMA tests check that maintenance, control-block cleaning, the
 * start write and the data moved come in the order the hardware needs.
 */
#ifndef SDB_TESTS_SIM_DMA_LOG_H
#define SDB_TESTS_SIM_DMA_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

enum sim_dma_ev_kind { SIM_EV_CLEAN, SIM_EV_INVAL, SIM_EV_WRITE };

struct sim_dma_ev {
	enum sim_dma_ev_kind kind;
	uintptr_t a;			/* address (cache) or register (write) */
	size_t n;			/* length (cache) */
	uint32_t v;			/* value (write) */
	uint32_t words_in;		/* DMA model: words read from the EMMC's port so far */
	struct sim_sdhost_stats port;	/* SDHOST model: who had moved which words */
};

#define SIM_DMA_LOG_MAX 4096
extern struct sim_dma_ev sim_dma_evs[SIM_DMA_LOG_MAX];
extern unsigned sim_dma_nev;

void sim_dma_log_start(void);	/* empty the log, attach both hooks */
void sim_dma_log_stop(void);	/* detach them */
/* Index of the first event at or after 'from' of kind k at a (for writes,
 * with any bit of vmask set in the value when vmask is not 0), or -1. */
int sim_dma_log_find(unsigned from, enum sim_dma_ev_kind k, uintptr_t a, uint32_t vmask);

#endif

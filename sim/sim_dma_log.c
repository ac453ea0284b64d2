/*
 * sim_dma_log.c - see sim_dma_log.h.
 */
#include "drivers/dma/cache.h"
#include "sim/sim_dma_log.h"

struct sim_dma_ev sim_dma_evs[SIM_DMA_LOG_MAX];
unsigned sim_dma_nev;

static void log_ev(enum sim_dma_ev_kind k, uintptr_t a, size_t n, uint32_t v)
{
	struct sim_dma_stats st;
	struct sim_dma_ev *e;

	if (sim_dma_nev >= SIM_DMA_LOG_MAX)
		return;
	e = &sim_dma_evs[sim_dma_nev++];
	sim_dma_get_stats(&st);
	*e = (struct sim_dma_ev){ k, a, n, v, st.words_from_port, { 0, 0, 0, 0 } };
	sim_sdhost_get_stats(&e->port);
}

static void cache_hook(enum cache_op op, uintptr_t a, size_t n)
{
	log_ev(op == CACHE_CLEAN ? SIM_EV_CLEAN : SIM_EV_INVAL, a, n, 0);
}

static void write_hook(uintptr_t a, uint32_t v)
{
	log_ev(SIM_EV_WRITE, a, 0, v);
}

void sim_dma_log_start(void)
{
	sim_dma_nev = 0;
	cache_test_hook = cache_hook;
	sim_dma_write_hook = write_hook;
}

void sim_dma_log_stop(void)
{
	cache_test_hook = NULL;
	sim_dma_write_hook = NULL;
}

int sim_dma_log_find(unsigned from, enum sim_dma_ev_kind k, uintptr_t a, uint32_t vmask)
{
	unsigned i;

	for (i = from; i < sim_dma_nev; i++) {
		if (sim_dma_evs[i].kind != k || sim_dma_evs[i].a != a)
			continue;
		if (k == SIM_EV_WRITE && vmask && !(sim_dma_evs[i].v & vmask))
			continue;
		return (int)i;
	}
	return -1;
}

/*
 * sim_dma.c - the simulated machine's memory as a DMA master sees it (see
 * sim.h, "DMA view of memory"): a ring of mappings from host buffers to ARM
 * physical addresses, installed as drivers/dma/dma_addr.h's hook, and the
 * reverse lookup the controller's ADMA2 engine uses for its bus addresses
 * (after removing the configured dma_offset, inside dma_window).
 */
#include <string.h>

#include "drivers/dma/dma_addr.h"
#include "sim/sim_internal.h"

#define MAX_MAPS 1024
#define PHYS_FIRST 0x00100000u /* the first mapping: 1 MiB */

static struct map {
	uintptr_t host;
	uint64_t phys;
	size_t len;
} maps[MAX_MAPS];
static unsigned nmaps, next_slot;
static uint64_t next_phys;
static uint64_t descs_fetched, bytes_moved;

static uint64_t map_hook(const void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p;
	uint64_t phys;
	unsigned i;

	for (i = 0; i < nmaps; i++)
		if (a >= maps[i].host && a + n <= maps[i].host + maps[i].len)
			return maps[i].phys + (a - maps[i].host);
	/* A new mapping, 4 KiB apart from the last, with the pointer's offset
	 * in its page (alignment and cache-line sharing stay what they are). */
	phys = ((next_phys + 0xFFFu) & ~(uint64_t)0xFFFu) + (a & 0xFFFu);
	if (next_phys < sim_get_config()->dma_window &&
	    phys + n > sim_get_config()->dma_window && nmaps) {
		/* Out of the window: start again at the bottom. No transfer
		 * is running (the driver asks before it starts one). */
		nmaps = next_slot = 0;
		phys = PHYS_FIRST + (a & 0xFFFu);
	}
	maps[next_slot].host = a;
	maps[next_slot].phys = phys;
	maps[next_slot].len = n;
	next_slot = (next_slot + 1) % MAX_MAPS;
	if (nmaps < MAX_MAPS)
		nmaps++;
	next_phys = phys + n;
	return phys;
}

void sim_dma_reset(void)
{
	nmaps = next_slot = 0;
	next_phys = PHYS_FIRST;
	descs_fetched = bytes_moved = 0;
	dma_phys_test_hook = map_hook;
}

void sim_dma_place_next(uint64_t phys)
{
	next_phys = phys;
}

uint8_t *sim_dma_bus_to_host(uint64_t bus, uint32_t n)
{
	const struct sim_config *c = sim_get_config();
	uint64_t phys;

	if (bus < c->dma_offset)
		return NULL;
	phys = bus - c->dma_offset;
	if (phys + n > c->dma_window)
		return NULL;
	return sim_dma_phys_to_host(phys, n);
}

uint8_t *sim_dma_phys_to_host(uint64_t phys, uint32_t n)
{
	unsigned i;

	for (i = 0; i < nmaps; i++)
		if (phys >= maps[i].phys && phys + n <= maps[i].phys + maps[i].len)
			return (uint8_t *)(maps[i].host + (uintptr_t)(phys - maps[i].phys));
	return NULL;
}

void sim_dma_count(uint32_t descs, uint32_t bytes)
{
	descs_fetched += descs;
	bytes_moved += bytes;
}

uint64_t sim_dma_desc_fetched(void)
{
	return descs_fetched;
}

uint64_t sim_dma_bytes(void)
{
	return bytes_moved;
}

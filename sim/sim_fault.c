/*
 * sim_fault.c - fault injection: a small table of armed faults, matched
 * against each command the controller puts on the bus (see struct
 * sim_fault in sim.h). Command faults act on the response, data faults on
 * one block of the matching command, state faults (ACMD41 never ready,
 * High Speed rejected) on the card's answers while they are armed.
 */
#include <string.h>

#include "sim/sim_internal.h"

#define MAX_FAULTS 8

static struct {
	struct sim_fault f;
	bool used;
	uint32_t seen;
	uint32_t fired;
} tab[MAX_FAULTS];

int sim_fault_add(const struct sim_fault *f)
{
	int i;

	for (i = 0; i < MAX_FAULTS; i++) {
		if (tab[i].used)
			continue;
		tab[i].f = *f;
		if (!tab[i].f.nth)
			tab[i].f.nth = 1;
		if (!tab[i].f.times)
			tab[i].f.times = 1;
		tab[i].used = true;
		tab[i].seen = tab[i].fired = 0;
		return i;
	}
	return -1;
}

void sim_fault_clear(void)
{
	memset(tab, 0, sizeof(tab));
}

uint32_t sim_fault_fired(int id)
{
	if (id < 0 || id >= MAX_FAULTS)
		return 0;
	return tab[id].fired;
}

static bool state_fault(enum sim_fault_kind k)
{
	return k == SIM_FAULT_ACMD41_NEVER_READY || k == SIM_FAULT_HS_REJECT;
}

uint32_t sim_fault_on_command(int cmd, uint32_t *data_block, uint64_t *busy_ns)
{
	uint32_t mask = 0;
	int i;

	for (i = 0; i < MAX_FAULTS; i++) {
		struct sim_fault *f = &tab[i].f;

		if (!tab[i].used || state_fault(f->kind))
			continue;
		if (f->cmd != SIM_ANY_CMD && f->cmd != cmd)
			continue;
		tab[i].seen++;
		if (tab[i].seen < f->nth || tab[i].fired >= f->times)
			continue;
		tab[i].fired++;
		mask |= 1u << f->kind;
		if (data_block)
			*data_block = f->block;
		if (busy_ns)
			*busy_ns = f->busy_ns;
	}
	return mask;
}

bool sim_fault_active(enum sim_fault_kind k)
{
	int i;

	for (i = 0; i < MAX_FAULTS; i++) {
		if (tab[i].used && tab[i].f.kind == k) {
			tab[i].fired++;
			return true;
		}
	}
	return false;
}

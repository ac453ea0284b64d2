/*
 * sim_store.c - the card's flash as a sparse store of 512-byte blocks:
 * an open-addressing hash table keyed by block number. Blocks never written
 * read as the erased value of the profile (SCR DATA_STAT_AFTER_ERASE), zero by
 * default. Grows as needed; a test writing a few thousand blocks costs a
 * few MiB.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

struct slot {
	uint64_t key; /* block + 1, 0 = empty */
	uint8_t *data;
};

static struct slot *tab;
static size_t cap, used;

void sim_store_reset(void)
{
	size_t i;

	for (i = 0; i < cap; i++)
		free(tab[i].data);
	free(tab);
	tab = NULL;
	cap = used = 0;
}

static size_t hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

static struct slot *lookup(uint64_t blk, bool create)
{
	uint64_t key = blk + 1;
	size_t i;

	if (create && (used + 1) * 2 > cap) {
		struct slot *old = tab;
		size_t oldcap = cap, j;

		cap = cap ? cap * 2 : 1024;
		tab = calloc(cap, sizeof(*tab));
		if (!tab)
			abort();
		used = 0;
		for (j = 0; j < oldcap; j++) {
			if (!old[j].key)
				continue;
			i = hash(old[j].key) & (cap - 1);
			while (tab[i].key)
				i = (i + 1) & (cap - 1);
			tab[i] = old[j];
			used++;
		}
		free(old);
	}
	if (!cap)
		return NULL;
	i = hash(key) & (cap - 1);
	while (tab[i].key) {
		if (tab[i].key == key)
			return &tab[i];
		i = (i + 1) & (cap - 1);
	}
	if (!create)
		return NULL;
	tab[i].key = key;
	tab[i].data = malloc(512);
	if (!tab[i].data)
		abort();
	used++;
	return &tab[i];
}

void sim_store_read(uint64_t blk, uint8_t *out)
{
	struct slot *s = lookup(blk, false);

	if (s)
		memcpy(out, s->data, 512);
	else
		memset(out, sim_card.p && sim_card.p->erase_ff ? 0xff : 0, 512);
}

void sim_store_write(uint64_t blk, const uint8_t *in)
{
	memcpy(lookup(blk, true)->data, in, 512);
}

void sim_store_erase(uint64_t first, uint64_t last, uint8_t value)
{
	size_t i;

	/* Walk the table, not the range: erasing a whole 64 GB card must not
	 * touch 128 M blocks. Erased blocks keep a slot with the erase value. */
	for (i = 0; i < cap; i++)
		if (tab[i].key && tab[i].key - 1 >= first &&
		    tab[i].key - 1 <= last)
			memset(tab[i].data, value, 512);
}

/* Every stored block outside [first, first + count): keys and bytes folded
 * into one sum, independent of the table's order (tests compare it before
 * and after a run: nothing written outside a test area). */
uint64_t sim_card_sum_outside(uint64_t first, uint64_t count)
{
	uint64_t sum = 0;
	size_t i, b;

	for (i = 0; i < cap; i++) {
		uint64_t h = tab[i].key;

		if (!h || (h - 1 >= first && h - 1 < first + count))
			continue;
		for (b = 0; b < 512; b++)
			h = (h ^ tab[i].data[b]) * 0x100000001b3ull;
		sum += hash(h);
	}
	return sum;
}

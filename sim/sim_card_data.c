/*
 * sim_card_data.c - the simulated card's memory data path: blocks read
 * (with the access latency drawn from the profile), blocks written (with
 * the programming busy, the write-cache model and long stalls), the
 * fake-capacity wrap, and direct flash access for tests (SD Physical Layer
 * §4.3.3 data read, §4.3.4 data write, §4.12.4 busy).
 *
 * Locality: an optional read buffer of one page (profile page_blocks);
 * flash geometry (profile flash_page / erase_block): a multi-block read
 * that crosses a page or erase-block boundary waits read_cross_page /
 * read_cross_eb before the block after it, as flashbench's alignment test
 * sees on real cards; a write that starts or ends inside a page pays
 * write_unaligned (read-modify-write). Open AUs (profile open_aus): the
 * card keeps that many AUs open for writing; a write into another one
 * closes the least recently used and pays au_switch (the collapse
 * flashbench's -O test finds). ACMD23: the blocks it pre-erases are
 * programmed with write_next_preerased instead of write_next.
 * Not modelled: read-ahead across pages, wear.
 */
#include <string.h>

#include "sim/sim_internal.h"

#define R1_OUT_OF_RANGE (1u << 31) /* §4.10.1 */

static uint64_t phys_block(uint64_t blk)
{
	return blk % sim_card.blocks_real;
}

static void read_bytes(uint64_t a, uint8_t *buf, uint32_t len)
{
	uint8_t blk[512];

	while (len) {
		uint32_t off = (uint32_t)(a % 512), n = 512 - off;

		if (n > len)
			n = len;
		sim_store_read(phys_block(a / 512), blk);
		memcpy(buf, blk + off, n);
		buf += n;
		a += n;
		len -= n;
	}
}

uint64_t sim_card_read_latency(uint32_t k)
{
	struct sim_card *c = &sim_card;
	uint64_t a;

	if (!c->present || c->state != ST_DATA)
		return SIM_NEVER;
	if (c->op_blocks && k >= c->op_blocks)
		return SIM_NEVER;
	if (!c->op_mem || c->op_kind == OPK_EXT)
		return c->p->read_first.min_ns;
	a = c->op_addr + (uint64_t)k * (c->ccs ? 512 : c->blocklen);
	if (a >= c->blocks_total * 512) {
		c->err_pending |= R1_OUT_OF_RANGE;
		return SIM_NEVER;
	}
	if (k) {
		uint64_t lat = sim_rng_draw(&c->p->read_next);

		/* The block after a flash boundary comes from another erase
		 * block (or page): the card has to start a new array read. */
		if (c->p->erase_block_bytes && a % c->p->erase_block_bytes == 0)
			lat += sim_rng_draw(&c->p->read_cross_eb);
		else if (c->p->flash_page_bytes && a % c->p->flash_page_bytes == 0)
			lat += sim_rng_draw(&c->p->read_cross_page);
		return lat;
	}
	/* A queued read task's data was read from the flash before CMD46
	 * (sim_card_cq.c): its first block follows like the next one. */
	if (c->op_staged)
		return sim_rng_draw(&c->p->read_next);
	if (!c->p->page_blocks)
		return sim_rng_draw(&c->p->read_first);
	/* A read starting in the page the card read last comes from its
	 * buffer. Draw both so the PRNG stream does not depend on hits. */
	{
		uint64_t miss = sim_rng_draw(&c->p->read_first);
		uint64_t hit = sim_rng_draw(&c->p->read_page_hit);

		return a / 512 / c->p->page_blocks == c->read_page ? hit : miss;
	}
}

void sim_card_read_data(uint32_t k, uint8_t *buf, uint32_t len)
{
	struct sim_card *c = &sim_card;

	uint64_t a = c->op_addr + (uint64_t)k * len;

	if (c->op_kind == OPK_EXT) {
		sim_cq_ext_read(buf, len);
		return;
	}
	read_bytes(a, buf, len);
	if (c->p->page_blocks)
		c->read_page = a / 512 / c->p->page_blocks;
}

static uint64_t au_of(const struct sim_card *c, uint64_t byte_addr)
{
	uint64_t au = c->p->open_au_bytes ? c->p->open_au_bytes : sim_card_au_bytes();

	return byte_addr / au;
}

/* The open-AU model: a write into AU 'au'; returns the extra busy. */
static uint64_t open_au(struct sim_card *c, uint64_t au)
{
	uint32_t i, max = c->p->open_aus < 64 ? c->p->open_aus : 64;
	uint64_t extra = 0;

	for (i = 0; i < c->n_open; i++)
		if (c->open_au[i] == au)
			break;
	if (i == c->n_open) {
		/* Not open: close the least recently used one if none is free. */
		if (c->n_open == max) {
			extra = sim_rng_draw(&c->p->au_switch);
			i = c->n_open - 1;
		} else {
			i = c->n_open++;
		}
	}
	memmove(&c->open_au[1], &c->open_au[0], sizeof(c->open_au[0]) * i);
	c->open_au[0] = au;
	return extra;
}

/* A draw from a distribution the profile may leave at zero: no draw then,
 * so that profiles without the feature keep their random stream. */
static uint64_t draw_set(const struct sim_dist *d)
{
	if (!d->min_ns && !d->mean_extra_ns && !d->stall_ppm)
		return 0;
	return sim_rng_draw(d);
}

/* An isolated short write (write_isolated): at most 8 blocks that do not
 * continue the previous write. Remembers where this write ends. */
static uint64_t isolated_busy(struct sim_card *c, uint64_t addr, uint32_t blocks)
{
	bool isolated = blocks && blocks <= 8 && addr != c->last_wr_end;

	c->last_wr_end = addr + (uint64_t)blocks * 512;
	return isolated ? draw_set(&c->p->write_isolated) : 0;
}

/* Busy the card adds for where block k at byte a falls: a new erase block
 * inside a write (write_cross_eb), and the periodic garbage collection
 * every periodic_stall_blocks blocks written. */
static uint64_t place_busy(struct sim_card *c, uint32_t k, uint64_t a)
{
	const struct sim_profile *p = c->p;
	uint64_t extra = 0;

	if (k && p->erase_block_bytes && a % p->erase_block_bytes == 0)
		extra += draw_set(&p->write_cross_eb);
	c->blocks_written++;
	if (p->periodic_stall_blocks && c->blocks_written % p->periodic_stall_blocks == 0)
		extra += draw_set(&p->periodic_stall);
	return extra;
}

uint64_t sim_card_write_end_busy(void)
{
	struct sim_card *c = &sim_card;
	const struct sim_profile *p = c->p;
	uint64_t busy = c->op_preerased && p->preerase ? sim_rng_draw(&p->write_last_preerased) :
				sim_rng_draw(&p->write_last);
	uint64_t end = c->op_addr + (uint64_t)c->op_written * 512;

	if (p->flash_page_bytes && c->op_written && end % p->flash_page_bytes)
		busy += sim_rng_draw(&p->write_unaligned);
	return busy + isolated_busy(c, c->op_addr, c->op_written);
}

uint64_t sim_card_write_block(uint32_t k, const uint8_t *buf, uint32_t len,
			      uint64_t t, bool last)
{
	struct sim_card *c = &sim_card;
	const struct sim_profile *p = c->p;
	uint64_t a = c->op_addr + (uint64_t)k * 512, busy, cached;

	(void)last;
	if (!c->present || c->state != ST_RCV || len != 512)
		return SIM_NEVER;
	if (c->op_kind == OPK_EXT) {
		busy = sim_cq_ext_write(buf, t);
		c->state = ST_PRG;
		c->after_busy = ST_TRAN;
		c->busy_until = t + busy;
		return busy;
	}
	if (a >= c->blocks_total * 512) {
		c->err_pending |= R1_OUT_OF_RANGE;
		return SIM_NEVER;
	}
	/* The Performance Enhancement cache, when the host turned it on. */
	cached = sim_cq_mem_write(phys_block(a / 512), t);
	sim_store_write(phys_block(a / 512), buf);
	if (c->p->page_blocks && a / 512 / c->p->page_blocks == c->read_page)
		c->read_page = ~0ull; /* the buffered page changed */
	c->well_written++;

	if (c->op_multi && p->preerase && k < c->op_preerased)
		busy = sim_rng_draw(&p->write_next_preerased);
	else
		busy = sim_rng_draw(c->op_multi ? &p->write_next : &p->write_single);
	c->op_written = k + 1;
	if (p->open_aus && (k == 0 || au_of(c, a) != au_of(c, a - 512)))
		busy += open_au(c, au_of(c, a));
	if (k == 0 && p->flash_page_bytes && a % p->flash_page_bytes)
		busy += sim_rng_draw(&p->write_unaligned);
	if (p->cache_blocks) {
		double drained = (double)(t - c->cache_t) / 1e6 *
				 p->cache_drain_blocks_per_ms;

		c->cache_fill = c->cache_fill > drained ? c->cache_fill - drained : 0;
		c->cache_t = t;
		c->cache_fill += 1;
		if (c->cache_fill > p->cache_blocks)
			busy = sim_rng_draw(&p->write_slow);
	}
	busy += place_busy(c, k, a);
	if (cached != SIM_NEVER)
		busy = cached; /* the flash is programmed later (drain, flush) */
	if (!c->op_multi) {
		if (cached == SIM_NEVER && p->flash_page_bytes && (a + 512) % p->flash_page_bytes)
			busy += sim_rng_draw(&p->write_unaligned);
		if (cached == SIM_NEVER)
			busy += isolated_busy(c, a, 1);
		c->state = ST_PRG;
		c->after_busy = ST_TRAN;
	} else if (c->op_blocks && k + 1 == c->op_blocks) {
		/* CMD23 count reached: the card programs and returns to tran. */
		if (cached == SIM_NEVER)
			busy += sim_card_write_end_busy();
		c->state = ST_PRG;
		c->after_busy = ST_TRAN;
	}
	c->busy_until = t + busy;
	return busy;
}

void sim_card_data_done(uint64_t t, bool stopped_by_cmd12)
{
	struct sim_card *c = &sim_card;

	(void)stopped_by_cmd12;
	sim_card_state_at(t); /* PRG may have ended */
	if (c->g1_next >= 0) {
		c->g1 = (uint8_t)c->g1_next;
		c->hs_mode = c->g1 == 1;
		c->g1_next = -1;
		sim_card_build_regs(c); /* CSD TRAN_SPEED follows the mode */
	}
	/* A single block (or the CMD23 count) of a read ends the data state. */
	if (c->state == ST_DATA && (!c->op_multi || c->op_blocks))
		c->state = ST_TRAN;
}

/* Fault injection can pin DAT0 low. */
void sim_card_set_busy(uint64_t until)
{
	sim_card.busy_until = until;
}

/* ---- test access ------------------------------------------------------ */

void sim_card_peek(uint64_t off, void *buf, size_t len)
{
	uint8_t blk[512], *out = buf;

	while (len) {
		size_t o = off % 512, n = 512 - o;

		if (n > len)
			n = len;
		sim_store_read(off / 512, blk);
		memcpy(out, blk + o, n);
		out += n;
		off += n;
		len -= n;
	}
}

void sim_card_poke(uint64_t off, const void *buf, size_t len)
{
	uint8_t blk[512];
	const uint8_t *in = buf;

	while (len) {
		size_t o = off % 512, n = 512 - o;

		if (n > len)
			n = len;
		sim_store_read(off / 512, blk);
		memcpy(blk + o, in, n);
		sim_store_write(off / 512, blk);
		in += n;
		off += n;
		len -= n;
	}
}


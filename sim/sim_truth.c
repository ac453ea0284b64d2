/*
 * sim_truth.c - the ground-truth log: one struct sim_truth per command the
 * controller put on the bus, in a ring of the last SIM_TRUTH_RING records.
 * The controller fills the phase fields as the transfer runs (sim_sdhci.c);
 * tests compare them with what the firmware measured.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

#define SIM_TRUTH_RING 4096u

static struct sim_truth ring[SIM_TRUTH_RING];
static unsigned count;

/* Block log: one data transfer at a time, so a record's blocks are
 * consecutive entries from its blk_first. */
#define SIM_BLOCK_RING 65536u

static struct sim_block_truth blocks[SIM_BLOCK_RING];
static uint32_t blk_head;  /* next free entry (monotonic) */

/* The queue's waits for the card (sim_truth_queue): stretches of status
 * polls while tasks were queued and none ready, the last SIM_QWAIT_RING,
 * dated as the card received the commands (sim_truth_queue_cmd). */
#define SIM_QWAIT_RING 16384u

static struct {
	bool polling;            /* the last command was a task-status CMD13 */
	uint64_t since;          /* the first of those polls */
	uint64_t s[SIM_QWAIT_RING], e[SIM_QWAIT_RING];
	uint32_t n;
} qw;

void sim_truth_queue_cmd(uint8_t cmd, uint32_t arg, bool app, uint64_t now)
{
	bool status = cmd == 13 && !app && (arg & (1u << 15)) && sim_card_cq_on();
	uint64_t ready;

	if (status) {
		if (!qw.polling)
			qw.since = now;
		qw.polling = true;
		return;
	}
	if (!qw.polling)
		return;
	qw.polling = false;
	/* Nothing but status polls since 'since': the queue is as it was. */
	if (!sim_card_cq_queued())
		return;
	ready = sim_cq_first_ready();
	if (ready <= qw.since)
		return;
	qw.s[qw.n % SIM_QWAIT_RING] = qw.since;
	qw.e[qw.n % SIM_QWAIT_RING] = ready < now ? ready : now;
	qw.n++;
}

int sim_truth_queue(uint64_t a, uint64_t b, uint64_t *card_ns, uint64_t *bus_ns,
		    uint64_t *host_ns)
{
	struct sim_wire_sum w, x;
	uint32_t i = qw.n > SIM_QWAIT_RING ? qw.n - SIM_QWAIT_RING : 0;
	uint64_t card_extra = 0;
	unsigned k;

	sim_wire_totals(&w); /* decides the truth up to now */
	if (b > w.t_to)
		b = w.t_to;
	if (sim_wire_window(a, b, &w))
		return -1;
	for (; i < qw.n; i++) {
		uint64_t s = qw.s[i % SIM_QWAIT_RING], e = qw.e[i % SIM_QWAIT_RING];

		s = s < a ? a : s;
		e = e > b ? b : e;
		if (e <= s)
			continue;
		if (sim_wire_window(s, e, &x))
			return -1;
		for (k = 0; k < SIM_W_NCAT; k++)
			w.ns[k] -= x.ns[k] < w.ns[k] ? x.ns[k] : w.ns[k];
		card_extra += e - s;
	}
	*card_ns = sim_wire_card_ns(&w) + card_extra;
	*bus_ns = sim_wire_bus_ns(&w);
	*host_ns = sim_wire_host_ns(&w);
	return 0;
}

void sim_truth_reset(void)
{
	qw.polling = false;
	qw.n = 0;
	memset(ring, 0, sizeof(ring));
	count = 0;
	memset(blocks, 0, sizeof(blocks));
	blk_head = 0;
	sim_wire_forget_records();
}

struct sim_truth *sim_truth_open(uint8_t cmd, uint32_t arg, uint32_t flags)
{
	struct sim_truth *t = &ring[count % SIM_TRUTH_RING];

	memset(t, 0, sizeof(*t));
	t->seq = count++;
	t->cmd = cmd;
	t->arg = arg;
	t->flags = flags;
	t->t_issue_ns = sim_clk_now;
	t->blk_first = blk_head;
	return t;
}

void sim_truth_close(struct sim_truth *t)
{
	static int trace = -1;

	t->flags &= ~(uint32_t)SIM_T_OPEN;
	/* SIM_TRACE=1 in the environment prints every command (debugging). */
	if (trace < 0)
		trace = getenv("SIM_TRACE") != NULL;
	if (trace)
		fprintf(stderr, "sim: #%u %sCMD%u arg 0x%08x  %.3f..%.3f us  "
			"err 0x%x flags 0x%x blocks %u\n", t->seq,
			(t->flags & SIM_T_APP) ? "A" : "", t->cmd, t->arg,
			t->t_issue_ns / 1000.0, t->t_end_ns / 1000.0, t->err_irq,
			t->flags, t->blocks);
}

unsigned sim_truth_count(void)
{
	return count;
}

const struct sim_truth *sim_truth_get(unsigned seq)
{
	if (seq >= count || count - seq > SIM_TRUTH_RING)
		return NULL;
	return &ring[seq % SIM_TRUTH_RING];
}

const struct sim_truth *sim_truth_last(void)
{
	return count ? &ring[(count - 1) % SIM_TRUTH_RING] : NULL;
}

const struct sim_truth *sim_truth_find_last(int cmd)
{
	unsigned i;

	for (i = count; i > 0 && count - i < SIM_TRUTH_RING; i--) {
		const struct sim_truth *t = &ring[(i - 1) % SIM_TRUTH_RING];
		int c = (t->flags & SIM_T_APP) ? SIM_ACMD(t->cmd) : t->cmd;

		if (c == cmd)
			return t;
	}
	return NULL;
}

void sim_truth_sum(unsigned from, unsigned to, struct sim_truth_sum *out)
{
	unsigned i, k;

	/* Records closed just now get their split at the next commit. */
	if (sim_get_config()->sdhost)
		sim_sdhost_update();
	sim_sdhci_advance(sim_clk_now);

	memset(out, 0, sizeof(*out));
	for (i = from; i < to; i++) {
		const struct sim_truth *t = sim_truth_get(i);

		if (!t || (t->flags & SIM_T_OPEN))
			continue;
		out->records++;
		if (t->flags & SIM_T_ERROR)
			out->errors++;
		out->blocks += t->blocks;
		out->total_ns += t->t_end_ns - t->t_issue_ns;
		for (k = 0; k < SIM_W_NCAT; k++)
			out->wire_ns[k] += t->wire_ns[k];
		out->host_port_ns += t->host_port_ns;
	}
}

struct sim_block_truth *sim_truth_blk(struct sim_truth *t, unsigned k)
{
	uint32_t i;

	if (!t)
		return NULL;
	i = t->blk_first + k;
	if (k >= t->blk_count)
		t->blk_count = k + 1;
	if (i >= blk_head) {
		/* First touch of this block: claim the entries up to it. */
		for (; blk_head <= i; blk_head++)
			memset(&blocks[blk_head % SIM_BLOCK_RING], 0,
			       sizeof(blocks[0]));
	}
	return &blocks[i % SIM_BLOCK_RING];
}

int sim_truth_block(const struct sim_truth *t, unsigned k,
		    struct sim_block_truth *out)
{
	uint32_t i;

	if (!t)
		return -1;
	i = t->blk_first + k;
	if (k >= t->blk_count || blk_head - i > SIM_BLOCK_RING)
		return -1;
	*out = blocks[i % SIM_BLOCK_RING];
	return 0;
}

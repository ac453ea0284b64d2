/*
 * sim_wire.c - the ground truth, from the wires: every nanosecond since
 * sim_setup() charged to one category (enum sim_wcat in sim.h) by what the
 * simulated CMD and DAT lines, the card and the CPU were doing.
 *
 * The controller model describes each lane as intervals as soon as it
 * knows them (a command's whole CMD-line life at the moment it is issued;
 * a DAT-line wait once the block that ends it starts). A lane in the middle
 * of a transfer holds the horizon at the end of what it has described; up
 * to the horizon the two lanes are merged - where both have something, the
 * higher-priority category wins (bits on a line beat everything) - and
 * added to the totals and to a history of segments. Whatever neither lane
 * describes is host software time (nothing pending on the bus).
 *
 * This file defines no timing: it only books what the controller model
 * (sim_sdhci*.c, or sim_sdhost.c) says happened, and the frame lengths on the wires.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

#define LANE_Q 256
#define SEG_RING (1u << 20)
#define PENDING 64

struct ival {
	uint64_t a, b;
	uint8_t cat;
};

struct lane {
	struct ival q[LANE_Q];
	unsigned head, n;
	bool held;        /* a transfer is running: decided only up to hold_t */
	uint64_t hold_t;
	uint64_t last_b;  /* end of the last interval described */
};

static struct lane lanes[SIM_NLANES];
static uint64_t committed;           /* the horizon: decided up to here */
static uint64_t totals[SIM_W_NCAT];
static uint64_t seg_t[SEG_RING];     /* segment i starts at seg_t[i % RING] */
static uint8_t seg_c[SEG_RING];
static uint64_t seg_n;
static unsigned late;                /* intervals described behind the horizon */

static struct {
	struct sim_truth *t;
	uint32_t seq;
} pending[PENDING];

/* The CPU's waits not yet committed (time-ordered, merged). */
#define WAIT_Q 4096
static struct {
	uint64_t a, b;
} waits[WAIT_Q];
static unsigned wait_head, wait_n;
static uint64_t last_work;   /* the CPU's last register access that was work */
static uint64_t last_wait_end; /* end of the CPU's last wait (kept after it is committed) */
static uint64_t wait_totals[SIM_W_NCAT];
static uint64_t run[SIM_W_NCAT], run_len; /* both worked: not decided yet */
static unsigned npending;

static const char *const names[SIM_W_NCAT] = {
	"cmd", "data", "gap", "ctrl_gap", "card", "busy", "host_cpu", "host_ctrl", "host_sw",
};

const char *sim_wcat_name(enum sim_wcat c)
{
	return (unsigned)c < SIM_W_NCAT ? names[c] : "?";
}

uint64_t sim_wire_bus_ns(const struct sim_wire_sum *s)
{
	return s->ns[SIM_W_CMD] + s->ns[SIM_W_DATA] + s->ns[SIM_W_GAP] + s->ns[SIM_W_CTRL_GAP];
}

uint64_t sim_wire_card_ns(const struct sim_wire_sum *s)
{
	return s->ns[SIM_W_CARD] + s->ns[SIM_W_BUSY];
}

uint64_t sim_wire_host_ns(const struct sim_wire_sum *s)
{
	return s->ns[SIM_W_HOST_CPU] + s->ns[SIM_W_HOST_CTRL] + s->ns[SIM_W_HOST_SW];
}

void sim_wire_reset(void)
{
	memset(lanes, 0, sizeof(lanes));
	committed = 0;
	memset(totals, 0, sizeof(totals));
	seg_n = 0;
	late = 0;
	npending = 0;
	wait_head = wait_n = 0;
	last_work = 0;
	last_wait_end = 0;
	memset(wait_totals, 0, sizeof(wait_totals));
	memset(run, 0, sizeof(run));
	run_len = 0;
}

void sim_wire_cpu_work(uint64_t t)
{
	last_work = t;
}

void sim_wire_cpu_wait(uint64_t a, uint64_t b)
{
	if (b <= a)
		return;
	if (b > last_wait_end)
		last_wait_end = b;
	if (a < committed) {
		late++;
		a = committed;
		if (b <= a)
			return;
	}
	if (wait_n) {
		unsigned last = (wait_head + wait_n - 1) % WAIT_Q;

		/* Nothing but more looks at the status (and at the clock)
		 * since the last wait: the CPU is still in its poll loop. A
		 * full queue (a very long transfer polled without the
		 * fast-forward) is merged the same way. */
		if (waits[last].b >= a || last_work <= waits[last].b || wait_n == WAIT_Q) {
			if (a < committed)
				late++;
			if (b > waits[last].b)
				waits[last].b = b;
			return;
		}
	}
	waits[(wait_head + wait_n) % WAIT_Q].a = a;
	waits[(wait_head + wait_n) % WAIT_Q].b = b;
	wait_n++;
}

/* The critical path, booked piece by piece in time order. A piece where
 * the CPU waited goes to what the wires did (the CPU waited for that). A
 * piece where the CPU worked and the wires waited for it (host categories)
 * goes to host. A piece where both worked (the CPU on one block while the
 * bus moves the next) is decided by what follows: if the CPU then waits,
 * the wires were the slower side and keep it; if the wires then wait for
 * the CPU, the CPU was, and it is host. */
static void run_resolve(bool to_wires)
{
	unsigned i;

	if (!run_len)
		return;
	for (i = 0; i < SIM_W_NCAT; i++) {
		if (to_wires)
			wait_totals[i] += run[i];
		run[i] = 0;
	}
	if (!to_wires)
		wait_totals[SIM_W_HOST_CPU] += run_len;
	run_len = 0;
}

static void crit_piece(uint64_t len, uint8_t cat, bool cpu_waits)
{
	bool wires_wait_for_host = cat >= SIM_W_HOST_CPU;

	if (!len)
		return;
	if (cpu_waits) {
		run_resolve(true);
		wait_totals[cat] += len;
	} else if (wires_wait_for_host) {
		run_resolve(false);
		wait_totals[cat] += len;
	} else {
		run[cat] += len;
		run_len += len;
	}
}

static void book_waits(uint64_t a, uint64_t b, uint8_t cat)
{
	unsigned i;

	while (wait_n && waits[wait_head].b <= a) {
		wait_head = (wait_head + 1) % WAIT_Q;
		wait_n--;
	}
	for (i = 0; i < wait_n && a < b; i++) {
		unsigned k = (wait_head + i) % WAIT_Q;
		uint64_t s = waits[k].a > a ? waits[k].a : a;
		uint64_t e = waits[k].b < b ? waits[k].b : b;

		if (waits[k].a >= b)
			break;
		if (e <= s)
			continue;
		crit_piece(s - a, cat, false);
		crit_piece(e - s, cat, true);
		a = e;
	}
	crit_piece(b - a, cat, false);
}

void sim_wire_critical(const struct sim_wire_sum *s, double *card_pct, double *bus_pct,
		       double *host_pct)
{
	double wall = (double)(s->t_to - s->t_from);
	uint64_t card = s->wait_ns[SIM_W_CARD] + s->wait_ns[SIM_W_BUSY];
	uint64_t bus = s->wait_ns[SIM_W_CMD] + s->wait_ns[SIM_W_DATA] + s->wait_ns[SIM_W_GAP] +
		       s->wait_ns[SIM_W_CTRL_GAP];
	uint64_t host = s->wait_ns[SIM_W_HOST_CPU] + s->wait_ns[SIM_W_HOST_CTRL] +
			s->wait_ns[SIM_W_HOST_SW];

	*card_pct = wall > 0 ? 100.0 * (double)card / wall : NAN;
	*bus_pct = wall > 0 ? 100.0 * (double)bus / wall : NAN;
	*host_pct = wall > 0 ? 100.0 * (double)host / wall : NAN;
}

/* ---- describing the lanes ------------------------------------------------------ */

void sim_wire_emit(enum sim_lane l, uint64_t a, uint64_t b, enum sim_wcat cat)
{
	struct lane *ln = &lanes[l];
	struct ival *iv;

	if (a < ln->last_b)
		a = ln->last_b;
	if (a < committed) {
		if (b > committed && getenv("SIM_WIRE_DEBUG"))
			fprintf(stderr, "sim: late lane %d cat %d [%llu, %llu) horizon %llu\n", l, cat,
				(unsigned long long)a, (unsigned long long)b,
				(unsigned long long)committed);
		late += b > committed;
		a = committed;
	}
	if (b == SIM_NEVER || b <= a)
		return;
	if (ln->n && ln->q[(ln->head + ln->n - 1) % LANE_Q].b == a &&
	    ln->q[(ln->head + ln->n - 1) % LANE_Q].cat == cat) {
		ln->q[(ln->head + ln->n - 1) % LANE_Q].b = b; /* extend */
	} else {
		if (ln->n == LANE_Q) {
			fprintf(stderr, "sim: wire lane %d queue full (the horizon is stuck at "
				"%llu ns)\n", l, (unsigned long long)committed);
			abort();
		}
		iv = &ln->q[(ln->head + ln->n) % LANE_Q];
		iv->a = a;
		iv->b = b;
		iv->cat = (uint8_t)cat;
		ln->n++;
	}
	ln->last_b = b;
	if (ln->held && b > ln->hold_t)
		ln->hold_t = b;
}

void sim_wire_hold(enum sim_lane l, uint64_t t)
{
	lanes[l].held = true;
	lanes[l].hold_t = t > lanes[l].last_b ? t : lanes[l].last_b;
}

void sim_wire_release(enum sim_lane l)
{
	lanes[l].held = false;
}

bool sim_wire_held(enum sim_lane l)
{
	return lanes[l].held;
}

void sim_wire_truncate(enum sim_lane l, uint64_t t)
{
	struct lane *ln = &lanes[l];

	while (ln->n) {
		struct ival *iv = &ln->q[(ln->head + ln->n - 1) % LANE_Q];

		if (iv->a >= t) {
			ln->n--;
			continue;
		}
		if (iv->b > t)
			iv->b = t;
		break;
	}
	if (ln->last_b > t)
		ln->last_b = t > committed ? t : committed;
	if (ln->held && ln->hold_t > t)
		ln->hold_t = t;
}

/* ---- committing -------------------------------------------------------------------- */

static void push_segment(uint64_t t, uint8_t cat)
{
	if (seg_n && seg_c[(seg_n - 1) % SEG_RING] == cat)
		return;
	seg_t[seg_n % SEG_RING] = t;
	seg_c[seg_n % SEG_RING] = cat;
	seg_n++;
}

static void fill_pending(void)
{
	unsigned i, k = 0;

	for (i = 0; i < npending; i++) {
		struct sim_truth *t = pending[i].t;
		struct sim_wire_sum s;

		if (t->seq != pending[i].seq)
			continue; /* the record slot was reused: too late */
		if (t->t_end_ns > committed) {
			pending[k++] = pending[i];
			continue;
		}
		if (sim_wire_window(t->t_issue_ns, t->t_end_ns, &s) == 0) {
			memcpy(t->wire_ns, s.ns, sizeof(t->wire_ns));
			t->flags |= SIM_T_SPLIT;
		}
	}
	npending = k;
}

void sim_wire_commit(uint64_t upto)
{
	uint64_t h = upto;
	unsigned l;

	for (l = 0; l < SIM_NLANES; l++)
		if (lanes[l].held && lanes[l].hold_t < h)
			h = lanes[l].hold_t;
	/* The CPU's state is known up to its last wait or its last work;
	 * after that it may still be in a poll loop whose next look merges
	 * the time in between into its wait. */
	{
		uint64_t cpu = last_work > last_wait_end ? last_work : last_wait_end;

		if (cpu < h)
			h = cpu;
	}
	while (committed < h) {
		uint64_t end = h;
		uint8_t best = SIM_W_HOST_SW;

		for (l = 0; l < SIM_NLANES; l++) {
			struct lane *ln = &lanes[l];

			while (ln->n && ln->q[ln->head].b <= committed) {
				ln->head = (ln->head + 1) % LANE_Q;
				ln->n--;
			}
			if (!ln->n)
				continue;
			if (ln->q[ln->head].a <= committed) {
				if (ln->q[ln->head].cat < best)
					best = ln->q[ln->head].cat;
				if (ln->q[ln->head].b < end)
					end = ln->q[ln->head].b;
			} else if (ln->q[ln->head].a < end) {
				end = ln->q[ln->head].a;
			}
		}
		push_segment(committed, best);
		totals[best] += end - committed;
		book_waits(committed, end, best);
		committed = end;
	}
	if (npending)
		fill_pending();
}

void sim_wire_forget_records(void)
{
	npending = 0;
}

void sim_wire_record_closed(struct sim_truth *t)
{
	if (npending == PENDING) {
		/* Cannot happen in practice (a record closes, then the next
		 * register access commits past it); keep the newest. */
		memmove(pending, pending + 1, sizeof(pending[0]) * (PENDING - 1));
		npending--;
	}
	pending[npending].t = t;
	pending[npending].seq = t->seq;
	npending++;
	if (t->t_end_ns <= committed)
		fill_pending();
}

/* ---- reading ------------------------------------------------------------------------ */

void sim_wire_totals(struct sim_wire_sum *out)
{
	/* Asked from outside the CPU's poll loops: what it did since its
	 * last register access was work. */
	sim_wire_cpu_work(sim_clk_now);
	if (sim_get_config()->sdhost)
		sim_sdhost_update();
	sim_sdhci_advance(sim_clk_now);
	sim_wire_commit(sim_clk_now);
	memset(out, 0, sizeof(*out));
	out->t_from = 0;
	out->t_to = committed;
	memcpy(out->ns, totals, sizeof(totals));
	memcpy(out->wait_ns, wait_totals, sizeof(wait_totals));
}

void sim_wire_diff(const struct sim_wire_sum *b, const struct sim_wire_sum *a,
		   struct sim_wire_sum *out)
{
	unsigned i;

	out->t_from = a->t_to;
	out->t_to = b->t_to;
	for (i = 0; i < SIM_W_NCAT; i++) {
		out->ns[i] = b->ns[i] - a->ns[i];
		out->wait_ns[i] = b->wait_ns[i] - a->wait_ns[i];
	}
}

int sim_wire_window(uint64_t a, uint64_t b, struct sim_wire_sum *out)
{
	uint64_t first = seg_n > SEG_RING ? seg_n - SEG_RING : 0, lo, hi, i;

	memset(out, 0, sizeof(*out));
	out->t_from = a;
	out->t_to = b;
	if (b < a || b > committed)
		return -1;
	if (a == b)
		return 0;
	if (!seg_n || seg_t[first % SEG_RING] > a)
		return -1;
	/* The last segment that starts at or before a. */
	lo = first;
	hi = seg_n - 1;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (seg_t[mid % SEG_RING] <= a)
			lo = mid;
		else
			hi = mid - 1;
	}
	for (i = lo; i < seg_n; i++) {
		uint64_t s = seg_t[i % SEG_RING];
		uint64_t e = i + 1 < seg_n ? seg_t[(i + 1) % SEG_RING] : committed;

		if (s >= b)
			break;
		if (s < a)
			s = a;
		if (e > b)
			e = b;
		if (e > s)
			out->ns[seg_c[i % SEG_RING]] += e - s;
	}
	return 0;
}

/* ---- what the wires carry --------------------------------------------------------- */

uint32_t sim_wire_block_clocks(uint32_t blksz, uint8_t width)
{
	static uint32_t c_blksz, c_width, c_clocks;
	uint32_t line, longest = 0;

	if (!width)
		width = 1;
	if (blksz == c_blksz && width == c_width)
		return c_clocks;
	/* The data bits go round-robin over the lines (on 4 bits, a byte's
	 * high nibble first, DAT3 carrying its top bit). Each line then
	 * sends its own frame: start bit, its bits, the CRC16 of its bits,
	 * end bit (SD Physical Layer §4.5). The lines run in parallel: the
	 * block takes as long as the longest frame. */
	for (line = 0; line < width; line++) {
		uint32_t bits = 0, i;

		for (i = line; i < blksz * 8u; i += width)
			bits++;
		if (1 + bits + 16 + 1 > longest)
			longest = 1 + bits + 16 + 1;
	}
	c_blksz = blksz;
	c_width = width;
	c_clocks = longest;
	return longest;
}

unsigned sim_wire_late_count(void)
{
	return late;
}

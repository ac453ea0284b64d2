/*
 * attribution.c - card / bus / host split of accumulated request phases and
 * the one-line verdict. The rules (and why) are in docs/attribution.md; the
 * bus times come from busmodel.c (SD Physical Layer §4.5, §4.12).
 *
 * Wall time = request time + gaps between requests. Each nanosecond of a
 * request is charged to what the data transfer was waiting on: the bus
 * while frames move, the card while it is not sending / not accepting /
 * programming, the host while the bus sits idle for the CPU (buffer full on
 * a read, empty on a write, the first fill and the last drain). Whether the
 * CPU *sets the pace* (it never waited for data) is judged separately and
 * enters the verdict; in that case card gaps between blocks hide behind the
 * CPU and count as host.
 *
 * Controllers that do not hold whole blocks (SDHOST's 16-word FIFO, a DMA
 * engine started at the response) have frames outside the phase a whole-
 * block buffer puts them in: those are taken from the data window, and
 * such a driver measures the CPU's serial part itself (host_serial_ticks,
 * docs/attribution.md §3).
 *
 * Not modelled: auto-CMD23 (its command time counts as host overhead), the
 * card's N_CR beyond 2 clocks (host overhead), mixed read/write
 * accumulators (split reads and writes into separate accumulators).
 */
#include <stdarg.h>
#include <stdbool.h>

#include "bench/engine/attribution.h"
#include "bench/engine/busmodel.h"
#include "lib/fmt.h"

void phase_acc_init(struct phase_acc *a)
{
	*a = (struct phase_acc){ 0 };
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

void phase_acc_add_ns(struct phase_acc *a, const struct phase_ns *p,
		      uint32_t blocks, uint32_t blksz, uint64_t gap_ns)
{
	phase_acc_add_parts(a, p->cmd_ns, p->access_ns, p->data_ns, p->busy_ns, p->host_ns,
			    p->total_ns, p->extra_cmds, blocks, blksz, gap_ns);
}

void phase_acc_merge(struct phase_acc *dst, const struct phase_acc *src)
{
	dst->ops += src->ops;
	dst->blocks += src->blocks;
	dst->bytes += src->bytes;
	dst->total_ns += src->total_ns;
	dst->cmd_ns += src->cmd_ns;
	dst->access_ns += src->access_ns;
	dst->data_ns += src->data_ns;
	dst->host_ns += src->host_ns;
	dst->busy_ns += src->busy_ns;
	dst->gap_ns += src->gap_ns;
	dst->extra_cmds += src->extra_cmds;
	dst->host_serial_ns += src->host_serial_ns;
	dst->wait_blocks += src->wait_blocks;
	dst->wait_ns += src->wait_ns;
	dst->counted_blocks += src->counted_blocks;
	dst->fifo_reqs += src->fifo_reqs;
	dst->fifo_words += src->fifo_words;
	dst->seam_ns += src->seam_ns;
	dst->seam_words += src->seam_words;
	dst->seams += src->seams;
	dst->seam_full_ns += src->seam_full_ns;
	dst->seam_full_words += src->seam_full_words;
	dst->seams_full += src->seams_full;
	dst->stood_ns += src->stood_ns;
	dst->stood_blocks += src->stood_blocks;
	dst->stood_unc_ns += src->stood_unc_ns;
	dst->undecided_blocks += src->undecided_blocks;
	dst->undecided_looks |= src->undecided_looks;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The verdict of one set of critical shares (card, bus, host): the part,
 * and the largest and second parts. */
struct pick {
	enum bottleneck verdict, top, second;
	double pct;
};

static struct pick pick_of(const double sh[3], double ceiling_pct)
{
	enum bottleneck order[3] = { BOTTLENECK_CARD, BOTTLENECK_BUS, BOTTLENECK_HOST };
	double share[3] = { sh[0], sh[1], sh[2] };
	struct pick p;
	unsigned i, j;

	/* Sort the three parts by share, descending; ties keep card, bus,
	 * host order (stable insertion sort). */
	for (i = 1; i < 3; i++) {
		for (j = i; j > 0 && share[j] > share[j - 1]; j--) {
			double t = share[j];
			enum bottleneck b = order[j];

			share[j] = share[j - 1];
			order[j] = order[j - 1];
			share[j - 1] = t;
			order[j - 1] = b;
		}
	}
	p.top = order[0];
	p.second = order[1];
	/* Within 10% of the bus ceiling only a faster bus can give back the
	 * rest - unless the frames hid behind a CPU that set the pace (the
	 * bus not the critical path's largest part): then a faster bus gives
	 * nothing, and the shares decide (docs/attribution.md, section 4). */
	if (ceiling_pct >= ATTR_CEILING_BUS_PCT && order[0] == BOTTLENECK_BUS) {
		p.verdict = BOTTLENECK_BUS;
		p.pct = sh[BOTTLENECK_BUS];
		return p;
	}
	p.pct = share[0];
	p.verdict = share[0] >= ATTR_DOMINANT_PCT ? order[0] : BOTTLENECK_MIXED;
	return p;
}

/* Would verdict p be right if the critical shares were sh (docs/
 * attribution.md, "The verdict against the truth")? A part within
 * ATTR_TIE_PP of the largest counts as the largest; a named part needs
 * ATTR_DOMINANT_PCT less the tie, the ceiling rule's bus the wires that
 * busy less the tie; a mixed verdict no part dominant beyond the tie. */
static bool pick_holds(const struct pick *p, const double sh[3], const struct phase_split *s)
{
	double d;
	enum bottleneck top = BOTTLENECK_CARD, second;
	unsigned i;

	for (i = 1; i < 3; i++)
		if (sh[i] > sh[top])
			top = (enum bottleneck)i;
	second = top == BOTTLENECK_CARD ? BOTTLENECK_BUS : BOTTLENECK_CARD;
	for (i = 0; i < 3; i++)
		if (i != (unsigned)top && sh[i] > sh[second])
			second = (enum bottleneck)i;
	if (p->verdict == BOTTLENECK_MIXED) {
		d = sh[p->second] - sh[second];
		return sh[top] < ATTR_DOMINANT_PCT + ATTR_TIE_PP &&
		       sh[p->top] >= sh[top] - ATTR_TIE_PP &&
		       (p->second == second || p->second == top ||
			(d <= ATTR_TIE_PP && d >= -ATTR_TIE_PP));
	}
	if (sh[p->verdict] < sh[top] - ATTR_TIE_PP)
		return false;
	/* the ceiling rule's bus: the wires busy that much */
	if (p->verdict == BOTTLENECK_BUS && s->ceiling_pct >= ATTR_CEILING_BUS_PCT)
		return s->bus_pct >= ATTR_CEILING_BUS_PCT - ATTR_TIE_PP;
	return sh[p->verdict] >= ATTR_DOMINANT_PCT - ATTR_TIE_PP;
}

/* The critical shares at the bounds (the fewest and the most blocks
 * hidden behind the CPU) and the estimate's own. */
static unsigned bound_corners(const struct phase_split *s, double sh[6][3])
{
	double cb[2][2] = { { s->hide_lo_bus_pct, s->hide_lo_card_pct },
			    { s->hide_hi_bus_pct, s->hide_hi_card_pct } };
	unsigned k;

	for (k = 0; k < 2; k++) {
		sh[k][0] = s->card_pct - cb[k][1];
		sh[k][1] = s->bus_pct - cb[k][0];
		sh[k][2] = s->host_pct + cb[k][0] + cb[k][1];
	}
	sh[2][0] = s->crit_card_pct;
	sh[2][1] = s->crit_bus_pct;
	sh[2][2] = s->crit_host_pct;
	if (!(s->idle_amb_pct > 0))
		return 3;
	/* each again with the controller's possible idle clocks the bus's */
	for (k = 0; k < 3; k++) {
		double moved = sh[k][0] < s->idle_amb_pct ? sh[k][0] : s->idle_amb_pct;

		sh[3 + k][0] = sh[k][0] - moved;
		sh[3 + k][1] = sh[k][1] + moved;
		sh[3 + k][2] = sh[k][2];
	}
	return 6;
}

static bool holds_everywhere(const struct pick *p, double sh[6][3], unsigned n,
			     const struct phase_split *s)
{
	unsigned k;

	for (k = 0; k < n; k++)
		if (!pick_holds(p, sh[k], s))
			return false;
	return true;
}

/* The estimate's verdict if it holds over every corner; else a corner's
 * verdict that does; else undecided, naming a corner's other verdict. */
static void bound_verdicts(struct phase_split *s, struct pick *est)
{
	double sh[6][3];
	unsigned n = bound_corners(s, sh), k;

	s->undecided = 0;
	if (holds_everywhere(est, sh, n, s))
		return;
	for (k = 0; k < n; k++) {
		struct pick p = pick_of(sh[k], s->ceiling_pct);

		if (holds_everywhere(&p, sh, n, s)) {
			*est = p;
			return;
		}
	}
	s->undecided = 1;
	for (k = 0; k < n; k++) {
		struct pick p = pick_of(sh[k], s->ceiling_pct);

		if (p.verdict != est->verdict || p.top != est->top || p.second != est->second) {
			s->alt = p.verdict;
			s->alt_top = p.top;
			s->alt_second = p.second;
			return;
		}
	}
	s->alt = est->verdict;
	s->alt_top = est->top;
	s->alt_second = est->second;
}

static void decide(struct phase_split *s)
{
	double sh[3] = { s->crit_card_pct, s->crit_bus_pct, s->crit_host_pct };
	struct pick p = pick_of(sh, s->ceiling_pct);

	s->undecided = 0;
	if (s->wall_ns == 0) {
		s->top = p.top;
		s->second = p.second;
		s->verdict = BOTTLENECK_MIXED;
		s->verdict_pct = 0.0;
		return;
	}
	bound_verdicts(s, &p);
	s->top = p.top;
	s->second = p.second;
	s->verdict = p.verdict;
	s->verdict_pct = p.pct;
}

void phase_split(const struct phase_acc *a, unsigned width, uint32_t clock_hz,
		 int is_write, int multi, struct phase_split *out)
{
	phase_split_measured(a, width, clock_hz, is_write, multi, 0.0, out);
}

void phase_split_measured(const struct phase_acc *a, unsigned width, uint32_t clock_hz,
			  int is_write, int multi, double extra_clocks,
			  struct phase_split *out)
{
	phase_split_flags(a, width, clock_hz,
			  (is_write ? BUS_WRITE : 0u) | (multi ? BUS_MULTI | BUS_STOP : 0u),
			  extra_clocks, out);
}

/* The inputs of one split, derived once (SD clocks and ns). */
struct split_in {
	const struct phase_acc *a;
	uint32_t clock_hz;
	int is_write, multi;
	uint64_t pitch;       /* the model's block pitch, clocks */
	uint64_t fixed;       /* a single transfer's clocks beyond its pitch */
	uint64_t overlapped;  /* blocks after the first of each request: the pipeline */
	uint64_t window;      /* access + data */
	uint64_t phases;      /* cmd + access + data + busy */
	uint64_t first_frames;/* each request's first block, ns */
	int64_t cal_clocks;   /* the calibration's clocks per pipeline block beyond the
				 model: > 0 the card holding the bus idle, < 0 a model
				 too long (the bus is faster than its framing) */
	int fifo;             /* every request's driver looked at a FIFO smaller
				 than a block (phase_acc fifo_reqs) */
	uint32_t word_clk;    /* clocks of one 32-bit FIFO word on the bus */
	uint32_t blk_words;   /* FIFO words per block */
};

/* What one split books, in ns. */
struct split_ns {
	uint64_t bus_cmd, bus_acc, bus_pipe, bus_tail, bus_extra, bus_hidden;
	uint64_t card_acc, card_pipe, card_tail, card_clock;
	uint64_t host_ser, host_pipe, host_sw;
	uint64_t pipe, pipe_rest, cpu_work, bus_exp, first_left, tail_data, d_ns;
	uint64_t hide_lo_bus, hide_lo_card, hide_hi_bus, hide_hi_card; /* split_hideable */
	uint64_t unc;         /* the card / host line known to +- this */
};

/* Bus clocks of n pipeline blocks at the calibrated pitch: the model's,
 * shortened when the calibration measured a bus faster than the framing
 * (a clock-paced wait beyond the framing is the card's, not the bus's). */
static uint64_t pipe_bus_ns(const struct split_in *in, uint64_t n)
{
	int64_t per = (int64_t)in->pitch + (in->cal_clocks < 0 ? in->cal_clocks : 0);

	if (per < (int64_t)in->pitch / 2)
		per = (int64_t)in->pitch / 2;
	return bus_clocks_to_ns(n * (uint64_t)per, in->clock_hz);
}

/* Before the pipeline: a read's first block arrives inside the access
 * phase (its frame is bus, the rest card); a write's first block must be
 * filled by the CPU before the bus can start (host). After it: a read's
 * last block is drained by the CPU (host). Frames not inside the phase a
 * whole-block buffer puts them in (first_left) are in the data window: a
 * read's first frames when the data phase starts before the first block is
 * complete (a DMA engine started at the response, SDHOST's first 8-word
 * burst), a write's last frames while the CPU still fills SDHOST's 16-word
 * FIFO. */
/* With a FIFO smaller than a block the driver says how much of a frame is
 * outside the data window: a read's first words, in the FIFO when the
 * data phase began (with N_AC and the start bit before them), a write's
 * last words, still in the FIFO when the CPU had written them (with the
 * CRC, the end bit and the CRC status after them). */
static uint64_t fifo_frames_ns(const struct split_in *in)
{
	const struct phase_acc *a = in->a;
	uint64_t words = a->fifo_words < a->ops * in->blk_words ? a->fifo_words :
			 a->ops * in->blk_words;
	uint64_t per = in->is_write ?
		       in->pitch - BUS_NWR_MIN_CLOCKS - 1u - in->blk_words * in->word_clk :
		       BUS_NAC_MIN_CLOCKS + 1u;

	return bus_clocks_to_ns(a->ops * per + words * in->word_clk, in->clock_hz);
}

static void split_window(const struct split_in *in, struct split_ns *n)
{
	const struct phase_acc *a = in->a;

	if (in->is_write) {
		uint64_t post = in->fifo ? min_u64(fifo_frames_ns(in), in->first_frames) :
				in->first_frames;

		n->host_ser = min_u64(a->host_serial_ns, in->window);
		n->pipe = in->window - n->host_ser;
		n->first_left = a->busy_ns < post ? in->first_frames - a->busy_ns :
				in->first_frames - post;
	} else {
		n->bus_acc = min_u64(in->fifo ? fifo_frames_ns(in) : in->first_frames,
				     a->access_ns);
		n->card_acc = a->access_ns - n->bus_acc;
		n->host_ser = min_u64(a->host_serial_ns, a->data_ns);
		n->pipe = a->data_ns - n->host_ser;
		n->first_left = in->first_frames - n->bus_acc;
	}
}

/* The idle bus of the pipeline that the CPU was the last to come for
 * (docs/attribution.md §3, "CPU and card overlap"). The CPU works on one
 * block while the bus carries, and the card serves, the next one: a
 * block's idle bus is the CPU's only when the CPU came after the card, and
 * then the CPU found that block ready at its first look. The SDHCI driver
 * counts the blocks it had to wait for (wait_blocks) and how long
 * (wait_ns): the blocks it did not wait for had the CPU last, and their
 * idle bus is the CPU's work beyond the frame plus its bookkeeping - the
 * idle bus less the measured waits, in the share of those blocks. On a
 * read it also measures how long the bus stood for the CPU (stood_ns):
 * that is the host's part. Without
 * a count (SDHOST's 16-word FIFO, DMA) the rule from the totals: the idle
 * bus beyond the CPU's own waits, and a CPU busy for at least
 * ATTR_CPU_PACED_PCT % of the pipeline counts as never waiting. */
/* The card's part of the idle bus from the seams the driver measured
 * (docs/attribution.md, "A FIFO smaller than a block"): between the two
 * looks the bus carried the words that moved and each seam's protocol
 * minimum (the CRC and end bit, N_AC or the CRC status and N_WR, a start
 * bit: the pitch less the block's words); the rest it waited for the
 * card. Where the bus may also have waited for the CPU the card's part
 * is taken as half: it lies between none and all of it. */
static uint64_t seam_full_half(const struct split_in *in)
{
	const struct phase_acc *a = in->a;
	uint64_t per = in->pitch - in->blk_words * in->word_clk;
	uint64_t bus_full = bus_clocks_to_ns(a->seams_full * per +
					     a->seam_full_words * in->word_clk, in->clock_hz);

	return a->seam_full_ns > bus_full ? (a->seam_full_ns - bus_full) / 2 : 0;
}

static uint64_t seam_card_ns(const struct split_in *in)
{
	const struct phase_acc *a = in->a;
	uint64_t per = in->pitch - in->blk_words * in->word_clk;
	uint64_t bus = bus_clocks_to_ns(a->seams * per + a->seam_words * in->word_clk,
					in->clock_hz);

	return (a->seam_ns > bus ? a->seam_ns - bus : 0) + seam_full_half(in);
}

static uint64_t pipeline_host(const struct split_in *in, struct split_ns *n)
{
	const struct phase_acc *a = in->a;
	uint64_t cpu_wait;

	if (!(in->overlapped > 0 || n->first_left))
		return 0;
	if (in->fifo && a->seams + a->seams_full >= in->overlapped) {
		/* Inside a block the card does not pause: all the idle bus
		 * but the seams' waits for the card is the CPU's (the FIFO
		 * full on a read, empty on a write). */
		uint64_t card = seam_card_ns(in);

		n->unc = seam_full_half(in);
		return n->pipe_rest > card ? n->pipe_rest - card : 0;
	}
	if (a->counted_blocks && a->counted_blocks >= in->overlapped && in->overlapped) {
		uint64_t waited = min_u64(a->wait_blocks, in->overlapped);
		uint64_t rest = n->pipe_rest - min_u64(a->wait_ns, n->pipe_rest);

		/* a read's driver measured how long the bus stood for it */
		if (a->stood_blocks >= in->overlapped) {
			/* each arrival dated to the middle of an interval
			 * the look could not resolve: the host line (and the
			 * card's, its complement) known to +- their sum */
			n->unc = a->stood_unc_ns;
			return min_u64(a->stood_ns, n->pipe_rest);
		}
		return (uint64_t)((double)rest * (double)(in->overlapped - waited) /
				  (double)in->overlapped + 0.5);
	}
	cpu_wait = n->pipe - n->cpu_work;
	if (100.0 * (double)n->cpu_work >= ATTR_CPU_PACED_PCT * (double)n->pipe)
		cpu_wait = 0;
	return n->pipe_rest > cpu_wait ? n->pipe_rest - cpu_wait : 0;
}

/* The fewest and the most pipeline blocks whose frame and card wait hid
 * behind the CPU (docs/attribution.md §3, "Bounds of the critical
 * path"). With c the CPU's work per block, b a frame and g_k the card's
 * wait of block k, the CPU comes last where c > b + g_k: the bus then
 * stands for it c - b - g_k (the host's idle bus H sums those), and
 * elsewhere the card keeps it idle g_k >= c - b (the card's idle bus G
 * sums all g_k). So with d = c - b the number S of such blocks satisfies
 * H / d <= S <= (H + G) / d and S >= N - G / d; each hides b of bus and
 * S d - H of card in all. A CPU no slower than the frames hides none. */
static void split_hideable(const struct split_in *in, struct split_ns *n)
{
	uint64_t nb = in->overlapped ? in->overlapped : in->a->ops;
	double d, b, h = (double)n->host_pipe, g = (double)n->card_pipe, lo, hi, t;

	n->hide_lo_bus = n->hide_lo_card = n->hide_hi_bus = n->hide_hi_card = 0;
	if (!nb)
		return;
	/* A CPU within ATTR_PACE_TIE_PCT of the frames: its work per block
	 * varies about b, and any block's frame may have hidden (none to all). */
	if (100.0 * (double)n->cpu_work >= (100.0 - ATTR_PACE_TIE_PCT) * (double)n->bus_pipe &&
	    100.0 * (double)n->cpu_work <= (100.0 + ATTR_PACE_TIE_PCT) * (double)n->bus_pipe) {
		n->hide_hi_bus = n->bus_pipe;
		return;
	}
	if (n->cpu_work <= n->bus_pipe)
		return;
	d = (double)(n->cpu_work - n->bus_pipe) / (double)nb;
	b = (double)n->bus_pipe / (double)nb;
	lo = h / d > (double)nb - g / d ? h / d : (double)nb - g / d;
	hi = (h + g) / d < (double)nb ? (h + g) / d : (double)nb;
	lo = lo < 0 ? 0 : lo > (double)nb ? (double)nb : lo;
	if (lo > hi) {
		t = lo;
		lo = hi;
		hi = t;
	}
	n->hide_lo_bus = (uint64_t)(b * lo);
	n->hide_hi_bus = (uint64_t)(b * hi);
	t = lo * d - h;
	n->hide_lo_card = t <= 0 ? 0 : t >= g ? n->card_pipe : (uint64_t)t;
	t = hi * d - h;
	n->hide_hi_card = t <= 0 ? 0 : t >= g ? n->card_pipe : (uint64_t)t;
}

/* The pipeline: the other blocks' frames, the CPU working in parallel on
 * the neighbouring block. Where the bus idles it waited for the card or
 * for the CPU (pipeline_host). The card's part that the calibration
 * measured as scaling with the clock is its clock-paced share. */
static void split_pipeline(const struct split_in *in, struct split_ns *n)
{
	const struct phase_acc *a = in->a;
	uint64_t clk;

	n->cpu_work = min_u64(a->host_ns > a->host_serial_ns ? a->host_ns - a->host_serial_ns : 0,
			      n->pipe);
	n->bus_exp = pipe_bus_ns(in, in->overlapped) + n->first_left;
	n->bus_pipe = min_u64(n->bus_exp, n->pipe);
	n->pipe_rest = n->pipe - n->bus_pipe;
	n->host_pipe = pipeline_host(in, n);
	n->card_pipe = n->pipe_rest - n->host_pipe;
	/* The frames hide behind the CPU when its work took longer than
	 * everything else in the pipeline (the frames and the card's part
	 * of the idle bus): a faster bus would have gained nothing. With a
	 * FIFO smaller than a block the CPU works on the block whose frame
	 * is on the bus, and the card waits at the seams: its work against
	 * the frames alone. */
	n->bus_hidden = n->host_pipe && n->cpu_work >= n->bus_pipe + (in->fifo ? 0 : n->card_pipe) ?
			n->bus_pipe : 0;
	split_hideable(in, n);
	clk = in->cal_clocks > 0 ?
	      bus_clocks_to_ns(in->overlapped * (uint64_t)in->cal_clocks, in->clock_hz) : 0;
	n->card_clock = min_u64(clk, n->card_acc + n->card_pipe);
}

/* After the data window: a write's last block (and what the window could
 * not hold) still on the bus, the CRC status and the programming busy
 * (card); a read's CMD12 and the controller's completion (host); the card
 * layer's own commands in the gaps (explicit CMD23, CMD13 polls: bus). */
static void split_tail(const struct split_in *in, struct split_ns *n)
{
	const struct phase_acc *a = in->a;
	uint64_t stop_ns = in->multi ? bus_clocks_to_ns(a->ops * (uint64_t)bus_cmd_r1_clocks(),
						       in->clock_hz) : 0;
	uint64_t cmd_bus = bus_clocks_to_ns(a->ops * (uint64_t)bus_cmd_r1_clocks(), in->clock_hz);
	uint64_t tail_rest;

	n->bus_cmd = min_u64(cmd_bus, a->cmd_ns);
	if (in->is_write) {
		n->tail_data = min_u64(in->first_frames - n->first_left + (n->bus_exp - n->bus_pipe),
				       a->busy_ns);
		n->bus_tail = min_u64(n->tail_data + stop_ns, a->busy_ns);
	} else {
		n->bus_tail = min_u64(stop_ns, a->busy_ns);
	}
	tail_rest = a->busy_ns - n->bus_tail;
	n->card_tail = in->is_write ? tail_rest : 0;
	n->bus_extra = min_u64(bus_clocks_to_ns(a->extra_cmds * (uint64_t)bus_cmd_r1_clocks(),
						in->clock_hz), a->gap_ns);
	n->host_sw = a->gap_ns - n->bus_extra + (a->cmd_ns - n->bus_cmd) +
		     (in->is_write ? 0 : tail_rest) +
		     (a->total_ns > in->phases ? a->total_ns - in->phases : 0);
}

/* The booked ns as shares of the wall time, and the derived figures. */
static void split_shares(const struct split_in *in, const struct split_ns *n,
			 struct phase_split *out)
{
	const struct phase_acc *a = in->a;
	uint64_t wall = (a->total_ns > in->phases ? a->total_ns : in->phases) + a->gap_ns;
	uint64_t bus = n->bus_cmd + n->bus_acc + n->bus_pipe + n->bus_tail + n->bus_extra;
	uint64_t card_win = n->card_acc + n->card_pipe, host_win = n->host_ser + n->host_pipe;

	out->wall_ns = wall;
	out->card_pct = pct(card_win + n->card_tail, wall);
	out->bus_pct = pct(bus, wall);
	out->host_pct = pct(host_win + n->host_sw, wall);
	out->card_access_pct = pct(card_win, wall);
	out->card_busy_pct = pct(n->card_tail, wall);
	out->card_clock_pct = pct(n->card_clock, wall);
	out->host_xfer_pct = pct(host_win, wall);
	out->host_sw_pct = pct(n->host_sw, wall);
	out->cmd_pct = pct(a->cmd_ns, wall);
	out->access_pct = pct(a->access_ns, wall);
	out->data_pct = pct(a->data_ns, wall);
	out->busy_pct = pct(a->busy_ns, wall);
	out->gap_pct = pct(a->gap_ns, wall);
	out->bus_efficiency_pct = pct(n->d_ns, in->window + n->tail_data);
	out->pipe_pct = pct(n->pipe, wall);
	out->cpu_busy_pct = pct(n->cpu_work, n->pipe);
	out->cpu_pace_pct = pct(n->host_pipe, n->pipe_rest);
	out->crit_card_pct = out->card_pct;
	out->crit_bus_pct = pct(bus - n->bus_hidden, wall);
	out->crit_host_pct = pct(host_win + n->host_sw + n->bus_hidden, wall);
	out->hide_lo_bus_pct = pct(n->hide_lo_bus, wall);
	out->hide_lo_card_pct = pct(n->hide_lo_card, wall);
	out->hide_hi_bus_pct = pct(n->hide_hi_bus, wall);
	out->hide_hi_card_pct = pct(n->hide_hi_card, wall);
	out->share_unc_pct = pct(n->unc, wall);
	out->share_full_pct = pct(a->seams_full, a->seams + a->seams_full);
}

/* Ceiling: the same requests at bus speed with a card of zero latency and
 * an infinitely fast host. */
static void split_ceiling(const struct split_in *in, struct phase_split *out)
{
	const struct phase_acc *a = in->a;
	uint64_t ceil_ns = in->multi ?
			   bus_clocks_to_ns(a->ops * in->fixed + a->blocks * in->pitch, in->clock_hz) -
			   bus_clocks_to_ns(in->overlapped * in->pitch, in->clock_hz) +
			   pipe_bus_ns(in, in->overlapped) :
			   bus_clocks_to_ns(a->blocks * (in->fixed + in->pitch), in->clock_hz);

	out->ceiling_pct = pct(ceil_ns, out->wall_ns);
	out->mbs = out->wall_ns ? (double)a->bytes * 1e3 / (double)out->wall_ns : 0.0;
	out->ceiling_mbs = ceil_ns ? (double)a->bytes * 1e3 / (double)ceil_ns : 0.0;
}

void phase_split_flags(const struct phase_acc *a, unsigned width, uint32_t clock_hz,
		       unsigned flags, double extra_clocks, struct phase_split *out)
{
	uint32_t blksz = a->blocks ? (uint32_t)(a->bytes / a->blocks) : 512u;
	struct split_in in = { 0 };
	struct split_ns n = { 0 };

	in.a = a;
	in.clock_hz = clock_hz;
	in.is_write = (flags & BUS_WRITE) != 0;
	in.multi = (flags & BUS_MULTI) != 0;
	in.pitch = bus_block_pitch_clocks(blksz, width, flags);
	in.fixed = bus_xfer_clocks(1, blksz, width, flags) - in.pitch;
	in.overlapped = a->blocks > a->ops ? a->blocks - a->ops : 0;
	in.window = a->access_ns + a->data_ns;
	in.phases = a->cmd_ns + a->access_ns + a->data_ns + a->busy_ns;
	in.first_frames = bus_clocks_to_ns(a->ops * in.pitch, clock_hz);
	in.cal_clocks = (int64_t)(extra_clocks + (extra_clocks < 0 ? -0.5 : 0.5));
	in.fifo = a->ops && a->fifo_reqs >= a->ops && !(flags & BUS_DDR) && width;
	in.word_clk = width ? 32u / width : 32u;
	in.blk_words = blksz / 4u;

	*out = (struct phase_split){ 0 };
	out->clock_hz = clock_hz;
	out->width = width;
	out->is_write = in.is_write;
	out->bus_extra_clocks = (double)in.cal_clocks;
	out->card_idle_clocks = in.cal_clocks > 0 ? (double)in.cal_clocks : 0.0;
	n.d_ns = bus_clocks_to_ns(a->blocks * in.pitch, clock_hz) - bus_clocks_to_ns(in.overlapped *
		 in.pitch, clock_hz) + pipe_bus_ns(&in, in.overlapped);
	split_window(&in, &n);
	split_pipeline(&in, &n);
	split_tail(&in, &n);
	split_shares(&in, &n, out);
	split_ceiling(&in, out);
	decide(out);
}

static double wavg(double a, uint64_t wa, double b, uint64_t wb)
{
	return (wa + wb) ? (a * (double)wa + b * (double)wb) / (double)(wa + wb) : 0.0;
}

void phase_split_idle(struct phase_split *s, uint32_t idle_clk_max)
{
	double clk = s->card_idle_clocks, amb = s->card_clock_pct;

	if (!s->wall_ns || !(clk > 0) || !(amb > 0))
		return;
	if ((double)idle_clk_max < clk)
		amb *= (double)idle_clk_max / clk;
	s->idle_amb_pct = amb;
	if (amb > 0)
		decide(s);
}

void phase_split_combine(const struct phase_split *rd, const struct phase_split *wr,
			 struct phase_split *out)
{
	uint64_t a = rd->wall_ns, b = wr->wall_ns;
	double ceil_ns;
	struct phase_split s = { 0 };

#define W_(f) s.f = wavg(rd->f, a, wr->f, b)
	W_(card_pct); W_(bus_pct); W_(host_pct);
	W_(cmd_pct); W_(access_pct); W_(data_pct); W_(busy_pct); W_(gap_pct);
	W_(card_access_pct); W_(card_busy_pct); W_(host_xfer_pct); W_(host_sw_pct);
	W_(ceiling_pct); W_(mbs);
	W_(crit_card_pct); W_(crit_bus_pct); W_(crit_host_pct);
	W_(pipe_pct); W_(cpu_busy_pct); W_(cpu_pace_pct); W_(card_clock_pct);
	W_(hide_lo_bus_pct); W_(hide_lo_card_pct); W_(hide_hi_bus_pct); W_(hide_hi_card_pct);
	W_(share_unc_pct); W_(share_full_pct);
	/* an approximation: each side's data window is not kept */
	W_(bus_efficiency_pct);
#undef W_
	/* mbs and ceiling % are bytes / wall and ceiling / wall: weighting by
	 * wall sums the bytes and the ceiling times */
	ceil_ns = (rd->ceiling_pct * (double)a + wr->ceiling_pct * (double)b) / 100.0;
	s.ceiling_mbs = ceil_ns > 0.0 ? s.mbs * (double)(a + b) / ceil_ns : 0.0;
	s.wall_ns = a + b;
	s.bus_extra_clocks = rd->bus_extra_clocks > wr->bus_extra_clocks ? rd->bus_extra_clocks :
									wr->bus_extra_clocks;
	s.card_idle_clocks = rd->card_idle_clocks > wr->card_idle_clocks ? rd->card_idle_clocks :
									wr->card_idle_clocks;
	s.clock_hz = a >= b ? rd->clock_hz : wr->clock_hz;
	s.width = a >= b ? rd->width : wr->width;
	s.is_write = a == 0 ? 1 : b == 0 ? 0 : 2;
	decide(&s);
	*out = s;
}

const char *bottleneck_name(enum bottleneck b)
{
	switch (b) {
	case BOTTLENECK_CARD: return "card-bound";
	case BOTTLENECK_BUS: return "bus-bound";
	case BOTTLENECK_HOST: return "host-bound";
	case BOTTLENECK_MIXED: return "mixed";
	}
	return "unknown";
}

/* ---- the verdict line ------------------------------------------------- */

struct line {
	char *buf;
	unsigned cap, len;
};

static void add(struct line *l, const char *f, ...) __attribute__((format(printf, 2, 3)));

static void add(struct line *l, const char *f, ...)
{
	va_list ap;
	int n;

	if (l->len >= l->cap)
		return;
	va_start(ap, f);
	n = fmt_vsnprintf(l->buf + l->len, l->cap - l->len, f, ap);
	va_end(ap);
	if (n > 0)
		l->len += (unsigned)n;
	if (l->len >= l->cap)
		l->len = l->cap - 1u; /* truncated, still terminated */
}

static void add_clock(struct line *l, uint32_t hz, unsigned width)
{
	if (hz % 1000000u == 0)
		add(l, "%u MHz", (unsigned)(hz / 1000000u));
	else if (hz >= 1000000u)
		add(l, "%.2f MHz", hz / 1e6);
	else if (hz % 1000u == 0)
		add(l, "%u kHz", (unsigned)(hz / 1000u));
	else
		add(l, "%.1f kHz", hz / 1e3);
	add(l, " %u-bit", width);
}

static const char *part_word(enum bottleneck b)
{
	return b == BOTTLENECK_CARD ? "card" : b == BOTTLENECK_BUS ? "bus" : "host";
}

static void add_card_parts(struct line *l, const struct phase_split *s, int is_write)
{
	const char *win = is_write == 1 ? "data stalls" :
			  is_write == 0 ? "access latency" : "access latency and stalls";
	double w = s->card_access_pct, t = s->card_busy_pct;

	if (t > w) {
		add(l, "programming busy %.0f%%", t);
		if (w >= 0.5)
			add(l, ", %s %.0f%%", win, w);
	} else {
		add(l, "%s %.0f%%", win, w);
		if (t >= 0.5)
			add(l, ", programming busy %.0f%%", t);
	}
}

/* The card's clock-paced waits, when they are a sizeable share: a faster
 * clock shortens them too (docs/attribution.md §4). */
static void add_clock_paced(struct line *l, const struct phase_split *s)
{
	if (s->card_clock_pct >= ATTR_CLOCK_SAY_PCT && s->card_idle_clocks >= 1.0)
		add(l, "; the card holds the bus idle about %.0f clocks between blocks; a faster "
		    "clock shortens that too", s->card_idle_clocks);
}

void phase_verdict_text(const struct phase_split *s, int is_write, char *buf, unsigned cap)
{
	struct line l = { buf, cap, 0 };

	/* a combined read/write split keeps its own wording */
	if (s->is_write == 2)
		is_write = 2;

	if (cap == 0)
		return;
	buf[0] = '\0';
	add(&l, "%s - ", bottleneck_name(s->verdict));
	switch (s->verdict) {
	case BOTTLENECK_BUS:
		if (s->ceiling_pct >= ATTR_CEILING_BUS_PCT) {
			add(&l, "%.1f%% of the ", s->ceiling_pct);
			add_clock(&l, s->clock_hz, s->width);
			add(&l, " ceiling");
		} else {
			add(&l, "bus %.0f%%, card %.0f%%, host %.0f%%; %.1f%% of the ",
			    s->bus_pct, s->card_pct, s->host_pct, s->ceiling_pct);
			add_clock(&l, s->clock_hz, s->width);
			add(&l, " ceiling");
		}
		break;
	case BOTTLENECK_CARD:
		add_card_parts(&l, s, is_write);
		add(&l, ", bus %.0f%%, host %.0f%%", s->bus_pct, s->host_pct);
		add_clock_paced(&l, s);
		break;
	case BOTTLENECK_HOST:
		if (s->crit_host_pct - s->host_pct >= 0.5) {
			add(&l, "the CPU moving data sets the pace (critical %.0f%%); "
			    "bus busy %.0f%%, waiting for the host %.0f%%, card %.0f%%",
			    s->crit_host_pct, s->bus_pct, s->host_pct, s->card_pct);
			break;
		}
		add(&l, "CPU moving data %.0f%%, software overhead %.0f%%, bus %.0f%%, card %.0f%%",
		    s->host_xfer_pct, s->host_sw_pct, s->bus_pct, s->card_pct);
		break;
	case BOTTLENECK_MIXED:
	default:
		if (s->wall_ns == 0) {
			add(&l, "nothing measured");
			break;
		}
		/* rewrite the head: "mixed card/bus - " */
		l.len = 0;
		add(&l, "mixed %s/%s - ", part_word(s->top), part_word(s->second));
		add(&l, "card %.0f%%, bus %.0f%%, host %.0f%%", s->card_pct, s->bus_pct,
		    s->host_pct);
		if (s->crit_host_pct - s->host_pct >= 0.5)
			add(&l, "; the CPU sets the pace (critical: bus %.0f%%, "
			    "host %.0f%%)", s->crit_bus_pct, s->crit_host_pct);
		else if (s->top == BOTTLENECK_CARD || s->second == BOTTLENECK_CARD)
			add_clock_paced(&l, s);
		break;
	}
}

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
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void decide(struct phase_split *s)
{
	enum bottleneck order[3] = { BOTTLENECK_CARD, BOTTLENECK_BUS, BOTTLENECK_HOST };
	double share[3] = { s->crit_card_pct, s->crit_bus_pct, s->crit_host_pct };
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
	s->top = order[0];
	s->second = order[1];
	if (s->wall_ns == 0) {
		s->verdict = BOTTLENECK_MIXED;
		s->verdict_pct = 0.0;
		return;
	}
	if (s->ceiling_pct >= ATTR_CEILING_BUS_PCT) {
		s->verdict = BOTTLENECK_BUS;
		s->verdict_pct = s->crit_bus_pct;
		return;
	}
	s->verdict_pct = share[0];
	s->verdict = share[0] >= ATTR_DOMINANT_PCT ? order[0] : BOTTLENECK_MIXED;
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

void phase_split_flags(const struct phase_acc *a, unsigned width, uint32_t clock_hz,
		       unsigned flags, double extra_clocks, struct phase_split *out)
{
	int is_write = (flags & BUS_WRITE) != 0;
	int multi = (flags & BUS_MULTI) != 0;
	uint32_t blksz = a->blocks ? (uint32_t)(a->bytes / a->blocks) : 512u;
	uint64_t model_pitch = bus_block_pitch_clocks(blksz, width, flags);
	/* A measured bus never runs faster than its framing. The measured
	 * clocks are the controller's between blocks: they lengthen the pitch
	 * of the pipeline's blocks (after the first of each request). */
	uint64_t extra = extra_clocks > 0.0 ? (uint64_t)(extra_clocks + 0.5) : 0;
	uint64_t pitch = model_pitch;
	uint64_t fixed = bus_xfer_clocks(1, blksz, width, flags) - model_pitch;
	uint64_t phases = a->cmd_ns + a->access_ns + a->data_ns + a->busy_ns;
	uint64_t window = a->access_ns + a->data_ns;
	uint64_t d_ns, stop_ns, cmd_bus, ceil_clk, ceil_ns;
	uint64_t bus_cmd, bus_win, bus_tail, host_win, card_win, card_tail;
	uint64_t host_sw, tail_rest, wall, tail_data = 0, bus_extra;
	uint64_t overlapped, bus_exp, first_frames, bus_acc, card_acc, host_ser;
	uint64_t pipe, cpu_work, cpu_wait, bus_pipe, pipe_rest, host_pipe, bus_hidden;
	uint64_t first_left;

	*out = (struct phase_split){ 0 };
	out->clock_hz = clock_hz;
	out->width = width;
	out->is_write = is_write;
	out->bus_extra_clocks = (double)extra;

	/* Theoretical bus time, split by where it falls in the phases. */
	d_ns = bus_clocks_to_ns(a->blocks * pitch + (a->blocks > a->ops ? a->blocks - a->ops : 0) *
				extra, clock_hz);
	/* blocks after the first of each request: the pipeline */
	overlapped = a->blocks > a->ops ? a->blocks - a->ops : 0;
	stop_ns = multi ? bus_clocks_to_ns(a->ops * (uint64_t)bus_cmd_r1_clocks(), clock_hz) : 0;
	cmd_bus = bus_clocks_to_ns(a->ops * (uint64_t)bus_cmd_r1_clocks(), clock_hz);

	bus_cmd = min_u64(cmd_bus, a->cmd_ns);
	/* Before the pipeline: a read's first block arrives inside the access
	 * phase (its frame is bus, the rest card); a write's first block must
	 * be filled by the CPU before the bus can start (host). After it: a
	 * read's last block is drained by the CPU (host). */
	first_frames = bus_clocks_to_ns(a->ops * pitch, clock_hz);
	if (is_write) {
		bus_acc = 0;
		card_acc = 0;
		host_ser = min_u64(a->host_serial_ns, window);
		pipe = window - host_ser;
	} else {
		bus_acc = min_u64(first_frames, a->access_ns);
		card_acc = a->access_ns - bus_acc;
		host_ser = min_u64(a->host_serial_ns, a->data_ns);
		pipe = a->data_ns - host_ser;
	}
	/* A read's first frames that did not fit in the access phase are in
	 * the data phase: a controller whose data phase starts before the
	 * first block is complete (the DMA engine started at the response;
	 * SDHOST's 16-word FIFO, whose first burst is not the whole block)
	 * still had them on the bus. */
	first_left = is_write ? 0 : first_frames - bus_acc;
	/* Likewise a write's last frames that are not after the CPU's last
	 * word (SDHOST's FIFO holds 16 words, not a block: most of the last
	 * block is on the bus while the CPU or the DMA engine still fills
	 * it) are in the data window. */
	if (is_write && a->busy_ns < first_frames)
		first_left = first_frames - a->busy_ns;
	/* The pipeline: the other blocks' frames, the CPU working in parallel
	 * on the neighbouring block. Where the bus idles (pipe_rest), it
	 * waited either for the card or for the CPU. The CPU's timestamps
	 * tell how long the CPU itself waited inside the pipeline (the part
	 * of it not spent moving data): while the CPU waited, it was not the
	 * one the idle bus waited for, so up to that much idle time is the
	 * card's; the rest of the idle time had the CPU as the last to come
	 * (the card's gaps had slack behind it) and is host time. A CPU that
	 * never waits sets the whole pace; a few card stalls behind a slow
	 * CPU cost the card only what the CPU waited for them. (Per-block
	 * stamps cannot tell this for writes: with a two-block FIFO the CPU
	 * finds space at once while the bus waits for the card.) */
	cpu_work = min_u64(a->host_ns > a->host_serial_ns ?
			   a->host_ns - a->host_serial_ns : 0, pipe);
	bus_exp = bus_clocks_to_ns(overlapped * (pitch + extra), clock_hz) + first_left;
	bus_pipe = min_u64(bus_exp, pipe);
	pipe_rest = pipe - bus_pipe;
	/* Between blocks the CPU also checks the status and keeps its books,
	 * which its data-moving time does not include: a CPU busy for at
	 * least ATTR_CPU_PACED_PCT % of the pipeline is taken as never
	 * waiting (it set the whole pace). */
	cpu_wait = pipe - cpu_work;
	if (100.0 * (double)cpu_work >= ATTR_CPU_PACED_PCT * (double)pipe)
		cpu_wait = 0;
	host_pipe = (overlapped > 0 || first_left) && pipe_rest > cpu_wait ? pipe_rest - cpu_wait : 0;
	/* The frames hide behind the CPU when its work took longer than
	 * everything else in the pipeline (the frames and the card's part of
	 * the idle bus): then the CPU is the critical path there and a faster
	 * bus would have gained nothing. */
	bus_hidden = host_pipe && cpu_work >= bus_pipe + (pipe_rest - host_pipe) ? bus_pipe : 0;
	host_win = host_ser + host_pipe;
	bus_win = bus_acc + bus_pipe;
	card_win = card_acc + (pipe_rest - host_pipe);
	if (is_write) {
		/* the last block of each request is on the bus after the CPU is
		 * done, and so is what the window could not hold */
		tail_data = min_u64(first_frames - first_left + (bus_exp - bus_pipe), a->busy_ns);
		bus_tail = min_u64(tail_data + stop_ns, a->busy_ns);
	} else {
		bus_tail = min_u64(stop_ns, a->busy_ns);
	}
	tail_rest = a->busy_ns - bus_tail;
	card_tail = is_write ? tail_rest : 0;
	/* The card layer's own commands in the gaps (explicit CMD23, CMD13
	 * polls after a write) are on the bus for their frames. */
	bus_extra = min_u64(bus_clocks_to_ns(a->extra_cmds * (uint64_t)bus_cmd_r1_clocks(),
					     clock_hz), a->gap_ns);
	host_sw = a->gap_ns - bus_extra + (a->cmd_ns - bus_cmd) + (is_write ? 0 : tail_rest) +
		  (a->total_ns > phases ? a->total_ns - phases : 0);
	wall = (a->total_ns > phases ? a->total_ns : phases) + a->gap_ns;
	out->wall_ns = wall;

	out->card_pct = pct(card_win + card_tail, wall);
	out->bus_pct = pct(bus_cmd + bus_win + bus_tail + bus_extra, wall);
	out->host_pct = pct(host_win + host_sw, wall);
	out->card_access_pct = pct(card_win, wall);
	out->card_busy_pct = pct(card_tail, wall);
	out->host_xfer_pct = pct(host_win, wall);
	out->host_sw_pct = pct(host_sw, wall);
	out->cmd_pct = pct(a->cmd_ns, wall);
	out->access_pct = pct(a->access_ns, wall);
	out->data_pct = pct(a->data_ns, wall);
	out->busy_pct = pct(a->busy_ns, wall);
	out->gap_pct = pct(a->gap_ns, wall);
	out->bus_efficiency_pct = pct(d_ns, window + tail_data);
	out->pipe_pct = pct(pipe, wall);
	out->cpu_busy_pct = pct(cpu_work, pipe);
	out->cpu_pace_pct = pct(host_pipe, pipe_rest);
	out->crit_card_pct = out->card_pct;
	out->crit_bus_pct = pct(bus_cmd + bus_win + bus_tail + bus_extra - bus_hidden, wall);
	out->crit_host_pct = pct(host_win + host_sw + bus_hidden, wall);

	/* Ceiling: the same requests at bus speed with a card of zero
	 * latency and an infinitely fast host. */
	ceil_clk = multi ? a->ops * fixed + a->blocks * pitch + overlapped * extra :
		   a->blocks * (fixed + pitch);
	ceil_ns = bus_clocks_to_ns(ceil_clk, clock_hz);
	out->ceiling_pct = pct(ceil_ns, wall);
	out->mbs = wall ? (double)a->bytes * 1e3 / (double)wall : 0.0;
	out->ceiling_mbs = ceil_ns ? (double)a->bytes * 1e3 / (double)ceil_ns : 0.0;
	decide(out);
}

static double wavg(double a, uint64_t wa, double b, uint64_t wb)
{
	return (wa + wb) ? (a * (double)wa + b * (double)wb) / (double)(wa + wb) : 0.0;
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
	W_(pipe_pct); W_(cpu_busy_pct); W_(cpu_pace_pct);
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
		break;
	}
}

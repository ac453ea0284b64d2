/*
 * phase_ticks.c - the one step of the attribution that needs the
 * timer: raw sd_req_times ticks to ns phases (see attribution.h). Kept
 * apart so that everything else links and tests without a clock.
 *
 * A timestamp of 0 means "phase did not happen" (sd_host.h); a genuine
 * reading of 0 (once per wrap) is taken as missing, which loses that one
 * phase of that one request.
 */
#include "bench/engine/phase_ticks.h"
#include "drivers/timer.h"

static inline uint64_t span_ns(uint32_t from, uint32_t to)
{
	if (from == 0 || to == 0)
		return 0;
	/* unsigned difference: correct across one counter wrap */
	return timer_ticks_to_ns(to - from);
}

/* The phases of a request; last: the stamp the request ended at. */
#define PHASES_FROM_TIMES(t, cmd, access, data, busy, host, total) do { \
	uint32_t last_ = (t)->t_end ? (t)->t_end : \
			 (t)->t_data_done ? (t)->t_data_done : (t)->t_cmd_done; \
	(cmd) = span_ns((t)->t_issue, (t)->t_cmd_done); \
	if ((t)->t_first_data && (t)->t_data_done) { \
		(access) = span_ns((t)->t_cmd_done, (t)->t_first_data); \
		(data) = span_ns((t)->t_first_data, (t)->t_data_done); \
		(busy) = span_ns((t)->t_data_done, (t)->t_end); \
	} else { \
		/* no data phase: the tail is the R1b busy, if any */ \
		(access) = (data) = 0; \
		(busy) = span_ns((t)->t_cmd_done, (t)->t_end); \
	} \
	(host) = (t)->host_ticks ? timer_ticks64_to_ns((t)->host_ticks) : 0; \
	(total) = span_ns((t)->t_issue, last_); \
} while (0)

void phase_ns_from_times(const struct sd_req_times *t, struct phase_ns *out)
{
	PHASES_FROM_TIMES(t, out->cmd_ns, out->access_ns, out->data_ns, out->busy_ns,
			  out->host_ns, out->total_ns);
	out->extra_cmds = t->extra_cmds;
}

/* The driver's count of the blocks the CPU waited for (sd_host.h). */
static void add_waits64(struct phase_acc *a, const struct sd_req_times *t, uint32_t blocks,
			uint64_t wait_ns)
{
	a->undecided_blocks += t->undecided_blocks;
	a->undecided_looks |= t->undecided_looks;
	if (!t->waits_counted || blocks < 2)
		return;
	a->counted_blocks += blocks - 1u;
	a->wait_blocks += t->wait_blocks;
	a->wait_ns += wait_ns;
	if (t->waits_counted == 2) {
		a->stood_blocks += blocks - 1u;
		a->stood_ns += timer_ticks64_to_ns(t->stood_ticks);
		a->stood_unc_ns += timer_ticks64_to_ns(t->stood_unc_ticks);
	}
}

/* The driver's looks at a FIFO smaller than a block (sd_host.h). */
static void add_fifo64(struct phase_acc *a, const struct sd_req_times *t)
{
	if (!t->fifo_counted)
		return;
	a->fifo_reqs++;
	a->fifo_words += t->fifo_words;
	a->seam_ns += timer_ticks64_to_ns(t->seam_ticks);
	a->seam_words += t->seam_words;
	a->seams += t->seams;
	a->seam_full_ns += timer_ticks64_to_ns(t->seam_full_ticks);
	a->seam_full_words += t->seam_full_words;
	a->seams_full += t->seams_full;
}

/* Once per operation of every workload: straight from the stamps into the
 * accumulator, without the struct phase_ns in between (no memset, no
 * second pass over it). */
/* A measured serial drain replaces host / blocks (sd_host.h): the serial
 * part was serial0 before the request, host its CPU work (within the
 * access + data window). */
static void add_serial64(struct phase_acc *a, const struct sd_req_times *t, uint64_t serial0,
			 uint64_t host)
{
	if (t->host_serial_ticks) {
		uint64_t tail = timer_ticks_to_ns(t->host_serial_ticks);

		a->host_serial_ns = serial0 + (tail < host ? tail : host);
	}
}

void phase_acc_add(struct phase_acc *a, const struct sd_req_times *t,
		   uint32_t blocks, uint32_t blksz, uint64_t gap_ns)
{
	uint64_t cmd, access, data, busy, host, total, serial0 = a->host_serial_ns;

	PHASES_FROM_TIMES(t, cmd, access, data, busy, host, total);
	phase_acc_add_parts(a, cmd, access, data, busy, host, total, t->extra_cmds,
			    blocks, blksz, gap_ns);
	add_waits64(a, t, blocks, t->waits_counted ? timer_ticks64_to_ns(t->wait_ticks) : 0);
	add_fifo64(a, t);
	add_serial64(a, t, serial0, host > access + data ? access + data : host);
}

void phase_pend_flush(struct phase_pend *p, struct phase_acc *a)
{
	if (!p->ops)
		return;
	a->ops += p->ops;
	a->blocks += p->blocks;
	a->bytes += (uint64_t)p->blocks * p->blksz;
	a->total_ns += p->total_ns;
	a->cmd_ns += p->cmd_ns;
	a->access_ns += p->access_ns;
	a->data_ns += p->data_ns;
	a->host_ns += p->host_ns;
	a->host_serial_ns += p->host_serial_ns;
	a->busy_ns += p->busy_ns;
	a->gap_ns += p->gap_ns;
	a->extra_cmds += p->extra_cmds;
	a->wait_blocks += p->wait_blocks;
	a->wait_ns += p->wait_ns;
	a->counted_blocks += p->counted_blocks;
	a->fifo_reqs += p->fifo_reqs;
	a->fifo_words += p->fifo_words;
	a->seam_ns += p->seam_ns;
	a->seam_words += p->seam_words;
	a->seams += p->seams;
	a->seam_full_ns += p->seam_full_ns;
	a->seam_full_words += p->seam_full_words;
	a->seams_full += p->seams_full;
	a->stood_ns += p->stood_ns;
	a->stood_unc_ns += p->stood_unc_ns;
	a->stood_blocks += p->stood_blocks;
	a->undecided_blocks += p->undecided_blocks;
	a->undecided_looks |= p->undecided_looks;
	*p = (struct phase_pend){ 0 };
}

static inline uint32_t span_ticks(uint32_t from, uint32_t to)
{
	return from && to ? to - from : 0;
}

/* One request's spans in ns, converted in 32 bits (phase_pend_add). */
struct pend_req {
	uint32_t cmd, access, data, busy, host, total, gap, wait, stood, stood_unc, seam, seam_full;
};

/* The request's spans in ns into q; false when one of them (or a driver
 * sum, the gap, the block count) is too long for the 32-bit way. Each span
 * under 2^30 ns converts in 32 bits to what timer_ticks_to_ns() gives, and
 * four of them add up without overflow; anything longer (more than about a
 * second) goes the 64-bit way. */
static bool pend_spans(const struct sd_req_times *t, uint32_t blocks, uint64_t gap_ns,
		       struct pend_req *q)
{
	/* The spans of PHASES_FROM_TIMES in ticks. */
	uint32_t is = t->t_issue, cd = t->t_cmd_done, fd = t->t_first_data;
	uint32_t dd = t->t_data_done, end = t->t_end;
	uint32_t last = end ? end : dd ? dd : cd;
	uint32_t cmd = span_ticks(is, cd), access = 0, data = 0, busy;
	uint32_t total = span_ticks(is, last), sum;
	/* the driver's 64-bit sums (sd_host.h): any bit above the 30-bit
	 * mask, the high word's included, sends the request the 64-bit way */
	const uint64_t sums = t->host_ticks | t->wait_ticks | t->stood_ticks | t->seam_ticks |
			      t->seam_full_ticks | t->stood_unc_ticks;

	if (fd && dd) {
		access = span_ticks(cd, fd);
		data = dd - fd;
		busy = span_ticks(dd, end);
	} else {
		busy = span_ticks(cd, end);
	}
	if (((cmd | access | data | busy | total) & ~timer_ticks_mask30()) ||
	    (sums & ~(uint64_t)timer_ticks_mask30()) || (gap_ns >> 32) || blocks > 0xffffu)
		return false;
	q->cmd = timer_ticks_to_ns30(cmd);
	q->access = timer_ticks_to_ns30(access);
	q->data = timer_ticks_to_ns30(data);
	q->busy = timer_ticks_to_ns30(busy);
	q->host = timer_ticks_to_ns30((uint32_t)t->host_ticks);
	total = timer_ticks_to_ns30(total);
	sum = q->cmd + q->access + q->data + q->busy;
	q->total = total < sum ? sum : total;
	q->gap = (uint32_t)gap_ns;
	q->wait = t->waits_counted ? timer_ticks_to_ns30((uint32_t)t->wait_ticks) : 0;
	q->stood = t->waits_counted == 2 ? timer_ticks_to_ns30((uint32_t)t->stood_ticks) : 0;
	q->stood_unc = t->waits_counted == 2 ?
		timer_ticks_to_ns30((uint32_t)t->stood_unc_ticks) : 0;
	q->seam = t->fifo_counted ? timer_ticks_to_ns30((uint32_t)t->seam_ticks) : 0;
	q->seam_full = t->fifo_counted ? timer_ticks_to_ns30((uint32_t)t->seam_full_ticks) : 0;
	return true;
}

/* Whether adding q to the pending requests would wrap one of their sums
 * (or the block size changes): they are flushed first then. */
static bool pend_full(const struct phase_pend *p, const struct sd_req_times *t,
		      const struct pend_req *q, uint32_t blocks, uint32_t blksz)
{
	return p->ops && (blksz != p->blksz || p->total_ns + q->total < q->total ||
			  p->gap_ns + q->gap < q->gap || p->blocks + blocks < blocks ||
			  p->wait_ns + q->wait < q->wait || p->stood_ns + q->stood < q->stood ||
			  p->stood_unc_ns + q->stood_unc < q->stood_unc ||
			  p->seam_ns + q->seam < q->seam ||
			  p->seam_full_ns + q->seam_full < q->seam_full ||
			  p->seam_words + t->seam_words < t->seam_words ||
			  p->seam_full_words + t->seam_full_words < t->seam_full_words);
}

/* The counted waits and the FIFO's seams of a request, added. */
static void pend_add_counted(struct phase_pend *p, const struct sd_req_times *t,
			     const struct pend_req *q, uint32_t blocks)
{
	if (t->waits_counted && blocks > 1) {
		p->counted_blocks += blocks - 1u;
		p->wait_blocks += t->wait_blocks;
		p->wait_ns += q->wait;
		p->stood_blocks += t->waits_counted == 2 ? blocks - 1u : 0;
		p->stood_ns += q->stood;
		p->stood_unc_ns += q->stood_unc;
	}
	if (t->fifo_counted) {
		p->fifo_reqs++;
		p->fifo_words += t->fifo_words;
		p->seam_ns += q->seam;
		p->seam_words += t->seam_words;
		p->seams += t->seams;
		p->seam_full_ns += q->seam_full;
		p->seam_full_words += t->seam_full_words;
		p->seams_full += t->seams_full;
	}
}

void phase_pend_add(struct phase_pend *p, struct phase_acc *a, const struct sd_req_times *t,
		    uint32_t blocks, uint32_t blksz, uint64_t gap_ns)
{
	struct pend_req q;
	uint32_t host;

	if (!pend_spans(t, blocks, gap_ns, &q)) {
		phase_pend_flush(p, a);
		phase_acc_add(a, t, blocks, blksz, gap_ns);
		return;
	}
	if (pend_full(p, t, &q, blocks, blksz))
		phase_pend_flush(p, a);
	/* as phase_acc_add_parts: the CPU's data moving lies inside the
	 * access + data window */
	host = q.host > q.access + q.data ? q.access + q.data : q.host;
	p->blksz = blksz;
	p->ops++;
	p->blocks += blocks;
	p->total_ns += q.total;
	p->cmd_ns += q.cmd;
	p->access_ns += q.access;
	p->data_ns += q.data;
	p->host_ns += host;
	/* the CPU's work that nothing overlaps: measured by the driver
	 * (sd_host.h host_serial_ticks), or one block's */
	if (t->host_serial_ticks) {
		uint32_t tail = t->host_serial_ticks & ~timer_ticks_mask30() ? host :
				timer_ticks_to_ns30(t->host_serial_ticks);

		p->host_serial_ns += tail < host ? tail : host;
	} else {
		p->host_serial_ns += blocks <= 1 ? host : host / blocks;
	}
	p->busy_ns += q.busy;
	p->gap_ns += q.gap;
	p->extra_cmds += t->extra_cmds;
	p->undecided_blocks += t->undecided_blocks; /* at most 0xffff a request */
	p->undecided_looks |= t->undecided_looks;
	pend_add_counted(p, t, &q, blocks);
}

/* The longest of a request's spans (ticks, modulo the wrap). */
static uint64_t *longest(uint64_t *cmd, uint64_t *access, uint64_t *data, uint64_t *busy)
{
	uint64_t *m = cmd;

	if (*access > *m)
		m = access;
	if (*data > *m)
		m = data;
	if (*busy > *m)
		m = busy;
	return m;
}

void phase_acc_add_long(struct phase_acc *a, const struct sd_req_times *t, uint32_t blocks,
			uint32_t blksz, uint64_t gap_ns, uint64_t req_ns)
{
	uint64_t cmd, access, data, busy, host, total, serial0 = a->host_serial_ns;
	uint64_t wrap = timer_wrap_ns(), lost = 0, *l;
	/* The driver's sums (waits, seams, the CPU's work) are 64-bit
	 * (sd_host.h): they lost no wrap and take nothing back here. */
	uint64_t wait = t->waits_counted ? timer_ticks64_to_ns(t->wait_ticks) : 0;

	PHASES_FROM_TIMES(t, cmd, access, data, busy, host, total);
	/* Whole wraps between what the engine's clock saw and the stamps. */
	if (req_ns > total)
		lost = (req_ns - total + wrap / 2) / wrap * wrap;
	l = longest(&cmd, &access, &data, &busy);
	*l += lost;
	total += lost;
	phase_acc_add_parts(a, cmd, access, data, busy, host, total, t->extra_cmds,
			    blocks, blksz, gap_ns + (req_ns > total ? req_ns - total : 0));
	add_waits64(a, t, blocks, wait);
	add_fifo64(a, t);
	add_serial64(a, t, serial0, host > access + data ? access + data : host);
}

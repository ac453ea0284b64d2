/*
 * confirm.c - each verdict confirmed by experiment (confirm.h).
 *
 * Short runs of the same operations as the workload (same size, command,
 * direction and pattern; a few operations each): the baseline as it ran,
 * one at half the SD clock, one on a 1-bit bus at the same clock
 * (check_width: each block's frame grows from 1042 to 4114 clocks) and one
 * with a CPU delay before each operation. The predictions come from the
 * workload's own split:
 *
 *   clock: the split's bus time per operation B (its share of the wall
 *   time over the operations) and the card's clock-paced time K both
 *   scale with the clock period; at s times the period the median
 *   operation takes from base + (s - 1) B_crit - A (B_crit the bus on the
 *   critical path, A a write's not-ready waits inside the transfer, which
 *   a slower bus may hide) to base + (s - 1)(B + K) + (B - B_crit) (frames hidden
 *   behind a slower CPU may surface when they grow). A
 *   card-bound operation hardly changes; a bus-bound one nearly doubles.
 *   Under a wrong split (a bus model too long or too short, a clock that
 *   is not the one believed) the measured median falls outside.
 *
 *   cpu_delay: a spin of d ns per block before each operation after the
 *   first, timed by the 1 MHz system timer, lies between two requests:
 *   the host time the engine books (on the tick counter) per operation
 *   must grow by the delays' total over the operations, give or take
 *   what may change hands inside the requests (wl_check_predict_delay).
 *
 * Every run does the same operations (the same LBAs; a mixed workload's
 * reads and writes in the same order); a write workload's after one
 * unmeasured run of them that leaves the card as the others find it. The figure compared is the
 * median operation. The tolerance (confirm.h): the larger of 3% of the
 * prediction, the workload's p90 - p50 spread, what the figure moved
 * between repeated runs of the unchanged operations (cf_drift), and 2 us.
 */
#include <string.h>

#include "bench/engine/confirm.h"
#include "bench/engine/confirm_report.h"
#include "bench/engine/busmodel.h"
#include "bench/engine/record.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"


#define CF_OPS_MIN        3
#define CF_OPS_MAX        8
#define CF_OPS_QUICK_MAX  4
#define CF_RUN_NS         250e6  /* operations per run: about this long each */
#define CF_DELAY_FRAC     0.25   /* the CPU delay: a quarter of the median operation */
#define CF_DELAY_MIN_NS   1000u  /* per block, at least */
#define CF_DELAY_MAX_NS   200000u

void wl_confirm_note(struct wl_ctx *c, const struct wl_meas *m, uint32_t i)
{
	struct wl_cf_src *s;

	if (i >= WL_MAX_SUMMARY)
		return;
	s = &c->cf[i];
	memset(s, 0, sizeof(*s));
	s->noted = m->ops > 0;
	s->valid = m->validity.valid;
	s->write = m->write;
	s->mix = m->nreads && m->nwrites;
	s->seq = m->kind && !strcmp(m->kind, "seq");
	s->cmd = m->cmd;
	s->blocks = m->xfer_blocks;
	s->clock_hz = m->clock_hz;
	s->width = m->width;
	s->p50_ns = m->sum.p50_ns;
	s->p90_ns = m->sum.p90_ns;
	s->wall_per_op_ns = m->ops ? (double)m->split.wall_ns / (double)m->ops : 0.0;
	s->bus_pct = m->split.bus_pct;
	s->crit_bus_pct = m->split.crit_bus_pct;
	s->card_clock_pct = m->split.card_clock_pct;
	s->card_access_pct = m->split.card_access_pct;
	s->host_xfer_pct = m->split.host_xfer_pct;
	s->cpu_work_pct = m->split.cpu_busy_pct * m->split.pipe_pct / 100.0;
}

void wl_check_predict_clock(const struct wl_cf_src *s, double base_ns, double scale,
			    double *lo, double *hi)
{
	double per = s->wall_per_op_ns / 100.0;
	double hidden = s->bus_pct > s->crit_bus_pct ? (s->bus_pct - s->crit_bus_pct) * per : 0;

	double grow = (scale - 1.0) * s->crit_bus_pct * per;
	double absorb = s->write || s->mix ? s->card_access_pct * per : 0.0;

	/* At least the bus on the critical path scales, less a write's
	 * not-ready waits inside the transfer that a slower bus now hides (a
	 * card programming one block while the next crosses the bus waits
	 * less for a slower bus; a read's card time there is mostly its
	 * access latency before the first block, which nothing hides). At most the whole bus does,
	 * the card's clock-paced waits too (the calibration books idle clocks
	 * as the card's: they may or may not follow the clock), and frames
	 * hidden behind a slower CPU may come out from behind it once more
	 * (a bus that now sets the pace, the CPU's work after it). */
	*lo = base_ns + (grow > absorb ? grow - absorb : 0.0);
	*hi = base_ns + (scale - 1.0) * (s->bus_pct + s->card_clock_pct) * per + hidden;
	if (*hi < *lo)
		*hi = *lo;
}

void wl_check_predict_width(const struct wl_cf_src *s, double base_ns, double delta_ns,
			    double *lo, double *hi)
{
	double per = s->wall_per_op_ns / 100.0;
	double frac = s->bus_pct > s->crit_bus_pct && s->bus_pct > 0 ?
		      s->crit_bus_pct / s->bus_pct : 1.0;
	double hidden = s->bus_pct > s->crit_bus_pct ? (s->bus_pct - s->crit_bus_pct) * per : 0;
	double absorb = (s->write || s->mix ? s->card_access_pct : s->card_clock_pct) * per;
	double grow = delta_ns * frac;

	/* The same clock, so the card's clock-paced waits and the commands
	 * on CMD stay; only the data frames grow, by delta_ns per operation.
	 * At least their part on the critical path, less the card's waits
	 * between blocks that a longer frame may cover (a write's not-ready
	 * waits; a read's idle clocks between blocks, the card readying the
	 * next block while one crosses the bus: generated pair 4's random
	 * read, 32% of its time such clocks, grew 380 us where its frames
	 * grew 490 us); at most all of it, and frames hidden behind a slower
	 * CPU may come out from behind it. */
	*lo = base_ns + (grow > absorb ? grow - absorb : 0.0);
	*hi = base_ns + delta_ns + hidden;
}

void wl_check_predict_delay(const struct wl_cf_src *s, double base_ns, double delay_ns,
			    double *lo, double *hi)
{
	double per = s->wall_per_op_ns / 100.0;

	/* The delay lies between two requests: the host time grows by it.
	 * Inside the requests the critical path may change hands, because
	 * the card found idle time before each operation (a write's
	 * programming done, a read's card woken or not): the CPU's work in
	 * the pipeline that hid behind the card's waits comes out (at most
	 * all of it), or the host's part inside the requests now hides
	 * behind a card that became the slower side (at most all of it).
	 * The simulator's truth moves so (generated pairs 19-29: the host's
	 * true time grew 568 us less than the delay on a CPU-paced read
	 * whose operations took as long as before, 553 us more on a write
	 * whose card had programmed during the delay); the split followed
	 * it within 50 us each time. A host booking that is not the time
	 * between requests, or a tick counter at another rate than the
	 * system timer, still falls outside where the requests hold little
	 * host time. */
	*lo = base_ns + delay_ns - s->host_xfer_pct * per;
	*hi = base_ns + delay_ns + s->cpu_work_pct * per;
	if (*lo < base_ns)
		*lo = base_ns;
}

double wl_check_tolerance(const struct wl_cf_src *s, double predicted_ns)
{
	double t = WL_CHECK_TOL_FRAC * predicted_ns;
	double spread = s->p90_ns > s->p50_ns ? WL_CHECK_TOL_SPREAD * (s->p90_ns - s->p50_ns) : 0;

	if (spread > t)
		t = spread;
	return t > WL_CHECK_TOL_MIN_NS ? t : WL_CHECK_TOL_MIN_NS;
}

enum wl_check_verdict wl_check_judge(double lo, double hi, double measured, double tol)
{
	return measured >= lo - tol && measured <= hi + tol ? WL_CHECK_CONFIRMED
							     : WL_CHECK_CONTRADICTED;
}

/* ---- the runs ------------------------------------------------------------------ */

struct cf_run {
	uint32_t ops;
	double p50_ns;
	double host_per_op_ns;
	uint64_t delay_ns;       /* the delays' total, by the system timer */
};

struct cf_where {
	uint32_t first, span;    /* blocks the operations may use */
	uint32_t next;           /* sequential: the next LBA */
	uint32_t rng;            /* random: the generator's state at the start */
};

static uint32_t cf_ops(const struct wl_ctx *c, const struct wl_cf_src *s)
{
	double n = s->p50_ns ? CF_RUN_NS / (double)s->p50_ns : CF_OPS_MAX;
	uint32_t max = c->quick ? CF_OPS_QUICK_MAX : CF_OPS_MAX;

	if (n < CF_OPS_MIN)
		return CF_OPS_MIN;
	return n > max ? max : (uint32_t)n;
}

static void cf_op(struct wl_ctx *c, const struct wl_cf_src *s, struct cf_where *w,
		  struct wl_op *op)
{
	uint32_t slots = w->span / s->blocks;

	op->write = s->mix ? (wl_rand(c) % 10) < 3 : s->write;
	op->blocks = s->blocks;
	op->cmd = s->cmd;
	if (s->seq) {
		if (w->next + s->blocks > w->first + w->span)
			w->next = w->first;
		op->lba = w->next;
		w->next += s->blocks;
	} else {
		op->lba = w->first + (wl_rand(c) % (slots ? slots : 1)) * s->blocks;
	}
}

/* The 1 MHz system timer's spin of ns (rounded to whole us), outside the
 * engine's tick clock: what it took by that timer. */
static uint64_t spin_ns(uint32_t ns)
{
	uint64_t t0 = timer_now_us(), us = (ns + 500u) / 1000u, t;

	do
		t = timer_now_us();
	while (t - t0 < us);
	return (t - t0) * 1000u;
}

/* nops operations; delay_ns per block before every operation after the
 * first (the first has no gap the engine counts). 0 or -errno. */
static int cf_measure(struct wl_ctx *c, const struct wl_cf_src *s, const char *name,
		      uint32_t nops, uint32_t delay_ns, struct cf_where *w, struct cf_run *r)
{
	struct wl_meas m;
	uint32_t i;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	/* Every run the same operations: the same LBAs, reads and writes. */
	w->next = w->first;
	c->rng = w->rng;
	wl_begin(c, &m, "check", name, name, s->write && !s->mix, s->cmd, s->blocks, 0);
	for (i = 0; i < nops && !rc; i++) {
		struct wl_op op;

		cf_op(c, s, w, &op);
		if (delay_ns && i)
			r->delay_ns += spin_ns(delay_ns * s->blocks);
		rc = wl_do(c, &m, &op);
	}
	wl_end(c, &m);
	if (rc || m.ops != nops)
		return rc ? rc : -EIO;
	r->ops = m.ops;
	r->p50_ns = (double)m.sum.p50_ns;
	r->host_per_op_ns = m.split.host_pct / 100.0 * (double)m.split.wall_ns / (double)m.ops;
	return 0;
}

/* A check that ran: its prediction [lo, hi] against the median measured. */
static void judge(const struct wl_cf_src *s, double lo, double hi, const struct cf_run *r,
		  struct wl_check *k)
{
	k->predicted_ns = lo;
	k->predicted_hi_ns = hi;
	k->measured_ns = r->p50_ns;
	k->tolerance_ns = wl_check_tolerance(s, lo);
	k->ops = r->ops;
	k->verdict = wl_check_judge(lo, hi, r->p50_ns, k->tolerance_ns);
}

static void not_run(struct wl_check *k, const char *why)
{
	k->verdict = WL_CHECK_NOT_RUN;
	fmt_snprintf(k->reason, sizeof(k->reason), "%s", why);
}

/* Half the clock: set, measured, the bus set back to full speed. */
static void check_clock(struct wl_ctx *c, const struct wl_cf_src *s, const char *name,
			uint32_t nops, const struct cf_run *base, struct cf_where *w,
			struct wl_check *k)
{
	struct sd_card *card = c->card;
	struct cf_run r;
	double lo, hi;
	int rc;

	k->clock_hz = card->clock_hz;
	rc = sd_set_bus(card, card->clock_hz / 2, card->width);
	k->cf_clock_hz = card->clock_hz;
	if (rc || !k->cf_clock_hz || k->cf_clock_hz >= k->clock_hz) {
		not_run(k, "the host could not set a lower clock");
	} else {
		rc = cf_measure(c, s, name, nops, 0, w, &r);
		if (rc) {
			not_run(k, "an operation failed at the lower clock");
		} else {
			wl_check_predict_clock(s, base->p50_ns,
					       (double)k->clock_hz / (double)k->cf_clock_hz, &lo, &hi);
			judge(s, lo, hi, &r, k);
		}
	}
	if (sd_set_bus(card, 0, card->width)) {
		const struct sd_host_err *e = &card->last_err;

		record_error_cmd("check", -EIO, e->cmd, e->arg, e->status,
				 "could not restore the bus to %u-bit at full speed", card->width);
		c->abort_all = true;
	}
}

/* Why the bus cannot go to 1 bit at the same clock, or NULL. SDR50,
 * SDR104 and DDR50 are 4-bit modes (as the clock sweep, clock_sweep.c). */
static const char *no_narrow_bus(const struct sd_card *card)
{
	if (card->width != 4)
		return "the bus is 1-bit already";
	if (card->timing == SD_TIMING_SDR50 || card->timing == SD_TIMING_SDR104 ||
	    card->timing == SD_TIMING_DDR50)
		return "a 4-bit-only bus mode (SDR50, SDR104, DDR50)";
	return NULL;
}

/* The same clock on a 1-bit bus: each block's frame on the data lines
 * grows from 1042 to 4114 clocks (busmodel.h, SD Physical Layer §4.5),
 * nothing else does. Unlike half the clock, this moves the bus time by
 * the clock's true period: a divider off by one (a period longer by a
 * constant) or a frame model off by a factor shows in the difference. */
static void check_width(struct wl_ctx *c, const struct wl_cf_src *s, const char *name,
			uint32_t nops, const struct cf_run *base, struct cf_where *w,
			struct wl_check *k)
{
	struct sd_card *card = c->card;
	const char *why = no_narrow_bus(card);
	struct cf_run r;
	double lo, hi, delta;

	k->width = card->width;
	if (why) {
		not_run(k, why);
		return;
	}
	/* The full speed of the mode, as the suite measures at (asking for the
	 * clock in use by its rounded value may give the next divider). */
	if (sd_set_bus(card, 0, 1) || card->width != 1 ||
	    card->clock_hz != k->clock_hz) {
		not_run(k, "the host could not set a 1-bit bus at the same clock");
	} else if (cf_measure(c, s, name, nops, 0, w, &r)) {
		not_run(k, "an operation failed on the 1-bit bus");
	} else {
		k->cf_width = 1;
		delta = (double)bus_clocks_to_ns((uint64_t)s->blocks *
						 (bus_block_frame_clocks(SD_BLOCK_SIZE, 1, 0) -
						  bus_block_frame_clocks(SD_BLOCK_SIZE, 4, 0)),
						 k->clock_hz);
		wl_check_predict_width(s, base->p50_ns, delta, &lo, &hi);
		judge(s, lo, hi, &r, k);
	}
	if (sd_set_bus(card, 0, 4)) {
		const struct sd_host_err *e = &card->last_err;

		record_error_cmd("check", -EIO, e->cmd, e->arg, e->status,
				 "could not restore the bus to 4-bit at full speed");
		c->abort_all = true;
	}
}

static void check_cpu_delay(struct wl_ctx *c, const struct wl_cf_src *s, const char *name,
			    uint32_t nops, const struct cf_run *base, struct cf_where *w,
			    struct wl_check *k)
{
	struct cf_run r;
	double d = CF_DELAY_FRAC * (double)s->p50_ns / (double)s->blocks, lo, hi;

	k->delay_ns_per_block = d < CF_DELAY_MIN_NS ? CF_DELAY_MIN_NS :
				d > CF_DELAY_MAX_NS ? CF_DELAY_MAX_NS : (uint32_t)d;
	if (cf_measure(c, s, name, nops, k->delay_ns_per_block, w, &r)) {
		not_run(k, "an operation failed");
		return;
	}
	wl_check_predict_delay(s, base->host_per_op_ns, (double)r.delay_ns / (double)r.ops,
			       &lo, &hi);
	k->predicted_ns = lo;
	k->predicted_hi_ns = hi;
	k->measured_ns = r.host_per_op_ns;
	/* The host time is the CPU's own work (not the card's spread). */
	k->tolerance_ns = WL_CHECK_TOL_FRAC * hi > WL_CHECK_TOL_MIN_NS ?
			  WL_CHECK_TOL_FRAC * hi : WL_CHECK_TOL_MIN_NS;
	k->ops = r.ops;
	k->verdict = wl_check_judge(lo, hi, r.host_per_op_ns, k->tolerance_ns);
}

/* The same operations once more as the baseline ran them, after the
 * counterfactuals: a card does not answer the same operations the same
 * way each time (a card-bound random write on generated pair 38 took
 * 9.1 ms as a median the first time and 13.4 ms the third, at the same
 * clock: the card's own state moved). What the repeated runs of the
 * unchanged operations differ by (the baseline against this closing run,
 * and against the priming run of a write) is what the card alone moved
 * around the counterfactual runs: each check's tolerance is at least
 * that, and the judgement is made again. */
static double absdiff(double a, double b)
{
	return a > b ? a - b : b - a;
}

static double dmax(double a, double b)
{
	return a > b ? a : b;
}

static void cf_drift(struct wl_ctx *c, const struct wl_cf_src *s, const char *name,
		     uint32_t nops, struct cf_where *w, const struct cf_run *base,
		     const struct cf_run *prime, struct wl_check out[WL_CHECK_KINDS])
{
	struct cf_run after;
	double dt, dh;
	unsigned k;

	for (k = 0; k < WL_CHECK_KINDS && out[k].verdict == WL_CHECK_NOT_RUN; k++)
		;
	if (k == WL_CHECK_KINDS)
		return;
	if (c->abort_all || cf_measure(c, s, name, nops, 0, w, &after))
		return; /* no closing run: the tolerances stay as they were */
	dt = absdiff(after.p50_ns, base->p50_ns);
	dh = absdiff(after.host_per_op_ns, base->host_per_op_ns);
	if (prime) {
		dt = dmax(dt, absdiff(prime->p50_ns, base->p50_ns));
		dh = dmax(dh, absdiff(prime->host_per_op_ns, base->host_per_op_ns));
	}
	for (k = 0; k < WL_CHECK_KINDS; k++) {
		struct wl_check *o = &out[k];

		if (o->verdict == WL_CHECK_NOT_RUN)
			continue;
		o->drift_ns = o->kind == WL_CHECK_CPU_DELAY ? dh : dt;
		o->tolerance_ns = dmax(o->tolerance_ns, WL_CHECK_TOL_DRIFT * o->drift_ns);
		o->verdict = wl_check_judge(o->predicted_ns, o->predicted_hi_ns, o->measured_ns,
					    o->tolerance_ns);
	}
}

/* Why neither check can run, or NULL. */
static const char *cannot_run(const struct wl_ctx *c, const struct wl_cf_src *s)
{
	if (c->emulated)
		return "emulated: QEMU's card ignores the clock and its time is emulation speed";
	if (!s->noted)
		return "the workload did not run";
	if (!s->valid)
		return "no diagnosis to confirm";
	if (c->abort_all)
		return "the run was stopped";
	if ((s->write || s->mix) && !wl_writes_possible(c))
		return "no writable test area";
	if (c->card->clock_hz != s->clock_hz || c->card->width != s->width)
		return "the bus is no longer the workload's";
	return NULL;
}

/* Where the operations go, and the generator's state they start from. */
static void cf_place(struct wl_ctx *c, const struct wl_cf_src *s, uint32_t span_blocks,
		     struct cf_where *w)
{
	w->first = (s->write || s->mix) ? c->ta->first_lba : c->read_base;
	w->span = (s->write || s->mix) ? c->ta->count : (uint32_t)(c->card->blocks - c->read_base);
	if (span_blocks && span_blocks < w->span)
		w->span = span_blocks;
	w->next = w->first;
	w->rng = wl_rand(c);
}

void wl_confirm_one(struct wl_ctx *c, const struct wl_cf_src *s, const char *name,
		    uint32_t span_blocks, struct wl_check out[WL_CHECK_KINDS])
{
	struct cf_where w;
	struct cf_run base, prime;
	const char *why = cannot_run(c, s);
	uint32_t nops = cf_ops(c, s);
	uint64_t t0 = timer_now_us();
	unsigned k;

	memset(out, 0, WL_CHECK_KINDS * sizeof(*out));
	for (k = 0; k < WL_CHECK_KINDS; k++) {
		fmt_snprintf(out[k].workload, sizeof(out[k].workload), "%s", name);
		out[k].kind = (enum wl_check_kind)k;
		out[k].clock_hz = c->card ? c->card->clock_hz : 0;
	}
	if (!why)
		cf_place(c, s, span_blocks, &w);
	if (!why && w.span < s->blocks)
		why = "no room for the operations";
	/* Writes: once unmeasured first, so that the baseline rewrites the
	 * same blocks as the counterfactuals do (a card writes a block it
	 * has written before differently). */
	if (!why && (s->write || s->mix) && cf_measure(c, s, name, nops, 0, &w, &prime))
		why = "an operation of the priming run failed";
	if (!why && cf_measure(c, s, name, nops, 0, &w, &base))
		why = "an operation of the baseline failed";
	if (why) {
		for (k = 0; k < WL_CHECK_KINDS; k++)
			not_run(&out[k], why);
		return;
	}
	out[WL_CHECK_CLOCK].baseline_ns = out[WL_CHECK_WIDTH].baseline_ns = base.p50_ns;
	out[WL_CHECK_CPU_DELAY].baseline_ns = base.host_per_op_ns;
	check_clock(c, s, name, nops, &base, &w, &out[WL_CHECK_CLOCK]);
	out[WL_CHECK_CLOCK].cost_us = timer_now_us() - t0;
	t0 = timer_now_us();
	if (!c->abort_all)
		check_width(c, s, name, nops, &base, &w, &out[WL_CHECK_WIDTH]);
	else
		not_run(&out[WL_CHECK_WIDTH], "the run was stopped");
	out[WL_CHECK_WIDTH].cost_us = timer_now_us() - t0;
	t0 = timer_now_us();
	check_cpu_delay(c, s, name, nops, &base, &w, &out[WL_CHECK_CPU_DELAY]);
	cf_drift(c, s, name, nops, &w, &base, (s->write || s->mix) ? &prime : NULL, out);
	out[WL_CHECK_CPU_DELAY].cost_us = timer_now_us() - t0;
}

/* ---- the suite's step ------------------------------------------------------------ */

/* The summary entry with the best rate among those named prefix*, or -1. */
static int best_of(const struct wl_ctx *c, const char *prefix)
{
	size_t n = strlen(prefix);
	int best = -1;
	uint32_t i;

	for (i = 0; i < c->nsummary; i++)
		if (!strncmp(c->summary[i].name, prefix, n) &&
		    (best < 0 || c->summary[i].mbs > c->summary[best].mbs))
			best = (int)i;
	return best;
}

static int named(const struct wl_ctx *c, const char *name)
{
	uint32_t i;

	for (i = 0; i < c->nsummary; i++)
		if (!strcmp(c->summary[i].name, name))
			return (int)i;
	return -1;
}

void wl_confirm_run(struct wl_ctx *c, uint64_t span_bytes)
{
	int t[5];
	unsigned n = 0, k, i, count[3] = { 0, 0, 0 };
	uint64_t t0 = timer_now_us();
	bool wrote = false;

	t[n++] = best_of(c, "seq-read-");
	t[n++] = best_of(c, "seq-write-");
	t[n++] = named(c, "rand-read-4k");
	t[n++] = named(c, "rand-write-4k");
	if (!c->quick)
		t[n++] = named(c, "mix70-4k");
	wl_checks_heading();
	for (k = 0; k < n; k++) {
		struct wl_check out[WL_CHECK_KINDS];

		if (t[k] < 0)
			continue;
		wl_confirm_one(c, &c->cf[t[k]], c->summary[t[k]].name,
			       (uint32_t)(span_bytes / SD_BLOCK_SIZE), out);
		wrote |= c->cf[t[k]].write || c->cf[t[k]].mix;
		for (i = 0; i < WL_CHECK_KINDS; i++) {
			wl_check_report(&out[i], c->emulated);
			count[out[i].verdict]++;
		}
		wl_confirm_verdict(&c->summary[t[k]], out);
	}
	if (wrote && c->verify && c->nwritten)
		wl_verify_written(c, "check");
	wl_checks_report(count, timer_now_us() - t0, c->emulated);
}

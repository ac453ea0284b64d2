/*
 * workload.c - the measurement engine (see workload.h).
 *
 * Timing: t0/t1 (timer_ticks) around the card-layer call give the latency
 * a user of the card sees; the host driver's own phase stamps
 * (struct sd_req_times) give the split. The 64-bit clock (wl_now_ns) is
 * extended between operations, from the system timer when the tick counter
 * may have wrapped.
 */
#include <string.h>

#include "bench/engine/busmodel.h"
#include "bench/engine/integrity_report.h"
#include "bench/engine/pattern.h"
#include "bench/engine/phase_ticks.h"
#include "bench/engine/record.h"
#include "bench/engine/workload.h"
#include "bench/status_led.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"

#define WL_MAX_ERRORS        8       /* per workload, then it stops */
#define WL_PROGRESS_EVERY_US 1000000
#define WL_SERIES_POINTS     512

void wl_ctx_init(struct wl_ctx *c, struct write_guard *guard,
		 uint8_t *mem, uint32_t mem_bytes, bool quick, bool emulated,
		 uint32_t run_id, uint32_t seed)
{
	uint32_t lat_bytes, series_bytes;

	memset(c, 0, sizeof(*c));
	c->guard = guard;
	c->card = guard->card;
	c->ta = guard->area;
	c->quick = quick;
	c->emulated = emulated;
	c->run_id = run_id;
	c->rng = seed ? seed : 0x9e3779b9u;
	/* Memory: series points, latency samples (at most 4 MiB), then the
	 * data buffer (at most 64 MiB). */
	series_bytes = WL_SERIES_POINTS * sizeof(struct series_point);
	c->series_pt = (struct series_point *)(void *)mem;
	c->series_max = WL_SERIES_POINTS;
	mem += series_bytes;
	mem_bytes -= series_bytes;
	lat_bytes = mem_bytes / 4 > (4u << 20) ? (4u << 20) : mem_bytes / 4;
	c->lat = (uint32_t *)(void *)mem;
	c->lat_max = lat_bytes / sizeof(uint32_t);
	c->buf = mem + lat_bytes;
	c->buf_bytes = mem_bytes - lat_bytes;
	if (c->buf_bytes > (64u << 20))
		c->buf_bytes = 64u << 20;
	c->last_tick = timer_ticks();
	c->last_us = timer_now_us();
	c->clock_ns = 0;
	c->wrap_half_us = timer_wrap_ns() / 2 / 1000u;
}

/* The 64-bit clock of the engine: high-resolution ticks, extended between
 * readings. Should two readings be further apart than half the counter's
 * wrap period (an ARM1176 cycle counter wraps in about 6 s), the 1 MHz
 * system timer's difference is used instead. */
/* The engine's clock at tick reading 'now', with now_us the system timer
 * read next to it (wl_do uses the tick reading it takes around the request
 * for both the latency and the clock, one timestamp less per side of every
 * operation; the system timer is read outside the latency's window). */
static uint64_t clock_at(struct wl_ctx *c, uint32_t now, uint64_t now_us)
{
	uint64_t d_us = now_us - c->last_us;

	/* d_us * 1000 > wrap / 2, without the 64-bit multiplication (a
	 * chain of shifts and adds on 32-bit ARM, twice per operation). */
	if (d_us > c->wrap_half_us)
		c->clock_ns += d_us * 1000u;
	else
		c->clock_ns += timer_ticks_to_ns(now - c->last_tick);
	c->last_tick = now;
	c->last_us = now_us;
	return c->clock_ns;
}

uint64_t wl_now_ns(struct wl_ctx *c)
{
	uint32_t now = timer_ticks();

	return clock_at(c, now, timer_now_us());
}

uint32_t wl_rand(struct wl_ctx *c)
{
	uint32_t x = c->rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	c->rng = x;
	return x;
}

bool wl_writes_possible(const struct wl_ctx *c)
{
	return write_guard_writes_possible(c->guard);
}

void wl_begin(struct wl_ctx *c, struct wl_meas *m, const char *kind,
	      const char *name, const char *label, bool write, enum wl_cmd cmd,
	      uint32_t xfer_blocks, uint64_t planned_bytes)
{
	memset(m, 0, sizeof(*m));
	fmt_snprintf(m->name, sizeof(m->name), "%s", name);
	fmt_snprintf(m->label, sizeof(m->label), "%s", label);
	m->kind = kind;
	m->write = write;
	m->cmd = cmd;
	m->xfer_blocks = xfer_blocks;
	m->planned_bytes = planned_bytes;
	m->clock_hz = c->card->clock_hz;
	m->width = c->card->width;
	m->bus_ddr = sd_timing_ddr(c->card->timing) ? BUS_DDR : 0;
	m->dma_pio0 = c->card->host ? c->card->host->dma_pio_reqs : 0;
	phase_acc_init(&m->acc);
	phase_acc_init(&m->acc_w);
	series_init(&m->ser, c->series_pt, c->series_max,
		    c->quick ? 10000000ull : 100000000ull, 0);
	m->progress_due_us = timer_now_us() + WL_PROGRESS_EVERY_US;
	c->wrap_half_us = timer_wrap_ns() / 2 / 1000u;
	m->start_ns = wl_now_ns(c);
	m->ser.start_ns = m->start_ns;
	m->last_end_ns = m->start_ns;
}

bool wl_should_stop(const struct wl_ctx *c, const struct wl_meas *m)
{
	return c->abort_all || m->errors >= WL_MAX_ERRORS ||
	       (m->deadline_us && timer_now_us() >= m->deadline_us);
}

void wl_set_budget(struct wl_meas *m, uint32_t seconds)
{
	m->deadline_us = timer_now_us() + (uint64_t)seconds * 1000000u;
}

static void remember_written(struct wl_ctx *c, uint32_t lba, uint32_t blocks)
{
	struct lba_range *last = c->nwritten ? &c->written[c->nwritten - 1] : NULL;

	if (last && lba_range_end(last) == lba && (uint64_t)last->count + blocks < 0x80000000u) {
		last->count += blocks;
		return;
	}
	if (c->nwritten >= WL_MAX_WRITTEN) {
		c->written_overflow = true;
		return;
	}
	c->written[c->nwritten].first = lba;
	c->written[c->nwritten].count = blocks;
	c->nwritten++;
}

/* Between operations: a Ctrl-C from the console stops every workload. */
static void poll_interrupt(struct wl_ctx *c, struct wl_meas *m, uint64_t now_us)
{
	uint64_t t0;
	int k, n = 0;

	if (!c->poll_key || now_us < c->poll_due_us)
		return;
	t0 = wl_now_ns(c);
	while ((k = c->poll_key()) >= 0 && n++ < 64)
		if (k == WL_KEY_INTERRUPT) {
			c->interrupted = true;
			c->abort_all = true;
		}
	c->poll_due_us = timer_now_us() + WL_POLL_EVERY_US;
	m->excluded_ns += wl_now_ns(c) - t0;
}

/* The seconds the planned bytes still need at the rate so far (the
 * started second counted), by the wall clock: the progress line and the
 * verify fills take their time in what is left too. A time budget
 * (wl_set_budget) ends the step sooner when it runs out first.
 * 0 < m->bytes < m->planned_bytes. */
static unsigned long long time_left_s(const struct wl_meas *m, uint64_t now_ns,
				      uint64_t now_us)
{
	double ns = (double)(now_ns - m->start_ns) * (double)(m->planned_bytes - m->bytes) /
		    (double)m->bytes;

	if (m->deadline_us && now_us < m->deadline_us &&
	    ns > (double)(m->deadline_us - now_us) * 1e3)
		ns = (double)(m->deadline_us - now_us) * 1e3;
	return (unsigned long long)(ns / 1e9) + 1;
}

/* now_us: the system timer as the engine's clock last read it (at the
 * end of the operation), not read again. */
static void progress(struct wl_ctx *c, struct wl_meas *m, uint64_t now_us)
{
	uint64_t t0;
	uint64_t el;

	poll_interrupt(c, m, now_us);
	if (status_led_due(now_us)) {
		/* The status LED's blink, between operations and outside the
		 * measured time like the progress line (status_led.c). */
		t0 = wl_now_ns(c);
		status_led_tick(now_us);
		m->excluded_ns += wl_now_ns(c) - t0;
	}
	if (now_us < m->progress_due_us)
		return;
	t0 = wl_now_ns(c);
	el = t0 - m->start_ns - m->excluded_ns;
	if (m->planned_bytes && m->bytes && m->bytes < m->planned_bytes)
		con_progress("  %-28s %3u%%  %8.2f MB/s  about %llu s left", m->label,
			   (unsigned)(m->bytes * 100 / m->planned_bytes),
			   stats_mbs(m->bytes, el), time_left_s(m, t0, now_us));
	else if (m->planned_bytes)
		con_progress("  %-28s %3u%%  %8.2f MB/s", m->label,
			   (unsigned)(m->bytes * 100 / m->planned_bytes),
			   stats_mbs(m->bytes, el));
	else
		con_progress("  %-28s %8.2f MB/s", m->label, stats_mbs(m->bytes, el));
	m->progress_due_us = timer_now_us() + WL_PROGRESS_EVERY_US;
	m->excluded_ns += wl_now_ns(c) - t0;
}

static int run_op(struct wl_ctx *c, const struct wl_op *op, uint8_t *buf,
		  struct sd_req_times *t)
{
	static const enum sd_stop_mode stop[] = {
		[WL_MULTI_CMD12] = SD_STOP_NONE,
		[WL_MULTI_AUTO12] = SD_STOP_AUTO12,
		[WL_MULTI_CMD23] = SD_STOP_AUTO23,
		[WL_SINGLE_LOOP] = SD_STOP_NONE,
		[WL_MULTI_PREERASE] = SD_STOP_AUTO12,
	};
	int r;

	if (op->cmd == WL_MULTI_PREERASE) {
		/* ACMD23 is part of the measured operation: it is what a host
		 * that pre-erases pays per write. */
		r = sd_set_wr_blk_erase_count(c->card, op->blocks);
		if (r)
			return r;
	}
	if (op->write)
		return write_guard_write(c->guard, op->lba, op->blocks, buf, stop[op->cmd], t);
	return sd_read_blocks(c->card, op->lba, op->blocks, buf, stop[op->cmd], t);
}

/* CMD17/CMD24 loop: every block is a request of its own, accounted as
 * such; the time between them (the host's per-request overhead) is a gap.
 * lead_ns is the host time before the operation began. *t gets the
 * issue of the first and the end of the last request. */
static int run_single_loop(struct wl_ctx *c, const struct wl_op *op, uint8_t *buf,
			   struct phase_acc *acc, uint32_t t0, uint64_t lead_ns,
			   struct sd_req_times *t)
{
	uint32_t i, prev_end = t0;
	int r = 0;

	for (i = 0; i < op->blocks && !r; i++) {
		struct sd_req_times ti;

		memset(&ti, 0, sizeof(ti));
		if (op->write)
			r = write_guard_write_single(c->guard, op->lba + i, buf + i * SD_BLOCK_SIZE, &ti);
		else
			r = sd_read_single(c->card, op->lba + i, buf + i * SD_BLOCK_SIZE, &ti);
		if (r)
			break;
		phase_acc_add(acc, &ti, 1, SD_BLOCK_SIZE,
			      (i == 0 ? lead_ns : 0) + timer_ticks_to_ns(ti.t_issue - prev_end));
		if (i == 0)
			t->t_issue = ti.t_issue;
		prev_end = ti.t_end;
		t->t_end = ti.t_end;
	}
	return r;
}

/* Before a timed write, outside the timed region: the write guard (never
 * outside the provably unused area), then the verify pattern. 0, or
 * -EPERM (recorded). */
static int prepare_write(struct wl_ctx *c, struct wl_meas *m, const struct wl_op *op)
{
	if (write_guard_check(c->guard, op->lba, op->blocks)) {
		m->errors++;
		record_error(m->name, -EPERM,
			     "refused to write LBA %u+%u: outside the test area",
			     (unsigned)op->lba, (unsigned)op->blocks);
		return -EPERM;
	}
	if (c->verify) {
		uint64_t f0 = wl_now_ns(c);
		uint32_t i;

		for (i = 0; i < op->blocks; i++)
			pattern_fill(c->buf + i * SD_BLOCK_SIZE, op->lba + i, c->run_id, 0);
		m->excluded_ns += wl_now_ns(c) - f0;
	}
	return 0;
}

/* A failed operation: counted and recorded with the card layer's error;
 * a card that is gone ends every workload. */
static void op_failed(struct wl_ctx *c, struct wl_meas *m, const struct wl_op *op, int r,
		      uint64_t end_ns)
{
	const struct sd_host_err *e = &c->card->last_err;

	m->errors++;
	if (!m->first_err) {
		m->first_err = r;
		m->first_err_lba = op->lba;
	}
	record_error_cmd(m->name, r, e->cmd, e->arg, e->status,
			 "%s of LBA %u+%u failed (%s phase, block %u)",
			 op->write ? "write" : "read", (unsigned)op->lba,
			 (unsigned)op->blocks, e->phase ? e->phase : "?",
			 (unsigned)e->block);
	if (r == -ENOMEDIUM)
		c->abort_all = true;
	m->last_end_ns = end_ns;
	m->excluded_at_end_ns = m->excluded_ns;
}

/* A request's phases into the workload's accumulator acc: t its stamps,
 * t1 the tick after the call, pre_ns the host time before it (since the
 * previous operation ended), call_ns the call's length on the engine's
 * 64-bit clock, lat its latency. */
static void book_request(struct wl_meas *m, struct phase_acc *acc, const struct wl_op *op,
			 const struct sd_req_times *t, uint32_t t1, uint64_t pre_ns,
			 uint64_t call_ns, uint32_t lat)
{
	struct phase_pend *pp = acc == &m->acc ? &m->pend : &m->pend_w;
	uint64_t req_ns, gap_ns;

	if (op->cmd == WL_SINGLE_LOOP) {
		/* the per-block requests are accounted; what follows the last */
		acc->gap_ns += timer_ticks_to_ns(t1 - t->t_end);
	} else if (call_ns > timer_wrap_ns() / 2) {
		/* The stamps may have wrapped inside the request: its length on
		 * the engine's 64-bit clock gives the wraps back. */
		phase_pend_flush(pp, acc);
		phase_acc_add_long(acc, t, op->blocks, SD_BLOCK_SIZE, pre_ns, call_ns);
	} else {
		/* Host time around the request: before it (since the previous
		 * operation ended) and the card layer's own time inside the
		 * call but outside the request. A mixed workload keeps reads
		 * and writes in separate accumulators (attribution.h). */
		req_ns = t->t_end ? timer_ticks_to_ns(t->t_end - t->t_issue) : lat;
		gap_ns = pre_ns + (lat > req_ns ? lat - req_ns : 0);
		phase_pend_add(pp, acc, t, op->blocks, SD_BLOCK_SIZE, gap_ns);
	}
}

/* A request that succeeded, ended at end_ns after lat ns: its latency,
 * the series, the counts; the progress line when one is due. */
static void op_done(struct wl_ctx *c, struct wl_meas *m, const struct wl_op *op,
		    uint64_t end_ns, uint32_t lat)
{
	const uint32_t bytes = op->blocks * SD_BLOCK_SIZE;

	if (m->nlat < c->lat_max)
		c->lat[m->nlat++] = lat;
	series_add(&m->ser, end_ns, bytes, lat);
	m->ops++;
	if (op->write)
		m->nwrites++;
	else
		m->nreads++;
	m->bytes += bytes;
	m->last_end_ns = end_ns;
	m->excluded_at_end_ns = m->excluded_ns;
	m->end_ns = end_ns;
	/* The progress line, the console poll and the status LED's blink,
	 * when one is due (the tests inline: they are false for almost
	 * every operation). */
	if (c->last_us >= m->progress_due_us || status_led_due(c->last_us) ||
	    (c->poll_key && c->last_us >= c->poll_due_us))
		progress(c, m, c->last_us);
}

int wl_do(struct wl_ctx *c, struct wl_meas *m, const struct wl_op *op)
{
	struct sd_req_times t;
	struct phase_acc *acc;
	uint32_t t0, t1, lat, bytes = op->blocks * SD_BLOCK_SIZE;
	uint64_t end_ns, before_ns, pre_ns, before_us;
	int r;

	if (c->abort_all)
		return -ENOMEDIUM;
	if (bytes > c->buf_bytes || op->blocks == 0)
		return -EINVAL;
	if (op->write && prepare_write(c, m, op))
		return -EPERM;

	/* The card layer fills every stamp of t when the operation
	 * succeeds (they are read only then; the CMD17/CMD24 loop sets
	 * t_issue and t_end, all that is read of it): only the optional
	 * per-block arrays are the caller's. */
	t.blk_ready = t.blk_done = NULL;
	acc = op->write && !m->write ? &m->acc_w : &m->acc;
	/* One tick reading each side: the latency's and the clock's. */
	before_us = timer_now_us();
	t0 = timer_ticks();
	before_ns = clock_at(c, t0, before_us);
	/* Host time since the previous operation ended, less what the
	 * measurement itself spent there (progress line, verify fill). */
	pre_ns = m->ops ? before_ns - m->last_end_ns - (m->excluded_ns - m->excluded_at_end_ns) : 0;
	if (op->cmd == WL_SINGLE_LOOP)
		r = run_single_loop(c, op, c->buf, acc, t0, pre_ns, &t);
	else
		r = run_op(c, op, c->buf, &t);
	t1 = timer_ticks();
	/* The system timer after the operation from its low word: an
	 * operation takes less than 71 minutes. */
	end_ns = clock_at(c, t1, timer_now_us_after(c->last_us));

	lat = (uint32_t)timer_ticks_to_ns(t1 - t0);
	if (end_ns - before_ns > timer_wrap_ns() / 2) /* the tick counter wrapped */
		lat = end_ns - before_ns > 0xffffffffu ? 0xffffffffu : (uint32_t)(end_ns - before_ns);
	if (r) {
		op_failed(c, m, op, r, end_ns);
		return r;
	}
	if (op->write && c->verify)
		remember_written(c, op->lba, op->blocks);

	book_request(m, acc, op, &t, t1, pre_ns, end_ns - before_ns, lat);
	op_done(c, m, op, end_ns, lat);
	return 0;
}

/* Before a diagnosis: do the figures fit the split's model (validity.h)?
 * The data moved by DMA when the host's DMA path sent none of this
 * workload's requests back to PIO. */
static void wl_check_validity(const struct wl_ctx *c, struct wl_meas *m)
{
	const struct sd_host *h = c->card ? c->card->host : NULL;
	const struct timer_info *ti = timer_get_info();
	struct wl_validity_in in = {
		.split = &m->split, .rd = &m->acc, .wr = m->acc_w.ops ? &m->acc_w : NULL,
		.elapsed_ns = m->elapsed_ns, .ops = m->ops, .errors = m->errors,
		.timer_res_ns = ti ? ti->resolution_ns : 0,
		.dma_moved = h && h->data_path == SD_PATH_DMA && h->dma_pio_reqs == m->dma_pio0,
		.emulated = c->emulated, .bus_flags = m->bus_ddr,
		.wire_instant = h && h->read_wire == SD_WIRE_INSTANT,
		.idle_clk_max = h ? h->idle_clk_max : 0,
	};

	wl_validity_check(&in, &m->validity);
}

void wl_end(struct wl_ctx *c, struct wl_meas *m)
{
	int multi = m->xfer_blocks > 1 && m->cmd != WL_SINGLE_LOOP;

	phase_pend_flush(&m->pend, &m->acc);
	phase_pend_flush(&m->pend_w, &m->acc_w);
	if (m->end_ns == 0)
		m->end_ns = m->last_end_ns;
	m->elapsed_ns = m->end_ns > m->start_ns + m->excluded_ns ?
			m->end_ns - m->start_ns - m->excluded_ns : 0;
	stats_summarise(c->lat, m->nlat, &m->sum);
	m->mbs = stats_mbs(m->bytes, m->elapsed_ns);
	m->iops = m->elapsed_ns ? (double)m->ops * 1e9 / (double)m->elapsed_ns : 0.0;
	{
		/* The bus: as measured at the start of the suite when there
		 * is a measurement for this width, else the framing model;
		 * the model's share is kept beside it. */
		const struct wl_bus_cal *bc = &c->bus_cal;
		bool cal = bc->width == m->width;
		double xr = cal && bc->read_ok ? bc->read_extra_clocks : 0.0;
		double xw = cal && bc->write_ok ? bc->write_extra_clocks : 0.0;
		struct phase_split model;

		m->bus_measured = cal && ((m->write ? bc->write_ok : bc->read_ok) ||
					  (m->acc_w.ops && bc->write_ok));
		unsigned bf = (multi ? BUS_MULTI | BUS_STOP : 0u) | m->bus_ddr;

		phase_split_flags(&m->acc, m->width, m->clock_hz, bf | (m->write ? BUS_WRITE : 0u),
				  m->write ? xw : xr, &m->split);
		phase_split_flags(&m->acc, m->width, m->clock_hz, bf | (m->write ? BUS_WRITE : 0u),
				  0.0, &model);
		if (m->acc_w.ops) {
			struct phase_split rd = m->split, wr, mrd = model, mwr;

			phase_split_flags(&m->acc_w, m->width, m->clock_hz, bf | BUS_WRITE, xw, &wr);
			phase_split_combine(&rd, &wr, &m->split);
			phase_split_flags(&m->acc_w, m->width, m->clock_hz, bf | BUS_WRITE, 0.0, &mwr);
			phase_split_combine(&mrd, &mwr, &model);
		}
		m->model_bus_pct = model.bus_pct;
		phase_split_idle(&m->split, c->card && c->card->host ?
				 c->card->host->idle_clk_max : 0);
	}
	wl_check_validity(c, m);
}

/* The written ranges in LBA order, overlapping and touching ones made one,
 * so that each block is read back once however often it was written (the
 * sustained write's unmeasured probe lies under its first transfers; a
 * random workload writes some blocks twice). Outside every timed region. */
static void merge_written(struct wl_ctx *c)
{
	uint32_t i, j, n = 0;

	for (i = 1; i < c->nwritten; i++) {
		struct lba_range r = c->written[i];

		for (j = i; j > 0 && c->written[j - 1].first > r.first; j--)
			c->written[j] = c->written[j - 1];
		c->written[j] = r;
	}
	for (i = 0; i < c->nwritten; i++) {
		struct lba_range *last = n ? &c->written[n - 1] : NULL;
		uint64_t end = lba_range_end(&c->written[i]);

		if (last && c->written[i].first <= lba_range_end(last)) {
			if (end > lba_range_end(last))
				last->count = (uint32_t)(end - last->first);
		} else {
			c->written[n++] = c->written[i];
		}
	}
	c->nwritten = n;
}

uint32_t wl_verify_written(struct wl_ctx *c, const char *name)
{
	struct wl_integrity v;
	uint32_t i, chunk = c->buf_bytes / SD_BLOCK_SIZE;

	memset(&v, 0, sizeof(v));
	v.workload = name;
	v.partial = c->written_overflow;
	if (chunk > 2048)
		chunk = 2048;
	merge_written(c);
	/* After a Ctrl-C too: what was written is checked before the prompt
	 * (only a card that is gone stops the check). */
	for (i = 0; i < c->nwritten && !(c->abort_all && !c->interrupted); i++) {
		uint32_t lba = c->written[i].first, left = c->written[i].count;

		while (left) {
			uint32_t n = left < chunk ? left : chunk, k;
			int r = sd_read_blocks(c->card, lba, n, c->buf, SD_STOP_AUTO12, NULL);

			if (r) {
				const struct sd_host_err *e = &c->card->last_err;

				v.read_errors++;
				record_error_cmd(name, r, e->cmd, e->arg, e->status,
						 "verify read of LBA %u+%u failed (%s phase, block %u)",
						 (unsigned)lba, (unsigned)n,
						 e->phase ? e->phase : "?", (unsigned)e->block);
				if (r == -ENOMEDIUM)
					c->abort_all = true;
				break;
			}
			for (k = 0; k < n; k++) {
				struct pattern_result pr;

				pattern_check(c->buf + k * SD_BLOCK_SIZE, lba + k, c->run_id, 0, &pr);
				v.count[pr.cls]++;
				if (pr.cls != PAT_OK && !v.bad++)
					v.first_bad_lba = lba + k;
			}
			v.blocks += n;
			lba += n;
			left -= n;
		}
	}
	wl_report_integrity(&v);
	c->nwritten = 0;
	c->written_overflow = false;
	return v.bad;
}

void wl_untimed_begin(struct wl_ctx *c, struct wl_meas *m)
{
	m->untimed_t0 = wl_now_ns(c);
}

void wl_untimed_end(struct wl_ctx *c, struct wl_meas *m)
{
	m->excluded_ns += wl_now_ns(c) - m->untimed_t0;
}

/*
 * queue.c - see queue.h. The commands and the Task Status register are
 * the SD Physical Layer's (6.00 and later, command queue: CMD44 Q_TASK_
 * INFO_A/CMD45 Q_TASK_INFO_B queue, CMD13 with SEND_TASK_STATUS answers
 * which tasks are ready, CMD46/CMD47 run one, CMD43 Q_MANAGEMENT aborts);
 * the card layer sends them (drivers/sd/sd_cq.c). Tasks here run in task
 * ID order, each once the card says it is ready: the host keeps the
 * order, as the spec leaves ordering between tasks to the host in
 * voluntary mode (the mode A2 performance is stated for), so a read
 * queued behind a write of the same blocks must return the written data.
 */
#include <string.h>

#include "bench/engine/queue_split.h"
#include "bench/engine/record.h"
#include "bench/engine/stats.h"
#include "bench/engine/workload_report.h"
#include "bench/workloads/app_class.h"
#include "bench/workloads/app_class_report.h"
#include "bench/workloads/queue.h"
#include "drivers/sd/sd_cq.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"
#include "lib/json.h"

#define Q_BLOCKS   8u          /* 4 KiB tasks */
#define Q_BYTES    (Q_BLOCKS * SD_BLOCK_SIZE)
#define Q_MAX      32u         /* task IDs are 5 bits (CMD44 [20:16]) */
/* How long a queued task may take to become ready: a read is ready in
 * well under 1 ms on an A2 card (the spec's 4000 IOPS = 250 us a task),
 * a write may wait for flash programming (the SD spec's 250 ms write
 * timeout, Physical Layer §4.6.2.2). */
#define Q_READY_US 250000u
#define Q_POLL_US  10u

/* A failed check: its name and the evidence. */
struct q_state {
	const char *broken;          /* NULL while every check passed */
	char evidence[200];
	const char *note;            /* a check that could not judge, or NULL */
	int raw, status, timeout, flush_commits, flush_order, cmd44; /* 1 ok, 0 failed, -1 not run */
	unsigned max_depth;          /* depths above a timeout are not tried */
	uint32_t seed;
	/* For the A2 verdict (app_class.c): IOPS at depth 1 with the cache off
	 * and at the deepest depth of each sweep, by [mode][cache]; -1 none. */
	double d1[3], top[3][2];
	unsigned top_depth[3][2];
	struct q_split *split;       /* the depth being measured (NULL: a check) */
};

/* What one sweep queues: reads, writes, or both mixed 70/30 (70 % reads,
 * as the "random" workload's mix, bench/workloads/basic.c). */
enum q_mode { Q_READS, Q_WRITES, Q_MIXED };
static const char *const q_mode_name[] = { "read", "write", "mixed" };

struct q_task {
	uint32_t lba;
	bool write;
};

static void q_fail(struct q_state *q, int *check, const char *name, const char *ev)
{
	*check = 0;
	if (!q->broken) {
		q->broken = name;
		fmt_snprintf(q->evidence, sizeof(q->evidence), "%s", ev);
	}
}

static void q_fill(uint8_t *b, uint32_t lba, uint32_t seed)
{
	uint32_t x = lba * 2654435761u ^ seed, i;

	for (i = 0; i < Q_BYTES; i += 4) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		memcpy(b + i, &x, 4);
	}
}

/* The whole queue aborted (CMD43), then one plain read to show whether
 * the card still answers; the outcome goes into ev. */
static void q_abort(struct wl_ctx *c, char *ev, size_t cap)
{
	size_t n = strlen(ev);
	int a = sd_cq_abort(c->card, -1);
	int r = sd_read_blocks(c->card, c->read_base, Q_BLOCKS, c->buf, SD_STOP_AUTO12, NULL);

	fmt_snprintf(ev + n, cap - n, "; CMD43 abort %s, a plain read after it %s",
		 a ? "failed" : "done", r ? "failed: the card is not usable" : "worked");
}

/* Wait for task i; the Task Status register must show no task that is
 * not queued. 0, or -errno with the check failed in q. */
static int q_wait(struct wl_ctx *c, struct q_state *q, unsigned i, uint32_t pending,
		  unsigned depth)
{
	timer_deadline_t d = timer_deadline_us(Q_READY_US);
	uint32_t st = 0;
	char ev[200];
	int ret;
	struct q_wait_track w;
	struct q_poll p;

	q_wait_begin(&w);
	for (;;) {
		p.t0 = wl_now_ns(c);
		ret = sd_cq_status(c->card, &st);
		if (ret)
			return ret;
		p.t1 = wl_now_ns(c);
		p.any = (st & pending) != 0;
		q_wait_poll(&w, &p);
		if (st & ~pending) {
			fmt_snprintf(ev, sizeof(ev), "task status 0x%08x shows ready tasks 0x%08x "
				 "that are not queued (queued 0x%08x, depth %u)", (unsigned)st,
				 (unsigned)(st & ~pending), (unsigned)pending, depth);
			q_abort(c, ev, sizeof(ev));
			q_fail(q, &q->status, "task status", ev);
			return -EIO;
		}
		if (st & 1u << i) {
			if (q->split)
				q_split_wait_end(q->split, &w);
			return 0;
		}
		if (timer_expired(d))
			break;
		timer_udelay(Q_POLL_US);
	}
	fmt_snprintf(ev, sizeof(ev), "task %u not ready after %u ms at depth %u (task status "
		 "0x%08x)", i, Q_READY_US / 1000, depth, (unsigned)st);
	q_abort(c, ev, sizeof(ev));
	q_fail(q, &q->timeout, "timeout at depth", ev);
	return -ETIMEDOUT;
}

/* Every task run: the Task Status register shows none ready. */
static int q_idle(struct wl_ctx *c, struct q_state *q, unsigned depth)
{
	uint32_t st = 0;
	char ev[200];
	int ret = sd_cq_status(c->card, &st);

	if (ret || !st)
		return ret;
	fmt_snprintf(ev, sizeof(ev), "task status 0x%08x after all %u tasks ran (expected 0)",
		 (unsigned)st, depth);
	q_abort(c, ev, sizeof(ev));
	q_fail(q, &q->status, "task status", ev);
	return -EIO;
}

/* Queue n tasks (IDs 0..n-1), run each in ID order once ready; lat[i]:
 * from the first CMD44 to task i's last block. Writes carry q_fill's
 * pattern; reads land in c->buf + i * Q_BYTES. 0 or -errno. */
static int q_batch(struct wl_ctx *c, struct q_state *q, const struct q_task *t, unsigned n,
		   uint32_t *lat)
{
	uint32_t pending = 0;
	uint64_t t0 = wl_now_ns(c);
	struct sd_req_times rt;
	unsigned i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = write_guard_cq_queue(c->guard, i, !t[i].write, t[i].lba, Q_BLOCKS);
		if (ret) {
			char ev[200];

			fmt_snprintf(ev, sizeof(ev), "queueing task %u answered %d (CMD%u status "
				 "0x%08x)", i, ret, (unsigned)c->card->last_err.cmd,
				 (unsigned)c->card->last_err.status);
			if (ret != -EPERM && ret != -EROFS)
				q_fail(q, &q->cmd44, "CMD44/45 rejected", ev);
			sd_cq_abort(c->card, -1);
			return ret;
		}
		pending |= 1u << i;
	}
	if (q->split)
		q->split->cmds += 2 * n; /* CMD44 and CMD45 each */
	for (i = 0; i < n; i++) {
		uint8_t *b = c->buf + i * Q_BYTES;

		ret = q_wait(c, q, i, pending, n);
		if (ret)
			return ret;
		if (t[i].write)
			q_fill(b, t[i].lba, q->seed);
		ret = sd_cq_run(c->card, i, !t[i].write, b, Q_BLOCKS, &rt);
		if (ret) {
			sd_cq_abort(c->card, -1);
			return ret;
		}
		if (q->split)
			q_split_run(q->split, &rt, Q_BLOCKS);
		pending &= ~(1u << i);
		if (lat)
			lat[i] = (uint32_t)(wl_now_ns(c) - t0);
	}
	q->cmd44 = q->cmd44 < 0 ? 1 : q->cmd44;
	return q_idle(c, q, n);
}

/* ---- the depth table ----------------------------------------------------- */

/* A random 4 KiB-aligned block: reads over the read span, writes over the
 * test area (at most its first 64 MiB). */
static uint32_t q_lba(struct wl_ctx *c, bool write)
{
	uint32_t first = write ? c->ta->first_lba : c->read_base;
	uint32_t span = write ? c->ta->count : c->read_span_blocks;

	if (span > (64u << 11))
		span = 64u << 11;
	if (span < Q_BLOCKS)
		span = Q_BLOCKS;
	return first + wl_rand(c) % (span / Q_BLOCKS) * Q_BLOCKS;
}

/* One depth's figures: the console line and the "queue" record. */
struct q_point_res {
	unsigned depth;
	enum q_mode mode;
	bool cache;
	uint32_t tasks, writes;      /* tasks done, of them writes */
	uint64_t ns;
	int err;
};

static double q_point_report(const struct q_point_res *r, uint32_t *lat,
			     const struct q_shares *sh)
{
	double iops = r->ns ? r->tasks * 1e9 / (double)r->ns : 0;
	uint32_t p50 = 0, p99 = 0;
	struct json *j;

	if (r->tasks) {
		stats_sort_u32(lat, r->tasks);
		p50 = stats_percentile_sorted(lat, r->tasks, 50);
		p99 = stats_percentile_sorted(lat, r->tasks, 99);
	}
	con_printf("  %-5s cache %-3s depth %2u: %7.0f IOPS, p50 %7.1f us, p99 %7.1f us%s\n",
		   q_mode_name[r->mode], r->cache ? "on" : "off", r->depth, iops, p50 / 1e3,
		   p99 / 1e3, r->err ? " (stopped by an error)" : "");
	j = record_begin("queue");
	json_u64(j, "depth", r->depth);
	json_bool(j, "write", r->mode == Q_WRITES);
	json_bool(j, "cache", r->cache);
	json_bool(j, "mix", r->mode == Q_MIXED);
	json_u64(j, "reads", r->tasks - r->writes);
	json_u64(j, "writes", r->writes);
	json_u64(j, "xfer_bytes", Q_BYTES);
	json_u64(j, "tasks", r->tasks);
	json_u64(j, "elapsed_ns", r->ns);
	json_double(j, "iops", iops, 1);
	json_u64_if(j, "p50_ns", r->tasks, p50);
	json_u64_if(j, "p99_ns", r->tasks, p99);
	json_i64(j, "error", r->err);
	q_split_json(j, sh);
	record_end();
	return r->tasks && !r->err ? iops : -1;
}

/* Between batches: a Ctrl-C from the console stops every workload (as
 * wl_do's poll, bench/engine/workload.c); returns the time it took, left
 * out of the depth's time. */
static uint64_t q_poll(struct wl_ctx *c)
{
	uint64_t t0;
	int k, n = 0;

	if (!c->poll_key || timer_now_us() < c->poll_due_us)
		return 0;
	t0 = wl_now_ns(c);
	while ((k = c->poll_key()) >= 0 && n++ < 64)
		if (k == WL_KEY_INTERRUPT)
			c->interrupted = c->abort_all = true;
	c->poll_due_us = timer_now_us() + WL_POLL_EVERY_US;
	return wl_now_ns(c) - t0;
}

/* One depth: 'total' tasks in batches of depth; the IOPS (-1: none or an
 * error) into *iops. 0 or -errno. */
static int q_point(struct wl_ctx *c, struct q_state *q, unsigned depth, enum q_mode mode,
		   bool cache, uint32_t total, double *iops)
{
	struct q_task t[Q_MAX];
	struct q_point_res r = { depth, mode, cache, 0, 0, 0, 0 };
	uint64_t t0, excl = 0;
	uint32_t w;
	struct q_split split;
	struct q_shares sh;
	unsigned i, n;

	q_split_init(&split, c, mode == Q_WRITES);
	split.mixed = mode == Q_MIXED;
	q->split = &split;

	if (total > c->lat_max)
		total = c->lat_max - c->lat_max % depth;
	t0 = wl_now_ns(c);
	while (r.tasks < total && !c->abort_all && !r.err) {
		n = total - r.tasks < depth ? total - r.tasks : depth;
		for (i = w = 0; i < n; i++) {
			t[i].write = mode == Q_WRITES || (mode == Q_MIXED && wl_rand(c) % 10u < 3u);
			t[i].lba = q_lba(c, t[i].write);
			w += t[i].write;
		}
		r.err = q_batch(c, q, t, n, c->lat + r.tasks);
		if (!r.err) {
			r.tasks += n;
			r.writes += w;
		}
		excl += q_poll(c);
	}
	r.ns = wl_now_ns(c) - t0 - excl;
	q->split = NULL;
	split.errors += r.err != 0;
	q_split_shares(&split, c, r.ns, &sh);
	*iops = q_point_report(&r, c->lat, &sh);
	return r.err;
}

/* Depths 1, 2, 4, 8, 16 and the card's maximum, one mode; keeps depth 1's
 * and the deepest depth's IOPS for the A2 verdict. */
static void q_sweep(struct wl_ctx *c, struct q_state *q, enum q_mode mode, bool cache)
{
	static const unsigned depths[] = { 1, 2, 4, 8, 16, Q_MAX };
	uint32_t total = c->quick ? 64 : 512;
	unsigned k, d;
	double iops;
	int ret;

	for (k = 0; k < sizeof(depths) / sizeof(depths[0]) && !c->abort_all; k++) {
		d = depths[k] < q->max_depth ? depths[k] : q->max_depth;
		if (k && d <= depths[k - 1])
			break;
		ret = q_point(c, q, d, mode, cache, total, &iops);
		if (d == 1 && !cache)
			q->d1[mode] = iops;
		q->top[mode][cache] = iops;
		q->top_depth[mode][cache] = d;
		if (ret == -ETIMEDOUT)
			q->max_depth = d / 2 ? d / 2 : 1;
		if (q->cmd44 == 0)
			return;
	}
}

/* ---- the checks ---------------------------------------------------------- */

/* Tasks 0..n-1 write, tasks n..2n-1 read the same blocks back in the same
 * queue: each read must return what its write carried. */
static void q_check_raw(struct wl_ctx *c, struct q_state *q, unsigned n)
{
	static uint8_t want[Q_BYTES];
	struct q_task t[Q_MAX];
	unsigned i;
	char ev[200];

	for (i = 0; i < n; i++) {
		t[i].lba = q_lba(c, true) ;
		t[i].write = true;
		t[n + i].lba = t[i].lba;
		t[n + i].write = false;
	}
	if (q_batch(c, q, t, 2 * n, NULL))
		return;
	for (i = 0; i < n; i++) {
		q_fill(want, t[i].lba, q->seed);
		if (memcmp(want, c->buf + (n + i) * Q_BYTES, Q_BYTES)) {
			fmt_snprintf(ev, sizeof(ev), "task %u read block %u back after task %u wrote it "
				 "in the same queue: the data differs", n + i, (unsigned)t[i].lba, i);
			q_fail(q, &q->raw, "read-after-write", ev);
			return;
		}
	}
	q->raw = 1;
}

/* n tasks writing pattern seed at lba[]; then a flush; its time in *us. */
static int q_write_flush(struct wl_ctx *c, struct q_state *q, const uint32_t *lba, unsigned n,
			 uint32_t seed, uint32_t *us)
{
	struct q_task t[Q_MAX];
	unsigned i;
	int ret;

	for (i = 0; i < n; i++) {
		t[i].lba = lba[i];
		t[i].write = true;
	}
	q->seed = seed;
	ret = n ? q_batch(c, q, t, n, NULL) : 0;
	return ret ? ret : write_guard_flush(c->guard, us);
}

/* The cache turned off and on again: the off's time in *d (from its
 * CMD49 to the read-back: the card's busy committing what it held). */
static int q_off_on(struct wl_ctx *c, uint32_t *d)
{
	uint64_t t0 = timer_now_us();
	int ret = write_guard_cache(c->guard, false);

	*d = (uint32_t)(timer_now_us() - t0);
	return ret ? ret : write_guard_cache(c->guard, true);
}

/* One Cache Flush (its time in *f), then q_off_on. */
static int q_flush_off(struct wl_ctx *c, uint32_t *f, uint32_t *d)
{
	int ret = write_guard_flush(c->guard, f);

	return ret ? ret : q_off_on(c, d);
}

/* The flush and cache-off times with nothing written (after one pair that
 * commits what the sweeps left), Q_FLUSH_REPS times: their range. */
#define Q_FLUSH_REPS 3u
struct q_flush_base { uint32_t f_lo, f_hi, d_lo, d_hi; };

static int q_flush_baseline(struct wl_ctx *c, struct q_flush_base *b)
{
	uint32_t f, d;
	unsigned i;
	int ret = q_flush_off(c, &f, &d);

	b->f_lo = b->d_lo = UINT32_MAX;
	b->f_hi = b->d_hi = 0;
	for (i = 0; i < Q_FLUSH_REPS && !ret; i++) {
		ret = q_flush_off(c, &f, &d);
		b->f_lo = f < b->f_lo ? f : b->f_lo;
		b->f_hi = f > b->f_hi ? f : b->f_hi;
		b->d_lo = d < b->d_lo ? d : b->d_lo;
		b->d_hi = d > b->d_hi ? d : b->d_hi;
	}
	return ret;
}

/* -1: x is at most half the margin above the baseline's highest, 1: more
 * than the margin above it, 0: between (no call). The margin: 4 times the
 * baseline's spread plus Q_FLUSH_FLOOR_US (the timer's and a CMD49 round
 * trip's jitter; programming 64 KiB of flash is milliseconds, a single
 * NAND page program alone hundreds of us). */
#define Q_FLUSH_FLOOR_US 200u
static int q_above(uint32_t x, uint32_t lo, uint32_t hi)
{
	uint32_t m = 4 * (hi - lo) + Q_FLUSH_FLOOR_US;

	if (x > hi + m)
		return 1;
	return x <= hi + m / 2 ? -1 : 0;
}

/* The differential flush check: n cached tasks written, a flush (time f),
 * then the cache turned off (time d), against the same with nothing
 * written. Turning Cache Enable off makes the card commit what it still
 * holds (SD Physical Layer 6.00 §4.16, Performance Enhancement, Cache
 * Enable / Cache Flush, as the simulator models it; Linux
 * drivers/mmc/core/sd.c sd_enable_cache / sd_flush_cache only ever
 * flushes, so it is no authority on the cache off - the check does not
 * rest on it alone: a card that does not commit at the cache off shows d
 * at its baseline and is never named). So the card's own commit cost
 * shows where the commit happened: in the flush (sound), at the cache off
 * (the flush left the writes held: it commits nothing), or nowhere (the
 * card had committed them on its own before the flush: nothing to judge).
 * Only a clear margin either way judges (q_above); else not judged. */
static void q_judge_flush(struct q_state *q, unsigned n, const struct q_flush_base *b,
			  uint32_t f, uint32_t d)
{
	static char note[240];
	int fa = q_above(f, b->f_lo, b->f_hi), da = q_above(d, b->d_lo, b->d_hi);
	char fig[150], ev[200];

	fmt_snprintf(fig, sizeof(fig), "a flush of %u cached blocks took %u us (empty %u..%u), "
		     "the cache off after it %u us (empty %u..%u)", n * Q_BLOCKS,
		     (unsigned)f, (unsigned)b->f_lo, (unsigned)b->f_hi, (unsigned)d,
		     (unsigned)b->d_lo, (unsigned)b->d_hi);
	if (fa == 1 && da == -1) {
		q->flush_commits = 1;
	} else if (fa == -1 && da == 1) {
		fmt_snprintf(ev, sizeof(ev), "%s: still held after the flush", fig);
		q_fail(q, &q->flush_commits, "flush commits nothing", ev);
	} else {
		fmt_snprintf(note, sizeof(note), "flush not judged: %s: %s", fig,
			     fa == -1 && da == -1 ? "nothing was held (the card committed its "
			     "cache on its own)" : "no clear margin");
		q->note = note;
	}
}

/* With the cache on: the differential flush check (q_judge_flush) on n
 * tasks; then the same blocks written twice, with a flush after each, must
 * read back as the second write (a card that reorders across a flush lands
 * an older write last). The cache is on again after q_judge_flush's
 * experiment, as this check needs it; off at the end (the read-back).
 * A right read-back counts only when the flush was seen to commit. */
static void q_check_flush(struct wl_ctx *c, struct q_state *q, unsigned n)
{
	uint32_t lba[Q_MAX], f = 0, d = 0, x_us = 0, seed = q->seed;
	struct q_flush_base b;
	unsigned i;
	char ev[200];

	for (i = 0; i < n; i++)
		lba[i] = c->ta->first_lba + i * Q_BLOCKS;
	if (q_flush_baseline(c, &b) || q_write_flush(c, q, lba, n, seed + 1, &f) ||
	    q_off_on(c, &d))
		return;
	q_judge_flush(q, n, &b, f, d);
	if (q_write_flush(c, q, lba, n, seed + 2, &x_us) ||
	    q_write_flush(c, q, lba, n, seed + 3, &x_us))
		return;
	write_guard_cache(c->guard, false);
	for (i = 0; i < n; i++) {
		if (sd_read_blocks(c->card, lba[i], Q_BLOCKS, c->buf, SD_STOP_AUTO12, NULL))
			return;
		q_fill(c->buf + Q_BYTES, lba[i], seed + 3);
		if (memcmp(c->buf, c->buf + Q_BYTES, Q_BYTES)) {
			fmt_snprintf(ev, sizeof(ev), "block %u, written twice with a flush after each, "
				 "reads back as the earlier write", (unsigned)lba[i]);
			q_fail(q, &q->flush_order, "writes reordered across a flush", ev);
			return;
		}
	}
	/* Writes can land out of order across a flush only if the card still
	 * held them at it: the same writes were held at q_judge_flush's flush
	 * only when that flush committed them. Else a right read-back proves
	 * nothing: not judged (null; the note says why). */
	if (q->flush_commits == 1)
		q->flush_order = 1;
}

/* ---- the workload -------------------------------------------------------- */

/* Why this card's queue is not measured, or NULL. */
static const char *q_none_why(const struct wl_ctx *c)
{
	const struct sd_ext *e = &c->card->ext;

	if (c->emulated)
		return "QEMU's card has none (its SCR lists no CMD48/49)";
	if (!e->supported)
		return "the SCR lists no CMD48/49 (no extension registers)";
	if (!e->read)
		return "the extension registers could not be read";
	if (!e->have_perf || e->cq_depth < 2)
		return "the Performance Enhancement register lists none";
	return NULL;
}

static void q_verdict(const struct wl_ctx *c, const struct q_state *q, const char *why)
{
	char text[300];
	struct json *j;

	if (why)
		fmt_snprintf(text, sizeof(text), "%s: %s",
			 c->card->ext.cq_depth >= 2 && !c->emulated ? "command queue not measured"
			 : "no command queue", why);
	else if (q->broken)
		fmt_snprintf(text, sizeof(text), "command queue BROKEN: %s: %s", q->broken, q->evidence);
	else
		fmt_snprintf(text, sizeof(text), "command queue OK (depth %u)%s%s%s",
			 (unsigned)c->card->ext.cq_depth, q->note ? " (" : "",
			 q->note ? q->note : "", q->note ? ")" : "");
	con_printf("  %s\n", text);
	j = record_begin("queue_check");
	json_bool(j, "queue", !why);
	json_u64(j, "cq_depth", c->card->ext.cq_depth);
	json_bool_if(j, "read_after_write", q->raw);
	json_bool_if(j, "task_status", q->status);
	json_bool_if(j, "no_timeout", q->timeout);
	json_bool_if(j, "flush_commits", q->flush_commits);
	json_bool_if(j, "flush_order", q->flush_order);
	json_bool_if(j, "cmd44", q->cmd44);
	json_str_if(j, "broken", why ? NULL : q->broken);
	json_str_if(j, "evidence", why || !q->broken ? NULL : q->evidence);
	json_str(j, "text", text);
	record_end();
}

/* The A2 verdict on the queued figures (app_class.c decides and prints):
 * the reads and writes at the deepest depth, with the cache on where the
 * card has one, next to depth 1's with the cache off. */
static void q_app_class(struct wl_ctx *c, const struct q_state *q, const char *why)
{
	struct app_class_queued a;
	bool cache = c->card->ext.cache;

	memset(&a, 0, sizeof(a));
	if (why)
		a.state = c->card->ext.cq_depth >= 2 && !c->emulated ? ACQ_NOT_MEASURED :
			  !c->emulated && c->card->ext.supported && !c->card->ext.read ?
			  ACQ_UNKNOWN : ACQ_NO_QUEUE;
	else
		a.state = q->broken ? ACQ_BROKEN : ACQ_MEASURED;
	a.why = why;
	a.broken = q->broken;
	a.evidence = q->evidence;
	a.cache = cache && q->top[Q_READS][1] >= 0;
	a.depth = q->top_depth[Q_READS][a.cache];
	a.read_iops = q->top[Q_READS][a.cache];
	a.write_iops = q->top[Q_WRITES][a.cache];
	a.mixed_iops = q->top[Q_MIXED][a.cache];
	a.read_iops_d1 = q->d1[Q_READS];
	a.write_iops_d1 = q->d1[Q_WRITES];
	a.card_cache = cache;
	wl_app_class_queued(c, &a);
}

/* The depth tables and the checks, with the queue on. */
static void q_measure(struct wl_ctx *c, struct q_state *q, bool writes)
{
	bool cache = c->card->ext.cache && writes;
	unsigned pass;

	for (pass = 0; pass < (cache ? 2u : 1u) && q->cmd44 != 0; pass++) {
		if (c->card->ext.cache && write_guard_cache(c->guard, pass == 1))
			break;
		q_sweep(c, q, Q_READS, pass == 1);
		if (writes && q->cmd44 != 0)
			q_sweep(c, q, Q_WRITES, pass == 1);
		/* mixed 70/30: once, with the cache on where the card has one */
		if (writes && q->cmd44 != 0 && pass == (cache ? 1u : 0u))
			q_sweep(c, q, Q_MIXED, pass == 1);
	}
	if (writes && q->cmd44 != 0 && !c->abort_all) {
		q_check_raw(c, q, q->max_depth / 2 < 8 ? (q->max_depth / 2 ? q->max_depth / 2 : 1) : 8);
		if (cache && write_guard_cache(c->guard, true) == 0)
			q_check_flush(c, q, q->max_depth < 16 ? q->max_depth : 16);
	}
	if (q->status < 0 && q->cmd44 > 0)
		q->status = 1;
	if (q->timeout < 0 && q->cmd44 > 0)
		q->timeout = 1;
}

void wl_queue(struct wl_ctx *c)
{
	struct q_state q;
	const char *why = q_none_why(c);
	bool writes = wl_writes_possible(c);
	static char off[160];
	unsigned m;

	memset(&q, 0, sizeof(q));
	q.raw = q.status = q.timeout = q.flush_commits = q.flush_order = q.cmd44 = -1;
	for (m = 0; m < 3; m++)
		q.d1[m] = q.top[m][0] = q.top[m][1] = -1;
	q.seed = c->run_id ^ 0x51u;
	con_printf("\ncommand queue: random 4 KiB tasks (CMD44/45, CMD46/47) at depth 1..%u\n",
		   (unsigned)(why ? 1 : c->card->ext.cq_depth));
	/* Turning the queue on is a register write (CMD49): the write guard
	 * refuses it when writes are off, so such a card is not measured. */
	if (!why && !writes) {
		fmt_snprintf(off, sizeof(off), "writes are off (%s; turning the queue on is a CMD49 "
			     "register write)", write_guard_why_not(c->guard));
		why = off;
	}
	if (!why && write_guard_cq(c->guard, true))
		why = "turning it on (CMD49) failed";
	if (!why) {
		q.max_depth = c->card->ext.cq_depth < Q_MAX ? c->card->ext.cq_depth : Q_MAX;
		q_measure(c, &q, writes);
		write_guard_card_as_found(c->guard);
	}
	q_verdict(c, &q, why);
	q_app_class(c, &q, why);
}

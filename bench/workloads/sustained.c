/*
 * sustained.c - sustained sequential write over the test area.
 *
 * Many cards take writes into a fast cache (SLC-mode flash or RAM) and slow
 * down once it is full; short benchmarks only ever see the cache. This
 * workload writes large transfers (4 MiB) from the start of the test area
 * until the area, a byte budget or a time budget is used up, keeps every
 * operation's time, and finds the knee (analysis.h: the split into a
 * fast and a slow run), the rate before and after it, and the worst stall.
 * The standard "series" record shows the slope over time; the "sustained"
 * record adds the rate over the bytes written.
 *
 * On a slow card the transfers are made smaller (down to 64 KiB) so that
 * one takes about a second at most (a latency sample holds 4.29 s, and a
 * slope needs points).
 *
 * Not covered: cards whose cache outlasts the budget (the record says "no
 * knee within N MiB"), the idle-time cache flush (the writes are back to
 * back), and single stalls longer than the tick counter's wrap period.
 *
 * Here: plan and measure into struct sustained_result; analysis.c decides
 * (knee, rate over the bytes), sustained_report.c prints (workload.h).
 */
#include "bench/engine/workload_report.h"
#include "bench/workloads/analysis.h"
#include "bench/workloads/common.h"
#include "bench/workloads/sustained.h"
#include "bench/workloads/sustained_report.h"
#include "lib/fmt.h"

#define SUS_XFER_BLOCKS        8192u             /* 4 MiB */
#define SUS_QUICK_XFER_BLOCKS  256u              /* 128 KiB */
#define SUS_BUDGET_BYTES       (1024ull << 20)   /* 1 GiB */
#define SUS_QUICK_BUDGET_BYTES (2ull << 20)
#define SUS_TIME_NS            (90ull * 1000000000ull)
#define SUS_QUICK_TIME_NS      (5ull * 1000000000ull)
#define SUS_MIN_DROP           0.2               /* a knee is a >= 20% lower rate */
#define SUS_PROBE_BLOCKS       512u              /* 256 KiB */
#define SUS_MAX_OP_NS          1000000000ull     /* keep operations near 1 s */
#define SUS_MIN_XFER_BLOCKS    128u              /* 64 KiB */

/* A slow card would take seconds per 4 MiB: longer than one latency sample
 * can hold on every timer, and too few points for a slope. One unmeasured
 * 256 KiB write at the start of the area estimates the rate; transfers are
 * halved until one takes about a second at most. */
static uint32_t pick_xfer(struct wl_ctx *c, uint32_t max_blocks)
{
	struct wl_meas m;
	struct wl_op op = { true, c->ta->first_lba, SUS_PROBE_BLOCKS, WL_MULTI_AUTO12 };
	uint32_t blocks = max_blocks, lat;

	if (max_blocks <= SUS_PROBE_BLOCKS)
		return max_blocks;
	wl_begin(c, &m, "sustained", "sustained-probe", "sustained probe", true,
		 WL_MULTI_AUTO12, SUS_PROBE_BLOCKS, 0);
	lat = wl_do(c, &m, &op) ? 0 : wlx_last_lat(c, &m, 0);
	wl_end(c, &m);
	/* One operation of n blocks takes about n * lat / SUS_PROBE_BLOCKS. */
	while (lat && blocks > SUS_MIN_XFER_BLOCKS &&
	       (uint64_t)blocks * lat > SUS_PROBE_BLOCKS * SUS_MAX_OP_NS)
		blocks >>= 1;
	return blocks;
}

/* Transfer size, area, budget and the number of writes (*nops). Returns
 * false when the area is too small. */
static bool plan(struct wl_ctx *c, struct sustained_result *r, uint32_t *nops_out)
{
	uint32_t blocks, nops;
	uint64_t budget;

	blocks = c->quick ? SUS_QUICK_XFER_BLOCKS : SUS_XFER_BLOCKS;
	while (blocks > 8 && (uint64_t)blocks * SD_BLOCK_SIZE > c->buf_bytes)
		blocks >>= 1;
	while (blocks > 8 && blocks * 4 > c->ta->count)
		blocks >>= 1;
	if (!c->quick)
		blocks = pick_xfer(c, blocks);
	r->emulated = c->emulated;
	r->xfer_bytes = blocks * SD_BLOCK_SIZE;
	r->first_lba = c->ta->first_lba;
	r->area_bytes = (uint64_t)c->ta->count * SD_BLOCK_SIZE;
	budget = c->quick ? SUS_QUICK_BUDGET_BYTES : SUS_BUDGET_BYTES;
	if (budget > r->area_bytes)
		budget = r->area_bytes;
	nops = (uint32_t)(budget / ((uint64_t)blocks * SD_BLOCK_SIZE));
	if (nops < 4)
		return false;
	if (nops > c->lat_max)
		nops = c->lat_max;
	r->budget_bytes = (uint64_t)nops * blocks * SD_BLOCK_SIZE;
	*nops_out = nops;
	return true;
}

/* Up to nops writes front to back, until the time budget ends. */
static void measure(struct wl_ctx *c, struct wl_meas *m, uint32_t nops,
		    struct sustained_result *r)
{
	uint32_t blocks = r->xfer_bytes / SD_BLOCK_SIZE, i;
	uint64_t limit_ns = c->quick ? SUS_QUICK_TIME_NS : SUS_TIME_NS;

	r->stopped_by = "budget";
	for (i = 0; i < nops; i++) {
		struct wl_op op = { true, r->first_lba + i * blocks, blocks, WL_MULTI_AUTO12 };

		if (wl_should_stop(c, m)) {
			r->stopped_by = c->interrupted ? "user" : "errors";
			break;
		}
		if (wl_now_ns(c) - m->start_ns > limit_ns) {
			r->stopped_by = "time";
			break;
		}
		wl_do(c, m, &op);
	}
	if (i == nops && r->budget_bytes >= r->area_bytes - r->xfer_bytes)
		r->stopped_by = "area";
	r->ops = m->nlat;
}

void wl_sustained(struct wl_ctx *c)
{
	const char *why = wlx_no_write_reason(c);
	struct sustained_result r;
	struct wl_meas m;
	uint32_t nops;
	char s1[24], label[64];

	if (why) {
		wl_skip("sustained-write", why);
		return;
	}
	if (!plan(c, &r, &nops)) {
		wl_skip("sustained-write", "the test area is too small for a sustained write");
		return;
	}
	sustained_report_heading(&r);
	fmt_snprintf(label, sizeof(label), "sustained write %s",
		     fmt_size(s1, sizeof(s1), r.xfer_bytes, FMT_SIZE_EXACT));
	wl_begin(c, &m, "sustained", "sustained-write", label, true, WL_MULTI_AUTO12,
		 r.xfer_bytes / SD_BLOCK_SIZE, r.budget_bytes);
	measure(c, &m, nops, &r);
	/* Decide on the samples in issue order, before wl_end sorts them.
	 * Failed operations left no sample: the knee is over the successful
	 * ones. */
	wla_find_knee(c->lat, r.ops, r.xfer_bytes, SUS_MIN_DROP, &r.knee);
	r.nrates = wla_rate_by_bytes(c->lat, r.ops, r.xfer_bytes, SUSTAINED_RATE_POINTS,
				     r.rate_mbs, &r.rate_group_ops);
	wl_end(c, &m);
	wl_report(c, &m);
	if (!r.ops)
		return;
	sustained_report(&r);
	if (c->verify)
		wl_verify_written(c, "sustained-write");
}

/*
 * wl_sustained.c - sustained sequential write over the test area.
 *
 * Many cards take writes into a fast cache (SLC-mode flash or RAM) and slow
 * down once it is full; short benchmarks only ever see the cache. This
 * workload writes large transfers (4 MiB) from the start of the test area
 * until the area, a byte budget or a time budget is used up, keeps every
 * operation's time, and finds the knee (wl_analysis.h: the split into a
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
 */
#include "bench/engine/record.h"
#include "bench/engine/workload_report.h"
#include "bench/workloads/analysis.h"
#include "bench/workloads/common.h"
#include "bench/workloads/sustained.h"
#include "lib/console.h"
#include "lib/fmt.h"

#define SUS_XFER_BLOCKS        8192u             /* 4 MiB */
#define SUS_QUICK_XFER_BLOCKS  256u              /* 128 KiB */
#define SUS_BUDGET_BYTES       (1024ull << 20)   /* 1 GiB */
#define SUS_QUICK_BUDGET_BYTES (2ull << 20)
#define SUS_TIME_NS            (90ull * 1000000000ull)
#define SUS_QUICK_TIME_NS      (5ull * 1000000000ull)
#define SUS_MIN_DROP           0.2               /* a knee is a >= 20% lower rate */
#define SUS_RATE_POINTS        32
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

/* Rate over the bytes written: SUS_RATE_POINTS groups of operations,
 * each group's bytes over its summed operation time. */
static unsigned rate_by_bytes(const uint32_t *lat, uint32_t n, uint32_t xfer_bytes,
			      double *out, uint32_t *group_ops)
{
	uint32_t g = (n + SUS_RATE_POINTS - 1) / SUS_RATE_POINTS, i, k = 0;

	if (!g)
		return 0;
	*group_ops = g;
	for (i = 0; i < n; i += g, k++) {
		uint64_t ns = 0;
		uint32_t j, cnt = 0;

		for (j = i; j < i + g && j < n; j++, cnt++)
			ns += lat[j];
		out[k] = ns ? (double)cnt * xfer_bytes * 1000.0 / (double)ns : 0.0;
	}
	return k;
}

void wl_sustained(struct wl_ctx *c)
{
	const char *why = wlx_no_write_reason(c);
	struct wl_meas m;
	struct wla_knee k;
	double rates[SUS_RATE_POINTS];
	uint32_t blocks, first, nops, i, group_ops = 0, nlat;
	uint64_t budget, limit_ns, area_bytes;
	unsigned nrates;
	const char *stop = "budget";
	char s1[24], s2[24], s3[24], label[64];
	struct json *j;

	if (why) {
		wl_skip("sustained-write", why);
		return;
	}
	blocks = c->quick ? SUS_QUICK_XFER_BLOCKS : SUS_XFER_BLOCKS;
	while (blocks > 8 && (uint64_t)blocks * SD_BLOCK_SIZE > c->buf_bytes)
		blocks >>= 1;
	while (blocks > 8 && blocks * 4 > c->ta->count)
		blocks >>= 1;
	if (!c->quick)
		blocks = pick_xfer(c, blocks);
	first = c->ta->first_lba;
	area_bytes = (uint64_t)c->ta->count * SD_BLOCK_SIZE;
	budget = c->quick ? SUS_QUICK_BUDGET_BYTES : SUS_BUDGET_BYTES;
	if (budget > area_bytes)
		budget = area_bytes;
	nops = (uint32_t)(budget / ((uint64_t)blocks * SD_BLOCK_SIZE));
	if (nops < 4) {
		wl_skip("sustained-write", "the test area is too small for a sustained write");
		return;
	}
	if (nops > c->lat_max)
		nops = c->lat_max;
	budget = (uint64_t)nops * blocks * SD_BLOCK_SIZE;
	limit_ns = c->quick ? SUS_QUICK_TIME_NS : SUS_TIME_NS;

	con_printf("\nsustained sequential write, %s transfers over up to %s of the test area "
		   "(MB = 10^6 B)%s\n", wlx_size_str((uint64_t)blocks * SD_BLOCK_SIZE, s1, sizeof(s1)),
		   wlx_size_str(budget, s2, sizeof(s2)),
		   c->emulated ? " - emulated: the rates are QEMU's, not a card's" : "");
	fmt_snprintf(label, sizeof(label), "sustained write %s", s1);
	wl_begin(c, &m, "sustained", "sustained-write", label, true, WL_MULTI_AUTO12, blocks, budget);
	for (i = 0; i < nops; i++) {
		struct wl_op op = { true, first + i * blocks, blocks, WL_MULTI_AUTO12 };

		if (wl_should_stop(c, &m)) {
			stop = "errors";
			break;
		}
		if (wl_now_ns(c) - m.start_ns > limit_ns) {
			stop = "time";
			break;
		}
		wl_do(c, &m, &op);
	}
	if (i == nops && budget >= area_bytes - (uint64_t)blocks * SD_BLOCK_SIZE)
		stop = "area";

	/* Analyse the samples in issue order before wl_end sorts them. Failed
	 * operations left no sample; the knee is over the successful ones. */
	nlat = m.nlat;
	wla_find_knee(c->lat, nlat, blocks * SD_BLOCK_SIZE, SUS_MIN_DROP, &k);
	nrates = rate_by_bytes(c->lat, nlat, blocks * SD_BLOCK_SIZE, rates, &group_ops);
	wl_end(c, &m);
	wl_report(c, &m);

	if (!nlat)
		return;
	if (k.found)
		con_printf("  %-28s initial %.2f MB/s for the first %s, then %.2f MB/s "
			   "(knee: the cache is full after %s)\n", "", k.initial_mbs,
			   wlx_size_str(k.knee_bytes, s1, sizeof(s1)), k.steady_mbs,
			   wlx_size_str(k.knee_bytes, s2, sizeof(s2)));
	else
		con_printf("  %-28s no knee within %s: %.2f MB/s throughout (no cache, or a cache "
			   "larger than the amount written)\n", "",
			   wlx_size_str((uint64_t)nlat * blocks * SD_BLOCK_SIZE, s1, sizeof(s1)),
			   k.overall_mbs);
	con_printf("  %-28s worst stall %.1f ms at %s (median operation %.1f ms)\n", "",
		   k.worst_ns / 1e6, wlx_size_str((uint64_t)k.worst_op * blocks * SD_BLOCK_SIZE,
						  s3, sizeof(s3)), k.median_ns / 1e6);

	j = record_begin("sustained");
	json_str(j, "workload", "sustained-write");
	json_u64(j, "xfer_bytes", (uint64_t)blocks * SD_BLOCK_SIZE);
	json_u64(j, "first_lba", first);
	json_u64(j, "area_bytes", area_bytes);
	json_u64(j, "budget_bytes", budget);
	json_u64(j, "bytes", (uint64_t)nlat * blocks * SD_BLOCK_SIZE);
	json_u64(j, "ops", nlat);
	json_str(j, "stopped_by", stop);
	json_double(j, "overall_mbs", k.overall_mbs, 3);
	json_bool(j, "knee_found", k.found);
	if (k.found) {
		json_u64(j, "knee_bytes", k.knee_bytes);
		json_u64(j, "knee_op", k.knee_op);
	} else {
		json_null(j, "knee_bytes");
		json_null(j, "knee_op");
	}
	json_double(j, "initial_mbs", k.initial_mbs, 3);
	json_double(j, "steady_mbs", k.steady_mbs, 3);
	json_u64(j, "median_op_ns", k.median_ns);
	json_u64(j, "worst_ns", k.worst_ns);
	json_u64(j, "worst_at_bytes", (uint64_t)k.worst_op * blocks * SD_BLOCK_SIZE);
	json_u64(j, "rate_step_bytes", (uint64_t)group_ops * blocks * SD_BLOCK_SIZE);
	json_arr_begin(j, "rate_mbs");
	for (i = 0; i < nrates; i++)
		json_double(j, NULL, rates[i], 2);
	json_arr_end(j);
	json_bool(j, "emulated", c->emulated);
	record_end();

	if (c->verify)
		wl_verify_written(c, "sustained-write");
}

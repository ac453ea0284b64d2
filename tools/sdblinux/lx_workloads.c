/*
 * lx_workloads.c - sdbench's basic workloads through Linux, with the same
 * names, so that reports can pair them: sequential reads and writes of
 * 512 B, 4 KiB, 64 KiB and 4 MiB (256 KiB each, at least one request, as
 * sdbench's quick profile), random 4 KiB reads over the device (64) and
 * writes over the test area (32). Each prints `result` and `latency`.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "tools/sdblinux/lx.h"

#define MAX_OPS 512

struct wl {
	const char *name, *kind;
	bool write;
	uint32_t blocks, nops, first, span;
	bool random;
};

static uint32_t rng;

static uint32_t next_rand(void)
{
	/* xorshift32: only to spread the offsets */
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of the sorted lat[0..n). */
static uint64_t pct(const uint64_t *lat, uint32_t n, unsigned per_mille)
{
	uint32_t k = (uint32_t)(((uint64_t)n * per_mille + 999) / 1000);

	return lat[k ? k - 1 : 0];
}

static void report(const struct lx *x, const struct wl *w, uint64_t *lat, uint32_t ops,
		   uint32_t errors, uint64_t elapsed)
{
	uint64_t bytes = (uint64_t)ops * w->blocks * LX_BLOCK, sum = 0;
	double mean, var = 0, s = elapsed ? elapsed / 1e9 : 0;
	struct json *j;
	uint32_t i;

	j = lx_rec_begin("result");
	json_str(j, "workload", w->name);
	json_str(j, "kind", w->kind);
	json_str(j, "op", w->write ? "write" : "read");
	json_str(j, "cmd", "kernel");
	json_u64(j, "xfer_bytes", (uint64_t)w->blocks * LX_BLOCK);
	json_u64(j, "ops", ops);
	json_u64(j, "reads", w->write ? 0 : ops);
	json_u64(j, "writes", w->write ? ops : 0);
	json_u64(j, "bytes", bytes);
	json_u64(j, "elapsed_ns", elapsed);
	json_double(j, "mbs", s > 0 ? bytes / s / 1e6 : 0, 3);
	json_double(j, "mibs", s > 0 ? bytes / s / 1048576.0 : 0, 3);
	json_double(j, "iops", s > 0 ? ops / s : 0, 1);
	json_u64(j, "errors", errors);
	json_bool(j, "emulated", x->emulated);
	lx_rec_end();
	printf("  %-16s %6u ops %10.3f MB/s %10.1f IOPS\n", w->name, (unsigned)ops,
	       s > 0 ? bytes / s / 1e6 : 0, s > 0 ? ops / s : 0);
	if (!ops)
		return;
	qsort(lat, ops, sizeof(lat[0]), cmp_u64);
	for (i = 0; i < ops; i++)
		sum += lat[i];
	mean = (double)sum / ops;
	for (i = 0; i < ops; i++)
		var += (lat[i] - mean) * (lat[i] - mean);
	j = lx_rec_begin("latency");
	json_str(j, "workload", w->name);
	json_u64(j, "count", ops);
	json_u64(j, "min_ns", lat[0]);
	json_u64(j, "mean_ns", (uint64_t)(mean + 0.5));
	json_u64(j, "p50_ns", pct(lat, ops, 500));
	json_u64(j, "p90_ns", pct(lat, ops, 900));
	json_u64(j, "p99_ns", pct(lat, ops, 990));
	json_u64(j, "p999_ns", pct(lat, ops, 999));
	json_u64(j, "max_ns", lat[ops - 1]);
	json_u64(j, "stddev_ns", (uint64_t)(sqrt(var / ops) + 0.5));
	lx_rec_end();
}

static void run(struct lx *x, const struct wl *w)
{
	static uint64_t lat[MAX_OPS];
	uint32_t i, ops = 0, errors = 0, lba = w->first, slots = w->span / w->blocks;
	uint64_t t_start, t0, t1;

	if (!slots)
		return;
	t_start = lx_now_ns();
	for (i = 0; i < w->nops && i < MAX_OPS; i++) {
		int r;

		if (w->random)
			lba = w->first + (next_rand() % slots) * w->blocks;
		else if ((uint64_t)lba + w->blocks > (uint64_t)w->first + w->span)
			lba = w->first;
		t0 = lx_now_ns();
		r = w->write ? lx_write(x, lba, w->blocks, w->name) : lx_read(x, lba, w->blocks, w->name);
		t1 = lx_now_ns();
		if (r) {
			errors++;
			if (errors > 4)
				break;
			continue;
		}
		lat[ops++] = t1 - t0;
		lba += w->blocks;
	}
	report(x, w, lat, ops, errors, lx_now_ns() - t_start);
}

static const uint32_t seq_blocks[] = { 1, 8, 128, 8192 };
static const char *const seq_names[2][4] = {
	{ "seq-read-512", "seq-read-4k", "seq-read-64k", "seq-read-4m" },
	{ "seq-write-512", "seq-write-4k", "seq-write-64k", "seq-write-4m" },
};

static void seq(struct lx *x, bool write, uint32_t first, uint32_t span)
{
	for (unsigned k = 0; k < 4; k++) {
		uint32_t b = seq_blocks[k], nops = (256u * 2) / b;
		struct wl w = { seq_names[write][k], "seq", write, b, nops ? nops : 1, first,
				span, false };

		if (b <= span)
			run(x, &w);
	}
}

void lx_workloads(struct lx *x, uint32_t seed)
{
	const char *why = lx_why_no_writes(x);
	struct wl rr = { "rand-read-4k", "random", false, 8, 64, 0, x->blocks, true };

	rng = seed ? seed : 1;
	printf("\nworkloads through Linux (O_DIRECT, queue depth 1)\n");
	seq(x, false, 0, x->blocks);
	run(x, &rr);
	if (why) {
		lx_skip("seq-write", why);
		lx_skip("rand-write", why);
		return;
	}
	memset(x->buf, 0xa5, (size_t)LX_MAX_BLOCKS * LX_BLOCK);
	seq(x, true, x->st.area.first_lba, x->st.area.count);
	{
		struct wl rw = { "rand-write-4k", "random", true, 8, 32, x->st.area.first_lba,
				 x->st.area.count, true };

		run(x, &rw);
	}
}

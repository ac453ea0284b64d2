/*
 * basic.c - the basic workloads: sequential transfer-size sweep (read,
 * write), random reads and writes of 512 B .. 64 KiB over a span, the 70/30
 * mix, and the command variants on the same data (CMD17 loop, CMD18+CMD12,
 * Auto-CMD12, CMD23; writes with and without ACMD23 pre-erase).
 *
 * Regions: reads start at c->read_base (the test area when there is one,
 * so reads and writes see the same flash); writes stay inside the test area
 * (wl_do refuses anything else).
 */
#include "bench/engine/workload_report.h"
#include "bench/workloads/basic.h"
#include "lib/console.h"
#include "lib/fmt.h"

#define SEQ_MAX_BLOCKS 8192u /* 4 MiB */

/* Time budgets per workload (seconds): with them the full suite stays near
 * ten minutes on a slow card, which then moves less data per workload. */
#define BUDGET_FULL_S 15
#define BUDGET_SEQ_FULL_S 10 /* per transfer size: 28 of them */
#define BUDGET_QUICK_S 4

static uint32_t budget_s(const struct wl_ctx *c)
{
	return c->quick ? BUDGET_QUICK_S : BUDGET_FULL_S;
}

/* A transfer size for workload names ("4k") and for people ("4 KiB"). */
static void size_name(uint32_t blocks, char *buf, unsigned cap)
{
	fmt_size(buf, cap, (uint64_t)blocks * SD_BLOCK_SIZE, FMT_SIZE_KEY);
}

static void size_label(uint32_t blocks, char *buf, unsigned cap)
{
	fmt_size(buf, cap, (uint64_t)blocks * SD_BLOCK_SIZE, FMT_SIZE_EXACT);
}

/* Blocks in the region a workload may use. */
static uint32_t region_blocks(const struct wl_ctx *c, bool write)
{
	uint64_t n;

	if (write)
		return wl_writes_possible(c) ? c->ta->count : 0;
	n = (uint64_t)c->card->blocks - c->read_base;
	return n > 0xffffffffu ? 0xffffffffu : (uint32_t)n;
}

static uint32_t region_first(const struct wl_ctx *c, bool write)
{
	return write ? c->ta->first_lba : c->read_base;
}

/* Bytes each size of the sequential sweep moves. */
static uint64_t seq_budget(const struct wl_ctx *c, uint32_t blocks)
{
	uint64_t xfer = (uint64_t)blocks * SD_BLOCK_SIZE;
	uint64_t want = c->quick ? (256u << 10) : (32u << 20);
	uint64_t min_ops = c->quick ? 1 : 4;

	if (want < xfer * min_ops)
		want = xfer * min_ops;
	return want;
}

void wl_seq_sweep(struct wl_ctx *c, bool write)
{
	uint32_t blocks;
	uint32_t first = write ? 0 : region_first(c, false);
	uint32_t avail = region_blocks(c, write);

	if (write && !wl_writes_possible(c)) {
		wl_skip("seq-write", c->card->write_protected ? "the card is write-protected"
				      : write_guard_why_not(c->guard));
		return;
	}
	if (write)
		first = region_first(c, true);
	con_printf("\nsequential %s, transfer-size sweep (MB = 10^6 B, MiB = 2^20 B)\n",
		   write ? "write" : "read");
	for (blocks = 1; blocks <= SEQ_MAX_BLOCKS && !c->abort_all; blocks <<= 1) {
		struct wl_meas m;
		char nm[40], lb[64], sz[16], szl[16];
		uint64_t budget = seq_budget(c, blocks);
		uint32_t lba = first, nops, i;

		if ((uint64_t)blocks * SD_BLOCK_SIZE > c->buf_bytes || blocks > avail)
			break;
		nops = (uint32_t)(budget / ((uint64_t)blocks * SD_BLOCK_SIZE));
		size_name(blocks, sz, sizeof(sz));
		size_label(blocks, szl, sizeof(szl));
		fmt_snprintf(nm, sizeof(nm), "seq-%s-%s", write ? "write" : "read", sz);
		fmt_snprintf(lb, sizeof(lb), "seq %s %s", write ? "write" : "read", szl);
		wl_begin(c, &m, "seq", nm, lb, write, blocks > 1 ? WL_MULTI_AUTO12 : WL_MULTI_CMD12,
			 blocks, budget);
		wl_set_budget(&m, c->quick ? BUDGET_QUICK_S : BUDGET_SEQ_FULL_S);
		for (i = 0; i < nops && !wl_should_stop(c, &m); i++) {
			struct wl_op op = { write, lba, blocks,
					    blocks > 1 ? WL_MULTI_AUTO12 : WL_MULTI_CMD12 };

			if ((uint64_t)lba + blocks > (uint64_t)first + avail)
				lba = op.lba = first;
			wl_do(c, &m, &op);
			lba += blocks;
		}
		wl_end(c, &m);
		wl_report(c, &m);
	}
	if (write && c->verify)
		wl_verify_written(c, "seq-write");
}

static void random_one(struct wl_ctx *c, bool write, bool mix, uint32_t blocks,
		       uint32_t span_blocks, uint32_t nops)
{
	struct wl_meas m;
	char nm[40], lb[64], sz[16], szl[16];
	uint32_t first, slots, i;

	first = (write || mix) ? c->ta->first_lba : c->read_base;
	slots = span_blocks / blocks;
	if (!slots)
		return;
	size_name(blocks, sz, sizeof(sz));
	size_label(blocks, szl, sizeof(szl));
	if (mix) {
		fmt_snprintf(nm, sizeof(nm), "mix70-%s", sz);
		fmt_snprintf(lb, sizeof(lb), "random 70/30 r/w %s", szl);
	} else {
		fmt_snprintf(nm, sizeof(nm), "rand-%s-%s", write ? "write" : "read", sz);
		fmt_snprintf(lb, sizeof(lb), "random %s %s", write ? "write" : "read", szl);
	}
	wl_begin(c, &m, mix ? "mix" : "random", nm, lb, write && !mix,
		 blocks > 1 ? WL_MULTI_AUTO12 : WL_MULTI_CMD12, blocks,
		 (uint64_t)nops * blocks * SD_BLOCK_SIZE);
	wl_set_budget(&m, budget_s(c));
	for (i = 0; i < nops && !wl_should_stop(c, &m); i++) {
		struct wl_op op;

		op.write = mix ? (wl_rand(c) % 10) < 3 : write;
		op.lba = first + (wl_rand(c) % slots) * blocks;
		op.blocks = blocks;
		op.cmd = blocks > 1 ? WL_MULTI_AUTO12 : WL_MULTI_CMD12;
		wl_do(c, &m, &op);
	}
	wl_end(c, &m);
	wl_report(c, &m);
}

void wl_random(struct wl_ctx *c, uint64_t span_bytes)
{
	static const uint32_t sizes[] = { 8, 1, 32, 128 }; /* 4 KiB first */
	uint32_t span = (uint32_t)(span_bytes / SD_BLOCK_SIZE);
	uint32_t rspan = span < region_blocks(c, false) ? span : region_blocks(c, false);
	unsigned k;

	con_printf("\nrandom I/O, aligned, queue depth 1, read span %u MiB\n",
		   (unsigned)(rspan >> 11));
	for (k = 0; k < 4 && !c->abort_all; k++) {
		uint32_t nops = c->quick ? 64 : (sizes[k] == 8 ? 4000 : 1000);

		random_one(c, false, false, sizes[k], rspan, nops);
	}
	if (!wl_writes_possible(c)) {
		wl_skip("rand-write", c->card->write_protected ? "the card is write-protected"
				       : write_guard_why_not(c->guard));
		wl_skip("mix70-4k", "needs writes");
		return;
	}
	{
		uint32_t wspan = span < c->ta->count ? span : c->ta->count;

		con_printf("  (writes over %u MiB of the test area)\n", (unsigned)(wspan >> 11));
		for (k = 0; k < 4 && !c->abort_all; k++) {
			uint32_t nops = c->quick ? 32 : (sizes[k] == 8 ? 2000 : 500);

			random_one(c, true, false, sizes[k], wspan, nops);
		}
		if (!c->abort_all)
			random_one(c, false, true, 8, wspan, c->quick ? 64 : 3000);
		if (c->verify)
			wl_verify_written(c, "random-writes");
	}
}

static void variant(struct wl_ctx *c, bool write, enum wl_cmd cmd, const char *nm,
		    const char *lb, uint32_t blocks, uint32_t nops)
{
	struct wl_meas m;
	uint32_t i, first = write ? c->ta->first_lba : c->read_base;

	wl_begin(c, &m, "variant", nm, lb, write, cmd, blocks,
		 (uint64_t)nops * blocks * SD_BLOCK_SIZE);
	wl_set_budget(&m, budget_s(c));
	for (i = 0; i < nops && !wl_should_stop(c, &m); i++) {
		struct wl_op op = { write, first + i * blocks, blocks, cmd };

		wl_do(c, &m, &op);
	}
	wl_end(c, &m);
	wl_report(c, &m);
}

/* The command variants, in the order they run: each command's read and
 * write (name, label; a NULL name: none in that direction). */
static const struct variant_row {
	enum wl_cmd cmd;
	const char *name[2], *label[2];
} variants[] = {
	{ WL_SINGLE_LOOP, { "var-read-cmd17", "var-write-cmd24" },
	  { "read CMD17 x128", "write CMD24 x128" } },
	{ WL_MULTI_CMD12, { "var-read-cmd18-cmd12", "var-write-cmd25-cmd12" },
	  { "read CMD18+CMD12", "write CMD25+CMD12" } },
	{ WL_MULTI_AUTO12, { "var-read-auto12", "var-write-auto12" },
	  { "read CMD18+Auto-CMD12", "write CMD25+Auto-CMD12" } },
	{ WL_MULTI_CMD23, { "var-read-cmd23", "var-write-cmd23" },
	  { "read CMD23+CMD18", "write CMD23+CMD25" } },
	{ WL_MULTI_PREERASE, { NULL, "var-write-acmd23" }, { NULL, "write ACMD23+CMD25" } },
};

/* Every variant of one direction; CMD23's only where the card has it. */
static void variant_rows(struct wl_ctx *c, bool write, uint32_t blocks, uint32_t nops)
{
	unsigned i;

	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		const struct variant_row *v = &variants[i];

		if (!v->name[write])
			continue;
		if (v->cmd == WL_MULTI_CMD23 && !c->card->cmd23)
			wl_skip(v->name[write], "the card does not support CMD23 (SCR CMD_SUPPORT)");
		else
			variant(c, write, v->cmd, v->name[write], v->label[write], blocks, nops);
	}
}

void wl_variants(struct wl_ctx *c)
{
	uint32_t blocks = 128; /* 64 KiB on the same LBAs for every variant */
	uint32_t nops = c->quick ? 8 : 128;

	con_printf("\ncommand variants, 64 KiB transfers on the same blocks\n");
	variant_rows(c, false, blocks, nops);
	if (!wl_writes_possible(c)) {
		wl_skip("var-write", "no writable test area");
		return;
	}
	variant_rows(c, true, blocks, nops);
	if (c->verify)
		wl_verify_written(c, "variant-writes");
}

/*
 * test_bench_integrity.c - the benchmark engine's write safety and its
 * read-back classification, on simulated cards:
 *  - the write guard: a write outside the test area is refused before any
 *    command reaches the card (the flash stays byte-identical);
 *  - verify mode on an honest card: every block reads back "ok";
 *  - a fake-capacity card (claims 64 GB, has 8 GiB, addresses wrap): data
 *    written high lands on data written low, and the read-back says
 *    "overwritten" for exactly those blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/engine/record.h"
#include "bench/engine/workload.h"
#include "lib/err.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define MEM_BYTES (24u << 20)
#define GIB_BLOCKS (2u * 1024 * 1024) /* 1 GiB in 512-byte blocks */

static char out[1 << 16];
static size_t outlen;

static void capture(char c)
{
	if (outlen + 1 < sizeof(out))
		out[outlen++] = c;
	out[outlen] = '\0';
}

static struct write_guard guard;

static uint8_t *setup(struct simh *s, const char *profile, struct wl_ctx *c,
		      struct test_area *ta, uint32_t first, uint32_t count)
{
	uint8_t *mem = malloc(MEM_BYTES);

	CHECK_EQ_I(simh_start(s, profile, NULL), 0);
	simh_config_area(ta, first, count);
	write_guard_init(&guard, &s->card, ta, true);
	wl_ctx_init(c, &guard, mem, MEM_BYTES, true, false, 0xabcd1234u, 7);
	c->verify = true;
	outlen = 0;
	out[0] = '\0';
	host_console_hook = capture;
	record_reset_errors();
	return mem;
}

TEST(write_guard_refuses_outside_the_area)
{
	struct simh s;
	struct wl_ctx c;
	struct test_area ta;
	struct wl_meas m;
	uint8_t *mem = setup(&s, "sdhc-c10-16g", &c, &ta, 1u << 20, 8192);
	static uint8_t before[64 * 512], after[64 * 512];
	struct wl_op below = { true, (1u << 20) - 8, 16, WL_MULTI_AUTO12 }; /* straddles the start */
	struct wl_op above = { true, (1u << 20) + 8192 - 8, 16, WL_MULTI_AUTO12 };
	struct wl_op lba0 = { true, 0, 1, WL_MULTI_CMD12 };
	unsigned cmds;

	sim_card_peek(((uint64_t)(1u << 20) - 32) * 512, before, sizeof(before));
	cmds = sim_truth_count();
	wl_begin(&c, &m, "test", "guard", "guard", true, WL_MULTI_AUTO12, 16, 0);
	CHECK_EQ_I(wl_do(&c, &m, &below), -EPERM);
	CHECK_EQ_I(wl_do(&c, &m, &above), -EPERM);
	CHECK_EQ_I(wl_do(&c, &m, &lba0), -EPERM);
	CHECK_EQ_U(sim_truth_count(), cmds); /* nothing reached the bus */
	sim_card_peek(((uint64_t)(1u << 20) - 32) * 512, after, sizeof(after));
	CHECK(memcmp(before, after, sizeof(before)) == 0);
	CHECK_EQ_U(m.errors, 3);
	CHECK(strstr(out, "outside the test area") != NULL);
	/* No test area at all: every write is refused. */
	ta.usable = false;
	{
		struct wl_op inside = { true, 1u << 20, 8, WL_MULTI_AUTO12 };

		CHECK_EQ_I(wl_do(&c, &m, &inside), -EPERM);
	}
	host_console_hook = NULL;
	free(mem);
}

static void write_range(struct wl_ctx *c, uint32_t lba, uint32_t blocks)
{
	struct wl_meas m;
	struct wl_op op = { true, lba, blocks, WL_MULTI_AUTO12 };

	wl_begin(c, &m, "test", "w", "w", true, WL_MULTI_AUTO12, blocks, 0);
	CHECK_EQ_I(wl_do(c, &m, &op), 0);
	wl_end(c, &m);
}

TEST(verify_ok_on_an_honest_card)
{
	struct simh s;
	struct wl_ctx c;
	struct test_area ta;
	uint8_t *mem = setup(&s, "sdhc-c10-16g", &c, &ta, 1u << 20, 1u << 16);

	write_range(&c, 1u << 20, 256);
	write_range(&c, (1u << 20) + 4096, 64);
	CHECK_EQ_U(wl_verify_written(&c, "honest"), 0);
	CHECK(strstr(out, "\"blocks\":320,\"ok\":320,") != NULL);
	CHECK_EQ_U(record_error_count(), 0);
	host_console_hook = NULL;
	free(mem);
}

TEST(fake_capacity_card_is_caught_as_overwritten)
{
	struct simh s;
	struct wl_ctx c;
	struct test_area ta;
	/* The area spans the real 8 GiB boundary: LBA 8 GiB + x is LBA x. */
	uint32_t low = 4 * GIB_BLOCKS, high = low + 8 * GIB_BLOCKS;
	uint8_t *mem = setup(&s, "fake-64g-8g", &c, &ta, low, 16 * GIB_BLOCKS);

	CHECK(s.card.blocks > high + 128); /* the card claims far more */
	write_range(&c, low, 128);
	write_range(&c, high, 64);   /* wraps onto the first 64 blocks of 'low' */
	CHECK_EQ_U(wl_verify_written(&c, "fake"), 64);
	CHECK(strstr(out, "\"blocks\":192,\"ok\":128,\"changed\":0,\"overwritten\":64,") != NULL);
	CHECK_EQ_U(record_error_count(), 1);
	CHECK(strstr(out, "did not read back as written (first at LBA ") != NULL);
	host_console_hook = NULL;
	free(mem);
}

/* Blocks the card sent back (read commands) since truth record 'from'. */
static uint64_t blocks_read_since(unsigned from)
{
	uint64_t n = 0;

	for (unsigned k = from; k < sim_truth_count(); k++) {
		const struct sim_truth *t = sim_truth_get(k);

		if (t && (t->cmd == 17 || t->cmd == 18))
			n += t->blocks;
	}
	return n;
}

/* Each block written is read back once, however often it was written and
 * in whatever order: the sustained write's 256 KiB probe under its first
 * transfers, a range written twice, one written behind another. */
TEST(verify_reads_each_written_block_once)
{
	struct simh s;
	struct wl_ctx c;
	struct test_area ta;
	uint32_t a = 1u << 20;
	uint8_t *mem = setup(&s, "sdhc-c10-16g", &c, &ta, a, 1u << 16);
	unsigned from;

	write_range(&c, a, 512);		/* the probe */
	write_range(&c, a, 2048);		/* the transfers over it */
	write_range(&c, a + 2048, 2048);
	write_range(&c, a + 8192, 64);		/* a random write, twice */
	write_range(&c, a + 8192, 64);
	write_range(&c, a + 8256 + 64, 32);	/* one behind, one touching */
	write_range(&c, a + 8256, 64);
	from = sim_truth_count();
	CHECK_EQ_U(wl_verify_written(&c, "overlap"), 0);
	CHECK(strstr(out, "\"blocks\":4256,\"ok\":4256,") != NULL);
	CHECK_EQ_U(blocks_read_since(from), 4256);
	CHECK_EQ_U(record_error_count(), 0);
	host_console_hook = NULL;
	free(mem);
}

/*
 * test_wl_queue.c - the "queue" workload (bench/workloads/queue.c) on the
 * simulator's A2 card with a command queue (sdxc-a2-cq-64g) and on each of
 * its broken variants (the profile keys of sim/sim_card_cq.c): a sound
 * card passes every check and its read IOPS rise with depth as its four
 * read lanes allow; each broken card is named with its check; a card
 * without a queue queues nothing and says so; every queued write (CMD44
 * with bit 30 clear, its block in the CMD45 that follows) stays inside the
 * test area; the card is left with its cache and queue off.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/workload.h"
#include "bench/workloads/queue.h"
#include "harness/sim_harness.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "tests/unit/check.h"

#define MEM_BYTES (4u << 20)
#define TA_FIRST  (1u << 21)
#define TA_COUNT  (1u << 15)

static char out[1 << 18];
static uint8_t *mem;
static struct simh sh;
static struct sim_profile prof;
static struct test_area ta;
static struct write_guard guard;
static struct wl_ctx ctx;

static uint64_t sum_before;
static unsigned n44_seen;

/* 1 when a block outside the test area changed during the run; *n44: the
 * CMD44s the card saw (the simulator's truth counts every one). */
static unsigned queued_writes_outside(unsigned *n44)
{
	*n44 = n44_seen;
	return sim_card_sum_outside(TA_FIRST, TA_COUNT) != sum_before;
}

/* Blocks around the test area hold data before the run. */
static void seed_outside(void)
{
	static const uint32_t at[] = { 0, 100, TA_FIRST - 8, TA_FIRST - 1, TA_FIRST + TA_COUNT,
				       TA_FIRST + TA_COUNT + 7, 1u << 24 };
	uint8_t b[512];
	unsigned i;

	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		memset(b, 0xa5 ^ i, sizeof(b));
		CHECK_EQ_I(sd_write_blocks(&sh.card, at[i], 1, b, SD_STOP_AUTO12, NULL), 0);
	}
	sum_before = sim_card_sum_outside(TA_FIRST, TA_COUNT);
}

static int (*key_fn)(void);

/* The A2 queue card, changed by tweak (NULL: as built), run through the
 * workload; writes when 'writes'. */
static void run(void (*tweak)(struct sim_profile *), bool writes)
{
	const struct sim_profile *p = sim_profile_find("sdxc-a2-cq-64g");

	CHECK(p != NULL);
	prof = *p;
	if (tweak)
		tweak(&prof);
	if (!mem)
		mem = malloc(MEM_BYTES);
	CHECK_EQ_I(simh_start_p(&sh, &prof, NULL), 0);
	memset(&ta, 0, sizeof(ta));
	ta.usable = true;
	ta.source = TEST_AREA_CONFIG;
	ta.first_lba = TA_FIRST;
	ta.count = TA_COUNT;
	simh_wl_ctx(&sh, &ta, writes, true, mem, MEM_BYTES, &guard, &ctx);
	ctx.read_span_blocks = 1u << 20;
	simh_capture_start(out, sizeof(out));
	ctx.poll_key = key_fn;
	seed_outside();
	sim_truth_reset();
	wl_queue(&ctx);
	n44_seen = sim_truth_find_last(44) != NULL;
	simh_capture_stop();
	CHECK(!sim_card_cache_on() && !sim_card_cq_on());
}

/* The iops of the "queue" record of that depth/direction/cache, or -1. */
static double iops(unsigned depth, bool write, bool cache)
{
	char key[96];
	const char *p;

	snprintf(key, sizeof(key), "\"type\":\"queue\",\"depth\":%u,\"write\":%s,\"cache\":%s",
		 depth, write ? "true" : "false", cache ? "true" : "false");
	p = strstr(out, key);
	p = p ? strstr(p, "\"iops\":") : NULL;
	return p ? atof(p + 7) : -1;
}

TEST(sound_card_passes_and_iops_rise_with_depth)
{
	unsigned n44;

	run(NULL, true);
	CHECK(strstr(out, "command queue OK (depth 32)") != NULL);
	CHECK(strstr(out, "\"type\":\"queue_check\",\"queue\":true") != NULL);
	CHECK(strstr(out, "\"read_after_write\":true,\"task_status\":true,\"no_timeout\":true,"
		      "\"flush_commits\":true,\"flush_order\":true,\"cmd44\":true") != NULL);
	/* four read lanes (cq_lanes = 4): depth 8 well above depth 1 */
	CHECK(iops(8, false, false) > 1.25 * iops(1, false, false));
	CHECK(iops(32, false, true) > 0 && iops(16, true, true) > 0);
	CHECK_EQ_U(queued_writes_outside(&n44), 0);
	CHECK(n44 > 0);
	if (iops(8, false, false) <= 1.25 * iops(1, false, false))
		fputs(out, stdout);
}

static void times_out_at_4(struct sim_profile *p) { p->cq_timeout_depth = 4; }
static void ignores_flush(struct sim_profile *p) { p->flush_ignored = true; }
static void reorders_flush(struct sim_profile *p) { p->flush_reorders = true; }
static void rejects_cmd44(struct sim_profile *p) { p->cq_rejects_cmd44 = true; }
static void no_queue(struct sim_profile *p) { p->cq_depth = 0; }

TEST(each_broken_card_is_named)
{
	static const struct {
		void (*tweak)(struct sim_profile *);
		const char *text;
	} cases[] = {
		{ times_out_at_4, "command queue BROKEN: timeout at depth: task 4 not ready" },
		{ ignores_flush, "command queue BROKEN: flush commits nothing: " },
		{ reorders_flush, "command queue BROKEN: writes reordered across a flush: " },
		{ rejects_cmd44, "command queue BROKEN: CMD44/45 rejected: " },
	};
	unsigned i, n44;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run(cases[i].tweak, true);
		CHECK(strstr(out, cases[i].text) != NULL);
		CHECK(strstr(out, "command queue OK") == NULL);
		CHECK_EQ_U(queued_writes_outside(&n44), 0);
		if (!strstr(out, cases[i].text))
			fputs(out, stdout);
	}
	/* the timeout: aborted, and the card answered a plain read after */
	run(times_out_at_4, true);
	CHECK(strstr(out, "CMD43 abort done, a plain read after it worked") != NULL);
}

TEST(no_queue_queues_nothing)
{
	unsigned n44;

	run(no_queue, true);
	CHECK(strstr(out, "no command queue: the Performance Enhancement register lists none")
	      != NULL);
	queued_writes_outside(&n44);
	CHECK_EQ_U(n44, 0);
	CHECK(strstr(out, "\"type\":\"queue\"") == NULL);
}

TEST(reads_only_without_writes)
{
	unsigned n44;

	run(NULL, false);
	queued_writes_outside(&n44);
	CHECK_EQ_U(n44, 0);
	CHECK(strstr(out, "command queue not measured") != NULL);
}

static int ctrl_c(void)
{
	static int n;

	return n++ % 2 ? -1 : 0x03;
}

/* Ctrl-C on the console: the first depth ends, nothing more is queued,
 * the card is left as found (run() checks the cache and queue are off). */
TEST(ctrl_c_stops_the_queue)
{
	unsigned n44;

	key_fn = ctrl_c;
	run(NULL, true);
	key_fn = NULL;
	CHECK(ctx.interrupted);
	CHECK(iops(1, false, false) > 0);
	CHECK(iops(2, false, false) < 0);
	CHECK(strstr(out, "\"read_after_write\":null") != NULL);
	CHECK_EQ_U(queued_writes_outside(&n44), 0);
}

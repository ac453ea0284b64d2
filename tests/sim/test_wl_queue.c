/*
 * test_wl_queue.c - the "queue" workload (bench/workloads/queue.c) on the
 * simulator's A2 card with a command queue (sdxc-a2-cq-64g) and on each of
 * its broken variants (the profile keys of sim/sim_card_cq.c): a sound
 * card passes every check and its read IOPS rise with depth as its four
 * read lanes allow; each broken card is named with its check; a card
 * without a queue queues nothing and says so; every queued write (CMD44
 * with bit 30 clear, its block in the CMD45 that follows) stays inside the
 * test area; the card is left with its cache and queue off. Mixed 70/30
 * tasks run at every depth with the cache on; the A2 verdict is taken on
 * the queued figures (the "class_queue" record and the headline's claim
 * line); a card with writes off says so and sends no CMD49.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/headline_claims.h"
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
static bool class_ran;          /* the class check ran before, with this sequential write: */
static double class_seq_mbs;
static unsigned n49_seen;

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
	if (class_ran) {
		/* what the class check keeps (app_class.c keep_claims) */
		ctx.claims.checked = true;
		ctx.claims.have_ssr = true;
		ctx.claims.app = 2;
		ctx.claims.app_ok = -1;
		ctx.claims.writes = writes;
		ctx.claims.pw_mbs = ctx.claims.seq_mbs = class_seq_mbs;
	}
	wl_queue(&ctx);
	n44_seen = sim_truth_find_last(44) != NULL;
	n49_seen = sim_truth_find_last(49) != NULL;
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

/* The field after key in the record of type rtype (its first match), as a
 * string up to the next ',' or '}', into v; "" when absent. */
static const char *field(const char *rtype, const char *key, char *v, size_t cap)
{
	char k[64];
	const char *p = strstr(out, rtype), *e;
	size_t n;

	v[0] = 0;
	snprintf(k, sizeof(k), "\"%s\":", key);
	p = p ? strstr(p, k) : NULL;
	if (!p)
		return v;
	p += strlen(k);
	for (e = p; *e && *e != ',' && *e != '}'; e++)
		if (*e == '"')
			while (*++e && *e != '"')
				;
	n = (size_t)(e - p) < cap - 1 ? (size_t)(e - p) : cap - 1;
	memcpy(v, p, n);
	v[n] = 0;
	return v;
}

/* The mixed record of that depth: iops (-1 when absent), *reads, *writes. */
static double mixed(unsigned depth, unsigned *reads, unsigned *writes)
{
	char key[96];
	const char *p;

	snprintf(key, sizeof(key), "\"type\":\"queue\",\"depth\":%u,\"write\":false,"
		 "\"cache\":true,\"mix\":true,\"reads\":", depth);
	p = strstr(out, key);
	if (!p)
		return -1;
	*reads = (unsigned)atoi(p + strlen(key));
	p = strstr(p, "\"writes\":");
	*writes = p ? (unsigned)atoi(p + 9) : 0;
	p = p ? strstr(p, "\"iops\":") : NULL;
	return p ? atof(p + 7) : -1;
}

/* Mixed 70/30 at every depth with the cache on; about 30 % writes; the
 * percentiles there; the writes inside the test area. */
TEST(mixed_70_30_at_every_depth)
{
	static const unsigned depths[] = { 1, 2, 4, 8, 16, 32 };
	unsigned i, r, w, tr = 0, tw = 0, n44;

	run(NULL, true);
	for (i = 0; i < sizeof(depths) / sizeof(depths[0]); i++) {
		CHECK(mixed(depths[i], &r, &w) > 0);
		CHECK(w > 0 && r > w);
		tr += r;
		tw += w;
	}
	/* 6 depths x 64 tasks, 30 % writes: 115 expected, sd ~9 */
	CHECK(tw * 100 > (tr + tw) * 22 && tw * 100 < (tr + tw) * 38);
	CHECK(strstr(out, "mixed cache on  depth 32:") != NULL);
	CHECK(strstr(out, "\"mix\":true") != NULL && strstr(out, "\"mix\":false") != NULL);
	CHECK_EQ_U(queued_writes_outside(&n44), 0);
	if (tw * 100 <= (tr + tw) * 22 || tw * 100 >= (tr + tw) * 38)
		printf("mixed: %u reads, %u writes\n", tr, tw);
}

/* The headline's claim line, from what the run kept. */
static const char *claim_line(void)
{
	static char line[600];
	struct hl_claims h;

	headline_claims(&ctx, &h);
	headline_verdict_line(&h, line, sizeof(line));
	return line;
}

/* A 2 MiB cache (sdxc-a2-cq-64g's: 1 MiB): the quick sweep's queued writes
 * (6 depths of 64 tasks, 3 MiB less what it commits on its own) never
 * fill it. */
static void big_cache(struct sim_profile *p) { p->perf_cache_blocks = 4096; }

/* A2 on the queued figures: at the card's full depth with the cache on,
 * next to depth 1's. A card whose cache keeps up passes; the profile as
 * built (its 1 MiB cache fills during the shallower depths' writes and
 * then commits 1 block a ms) writes about 1000 IOPS at depth 32 and fails;
 * a sequential write below 10 MB/s fails; without the class check's
 * sequential write the verdict is incomplete. */
TEST(a2_verdict_on_the_queued_figures)
{
	char v[400], ri[32], wi[32];

	class_ran = true;
	class_seq_mbs = 20;
	run(big_cache, true);
	CHECK(strstr(out, "A2 at queue depth 32, command queue and cache on: card claims A2: "
		      "measured ") != NULL);
	CHECK(strstr(out, "-> meets A2; at depth 1, cache off: ") != NULL);
	CHECK(strcmp(field("\"type\":\"class_queue\"", "app_meets_claim", v, sizeof(v)),
		     "true") == 0);
	CHECK(strcmp(field("\"type\":\"class_queue\"", "depth", v, sizeof(v)), "32") == 0);
	CHECK(atof(field("\"type\":\"class_queue\"", "read_iops", ri, sizeof(ri))) >= 4000);
	CHECK(atof(field("\"type\":\"class_queue\"", "write_iops", wi, sizeof(wi))) >= 2000);
	CHECK(atof(field("\"type\":\"class_queue\"", "read_iops_d1", v, sizeof(v))) <
	      0.8 * atof(ri));
	CHECK(strstr(claim_line(), "A2 PASS (depth 32 with cache: ") != NULL);
	if (!strstr(claim_line(), "A2 PASS"))
		printf("%s\n%s\n", claim_line(), out);

	run(NULL, true);
	CHECK(atof(field("\"type\":\"class_queue\"", "write_iops", wi, sizeof(wi))) < 2000);
	CHECK(strstr(out, "write IOPS (needs 2000), 20.00 MB/s sequential write (needs 10) -> "
		      "does not meet A2") != NULL);
	CHECK(strstr(claim_line(), "A2 FAIL (depth 32 with cache: ") != NULL);

	class_seq_mbs = 8;
	run(big_cache, true);
	CHECK(strstr(out, "8.00 MB/s sequential write (needs 10) -> does not meet A2") != NULL);
	CHECK(strstr(claim_line(), "A2 FAIL (depth 32") != NULL);

	class_ran = false;
	memset(&ctx.claims, 0, sizeof(ctx.claims));
	run(big_cache, true);
	CHECK(strstr(out, "sequential write not measured (needs 10) -> incomplete") != NULL);
	CHECK(strstr(claim_line(), "A2 not checked (depth 32") != NULL);
}

/* A cache that commits 40 blocks a ms on its own (sdxc-a2-cq-64g's: 1):
 * a flush right after 16 writes finds nothing left to commit. Not a
 * broken flush (the writes ran at cached speed): not judged, said so. A
 * card that ignores flushes (its cache left full by the sweeps, the
 * writes before the flush as slow as uncached ones) is still named. */
static void fast_drain(struct sim_profile *p) { p->perf_cache_drain_per_ms = 40; }

TEST(a_cache_that_drains_itself_is_not_called_broken)
{
	run(fast_drain, true);
	CHECK(strstr(out, "nothing was held (the card committed its cache on its own))") != NULL);
	if (!strstr(out, "nothing was held"))
		fputs(out, stdout);
	CHECK(strstr(out, "\"flush_commits\":null,\"flush_order\":null") != NULL);
	CHECK(strstr(out, "BROKEN") == NULL);
	run(ignores_flush, true);
	CHECK(strstr(out, "command queue BROKEN: flush commits nothing: a flush of 128 cached "
		      "blocks took ") != NULL);
	CHECK(strstr(out, "still held after the flush") != NULL);
	if (!strstr(out, "still held after the flush"))
		fputs(out, stdout);
}

/* The flush judged on where the card's commit cost shows: in the flush
 * (sdxc-a2-cq-64g: a cache that commits 1 block a ms on its own still
 * holds the 128 blocks at the flush), at the cache off after it (a card
 * that ignores flushes), or nowhere (one that ignores flushes but drains
 * 40 blocks a ms: nothing was held, so nothing to judge - not OK either). */
static void ignores_fast_drain(struct sim_profile *p)
{
	ignores_flush(p);
	fast_drain(p);
}

TEST(flush_judged_on_the_commit_cost)
{
	run(NULL, true);
	CHECK(strstr(out, "\"flush_commits\":true") != NULL);
	CHECK(strstr(out, "flush not judged") == NULL);
	run(ignores_flush, true);
	CHECK(strstr(out, "\"flush_commits\":false") != NULL);
	run(ignores_fast_drain, true);
	CHECK(strstr(out, "\"flush_commits\":null") != NULL);
	CHECK(strstr(out, "flush commits nothing") == NULL);
	CHECK(strstr(out, "nothing was held (the card committed its cache on its own)") != NULL);
	if (!strstr(out, "nothing was held"))
		fputs(out, stdout);
}

/* A broken queue fails the A2 claim with its evidence; a card without a
 * queue fails it too (A2 needs one). */
TEST(a2_broken_queue_fails_the_claim)
{
	class_ran = true;
	class_seq_mbs = 20;
	run(times_out_at_4, true);
	CHECK(strstr(out, "A2: command queue BROKEN: timeout at depth: task 4 not ready") != NULL);
	CHECK(strstr(out, "\"app_meets_claim\":false") != NULL);
	CHECK(strstr(claim_line(), "A2 FAIL (command queue BROKEN: timeout at depth)") != NULL);
	run(no_queue, true);
	CHECK(strstr(out, "A2: no command queue (the Performance Enhancement register lists "
		      "none); the class needs one") != NULL);
	CHECK(strstr(claim_line(), "A2 FAIL (no command queue)") != NULL);
	class_ran = false;
}

/* Writes off: the queue is not turned on (no CMD49 reaches the card), not
 * measured, and it says why; A2 is not checked. */
TEST(writes_off_says_queue_not_measured)
{
	unsigned n44;

	class_ran = true;
	class_seq_mbs = 20;
	run(NULL, false);
	class_ran = false;
	queued_writes_outside(&n44);
	CHECK_EQ_U(n44, 0);
	CHECK_EQ_U(n49_seen, 0);
	CHECK(strstr(out, "command queue not measured: writes are off (") != NULL);
	CHECK(strstr(out, "A2 not checked: queue not measured: writes are off") != NULL);
	CHECK(strstr(out, "\"type\":\"queue\",") == NULL);
	CHECK(strstr(claim_line(), "A2 not checked (queue not measured: writes are off") != NULL);
}

/*
 * test_sim_cq.c - the simulated card's SD 6.00 extension registers, cache
 * and command queue (sim/sim_card_cq.c), driven through the real SDHCI
 * driver with hand-built commands: the arguments below are written from
 * the SD Physical Layer's command tables (CMD48/49 §5.7.2, CMD43-47 and
 * CMD13 SEND_TASK_STATUS of the command queue) here, not taken from the
 * firmware or the model.
 *
 * Discovery (SCR bit 34, General Information, Performance Enhancement),
 * cache on / read back / flush and what a power cut keeps, queued reads
 * and writes byte for byte, IOPS rising with depth, the queue abort, and
 * each broken variant doing what its profile key says. The generator
 * draws every key.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/storage/write_guard.h"
#include "sim/sim.h"
#include "sim/sim_gen.h"
#include "drivers/sd/sd_cq.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define A2CQ "sdxc-a2-cq-64g"
#define BLK 512u

static struct simh s;
static struct sim_profile prof;

static int start(void (*tweak)(struct sim_profile *))
{
	const struct sim_profile *p = sim_profile_find(A2CQ);

	if (!p)
		return -1;
	prof = *p;
	if (tweak)
		tweak(&prof);
	return simh_start_p(&s, &prof, NULL);
}

/* One command; data: 'blocks' 512-byte blocks in dir (NULL: none). */
static int req(uint8_t idx, uint32_t arg, void *buf, uint32_t blocks, uint8_t dir,
	       uint32_t *r1, struct sd_req_times *t)
{
	struct sd_request r;
	struct sd_data d = { buf, BLK, blocks, dir, SD_STOP_NONE, 0 };
	int ret;

	memset(&r, 0, sizeof(r));
	r.cmd.index = idx;
	r.cmd.arg = arg;
	r.cmd.resp_type = SD_RESP_R1;
	r.data = buf ? &d : NULL;
	ret = s.host->ops->request(s.host, &r);
	if (r1)
		*r1 = r.cmd.resp[0];
	if (t)
		*t = r.t;
	return ret;
}

/* CMD48: LEN+1 bytes of function fno from 'off' (page 0). */
static int ext_read(unsigned fno, unsigned off, unsigned len, uint8_t *blk)
{
	return req(48, fno << 27 | off << 9 | (len - 1), blk, 1, SD_DATA_READ, NULL, NULL);
}

/* CMD49: one byte at 'off' of function fno; busy end in *t. */
static int ext_write(unsigned fno, unsigned off, uint8_t v, struct sd_req_times *t)
{
	uint8_t blk[BLK] = { v };

	return req(49, fno << 27 | off << 9, blk, 1, SD_DATA_WRITE, NULL, t);
}

/* The Performance Enhancement function as the General Information lists it
 * (SFC 2): its FNO, or -1. */
static int perf_fno(void)
{
	uint8_t gi[BLK];
	unsigned at = 16, i;

	if (ext_read(0, 0, BLK, gi))
		return -1;
	if (gi[0] || gi[1])
		return -1;
	for (i = 0; i < gi[4] && at + 48 <= BLK; i++) {
		uint32_t addr = gi[at + 44] | gi[at + 45] << 8 | (uint32_t)gi[at + 46] << 16;

		if ((gi[at] | gi[at + 1] << 8) == 2)
			return (int)((addr >> 18) & 0xf);
		at = gi[at + 40] | gi[at + 41] << 8;
	}
	return -1;
}

static uint32_t task_status(void)
{
	uint32_t r1 = 0;

	if (req(13, (uint32_t)s.card.rca << 16 | 1u << 15, NULL, 0, 0, &r1, NULL))
		return 0xdeadbeefu;
	return r1;
}

/* Queue task id: read (1) or write (0) of n blocks at lba. */
static int queue(unsigned id, bool rd, uint32_t n, uint32_t lba)
{
	if (req(44, (uint32_t)rd << 30 | id << 16 | n, NULL, 0, 0, NULL, NULL))
		return -1;
	return req(45, lba, NULL, 0, 0, NULL, NULL);
}

/* Wait (bounded, 1 s of card time) until every task in mask is ready. */
static uint32_t wait_ready(uint32_t mask)
{
	uint64_t end = sim_now_ns() + 1000000000ull;
	uint32_t st = 0;

	while (sim_now_ns() < end) {
		st = task_status();
		if ((st & mask) == mask)
			break;
		sim_advance_ns(20000);
	}
	return st & mask;
}

static int run(unsigned id, bool rd, void *buf, uint32_t n)
{
	return req(rd ? 46 : 47, id << 16, buf, n, rd ? SD_DATA_READ : SD_DATA_WRITE, NULL, NULL);
}

static void fill(uint8_t *b, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		b[i] = (uint8_t)(seed >> 16);
	}
}

TEST(discovery_lists_cache_and_queue)
{
	uint8_t perf[BLK];
	int fno;

	CHECK_EQ_I(start(NULL), 0);
	CHECK(s.card.scr[3] & 0x04); /* SCR bit 34: CMD48/CMD49 */
	fno = perf_fno();
	CHECK(fno > 0);
	CHECK_EQ_I(ext_read((unsigned)fno, 0, BLK, perf), 0);
	CHECK_EQ_U(perf[4] & 1, 1);
	CHECK_EQ_U((perf[6] & 0x1f) + 1u, 32);
	CHECK_EQ_U(perf[260] | perf[261] | perf[262], 0);
	/* LEN: one byte at an offset comes first in the block. */
	CHECK_EQ_I(ext_write((unsigned)fno, 260, 1, NULL), 0);
	memset(perf, 0xee, sizeof(perf));
	CHECK_EQ_I(ext_read((unsigned)fno, 260, 1, perf), 0);
	CHECK_EQ_U(perf[0], 1);
	CHECK_EQ_U(perf[1], 0);
	CHECK(sim_card_cache_on());
}

TEST(card_without_extension_registers_refuses_cmd48)
{
	uint8_t blk[BLK];
	uint32_t r1 = 0;

	CHECK_EQ_I(simh_start(&s, "sdxc-a2-64g", NULL), 0);
	CHECK(!(s.card.scr[3] & 0x04));
	CHECK(ext_read(0, 0, BLK, blk) != 0);
	/* ILLEGAL_COMMAND in the next status; the card stays usable. */
	CHECK_EQ_I(req(13, (uint32_t)s.card.rca << 16, NULL, 0, 0, &r1, NULL), 0);
	CHECK(r1 & (1u << 22));
	CHECK_EQ_I(sd_read_blocks(&s.card, 1000, 1, blk, SD_STOP_AUTO12, NULL), 0);
}

/* Write 'n' blocks at lba through the cache, return the flash's old data. */
static void cached_writes(uint32_t lba, unsigned n, uint8_t *newd, uint8_t *oldd)
{
	unsigned i;

	sim_card_peek((uint64_t)lba * BLK, oldd, n * BLK);
	fill(newd, n * BLK, lba);
	for (i = 0; i < n; i++)
		CHECK_EQ_I(sd_write_blocks(&s.card, lba + i, 1, newd + i * BLK, SD_STOP_AUTO12,
					   NULL), 0);
}

TEST(cache_flush_commits_and_power_cut_loses_the_rest)
{
	static uint8_t newd[16 * BLK], oldd[16 * BLK], got[16 * BLK];
	struct sd_req_times t;
	unsigned n;
	int fno;

	CHECK_EQ_I(start(NULL), 0);
	fno = perf_fno();
	CHECK_EQ_I(ext_write((unsigned)fno, 260, 1, NULL), 0);
	cached_writes(4096, 16, newd, oldd);
	n = sim_card_cache_dirty();
	CHECK(n >= 12 && n <= 16); /* a few drained on their own */
	CHECK_EQ_I(ext_write((unsigned)fno, 261, 1, &t), 0);
	CHECK_EQ_U(sim_card_cache_dirty(), 0);
	/* The flush's busy: at least 60 us per block it still held. */
	CHECK((uint64_t)(t.t_end - t.t_issue) * 1 >= n * 60000ull);
	CHECK_EQ_I(ext_read((unsigned)fno, 261, 1, got), 0);
	CHECK_EQ_U(got[0] & 1, 0);
	sim_card_power_loss();
	sim_card_peek(4096ull * BLK, got, sizeof(got));
	CHECK(!memcmp(got, newd, sizeof(got)));

	/* No flush: a power cut takes what was only cached. */
	CHECK_EQ_I(start(NULL), 0);
	CHECK_EQ_I(ext_write((unsigned)fno, 260, 1, NULL), 0);
	cached_writes(8192, 4, newd, oldd);
	CHECK_EQ_U(sim_card_cache_dirty(), 4);
	sim_card_power_loss();
	sim_card_peek(8192ull * BLK, got, 4 * BLK);
	CHECK(!memcmp(got, oldd, 4 * BLK));
	CHECK(!sim_card_cache_on());
}

static void ignore_flush(struct sim_profile *p)
{
	p->flush_ignored = true;
}

static void reorder_flush(struct sim_profile *p)
{
	p->flush_reorders = true;
}

TEST(broken_flushes)
{
	static uint8_t x[BLK], y[BLK], got[BLK], oldd[BLK];
	struct sd_req_times t;
	int fno;

	CHECK_EQ_I(start(ignore_flush), 0);
	fno = perf_fno();
	CHECK_EQ_I(ext_write((unsigned)fno, 260, 1, NULL), 0);
	cached_writes(2000, 1, x, oldd);
	CHECK_EQ_I(ext_write((unsigned)fno, 261, 1, &t), 0);
	CHECK_EQ_U(sim_card_cache_dirty(), 1);
	sim_card_power_loss();
	sim_card_peek(2000ull * BLK, got, BLK);
	CHECK(!memcmp(got, oldd, BLK));

	/* X before a flush, Y after it: the reordering card ends with X. */
	CHECK_EQ_I(start(reorder_flush), 0);
	CHECK_EQ_I(ext_write((unsigned)fno, 260, 1, NULL), 0);
	fill(x, BLK, 1);
	fill(y, BLK, 2);
	CHECK_EQ_I(sd_write_blocks(&s.card, 3000, 1, x, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(ext_write((unsigned)fno, 261, 1, NULL), 0);
	CHECK_EQ_I(sd_write_blocks(&s.card, 3000, 1, y, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 3000, 1, got, SD_STOP_AUTO12, NULL), 0);
	CHECK(!memcmp(got, y, BLK));
	CHECK_EQ_I(ext_write((unsigned)fno, 261, 1, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 3000, 1, got, SD_STOP_AUTO12, NULL), 0);
	CHECK(!memcmp(got, x, BLK));
}

/* 'total' random 4 KiB reads (or writes) at depth d; returns card ns. */
static uint64_t queued_io(unsigned d, unsigned total, bool rd, uint32_t seed, unsigned *bad)
{
	static uint8_t buf[32][8 * BLK], want[8 * BLK];
	uint32_t lba[32];
	uint64_t t0 = sim_now_ns();
	unsigned done = 0, i;

	while (done < total) {
		unsigned n = total - done < d ? total - done : d;
		uint32_t mask = n == 32 ? 0xffffffffu : (1u << n) - 1;

		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			lba[i] = 100000 + (seed >> 8) % 20000 * 8;
			if (!rd)
				fill(buf[i], sizeof(buf[i]), seed);
			if (queue(i, rd, 8, lba[i]))
				(*bad)++;
		}
		if (wait_ready(mask) != mask)
			(*bad)++;
		for (i = n; i-- > 0;) { /* out of order on purpose */
			if (run(i, rd, buf[i], 8))
				(*bad)++;
			sim_card_peek((uint64_t)lba[i] * BLK, want, sizeof(want));
			if (memcmp(want, buf[i], sizeof(want)))
				(*bad)++;
		}
		done += n;
	}
	return sim_now_ns() - t0;
}

TEST(queued_reads_and_writes_byte_for_byte_and_faster_at_depth)
{
	static uint8_t pat[8 * BLK];
	unsigned bad = 0, i;
	uint64_t d1, d8;
	int fno;

	CHECK_EQ_I(start(NULL), 0);
	fno = perf_fno();
	for (i = 0; i < 20000; i += 97) {
		fill(pat, sizeof(pat), i);
		sim_card_poke((100000ull + i * 8) * BLK, pat, sizeof(pat));
	}
	CHECK_EQ_I(ext_write((unsigned)fno, 262, 1, NULL), 0);
	CHECK(sim_card_cq_on());
	d1 = queued_io(1, 64, true, 7, &bad);
	d8 = queued_io(8, 64, true, 7, &bad);
	CHECK_EQ_U(bad, 0);
	printf("  64 random 4 KiB queued reads: depth 1 %.0f IOPS, depth 8 %.0f IOPS\n",
	       64e9 / (double)d1, 64e9 / (double)d8);
	CHECK(d8 * 10 < d1 * 8); /* 4 lanes: at least 20% faster at depth 8 */
	queued_io(32, 64, false, 9, &bad);
	CHECK_EQ_U(bad, 0);
	CHECK_EQ_U(sim_card_cq_queued(), 0);
	/* A task run before it is ready, or twice, is refused. */
	CHECK_EQ_I(queue(3, true, 8, 100000), 0);
	CHECK(run(4, true, pat, 8) != 0);
	CHECK(run(3, false, pat, 8) != 0);
}

static void timeout_at_4(struct sim_profile *p)
{
	p->cq_timeout_depth = 4;
}

static void rejects(struct sim_profile *p)
{
	p->cq_rejects_cmd44 = true;
}

TEST(queue_timeout_abort_and_rejected_cmd44)
{
	static uint8_t blk[8 * BLK];
	uint32_t r1 = 0;
	unsigned i;
	int fno;

	CHECK_EQ_I(start(timeout_at_4), 0);
	fno = perf_fno();
	CHECK_EQ_I(ext_write((unsigned)fno, 262, 1, NULL), 0);
	for (i = 0; i < 8; i++)
		CHECK_EQ_I(queue(i, true, 8, 200000 + i * 8), 0);
	CHECK_EQ_U(wait_ready(0xff), 0x0f);
	CHECK_EQ_U(sim_card_cq_queued(), 8);
	CHECK_EQ_I(req(43, 1, NULL, 0, 0, NULL, NULL), 0); /* abort the queue */
	CHECK_EQ_U(sim_card_cq_queued(), 0);
	CHECK_EQ_U(task_status(), 0);
	CHECK_EQ_I(queue(0, true, 8, 200000), 0);
	CHECK_EQ_U(wait_ready(1), 1);
	CHECK_EQ_I(req(43, 2, NULL, 0, 0, NULL, NULL), 0); /* abort task 0 */
	CHECK_EQ_U(sim_card_cq_queued(), 0);
	CHECK_EQ_I(ext_write((unsigned)fno, 262, 0, NULL), 0);
	CHECK_EQ_I(sd_read_blocks(&s.card, 200000, 8, blk, SD_STOP_AUTO12, NULL), 0);

	CHECK_EQ_I(start(rejects), 0);
	CHECK_EQ_I(ext_write((unsigned)fno, 262, 1, NULL), 0);
	CHECK(sim_card_cq_on());
	CHECK(queue(0, true, 8, 200000) != 0);
	CHECK_EQ_I(req(13, (uint32_t)s.card.rca << 16, NULL, 0, 0, &r1, NULL), 0);
	CHECK(r1 & (1u << 22)); /* ILLEGAL_COMMAND */
	CHECK_EQ_I(sd_read_blocks(&s.card, 200000, 8, blk, SD_STOP_AUTO12, NULL), 0);
}

TEST(generated_cards_draw_every_key)
{
	unsigned seed, ext = 0, cache = 0, cq = 0, tmo = 0, rej = 0, reo = 0, ign = 0, bad = 0;
	struct sim_profile p;

	for (seed = 0; seed < 400; seed++) {
		sim_gen_card(seed, &p);
		if (p.ext_regs && p.app_class == 0)
			bad++;
		if (p.cq_depth && p.app_class != 2)
			bad++;
		ext += p.ext_regs;
		cache += p.perf_cache_blocks != 0;
		cq += p.cq_depth != 0;
		tmo += p.cq_timeout_depth != 0;
		rej += p.cq_rejects_cmd44;
		reo += p.flush_reorders;
		ign += p.flush_ignored;
	}
	CHECK_EQ_U(bad, 0);
	CHECK(ext > 80 && cache > 60 && cq > 40);
	CHECK(tmo && rej && reo && ign);
}

/* ---- the firmware's discovery (drivers/sd/sd.c, sd_ext_info.c) -------- */

static void no_queue_no_cache(struct sim_profile *p)
{
	p->cq_depth = 0;
	p->perf_cache_blocks = 0;
}

TEST(firmware_discovery_reads_what_the_card_has)
{
	const struct sd_ext *e = &s.card.ext;

	CHECK_EQ_I(start(NULL), 0);
	CHECK(e->supported && e->read && e->have_pm && e->have_perf);
	CHECK_EQ_I(e->err, 0);
	CHECK_EQ_U(e->n_ext, 2);
	CHECK_EQ_U(e->perf_fno, 2);
	CHECK(e->cache);
	CHECK_EQ_U(e->cq_depth, 32);
	CHECK(!sim_card_cache_on() && !sim_card_cq_on()); /* discovery turns nothing on */

	CHECK_EQ_I(start(no_queue_no_cache), 0);
	CHECK(e->read && e->have_perf);
	CHECK(!e->cache);
	CHECK_EQ_U(e->cq_depth, 0);
}

TEST(no_cmd48_without_the_scr_bit)
{
	static const char *const cards[] = { "qemu-like-1g", "sdxc-a2-64g", "sdhc-c10-16g" };
	unsigned i;

	for (i = 0; i < 3; i++) {
		sim_truth_reset();
		CHECK_EQ_I(simh_start(&s, cards[i], NULL), 0);
		CHECK(!s.card.ext.supported && !s.card.ext.read);
		CHECK(sim_truth_find_last(48) == NULL);
	}
}

TEST(a_failed_cmd48_is_noted_and_init_goes_on)
{
	struct sim_fault f = { SIM_FAULT_DATA_TIMEOUT, 48, 2, 1, 0, 0 };
	const struct sim_profile *p = sim_profile_find(A2CQ);
	static uint8_t blk[BLK];

	CHECK(p != NULL);
	CHECK_EQ_I(simh_host_only_p(&s, p, NULL), 0);
	CHECK(sim_fault_add(&f) >= 0);
	CHECK_EQ_I(sd_init(&s.card, s.host), 0);
	CHECK(s.card.ext.supported && !s.card.ext.read);
	CHECK(s.card.ext.err != 0);
	CHECK(strstr(s.card.ext.note, "power management function: CMD48 failed") != NULL);
	CHECK_EQ_I(sd_read_blocks(&s.card, 10, 1, blk, SD_STOP_AUTO12, NULL), 0);
}

/* ---- cache and queue through the write guard (drivers/sd/sd_cq.c) ------- */

static unsigned cmd49s(void)
{
	unsigned seq, n = 0;
	const struct sim_truth *t;

	for (seq = 0; (t = sim_truth_get(seq)) != NULL; seq++)
		n += t->cmd == 49 && !(t->flags & SIM_T_APP);
	return n;
}

TEST(guard_turns_cache_and_queue_on_and_leaves_the_card_as_found)
{
	static struct test_area area;
	static uint8_t buf[8 * BLK], got[8 * BLK];
	struct write_guard g;
	uint32_t us = 0;

	CHECK_EQ_I(start(NULL), 0);
	area.usable = true;
	area.first_lba = 1u << 20;
	area.count = 1u << 16;
	write_guard_init(&g, &s.card, &area, true);
	CHECK_EQ_I(write_guard_cache(&g, true), 0);
	CHECK_EQ_I(write_guard_cq(&g, true), 0);
	CHECK(sim_card_cache_on() && sim_card_cq_on());
	fill(buf, sizeof(buf), 5);
	CHECK_EQ_I(write_guard_cq(&g, false), 0);
	CHECK(!sim_card_cq_on());
	CHECK_EQ_I(write_guard_write(&g, area.first_lba, 8, buf, SD_STOP_AUTO12, NULL), 0);
	CHECK(sim_card_cache_dirty() > 0);
	CHECK_EQ_I(write_guard_flush(&g, &us), 0);
	CHECK_EQ_U(sim_card_cache_dirty(), 0);
	CHECK(us >= 500); /* at least the profile's flush minimum */
	CHECK_EQ_I(write_guard_cq(&g, true), 0);
	CHECK_EQ_I(write_guard_card_as_found(&g), 0);
	CHECK(!sim_card_cache_on() && !sim_card_cq_on());
	sim_card_power_loss();
	sim_card_peek((uint64_t)area.first_lba * BLK, got, sizeof(got));
	CHECK(!memcmp(got, buf, sizeof(got)));
}

TEST(guard_refusing_writes_turns_nothing_on)
{
	static struct test_area area;
	struct write_guard g;
	unsigned before;

	CHECK_EQ_I(start(NULL), 0);
	area.usable = true;
	area.first_lba = 1u << 20;
	area.count = 1u << 16;
	before = cmd49s();
	write_guard_init(&g, &s.card, &area, false); /* write_tests = off */
	CHECK_EQ_I(write_guard_cache(&g, true), -EPERM);
	CHECK_EQ_I(write_guard_cq(&g, true), -EPERM);
	CHECK_EQ_I(write_guard_flush(&g, NULL), -EPERM);
	write_guard_init(&g, &s.card, &area, true);
	g.test = WRITE_GUARD_REFUSE_EACH;
	CHECK_EQ_I(write_guard_cache(&g, true), -EPERM);
	CHECK_EQ_I(write_guard_card_as_found(&g), 0);
	CHECK_EQ_U(cmd49s(), before);
	CHECK(!sim_card_cache_on() && !sim_card_cq_on());
}

static void cache_sticks_off(struct sim_profile *p)
{
	p->perf_cache_blocks = 0; /* the register then keeps the enable bit 0 */
}

TEST(cache_enable_read_back_errors)
{
	/* a card that lists a cache but keeps the enable bit at 0 */
	CHECK_EQ_I(start(cache_sticks_off), 0);
	CHECK_EQ_I(sd_cache_set(&s.card, true), -ENOTSUP);
	s.card.ext.cache = true; /* as if the register had claimed one */
	CHECK_EQ_I(sd_cache_set(&s.card, true), -EIO);
	CHECK_EQ_U(s.card.last_err.cmd, 49);
	CHECK_EQ_U(s.card.last_err.arg, 260);
	CHECK(s.card.last_err.phase &&
	      !strcmp(s.card.last_err.phase, "performance register read back"));
}

/* ---- the firmware's queue (drivers/sd/sd_cq.c) through the guard ------- */

/* 'total' 4 KiB tasks at depth d, run newest first, through the guard;
 * each read compared with the flash, each write read back from it. */
static unsigned fw_queue(struct write_guard *g, unsigned d, unsigned total, bool rd,
			 uint32_t seed)
{
	static uint8_t buf[32][8 * BLK], want[8 * BLK];
	uint32_t lba[32], ready;
	unsigned bad = 0, done = 0, i;

	while (done < total) {
		unsigned n = total - done < d ? total - done : d;
		uint32_t mask = n == 32 ? 0xffffffffu : (1u << n) - 1;

		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			lba[i] = g->area->first_lba + (seed >> 8) % (g->area->count / 8) * 8;
			fill(buf[i], sizeof(buf[i]), seed);
			bad += write_guard_cq_queue(g, i, rd, lba[i], 8) != 0;
		}
		bad += sd_cq_wait(g->card, mask, 100000, &ready) != 0;
		for (i = n; i-- > 0;) {
			bad += sd_cq_run(g->card, i, rd, buf[i], 8, NULL) != 0;
			sim_card_peek((uint64_t)lba[i] * BLK, want, sizeof(want));
			bad += memcmp(want, buf[i], sizeof(want)) != 0;
		}
		done += n;
	}
	return bad;
}

static void guarded_start(struct write_guard *g, struct test_area *area,
			  void (*tweak)(struct sim_profile *))
{
	CHECK_EQ_I(start(tweak), 0);
	area->usable = true;
	area->first_lba = 1u << 20;
	area->count = 1u << 14;
	write_guard_init(g, &s.card, area, true);
}

TEST(firmware_queue_at_every_depth_with_cache_on_and_off)
{
	static const unsigned depths[] = { 1, 2, 4, 8, 16, 32 };
	static struct test_area area;
	struct write_guard g;
	unsigned i, c;

	guarded_start(&g, &area, NULL);
	CHECK_EQ_I(write_guard_cq(&g, true), 0);
	for (c = 0; c < 2; c++) {
		CHECK_EQ_I(write_guard_cache(&g, c == 1), 0);
		for (i = 0; i < 6; i++) {
			CHECK_EQ_U(fw_queue(&g, depths[i], 32, false, 11 + i), 0);
			CHECK_EQ_U(fw_queue(&g, depths[i], 32, true, 11 + i), 0);
		}
	}
	CHECK_EQ_U(sim_card_cq_queued(), 0);
	CHECK_EQ_I(write_guard_card_as_found(&g), 0);
	CHECK(!sim_card_cache_on() && !sim_card_cq_on());
}

TEST(firmware_queue_timeout_abort_reject_and_guard)
{
	static struct test_area area;
	struct write_guard g;
	uint32_t ready = 0, before;
	unsigned i;

	guarded_start(&g, &area, timeout_at_4);
	CHECK_EQ_I(write_guard_cq(&g, true), 0);
	for (i = 0; i < 8; i++)
		CHECK_EQ_I(write_guard_cq_queue(&g, i, true, area.first_lba + i * 8, 8), 0);
	CHECK_EQ_I(sd_cq_wait(&s.card, 0xff, 50000, &ready), -ETIMEDOUT);
	CHECK_EQ_U(ready, 0x0f);
	CHECK_EQ_U(s.card.last_err.cmd, 13);
	CHECK_EQ_U(s.card.last_err.status, 0x0f);
	CHECK(s.card.last_err.phase &&
	      !strcmp(s.card.last_err.phase, "command queue: tasks not ready"));
	CHECK_EQ_I(sd_cq_abort(&s.card, -1), 0);
	CHECK_EQ_U(sim_card_cq_queued(), 0);
	CHECK_EQ_U(fw_queue(&g, 4, 8, true, 3), 0); /* usable again at depth 4 */
	/* a write outside the test area: refused, nothing queued */
	before = sim_truth_find_last(44) ? sim_truth_find_last(44)->seq : 0;
	CHECK_EQ_I(write_guard_cq_queue(&g, 0, false, 100, 8), -EPERM);
	CHECK_EQ_U(sim_truth_find_last(44) ? sim_truth_find_last(44)->seq : 0, before);
	CHECK_EQ_I(write_guard_card_as_found(&g), 0);

	guarded_start(&g, &area, rejects);
	CHECK_EQ_I(write_guard_cq(&g, true), 0);
	CHECK(write_guard_cq_queue(&g, 0, true, area.first_lba, 8) != 0);
	CHECK_EQ_U(s.card.last_err.cmd, 44);
	CHECK_EQ_I(write_guard_card_as_found(&g), 0);
	CHECK(!sim_card_cq_on());
}

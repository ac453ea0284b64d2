/*
 * sim_card_cq.c - the simulated card's SD 6.00 function extension
 * registers, its volatile cache and its command queue, from the SD
 * Physical Layer Simplified Specification (6.00 and later):
 *
 * - CMD48 READ_EXTR_SINGLE / CMD49 WRITE_EXTR_SINGLE (§5.7.2.1, §5.7.2.2,
 *   command table §4.7.4 class 11): argument [31] MIO (0 memory), [30:27]
 *   FNO, [26] MW (CMD49: mask write), [25:9] ADDR, [8:0] LEN (bytes - 1)
 *   or, with MW, the mask of the one byte written. ADDR [25:18] is the
 *   page and [17:9] the offset in it, as Linux drivers/mmc/core/sd.c
 *   (sd_read_ext_reg) builds it. One 512-byte data block either way; a
 *   read returns the LEN + 1 bytes from ADDR at the block's start. The
 *   SCR's CMD_SUPPORT bit 34 says the card has them (Linux
 *   SD_SCR_CMD48_SUPPORT).
 * - General Information (FNO 0, page 0, §5.7.1): [1:0] structure
 *   revision 0, [3:2] length, [4] number of extensions, the first
 *   extension at 16; each extension: [1:0] Standard Function Code, [41:40]
 *   the next extension's address, [42] number of register sets, [47:44]
 *   the register set's address (bits 8:0 offset, 16:9 page, 21:18 FNO).
 *   The layout Linux sd_parse_ext_reg() reads. SFC 1 = power management,
 *   2 = performance enhancement.
 * - Performance Enhancement register (§5.7.2.x, as Linux
 *   sd_parse_ext_reg_perf / sd_enable_cache / sd_flush_cache and the 2024
 *   Raspberry Pi command queue patch mmc_sd_cmdq_switch read it): byte 0
 *   revision, byte 4 bit 0 cache support, byte 6 bits 4:0 queue depth - 1
 *   (0: no command queue; the encoding of eMMC 5.1's CMDQ_DEPTH, which
 *   Linux mmc.c reads as field + 1), byte 260 bit 0 Cache Enable, byte 261
 *   bit 0 Cache Flush (reads 0 once the flush is done), byte 262 bit 0
 *   Command Queue enable, bit 1 sequential (1) or voluntary (0) mode.
 * - The command queue (§4.19 / §5.7.2.x): CMD44 Q_TASK_INFO_A [30]
 *   direction (1 read, as eMMC 5.1 §6.6.39), [29:24] extended address,
 *   [23] priority, [20:16] task ID, [15:0] blocks; CMD45 Q_TASK_INFO_B the
 *   start block address (must follow CMD44); CMD13 with [15] SEND_TASK_STATUS
 *   answers the Task Status register (bit n: task n ready to execute) in
 *   the R1 payload; CMD46 Q_RD_TASK / CMD47 Q_WR_TASK [20:16] task ID run a
 *   ready task (its count: no CMD12); CMD43 Q_MANAGEMENT [3:0] 1 = abort
 *   the whole queue, 2 = abort task [20:16].
 *
 * The model's own choices (no authority says otherwise): a task is ready
 * when the card has read its data (a read: one of cq_lanes flash units,
 * the earliest free, takes read_first) or at once (a write: the data goes
 * to the card when the host runs it), both after the task's scheduling
 * cost cq_task (the card's firmware taking the task in; 0 by default); CMD44/45 only in tran; a wrong task
 * (not ready, wrong direction, an ID in use or beyond the depth) answers
 * R1 with ERROR and moves no data; CMD43 answers R1 (the spec's table says
 * R1b) with no busy. The cache: a block written while the cache is on
 * costs perf_cache_write and is held back (what a power cut loses); held
 * blocks are committed at perf_cache_drain_per_ms, at a Cache Flush (busy
 * perf_flush + perf_flush_per_block per held block) or when the cache is
 * turned off; a full cache commits its oldest block and the new one costs
 * the profile's usual write busy. CMD0 turns cache and queue off and
 * drops the queue (the data held stays); a power cut loses the held data.
 *
 * Broken cards (profile): cq_timeout_depth (tasks behind that many never
 * become ready), flush_reorders (the last block written before a flush is
 * written again, with its old data, at the next flush or cache off: a
 * later write to it is lost), flush_ignored (a flush takes no time and
 * commits nothing), cq_rejects_cmd44 (the register claims a queue, CMD44
 * is illegal).
 */
#include <string.h>

#include "sim/sim_internal.h"

#define R1_OUT_OF_RANGE (1u << 31) /* §4.10.1 */
#define R1_ERROR        (1u << 19)

#define EXT_FNO_GI      0u
#define EXT_FNO_PM      1u
#define EXT_FNO_PERF    2u
#define PERF_CACHE_EN   260u
#define PERF_FLUSH      261u
#define PERF_CQ         262u
#define CQ_MAX          32u
#define CACHE_MAX       4096u
#define LANES_MAX       16u

enum { T_FREE = 0, T_INFO_A, T_QUEUED };

struct cq_task {
	uint8_t state;
	bool read;
	uint32_t blocks;
	uint64_t blk;
	uint64_t ready_at;
};

static struct {
	uint8_t gi[512], pm[512], perf[512];
	uint8_t blk[512];            /* the CMD48 block being sent */
	uint32_t ext_arg;            /* the CMD49 being received */
	struct cq_task task[CQ_MAX];
	int info_a;                  /* task ID whose CMD45 is awaited, -1 none */
	uint64_t lane_free[LANES_MAX];
	/* the volatile cache: a ring of held blocks with the flash's content
	 * before them */
	uint32_t head, n;
	uint64_t held[CACHE_MAX];
	uint8_t old[CACHE_MAX][512];
	uint64_t drain_t;
	double drain_credit;
	bool deferred;               /* flush_reorders: a block to write again */
	uint64_t def_blk;
	uint8_t def_data[512];
	uint64_t flushes;
} q;

static const struct sim_profile *prof(void)
{
	return sim_card.p;
}

static void put_le(uint8_t *p, uint32_t v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static unsigned depth(void)
{
	return prof()->cq_depth >= 2 ? (prof()->cq_depth > CQ_MAX ? CQ_MAX : prof()->cq_depth) : 0;
}

/* One extension of the General Information at 'at'. */
static void gi_ext(uint8_t *gi, unsigned at, uint16_t sfc, uint16_t next, unsigned fno)
{
	put_le(gi + at, sfc, 2);
	put_le(gi + at + 40, next, 2);
	gi[at + 42] = 1;
	put_le(gi + at + 44, fno << 18, 4); /* page 0, offset 0 */
}

static void build_ext(void)
{
	memset(q.gi, 0, sizeof(q.gi));
	memset(q.pm, 0, sizeof(q.pm));
	memset(q.perf, 0, sizeof(q.perf));
	put_le(q.gi, 0, 2);        /* structure revision 0 */
	put_le(q.gi + 2, 16 + 2 * 48, 2); /* length */
	q.gi[4] = 2;
	gi_ext(q.gi, 16, 1, 64, EXT_FNO_PM);
	gi_ext(q.gi, 64, 2, 0, EXT_FNO_PERF);
	q.pm[0] = 0;               /* revision; no power-off notification */
	q.perf[0] = 0;
	q.perf[4] = prof()->perf_cache_blocks ? 1 : 0;
	q.perf[6] = (uint8_t)(depth() ? depth() - 1 : 0);
}

static void drop_queue(void)
{
	memset(q.task, 0, sizeof(q.task));
	q.info_a = -1;
	memset(q.lane_free, 0, sizeof(q.lane_free));
}

void sim_cq_reset(bool power)
{
	if (power) {
		q.n = q.head = 0;
		q.deferred = false;
		q.flushes = 0;
		q.drain_credit = 0;
	}
	if (!sim_card.p)
		return;
	build_ext();
	drop_queue();
}

/* ---- the cache ------------------------------------------------------- */

static bool cache_on(void)
{
	return prof()->ext_regs && (q.perf[PERF_CACHE_EN] & 1);
}

static void commit_oldest(void)
{
	q.head = (q.head + 1) % CACHE_MAX;
	q.n--;
}

static void drain(uint64_t t)
{
	if (t > q.drain_t)
		q.drain_credit += (double)(t - q.drain_t) / 1e6 * prof()->perf_cache_drain_per_ms;
	q.drain_t = t;
	while (q.n && q.drain_credit >= 1) {
		commit_oldest();
		q.drain_credit -= 1;
	}
	if (!q.n)
		q.drain_credit = 0;
}

static bool held(uint64_t blk)
{
	uint32_t i;

	for (i = 0; i < q.n; i++)
		if (q.held[(q.head + i) % CACHE_MAX] == blk)
			return true;
	return false;
}

uint64_t sim_cq_mem_write(uint64_t phys_blk, uint64_t t)
{
	uint32_t cap = prof()->perf_cache_blocks < CACHE_MAX ? prof()->perf_cache_blocks : CACHE_MAX;
	bool full;
	uint32_t slot;

	if (!cache_on() || !cap)
		return SIM_NEVER;
	drain(t);
	if (held(phys_blk))
		return sim_rng_draw(&prof()->perf_cache_write);
	full = q.n >= cap;
	if (full)
		commit_oldest();
	slot = (q.head + q.n) % CACHE_MAX;
	q.held[slot] = phys_blk;
	sim_store_read(phys_blk, q.old[slot]);
	q.n++;
	return full ? SIM_NEVER : sim_rng_draw(&prof()->perf_cache_write);
}

/* flush_reorders: the block kept back at the last flush lands now. */
static void land_deferred(void)
{
	if (q.deferred)
		sim_store_write(q.def_blk, q.def_data);
	q.deferred = false;
}

/* Commit everything held; returns the busy. */
static uint64_t flush(uint64_t t)
{
	const struct sim_profile *p = prof();
	uint64_t busy;

	drain(t);
	q.flushes++;
	if (p->flush_ignored)
		return 0;
	busy = sim_rng_draw(&p->perf_flush) + p->perf_flush_per_block_ns * q.n;
	land_deferred();
	if (p->flush_reorders && q.n) {
		q.deferred = true;
		q.def_blk = q.held[(q.head + q.n - 1) % CACHE_MAX];
		sim_store_read(q.def_blk, q.def_data);
	}
	q.n = q.head = 0;
	return busy;
}

bool sim_card_cache_on(void)
{
	return sim_card.p && cache_on();
}

bool sim_card_cq_on(void)
{
	return sim_card.p && prof()->ext_regs && (q.perf[PERF_CQ] & 1);
}

unsigned sim_card_cache_dirty(void)
{
	return q.n;
}

uint64_t sim_card_flushes(void)
{
	return q.flushes;
}

unsigned sim_card_cq_queued(void)
{
	unsigned i, n = 0;

	for (i = 0; i < CQ_MAX; i++)
		n += q.task[i].state == T_QUEUED;
	return n;
}

uint64_t sim_cq_first_ready(void)
{
	uint64_t r = SIM_NEVER;
	unsigned i;

	for (i = 0; i < CQ_MAX; i++)
		if (q.task[i].state == T_QUEUED && q.task[i].ready_at < r)
			r = q.task[i].ready_at;
	return r;
}

void sim_card_power_loss(void)
{
	while (q.n) {
		uint32_t slot = (q.head + q.n - 1) % CACHE_MAX;

		sim_store_write(q.held[slot], q.old[slot]);
		q.n--;
	}
	q.head = 0;
	q.deferred = false;
	if (sim_card.p) {
		build_ext();
		drop_queue();
	}
}

/* ---- CMD48 / CMD49 ------------------------------------------------------ */

static uint8_t *ext_page(unsigned fno, unsigned page)
{
	if (page)
		return NULL;
	return fno == EXT_FNO_GI ? q.gi : fno == EXT_FNO_PM ? q.pm :
	       fno == EXT_FNO_PERF ? q.perf : NULL;
}

/* A CMD48/CMD49 accepted: one 512-byte block in the given direction. */
static void ext_data(struct sim_cmd_out *o, bool rd)
{
	struct sim_card *c = &sim_card;

	o->xfer = rd ? XK_READ : XK_WRITE;
	o->mem = true;
	o->blksz = 512;
	o->blocks = 1;
	c->op_blocks = 1;
	c->op_multi = false;
	c->op_mem = true;
	c->op_kind = OPK_EXT;
	c->op_staged = false;
	c->state = rd ? ST_DATA : ST_RCV;
}

static void ext_cmd(uint8_t idx, uint32_t arg, uint64_t t, struct sim_cmd_out *o,
		    enum sim_state st)
{
	unsigned fno = (arg >> 27) & 0xf, addr = (arg >> 9) & 0x1ffff;
	unsigned off = addr & 0x1ff, len = (arg & 0x1ff) + 1;
	const uint8_t *reg = ext_page(fno, addr >> 9);

	if (st != ST_TRAN || (arg >> 31)) {
		sim_card_illegal(o);
		return;
	}
	if (!reg) {
		sim_card_r1(o, idx, st, R1_OUT_OF_RANGE, t);
		return;
	}
	sim_card_r1(o, idx, st, 0, t);
	if (idx == 48) {
		memset(q.blk, 0, sizeof(q.blk));
		memcpy(q.blk, reg + off, len < 512 - off ? len : 512 - off);
	} else {
		q.ext_arg = arg;
	}
	ext_data(o, idx == 48);
}

void sim_cq_ext_read(uint8_t *buf, uint32_t len)
{
	memcpy(buf, q.blk, len < sizeof(q.blk) ? len : sizeof(q.blk));
}

/* One byte of the performance register written; returns the busy. */
static uint64_t perf_byte(unsigned off, uint8_t v, uint64_t t)
{
	uint64_t busy = 0;

	switch (off) {
	case PERF_CACHE_EN:
		if (!q.perf[4])
			return 0; /* no cache: the bit stays 0 */
		if ((q.perf[off] & 1) && !(v & 1)) {
			/* Off: what is held is committed first. */
			drain(t);
			busy = prof()->perf_flush_per_block_ns * q.n;
			land_deferred();
			q.n = q.head = 0;
		}
		q.drain_t = t;
		q.perf[off] = v & 1;
		return busy;
	case PERF_FLUSH:
		return (v & 1) && cache_on() ? flush(t) : 0;
	case PERF_CQ:
		if (!depth())
			return 0;
		if (!(v & 1))
			drop_queue();
		q.perf[off] = v & 3;
		return 0;
	default:
		return 0; /* read-only */
	}
}

uint64_t sim_cq_ext_write(const uint8_t *buf, uint64_t t)
{
	uint32_t arg = q.ext_arg;
	unsigned fno = (arg >> 27) & 0xf, addr = (arg >> 9) & 0x1ffff;
	unsigned off = addr & 0x1ff, i, len = (arg & 0x1ff) + 1;
	uint64_t busy = 0;

	if (fno != EXT_FNO_PERF)
		return 0; /* General Information and PM: nothing writable modelled */
	if ((arg >> 26) & 1) {
		uint8_t m = (uint8_t)arg;

		return perf_byte(off, (uint8_t)((q.perf[off] & ~m) | (buf[0] & m)), t);
	}
	for (i = 0; i < len && off + i < 512; i++)
		busy += perf_byte(off + i, buf[i], t);
	return busy;
}

/* ---- the queue ---------------------------------------------------------- */

/* When a task queued at t is ready. */
static uint64_t schedule(bool rd, uint64_t t)
{
	const struct sim_profile *p = prof();
	unsigned lanes = p->cq_lanes ? (p->cq_lanes > LANES_MAX ? LANES_MAX : p->cq_lanes) : 1;
	unsigned i, best = 0;
	uint64_t start;

	if (p->cq_timeout_depth && sim_card_cq_queued() >= p->cq_timeout_depth)
		return SIM_NEVER;
	/* Only a card with a scheduling cost draws one: the other profiles'
	 * random streams stay as they were. */
	if (p->cq_task.min_ns || p->cq_task.mean_extra_ns)
		t += sim_rng_draw(&p->cq_task);
	if (!rd)
		return t;
	for (i = 1; i < lanes; i++)
		if (q.lane_free[i] < q.lane_free[best])
			best = i;
	start = max64(t, q.lane_free[best]);
	q.lane_free[best] = start + sim_rng_draw(&p->read_first);
	return q.lane_free[best];
}

static void task_info(uint8_t idx, uint32_t arg, uint64_t t, struct sim_cmd_out *o,
		      enum sim_state st)
{
	unsigned id = (arg >> 16) & 0x1f;

	if (idx == 44) {
		if (id >= depth() || q.task[id].state != T_FREE || !(arg & 0xffff)) {
			sim_card_r1(o, idx, st, R1_ERROR, t);
			return;
		}
		q.task[id] = (struct cq_task){ T_INFO_A, (arg >> 30) & 1, arg & 0xffff, 0, 0 };
		q.info_a = (int)id;
		sim_card_r1(o, idx, st, 0, t);
		return;
	}
	if (q.info_a < 0) {
		sim_card_illegal(o);
		return;
	}
	id = (unsigned)q.info_a;
	q.info_a = -1;
	if ((uint64_t)arg + q.task[id].blocks > sim_card.blocks_total) {
		q.task[id].state = T_FREE;
		sim_card_r1(o, idx, st, R1_OUT_OF_RANGE, t);
		return;
	}
	q.task[id].blk = arg;
	q.task[id].ready_at = schedule(q.task[id].read, t);
	q.task[id].state = T_QUEUED;
	sim_card_r1(o, idx, st, 0, t);
}

static uint32_t task_status(uint64_t t)
{
	uint32_t s = 0;
	unsigned i;

	for (i = 0; i < CQ_MAX; i++)
		if (q.task[i].state == T_QUEUED && q.task[i].ready_at <= t)
			s |= 1u << i;
	return s;
}

/* CMD46 / CMD47: run a ready task. */
static void task_exec(uint8_t idx, uint32_t arg, uint64_t t, struct sim_cmd_out *o,
		      enum sim_state st)
{
	struct sim_card *c = &sim_card;
	unsigned id = (arg >> 16) & 0x1f;
	struct cq_task *k = &q.task[id];
	bool rd = idx == 46;

	if (k->state != T_QUEUED || k->ready_at > t || k->read != rd) {
		sim_card_r1(o, idx, st, R1_ERROR, t);
		return;
	}
	sim_card_r1(o, idx, st, 0, t);
	o->xfer = rd ? XK_READ : XK_WRITE;
	o->mem = true;
	o->blksz = 512;
	o->blocks = k->blocks;
	c->op_addr = k->blk * 512;
	c->op_blocks = k->blocks;
	c->op_multi = true;
	c->op_mem = true;
	c->op_kind = OPK_MEM;
	c->op_staged = rd;
	c->state = rd ? ST_DATA : ST_RCV;
	if (!rd) {
		c->well_written = 0;
		c->op_written = 0;
		c->op_preerased = 0;
	}
	k->state = T_FREE;
}

static void queue_mgmt(uint32_t arg, uint64_t t, struct sim_cmd_out *o, enum sim_state st)
{
	unsigned op = arg & 0xf, id = (arg >> 16) & 0x1f;

	if (op == 1) {
		drop_queue();
	} else if (op == 2) {
		q.task[id].state = T_FREE;
		if (q.info_a == (int)id)
			q.info_a = -1;
	} else {
		sim_card_r1(o, 43, st, R1_ERROR, t);
		return;
	}
	sim_card_r1(o, 43, st, 0, t);
}

bool sim_cq_command(uint8_t idx, uint32_t arg, uint64_t t, struct sim_cmd_out *o,
		    enum sim_state st)
{
	const struct sim_profile *p = prof();

	if (!p->ext_regs || idx < 13 || (idx > 13 && idx < 43) || idx > 49)
		return false;
	if (idx == 13) {
		if (!(arg & (1u << 15)) || !sim_card_cq_on())
			return false;
		if (st < ST_STBY || st > ST_DIS)
			sim_card_illegal(o);
		else if (sim_card_addressed(arg)) {
			sim_card_r1(o, 13, st, 0, t);
			o->r[0] = task_status(t);
		}
		return true;
	}
	if (idx == 48 || idx == 49) {
		ext_cmd(idx, arg, t, o, st);
		return true;
	}
	if (!sim_card_cq_on() || st != ST_TRAN || (idx == 44 && p->cq_rejects_cmd44)) {
		sim_card_illegal(o);
		return true;
	}
	if (idx == 44 || idx == 45)
		task_info(idx, arg, t, o, st);
	else if (idx == 46 || idx == 47)
		task_exec(idx, arg, t, o, st);
	else if (idx == 43)
		queue_mgmt(arg, t, o, st);
	else
		sim_card_illegal(o);
	return true;
}

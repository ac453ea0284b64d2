/*
 * test_soak.c - the whole quick suite (the real program: bench_main with
 * the storage rules, config, workloads) on the simulator with faults
 * injected at random while it runs: command CRC and timeout, data CRC and
 * timeout, stuck busy, card removal (and re-insertion), and a card that
 * stops answering for good. For each run:
 *   - it ends with a "done" record, within a bounded virtual and wall time;
 *   - every "error" record of a failed command names the command and the
 *     card status (cmd, status fields);
 *   - no write or erase command reaches a block outside the test area,
 *     counted on the simulated bus (sim_truth), and the blocks before the
 *     area (MBR, boot partition) are byte-identical afterwards.
 * Prints one table row per run. SDB_SOAK_SEEDS=N runs N seeds per rate
 * (default 1; make soak-long uses more).
 *
 * The command queue's workload (bench/workloads/queue.c: queued reads and
 * writes at every depth, the cache on and off, the flush checks) is not in
 * the quick suite; the second test runs it alone on A2 cards with a queue
 * and a cache (the A2 profile and a generated A2 card), under faults aimed at its commands (CMD44-49, CMD13, the
 * tasks' data), and checks that every write the card receives (CMD47 with
 * the block its CMD44/CMD45 named, CMD24/25, erases) lies in the test area,
 * that no block outside it changed, and that the card is left with its
 * cache and queue off once the run's end has done what the firmware does
 * at the end of a suite (bench/run.c, leave_card_as_found).
 * SDB_SOAK_TRACE=1 prints each fault as it is armed.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/engine/record.h"
#include "bench/env.h"
#include "bench/run.h"
#include "bench/workloads/queue.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "drivers/timer.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "sim/sim_gen.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define BUF_BYTES (16u << 20)
#define OUT_MAX (1u << 21)
#define AREA_FIRST 139264u	/* sim_layout_pi_card: boot 8192+131072, area at 68 MiB */
#define VIRT_LIMIT_NS (1800ull * 1000000000ull)	/* 30 min of card time */
#define WALL_LIMIT_S 120

enum scen { SC_NONE, SC_CMD, SC_DATA, SC_MIXED, SC_REMOVE, SC_DEAD };
static const char *const scen_name[] = { "none", "cmd", "data", "mixed", "remove", "dead" };

static struct {
	char *out;
	size_t len;
	uint64_t rng;
	enum scen sc;
	uint32_t mean;		/* commands between faults */
	int armed;		/* fault id or -1 */
	unsigned faults;	/* faults that fired */
	unsigned removed, reinserted;
	unsigned seen;		/* truth records checked */
	unsigned unchecked;	/* truth records dropped before we saw them */
	unsigned bus_writes, outside;
	uint32_t card_blocks;
	int block_addr;
	int dead;
} S;

static uint32_t rnd(void)
{
	S.rng ^= S.rng << 13;
	S.rng ^= S.rng >> 7;
	S.rng ^= S.rng << 17;
	return (uint32_t)(S.rng >> 11);
}

/* Scan the bus records made since the last scan: writes and erases. */
static void scan_truth(void)
{
	static uint32_t erase_start, erase_end;
	unsigned n = sim_truth_count();

	for (; S.seen < n; S.seen++) {
		const struct sim_truth *t = sim_truth_get(S.seen);
		uint64_t first, count = 0;

		if (!t) {
			S.unchecked++;
			continue;
		}
		if (t->flags & SIM_T_APP)
			continue;
		first = S.block_addr ? t->arg : t->arg / 512;
		switch (t->cmd) {
		case 24: count = 1; break;
		case 25: count = t->blocks ? t->blocks : 1; break;
		case 32: erase_start = (uint32_t)first; continue;
		case 33: erase_end = (uint32_t)first; continue;
		case 38:
			first = erase_start;
			count = erase_end >= erase_start ? (uint64_t)erase_end - erase_start + 1 : 1;
			break;
		default: continue;
		}
		S.bus_writes++;
		if (first < AREA_FIRST || first + count > S.card_blocks)
			S.outside++;
	}
}

/* Arm the next random fault once the last one fired. */
static void rearm(void)
{
	static const int data_cmds[] = { 17, 18, 24, 25 };
	static const int any_cmds[] = { 17, 18, 24, 25, 13, 12, SIM_ANY_CMD, SIM_ANY_CMD, SIM_ANY_CMD };
	struct sim_fault f;
	uint32_t k;

	if (S.sc == SC_NONE || S.dead)
		return;	/* a dead card's one fault is counted at the end */
	if (S.armed >= 0 && !sim_fault_fired(S.armed))
		return;
	if (S.armed >= 0) {
		S.faults += sim_fault_fired(S.armed);
		if (S.sc == SC_REMOVE && sim_card_state() >= 0 && (rnd() & 1)) {
			/* the user puts the card back in */
			sim_card_set_present(true);
			S.reinserted++;
		}
	}
	S.armed = -1;
	sim_fault_clear();
	memset(&f, 0, sizeof(f));
	f.nth = 1 + rnd() % (2 * S.mean);
	f.times = 1;
	k = rnd() % 8;
	switch (S.sc) {
	case SC_CMD:
		f.kind = (k & 1) ? SIM_FAULT_CMD_CRC : SIM_FAULT_CMD_TIMEOUT;
		f.cmd = any_cmds[rnd() % 9];
		break;
	case SC_DATA:
		f.kind = (k & 1) ? SIM_FAULT_DATA_CRC : SIM_FAULT_DATA_TIMEOUT;
		f.cmd = data_cmds[rnd() % 4];
		f.block = rnd() % 4;
		break;
	case SC_REMOVE:
		f.kind = SIM_FAULT_REMOVE;
		f.cmd = data_cmds[rnd() % 4];
		f.block = rnd() % 4;
		S.removed++;
		break;
	case SC_DEAD:
		/* after a while the card stops answering, for good */
		f.kind = SIM_FAULT_CMD_TIMEOUT;
		f.cmd = SIM_ANY_CMD;
		f.times = ~0u;
		S.dead = 1;
		break;
	default: /* mixed */
		switch (k) {
		case 0: f.kind = SIM_FAULT_CMD_CRC; f.cmd = any_cmds[rnd() % 9]; break;
		case 1: f.kind = SIM_FAULT_CMD_TIMEOUT; f.cmd = any_cmds[rnd() % 9]; break;
		case 2: f.kind = SIM_FAULT_DATA_CRC; f.cmd = data_cmds[rnd() % 4]; break;
		case 3: f.kind = SIM_FAULT_DATA_TIMEOUT; f.cmd = data_cmds[rnd() % 4]; break;
		case 4: f.kind = SIM_FAULT_DATA_END; f.cmd = data_cmds[rnd() % 4]; break;
		case 5: f.kind = SIM_FAULT_CMD_INDEX; f.cmd = any_cmds[rnd() % 9]; break;
		default:
			f.kind = SIM_FAULT_STUCK_BUSY;
			f.cmd = (k == 6) ? 24 : 25;
			f.busy_ns = (rnd() & 1) ? 0 : 50000000ull + rnd() % 2000000000u;
			break;
		}
		f.block = rnd() % 4;
		break;
	}
	S.armed = sim_fault_add(&f);
}

static void capture(char c)
{
	if (S.len + 1 < OUT_MAX)
		S.out[S.len++] = c;
	S.out[S.len] = 0;
	if (c == '\n') {
		scan_truth();
		rearm();
	}
}

struct outcome {
	int done;
	unsigned errors, cmd_errors, cmd_errors_named, records;
};

/* Go through the records of the captured output. */
static void parse_out(struct outcome *o)
{
	const char *p = S.out;

	memset(o, 0, sizeof(*o));
	while ((p = strstr(p, "@ {")) != NULL) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char line[2048];

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = 0;
		o->records++;
		if (strstr(line, "{\"type\":\"done\""))
			o->done++;
		if (strstr(line, "{\"type\":\"error\"")) {
			o->errors++;
			/* errors of a failed bus transfer: a timeout, CRC or
			 * I/O error, the card gone */
			if (strstr(line, "\"ETIMEDOUT\"") || strstr(line, "\"EILSEQ\"") ||
			    strstr(line, "\"EIO\"") || strstr(line, "\"ENOMEDIUM\"")) {
				o->cmd_errors++;
				if (strstr(line, "\"cmd\":") && strstr(line, "\"status\":"))
					o->cmd_errors_named++;
				else if (o->cmd_errors - o->cmd_errors_named <= 3)
					printf("    unnamed: %s\n", line);
			}
		}
		p += n;
	}
}

static uint8_t *before, *after;

/* One run of the quick suite under faults: scenario sc at one fault per
 * mean commands, on the board of host (a host profile, or NULL: the
 * simulator's generic board) with the card profile. */
/* A soak run's state: its scenario, mean fault interval, and a random
 * stream of its own per seed and kind of run (salt). */
static void soak_state_init(enum scen sc, uint32_t mean, uint64_t seed, unsigned salt)
{
	memset(&S, 0, sizeof(S));
	S.out = malloc(OUT_MAX);
	S.out[0] = 0;
	S.rng = seed * 0x9E3779B97F4A7C15ull + salt;
	S.sc = sc;
	S.mean = mean;
	S.armed = -1;
}

static int soak_run(enum scen sc, uint32_t mean, uint64_t seed, const char *profile,
		    const char *host)
{
	static struct simh_board_slot bs;
	static const char cfg[] = "suite = quick\n";
	const struct sim_profile *p = sim_profile_find(profile);
	struct sim_config scfg;
	struct bench_env env;
	struct outcome o;
	time_t w0 = time(NULL);
	uint64_t virt;
	long wall;
	int ok = 1;

	soak_state_init(sc, mean, seed, 1);
	CHECK(p != NULL);
	if (!p)
		return 0;
	sim_config_default(&scfg);
	if (host) {
		char err[160];

		CHECK_EQ_I(sim_host_load(host, &scfg, err, sizeof(err)), 0);
	}
	scfg.seed = seed;
	CHECK_EQ_I(sim_setup(&scfg, p), 0);
	CHECK_EQ_I(sim_layout_pi_card(p->capacity_bytes, cfg, sizeof(cfg) - 1), 0);
	S.card_blocks = (uint32_t)(p->capacity_bytes / 512);
	S.block_addr = p->kind == SIM_SDHC || p->kind == SIM_SDXC;
	sim_card_peek(0, before, (size_t)AREA_FIRST * 512);

	host_console_hook = capture;
	record_reset_errors();
	timer_init(0);
	simh_program_env(&env, &bs, BUF_BYTES);
	rearm();
	bench_main(&env);
	record_done(timer_now_us());
	host_console_hook = NULL;
	if (S.armed >= 0 && S.dead)
		S.faults += sim_fault_fired(S.armed);
	sim_fault_clear();
	scan_truth();
	free(env.buf);
	virt = sim_now_ns();
	wall = (long)(time(NULL) - w0);

	sim_card_peek(0, after, (size_t)AREA_FIRST * 512);
	parse_out(&o);
	printf("  %-9s %-6s %6u %4lu %-12s %6u %4u/%-4u %6u %5u %5u/%-5u %7u %4u %6.1f %4lds  %s\n",
	       host ? host : "generic", scen_name[sc], mean, (unsigned long)seed, profile, S.faults, S.removed,
	       S.reinserted, o.errors, o.done, o.cmd_errors_named, o.cmd_errors, S.bus_writes,
	       S.outside, (double)virt / 1e9, wall, o.done == 1 ? "done" : "NO DONE");
	if (o.done != 1) {
		CHECK_FAIL_("%s/%u/%lu: %d done records", scen_name[sc], mean,
			    (unsigned long)seed, o.done);
		printf("%s\n", S.out + (S.len > 3000 ? S.len - 3000 : 0));
		ok = 0;
	}
	if (virt > VIRT_LIMIT_NS || wall > WALL_LIMIT_S) {
		CHECK_FAIL_("%s/%u: took %.1f s of card time, %ld s of wall time",
			    scen_name[sc], mean, (double)virt / 1e9, wall);
		ok = 0;
	}
	if (o.cmd_errors_named != o.cmd_errors) {
		CHECK_FAIL_("%s/%u: %u of %u transfer errors do not name the command and status",
			    scen_name[sc], mean, o.cmd_errors - o.cmd_errors_named, o.cmd_errors);
		ok = 0;
	}
	if (S.outside || S.unchecked) {
		CHECK_FAIL_("%s/%u: %u writes/erases outside the test area on the bus "
			    "(%u bus records not checked)", scen_name[sc], mean, S.outside,
			    S.unchecked);
		ok = 0;
	}
	if (memcmp(before, after, (size_t)AREA_FIRST * 512)) {
		CHECK_FAIL_("%s/%u: the blocks before the test area changed", scen_name[sc], mean);
		ok = 0;
	}
	/* at the lower rates a run may end before its one fault fires */
	if (sc != SC_NONE && mean <= 300 && S.faults == 0) {
		CHECK_FAIL_("%s/%u: no fault fired", scen_name[sc], mean);
		ok = 0;
	}
	if (sc == SC_NONE && (o.errors || S.bus_writes == 0)) {
		CHECK_FAIL_("the run without faults has %u errors, %u writes", o.errors,
			    S.bus_writes);
		ok = 0;
	}
	free(S.out);
	return ok;
}

static unsigned env_u(const char *name, unsigned def)
{
	const char *v = getenv(name);

	return v && *v ? (unsigned)strtoul(v, NULL, 0) : def;
}

/* The runs, each on a board: every scenario on the simulator's generic
 * board; mixed faults on the Pi 4's EMMC2 (ADMA2) and the Pi 5's SDIO
 * (64-bit ADMA2), built from their SoC tables. */
static const struct {
	enum scen sc;
	uint32_t mean;
	const char *host;
} plan[] = {
	{ SC_NONE, 0, NULL },      { SC_CMD, 100, NULL },    { SC_DATA, 100, NULL },
	{ SC_MIXED, 2000, NULL },  { SC_MIXED, 200, NULL },  { SC_MIXED, 20, NULL },
	{ SC_REMOVE, 300, NULL },  { SC_DEAD, 3000, NULL },
	{ SC_MIXED, 200, "pi4-emmc2" }, { SC_MIXED, 200, "pi5" },
};

TEST(quick_suite_survives_random_faults)
{
	unsigned seeds = env_u("SDB_SOAK_SEEDS", 1), runs = 0, good = 0;

	before = malloc((size_t)AREA_FIRST * 512);
	after = malloc((size_t)AREA_FIRST * 512);
	printf("  %-9s %-6s %6s %4s %-12s %6s %9s %6s %5s %11s %7s %4s %6s %5s\n", "board",
	       "faults", "1/rate", "seed", "profile", "fired", "rm/back", "errors", "done", "named/xfer",
	       "writes", "out", "card_s", "wall");
	for (unsigned s = 0; s < seeds; s++) {
		for (unsigned i = 0; i < sizeof(plan) / sizeof(plan[0]); i++) {
			if (s && plan[i].sc == SC_NONE)
				continue;
			runs++;
			good += soak_run(plan[i].sc, plan[i].mean, 1 + s * 7 + i,
					 (i + s) & 1 ? "sdhc-c10-16g" : "qemu-like-1g", plan[i].host);
		}
	}
	printf("  %u runs, %u met every check\n", runs, good);
	free(before);
	free(after);
}

/* ---- the command queue under faults ------------------------------------ */

#define QA_FIRST (1u << 21)
#define QA_COUNT (1u << 15)
#define QMEM     (4u << 20)

static struct {
	bool wr[32];
	uint32_t blocks[32], lba[32];
	int last44;
	uint32_t erase_from;
	unsigned writes, outside, queued_writes;
} QW;

static void q_rearm(void);

static void qw_check(uint32_t first, uint32_t count)
{
	QW.writes++;
	if (first < QA_FIRST || (uint64_t)first + count > QA_FIRST + QA_COUNT)
		QW.outside++;
}

/* Every command as the card receives it (SDXC: block addresses). */
static void qw_cmd(uint8_t idx, uint32_t arg, bool app)
{
	unsigned id = (arg >> 16) & 31;

	if (app)
		return;
	switch (idx) {
	case 44: /* SD 6.00 §4.19: [30] 1 = read, [20:16] task, [15:0] blocks */
		QW.last44 = (int)id;
		QW.wr[id] = !((arg >> 30) & 1);
		QW.blocks[id] = arg & 0xffff;
		break;
	case 45:
		if (QW.last44 >= 0)
			QW.lba[QW.last44] = arg;
		QW.last44 = -1;
		break;
	case 47:
		QW.queued_writes++;
		qw_check(QW.wr[id] ? QW.lba[id] : 0, QW.blocks[id]);
		break;
	case 24: case 25: qw_check(arg, 1); break;
	case 32: QW.erase_from = arg; break;
	case 33: qw_check(QW.erase_from, arg >= QW.erase_from ? arg - QW.erase_from + 1 : 1); break;
	default: break;
	}
	/* The controller has taken this command's fault (if any) already:
	 * the next one may be armed now. */
	q_rearm();
}

/* The next fault once the last fired: on the queue's commands and data. */
static void q_rearm(void)
{
	static const int cmds[] = { 44, 45, 46, 47, 13, 49, 48, 43, SIM_ANY_CMD };
	static const int data[] = { 46, 47, 48, 49 };
	static const enum sim_fault_kind kinds[] = {
		SIM_FAULT_CMD_CRC, SIM_FAULT_CMD_TIMEOUT, SIM_FAULT_CMD_INDEX, SIM_FAULT_DATA_CRC,
		SIM_FAULT_DATA_TIMEOUT, SIM_FAULT_DATA_END, SIM_FAULT_STUCK_BUSY };
	struct sim_fault f;
	uint32_t k;

	if (S.sc == SC_NONE || (S.armed >= 0 && !sim_fault_fired(S.armed)))
		return;
	if (S.armed >= 0)
		S.faults += sim_fault_fired(S.armed);
	sim_fault_clear();
	memset(&f, 0, sizeof(f));
	f.nth = 1 + rnd() % (2 * S.mean);
	f.times = 1;
	k = rnd() % (S.sc == SC_CMD ? 3 : S.sc == SC_DATA ? 3 : 7);
	f.kind = kinds[S.sc == SC_DATA ? 3 + k : k];
	f.cmd = f.kind >= SIM_FAULT_DATA_CRC && f.kind != SIM_FAULT_STUCK_BUSY ?
		data[rnd() % 4] : cmds[rnd() % 9];
	if (f.kind == SIM_FAULT_STUCK_BUSY) {
		f.cmd = (rnd() & 1) ? 47 : 49;
		f.busy_ns = (rnd() & 1) ? 0 : 20000000ull + rnd() % 300000000u;
	}
	/* The register commands are few (the cache and queue turned on and
	 * off, flushes): a fault on one comes within its first few. */
	if (f.cmd == 43 || f.cmd == 48 || f.cmd == 49)
		f.nth = 1 + rnd() % 4;
	f.block = rnd() % 8;
	S.armed = sim_fault_add(&f);
	if (getenv("SDB_SOAK_TRACE"))
		printf("    fault %d kind %d cmd %d nth %u -> %d\n", S.sc, f.kind, f.cmd, f.nth, S.armed);
}

static void q_capture(char c)
{
	if (S.len + 1 < OUT_MAX)
		S.out[S.len++] = c;
	S.out[S.len] = 0;
	if (c == '\n')
		q_rearm();
}

/* One run of the queue workload on profile p under scenario sc. */
static int q_soak_run(enum scen sc, uint32_t mean, uint64_t seed, const struct sim_profile *p)
{
	static uint8_t *mem;
	static struct simh sh;
	static struct test_area ta;
	static struct write_guard guard;
	struct wl_ctx ctx;
	uint64_t sum0;
	bool left_on, verdict;
	int ok = 1;

	soak_state_init(sc, mean, seed, 5);
	memset(&QW, 0, sizeof(QW));
	QW.last44 = -1;
	if (!mem)
		mem = malloc(QMEM);
	CHECK_EQ_I(simh_start_p(&sh, p, NULL), 0);
	memset(&ta, 0, sizeof(ta));
	ta.usable = true;
	ta.source = TEST_AREA_CONFIG;
	ta.first_lba = QA_FIRST;
	ta.count = QA_COUNT;
	write_guard_init(&guard, &sh.card, &ta, true);
	wl_ctx_init(&ctx, &guard, mem, QMEM, true, false, 0x5db, (uint32_t)seed);
	ctx.read_base = QA_FIRST;
	ctx.read_span_blocks = 1u << 20;
	sum0 = sim_card_sum_outside(QA_FIRST, QA_COUNT);
	sim_card_cmd_hook = qw_cmd;
	host_console_hook = q_capture;
	q_rearm();
	wl_queue(&ctx);
	if (S.armed >= 0)
		S.faults += sim_fault_fired(S.armed);
	sim_fault_clear();
	left_on = sim_card_cache_on() || sim_card_cq_on();
	/* the end of the suite, as bench/run.c's leave_card_as_found */
	write_guard_card_as_found(&guard);
	host_console_hook = NULL;
	sim_card_cmd_hook = NULL;
	verdict = strstr(S.out, "\"type\":\"queue_check\"") != NULL;
	printf("  queue %-6s %5u %4lu %-16s %6u %6u %6u %4u %-8s %s\n", scen_name[sc], mean,
	       (unsigned long)seed, p->name, S.faults, QW.queued_writes, QW.writes, QW.outside,
	       left_on ? "on" : "off", sim_card_cache_on() || sim_card_cq_on() ? "LEFT ON" : "off");
	if (QW.outside || sim_card_sum_outside(QA_FIRST, QA_COUNT) != sum0) {
		CHECK_FAIL_("queue %s/%lu: %u writes outside the test area, blocks outside %s",
			    scen_name[sc], (unsigned long)seed, QW.outside,
			    sim_card_sum_outside(QA_FIRST, QA_COUNT) != sum0 ? "changed" : "kept");
		ok = 0;
	}
	if (sim_card_cache_on() || sim_card_cq_on() || sim_card_cache_dirty()) {
		CHECK_FAIL_("queue %s/%lu: the card is left with its cache or queue on",
			    scen_name[sc], (unsigned long)seed);
		ok = 0;
	}
	/* at the lowest rate a run may end before its fault fires */
	if (!verdict || (sc != SC_NONE && mean <= 300 && !S.faults) ||
	    (sc == SC_NONE && !QW.queued_writes)) {
		CHECK_FAIL_("queue %s/%lu: verdict %d, %u faults fired, %u queued writes",
			    scen_name[sc], (unsigned long)seed, verdict, S.faults, QW.queued_writes);
		ok = 0;
	}
	free(S.out);
	return ok;
}

TEST(queue_survives_random_faults)
{
	static const struct {
		enum scen sc;
		uint32_t mean;
	} qplan[] = { { SC_NONE, 0 }, { SC_CMD, 3000 }, { SC_CMD, 300 }, { SC_DATA, 1000 },
		      { SC_DATA, 100 }, { SC_MIXED, 3000 }, { SC_MIXED, 300 }, { SC_MIXED, 40 } };
	unsigned seeds = env_u("SDB_SOAK_SEEDS", 1), runs = 0, good = 0;
	const struct sim_profile *a2 = sim_profile_find("sdxc-a2-cq-64g");
	static struct sim_profile gen;

	/* every other run on a generated A2 card: SDHC, a queue of depth 8
	 * with 4 lanes, a 1408-block cache (sim_gen.c, seed 11) */
	sim_gen_card(11, &gen);
	CHECK(a2 != NULL && gen.cq_depth == 8 && gen.perf_cache_blocks);
	if (!a2)
		return;
	printf("  queue %-6s %5s %4s %-16s %6s %6s %6s %4s %-8s %s\n", "faults", "1/rate", "seed",
	       "profile", "fired", "CMD47", "writes", "out", "workload", "after end");
	for (unsigned s = 0; s < seeds; s++)
		for (unsigned i = 0; i < sizeof(qplan) / sizeof(qplan[0]); i++) {
			if (s && qplan[i].sc == SC_NONE)
				continue;
			runs++;
			good += q_soak_run(qplan[i].sc, qplan[i].mean, 1 + s * 7 + i,
					   i & 1 ? &gen : a2);
		}
	printf("  %u queue runs, %u met every check\n", runs, good);
}

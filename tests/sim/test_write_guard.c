/*
 * test_write_guard.c - no write or erase reaches the card except through
 * the write guard (bench/storage/write_guard.h).
 *
 * Every workload of the suite and the self-test run on the simulator with
 * the guard in its two test modes: refusing everything (no writes
 * possible) and accepting that writes are possible but refusing each
 * request. The simulator's ground truth lists every command that crossed
 * the bus; not one may be a write (CMD24/25) or an erase (CMD32/33/38).
 * In the second mode the guard must have been asked (workloads did try to
 * write), so a workload that wrote around it would show up on the bus.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/engine/workload.h"
#include "bench/selftest.h"
#include "bench/storage/config.h"
#include "bench/suite.h"
#include "lib/err.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define MEM_BYTES (24u << 20)

static void quiet(char c)
{
	(void)c;
}

static unsigned bus_writes(unsigned from, unsigned to)
{
	unsigned s, n = 0;

	for (s = from; s < to; s++) {
		const struct sim_truth *t = sim_truth_get(s);

		if (t && !(t->flags & SIM_T_APP) &&
		    (t->cmd == 24 || t->cmd == 25 || t->cmd == 32 || t->cmd == 33 || t->cmd == 38))
			n++;
	}
	return n;
}

static const char *const profiles[] = {
	"sdhc-c10-16g", "sdxc-a2-64g", "sdhc-c10-32g-cmd23", "sdhc-1bit-4g", "sdsc-v1-128m",
	"sdhc-slow-writer-8g",
};

/* The quick suite on profile with the guard in mode; returns how many
 * writes and erases crossed the bus, and the guard's refusals in *refused. */
static unsigned suite_bus_writes(const char *profile, enum write_guard_test mode,
				 uint32_t *refused)
{
	static uint8_t *mem;
	struct simh s;
	struct test_area area;
	struct write_guard g;
	struct wl_ctx c;
	struct config cfg;
	unsigned seq0, n;

	*refused = 0;
	if (!mem)
		mem = malloc(MEM_BYTES);
	CHECK(mem != NULL);
	CHECK_EQ_I(simh_start(&s, profile, NULL), 0);
	if (!mem || s.init_ret)
		return ~0u;
	simh_config_area(&area, s.card.blocks / 2, s.card.blocks / 4);
	write_guard_init(&g, &s.card, &area, true);
	g.test = mode;
	config_init(&cfg);
	config_parse(&cfg, "suite = quick\nseed = 5\n", 22);
	wl_ctx_init(&c, &g, mem, MEM_BYTES, true, false, 0x1234, 5);
	c.read_base = area.first_lba;
	host_console_hook = quiet;
	seq0 = sim_truth_count();
	wl_run_suite(&c, &cfg);
	host_console_hook = NULL;
	n = bus_writes(seq0, sim_truth_count());
	*refused = g.refused;
	printf("  %-22s mode %d: %u commands, %u writes/erases on the bus, %u refused by the guard\n",
	       profile, (int)mode, sim_truth_count() - seq0, n, (unsigned)g.refused);
	return n;
}

static void run_suite(const char *profile, enum write_guard_test mode)
{
	uint32_t refused;

	CHECK_EQ_U(suite_bus_writes(profile, mode, &refused), 0);
	if (mode == WRITE_GUARD_REFUSE_EACH)
		CHECK(refused > 0);
}

TEST(no_suite_write_goes_around_a_guard_that_refuses_everything)
{
	unsigned p;

	for (p = 0; p < sizeof(profiles) / sizeof(profiles[0]); p++)
		run_suite(profiles[p], WRITE_GUARD_REFUSE_ALL);
}

TEST(no_suite_write_goes_around_a_guard_that_refuses_each_request)
{
	unsigned p;

	for (p = 0; p < sizeof(profiles) / sizeof(profiles[0]); p++)
		run_suite(profiles[p], WRITE_GUARD_REFUSE_EACH);
}

TEST(no_selftest_write_goes_around_the_guard)
{
	static uint8_t mem[1 << 20];
	struct simh s;
	struct test_area area;
	struct write_guard g;
	struct lba_range wr;
	struct selftest_cfg sc;
	unsigned seq0, mode;

	for (mode = WRITE_GUARD_REFUSE_ALL; mode <= WRITE_GUARD_REFUSE_EACH; mode++) {
		CHECK_EQ_I(simh_start(&s, "sdhc-c10-16g", NULL), 0);
		simh_config_area(&area, 1u << 20, 1u << 16);
		write_guard_init(&g, &s.card, &area, true);
		g.test = (enum write_guard_test)mode;
		memset(&sc, 0, sizeof(sc));
		wr.first = area.first_lba;
		wr.count = 64;
		sc.write = &wr;
		sc.guard = &g;
		sc.run_id = 1;
		sc.buf = mem;
		sc.buf_bytes = sizeof(mem);
		host_console_hook = quiet;
		seq0 = sim_truth_count();
		CHECK(selftest_sd(&s.card, &sc) > 0); /* the refusal is a failure */
		host_console_hook = NULL;
		CHECK_EQ_U(bus_writes(seq0, sim_truth_count()), 0);
	}
}

TEST(a_normal_guard_lets_the_suite_write)
{
	/* The counter above can see writes: with the guard in its normal
	 * mode the same suite puts writes and erases on the bus. */
	uint32_t refused;
	unsigned n = suite_bus_writes("sdhc-c10-16g", WRITE_GUARD_NORMAL, &refused);

	CHECK(n > 100 && n != ~0u);
}

/* The results file's region: writes inside one of its runs reach the card,
 * anything else (outside, across two runs, in the test modes, on a region
 * overlapping the test area) is refused before the bus. */
TEST(the_results_file_region_is_the_only_other_place)
{
	static uint8_t blk[8 * 512];
	struct simh s;
	struct test_area area;
	struct write_guard g;
	struct lba_range log[2] = { { 10000, 8 }, { 10016, 8 } };
	struct lba_range bad = { 1u << 20, 8 };	/* inside the test area */
	unsigned seq0;

	CHECK_EQ_I(simh_start(&s, "sdhc-c10-16g", NULL), 0);
	simh_config_area(&area, 1u << 20, 1u << 16);
	write_guard_init(&g, &s.card, &area, false);	/* write_tests = off */
	seq0 = sim_truth_count();
	CHECK_EQ_I(write_guard_log_write(&g, 10000, 1, blk), -EPERM);	/* no region yet */
	CHECK_EQ_I(write_guard_allow_log(&g, &bad, 1), -EINVAL);
	CHECK_EQ_I(write_guard_allow_log(&g, log, 2), 0);
	CHECK_EQ_I(write_guard_log_write(&g, 10014, 4, blk), -EPERM);	/* across the gap */
	CHECK_EQ_I(write_guard_log_write(&g, 9999, 2, blk), -EPERM);
	CHECK_EQ_I(write_guard_log_write(&g, 10022, 4, blk), -EPERM);
	CHECK_EQ_I(write_guard_log_write(&g, 10020, 5, blk), -EPERM);	/* one block past a run */
	CHECK_EQ_I(write_guard_log_write(&g, 1u << 20, 1, blk), -EPERM);	/* test area */
	g.test = WRITE_GUARD_REFUSE_ALL;
	CHECK_EQ_I(write_guard_log_write(&g, 10000, 1, blk), -EPERM);
	g.test = WRITE_GUARD_REFUSE_EACH;
	CHECK_EQ_I(write_guard_log_write(&g, 10000, 1, blk), -EPERM);
	CHECK_EQ_U(bus_writes(seq0, sim_truth_count()), 0);
	CHECK_EQ_U(g.refused, 8);
	/* The console's rebuild keeps the region; inside a run it writes. */
	write_guard_rebuild(&g, &s.card, &area, true);
	CHECK_EQ_I(write_guard_log_write(&g, 10004, 4, blk), 0);
	CHECK_EQ_I(write_guard_log_write(&g, 10016, 1, blk), 0);
	CHECK_EQ_I(write_guard_log_write(&g, 10020, 4, blk), 0);	/* up to a run's last block */
	CHECK_EQ_U(bus_writes(seq0, sim_truth_count()), 3);
	write_guard_init(&g, &s.card, &area, true);
	CHECK_EQ_I(write_guard_log_write(&g, 10004, 1, blk), -EPERM);
}

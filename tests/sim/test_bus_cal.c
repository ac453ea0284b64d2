/*
 * test_bus_cal.c - the bus calibration (wl_bus_calibrate,
 * bench/workloads/clock_sweep.c) survives a card stall. It measures the
 * bus clocks of a 64 KiB transfer from the median operation times at a
 * quarter and an eighth of the working clock; a card stall in the
 * operations at the faster clock shortens the figure, and the split then
 * books too little bus time in every later workload at that width
 * (generated pair 34 of the quick suite: a write pitch 1586 clocks
 * shorter than the frame, 20 workloads 6.7 - 16 points off).
 *
 * Here the card is steady (no random stalls) and a stall of 4 ms is
 * injected (sim_fault STUCK_BUSY: the card's busy after one block) into
 * three of the four CMD25s at the faster clock: the median operation
 * there is 4 ms longer, the write's b some 50,000 clocks short, a pitch
 * of about 660 clocks for a 1042-clock frame (4-bit). In one round of the
 * pair of clocks, the median over the rounds keeps the figure of the
 * steady card; in every round, the pitch is refused (shorter than the
 * frame) and the split keeps the framing model, saying why.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/busmodel.h"
#include "bench/engine/workload.h"
#include "bench/workloads/clock_sweep.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define MEM_BYTES (4u << 20)
#define STALL_NS 4000000u
/* CMD25s per round of the calibration: 4 at each of its two clocks
 * (the quick suite's count). */
#define CMD25_PER_ROUND 8u

static char out[8192];
static size_t out_len;

static void keep(char ch)
{
	if (out_len + 1 < sizeof(out))
		out[out_len++] = ch;
	out[out_len] = 0;
}

/* The calibration on a steady card, with the stall in the first three
 * CMD25s of each of the rounds in stalled[] (0-based; n of them). */
static void calibrate(const unsigned *stalled, unsigned n, struct wl_bus_cal *bc)
{
	static struct sim_profile p;
	static struct test_area area;
	static struct write_guard guard;
	uint8_t *mem = aligned_alloc(64, MEM_BYTES);
	struct wl_ctx c;
	struct simh s;
	unsigned i;
	int id[8];

	CHECK(mem != NULL);
	if (!mem)
		return;
	p = *sim_profile_find("sdhc-c10-16g");
	memset(&p.write_next, 0, sizeof(p.write_next));
	memset(&p.read_next, 0, sizeof(p.read_next));
	memset(&p.read_first, 0, sizeof(p.read_first));
	memset(&p.write_last, 0, sizeof(p.write_last));
	p.write_next.min_ns = 50000;
	p.read_first.min_ns = 200000;
	p.cache_blocks = 0;
	CHECK_EQ_I(simh_start_p(&s, &p, NULL), 0);
	for (i = 0; i < n; i++) {
		struct sim_fault f = { SIM_FAULT_STUCK_BUSY, 25, stalled[i] * CMD25_PER_ROUND + 1,
				       3, 60, STALL_NS };

		id[i] = sim_fault_add(&f);
		CHECK(id[i] >= 0);
	}
	simh_config_area(&area, 1u << 16, 1u << 16);
	write_guard_init(&guard, &s.card, &area, true);
	out_len = 0;
	out[0] = 0;
	host_console_hook = keep;
	wl_ctx_init(&c, &guard, mem, MEM_BYTES, true, false, 0x1234, 42);
	c.read_base = 1u << 17;
	wl_bus_calibrate(&c);
	host_console_hook = NULL;
	for (i = 0; i < n; i++)
		CHECK_EQ_U(sim_fault_fired(id[i]), 3);
	sim_fault_clear();
	*bc = c.bus_cal;
	printf("  stalled rounds %u: %s", n, strstr(out, "bus calibration,") ?
	       strstr(out, "bus calibration,") : "(no calibration line)\n");
	CHECK_EQ_U(sim_violation_count(), 0);
	free(mem);
}

static double write_pitch(const struct wl_bus_cal *bc)
{
	return (double)bus_block_pitch_clocks(SD_BLOCK_SIZE, 4, BUS_MULTI | BUS_WRITE) +
	       bc->write_extra_clocks;
}

TEST(a_stall_in_one_round_of_the_calibration_leaves_the_pitch)
{
	static const unsigned first[] = { 0 };
	struct wl_bus_cal steady, one;

	calibrate(NULL, 0, &steady);
	CHECK(steady.write_ok && steady.read_ok);
	CHECK_EQ_U(steady.width, 4);
	calibrate(first, 1, &one);
	printf("  write pitch: steady %.1f clocks, one round stalled %.1f (frame %u)\n",
	       write_pitch(&steady), write_pitch(&one), bus_block_clocks(SD_BLOCK_SIZE, 4));
	CHECK(one.write_ok);
	CHECK(fabs(one.write_extra_clocks - steady.write_extra_clocks) <= 2.0);
	CHECK(write_pitch(&one) >= (double)bus_block_clocks(SD_BLOCK_SIZE, 4));
	/* the reads are untouched */
	CHECK(fabs(one.read_extra_clocks - steady.read_extra_clocks) <= 2.0);
}

TEST(a_pitch_shorter_than_the_frame_is_refused)
{
	static const unsigned all[] = { 0, 1, 2 };
	struct wl_bus_cal bc;

	calibrate(all, 3, &bc);
	CHECK(!bc.write_ok);
	CHECK(bc.read_ok);
	CHECK(strstr(out, "write not used (a block pitch of ") != NULL);
	CHECK(strstr(out, "shorter than the 1042-clock frame; the framing model instead)") != NULL);
	CHECK(strstr(out, "\"why\":\"a block pitch of ") != NULL);
}

/*
 * test_long_ops.c - one operation longer than the tick counter's wrap
 * (2^32 ticks: 4.29 s with the simulated host's 1 ns tick) is timed and
 * split right: a 4 MiB write on a card that takes 0.6 ms per block (about
 * 5 s), run by the engine, against the wire truth of the same window. The
 * stamps of the request wrap once; the engine's 64-bit clock gives the
 * wrap back (phase_acc_add_long, bench/engine/phase_ticks.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/engine/workload.h"
#include "drivers/timer.h"
#include "lib/host/host_console.h"
#include "sim/sim.h"
#include "sim/sim_harness.h"
#include "tests/unit/check.h"

#define MEM_BYTES (24u << 20)
#define BLOCKS 8192u /* 4 MiB */

static void quiet(char c)
{
	(void)c;
}

TEST(an_operation_longer_than_the_tick_wrap_is_timed_and_split_right)
{
	static struct sim_profile p;
	static struct test_area area;
	static struct write_guard guard;
	struct sim_wire_sum w0, w1, w;
	struct wl_meas m;
	struct wl_ctx c;
	struct simh s;
	struct wl_op op = { true, 1u << 16, BLOCKS, WL_MULTI_AUTO12 };
	uint8_t *mem = aligned_alloc(64, MEM_BYTES);
	double wall, tr_card, tr_bus, tr_host;

	CHECK(mem != NULL);
	if (!mem)
		return;
	CHECK(sim_profile_find("sdhc-c10-16g") != NULL);
	p = *sim_profile_find("sdhc-c10-16g");
	memset(&p.write_next, 0, sizeof(p.write_next));
	p.write_next.min_ns = 600000; /* 0.6 ms per block: 4.9 s for 4 MiB */
	p.cache_blocks = 0;
	CHECK_EQ_I(simh_start_p(&s, &p, NULL), 0);
	CHECK_EQ_U(sim_get_config()->tick_ns, 1);
	CHECK(timer_wrap_ns() < 4400000000ull); /* 2^32 ticks of 1 ns */
	simh_config_area(&area, 1u << 16, 1u << 16);
	write_guard_init(&guard, &s.card, &area, true);
	host_console_hook = quiet;
	wl_ctx_init(&c, &guard, mem, MEM_BYTES, true, false, 0x1234, 42);
	wl_begin(&c, &m, "test", "long-write-4m", "long write", true, WL_MULTI_AUTO12, BLOCKS, 0);
	sim_wire_totals(&w0);
	CHECK_EQ_I(wl_do(&c, &m, &op), 0);
	sim_wire_totals(&w1);
	wl_end(&c, &m);
	host_console_hook = NULL;
	sim_wire_diff(&w1, &w0, &w);
	wall = (double)(w.t_to - w.t_from);
	tr_card = 100.0 * (double)sim_wire_card_ns(&w) / wall;
	tr_bus = 100.0 * (double)sim_wire_bus_ns(&w) / wall;
	tr_host = 100.0 * (double)sim_wire_host_ns(&w) / wall;
	printf("  4 MiB write: %.3f s on the wires; phases %.3f s, wall %.3f s; measured card %.1f "
	       "bus %.1f host %.1f, truth %.1f %.1f %.1f\n", wall / 1e9,
	       (double)(m.acc.cmd_ns + m.acc.access_ns + m.acc.data_ns + m.acc.busy_ns) / 1e9,
	       (double)m.split.wall_ns / 1e9, m.split.card_pct, m.split.bus_pct,
	       m.split.host_pct, tr_card, tr_bus, tr_host);
	CHECK(wall > 4.5e9);
	/* the request's phases add up to the window, within 1 ms */
	CHECK(fabs((double)m.split.wall_ns - wall) < 1e6);
	CHECK(fabs(m.split.card_pct - tr_card) <= 5.0);
	CHECK(fabs(m.split.bus_pct - tr_bus) <= 5.0);
	CHECK(fabs(m.split.host_pct - tr_host) <= 5.0);
	CHECK_EQ_U(sim_violation_count(), 0);
	free(mem);
}

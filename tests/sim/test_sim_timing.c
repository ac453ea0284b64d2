/*
 * test_sim_timing.c - the drivers' phase timestamps (struct sd_req_times)
 * against the SD bus framing and against the simulator's ground truth.
 *
 *  - Instantaneous card (no access latency, no busy, N_CR = 2): the time
 *    between two read blocks becoming ready is exactly one block frame
 *    plus N_AC's minimum of 2 clocks, 1042 + 2 SD clocks on a 4-bit bus
 *    and 4114 + 2 on a 1-bit bus (SD Physical Layer §4.5: start bit, 512
 *    bytes, CRC16 per line, end bit; §4.12: N_AC >= 2), at the clock the
 *    driver actually programmed; the measured data phase equals the
 *    formula to within one timer tick.
 *  - Card with a fixed 800 us read access latency: the measured access
 *    phase is 800 us rounded up to the next SD clock edge (+ the frame,
 *    - the response overlap), to one tick.
 *  - Every record of the ground truth splits its interval exactly, and
 *    the driver's measured request time matches the truth.
 *
 * Expected values are computed here from the spec figures, not taken from
 * the simulator's own helpers.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/sd/sd.h"
#include "drivers/timer.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define NBLK 32

static uint8_t buf[NBLK * 512];
static uint32_t rdy[NBLK], done[NBLK];

/* n SD clocks in ns at hz, as a double (the test's own arithmetic). */
static double clocks_ns(double n, uint32_t hz)
{
	return n * 1e9 / (double)hz;
}

static double ticks_ns(uint32_t ticks)
{
	return (double)timer_ticks_to_ns(ticks);
}

static uint64_t wire_sum(const struct sim_truth *t)
{
	uint64_t sum = 0;
	unsigned k;

	for (k = 0; k < SIM_W_NCAT; k++)
		sum += t->wire_ns[k];
	return sum;
}

/* Read NBLK blocks and compare block spacing and the first-block phase
 * with the framing formula. frame_clocks: 1042 or 4114; the pitch adds
 * N_AC's 2 clocks. */
static void framing_read(struct simh *s, unsigned frame_clocks, double tol_ns)
{
	struct sd_req_times t;
	uint32_t hz = s->card.clock_hz;
	double frame = clocks_ns(frame_clocks + 2, hz);
	double tick = timer_get_info()->resolution_ns;
	double spacing, first;
	unsigned k;

	memset(&t, 0, sizeof(t));
	t.blk_ready = rdy;
	t.blk_done = done;
	CHECK_EQ_I(sd_read_blocks(&s->card, 64, NBLK, buf, SD_STOP_AUTO12, &t), 0);
	CHECK_EQ_U(sim_sd_clock_hz(), hz);
	/* Data phase between the first and the last block: NBLK-1 frames. */
	spacing = ticks_ns(rdy[NBLK - 1] - rdy[0]);
	CHECK_NEAR(spacing, (NBLK - 1) * frame, tol_ns + tick);
	for (k = 1; k < NBLK; k++)
		CHECK_NEAR(ticks_ns(rdy[k] - rdy[k - 1]), frame, tol_ns + tick);
	/* The per-block truth: back-to-back frames, and the driver saw each
	 * block ready when it had crossed the bus. */
	{
		const struct sim_truth *tr = sim_truth_find_last(18);
		struct sim_block_truth b0, b;

		CHECK(tr && sim_truth_block(tr, 0, &b0) == 0);
		for (k = 1; tr && k < NBLK; k++) {
			CHECK_EQ_I(sim_truth_block(tr, k, &b), 0);
			CHECK_NEAR((double)(b.bus_end_ns - b0.bus_end_ns),
				   k * frame, k * 0.5 + 1);
			CHECK(b.cpu_done_ns > b.bus_end_ns);
			CHECK_NEAR(ticks_ns(rdy[k] - rdy[0]),
				   (double)(b.bus_end_ns - b0.bus_end_ns),
				   tol_ns + tick);
		}
		CHECK(tr && sim_truth_block(tr, NBLK, &b) == -1);
	}
	/* First block: N_AC = 2 clocks from the command's end bit, while the
	 * response (N_CR 2 + 48 clocks) still runs on the CMD line. */
	first = ticks_ns(t.t_first_data - t.t_cmd_done);
	CHECK_NEAR(first, frame - clocks_ns(2 + 48, hz), tol_ns + tick);
	/* Command phase: 48 + N_CR + 48 clocks, plus the host's own steps
	 * between the ARG1 write and the command register write. */
	printf("  %u-bit %.3f MHz: frame %.1f ns, measured spacing %.1f ns/block, "
	       "first block %.1f ns after the response\n", s->card.width,
	       hz / 1e6, frame, spacing / (NBLK - 1), first);
}

TEST(instant_card_read_framing)
{
	struct simh s;

	CHECK_EQ_I(simh_start(&s, "instant-4g", NULL), 0);
	if (s.init_ret)
		return;
	CHECK_EQ_U(s.card.width, 4);
	CHECK_EQ_U(s.card.clock_hz, 250000000u / 6); /* HS: 250 MHz / (2*3) */
	framing_read(&s, 1042, 0);
	/* 1-bit bus. */
	CHECK_EQ_I(sd_set_bus(&s.card, 0, 1), 0);
	CHECK_EQ_U(sim_bus_width(), 1);
	framing_read(&s, 4114, 0);
	/* Back to 4 bits at 25 MHz (N = 5). */
	CHECK_EQ_I(sd_set_bus(&s.card, 25000000u, 4), 0);
	CHECK_EQ_U(s.card.clock_hz, 25000000u);
	framing_read(&s, 1042, 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* A timer with 1 us ticks (like the system timer fallback): still within
 * one tick. */
TEST(instant_card_framing_coarse_timer)
{
	struct simh s;
	struct sim_config c;

	sim_config_default(&c);
	c.tick_ns = 1000;
	CHECK_EQ_I(simh_start(&s, "instant-4g", &c), 0);
	if (s.init_ret)
		return;
	CHECK_EQ_U(timer_get_info()->resolution_ns, 1000);
	framing_read(&s, 1042, 0);
}

/* Without the poll fast-forward the CPU really spins: the detection delay
 * is up to one poll loop (one INTERRUPT read + one timer read). */
TEST(instant_card_framing_real_polling)
{
	struct simh s;
	struct sim_config c;

	sim_config_default(&c);
	c.fast_forward = false;
	CHECK_EQ_I(simh_start(&s, "instant-4g", &c), 0);
	if (s.init_ret)
		return;
	framing_read(&s, 1042, c.mmio_read_ns + c.timer_read_ns);
}

TEST(instant_card_write_framing)
{
	struct simh s;
	struct sd_req_times t;
	const struct sim_truth *tr;
	double frame;

	CHECK_EQ_I(simh_start(&s, "instant-4g", NULL), 0);
	if (s.init_ret)
		return;
	memset(&t, 0, sizeof(t));
	memset(buf, 0x3c, sizeof(buf));
	CHECK_EQ_I(sd_write_blocks(&s.card, 64, NBLK, buf, SD_STOP_AUTO12, &t), 0);
	tr = sim_truth_find_last(25);
	CHECK(tr != NULL);
	if (!tr)
		return;
	/* Write pitch: N_WR 2 + 1042 + N_CRC 2 + CRC status token 5 clocks;
	 * bits move during 1042 + 5 of them. */
	frame = clocks_ns(2 + 1042 + 2 + 5, s.card.clock_hz);
	CHECK(tr->flags & SIM_T_SPLIT);
	CHECK_NEAR((double)tr->wire_ns[SIM_W_DATA], NBLK * clocks_ns(1042 + 5, s.card.clock_hz),
		   NBLK * 0.5);
	CHECK_EQ_U(tr->wire_ns[SIM_W_BUSY], 0);
	CHECK_EQ_U(tr->wire_ns[SIM_W_CTRL_GAP], 0);
	CHECK_EQ_U(tr->blocks, NBLK);
	/* Blocks go back to back: the CPU fills faster than the bus drains.
	 * From the first block's start bit to the last token's end bit. */
	CHECK_NEAR((double)(tr->t_last_bus_ns - tr->t_first_ready_ns),
		   NBLK * frame - clocks_ns(2, s.card.clock_hz), NBLK * 0.5);
	/* The driver's request time equals the truth's, up to the host
	 * steps around the command write and the final status read. */
	CHECK_NEAR(ticks_ns(t.t_end - t.t_issue),
		   (double)(tr->t_end_ns - tr->t_issue_ns), 300);
	printf("  write: pitch %.1f ns, truth bits %llu ns for %u blocks, measured "
	       "request %.0f ns, truth %llu ns\n", frame,
	       (unsigned long long)tr->wire_ns[SIM_W_DATA], NBLK,
	       ticks_ns(t.t_end - t.t_issue),
	       (unsigned long long)(tr->t_end_ns - tr->t_issue_ns));
}

TEST(fixed_800us_access_is_measured)
{
	struct simh s;
	struct sd_req_times t;
	const struct sim_truth *tr;
	double frame, access, acc_ns, period, lat;
	unsigned k;

	CHECK_EQ_I(simh_start(&s, "fixed-800us-8g", NULL), 0);
	if (s.init_ret)
		return;
	frame = clocks_ns(1042, s.card.clock_hz);
	/* The card's start bit goes out on the first clock edge after its
	 * 800 us (the command's end bit is on an edge). */
	period = clocks_ns(1, s.card.clock_hz);
	lat = period * (double)(uint64_t)((800000.0 + period - 1e-6) / period);
	memset(&t, 0, sizeof(t));
	CHECK_EQ_I(sd_read_single(&s.card, 5000, buf, &t), 0);
	tr = sim_truth_find_last(17);
	CHECK(tr && tr->card_access_ns == 800000);
	/* The access phase from the driver's timestamps: command complete
	 * to first block ready = latency + frame - response overlap. */
	acc_ns = ticks_ns(t.t_first_data - t.t_cmd_done);
	access = acc_ns - frame + clocks_ns(2 + 48, s.card.clock_hz);
	CHECK_NEAR(access, lat, timer_get_info()->resolution_ns + 0.5);
	printf("  single read: measured access phase %.0f ns -> card latency %.1f ns "
	       "(truth %llu ns)\n", acc_ns, access,
	       tr ? (unsigned long long)tr->card_access_ns : 0ull);
	CHECK(tr && wire_sum(tr) == tr->t_end_ns - tr->t_issue_ns);

	/* Multi-block: every block waits 800 us again (read_next). */
	memset(&t, 0, sizeof(t));
	t.blk_ready = rdy;
	CHECK_EQ_I(sd_read_blocks(&s.card, 5000, 8, buf, SD_STOP_AUTO12, &t), 0);
	for (k = 1; k < 8; k++)
		CHECK_NEAR(ticks_ns(rdy[k] - rdy[k - 1]), lat + frame,
			   timer_get_info()->resolution_ns + 0.5);
}

/* The truth split adds up, and matches the driver's measurement, over a
 * mixed workload on realistic cards. */
TEST(truth_split_is_exact)
{
	static const char *const prof[] = { "sdhc-c10-16g", "sdxc-a2-64g",
					    "sdhc-gc-stalls-16g", "sdsc-v2-2g" };
	unsigned p, i, n, checked = 0;

	for (p = 0; p < sizeof(prof) / sizeof(prof[0]); p++) {
		struct simh s;

		CHECK_EQ_I(simh_start(&s, prof[p], NULL), 0);
		if (s.init_ret)
			continue;
		for (i = 0; i < 40; i++) {
			struct sd_req_times t;
			const struct sim_truth *tr;
			uint32_t cnt = 1 + (i * 7) % 16;
			int ret;

			memset(&t, 0, sizeof(t));
			if (i % 3 == 0)
				ret = sd_write_blocks(&s.card, 100 + i * 20, cnt, buf,
						      SD_STOP_AUTO12, &t);
			else
				ret = sd_read_blocks(&s.card, 100 + i * 20, cnt, buf,
						     SD_STOP_AUTO12, &t);
			CHECK_EQ_I(ret, 0);
			tr = sim_truth_find_last(cnt > 1 ? (i % 3 ? 18 : 25) :
						 (i % 3 ? 17 : 24));
			if (!tr)
				continue;
			CHECK_EQ_U(tr->flags & SIM_T_OPEN, 0);
			CHECK(tr->flags & SIM_T_SPLIT);
			CHECK_EQ_U(wire_sum(tr), tr->t_end_ns - tr->t_issue_ns);
			CHECK_NEAR(ticks_ns(t.t_end - t.t_issue),
				   (double)(tr->t_end_ns - tr->t_issue_ns), 300);
			checked++;
		}
		for (n = 0; n < sim_truth_count(); n++) {
			const struct sim_truth *tr = sim_truth_get(n);

			if (!tr || (tr->flags & (SIM_T_OPEN | SIM_T_ABORTED)))
				continue;
			CHECK_EQ_U(wire_sum(tr), tr->t_end_ns - tr->t_issue_ns);
		}
	}
	CHECK(checked >= 150);
}

/* The workload sum of the truth equals the sum of the drivers' request
 * times over the same requests (within the per-request host steps). */
TEST(truth_sum_over_a_workload)
{
	struct simh s;
	struct sim_truth_sum sum;
	unsigned from, i;
	double measured = 0;

	CHECK_EQ_I(simh_start(&s, "sdhc-a1-32g", NULL), 0);
	if (s.init_ret)
		return;
	from = sim_truth_count();
	for (i = 0; i < 50; i++) {
		struct sd_req_times t;

		memset(&t, 0, sizeof(t));
		CHECK_EQ_I(sd_read_blocks(&s.card, 3000 + i * 97, 8, buf,
					  SD_STOP_AUTO12, &t), 0);
		measured += ticks_ns(t.t_end - t.t_issue);
	}
	sim_truth_sum(from, sim_truth_count(), &sum);
	CHECK_EQ_U(sum.records, 50);
	CHECK_EQ_U(sum.blocks, 400);
	{
		uint64_t all = 0;
		unsigned k;

		for (k = 0; k < SIM_W_NCAT; k++)
			all += sum.wire_ns[k];
		CHECK_EQ_U(all, sum.total_ns);
	}
	CHECK_NEAR(measured, (double)sum.total_ns, 50 * 300.0);
	CHECK_EQ_U(sum.wire_ns[SIM_W_DATA], 400 * (uint64_t)(1042 * 24));
	printf("  50 x 4 KiB reads: truth %.1f us/request = cmd/rsp bits %.1f + data bits %.1f "
	       "+ gaps %.1f + card %.1f + CPU %.1f + other host %.1f; measured %.1f us\n",
	       sum.total_ns / 50e3, sum.wire_ns[SIM_W_CMD] / 50e3,
	       sum.wire_ns[SIM_W_DATA] / 50e3,
	       (sum.wire_ns[SIM_W_GAP] + sum.wire_ns[SIM_W_CTRL_GAP]) / 50e3,
	       (sum.wire_ns[SIM_W_CARD] + sum.wire_ns[SIM_W_BUSY]) / 50e3,
	       sum.wire_ns[SIM_W_HOST_CPU] / 50e3,
	       (sum.wire_ns[SIM_W_HOST_CTRL] + sum.wire_ns[SIM_W_HOST_SW]) / 50e3,
	       measured / 50e3);
}

/* The small-cache card slows down once its 1 MiB cache is full: the
 * truth shows it and the drivers' own request times show it too. */
TEST(write_cache_exhaustion_shows)
{
	static uint8_t big[64 * 512];
	struct simh s;
	uint64_t first = 0, last = 0;
	unsigned i;

	CHECK_EQ_I(simh_start(&s, "sdhc-small-cache-8g", NULL), 0);
	if (s.init_ret)
		return;
	for (i = 0; i < 64; i++) { /* 64 x 32 KiB = 2 MiB */
		struct sd_req_times t;
		const struct sim_truth *tr;

		memset(&t, 0, sizeof(t));
		CHECK_EQ_I(sd_write_blocks(&s.card, 4096 + i * 64, 64, big,
					   SD_STOP_AUTO12, &t), 0);
		tr = sim_truth_find_last(25);
		if (i < 8 && tr)
			first += tr->wire_ns[SIM_W_BUSY];
		if (i >= 56 && tr)
			last += tr->wire_ns[SIM_W_BUSY];
	}
	printf("  busy per 32 KiB write: first 8 %.1f us, last 8 %.1f us\n",
	       first / 8e3, last / 8e3);
	CHECK(last > 20 * first);
}

/* GC stalls: rare, long, and inside the drivers' busy bound. */
TEST(gc_stalls_are_rare_and_long)
{
	static uint8_t b[512];
	struct simh s;
	unsigned i, stalls = 0;
	uint64_t worst = 0;

	CHECK_EQ_I(simh_start(&s, "sdhc-gc-stalls-16g", NULL), 0);
	if (s.init_ret)
		return;
	for (i = 0; i < 400; i++) {
		const struct sim_truth *tr;

		CHECK_EQ_I(sd_write_single(&s.card, 777 + i * 8, b, NULL), 0);
		tr = sim_truth_find_last(24);
		if (tr && tr->wire_ns[SIM_W_BUSY] > 100000000ull)
			stalls++;
		if (tr && tr->wire_ns[SIM_W_BUSY] > worst)
			worst = tr->wire_ns[SIM_W_BUSY];
	}
	printf("  400 single writes: %u stalls > 100 ms, worst busy %.1f ms\n",
	       stalls, worst / 1e6);
	CHECK(stalls >= 2 && stalls <= 30);
	CHECK(worst <= 601000000ull);
}

/* The CPU time the driver measures for moving data (host_ticks) is the
 * data-port time of the truth plus, per block, the interrupt clear and
 * the timer reads around the copy. */
TEST(host_time_matches_truth)
{
	struct simh s;
	struct sd_req_times t;
	const struct sim_truth *tr;
	const struct sim_config *c;
	double per_block_extra;

	CHECK_EQ_I(simh_start(&s, "sdhc-c10-16g", NULL), 0);
	if (s.init_ret)
		return;
	c = sim_get_config();
	memset(&t, 0, sizeof(t));
	CHECK_EQ_I(sd_read_blocks(&s.card, 2000, 16, buf, SD_STOP_AUTO12, &t), 0);
	tr = sim_truth_find_last(18);
	CHECK(tr != NULL);
	if (!tr)
		return;
	CHECK_EQ_U(tr->host_port_ns, 16 * 128 * (uint64_t)c->data_read_ns);
	/* t1 - t0 spans: the INTERRUPT clear write, the 128 port reads and
	 * the second timer read. */
	per_block_extra = c->mmio_write_ns + c->timer_read_ns;
	CHECK_NEAR(ticks_ns(t.host_ticks),
		   (double)tr->host_port_ns + 16 * per_block_extra, 1.0);
	printf("  16-block read: driver host time %.0f ns, truth data port %llu ns "
	       "(+%.0f ns per block of clear/timer)\n", ticks_ns(t.host_ticks),
	       (unsigned long long)tr->host_port_ns, per_block_extra);
}

/* A card with a one-page read buffer: sequential CMD17s within a 16 KiB
 * page are fast, the first of each page is not; a write to the page
 * drops the buffer. */
TEST(read_buffer_locality)
{
	static uint8_t b[512];
	struct simh s;
	unsigned i, hits = 0, misses = 0;

	CHECK_EQ_I(simh_start(&s, "sdhc-readbuf-16g", NULL), 0);
	if (s.init_ret)
		return;
	for (i = 0; i < 64; i++) {
		const struct sim_truth *tr;

		CHECK_EQ_I(sd_read_single(&s.card, 6400 + i, b, NULL), 0);
		tr = sim_truth_find_last(17);
		if (tr && tr->card_access_ns == 25000)
			hits++;
		else if (tr && tr->card_access_ns == 300000)
			misses++;
	}
	CHECK_EQ_U(misses, 2); /* 64 blocks = 2 pages of 32 */
	CHECK_EQ_U(hits, 62);
	CHECK_EQ_I(sd_write_single(&s.card, 6400 + 63, b, NULL), 0);
	CHECK_EQ_I(sd_read_single(&s.card, 6400 + 62, b, NULL), 0);
	CHECK_EQ_U(sim_truth_find_last(17)->card_access_ns, 300000);
}

/* A slow CPU (300 ns per data-port read: 38.4 us per block against a
 * 25 us frame) makes reads host-bound: the bus waits for the buffer to be
 * drained, and the truth says so. */
TEST(slow_host_is_host_bound)
{
	static uint8_t big[64 * 512];
	struct simh s;
	struct sim_config c;
	struct sd_req_times t;
	const struct sim_truth *tr;

	sim_config_default(&c);
	c.data_read_ns = 300;
	CHECK_EQ_I(simh_start(&s, "instant-4g", &c), 0);
	if (s.init_ret)
		return;
	memset(&t, 0, sizeof(t));
	CHECK_EQ_I(sd_read_blocks(&s.card, 0, 64, big, SD_STOP_AUTO12, &t), 0);
	tr = sim_truth_find_last(18);
	CHECK(tr != NULL);
	if (!tr)
		return;
	CHECK(tr->wire_ns[SIM_W_HOST_CPU] > tr->wire_ns[SIM_W_DATA] / 3);
	CHECK_EQ_U(tr->host_port_ns, 64ull * 128 * 300);
	/* Once the 2-block buffer is full the bus runs at the CPU's pace:
	 * blocks finish one CPU block-copy apart. */
	{
		struct sim_block_truth b1, b2;

		CHECK_EQ_I(sim_truth_block(tr, 40, &b1), 0);
		CHECK_EQ_I(sim_truth_block(tr, 41, &b2), 0);
		/* (the restarted block waits for the next clock edge) */
		CHECK_NEAR((double)(b2.bus_end_ns - b1.bus_end_ns),
			   (double)(b2.cpu_done_ns - b1.cpu_done_ns), 24.0);
		CHECK((b2.bus_end_ns - b1.bus_end_ns) > 38400);
	}
	printf("  slow CPU: bus %llu ns, host wait %llu ns, port %llu ns for 64 blocks\n",
	       (unsigned long long)tr->wire_ns[SIM_W_DATA],
	       (unsigned long long)tr->wire_ns[SIM_W_HOST_CPU],
	       (unsigned long long)tr->host_port_ns);
}

/* The wire truth accounts for every nanosecond once, and so does its
 * critical path; nothing is described behind the horizon; a record's
 * split equals the window of its interval. */
TEST(wire_truth_accounts_for_every_ns)
{
	static const char *const hosts[] = { "sim", "pi1", "pi4", "test-gaps" };
	unsigned h, i, k;

	for (h = 0; h < sizeof(hosts) / sizeof(hosts[0]); h++) {
		struct simh s;
		struct sim_config c;
		struct sim_wire_sum w, w0, d;
		uint64_t all = 0, crit = 0;
		char err[200];

		sim_config_default(&c);
		CHECK_EQ_I(sim_host_load(hosts[h], &c, err, sizeof(err)), 0);
		CHECK_EQ_I(simh_start(&s, "sdhc-c10-16g", &c), 0);
		if (s.init_ret)
			continue;
		sim_wire_totals(&w0);
		for (i = 0; i < 30; i++) {
			struct sd_req_times t;
			uint32_t cnt = 1 + (i * 5) % 24;

			memset(&t, 0, sizeof(t));
			if (i % 4 == 1)
				CHECK_EQ_I(sd_write_blocks(&s.card, 500 + i * 40, cnt, buf,
							   i % 8 == 1 ? SD_STOP_NONE : SD_STOP_AUTO12,
							   &t), 0);
			else
				CHECK_EQ_I(sd_read_blocks(&s.card, 500 + i * 40, cnt, buf,
							  i % 3 ? SD_STOP_AUTO12 : SD_STOP_NONE, &t), 0);
		}
		sim_wire_totals(&w);
		for (k = 0; k < SIM_W_NCAT; k++) {
			all += w.ns[k];
			crit += w.wait_ns[k];
		}
		CHECK_EQ_U(w.t_to, sim_now_ns());
		CHECK_EQ_U(all, w.t_to);
		CHECK_EQ_U(crit, w.t_to);
		CHECK_EQ_U(sim_wire_late_count(), 0);
		/* A record's split is the window of its interval. */
		{
			const struct sim_truth *tr = sim_truth_find_last(18);
			struct sim_wire_sum win;

			CHECK(tr && (tr->flags & SIM_T_SPLIT));
			if (tr) {
				CHECK_EQ_I(sim_wire_window(tr->t_issue_ns, tr->t_end_ns, &win), 0);
				for (k = 0; k < SIM_W_NCAT; k++)
					CHECK_EQ_U(win.ns[k], tr->wire_ns[k]);
			}
		}
		sim_wire_diff(&w, &w0, &d);
		{
			double cc, cb, ch, span = (double)(d.t_to - d.t_from);

			sim_wire_critical(&d, &cc, &cb, &ch);
			printf("  host %-9s: 30 requests in %.3f ms: wires card %.1f%% bus %.1f%% host "
			       "%.1f%%; critical path card %.1f%% bus %.1f%% host %.1f%%\n", hosts[h],
			       span / 1e6, 100.0 * sim_wire_card_ns(&d) / span,
			       100.0 * sim_wire_bus_ns(&d) / span, 100.0 * sim_wire_host_ns(&d) / span,
			       cc, cb, ch);
		}
	}
}

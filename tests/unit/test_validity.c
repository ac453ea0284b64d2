/*
 * test_validity.c - the checks that decide whether a workload's split is
 * a diagnosis (bench/engine/validity.c): one test per reason, each with
 * a workload that passes beside the one that fails, and the report's
 * "no diagnosis" line and records (bench/engine/workload_report.c).
 * The figures are made up from the SD framing worked out by hand here
 * (4-bit, 512 B: 1042 clocks a frame, 50 MHz: 20.84 us), not from the
 * bus model's functions.
 */
#include <string.h>

#include "bench/engine/busmodel.h"
#include "bench/engine/validity.h"
#include "bench/engine/workload.h"
#include "bench/engine/workload_report.h"
#include "lib/host/host_console.h"
#include "tests/unit/check.h"

#define CLK 50000000u
#define FRAME_NS 20840u /* 1042 clocks at 50 MHz */

/* n 64 KiB reads with the given phases (ns per request) at 50 MHz 4-bit. */
static void reads(struct phase_acc *a, uint32_t n, uint64_t access, uint64_t data,
		  uint64_t host, uint64_t gap)
{
	struct phase_ns p = { 20000, access, data, host, 30000, 0, 0 };
	uint32_t i;

	phase_acc_init(a);
	for (i = 0; i < n; i++)
		phase_acc_add_ns(a, &p, 128, 512, gap);
}

static bool wire_instant; /* the probe's read-wire verdict for check() */
static double cal_clocks;  /* the calibration's clock-paced clocks per block */
static uint32_t idle_max;  /* the controller's own idle clocks at most */

static void check(const struct phase_acc *a, uint64_t elapsed, bool dma, bool emulated,
		  struct phase_split *s, struct wl_validity *v)
{
	struct wl_validity_in in = { 0 };

	in.wire_instant = wire_instant;
	in.idle_clk_max = idle_max;

	phase_split_flags(a, 4, CLK, BUS_MULTI | BUS_STOP, cal_clocks, s);
	phase_split_idle(s, idle_max);
	in.split = s;
	in.rd = a;
	in.elapsed_ns = elapsed;
	in.ops = (uint32_t)a->ops;
	in.timer_res_ns = 1000;
	in.dma_moved = dma;
	in.emulated = emulated;
	wl_validity_check(&in, v);
}

static uint64_t wall(const struct phase_acc *a)
{
	return a->total_ns + a->gap_ns;
}

TEST(a_card_bound_read_within_every_bound_is_valid)
{
	struct phase_acc a;
	struct phase_split s;
	struct wl_validity v;

	/* 128 frames = 2.67 ms of bus in 4 ms of data phase, 500 us access */
	reads(&a, 8, 500000, 4000000, 2000000, 10000);
	check(&a, wall(&a), false, false, &s, &v);
	CHECK(v.valid);
	CHECK_EQ_U(v.reasons, 0);
	CHECK_STR(v.why, "");
}

TEST(faster_than_the_bus_ceiling_is_no_diagnosis)
{
	struct phase_acc a;
	struct phase_split s;
	struct wl_validity v;

	/* 64 KiB in 1.1 ms: 59 MB/s where the 50 MHz 4-bit bus carries 24.5 */
	reads(&a, 8, 500000, 500000, 400000, 10000);
	check(&a, wall(&a), false, false, &s, &v);
	CHECK(s.ceiling_pct > 100.0);
	CHECK(!v.valid);
	CHECK_EQ_U(v.reason, WL_INVALID_OVER_CEILING);
	CHECK(strstr(v.why, "of the 50 MHz 4-bit bus ceiling, faster than the bus can carry") != NULL);
	CHECK(strstr(v.why, "QEMU") == NULL);
	check(&a, wall(&a), false, true, &s, &v);
	CHECK(strstr(v.why, "QEMU's card ignores the clock") != NULL);
	CHECK_STR(wl_invalid_name(v.reason), "over_ceiling");
}

TEST(a_dma_transfer_inside_the_cpus_own_work_is_no_diagnosis)
{
	struct phase_acc a;
	struct phase_split s;
	struct wl_validity v;

	/* The start write took the whole access phase (QEMU copies there):
	 * 2 us of 4.5 ms were outside the CPU's work, the frames need 2.67 ms. */
	reads(&a, 8, 4400000, 100000, 4498000, 10000);
	check(&a, wall(&a), true, true, &s, &v);
	CHECK(!v.valid);
	CHECK(v.reasons & (1u << WL_INVALID_DMA_IN_WRITE));
	CHECK_EQ_U(v.reason, WL_INVALID_DMA_IN_WRITE);
	CHECK(strstr(v.why, "QEMU copies inside the start register write") != NULL);
	/* the same figures by PIO: a CPU that moved every word was busy */
	check(&a, wall(&a), false, true, &s, &v);
	CHECK(v.valid);
	/* a real engine: the CPU started it and saw its end, 30 us */
	reads(&a, 8, 100000, 4400000, 30000, 10000);
	check(&a, wall(&a), true, false, &s, &v);
	CHECK(v.valid);
	CHECK(FRAME_NS * 128 < 4500000);
	/* the same figures under QEMU: its copy ran in the start write, so
	 * the window outside the CPU's work was the host's scheduling */
	check(&a, wall(&a), true, true, &s, &v);
	CHECK(!v.valid);
	CHECK_EQ_U(v.reason, WL_INVALID_DMA_IN_WRITE);
	CHECK(strstr(v.why, "QEMU copies inside the start register write") != NULL);
}

TEST(phases_that_do_not_cover_the_measured_time_are_no_diagnosis)
{
	struct phase_acc a;
	struct phase_split s;
	struct wl_validity v;
	struct wl_validity_in in = { 0 };

	reads(&a, 8, 500000, 4000000, 2000000, 10000);
	/* within 5%: the engine's bookkeeping outside the phases */
	check(&a, wall(&a) * 104 / 100, false, false, &s, &v);
	CHECK(v.valid);
	/* one operation's 4.29 s lost to a wrapped 32-bit clock */
	check(&a, wall(&a) + 4294967296ull, false, false, &s, &v);
	CHECK(!v.valid);
	CHECK_EQ_U(v.reason, WL_INVALID_PHASES_SUM);
	CHECK(strstr(v.why, "the phases do not add up") != NULL);
	/* failed operations are not in the phases: no judgement then */
	in.split = &s;
	in.rd = &a;
	in.elapsed_ns = wall(&a) * 2;
	in.ops = 8;
	in.errors = 1;
	wl_validity_check(&in, &v);
	CHECK(v.valid);
}

TEST(shares_out_of_range_are_no_diagnosis)
{
	struct phase_acc a;
	struct phase_split s;
	struct wl_validity v;
	struct wl_validity_in in = { 0 };

	reads(&a, 8, 500000, 4000000, 2000000, 10000);
	phase_split_flags(&a, 4, CLK, BUS_MULTI | BUS_STOP, 0.0, &s);
	in.split = &s;
	in.rd = &a;
	in.elapsed_ns = wall(&a);
	in.ops = 8;
	s.card_pct -= 3.0;
	s.host_pct += 3.0;
	wl_validity_check(&in, &v);
	CHECK(v.valid);
	s.host_pct += s.card_pct + 2.0; /* still sums to 100 */
	s.card_pct = -2.0;
	wl_validity_check(&in, &v);
	CHECK(!v.valid);
	CHECK_EQ_U(v.reason, WL_INVALID_SHARES);
	phase_split_flags(&a, 4, CLK, BUS_MULTI | BUS_STOP, 0.0, &s);
	s.card_pct -= 5.0; /* sums to 95, each share in range */
	wl_validity_check(&in, &v);
	CHECK(!v.valid);
	CHECK_EQ_U(v.reason, WL_INVALID_SHARES);
}

TEST(blocks_whose_wait_needed_an_unconfirmed_look_are_no_diagnosis)
{
	struct phase_acc a;
	struct phase_split s;
	struct wl_validity v;

	reads(&a, 8, 500000, 4000000, 2000000, 10000);
	check(&a, wall(&a), false, false, &s, &v);
	CHECK(v.valid);
	/* one read block of the 1024 whose wait the driver could not decide
	 * (sd_host.h undecided_blocks: the Block Count look unconfirmed) */
	a.undecided_blocks = 1;
	check(&a, wall(&a), false, false, &s, &v);
	CHECK(!v.valid);
	CHECK_EQ_U(v.reason, WL_INVALID_LOOK);
	CHECK_STR(wl_invalid_name(v.reason), "look_unconfirmed");
	CHECK(strstr(v.why, "unknown on 1 of 1024 blocks") != NULL);
}

/* A CPU whose pipeline work is about the frames' (within 10%): any
 * block's frame may have hidden behind it, and the verdict with none
 * hidden (mixed bus/card) is not the one with all hidden (the host's):
 * undecided. The same reads with a CPU well under the frames are not. */
TEST(a_verdict_that_differs_within_the_critical_paths_bounds_is_no_diagnosis)
{
	struct phase_acc a;
	struct phase_split s;
	struct wl_validity v;

	reads(&a, 8, 500000, 4000000, 2700000, 10000);
	check(&a, wall(&a), false, false, &s, &v);
	CHECK(!v.valid);
	CHECK_EQ_U(v.reason, WL_INVALID_UNDECIDED);
	CHECK_STR(wl_invalid_name(v.reason), "critical_path_undecided");
	CHECK(strstr(v.why, "the critical path is undecided between ") != NULL);
	CHECK(s.hide_hi_bus_pct > s.hide_lo_bus_pct);
	reads(&a, 8, 500000, 4000000, 1000000, 10000);
	check(&a, wall(&a), false, false, &s, &v);
	CHECK(v.valid);
	CHECK(!s.undecided);
	/* The same undecided reads where the probe found the wire instant
	 * (QEMU): no frame took time, so none hid; the verdict stands. */
	reads(&a, 8, 500000, 4000000, 2700000, 10000);
	wire_instant = true;
	check(&a, wall(&a), false, false, &s, &v);
	wire_instant = false;
	CHECK(s.undecided);
	CHECK(v.valid);
}

/* A FIFO smaller than a block whose seams were full for long: the card's
 * part of that time lies between none and all, and half of it is more
 * than 4.5 points of the wall time. */
TEST(shares_known_only_beyond_the_promise_are_no_diagnosis)
{
	struct phase_acc a;
	struct phase_split s;
	struct wl_validity v;

	reads(&a, 8, 500000, 4000000, 500000, 10000);
	a.fifo_reqs = a.ops;
	a.seams_full = a.blocks - a.ops;
	a.seam_full_ns = 8 * 200000ull;
	check(&a, wall(&a), false, false, &s, &v);
	CHECK(v.valid);
	CHECK(s.share_unc_pct > 0.5 && s.share_unc_pct < WL_VALID_UNCERTAIN_PP);
	a.seam_full_ns = 8 * 1000000ull;
	check(&a, wall(&a), false, false, &s, &v);
	CHECK(!v.valid);
	CHECK_EQ_U(v.reason, WL_INVALID_UNCERTAIN);
	CHECK_STR(wl_invalid_name(v.reason), "split_uncertain");
	CHECK(strstr(v.why, "known to +-") != NULL);
}

/* The calibration found the bus idle 300 clocks between blocks, scaling
 * with the clock: the card's clock-paced wait, or a controller's own idle
 * clocks (docs/silicon.md ctrl-idle-clocks). 1016 waits of 6 us in a
 * 40 ms wall are about 15 points: where no authority bounds the
 * controller's idle clocks, or bounds them at 300, no diagnosis; with an
 * authority for none, or for 16 (1016 x 0.32 us, under a point), the
 * split stands. */
TEST(a_wait_that_may_be_the_controllers_own_idle_clocks_is_no_diagnosis)
{
	struct phase_acc a;
	struct phase_split s;
	struct wl_validity v;
	static const uint32_t fine[] = { 0, 16 }, not[] = { 300, 0xffff };
	unsigned i;

	reads(&a, 8, 500000, 4000000, 500000, 10000);
	cal_clocks = 300.0;
	for (i = 0; i < 2; i++) {
		idle_max = fine[i];
		check(&a, wall(&a), false, false, &s, &v);
		CHECK(s.card_clock_pct > 10.0 && s.card_clock_pct < 20.0);
		CHECK(v.valid);
	}
	for (i = 0; i < 2; i++) {
		idle_max = not[i];
		check(&a, wall(&a), false, false, &s, &v);
		CHECK(!v.valid);
		CHECK_EQ_U(v.reason, WL_INVALID_UNCERTAIN);
		CHECK(strstr(v.why, "the 300 clocks idle between blocks") != NULL);
		CHECK(strstr(v.why, i ? "no authority" : "own may be 300") != NULL);
	}
	cal_clocks = 0.0;
	idle_max = 0;
}

/* A read's driver that dated the blocks' arrivals only within intervals
 * its look could not resolve (sd_host.h stood_unc_ticks): the bus's stand
 * for the CPU, the host's line, is known to +- their sum, and beyond 4.5
 * points of the wall time the workload gets no diagnosis. */
TEST(block_arrivals_dated_loosely_are_no_diagnosis)
{
	struct phase_acc a;
	struct phase_split s;
	struct wl_validity v;

	reads(&a, 8, 500000, 4000000, 1000000, 10000);
	a.counted_blocks = a.stood_blocks = a.blocks - a.ops;
	a.stood_ns = 8 * 300000ull;
	a.stood_unc_ns = 8 * 50000ull;
	check(&a, wall(&a), false, false, &s, &v);
	CHECK(v.valid);
	CHECK(s.share_unc_pct > 0.5 && s.share_unc_pct < WL_VALID_UNCERTAIN_PP);
	a.stood_unc_ns = 8 * 250000ull;
	check(&a, wall(&a), false, false, &s, &v);
	CHECK(!v.valid);
	CHECK_EQ_U(v.reason, WL_INVALID_UNCERTAIN);
	CHECK(strstr(v.why, "arrivals") != NULL);
}

TEST(too_few_samples_are_no_diagnosis)
{
	struct phase_acc a;
	struct phase_split s;
	struct wl_validity v;
	struct wl_validity_in in = { 0 };

	phase_acc_init(&a);
	phase_split_flags(&a, 4, CLK, BUS_MULTI | BUS_STOP, 0.0, &s);
	in.split = &s;
	in.rd = &a;
	in.timer_res_ns = 1000;
	wl_validity_check(&in, &v);
	CHECK(!v.valid);
	CHECK_EQ_U(v.reason, WL_INVALID_NO_SAMPLES);
	CHECK(strstr(v.why, "no operation completed") != NULL);
	/* one 512 B read of 150 us on a 1 us timer: 150 ticks */
	{
		struct phase_ns p = { 20000, 100000, 25000, 20000, 5000, 0, 0 };

		phase_acc_add_ns(&a, &p, 1, 512, 0);
	}
	phase_split_flags(&a, 4, CLK, 0, 0.0, &s);
	in.ops = 1;
	in.elapsed_ns = wall(&a);
	wl_validity_check(&in, &v);
	CHECK(!v.valid);
	CHECK_EQ_U(v.reason, WL_INVALID_NO_SAMPLES);
	CHECK(strstr(v.why, "fewer than 200 ticks of the 1000 ns timer") != NULL);
	in.timer_res_ns = 40;
	wl_validity_check(&in, &v);
	CHECK(v.valid);
}

/* ---- what the report prints ---------------------------------------------- */

static char out[1 << 15];
static size_t outlen;

static void capture(char ch)
{
	if (outlen + 1 < sizeof(out))
		out[outlen++] = ch;
	out[outlen] = '\0';
}

TEST(the_report_says_no_diagnosis_and_the_records_carry_why)
{
	static struct wl_ctx c;
	static struct wl_meas m;
	uint32_t lat[8] = { 1100000, 1100000 };
	struct series_point pts[4];

	memset(&c, 0, sizeof(c));
	memset(&m, 0, sizeof(m));
	c.lat = lat;
	c.lat_max = 8;
	c.emulated = true;
	strcpy(m.name, "seq-read-64k");
	strcpy(m.label, "seq read 64 KiB");
	m.kind = "seq";
	m.cmd = WL_MULTI_AUTO12;
	m.xfer_blocks = 128;
	m.clock_hz = CLK;
	m.width = 4;
	series_init(&m.ser, pts, 4, 10000000ull, 0);
	reads(&m.acc, 2, 500000, 500000, 400000, 10000);
	phase_acc_init(&m.acc_w);
	m.ops = m.nreads = m.nlat = 2;
	m.bytes = 2 * 65536;
	m.start_ns = 1000;
	m.end_ns = m.start_ns + wall(&m.acc);
	wl_end(&c, &m);
	CHECK(!m.validity.valid);
	outlen = 0;
	host_console_hook = capture;
	wl_report(&c, &m);
	host_console_hook = NULL;
	CHECK(strstr(out, "no diagnosis: ") != NULL);
	CHECK(strstr(out, "bus-bound") == NULL);
	CHECK(strstr(out, "\"bottleneck\":\"none\",\"pct\":null,\"text\":\"no diagnosis: ") != NULL);
	CHECK(strstr(out, "\"valid\":false,\"why\":\"") != NULL);
	CHECK(strstr(out, "\"invalid\":[\"over_ceiling\"]") != NULL);
	CHECK(strstr(c.summary[0].verdict, "no diagnosis: ") == c.summary[0].verdict);
}

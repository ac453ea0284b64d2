/*
 * test_attribution.c - bench/engine/attribution.c on synthetic ns phases whose
 * split is computed by hand in the comments (rules: docs/attribution.md):
 * a bus-bound sequential read, the same 64 KiB read paced by a slow CPU
 * and by the bus, card-bound writes (programming busy, data stalls, a FIFO
 * running ahead), a host-bound PIO single-block read, a mixed case, a
 * bus-bound case by share, the empty accumulator, and the tick-to-phase conversion
 * across a counter wrap.
 */
#include "bench/engine/phase_ticks.h"
#include "tests/unit/check.h"
#include "bench/engine/attribution.h"
#include "drivers/timer.h"

/* The tick conversion of a 250 MHz counter; defined here so that this test
 * needs no simulator (nothing else from the timer is used). */
uint64_t timer_ticks_to_ns(uint32_t ticks)
{
	return (uint64_t)ticks * 4u;
}

uint64_t timer_wrap_ns(void)
{
	return (1ull << 32) * 4u;
}

#define TOL 1e-6 /* percent */

static void add_n(struct phase_acc *a, unsigned n, const struct phase_ns *p,
		  uint32_t blocks, uint64_t gap)
{
	while (n--)
		phase_acc_add_ns(a, p, blocks, 512, gap);
}

static const char *text(const struct phase_split *s)
{
	static char buf[160];

	phase_verdict_text(s, s->is_write, buf, sizeof(buf));
	return buf;
}

TEST(read_bound_by_bus)
{
	/* 1 MiB CMD18 + CMD12 at 50 MHz 4-bit (20 ns/clock), per request:
	 * command bus 98 clk = 1960 ns, frames 2048 * 1044 clk = 42762240 ns,
	 * CMD12 98 clk = 1960 ns in the tail. Frames (42.8 ms) >= CPU
	 * (0.4 ms): bus-paced, the CPU is hidden except one block's drain,
	 * 400000 / 2048 = 195 ns.
	 *   host: 195 + 1040 cmd + 3040 tail + 10000 gap = 14275
	 *   bus:  1960 + 42762240 + 1960                  = 42766160
	 *   card: 43300000 - 195 - 42762240               = 537565
	 *   wall: 3000 + 43300000 + 5000 + 10000          = 43318000
	 * ceiling: (48 + 2048 * 1044 + 48 + 8) clk = 42764320 ns -> 98.7218% */
	struct phase_ns p = { .cmd_ns = 3000, .access_ns = 30000, .data_ns = 43270000,
			      .host_ns = 400000, .busy_ns = 5000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 4, &p, 2048, 10000);
	CHECK_EQ_U(a.ops, 4);
	CHECK_EQ_U(a.bytes, 4ull << 20);
	CHECK_EQ_U(a.host_serial_ns, 4 * 195);
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.bus_pct, 100.0 * 42766160 / 43318000, TOL);
	CHECK_NEAR(s.card_pct, 100.0 * 537565 / 43318000, TOL);
	CHECK_NEAR(s.host_pct, 100.0 * 14275 / 43318000, TOL);
	CHECK_NEAR(s.card_pct + s.bus_pct + s.host_pct, 100.0, TOL);
	CHECK_NEAR(s.ceiling_pct, 100.0 * 42764320 / 43318000, TOL);
	CHECK_NEAR(s.bus_efficiency_pct, 100.0 * 42762240 / 43300000, TOL);
	CHECK_NEAR(s.gap_pct, 100.0 * 10000 / 43318000, TOL);
	CHECK_NEAR(s.mbs, 1048576.0 * 1e3 / 43318000, 1e-9);
	CHECK_EQ_U(s.verdict, BOTTLENECK_BUS);
	CHECK_EQ_U(s.top, BOTTLENECK_BUS);
	CHECK_STR(text(&s), "bus-bound - 98.7% of the 50 MHz 4-bit ceiling");
}

TEST(read_64k_cpu_and_card_overlap_counted_waits)
{
	/* 64 KiB CMD18 + CMD12 at 50 MHz 4-bit (frame pitch 20880 ns), CPU
	 * 30 us per block (9120 ns beyond the frame), card 15 us between
	 * blocks: per block the idle bus is max(15000, 9120) and the card
	 * came last, every block; the CPU waited 35880 - 30000 = 5880 ns for
	 * each of the 127 pipeline blocks, and the driver counted them.
	 *   data 127 * 35880 + 30000 = 4586760, pipeline 4556760
	 *   = 127 frames 2651760 (bus) + 127 * 15000 = 1905000 idle: card
	 *   host: 30000 + 1040 + 2040 + 6120 = 39200
	 *   bus:  1960 + 20880 + 2651760 + 1960 = 2676560
	 *   card: 100000 + 1905000 = 2005000;  wall 4720760
	 * The rule from the totals booked 127 * 9120 = 1158240 of it as host
	 * (the CPU's excess over the frame, in every block). */
	struct phase_ns rd = { .cmd_ns = 3000, .access_ns = 120880, .data_ns = 4586760,
			       .host_ns = 3840000, .busy_ns = 4000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 16, &rd, 128, 6120);
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.host_pct, 100.0 * (39200 + 1158240) / 4720760, TOL);
	a.counted_blocks = 16 * 127;
	a.wait_blocks = 16 * 127;
	a.wait_ns = 16 * 127 * 5880ull;
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.host_pct, 100.0 * 39200 / 4720760, TOL);
	CHECK_NEAR(s.bus_pct, 100.0 * 2676560 / 4720760, TOL);
	CHECK_NEAR(s.card_pct, 100.0 * 2005000 / 4720760, TOL);
	CHECK_NEAR(s.card_clock_pct, 0.0, 0);
	/* Half the blocks waited (the card's gap varies about the CPU's
	 * excess): the other half's idle bus, less the waits, is the CPU's. */
	a.wait_blocks = 8 * 127;
	a.wait_ns = 8 * 127 * 5880ull;
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.host_pct, 100.0 * (16 * 39200 + (16 * 1905000.0 - 8 * 127 * 5880.0) / 2) /
			       (16 * 4720760.0), 1e-6);
	/* A read's driver that measured how long the bus stood for the CPU
	 * (sd_host.h stood_ticks): that is the pipeline's host time, the
	 * rest of the idle bus the card's, whatever the counts say. */
	a.stood_blocks = 16 * 127;
	a.stood_ns = 16 * 300000ull;
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.host_pct, 100.0 * (39200 + 300000) / 4720760, TOL);
	CHECK_NEAR(s.card_pct, 100.0 * (2005000 - 300000) / 4720760, TOL);
	/* ... at most the idle bus */
	a.stood_ns = 16 * 2500000ull;
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.host_pct, 100.0 * (39200 + 1905000) / 4720760, TOL);
}

TEST(fifo_smaller_than_a_block_seams_give_the_card_its_gaps)
{
	/* 64 KiB CMD18 + CMD12 at 50 MHz 4-bit through a 16-word FIFO (a
	 * word is 8 clocks, 160 ns; the pitch 1044 clocks, 20880 ns). The
	 * CPU drains 250 ns per word, 32000 ns per block, and never waits;
	 * the card keeps the bus idle 2000 ns between blocks, hidden behind
	 * the CPU's drain of the last 16 words (4000 ns). The driver's looks:
	 * the first block's data seen with 8 words in the FIFO (N_AC, start
	 * bit and 8 words: 67 clocks, 1340 ns, after 100 us of card access);
	 * each seam 4000 ns from the last words all in to the next block's
	 * first look, which finds 10 words in: the bus carried 20 + 80
	 * clocks (2000 ns) of it and waited 2000 ns for the card.
	 *   access 101340: bus 1340, card 100000
	 *   data 128 * 32000 = 4096000: the last drain 4000 (host), the
	 *   frames 127 * 20880 + (20880 - 1340) = 2671300 (bus), the seams
	 *   127 * 2000 = 254000 (card), the rest 1166700 the FIFO full (host)
	 *   bus:  1960 + 1340 + 2671300 + 1960 = 2676560
	 *   card: 100000 + 254000 = 354000
	 *   host: 4000 + 1166700 + 6120 + 1040 + 2040 = 1179900; wall 4210460
	 * Without the looks the rule from the totals books the seams as the
	 * CPU's (it never waited) and the first frame as in the access. */
	struct phase_ns rd = { .cmd_ns = 3000, .access_ns = 101340, .data_ns = 4096000,
			       .host_ns = 4096000, .busy_ns = 4000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 16, &rd, 128, 6120);
	a.host_serial_ns = 16 * 4000;
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK(s.card_pct < 100.0 * 100000 / 4210460);
	a.fifo_reqs = 16;
	a.fifo_words = 16 * 8;
	a.seams = 16 * 127;
	a.seam_ns = 16 * 127 * 4000ull;
	a.seam_words = 16 * 127 * 10;
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.bus_pct, 100.0 * 2676560 / 4210460, TOL);
	CHECK_NEAR(s.card_pct, 100.0 * 354000 / 4210460, TOL);
	CHECK_NEAR(s.host_pct, 100.0 * 1179900 / 4210460, TOL);
	/* the CPU is slower than the frames it moves: they hide behind it */
	CHECK_NEAR(s.crit_bus_pct, 100.0 * (2676560 - 2671300) / 4210460, TOL);
	/* The same seams with the FIFO full at the second look: the bus may
	 * have waited for the CPU too, the card gets half of what is left. */
	a.seams_full = a.seams;
	a.seam_full_ns = a.seam_ns;
	a.seam_full_words = a.seam_words;
	a.seams = a.seam_ns = a.seam_words = 0;
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.card_pct, 100.0 * (100000 + 127000) / 4210460, TOL);
}

TEST(fifo_smaller_than_a_block_write_frames_in_the_data_phase)
{
	/* One 512-byte CMD24 at 50 MHz 4-bit through a 16-word FIFO, the
	 * CPU filling 300 ns per word (38400 ns): the bus takes each word as
	 * it comes and waits for the next (the FIFO empty), so the frame is
	 * in the data phase; at the CPU's last word one word is still in the
	 * FIFO: 8 clocks, the CRC and end bit (17), N_CRC and the CRC status
	 * (7): 32 clocks, 640 ns of the busy phase are the frame's, the rest
	 * (200 us) the card's programming.
	 *   window 38400: first burst 4800 (host), the frame's 2 + 1 + 127
	 *   words (1019 clocks, 20380 ns: bus), the rest 13220 (host)
	 *   bus: 1960 + 20380 + 640 = 22980; card 199360
	 *   host: 4800 + 13220 + 1040 + 3000 = 22060; wall 244400 */
	struct phase_ns wr = { .cmd_ns = 3000, .access_ns = 0, .data_ns = 38400,
			       .host_ns = 38400, .busy_ns = 200000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 10, &wr, 1, 3000);
	a.host_serial_ns = 10 * 4800;
	a.fifo_reqs = 10;
	a.fifo_words = 10;
	phase_split(&a, 4, 50000000, 1, 0, &s);
	CHECK_NEAR(s.bus_pct, 100.0 * 22980 / 244400, TOL);
	CHECK_NEAR(s.card_pct, 100.0 * 199360 / 244400, TOL);
	CHECK_NEAR(s.host_pct, 100.0 * 22060 / 244400, TOL);
}

TEST(clock_paced_card_waits_are_the_cards_and_said)
{
	/* The read above with the card's 15 us being 750 clocks at 50 MHz,
	 * measured by the calibration: card time, its clock-paced share
	 * 127 * 15000 = 1905000 of 4720760, and the verdict says it. */
	struct phase_ns rd = { .cmd_ns = 3000, .access_ns = 120880, .data_ns = 4586760,
			       .host_ns = 3840000, .busy_ns = 4000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 16, &rd, 128, 6120);
	a.counted_blocks = a.wait_blocks = 16 * 127;
	a.wait_ns = 16 * 127 * 5880ull;
	phase_split_measured(&a, 4, 50000000, 0, 1, 750.0, &s);
	CHECK_NEAR(s.bus_pct, 100.0 * 2676560 / 4720760, TOL);
	CHECK_NEAR(s.card_pct, 100.0 * 2005000 / 4720760, TOL);
	CHECK_NEAR(s.card_clock_pct, 100.0 * 1905000 / 4720760, TOL);
	CHECK_NEAR(s.card_idle_clocks, 750.0, 0);
	CHECK_STR(text(&s), "mixed bus/card - card 42%, bus 57%, host 1%; the card holds the bus "
			    "idle about 750 clocks between blocks; a faster clock shortens that too");
	/* The other way: a bus 100 clocks per block faster than the model
	 * (944 instead of 1044): 127 * 2000 ns less bus, as much more card. */
	phase_split_measured(&a, 4, 50000000, 0, 1, -100.0, &s);
	CHECK_NEAR(s.bus_pct, 100.0 * (2676560 - 254000) / 4720760, TOL);
	CHECK_NEAR(s.card_pct, 100.0 * (2005000 + 254000) / 4720760, TOL);
	CHECK_NEAR(s.card_clock_pct, 0.0, 0);
}

TEST(read_64k_paced_by_cpu_or_by_bus)
{
	/* 64 KiB CMD18 + CMD12 at 50 MHz 4-bit, card access 100 us; frame
	 * pitch 1044 clk = 20880 ns, 128 blocks = 2672640 ns.
	 * Slow CPU, 30 us per block: it never waits (busy 3810000 of the
	 * 3810000 ns pipeline after the first block, without the last drain
	 * of 30000): the CPU sets the pace. The bus waits for it:
	 *   access 120880 = first frame 20880 (bus) + 100000 (card),
	 *   pipeline 3810000 = 127 frames 2651760 (bus) + 1158240 (host),
	 *   host: 30000 + 1158240 + (3000 - 1960) + (4000 - 1960) + 6120 = 1197440
	 *   bus:  1960 + 20880 + 2651760 + 1960                          = 2676560
	 *   card: 100000;  wall 3000 + 3960880 + 4000 + 6120             = 3974000
	 * Critical path: the 127 frames hide behind the CPU:
	 *   host 1197440 + 2651760 = 3849200, bus 24800. */
	struct phase_ns slow = { .cmd_ns = 3000, .access_ns = 120880, .data_ns = 3840000,
				 .host_ns = 3840000, .busy_ns = 4000 };
	/* Fast CPU, 5 us per block (640000 < 2672640: bus-paced):
	 *   data 127 * 20880 + 5000 (last drain) = 2656760,
	 *   host: 5000 + 1040 + 2040 + 6120 = 14200
	 *   bus:  1960 + 2672640 + 1960     = 2676560
	 *   card: 2777640 - 5000 - 2672640  = 100000 (the access time, exactly)
	 *   wall: 3000 + 2777640 + 4000 + 6120 = 2790760
	 * ceiling: (48 + 128 * 1044 + 48 + 8) clk = 2674720 ns */
	struct phase_ns fast = { .cmd_ns = 3000, .access_ns = 120880, .data_ns = 2656760,
				 .host_ns = 640000, .busy_ns = 4000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 16, &slow, 128, 6120);
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.host_pct, 100.0 * 1197440 / 3974000, TOL);
	CHECK_NEAR(s.bus_pct, 100.0 * 2676560 / 3974000, TOL);
	CHECK_NEAR(s.card_pct, 100.0 * 100000 / 3974000, TOL);
	CHECK_NEAR(s.crit_host_pct, 100.0 * 3849200 / 3974000, TOL);
	CHECK_NEAR(s.crit_bus_pct, 100.0 * 24800 / 3974000, TOL);
	CHECK_NEAR(s.crit_card_pct, s.card_pct, TOL);
	CHECK_NEAR(s.cpu_busy_pct, 100.0, TOL);
	CHECK_NEAR(s.cpu_pace_pct, 100.0, 0);
	CHECK_EQ_U(s.verdict, BOTTLENECK_HOST);
	CHECK_STR(text(&s), "host-bound - the CPU moving data sets the pace (critical 97%); "
			    "bus busy 67%, waiting for the host 30%, card 3%");

	phase_acc_init(&a);
	add_n(&a, 16, &fast, 128, 6120);
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.host_pct, 100.0 * 14200 / 2790760, TOL);
	CHECK_NEAR(s.bus_pct, 100.0 * 2676560 / 2790760, TOL);
	CHECK_NEAR(s.card_pct, 100.0 * 100000 / 2790760, TOL);
	CHECK_NEAR(s.card_access_pct, 100.0 * 100000 / 2790760, TOL);
	/* the CPU waited (busy 635000 of 2651760 ns): the card side set the pace */
	CHECK_NEAR(s.cpu_pace_pct, 0.0, 0);
	CHECK_NEAR(s.crit_bus_pct, s.bus_pct, TOL);
	CHECK_NEAR(s.ceiling_pct, 100.0 * 2674720 / 2790760, TOL);
	CHECK_EQ_U(s.verdict, BOTTLENECK_BUS);
	CHECK_STR(text(&s), "bus-bound - 95.8% of the 50 MHz 4-bit ceiling");
}

/* The slow CPU of read_64k_paced_by_cpu_or_by_bus, with one card stall of
 * 1 ms per request in the pipeline: the CPU waits 1 ms for it (busy 79%
 * of the pipeline), so the stall is the card's and the rest of the idle
 * bus is still the host's; a rule that decides per workload would charge
 * all 2158240 ns of idle bus to the card.
 *   pipeline 4810000 = 127 frames 2651760 (bus) + 1000000 (card)
 *                      + 1158240 (host)
 *   card 100000 + 1000000, host 1197440, bus 2676560, wall 4974000 */
TEST(read_64k_paced_by_cpu_with_a_card_stall)
{
	struct phase_ns slow = { .cmd_ns = 3000, .access_ns = 120880, .data_ns = 4840000,
				 .host_ns = 3840000, .busy_ns = 4000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 16, &slow, 128, 6120);
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.card_pct, 100.0 * 1100000 / 4974000, TOL);
	CHECK_NEAR(s.host_pct, 100.0 * 1197440 / 4974000, TOL);
	CHECK_NEAR(s.bus_pct, 100.0 * 2676560 / 4974000, TOL);
	/* the CPU set the pace of 1158240 of the 2158240 idle ns, and the
	 * frames hide behind its work: critical host 1197440 + 2651760 */
	CHECK_NEAR(s.cpu_pace_pct, 100.0 * 1158240 / 2158240, TOL);
	CHECK_NEAR(s.crit_host_pct, 100.0 * 3849200 / 4974000, TOL);
	CHECK_EQ_U(s.verdict, BOTTLENECK_HOST);
}

TEST(write_bound_by_card_busy)
{
	/* 4 KiB CMD25 + CMD12 at 25 MHz 4-bit (40 ns/clock), per request:
	 * block pitch 1051 clk = 42040 ns; frames 8 * 42040 = 336320 >= CPU
	 * 12000: bus-paced, one block's fill (1500) is host. The window holds
	 * 7 frames (294280), the tail the last one (42040) + CMD12 (3920).
	 *   card: 300000 - 1500 - 294280 = 4220 stalls
	 *         + 2000000 - 45960 = 1954040 programming   = 1958260
	 *   host: 1500 + (5000 - 3920) + 20000 gap          = 22580
	 *   bus:  3920 + 294280 + 45960                     = 344160
	 *   wall: 5000 + 300000 + 2000000 + 20000           = 2325000 */
	struct phase_ns p = { .cmd_ns = 5000, .access_ns = 1000, .data_ns = 299000,
			      .host_ns = 12000, .busy_ns = 2000000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 10, &p, 8, 20000);
	phase_split(&a, 4, 25000000, 1, 1, &s);
	CHECK_NEAR(s.card_pct, 100.0 * 1958260 / 2325000, TOL);
	CHECK_NEAR(s.card_busy_pct, 100.0 * 1954040 / 2325000, TOL);
	CHECK_NEAR(s.card_access_pct, 100.0 * 4220 / 2325000, TOL);
	CHECK_NEAR(s.bus_pct, 100.0 * 344160 / 2325000, TOL);
	CHECK_NEAR(s.host_pct, 100.0 * 22580 / 2325000, TOL);
	CHECK_NEAR(s.host_xfer_pct, 100.0 * 1500 / 2325000, TOL);
	CHECK_NEAR(s.busy_pct, 100.0 * 2000000 / 2325000, TOL);
	/* ceiling: 98 + 8 * 1051 + 48 + 8 = 8562 clk = 342480 ns */
	CHECK_NEAR(s.ceiling_pct, 100.0 * 342480 / 2325000, TOL);
	CHECK_EQ_U(s.verdict, BOTTLENECK_CARD);
	CHECK_STR(text(&s), "card-bound - programming busy 84%, bus 15%, host 1%");
}

TEST(write_fifo_ahead_spills_frames_into_tail)
{
	/* The CPU got ahead (a deep FIFO): the window (30000) cannot hold the
	 * 7 frames; what it cannot hold is still on the bus in the tail.
	 *   host_win 1500, bus_win 28500, card_win 0,
	 *   tail: 42040 + (294280 - 28500) + 3920 = 311740 bus,
	 *         2000000 - 311740 = 1688260 programming;
	 *   wall 5000 + 30000 + 2000000 = 2035000 */
	struct phase_ns p = { .cmd_ns = 5000, .access_ns = 1000, .data_ns = 29000,
			      .host_ns = 12000, .busy_ns = 2000000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 2, &p, 8, 0);
	phase_split(&a, 4, 25000000, 1, 1, &s);
	CHECK_NEAR(s.bus_pct, 100.0 * (3920 + 28500 + 311740) / 2035000, TOL);
	CHECK_NEAR(s.card_busy_pct, 100.0 * 1688260 / 2035000, TOL);
	CHECK_NEAR(s.card_access_pct, 0.0, TOL);
	CHECK_NEAR(s.host_pct, 100.0 * (1500 + 1080) / 2035000, TOL);
}

TEST(write_card_stalls_between_blocks)
{
	/* The card holds the data phase (buffer full): window 2000000,
	 * host 1500, bus_win 294280, stalls 1704220; tail 50000: last frame
	 * 42040 + CMD12 3920, programming 4040; wall 2055000. */
	struct phase_ns p = { .cmd_ns = 5000, .access_ns = 1000, .data_ns = 1999000,
			      .host_ns = 12000, .busy_ns = 50000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 3, &p, 8, 0);
	phase_split(&a, 4, 25000000, 1, 1, &s);
	CHECK_NEAR(s.card_access_pct, 100.0 * 1704220 / 2055000, TOL);
	CHECK_NEAR(s.card_busy_pct, 100.0 * 4040 / 2055000, TOL);
	CHECK_NEAR(s.bus_pct, 100.0 * (3920 + 294280 + 45960) / 2055000, TOL);
	CHECK_EQ_U(s.verdict, BOTTLENECK_CARD);
	CHECK_STR(text(&s), "card-bound - data stalls 83%, bus 17%, host 0%");
}

TEST(read_bound_by_host)
{
	/* CMD17 at 50 MHz 4-bit with a slow PIO drain, per request:
	 * command 4000 (bus 1960), access 25000 (frame 20880, card 4120),
	 * data 60000 all CPU, tail 1000 controller, gap 30000.
	 *   host: 60000 + 2040 + 1000 + 30000 = 93040
	 *   bus:  1960 + 20880               = 22840
	 *   card: 4120;  wall 120000 */
	struct phase_ns p = { .cmd_ns = 4000, .access_ns = 25000, .data_ns = 60000,
			      .host_ns = 60000, .busy_ns = 1000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 100, &p, 1, 30000);
	phase_split(&a, 4, 50000000, 0, 0, &s);
	CHECK_NEAR(s.host_pct, 100.0 * 93040 / 120000, TOL);
	CHECK_NEAR(s.host_xfer_pct, 50.0, TOL);
	CHECK_NEAR(s.host_sw_pct, 100.0 * 33040 / 120000, TOL);
	CHECK_NEAR(s.bus_pct, 100.0 * 22840 / 120000, TOL);
	CHECK_NEAR(s.card_pct, 100.0 * 4120 / 120000, TOL);
	/* ceiling: 1100 clk = 22000 ns */
	CHECK_NEAR(s.ceiling_pct, 100.0 * 22000 / 120000, TOL);
	CHECK_EQ_U(s.verdict, BOTTLENECK_HOST);
	CHECK_STR(text(&s), "host-bound - CPU moving data 50%, software overhead 28%, "
			    "bus 19%, card 3%");
}

TEST(mixed_card_and_bus)
{
	/* CMD17, 50 MHz 4-bit: command 1960 (all bus), access 45880 (frame
	 * 20880 + card 25000), drain 5000, gap 2160: wall 55000,
	 * card 25000 (45.45%), bus 22840 (41.53%), host 7160 (13.02%) */
	struct phase_ns p = { .cmd_ns = 1960, .access_ns = 45880, .data_ns = 5000,
			      .host_ns = 5000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 5, &p, 1, 2160);
	phase_split(&a, 4, 50000000, 0, 0, &s);
	CHECK_NEAR(s.card_pct, 100.0 * 25000 / 55000, TOL);
	CHECK_NEAR(s.bus_pct, 100.0 * 22840 / 55000, TOL);
	CHECK_EQ_U(s.verdict, BOTTLENECK_MIXED);
	CHECK_EQ_U(s.top, BOTTLENECK_CARD);
	CHECK_EQ_U(s.second, BOTTLENECK_BUS);
	CHECK_NEAR(s.verdict_pct, 100.0 * 25000 / 55000, TOL);
	CHECK_STR(text(&s), "mixed card/bus - card 45%, bus 42%, host 13%");
}

TEST(bus_bound_by_share_below_ceiling_rule)
{
	/* CMD17, 50 MHz: command 1960, access 20880 (all frame), drain 1000,
	 * gap 8000: wall 31840, bus 22840 (71.7%), host 9000, ceiling 69.1% */
	struct phase_ns p = { .cmd_ns = 1960, .access_ns = 20880, .data_ns = 1000,
			      .host_ns = 1000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 2, &p, 1, 8000);
	phase_split(&a, 4, 50000000, 0, 0, &s);
	CHECK_EQ_U(s.verdict, BOTTLENECK_BUS);
	CHECK_NEAR(s.ceiling_pct, 100.0 * 22000 / 31840, TOL);
	CHECK_STR(text(&s), "bus-bound - bus 72%, card 0%, host 28%; "
			    "69.1% of the 50 MHz 4-bit ceiling");
}

TEST(host_time_capped_and_unphased_time)
{
	/* host_ns larger than the window is capped to it; total_ns beyond
	 * the phases is host overhead */
	struct phase_ns p = { .cmd_ns = 1000, .access_ns = 2000, .data_ns = 3000,
			      .host_ns = 9000, .busy_ns = 0, .total_ns = 10000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	phase_acc_add_ns(&a, &p, 1, 512, 0);
	CHECK_EQ_U(a.host_ns, 5000);
	CHECK_EQ_U(a.total_ns, 10000);
	phase_split(&a, 1, 400000, 0, 0, &s);
	/* 400 kHz 1-bit: command bus 98 clk = 245000 ns > 1000: all 1000
	 * bus; the access phase (2000) is shorter than the first frame: all
	 * bus; one block's CPU work is capped at the data phase (3000);
	 * the 4000 ns outside the phases are host: bus 3000, host 7000 */
	CHECK_NEAR(s.bus_pct, 30.0, TOL);
	CHECK_NEAR(s.host_pct, 70.0, TOL);
	CHECK_NEAR(s.card_pct, 0.0, TOL);
}

TEST(empty_and_merge)
{
	struct phase_acc a, b;
	struct phase_split s;
	struct phase_ns p = { .cmd_ns = 10, .access_ns = 20, .data_ns = 30,
			      .host_ns = 5, .busy_ns = 40 };
	char buf[64];

	phase_acc_init(&a);
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_EQ_U(s.verdict, BOTTLENECK_MIXED);
	CHECK_NEAR(s.card_pct + s.bus_pct + s.host_pct, 0.0, 0);
	phase_verdict_text(&s, 0, buf, sizeof(buf));
	CHECK_STR(buf, "mixed - nothing measured");

	phase_acc_add_ns(&a, &p, 2, 512, 7);
	phase_acc_init(&b);
	phase_acc_add_ns(&b, &p, 3, 512, 1);
	phase_acc_merge(&a, &b);
	CHECK_EQ_U(a.ops, 2);
	CHECK_EQ_U(a.blocks, 5);
	CHECK_EQ_U(a.bytes, 2560);
	CHECK_EQ_U(a.total_ns, 200);
	CHECK_EQ_U(a.gap_ns, 8);
	CHECK_EQ_U(a.host_ns, 10);

	/* a tiny buffer truncates but terminates */
	phase_verdict_text(&s, 0, buf, 8);
	CHECK_EQ_U(strlen(buf), 7);
}

TEST(names)
{
	CHECK_STR(bottleneck_name(BOTTLENECK_CARD), "card-bound");
	CHECK_STR(bottleneck_name(BOTTLENECK_BUS), "bus-bound");
	CHECK_STR(bottleneck_name(BOTTLENECK_HOST), "host-bound");
	CHECK_STR(bottleneck_name(BOTTLENECK_MIXED), "mixed");
}

TEST(ticks_to_phases_across_wrap)
{
	/* issue just before the 32-bit wrap; 4 ns per tick */
	struct sd_req_times t = {
		.t_issue = 0xffffff00u,
		.t_cmd_done = 0xffffff00u + 100u,          /* 400 ns */
		.t_first_data = 0x00000064u,               /* 256 + 100 - 100 = 256 ticks */
		.t_data_done = 0x00000064u + 1000u,        /* 4000 ns */
		.t_end = 0x00000064u + 1000u + 50u,        /* 200 ns */
		.host_ticks = 600u,
	};
	struct phase_ns p;
	struct phase_acc a;

	phase_ns_from_times(&t, &p);
	CHECK_EQ_U(p.cmd_ns, 400);
	CHECK_EQ_U(p.access_ns, 256 * 4);
	CHECK_EQ_U(p.data_ns, 4000);
	CHECK_EQ_U(p.busy_ns, 200);
	CHECK_EQ_U(p.host_ns, 2400);
	CHECK_EQ_U(p.total_ns, (0x100u + 0x64u + 1050u) * 4u);
	CHECK_EQ_U(p.total_ns, p.cmd_ns + p.access_ns + p.data_ns + p.busy_ns);

	phase_acc_init(&a);
	phase_acc_add(&a, &t, 1, 512, 123);
	CHECK_EQ_U(a.ops, 1);
	CHECK_EQ_U(a.total_ns, p.total_ns);
	CHECK_EQ_U(a.host_ns, 2400);
	CHECK_EQ_U(a.gap_ns, 123);

	/* a command without data but with R1b busy: the tail is busy */
	struct sd_req_times c = { .t_issue = 1000, .t_cmd_done = 1100, .t_end = 1600 };

	phase_ns_from_times(&c, &p);
	CHECK_EQ_U(p.cmd_ns, 400);
	CHECK_EQ_U(p.access_ns, 0);
	CHECK_EQ_U(p.data_ns, 0);
	CHECK_EQ_U(p.busy_ns, 2000);
	CHECK_EQ_U(p.total_ns, 2400);
}

TEST(combine_read_and_write_splits)
{
	/* 70/30 mix: the reads of mixed_card_and_bus (5 x 55000 ns) and the
	 * writes of write_bound_by_card_busy (1 x 2325000 ns): the write
	 * programming dominates the combined wall time 2600000 ns. */
	struct phase_ns r = { .cmd_ns = 1960, .access_ns = 45880, .data_ns = 5000,
			      .host_ns = 5000 };
	struct phase_ns w = { .cmd_ns = 5000, .access_ns = 1000, .data_ns = 299000,
			      .host_ns = 12000, .busy_ns = 2000000 };
	struct phase_acc ar, aw;
	struct phase_split sr, sw, s;

	phase_acc_init(&ar);
	phase_acc_init(&aw);
	add_n(&ar, 5, &r, 1, 2160);
	add_n(&aw, 1, &w, 8, 20000);
	phase_split(&ar, 4, 25000000, 0, 0, &sr);
	phase_split(&aw, 4, 25000000, 1, 1, &sw);
	phase_split_combine(&sr, &sw, &s);
	CHECK_EQ_U(s.wall_ns, 2600000);
	CHECK_EQ_U(s.is_write, 2);
	/* parts in ns summed over both, over the combined wall time */
	CHECK_NEAR(s.card_pct, (sr.card_pct * 275000 + sw.card_pct * 2325000) / 2600000, TOL);
	CHECK_NEAR(s.card_busy_pct, 100.0 * 1954040 / 2600000, TOL);
	CHECK_NEAR(s.card_pct + s.bus_pct + s.host_pct, 100.0, TOL);
	CHECK_NEAR(s.mbs, (5.0 * 512 + 4096) * 1e3 / 2600000, 1e-9);
	CHECK_EQ_U(s.verdict, BOTTLENECK_CARD);
	/* reads at 25 MHz: card 5 * (45880 - 41760) + writes 4220 = 24820;
	 * bus 5 * (1960 + 41760) + 344160 = 562760; host 5 * 7160 + 22580 */
	CHECK_NEAR(s.bus_pct, 100.0 * 562760 / 2600000, TOL);
	CHECK_NEAR(s.card_access_pct, 100.0 * 24820 / 2600000, TOL);
	CHECK_NEAR(s.host_pct, 100.0 * 58380 / 2600000, TOL);
	CHECK_STR(text(&s), "card-bound - programming busy 75%, access latency and stalls 1%, "
			    "bus 22%, host 2%");
	{
		char b2[160];

		/* the caller's read/write flag does not change a combined split */
		phase_verdict_text(&s, 0, b2, sizeof(b2));
		CHECK_STR(b2, text(&s));
	}

	/* one side empty: the other side's split, unchanged */
	struct phase_split empty = { 0 };

	phase_split_combine(&empty, &sw, &s);
	CHECK_EQ_U(s.is_write, 1);
	CHECK_NEAR(s.card_pct, sw.card_pct, 1e-9);
	CHECK_NEAR(s.ceiling_mbs, sw.ceiling_mbs, 1e-6);
	CHECK_EQ_U(s.verdict, sw.verdict);
}

TEST(ceiling_rule_only_when_the_bus_leads)
{
	/* 64 KiB read at 50 MHz 4-bit, CPU 21900 ns per block against a
	 * 20880 ns frame: CPU-paced, so the host holds ~99% of the critical
	 * path, and the workload runs at 94.5% of the bus ceiling. The frames
	 * hid behind the CPU: a faster bus gives back nothing, a faster CPU
	 * the ~5% left, so rule 1 (>= 90% of the ceiling) does not apply and
	 * the verdict is the host's (before, "bus-bound - 94.5% of the 50 MHz
	 * 4-bit ceiling": the wrong part, named with confidence).
	 *   wall 2000 + 21880 + 2803200 + 2000 = 2829080; ceiling 2674720 ns
	 *   host 21900 + (2781300 - 2651760) + 40 + 40 = 151520
	 *   critical host 151520 + 2651760 = 2803280 */
	struct phase_ns p = { .cmd_ns = 2000, .access_ns = 21880, .data_ns = 2803200,
			      .host_ns = 2803200, .busy_ns = 2000 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 3, &p, 128, 0);
	phase_split(&a, 4, 50000000, 0, 1, &s);
	CHECK_NEAR(s.host_pct, 100.0 * 151520 / 2829080, TOL);
	CHECK_NEAR(s.crit_host_pct, 100.0 * 2803280 / 2829080, TOL);
	CHECK_EQ_U(s.top, BOTTLENECK_HOST);
	CHECK_NEAR(s.ceiling_pct, 100.0 * 2674720 / 2829080, TOL);
	CHECK_EQ_U(s.verdict, BOTTLENECK_HOST);
	CHECK_STR(text(&s), "host-bound - the CPU moving data sets the pace (critical 99%); bus busy "
		  "95%, waiting for the host 5%, card 0%");
}

TEST(card_layer_commands_in_the_gaps_are_bus)
{
	/* CMD24 at 50 MHz 4-bit followed by one CMD13 poll in the gap:
	 *   command 3000 (bus 1960), window 20000: fill 10000 host,
	 *   10000 card (no pipeline); tail 40000: frame 1051 clk = 21020 bus,
	 *   18980 programming; gap 8000 of which the CMD13's 98 clk = 1960
	 *   are bus.  wall 3000 + 20000 + 40000 + 8000 = 71000
	 *   bus 1960 + 21020 + 1960 = 24940, card 28980,
	 *   host 1040 + 10000 + 6040 = 17080 */
	struct phase_ns p = { .cmd_ns = 3000, .access_ns = 500, .data_ns = 19500,
			      .host_ns = 10000, .busy_ns = 40000, .extra_cmds = 1 };
	struct phase_acc a;
	struct phase_split s;

	phase_acc_init(&a);
	add_n(&a, 3, &p, 1, 8000);
	CHECK_EQ_U(a.extra_cmds, 3);
	phase_split(&a, 4, 50000000, 1, 0, &s);
	CHECK_NEAR(s.bus_pct, 100.0 * 24940 / 71000, TOL);
	CHECK_NEAR(s.card_pct, 100.0 * 28980 / 71000, TOL);
	CHECK_NEAR(s.host_pct, 100.0 * 17080 / 71000, TOL);

	/* never more bus than the gap holds */
	p.extra_cmds = 100;
	phase_acc_init(&a);
	add_n(&a, 1, &p, 1, 8000);
	phase_split(&a, 4, 50000000, 1, 0, &s);
	CHECK_NEAR(s.bus_pct, 100.0 * (1960 + 21020 + 8000) / 71000, TOL);
}

/* The engine's 32-bit partial sums (phase_pend_add) give exactly the sums of
 * phase_acc_add: requests of every shape, short and long (beyond 2^30 ns:
 * the 64-bit way), stamps across the counter wrap, missing phases, gaps
 * beyond 32 bits, and enough long requests to overflow the partial sums. */
static uint32_t xs(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

TEST(partial_sums_equal_the_64_bit_accumulation)
{
	struct phase_acc a, b;
	struct phase_pend p = { 0 };
	uint32_t seed = 12345, i;

	phase_acc_init(&a);
	phase_acc_init(&b);
	for (i = 0; i < 20000; i++) {
		uint32_t r = xs(&seed), base = xs(&seed);
		/* mostly short spans; one in four under 2^26 ticks each (a
		 * request under 2^30 ns, 2^29 on average: the partial sums
		 * overflow after a few), one in 64 longer (the 64-bit way) */
		uint32_t lim = (r & 3) == 0 ? (1u << 26) - 1 : (r & 63) == 1 ? 0xffffffffu / 4 : 5000;
		uint32_t d1 = xs(&seed) % lim, d2 = xs(&seed) % lim, d3 = xs(&seed) % lim;
		uint32_t d4 = xs(&seed) % lim;
		struct sd_req_times t = {
			.t_issue = base, .t_cmd_done = base + d1,
			.t_first_data = base + d1 + d2, .t_data_done = base + d1 + d2 + d3,
			.t_end = base + d1 + d2 + d3 + d4, .host_ticks = xs(&seed) % (d3 + 1),
			.extra_cmds = r >> 30,
		};
		uint32_t blocks = (r >> 8) % 4 == 0 ? 1 + (xs(&seed) % 300) : 1;
		uint64_t gap = (r >> 12) % 500 == 0 ? (uint64_t)xs(&seed) << 3 : xs(&seed) % 100000;

		if ((r >> 16) % 10 == 0)
			t.t_first_data = t.t_data_done = 0;   /* no data phase */
		if ((r >> 20) % 20 == 0)
			t.t_end = 0;                          /* no busy stamp */
		if ((r >> 24) % 30 == 0)
			t.host_ticks = 0xfffffff0u;           /* beyond the window */
		if ((r >> 4) % 3 == 0) {
			/* a driver that looked at a FIFO smaller than a block */
			t.fifo_counted = 1;
			t.fifo_words = xs(&seed) % 17;
			t.seams = blocks - 1;
			t.seam_ticks = xs(&seed) % lim;
			t.seam_words = t.seams * (xs(&seed) % 17);
			t.seams_full = xs(&seed) % 3;
			t.seam_full_ticks = xs(&seed) % lim;
			t.seam_full_words = t.seams_full * 16;
		}
		phase_acc_add(&a, &t, blocks, 512, gap);
		phase_pend_add(&p, &b, &t, blocks, 512, gap);
	}
	phase_pend_flush(&p, &b);
	CHECK_EQ_U(p.ops, 0);
	CHECK_EQ_U(b.ops, a.ops);
	CHECK_EQ_U(b.blocks, a.blocks);
	CHECK_EQ_U(b.bytes, a.bytes);
	CHECK_EQ_U(b.total_ns, a.total_ns);
	CHECK_EQ_U(b.cmd_ns, a.cmd_ns);
	CHECK_EQ_U(b.access_ns, a.access_ns);
	CHECK_EQ_U(b.data_ns, a.data_ns);
	CHECK_EQ_U(b.host_ns, a.host_ns);
	CHECK_EQ_U(b.host_serial_ns, a.host_serial_ns);
	CHECK_EQ_U(b.busy_ns, a.busy_ns);
	CHECK_EQ_U(b.gap_ns, a.gap_ns);
	CHECK_EQ_U(b.extra_cmds, a.extra_cmds);
	CHECK_EQ_U(b.fifo_reqs, a.fifo_reqs);
	CHECK_EQ_U(b.fifo_words, a.fifo_words);
	CHECK_EQ_U(b.seam_ns, a.seam_ns);
	CHECK_EQ_U(b.seam_words, a.seam_words);
	CHECK_EQ_U(b.seams, a.seams);
	CHECK_EQ_U(b.seam_full_ns, a.seam_full_ns);
	CHECK_EQ_U(b.seam_full_words, a.seam_full_words);
	CHECK_EQ_U(b.seams_full, a.seams_full);
	CHECK(a.fifo_reqs > 0 && a.seam_ns > 0);
	/* the partial sums were used and overflowed on the way */
	CHECK(a.total_ns > 0xffffffffull);
}

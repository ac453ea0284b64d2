/*
 * attribution.h - turns the phase timestamps of measured operations into a
 * card / bus / host split and a verdict (docs/attribution.md has the rules).
 *
 * Phases of one request (struct sd_req_times, converted to ns):
 *   command   t_issue .. t_cmd_done         command + response on the bus
 *   access    t_cmd_done .. t_first_data     card access latency (read);
 *                                            for writes ~0 (host sends data)
 *   data      first data .. t_data_done      blocks on the bus + CPU moving them
 *     host    host_ticks within data         CPU time draining/filling the FIFO
 *   busy      t_data_done .. t_end           write: last block on the bus,
 *                                            CRC token and programming busy
 * The theoretical bus time (busmodel.h) of the data and command frames is
 * what the bus must take at the programmed clock and width; the rest of the
 * data phase beyond bus + host is card time (the card was not ready).
 *
 * phase_acc_add() (phase_ticks.c) is the only function that needs the
 * timer; everything else works on ns and is testable without a clock.
 */
#ifndef SDB_BENCH_ATTRIBUTION_H
#define SDB_BENCH_ATTRIBUTION_H

#include <stdint.h>

#include "drivers/sd/sd_host.h"

/* Accumulated phase times (ns) over many operations of one workload. */
struct phase_acc {
	uint64_t ops;
	uint64_t blocks;
	uint64_t bytes;
	uint64_t total_ns;   /* sum of t_issue .. t_end */
	uint64_t cmd_ns;     /* command phase */
	uint64_t access_ns;  /* access latency phase */
	uint64_t data_ns;    /* data phase (incl. host) */
	uint64_t host_ns;    /* CPU moving data */
	uint64_t busy_ns;    /* write tail: last block + CRC token + busy */
	uint64_t gap_ns;     /* host time between operations (software overhead) */
	uint64_t extra_cmds; /* card-layer commands inside the gaps (CMD23, CMD13 polls) */
	uint64_t host_serial_ns; /* sum of host_ns / blocks per request: the CPU
				    work of one block, which cannot overlap the
				    bus (last drain of a read, first fill of a write) */
	/* The pace as the driver saw it (sd_host.h wait_blocks): blocks after
	 * the first of a request that the CPU found not ready at its first
	 * look, how long it waited for them, and the pipeline blocks of the
	 * requests whose driver counted (0: not counted, the rule from the
	 * totals applies). */
	uint64_t wait_blocks;
	uint64_t wait_ns;
	uint64_t counted_blocks;
	/* A FIFO smaller than a block, as the driver saw it (sd_host.h
	 * fifo_words, seam_*): the requests that counted, the words of a
	 * frame outside the data phase, and the seams between blocks (ns
	 * between the two looks, words the bus moved, how many), apart those
	 * where the bus may also have waited for the CPU (full). */
	uint64_t fifo_reqs, fifo_words;
	uint64_t seam_ns, seam_words, seams;
	uint64_t seam_full_ns, seam_full_words, seams_full;
	/* A read's driver that also estimated how long the bus stood for the
	 * CPU (sd_host.h stood_ticks): that time, and the pipeline blocks of
	 * the requests it was estimated for. */
	uint64_t stood_ns;
	uint64_t stood_blocks;
	/* stood_ns known to +- this (sd_host.h stood_unc_ticks) */
	uint64_t stood_unc_ns;
	/* Blocks whose wait the driver could not decide (sd_host.h
	 * undecided_blocks: a look the probe did not confirm). */
	uint64_t undecided_blocks;
	uint32_t undecided_looks; /* SD_UNDECIDED_* of those blocks */
};

/* Phase durations of one request in ns (the tick-free form of sd_req_times).
 * total_ns: t_issue .. t_end; 0 = the sum of the phases. */
struct phase_ns {
	uint64_t cmd_ns, access_ns, data_ns, host_ns, busy_ns;
	uint64_t total_ns;
	uint32_t extra_cmds; /* card-layer commands outside the request (sd_host.h) */
};

enum bottleneck { BOTTLENECK_CARD, BOTTLENECK_BUS, BOTTLENECK_HOST, BOTTLENECK_MIXED };

/* Verdict thresholds (docs/attribution.md). */
#define ATTR_CEILING_BUS_PCT	90.0	/* >= this % of the bus ceiling: bus-bound */
#define ATTR_DOMINANT_PCT	60.0	/* a part with >= this share is the bottleneck */
#define ATTR_CPU_PACED_PCT	95.0	/* CPU busy >= this % of the block pipeline
					   never waited (the rest is its bookkeeping);
					   beyond it, its waits are the card's */
#define ATTR_TIE_PP	5.0	/* two critical shares this close are a tie
					   (docs/attribution.md, "The verdict
					   against the truth") */
#define ATTR_PACE_TIE_PCT	10.0	/* the CPU's pipeline work this close to the
					   frames' (%): either may have set the pace */
#define ATTR_CLOCK_SAY_PCT	5.0	/* the verdict names the card's clock-paced
					   waits from this share of the time */

/* Shares of the total time, in percent (sum to 100 within rounding). */
struct phase_split {
	double card_pct;     /* access latency + busy beyond the bus + data stalls */
	double bus_pct;      /* theoretical command + data frame time */
	double host_pct;     /* CPU moving data + software overhead */
	double cmd_pct, access_pct, data_pct, busy_pct; /* raw phase shares */
	double bus_efficiency_pct; /* bus time / (data phase) for the data frames */
	enum bottleneck verdict;
	double verdict_pct;  /* share of the dominant part */
	/* Added detail (all % of wall time = total + gaps): */
	double gap_pct;            /* raw share of the gaps between operations */
	double card_access_pct;    /* card time between command and last data word:
				      read access latency / write not-ready stalls */
	double card_busy_pct;      /* card time after the last data word (programming) */
	double host_xfer_pct;      /* CPU moving data */
	double host_sw_pct;        /* command/controller overhead, read tail, gaps */
	double ceiling_pct;        /* achieved throughput / bus ceiling, same transfers */
	double mbs;                /* achieved 10^6 B/s over wall time */
	double ceiling_mbs;        /* bus ceiling for these transfers */
	uint64_t wall_ns;          /* total_ns + gap_ns */
	uint32_t clock_hz;
	unsigned width;
	int is_write;              /* 0 read, 1 write, 2 both (combined) */
	double pipe_pct;           /* the block pipeline (data phase after the first
				      block, without one block's CPU work) / wall */
	double cpu_busy_pct;       /* CPU moving data / pipeline time */
	double cpu_pace_pct;       /* share of the pipeline's idle bus time the CPU
				      set (100: the CPU never waited for a block) */
	/* Critical-path shares (the verdict uses these): frames hidden behind
	 * a slower CPU move from bus to host. Equal to card/bus/host_pct when
	 * the CPU never set the pace. */
	double crit_card_pct, crit_bus_pct, crit_host_pct;
	double bus_extra_clocks;   /* the calibration's clocks per block beyond the
				      model's pitch (0 = the framing model alone);
				      below 0 they shorten the bus, above 0 they are
				      the card's (card_idle_clocks) */
	double card_clock_pct;     /* card time that scales with the SD clock: the
				      card holding the bus idle between blocks
				      (part of card_pct) */
	double card_idle_clocks;   /* those clocks per block (0: none measured) */
	enum bottleneck top;       /* the largest of card/bus/host share */
	enum bottleneck second;    /* the runner-up (named by MIXED verdicts) */
	/* What the measurements leave open (docs/attribution.md §3, "Bounds
	 * of the critical path"): the totals do not say in how many of the
	 * pipeline's blocks the CPU came last, hiding that block's frame and
	 * the card's wait behind its work. Between the fewest and the most
	 * such blocks the totals allow, the bus and card time hidden (% of
	 * wall): lo_* at the fewest, hi_* at the most. */
	double hide_lo_bus_pct, hide_lo_card_pct, hide_hi_bus_pct, hide_hi_card_pct;
	/* The verdict differs somewhere between those bounds: no diagnosis.
	 * alt / alt_top / alt_second: the other verdict found there. */
	int undecided;
	enum bottleneck alt, alt_top, alt_second;
	/* The card and host shares are known to +- this many points only:
	 * the seams of a FIFO smaller than a block where the bus may also
	 * have waited for the CPU, whose card part lies between none and all
	 * (half is booked; docs/attribution.md, "A FIFO smaller than a
	 * block"). 0: no such seam. */
	double share_unc_pct;
	double share_full_pct;  /* the seams where the FIFO was full (empty on a
				   write), % of all seams */
	/* Of the card's clock-paced wait, the points that may be the
	 * controller's own idle clocks, the bus's (phase_split_idle; 0
	 * before it or where the controller's authority says none): the
	 * card / bus line known to +- that, the verdict judged at both. */
	double idle_amb_pct;
};

void phase_acc_init(struct phase_acc *a);
/* Add one request from its phases in ns (the one definition of how a
 * request is accumulated: phase_acc_add_ns() and the timestamp form
 * phase_acc_add() in phase_ticks.c, the engine's per-operation path, both
 * come here). total_ns: t_issue .. t_end, 0 = the sum of the phases. */
static inline void phase_acc_add_parts(struct phase_acc *a, uint64_t cmd_ns,
				       uint64_t access_ns, uint64_t data_ns,
				       uint64_t busy_ns, uint64_t host_ns,
				       uint64_t total_ns, uint32_t extra_cmds,
				       uint32_t blocks, uint32_t blksz, uint64_t gap_ns)
{
	uint64_t sum = cmd_ns + access_ns + data_ns + busy_ns;
	uint64_t host = access_ns + data_ns;

	/* The CPU's data moving lies inside the access + data window; a
	 * larger figure is a timestamping error, not more host time. */
	if (host_ns < host)
		host = host_ns;
	a->ops++;
	a->blocks += blocks;
	a->bytes += (uint64_t)blocks * blksz;
	a->total_ns += total_ns > sum ? total_ns : sum;
	a->cmd_ns += cmd_ns;
	a->access_ns += access_ns;
	a->data_ns += data_ns;
	a->host_ns += host;
	/* host / blocks: a 64-bit division is a library call on 32-bit ARM;
	 * one block and a 32-bit host time (under 4.3 s) are the usual case. */
	if (blocks <= 1)
		a->host_serial_ns += host;
	else if (host <= 0xffffffffu)
		a->host_serial_ns += (uint32_t)host / blocks;
	else
		a->host_serial_ns += host / blocks;
	a->busy_ns += busy_ns;
	a->gap_ns += gap_ns;
	a->extra_cmds += extra_cmds;
}
/* The same with phases already in ns. */
void phase_acc_add_ns(struct phase_acc *a, const struct phase_ns *p,
		      uint32_t blocks, uint32_t blksz, uint64_t gap_ns);
/* dst += src (e.g. per-run accumulators into a workload total). */
void phase_acc_merge(struct phase_acc *dst, const struct phase_acc *src);
/* Split, given the bus parameters in force during the workload. */
void phase_split(const struct phase_acc *a, unsigned width, uint32_t clock_hz,
		 int is_write, int multi, struct phase_split *out);
/* The same with a measured bus: extra_clocks SD clocks per block beyond
 * the framing model's pitch (from the bus calibration; 0 = the model
 * alone). Positive clocks are the card holding the bus idle (card time,
 * card_clock_pct); negative ones a model too long (the bus pitch shortened,
 * to half the model's at most). */
void phase_split_measured(const struct phase_acc *a, unsigned width, uint32_t clock_hz,
			  int is_write, int multi, double extra_clocks,
			  struct phase_split *out);
/* The same with the bus model's flags given whole (busmodel.h: BUS_WRITE,
 * BUS_MULTI | BUS_STOP, BUS_DDR for a DDR50 bus). */
void phase_split_flags(const struct phase_acc *a, unsigned width, uint32_t clock_hz,
		       unsigned bus_flags, double extra_clocks, struct phase_split *out);
/* The controller's own idle clocks between blocks (sd_host.h
 * idle_clk_max; 0xffff and above: no authority bounds them): the points of
 * the card's clock-paced wait (card_clock_pct) they may be, idle_amb_pct,
 * and the verdict judged again with that much moved from the card to the
 * bus (docs/silicon.md ctrl-idle-clocks). After phase_split_flags or
 * phase_split_combine. */
void phase_split_idle(struct phase_split *s, uint32_t idle_clk_max);
/* One split of a mixed workload from its read and write splits (weighted by
 * their wall times; is_write becomes 2 when both contribute) with its own
 * verdict. */
void phase_split_combine(const struct phase_split *rd, const struct phase_split *wr,
			 struct phase_split *out);
const char *bottleneck_name(enum bottleneck b);
/* One readable line, e.g. "card-bound - programming busy 87%, bus 4%, host 2%"
 * or "bus-bound - 97.8% of the 50 MHz 4-bit ceiling" (no workload name:
 * the caller prefixes it). is_write may differ from the split's only to
 * change the wording; the split's own value is normally passed. */
void phase_verdict_text(const struct phase_split *s, int is_write, char *buf, unsigned cap);

#endif

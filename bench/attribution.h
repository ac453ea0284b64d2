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
};

enum bottleneck { BOTTLENECK_CARD, BOTTLENECK_BUS, BOTTLENECK_HOST, BOTTLENECK_MIXED };

/* Shares of the total time, in percent (sum to 100 within rounding). */
struct phase_split {
	double card_pct;     /* access latency + busy beyond the bus + data stalls */
	double bus_pct;      /* theoretical command + data frame time */
	double host_pct;     /* CPU moving data + software overhead */
	double cmd_pct, access_pct, data_pct, busy_pct; /* raw phase shares */
	double bus_efficiency_pct; /* bus time / (data phase) for the data frames */
	enum bottleneck verdict;
	double verdict_pct;  /* share of the dominant part */
};

void phase_acc_init(struct phase_acc *a);
/* Add one request: its times (raw ticks), block count, and the host gap
 * since the previous request ended (ns, 0 for the first). */
void phase_acc_add(struct phase_acc *a, const struct sd_req_times *t,
		   uint32_t blocks, uint32_t blksz, uint64_t gap_ns);
/* Split, given the bus parameters in force during the workload. */
void phase_split(const struct phase_acc *a, unsigned width, uint32_t clock_hz,
		 int is_write, int multi, struct phase_split *out);
const char *bottleneck_name(enum bottleneck b);
/* One readable line, e.g. "card-bound - programming busy 87%, bus 4%, host 2%". */
void phase_verdict_text(const struct phase_split *s, int is_write, char *buf, unsigned cap);

#endif

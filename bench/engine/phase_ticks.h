/*
 * phase_ticks.h - phases of a request from its raw timestamps
 * (phase_ticks.c): the one part of the attribution that needs the timer, so
 * attribution.c stays pure arithmetic.
 */
#ifndef SDB_BENCH_ENGINE_PHASE_TICKS_H
#define SDB_BENCH_ENGINE_PHASE_TICKS_H

#include "bench/engine/attribution.h"

/* Add one request: its times (raw ticks), block count, and the host gap
 * since the previous request ended (ns, 0 for the first). */
void phase_acc_add(struct phase_acc *a, const struct sd_req_times *t,
		   uint32_t blocks, uint32_t blksz, uint64_t gap_ns);
/* Phases of one request from its raw timestamps (uses timer_ticks_to_ns). */
void phase_ns_from_times(const struct sd_req_times *t, struct phase_ns *out);

#endif

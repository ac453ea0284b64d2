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

/*
 * The engine's per-operation path: the same accumulation in 32-bit partial
 * sums (each 64-bit sum is two adds, two loads and two stores on 32-bit
 * ARM). phase_pend_add() takes a request's phases in ns exactly as
 * phase_acc_add() computes them and adds them to p; a request whose phases
 * do not fit in 32 bits, or that would make a partial sum overflow, first
 * moves p into a (phase_pend_flush) and is added to a directly. The sums of
 * a and p together are always those phase_acc_add() alone gives: read a
 * only after phase_pend_flush(p, a). A zeroed phase_pend is empty.
 */
struct phase_pend {
	uint32_t ops, blocks, blksz;
	uint32_t total_ns, cmd_ns, access_ns, data_ns, host_ns, host_serial_ns;
	uint32_t busy_ns, gap_ns, extra_cmds;
};

void phase_pend_add(struct phase_pend *p, struct phase_acc *a, const struct sd_req_times *t,
		    uint32_t blocks, uint32_t blksz, uint64_t gap_ns);
void phase_pend_flush(struct phase_pend *p, struct phase_acc *a);

#endif

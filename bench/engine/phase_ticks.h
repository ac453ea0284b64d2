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
	uint32_t wait_blocks, wait_ns, counted_blocks, stood_ns, stood_blocks, stood_unc_ns;
	uint32_t fifo_reqs, fifo_words, seam_ns, seam_words, seams;
	uint32_t seam_full_ns, seam_full_words, seams_full;
	uint32_t undecided_blocks, undecided_looks;
};

void phase_pend_add(struct phase_pend *p, struct phase_acc *a, const struct sd_req_times *t,
		    uint32_t blocks, uint32_t blksz, uint64_t gap_ns);
/* A request that may have lasted longer than the tick counter's wrap
 * (timer_wrap_ns()): req_ns is its length on the engine's 64-bit clock
 * (from just before the call to just after it). The whole wraps the
 * stamps lost are given back to the phase they fell in (the longest one
 * modulo the wrap: a request that long has one long wait), in 64-bit
 * arithmetic; the host time around the request is gap_ns plus what
 * req_ns has beyond the request. The driver's sums (host_ticks, the
 * waits, the seams) are 64-bit and lost nothing (sd_host.h). */
void phase_acc_add_long(struct phase_acc *a, const struct sd_req_times *t, uint32_t blocks,
			uint32_t blksz, uint64_t gap_ns, uint64_t req_ns);
void phase_pend_flush(struct phase_pend *p, struct phase_acc *a);

#endif

/*
 * validity.h - does a workload's split describe what happened?
 *
 * The card / bus / host split (attribution.h) rests on a model: frames
 * cross the bus at the programmed clock, the CPU's timestamps bracket its
 * own work, the phases cover the measured time. When the figures break
 * that model (an emulator whose card ignores the clock, a DMA engine that
 * copies inside the CPU's register write, a clock that wrapped), a verdict
 * computed from them is a made-up number. wl_validity_check() looks for
 * the breaks before a diagnosis is printed; the first one found is the
 * reason the workload gets "no diagnosis" (docs/attribution.md, "When the
 * model does not hold"). Pure: no clock, no I/O.
 */
#ifndef SDB_BENCH_VALIDITY_H
#define SDB_BENCH_VALIDITY_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/engine/attribution.h"

/* The checks, in the order they are tried (bits of wl_validity.reasons). */
enum wl_invalid {
	WL_INVALID_NO_SAMPLES = 0,   /* nothing completed, or too short for the timer */
	WL_INVALID_DMA_IN_WRITE,     /* a DMA transfer done inside the CPU's own work */
	WL_INVALID_OVER_CEILING,     /* faster than the bus can carry these transfers */
	WL_INVALID_PHASES_SUM,       /* the phases do not cover the measured time */
	WL_INVALID_SHARES,           /* a share negative, over 100, or not summing to 100 */
	WL_INVALID_LOOK,             /* blocks whose wait needed a look the controller's
					probe did not confirm (docs/silicon.md) */
	WL_INVALID_UNDECIDED,        /* the verdict differs within the critical path's bounds */
	WL_INVALID_UNCERTAIN,        /* a share's bounds wider than the split's promise */
	WL_INVALID_COUNT
};

/* A workload lasting fewer timer ticks than this has shares that move by
 * more than a point with one tick. */
#define WL_VALID_MIN_TICKS      200u
/* The phases (requests + gaps) must cover the measured time to this %. */
#define WL_VALID_PHASES_TOL_PCT 5.0
/* Shares must sum to 100 within this many points (rounding of 3 shares). */
#define WL_VALID_SHARES_TOL     1.0
/* The card / host line's own uncertainty (attribution.h share_unc_pct)
 * beyond which a share may be off by more than the split's promise of 5
 * points, less half a point for the rest of the estimate (docs/attribution.md,
 * "A FIFO smaller than a block"). */
#define WL_VALID_UNCERTAIN_PP   4.5
/* A DMA transfer needs at least this share of its frames' bus time
 * outside the CPU's own work (the rest: timer and model tolerance). */
#define WL_VALID_DMA_FRAME_PCT  50.0

struct wl_validity_in {
	const struct phase_split *split;  /* the workload's split (combined if mixed) */
	const struct phase_acc *rd, *wr;  /* the accumulated phases (wr may be NULL) */
	uint64_t elapsed_ns;              /* the workload's measured time */
	uint32_t ops, errors;             /* failed operations are not in the phases */
	uint32_t timer_res_ns;            /* the timer's resolution (0: unknown) */
	bool dma_moved;                   /* every request's data moved by a DMA engine */
	bool emulated;                    /* under QEMU: say why the figures are impossible */
	unsigned bus_flags;               /* busmodel.h flags of the transfers (DDR) */
	bool wire_instant;                /* the controller probe found reads take no time
					     on the wire (docs/silicon.md read-wire) */
	uint32_t idle_clk_max;            /* the most clocks the controller idles the bus
					     of its own between blocks (sd_host.h
					     idle_clk_max), for the words of the reason;
					     the split's idle_amb_pct is the figure */
};

struct wl_validity {
	bool valid;
	enum wl_invalid reason;           /* the first check that failed (when !valid) */
	uint32_t reasons;                 /* every check that failed, 1 << enum */
	char why[160];                    /* the first failure for people */
};

/* Run every check on in; out->valid is true when none failed. */
void wl_validity_check(const struct wl_validity_in *in, struct wl_validity *out);
/* The record name of a check ("over_ceiling", ...). */
const char *wl_invalid_name(enum wl_invalid r);

#endif

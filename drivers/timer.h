/*
 * timer.h - time stamps and deadlines for the whole project.
 *
 * Two clocks:
 *  - timer_ticks(): the best high-resolution free-running 32-bit counter of
 *    the CPU (ARM1176 CCNT, the ARMv7/v8 generic timer's CNTPCT; the 1 MHz
 *    system timer when nothing better works; timer.c). Cheap: meant for timestamps in
 *    hot paths. Differences of two readings are valid while shorter than the
 *    wrap period (timer_wrap_ns()); convert with timer_ticks_to_ns().
 *  - timer_now_us(): the 64-bit 1 MHz system timer (never wraps in practice).
 *
 * Deadlines: every wait on hardware is bounded:
 *     timer_deadline_t d = timer_deadline_us(1000);
 *     while (!cond) if (timer_expired(d)) return -ETIMEDOUT;
 *
 * Host builds implement this API on the simulator's virtual clock
 * (sim/), so every timestamp taken there is virtual and exact.
 */
#ifndef SDB_DRIVERS_TIMER_H
#define SDB_DRIVERS_TIMER_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t timer_deadline_t;

struct timer_info {
	const char *source;     /* "ccnt", "cntpct", "systimer", "none", "sim" */
	uint32_t freq_hz;       /* measured (calibrated) tick rate */
	uint32_t nominal_hz;    /* what the hardware claims, 0 if nothing */
	uint32_t resolution_ns; /* smallest non-zero step seen between reads */
	uint32_t read_cost_ns;  /* measured cost of one timer_ticks() call */
	uint32_t calib_ppm;     /* calibration disagreement between two windows */
};

/* Set up and calibrate against the system timer. Returns 0 or -errno. */
int timer_init(uintptr_t periph_base);
const struct timer_info *timer_get_info(void);

#ifdef SDB_HOST
/* Host builds: the simulator's clock (sim/) or a test's own. */
uint32_t timer_ticks(void);
uint64_t timer_ticks_to_ns(uint32_t ticks);
uint64_t timer_wrap_ns(void);

/* See below; on the host from timer_ticks_to_ns() (not on a hot path). */
static inline uint32_t timer_ticks_mask30(void)
{
	uint32_t m = 0xffffffffu;

	while (m && timer_ticks_to_ns(m) >= (1u << 30))
		m >>= 1;
	return m;
}

static inline uint32_t timer_ticks_to_ns30(uint32_t ticks)
{
	return (uint32_t)timer_ticks_to_ns(ticks);
}
#else
#include "drivers/mmio.h"

/* The target: inline, because the request path stamps every phase (five
 * readings and as many conversions per request). The tick source is a
 * function chosen by timer_init() (one indirect call instead of a switch
 * on the source per reading); the conversion is ns = ticks * (hi + lo /
 * 2^32), 10^9 / freq_hz in 32.32 fixed point (timer.c), without a
 * division (a library call of a few hundred instructions on the ARM1176). */
struct timer_conv {
	uint32_t (*ticks)(void);
	uint32_t ns_hi, ns_lo;
	uint64_t wrap_ns;
	uint32_t mask30; /* see timer_ticks_mask30() */
	uintptr_t st_clo; /* the system timer's low word (0 before timer_init) */
};
extern struct timer_conv timer_conv;

static inline uint32_t timer_ticks(void)
{
	return timer_conv.ticks();
}

static inline uint64_t timer_ticks_to_ns(uint32_t ticks)
{
	return (uint64_t)ticks * timer_conv.ns_hi +
	       (((uint64_t)ticks * timer_conv.ns_lo) >> 32);
}

static inline uint64_t timer_wrap_ns(void)
{
	return timer_conv.wrap_ns;
}

/* The largest 2^k - 1 ticks that are less than 2^30 ns (about a second):
 * a tick count t with (t & ~mask) == 0 converts in 32-bit arithmetic
 * (timer_ticks_to_ns30), and four such conversions add up without
 * overflowing 32 bits. */
static inline uint32_t timer_ticks_mask30(void)
{
	return timer_conv.mask30;
}

/* timer_ticks_to_ns() for tick counts within timer_ticks_mask30(): the
 * same value, three instructions on 32-bit ARM instead of ten. */
static inline uint32_t timer_ticks_to_ns30(uint32_t ticks)
{
	return ticks * timer_conv.ns_hi +
	       (uint32_t)(((uint64_t)ticks * timer_conv.ns_lo) >> 32);
}
#endif

/* timer_ticks_to_ns() for a 64-bit sum of tick differences (struct
 * sd_req_times' accumulators): 2^32 ticks at a time as two halves of
 * 2^31 (at most a nanosecond short per 2^32 ticks on the target's 32.32
 * fixed-point factor). A single difference of two readings stays 32-bit. */
static inline uint64_t timer_ticks64_to_ns(uint64_t ticks)
{
	uint32_t hi = (uint32_t)(ticks >> 32);
	uint64_t ns = timer_ticks_to_ns((uint32_t)ticks);

	return hi ? ns + (uint64_t)hi * 2u * timer_ticks_to_ns(0x80000000u) : ns;
}

uint64_t timer_now_us(void);
uint64_t timer_now_ns(void); /* from the system timer (1 us resolution) */

/* timer_now_us() again, less than 2^32 us (71 minutes) after a reading
 * 'last' of it: from the system timer's low word alone (one access
 * instead of three and a loop; the engine reads it at the end of every
 * operation). */
#ifdef SDB_HOST
static inline uint64_t timer_now_us_after(uint64_t last)
{
	(void)last;
	return timer_now_us();
}
#else
static inline uint64_t timer_now_us_after(uint64_t last)
{
	if (!timer_conv.st_clo)
		return timer_now_us();
	return last + (uint32_t)(mmio_read32(timer_conv.st_clo) - (uint32_t)last);
}
#endif

timer_deadline_t timer_deadline_us(uint64_t us);
bool timer_expired(timer_deadline_t deadline);
void timer_udelay(uint32_t us);

#endif

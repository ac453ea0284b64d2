/*
 * timer.h - time stamps and deadlines for the whole project.
 *
 * Two clocks:
 *  - timer_ticks(): the best high-resolution free-running 32-bit counter of
 *    the CPU (ARM1176 CCNT, ARMv7 PMCCNTR, or the generic timer; the 1 MHz
 *    system timer when nothing better works). Cheap: meant for timestamps in
 *    hot paths. Differences of two readings are valid while shorter than the
 *    wrap period (timer_wrap_ns()); convert with timer_ticks_to_ns().
 *  - timer_now_us(): the 64-bit 1 MHz system timer (never wraps in practice).
 *
 * Deadlines: every wait on hardware is bounded:
 *     timer_deadline_t d = timer_deadline_us(1000);
 *     while (!cond) if (timer_expired(d)) return -ETIMEDOUT;
 *
 * Host builds implement this API on the simulator's virtual clock
 * (tests/sim), so every timestamp taken there is virtual and exact.
 */
#ifndef SDB_DRIVERS_TIMER_H
#define SDB_DRIVERS_TIMER_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t timer_deadline_t;

struct timer_info {
	const char *source;     /* "ccnt", "pmccntr", "cntpct", "systimer", "sim" */
	uint32_t freq_hz;       /* measured (calibrated) tick rate */
	uint32_t nominal_hz;    /* what the hardware claims, 0 if nothing */
	uint32_t resolution_ns; /* smallest non-zero step seen between reads */
	uint32_t read_cost_ns;  /* measured cost of one timer_ticks() call */
	uint32_t calib_ppm;     /* calibration disagreement between two windows */
};

/* Set up and calibrate against the system timer. Returns 0 or -errno. */
int timer_init(uintptr_t periph_base);
const struct timer_info *timer_get_info(void);

uint32_t timer_ticks(void);
uint64_t timer_ticks_to_ns(uint32_t ticks);
uint64_t timer_wrap_ns(void);

uint64_t timer_now_us(void);
uint64_t timer_now_ns(void); /* from the system timer (1 us resolution) */

timer_deadline_t timer_deadline_us(uint64_t us);
bool timer_expired(timer_deadline_t deadline);
void timer_udelay(uint32_t us);

#endif

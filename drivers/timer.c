/*
 * timer.c - the system timer and the CPU's best high-resolution counter
 * (see timer.h).
 *
 * - System timer [silicon:timer-systimer]: BCM2835 ARM Peripherals §12,
 *   64-bit free-running 1 MHz counter at base + 0x3000 (CLO/CHI).
 *   Deadlines use it: it never changes rate and never wraps in practice.
 * - High-resolution ticks, chosen at run time:
 *     ARMv7/v8 (Pi 2/3/4) [silicon:timer-cntpct]: the generic timer's
 *       physical count CNTPCT (constant rate, unlike the cycle counter,
 *       which follows the ARM clock the firmware may change);
 *     ARM1176 (Pi 0/1) [silicon:timer-ccnt]: the cycle counter CCNT
 *       (ARM1176JZF-S TRM §3.2.51), probed, because an emulator may not
 *       implement it;
 *     otherwise the system timer's low word.
 *   The rate is always measured against the system timer (CNTFRQ as set by
 *   the firmware may be wrong; the cycle counter follows the ARM clock),
 *   twice, and the disagreement is reported.
 */
#include "drivers/cpu.h"
#include "drivers/timer.h"
#include "drivers/mmio.h"
#include "lib/err.h"

#define ST_OFFSET	0x3000
#define ST_CLO		0x04
#define ST_CHI		0x08

#define CALIB_WINDOW_US	20000

enum src { SRC_SYSTIMER, SRC_CCNT, SRC_CNTPCT };

static uintptr_t st_base;
/* The system timer did not advance at start-up: every deadline is taken as
 * already expired, so waits fail at once with -ETIMEDOUT instead of hanging. */
static bool st_stuck;
static enum src src = SRC_SYSTIMER;
static struct timer_info info = { "systimer", 1000000, 1000000, 1000, 0, 0 };
static uint32_t ticks_systimer(void);

/* The tick source and ticks -> ns without a division (timer.h: a 64-bit
 * division is a library call of a few hundred instructions on the ARM1176,
 * and the engine converts several stamps per request): ns = ticks *
 * (ns_hi + ns_lo / 2^32), the factor 10^9 / freq_hz in 32.32 fixed point,
 * rounded down (less than 2 ns short for any 32-bit tick count; exact for
 * 1 MHz and 62.5 MHz). Kept in step with info.freq_hz by set_freq(), with
 * the wrap period; the source by set_src(). */
struct timer_conv timer_conv = { ticks_systimer, 1000, 0, 0xffffffffull * 1000u, 0xfffffu, 0 };

static void set_freq(uint32_t hz)
{
	uint64_t f = ((uint64_t)1000000000u << 32) / hz;

	info.freq_hz = hz;
	timer_conv.ns_hi = (uint32_t)(f >> 32);
	timer_conv.ns_lo = (uint32_t)f;
	timer_conv.wrap_ns = (uint64_t)0xffffffffu * timer_conv.ns_hi +
			     (((uint64_t)0xffffffffu * timer_conv.ns_lo) >> 32);
	timer_conv.mask30 = 0xffffffffu;
	while (timer_conv.mask30 && timer_ticks_to_ns(timer_conv.mask30) >= (1u << 30))
		timer_conv.mask30 >>= 1;
}

uint64_t timer_now_us(void)
{
	uint32_t hi, lo, hi2;

	if (!st_base)
		return 0;
	do {
		hi = mmio_read32(st_base + ST_CHI);
		lo = mmio_read32(st_base + ST_CLO);
		hi2 = mmio_read32(st_base + ST_CHI);
	} while (hi != hi2);
	return ((uint64_t)hi << 32) | lo;
}

uint64_t timer_now_ns(void)
{
	return timer_now_us() * 1000u;
}

#ifdef __aarch64__
/* AArch64: no ARM1176 cycle counter; the generic timer is always there
 * (EL1 access to CNTPCT_EL0 granted by start.S through CNTHCTL_EL2). */
static inline uint32_t ccnt_read(void)
{
	return 0;
}

static inline uint32_t cntpct_lo(void)
{
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntpct_el0" : "=r"(v) : : "memory");
	return (uint32_t)v;
}

static inline uint32_t cntfrq_read(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return (uint32_t)v;
}
#else
static inline uint32_t ccnt_read(void)
{
	uint32_t v;

	__asm__ volatile("mrc p15, 0, %0, c15, c12, 1" : "=r"(v));
	return v;
}

static inline uint32_t cntpct_lo(void)
{
	uint32_t lo, hi;

	__asm__ volatile("mrrc p15, 0, %0, %1, c14" : "=r"(lo), "=r"(hi));
	(void)hi;
	return lo;
}

static inline uint32_t cntfrq_read(void)
{
	uint32_t frq;

	__asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(frq));
	return frq;
}
#endif

static uint32_t ticks_systimer(void)
{
	return mmio_read32(st_base + ST_CLO);
}

static uint32_t ticks_ccnt(void)
{
	return ccnt_read();
}

static uint32_t ticks_cntpct(void)
{
	return cntpct_lo();
}

/* src and the function timer_ticks() calls, together. */
static void set_src(enum src s)
{
	src = s;
	timer_conv.ticks = s == SRC_CCNT ? ticks_ccnt :
			   s == SRC_CNTPCT ? ticks_cntpct : ticks_systimer;
}

timer_deadline_t timer_deadline_us(uint64_t us)
{
	return timer_now_us() + us;
}

bool timer_expired(timer_deadline_t deadline)
{
	return st_stuck || timer_now_us() >= deadline;
}

void timer_udelay(uint32_t us)
{
	timer_deadline_t d = timer_deadline_us(us);

	while (!timer_expired(d))
		;
}

const struct timer_info *timer_get_info(void)
{
	return &info;
}

/* Probe bodies (run under cpu_probe: an undefined instruction is caught). */
static void ccnt_enable(void *arg)
{
#ifndef __aarch64__
	/* PMNC: E (bit 0) enable, C (bit 2) reset the cycle counter. */
	__asm__ volatile("mcr p15, 0, %0, c15, c12, 0" : : "r"(0x5u));
#endif
	*(uint32_t *)arg = ccnt_read();
}

static void cntpct_probe(void *arg)
{
	((uint32_t *)arg)[0] = cntfrq_read();
	((uint32_t *)arg)[1] = cntpct_lo();
}

/* Ticks per second of the current source, over one window. */
static uint32_t measure_hz(uint32_t window_us)
{
	uint64_t s0, s1;
	uint32_t t0, t1;

	s0 = timer_now_us();
	while (timer_now_us() == s0)
		; /* align to a system-timer edge */
	s0 = timer_now_us();
	t0 = timer_ticks();
	do {
		s1 = timer_now_us();
	} while (s1 - s0 < window_us);
	t1 = timer_ticks();
	return (uint32_t)((uint64_t)(t1 - t0) * 1000000ull / (s1 - s0));
}

static bool source_ticks(void)
{
	uint32_t a = timer_ticks();
	uint64_t d = timer_now_us() + 100;

	while (timer_now_us() < d)
		;
	return timer_ticks() != a;
}

/* The one loop that cannot use a deadline is the check of the clock that
 * deadlines use: bounded by a count instead (a few ms at 1 GHz; the 1 MHz
 * counter changes every microsecond). */
#define ST_CHECK_READS 1000000u

int timer_init(uintptr_t periph_base)
{
	uint32_t f1, f2, i, best, t0, t1, v[2], c0;

	st_base = periph_base + ST_OFFSET;
	timer_conv.st_clo = st_base + ST_CLO;
	set_src(SRC_SYSTIMER);
	info.source = "systimer";
	info.nominal_hz = 1000000;

	c0 = mmio_read32(st_base + ST_CLO);
	for (i = 0; i < ST_CHECK_READS && mmio_read32(st_base + ST_CLO) == c0; i++)
		;
	st_stuck = i == ST_CHECK_READS;
	if (st_stuck) {
		info.source = "none";
		set_freq(1000000);
		return -EIO;
	}

	if (cpu_is_armv7()) {
		if (cpu_probe(cntpct_probe, v)) {
			set_src(SRC_CNTPCT);
			info.source = "cntpct";
			info.nominal_hz = v[0];
			if (!source_ticks())
				set_src(SRC_SYSTIMER);
		}
	} else if (cpu_probe(ccnt_enable, v)) {
		set_src(SRC_CCNT);
		info.source = "ccnt";
		info.nominal_hz = 0;
		if (!source_ticks())
			set_src(SRC_SYSTIMER);
	}
	if (src == SRC_SYSTIMER) {
		info.source = "systimer";
		info.nominal_hz = 1000000;
		set_freq(1000000);
	} else {
		set_freq(1000000); /* placeholder while measuring */
		f1 = measure_hz(CALIB_WINDOW_US);
		f2 = measure_hz(CALIB_WINDOW_US);
		set_freq((f1 / 2) + (f2 / 2) ? (f1 / 2) + (f2 / 2) : 1);
		info.calib_ppm = (uint32_t)((uint64_t)(f1 > f2 ? f1 - f2 : f2 - f1) *
					    1000000ull / info.freq_hz);
		if (info.freq_hz < 1000000) {
			set_src(SRC_SYSTIMER);
			info.source = "systimer";
			set_freq(1000000);
		}
	}

	/* Resolution: smallest non-zero step between consecutive reads.
	 * Read cost: 1000 back-to-back reads. */
	best = 0xffffffffu;
	for (i = 0; i < 2000; i++) {
		t0 = timer_ticks();
		do {
			t1 = timer_ticks();
		} while (t1 == t0);
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	info.resolution_ns = (uint32_t)timer_ticks_to_ns(best);
	if (info.resolution_ns == 0)
		info.resolution_ns = 1;
	t0 = timer_ticks();
	for (i = 0; i < 1000; i++)
		(void)timer_ticks();
	t1 = timer_ticks();
	info.read_cost_ns = (uint32_t)(timer_ticks_to_ns(t1 - t0) / 1000u);
	return 0;
}

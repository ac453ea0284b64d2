/*
 * sim_clock.c - the virtual clock, and the drivers/timer.h API of host
 * builds on top of it.
 *
 * Time is a 64-bit count of nanoseconds since sim_setup(). It advances only
 * when the simulated CPU does something that costs time: a register access
 * (sim_config.mmio_*_ns), a timer read (timer_read_ns), timer_udelay(). The
 * simulated hardware is evaluated lazily at each access from this clock.
 *
 * timer_ticks() counts ticks of sim_config.tick_ns (1 ns by default, so
 * ticks wrap after 4.29 s, like a 1 GHz cycle counter). timer_now_ns()
 * mimics the 1 MHz system timer: microsecond resolution.
 *
 * Waiting loops: a loop that only calls timer_expired() (no register access
 * in between) is skipped to its deadline, or to the next hardware event if
 * that comes first; nothing a driver can observe differs. The deadlines a
 * driver creates are remembered so that the register-polling fast-forward
 * (sim_sdhci.c) never jumps over one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/timer.h"
#include "sim/sim_internal.h"

uint64_t sim_clk_now;

/* The deadlines most recently created (a ring): the one a driver is
 * waiting on is the newest or close to it. */
#define MAX_DEADLINES 64

static uint64_t deadlines[MAX_DEADLINES];
static unsigned dl_next;
static unsigned timer_spins;
/* The last timer_expired() said yes: the driver is giving up, and the
 * register read that follows is its last look, not a poll to skip. */
static bool deadline_hit;
/* The clock when the driver last looked at the timer, and the reads a
 * passed deadline it has not seen yet held the fast-forward back. */
static uint64_t last_look;
static unsigned held_back;
static struct timer_info info;

/* A test that runs away (a driver loop without a deadline) must fail, not
 * hang: virtual time is capped. */
#define SIM_TIME_LIMIT_NS (3600ull * 1000000000ull)

static void check_limit(void)
{
	if (sim_clk_now > SIM_TIME_LIMIT_NS) {
		fprintf(stderr, "sim: virtual time passed one hour: a loop "
				"without a deadline?\n");
		abort();
	}
}

void sim_clk_reset(void)
{
	sim_clk_now = 0;
	memset(deadlines, 0, sizeof(deadlines));
	dl_next = 0;
	deadline_hit = false;
	timer_spins = 0;
	last_look = 0;
	held_back = 0;
}

void sim_clk_charge(uint32_t ns)
{
	sim_clk_now += ns;
	check_limit();
}

void sim_clk_note_mmio(void)
{
	timer_spins = 0;
}

bool sim_clk_deadline_hit(void)
{
	bool hit = deadline_hit;

	/* Only the one read right after the expiry is exempt: a loop that
	 * keeps polling after its deadline is fast-forwarded again. */
	deadline_hit = false;
	return hit;
}

/* Where a register-polling fast-forward may jump: the nearest deadline
 * ahead, or nowhere (the clock as it is) while a deadline has passed since
 * the driver last looked at the timer. A loop polling two registers
 * would otherwise jump to its deadline on the first and past it on the
 * second, before its timer_expired() could see it. A loop that never looks
 * at the timer is held back for a bounded number of reads only (so that
 * it still runs into the one-hour limit). */
uint64_t sim_clk_next_deadline(void)
{
	uint64_t best = SIM_NEVER;
	unsigned i;

	for (i = 0; i < MAX_DEADLINES; i++) {
		if (deadlines[i] > last_look && deadlines[i] <= sim_clk_now &&
		    held_back < 64) {
			held_back++;
			return sim_clk_now;
		}
		if (deadlines[i] > sim_clk_now && deadlines[i] < best)
			best = deadlines[i];
	}
	return best;
}

uint64_t sim_now_ns(void)
{
	return sim_clk_now;
}

void sim_advance_ns(uint64_t ns)
{
	sim_clk_now += ns;
	check_limit();
	sim_sdhci_advance(sim_clk_now);
}

static void timer_access(void)
{
	sim_clk_charge(sim_get_config()->timer_read_ns);
	last_look = sim_clk_now;
	held_back = 0;
}

int timer_init(uintptr_t periph_base)
{
	(void)periph_base;
	return 0;
}

const struct timer_info *timer_get_info(void)
{
	const struct sim_config *c = sim_get_config();

	info.source = "sim";
	info.freq_hz = (uint32_t)(1000000000u / c->tick_ns);
	info.nominal_hz = info.freq_hz;
	info.resolution_ns = c->tick_ns;
	info.read_cost_ns = c->timer_read_ns;
	info.calib_ppm = 0;
	return &info;
}

uint32_t timer_ticks(void)
{
	timer_access();
	return (uint32_t)(sim_clk_now / sim_get_config()->tick_ns);
}

uint64_t timer_ticks_to_ns(uint32_t ticks)
{
	return (uint64_t)ticks * sim_get_config()->tick_ns;
}

uint64_t timer_wrap_ns(void)
{
	return (1ull << 32) * sim_get_config()->tick_ns;
}

uint64_t timer_now_us(void)
{
	timer_access();
	return sim_clk_now / 1000;
}

uint64_t timer_now_ns(void)
{
	timer_access();
	return sim_clk_now / 1000 * 1000;
}

timer_deadline_t timer_deadline_us(uint64_t us)
{
	uint64_t d;

	timer_access();
	d = sim_clk_now + us * 1000;
	deadlines[dl_next++ % MAX_DEADLINES] = d;
	deadline_hit = false;
	return d;
}

bool timer_expired(timer_deadline_t deadline)
{
	timer_access();
	deadline_hit = sim_clk_now >= deadline;
	if (deadline_hit)
		return true;
	/* Third look at the clock in a row without touching the hardware:
	 * a pure delay loop. Skip to where something can change. */
	if (++timer_spins >= 3) {
		uint64_t ev = sim_sdhci_next_event();
		uint64_t to = ev < deadline ? ev : deadline;

		if (to > sim_clk_now) {
			sim_wire_cpu_wait(sim_clk_now, to);
			sim_clk_now = to;
		}
		check_limit();
		timer_spins = 0;
	}
	deadline_hit = sim_clk_now >= deadline;
	return deadline_hit;
}

void timer_udelay(uint32_t us)
{
	/* A driver sleeps only to wait for the card (between status polls). */
	sim_wire_cpu_wait(sim_clk_now, sim_clk_now + (uint64_t)us * 1000);
	sim_clk_now += (uint64_t)us * 1000;
	check_limit();
}

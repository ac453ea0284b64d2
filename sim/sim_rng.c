/*
 * sim_rng.c - the simulator's own deterministic random numbers: splitmix64
 * (Steele, Lea, Flood 2014) seeded per sim_setup(), and the latency
 * distribution of struct sim_dist. No libc rand(): results must not depend on
 * the host's C library.
 */
#include <math.h>

#include "sim/sim_internal.h"

static uint64_t rng_state;

void sim_rng_seed(uint64_t seed)
{
	rng_state = seed;
}

uint64_t sim_rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double sim_rng_unit(void)
{
	return (double)(sim_rng_next() >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t sim_rng_draw(const struct sim_dist *d)
{
	uint64_t v = d->min_ns;

	/* Draw the same number of values whatever the parameters, so that a
	 * profile change does not shift every later sample. */
	double u1 = sim_rng_unit();
	double u2 = sim_rng_unit();
	double u3 = sim_rng_unit();

	if (d->mean_extra_ns)
		v += (uint64_t)(-log(1.0 - u1) * (double)d->mean_extra_ns);
	if (d->stall_ppm && u2 * 1e6 < (double)d->stall_ppm) {
		uint64_t span = d->stall_max_ns > d->stall_min_ns ?
					d->stall_max_ns - d->stall_min_ns : 0;
		v += d->stall_min_ns + (uint64_t)(u3 * (double)span);
	}
	return v;
}

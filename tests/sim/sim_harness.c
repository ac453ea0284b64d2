/*
 * sim_harness.c - see sim_harness.h.
 */
#include <string.h>

#include "drivers/sdhci/bcm2835_emmc.h"
#include "tests/sim/sim_harness.h"

int simh_host_only(struct simh *s, const char *profile,
		   const struct sim_config *cfg)
{
	const struct sim_profile *p = sim_profile_find(profile);

	memset(s, 0, sizeof(*s));
	if (!p || sim_setup(cfg, p))
		return -1000;
	if (sim_get_config()->sdhost) {
		/* SDHOST: the core clock, as the mailbox gives it. */
		s->host = &s->sdhost.host;
		return bcm2835_sdhost_init(&s->sdhost, sim_get_config()->base,
					   sim_get_config()->base_clock_hz);
	}
	/* Base clock 0: taken from CAPABILITIES, as under QEMU. */
	s->host = &s->emmc.host;
	return bcm2835_emmc_init(&s->emmc, sim_get_config()->base, 0);
}

int simh_start(struct simh *s, const char *profile,
	       const struct sim_config *cfg)
{
	int ret = simh_host_only(s, profile, cfg);

	if (ret)
		return s->init_ret = ret;
	return s->init_ret = sd_init(&s->card, s->host);
}

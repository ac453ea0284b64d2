/*
 * sim_harness.c - see sim_harness.h.
 */
#include <stdlib.h>
#include <string.h>

#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/sdhci/bcm2712_sdhci.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "tests/sim/sim_harness.h"

/* The quirk set of the host profile's controller; base clock 0: taken from
 * CAPABILITIES, as under QEMU. The BCM2712 platform (the simulator's Pi 5):
 * its quirk set with the cfg block, the clock passed in as the firmware
 * does on a Pi 5 (card detect then counts as broken, as on the hardware). */
static int host_init(struct sdhci_host *sh)
{
	if (sim_get_config()->platform == SIM_PLATFORM_BCM2712)
		return bcm2712_sdhci_init(sh, sim_get_config()->base,
					  sim_get_config()->base + SIM_BCM2712_CFG_OFFSET,
					  sim_get_config()->base_clock_hz);
	if (!strcmp(sim_get_config()->controller, "emmc2"))
		return bcm2711_emmc2_init(sh, sim_get_config()->base, 0);
	return bcm2835_emmc_init(sh, sim_get_config()->base, 0);
}

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
	s->host = &s->emmc.host;
	return host_init(&s->emmc);
}

int simh_start(struct simh *s, const char *profile,
	       const struct sim_config *cfg)
{
	int ret = simh_host_only(s, profile, cfg);

	if (ret)
		return s->init_ret = ret;
	return s->init_ret = sd_init(&s->card, s->host);
}

void simh_program_env(struct bench_env *env, struct sdhci_host *emmc, size_t buf_bytes)
{
	memset(env, 0, sizeof(*env));
	env->board_model = "simulator";
	env->host_error = host_init(emmc);
	env->host = env->host_error ? NULL : &emmc->host;
	env->host_error_what = "the simulated EMMC host controller did not initialise";
	env->host_error_base = sim_get_config()->base;
	env->buf = malloc(buf_bytes);
	env->buf_bytes = env->buf ? (uint32_t)buf_bytes : 0;
}

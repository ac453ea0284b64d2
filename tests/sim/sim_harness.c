/*
 * sim_harness.c - see sim_harness.h.
 */
#include <stdlib.h>
#include <string.h>

#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "tests/sim/sim_harness.h"

/* The quirk set of the host profile's controller; base clock 0: taken from
 * CAPABILITIES, as under QEMU. */
static int host_init(struct sdhci_host *sh)
{
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

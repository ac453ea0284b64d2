/*
 * sim_harness.h - glue for the simulator tests: set the simulator up with
 * a profile and bring the real drivers (drivers/sdhci + drivers/sd) up on
 * it, exactly as the firmware does on hardware.
 */
#ifndef SDB_TESTS_SIM_HARNESS_H
#define SDB_TESTS_SIM_HARNESS_H

#include "drivers/sdhci/bcm2835_emmc.h"
#include "drivers/sdhost/bcm2835_sdhost.h"
#include "drivers/sd/sd.h"
#include "tests/sim/sim.h"

struct simh {
	struct sdhci_host emmc;
	struct bcm2835_sdhost sdhost; /* when the config asks for SDHOST */
	struct sd_host *host; /* &emmc.host or &sdhost.host */
	struct sd_card card;
	int init_ret;
};

/* sim_setup(cfg, profile) + bcm2835_emmc_init + sd_init. Returns sd_init's
 * result (also in s->init_ret); -1000 when the profile is unknown. */
int simh_start(struct simh *s, const char *profile,
	       const struct sim_config *cfg);
/* The same with the host only (no sd_init). */
int simh_host_only(struct simh *s, const char *profile,
		   const struct sim_config *cfg);

#endif

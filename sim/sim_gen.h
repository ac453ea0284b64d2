/*
 * sim_gen.h - cards and hosts drawn at random from a physical envelope
 * (sim/README.md, "Generated cards and hosts"): the accuracy checks run the
 * split on cards and hosts nobody tuned it for. The generator has its own
 * random numbers (splitmix64 from the seed alone): a seed names one card or
 * one host on every machine and in every build.
 */
#ifndef SDB_SIM_GEN_H
#define SDB_SIM_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim.h"

/* A generated host: the host fields of a sim_config (over
 * sim_config_default) and how its data moves. */
enum sim_gen_path {
	SIM_GEN_SDHCI_PIO,  /* the Arasan EMMC (BCM2835 quirks), CPU through DATA */
	SIM_GEN_SDHCI_UHS,  /* an SDHCI 3.00 with UHS-I modes, CPU through DATA */
	SIM_GEN_ADMA2,      /* the EMMC2 (BCM2711 quirks) moving data by ADMA2 */
	SIM_GEN_SDHOST_PIO, /* the BCM2835 SDHOST, CPU through its 16-word FIFO */
	SIM_GEN_SDHOST_DMA, /* SDHOST through the BCM2835 DMA engine */
	SIM_GEN_EMMC_DMA,   /* the Arasan EMMC through the BCM2835 DMA engine */
	SIM_GEN_NPATHS
};

struct sim_gen_host {
	struct sim_config c;
	enum sim_gen_path path;
	char desc[160];
};

/* The controller behaviours the authorities leave open (sim.h enum
 * sim_blkcnt, docs/silicon.md): which one a generated host gets.
 * SIM_GEN_DRAWN: drawn per host from a stream of its own (with the
 * SDHOST's fill after a write's last word, sim_config
 * .sdhost_end_fill_level; the host's
 * other draws stay those of its seed); otherwise that behaviour for
 * every host. Default SIM_BLKCNT_BUS: the figures of the generated pairs
 * as they were before the variants existed. */
#define SIM_GEN_DRAWN 0xffu
extern unsigned sim_gen_blkcnt;
/* The same for SDHCI Buffer Write Enable (enum sim_bwe) and the DAT[0]
 * level (enum sim_dat0): that behaviour for every generated host, or
 * SIM_GEN_DRAWN; both are also drawn when sim_gen_blkcnt is. Default
 * SIM_BWE_SLOT, SIM_DAT0_LIVE. */
extern unsigned sim_gen_bwe, sim_gen_dat0;
/* The same for SDHOST's SDEDM fill (enum sim_sdhost_fill; with
 * SIM_GEN_DRAWN its state machine, enum sim_sdhost_fsm, is drawn too).
 * Default SIM_FILL_LIVE. */
extern unsigned sim_gen_fill;

/* The card of seed 'seed' (name "gen-card-SEED"; desc says its regime). */
void sim_gen_card(uint64_t seed, struct sim_profile *p);
/* The host of seed 'seed' (host_name "gen-host-SEED"). */
void sim_gen_host(uint64_t seed, struct sim_gen_host *h);
const char *sim_gen_path_name(enum sim_gen_path p);
/* A host as the text of a host profile (sim/README.md "Profile files"),
 * its path as a comment. Returns the length written (as snprintf). */
int sim_gen_host_format(const struct sim_gen_host *h, char *buf, unsigned cap);

#endif

/*
 * sim_harness.h - glue for the simulator tests and sdbsim: set the
 * simulator up with a card profile and a host configuration and bring the
 * real drivers (drivers/sdhci or drivers/sdhost, then drivers/sd) up on
 * it, as the firmware does on hardware; the whole program's start-up on
 * the simulated board (simh_program_env); a console capture and a
 * workload context for the tests.
 */
#ifndef SDB_TESTS_SIM_HARNESS_H
#define SDB_TESTS_SIM_HARNESS_H

#include <stddef.h>

#include "bench/env.h"
#include "bench/storage/test_area.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "drivers/sdhost/bcm2835_sdhost.h"
#include "drivers/sd/sd.h"
#include "platform/slot.h"
#include "sim/sim.h"

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
/* The same with a profile given whole (a generated card, sim_gen.h). */
int simh_start_p(struct simh *s, const struct sim_profile *p, const struct sim_config *cfg);
int simh_host_only_p(struct simh *s, const struct sim_profile *p,
		     const struct sim_config *cfg);
/* The same with the host only (no sd_init). */
int simh_host_only(struct simh *s, const char *profile,
		   const struct sim_config *cfg);

/* A UHS-I host on host profile 'host' (sim/hosts): the SDHCI of the
 * simulated board's description (harness/sim_board.c: "pi4-uhs" the BCM2711
 * EMMC2 quirk set, the pi5 host the BCM2712's, any other a generic SDHCI
 * 3.00 quirk set that runs every UHS-I mode, with simh_board (harness/sim_board.h) or the Pi 5's
 * regulator lines); then sd_init_mode(want). Returns its result. */
int simh_start_uhs(struct simh *s, const char *profile, const char *host,
		   unsigned want);
/* The same with the card profile and the host configuration given whole. */
int simh_start_uhs_p(struct simh *s, const struct sim_profile *p, const struct sim_config *c,
		     unsigned want);
/* What start-up hands the whole program (bench_main) on the simulated
 * platform: the simulator's board (harness/sim_board.c) built by the slot
 * builder (platform/slot.c) into bs, which must outlive the run; its
 * switch_host moves the card between the board's controllers; a buffer of
 * buf_bytes (the caller frees env->buf). */
struct simh_board_slot {
	struct board_info board;
	struct sd_slot slot;
};
void simh_program_env(struct bench_env *env, struct simh_board_slot *bs, size_t buf_bytes);

/* What simh_random_transfers did. */
struct simh_xfers {
	unsigned writes, reads;
	char why[128];	/* the first failure, when it returns -1 */
};

/* ops random reads and writes of 1..maxn blocks (mostly up to 16) at
 * random LBAs below window, from buffers at a random 4-byte offset, with a
 * random stop mode (CMD23 where the card has it), drawn with rnd(n) (0..n-1);
 * each read compared with a reference of what was written, then the card's
 * flash with the reference. 0, or -1 at the first failure (out->why). */
int simh_random_transfers(struct simh *s, unsigned ops, uint32_t window, uint32_t maxn,
			  uint32_t (*rnd)(uint32_t n), struct simh_xfers *out);

/* A test area as sdbench.txt's test_area key gives one: blocks [first,
 * first + count), usable (the tests' write guards take it). */
void simh_config_area(struct test_area *ta, uint32_t first, uint32_t count);

/* The console captured into buf (cap bytes, kept NUL-terminated, cut at
 * cap - 1 characters), from empty, until simh_capture_stop(). */
void simh_capture_start(char *buf, size_t cap);
void simh_capture_stop(void);

struct dma_chan;
/* DMA engine channel ch (mask 0x3C, the BCM2835 bus alias) attached to
 * the controller that is up at base - SDHOST (sdhost) or the EMMC - and
 * the host's data path set to DMA. The peripheral base is below the
 * controller: SDHOST at +0x202000, the EMMC at +0x300000. 0 or -errno. */
int simh_attach_dma(struct simh *s, struct dma_chan *ch, uintptr_t base, bool sdhost);

struct write_guard;
struct wl_ctx;
/* A workload context on s's card as the tests run one: a write guard on ta
 * (writes allowed when 'writes'), the buffer mem of mem_bytes, the quick
 * or full profile, run id 0x5db and seed 42, reads from the test area's
 * first block. */
void simh_wl_ctx(struct simh *s, const struct test_area *ta, bool writes, bool quick,
		 uint8_t *mem, uint32_t mem_bytes, struct write_guard *g, struct wl_ctx *c);

/* Figures, printed and not asserted: reps transfers of blocks blocks
 * (reads, or writes when write) by PIO and then by DMA on s's host; per
 * path the throughput over the requests (virtual time) and the CPU's
 * data-moving share the driver measured (host_ticks over issue..end), on
 * a line "  figure <tag><what> PIO|ADMA2 ...". 0, or the first error. */
int simh_figure_pio_vs_dma(struct simh *s, const char *tag, const char *what, bool write,
			   uint32_t blocks, unsigned reps);

#endif

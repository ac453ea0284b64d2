/*
 * sim.c - the simulator's board (sim/): its description, composed from the
 * host profile (sim/hosts), and its side of the slot builder. The SDHCI
 * the profile describes comes first; a Pi 0-3-like profile (the BCM2835
 * EMMC's quirk set) also has SDHOST beside it, the card moved between them
 * as GPIO 48-53 would move it (sim_board_route_slot). The simulated memory
 * is flat, so data_path = auto is ADMA2 wherever the profile offers it,
 * and the host starts on it; SDHOST's DMA engine path is there for
 * data_path = dma, auto stays PIO.
 */
#include <string.h>

#include "drivers/dma/bcm2835_dma.h"
#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/sdhci/bcm2712_sdhci.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "drivers/sdhost/bcm2835_sdhost.h"
#include "platform/sd_io_pi5.h"
#include "platform/sim.h"
#include "sim/sim.h"
#include "sim/sim_harness.h"

/* A generic SDHCI 3.00 integration that runs every UHS-I mode (the shape
 * of the Pi 5's), for host profiles with UHS-I modes. */
static const struct sdhci_quirks sim_uhs_quirks = {
	.name = "sim-uhs",
	.f_min_hz = 200000u,
	.uhs_modes = 1u << SD_TIMING_SDR12 | 1u << SD_TIMING_SDR25 |
		     1u << SD_TIMING_SDR50 | 1u << SD_TIMING_SDR104 |
		     1u << SD_TIMING_DDR50,
	.uhs_max_hz = 208000000u,
};

static struct slot_ctrl ctrls[2];
static struct board_desc desc;

/* The SDHCI of the host profile: its quirk set and board hooks. */
static void sdhci_row(struct slot_ctrl *c, const struct sim_config *sc, const char *host)
{
	c->base = sc->base;
	c->clock = SLOT_CLK_CAPS;
	c->auto_path = c->auto_path_emulated = SD_PATH_DMA;
	c->start_on_auto = true;
	c->init_failed = "the simulated EMMC host controller did not initialise";
	if (sc->platform == SIM_PLATFORM_BCM2712) {
		/* The clock passed in as the firmware does on a Pi 5; the
		 * Pi 5's regulator lines on the simulated AON GPIO block. */
		c->name = BCM2712_SDHCI_NAME;
		c->driver = SLOT_DRV_BCM2712_SDHCI;
		c->cfg_base = sc->base + SIM_BCM2712_CFG_OFFSET;
		c->clock = SLOT_CLK_EMMC2;
		c->io = sc->sdr104 ? &sd_io_pi5_board : NULL;
	} else if (!strcmp(sc->controller, BCM2711_EMMC2_NAME) ||
		   (sc->caps_hi && !strcmp(host, "pi4-uhs"))) {
		c->name = BCM2711_EMMC2_NAME;
		c->driver = SLOT_DRV_BCM2711_EMMC2;
	} else if (sc->caps_hi) {
		c->name = sim_uhs_quirks.name;
		c->driver = SLOT_DRV_SDHCI;
		c->quirks = &sim_uhs_quirks;
	} else {
		c->name = BCM2835_EMMC_NAME;
		c->driver = SLOT_DRV_BCM2835_EMMC;
	}
	/* A host profile with UHS-I modes: the simulated board's regulator. */
	if (sc->caps_hi && sc->platform != SIM_PLATFORM_BCM2712)
		c->io = &simh_board;
}

static void sdhost_row(struct slot_ctrl *c, uintptr_t periph)
{
	c->name = BCM2835_SDHOST_NAME;
	c->driver = SLOT_DRV_BCM2835_SDHOST;
	c->base = periph + BCM2835_SDHOST_ARM_OFFSET;
	c->clock = SLOT_CLK_CORE;
	c->dma.dreq = DMA_DREQ_SDHOST;
	c->dma.mem_alias = DMA_MEM_ALIAS_BCM2835;
	c->auto_path = c->auto_path_emulated = SD_PATH_PIO;
	c->init_failed = "the simulated SDHOST controller did not initialise";
}

const struct board_desc *sim_board_desc(struct board_info *b)
{
	const struct sim_config *sc = sim_get_config();
	struct slot_ctrl sdhci = { 0 }, sdhost = { 0 };
	/* The peripheral base the controllers' places imply. */
	uintptr_t periph = sc->base - (sc->sdhost ? BCM2835_SDHOST_ARM_OFFSET :
				       BCM2835_EMMC_ARM_OFFSET);
	bool pi03;

	memset(b, 0, sizeof(*b));
	b->soc = SOC_UNKNOWN;
	b->soc_name = "sim";
	b->periph_base = periph;
	b->core_clock_hz = sc->base_clock_hz;  /* SDHOST's input */
	b->emmc2_clock_hz = sc->base_clock_hz; /* BCM2712: passed in */
	if (sc->sdhost) {
		struct sim_config c = *sc;

		c.base = periph + BCM2835_EMMC_ARM_OFFSET;
		sdhci_row(&sdhci, &c, sc->host_name);
	} else {
		sdhci_row(&sdhci, sc, sc->host_name);
	}
	sdhost_row(&sdhost, periph);
	pi03 = sdhci.driver == SLOT_DRV_BCM2835_EMMC;
	desc.soc = "sim";
	desc.ctrls = ctrls;
	desc.n_ctrls = pi03 ? 2 : 1;
	ctrls[0] = sc->sdhost ? sdhost : sdhci;
	ctrls[1] = sc->sdhost ? sdhci : sdhost;
	return &desc;
}

static int route(const struct slot_ctrl *ctrl, uintptr_t base)
{
	sim_board_route_slot(ctrl->driver == SLOT_DRV_BCM2835_SDHOST, base);
	return 0;
}

/* The channels the Pi firmware leaves to the ARM (2-5). */
static int dma_channels(uint32_t *mask)
{
	*mask = 0x3C;
	return 0;
}

const struct slot_services sim_slot_services = {
	.route = route,
	.dma_channels = dma_channels,
};

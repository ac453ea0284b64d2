/*
 * sim_board.c - the simulated board and its side of the slot builder
 * (pins: which model has the card, sim_board_route_slot; the DMA channels
 * the Pi firmware leaves to the ARM).
 *
 * A host profile that names a real SoC (its soc key: pi0-pi3, pi4-emmc2,
 * pi5) gets that SoC's own table from platform/ (sim_soc_place,
 * sim_soc_desc): the simulator's controllers where that SoC has them, the
 * facts detection would give, data_path = auto as on the board. The
 * profile adds only what a simulated board needs (CPU costs, controller
 * gaps; the card is the card profile).
 *
 * Any other host (the simulator's own: sim, test-gaps, uhs-sdr104, pi4,
 * pi4-uhs, generated hosts) gets the generic board, composed from the
 * profile (sim_board_desc): the SDHCI it describes first; with the BCM2835
 * EMMC's quirk set also SDHOST beside it, the card moved between them as
 * GPIO 48-53 would move it. Its memory is flat, so data_path = auto is
 * ADMA2 wherever the profile offers it, and the host starts on it;
 * SDHOST's DMA engine path is there for data_path = dma, auto stays PIO
 * (tests/golden runs this board).
 */
#include <stdio.h>
#include <string.h>

#include "drivers/dma/bcm2835_dma.h"
#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/sdhci/bcm2712_sdhci.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "drivers/sdhost/bcm2835_sdhost.h"
#include "platform/boards.h"
#include "platform/sd_io_pi5.h"
#include "platform/slot.h"
#include "harness/sim_board.h"
#include "sim/sim.h"

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

/* An SDHCI controller of no Pi (a host profile's controller = sdhci: the
 * test host test-gaps): driven as the BCM2835's Arasan (its registers are
 * the simulator's same model), but no authority describes its own idle
 * clocks between blocks. */
const struct sdhci_quirks sim_nopi_quirks = {
	.name = "sdhci",
	.pace_below_hz = 2000000u,
	.missing_caps_max_block = 1024u,
	.no_hispd_bit = true,
	.idle_clk_unknown = true,
};

static int board_io_mv(void *ctx, unsigned mv)
{
	(void)ctx;
	return sim_board_set_io_mv(mv) ? -5 /* -EIO */ : 0;
}

static int board_power(void *ctx, bool on)
{
	(void)ctx;
	return sim_board_set_card_power(on);
}

const struct sdhci_board simh_board = {
	.name = "sim",
	.set_io_mv = board_io_mv,
	.set_card_power = board_power,
	.ctx = NULL,
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
	} else if (!strcmp(sc->controller, sim_nopi_quirks.name)) {
		c->name = sim_nopi_quirks.name;
		c->driver = SLOT_DRV_SDHCI;
		c->quirks = &sim_nopi_quirks;
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

/* The row's address on board b. */
static uint64_t row_base(const struct slot_ctrl *c, const struct board_info *b)
{
	return c->base + (c->periph_relative ? b->periph_base : 0);
}

static const struct board_desc *soc_desc(const char *soc)
{
	unsigned i;

	for (i = 0; board_descs[i]; i++)
		if (!strcmp(board_descs[i]->soc, soc) && board_descs[i]->n_ctrls)
			return board_descs[i];
	return NULL;
}

/* b as detection would find the SoC of d on the simulator. */
static void soc_facts(const struct board_desc *d, const struct sim_config *c,
		      struct board_info *b)
{
	memset(b, 0, sizeof(*b));
	b->desc = d;
	b->soc = d->id;
	b->soc_name = d->soc;
	b->periph_base = (uintptr_t)d->periph_base;
	b->periph_size = d->periph_size;
	b->emmc_clock_hz = b->core_clock_hz = b->emmc2_clock_hz = c->base_clock_hz;
}

const struct board_desc *sim_soc_place(const char *soc, const char *ctrl, struct sim_config *c)
{
	const struct board_desc *d = soc_desc(soc);
	const struct slot_ctrl *row;
	struct board_info b;
	unsigned i;

	if (!d)
		return NULL;
	soc_facts(d, c, &b);
	row = sd_slot_find(d, ctrl);
	if (!row)
		return NULL;
	c->base = (uintptr_t)row_base(row, &b);
	c->sdhost = row->driver == SLOT_DRV_BCM2835_SDHOST;
	c->platform = row->driver == SLOT_DRV_BCM2712_SDHCI ? SIM_PLATFORM_BCM2712 :
			SIM_PLATFORM_BCM2835;
	for (i = 0; i < d->n_ctrls; i++) {
		if (d->ctrls[i].driver == SLOT_DRV_BCM2712_SDHCI)
			c->platform = SIM_PLATFORM_BCM2712;
		if (d->ctrls[i].driver == SLOT_DRV_BCM2711_EMMC2)
			snprintf(c->controller, sizeof(c->controller), "emmc2");
		if (d->ctrls[i].dma.dreq)
			c->dma_mem_alias = d->ctrls[i].dma.mem_alias;
	}
	snprintf(c->soc, sizeof(c->soc), "%s", d->soc);
	return d;
}

const struct board_desc *sim_soc_desc(struct board_info *b)
{
	const struct sim_config *c = sim_get_config();
	const struct board_desc *d = soc_desc(c->soc);

	if (d)
		soc_facts(d, c, b);
	return d;
}

const struct board_desc *sim_soc_board(const char *soc, struct sim_config *c,
				       const struct sim_profile *p, struct board_info *b)
{
	const struct board_desc *d = sim_soc_place(soc, NULL, c);

	if (!d || sim_setup(c, p))
		return NULL;
	soc_facts(d, c, b);
	return d;
}

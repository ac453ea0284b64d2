/*
 * slot.c - see slot.h.
 */
#include <stddef.h>
#include <string.h>

#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/sdhci/bcm2712_sdhci.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "lib/err.h"
#include "platform/slot.h"

void sd_slot_init(struct sd_slot *slot, const struct board_desc *desc,
		  const struct board_info *b, const struct slot_services *svc)
{
	unsigned i, n = 0;

	memset(slot, 0, sizeof(*slot));
	slot->desc = desc;
	slot->board = b;
	slot->svc = svc;
	for (i = 0; i < desc->n_ctrls && n < SLOT_MAX_CTRLS; i++)
		slot->names[n++] = desc->ctrls[i].name;
	slot->names[n] = NULL;
}

const struct slot_ctrl *sd_slot_find(const struct board_desc *desc, const char *name)
{
	unsigned i;

	if (!desc->n_ctrls)
		return NULL;
	if (!name || !strcmp(name, "auto"))
		return &desc->ctrls[0];
	for (i = 0; i < desc->n_ctrls; i++)
		if (!strcmp(desc->ctrls[i].name, name))
			return &desc->ctrls[i];
	return NULL;
}

static int fail(struct sd_slot *slot, int r, const char *what, uintptr_t base)
{
	slot->host = NULL;
	slot->error = r;
	slot->error_what = what;
	slot->error_base = base;
	return r;
}

static void clear(struct sd_slot *slot)
{
	slot->ctrl = NULL;
	slot->host = NULL;
	slot->unsupported = NULL;
	slot->error = 0;
	slot->error_what = NULL;
	slot->error_base = 0;
	slot->dma_note = "no DMA engine path on this controller";
}

/* The controller's input clock from where the row says it comes. */
static uint32_t input_clock(const struct slot_ctrl *c, const struct board_info *b)
{
	uint32_t hz = 0;

	if (c->caps_clock_emulated && b->emulated)
		return 0;
	switch (c->clock) {
	case SLOT_CLK_CAPS: hz = 0; break;
	case SLOT_CLK_EMMC: hz = b->emmc_clock_hz; break;
	case SLOT_CLK_EMMC2: hz = b->emmc2_clock_hz; break;
	case SLOT_CLK_CORE: hz = b->core_clock_hz; break;
	}
	return hz ? hz : c->clock_fallback_hz;
}

/* An SDHCI row's quirk set at base. */
static int init_sdhci(struct sdhci_host *sh, const struct slot_ctrl *c, uintptr_t base,
		      uint32_t hz)
{
	switch (c->driver) {
	case SLOT_DRV_BCM2835_EMMC:
		return bcm2835_emmc_init(sh, base, hz);
	case SLOT_DRV_BCM2711_EMMC2:
		return bcm2711_emmc2_init(sh, base, hz);
	case SLOT_DRV_BCM2712_SDHCI:
		return bcm2712_sdhci_init(sh, base, (uintptr_t)c->cfg_base, hz);
	case SLOT_DRV_SDHCI:
		return sdhci_host_init(sh, c->quirks, base, hz);
	default:
		return -ENODEV;
	}
}

/* Bring up the row's driver at base; slot->host on success. */
static int init_driver(struct sd_slot *slot, const struct slot_ctrl *c, uintptr_t base,
		       uint32_t hz)
{
	int r;

	if (c->driver == SLOT_DRV_BCM2835_SDHOST) {
		r = bcm2835_sdhost_init(&slot->sdhost, base, hz);
		if (!r)
			slot->host = &slot->sdhost.host;
		return r;
	}
	r = init_sdhci(&slot->sdhci, c, base, hz);
	if (!r)
		slot->host = &slot->sdhci.host;
	return r;
}

/* The DMA engine as the data path: a channel from those the firmware
 * leaves to the ARM. false (slot->dma_note says why): PIO only. */
static bool attach_engine(struct sd_slot *slot, const struct slot_ctrl *c)
{
	uint32_t mask = 0;

	slot->dma_note = NULL;
	if (!slot->svc->dma_channels || slot->svc->dma_channels(&mask)) {
		slot->dma_note = "the firmware did not give the DMA channel mask";
		return false;
	}
	if (dma_chan_init(&slot->dma, slot->board->periph_base, c->dma.mem_alias, mask)) {
		slot->dma_note = dma_error(&slot->dma);
		return false;
	}
	if (c->driver == SLOT_DRV_BCM2835_SDHOST)
		bcm2835_sdhost_attach_dma(&slot->sdhost, &slot->dma, c->dma.dreq);
	else
		bcm2835_emmc_attach_dma(&slot->sdhci, &slot->dma, c->dma.dreq);
	return true;
}

/* What an SDHCI row sets around the controller: the view of its own DMA
 * master, the board's UHS-I hooks. */
static void attach_sdhci_board(struct sdhci_host *sh, const struct slot_ctrl *c,
			       const struct board_info *b)
{
	if (c->dma_view.window)
		sdhci_set_dma_view(sh, c->dma_view.offset, c->dma_view.window);
	if (c->io && (!b->emulated || c->io_emulated))
		sdhci_set_board(sh, c->io);
}

/* data_path = auto as the row says (the engine path only with its
 * channel), and the host on it when the row starts there. */
static void set_auto_path(struct sd_host *h, const struct slot_ctrl *c,
			  const struct board_info *b, bool has_engine)
{
	unsigned path = b->emulated ? c->auto_path_emulated : c->auto_path;

	if (c->dma.dreq && !has_engine)
		path = SD_PATH_PIO;
	h->auto_path = (uint8_t)path;
	if (c->start_on_auto && h->data_path != path && (h->data_paths & (1u << path)))
		sd_host_set_data_path(h, path);
}

int sd_slot_build_sdhci(struct sdhci_host *sh, const struct slot_ctrl *c,
			const struct board_info *b)
{
	uint64_t base = c->base + (c->periph_relative ? b->periph_base : 0);
	int r = init_sdhci(sh, c, (uintptr_t)base, input_clock(c, b));

	if (r)
		return r;
	attach_sdhci_board(sh, c, b);
	set_auto_path(&sh->host, c, b, false);
	return 0;
}

int sd_slot_build(struct sd_slot *slot, const char *name)
{
	const struct slot_ctrl *c = sd_slot_find(slot->desc, name);
	bool has_engine;
	uint64_t base;
	int r;

	if (!c) {
		slot->error_what = "this board's SD slot is not wired to that controller";
		return -ENODEV;
	}
	clear(slot);
	base = c->base + (c->periph_relative ? slot->board->periph_base : 0);
	if (base > UINTPTR_MAX)
		return fail(slot, -ENODEV, "the SD slot's controller lies above 4 GiB: "
			    "the 64-bit build (kernel_2712.img) reaches it", 0);
	slot->ctrl = c;
	r = slot->svc->route ? slot->svc->route(c, (uintptr_t)base) : 0;
	if (r)
		return fail(slot, r, "could not route the SD slot's pins to the controller",
			    (uintptr_t)base);
	r = init_driver(slot, c, (uintptr_t)base, input_clock(c, slot->board));
	if (r)
		return fail(slot, r, c->init_failed, (uintptr_t)base);
	has_engine = c->dma.dreq && attach_engine(slot, c);
	if (c->driver != SLOT_DRV_BCM2835_SDHOST)
		attach_sdhci_board(&slot->sdhci, c, slot->board);
	set_auto_path(slot->host, c, slot->board, has_engine);
	return 0;
}

static struct sd_slot *program_slot;

int sd_slot_start(struct sd_slot *slot, const struct board_desc *desc,
		  const struct board_info *b, const struct slot_services *svc, const char *name)
{
	sd_slot_init(slot, desc, b, svc);
	program_slot = slot;
	if (sd_slot_build(slot, name) && !slot->error)
		slot->error = -ENODEV;
	return slot->error;
}

int sd_slot_switch(const char *name, struct sd_host **host, const char **why)
{
	int r = program_slot ? sd_slot_build(program_slot, name) : -ENODEV;

	*host = program_slot ? program_slot->host : NULL;
	*why = program_slot ? program_slot->error_what : "no SD slot was started";
	return r;
}

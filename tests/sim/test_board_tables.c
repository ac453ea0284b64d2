/*
 * test_board_tables.c - every SoC's real table (platform/bcm2835.c,
 * bcm2836.c, bcm2711.c, bcm2712.c, listed by platform/boards.c) through the
 * firmware's slot builder (platform/slot.c) on the simulator: the
 * simulated board is placed where the table says (harness/sim_board.c
 * sim_soc_board), each controller row is built in turn as sdbench.txt's
 * "host" would ask, and a short run writes and reads back through the
 * data path the row's data_path = auto selects on hardware.
 *
 * The expectations are the boards' as their authorities give them, not
 * read from the tables: BCM2835 ARM Peripherals §1.2.3 (0x20000000), the
 * BCM2836/7 device trees (0x3F000000), BCM2711 ARM Peripherals §1.2.4
 * (0xFE000000 low-peripheral mode), bcm2712.dtsi (0x10_7C00_0000); the Pi
 * 0-3 slot on GPIO 48-53 reaching the Arasan EMMC or SDHOST, both moved by
 * the DMA engine as Linux's bcm2835-mmc and bcm2835 (sdhost) drivers do;
 * the Pi 4's EMMC2 and the Pi 5's sdio1 alone, by PIO unless data_path =
 * dma asks (their tables' comments say why).
 */
#include <stdio.h>
#include <string.h>

#include "drivers/mailbox.h"
#include "drivers/sd/sd.h"
#include "harness/sim_board.h"
#include "platform/boards.h"
#include "platform/slot.h"
#include "sim/sim.h"
#include "tests/unit/check.h"

struct soc_case {
	const char *soc, *host;   /* the table, the host profile of that board */
	uint64_t periph_base;
	const char *rows[3];      /* the controllers, the slot's usual first */
	unsigned auto_path[2];    /* data_path = auto on hardware, per row */
};

static const struct soc_case cases[] = {
	{ "BCM2835", "pi1", 0x20000000u, { "emmc", "sdhost" }, { SD_PATH_DMA, SD_PATH_DMA } },
	{ "BCM2836", "pi2", 0x3f000000u, { "emmc", "sdhost" }, { SD_PATH_DMA, SD_PATH_DMA } },
	{ "BCM2837", "pi3", 0x3f000000u, { "emmc", "sdhost" }, { SD_PATH_DMA, SD_PATH_DMA } },
	{ "BCM2711", "pi4-emmc2", 0xfe000000u, { "emmc2" }, { SD_PATH_PIO } },
	{ "BCM2712", "pi5", 0x107c000000ull, { "sdio1" }, { SD_PATH_PIO } },
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))
#define RUN_LBA 4096u
#define RUN_BLOCKS 24u

static struct board_info board;
static struct sd_slot slot;
static uint8_t wbuf[RUN_BLOCKS * 512], rbuf[RUN_BLOCKS * 512];

/* The simulated board of case k on its table; NULL when refused. */
static const struct board_desc *board_of(const struct soc_case *k)
{
	struct sim_config c;
	char err[160];
	const struct board_desc *d;

	sim_config_default(&c);
	if (sim_host_load(k->host, &c, err, sizeof(err)))
		return NULL;
	d = sim_soc_board(k->soc, &c, sim_profile_find("sdhc-c10-16g"), &board);
	if (d && d->gpio != BOARD_GPIO_NONE) {
		/* The mailbox where the table puts it (the Pi 4's SD I/O
		 * regulator is behind its GPIO expander). */
		sim_mbox_reset(board.periph_base);
		mbox_init(board.periph_base + d->mbox_offset, d->mbox_bus_alias);
	}
	return d;
}

/* Write a pattern and read it back through h's current data path. */
static int short_run(struct sd_host *h, unsigned salt)
{
	struct sd_card card;
	unsigned i;
	int r = sd_init(&card, h);

	if (r)
		return r;
	for (i = 0; i < sizeof(wbuf); i++)
		wbuf[i] = (uint8_t)(i * 7 + salt);
	memset(rbuf, 0, sizeof(rbuf));
	r = sd_write_blocks(&card, RUN_LBA, RUN_BLOCKS, wbuf, SD_STOP_AUTO12, NULL);
	if (!r)
		r = sd_read_blocks(&card, RUN_LBA, RUN_BLOCKS, rbuf, SD_STOP_AUTO12, NULL);
	if (!r && memcmp(wbuf, rbuf, sizeof(wbuf)))
		r = -1000;
	return r;
}

/* Row i of case k built by the slot builder, on its hardware auto path. */
static void check_row(const struct soc_case *k, unsigned i)
{
	struct sd_host *h = NULL;
	const char *why = NULL;
	int r = sd_slot_switch(k->rows[i], &h, &why);

	if (r || !h) {
		CHECK_FAIL_("%s %s: the slot builder failed (%d, %s)", k->soc, k->rows[i], r,
			    why ? why : "");
		return;
	}
	CHECK_STR(h->name, k->rows[i]);
	CHECK_EQ_U(h->auto_path, k->auto_path[i]);
	if (k->auto_path[i] == SD_PATH_DMA)
		CHECK(slot.dma_note == NULL); /* the engine's channel attached */
	CHECK_EQ_I(sd_host_set_data_path(h, h->auto_path), 0);
	CHECK_EQ_I(short_run(h, i + 1), 0);
	CHECK_EQ_U(h->data_path, k->auto_path[i]);
	printf("  %s %-6s at 0x%llx: auto path %s, %u blocks written and read back\n", k->soc,
	       h->name, (unsigned long long)(slot.ctrl->base + (slot.ctrl->periph_relative ?
							       board.periph_base : 0)),
	       h->auto_path == SD_PATH_DMA ? "DMA" : "PIO", RUN_BLOCKS);
}

TEST(every_soc_table_is_listed_once)
{
	unsigned i, n = 0;

	for (i = 0; board_descs[i]; i++, n++)
		CHECK_STR(board_descs[i]->soc, cases[i].soc);
	CHECK_EQ_U(n, N_CASES);
}

TEST(every_soc_table_builds_its_slot_on_the_simulator)
{
	unsigned k, i;

	for (k = 0; k < N_CASES; k++) {
		const struct soc_case *c = &cases[k];
		const struct board_desc *d = board_of(c);
		unsigned rows = 0;

		if (!d) {
			CHECK_FAIL_("%s: no simulated board on its table", c->soc);
			continue;
		}
		CHECK_EQ_U(board.periph_base, c->periph_base);
		CHECK_EQ_I(sd_slot_start(&slot, d, &board, &sim_slot_services, NULL), 0);
		CHECK(slot.ctrl == &d->ctrls[0]);
		for (i = 0; slot.names[i]; i++, rows++)
			CHECK_STR(slot.names[i], c->rows[i]);
		CHECK_EQ_U(rows, d->n_ctrls);
		for (i = 0; i < d->n_ctrls && c->rows[i]; i++)
			check_row(c, i);
	}
}

TEST(a_controller_the_table_lacks_is_refused)
{
	struct sd_host *h = NULL;
	const char *why = NULL;
	const struct board_desc *d = board_of(&cases[3]); /* BCM2711: EMMC2 alone */

	CHECK(d != NULL);
	if (!d)
		return;
	CHECK_EQ_I(sd_slot_start(&slot, d, &board, &sim_slot_services, NULL), 0);
	CHECK_EQ_I(sd_slot_switch("sdhost", &h, &why), -ENODEV);
	CHECK_STR(why, "this board's SD slot is not wired to that controller");
}

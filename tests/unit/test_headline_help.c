/*
 * test_headline_help.c - the headline's "would help" lines
 * (bench/engine/headline_help.c): each comes from a limit found and from
 * what card and host offer, and nothing is suggested that one side lacks.
 * Cards and hosts are made up here field by field; the SCR byte is set by
 * hand from the Physical Layer's layout (SD_BUS_WIDTHS, bits 51:48: the
 * low nibble of the second byte, bit 50 = 4-bit).
 */
#include <string.h>

#include "bench/engine/headline_help.h"
#include "drivers/sd/sd_host.h"
#include "tests/unit/check.h"

static struct sd_host host;
static struct sd_card card;

/* An HS card on a 3.3 V host with PIO and DMA, 4-bit at 50 MHz, PIO in use. */
static void setup(void)
{
	memset(&host, 0, sizeof(host));
	memset(&card, 0, sizeof(card));
	host.cap_hs = true;
	host.data_paths = (1u << SD_PATH_PIO) | (1u << SD_PATH_DMA);
	host.data_path = SD_PATH_PIO;
	card.host = &host;
	card.have_scr = true;
	card.scr[1] = 0x05; /* 1- and 4-bit */
	card.hs_supported = true;
	card.width = 4;
	card.timing = SD_TIMING_HS;
	card.clock_hz = 50000000u;
	card.max_clock_hz = 50000000u;
}

static bool has(const struct headline_help *h, const char *part)
{
	unsigned k;

	for (k = 0; k < h->n; k++)
		if (strstr(h->line[k], part))
			return true;
	return false;
}

TEST(nothing_limits_nothing_suggested)
{
	struct headline_help h;

	setup();
	headline_help(&card, 0, &h);
	CHECK_EQ_U(h.n, 0);
}

TEST(bus_bound_at_the_top_of_what_both_offer_says_none_on_offer)
{
	struct headline_help h;

	setup();
	headline_help(&card, HELP_LIMIT_BUS, &h);
	CHECK_EQ_U(h.n, 1);
	CHECK(has(&h, "none on offer"));
	CHECK(!has(&h, "bus_mode ="));
}

TEST(bus_bound_in_default_speed_names_hs)
{
	struct headline_help h;

	setup();
	card.timing = SD_TIMING_DS;
	card.clock_hz = card.max_clock_hz = 25000000u;
	headline_help(&card, HELP_LIMIT_BUS, &h);
	CHECK(has(&h, "bus_mode = hs"));
	host.cap_hs = false; /* the host cannot: not suggested */
	headline_help(&card, HELP_LIMIT_BUS, &h);
	CHECK(!has(&h, "bus_mode ="));
}

TEST(bus_bound_one_bit_card_offering_four_bits)
{
	struct headline_help h;

	setup();
	card.width = 1;
	headline_help(&card, HELP_LIMIT_BUS, &h);
	CHECK(has(&h, "4-bit bus"));
	card.scr[1] = 0x01; /* the card offers 1-bit only */
	headline_help(&card, HELP_LIMIT_BUS, &h);
	CHECK(!has(&h, "4-bit bus"));
}

TEST(uhs_card_on_a_3v3_host_names_a_1v8_board)
{
	struct headline_help h;

	setup();
	card.card_modes = (1u << SD_TIMING_SDR50) | (1u << SD_TIMING_SDR104);
	headline_help(&card, HELP_LIMIT_BUS, &h);
	CHECK(has(&h, "1.8 V"));
	/* a host that has SDR50, a card that accepted 1.8 V: the mode by name */
	host.uhs_modes = (1u << SD_TIMING_SDR25) | (1u << SD_TIMING_SDR50);
	card.s18a = true;
	headline_help(&card, HELP_LIMIT_BUS, &h);
	CHECK(has(&h, "bus_mode = sdr50"));
	CHECK(!has(&h, "sdr104"));
}

TEST(clock_below_the_mode_top)
{
	struct headline_help h;

	setup();
	card.clock_hz = 41666666u;
	headline_help(&card, HELP_LIMIT_BUS, &h);
	CHECK(has(&h, "a faster clock"));
}

TEST(host_bound_names_dma_only_when_the_host_has_it)
{
	struct headline_help h;

	setup();
	headline_help(&card, HELP_LIMIT_HOST, &h);
	CHECK(has(&h, "data_path = dma"));
	host.data_paths = 1u << SD_PATH_PIO;
	headline_help(&card, HELP_LIMIT_HOST, &h);
	CHECK(!has(&h, "data_path = dma"));
	CHECK(has(&h, "a faster host"));
	host.data_paths |= 1u << SD_PATH_DMA;
	host.data_path = SD_PATH_DMA; /* already DMA */
	headline_help(&card, HELP_LIMIT_HOST, &h);
	CHECK(!has(&h, "data_path = dma"));
}

/* Under QEMU data_path = auto is PIO because QEMU's DMA hides the split:
 * the advice must not say the opposite. */
TEST(host_bound_under_qemu_does_not_advise_dma)
{
	struct headline_help h;

	setup();
	headline_help(&card, HELP_LIMIT_HOST | HELP_EMULATED, &h);
	CHECK(!has(&h, "data_path = dma"));
	CHECK(has(&h, "DMA is not advised under QEMU"));
	CHECK_EQ_U(h.n, 1);
	headline_help(&card, HELP_LIMIT_HOST, &h);
	CHECK(has(&h, "data_path = dma"));
}

TEST(card_bound_names_another_card_and_nothing_else)
{
	struct headline_help h;

	setup();
	headline_help(&card, HELP_LIMIT_CARD, &h);
	CHECK_EQ_U(h.n, 1);
	CHECK(has(&h, "another card"));
}

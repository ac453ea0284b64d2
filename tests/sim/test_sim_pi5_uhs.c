/*
 * test_sim_pi5_uhs.c - UHS-I on the simulator's BCM2712 (Pi 5) platform,
 * through the real drivers: the BCM2712 quirk set (its own list of UHS-I
 * modes, the delay-line PHY), the Pi 5's regulator lines
 * (platform/sd_io_pi5.c on the simulated always-on GPIO block) and the
 * card layer. SDR104 at 200 MHz with CMD19 tuning on a UHS card, every
 * pinned mode, and the clean fallbacks: a card without UHS-I, a card
 * that fails the 1.8 V switch, a regulator line that does not switch, a
 * controller left on its 50 MHz path. No emulator models a Pi 5: this is
 * where the Pi 5's SDR104 path runs.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/mmio.h"
#include "drivers/sd/sd.h"
#include "platform/sd_io_pi5.h"
#include "drivers/sdhci/bcm2712_sdhci.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define CFG(off) (sim_get_config()->base + SIM_BCM2712_CFG_OFFSET + (off))

static void check_data(struct simh *s, uint32_t lba)
{
	static uint8_t w[32 * 512], r[32 * 512], f[32 * 512];
	unsigned i;

	for (i = 0; i < sizeof(w); i++)
		w[i] = (uint8_t)(i * 5 + lba + s->card.timing);
	CHECK_EQ_I(sd_write_blocks(&s->card, lba, 32, w, SD_STOP_AUTO12, NULL), 0);
	memset(r, 0, sizeof(r));
	CHECK_EQ_I(sd_read_blocks(&s->card, lba, 32, r, SD_STOP_AUTO12, NULL), 0);
	CHECK(memcmp(w, r, sizeof(w)) == 0);
	sim_card_peek((uint64_t)lba * 512, f, sizeof(f));
	CHECK(memcmp(w, f, sizeof(w)) == 0);
}

static void show(const char *what, const struct simh *s)
{
	printf("  %-30s %-6s %3u MHz %u mV CMD19 %2u  %s\n", what,
	       sd_timing_name(s->card.timing), (unsigned)(s->card.clock_hz / 1000000u),
	       s->card.signal_mv, (unsigned)s->card.tuning_tries,
	       s->card.mode_note[0] ? s->card.mode_note : "-");
}

/* The firmware's state of the lines the slot does not own. */
static void check_other_lines(void)
{
	CHECK_EQ_I(sim_gio_aon_line(2), 1); /* RP1_RUN still driven high */
}

TEST(pi5_host_reaches_sdr104_at_200mhz)
{
	static const char *const cards[] = { "uhs-sdr104-a2-64g", "uhs-sdr104-a1-32g",
					     "uhs-narrow-window-128g" };
	unsigned i;

	for (i = 0; i < 3; i++) {
		struct simh s;

		CHECK_EQ_I(simh_start_uhs(&s, cards[i], "pi5", SD_MODE_AUTO), 0);
		show(cards[i], &s);
		CHECK_STR(s.host->name, "sdio1");
		/* The simulated controller's CAPABILITIES[63:32] lists no UHS-I
		 * mode: the quirk set's list is the one used. */
		CHECK_EQ_U(mmio_read32(sim_get_config()->base + 0x44), 0);
		CHECK_EQ_U(s.host->uhs_modes, 1u << SD_TIMING_SDR12 | 1u << SD_TIMING_SDR25 |
			   1u << SD_TIMING_SDR50 | 1u << SD_TIMING_SDR104 |
			   1u << SD_TIMING_DDR50);
		CHECK_EQ_U(s.card.timing, SD_TIMING_SDR104);
		CHECK_EQ_U(s.card.signal_mv, 1800);
		/* 200 MHz: the divider bypassed, on the wire too. */
		CHECK_EQ_U(s.card.clock_hz, 200000000u);
		CHECK_EQ_U(sim_sd_clock_hz(), 200000000u);
		CHECK(s.card.tuning_tries > 0 && s.card.tuning_tries <= 40);
		CHECK_EQ_U(sim_tuning_count(), s.card.tuning_tries);
		/* The regulator and the card's supply through AON GPIO 3 and 4. */
		CHECK_EQ_U(sim_io_voltage_mv(), 1800);
		CHECK_EQ_U(sim_card_io_mv(), 1800);
		CHECK_EQ_I(sim_gio_aon_line(PI5_AON_SD_IOVDD_SEL), 1);
		CHECK_EQ_I(sim_gio_aon_line(PI5_AON_SD_PWR_ON), 1);
		CHECK_EQ_U(sim_gio_aon_regulator_switches(), 1);
		check_other_lines();
		/* The delay-line PHY selected at init. */
		CHECK_EQ_U(mmio_read32(CFG(BCM2712_CFG_MAX_50MHZ_MODE)),
			   BCM2712_CFG_MAX_50MHZ_STRAP_OVERRIDE);
		check_data(&s, 1000 + 64 * i);
		CHECK_EQ_U(sim_violation_count(), 0);
		if (sim_violation_count())
			printf("    first violation: %s\n", sim_violation_msg(0));
	}
}

TEST(every_pinned_mode_on_pi5)
{
	static const struct { unsigned mode, timing; uint32_t hz, mv; } m[] = {
		{ SD_MODE_DS, SD_TIMING_DS, 25000000u, 3300 },
		{ SD_MODE_HS, SD_TIMING_HS, 50000000u, 3300 },
		{ SD_MODE_SDR12, SD_TIMING_SDR12, 25000000u, 1800 },
		{ SD_MODE_SDR25, SD_TIMING_SDR25, 50000000u, 1800 },
		{ SD_MODE_SDR50, SD_TIMING_SDR50, 100000000u, 1800 },
		{ SD_MODE_DDR50, SD_TIMING_DDR50, 50000000u, 1800 },
		{ SD_MODE_SDR104, SD_TIMING_SDR104, 200000000u, 1800 },
	};
	unsigned i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct simh s;
		char what[40];

		CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "pi5", m[i].mode), 0);
		snprintf(what, sizeof(what), "bus_mode %s", sd_bus_mode_name(m[i].mode));
		show(what, &s);
		CHECK_EQ_U(s.card.timing, m[i].timing);
		CHECK_EQ_U(s.card.clock_hz, m[i].hz);
		CHECK_EQ_U(sim_sd_clock_hz(), m[i].hz);
		CHECK_EQ_U(s.card.signal_mv, m[i].mv);
		CHECK_EQ_U(sim_io_voltage_mv(), m[i].mv);
		/* Only SDR104 is tuned: the simulated CAPABILITIES do not ask
		 * for tuning in SDR50. */
		CHECK_EQ_I(s.card.tuning_tries > 0, m[i].timing == SD_TIMING_SDR104);
		check_data(&s, 2000 + 64 * i);
		check_other_lines();
		CHECK_EQ_U(sim_violation_count(), 0);
	}
}

TEST(card_without_uhs_stays_at_3v3_high_speed)
{
	struct simh s;

	CHECK_EQ_I(simh_start_uhs(&s, "sdhc-c10-16g", "pi5", SD_MODE_AUTO), 0);
	show("sdhc-c10-16g (no UHS-I)", &s);
	CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
	CHECK_EQ_U(s.card.clock_hz, 50000000u);
	CHECK_EQ_U(s.card.signal_mv, 3300);
	CHECK(strstr(s.card.mode_note, "S18A 0") != NULL);
	/* The regulator was never touched. */
	CHECK_EQ_U(sim_gio_aon_regulator_switches(), 0);
	CHECK_EQ_U(sim_io_voltage_mv(), 3300);
	CHECK_EQ_I(sim_gio_aon_line(PI5_AON_SD_IOVDD_SEL), 0);
	check_data(&s, 3000);
	/* bus_mode sdr104 asked for: the same, with the reason. */
	CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_SDR104), 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
	CHECK_EQ_U(s.card.signal_mv, 3300);
	check_other_lines();
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(failed_switch_power_cycles_through_aon_gpio4)
{
	struct sim_fault f = { .kind = SIM_FAULT_UHS_SWITCH, .times = ~0u };
	struct simh s;
	int id;

	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "pi5", SD_MODE_HS), 0);
	CHECK_EQ_U(sim_gio_aon_power_offs(), 0);
	id = sim_fault_add(&f);
	CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_AUTO), 0);
	show("card fails the 1.8 V switch", &s);
	CHECK(sim_fault_fired(id) > 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
	CHECK_EQ_U(s.card.signal_mv, 3300);
	CHECK(strstr(s.card.mode_note, "power-cycled") != NULL);
	/* The card's supply was cut and restored through SD_PWR_ON, the
	 * regulator went back to 3.3 V and had settled before the next
	 * command (the simulator flags a command within 5 ms). */
	CHECK(sim_gio_aon_power_offs() >= 1);
	CHECK_EQ_I(sim_gio_aon_line(PI5_AON_SD_PWR_ON), 1);
	CHECK_EQ_I(sim_gio_aon_line(PI5_AON_SD_IOVDD_SEL), 0);
	CHECK_EQ_U(sim_io_voltage_mv(), 3300);
	CHECK_EQ_U(sim_card_io_mv(), 3300);
	check_data(&s, 4000);
	check_other_lines();
	CHECK_EQ_U(sim_violation_count(), 0);
	if (sim_violation_count())
		printf("    first violation: %s\n", sim_violation_msg(0));
}

TEST(regulator_line_that_does_not_switch_falls_back_to_3v3)
{
	struct sim_fault f = { .kind = SIM_FAULT_IO_REGULATOR, .times = ~0u };
	struct simh s;
	uint64_t t0, dt;

	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a1-32g", "pi5", SD_MODE_HS), 0);
	(void)sim_fault_add(&f);
	/* The hook itself: the read-back never shows 1.8 V; it gives up
	 * after its bound (1 ms on the timer), not at once and not never. */
	t0 = sim_now_ns();
	CHECK_EQ_I(sd_io_pi5_board.set_io_mv(NULL, 1800), -EIO);
	dt = sim_now_ns() - t0;
	printf("  stuck line: set_io_mv(1800) = -EIO after %llu us\n",
	       (unsigned long long)(dt / 1000u));
	CHECK(dt >= PI5_AON_READBACK_US * 1000ull && dt < 2 * PI5_AON_READBACK_US * 1000ull);
	CHECK_EQ_U(sim_io_voltage_mv(), 3300);
	/* Through the card layer: the switch fails, the card is power-cycled
	 * and runs at 3.3 V. */
	CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_SDR104), 0);
	show("AON GPIO 3 stuck", &s);
	CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
	CHECK_EQ_U(s.card.signal_mv, 3300);
	CHECK(strstr(s.card.mode_note, "regulator") != NULL);
	CHECK_EQ_U(sim_io_voltage_mv(), 3300);
	CHECK_EQ_U(sim_card_io_mv(), 3300);
	check_data(&s, 5000);
	check_other_lines();
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(without_the_delay_line_phy_sdr104_is_not_reached)
{
	struct simh s;

	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "pi5", SD_MODE_HS), 0);
	/* Back to the strap's 50 MHz path, as after a reset. */
	mmio_write32(CFG(BCM2712_CFG_MAX_50MHZ_MODE), BCM2712_CFG_MAX_50MHZ_ENABLE);
	CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_SDR104), 0);
	show("50 MHz path, SDR104 asked", &s);
	CHECK(s.card.timing != SD_TIMING_SDR104);
	CHECK(sim_violation_count() > 0);
	CHECK(sim_violation_count() && strstr(sim_violation_msg(0), "delay-line PHY") != NULL);
	/* What the driver's init does puts it right. */
	sim_violation_clear();
	bcm2712_sdhci_select_tuning_phy(CFG(0));
	CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_SDR104), 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_SDR104);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(pi5_without_the_regulator_offers_no_uhs)
{
	struct sim_config c;
	char err[200];
	struct simh s;

	/* A BCM2712 board without the switchable regulator (host key
	 * sdr104 = no): no hooks, no S18R, 3.3 V high speed. */
	sim_config_default(&c);
	CHECK_EQ_I(sim_host_load("pi5", &c, err, sizeof(err)), 0);
	c.sdr104 = false;
	CHECK_EQ_I(simh_start(&s, "uhs-sdr104-a2-64g", &c), 0);
	CHECK_EQ_U(s.host->uhs_modes, 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
	CHECK_EQ_U(s.card.signal_mv, 3300);
	CHECK_EQ_U(sim_gio_aon_regulator_switches(), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(aon_gpio_model_guards_the_other_lines)
{
	struct simh s;
	uintptr_t gio = (uintptr_t)SIM_BCM2712_GIO_AON_BASE;

	CHECK_EQ_I(simh_start_uhs(&s, "sdhc-c10-16g", "pi5", SD_MODE_HS), 0);
	CHECK_EQ_U(sim_violation_count(), 0);
	/* Writing only the regulator's bit drops RP1_RUN and SD_PWR_ON. */
	mmio_write32(gio + GIO_DATA, 1u << PI5_AON_SD_IOVDD_SEL);
	CHECK(sim_violation_count() > 0);
	CHECK(sim_violation_count() && strstr(sim_violation_msg(0), "RP1_RUN") != NULL);
	CHECK_EQ_I(sim_gio_aon_line(PI5_AON_SD_PWR_ON), 0);
	CHECK_EQ_U(sim_gio_aon_power_offs(), 1);
	/* The card reads as present on SD_CDET_N (low). */
	CHECK_EQ_U(mmio_read32(gio + GIO_DATA) & (1u << 5), 0);
}

/*
 * test_sim_uhs.c - UHS-I on the simulator, end to end through the real
 * drivers (drivers/sd + drivers/sdhci): S18R/S18A, CMD11 and the 1.8 V
 * switch on both sides, Host Control 2, CMD6 access modes, CMD19 tuning,
 * DDR50 timing on the wires, every mode pinned with its fallback, and the
 * faults (switch failure, tuning failure, a refused switch, a regulator
 * that does not answer). Hosts: "uhs-sdr104" (every mode, 200 MHz),
 * "pi4-uhs" (the BCM2711 EMMC2 quirk set at 100 MHz: no SDR104) and "pi5"
 * (the BCM2712 quirk set, its own list of UHS-I modes, the delay-line PHY,
 * the regulator lines of platform/sd_io_pi5.c on the simulated always-on
 * GPIO block). What every UHS host must do runs as one body over the table
 * of hosts below; what only one board has is its own test. No emulator
 * models a Pi 5: this is where the Pi 5's SDR104 path runs.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/sd/sd.h"
#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/sdhci/bcm2712_sdhci.h"
#include "drivers/mmio.h"
#include "platform/sd_io_pi5.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

static const char *const uhs_profiles[] = {
	"uhs-sdr104-a2-64g", "uhs-sdr104-a1-32g", "uhs-sdr50-16g",
	"uhs-ddr50-32g", "uhs-narrow-window-128g",
};
#define NPROF (sizeof(uhs_profiles) / sizeof(uhs_profiles[0]))

#define CFG(off) (sim_get_config()->base + SIM_BCM2712_CFG_OFFSET + (off))

/* The firmware's state of the Pi 5's always-on GPIO lines the slot does
 * not own. */
static void check_other_lines(void)
{
	CHECK_EQ_I(sim_gio_aon_line(2), 1); /* RP1_RUN still driven high */
}

/* The Pi 5's regulator lines after a fall back to 3.3 V: the card powered
 * through SD_PWR_ON (AON GPIO 4), the regulator at 3.3 V (AON GPIO 3). */
static void pi5_lines_at_3v3(void)
{
	CHECK_EQ_I(sim_gio_aon_line(PI5_AON_SD_PWR_ON), 1);
	CHECK_EQ_I(sim_gio_aon_line(PI5_AON_SD_IOVDD_SEL), 0);
	CHECK_EQ_U(sim_io_voltage_mv(), 3300);
	check_other_lines();
}

/* Every UHS-I host the simulator has: whether it runs SDR104, whether it
 * tunes SDR50 (the simulated capabilities' Use Tuning for SDR50 bit), where
 * the simulator sees its regulator (a board hook's, or the BCM2712's AON
 * GPIO lines) and the board's own checks of its lines at 3.3 V. */
static const struct uhs_host {
	const char *name;
	bool sdr104, sdr50_tuned;
	unsigned (*io_mv)(void);
	void (*lines_at_3v3)(void);
} uhs_hosts[] = {
	{ "uhs-sdr104", true, true, sim_board_io_mv, NULL },
	{ "pi4-uhs", false, false, sim_board_io_mv, NULL },
	{ "pi5", true, false, sim_io_voltage_mv, pi5_lines_at_3v3 },
};
#define NHOST (sizeof(uhs_hosts) / sizeof(uhs_hosts[0]))

/* Write a pattern through the drivers, read it back, compare it with
 * the card's flash. */
static void check_data(struct simh *s, uint32_t lba)
{
	static uint8_t w[32 * 512], r[32 * 512], f[32 * 512];
	unsigned i;

	for (i = 0; i < sizeof(w); i++)
		w[i] = (uint8_t)(i * 7 + lba + s->card.timing);
	CHECK_EQ_I(sd_write_blocks(&s->card, lba, 32, w, SD_STOP_AUTO12, NULL), 0);
	memset(r, 0, sizeof(r));
	CHECK_EQ_I(sd_read_blocks(&s->card, lba, 32, r, SD_STOP_AUTO12, NULL), 0);
	CHECK(memcmp(w, r, sizeof(w)) == 0);
	sim_card_peek((uint64_t)lba * 512, f, sizeof(f));
	CHECK(memcmp(w, f, sizeof(w)) == 0);
	CHECK_EQ_I(sd_read_single(&s->card, lba + 3, r, NULL), 0);
	CHECK(memcmp(w + 3 * 512, r, 512) == 0);
}

static void show(const char *what, const struct simh *s)
{
	printf("  %-34s %-6s %3u MHz %u mV tuning %2u  %s\n", what,
	       sd_timing_name(s->card.timing), (unsigned)(s->card.clock_hz / 1000000u),
	       s->card.signal_mv, (unsigned)s->card.tuning_tries,
	       s->card.mode_note[0] ? s->card.mode_note : "-");
}

/* What auto must pick: SDR104, DDR50, SDR50, SDR25 in that order, of
 * what card and host both run. */
static unsigned expect_auto(const struct sim_profile *p, bool sdr104_host)
{
	if (p->sdr104 && sdr104_host)
		return SD_TIMING_SDR104;
	if (p->ddr50)
		return SD_TIMING_DDR50;
	if (p->sdr50)
		return SD_TIMING_SDR50;
	return SD_TIMING_SDR25;
}

static void check_auto(const struct uhs_host *h, const struct sim_profile *p, uint32_t lba)
{
	struct simh s;
	unsigned t;
	char what[64];

	CHECK_EQ_I(simh_start_uhs(&s, p->name, h->name, SD_MODE_AUTO), 0);
	snprintf(what, sizeof(what), "%s/%s", h->name, p->name);
	show(what, &s);
	t = expect_auto(p, h->sdr104);
	CHECK_EQ_U(s.card.timing, t);
	CHECK_EQ_U(s.card.signal_mv, 1800);
	CHECK_EQ_U(sim_card_io_mv(), 1800);
	CHECK_EQ_U(h->io_mv(), 1800);
	CHECK(s.card.s18a);
	CHECK_EQ_U(s.card.width, 4);
	/* The clock: the mode's top, from a 200 or 100 MHz base. */
	CHECK_EQ_U(s.card.clock_hz, t == SD_TIMING_SDR104 ? 200000000u :
		   t == SD_TIMING_SDR50 ? 100000000u : 50000000u);
	CHECK_EQ_U(sim_sd_clock_hz(), s.card.clock_hz);
	CHECK_EQ_U(s.card.tuning_tries != 0,
		   t == SD_TIMING_SDR104 || (t == SD_TIMING_SDR50 && h->sdr50_tuned));
	CHECK(s.card.tuning_tries <= 40);
	check_data(&s, lba);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(auto_picks_the_fastest_mode_both_accept)
{
	unsigned i, h;

	for (h = 0; h < NHOST; h++)
		for (i = 0; i < NPROF; i++) {
			const struct sim_profile *p = sim_profile_find(uhs_profiles[i]);

			CHECK(p != NULL);
			if (p)
				check_auto(&uhs_hosts[h], p, 4096 + 64 * i);
		}
}

/* The next slower mode after m (bus_mode order), and whether the card
 * p on the uhs-sdr104 host runs m. */
static bool runs(const struct sim_profile *p, unsigned mode)
{
	switch (mode) {
	case SD_MODE_SDR104: return p->sdr104;
	case SD_MODE_DDR50: return p->ddr50;
	case SD_MODE_SDR50: return p->sdr50;
	default: return true;
	}
}

TEST(every_pinned_mode_or_the_next_slower)
{
	unsigned i, m;

	for (i = 0; i < NPROF; i++) {
		const struct sim_profile *p = sim_profile_find(uhs_profiles[i]);

		for (m = SD_MODE_DS; m < SD_MODE_COUNT; m++) {
			struct simh s;
			unsigned got, want = m;
			char what[64];

			while (!runs(p, want))
				want--;
			CHECK_EQ_I(simh_start_uhs(&s, p->name, "uhs-sdr104", m), 0);
			snprintf(what, sizeof(what), "%s %s", p->name, sd_bus_mode_name(m));
			show(what, &s);
			got = sd_timing_mode(s.card.timing);
			CHECK_EQ_U(got, want);
			/* A refused mode says why; one that ran says nothing. */
			CHECK_EQ_U(s.card.mode_note[0] != 0, want != m);
			CHECK_EQ_U(s.card.signal_mv, m >= SD_MODE_SDR12 ? 1800u : 3300u);
			CHECK_EQ_U(sim_card_io_mv(), s.card.signal_mv);
			check_data(&s, 8192 + 64 * m);
			CHECK_EQ_U(sim_violation_count(), 0);
		}
	}
}

TEST(pi4_has_no_sdr104)
{
	struct simh s;

	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "pi4-uhs", SD_MODE_SDR104), 0);
	show("pi4-uhs sdr104", &s);
	CHECK_EQ_U(s.card.timing, SD_TIMING_DDR50);
	CHECK(strstr(s.card.mode_note, "SDR104: the host or board") != NULL);
	/* SDR50 at the EMMC2's 100 MHz, and (no tuning bit) untuned. */
	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "pi4-uhs", SD_MODE_SDR50), 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_SDR50);
	CHECK_EQ_U(s.card.clock_hz, 100000000u);
	CHECK_EQ_U(s.card.tuning_tries, 0);
	check_data(&s, 100);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(a_card_without_uhs_stays_at_3v3)
{
	unsigned h;

	for (h = 0; h < NHOST; h++) {
		const struct uhs_host *uh = &uhs_hosts[h];
		struct simh s;
		const struct sim_truth *t;
		char what[64];

		CHECK_EQ_I(simh_start_uhs(&s, "sdhc-c10-16g", uh->name, SD_MODE_AUTO), 0);
		snprintf(what, sizeof(what), "%s sdhc-c10-16g", uh->name);
		show(what, &s);
		CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
		CHECK_EQ_U(s.card.clock_hz, 50000000u);
		CHECK_EQ_U(s.card.signal_mv, 3300);
		CHECK(!s.card.s18a);
		CHECK(strstr(s.card.mode_note, "S18A 0") != NULL);
		/* S18R was offered. */
		t = sim_truth_find_last(SIM_ACMD(41));
		CHECK(t && (t->arg & (1u << 24)));
		/* The regulator was never touched. */
		CHECK_EQ_U(uh->io_mv(), 3300);
		if (uh->lines_at_3v3) {
			CHECK_EQ_U(sim_gio_aon_regulator_switches(), 0);
			uh->lines_at_3v3();
		}
		check_data(&s, 300);
		/* Pinned SDR50: the card cannot, so high speed (the next slower
		 * after SDR12 at 3.3 V) with the reason. */
		CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_SDR50), 0);
		CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
		CHECK_EQ_U(s.card.signal_mv, 3300);
		CHECK(strstr(s.card.mode_note, "S18A") != NULL);
		CHECK_EQ_U(sim_violation_count(), 0);
	}
}

/* A host without the board's regulator (the BCM2835 quirk set, QEMU's
 * controller) never offers 1.8 V. */
TEST(no_s18r_without_a_regulator)
{
	struct simh s;
	const struct sim_truth *t;
	struct sim_config c;

	sim_config_default(&c);
	c.caps_hi = 0x2007;
	CHECK_EQ_I(simh_start(&s, "uhs-sdr104-a2-64g", &c), 0);
	CHECK_EQ_U(s.host->uhs_modes, 0);
	t = sim_truth_find_last(SIM_ACMD(41));
	CHECK(t && !(t->arg & (1u << 24)));
	CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
	CHECK_EQ_U(s.card.signal_mv, 3300);
	CHECK(sim_truth_find_last(11) == NULL);
	/* QEMU's capabilities: nothing beyond 3.3 V either. */
	sim_config_qemu(&c);
	CHECK_EQ_I(simh_start(&s, "uhs-sdr104-a2-64g", &c), 0);
	CHECK_EQ_U(s.host->uhs_modes, 0);
	CHECK_EQ_U(s.card.signal_mv, 3300);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(switch_failure_power_cycles_and_falls_back_to_3v3)
{
	unsigned h;

	for (h = 0; h < NHOST; h++) {
		const struct uhs_host *uh = &uhs_hosts[h];
		struct sim_fault f = { .kind = SIM_FAULT_UHS_SWITCH, .times = ~0u };
		struct simh s;
		int id;

		/* The fault needs the simulator set up: start once, arm,
		 * restart the drivers on the same simulator. */
		CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", uh->name, SD_MODE_HS), 0);
		if (uh->lines_at_3v3)
			CHECK_EQ_U(sim_gio_aon_power_offs(), 0);
		id = sim_fault_add(&f);
		CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_AUTO), 0);
		show(uh->name, &s);
		CHECK(sim_fault_fired(id) > 0);
		CHECK_EQ_U(s.card.signal_mv, 3300);
		CHECK_EQ_U(sim_card_io_mv(), 3300);
		CHECK_EQ_U(uh->io_mv(), 3300);
		CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
		CHECK(strstr(s.card.mode_note, "1.8 V switch failed") != NULL);
		CHECK(strstr(s.card.mode_note, "power-cycled") != NULL);
		/* The card's supply was cut and restored through the board's
		 * line (the Pi 5's SD_PWR_ON), and the regulator had settled
		 * before the next command (the simulator flags one within 5 ms). */
		if (uh->lines_at_3v3) {
			CHECK(sim_gio_aon_power_offs() >= 1);
			uh->lines_at_3v3();
		}
		check_data(&s, 500);
		CHECK_EQ_U(sim_violation_count(), 0);
		if (sim_violation_count())
			printf("    first violation: %s\n", sim_violation_msg(0));
	}
}

static int bad_regulator(void *ctx, unsigned mv)
{
	(void)ctx;
	return mv == 1800 ? -EIO : sim_board_set_io_mv(mv);
}

static int board_power(void *ctx, bool on)
{
	(void)ctx;
	return sim_board_set_card_power(on);
}

TEST(regulator_that_fails_falls_back_to_3v3)
{
	static const struct sdhci_board bad = {
		.name = "bad", .set_io_mv = bad_regulator, .set_card_power = board_power,
	};
	struct simh s;

	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a1-32g", "uhs-sdr104", SD_MODE_HS), 0);
	sdhci_set_board(&s.emmc, &bad);
	CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_SDR104), 0);
	show("regulator fails", &s);
	CHECK_EQ_U(s.card.signal_mv, 3300);
	CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
	CHECK(strstr(s.card.mode_note, "regulator") != NULL);
	check_data(&s, 600);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(tuning_failure_falls_to_the_next_mode)
{
	struct sim_fault f = { .kind = SIM_FAULT_TUNING, .times = ~0u };
	struct simh s;

	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "uhs-sdr104", SD_MODE_HS), 0);
	sim_fault_add(&f);
	CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_SDR104), 0);
	show("tuning fault sdr104", &s);
	CHECK_EQ_U(s.card.timing, SD_TIMING_DDR50);
	CHECK(strstr(s.card.mode_note, "SDR104: tuning") != NULL);
	/* Every tap was tried, no more. */
	CHECK_EQ_U(s.card.tuning_tries, 40);
	check_data(&s, 700);
	/* SDR50 needs tuning on this host too: pinned, it falls to SDR25. */
	CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_SDR50), 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_SDR25);
	check_data(&s, 800);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(narrow_window_is_found_within_40_tries)
{
	struct simh s;

	CHECK_EQ_I(simh_start_uhs(&s, "uhs-narrow-window-128g", "uhs-sdr104", SD_MODE_AUTO), 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_SDR104);
	CHECK_EQ_U(s.card.tuning_tries, 40);
	CHECK_EQ_U(sim_tuning_count(), 40);
	check_data(&s, 900);
	/* A clock change re-tunes. */
	CHECK_EQ_I(sd_set_bus(&s.card, 100000000u, 4), 0);
	CHECK_EQ_U(s.card.clock_hz, 100000000u);
	CHECK_EQ_U(sim_tuning_count(), 80);
	check_data(&s, 1000);
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(card_refuses_the_uhs_switch)
{
	struct sim_fault f = { .kind = SIM_FAULT_UHS_REJECT, .times = ~0u };
	struct simh s;

	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "uhs-sdr104", SD_MODE_HS), 0);
	sim_fault_add(&f);
	CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_AUTO), 0);
	show("CMD6 refused", &s);
	CHECK_EQ_U(s.card.timing, SD_TIMING_SDR25);
	CHECK(strstr(s.card.mode_note, "refused") != NULL);
	check_data(&s, 1100);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* Without tuning, SDR104 garbles the data (the model's sampling window):
 * the check above is not vacuous. */
TEST(untuned_sdr104_garbles_data)
{
	struct simh s;
	static uint8_t b[8 * 512];

	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "uhs-sdr104", SD_MODE_SDR104), 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_SDR104);
	sim_violation_clear();
	/* Forget the tuned sampling point behind the driver's back. */
	{
		uintptr_t a = sim_get_config()->base + 0x3c;
		uint32_t v = host_bus_read32(a);

		host_bus_write32(a, v & ~(1u << 23));
	}
	CHECK(sd_read_blocks(&s.card, 0, 8, b, SD_STOP_AUTO12, NULL) != 0);
	CHECK(sim_violation_count() > 0);
}

/* DDR50 carries two bits per clock on each line: at the same 50 MHz a
 * block's data frame takes 18 + 512 clocks instead of 18 + 1024. */
TEST(ddr50_halves_the_data_frame)
{
	struct simh s;
	static uint8_t b[64 * 512];
	const struct sim_truth *t;
	uint64_t ddr, sdr;

	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "uhs-sdr104", SD_MODE_DDR50), 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_DDR50);
	CHECK_EQ_I(sd_read_blocks(&s.card, 0, 64, b, SD_STOP_AUTO12, NULL), 0);
	t = sim_truth_find_last(18);
	CHECK(t != NULL);
	ddr = t ? t->wire_ns[SIM_W_DATA] : 0;
	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "uhs-sdr104", SD_MODE_SDR25), 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_SDR25);
	CHECK_EQ_I(sd_read_blocks(&s.card, 0, 64, b, SD_STOP_AUTO12, NULL), 0);
	t = sim_truth_find_last(18);
	sdr = t ? t->wire_ns[SIM_W_DATA] : 0;
	printf("  64-block read, data on the wires: DDR50 %llu ns, SDR25 %llu ns\n",
	       (unsigned long long)ddr, (unsigned long long)sdr);
	CHECK_EQ_U(ddr, 64ull * (18 + 512) * 20);
	CHECK_EQ_U(sdr, 64ull * (18 + 1024) * 20);
}

/* The Pi 5 alone: its host, its pinned modes, its lines and its PHY. */

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

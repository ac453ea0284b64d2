/*
 * test_sim_uhs.c - UHS-I on the simulator, end to end through the real
 * drivers (drivers/sd + drivers/sdhci): S18R/S18A, CMD11 and the 1.8 V
 * switch on both sides, Host Control 2, CMD6 access modes, CMD19 tuning,
 * DDR50 timing on the wires, every mode pinned with its fallback, and the
 * faults (switch failure, tuning failure, a refused switch, a regulator
 * that does not answer). Hosts: "uhs-sdr104" (every mode, 200 MHz) and
 * "pi4-uhs" (the BCM2711 EMMC2 quirk set at 100 MHz: no SDR104).
 */
#include <stdio.h>
#include <string.h>

#include "drivers/sd/sd.h"
#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/mmio.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

static const char *const uhs_profiles[] = {
	"uhs-sdr104-a2-64g", "uhs-sdr104-a1-32g", "uhs-sdr50-16g",
	"uhs-ddr50-32g", "uhs-narrow-window-128g",
};
#define NPROF (sizeof(uhs_profiles) / sizeof(uhs_profiles[0]))

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

TEST(auto_picks_the_fastest_mode_both_accept)
{
	static const char *const hosts[] = { "uhs-sdr104", "pi4-uhs" };
	unsigned i, h;

	for (h = 0; h < 2; h++)
		for (i = 0; i < NPROF; i++) {
			const struct sim_profile *p = sim_profile_find(uhs_profiles[i]);
			struct simh s;
			unsigned t;
			char what[64];

			CHECK(p != NULL);
			if (!p)
				continue;
			CHECK_EQ_I(simh_start_uhs(&s, p->name, hosts[h], SD_MODE_AUTO), 0);
			snprintf(what, sizeof(what), "%s/%s", hosts[h], p->name);
			show(what, &s);
			t = expect_auto(p, h == 0);
			CHECK_EQ_U(s.card.timing, t);
			CHECK_EQ_U(s.card.signal_mv, 1800);
			CHECK_EQ_U(sim_card_io_mv(), 1800);
			CHECK_EQ_U(sim_board_io_mv(), 1800);
			CHECK(s.card.s18a);
			CHECK_EQ_U(s.card.width, 4);
			/* The clock: the mode's top, from a 200 or 100 MHz base. */
			CHECK_EQ_U(s.card.clock_hz, t == SD_TIMING_SDR104 ? 200000000u :
				   t == SD_TIMING_SDR50 ? 100000000u : 50000000u);
			CHECK_EQ_U(sim_sd_clock_hz(), s.card.clock_hz);
			CHECK_EQ_U(s.card.tuning_tries != 0,
				   t == SD_TIMING_SDR104 || (t == SD_TIMING_SDR50 && h == 0));
			CHECK(s.card.tuning_tries <= 40);
			check_data(&s, 4096 + 64 * i);
			CHECK_EQ_U(sim_violation_count(), 0);
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
	struct simh s;
	const struct sim_truth *t;

	CHECK_EQ_I(simh_start_uhs(&s, "sdhc-c10-16g", "uhs-sdr104", SD_MODE_AUTO), 0);
	show("uhs-sdr104 sdhc-c10-16g", &s);
	CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
	CHECK_EQ_U(s.card.signal_mv, 3300);
	CHECK(!s.card.s18a);
	/* S18R was offered. */
	t = sim_truth_find_last(SIM_ACMD(41));
	CHECK(t && (t->arg & (1u << 24)));
	check_data(&s, 300);
	/* Pinned SDR50: the card cannot, so high speed (the next slower
	 * after SDR12 at 3.3 V) with the reason. */
	CHECK_EQ_I(simh_start_uhs(&s, "sdhc-c10-16g", "uhs-sdr104", SD_MODE_SDR50), 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
	CHECK(strstr(s.card.mode_note, "S18A") != NULL);
	CHECK_EQ_U(sim_violation_count(), 0);
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
	struct sim_fault f = { .kind = SIM_FAULT_UHS_SWITCH, .times = ~0u };
	struct simh s;
	int id;

	/* The fault needs the simulator set up: start once, arm, restart
	 * the drivers on the same simulator. */
	CHECK_EQ_I(simh_start_uhs(&s, "uhs-sdr104-a2-64g", "uhs-sdr104", SD_MODE_HS), 0);
	id = sim_fault_add(&f);
	CHECK_EQ_I(sd_init_mode(&s.card, s.host, SD_MODE_AUTO), 0);
	show("switch fault", &s);
	CHECK(sim_fault_fired(id) > 0);
	CHECK_EQ_U(s.card.signal_mv, 3300);
	CHECK_EQ_U(sim_card_io_mv(), 3300);
	CHECK_EQ_U(sim_board_io_mv(), 3300);
	CHECK_EQ_U(s.card.timing, SD_TIMING_HS);
	CHECK(strstr(s.card.mode_note, "1.8 V switch failed") != NULL);
	CHECK(strstr(s.card.mode_note, "power-cycled") != NULL);
	check_data(&s, 500);
	CHECK_EQ_U(sim_violation_count(), 0);
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

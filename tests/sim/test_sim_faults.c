/*
 * test_sim_faults.c - every injected fault ends in the documented error
 * code, the controller and the card are usable again afterwards (the next
 * read returns the right data), and nothing hangs: each case is bounded in
 * virtual time.
 *
 * The table printed by this test is the "what the driver did" list of the
 * simulator's README.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/sd/sd.h"
#include "lib/err.h"
#include "sim/sim.h"
#include "harness/sim_harness.h"
#include "tests/unit/check.h"

#define PROFILE "sdhc-c10-32g-cmd23"

static uint8_t pat[16 * 512], buf[16 * 512];

static void fill(void)
{
	unsigned i;

	for (i = 0; i < sizeof(pat); i++)
		pat[i] = (uint8_t)(i * 7 + (i >> 9));
}

/* The controller the faults are tried on (NULL: the default SDHCI). */
static const struct sim_config *use_cfg;

/* Start a card with known data at LBA 1000..1015. */
static bool start(struct simh *s, const char *profile)
{
	fill();
	if (simh_start(s, profile, use_cfg)) {
		CHECK_EQ_I(s->init_ret, 0);
		return false;
	}
	sim_card_poke(1000ull * 512, pat, sizeof(pat));
	return true;
}

/* After a fault: a plain read works and returns the data. */
static void check_recovered(struct simh *s, const char *what)
{
	int ret;

	memset(buf, 0, sizeof(buf));
	ret = sd_read_blocks(&s->card, 1000, 16, buf, SD_STOP_AUTO12, NULL);
	if (ret || memcmp(buf, pat, sizeof(buf)))
		CHECK_FAIL_("%s: read after the fault: %s", what, err_name(ret));
	CHECK_EQ_U(sim_violation_count(), 0);
}

static void report(const char *what, int ret, const struct simh *s,
		   uint64_t t0)
{
	printf("  %-44s -> %-10s phase %-12s cmd %2u blk %u, %.1f ms\n", what,
	       ret ? err_name(ret) : "ok",
	       s->card.last_err.phase ? s->card.last_err.phase : "-",
	       s->card.last_err.cmd, s->card.last_err.block,
	       (sim_now_ns() - t0) / 1e6);
}

static void one(const char *what, struct sim_fault f, int op, int expect)
{
	struct simh s;
	uint64_t t0;
	int ret, id;

	if (!start(&s, PROFILE))
		return;
	id = sim_fault_add(&f);
	t0 = sim_now_ns();
	switch (op) {
	case 0:
		ret = sd_read_blocks(&s.card, 1000, 16, buf, SD_STOP_AUTO12, NULL);
		break;
	case 1:
		ret = sd_read_single(&s.card, 1000, buf, NULL);
		break;
	case 2:
		ret = sd_write_blocks(&s.card, 1000, 16, pat, SD_STOP_AUTO12, NULL);
		break;
	case 3:
		ret = sd_write_single(&s.card, 1000, pat, NULL);
		break;
	case 4:
		ret = sd_read_blocks(&s.card, 1000, 16, buf, SD_STOP_NONE, NULL);
		break;
	default: {
		uint32_t st;

		ret = sd_send_status(&s.card, &st);
		break;
	}
	}
	report(what, ret, &s, t0);
	CHECK_EQ_I(ret, expect);
	CHECK(sim_fault_fired(id) >= 1);
	CHECK(sim_now_ns() - t0 < 5000000000ull);
	sim_fault_clear();
	check_recovered(&s, what);
}

TEST(command_faults)
{
	one("CMD17 response CRC error", (struct sim_fault){
		.kind = SIM_FAULT_CMD_CRC, .cmd = 17 }, 1, -EILSEQ);
	one("CMD18 no response", (struct sim_fault){
		.kind = SIM_FAULT_CMD_TIMEOUT, .cmd = 18 }, 0, -ETIMEDOUT);
	one("CMD18 response with a wrong index", (struct sim_fault){
		.kind = SIM_FAULT_CMD_INDEX, .cmd = 18 }, 0, -EIO);
	one("CMD25 response end-bit error", (struct sim_fault){
		.kind = SIM_FAULT_CMD_END, .cmd = 25 }, 2, -EIO);
	/* A command without data is retried after a CRC error. */
	one("CMD13 response CRC error (retried)", (struct sim_fault){
		.kind = SIM_FAULT_CMD_CRC, .cmd = 13 }, 5, 0);
	one("CMD13 response CRC error 3 times", (struct sim_fault){
		.kind = SIM_FAULT_CMD_CRC, .cmd = 13, .times = 3 }, 5, -EILSEQ);
}

TEST(data_faults)
{
	one("CMD18 block 5 data CRC error", (struct sim_fault){
		.kind = SIM_FAULT_DATA_CRC, .cmd = 18, .block = 5 }, 0, -EILSEQ);
	one("CMD18 block 3 end-bit error", (struct sim_fault){
		.kind = SIM_FAULT_DATA_END, .cmd = 18, .block = 3 }, 0, -EIO);
	one("CMD18 (+CMD12) block 2 data CRC error", (struct sim_fault){
		.kind = SIM_FAULT_DATA_CRC, .cmd = 18, .block = 2 }, 4, -EILSEQ);
	one("CMD17 data never sent", (struct sim_fault){
		.kind = SIM_FAULT_DATA_TIMEOUT, .cmd = 17 }, 1, -ETIMEDOUT);
	one("CMD25 block 4 negative CRC status", (struct sim_fault){
		.kind = SIM_FAULT_DATA_CRC, .cmd = 25, .block = 4 }, 2, -EILSEQ);
	one("CMD24 no CRC status", (struct sim_fault){
		.kind = SIM_FAULT_DATA_TIMEOUT, .cmd = 24 }, 3, -ETIMEDOUT);
	one("Auto-CMD12 no response", (struct sim_fault){
		.kind = SIM_FAULT_CMD_TIMEOUT, .cmd = 12 }, 0, -EIO);
}

TEST(busy_faults)
{
	/* Busy for 1.5 s: longer than the driver's 1 s bound, then it ends
	 * and the card works again. */
	one("CMD24 busy 1.5 s", (struct sim_fault){
		.kind = SIM_FAULT_STUCK_BUSY, .cmd = 24, .busy_ns = 1500000000ull },
	    3, -ETIMEDOUT);
	one("CMD25 block 7 busy 1.5 s", (struct sim_fault){
		.kind = SIM_FAULT_STUCK_BUSY, .cmd = 25, .block = 7,
		.busy_ns = 1500000000ull }, 2, -ETIMEDOUT);
}

TEST(busy_forever_is_bounded)
{
	struct simh s;
	struct sim_fault f = { .kind = SIM_FAULT_STUCK_BUSY, .cmd = 24 };
	uint64_t t0;
	uint32_t st = 0;
	int ret;

	if (!start(&s, PROFILE))
		return;
	sim_fault_add(&f);
	t0 = sim_now_ns();
	ret = sd_write_single(&s.card, 1000, pat, NULL);
	report("CMD24 busy forever", ret, &s, t0);
	CHECK_EQ_I(ret, -ETIMEDOUT);
	CHECK(sim_now_ns() - t0 < 5000000000ull);
	/* The controller still answers commands: CMD13 says programming. */
	CHECK_EQ_I(sd_send_status(&s.card, &st), 0);
	CHECK_EQ_U((st >> 9) & 0xf, 7);
	CHECK_EQ_I(s.host->ops->card_busy(s.host), 1);
}

TEST(card_removed_during_read)
{
	struct simh s;
	struct sim_fault f = { .kind = SIM_FAULT_REMOVE, .cmd = 18, .block = 6 };
	uint64_t t0;
	int ret;

	if (!start(&s, PROFILE))
		return;
	sim_fault_add(&f);
	t0 = sim_now_ns();
	ret = sd_read_blocks(&s.card, 1000, 16, buf, SD_STOP_AUTO12, NULL);
	report("card removed at CMD18 block 6", ret, &s, t0);
	CHECK_EQ_I(ret, -ETIMEDOUT);
	CHECK(sim_now_ns() - t0 < 5000000000ull);
	CHECK_EQ_I(s.host->ops->get_cd(s.host), 0);
	/* The next initialisation says there is no card. */
	t0 = sim_now_ns();
	ret = sd_init(&s.card, s.host);
	report("sd_init after removal", ret, &s, t0);
	CHECK_EQ_I(ret, -ENOMEDIUM);
	/* Put it back: it works again. */
	sim_card_set_present(true);
	CHECK_EQ_I(sd_init(&s.card, s.host), 0);
	check_recovered(&s, "re-inserted");
}

TEST(card_removed_during_write)
{
	struct simh s;
	struct sim_fault f = { .kind = SIM_FAULT_REMOVE, .cmd = 25, .block = 3 };
	uint64_t t0;
	int ret;

	if (!start(&s, PROFILE))
		return;
	sim_fault_add(&f);
	t0 = sim_now_ns();
	ret = sd_write_blocks(&s.card, 1000, 16, pat, SD_STOP_AUTO12, NULL);
	report("card removed at CMD25 block 3", ret, &s, t0);
	CHECK(ret == -ETIMEDOUT || ret == -EIO);
	CHECK(sim_now_ns() - t0 < 5000000000ull);
	CHECK_EQ_I(s.host->ops->get_cd(s.host), 0);
}

TEST(acmd41_never_ready)
{
	struct simh s;
	struct sim_fault f = { .kind = SIM_FAULT_ACMD41_NEVER_READY };
	uint64_t t0;
	int ret;

	simh_host_only(&s, PROFILE, NULL);
	sim_fault_add(&f);
	t0 = sim_now_ns();
	ret = sd_init(&s.card, s.host);
	report("ACMD41 never ready", ret, &s, t0);
	CHECK_EQ_I(ret, -ETIMEDOUT);
	CHECK_EQ_U(s.card.last_err.cmd, 41);
	CHECK(sim_now_ns() - t0 >= 1000000000ull);
	CHECK(sim_now_ns() - t0 < 1100000000ull);
	sim_fault_clear();
	CHECK_EQ_I(sd_init(&s.card, s.host), 0);
}

TEST(high_speed_rejected)
{
	struct simh s;
	struct sim_fault f = { .kind = SIM_FAULT_HS_REJECT };
	int ret;

	simh_host_only(&s, PROFILE, NULL);
	sim_fault_add(&f);
	ret = sd_init(&s.card, s.host);
	sim_card_poke(1000ull * 512, pat, sizeof(pat));
	report("CMD6 switch to High Speed refused", ret, &s, 0);
	CHECK_EQ_I(ret, 0);
	CHECK_EQ_U(s.card.timing, SD_TIMING_DS);
	CHECK_EQ_U(sim_sd_clock_hz(), 25000000u);
	check_recovered(&s, "after HS refused");
}

TEST(write_protection)
{
	struct simh s;
	int ret;

	if (!start(&s, "wp-switch-8g"))
		return;
	ret = sd_write_blocks(&s.card, 1000, 2, pat, SD_STOP_AUTO12, NULL);
	report("write with the WP switch on", ret, &s, 0);
	CHECK_EQ_I(ret, -EROFS);
	CHECK_EQ_U(sim_truth_find_last(25) == NULL, 1); /* never sent */
	check_recovered(&s, "wp switch");
	if (!start(&s, "csd-tmp-wp-4g"))
		return;
	ret = sd_write_single(&s.card, 1000, pat, NULL);
	report("write to a CSD TMP_WRITE_PROTECT card", ret, &s, 0);
	CHECK_EQ_I(ret, -EROFS);
}

/* The same faults with the strict CMD_INHIBIT rule (stays set after a
 * command error until SRST_CMD): the driver resets the line itself. */
TEST(strict_cmd_inhibit)
{
	struct simh s;
	struct sim_config c;
	struct sim_fault f = { .kind = SIM_FAULT_CMD_CRC, .cmd = 17 };

	sim_config_default(&c);
	c.strict_cmd_inhibit = true;
	fill();
	CHECK_EQ_I(simh_start(&s, "sdsc-v1-128m", &c), 0); /* CMD8 times out */
	sim_card_poke(1000ull * 512, pat, sizeof(pat));
	sim_fault_add(&f);
	CHECK_EQ_I(sd_read_single(&s.card, 1000, buf, NULL), -EILSEQ);
	sim_fault_clear();
	check_recovered(&s, "strict inhibit");
}

/* Removed between two commands: CMD13 gets no answer, the card detect
 * says so. */
TEST(card_removed_before_a_command)
{
	struct simh s;
	struct sim_fault f = { .kind = SIM_FAULT_REMOVE, .cmd = 13 };
	uint32_t st;
	int ret;

	if (!start(&s, PROFILE))
		return;
	sim_fault_add(&f);
	ret = sd_send_status(&s.card, &st);
	report("card removed before CMD13", ret, &s, 0);
	CHECK_EQ_I(ret, -ETIMEDOUT);
	CHECK_EQ_I(s.host->ops->get_cd(s.host), 0);
}

/* QEMU's way: a command timeout also sets CMD_DONE. The v1 card's CMD8
 * timeout and an injected CMD18 timeout still end as they should. */
TEST(qemu_style_timeout)
{
	struct simh s;
	struct sim_config c;
	struct sim_fault f = { .kind = SIM_FAULT_CMD_TIMEOUT, .cmd = 18 };

	sim_config_qemu(&c);
	fill();
	CHECK_EQ_I(simh_start(&s, "sdsc-v1-128m", &c), 0);
	CHECK(!s.card.v2);
	sim_card_poke(1000ull * 512, pat, sizeof(pat));
	sim_fault_add(&f);
	CHECK_EQ_I(sd_read_blocks(&s.card, 1000, 16, buf, SD_STOP_AUTO12, NULL),
		   -ETIMEDOUT);
	sim_fault_clear();
	check_recovered(&s, "qemu-style timeout");
}

/* An erase (CMD38, R1b) whose busy outlasts the timeout the driver derives
 * from the SD Status erase fields. */
TEST(erase_busy_too_long)
{
	struct simh s;
	struct sim_fault f = { .kind = SIM_FAULT_STUCK_BUSY, .cmd = 38,
			       .busy_ns = 20000000000ull };
	uint64_t t0;
	int ret;

	if (!start(&s, PROFILE))
		return;
	sim_fault_add(&f);
	t0 = sim_now_ns();
	ret = sd_erase(&s.card, 5000, 64, NULL);
	report("CMD38 busy 20 s", ret, &s, t0);
	CHECK_EQ_I(ret, -ETIMEDOUT);
	CHECK(sim_now_ns() - t0 < 20000000000ull);
	sim_fault_clear();
	sim_advance_ns(20000000000ull); /* the card finishes */
	check_recovered(&s, "after the long erase");
}

/* The same faults through the SDHOST controller: each ends in its error
 * code within bounded time, the controller recovers, the data reads back. */
TEST(sdhost_faults)
{
	struct sim_config c;

	sim_config_default(&c);
	c.sdhost = true;
	use_cfg = &c;
	one("SDHOST: CMD17 response CRC error", (struct sim_fault){
		.kind = SIM_FAULT_CMD_CRC, .cmd = 17 }, 1, -EILSEQ);
	one("SDHOST: CMD18 no response", (struct sim_fault){
		.kind = SIM_FAULT_CMD_TIMEOUT, .cmd = 18 }, 0, -ETIMEDOUT);
	one("SDHOST: CMD13 no response", (struct sim_fault){
		.kind = SIM_FAULT_CMD_TIMEOUT, .cmd = 13 }, 5, -ETIMEDOUT);
	one("SDHOST: read data CRC, block 5", (struct sim_fault){
		.kind = SIM_FAULT_DATA_CRC, .cmd = 18, .block = 5 }, 0, -EILSEQ);
	one("SDHOST: read data timeout, block 3", (struct sim_fault){
		.kind = SIM_FAULT_DATA_TIMEOUT, .cmd = 18, .block = 3 }, 0, -ETIMEDOUT);
	one("SDHOST: write CRC status negative, block 2", (struct sim_fault){
		.kind = SIM_FAULT_DATA_CRC, .cmd = 25, .block = 2 }, 2, -EILSEQ);
	one("SDHOST: write busy stuck 1.5 s, single block", (struct sim_fault){
		.kind = SIM_FAULT_STUCK_BUSY, .cmd = 24, .busy_ns = 1500000000ull }, 3, -ETIMEDOUT);
	use_cfg = NULL;
}

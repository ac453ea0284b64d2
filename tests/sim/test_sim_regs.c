/*
 * test_sim_regs.c - register-level tests of the simulated controller and
 * card, without the drivers: a few lines of SDHCI programming per case,
 * checking the behaviour the drivers rely on (reset rules, interrupt
 * status gating, command timeout, R2 layout, busy on DAT0, the card state
 * machine and its R1 error bits, the Arasan write hazard, timing of a
 * command on the bus).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "drivers/mmio.h"
#include "drivers/sd/sd_regs.h"
#include "sim/sim.h"
#include "sim/sim_sdhci.h"
#include "tests/unit/check.h"

#define B SIM_EMMC_BASE_DEFAULT

/* The register map is the simulator's own copy (sim/sim_sdhci.h,
 * independent of the driver's on purpose); short names for what is used
 * here. */
#define CAPS CAPABILITIES
#define VER SLOTISR_VER
#define R_NONE (CMD_RSPNS_NONE << CMD_RSPNS_SHIFT)
#define R_136 (CMD_RSPNS_136 << CMD_RSPNS_SHIFT)
#define R_48 (CMD_RSPNS_48 << CMD_RSPNS_SHIFT)
#define R_48B (CMD_RSPNS_48BUSY << CMD_RSPNS_SHIFT)
#define CRCCHK CMD_CRCCHK_EN
#define IXCHK CMD_IXCHK_EN
#define ISDATA CMD_ISDATA
#define TM_BLKCNT TM_BLKCNT_EN
#define TM_AUTO12 (TM_AUTO_CMD12 << TM_AUTO_CMD_SHIFT)
#define TM_READ TM_DAT_DIR
#define TM_MULTI TM_MULTI_BLOCK
#define CMD_DONE INT_CMD_DONE
#define DATA_DONE INT_DATA_DONE
#define WRITE_RDY INT_WRITE_RDY
#define READ_RDY INT_READ_RDY
#define CARD_REMOVE INT_CARD_REMOVE
#define ERR INT_ERR
#define CTO INT_CTO_ERR
#define DTO INT_DTO_ERR

/* Card status bits (SD Physical Layer §4.10.1). */
#define R1_ILLEGAL (1u << 22)
#define R1_OUT_OF_RANGE (1u << 31)
#define R1_ADDRESS_ERROR (1u << 30)
#define R1_BLOCK_LEN (1u << 29)
#define R1_ERASE_SEQ (1u << 28)
#define R1_WP (1u << 26)
#define R1_STATE(r) (((r) >> 9) & 0xf)

static void w(uint32_t off, uint32_t v)
{
	host_bus_write32(B + off, v);
}

static uint32_t r(uint32_t off)
{
	return host_bus_read32(B + off);
}

/* Reset, clock at base/(2*div), data timeout unit 'tou', all status on. */
static void host_up(uint32_t div, uint32_t tou)
{
	unsigned i;

	w(CONTROL1, 1u << 24);
	w(IRPT_MASK, 0xffffffffu);
	w(CONTROL1, (div & 0xff) << 8 | ((div >> 8) & 3) << 6 | tou << 16 | 1);
	for (i = 0; i < 1000 && !(r(CONTROL1) & 2); i++)
		;
	w(CONTROL1, (div & 0xff) << 8 | ((div >> 8) & 3) << 6 | tou << 16 | 1 | 4);
}

/* Issue a command, wait (bounded) for CMD_DONE or an error; returns the
 * INTERRUPT bits and clears them. */
static uint32_t cmd(uint8_t idx, uint32_t arg, uint32_t flags)
{
	uint32_t irq = 0;
	unsigned i;

	w(ARG1, arg);
	w(CMDTM, (uint32_t)idx << 24 | flags);
	for (i = 0; i < 100000; i++) {
		irq = r(INTERRUPT);
		if (irq & (CMD_DONE | ERR))
			break;
	}
	w(INTERRUPT, irq & (CMD_DONE | 0xffff0000u));
	return irq;
}

static uint32_t wait_irq(uint32_t bits)
{
	uint32_t irq = 0;
	unsigned i;

	for (i = 0; i < 100000; i++) {
		irq = r(INTERRUPT);
		if (irq & (bits | ERR))
			break;
	}
	return irq;
}

static uint16_t rca;

/* Identification of an SDHC card by hand, up to tran at 'div'. */
static void card_to_tran(const char *profile, uint32_t div)
{
	struct sim_config c;
	unsigned i;

	sim_config_default(&c);
	CHECK_EQ_I(sim_setup(&c, sim_profile_find(profile)), 0);
	host_up(313, 0xe); /* 250 MHz / 626 = 399 kHz */
	cmd(0, 0, R_NONE);
	cmd(8, 0x1aa, R_48 | CRCCHK | IXCHK);
	for (i = 0; i < 2000; i++) {
		cmd(55, 0, R_48 | CRCCHK | IXCHK);
		cmd(41, 0x40ff8000, R_48);
		if (r(RESP0) & (1u << 31))
			break;
		sim_advance_ns(1000000);
	}
	cmd(2, 0, R_136 | CRCCHK);
	cmd(3, 0, R_48 | CRCCHK | IXCHK);
	rca = (uint16_t)(r(RESP0) >> 16);
	w(CONTROL1, 0);
	host_up(div, 0xe);
	CHECK_EQ_U(cmd(7, (uint32_t)rca << 16, R_48B | CRCCHK | IXCHK) & ERR, 0);
	wait_irq(DATA_DONE);
	w(INTERRUPT, 0xffffffffu);
	CHECK_EQ_I(sim_card_state(), 4);
}

TEST(power_on_registers)
{
	CHECK_EQ_I(sim_setup(NULL, sim_profile_find("sdhc-c10-16g")), 0);
	CHECK_EQ_U((r(CAPS) >> 8) & 0xff, 250);      /* base clock MHz */
	CHECK_EQ_U((r(VER) >> 16) & 0xff, 2);        /* SDHCI 3.00 */
	CHECK_EQ_U(r(STATUS) & (1u << 16), 1u << 16); /* card inserted */
	CHECK_EQ_U(r(STATUS) & (1u << 19), 1u << 19); /* writable */
	CHECK_EQ_U(r(STATUS) & (1u << 20), 1u << 20); /* DAT0 high */
	CHECK_EQ_I(sim_setup(NULL, sim_profile_find("wp-switch-8g")), 0);
	CHECK_EQ_U(r(STATUS) & (1u << 19), 0);
}

TEST(clock_becomes_stable_later)
{
	uint64_t t0;

	CHECK_EQ_I(sim_setup(NULL, sim_profile_find("instant-4g")), 0);
	w(CONTROL1, 313u << 8 | 1);
	t0 = sim_now_ns();
	CHECK_EQ_U(r(CONTROL1) & 2, 0);
	while (!(r(CONTROL1) & 2) && sim_now_ns() - t0 < 100000)
		;
	CHECK(sim_now_ns() - t0 >= 1000);
	CHECK(sim_now_ns() - t0 < 2000);
	/* A command with the SD clock off never completes. */
	w(ARG1, 0);
	w(CMDTM, 0);
	sim_advance_ns(1000000);
	CHECK_EQ_U(r(INTERRUPT) & CMD_DONE, 0);
	CHECK_EQ_U(r(STATUS) & 1, 1);
	CHECK(sim_violation_count() >= 1);
	w(CONTROL1, (313u << 8 | 1) | (2u << 24)); /* SRST_CMD */
	CHECK_EQ_U(r(STATUS) & 1, 0);
}

TEST(interrupt_status_gated_by_mask_and_w1c)
{
	CHECK_EQ_I(sim_setup(NULL, sim_profile_find("instant-4g")), 0);
	host_up(313, 0xe);
	w(IRPT_MASK, 0);
	w(ARG1, 0);
	w(CMDTM, 0); /* CMD0 */
	sim_advance_ns(1000000);
	CHECK_EQ_U(r(INTERRUPT), 0);
	CHECK_EQ_U(r(STATUS) & 1, 0);
	w(IRPT_MASK, 0xffffffffu);
	w(CMDTM, 0);
	sim_advance_ns(1000000);
	CHECK_EQ_U(r(INTERRUPT), CMD_DONE);
	w(INTERRUPT, 0);
	CHECK_EQ_U(r(INTERRUPT), CMD_DONE);
	w(INTERRUPT, CMD_DONE);
	CHECK_EQ_U(r(INTERRUPT), 0);
}

TEST(timeout_sets_cto_not_cmd_done_and_illegal_follows)
{
	uint32_t irq;

	CHECK_EQ_I(sim_setup(NULL, sim_profile_find("sdsc-v1-128m")), 0);
	host_up(313, 0xe);
	cmd(0, 0, R_NONE);
	sim_advance_ns(100000); /* past N_CC: the command starts at once */
	irq = cmd(8, 0x1aa, R_48 | CRCCHK | IXCHK); /* v1 card: silence */
	CHECK_EQ_U(irq & (CTO | ERR | CMD_DONE), CTO | ERR);
	irq = cmd(55, 0, R_48 | CRCCHK | IXCHK);
	CHECK_EQ_U(irq & ERR, 0);
	CHECK_EQ_U(r(RESP0) & R1_ILLEGAL, R1_ILLEGAL);
	CHECK_EQ_U(R1_STATE(r(RESP0)), 0); /* idle */
	/* Reported once only. */
	cmd(41, 0x00ff8000, R_48);
	irq = cmd(55, 0, R_48 | CRCCHK | IXCHK);
	CHECK_EQ_U(r(RESP0) & R1_ILLEGAL, 0);
	/* The timeout came 64 clocks after the command, which started at
	 * the first SD clock edge after the register write. */
	{
		const struct sim_truth *t = sim_truth_find_last(8);
		uint64_t n = sim_clocks_ns(48 + 64, 250000000u / 626);

		CHECK(t != NULL);
		if (t) {
			CHECK(t->t_resp_ns - t->t_issue_ns >= n);
			CHECK(t->t_resp_ns - t->t_issue_ns < n + sim_clocks_ns(1, 250000000u / 626));
			/* The card was what was missing. */
			CHECK_EQ_U(t->wire_ns[SIM_W_CARD], sim_clocks_ns(62, 250000000u / 626));
		}
	}
}

TEST(r2_is_stored_without_crc_byte)
{
	uint8_t cid[16];

	CHECK_EQ_I(sim_setup(NULL, sim_profile_find("qemu-like-1g")), 0);
	host_up(313, 0xe);
	cmd(0, 0, R_NONE);
	cmd(8, 0x1aa, R_48 | CRCCHK | IXCHK);
	CHECK_EQ_U(r(RESP0), 0x1aa);
	cmd(55, 0, R_48 | CRCCHK | IXCHK);
	cmd(41, 0x40ff8000, R_48);
	CHECK_EQ_U(r(RESP0), 0x80ff8000u); /* ready, CCS 0: SDSC */
	CHECK_EQ_U(cmd(2, 0, R_136 | CRCCHK) & ERR, 0);
	sim_card_regs(cid, NULL, NULL, NULL);
	CHECK_EQ_U(cid[0], 0xaa);
	CHECK_EQ_U(r(RESP3), (uint32_t)cid[0] << 16 | cid[1] << 8 | cid[2]);
	CHECK_EQ_U(r(RESP2), (uint32_t)cid[3] << 24 | cid[4] << 16 | cid[5] << 8 | cid[6]);
	CHECK_EQ_U(r(RESP0), (uint32_t)cid[11] << 24 | cid[12] << 16 | cid[13] << 8 | cid[14]);
	/* CRC7 of the CID is right (x^7+x^3+1 over 15 bytes). */
	{
		uint8_t crc = 0;
		unsigned i, b;

		for (i = 0; i < 15; i++)
			for (b = 0; b < 8; b++) {
				unsigned in = ((cid[i] >> (7 - b)) & 1) ^ (crc >> 6);

				crc = (uint8_t)((crc << 1) & 0x7f);
				if (in)
					crc ^= 0x09;
			}
		CHECK_EQ_U(cid[15], (uint32_t)(crc << 1 | 1));
	}
}

TEST(command_bus_time)
{
	const struct sim_truth *t;

	card_to_tran("sdhc-c10-16g", 5); /* 25 MHz */
	cmd(13, (uint32_t)rca << 16, R_48 | CRCCHK | IXCHK);
	t = sim_truth_find_last(13);
	CHECK(t != NULL);
	if (!t)
		return;
	/* 48 command + N_CR (8 in this profile) + 48 response clocks at
	 * 40 ns, after the wait for the next SD clock edge (under one clock:
	 * the default host has no command latency of its own). */
	CHECK(t->t_resp_ns - t->t_issue_ns >= (48 + 8 + 48) * 40);
	CHECK(t->t_resp_ns - t->t_issue_ns < (48 + 8 + 48 + 1) * 40);
	CHECK(t->flags & SIM_T_SPLIT);
	CHECK_EQ_U(t->wire_ns[SIM_W_CMD], (48 + 48) * 40);
	CHECK_EQ_U(t->wire_ns[SIM_W_CARD], (8 - 2) * 40);  /* N_CR beyond the minimum */
	CHECK_EQ_U(t->wire_ns[SIM_W_GAP], t->t_resp_ns - t->t_issue_ns - (48 + 8 + 48) * 40 + 2 * 40);
	CHECK_EQ_U(t->wire_ns[SIM_W_HOST_CTRL], 0);
	CHECK_EQ_U(R1_STATE(r(RESP0)), 4);
}

TEST(srst_cmd_and_dat_together_do_nothing)
{
	uint32_t irq;

	card_to_tran("sdhc-c10-16g", 5);
	/* Timeout unit 0: 2^13 / 52 MHz = 157.5 us. */
	w(CONTROL1, (r(CONTROL1) & ~0xf0000u) | (0u << 16));
	w(BLKSIZECNT, 1u << 16 | 512);
	irq = cmd(17, 0xfffffff0u, R_48 | CRCCHK | IXCHK | ISDATA | TM_READ);
	CHECK_EQ_U(irq & ERR, 0);
	CHECK_EQ_U(r(RESP0) & R1_OUT_OF_RANGE, R1_OUT_OF_RANGE);
	CHECK_EQ_U(R1_STATE(r(RESP0)), 4);
	irq = wait_irq(READ_RDY);
	CHECK_EQ_U(irq & DTO, DTO);
	w(INTERRUPT, 0xffffffffu);
	CHECK_EQ_U(r(STATUS) & 2, 2); /* DAT_INHIBIT stays */
	w(CONTROL1, r(CONTROL1) | (6u << 24));
	CHECK_EQ_U(r(STATUS) & 2, 2); /* both bits: nothing */
	w(CONTROL1, r(CONTROL1) | (4u << 24));
	CHECK_EQ_U(r(STATUS) & 2, 0); /* SRST_DATA alone */
	irq = cmd(13, (uint32_t)rca << 16, R_48 | CRCCHK | IXCHK);
	CHECK_EQ_U(irq & ERR, 0);
	CHECK_EQ_U(R1_STATE(r(RESP0)), 4);
}

TEST(card_errors_in_r1)
{
	uint32_t irq;

	card_to_tran("sdsc-v2-2g", 5);
	w(INTERRUPT, 0xffffffffu);
	w(BLKSIZECNT, 1u << 16 | 512);
	cmd(17, 100, R_48 | CRCCHK | IXCHK | ISDATA | TM_READ); /* byte address */
	CHECK_EQ_U(r(RESP0) & R1_ADDRESS_ERROR, R1_ADDRESS_ERROR);
	w(CONTROL1, r(CONTROL1) | (4u << 24)); /* no data will come */
	cmd(16, 1024, R_48 | CRCCHK | IXCHK);
	CHECK_EQ_U(r(RESP0) & R1_BLOCK_LEN, R1_BLOCK_LEN);
	cmd(38, 0, R_48B | CRCCHK | IXCHK);
	CHECK_EQ_U(r(RESP0) & R1_ERASE_SEQ, R1_ERASE_SEQ);
	wait_irq(DATA_DONE);
	w(INTERRUPT, 0xffffffffu);
	irq = cmd(23, 4, R_48 | CRCCHK | IXCHK); /* SDSC: no CMD23 */
	CHECK_EQ_U(irq & CTO, CTO);
	w(CONTROL1, r(CONTROL1) | (2u << 24));
	cmd(13, (uint32_t)rca << 16, R_48 | CRCCHK | IXCHK);
	CHECK_EQ_U(r(RESP0) & R1_ILLEGAL, R1_ILLEGAL);

	card_to_tran("csd-tmp-wp-4g", 5);
	w(BLKSIZECNT, 1u << 16 | 512);
	cmd(24, 0, R_48 | CRCCHK | IXCHK | ISDATA);
	CHECK_EQ_U(r(RESP0) & R1_WP, R1_WP);
	CHECK_EQ_U(R1_STATE(r(RESP0)), 4);
}

TEST(write_busy_on_dat0)
{
	uint32_t i, irq;
	uint64_t t_busy0, t_end;
	const struct sim_truth *t;

	card_to_tran("sdhc-slow-writer-8g", 5);
	w(BLKSIZECNT, 1u << 16 | 512);
	cmd(24, 10, R_48 | CRCCHK | IXCHK | ISDATA);
	irq = wait_irq(WRITE_RDY);
	CHECK_EQ_U(irq & WRITE_RDY, WRITE_RDY);
	for (i = 0; i < 128; i++)
		w(DATA, 0x01020304u * i);
	/* Wait for DAT0 to go low (block sent), then high again. */
	while (r(STATUS) & (1u << 20))
		;
	t_busy0 = sim_now_ns();
	CHECK_EQ_U(r(INTERRUPT) & DATA_DONE, 0);
	CHECK_EQ_I(sim_card_state(), 7); /* prg */
	while (!(r(STATUS) & (1u << 20)))
		;
	t_end = sim_now_ns();
	CHECK_EQ_U(r(INTERRUPT) & DATA_DONE, DATA_DONE);
	CHECK(t_end - t_busy0 >= 5000000); /* this profile: >= 5 ms */
	t = sim_truth_find_last(24);
	CHECK(t && t->wire_ns[SIM_W_BUSY] >= 5000000 &&
	      t->wire_ns[SIM_W_BUSY] <= t_end - t_busy0 + 1000);
	CHECK_EQ_I(sim_card_state(), 4);
	{
		uint8_t b[8];

		sim_card_peek(10ull * 512 + 4, b, 4);
		CHECK_EQ_U(b[0], 0x04);
		CHECK_EQ_U(b[3], 0x01);
	}
}

TEST(cmd23_count_ends_the_read)
{
	uint32_t i, k, irq;

	card_to_tran("sdhc-c10-32g-cmd23", 5);
	CHECK_EQ_U(cmd(23, 3, R_48 | CRCCHK | IXCHK) & ERR, 0);
	w(BLKSIZECNT, 3u << 16 | 512);
	cmd(18, 0, R_48 | CRCCHK | IXCHK | ISDATA | TM_READ | TM_MULTI | TM_BLKCNT);
	for (k = 0; k < 3; k++) {
		irq = wait_irq(READ_RDY);
		CHECK_EQ_U(irq & READ_RDY, READ_RDY);
		w(INTERRUPT, READ_RDY);
		for (i = 0; i < 128; i++)
			r(DATA);
	}
	irq = wait_irq(DATA_DONE);
	CHECK_EQ_U(irq & DATA_DONE, DATA_DONE);
	CHECK_EQ_U(r(BLKSIZECNT) >> 16, 0);
	CHECK_EQ_I(sim_card_state(), 4); /* no CMD12 needed */
	CHECK_EQ_U(sim_violation_count(), 0);
}

TEST(auto_cmd12_response_in_resp3)
{
	uint32_t i, k, irq;

	card_to_tran("sdhc-c10-16g", 5);
	w(BLKSIZECNT, 2u << 16 | 512);
	cmd(18, 0, R_48 | CRCCHK | IXCHK | ISDATA | TM_READ | TM_MULTI |
		   TM_BLKCNT | TM_AUTO12);
	for (k = 0; k < 2; k++) {
		wait_irq(READ_RDY);
		w(INTERRUPT, READ_RDY);
		for (i = 0; i < 128; i++)
			r(DATA);
	}
	irq = wait_irq(DATA_DONE);
	CHECK_EQ_U(irq & (DATA_DONE | ERR), DATA_DONE);
	CHECK_EQ_U(R1_STATE(r(RESP3)), 5); /* CMD12 received in data state */
	CHECK_EQ_I(sim_card_state(), 4);
}

TEST(arasan_write_hazard)
{
	struct sim_config c;

	sim_config_default(&c);
	c.write_hazard = true;
	CHECK_EQ_I(sim_setup(&c, sim_profile_find("instant-4g")), 0);
	w(CONTROL1, 313u << 8 | 1 | 4); /* 399 kHz: 2 clocks = 5 us */
	sim_advance_ns(10000);
	w(ARG1, 0x11111111u);
	w(ARG1, 0x22222222u);
	CHECK_EQ_U(r(ARG1), 0x11111111u);
	CHECK(sim_violation_count() >= 1);
	sim_advance_ns(6000);
	w(ARG1, 0x33333333u);
	CHECK_EQ_U(r(ARG1), 0x33333333u);
}

TEST(card_removal_is_seen)
{
	uint32_t irq;

	card_to_tran("sdhc-c10-16g", 5);
	sim_card_set_present(false);
	CHECK_EQ_U(r(INTERRUPT) & CARD_REMOVE, CARD_REMOVE);
	CHECK_EQ_U(r(STATUS) & (1u << 16), 0);
	irq = cmd(13, (uint32_t)rca << 16, R_48 | CRCCHK | IXCHK);
	CHECK_EQ_U(irq & CTO, CTO);
}

TEST(profiles_are_consistent)
{
	unsigned i;

	CHECK(sim_profile_count() >= 20);
	for (i = 0; i < sim_profile_count(); i++) {
		const struct sim_profile *p = sim_profile_get(i);
		uint8_t csd[16];

		CHECK_EQ_I(sim_setup(NULL, p), 0);
		CHECK(sim_profile_find(p->name) == p);
		CHECK(p->ncr_clocks >= 2 && p->ncr_clocks <= 64);
		sim_card_regs(NULL, csd, NULL, NULL);
		CHECK_EQ_U(csd[0] >> 6, p->kind >= SIM_SDHC ? 1 : 0);
	}
}

/* A loop with no deadline on a bit that never comes must end the test
 * (abort at one hour of virtual time), not hang it. */
TEST(unbounded_poll_aborts_instead_of_hanging)
{
	pid_t pid;
	int st = 0;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		sim_setup(NULL, sim_profile_find("instant-4g"));
		while (!(r(STATUS) & (1u << 31)))
			;
		_exit(0);
	}
	CHECK(pid > 0);
	waitpid(pid, &st, 0);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
}

/* Auto-CMD23 on a card without CMD23: the command is not sent, ACMD_ERR
 * with "Auto CMD timeout" in CONTROL2. With CMD23: the preset count ends
 * the write and the card programs and returns to tran by itself. */
TEST(auto_cmd23)
{
	uint32_t irq, i, k;

	card_to_tran("sdhc-c10-16g", 5);
	w(ARG2, 2);
	w(BLKSIZECNT, 2u << 16 | 512);
	w(ARG1, 0);
	w(CMDTM, 25u << 24 | R_48 | CRCCHK | IXCHK | ISDATA | TM_MULTI |
		 TM_BLKCNT | (2u << 2));
	irq = wait_irq(CMD_DONE);
	CHECK_EQ_U(irq & ((1u << 24) | CMD_DONE), 1u << 24);
	CHECK_EQ_U(r(0x3c) & 0xff, 2); /* ACTO_ERR */
	CHECK_EQ_I(sim_card_state(), 4);

	card_to_tran("sdhc-c10-32g-cmd23", 5);
	w(ARG2, 2);
	w(BLKSIZECNT, 2u << 16 | 512);
	w(ARG1, 0);
	w(CMDTM, 25u << 24 | R_48 | CRCCHK | IXCHK | ISDATA | TM_MULTI |
		 TM_BLKCNT | (2u << 2));
	irq = wait_irq(CMD_DONE);
	CHECK_EQ_U(irq & (ERR | CMD_DONE), CMD_DONE);
	for (k = 0; k < 2; k++) {
		wait_irq(WRITE_RDY);
		w(INTERRUPT, WRITE_RDY);
		for (i = 0; i < 128; i++)
			w(DATA, i);
	}
	irq = wait_irq(DATA_DONE);
	CHECK_EQ_U(irq & (ERR | DATA_DONE), DATA_DONE);
	CHECK_EQ_I(sim_card_state(), 4);
	{
		const struct sim_truth *t = sim_truth_find_last(25);

		/* CMD23 and CMD25, each with its response, on the CMD line. */
		CHECK(t && (t->flags & SIM_T_AUTO23) &&
		      t->wire_ns[SIM_W_CMD] == 4 * sim_clocks_ns(48, t->clock_hz));
	}
}

/* A multi-block read running off the end of the card: the blocks up to
 * the end arrive, then nothing (data timeout), and CMD12's R1 carries
 * OUT_OF_RANGE. ACMD22 counts the well-written blocks of a write. */
TEST(read_past_the_end_and_acmd22)
{
	uint32_t irq, i, k, last_lba, nwr = 0;
	uint8_t be[4];

	card_to_tran("instant-4g", 5);
	last_lba = (uint32_t)(4294967296ull / 512) - 2;
	w(CONTROL1, (r(CONTROL1) & ~0xf0000u)); /* DTO after 157 us */
	w(BLKSIZECNT, 4u << 16 | 512);
	cmd(18, last_lba, R_48 | CRCCHK | IXCHK | ISDATA | TM_READ | TM_MULTI |
			  TM_BLKCNT);
	for (k = 0; k < 2; k++) {
		irq = wait_irq(READ_RDY);
		CHECK_EQ_U(irq & (READ_RDY | ERR), READ_RDY);
		w(INTERRUPT, READ_RDY);
		for (i = 0; i < 128; i++)
			r(DATA);
	}
	irq = wait_irq(READ_RDY);
	CHECK_EQ_U(irq & DTO, DTO);
	w(CONTROL1, r(CONTROL1) | (2u << 24));
	w(CONTROL1, r(CONTROL1) | (4u << 24));
	w(INTERRUPT, 0xffffffffu);
	cmd(12, 0, R_48B | CRCCHK | IXCHK | (3u << 22));
	CHECK_EQ_U(r(RESP0) & R1_OUT_OF_RANGE, R1_OUT_OF_RANGE);
	wait_irq(DATA_DONE);
	w(INTERRUPT, 0xffffffffu);
	CHECK_EQ_I(sim_card_state(), 4);

	/* Write 3 blocks, then ACMD22. */
	w(BLKSIZECNT, 3u << 16 | 512);
	cmd(25, 100, R_48 | CRCCHK | IXCHK | ISDATA | TM_MULTI | TM_BLKCNT |
		     TM_AUTO12);
	for (k = 0; k < 3; k++) {
		wait_irq(WRITE_RDY);
		w(INTERRUPT, WRITE_RDY);
		for (i = 0; i < 128; i++)
			w(DATA, k);
	}
	irq = wait_irq(DATA_DONE);
	CHECK_EQ_U(irq & (DATA_DONE | ERR), DATA_DONE);
	w(INTERRUPT, 0xffffffffu);
	cmd(55, (uint32_t)rca << 16, R_48 | CRCCHK | IXCHK);
	w(BLKSIZECNT, 1u << 16 | 4);
	cmd(22, 0, R_48 | CRCCHK | IXCHK | ISDATA | TM_READ);
	irq = wait_irq(READ_RDY);
	CHECK_EQ_U(irq & READ_RDY, READ_RDY);
	nwr = r(DATA);
	be[0] = (uint8_t)nwr;
	be[1] = (uint8_t)(nwr >> 8);
	be[2] = (uint8_t)(nwr >> 16);
	be[3] = (uint8_t)(nwr >> 24);
	CHECK_EQ_U((uint32_t)be[0] << 24 | be[1] << 16 | be[2] << 8 | be[3], 3);
	CHECK_EQ_U(wait_irq(DATA_DONE) & DATA_DONE, DATA_DONE);
	CHECK_EQ_U(sim_violation_count(), 0);
}

/* The card registers built from each profile's fields decode back to those
 * fields with the project's own decoders (drivers/sd/sd_regs.c): two
 * independent readings of the same spec tables agree. */
TEST(registers_decode_to_profile_fields)
{
	unsigned i;

	for (i = 0; i < sim_profile_count(); i++) {
		const struct sim_profile *p = sim_profile_get(i);
		uint8_t cidb[16], csdb[16], scrb[8], ssrb[64];
		uint32_t w[4];
		struct sd_cid cid;
		struct sd_csd csd;
		struct sd_scr scr;
		struct sd_ssr ssr;

		CHECK_EQ_I(sim_setup(NULL, p), 0);
		sim_card_regs(cidb, csdb, scrb, ssrb);
		sd_regs_bytes_to_words(cidb, w);
		sd_cid_decode(w, &cid);
		sd_regs_bytes_to_words(csdb, w);
		sd_csd_decode(w, &csd);
		sd_scr_decode(scrb, &scr);
		sd_ssr_decode(ssrb, &ssr);

		CHECK_EQ_U(cid.mid, p->mid);
		CHECK_STR(cid.oid, p->oid);
		CHECK_STR(cid.pnm, p->pnm);
		CHECK_EQ_U(cid.prv, p->prv);
		CHECK_EQ_U(cid.psn, p->psn);
		CHECK_EQ_U(cid.mdt_year, p->mdt_year);
		CHECK_EQ_U(cid.mdt_month, p->mdt_month);
		CHECK_EQ_U(cid.crc_state, SD_CRC_OK);

		CHECK(csd.known && csd.capacity_valid);
		CHECK_EQ_U(csd.capacity_bytes, p->capacity_bytes);
		CHECK_EQ_U(csd.crc_state, SD_CRC_OK);
		CHECK_EQ_U(csd.tran_speed_hz, 25000000u);
		CHECK_EQ_U(csd.tmp_write_protect, p->csd_tmp_wp);
		if (p->kind <= SIM_SDSC_V2)
			CHECK_EQ_U(csd.read_bl_len, p->read_bl_len ? p->read_bl_len : 9);

		CHECK_EQ_U(scr.sd_spec, p->sd_spec);
		CHECK_EQ_U(scr.sd_spec3, p->sd_spec3);
		CHECK_EQ_U(scr.sd_spec4, p->sd_spec4);
		CHECK_EQ_U(scr.sd_specx, p->sd_specx);
		CHECK_EQ_U(scr.data_stat_after_erase, p->erase_ff);
		CHECK_EQ_U(scr.sd_bus_widths, p->bus4 ? 5 : 1);
		CHECK_EQ_U((scr.cmd_support >> 1) & 1, p->cmd23);

		CHECK_EQ_U(ssr.speed_class, p->speed_class);
		CHECK_EQ_U(ssr.au_size, p->au_size);
		CHECK_EQ_U(ssr.erase_size, p->erase_size);
		CHECK_EQ_U(ssr.erase_timeout, p->erase_timeout);
		CHECK_EQ_U(ssr.erase_offset, p->erase_offset);
		CHECK_EQ_U(ssr.uhs_speed_grade, p->uhs_grade);
		CHECK_EQ_U(ssr.video_speed_class, p->video_class);
		CHECK_EQ_U(ssr.app_perf_class, p->app_class);
	}
}

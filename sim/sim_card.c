/*
 * sim_card.c - a simulated SD memory card: the card-side state machine of
 * the SD Physical Layer Simplified Specification (v9.10 §4.2 identification,
 * §4.3 data transfer, §4.7 command tables, §4.8 state transitions, §4.10
 * card status). The memory data path is in sim_card_data.c.
 *
 * The controller model (sim_sdhci.c) calls sim_card_command() when a
 * command's end bit reaches the card, and the data-path functions when
 * blocks move. State, status bits and responses follow the spec; timing
 * comes from the profile's distributions (sim_rng.c).
 *
 * UHS-I: S18A in ACMD41 (profile 'uhs'), CMD11 and the switch (DAT[3:0]
 * low from CMD11's response until the SD clock comes back at 1.8 V at
 * least 5 ms after it stopped; otherwise they stay low and the card is
 * dead until its supply is cut), CMD6 group 1 SDR50/SDR104/DDR50 at
 * 1.8 V only, group 4 400 mA, CMD19 (the tuning block).
 *
 * SD 6.00 extension registers, cache and command queue (CMD43-49, CMD13
 * SEND_TASK_STATUS): sim_card_cq.c.
 *
 * Not modelled: SPI mode, CMD42 lock/unlock,
 * CMD27/28/29/30 (CSD programming, write-protect groups), CMD56, security
 * (ACMD18/25/26/38/43-49), command-line CRC
 * errors sent by the host, partial or misaligned writes (WRITE_BL_PARTIAL=0).
 */
#include <string.h>

#include "sim/sim_internal.h"

void (*sim_card_cmd_hook)(uint8_t idx, uint32_t arg, bool app);

/* R1 card status bits (§4.10.1). */
#define R1_OUT_OF_RANGE     (1u << 31)
#define R1_ADDRESS_ERROR    (1u << 30)
#define R1_BLOCK_LEN_ERROR  (1u << 29)
#define R1_ERASE_SEQ_ERROR  (1u << 28)
#define R1_ERASE_PARAM      (1u << 27)
#define R1_WP_VIOLATION     (1u << 26)
#define R1_COM_CRC_ERROR    (1u << 23)
#define R1_ILLEGAL_COMMAND  (1u << 22)
#define R1_ERROR            (1u << 19)
#define R1_WP_ERASE_SKIP    (1u << 15)
#define R1_ERASE_RESET      (1u << 13)
#define R1_STATE_SHIFT      9
#define R1_READY_FOR_DATA   (1u << 8)
#define R1_APP_CMD          (1u << 5)

/* OCR (§5.1) */
#define OCR_BUSY            (1u << 31) /* 1 = power-up finished */
#define OCR_CCS             (1u << 30)
#define OCR_WINDOW          0x00ff8000u /* 2.7-3.6 V */
#define ACMD41_HCS          (1u << 30)
#define ACMD41_S18R         (1u << 24)
#define OCR_S18A            (1u << 24)
#define SWITCH_WAIT_NS      5000000ull /* SD §4.2.4.2: clock off >= 5 ms */

/* The 4-bit tuning block (SD Physical Layer §4.2.4.5, Table 4-2). */
const uint8_t sim_tuning_block[64] = {
	0xff, 0x0f, 0xff, 0x00, 0xff, 0xcc, 0xc3, 0xcc, 0xc3, 0x3c, 0xcc, 0xff,
	0xfe, 0xff, 0xfe, 0xef, 0xff, 0xdf, 0xff, 0xdd, 0xff, 0xfb, 0xff, 0xfb,
	0xbf, 0xff, 0x7f, 0xff, 0x77, 0xf7, 0xbd, 0xef, 0xff, 0xf0, 0xff, 0xf0,
	0x0f, 0xfc, 0xcc, 0x3c, 0xcc, 0x33, 0xcc, 0xcf, 0xff, 0xef, 0xff, 0xee,
	0xff, 0xfd, 0xff, 0xfd, 0xdf, 0xff, 0xbf, 0xff, 0xbb, 0xff, 0xf7, 0xff,
	0xf7, 0x7f, 0x7b, 0xde,
};

struct sim_card sim_card;

static const char *const state_names[] = {
	"idle", "ready", "ident", "stby", "tran", "data", "rcv", "prg", "dis",
	"ina"
};

const char *sim_card_state_name(int state)
{
	if (state < 0 || state > ST_INA)
		return "?";
	return state_names[state];
}

/* Power-up / CMD0 state (§4.2.1, §4.4): the memory survives. */
static void go_idle(void)
{
	struct sim_card *c = &sim_card;

	c->state = ST_IDLE;
	c->busy_until = 0;
	c->rca = 0;
	c->app_next = false;
	c->err_pending = 0;
	c->width = 1;
	c->hs_mode = false;
	c->blocklen = 512;
	c->acmd41_started = false;
	c->ccs = false;
	c->erase_start_set = c->erase_end_set = false;
	c->sbc = 0;
	c->wr_blk_erase = 0;
	c->op_blocks = 0;
	c->op_multi = false;
	c->cmd8_ok = false;
	/* CMD0 keeps the signalling voltage (§4.2.4.2); the bus mode goes
	 * back to SDR12 / default speed. */
	c->g1 = 0;
	c->g1_next = -1;
	c->s18a_given = false;
	c->switching = false;
	c->op_kind = OPK_MEM;
	c->op_staged = false;
	sim_cq_reset(false);
}

void sim_card_reset(const struct sim_profile *p)
{
	struct sim_card *c = &sim_card;

	memset(c, 0, sizeof(*c));
	c->p = p;
	c->present = true;
	c->blocks_total = p->capacity_bytes / 512;
	c->blocks_real = (p->real_bytes ? p->real_bytes : p->capacity_bytes) / 512;
	c->rca_seed = (uint16_t)(0x4567 ^ (p->psn & 0xffff));
	c->read_page = ~0ull;
	c->last_wr_end = ~0ull;
	c->io_mv = 3300;
	go_idle();
	sim_cq_reset(true);
	sim_card_build_regs(c);
}

/* PRG/DIS end when DAT0 busy ends (§4.8). */
static void settle(uint64_t t)
{
	struct sim_card *c = &sim_card;

	if ((c->state == ST_PRG || c->state == ST_DIS) && c->busy_until <= t)
		c->state = c->after_busy;
}

enum sim_state sim_card_state_at(uint64_t t)
{
	settle(t);
	return sim_card.state;
}

bool sim_card_busy_at(uint64_t t)
{
	return sim_card.present && sim_card.busy_until > t;
}

static uint32_t status_word(enum sim_state st, uint32_t extra, bool app,
			    uint64_t t)
{
	struct sim_card *c = &sim_card;
	uint32_t s = c->err_pending | extra;

	s |= (uint32_t)st << R1_STATE_SHIFT;
	if (!sim_card_busy_at(t))
		s |= R1_READY_FOR_DATA;
	if (app)
		s |= R1_APP_CMD;
	/* Error bits of type C/B are cleared once sent (§4.10.1). */
	c->err_pending = 0;
	return s;
}

static void r1(struct sim_cmd_out *o, uint8_t idx, enum sim_state st,
	       uint32_t extra, uint64_t t)
{
	o->rsp = RSP_48;
	o->index = idx;
	o->r[0] = status_word(st, extra, o->app, t);
}

/* No response; ILLEGAL_COMMAND shows in the next response (§4.10.1 note). */
static void illegal(struct sim_cmd_out *o)
{
	o->rsp = RSP_NONE;
	sim_card.err_pending |= R1_ILLEGAL_COMMAND;
}

static bool addressed(uint32_t arg)
{
	return (arg >> 16) == sim_card.rca;
}

void sim_card_r1(struct sim_cmd_out *o, uint8_t idx, enum sim_state st,
		 uint32_t extra, uint64_t t)
{
	r1(o, idx, st, extra, t);
}

void sim_card_illegal(struct sim_cmd_out *o)
{
	illegal(o);
}

bool sim_card_addressed(uint32_t arg)
{
	return addressed(arg);
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void r2(struct sim_cmd_out *o, const uint8_t *reg)
{
	unsigned i;

	o->rsp = RSP_136;
	o->index = 0x3f;
	for (i = 0; i < 4; i++)
		o->r[i] = (uint32_t)reg[4 * i] << 24 | (uint32_t)reg[4 * i + 1] << 16 |
			  (uint32_t)reg[4 * i + 2] << 8 | reg[4 * i + 3];
}

static void reg_read(struct sim_cmd_out *o, const uint8_t *data, uint32_t len)
{
	o->xfer = XK_READ;
	o->mem = false;
	o->blksz = len;
	o->blocks = 1;
	memcpy(o->reg_data, data, len);
	sim_card.state = ST_DATA;
	sim_card.op_blocks = 1;
	sim_card.op_multi = false;
	sim_card.op_mem = false;
	sim_card.op_kind = OPK_MEM;
	sim_card.op_staged = false;
}

/* Address check of a block command; returns the byte address or fills
 * the error bit (§4.3.3, §4.10.1 OUT_OF_RANGE / ADDRESS_ERROR). */
static bool mem_addr(uint32_t arg, uint64_t *byte_addr, uint32_t *err)
{
	struct sim_card *c = &sim_card;
	uint64_t a;

	if (c->ccs) {
		a = (uint64_t)arg * 512;
	} else {
		a = arg;
		if (a % c->blocklen) {
			*err |= R1_ADDRESS_ERROR;
			return false;
		}
	}
	if (a >= c->blocks_total * 512) {
		*err |= R1_OUT_OF_RANGE;
		return false;
	}
	*byte_addr = a;
	return true;
}

static void cmd6(struct sim_cmd_out *o, uint32_t arg, uint64_t t)
{
	struct sim_card *c = &sim_card;
	const struct sim_profile *p = c->p;
	uint8_t st[64];
	bool sw = arg >> 31, fail = false, v18 = c->io_mv == 1800;
	unsigned g, res[7];
	/* Group 1 support: SDR12, SDR25/HS, then the UHS-I modes (listed by
	 * a UHS-I card at any voltage, selectable at 1.8 V only). */
	uint16_t g1s = 0x8001 | (p->hs ? 2 : 0) |
		       (p->uhs && p->sdr50 ? 4 : 0) | (p->uhs && p->sdr104 ? 8 : 0) |
		       (p->uhs && p->ddr50 ? 16 : 0);
	uint16_t g4s = 0x8001 | (p->uhs ? 2 : 0); /* 200 mA, 400 mA */

	memset(st, 0, sizeof(st));
	for (g = 1; g <= 6; g++) {
		unsigned req = (arg >> (4 * (g - 1))) & 0xf;
		unsigned cur = g == 1 ? c->g1 : 0;
		bool supp = req == 0;

		if (g == 1 && req < 16 && (g1s & (1u << req)))
			supp = req <= 1 || v18;
		if (g == 4 && req < 16 && (g4s & (1u << req)))
			supp = true;
		if (req == 0xf)
			res[g] = cur;
		else if (!supp)
			res[g] = 0xf, fail = true;
		else if (g == 1 && req == 1 && sw && !v18 &&
			 sim_fault_active(SIM_FAULT_HS_REJECT))
			res[g] = 0xf, fail = true;
		else if (g == 1 && req >= 2 && sw &&
			 sim_fault_active(SIM_FAULT_UHS_REJECT))
			res[g] = 0xf, fail = true;
		else
			res[g] = req;
	}
	sim_card_put_bits(st, 64, 511, 496, 200);      /* max current, mA */
	sim_card_put_bits(st, 64, 415, 400, g1s);
	for (g = 2; g <= 6; g++)
		sim_card_put_bits(st, 64, 415 + 16 * (g - 1), 400 + 16 * (g - 1),
				  g == 4 ? g4s : 0x8001);
	for (g = 1; g <= 6; g++)
		sim_card_put_bits(st, 64, 379 + 4 * (g - 1), 376 + 4 * (g - 1),
				  res[g]);
	sim_card_put_bits(st, 64, 375, 368, 1);        /* data structure v1 */
	/* The new mode takes effect once the status block is sent
	 * (sim_card_data_done). */
	if (sw && !fail && res[1] != 0xf)
		c->g1_next = (int8_t)res[1];
	else
		c->g1_next = -1;
	r1(o, 6, ST_TRAN, 0, t);
	reg_read(o, st, 64);
}

void sim_card_switch_clock(bool on, uint64_t t)
{
	struct sim_card *c = &sim_card;

	if (!c->switching)
		return;
	if (!on) {
		if (c->clk_off_t == SIM_NEVER)
			c->clk_off_t = t;
		return;
	}
	c->switching = false;
	/* The clock is back: the card has switched if its supply of 1.8 V
	 * signalling is there and the clock stayed off long enough. */
	if (c->clk_off_t != SIM_NEVER && t - c->clk_off_t >= SWITCH_WAIT_NS &&
	    sim_board_io_mv() == 1800 && !sim_fault_active(SIM_FAULT_UHS_SWITCH)) {
		c->io_mv = 1800;
		return;
	}
	c->switch_bad = true;
}

bool sim_card_dat_low(void)
{
	const struct sim_card *c = &sim_card;

	return c->present && !c->unpowered && (c->switching || c->switch_bad);
}

uint32_t sim_card_max_hz(void)
{
	static const uint32_t uhs_max[5] = { 25000000u, 50000000u, 100000000u,
					     208000000u, 50000000u };
	const struct sim_card *c = &sim_card;

	if (c->io_mv == 1800)
		return uhs_max[c->g1 < 5 ? c->g1 : 0];
	return c->hs_mode ? 50000000u : 25000000u;
}

unsigned sim_card_io_mv(void)
{
	return sim_card.io_mv;
}

unsigned sim_card_g1(void)
{
	return sim_card.g1;
}

/* How long until the card is done powering up (ACMD41), §4.2.3. */
static void acmd41(struct sim_cmd_out *o, uint32_t arg, uint64_t t)
{
	struct sim_card *c = &sim_card;
	const struct sim_profile *p = c->p;
	uint32_t ocr = OCR_WINDOW;
	bool hc = p->kind == SIM_SDHC || p->kind == SIM_SDXC;
	bool ready = false;

	if (arg & 0x00ffffffu) {
		if (!(arg & OCR_WINDOW)) {
			/* No voltage in common: the card goes inactive. */
			c->state = ST_INA;
			o->rsp = RSP_NONE;
			return;
		}
		if (!c->acmd41_started) {
			c->acmd41_started = true;
			c->acmd41_t0 = t;
		}
		ready = t - c->acmd41_t0 >= (uint64_t)p->init_busy_us * 1000;
		/* A high-capacity card stays busy for a host that did not
		 * send CMD8 or set HCS (§4.2.3.1). */
		if (hc && (!c->cmd8_ok || !(arg & ACMD41_HCS)))
			ready = false;
		if (sim_fault_active(SIM_FAULT_ACMD41_NEVER_READY))
			ready = false;
	}
	if (ready) {
		c->ccs = hc;
		ocr |= OCR_BUSY | (c->ccs ? OCR_CCS : 0);
		c->state = ST_READY;
		/* UHS-I: 1.8 V offered and accepted (a card already at 1.8 V
		 * answers S18A 0, §4.2.3.1). */
		if ((arg & ACMD41_S18R) && p->uhs && hc && c->io_mv == 3300) {
			ocr |= OCR_S18A;
			c->s18a_given = true;
		}
	}
	o->rsp = RSP_48;
	o->index = 0x3f;
	o->r[0] = ocr;
}

uint64_t sim_card_au_bytes(void)
{
	static const uint32_t big[] = { 8, 12, 16, 24, 32, 64 }; /* MiB, A..F */
	uint8_t code = sim_card.p->au_size;

	if (code == 0)
		return 4ull << 20;
	if (code <= 9)
		return 16384ull << (code - 1);
	return (uint64_t)big[code - 10] << 20;
}

static void erase(struct sim_cmd_out *o, uint64_t t)
{
	struct sim_card *c = &sim_card;
	const struct sim_profile *p = c->p;
	uint64_t first, last, busy, au;

	if (!c->erase_start_set || !c->erase_end_set) {
		r1(o, 38, ST_TRAN, R1_ERASE_SEQ_ERROR, t);
		c->erase_start_set = c->erase_end_set = false;
		return;
	}
	first = c->erase_start;
	last = c->erase_end;
	c->erase_start_set = c->erase_end_set = false;
	if (last < first) {
		r1(o, 38, ST_TRAN, R1_ERASE_PARAM, t);
		return;
	}
	if (p->csd_tmp_wp) {
		r1(o, 38, ST_TRAN, R1_WP_ERASE_SKIP, t);
		return;
	}
	r1(o, 38, ST_TRAN, 0, t);
	if (c->blocks_real < c->blocks_total) {
		/* A fake card erases what it maps the range onto. */
		if (last - first + 1 >= c->blocks_real) {
			first = 0;
			last = c->blocks_real - 1;
		} else {
			uint64_t f = first % c->blocks_real, l = last % c->blocks_real;

			if (f <= l) {
				sim_store_erase(f, l, p->erase_ff ? 0xff : 0);
			} else {
				sim_store_erase(f, c->blocks_real - 1,
						p->erase_ff ? 0xff : 0);
				sim_store_erase(0, l, p->erase_ff ? 0xff : 0);
			}
			first = 1;
			last = 0; /* done */
		}
	}
	if (first <= last)
		sim_store_erase(first, last, p->erase_ff ? 0xff : 0);
	au = sim_card_au_bytes() / 512;
	busy = sim_rng_draw(&p->erase_base) +
	       p->erase_per_au_ns * ((c->erase_end - c->erase_start) / au + 1);
	c->state = ST_PRG;
	c->after_busy = ST_TRAN;
	c->busy_until = t + busy;
	o->busy_ns = busy;
}

static bool app_command(uint8_t idx, uint32_t arg, uint64_t t,
			struct sim_cmd_out *o, enum sim_state st)
{
	struct sim_card *c = &sim_card;
	uint8_t nwr[4];

	switch (idx) {
	case 6:
		if (st != ST_TRAN || ((arg & 3) != 0 && (arg & 3) != 2) ||
		    ((arg & 3) == 2 && !c->p->bus4)) {
			illegal(o);
			return true;
		}
		c->width = (arg & 3) == 2 ? 4 : 1;
		sim_card_build_regs(c); /* SSR DAT_BUS_WIDTH */
		r1(o, 6, st, 0, t);
		return true;
	case 13:
		if (st != ST_TRAN) {
			illegal(o);
			return true;
		}
		r1(o, 13, st, 0, t);
		reg_read(o, c->ssr, 64);
		return true;
	case 22:
		if (st != ST_TRAN) {
			illegal(o);
			return true;
		}
		r1(o, 22, st, 0, t);
		put_be32(nwr, c->well_written);
		reg_read(o, nwr, 4);
		return true;
	case 23:
		if (st != ST_TRAN) {
			illegal(o);
			return true;
		}
		c->wr_blk_erase = arg & 0x7fffff;
		r1(o, 23, st, 0, t);
		return true;
	case 41:
		if (st != ST_IDLE) {
			illegal(o);
			return true;
		}
		acmd41(o, arg, t);
		return true;
	case 42:
		if (st != ST_TRAN) {
			illegal(o);
			return true;
		}
		r1(o, 42, st, 0, t);
		return true;
	case 51:
		if (st != ST_TRAN) {
			illegal(o);
			return true;
		}
		r1(o, 51, st, 0, t);
		reg_read(o, c->scr, 8);
		return true;
	default:
		return false; /* not an ACMD: a standard command */
	}
}

static void mem_cmd(uint8_t idx, uint32_t arg, uint64_t t,
		    struct sim_cmd_out *o, enum sim_state st)
{
	struct sim_card *c = &sim_card;
	bool rd = idx == 17 || idx == 18;
	bool multi = idx == 18 || idx == 25;
	uint32_t err = 0;
	uint64_t a;

	if (st != ST_TRAN) {
		illegal(o);
		c->sbc = 0;
		return;
	}
	if (!mem_addr(arg, &a, &err)) {
		r1(o, idx, st, err, t);
		c->sbc = 0;
		return;
	}
	if (!c->ccs && c->blocklen != 512 && !rd) {
		r1(o, idx, st, R1_BLOCK_LEN_ERROR, t);
		c->sbc = 0;
		return;
	}
	if (!rd && c->p->csd_tmp_wp) {
		r1(o, idx, st, R1_WP_VIOLATION, t);
		c->sbc = 0;
		return;
	}
	r1(o, idx, st, 0, t);
	o->xfer = rd ? XK_READ : XK_WRITE;
	o->mem = true;
	o->blksz = c->ccs ? 512 : c->blocklen;
	o->blocks = multi ? c->sbc : 1;
	c->op_addr = a;
	c->op_blocks = multi ? c->sbc : 1;
	c->op_multi = multi;
	c->op_mem = true;
	c->op_kind = OPK_MEM;
	c->op_staged = false;
	c->sbc = 0;
	c->state = rd ? ST_DATA : ST_RCV;
	if (!rd) {
		c->well_written = 0;
		c->op_written = 0;
		/* ACMD23 counts for this write only (§4.3.14). */
		c->op_preerased = idx == 25 ? c->wr_blk_erase : 0;
		c->wr_blk_erase = 0;
	}
}

void sim_card_command(uint8_t idx, uint32_t arg, uint64_t t,
		      struct sim_cmd_out *o)
{
	struct sim_card *c = &sim_card;
	enum sim_state st;
	bool app;

	memset(o, 0, sizeof(*o));
	if (!c->present)
		return;
	settle(t);
	st = c->state;
	if (st == ST_INA)
		return;
	/* Unpowered, switching or dead after a failed switch: silent. A card
	 * and a host at different signalling voltages do not hear each other. */
	if (c->unpowered || c->switching || c->switch_bad ||
	    c->io_mv != sim_board_io_mv())
		return;
	app = c->app_next;
	c->app_next = false;
	o->app = app;
	sim_truth_queue_cmd(idx, arg, app, t);
	if (sim_card_cmd_hook)
		sim_card_cmd_hook(idx, arg, app);

	if (idx == 0) {
		go_idle();
		return;
	}
	if (app && app_command(idx, arg, t, o, st))
		return;
	o->app = false;
	/* CMD23 only counts for the very next command (§4.15). */
	if (idx != 18 && idx != 25 && idx != 23 && idx != 13)
		c->sbc = 0;
	if (sim_cq_command(idx, arg, t, o, st))
		return;

	switch (idx) {
	case 2:
		if (st != ST_READY)
			{ illegal(o); return; }
		c->state = ST_IDENT;
		r2(o, c->cid);
		return;
	case 3:
		if (st != ST_IDENT && st != ST_STBY)
			{ illegal(o); return; }
		c->rca_seed = (uint16_t)(c->rca_seed * 5 + 0x1f35);
		c->rca = c->rca_seed ? c->rca_seed : 1;
		{
			uint32_t s = status_word(st, 0, false, t);

			o->rsp = RSP_48;
			o->index = 3;
			o->r[0] = (uint32_t)c->rca << 16 |
				  ((s >> 8) & 0x8000) | ((s >> 8) & 0x4000) |
				  ((s >> 6) & 0x2000) | (s & 0x1fff);
		}
		c->state = ST_STBY;
		return;
	case 4:
		if (st != ST_STBY)
			{ illegal(o); return; }
		return; /* DSR: no response */
	case 6:
		if (st != ST_TRAN || c->p->no_cmd6)
			{ illegal(o); return; }
		cmd6(o, arg, t);
		return;
	case 7:
		if (addressed(arg) && c->rca) {
			if (st == ST_STBY) {
				c->state = ST_TRAN;
			} else if (st == ST_DIS) {
				c->state = ST_PRG;
				c->after_busy = ST_TRAN;
			} else {
				{ illegal(o); return; }
			}
			r1(o, 7, st, 0, t);
			return;
		}
		/* Another card (or RCA 0) selected: deselect, no response. */
		if (st == ST_TRAN || st == ST_DATA)
			c->state = ST_STBY;
		else if (st == ST_PRG)
			c->state = ST_DIS, c->after_busy = ST_STBY;
		else if (st != ST_STBY)
			{ illegal(o); return; }
		return;
	case 8:
		if (st != ST_IDLE || c->p->kind == SIM_SDSC_V1)
			{ illegal(o); return; }
		if (((arg >> 8) & 0xf) != 1)
			return; /* voltage not supported: silence (§4.3.13) */
		c->cmd8_ok = true;
		o->rsp = RSP_48;
		o->index = 8;
		o->r[0] = arg & 0xfff;
		return;
	case 9:
	case 10:
		if (st != ST_STBY)
			{ illegal(o); return; }
		if (!addressed(arg))
			return;
		r2(o, idx == 9 ? c->csd : c->cid);
		return;
	case 11:
		if (st != ST_READY || !c->s18a_given)
			{ illegal(o); return; }
		r1(o, 11, st, 0, t);
		c->switching = true;
		c->clk_off_t = SIM_NEVER;
		return;
	case 19:
		if (st != ST_TRAN || c->io_mv != 1800)
			{ illegal(o); return; }
		r1(o, 19, st, 0, t);
		reg_read(o, sim_tuning_block, 64);
		return;
	case 12:
		if (st == ST_DATA) {
			c->state = ST_TRAN;
			r1(o, 12, st, 0, t);
			return;
		}
		if (st == ST_RCV) {
			uint64_t rest = c->busy_until > t ? c->busy_until - t : 0;

			r1(o, 12, st, 0, t);
			if (c->busy_until != SIM_NEVER) {
				rest += sim_card_write_end_busy();
				/* A card with nothing left to program is not
				 * busy at all. */
				if (rest)
					c->busy_until = t + rest;
			}
			o->busy_ns = c->busy_until == SIM_NEVER ? SIM_NEVER : rest;
			c->state = ST_PRG;
			c->after_busy = ST_TRAN;
			return;
		}
		{ illegal(o); return; }
	case 13:
		if (st < ST_STBY || st > ST_DIS)
			{ illegal(o); return; }
		if (!addressed(arg))
			return;
		r1(o, 13, st, 0, t);
		return;
	case 15:
		if (st < ST_STBY || st > ST_DIS)
			{ illegal(o); return; }
		if (addressed(arg))
			c->state = ST_INA;
		return;
	case 16:
		if (st != ST_TRAN)
			{ illegal(o); return; }
		if (arg == 0 || arg > 512) {
			r1(o, 16, st, R1_BLOCK_LEN_ERROR, t);
			return;
		}
		if (!c->ccs)
			c->blocklen = arg;
		r1(o, 16, st, 0, t);
		return;
	case 17:
	case 18:
	case 24:
	case 25:
		mem_cmd(idx, arg, t, o, st);
		return;
	case 20:
		if (st != ST_TRAN || !c->p->cmd20)
			{ illegal(o); return; }
		r1(o, 20, st, 0, t);
		return;
	case 23:
		if (st != ST_TRAN || !c->p->cmd23 || arg == 0)
			{ illegal(o); return; }
		c->sbc = arg;
		r1(o, 23, st, 0, t);
		return;
	case 32:
	case 33:
		if (st != ST_TRAN)
			{ illegal(o); return; }
		{
			uint64_t blk = c->ccs ? arg : arg / 512;

			if (blk >= c->blocks_total) {
				r1(o, idx, st, R1_OUT_OF_RANGE, t);
				c->erase_start_set = c->erase_end_set = false;
				return;
			}
			if (idx == 32) {
				c->erase_start = (uint32_t)blk;
				c->erase_start_set = true;
				c->erase_end_set = false;
			} else if (!c->erase_start_set) {
				r1(o, idx, st, R1_ERASE_SEQ_ERROR, t);
				return;
			} else {
				c->erase_end = (uint32_t)blk;
				c->erase_end_set = true;
			}
		}
		r1(o, idx, st, 0, t);
		return;
	case 38:
		if (st != ST_TRAN)
			{ illegal(o); return; }
		erase(o, t);
		return;
	case 55:
		if (st == ST_INA)
			return;
		if (st >= ST_STBY && !addressed(arg))
			return;
		c->app_next = true;
		o->app = true;
		r1(o, 55, st, 0, t);
		return;
	default:
		{ illegal(o); return; }
	}
}

int sim_card_state(void)
{
	return sim_card_state_at(sim_clk_now);
}

void sim_card_regs(uint8_t cid[16], uint8_t csd[16], uint8_t scr[8],
		   uint8_t ssr[64])
{
	if (cid)
		memcpy(cid, sim_card.cid, 16);
	if (csd)
		memcpy(csd, sim_card.csd, 16);
	if (scr)
		memcpy(scr, sim_card.scr, 8);
	if (ssr)
		memcpy(ssr, sim_card.ssr, 64);
}

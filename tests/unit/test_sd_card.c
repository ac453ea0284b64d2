/*
 * test_sd_card.c - the SD card protocol layer (drivers/sd/sd.c) against a
 * small scripted card behind a fake struct sd_host_ops: no controller, no
 * simulator, only the protocol decisions of the card layer.
 *
 * The fake card follows the SD state machine closely enough to notice a
 * command in the wrong state (counted in f.illegal, answered with no
 * response and ILLEGAL_COMMAND in the next R1, like a real card); it keeps
 * a log of the commands it received, so tests can check what reached the
 * card (nothing, for a write to a write-protected card).
 *
 * The timer API is provided here (a fake clock advanced by udelay and each
 * read) so the test links without the simulator.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tests/unit/check.h"
#include "drivers/sd/sd.h"
#include "drivers/timer.h"

/* ---- fake clock ---------------------------------------------------------- */
static uint64_t now_us;

uint32_t timer_ticks(void) { return (uint32_t)++now_us; }
uint64_t timer_ticks_to_ns(uint32_t t) { return (uint64_t)t * 1000u; }
uint64_t timer_now_us(void) { return ++now_us; }
timer_deadline_t timer_deadline_us(uint64_t us) { return now_us + us; }
bool timer_expired(timer_deadline_t d) { return ++now_us > d; }
void timer_udelay(uint32_t us) { now_us += us; }

/* ---- fake card ----------------------------------------------------------- */
#define NBLK 4096u
#define ST_ILLEGAL SD_R1_ILLEGAL_COMMAND

struct fake {
	bool v1;            /* no answer to CMD8 */
	bool silent;        /* no card: nothing answers */
	int cd, ro;         /* get_cd / get_ro answers */
	bool tmp_wp;        /* CSD TMP_WRITE_PROTECT */
	bool cmd23;         /* SCR CMD_SUPPORT bit 1 */
	int fail_data_cmd;  /* a data error (-EILSEQ) on this command index */
	uint32_t addr_error_at; /* ADDRESS_ERROR for a read at this address */
	unsigned state, acmd41_polls;
	bool app;
	uint32_t status;    /* pending error bits for the next R1 */
	uint16_t rca;
	uint32_t preset;    /* CMD23 count, 0 none */
	unsigned illegal;   /* commands in a wrong state */
	uint8_t log[512];
	unsigned nlog;
	uint8_t mem[NBLK * 512];
	int crc_once;       /* one response CRC error on this command ... */
	bool crc_once_app;  /* ... as an application command */
	uint8_t last_stop;  /* data->stop of the last data request */
	uint32_t last_sbc;
};

static struct fake f;
static struct sd_host host;
static struct sd_card card;

static const uint8_t csd_v2[16] = {
	0x40, 0x0e, 0x00, 0x32, 0x5b, 0x59, 0x00, 0x00,
	0x00, 0x03, 0x7f, 0x80, 0x0a, 0x40, 0x00, 0x00, /* C_SIZE 3: 2 MiB */
};
static const uint8_t csd_v1[16] = {
	0x00, 0x26, 0x00, 0x32, 0x5f, 0x59, 0x00, 0x7f,
	0xff, 0xfc, 0x7f, 0x80, 0x0a, 0x40, 0x00, 0x00, /* C_SIZE 511, MULT 0: 1 MiB */
};

static void words(const uint8_t b[16], uint32_t w[4])
{
	unsigned i;

	for (i = 0; i < 4; i++)
		w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 |
		       (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
}

static uint32_t r1(void)
{
	uint32_t s = f.status | f.state << 9 | SD_R1_READY_FOR_DATA;

	f.status = 0;
	return s;
}

static int no_answer(struct sd_request *req)
{
	req->err.code = -ETIMEDOUT;
	req->err.phase = "command";
	return -ETIMEDOUT;
}

static int illegal(struct sd_request *req)
{
	f.illegal++;
	f.status |= ST_ILLEGAL;
	return no_answer(req);
}

static int data_move(struct sd_request *req, uint32_t addr)
{
	struct sd_data *d = req->data;
	uint32_t lba = f.v1 ? addr / 512 : addr;
	uint32_t n = d->blocks;

	if (f.addr_error_at && addr == f.addr_error_at) {
		f.status |= SD_R1_ADDRESS_ERROR;
		req->cmd.resp[0] = r1();
		f.state = 5;
		return 0;
	}
	if ((uint64_t)lba + n > NBLK) {
		f.status |= SD_R1_OUT_OF_RANGE;
		n = 0;
	}
	if (d->dir == SD_DATA_READ)
		memcpy(d->buf, f.mem + lba * 512, n * 512);
	else
		memcpy(f.mem + lba * 512, d->buf, n * 512);
	return 0;
}

static int fake_request(struct sd_host *h, struct sd_request *req)
{
	struct sd_cmd *c = &req->cmd;
	bool app = f.app;
	uint32_t w[4];

	(void)h;
	memset(&req->err, 0, sizeof(req->err));
	req->err.cmd = c->index;
	f.app = false;
	if (f.nlog < sizeof(f.log))
		f.log[f.nlog++] = (uint8_t)(c->index | (app ? 0x80 : 0));
	if (f.silent)
		return c->resp_type == SD_RESP_NONE ? 0 : no_answer(req);
	if (f.crc_once && c->index == f.crc_once && app == f.crc_once_app) {
		/* The card executed the command; its response was damaged. */
		f.crc_once = 0;
		f.nlog--; /* logged again by the inner call */
		f.app = app;
		fake_request(h, req);
		req->err.code = -EILSEQ;
		req->err.phase = "command";
		return -EILSEQ;
	}
	if (req->data) {
		f.last_stop = req->data->stop;
		f.last_sbc = req->data->sbc_arg;
	}

	if (app) {
		switch (c->index) {
		case 41:
			if (f.state != 0)
				return illegal(req);
			c->resp[0] = 0x00FF8000u;
			if (++f.acmd41_polls >= 3) {
				c->resp[0] |= 1u << 31; /* OCR busy bit: powered up */
				if (!f.v1 && (c->arg & (1u << 30)))
					c->resp[0] |= 1u << 30;
				f.state = 1;
			}
			return 0;
		case 51: {
			uint8_t scr[8] = { f.v1 ? 0x00 : 0x02, 0x25, 0x80,
					   f.cmd23 ? 0x02 : 0x00, 0, 0, 0, 0 };

			if (f.state != 4)
				return illegal(req);
			memcpy(req->data->buf, scr, 8);
			c->resp[0] = r1();
			return 0;
		}
		case 13:
		case 6:
		case 23:
			if (f.state != 4)
				return illegal(req);
			if (c->index == 13)
				memset(req->data->buf, 0, 64);
			c->resp[0] = r1();
			return 0;
		default:
			return illegal(req);
		}
	}

	switch (c->index) {
	case 0:
		f.state = 0;
		return 0;
	case 8:
		if (f.v1 || f.state != 0)
			return illegal(req);
		c->resp[0] = c->arg & 0xFFF;
		return 0;
	case 55:
		if (f.state == 1 || f.state == 2)
			return illegal(req);
		f.app = true;
		c->resp[0] = r1() | SD_R1_APP_CMD;
		return 0;
	case 2:
		if (f.state != 1)
			return illegal(req);
		f.state = 2;
		memset(c->resp, 0, sizeof(c->resp));
		c->resp[0] = 0xAA585951u;
		return 0;
	case 3:
		if (f.state != 2 && f.state != 3)
			return illegal(req);
		f.state = 3;
		f.rca = 0x1234;
		c->resp[0] = (uint32_t)f.rca << 16 | 3u << 9;
		return 0;
	case 9: {
		uint8_t b[16];

		if (f.state != 3)
			return illegal(req);
		memcpy(b, f.v1 ? csd_v1 : csd_v2, 16);
		if (f.tmp_wp)
			b[14] |= 0x10;
		words(b, w);
		memcpy(c->resp, w, sizeof(w));
		return 0;
	}
	case 7:
		if (f.state != 3 || (c->arg >> 16) != f.rca)
			return illegal(req);
		c->resp[0] = r1();
		f.state = 4;
		return 0;
	case 6:
		if (f.state != 4 || !req->data)
			return illegal(req);
		memset(req->data->buf, 0, 64);
		((uint8_t *)req->data->buf)[13] = 0x03; /* group 1: 0 and 1 */
		((uint8_t *)req->data->buf)[16] = 0x01; /* HS selected */
		c->resp[0] = r1();
		return 0;
	case 16:
	case 32:
	case 33:
		if (f.state != 4)
			return illegal(req);
		c->resp[0] = r1();
		return 0;
	case 38:
		if (f.state != 4)
			return illegal(req);
		c->resp[0] = r1();
		return 0;
	case 13:
		c->resp[0] = r1();
		return 0;
	case 23:
		if (f.state != 4 || !f.cmd23)
			return illegal(req);
		f.preset = c->arg;
		c->resp[0] = r1();
		return 0;
	case 12:
		if (f.state != 5 && f.state != 6)
			return illegal(req);
		c->resp[0] = r1();
		f.state = 4;
		return 0;
	case 17: case 18: case 24: case 25: {
		bool multi = c->index == 18 || c->index == 25;
		int ret;

		if (f.state != 4 || !req->data)
			return illegal(req);
		c->resp[0] = r1();
		ret = data_move(req, c->arg);
		if (ret)
			return ret;
		if (f.state == 5)
			return 0; /* address error: left in data state */
		if (multi && req->data->stop == SD_STOP_NONE && !f.preset)
			f.state = c->index == 18 ? 5 : 6;
		if (multi && req->data->stop == SD_STOP_AUTO12)
			req->cmd.auto_resp = r1();
		f.preset = 0;
		if (f.fail_data_cmd == c->index) {
			if (multi)
				f.state = c->index == 18 ? 5 : 6;
			req->err.code = -EILSEQ;
			req->err.phase = "read data";
			return -EILSEQ;
		}
		return 0;
	}
	default:
		return illegal(req);
	}
}

static int fake_reset(struct sd_host *h) { (void)h; return 0; }
static int fake_set_ios(struct sd_host *h, const struct sd_ios *ios)
{
	h->actual_clock_hz = ios->clock_hz;
	h->width = ios->width;
	h->timing = ios->timing;
	return 0;
}
static int fake_busy(struct sd_host *h) { (void)h; return 0; }
static int fake_cd(struct sd_host *h) { (void)h; return f.cd; }
static int fake_ro(struct sd_host *h) { (void)h; return f.ro; }

static const struct sd_host_ops fake_ops = {
	.reset = fake_reset, .set_ios = fake_set_ios, .request = fake_request,
	.card_busy = fake_busy, .get_cd = fake_cd, .get_ro = fake_ro,
};

static void setup(void)
{
	memset(&f, 0, sizeof(f));
	f.cd = 1;
	memset(&host, 0, sizeof(host));
	host.ops = &fake_ops;
	host.name = "fake";
	host.f_max_hz = 52000000;
	host.cap_4bit = host.cap_hs = host.cap_auto12 = host.cap_auto23 = true;
}

static bool logged(uint8_t code, unsigned from)
{
	unsigned i;

	for (i = from; i < f.nlog; i++)
		if (f.log[i] == code)
			return true;
	return false;
}

/* ---- tests ---------------------------------------------------------------- */

TEST(init_sdhc_v2)
{
	setup();
	f.cmd23 = true;
	CHECK_EQ_I(sd_init(&card, &host), 0);
	CHECK(card.initialised);
	CHECK(card.v2);
	CHECK(card.high_capacity);
	CHECK_EQ_U(card.rca, 0x1234);
	CHECK_EQ_U(card.blocks, 4096);
	CHECK_EQ_U(card.capacity_bytes, 2u << 20);
	CHECK_EQ_U(card.width, 4);
	CHECK_EQ_U(card.timing, SD_TIMING_HS);
	CHECK_EQ_U(card.clock_hz, 50000000);
	CHECK(card.cmd23);
	CHECK(!card.write_protected);
	CHECK(!logged(16, 0)); /* no CMD16 for SDHC */
	CHECK_EQ_U(f.illegal, 0);
}

TEST(init_v1_card_without_cmd8)
{
	setup();
	f.v1 = true;
	CHECK_EQ_I(sd_init(&card, &host), 0);
	CHECK(!card.v2);
	CHECK(!card.high_capacity);
	CHECK_EQ_U(card.blocks, 2048);
	CHECK(logged(16, 0)); /* CMD16 512 for SDSC */
	/* SD_SPEC 0: no CMD6, default speed */
	CHECK(!logged(6, 0));
	CHECK_EQ_U(card.timing, SD_TIMING_DS);
	CHECK_EQ_U(card.clock_hz, 25000000);
	CHECK_EQ_U(f.illegal, 1); /* only the CMD8 probe itself */
}

TEST(sdsc_byte_addressing)
{
	uint8_t buf[1024];
	unsigned n;

	setup();
	f.v1 = true;
	CHECK_EQ_I(sd_init(&card, &host), 0);
	memset(f.mem + 5 * 512, 0x5A, 1024);
	n = f.nlog;
	CHECK_EQ_I(sd_read_blocks(&card, 5, 2, buf, SD_STOP_NONE, NULL), 0);
	CHECK_EQ_U(buf[0], 0x5A);
	CHECK_EQ_U(buf[1023], 0x5A);
	CHECK(logged(18, n) && logged(12, n));
	CHECK_EQ_U(f.illegal, 1);
}

TEST(no_card_detect)
{
	setup();
	f.cd = 0;
	CHECK_EQ_I(sd_init(&card, &host), -ENOMEDIUM);
	CHECK_EQ_U(f.nlog, 0);
	CHECK_EQ_I(card.last_err.code, -ENOMEDIUM);
}

TEST(no_card_silent_bus)
{
	setup();
	f.cd = -ENOTSUP;
	f.silent = true;
	CHECK_EQ_I(sd_init(&card, &host), -ENOMEDIUM);
	CHECK(f.nlog <= 4); /* CMD0, CMD8, CMD55 (+ no retries on timeouts) */
}

TEST(write_protect_pin_refuses_writes)
{
	uint8_t buf[512] = { 0 };
	unsigned n;

	setup();
	f.ro = 1;
	CHECK_EQ_I(sd_init(&card, &host), 0);
	CHECK(card.write_protected);
	n = f.nlog;
	CHECK_EQ_I(sd_write_blocks(&card, 10, 1, buf, SD_STOP_NONE, NULL), -EROFS);
	CHECK_EQ_I(sd_write_blocks(&card, 10, 4, buf, SD_STOP_AUTO12, NULL), -EROFS);
	CHECK_EQ_I(sd_write_single(&card, 10, buf, NULL), -EROFS);
	CHECK_EQ_I(sd_erase(&card, 10, 4, NULL), -EROFS);
	CHECK_EQ_U(f.nlog, n); /* nothing reached the card */
	CHECK_EQ_I(card.last_err.code, -EROFS);
	/* reads still work */
	CHECK_EQ_I(sd_read_blocks(&card, 10, 1, buf, SD_STOP_NONE, NULL), 0);
}

TEST(csd_tmp_write_protect)
{
	uint8_t buf[512] = { 0 };

	setup();
	f.tmp_wp = true;
	CHECK_EQ_I(sd_init(&card, &host), 0);
	CHECK(card.write_protected);
	CHECK_EQ_I(sd_write_single(&card, 0, buf, NULL), -EROFS);
}

TEST(every_termination_mode)
{
	static uint8_t out[8 * 512], in[8 * 512 + 1];
	unsigned i, n;

	setup();
	f.cmd23 = true;
	CHECK_EQ_I(sd_init(&card, &host), 0);
	for (i = 0; i < sizeof(out); i++)
		out[i] = (uint8_t)(i * 7 + 3);

	n = f.nlog;
	CHECK_EQ_I(sd_write_blocks(&card, 100, 8, out, SD_STOP_NONE, NULL), 0);
	CHECK(logged(25, n) && logged(12, n) && logged(13, n));
	CHECK_EQ_I(sd_read_blocks(&card, 100, 8, in + 1, SD_STOP_AUTO12, NULL), 0);
	CHECK_EQ_U(f.last_stop, SD_STOP_AUTO12);
	CHECK(memcmp(in + 1, out, sizeof(out)) == 0);

	/* Auto-CMD23 when the host has it ... */
	n = f.nlog;
	memset(in, 0, sizeof(in));
	CHECK_EQ_I(sd_read_blocks(&card, 100, 8, in, SD_STOP_AUTO23, NULL), 0);
	CHECK_EQ_U(f.last_stop, SD_STOP_AUTO23);
	CHECK_EQ_U(f.last_sbc, 8);
	CHECK(!logged(12, n));
	CHECK(memcmp(in, out, sizeof(out)) == 0);
	/* ... an explicit CMD23 when not */
	host.cap_auto23 = false;
	n = f.nlog;
	CHECK_EQ_I(sd_write_blocks(&card, 200, 8, out, SD_STOP_AUTO23, NULL), 0);
	CHECK(logged(23, n) && !logged(12, n));
	CHECK_EQ_U(f.last_stop, SD_STOP_NONE);
	CHECK(memcmp(f.mem + 200 * 512, out, sizeof(out)) == 0);

	/* one block: CMD17/CMD24, never a stop command */
	n = f.nlog;
	CHECK_EQ_I(sd_read_blocks(&card, 100, 1, in, SD_STOP_AUTO12, NULL), 0);
	CHECK(logged(17, n) && !logged(12, n));
	CHECK_EQ_U(f.last_stop, SD_STOP_NONE);
	CHECK_EQ_U(f.illegal, 0);
}

TEST(cmd23_refused_when_card_lacks_it)
{
	uint8_t buf[1024];
	unsigned n;

	setup();
	CHECK_EQ_I(sd_init(&card, &host), 0);
	CHECK(!card.cmd23);
	n = f.nlog;
	CHECK_EQ_I(sd_read_blocks(&card, 0, 2, buf, SD_STOP_AUTO23, NULL), -ENOTSUP);
	CHECK_EQ_U(f.nlog, n);
}

TEST(range_checked_before_the_card)
{
	uint8_t buf[1024];
	unsigned n;

	setup();
	CHECK_EQ_I(sd_init(&card, &host), 0);
	n = f.nlog;
	CHECK_EQ_I(sd_read_blocks(&card, card.blocks - 1, 2, buf, SD_STOP_NONE, NULL),
		   -ERANGE);
	CHECK_EQ_I(sd_read_single(&card, card.blocks, buf, NULL), -ERANGE);
	CHECK_EQ_I(sd_read_blocks(&card, 0xFFFFFFFFu, 2, buf, SD_STOP_NONE, NULL),
		   -ERANGE);
	CHECK_EQ_U(f.nlog, n);
	CHECK_EQ_I(sd_read_blocks(&card, card.blocks - 2, 2, buf, SD_STOP_NONE, NULL), 0);
}

TEST(r1_error_and_recovery)
{
	uint8_t buf[2048];
	char d[128];
	unsigned n;

	setup();
	CHECK_EQ_I(sd_init(&card, &host), 0);
	f.addr_error_at = 40;
	n = f.nlog;
	CHECK_EQ_I(sd_read_blocks(&card, 40, 4, buf, SD_STOP_NONE, NULL), -ERANGE);
	CHECK_EQ_U(card.last_err.cmd, 18);
	CHECK(card.last_err.status & SD_R1_ADDRESS_ERROR);
	sd_r1_describe(card.last_err.status, d, sizeof(d));
	CHECK(strstr(d, "ADDRESS_ERROR") != NULL);
	/* the card was left sending: CMD13 found it, CMD12 stopped it */
	CHECK(logged(13, n) && logged(12, n));
	CHECK_EQ_U(f.state, 4);
	CHECK_EQ_U(f.illegal, 0);
	f.addr_error_at = 0;
	CHECK_EQ_I(sd_read_blocks(&card, 40, 4, buf, SD_STOP_NONE, NULL), 0);
}

TEST(data_error_recovery_keeps_the_error)
{
	uint8_t buf[2048];

	setup();
	CHECK_EQ_I(sd_init(&card, &host), 0);
	f.fail_data_cmd = 18;
	CHECK_EQ_I(sd_read_blocks(&card, 8, 4, buf, SD_STOP_AUTO12, NULL), -EILSEQ);
	CHECK_EQ_I(card.last_err.code, -EILSEQ);
	CHECK_EQ_U(card.last_err.cmd, 18);
	CHECK_EQ_U(f.state, 4); /* CMD12 sent by the recovery */
	CHECK_EQ_U(f.illegal, 0);
	f.fail_data_cmd = 17;
	CHECK_EQ_I(sd_read_single(&card, 8, buf, NULL), -EILSEQ);
	CHECK_EQ_U(f.illegal, 0); /* no CMD12 in tran state */
	f.fail_data_cmd = 0;
	CHECK_EQ_I(sd_read_blocks(&card, 8, 4, buf, SD_STOP_NONE, NULL), 0);
}

TEST(r1_describe_names)
{
	char d[200];

	sd_r1_describe(SD_R1_WP_VIOLATION | SD_R1_ILLEGAL_COMMAND | 4u << 9 |
		       SD_R1_READY_FOR_DATA, d, sizeof(d));
	CHECK_STR(d, "WP_VIOLATION|ILLEGAL_COMMAND|READY_FOR_DATA|STATE=tran");
	sd_r1_describe(0, d, 8);
	CHECK_STR(d, "STATE=i");
	CHECK_STR(sd_cmd_name(18, false), "READ_MULTIPLE_BLOCK");
	CHECK_STR(sd_cmd_name(41, true), "SD_SEND_OP_COND");
}

TEST(crc_error_retries_only_safe_commands)
{
	unsigned i, n6 = 0;

	/* CMD9 is a query: one damaged response is retried, init goes on. */
	setup();
	f.crc_once = 9;
	CHECK_EQ_I(sd_init(&card, &host), 0);
	CHECK_EQ_U(f.illegal, 0);

	/* ACMD6 is not sent again without its CMD55 (the card would take
	 * it for CMD6): the error stands. */
	setup();
	f.crc_once = 6;
	f.crc_once_app = true;
	CHECK_EQ_I(sd_init(&card, &host), -EILSEQ);
	for (i = 0; i < f.nlog; i++)
		n6 += f.log[i] == 6 || f.log[i] == (6 | 0x80);
	CHECK_EQ_U(n6, 1);
	CHECK_EQ_U(f.illegal, 0);
	CHECK_EQ_U(card.last_err.cmd, 6);
}

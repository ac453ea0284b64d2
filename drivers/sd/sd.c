/*
 * sd.c - the SD card protocol layer: the initialisation state machine,
 * block read/write/erase with every termination mode, card status, R1
 * error checking and recovery after failed transfers. Hardware is reached
 * only through struct sd_host_ops (sd_host.h).
 *
 * Follows the SD Physical Layer Simplified Specification v9.10:
 * §4.2 card identification (CMD0, CMD8, ACMD41, CMD2, CMD3), §4.3 data
 * transfer mode (CMD7, CMD9, ACMD6, CMD16), §4.3.3 multi-block termination
 * (CMD12, CMD23), §4.3.5 erase (CMD32/33/38, timeout from §4.14), §4.3.10
 * CMD6 switch function, §4.10.1 card status, §4.10.2 SD Status, §5.6 SCR.
 *
 * Conventions:
 *  - LBAs are always 512-byte blocks; SDSC cards get byte addresses
 *    (lba * 512) and a CMD16 of 512, SDHC/SDXC block addresses.
 *  - A transfer of one block always uses CMD17/CMD24 (no stop command).
 *  - After a command fails (no response, CRC), the card reports it as
 *    ILLEGAL_COMMAND / COM_CRC_ERROR in the *next* R1; those two bits are
 *    ignored once after a failure (r1_ignore).
 *  - After a failed data transfer the host driver has reset its CMD/DAT
 *    lines; this layer asks the card where it is (CMD13) and sends CMD12
 *    only when the card is still sending or receiving, so that no command
 *    is sent in a state where it is illegal.
 *
 * UHS-I (§4.2.4.2 voltage switch, §4.3.10 group 1 access modes, §4.2.4.5
 * tuning) is in its own section ("bus modes") below.
 *
 * Not supported: SDUC (CMD22), SPI mode,
 * password lock/unlock, write protection groups, MMC cards.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "drivers/sd/sd.h"
#include "drivers/sd/sd_cmds.h"
#include "drivers/sd/sd_regs.h"
#include "drivers/timer.h"
#include "lib/err.h"
#include "lib/fmt.h"

/* Clocks (Hz). */
#define SD_ID_CLOCK_HZ 400000u
#define SD_DS_CLOCK_HZ 25000000u
#define SD_HS_CLOCK_HZ 50000000u

/* Initialisation. */
#define SD_CMD8_ARG 0x1AAu            /* VHS = 2.7-3.6 V, check pattern 0xAA */
#define SD_ACMD41_HCS (1u << 30)
#define SD_ACMD41_S18R (1u << 24)     /* ask for 1.8 V signalling (UHS-I) */
#define SD_OCR_S18A (1u << 24)        /* the card accepts it */
#define SD_ACMD41_VDD 0x00FF8000u     /* 2.7-3.6 V */
#define SD_ACMD41_TIMEOUT_US 1000000u /* §4.2.3: 1 s */
#define SD_ACMD41_POLL_US 1000u
#define SD_CMD3_RETRIES 3             /* a card may publish RCA 0 */
#define SD_CMD_RETRIES 2              /* extra tries after a CRC error */
#define SD_CMD6_QUERY_HS 0x00FFFFF1u  /* mode 0, group 1 = high speed */
#define SD_CMD6_SWITCH_HS 0x80FFFFF1u /* mode 1, group 1 = high speed */
#define SD_ACMD6_1BIT 0u              /* ACMD6 bus width argument */
#define SD_ACMD6_4BIT 2u
#define SD_CCC_SWITCH (1u << 10)

/* Waits after data commands. */
#define SD_TRAN_TIMEOUT_US 1000000u   /* until the card is back in tran */
#define SD_TRAN_POLL_US 100u
#define SD_RECOVER_TRIES 4

/* Erase: the SD Status gives a timeout per AU (§4.14); when it does not
 * (ERASE_SIZE or ERASE_TIMEOUT 0, as on QEMU's card) allow 250 ms per
 * allocation unit (the write-busy bound of the spec, applied per AU of
 * 4 MiB when the AU size is unknown too), and never less than 1 s. */
#define SD_ERASE_FALLBACK_US_PER_AU 250000u
#define SD_ERASE_DEFAULT_AU_BYTES (4u << 20)
#define SD_ERASE_MIN_TIMEOUT_US 1000000u
#define SD_ERASE_MAX_TIMEOUT_US 600000000u

/* last_err.cmd of a failure on the host side, before any command (it reads
 * as CMD0, which cannot fail that way: it has no response). */
#define NO_CMD 0u

/* How a command's response is checked; CHK_APP marks the second half of
 * an application command (never retried alone: CMD55 was consumed). */
enum chk { CHK_NONE = 0, CHK_R1 = 1, CHK_R6 = 2, CHK_APP = 0x10 };
#define CHK_TYPE(c) ((c) & 0x0F)

/* Commands that can be sent again after a response CRC error without
 * changing what the card does: the setters and queries, not the state
 * changes (CMD2, CMD7, CMD12, data commands, CMD38). */
static bool retry_safe(uint8_t index, unsigned chk)
{
	if (chk & CHK_APP)
		return false;
	switch (index) {
	case SD_CMD_SEND_IF_COND:
	case SD_CMD_SEND_CSD:
	case SD_CMD_SEND_STATUS:
	case SD_CMD_SET_BLOCKLEN:
	case SD_CMD_SET_BLOCK_COUNT:
	case SD_CMD_ERASE_WR_BLK_START:
	case SD_CMD_ERASE_WR_BLK_END:
	case SD_CMD_APP_CMD:
		return true;
	default:
		return false;
	}
}

int sd_card_fail(struct sd_card *c, int code, uint8_t cmd, uint32_t arg,
		 uint32_t status, const char *phase)
{
	c->last_err.code = code;
	c->last_err.cmd = cmd;
	c->last_err.arg = arg;
	c->last_err.status = status;
	c->last_err.block = 0;
	c->last_err.phase = phase;
	return code;
}

static int r1_code(uint32_t errs)
{
	if (errs & SD_R1_WP_VIOLATION)
		return -EROFS;
	if (errs & (SD_R1_OUT_OF_RANGE | SD_R1_ADDRESS_ERROR))
		return -ERANGE;
	return -EIO;
}

/* R6 carries bits 23, 22, 19 and 12:0 of the card status in 15:0. */
static uint32_t r6_to_r1(uint32_t r6)
{
	return ((r6 >> 15) & 1u) << 23 | ((r6 >> 14) & 1u) << 22 |
	       ((r6 >> 13) & 1u) << 19 | (r6 & 0x1FFFu);
}

/* Check an R1 card status; 0 or the error with last_err filled. */
static int check_r1(struct sd_card *c, uint8_t cmd, uint32_t arg, uint32_t r1)
{
	uint32_t errs = r1 & SD_R1_ERRORS & ~c->r1_ignore;

	c->r1_ignore = 0;
	c->r1_last = r1;
	if (!errs)
		return 0;
	return sd_card_fail(c, r1_code(errs), cmd, arg, r1, "card status");
}

/* A request the host failed (ret): last_err, and the card's own reason
 * when it gave one. Returns the code to report. */
static int req_failed(struct sd_card *c, struct sd_request *req, int ret)
{
	c->last_err = req->err;
	if (!c->last_err.code)
		c->last_err.code = ret;
	c->r1_ignore = SD_R1_COM_CRC_ERROR | SD_R1_ILLEGAL_COMMAND;
	/* A data transfer that failed after its command was answered:
	 * the card's R1 may say why (a card that turned read-only
	 * answers a write with WP_VIOLATION and never takes the data).
	 * Report that, with the R1 as the status. */
	if (req->data && req->err.phase && strcmp(req->err.phase, "command") != 0) {
		uint32_t errs = req->cmd.resp[0] & SD_R1_ERRORS &
				~(SD_R1_COM_CRC_ERROR | SD_R1_ILLEGAL_COMMAND);

		if (errs) {
			c->last_err.code = r1_code(errs);
			c->last_err.status = req->cmd.resp[0];
			ret = c->last_err.code;
		}
	}
	return ret;
}

static void req_init(struct sd_request *req, uint8_t index, uint32_t arg,
		     uint8_t resp_type);

/* Every field of a data phase (no memset, as req_init): blocks of blksz
 * bytes at buf in dir, no stop command of the host's, no CMD23 argument. */
static void data_init(struct sd_data *d, void *buf, uint32_t blksz, uint32_t blocks,
		      uint8_t dir)
{
	d->buf = buf;
	d->blksz = blksz;
	d->blocks = blocks;
	d->dir = dir;
	d->stop = SD_STOP_NONE;
	d->sbc_arg = 0;
}

/* Issue one request and check what came back. */
static int do_req(struct sd_card *c, struct sd_request *req, unsigned chk)
{
	struct sd_host *h = c->host;
	uint32_t busy;
	int ret, tries = 0;

	for (;;) {
		ret = h->ops->request(h, req);
		if (ret != -EILSEQ || req->data || tries++ >= SD_CMD_RETRIES ||
		    !retry_safe(req->cmd.index, chk))
			break;
		c->r1_ignore = SD_R1_COM_CRC_ERROR | SD_R1_ILLEGAL_COMMAND;
		/* The host finds the request as req_init left it (the drivers
		 * do not clear what req_init cleared, sd_host.h). */
		busy = req->cmd.busy_timeout_us;
		req_init(req, req->cmd.index, req->cmd.arg, req->cmd.resp_type);
		req->cmd.busy_timeout_us = busy;
	}
	if (ret)
		return req_failed(c, req, ret);
	if (CHK_TYPE(chk) == CHK_R1)
		return check_r1(c, req->cmd.index, req->cmd.arg, req->cmd.resp[0]);
	if (CHK_TYPE(chk) == CHK_R6)
		return check_r1(c, req->cmd.index, req->cmd.arg,
				r6_to_r1(req->cmd.resp[0] & 0xFFFFu));
	return 0;
}

/* Everything zero but the command, field by field: GCC clears a struct of
 * more than a few words (the whole request, or each of its parts) with a
 * call to memset, a loop; these stores are what is left of it. Every
 * command, the data path's included, starts here: a field added to
 * struct sd_request or its parts (sd_host.h) must be added here. */
static void req_init(struct sd_request *req, uint8_t index, uint32_t arg,
		     uint8_t resp_type)
{
	struct sd_cmd *c = &req->cmd;
	struct sd_req_times *t = &req->t;
	struct sd_host_err *e = &req->err;

	c->index = index;
	c->resp_type = resp_type;
	c->arg = arg;
	c->resp[0] = c->resp[1] = c->resp[2] = c->resp[3] = 0;
	c->auto_resp = 0;
	c->busy_timeout_us = 0;
	req->data = NULL;
	t->t_issue = t->t_cmd_done = t->t_first_data = t->t_data_done = 0;
	t->t_end = t->host_ticks = t->host_serial_ticks = t->extra_cmds = 0;
	t->wait_blocks = t->wait_ticks = t->stood_ticks = t->stood_unc_ticks = 0;
	t->waits_counted = 0;
	t->undecided_blocks = 0;
	t->undecided_looks = 0;
	t->fifo_counted = 0;
	t->fifo_words = t->seam_ticks = t->seam_words = t->seams = 0;
	t->seam_full_ticks = t->seam_full_words = t->seams_full = 0;
	t->blk_ready = t->blk_done = NULL;
	e->code = 0;
	e->cmd = 0;
	e->arg = e->status = e->block = 0;
	e->phase = NULL;
	e->dma_status = e->dma_desc_addr = 0;
	e->dma_desc = 0;
}

/* A command without data; *resp gets resp[0] when not NULL. */
static int cmd(struct sd_card *c, uint8_t index, uint32_t arg,
	       uint8_t resp_type, unsigned chk, uint32_t *resp)
{
	struct sd_request req;
	int ret;

	req_init(&req, index, arg, resp_type);
	ret = do_req(c, &req, chk);
	if (resp)
		*resp = req.cmd.resp[0];
	return ret;
}

static int app_prefix(struct sd_card *c)
{
	uint32_t r1;
	int ret = cmd(c, SD_CMD_APP_CMD, (uint32_t)c->rca << 16, SD_RESP_R1,
		      CHK_R1, &r1);

	if (ret)
		return ret;
	if (!(r1 & SD_R1_APP_CMD))
		return sd_card_fail(c, -EIO, SD_CMD_APP_CMD, (uint32_t)c->rca << 16, r1,
			"APP_CMD not accepted");
	return 0;
}

/* An application command, optionally with a small read (SCR, SSR). */
static int acmd(struct sd_card *c, uint8_t index, uint32_t arg,
		uint8_t resp_type, unsigned chk, uint32_t *resp,
		void *buf, uint32_t len)
{
	struct sd_request req;
	struct sd_data data;
	int ret = app_prefix(c);

	if (ret)
		return ret;
	req_init(&req, index, arg, resp_type);
	if (buf) {
		data_init(&data, buf, len, 1, SD_DATA_READ);
		req.data = &data;
	}
	ret = do_req(c, &req, chk | CHK_APP);
	if (resp)
		*resp = req.cmd.resp[0];
	return ret;
}

/* A register the card sends as one data block after an ACMD (SCR, SD
 * Status): read into buf, *have set when it came. */
static int read_reg(struct sd_card *c, uint8_t index, uint8_t *buf, uint32_t len, bool *have)
{
	int ret = acmd(c, index, 0, SD_RESP_R1, CHK_R1, NULL, buf, len);

	if (!ret)
		*have = true;
	return ret;
}

/* CMD13 without judging the status (the status is the answer). The R1
 * bits that refer to an earlier failed command are masked out once. */
static int get_status(struct sd_card *c, uint32_t *status)
{
	uint32_t ignore = c->r1_ignore;
	int ret = cmd(c, SD_CMD_SEND_STATUS, (uint32_t)c->rca << 16, SD_RESP_R1,
		      CHK_NONE, status);

	if (!ret) {
		*status &= ~ignore;
		c->r1_last = *status;
		c->r1_ignore = 0;
	}
	return ret;
}

/* Poll CMD13 until the card is in tran and ready for data. Error bits in
 * the status (a write that failed, a WP violation) fail the wait. */
static int wait_tran(struct sd_card *c, uint8_t for_cmd, uint32_t for_arg,
		     uint32_t timeout_us, uint32_t *ncmds)
{
	timer_deadline_t d = timer_deadline_us(timeout_us);
	uint32_t st = 0;
	int ret;

	for (;;) {
		if (ncmds)
			(*ncmds)++;
		ret = get_status(c, &st);
		if (ret)
			return ret;
		if (st & SD_R1_ERRORS)
			return sd_card_fail(c, r1_code(st & SD_R1_ERRORS), for_cmd, for_arg,
				st, "card status after transfer");
		if (((st >> SD_R1_STATE_SHIFT) & SD_R1_STATE_MASK) ==
		    SD_STATE_TRAN && (st & SD_R1_READY_FOR_DATA))
			return 0;
		if (timer_expired(d))
			return sd_card_fail(c, -ETIMEDOUT, for_cmd, for_arg, st,
				"waiting for tran state");
		timer_udelay(SD_TRAN_POLL_US);
	}
}

static int stop_transmission(struct sd_card *c, uint32_t busy_us,
			     struct sd_req_times *t)
{
	struct sd_request req;
	int ret;

	req_init(&req, SD_CMD_STOP_TRANSMISSION, 0, SD_RESP_R1B);
	req.cmd.busy_timeout_us = busy_us;
	ret = do_req(c, &req, CHK_R1);
	if (t)
		t->t_end = req.t.t_end;
	return ret;
}

/* Bring the card back to tran after a failed transfer, keeping the
 * original error in last_err. */
static void recover(struct sd_card *c)
{
	struct sd_host_err saved = c->last_err;
	timer_deadline_t d = timer_deadline_us(SD_TRAN_TIMEOUT_US);
	unsigned tries;
	uint32_t st;

	for (tries = 0; tries < SD_RECOVER_TRIES; tries++) {
		unsigned state;

		if (get_status(c, &st))
			continue;
		state = (st >> SD_R1_STATE_SHIFT) & SD_R1_STATE_MASK;
		if (state == SD_STATE_DATA || state == SD_STATE_RCV) {
			stop_transmission(c, 0, NULL);
			continue;
		}
		if (state != SD_STATE_PRG)
			break;
		while (!timer_expired(d)) {
			timer_udelay(SD_TRAN_POLL_US);
			if (get_status(c, &st) ||
			    ((st >> SD_R1_STATE_SHIFT) & SD_R1_STATE_MASK) !=
			    SD_STATE_PRG)
				break;
		}
	}
	c->last_err = saved;
	/* The status read above consumed the error bits. */
	c->r1_ignore = 0;
}

static int set_ios(struct sd_card *c, uint32_t clock_hz, uint8_t width,
		   uint8_t timing)
{
	struct sd_host *h = c->host;
	struct sd_ios ios;
	int ret;

	if (h->f_max_hz && clock_hz > h->f_max_hz)
		clock_hz = h->f_max_hz;
	ios.clock_hz = clock_hz;
	ios.width = width;
	ios.timing = timing;
	ret = h->ops->set_ios(h, &ios);
	if (ret)
		return sd_card_fail(c, ret, NO_CMD, clock_hz, width, "set_ios");
	c->width = width;
	c->timing = timing;
	c->clock_hz = h->actual_clock_hz;
	return 0;
}

/* ---- initialisation ------------------------------------------------------ */

static bool uhs_offer(const struct sd_card *c);
static int uhs_voltage_switch(struct sd_card *c);
static int uhs_select(struct sd_card *c, const struct sd_switch *sw);
static void mode_note(struct sd_card *c, const char *what, unsigned timing);
static bool needs_tuning(const struct sd_card *c, unsigned timing);
static int tune(struct sd_card *c);

/* ACMD41 until the card is ready (OCR busy bit), at most 1 s; *ocr gets
 * its last answer. */
static int wait_ready(struct sd_card *c, uint32_t arg, uint32_t *ocr)
{
	timer_deadline_t d = timer_deadline_us(SD_ACMD41_TIMEOUT_US);
	bool first = true;
	uint32_t r;
	int ret;

	for (;;) {
		ret = app_prefix(c);
		if (ret == -ETIMEDOUT && first && !c->v2) {
			/* Nothing answered CMD8 nor CMD55. */
			return sd_card_fail(c, -ENOMEDIUM, SD_CMD_APP_CMD, 0, c->last_err.status,
				"no response to CMD8 and CMD55");
		}
		if (ret)
			return ret;
		first = false;
		ret = cmd(c, SD_ACMD_SD_SEND_OP_COND, arg, SD_RESP_R3,
			  CHK_NONE | CHK_APP, &r);
		if (ret)
			return ret;
		*ocr = r;
		if (r & SD_OCR_BUSY)
			return 0;
		if (timer_expired(d))
			return sd_card_fail(c, -ETIMEDOUT, SD_ACMD_SD_SEND_OP_COND, arg, r,
				"card not ready after ACMD41 for 1 s");
		timer_udelay(SD_ACMD41_POLL_US);
	}
}

/* CMD2 (CID), CMD3 (a non-zero RCA, retried) and CMD9 (CSD). */
static int read_cid_rca_csd(struct sd_card *c)
{
	struct sd_request req;
	uint32_t r = 0;
	unsigned i;
	int ret;

	req_init(&req, SD_CMD_ALL_SEND_CID, 0, SD_RESP_R2);
	ret = do_req(c, &req, CHK_NONE);
	if (ret)
		return ret;
	memcpy(c->cid, req.cmd.resp, sizeof(c->cid));

	for (i = 0; i < SD_CMD3_RETRIES; i++) {
		ret = cmd(c, SD_CMD_SEND_RELATIVE_ADDR, 0, SD_RESP_R1, CHK_R6, &r);
		if (ret)
			return ret;
		c->rca = (uint16_t)(r >> 16);
		if (c->rca)
			break;
	}
	if (!c->rca)
		return sd_card_fail(c, -EIO, SD_CMD_SEND_RELATIVE_ADDR, 0, r,
				    "card published RCA 0");

	req_init(&req, SD_CMD_SEND_CSD, (uint32_t)c->rca << 16, SD_RESP_R2);
	ret = do_req(c, &req, CHK_NONE);
	if (ret)
		return ret;
	memcpy(c->csd, req.cmd.resp, sizeof(c->csd));
	return 0;
}

static int init_identify(struct sd_card *c)
{
	struct sd_host *h = c->host;
	uint32_t r, arg;
	int ret, cd;

	ret = h->ops->reset(h);
	if (ret)
		return sd_card_fail(c, ret, NO_CMD, 0, 0, "host reset");
	cd = h->ops->get_cd ? h->ops->get_cd(h) : -ENOTSUP;
	if (cd == 0)
		return sd_card_fail(c, -ENOMEDIUM, NO_CMD, 0, 0, "card detect");

	ret = cmd(c, SD_CMD_GO_IDLE_STATE, 0, SD_RESP_NONE, CHK_NONE, NULL);
	if (ret)
		return ret;

	/* CMD8: v2.00+ cards echo the check pattern; v1 cards stay silent
	 * (the host driver resets its CMD line after the timeout). */
	ret = cmd(c, SD_CMD_SEND_IF_COND, SD_CMD8_ARG, SD_RESP_R1, CHK_NONE, &r);
	if (ret == 0) {
		if ((r & 0xFFFu) != SD_CMD8_ARG)
			return sd_card_fail(c, -EIO, SD_CMD_SEND_IF_COND, SD_CMD8_ARG, r,
				"CMD8 echo mismatch (unusable voltage)");
		c->v2 = true;
	} else if (ret == -ETIMEDOUT) {
		c->v2 = false;
	} else {
		return ret;
	}

	arg = SD_ACMD41_VDD | (c->v2 ? SD_ACMD41_HCS : 0);
	if (c->v2 && uhs_offer(c))
		arg |= SD_ACMD41_S18R;
	ret = wait_ready(c, arg, &r);
	if (ret)
		return ret;
	c->ocr = r;
	c->high_capacity = c->v2 && (r & SD_OCR_CCS);
	c->present = true;
	/* S18A means something only in an answer to S18R, from a card with
	 * CCS (§4.2.3.1): then CMD11 and the switch, before CMD2. */
	if ((arg & SD_ACMD41_S18R) && c->high_capacity && (r & SD_OCR_S18A)) {
		c->s18a = true;
		ret = uhs_voltage_switch(c);
		if (ret)
			return ret;
	} else if (arg & SD_ACMD41_S18R) {
		mode_note(c, "the card did not accept 1.8 V signalling (S18A 0 in ACMD41)",
			  SD_TIMING_COUNT);
	}

	return read_cid_rca_csd(c);
}

/* CMD6: what the card's group 1 offers (c->card_modes), then the speed
 * the card and host both run (UHS-I after the 1.8 V switch, else high
 * speed unless pinned to default speed). */
static int switch_speed(struct sd_card *c)
{
	struct sd_host *h = c->host;
	struct sd_request req;
	struct sd_data data;
	struct sd_switch sw;
	int ret;

	data_init(&data, c->sw_status, sizeof(c->sw_status), 1, SD_DATA_READ);
	req_init(&req, SD_CMD_SWITCH_FUNC, SD_CMD6_QUERY_HS, SD_RESP_R1);
	req.data = &data;
	ret = do_req(c, &req, CHK_R1);
	if (ret)
		return ret;
	c->have_sw = true;
	sd_switch_decode(c->sw_status, &sw);
	c->hs_supported = (sw.support[0] & (1u << SD_SW_G1_HS)) &&
			  sw.selected[0] == SD_SW_G1_HS;
	c->card_modes = 0;
	{
		/* Group 1 function n -> timing: SDR12, SDR25, SDR50,
		 * SDR104, DDR50 (§4.3.10.4). */
		static const uint8_t g1[5] = { SD_TIMING_SDR12, SD_TIMING_SDR25,
			SD_TIMING_SDR50, SD_TIMING_SDR104, SD_TIMING_DDR50 };
		unsigned f;

		for (f = 0; f < 5; f++)
			if (sw.support[0] & (1u << f))
				c->card_modes |= (uint8_t)(1u << g1[f]);
	}

	if (c->signal_mv == 1800) {
		ret = uhs_select(c, &sw);
		if (ret)
			return ret;
	} else if (c->mode_want == SD_MODE_DS) {
		/* pinned to default speed */
	} else if (!h->cap_hs && c->mode_want == SD_MODE_HS) {
		mode_note(c, "the host does not run it", SD_TIMING_HS);
	} else if (!c->hs_supported && c->mode_want >= SD_MODE_HS) {
		mode_note(c, "the card does not support it (CMD6 group 1)",
			  SD_TIMING_HS);
	} else if (c->hs_supported && h->cap_hs) {
		uint8_t st[64];

		data.buf = st;
		req_init(&req, SD_CMD_SWITCH_FUNC, SD_CMD6_SWITCH_HS, SD_RESP_R1);
		req.data = &data;
		ret = do_req(c, &req, CHK_R1);
		if (ret)
			return ret;
		sd_switch_decode(st, &sw);
		if (sw.selected[0] == SD_SW_G1_HS) {
			memcpy(c->sw_status, st, sizeof(st));
			c->max_clock_hz = SD_HS_CLOCK_HZ;
			ret = set_ios(c, SD_HS_CLOCK_HZ, c->width,
				      SD_TIMING_HS);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* ---- SD 6.00 extension registers (§5.7; decoded in sd_ext_info.c) -------- */

static int sd_cmd_data_(struct sd_card *c, uint8_t index, uint32_t arg, void *buf,
			uint32_t blksz, uint32_t blocks, uint8_t dir, struct sd_req_times *t);

/* Off the firmware's small stack, like the card report's decoded forms. */
static uint8_t ext_blk[SD_EXT_BLOCK];

int sd_ext_read(struct sd_card *card, unsigned fno, unsigned page, unsigned off,
		unsigned len, uint8_t *blk)
{
	uint32_t arg = (fno & 0xFu) << 27 | (page & 0xFFu) << 18 | (off & 0x1FFu) << 9 |
		       ((len - 1) & 0x1FFu);

	if (len < 1 || len > SD_EXT_BLOCK)
		return -EINVAL;
	return sd_cmd_data_(card, SD_CMD_READ_EXTR_SINGLE, arg, blk, SD_EXT_BLOCK, 1,
			    SD_DATA_READ, NULL);
}

/* Discovery stopped at 'what' with code; the note names the command and
 * the status. */
static void ext_failed(struct sd_card *c, int code, const char *what)
{
	c->ext.err = code;
	fmt_snprintf(c->ext.note, sizeof(c->ext.note), "%s: CMD%u failed (%s), status 0x%08x",
		     what, (unsigned)c->last_err.cmd, err_name(code), (unsigned)c->last_err.status);
}

/* One register page of an extension function into ext_blk; on a failure
 * discovery stops there (ext_failed). 0 or the error. */
static int ext_page(struct sd_card *c, unsigned fno, unsigned page, unsigned off,
		    const char *what)
{
	int ret = sd_ext_read(c, fno, page, off, SD_EXT_BLOCK, ext_blk);

	if (ret)
		ext_failed(c, ret, what);
	return ret;
}

/* The General Information and the functions it lists, when the SCR lists
 * CMD48/CMD49 (QEMU's card never does: hw/sd/sd.c sd_set_scr leaves
 * CMD_SUPPORT without bit 34, so nothing is sent there). */
static void ext_discover(struct sd_card *c, const struct sd_scr *scr)
{
	struct sd_ext *e = &c->ext;

	memset(e, 0, sizeof(*e));
	e->supported = scr->cmd_support & SD_SCR_CMD48_49;
	if (!e->supported)
		return;
	if (ext_page(c, 0, 0, 0, "general information") || sd_ext_parse_gi(ext_blk, e))
		return;
	if (e->have_pm) {
		if (ext_page(c, e->pm_fno, e->pm_page, e->pm_off, "power management function"))
			return;
		sd_ext_decode_pm(ext_blk, e);
	}
	if (e->have_perf) {
		if (ext_page(c, e->perf_fno, e->perf_page, e->perf_off,
			     "performance enhancement function"))
			return;
		sd_ext_decode_perf(ext_blk, e);
	}
	e->read = true;
}

static int init_transfer_mode(struct sd_card *c, const struct sd_csd *csd)
{
	struct sd_host *h = c->host;
	struct sd_scr scr;
	struct sd_ssr ssr;
	uint32_t max_hz;
	uint8_t base_t;
	int ret, ro;

	/* Data transfer mode: default speed, never above TRAN_SPEED. */
	max_hz = SD_DS_CLOCK_HZ;
	if (csd->tran_speed_valid && csd->tran_speed_hz &&
	    csd->tran_speed_hz < max_hz)
		max_hz = csd->tran_speed_hz;
	c->max_clock_hz = max_hz;
	/* After the 1.8 V switch the card runs SDR12 (§4.2.4.2). */
	base_t = c->signal_mv == 1800 ? SD_TIMING_SDR12 : SD_TIMING_DS;
	ret = set_ios(c, max_hz, 1, base_t);
	if (ret)
		return ret;

	ret = cmd(c, SD_CMD_SELECT_CARD, (uint32_t)c->rca << 16, SD_RESP_R1B, CHK_R1,
		  NULL);
	if (ret)
		return ret;

	ro = h->ops->get_ro ? h->ops->get_ro(h) : -ENOTSUP;
	c->write_protected = ro == 1 || csd->perm_write_protect ||
			     csd->tmp_write_protect;

	ret = read_reg(c, SD_ACMD_SEND_SCR, c->scr, sizeof(c->scr), &c->have_scr);
	if (ret)
		return ret;
	sd_scr_decode(c->scr, &scr);
	/* CMD23 is mandatory from SD 3.0 for UHS cards only; trust the SCR.
	 * SDSC cards do not support it (§4.3.14). */
	c->cmd23 = (scr.cmd_support & SD_SCR_CMD23) && c->high_capacity;

	if ((scr.sd_bus_widths & SD_SCR_BUS_WIDTH_4) && h->cap_4bit) {
		ret = acmd(c, SD_ACMD_SET_BUS_WIDTH, SD_ACMD6_4BIT, SD_RESP_R1,
			   CHK_R1, NULL, NULL, 0);
		if (ret)
			return ret;
		ret = set_ios(c, max_hz, 4, base_t);
		if (ret)
			return ret;
	}

	/* CMD6 exists from SD 1.10 (SD_SPEC >= 1) in command class 10. */
	if (scr.sd_spec >= 1 && (csd->ccc & SD_CCC_SWITCH)) {
		ret = switch_speed(c);
		if (ret)
			return ret;
	}

	ret = read_reg(c, SD_ACMD_SD_STATUS, c->ssr, sizeof(c->ssr), &c->have_ssr);
	if (ret)
		return ret;
	sd_ssr_decode(c->ssr, &ssr);
	c->au_size_bytes = ssr.au_size_bytes;
	c->erase_timeout_us_per_au = sd_ssr_erase_us_per_au(&ssr);

	if (!c->high_capacity) {
		ret = cmd(c, SD_CMD_SET_BLOCKLEN, SD_BLOCK_SIZE, SD_RESP_R1, CHK_R1,
			  NULL);
		if (ret)
			return ret;
	}
	/* SD 6.00 extension registers, when the SCR lists CMD48 (as Linux
	 * mmc_sd_init_card reads them last): a failure is noted, not fatal. */
	ext_discover(c, &scr);
	return 0;
}

int sd_init(struct sd_card *card, struct sd_host *host)
{
	return sd_init_mode(card, host, SD_MODE_AUTO);
}

int sd_init_mode(struct sd_card *card, struct sd_host *host, unsigned want)
{
	uint64_t t0 = timer_now_us();
	struct sd_csd csd;
	int ret;

	memset(card, 0, sizeof(*card));
	card->host = host;
	card->width = 1;
	card->mode_want = (uint8_t)(want < SD_MODE_COUNT ? want : SD_MODE_AUTO);
	card->signal_mv = 3300;

	ret = init_identify(card);
	if (ret == -EAGAIN) {
		/* The 1.8 V switch failed and the card was power-cycled:
		 * identify it again at 3.3 V, without S18R. */
		char note[sizeof(card->mode_note)];
		uint8_t want8 = card->mode_want;

		memcpy(note, card->mode_note, sizeof(note));
		memset(card, 0, sizeof(*card));
		card->host = host;
		card->width = 1;
		card->mode_want = want8;
		card->signal_mv = 3300;
		memcpy(card->mode_note, note, sizeof(note));
		card->no_s18r = true;
		ret = init_identify(card);
	}
	if (!ret) {
		sd_csd_decode(card->csd, &csd);
		if (!csd.known || !csd.capacity_valid || csd.sectors == 0 ||
		    csd.sectors > 0xFFFFFFFFull) {
			sd_card_fail(card, -ENOTSUP, SD_CMD_SEND_CSD, (uint32_t)card->rca << 16,
				card->csd[0], "CSD structure or capacity not usable");
			ret = -ENOTSUP;
		} else {
			card->capacity_bytes = csd.capacity_bytes;
			card->blocks = (uint32_t)csd.sectors;
			ret = init_transfer_mode(card, &csd);
		}
	}
	card->init_us = (uint32_t)(timer_now_us() - t0);
	if (ret)
		return ret;
	card->initialised = true;
	card->last_err.code = 0;
	return 0;
}

int sd_set_bus(struct sd_card *card, uint32_t clock_hz, uint8_t width)
{
	int ret;

	if (!card->initialised)
		return -EINVAL;
	if (width != 1 && width != 4)
		return -EINVAL;
	if (width != card->width) {
		ret = acmd(card, SD_ACMD_SET_BUS_WIDTH,
			   width == 4 ? SD_ACMD6_4BIT : SD_ACMD6_1BIT, SD_RESP_R1,
			   CHK_R1, NULL, NULL, 0);
		if (ret)
			return ret;
	}
	if (clock_hz == 0 || clock_hz > card->max_clock_hz)
		clock_hz = card->max_clock_hz;
	ret = set_ios(card, clock_hz, width, card->timing);
	/* A tuned mode at a new clock needs a new sampling point. */
	if (!ret && needs_tuning(card, card->timing)) {
		ret = tune(card);
		if (ret)
			sd_card_fail(card, ret, SD_CMD_SEND_TUNING_BLOCK, 0, clock_hz,
				"tuning after a clock change");
	}
	return ret;
}

/* ---- bus modes (UHS-I) --------------------------------------------------- */

#define SD_CMD6_MODE_SWITCH 0x80000000u
#define SD_CMD6_KEEP_ALL 0x00FFFFFFu   /* every group: 0xF = no change */
#define SD_SW_G4_400MA 1u              /* group 4 (current limit) function 1 */

/* The first note wins: it says why the mode asked for was not used. */
static void mode_note(struct sd_card *c, const char *what, unsigned timing)
{
	unsigned n = 0;
	const char *p;

	if (c->mode_note[0])
		return;
	if (timing < SD_TIMING_COUNT) {
		for (p = sd_timing_name(timing); *p && n + 1 < sizeof(c->mode_note); p++)
			c->mode_note[n++] = *p;
		for (p = ": "; *p && n + 1 < sizeof(c->mode_note); p++)
			c->mode_note[n++] = *p;
	}
	for (p = what; *p && n + 1 < sizeof(c->mode_note); p++)
		c->mode_note[n++] = *p;
	c->mode_note[n] = '\0';
}

static bool uhs_offer(const struct sd_card *c)
{
	const struct sd_host *h = c->host;

	if (c->no_s18r || !h->uhs_modes || !sd_host_can_switch_voltage(h))
		return false;
	return c->mode_want == SD_MODE_AUTO || c->mode_want >= SD_MODE_SDR12;
}

/* §4.2.4.2: CMD11, then the host's switch. A card that does not answer or
 * whose lines do not come back is power-cycled: -EAGAIN asks sd_init_mode
 * to identify it again at 3.3 V. */
static int uhs_voltage_switch(struct sd_card *c)
{
	struct sd_host *h = c->host;
	const char *why;
	int ret;

	ret = cmd(c, SD_CMD_VOLTAGE_SWITCH, 0, SD_RESP_R1, CHK_R1, NULL);
	if (ret) {
		why = "the card did not accept CMD11 (voltage switch)";
	} else {
		ret = sd_host_voltage_switch(h);
		if (!ret) {
			c->signal_mv = 1800;
			return 0;
		}
		why = ret == -ENODEV ?
		      "the 1.8 V switch failed (the SD I/O regulator did not switch)" :
		      "the 1.8 V switch failed (DAT lines did not follow)";
	}
	mode_note(c, why, SD_TIMING_COUNT);
	if (!sd_host_can_power_cycle(h))
		return sd_card_fail(c, ret ? ret : -EIO, SD_CMD_VOLTAGE_SWITCH, 0, 0,
			"1.8 V switch failed and the host cannot power-cycle the card");
	ret = sd_host_power_cycle(h);
	if (ret)
		return sd_card_fail(c, ret, SD_CMD_VOLTAGE_SWITCH, 0, 0,
			"card power cycle after a failed 1.8 V switch");
	{
		/* Keep the note across the re-identification. */
		unsigned n = 0;
		const char *p = ": card power-cycled, 3.3 V";

		while (c->mode_note[n])
			n++;
		for (; *p && n + 1 < sizeof(c->mode_note); p++)
			c->mode_note[n++] = *p;
		c->mode_note[n] = '\0';
	}
	return -EAGAIN;
}

static unsigned g1_function(unsigned timing)
{
	switch (timing) {
	case SD_TIMING_SDR25: return 1;
	case SD_TIMING_SDR50: return 2;
	case SD_TIMING_SDR104: return 3;
	case SD_TIMING_DDR50: return 4;
	default: return 0;
	}
}

static int cmd6(struct sd_card *c, uint32_t arg, uint8_t st[64])
{
	struct sd_request req;
	struct sd_data data;

	data_init(&data, st, 64, 1, SD_DATA_READ);
	req_init(&req, SD_CMD_SWITCH_FUNC, arg, SD_RESP_R1);
	req.data = &data;
	return do_req(c, &req, CHK_R1);
}

static bool needs_tuning(const struct sd_card *c, unsigned timing)
{
	return timing == SD_TIMING_SDR104 ||
	       (timing == SD_TIMING_SDR50 && c->host->tuning_sdr50);
}

static int tune(struct sd_card *c)
{
	struct sd_host *h = c->host;
	uint32_t tries = 0;
	int ret;

	ret = sd_host_execute_tuning(h, SD_CMD_SEND_TUNING_BLOCK, &tries);
	c->tuning_tries = tries;
	return ret;
}

/* At 1.8 V: the fastest UHS-I mode the card (CMD6 group 1), the host and
 * the mode asked for allow, in the order SDR104, DDR50, SDR50, SDR25,
 * SDR12; one that the card refuses, that the host cannot clock or whose
 * tuning fails is noted and the next slower one tried. SDR12 is where
 * every UHS-I card starts (§4.2.4.2), so it always remains. */
static int uhs_select(struct sd_card *c, const struct sd_switch *q)
{
	static const uint8_t order[] = { SD_TIMING_SDR104, SD_TIMING_DDR50,
		SD_TIMING_SDR50, SD_TIMING_SDR25, SD_TIMING_SDR12 };
	struct sd_host *h = c->host;
	unsigned i, want_t = sd_mode_timing(c->mode_want);
	bool reached = c->mode_want == SD_MODE_AUTO;
	int ret;

	for (i = 0; i < sizeof(order); i++) {
		unsigned t = order[i];
		uint32_t arg;
		uint8_t st[64];
		struct sd_switch sw;

		if (!reached && c->mode_want >= SD_MODE_SDR12 && t != want_t)
			continue;
		reached = true;
		if (!(c->card_modes & (1u << t))) {
			mode_note(c, "the card does not support it (CMD6 group 1)", t);
			continue;
		}
		if (t != SD_TIMING_SDR12 && !(h->uhs_modes & (1u << t))) {
			mode_note(c, "the host or board does not run it", t);
			continue;
		}
		arg = SD_CMD6_MODE_SWITCH | (SD_CMD6_KEEP_ALL & ~0xFu) | g1_function(t);
		/* The faster modes draw more: 400 mA when the card offers it
		 * (group 4), else its default 200 mA. */
		if ((t == SD_TIMING_SDR50 || t == SD_TIMING_SDR104 ||
		     t == SD_TIMING_DDR50) && (q->support[3] & (1u << SD_SW_G4_400MA)))
			arg = (arg & ~0xF000u) | SD_SW_G4_400MA << 12;
		ret = cmd6(c, arg, st);
		if (ret)
			return ret;
		sd_switch_decode(st, &sw);
		if (sw.selected[0] != g1_function(t)) {
			mode_note(c, "the card refused the switch (CMD6)", t);
			continue;
		}
		memcpy(c->sw_status, st, sizeof(st));
		c->max_clock_hz = sd_timing_max_hz(t);
		ret = set_ios(c, c->max_clock_hz, c->width, (uint8_t)t);
		if (ret) {
			mode_note(c, "the host could not set the timing", t);
			c->last_err.code = 0;
			continue;
		}
		if (needs_tuning(c, t)) {
			ret = tune(c);
			if (ret) {
				mode_note(c, "tuning found no sampling point (CMD19)", t);
				/* Back to SDR12's clock, where the next switch
				 * needs no sampling point. */
				ret = set_ios(c, sd_timing_max_hz(SD_TIMING_SDR12),
					      c->width, SD_TIMING_SDR12);
				if (ret)
					return ret;
				continue;
			}
		}
		return 0;
	}
	/* Not reached: SDR12 needs no switch the card could refuse. */
	return sd_card_fail(c, -EIO, SD_CMD_SWITCH_FUNC, 0, 0, "no UHS-I mode could be selected");
}

/* ---- data ---------------------------------------------------------------- */

/* max_count: a data transfer is bounded by the host's 16-bit block count
 * (SDHCI BLKCNT); an erase (CMD32/33/38) names its first and last block and
 * has no such limit (SD Physical Layer §4.3.5). */
static int check_range(struct sd_card *c, uint32_t lba, uint32_t count,
		       const void *buf, uint8_t cmd_index, uint32_t max_count)
{
	if (!c->initialised)
		return sd_card_fail(c, -EINVAL, cmd_index, lba, 0, "card not initialised");
	if (!buf || count == 0 || count > max_count)
		return sd_card_fail(c, -EINVAL, cmd_index, lba, count, "bad buffer or count");
	if ((uint64_t)lba + count > c->blocks)
		return sd_card_fail(c, -ERANGE, cmd_index, lba, count, "beyond the card");
	return 0;
}

static uint32_t card_addr(const struct sd_card *c, uint32_t lba)
{
	return c->high_capacity ? lba : lba * SD_BLOCK_SIZE;
}

/* How a multi-block command ends (enum sd_stop_mode): CMD12 sent after
 * it (*manual12), the host's Auto-CMD12 or Auto-CMD23, or an explicit
 * CMD23 first (*extra counts it). */
static inline __attribute__((always_inline)) int stop_mode(struct sd_card *c, struct sd_data *data,
		    enum sd_stop_mode stop, uint8_t index, uint32_t lba,
		    bool *manual12, uint32_t *extra)
{
	struct sd_host *h = c->host;
	int ret;

	switch (stop) {
	case SD_STOP_NONE:
		*manual12 = true;
		break;
	case SD_STOP_AUTO12:
		if (!h->cap_auto12)
			return sd_card_fail(c, -ENOTSUP, index, lba, 0,
				"host has no Auto-CMD12");
		data->stop = SD_STOP_AUTO12;
		break;
	case SD_STOP_AUTO23:
		if (!c->cmd23)
			return sd_card_fail(c, -ENOTSUP, SD_CMD_SET_BLOCK_COUNT, data->blocks, 0,
				"card does not support CMD23 (SCR)");
		if (h->cap_auto23) {
			data->stop = SD_STOP_AUTO23;
			data->sbc_arg = data->blocks;
		} else {
			ret = cmd(c, SD_CMD_SET_BLOCK_COUNT, data->blocks, SD_RESP_R1,
				  CHK_R1, NULL);
			if (ret)
				return ret;
			(*extra)++;
		}
		break;
	default:
		return sd_card_fail(c, -EINVAL, index, lba, stop, "bad stop mode");
	}
	return 0;
}

/* After the data: the auto CMD12's R1, the manual CMD12, a write's wait
 * for the card to be back in "tran". */
static inline __attribute__((always_inline)) int after_data(struct sd_card *c,
		    const struct sd_request *req, bool manual12, struct sd_req_times *times)
{
	int ret;

	if (req->data->stop == SD_STOP_AUTO12) {
		ret = check_r1(c, SD_CMD_STOP_TRANSMISSION, 0, req->cmd.auto_resp);
		if (ret)
			return ret;
	}
	if (manual12) {
		ret = stop_transmission(c, 0, times);
		if (ret)
			return ret;
	}
	if (req->data->dir == SD_DATA_WRITE)
		return wait_tran(c, req->cmd.index, req->cmd.arg, SD_TRAN_TIMEOUT_US,
				 times ? &times->extra_cmds : NULL);
	return 0;
}

/* One data command (CMD17/18/24/25) with its termination. Inlined into
 * its four callers (the data path: the direction and the command are
 * constants there). */
static inline __attribute__((always_inline)) int transfer(struct sd_card *c, uint32_t lba, uint32_t count,
		    void *buf, uint8_t dir, enum sd_stop_mode stop,
		    bool single, struct sd_req_times *times)
{
	struct sd_host *h = c->host;
	struct sd_request req;
	struct sd_data data;
	uint8_t index;
	bool multi = !single && count > 1;
	bool manual12 = false;
	uint32_t extra = 0; /* explicit CMD23 */
	int ret;

	if (dir == SD_DATA_READ)
		index = multi ? SD_CMD_READ_MULTIPLE_BLOCK : SD_CMD_READ_SINGLE_BLOCK;
	else
		index = multi ? SD_CMD_WRITE_MULTIPLE_BLOCK : SD_CMD_WRITE_BLOCK;
	ret = check_range(c, lba, count, buf, index, 0xFFFFu);
	if (ret)
		return ret;
	if (dir == SD_DATA_WRITE && c->write_protected)
		return sd_card_fail(c, -EROFS, index, lba, 0, "card is write-protected");

	data_init(&data, buf, SD_BLOCK_SIZE, count, dir);

	if (multi) {
		ret = stop_mode(c, &data, stop, index, lba, &manual12, &extra);
		if (ret)
			return ret;
	}

	req_init(&req, index, card_addr(c, lba), SD_RESP_R1);
	req.data = &data;
	if (times) {
		req.t.blk_ready = times->blk_ready;
		req.t.blk_done = times->blk_done;
	}
	/* do_req(c, &req, CHK_R1) without the call: a data request is never
	 * retried. */
	ret = h->ops->request(h, &req);
	ret = ret ? req_failed(c, &req, ret) :
		    check_r1(c, req.cmd.index, req.cmd.arg, req.cmd.resp[0]);
	if (times) {
		uint32_t *br = times->blk_ready, *bd = times->blk_done;

		*times = req.t;
		times->blk_ready = br;
		times->blk_done = bd;
		times->extra_cmds = extra;
	}
	if (ret) {
		recover(c);
		return ret;
	}
	ret = after_data(c, &req, manual12, times);
	if (ret)
		recover(c);
	return ret;
}

int sd_read_blocks(struct sd_card *card, uint32_t lba, uint32_t count,
		   void *buf, enum sd_stop_mode stop, struct sd_req_times *times)
{
	return transfer(card, lba, count, buf, SD_DATA_READ, stop, false, times);
}

int sd_write_blocks(struct sd_card *card, uint32_t lba, uint32_t count,
		    const void *buf, enum sd_stop_mode stop,
		    struct sd_req_times *times)
{
	return transfer(card, lba, count, (void *)(uintptr_t)buf, SD_DATA_WRITE,
			stop, false, times);
}

int sd_read_single(struct sd_card *card, uint32_t lba, void *buf,
		   struct sd_req_times *times)
{
	return transfer(card, lba, 1, buf, SD_DATA_READ, SD_STOP_NONE, true,
			times);
}

int sd_write_single(struct sd_card *card, uint32_t lba, const void *buf,
		    struct sd_req_times *times)
{
	return transfer(card, lba, 1, (void *)(uintptr_t)buf, SD_DATA_WRITE,
			SD_STOP_NONE, true, times);
}

int sd_set_wr_blk_erase_count(struct sd_card *card, uint32_t count)
{
	if (!card->initialised || count == 0 || count > 0x7FFFFFu)
		return -EINVAL;
	return acmd(card, SD_ACMD_SET_WR_BLK_ERASE_COUNT, count, SD_RESP_R1, CHK_R1,
		    NULL, NULL, 0);
}

static uint32_t erase_timeout_us(const struct sd_card *c, uint32_t count)
{
	uint32_t au = c->au_size_bytes ? c->au_size_bytes :
		      SD_ERASE_DEFAULT_AU_BYTES;
	uint64_t bytes = (uint64_t)count * SD_BLOCK_SIZE;
	uint64_t n_au = (bytes + au - 1) / au;
	uint64_t us;

	if (c->have_ssr) {
		struct sd_ssr ssr;
		uint32_t ms;

		sd_ssr_decode(c->ssr, &ssr);
		if (sd_ssr_erase_timeout_ms(&ssr, (uint32_t)n_au, &ms) == 0) {
			us = (uint64_t)ms * 1000u;
			goto clamp;
		}
	}
	us = n_au * SD_ERASE_FALLBACK_US_PER_AU;
clamp:
	if (us < SD_ERASE_MIN_TIMEOUT_US)
		us = SD_ERASE_MIN_TIMEOUT_US;
	if (us > SD_ERASE_MAX_TIMEOUT_US)
		us = SD_ERASE_MAX_TIMEOUT_US;
	return (uint32_t)us;
}

int sd_erase(struct sd_card *card, uint32_t lba, uint32_t count,
	     struct sd_req_times *times)
{
	struct sd_request req;
	uint32_t tmo;
	int ret;

	ret = check_range(card, lba, count, card /* no buffer */, SD_CMD_ERASE,
			  UINT32_MAX);
	if (ret)
		return ret;
	if (card->write_protected)
		return sd_card_fail(card, -EROFS, SD_CMD_ERASE, lba, 0, "card is write-protected");
	ret = cmd(card, SD_CMD_ERASE_WR_BLK_START, card_addr(card, lba), SD_RESP_R1,
		  CHK_R1, NULL);
	if (!ret)
		ret = cmd(card, SD_CMD_ERASE_WR_BLK_END,
			  card_addr(card, lba + count - 1), SD_RESP_R1, CHK_R1,
			  NULL);
	if (ret) {
		recover(card);
		return ret;
	}
	tmo = erase_timeout_us(card, count);
	req_init(&req, SD_CMD_ERASE, 0, SD_RESP_R1B);
	req.cmd.busy_timeout_us = tmo;
	ret = do_req(card, &req, CHK_R1);
	if (times)
		*times = req.t;
	if (!ret)
		ret = wait_tran(card, SD_CMD_ERASE, 0, tmo, NULL);
	if (ret)
		recover(card);
	return ret;
}

int sd_send_status(struct sd_card *card, uint32_t *status)
{
	if (!card->present)
		return -ENOMEDIUM;
	return get_status(card, status);
}

/* ---- for the card layer's other files ------------------------------------ */

int sd_cmd_r1(struct sd_card *card, uint8_t index, uint32_t arg, uint32_t *r1)
{
	if (!card->present)
		return -ENOMEDIUM;
	return cmd(card, index, arg, SD_RESP_R1, CHK_R1, r1);
}

int sd_cmd_status_arg(struct sd_card *card, uint32_t arg, uint32_t *resp)
{
	if (!card->present)
		return -ENOMEDIUM;
	return cmd(card, SD_CMD_SEND_STATUS, arg, SD_RESP_R1, CHK_NONE, resp);
}

int sd_cmd_data(struct sd_card *card, uint8_t index, uint32_t arg, void *buf, uint32_t blksz,
		uint32_t blocks, uint8_t dir, struct sd_req_times *times)
{
	return sd_cmd_data_(card, index, arg, buf, blksz, blocks, dir, times);
}

static int sd_cmd_data_(struct sd_card *card, uint8_t index, uint32_t arg, void *buf,
			uint32_t blksz, uint32_t blocks, uint8_t dir, struct sd_req_times *times)
{
	struct sd_request req;
	struct sd_data data;
	int ret;

	if (!card->present)
		return -ENOMEDIUM;
	data_init(&data, buf, blksz, blocks, dir);
	req_init(&req, index, arg, SD_RESP_R1);
	req.data = &data;
	ret = card->host->ops->request(card->host, &req);
	ret = ret ? req_failed(card, &req, ret) :
		    check_r1(card, req.cmd.index, req.cmd.arg, req.cmd.resp[0]);
	if (times)
		*times = req.t;
	if (!ret && dir == SD_DATA_WRITE)
		ret = wait_tran(card, index, arg, SD_TRAN_TIMEOUT_US,
				times ? &times->extra_cmds : NULL);
	if (ret)
		recover(card);
	return ret;
}

/* ---- names --------------------------------------------------------------- */

const char *sd_state_name(unsigned state)
{
	static const char *const names[] = {
		"idle", "ready", "ident", "stby", "tran", "data", "rcv",
		"prg", "dis",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] :
	       "reserved";
}

static void append(char *buf, unsigned cap, unsigned *len, const char *s)
{
	if (*len && *len + 1 < cap)
		buf[(*len)++] = '|';
	while (*s && *len + 1 < cap)
		buf[(*len)++] = *s++;
	buf[*len] = '\0';
}

const char *sd_r1_describe(uint32_t r1, char *buf, unsigned cap)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} bits[] = {
		{ SD_R1_OUT_OF_RANGE, "OUT_OF_RANGE" },
		{ SD_R1_ADDRESS_ERROR, "ADDRESS_ERROR" },
		{ SD_R1_BLOCK_LEN_ERROR, "BLOCK_LEN_ERROR" },
		{ SD_R1_ERASE_SEQ_ERROR, "ERASE_SEQ_ERROR" },
		{ SD_R1_ERASE_PARAM, "ERASE_PARAM" },
		{ SD_R1_WP_VIOLATION, "WP_VIOLATION" },
		{ SD_R1_CARD_IS_LOCKED, "CARD_IS_LOCKED" },
		{ SD_R1_LOCK_UNLOCK_FAILED, "LOCK_UNLOCK_FAILED" },
		{ SD_R1_COM_CRC_ERROR, "COM_CRC_ERROR" },
		{ SD_R1_ILLEGAL_COMMAND, "ILLEGAL_COMMAND" },
		{ SD_R1_CARD_ECC_FAILED, "CARD_ECC_FAILED" },
		{ SD_R1_CC_ERROR, "CC_ERROR" },
		{ SD_R1_ERROR, "ERROR" },
		{ SD_R1_CSD_OVERWRITE, "CSD_OVERWRITE" },
		{ SD_R1_WP_ERASE_SKIP, "WP_ERASE_SKIP" },
		{ SD_R1_CARD_ECC_DISABLED, "CARD_ECC_DISABLED" },
		{ SD_R1_ERASE_RESET, "ERASE_RESET" },
		{ SD_R1_READY_FOR_DATA, "READY_FOR_DATA" },
		{ SD_R1_FX_EVENT, "FX_EVENT" },
		{ SD_R1_APP_CMD, "APP_CMD" },
		{ SD_R1_AKE_SEQ_ERROR, "AKE_SEQ_ERROR" },
	};
	unsigned i, len = 0;
	char st[16] = "STATE=";

	if (!buf || cap == 0)
		return "";
	buf[0] = '\0';
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (r1 & bits[i].bit)
			append(buf, cap, &len, bits[i].name);
	{
		const char *n = sd_state_name((r1 >> SD_R1_STATE_SHIFT) &
					      SD_R1_STATE_MASK);
		unsigned k = 6;

		while (*n && k + 1 < sizeof(st))
			st[k++] = *n++;
		st[k] = '\0';
	}
	append(buf, cap, &len, st);
	return buf;
}

const char *sd_cmd_name(uint8_t index, bool app)
{
	if (app) {
		switch (index) {
		case SD_ACMD_SET_BUS_WIDTH: return "SET_BUS_WIDTH";
		case SD_ACMD_SD_STATUS: return "SD_STATUS";
		case SD_ACMD_SEND_NUM_WR_BLOCKS: return "SEND_NUM_WR_BLOCKS";
		case SD_ACMD_SET_WR_BLK_ERASE_COUNT: return "SET_WR_BLK_ERASE_COUNT";
		case SD_ACMD_SD_SEND_OP_COND: return "SD_SEND_OP_COND";
		case SD_ACMD_SET_CLR_CARD_DETECT: return "SET_CLR_CARD_DETECT";
		case SD_ACMD_SEND_SCR: return "SEND_SCR";
		default: return "ACMD?";
		}
	}
	switch (index) {
	case SD_CMD_GO_IDLE_STATE: return "GO_IDLE_STATE";
	case SD_CMD_ALL_SEND_CID: return "ALL_SEND_CID";
	case SD_CMD_SEND_RELATIVE_ADDR: return "SEND_RELATIVE_ADDR";
	case SD_CMD_SWITCH_FUNC: return "SWITCH_FUNC";
	case SD_CMD_SELECT_CARD: return "SELECT_CARD";
	case SD_CMD_SEND_IF_COND: return "SEND_IF_COND";
	case SD_CMD_SEND_CSD: return "SEND_CSD";
	case SD_CMD_SEND_CID: return "SEND_CID";
	case SD_CMD_STOP_TRANSMISSION: return "STOP_TRANSMISSION";
	case SD_CMD_SEND_STATUS: return "SEND_STATUS";
	case SD_CMD_SET_BLOCKLEN: return "SET_BLOCKLEN";
	case SD_CMD_READ_SINGLE_BLOCK: return "READ_SINGLE_BLOCK";
	case SD_CMD_READ_MULTIPLE_BLOCK: return "READ_MULTIPLE_BLOCK";
	case SD_CMD_SET_BLOCK_COUNT: return "SET_BLOCK_COUNT";
	case SD_CMD_WRITE_BLOCK: return "WRITE_BLOCK";
	case SD_CMD_WRITE_MULTIPLE_BLOCK: return "WRITE_MULTIPLE_BLOCK";
	case SD_CMD_ERASE_WR_BLK_START: return "ERASE_WR_BLK_START";
	case SD_CMD_ERASE_WR_BLK_END: return "ERASE_WR_BLK_END";
	case SD_CMD_ERASE: return "ERASE";
	case SD_CMD_APP_CMD: return "APP_CMD";
	case SD_CMD_READ_EXTR_SINGLE: return "READ_EXTR_SINGLE";
	case SD_CMD_WRITE_EXTR_SINGLE: return "WRITE_EXTR_SINGLE";
	case SD_CMD_Q_MANAGEMENT: return "Q_MANAGEMENT";
	case SD_CMD_Q_TASK_INFO_A: return "Q_TASK_INFO_A";
	case SD_CMD_Q_TASK_INFO_B: return "Q_TASK_INFO_B";
	case SD_CMD_Q_RD_TASK: return "Q_RD_TASK";
	case SD_CMD_Q_WR_TASK: return "Q_WR_TASK";
	default: return "CMD?";
	}
}

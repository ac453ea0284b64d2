/*
 * sd_cq.c - the Performance Enhancement function's settings (SD Physical
 * Layer Simplified Specification 6.00, §5.7.2): CMD49 WRITE_EXTR_SINGLE
 * of one byte (argument [30:27] FNO, [25:18] page, [17:9] offset, [8:0]
 * length - 1 = 0; the byte first in the 512-byte block) and its read-back
 * with CMD48, as Linux drivers/mmc/core/sd.c sd_enable_cache /
 * sd_flush_cache and the Raspberry Pi command queue patch
 * (mmc_sd_cmdq_switch) do: Cache Enable is byte 260, Cache Flush byte 261
 * (it reads 0 once the flush is done), Command Queue enable byte 262 (bit
 * 1 = 0: voluntary mode, the one A2 performance is stated for).
 */
#include <string.h>

#include "drivers/sd/sd_cmds.h"
#include "drivers/sd/sd_cq.h"
#include "drivers/timer.h"
#include "lib/err.h"

#define PERF_CACHE_ENABLE 260u
#define PERF_CACHE_FLUSH  261u
#define PERF_CQ_ENABLE    262u

static uint8_t blk[SD_EXT_BLOCK];

int sd_ext_write_byte(struct sd_card *card, unsigned fno, unsigned page, unsigned off,
		      uint8_t v)
{
	uint32_t arg = (fno & 0xFu) << 27 | (page & 0xFFu) << 18 | (off & 0x1FFu) << 9;

	memset(blk, 0, sizeof(blk));
	blk[0] = v;
	return sd_cmd_data(card, SD_CMD_WRITE_EXTR_SINGLE, arg, blk, SD_EXT_BLOCK, 1,
			   SD_DATA_WRITE, NULL);
}

/* One byte of the performance register written, then read back into *got. */
static int perf_write(struct sd_card *card, unsigned byte, uint8_t v, uint8_t *got)
{
	const struct sd_ext *e = &card->ext;
	unsigned off = e->perf_off + byte;
	int ret = sd_ext_write_byte(card, e->perf_fno, e->perf_page, off, v);

	if (ret)
		return ret;
	ret = sd_ext_read(card, e->perf_fno, e->perf_page, off, 1, blk);
	*got = blk[0];
	return ret;
}

static int perf_set(struct sd_card *card, unsigned byte, bool on)
{
	uint8_t got = 0;
	int ret = perf_write(card, byte, on ? 1 : 0, &got);

	if (ret)
		return ret;
	if ((got & 1) != (on ? 1 : 0))
		return sd_card_fail(card, -EIO, SD_CMD_WRITE_EXTR_SINGLE, byte, got,
				    "performance register read back");
	return 0;
}

int sd_cache_set(struct sd_card *card, bool on)
{
	if (!card->ext.read || !card->ext.cache)
		return -ENOTSUP;
	return perf_set(card, PERF_CACHE_ENABLE, on);
}

int sd_cq_set(struct sd_card *card, bool on)
{
	if (!card->ext.read || !card->ext.cq_depth)
		return -ENOTSUP;
	return perf_set(card, PERF_CQ_ENABLE, on);
}

int sd_cache_flush(struct sd_card *card, uint32_t *us)
{
	uint64_t t0 = timer_now_us();
	uint8_t got = 0;
	int ret;

	if (!card->ext.read || !card->ext.cache)
		return -ENOTSUP;
	ret = perf_write(card, PERF_CACHE_FLUSH, 1, &got);
	if (us)
		*us = (uint32_t)(timer_now_us() - t0);
	if (ret)
		return ret;
	if (got & 1)
		return sd_card_fail(card, -ETIMEDOUT, SD_CMD_WRITE_EXTR_SINGLE,
				    PERF_CACHE_FLUSH, got, "Cache Flush still set after the card's busy");
	return 0;
}

/* ---- the queue ---------------------------------------------------------- */

#define CQ_POLL_US 20u

int sd_cq_queue(struct sd_card *card, unsigned id, bool read, uint32_t lba, uint32_t count)
{
	uint32_t a = (uint32_t)read << 30 | (id & 0x1Fu) << 16 | (count & 0xFFFFu);
	int ret;

	if (id >= card->ext.cq_depth || !count || count > 0xFFFFu)
		return -EINVAL;
	if (!read && card->write_protected)
		return -EROFS;
	ret = sd_cmd_r1(card, SD_CMD_Q_TASK_INFO_A, a, NULL);
	if (ret)
		return ret;
	return sd_cmd_r1(card, SD_CMD_Q_TASK_INFO_B, card->high_capacity ? lba : lba * 512u, NULL);
}

int sd_cq_status(struct sd_card *card, uint32_t *ready)
{
	return sd_cmd_status_arg(card, (uint32_t)card->rca << 16 | SD_CMD13_SEND_TASK_STATUS,
				 ready);
}

int sd_cq_wait(struct sd_card *card, uint32_t mask, uint32_t timeout_us, uint32_t *ready)
{
	timer_deadline_t d = timer_deadline_us(timeout_us);
	uint32_t st = 0;
	int ret;

	for (;;) {
		ret = sd_cq_status(card, &st);
		if (ready)
			*ready = st;
		if (ret)
			return ret;
		if ((st & mask) == mask)
			return 0;
		if (timer_expired(d))
			return sd_card_fail(card, -ETIMEDOUT, SD_CMD_SEND_STATUS, mask, st,
					    "command queue: tasks not ready");
		timer_udelay(CQ_POLL_US);
	}
}

int sd_cq_run(struct sd_card *card, unsigned id, bool read, void *buf, uint32_t count,
	      struct sd_req_times *times)
{
	return sd_cmd_data(card, read ? SD_CMD_Q_RD_TASK : SD_CMD_Q_WR_TASK, (id & 0x1Fu) << 16, buf,
			   SD_BLOCK_SIZE, count, read ? SD_DATA_READ : SD_DATA_WRITE, times);
}

int sd_cq_abort(struct sd_card *card, int id)
{
	uint32_t a = id < 0 ? 1u : ((uint32_t)id & 0x1Fu) << 16 | 2u;

	return sd_cmd_r1(card, SD_CMD_Q_MANAGEMENT, a, NULL);
}

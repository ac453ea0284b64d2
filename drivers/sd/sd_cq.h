/*
 * sd_cq.h - the SD 6.00 Performance Enhancement function's settings
 * (SD Physical Layer §5.7.2, CMD49 WRITE_EXTR_SINGLE): the card's cache on
 * and off, Cache Flush, the command queue on and off. Each write is read
 * back with CMD48. Card layer only: bench/ reaches these through the write
 * guard (bench/storage/write_guard.h), never directly.
 */
#ifndef SDB_DRIVERS_SD_CQ_H
#define SDB_DRIVERS_SD_CQ_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/sd/sd.h"

/* CMD49: one byte of function fno, page, offset 'off'; then the bounded
 * wait back to tran (1 s, as Linux's SD_WRITE_EXTR_SINGLE_TIMEOUT_MS). */
int sd_ext_write_byte(struct sd_card *card, unsigned fno, unsigned page, unsigned off,
		      uint8_t v);
/* Cache Enable (byte 260 bit 0) / Command Queue enable (byte 262 bit 0,
 * voluntary mode) written and read back: -ENOTSUP when discovery found no
 * cache / no queue, -EIO when the read-back disagrees (last_err names
 * CMD49 and holds the byte read back). */
int sd_cache_set(struct sd_card *card, bool on);
int sd_cq_set(struct sd_card *card, bool on);
/* Cache Flush (byte 261 bit 0): written, the card's busy waited for, the
 * bit read back (0 once the flush is done, else -ETIMEDOUT). *us (may be
 * NULL) gets the time from the command to the read-back. */
int sd_cache_flush(struct sd_card *card, uint32_t *us);

/*
 * The command queue (enabled with sd_cq_set): CMD44 Q_TASK_INFO_A ([30]
 * direction, 1 = read; [20:16] task ID; [15:0] blocks) and CMD45
 * Q_TASK_INFO_B (the start block) queue a task; CMD13 with bit 15
 * (SEND_TASK_STATUS) answers the Task Status register (bit n: task n
 * ready); CMD46 Q_RD_TASK / CMD47 Q_WR_TASK ([20:16] task ID) run a ready
 * task, its blocks counted by the card (no CMD12); CMD43 Q_MANAGEMENT
 * ([3:0] 1 = abort the queue, 2 = abort task [20:16]).
 */
int sd_cq_queue(struct sd_card *card, unsigned id, bool read, uint32_t lba, uint32_t count);
int sd_cq_status(struct sd_card *card, uint32_t *ready);
/* Poll the Task Status register until every task of mask is ready, at
 * most timeout_us: -ETIMEDOUT with last_err naming CMD13, the mask as its
 * argument and the last register as its status. *ready (may be NULL) gets
 * the last register. */
int sd_cq_wait(struct sd_card *card, uint32_t mask, uint32_t timeout_us, uint32_t *ready);
int sd_cq_run(struct sd_card *card, unsigned id, bool read, void *buf, uint32_t count,
	      struct sd_req_times *times);
/* id < 0: the whole queue. */
int sd_cq_abort(struct sd_card *card, int id);

#endif

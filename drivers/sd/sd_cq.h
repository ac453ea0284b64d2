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

#endif

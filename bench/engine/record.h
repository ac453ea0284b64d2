/*
 * record.h - machine-readable result records: one console line made of
 * "@ " and a single-line JSON object with a "type" key (docs/records.md).
 *
 *     struct json *j = record_begin("board");
 *     json_str(j, "model", "Pi 2 Model B");
 *     record_end();
 *
 * One record is built at a time (a static buffer; never inside a timed
 * region). A record that does not fit is replaced by an "error" record that
 * says so, never printed as broken JSON.
 *
 * Errors: record_error() prints a readable line and an "error" record and
 * counts it; record_done() prints the final "done" record with that count.
 */
#ifndef SDB_BENCH_RECORD_H
#define SDB_BENCH_RECORD_H

#include <stdint.h>

#include "lib/json.h"

/* The largest record: the host comparison of a UHS-I host (56 rows). */
#define RECORD_MAX_BYTES 16384

struct json *record_begin(const char *type);
void record_end(void);

/* context: what was running ("init", "seq-read", ...); code: -errno.
 * The message is printed for people and stored in the record. */
void record_error(const char *context, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Same, with the failing command and controller status bits. */
void record_error_cmd(const char *context, int code, uint8_t cmd, uint32_t arg,
		      uint32_t status, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
unsigned record_error_count(void);
void record_reset_errors(void);

/* Final record of every run. */
void record_done(uint64_t elapsed_us);

#endif

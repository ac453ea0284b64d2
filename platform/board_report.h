/*
 * board_report.h - the detected board described: its console lines and
 * the fields of its "board" record (docs/records.md), the SoC-dependent
 * lines from its description (platform/board_desc.h).
 */
#ifndef SDB_PLATFORM_BOARD_REPORT_H
#define SDB_PLATFORM_BOARD_REPORT_H

#include <stdbool.h>

#include "drivers/timer.h"
#include "lib/json.h"
#include "platform/board.h"

/* "Raspberry Pi <model>" (or "(unknown model)") into buf. */
void board_model_name(const struct board_info *b, char *buf, unsigned len);

/* The board's lines on the console. */
void board_print(const struct board_info *b, const struct timer_info *ti);

/* The board record's fields into j (begun by the caller); caches: the
 * MMU and caches are on. */
void board_record_fields(struct json *j, const struct board_info *b,
			 const struct timer_info *ti, bool caches);

#endif

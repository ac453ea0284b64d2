/*
 * card_report.h - the card's registers for people and for programs:
 * JSON sub-objects of the decoded registers (drivers/sd/sd_regs.h), a
 * readable multi-line report on the console, and the "card" record
 * (docs/records.md).
 *
 * JSON keys are the spec's field names in lower case; derived values carry
 * their unit (capacity_bytes, tran_speed_hz, au_size_bytes); reserved codes
 * appear as the string "reserved" (or null for a number that cannot be
 * derived), never as a guess. Registers with a CRC get "crc_ok": true,
 * false, or "absent" when the controller did not deliver the CRC byte.
 */
#ifndef SDB_BENCH_CARD_REPORT_H
#define SDB_BENCH_CARD_REPORT_H

#include "drivers/sd/sd.h"
#include "drivers/sd/sd_regs.h"
#include "lib/json.h"

/* One sub-object each, under 'key' (NULL inside an array). */
void card_report_json_cid(struct json *j, const char *key, const struct sd_cid *cid);
void card_report_json_csd(struct json *j, const char *key, const struct sd_csd *csd);
void card_report_json_scr(struct json *j, const char *key, const struct sd_scr *scr);
void card_report_json_ssr(struct json *j, const char *key, const struct sd_ssr *ssr);
void card_report_json_switch(struct json *j, const char *key, const struct sd_switch *sw);
void card_report_json_ocr(struct json *j, const char *key, const struct sd_ocr *ocr);

/* Readable lines via con_printf, each starting with two spaces. */
void card_report_print_cid(const struct sd_cid *cid);
void card_report_print_csd(const struct sd_csd *csd);
void card_report_print_scr(const struct sd_scr *scr);
void card_report_print_ssr(const struct sd_ssr *ssr);
void card_report_print_switch(const struct sd_switch *sw);
void card_report_print_ocr(const struct sd_ocr *ocr);

/* The whole card: every register sd_card holds (SCR, SSR and the CMD6
 * status only when have_scr/have_ssr/have_sw say they were read) and the
 * card layer's state. */
void card_report_print(const struct sd_card *card);
/* One "card" record with the same content (raw hex of every register in
 * its sub-object). */
void card_report_record(const struct sd_card *card);

#endif

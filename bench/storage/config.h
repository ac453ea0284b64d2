/*
 * config.h - the run configuration from sdbench.txt (8.3 name SDBENCH.TXT)
 * in the boot partition: "key = value" lines, '#' comments, blank lines.
 * The keys, their types, limits and defaults are one table
 * (bench/storage/config_keys.h); docs/config.md is the user's reference.
 *
 * The parser never prints and never fails a run: an unknown key, a bad value
 * or a malformed line becomes a message in the list (for the caller to
 * print). One rule keeps a user's data safe: a configuration that could not
 * be read whole writes nothing. Any such line (malformed, an unknown key, a
 * value refused, a line too long or with a NUL byte) turns the write tests
 * off and leaves no test area (config_fully_read() is false and
 * config_no_writes_why() names the first such line); a key of such a line
 * that looks like results_file turns the results file off too. A key that
 * does not gate writes otherwise keeps its default, so the reads go on.
 *
 * Value syntax by type:
 *   size   bytes, decimal or 0x hex, optional binary suffix k/K, M, G, T
 *          (or KiB, MiB, GiB, TiB); a whole number of 512-byte blocks
 *   uint   decimal or 0x hex
 *   hz     decimal, optional k/kHz (10^3), M/MHz (10^6), Hz
 *   bool   on|off, yes|no, true|false, 1|0
 *   enum   one of the listed words
 *   range  START+COUNT or START-END (END inclusive); plain numbers are
 *          blocks, numbers with a size suffix are bytes
 *   list   items LBA:COUNT or LBA (COUNT 1), separated by ',' or spaces
 * Keys and words are case-insensitive.
 */
#ifndef SDB_BENCH_CONFIG_H
#define SDB_BENCH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/storage/blkdev.h"

struct json;

#define CONFIG_FILE_NAME	"SDBENCH.TXT"
#define CONFIG_MAX_LIST		16	/* items of a list value */
#define CONFIG_MAX_MSGS		16	/* messages kept; more are counted */
#define CONFIG_MSG_LEN		128
#define CONFIG_MAX_LINE		200	/* longer lines are reported and skipped */

enum config_type {
	CFG_T_SIZE,
	CFG_T_UINT,
	CFG_T_HZ,
	CFG_T_BOOL,
	CFG_T_ENUM,
	CFG_T_RANGE,
	CFG_T_LIST,
};

enum config_id {
#define CONFIG_KEY(id, name, type, def, min, max, choices) CFG_##id,
#include "bench/storage/config_keys.h"
#undef CONFIG_KEY
	CFG_NKEYS
};

struct config_value {
	uint8_t has;		/* a value exists (from the file or the default) */
	uint8_t from_file;	/* the file set it */
	uint8_t from_console;	/* the console's "set" changed it */
	uint8_t bad;		/* the file's value was unreadable; a key that
				 * gates writes then holds "no writes" */
	uint16_t line;		/* its line in the file (0 = default) */
	union {
		uint64_t u;	/* size, uint, hz, bool (0/1), enum (index) */
		struct lba_range r;
		struct {
			uint32_t n;
			struct lba_range item[CONFIG_MAX_LIST];
		} list;
	};
};

struct config {
	struct config_value v[CFG_NKEYS];
	uint16_t unread_line;	/* first line not read whole (0: every line read) */
	uint16_t unread_lines;	/* how many lines were not read whole */
	char unread_why[CONFIG_MSG_LEN];	/* why writes are off, naming that line */
	unsigned nmsgs;		/* messages in msgs[] */
	unsigned dropped;	/* messages that did not fit */
	char msgs[CONFIG_MAX_MSGS][CONFIG_MSG_LEN];
};

/* Every key to its default, no messages. */
void config_init(struct config *c);

/* Parse a file's text (len bytes, need not be NUL-terminated) on top of
 * the current values. Returns the number of messages added. */
unsigned config_parse(struct config *c, const char *text, size_t len);

/* A default decided at run time (e.g. suite: quick under QEMU, full on a
 * Pi): value is parsed like the file's text and used unless the file set
 * the key. 0, or -EINVAL for a bad value or key. */
int config_set_default(struct config *c, enum config_id id, const char *value);

/* Set one key from text, with the same syntax and limits as the file
 * (the console's "set"). 0, or -EINVAL with the reason in why (the key and
 * its value unchanged). */
int config_set(struct config *c, enum config_id id, const char *value, char *why, size_t why_cap);

/* A key's type, default text ("" = none) and, for an enum, its choices
 * "a|b|c" (NULL otherwise). */
enum config_type config_key_type(enum config_id id);
const char *config_key_default(enum config_id id);
const char *config_key_choices(enum config_id id);

/* Add a message of the caller's own (same list, same limits). */
void config_msg(struct config *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Typed getters. A key without a value (no default, not in the file)
 * reads as 0 / false / -1 / NULL / not found. */
bool config_has(const struct config *c, enum config_id id);
bool config_from_file(const struct config *c, enum config_id id);
/* The file gave this key a value that could not be read (config_gates_writes
 * keys: no writes follow from it). */
bool config_bad(const struct config *c, enum config_id id);
/* write_tests, test_area and results_file: a bad value means no writes,
 * not the default. */
bool config_gates_writes(enum config_id id);
/* Every line of the file (and the file itself) was read whole. When not,
 * nothing may be written this run: write_tests is off (config_bad) and
 * there is no test area (config_bad), and config_no_writes_why() says why. */
bool config_fully_read(const struct config *c);
const char *config_no_writes_why(const struct config *c);
/* The file exists but could not be read (an I/O error, a broken FAT, too
 * large): its settings are unknown, so the same rule as a bad line. */
void config_unreadable_file(struct config *c, const char *why);
/* The console's "set" line could not be read (why): write_tests off until
 * a "set write_tests=on" that reads whole; the test area stays as shown. */
void config_set_unreadable(struct config *c, const char *why);
uint64_t config_u64(const struct config *c, enum config_id id);	/* size, uint, hz */
bool config_bool(const struct config *c, enum config_id id);
int config_enum(const struct config *c, enum config_id id);	/* index, -1 when unset */
const char *config_enum_name(const struct config *c, enum config_id id);	/* NULL when unset */
bool config_range(const struct config *c, enum config_id id, struct lba_range *out);
unsigned config_list(const struct config *c, enum config_id id, const struct lba_range **items);

/* The key's name; the index of a choice word of an enum key (-1 if none). */
const char *config_key_name(enum config_id id);
int config_enum_index(enum config_id id, const char *word);
/* The id of a key name (case-insensitive), -1 when unknown. */
int config_find_key(const char *name);

/* The value as the file would spell it ("256M", "on", "8192+32768"), ""
 * when unset. Returns the length like snprintf. */
int config_format(const struct config *c, enum config_id id, char *buf, size_t cap);

/* Every key with its effective value (null when unset) as members of the
 * open JSON object j, plus "from_file": [names set by the file]. */
void config_json(const struct config *c, struct json *j);

#endif

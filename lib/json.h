/*
 * json.h - a tiny JSON object builder into a caller-owned buffer.
 *
 * Used for the "@ " records (bench/engine/record.h) and by host tools (sdreg --json).
 * Keys and string values are escaped. Nesting depth is limited to JSON_MAX_DEPTH;
 * running out of buffer sets j->overflow and truncates cleanly (the record
 * layer reports it rather than printing broken JSON).
 *
 * Pass key = NULL for values inside arrays (and for the outermost object).
 */
#ifndef SDB_LIB_JSON_H
#define SDB_LIB_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 8

struct json {
	char *buf;
	size_t cap;
	size_t len;
	int depth;
	bool first[JSON_MAX_DEPTH + 1];
	bool overflow;
};

void json_init(struct json *j, char *buf, size_t cap);
void json_obj_begin(struct json *j, const char *key);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j, const char *key);
void json_arr_end(struct json *j);

void json_str(struct json *j, const char *key, const char *val);
void json_strn(struct json *j, const char *key, const char *val, size_t n);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_i64(struct json *j, const char *key, int64_t val);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);
/* A value, or null where there is none: the record keeps its field either
 * way (fields are added, never dropped). json_u64_if, json_i64_if: val
 * when have;
 * json_str_if: val when not NULL or empty; json_bool_if: tri 0 false, 1
 * (any > 0) true, < 0 null; json_double_if: val when >= 0. */
void json_u64_if(struct json *j, const char *key, bool have, uint64_t val);
void json_i64_if(struct json *j, const char *key, bool have, int64_t val);
void json_str_if(struct json *j, const char *key, const char *val);
void json_bool_if(struct json *j, const char *key, int tri);
void json_double_if(struct json *j, const char *key, double val, int decimals);
/* A double with a fixed number of decimals (0..9); NaN/inf become null. */
void json_double(struct json *j, const char *key, double val, int decimals);
/* "0x%0*x" as a JSON string, e.g. json_hex(j, "revision", 0xa21041, 8). */
void json_hex(struct json *j, const char *key, uint64_t val, int digits);
/* Bytes as one lower-case hex string, most significant (first) byte first. */
void json_hexbytes(struct json *j, const char *key, const uint8_t *b, size_t n);
/* A value already formatted as JSON (number or nested literal), inserted verbatim. */
void json_raw(struct json *j, const char *key, const char *raw);

/* A run of a struct's members written as fields in order: the table form of
 * a list of json_u64/json_bool/json_hex/json_str/json_double calls, each
 * written exactly as that call would (an integer member goes through the
 * same conversion to uint64_t as a json_u64 argument). Build rows with the
 * JSON_F_* macros; the member must not be a bit-field. */
enum json_field_kind {
	JSON_FIELD_UINT, JSON_FIELD_HEX, JSON_FIELD_BOOL, JSON_FIELD_STR, JSON_FIELD_DOUBLE
};
struct json_field {
	const char *key;
	uint16_t offset;
	uint8_t size;               /* of an integer member: 1, 2, 4 or 8 */
	uint8_t kind;               /* enum json_field_kind */
	uint8_t is_signed;          /* an integer member's type is signed */
	uint8_t arg;                /* hex digits, or double decimals */
};
#define JSON_F_MEMBER_(type, m) (((type *)0)->m)
#define JSON_F_INT_(kind, type, m, key, arg)					\
	{ (key), (uint16_t)offsetof(type, m), (uint8_t)sizeof(JSON_F_MEMBER_(type, m)), \
	  (kind), (uint8_t)((__typeof__(JSON_F_MEMBER_(type, m)))-1 < 1), (arg) }
#define JSON_F_U64(type, m, key) JSON_F_INT_(JSON_FIELD_UINT, type, m, key, 0)
#define JSON_F_HEX(type, m, key, digits) JSON_F_INT_(JSON_FIELD_HEX, type, m, key, digits)
#define JSON_F_BOOL(type, m, key) { (key), (uint16_t)offsetof(type, m), 1, JSON_FIELD_BOOL, 0, 0 }
#define JSON_F_STR(type, m, key) { (key), (uint16_t)offsetof(type, m), 0, JSON_FIELD_STR, 0, 0 }
#define JSON_F_DOUBLE(type, m, key, decimals)					\
	{ (key), (uint16_t)offsetof(type, m), 0, JSON_FIELD_DOUBLE, 0, (decimals) }
#define JSON_FIELDS_N(t) (sizeof(t) / sizeof((t)[0]))
void json_fields(struct json *j, const void *obj, const struct json_field *f, size_t n);

/* NUL-terminated result (valid while the buffer is). */
const char *json_result(const struct json *j);

#endif

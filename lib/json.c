/*
 * json.c - JSON builder (see json.h).
 */
#include "lib/json.h"
#include "lib/fmt.h"

static void put(struct json *j, char c)
{
	if (j->len + 1 < j->cap) {
		j->buf[j->len++] = c;
		j->buf[j->len] = '\0';
	} else {
		j->overflow = true;
	}
}

static void puts_raw(struct json *j, const char *s)
{
	while (*s)
		put(j, *s++);
}

static void put_escaped(struct json *j, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	put(j, '"');
	for (i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			put(j, '\\');
			put(j, (char)c);
		} else if (c == '\n') {
			puts_raw(j, "\\n");
		} else if (c < 0x20 || c >= 0x7f) {
			puts_raw(j, "\\u00");
			put(j, hex[c >> 4]);
			put(j, hex[c & 15]);
		} else {
			put(j, (char)c);
		}
	}
	put(j, '"');
}

static void key(struct json *j, const char *k)
{
	if (!j->first[j->depth])
		put(j, ',');
	j->first[j->depth] = false;
	if (k) {
		put_escaped(j, k, (size_t)-1);
		put(j, ':');
	}
}

void json_init(struct json *j, char *buf, size_t cap)
{
	j->buf = buf;
	j->cap = cap;
	j->len = 0;
	j->depth = 0;
	j->first[0] = true;
	j->overflow = false;
	if (cap)
		buf[0] = '\0';
}

static void open(struct json *j, const char *k, char c)
{
	key(j, k);
	put(j, c);
	if (j->depth < JSON_MAX_DEPTH) {
		j->depth++;
		j->first[j->depth] = true;
	} else {
		j->overflow = true;
	}
}

static void close(struct json *j, char c)
{
	put(j, c);
	if (j->depth > 0)
		j->depth--;
}

void json_obj_begin(struct json *j, const char *k) { open(j, k, '{'); }
void json_obj_end(struct json *j) { close(j, '}'); }
void json_arr_begin(struct json *j, const char *k) { open(j, k, '['); }
void json_arr_end(struct json *j) { close(j, ']'); }

void json_str(struct json *j, const char *k, const char *val)
{
	key(j, k);
	if (!val)
		puts_raw(j, "null");
	else
		put_escaped(j, val, (size_t)-1);
}

void json_strn(struct json *j, const char *k, const char *val, size_t n)
{
	key(j, k);
	put_escaped(j, val, n);
}

void json_u64(struct json *j, const char *k, uint64_t val)
{
	char t[24];

	fmt_snprintf(t, sizeof(t), "%llu", (unsigned long long)val);
	key(j, k);
	puts_raw(j, t);
}

void json_i64(struct json *j, const char *k, int64_t val)
{
	char t[24];

	fmt_snprintf(t, sizeof(t), "%lld", (long long)val);
	key(j, k);
	puts_raw(j, t);
}

void json_bool(struct json *j, const char *k, bool val)
{
	key(j, k);
	puts_raw(j, val ? "true" : "false");
}

void json_null(struct json *j, const char *k)
{
	key(j, k);
	puts_raw(j, "null");
}

void json_u64_if(struct json *j, const char *k, bool have, uint64_t val)
{
	if (have)
		json_u64(j, k, val);
	else
		json_null(j, k);
}

void json_i64_if(struct json *j, const char *k, bool have, int64_t val)
{
	if (have)
		json_i64(j, k, val);
	else
		json_null(j, k);
}

void json_str_if(struct json *j, const char *k, const char *val)
{
	if (val && val[0])
		json_str(j, k, val);
	else
		json_null(j, k);
}

void json_bool_if(struct json *j, const char *k, int tri)
{
	if (tri >= 0)
		json_bool(j, k, tri > 0);
	else
		json_null(j, k);
}

void json_double_if(struct json *j, const char *k, double val, int decimals)
{
	if (val >= 0)
		json_double(j, k, val, decimals);
	else
		json_null(j, k);
}

void json_double(struct json *j, const char *k, double val, int decimals)
{
	char t[48];

	key(j, k);
	if (val != val || val > 1e18 || val < -1e18) {
		puts_raw(j, "null");
		return;
	}
	fmt_snprintf(t, sizeof(t), "%.*f", decimals, val);
	puts_raw(j, t);
}

void json_hex(struct json *j, const char *k, uint64_t val, int digits)
{
	char t[24];

	fmt_snprintf(t, sizeof(t), "\"0x%0*llx\"", digits, (unsigned long long)val);
	key(j, k);
	puts_raw(j, t);
}

void json_hexbytes(struct json *j, const char *k, const uint8_t *b, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	key(j, k);
	put(j, '"');
	for (i = 0; i < n; i++) {
		put(j, hex[b[i] >> 4]);
		put(j, hex[b[i] & 15]);
	}
	put(j, '"');
}

void json_raw(struct json *j, const char *k, const char *raw)
{
	key(j, k);
	puts_raw(j, raw);
}

/* An integer member as the uint64_t a json_u64/json_hex argument becomes:
 * a signed one sign-extended first, as C's conversion does. */
static uint64_t field_uint(const void *p, unsigned size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (uint64_t)*(const int8_t *)p : *(const uint8_t *)p;
	case 2:
		return is_signed ? (uint64_t)*(const int16_t *)p : *(const uint16_t *)p;
	case 4:
		return is_signed ? (uint64_t)*(const int32_t *)p : *(const uint32_t *)p;
	default:
		return *(const uint64_t *)p;
	}
}

void json_fields(struct json *j, const void *obj, const struct json_field *f, size_t n)
{
	const char *base = obj;
	size_t i;

	for (i = 0; i < n; i++, f++) {
		const void *p = base + f->offset;

		switch (f->kind) {
		case JSON_FIELD_UINT:
			json_u64(j, f->key, field_uint(p, f->size, f->is_signed));
			break;
		case JSON_FIELD_HEX:
			json_hex(j, f->key, field_uint(p, f->size, f->is_signed), f->arg);
			break;
		case JSON_FIELD_BOOL:
			json_bool(j, f->key, *(const bool *)p);
			break;
		case JSON_FIELD_STR:
			json_str(j, f->key, *(const char *const *)p);
			break;
		default:
			json_double(j, f->key, *(const double *)p, f->arg);
			break;
		}
	}
}

const char *json_result(const struct json *j)
{
	return j->cap ? j->buf : "";
}

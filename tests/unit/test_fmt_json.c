/*
 * test_fmt_json.c - the printf engine and the JSON builder.
 */
#include "tests/unit/check.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "lib/err.h"

static const char *f(const char *fmtstr, ...) __attribute__((format(printf, 1, 2)));
static const char *f(const char *fmtstr, ...)
{
	static char buf[128];
	va_list ap;

	va_start(ap, fmtstr);
	fmt_vsnprintf(buf, sizeof(buf), fmtstr, ap);
	va_end(ap);
	return buf;
}

TEST(fmt_integers)
{
	CHECK_STR(f("%d|%5d|%-5d|%05d", -42, 7, 7, -7), "-42|    7|7    |-0007");
	CHECK_STR(f("%u %llu", 4000000000u, 18446744073709551615ull),
		  "4000000000 18446744073709551615");
	CHECK_STR(f("%x %08X %#x", 0xbeefu, 0xa21041u, 1u), "beef 00A21041 %#x");
	CHECK_STR(f("%lld", -9223372036854775807ll - 1), "-9223372036854775808");
	CHECK_STR(f("[%s|%6s|%-6s|%.2s]", "ab", "ab", "ab", "abc"), "[ab|    ab|ab    |ab]");
	CHECK_STR(f("%c%%", 'x'), "x%");
	CHECK_STR(f("%zu", (size_t)12345), "12345");
}

TEST(fmt_float)
{
	CHECK_STR(f("%.2f", 3.14159), "3.14");
	CHECK_STR(f("%.3f", -0.0005), "-0.001");
	CHECK_STR(f("%.1f", 9.96), "10.0");
	CHECK_STR(f("%8.2f|%-8.1f|", 23.456, 1.0), "   23.46|1.0     |");
	CHECK_STR(f("%.0f", 2.5), "3");
	CHECK_STR(f("%f", 1.5), "1.500000");
}

TEST(fmt_truncation)
{
	char buf[6];
	int n = fmt_snprintf(buf, sizeof(buf), "%s", "hello world");

	CHECK_EQ_I(n, 11);
	CHECK_STR(buf, "hello");
}

TEST(json_builder)
{
	char buf[256];
	struct json j;
	uint8_t b[3] = { 0x02, 0x25, 0xff };

	json_init(&j, buf, sizeof(buf));
	json_obj_begin(&j, NULL);
	json_str(&j, "type", "board");
	json_u64(&j, "n", 18446744073709551615ull);
	json_i64(&j, "neg", -5);
	json_bool(&j, "emulated", true);
	json_hex(&j, "rev", 0xa21041, 8);
	json_double(&j, "mbs", 23.456, 2);
	json_hexbytes(&j, "scr", b, 3);
	json_arr_begin(&j, "w");
	json_u64(&j, NULL, 1);
	json_u64(&j, NULL, 4);
	json_arr_end(&j);
	json_str(&j, "esc", "a\"b\\c\n");
	json_obj_end(&j);
	CHECK(!j.overflow);
	CHECK_STR(json_result(&j),
		  "{\"type\":\"board\",\"n\":18446744073709551615,\"neg\":-5,"
		  "\"emulated\":true,\"rev\":\"0x00a21041\",\"mbs\":23.46,"
		  "\"scr\":\"0225ff\",\"w\":[1,4],\"esc\":\"a\\\"b\\\\c\\n\"}");
}

/* A value or null: the field is there either way. */
TEST(json_value_or_null)
{
	char buf[256];
	struct json j;

	json_init(&j, buf, sizeof(buf));
	json_obj_begin(&j, NULL);
	json_u64_if(&j, "a", true, 7);
	json_u64_if(&j, "b", false, 7);
	json_i64_if(&j, "c", true, -3);
	json_i64_if(&j, "d", false, -3);
	json_str_if(&j, "e", "x");
	json_str_if(&j, "f", "");
	json_str_if(&j, "g", NULL);
	json_bool_if(&j, "h", 1);
	json_bool_if(&j, "i", 0);
	json_bool_if(&j, "k", -1);
	json_double_if(&j, "l", 1.5, 1);
	json_double_if(&j, "m", 0, 1);
	json_double_if(&j, "n", -1, 1);
	json_obj_end(&j);
	CHECK(!j.overflow);
	CHECK_STR(json_result(&j),
		  "{\"a\":7,\"b\":null,\"c\":-3,\"d\":null,\"e\":\"x\",\"f\":null,"
		  "\"g\":null,\"h\":true,\"i\":false,\"k\":null,\"l\":1.5,\"m\":0.0,"
		  "\"n\":null}");
}

TEST(json_fields_table)
{
	struct rec {
		uint8_t u8;
		int8_t s8;
		uint16_t u16;
		int i32;
		uint32_t hex;
		uint64_t u64;
		bool flag;
		const char *name;
		double mbs;
	} r = { 200, -2, 65535, -7, 0xbeef, 18446744073709551615ull, true, "x", 23.456 };
	static const struct json_field t[] = {
		JSON_F_U64(struct rec, u8, "u8"),
		JSON_F_U64(struct rec, s8, "s8"),
		JSON_F_U64(struct rec, u16, "u16"),
		JSON_F_U64(struct rec, i32, "i32"),
		JSON_F_HEX(struct rec, hex, "hex", 8),
		JSON_F_U64(struct rec, u64, "u64"),
		JSON_F_BOOL(struct rec, flag, "flag"),
		JSON_F_STR(struct rec, name, "name"),
		JSON_F_DOUBLE(struct rec, mbs, "mbs", 2),
	};
	char buf[256];
	struct json j;

	json_init(&j, buf, sizeof(buf));
	json_obj_begin(&j, NULL);
	json_fields(&j, &r, t, JSON_FIELDS_N(t));
	json_obj_end(&j);
	CHECK(!j.overflow);
	/* What the calls json_u64(j, "s8", r.s8) etc. write: a signed member
	 * converted to uint64_t as a json_u64 argument is. */
	CHECK_STR(json_result(&j),
		  "{\"u8\":200,\"s8\":18446744073709551614,\"u16\":65535,"
		  "\"i32\":18446744073709551609,\"hex\":\"0x0000beef\","
		  "\"u64\":18446744073709551615,\"flag\":true,\"name\":\"x\",\"mbs\":23.46}");
}

TEST(json_overflow_is_flagged)
{
	char buf[8];
	struct json j;

	json_init(&j, buf, sizeof(buf));
	json_obj_begin(&j, NULL);
	json_str(&j, "type", "something long");
	json_obj_end(&j);
	CHECK(j.overflow);
	CHECK(strlen(buf) < sizeof(buf));
}

TEST(err_names)
{
	CHECK_STR(err_name(-ETIMEDOUT), "ETIMEDOUT");
	CHECK_STR(err_name(-ENOMEDIUM), "ENOMEDIUM");
	CHECK_STR(err_text(-EILSEQ), "CRC error");
	CHECK_STR(err_name(-9999), "E?");
}

TEST(fmt_size_styles)
{
	char b[32];

	/* exact: the largest unit in which the count is whole */
	CHECK_STR(fmt_size(b, sizeof(b), 0, FMT_SIZE_EXACT), "0 B");
	CHECK_STR(fmt_size(b, sizeof(b), 512, FMT_SIZE_EXACT), "512 B");
	CHECK_STR(fmt_size(b, sizeof(b), 1536, FMT_SIZE_EXACT), "1536 B");
	CHECK_STR(fmt_size(b, sizeof(b), 4096, FMT_SIZE_EXACT), "4 KiB");
	CHECK_STR(fmt_size(b, sizeof(b), 4736ull << 10, FMT_SIZE_EXACT), "4736 KiB");
	CHECK_STR(fmt_size(b, sizeof(b), 64ull << 20, FMT_SIZE_EXACT), "64 MiB");
	CHECK_STR(fmt_size(b, sizeof(b), 1ull << 30, FMT_SIZE_EXACT), "1 GiB");
	CHECK_STR(fmt_size(b, sizeof(b), 3ull << 40, FMT_SIZE_EXACT), "3 TiB");
	CHECK_STR(fmt_size(b, sizeof(b), 2048ull << 40, FMT_SIZE_EXACT), "2048 TiB");
	/* key: the same count, compact */
	CHECK_STR(fmt_size(b, sizeof(b), 512, FMT_SIZE_KEY), "512");
	CHECK_STR(fmt_size(b, sizeof(b), 4096, FMT_SIZE_KEY), "4k");
	CHECK_STR(fmt_size(b, sizeof(b), 4ull << 20, FMT_SIZE_KEY), "4m");
	CHECK_STR(fmt_size(b, sizeof(b), 3ull << 29, FMT_SIZE_KEY), "1536m");
	CHECK_STR(fmt_size(b, sizeof(b), 1ull << 30, FMT_SIZE_KEY), "1g");
	/* about: the largest unit not above, two decimals cut */
	CHECK_STR(fmt_size(b, sizeof(b), 1023, FMT_SIZE_ABOUT), "1023 B");
	CHECK_STR(fmt_size(b, sizeof(b), 1024, FMT_SIZE_ABOUT), "1 KiB");
	CHECK_STR(fmt_size(b, sizeof(b), 1536, FMT_SIZE_ABOUT), "1.50 KiB");
	CHECK_STR(fmt_size(b, sizeof(b), 4736ull << 10, FMT_SIZE_ABOUT), "4.62 MiB");
	CHECK_STR(fmt_size(b, sizeof(b), 7999586304ull, FMT_SIZE_ABOUT), "7.45 GiB");
	CHECK_STR(fmt_size(b, sizeof(b), (1ull << 30) - 1, FMT_SIZE_ABOUT), "1023.99 MiB");
	CHECK_STR(fmt_size(b, sizeof(b), 5ull << 50, FMT_SIZE_ABOUT), "5120 TiB");
	/* a short buffer is cut and terminated */
	CHECK_STR(fmt_size(b, 4, 4736ull << 10, FMT_SIZE_EXACT), "473");
}

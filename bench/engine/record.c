/*
 * record.c - "@ " JSON records and error accounting (see record.h).
 */
#include <stdarg.h>

#include "bench/engine/record.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"

static char rec_buf[RECORD_MAX_BYTES];
static struct json rec_json;
static char rec_type[32];
static unsigned rec_errors;

struct json *record_begin(const char *type)
{
	fmt_snprintf(rec_type, sizeof(rec_type), "%s", type);
	json_init(&rec_json, rec_buf, sizeof(rec_buf));
	json_obj_begin(&rec_json, NULL);
	json_str(&rec_json, "type", type);
	return &rec_json;
}

void record_end(void)
{
	while (rec_json.depth > 0) {
		if (rec_json.depth == 1)
			json_obj_end(&rec_json);
		else
			json_arr_end(&rec_json); /* callers close their own; defensive */
	}
	if (rec_json.overflow) {
		rec_errors++;
		con_printf("error: the '%s' record did not fit in %u bytes\n",
			   rec_type, (unsigned)sizeof(rec_buf));
		con_printf("@ {\"type\":\"error\",\"context\":\"record\","
			   "\"code\":\"ENOSPC\",\"message\":\"record '%s' too long\"}\n",
			   rec_type);
		return;
	}
	con_puts("@ ");
	con_puts(json_result(&rec_json));
	con_putc('\n');
}

static void error_v(const char *context, int code, int has_cmd, uint8_t cmd,
		    uint32_t arg, uint32_t status, const char *fmt, va_list ap)
{
	char msg[200];
	struct json *j;

	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	rec_errors++;
	if (has_cmd)
		con_printf("error [%s]: %s (%s, %s; CMD%u arg 0x%08x status 0x%08x)\n",
			   context, msg, err_name(code), err_text(code), cmd,
			   (unsigned)arg, (unsigned)status);
	else
		con_printf("error [%s]: %s (%s, %s)\n", context, msg,
			   err_name(code), err_text(code));
	j = record_begin("error");
	json_str(j, "context", context);
	json_str(j, "code", err_name(code));
	json_str(j, "message", msg);
	if (has_cmd) {
		json_u64(j, "cmd", cmd);
		json_hex(j, "arg", arg, 8);
		json_hex(j, "status", status, 8);
	}
	record_end();
}

void record_error(const char *context, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_v(context, code, 0, 0, 0, 0, fmt, ap);
	va_end(ap);
}

void record_error_cmd(const char *context, int code, uint8_t cmd, uint32_t arg,
		      uint32_t status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_v(context, code, 1, cmd, arg, status, fmt, ap);
	va_end(ap);
}

unsigned record_error_count(void)
{
	return rec_errors;
}

void record_reset_errors(void)
{
	rec_errors = 0;
}

void record_done(uint64_t elapsed_us)
{
	struct json *j;

	/* Sinks write out first, so a failure is counted in the record. */
	con_flush();
	j = record_begin("done");

	json_u64(j, "errors", rec_errors);
	json_u64(j, "elapsed_us", elapsed_us);
	record_end();
	/* The run's last line: every sink writes out what it holds. */
	con_flush();
}

/*
 * status_led.c - see status_led.h.
 *
 * The blink never touches a timed operation: the LED changes only in
 * status_led_tick(), which the engine calls between operations inside the
 * time it already excludes from the measurement (bench/engine/workload.c,
 * progress(): the toggle's cost, one GPIO write or one mailbox round
 * trip, lands in excluded_ns), and this file's console sink calls at the
 * end of a printed line (nothing is printed inside a timed operation).
 * So a long single operation (an erase, a stalled card) holds the LED
 * where it is until it ends.
 *
 * The outcome comes from the records the run prints (the sink reads them
 * like any host tool): a card record (a card was measured), the last
 * test_area record's "usable", a "stopped_by":"user" or "interrupted":true
 * (Ctrl-C), a config record's "fully_read":false (a line of sdbench.txt
 * not read: no writes); and the error count.
 */
#include <string.h>

#include "bench/engine/record.h"
#include "bench/status_led.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "lib/err.h"

#define LINE_MAX 256	/* what the sink reads of a line: a record's start */

static struct {
	struct led_line line;
	const char *label;
	bool enabled;		/* the "led" setting (on by default) */
	int hw;			/* 0 not tried, 1 driven, or the -errno of led_init */
	bool lit;
	uint64_t last_us;
	bool card, no_area, stopped, config_unread;
	int code;		/* 0 until status_led_report */
	char buf[LINE_MAX];
	unsigned len;
} st;

uint64_t status_led_next_us = UINT64_MAX;

static void sink_putc(void *ctx, char c);
static const struct con_sink sink = { .name = "led", .putc = sink_putc };

void status_led_start(const struct led_line *l, const char *label)
{
	memset(&st, 0, sizeof(st));
	status_led_next_us = UINT64_MAX;
	st.line = *l;
	st.label = label;
	st.enabled = true;
	(void)con_sink_add(&sink);
}

/* The next change: half a period after the last one, while it blinks. */
static void schedule(void)
{
	status_led_next_us = st.enabled && st.hw == 1 && !st.code ?
			     st.last_us + STATUS_BLINK_US : UINT64_MAX;
}

/* Make the line an output (once): 1, or the refusal. */
static int ensure_driven(void)
{
	if (!st.hw) {
		int r = st.line.kind == LED_NONE ? -ENODEV : led_init(&st.line);

		st.hw = r ? r : 1;
		st.lit = false;
		st.last_us = timer_now_us();
	}
	return st.hw;
}

void status_led_enable(bool on)
{
	if (!on && st.hw == 1 && st.lit)
		(void)led_set(&st.line, false);
	st.lit = false;
	st.enabled = on;
	if (on)
		(void)ensure_driven();
	schedule();
}

void status_led_tick(uint64_t now_us)
{
	if (!status_led_due(now_us))
		return;
	st.lit = !st.lit;
	st.last_us = now_us;
	if (led_set(&st.line, st.lit))
		st.hw = -EIO;
	schedule();
}

/* "key":value appears in the record (compact JSON, lib/json.c). */
static bool has(const char *rec, const char *kv)
{
	return strstr(rec, kv) != NULL;
}

static void on_record(const char *rec)
{
	if (has(rec, "\"type\":\"card\""))
		st.card = true;
	else if (has(rec, "\"type\":\"config\""))
		st.config_unread = has(rec, "\"fully_read\":false");
	else if (has(rec, "\"type\":\"test_area\""))
		st.no_area = !has(rec, "\"usable\":true");
	/* Ctrl-C: a sustained write's "stopped_by", the suite's "interrupted". */
	if (has(rec, "\"stopped_by\":\"user\"") || has(rec, "\"interrupted\":true"))
		st.stopped = true;
}

static void sink_putc(void *ctx, char c)
{
	(void)ctx;
	if (c != '\n') {
		if (st.len + 1 < LINE_MAX)
			st.buf[st.len++] = c;
		return;
	}
	st.buf[st.len] = 0;
	st.len = 0;
	if (strstr(st.buf, "@ {"))
		on_record(strstr(st.buf, "@ {") + 2);
	status_led_tick(timer_now_us());
}

static const char *const code_names[] = {
	[STATUS_PASS] = "pass", [STATUS_NO_AREA] = "no_test_area", [STATUS_ERRORS] = "errors",
	[STATUS_STOPPED] = "stopped", [STATUS_NO_CARD] = "no_card",
	[STATUS_CONFIG] = "config_unread",
};

static const char *const code_text[] = {
	[STATUS_PASS] = "passed", [STATUS_NO_AREA] = "no test area (reads only)",
	[STATUS_ERRORS] = "errors", [STATUS_STOPPED] = "stopped by the user",
	[STATUS_NO_CARD] = "no card measured",
	[STATUS_CONFIG] = "sdbench.txt not read whole: nothing written",
};

static enum status_code outcome(unsigned errors)
{
	if (!st.card)
		return STATUS_NO_CARD;
	if (st.stopped)
		return STATUS_STOPPED;
	if (errors)
		return STATUS_ERRORS;
	if (st.config_unread)
		return STATUS_CONFIG;
	return st.no_area ? STATUS_NO_AREA : STATUS_PASS;
}

static const char *why_not(void)
{
	if (!st.enabled)
		return "led = off";
	if (st.line.kind == LED_NONE)
		return "this board has no LED sdbench drives (docs/led.md)";
	if (st.line.kind == LED_FW_EXPANDER)
		return "the firmware did not set its GPIO expander line (mailbox tag 0x00038041)";
	return "the LED line could not be driven";
}

static void print_line(enum status_code code, bool driven)
{
	static const char *const where[] = {
		[LED_NONE] = "-", [LED_SOC_GPIO] = "GPIO",
		[LED_FW_EXPANDER] = "the firmware's expander line", [LED_STB_GPIO] = "AON GPIO",
	};

	if (driven)
		con_printf("\nstatus LED: %s on %s %u (lit when %s): %d flash%s, a pause, "
			   "repeated until power-off = %s\n", st.label, where[st.line.kind],
			   st.line.line, st.line.active_low ? "low" : "high", (int)code,
			   code == 1 ? "" : "es", code_text[code]);
	else
		con_printf("\nstatus LED: not used: %s%s%s\n", why_not(),
			   st.hw < 0 && st.enabled && st.line.kind != LED_NONE ? ": " : "",
			   st.hw < 0 && st.enabled && st.line.kind != LED_NONE ? err_name(st.hw) : "");
}

enum status_code status_led_report(unsigned errors)
{
	enum status_code code = outcome(errors);
	bool driven = st.enabled && ensure_driven() == 1;
	struct json *j;

	print_line(code, driven);
	j = record_begin("led");
	json_str(j, "led", st.label ? st.label : "none");
	json_str(j, "kind", led_kind_name(st.line.kind));
	if (st.line.kind != LED_NONE) {
		json_u64(j, "line", st.line.line);
		json_bool(j, "active_low", st.line.active_low);
	}
	json_bool(j, "driven", driven);
	if (!driven)
		json_str(j, "reason", why_not());
	json_str(j, "code", code_names[code]);
	json_u64(j, "flashes", (unsigned)code);
	record_end();
	st.code = driven ? (int)code : 0;
	status_led_next_us = UINT64_MAX;	/* the end code now, no blink */
	return code;
}

void status_led_crashed(void)
{
	if (!st.code && st.enabled && st.line.kind != LED_NONE && ensure_driven() == 1)
		st.code = STATUS_CRASH;
	status_led_next_us = UINT64_MAX;
}

bool status_led_show_end(void)
{
	int i;

	if (!st.code || st.hw != 1)
		return false;
	for (i = 0; i < st.code; i++) {
		(void)led_set(&st.line, true);
		timer_udelay(STATUS_FLASH_ON_US);
		(void)led_set(&st.line, false);
		timer_udelay(STATUS_FLASH_OFF_US);
	}
	timer_udelay(STATUS_PAUSE_US);
	return true;
}

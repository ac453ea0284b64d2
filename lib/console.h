/*
 * console.h - text output for people (and the "@ " records for programs).
 *
 * Every character goes to a short list of sinks (struct con_sink). The
 * first is always the console backend, console_backend_putc(): the PL011 UART on the target
 * (drivers/uart.c), stdout or a capture buffer on the host (lib/host/).
 * More sinks (the results file on the card, a screen) are added at run time
 * with con_sink_add(); they get the same characters, with "\n" as the line
 * end (the backend alone gets "\r\n"), and con_flush() asks each to write
 * out what it buffers (at the end of a workload, at the done record).
 *
 * Only bench/ and boot/ print. Drivers below bench report errors upwards.
 */
#ifndef SDB_LIB_CONSOLE_H
#define SDB_LIB_CONSOLE_H

#include <stdarg.h>
#include <stdbool.h>

void console_backend_putc(char c);

/* An output besides the backend. putc must not print (it is called while a
 * line is being printed); flush may print: what it prints reaches every
 * sink but the one being flushed. A progress line reaches a sink only
 * through progress (it is redrawn in place: a file does not want it): the
 * line's text each time it is drawn, NULL when it ends (something else is
 * printed). progress must not print either. */
struct con_sink {
	const char *name;
	void (*putc)(void *ctx, char c);
	void (*flush)(void *ctx); /* may be NULL */
	void *ctx;
	void (*progress)(void *ctx, const char *text); /* may be NULL */
};

/* The backend, SDBENCH.LOG, the screen and the status LED, and room. */
#define CON_MAX_SINKS 6
/* What a sink's progress callback gets of a progress line at most. */
#define CON_PROGRESS_MAX 160

/* Add a sink (kept by pointer: static storage). false when the list is full. */
bool con_sink_add(const struct con_sink *s);
/* Remove it again (no flush); nothing when it is not in the list. */
void con_sink_remove(const struct con_sink *s);
/* Each sink's flush, in the order they were added. */
void con_flush(void);

void con_putc(char c);
void con_puts(const char *s); /* no newline added */
void con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void con_vprintf(const char *fmt, va_list ap);
/* A progress line: drawn from the line's start, redrawn by the next call;
 * the next other output ends it first (see console.c). */
void con_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

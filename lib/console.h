/*
 * console.h - text output for people (and the "@ " records for programs).
 *
 * The firmware sends characters to the PL011 UART; host builds (tests, the
 * simulator, tools) send them to stdout or to a capture buffer. The backend is
 * one function, console_backend_putc(), provided by drivers/uart.c on the
 * target and by sim/ (host builds) on the host.
 *
 * Only bench/ and boot/ print. Drivers below bench report errors upwards.
 */
#ifndef SDB_LIB_CONSOLE_H
#define SDB_LIB_CONSOLE_H

#include <stdarg.h>

void console_backend_putc(char c);

void con_putc(char c);
void con_puts(const char *s); /* no newline added */
void con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void con_vprintf(const char *fmt, va_list ap);
/* A progress line: drawn from the line's start, redrawn by the next call;
 * the next other output ends it first (see console.c). */
void con_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

/*
 * fmt.h - a small, freestanding printf engine shared by the firmware and the
 * host builds, so both print numbers identically.
 *
 * Supported: %d %i %u %x %X %o %c %s %p %%, length modifiers l, ll, z,
 * flags '-', '0', '+', ' ', field width and precision (also '*'), and %f with
 * a precision (default 6). No %e/%g, no locale, no wide characters.
 */
#ifndef SDB_LIB_FMT_H
#define SDB_LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>

/* Like vsnprintf: always NUL-terminates when cap > 0, returns the length the
 * full output would have had. */
int fmt_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap);
int fmt_snprintf(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Streaming form: every produced character goes to out(c, ctx). */
typedef void (*fmt_out_fn)(char c, void *ctx);
int fmt_vformat(fmt_out_fn out, void *ctx, const char *fmt, va_list ap);

#endif

/*
 * fmt.h - a small, freestanding printf engine shared by the firmware and the
 * host builds, so both print numbers identically.
 *
 * Supported: %d %i %u %x %X %o %c %s %p %%, length modifiers l, ll, z,
 * flags '-', '0', '+', ' ', field width and precision (also '*'), and %f with
 * a precision (default 6). No %e/%g, no locale, no wide characters.
 *
 * Also the one formatter of byte counts (fmt_size), in binary units.
 */
#ifndef SDB_LIB_FMT_H
#define SDB_LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Like vsnprintf: always NUL-terminates when cap > 0, returns the length the
 * full output would have had. */
int fmt_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap);
int fmt_snprintf(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Append to buf (cap bytes) at *n, never past its end: *n stays below cap. */
void fmt_append(char *buf, size_t cap, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Streaming form: every produced character goes to out(c, ctx). */
typedef void (*fmt_out_fn)(char c, void *ctx);
int fmt_vformat(fmt_out_fn out, void *ctx, const char *fmt, va_list ap);

/* How fmt_size writes a byte count (binary units B, KiB, MiB, GiB, TiB). */
enum fmt_size_style {
	/* Exact: the largest unit in which the count is whole:
	 * "512 B", "4 KiB", "4736 KiB", "1 GiB". */
	FMT_SIZE_EXACT,
	/* For names and record keys, the exact count without space and with
	 * one lower-case letter: "512", "4k", "4736k", "1g". */
	FMT_SIZE_KEY,
	/* For people, about: the largest unit not above the count, with two
	 * decimals (cut, not rounded) when it is not whole there:
	 * "4 KiB", "4.62 MiB", "7.45 GiB". */
	FMT_SIZE_ABOUT,
};

/* bytes as text into buf (NUL-terminated when cap > 0); returns buf. */
const char *fmt_size(char *buf, size_t cap, uint64_t bytes, enum fmt_size_style style);

#endif

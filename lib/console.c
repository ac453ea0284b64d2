/*
 * console.c - formatted text output over the console backend.
 * "\n" becomes "\r\n" so serial terminals show clean lines.
 *
 * A progress line (con_progress) stays open, redrawn in place with '\r',
 * until something else is printed. Then it is ended first, so that every
 * other line - above all a "@ " record - starts on a line of its own: a
 * text that begins with '\r' (a result line written over the progress)
 * gets the progress line blanked first, anything else a line break.
 */
#include "lib/console.h"
#include "lib/fmt.h"

static unsigned progress_len;   /* characters of the open progress line; 0: none */

static void end_progress(char next)
{
	unsigned n = progress_len;

	progress_len = 0;
	if (next == '\r') {
		console_backend_putc('\r');
		while (n--)
			console_backend_putc(' ');
	} else if (next != '\n') {
		console_backend_putc('\r');
		console_backend_putc('\n');
	}
}

void con_putc(char c)
{
	if (progress_len)
		end_progress(c);
	if (c == '\n')
		console_backend_putc('\r');
	console_backend_putc(c);
}

void con_puts(const char *s)
{
	while (*s)
		con_putc(*s++);
}

static void con_out(char c, void *ctx)
{
	(void)ctx;
	con_putc(c);
}

void con_vprintf(const char *fmt, va_list ap)
{
	fmt_vformat(con_out, 0, fmt, ap);
}

void con_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	con_vprintf(fmt, ap);
	va_end(ap);
}

/* Progress text goes straight to the backend, counted (no line breaks in it). */
static void progress_out(char c, void *ctx)
{
	unsigned *n = ctx;

	if (c == '\n' || c == '\r')
		c = ' ';
	console_backend_putc(c);
	(*n)++;
}

void con_progress(const char *fmt, ...)
{
	unsigned prev = progress_len;
	unsigned n = 0;
	va_list ap;

	progress_len = 0;
	console_backend_putc('\r');
	va_start(ap, fmt);
	fmt_vformat(progress_out, &n, fmt, ap);
	va_end(ap);
	for (; n < prev; n++)   /* blank what a longer previous line left */
		console_backend_putc(' ');
	progress_len = n ? n : 1;
}

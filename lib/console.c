/*
 * console.c - formatted text output over the console backend.
 * "\n" becomes "\r\n" so serial terminals show clean lines.
 */
#include "lib/console.h"
#include "lib/fmt.h"

void con_putc(char c)
{
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

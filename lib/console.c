/*
 * console.c - formatted text output to the console backend and the added
 * sinks (console.h). "\n" becomes "\r\n" on the backend only, so serial
 * terminals show clean lines and files keep plain line ends.
 */
#include <stddef.h>

#include "lib/console.h"
#include "lib/fmt.h"

/* The backend: the UART on the target, stdout on the host. */
static void backend_putc(void *ctx, char c)
{
	(void)ctx;
	if (c == '\n')
		console_backend_putc('\r');
	console_backend_putc(c);
}

static const struct con_sink backend = { "console", backend_putc, NULL, NULL };
static const struct con_sink *sinks[CON_MAX_SINKS] = { &backend };
/* The sink being flushed: it gets no characters until its flush returns
 * (what a flush prints about itself must not go back into its buffer). */
static const struct con_sink *flushing;

bool con_sink_add(const struct con_sink *s)
{
	for (unsigned i = 0; i < CON_MAX_SINKS; i++)
		if (!sinks[i] || sinks[i] == s) {
			sinks[i] = s;
			return true;
		}
	return false;
}

void con_sink_remove(const struct con_sink *s)
{
	unsigned i, j;

	if (s == &backend)
		return;
	for (i = 0, j = 0; i < CON_MAX_SINKS; i++)
		if (sinks[i] != s)
			sinks[j++] = sinks[i];
	while (j < CON_MAX_SINKS)
		sinks[j++] = NULL;
}

void con_flush(void)
{
	for (unsigned i = 0; i < CON_MAX_SINKS && sinks[i]; i++) {
		const struct con_sink *s = sinks[i];

		if (!s->flush || flushing == s)
			continue;
		flushing = s;
		s->flush(s->ctx);
		flushing = NULL;
	}
}

void con_putc(char c)
{
	for (unsigned i = 0; i < CON_MAX_SINKS && sinks[i]; i++)
		if (sinks[i] != flushing)
			sinks[i]->putc(sinks[i]->ctx, c);
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

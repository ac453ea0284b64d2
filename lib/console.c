/*
 * console.c - formatted text output to the console backend and the added
 * sinks (console.h). "\n" becomes "\r\n" on the backend only, so serial
 * terminals show clean lines and files keep plain line ends.
 *
 * A progress line (con_progress) goes to the backend as text and to the
 * sinks that ask for it as a whole line (their progress callback); it stays
 * open, redrawn in place with '\r', until something else is printed. Then it is
 * ended first, so that every other line - above all a "@ " record - starts
 * on a line of its own: a text that begins with '\r' (a result line written
 * over the progress) gets the progress line blanked first, anything else a
 * line break.
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

static unsigned progress_len;   /* characters of the open progress line; 0: none */

static void sinks_progress(const char *text);

static void end_progress(char next)
{
	unsigned n = progress_len;

	progress_len = 0;
	sinks_progress(NULL);
	if (next == '\r') {
		console_backend_putc('\r');
		while (n--)
			console_backend_putc(' ');
	} else if (next != '\n') {
		console_backend_putc('\r');
		console_backend_putc('\n');
	}
}

static const struct con_sink backend = { .name = "console", .putc = backend_putc };
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
	if (progress_len)
		end_progress(c);
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

static void sinks_progress(const char *text)
{
	for (unsigned i = 0; i < CON_MAX_SINKS && sinks[i]; i++)
		if (sinks[i]->progress && sinks[i] != flushing)
			sinks[i]->progress(sinks[i]->ctx, text);
}

/* Progress text goes straight to the backend, counted (no line breaks in
 * it), and into the line the sinks get (cut at its size). */
struct progress_text {
	unsigned n;
	char line[CON_PROGRESS_MAX + 1];
};

static void progress_out(char c, void *ctx)
{
	struct progress_text *p = ctx;

	if (c == '\n' || c == '\r')
		c = ' ';
	console_backend_putc(c);
	if (p->n < CON_PROGRESS_MAX)
		p->line[p->n] = c;
	p->n++;
}

void con_progress(const char *fmt, ...)
{
	static struct progress_text p;
	unsigned prev = progress_len;
	va_list ap;

	progress_len = 0;
	p.n = 0;
	console_backend_putc('\r');
	va_start(ap, fmt);
	fmt_vformat(progress_out, &p, fmt, ap);
	va_end(ap);
	p.line[p.n < CON_PROGRESS_MAX ? p.n : CON_PROGRESS_MAX] = 0;
	for (unsigned n = p.n; n < prev; n++)   /* blank what a longer previous line left */
		console_backend_putc(' ');
	progress_len = p.n ? p.n : 1;
	sinks_progress(p.line);
}

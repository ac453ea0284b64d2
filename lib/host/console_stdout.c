/*
 * console_stdout.c - the console backend of host builds (tools, tests, the
 * simulator): characters go to stdout, or to a hook a test installs to
 * capture the output (records included).
 *
 * stdout gets what the serial line gets, with "\r\n" written as "\n" (a
 * text file with Unix line ends); a '\r' on its own - a progress line
 * redrawn in place - is kept, so a terminal shows it as a Pi's console does.
 */
#include <stdio.h>

#include "lib/console.h"
#include "lib/host/host_console.h"

void (*host_console_hook)(char c);

static int cr_pending;

void console_backend_putc(char c)
{
	if (host_console_hook) {
		host_console_hook(c);
		return;
	}
	if (cr_pending && c != '\n')
		putchar('\r');
	cr_pending = c == '\r';
	if (!cr_pending)
		putchar(c);
}

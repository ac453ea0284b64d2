/*
 * console_stdout.c - the console backend of host builds (tools, tests, the
 * simulator): characters go to stdout, or to a hook a test installs to
 * capture the output (records included).
 */
#include <stdio.h>

#include "lib/console.h"
#include "lib/host/host_console.h"

void (*host_console_hook)(char c);

void console_backend_putc(char c)
{
	if (host_console_hook) {
		host_console_hook(c);
		return;
	}
	if (c != '\r')
		putchar(c);
}

/*
 * test_con_sinks.c - the console's list of outputs (lib/console.h): the
 * backend gets exactly what it got before sinks existed ("\r\n" line ends),
 * every added sink the same characters with "\n", flush reaches each sink
 * once, and what a sink's flush prints does not come back into it; a
 * progress line reaches a sink as whole lines through its progress
 * callback, and its end as NULL, never as characters.
 */
#include <string.h>

#include "lib/console.h"
#include "lib/host/host_console.h"
#include "tests/unit/check.h"

static char backend[256], side[256];
static unsigned nb, ns, flushes;

static void to_backend(char c)
{
	if (nb + 1 < sizeof(backend))
		backend[nb++] = c;
	backend[nb] = 0;
}

static void side_putc(void *ctx, char c)
{
	(void)ctx;
	if (ns + 1 < sizeof(side))
		side[ns++] = c;
	side[ns] = 0;
}

static void side_flush(void *ctx)
{
	(void)ctx;
	flushes++;
	con_printf("flushed\n");	/* reaches the backend, not this sink */
}

static const struct con_sink sink = { .name = "test", .putc = side_putc, .flush = side_flush };

TEST(sinks_get_the_backends_characters)
{
	nb = ns = flushes = 0;
	host_console_hook = to_backend;
	con_printf("a %d\n", 1);
	CHECK(con_sink_add(&sink));
	CHECK(con_sink_add(&sink));	/* once only */
	con_printf("b %s\n", "x");
	con_flush();
	con_sink_remove(&sink);
	con_printf("c\n");
	con_flush();
	host_console_hook = NULL;
	CHECK(strcmp(backend, "a 1\r\nb x\r\nflushed\r\nc\r\n") == 0);
	CHECK(strcmp(side, "b x\n") == 0);
	CHECK_EQ_U(flushes, 1);
}

TEST(the_list_is_bounded)
{
	static const struct con_sink s[CON_MAX_SINKS + 1] = {
		{ .name = "0", .putc = side_putc }, { .name = "1", .putc = side_putc },
		{ .name = "2", .putc = side_putc }, { .name = "3", .putc = side_putc },
		{ .name = "4", .putc = side_putc },
	};
	unsigned added = 0;

	for (unsigned i = 0; i <= CON_MAX_SINKS; i++)
		added += con_sink_add(&s[i]);
	CHECK_EQ_U(added, CON_MAX_SINKS - 1);	/* the backend holds one place */
	for (unsigned i = 0; i <= CON_MAX_SINKS; i++)
		con_sink_remove(&s[i]);
	CHECK(con_sink_add(&sink));
	con_sink_remove(&sink);
}

static char prog[512];

static void side_progress(void *ctx, const char *text)
{
	(void)ctx;
	strcat(prog, text ? text : "<end>");
	strcat(prog, "|");
}

TEST(progress_lines_reach_sinks_as_lines)
{
	static const struct con_sink ps = { .name = "p", .putc = side_putc,
					    .progress = side_progress };

	nb = ns = 0;
	prog[0] = 0;
	host_console_hook = to_backend;
	CHECK(con_sink_add(&ps));
	con_progress("  step %3u%%", 5u);
	con_progress("  step %3u%% about %u s left", 50u, 3u);
	con_progress("  step");
	con_printf("\rresult\n");
	con_printf("after\n");
	con_sink_remove(&ps);
	host_console_hook = NULL;
	/* The backend as before: CR, text, blanks over a longer line. */
	CHECK(strcmp(backend, "\r  step   5%\r  step  50% about 3 s left"
			      "\r  step" "                    " "\r" "      "
			      "\rresult\r\nafter\r\n") == 0);
	CHECK(strcmp(side, "\rresult\nafter\n") == 0);
	CHECK(strcmp(prog, "  step   5%|  step  50% about 3 s left|  step|<end>|") == 0);
}

/*
 * parse.h - the interactive console's pure part (parse.c): line editing,
 * splitting a line into words, the command and workload tables, and the
 * checking of "run" and "set" arguments against the sdbench.txt keys. No
 * I/O, no clock, no card: unit-tested on the host (tests/unit/test_console.c).
 * console.c does the I/O.
 */
#ifndef SDB_BENCH_CONSOLE_PARSE_H
#define SDB_BENCH_CONSOLE_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/storage/config.h"

#define CON_LINE_MAX	160	/* characters of one command line */
#define CON_MAX_ARGS	16	/* words of one command line */
#define CON_KEY_CTRL_C	0x03

/* ---- line editing --------------------------------------------------- */

struct con_line {
	char buf[CON_LINE_MAX + 1];
	unsigned len;
	bool after_cr;		/* a LF right after CR is the same Enter */
	bool overflow;		/* more than CON_LINE_MAX characters came */
	unsigned char esc;	/* inside an escape sequence (arrow keys): 1 ESC, 2 CSI */
};

enum con_edit {
	CON_EDIT_MORE,		/* keep feeding */
	CON_EDIT_DONE,		/* Enter: buf holds the line */
	CON_EDIT_CANCEL,	/* Ctrl-C: the line is dropped */
	CON_EDIT_TOOLONG,	/* Enter after an over-long line: refused, never cut */
};

void con_line_reset(struct con_line *l);
/* Feed one received byte. echo (at least 8 bytes) gets what to send back,
 * NUL-terminated: the character, "\b \b" for a backspace, "\n" at the end
 * of the line, "^C\n" for Ctrl-C, "\a" when the line is full (the whole
 * line is then refused at Enter: CON_EDIT_TOOLONG). */
enum con_edit con_line_feed(struct con_line *l, int ch, char *echo);

/* Split line (modified in place) into words at spaces and tabs. Returns
 * the number of words, or -1 when there are more than max. */
int con_split(char *line, char **argv, int max);

/* ---- commands ------------------------------------------------------- */

enum con_cmd {
	CON_CMD_HELP, CON_CMD_INFO, CON_CMD_LIST, CON_CMD_RUN, CON_CMD_SUITE,
	CON_CMD_SWEEP, CON_CMD_SET, CON_CMD_SHOW, CON_CMD_AREA, CON_CMD_HOSTS,
	CON_CMD_HALT, CON_NCMDS
};

struct con_cmd_desc {
	const char *name;
	const char *args;	/* usage after the name, "" when none */
	const char *help;
	int min_args, max_args;	/* words after the name */
};

extern const struct con_cmd_desc con_cmds[CON_NCMDS];

/* The command of a word (case-insensitive), -1 when unknown. */
int con_find_cmd(const char *word);

/* ---- workloads ------------------------------------------------------ */

/* The workloads are bench/workloads/table.c's: "run" offers every one not
 * marked suite_only. The index in wl_table of the one called word
 * (case-insensitive), -1 when there is none. */
int con_find_wl(const char *word);
/* "a|b|c" of every command or workload name into buf. */
void con_cmd_names(char *buf, size_t cap);
void con_wl_names(char *buf, size_t cap);

/* ---- arguments ------------------------------------------------------ */

/* What "run" and "suite" run: the workload (its index in wl_table, or -1:
 * the whole suite), the
 * profile, and the configuration with the line's key=value overrides. */
struct con_run {
	int wl;
	bool quick;
	struct config cfg;
};

/* Check "run WORKLOAD [key=value ...]" (argv[0] is "run"): the workload, each
 * key one the workload takes ("profile" = quick|full, or an sdbench.txt key
 * with the file's validation). base is the effective configuration,
 * quick_default the profile when none is given. 0, or -1 with a message for
 * the user in err. */
int con_parse_run(int argc, char **argv, const struct config *base, bool quick_default,
		  struct con_run *out, char *err, size_t cap);

/* Check "suite [quick|full]". */
int con_parse_suite(int argc, char **argv, const struct config *base, bool quick_default,
		    struct con_run *out, char *err, size_t cap);

/* "set key=value [key=value ...]" on cfg: all or nothing. 0, or -1 with a
 * message in err (cfg unchanged). *changed gets a bit per key id set. */
int con_parse_set(int argc, char **argv, struct config *cfg, unsigned *changed,
		  char *err, size_t cap);

#endif

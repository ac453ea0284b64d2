/*
 * test_console.c - the console's pure part (bench/console/parse.c): line
 * editing, words, command and workload lookup, and the checking of "run",
 * "suite" and "set" against the sdbench.txt keys.
 */
#include <string.h>

#include "tests/unit/check.h"
#include "bench/console/parse.h"
#include "bench/storage/config.h"
#include "bench/workloads/table.h"

/* Feed a whole string; the last edit result, all echo concatenated. */
static enum con_edit feed(struct con_line *l, const char *s, size_t n, char *echo_all)
{
	enum con_edit e = CON_EDIT_MORE;

	echo_all[0] = 0;
	for (size_t i = 0; i < n; i++) {
		char echo[8];

		e = con_line_feed(l, (unsigned char)s[i], echo);
		strcat(echo_all, echo);
		if (e != CON_EDIT_MORE)
			break;
	}
	return e;
}

TEST(line_typing_and_enter)
{
	struct con_line l;
	char echo[256];

	memset(&l, 0, sizeof(l));
	con_line_reset(&l);
	CHECK_EQ_I(feed(&l, "help\r", 5, echo), CON_EDIT_DONE);
	CHECK_STR(l.buf, "help");
	CHECK_STR(echo, "help\n");
}

TEST(line_backspace_both_codes)
{
	struct con_line l;
	char echo[256];

	memset(&l, 0, sizeof(l));
	con_line_reset(&l);
	CHECK_EQ_I(feed(&l, "hx\x7f" "el\bl\x08" "lp\n", 11, echo), CON_EDIT_DONE);
	CHECK_STR(l.buf, "help");
	CHECK(strstr(echo, "\b \b") != NULL);
	/* backspace on an empty line echoes nothing */
	con_line_reset(&l);
	CHECK_EQ_I(feed(&l, "\x7f", 1, echo), CON_EDIT_MORE);
	CHECK_STR(echo, "");
	CHECK_EQ_U(l.len, 0);
}

TEST(line_crlf_is_one_enter)
{
	struct con_line l;
	char echo[256];

	memset(&l, 0, sizeof(l));
	con_line_reset(&l);
	CHECK_EQ_I(feed(&l, "a\r", 2, echo), CON_EDIT_DONE);
	con_line_reset(&l);
	/* the LF of CR LF does not end an empty line */
	CHECK_EQ_I(feed(&l, "\nb\n", 3, echo), CON_EDIT_DONE);
	CHECK_STR(l.buf, "b");
}

TEST(line_ctrl_c_cancels)
{
	struct con_line l;
	char echo[256];

	memset(&l, 0, sizeof(l));
	con_line_reset(&l);
	CHECK_EQ_I(feed(&l, "run se\x03", 7, echo), CON_EDIT_CANCEL);
	CHECK_EQ_U(l.len, 0);
	CHECK(strstr(echo, "^C\n") != NULL);
}

TEST(line_escape_sequences_and_controls_ignored)
{
	struct con_line l;
	char echo[256];

	memset(&l, 0, sizeof(l));
	con_line_reset(&l);
	/* up arrow, left arrow, a NUL, a bell, a byte above ASCII */
	CHECK_EQ_I(feed(&l, "sh\x1b[A\x1b[D\x00\x07\xff" "ow\r", 14, echo), CON_EDIT_DONE);
	CHECK_STR(l.buf, "show");
	/* a tab is a space */
	con_line_reset(&l);
	CHECK_EQ_I(feed(&l, "run\tau\r", 7, echo), CON_EDIT_DONE);
	CHECK_STR(l.buf, "run au");
}

TEST(line_full_rings_the_bell)
{
	struct con_line l;
	char echo[8];

	memset(&l, 0, sizeof(l));
	con_line_reset(&l);
	for (int i = 0; i < CON_LINE_MAX; i++)
		CHECK_EQ_I(con_line_feed(&l, 'x', echo), CON_EDIT_MORE);
	CHECK_EQ_I(con_line_feed(&l, 'y', echo), CON_EDIT_MORE);
	CHECK_STR(echo, "\a");
	CHECK_EQ_U(l.len, CON_LINE_MAX);
	/* Refused whole at Enter, never cut and run. */
	CHECK_EQ_I(con_line_feed(&l, '\r', echo), CON_EDIT_TOOLONG);
	CHECK_STR(echo, "\n");
	/* The next line is a line again. */
	con_line_reset(&l);
	CHECK_EQ_I(con_line_feed(&l, '\n', echo), CON_EDIT_MORE);	/* LF of the CR LF */
	CHECK_EQ_I(con_line_feed(&l, 'h', echo), CON_EDIT_MORE);
	CHECK_EQ_I(con_line_feed(&l, '\r', echo), CON_EDIT_DONE);
	CHECK_STR(l.buf, "h");
	/* Ctrl-C forgets the overflow with the line. */
	con_line_reset(&l);
	for (int i = 0; i <= CON_LINE_MAX; i++)
		(void)con_line_feed(&l, 'x', echo);
	CHECK_EQ_I(con_line_feed(&l, 3, echo), CON_EDIT_CANCEL);
	CHECK_EQ_I(con_line_feed(&l, 'a', echo), CON_EDIT_MORE);
	CHECK_EQ_I(con_line_feed(&l, '\r', echo), CON_EDIT_DONE);
}

TEST(split_words)
{
	char line[] = "  run  seq-read\tseed=4 ";
	char *argv[4];

	CHECK_EQ_I(con_split(line, argv, 4), 3);
	CHECK_STR(argv[0], "run");
	CHECK_STR(argv[1], "seq-read");
	CHECK_STR(argv[2], "seed=4");
	{
		char l2[] = "a b c d e";

		CHECK_EQ_I(con_split(l2, argv, 4), -1);
	}
	{
		char l3[] = "   ";

		CHECK_EQ_I(con_split(l3, argv, 4), 0);
	}
}

TEST(commands_and_workloads_found_case_insensitively)
{
	CHECK_EQ_I(con_find_cmd("HELP"), CON_CMD_HELP);
	CHECK_EQ_I(con_find_cmd("?"), CON_CMD_HELP);
	CHECK_EQ_I(con_find_cmd("halt"), CON_CMD_HALT);
	CHECK_EQ_I(con_find_cmd("hal"), -1);
	CHECK_EQ_I(con_find_cmd("halts"), -1);
	CHECK(!strcmp(wl_table[con_find_wl("Seq-Read")].name, "seq-read"));
	CHECK(!strcmp(wl_table[con_find_wl("open-au")].name, "open-au"));
	CHECK_EQ_I(con_find_wl("seq"), -1);
	CHECK_EQ_I(con_find_wl("modes"), -1); /* the suite's only */
	for (int i = 0; i < CON_NCMDS; i++)
		CHECK_EQ_I(con_find_cmd(con_cmds[i].name), i);
	for (unsigned i = 0; i < wl_table_count; i++)
		if (!wl_table[i].suite_only)
			CHECK_EQ_I(con_find_wl(wl_table[i].name), (int)i);
}

/* Every key a workload lists is "profile" or an sdbench.txt key. */
TEST(workload_keys_exist)
{
	for (unsigned i = 0; i < wl_table_count; i++) {
		char keys[128], *argv[16];
		int n;

		strcpy(keys, wl_table[i].keys);
		n = con_split(keys, argv, 16);
		CHECK(n > 0);
		for (int k = 0; k < n; k++)
			CHECK(!strcmp(argv[k], "profile") || config_find_key(argv[k]) >= 0);
	}
}

/* Every row names a suite, and only the suites there are. */
TEST(workload_suites_named)
{
	for (unsigned i = 0; i < wl_table_count; i++) {
		CHECK(wl_table[i].suites != 0);
		CHECK(!(wl_table[i].suites & ~(unsigned)WL_SUITE_BOTH));
	}
	CHECK_EQ_I(wl_suite_bit(true), WL_SUITE_QUICK);
	CHECK_EQ_I(wl_suite_bit(false), WL_SUITE_FULL);
}

TEST(run_parses_workload_profile_and_keys)
{
	static struct config base;
	static struct con_run r;
	char a0[] = "run", a1[] = "random", a2[] = "span=1M", a3[] = "profile=full",
	     a4[] = "SEED=0x10";
	char *argv[] = { a0, a1, a2, a3, a4 };
	char err[320];

	config_init(&base);
	CHECK_EQ_I(con_parse_run(5, argv, &base, true, &r, err, sizeof(err)), 0);
	CHECK(!strcmp(wl_table[r.wl].name, "random"));
	CHECK(!r.quick);
	CHECK_EQ_U(config_u64(&r.cfg, CFG_SPAN), 1u << 20);
	CHECK_EQ_U(config_u64(&r.cfg, CFG_SEED), 16);
	/* the base configuration is not changed by a run's keys */
	CHECK_EQ_U(config_u64(&base, CFG_SPAN), 256u << 20);
	CHECK(!config_has(&base, CFG_SEED));
}

TEST(run_refuses_with_the_valid_choices)
{
	static struct config base;
	static struct con_run r;
	char err[320];

	config_init(&base);
	{
		char a0[] = "run";
		char *argv[] = { a0 };

		CHECK_EQ_I(con_parse_run(1, argv, &base, true, &r, err, sizeof(err)), -1);
		CHECK(strstr(err, "seq-read") && strstr(err, "sustained"));
	}
	{
		char a0[] = "run", a1[] = "turbo";
		char *argv[] = { a0, a1 };

		CHECK_EQ_I(con_parse_run(2, argv, &base, true, &r, err, sizeof(err)), -1);
		CHECK(strstr(err, "unknown workload \"turbo\"") && strstr(err, "open-au"));
	}
	{	/* a key this workload does not take: its keys are listed */
		char a0[] = "run", a1[] = "seq-read", a2[] = "span=1M";
		char *argv[] = { a0, a1, a2 };

		CHECK_EQ_I(con_parse_run(3, argv, &base, true, &r, err, sizeof(err)), -1);
		CHECK(strstr(err, "no key \"span\"") && strstr(err, "profile seed"));
	}
	{	/* the file's validation and its wording */
		char a0[] = "run", a1[] = "random", a2[] = "span=12x";
		char *argv[] = { a0, a1, a2 };

		CHECK_EQ_I(con_parse_run(3, argv, &base, true, &r, err, sizeof(err)), -1);
		CHECK(strstr(err, "span = 12x: not a size") != NULL);
	}
	{
		char a0[] = "run", a1[] = "au", a2[] = "profile=fast";
		char *argv[] = { a0, a1, a2 };

		CHECK_EQ_I(con_parse_run(3, argv, &base, true, &r, err, sizeof(err)), -1);
		CHECK(strstr(err, "quick|full") != NULL);
	}
	{
		char a0[] = "run", a1[] = "au", a2[] = "seed";
		char *argv[] = { a0, a1, a2 };

		CHECK_EQ_I(con_parse_run(3, argv, &base, true, &r, err, sizeof(err)), -1);
		CHECK(strstr(err, "expected key=value") != NULL);
	}
}

TEST(suite_profile)
{
	static struct config base;
	static struct con_run r;
	char err[320];
	char a0[] = "suite", a1[] = "full", b1[] = "slow";
	char *argv[] = { a0, a1 }, *bad[] = { a0, b1 };

	config_init(&base);
	CHECK_EQ_I(con_parse_suite(1, argv, &base, true, &r, err, sizeof(err)), 0);
	CHECK(r.quick);
	CHECK_EQ_I(r.wl, -1);
	CHECK_EQ_I(con_parse_suite(2, argv, &base, true, &r, err, sizeof(err)), 0);
	CHECK(!r.quick);
	CHECK_EQ_I(con_parse_suite(2, bad, &base, true, &r, err, sizeof(err)), -1);
	CHECK(strstr(err, "quick|full") != NULL);
}

TEST(set_is_all_or_nothing_with_the_file_rules)
{
	static struct config cfg;
	char err[320];
	unsigned changed;

	config_init(&cfg);
	{
		char a0[] = "set", a1[] = "span=1M", a2[] = "end=console";
		char *argv[] = { a0, a1, a2 };

		CHECK_EQ_I(con_parse_set(3, argv, &cfg, &changed, err, sizeof(err)), 0);
		CHECK_EQ_U(config_u64(&cfg, CFG_SPAN), 1u << 20);
		CHECK_STR(config_enum_name(&cfg, CFG_END), "console");
		CHECK_EQ_U(changed, (1u << CFG_SPAN) | (1u << CFG_END));
		CHECK(cfg.v[CFG_SPAN].from_console);
	}
	{	/* the second is bad: the first is not applied either */
		char a0[] = "set", a1[] = "span=2M", a2[] = "suite=fast";
		char *argv[] = { a0, a1, a2 };

		CHECK_EQ_I(con_parse_set(3, argv, &cfg, &changed, err, sizeof(err)), -1);
		CHECK(strstr(err, "suite = fast: not one of quick|full|selftest|hostcost|none") != NULL);
		CHECK_EQ_U(config_u64(&cfg, CFG_SPAN), 1u << 20);
	}
	{
		char a0[] = "set", a1[] = "colour=red";
		char *argv[] = { a0, a1 };

		CHECK_EQ_I(con_parse_set(2, argv, &cfg, &changed, err, sizeof(err)), -1);
		CHECK(strstr(err, "unknown key \"colour\"") && strstr(err, "write_tests"));
	}
	{	/* the limits of the table */
		char a0[] = "set", a1[] = "span=1k";
		char *argv[] = { a0, a1 };

		CHECK_EQ_I(con_parse_set(2, argv, &cfg, &changed, err, sizeof(err)), -1);
		CHECK(strstr(err, "out of range") != NULL);
	}
	{
		char a0[] = "set";
		char *argv[] = { a0 };

		CHECK_EQ_I(con_parse_set(1, argv, &cfg, &changed, err, sizeof(err)), -1);
	}
}

/* A console line as the console splits it (con_split), then "set". */
static int set_line(const char *text, struct config *cfg, unsigned *changed, char *err,
		    size_t cap)
{
	static char line[CON_LINE_MAX + 1];
	char *argv[CON_MAX_ARGS];
	int argc;

	strcpy(line, text);
	argc = con_split(line, argv, CON_MAX_ARGS);
	return con_parse_set(argc, argv, cfg, changed, err, cap);
}

TEST(set_takes_the_files_key_equals_value_with_spaces)
{
	static struct config cfg;
	static struct con_run r;
	char err[320];
	unsigned changed;

	config_init(&cfg);
	CHECK_EQ_I(set_line("set span = 64M", &cfg, &changed, err, sizeof(err)), 0);
	CHECK_EQ_U(config_u64(&cfg, CFG_SPAN), 64u << 20);
	CHECK_EQ_I(set_line("set span= 32M  seed =7 end = console", &cfg, &changed, err,
			    sizeof(err)), 0);
	CHECK_EQ_U(config_u64(&cfg, CFG_SPAN), 32u << 20);
	CHECK_EQ_U(config_u64(&cfg, CFG_SEED), 7);
	CHECK_STR(config_enum_name(&cfg, CFG_END), "console");
	CHECK_EQ_U(changed, (1u << CFG_SPAN) | (1u << CFG_SEED) | (1u << CFG_END));
	/* a value still has to be there, and be right */
	CHECK_EQ_I(set_line("set span =", &cfg, &changed, err, sizeof(err)), -1);
	CHECK(strstr(err, "expected key=value") != NULL);
	CHECK_EQ_I(set_line("set span = 12x", &cfg, &changed, err, sizeof(err)), -1);
	CHECK(strstr(err, "span = 12x: not a size") != NULL);
	CHECK_EQ_I(set_line("set = 5", &cfg, &changed, err, sizeof(err)), -1);
	CHECK_EQ_U(config_u64(&cfg, CFG_SPAN), 32u << 20);
	{	/* run's keys too */
		static char line[64];
		char *argv[CON_MAX_ARGS];
		int argc;

		strcpy(line, "run random span = 1M seed= 3");
		argc = con_split(line, argv, CON_MAX_ARGS);
		CHECK_EQ_I(con_parse_run(argc, argv, &cfg, true, &r, err, sizeof(err)), 0);
		CHECK_EQ_U(config_u64(&r.cfg, CFG_SPAN), 1u << 20);
		CHECK_EQ_U(config_u64(&r.cfg, CFG_SEED), 3);
	}
}

TEST(unknown_key_lists_every_key)
{
	static struct config cfg;
	char err[320];
	unsigned changed;

	config_init(&cfg);
	CHECK_EQ_I(set_line("set colour=red", &cfg, &changed, err, sizeof(err)), -1);
	for (int i = 0; i < CFG_NKEYS; i++)
		CHECK(strstr(err, config_key_name((enum config_id)i)) != NULL);
	CHECK(strstr(err, ", led") != NULL);
}

TEST(end_key_default_and_choices)
{
	static struct config cfg;
	const char txt[] = "end = repeat\n";

	config_init(&cfg);
	CHECK_STR(config_enum_name(&cfg, CFG_END), "halt");
	CHECK_EQ_U(config_parse(&cfg, txt, sizeof(txt) - 1), 0);
	CHECK_STR(config_enum_name(&cfg, CFG_END), "repeat");
	CHECK(config_from_file(&cfg, CFG_END));
}

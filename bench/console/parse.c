/*
 * parse.c - the console's pure part (see parse.h): line editing, words,
 * the command and workload tables, checking "run", "suite" and "set".
 */
#include <string.h>

#include "bench/console/parse.h"
#include "bench/workloads/table.h"
#include "lib/fmt.h"

const struct con_cmd_desc con_cmds[CON_NCMDS] = {
	[CON_CMD_HELP] = { "help", "", "this list", 0, 0 },
	[CON_CMD_INFO] = { "info", "", "the board and card report", 0, 0 },
	[CON_CMD_LIST] = { "list", "", "the workloads and the keys each takes", 0, 0 },
	[CON_CMD_RUN] = { "run", "WORKLOAD [key=value ...]", "run one workload (see list)",
			  1, CON_MAX_ARGS - 2 },
	[CON_CMD_SUITE] = { "suite", "[quick|full]", "the whole benchmark suite", 0, 1 },
	[CON_CMD_SWEEP] = { "sweep", "", "the clock and bus-width sweep (run sweep)", 0, 0 },
	[CON_CMD_SET] = { "set", "key=value ...", "change a setting (the keys of sdbench.txt)",
			  1, CON_MAX_ARGS - 2 },
	[CON_CMD_SHOW] = { "show", "", "the effective configuration and where each value is from",
			   0, 0 },
	[CON_CMD_AREA] = { "area", "", "the test area (where writes may go) and why", 0, 0 },
	[CON_CMD_HOSTS] = { "hosts", "", "the host controller configurations of this board",
			    0, 0 },
	[CON_CMD_HALT] = { "halt", "", "end the run (the done record)", 0, 0 },
};

static char lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static bool ieq(const char *a, const char *b)
{
	while (*a && lower(*a) == lower(*b)) {
		a++;
		b++;
	}
	return *a == 0 && *b == 0;
}

/* ---- line editing --------------------------------------------------- */

static void put(char *dst, const char *s)
{
	while ((*dst++ = *s++) != 0)
		;
}

void con_line_reset(struct con_line *l)
{
	l->len = 0;
	l->buf[0] = 0;
	l->esc = 0;
	l->overflow = false;
	/* after_cr is kept: a CR LF pair spans two lines' resets */
}

enum con_edit con_line_feed(struct con_line *l, int ch, char *echo)
{
	bool after_cr = l->after_cr;

	echo[0] = 0;
	l->after_cr = false;
	if (ch < 0)
		return CON_EDIT_MORE;
	if (l->esc) {
		/* ESC [ params final: swallow (arrow keys, function keys) */
		if (l->esc == 1)
			l->esc = ch == '[' || ch == 'O' ? 2 : 0;
		else if (ch >= 0x40 && ch <= 0x7e)
			l->esc = 0;
		return CON_EDIT_MORE;
	}
	switch (ch) {
	case '\r':
		l->after_cr = true;
		/* fall through */
	case '\n':
		if (ch == '\n' && after_cr)
			return CON_EDIT_MORE;
		l->buf[l->len] = 0;
		put(echo, "\n");
		return l->overflow ? CON_EDIT_TOOLONG : CON_EDIT_DONE;
	case CON_KEY_CTRL_C:
		l->len = 0;
		l->buf[0] = 0;
		l->overflow = false;
		put(echo, "^C\n");
		return CON_EDIT_CANCEL;
	case 0x08:
	case 0x7f:
		if (l->len) {
			l->buf[--l->len] = 0;
			put(echo, "\b \b");
		}
		return CON_EDIT_MORE;
	case 0x1b:
		l->esc = 1;
		return CON_EDIT_MORE;
	case '\t':
		ch = ' ';
		break;
	default:
		break;
	}
	if (ch < 0x20 || ch > 0x7e)
		return CON_EDIT_MORE;	/* other control bytes, non-ASCII */
	if (l->len >= CON_LINE_MAX) {
		l->overflow = true;
		put(echo, "\a");
		return CON_EDIT_MORE;
	}
	l->buf[l->len++] = (char)ch;
	l->buf[l->len] = 0;
	echo[0] = (char)ch;
	echo[1] = 0;
	return CON_EDIT_MORE;
}

int con_split(char *line, char **argv, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			*p++ = 0;
		if (!*p)
			return n;
		if (n == max)
			return -1;
		argv[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
}

/* ---- tables --------------------------------------------------------- */

int con_find_cmd(const char *word)
{
	for (int i = 0; i < CON_NCMDS; i++)
		if (ieq(word, con_cmds[i].name))
			return i;
	if (!strcmp(word, "?"))
		return CON_CMD_HELP;
	return -1;
}

int con_find_wl(const char *word)
{
	for (unsigned i = 0; i < wl_table_count; i++)
		if (!wl_table[i].suite_only && ieq(word, wl_table[i].name))
			return (int)i;
	return -1;
}

void con_cmd_names(char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < CON_NCMDS && n < cap; i++)
		n += (size_t)fmt_snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", con_cmds[i].name);
}

void con_wl_names(char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < wl_table_count && n < cap; i++)
		if (!wl_table[i].suite_only)
			n += (size_t)fmt_snprintf(buf + n, cap - n, "%s%s", n ? ", " : "",
						  wl_table[i].name);
}

/* Whether key (a whole word) is in the space-separated list. */
static bool key_in(const char *list, const char *key, size_t klen)
{
	const char *p = list;

	while (*p) {
		const char *e = p;

		while (*e && *e != ' ')
			e++;
		if ((size_t)(e - p) == klen) {
			size_t i;

			for (i = 0; i < klen && lower(p[i]) == lower(key[i]); i++)
				;
			if (i == klen)
				return true;
		}
		p = *e ? e + 1 : e;
	}
	return false;
}

/* key=value: split at '=', both non-empty. */
static int split_kv(char *arg, char **key, char **value, char *err, size_t cap)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1]) {
		fmt_snprintf(err, cap, "\"%.40s\": expected key=value", arg);
		return -1;
	}
	*eq = 0;
	*key = arg;
	*value = eq + 1;
	return 0;
}

/* "key = value", "key= value" and "key =value" (sdbench.txt's syntax, in
 * words) into one word "key=value", in the line's own buffer: the words
 * are in order in it, so each join moves text left. Returns the new
 * number of words. */
static int join_kv(int argc, char **argv, int first)
{
	int out = first;

	for (int i = first; i < argc; i++) {
		char *w = argv[i];
		size_t n = strlen(w);
		bool eq_end = n > 0 && w[n - 1] == '=';

		if (i + 1 < argc && !strchr(w, '=') && argv[i + 1][0] == '=') {
			/* "key" then "=" or "=value" */
			char *rest = argv[++i];

			if (!rest[1] && i + 1 < argc)
				rest = argv[++i] - 1, rest[0] = '=';	/* "key" "=" "value" */
			memmove(w + n, rest, strlen(rest) + 1);
		} else if (eq_end && !strchr(w, '=')[1] && w[0] != '=' && i + 1 < argc &&
			   !strchr(argv[i + 1], '=')) {
			memmove(w + n, argv[i + 1], strlen(argv[i + 1]) + 1);	/* "key=" "value" */
			i++;
		}
		argv[out++] = w;
	}
	return out;
}

/* One key=value onto cfg (or the profile): the file's validation. */
static int apply_kv(char *arg, const char *allowed, const char *what, struct config *cfg,
		    bool *quick, unsigned *changed, char *err, size_t cap)
{
	char *key, *value, why[96];
	int id;

	if (split_kv(arg, &key, &value, err, cap))
		return -1;
	if (allowed && !key_in(allowed, key, strlen(key))) {
		fmt_snprintf(err, cap, "%s takes no key \"%.40s\"; its keys: %s", what, key, allowed);
		return -1;
	}
	if (quick && ieq(key, "profile")) {
		if (ieq(value, "quick"))
			*quick = true;
		else if (ieq(value, "full"))
			*quick = false;
		else {
			fmt_snprintf(err, cap, "profile = %.40s: not one of quick|full", value);
			return -1;
		}
		return 0;
	}
	id = config_find_key(key);
	if (id < 0) {
		char names[CFG_NKEYS * 16];	/* every key's name (about 210 characters) */
		size_t n = 0;

		for (int i = 0; i < CFG_NKEYS && n < sizeof(names); i++)
			n += (size_t)fmt_snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
						  config_key_name((enum config_id)i));
		fmt_snprintf(err, cap, "unknown key \"%.40s\"; the keys: %s", key, names);
		return -1;
	}
	if (config_set(cfg, (enum config_id)id, value, why, sizeof(why))) {
		fmt_snprintf(err, cap, "%s = %.40s: %s", config_key_name((enum config_id)id), value, why);
		return -1;
	}
	if (changed)
		*changed |= 1u << id;
	return 0;
}

int con_parse_run(int argc, char **argv, const struct config *base, bool quick_default,
		  struct con_run *out, char *err, size_t cap)
{
	char names[200];
	const struct wl_entry *w;
	int wl;

	if (argc < 2) {
		con_wl_names(names, sizeof(names));
		fmt_snprintf(err, cap, "run which workload? one of: %s", names);
		return -1;
	}
	wl = con_find_wl(argv[1]);
	if (wl < 0) {
		con_wl_names(names, sizeof(names));
		fmt_snprintf(err, cap, "unknown workload \"%.40s\"; one of: %s", argv[1], names);
		return -1;
	}
	w = &wl_table[wl];
	argc = join_kv(argc, argv, 2);
	out->wl = wl;
	out->quick = quick_default;
	out->cfg = *base;
	for (int i = 2; i < argc; i++)
		if (apply_kv(argv[i], w->keys, w->name, &out->cfg, &out->quick, NULL, err, cap))
			return -1;
	return 0;
}

int con_parse_suite(int argc, char **argv, const struct config *base, bool quick_default,
		    struct con_run *out, char *err, size_t cap)
{
	out->wl = -1;
	out->quick = quick_default;
	out->cfg = *base;
	if (argc > 2) {
		fmt_snprintf(err, cap, "suite takes one word at most: suite [quick|full]");
		return -1;
	}
	if (argc == 2) {
		if (ieq(argv[1], "quick"))
			out->quick = true;
		else if (ieq(argv[1], "full"))
			out->quick = false;
		else {
			fmt_snprintf(err, cap, "suite %.40s: not one of quick|full", argv[1]);
			return -1;
		}
	}
	return 0;
}

int con_parse_set(int argc, char **argv, struct config *cfg, unsigned *changed,
		  char *err, size_t cap)
{
	static struct config t;	/* ~5 KiB: not on the stack */

	*changed = 0;
	if (argc < 2) {
		fmt_snprintf(err, cap, "set what? set key=value ... (show lists the keys)");
		return -1;
	}
	t = *cfg;
	argc = join_kv(argc, argv, 1);
	for (int i = 1; i < argc; i++)
		if (apply_kv(argv[i], NULL, "set", &t, NULL, changed, err, cap))
			return -1;
	*cfg = t;
	return 0;
}

/*
 * config.c - parser and getters for sdbench.txt (syntax in config.h, keys
 * in config_keys.h, user documentation in docs/config.md).
 *
 * Works on a copy of one line at a time (at most CONFIG_MAX_LINE bytes), so
 * it needs no allocation; accepts LF, CR LF and CR line ends, a UTF-8
 * byte-order mark (files edited with Windows Notepad) and values in double
 * quotes. Not supported: escapes, line continuation, sections, includes.
 */
#include <stdarg.h>
#include <string.h>

#include "bench/storage/config.h"
#include "lib/err.h"
#include "lib/fmt.h"
#include "lib/json.h"

struct config_key {
	const char *name;
	enum config_type type;
	const char *def;
	uint64_t min, max;
	const char *choices;
};

static const struct config_key keys[CFG_NKEYS] = {
#define CONFIG_KEY(id, nm, ty, df, mn, mx, ch) \
	[CFG_##id] = { .name = nm, .type = ty, .def = df, .min = mn, .max = mx, .choices = ch },
#include "bench/storage/config_keys.h"
#undef CONFIG_KEY
};

/* Reasons that callers replace with a type-specific one. */
static const char not_num[] = "not a number";

static char lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Case-insensitive equality of a[0..n) and the NUL-terminated b. */
static bool ieqn(const char *a, size_t n, const char *b)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!b[i] || lower(a[i]) != lower(b[i]))
			return false;
	return b[i] == 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

void config_msg(struct config *c, const char *fmt, ...)
{
	va_list ap;

	if (c->nmsgs >= CONFIG_MAX_MSGS) {
		c->dropped++;
		return;
	}
	va_start(ap, fmt);
	fmt_vsnprintf(c->msgs[c->nmsgs++], CONFIG_MSG_LEN, fmt, ap);
	va_end(ap);
}

/*
 * Number scanner: decimal or 0x hex digits, then any letters as the unit.
 * Returns NULL and advances *sp past both, or a reason.
 */
static const char *scan_number(const char **sp, uint64_t *val, const char **unit, size_t *unit_len)
{
	const char *s = *sp;
	uint64_t v = 0;
	unsigned base = 10, digits = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (;; s++, digits++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && lower(*s) >= 'a' && lower(*s) <= 'f')
			d = (unsigned)(lower(*s) - 'a' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return "number too large";
		v = v * base + d;
	}
	if (digits == 0)
		return not_num;
	*unit = s;
	while (is_alpha(*s))
		s++;
	*unit_len = (size_t)(s - *unit);
	*val = v;
	*sp = s;
	return NULL;
}

static const char *mul_check(uint64_t *v, uint64_t m)
{
	if (*v > UINT64_MAX / m)
		return "number too large";
	*v *= m;
	return NULL;
}

/* Binary size units; "" means none. Sets *bytes_unit when there was one. */
static const char *apply_size_unit(uint64_t *v, const char *u, size_t n, bool *had_unit)
{
	static const char units[] = "kmgt";
	unsigned shift;

	*had_unit = n != 0;
	if (n == 0)
		return NULL;
	for (shift = 0; shift < 4; shift++)
		if (lower(u[0]) == units[shift])
			break;
	if (shift == 4 || !(n == 1 || (n == 3 && lower(u[1]) == 'i' && lower(u[2]) == 'b'))) {
		if (n == 2 && shift < 4 && lower(u[1]) == 'b')
			return "ambiguous unit (write k, M, G for KiB, MiB, GiB)";
		return "not a size (k, M, G suffixes allowed)";
	}
	return mul_check(v, 1ull << (10 * (shift + 1)));
}

/* A number and its unit that fill the whole value: scan_number's error,
 * 'what' when it is no number or something follows the unit. */
static const char *scan_whole(const char *s, uint64_t *v, const char **u, size_t *n,
			      const char *what)
{
	const char *e = scan_number(&s, v, u, n);

	if (e)
		return e == not_num ? what : e;
	return *s ? what : NULL;
}

static const char *parse_size(const char *s, uint64_t *out)
{
	const char *u, *e;
	size_t n;
	bool had;
	uint64_t v;

	if ((e = scan_whole(s, &v, &u, &n, "not a size")) != NULL)
		return e;
	if ((e = apply_size_unit(&v, u, n, &had)) != NULL)
		return e;
	if (v % BLKDEV_BLOCK_SIZE)
		return "not a whole number of 512-byte blocks";
	*out = v;
	return NULL;
}

static const char *parse_uint(const char *s, uint64_t *out)
{
	const char *u, *e;
	size_t n;
	uint64_t v;

	if ((e = scan_whole(s, &v, &u, &n, not_num)) != NULL)
		return e;
	if (n)
		return not_num;
	*out = v;
	return NULL;
}

static const char *parse_hz(const char *s, uint64_t *out)
{
	const char *u, *e;
	size_t n;
	uint64_t v;

	if ((e = scan_whole(s, &v, &u, &n, "not a frequency")) != NULL)
		return e;
	if (n == 0 || ieqn(u, n, "hz"))
		e = NULL;
	else if (ieqn(u, n, "k") || ieqn(u, n, "khz"))
		e = mul_check(&v, 1000);
	else if (ieqn(u, n, "m") || ieqn(u, n, "mhz"))
		e = mul_check(&v, 1000000);
	else
		return "not a frequency (Hz, kHz or MHz)";
	*out = v;
	return e;
}

static const char *parse_bool(const char *s, uint64_t *out)
{
	size_t n = strlen(s);

	if (ieqn(s, n, "on") || ieqn(s, n, "yes") || ieqn(s, n, "true") || ieqn(s, n, "1"))
		*out = 1;
	else if (ieqn(s, n, "off") || ieqn(s, n, "no") || ieqn(s, n, "false") || ieqn(s, n, "0"))
		*out = 0;
	else
		return "not on or off";
	return NULL;
}

/* Index of word in "a|b|c", -1 when absent. */
static int choice_index(const char *choices, const char *word, size_t wlen)
{
	int idx = 0;

	while (choices && *choices) {
		const char *bar = choices;
		size_t n;

		while (*bar && *bar != '|')
			bar++;
		n = (size_t)(bar - choices);
		if (n == wlen) {
			size_t i;

			for (i = 0; i < n && lower(word[i]) == lower(choices[i]); i++)
				;
			if (i == n)
				return idx;
		}
		idx++;
		choices = *bar ? bar + 1 : bar;
	}
	return -1;
}

/* The idx-th word of "a|b|c" copied into buf. */
static const char *choice_word(const char *choices, int idx, char *buf, size_t cap)
{
	size_t n = 0;

	while (idx > 0 && *choices) {
		if (*choices++ == '|')
			idx--;
	}
	while (choices[n] && choices[n] != '|' && n + 1 < cap) {
		buf[n] = choices[n];
		n++;
	}
	buf[n] = 0;
	return buf;
}

/* One block address or count: plain = blocks, with a size unit = bytes. */
static const char *scan_blocks(const char **sp, uint64_t *blocks)
{
	const char *u, *e;
	size_t n;
	bool had;
	uint64_t v;

	if ((e = scan_number(sp, &v, &u, &n)) != NULL)
		return e;
	if ((e = apply_size_unit(&v, u, n, &had)) != NULL)
		return e;
	if (had) {
		if (v % BLKDEV_BLOCK_SIZE)
			return "not a whole number of 512-byte blocks";
		v /= BLKDEV_BLOCK_SIZE;
	}
	*blocks = v;
	return NULL;
}

static const char *check_range(uint64_t first, uint64_t count, struct lba_range *r)
{
	if (count == 0)
		return "empty range";
	if (first + count > 0x100000000ull)
		return "range beyond LBA 2^32";
	r->first = (uint32_t)first;
	r->count = (uint32_t)count;
	return NULL;
}

static const char *parse_range(const char *s, struct lba_range *r)
{
	uint64_t a, b;
	const char *e;
	char op;

	if ((e = scan_blocks(&s, &a)) != NULL)
		return e == not_num ? "not a range (START+COUNT or START-END)" : e;
	while (is_space(*s))
		s++;
	op = *s;
	if (op != '+' && op != '-')
		return "not a range (START+COUNT or START-END)";
	s++;
	while (is_space(*s))
		s++;
	if ((e = scan_blocks(&s, &b)) != NULL)
		return e == not_num ? "not a range (START+COUNT or START-END)" : e;
	if (*s)
		return "not a range (START+COUNT or START-END)";
	if (op == '-') {
		if (b < a)
			return "range ends before it starts";
		b = b - a + 1;
	}
	return check_range(a, b, r);
}

static const char *parse_list(const char *s, struct config_value *v, uint64_t max_count)
{
	uint32_t n = 0;

	for (;;) {
		uint64_t lba, count = 1;
		const char *e;

		while (is_space(*s) || *s == ',')
			s++;
		if (!*s)
			break;
		if (n == CONFIG_MAX_LIST)
			return "too many items";
		if ((e = scan_blocks(&s, &lba)) != NULL)
			return e == not_num ? "not a list of LBA:COUNT items" : e;
		if (*s == ':') {
			s++;
			if ((e = scan_blocks(&s, &count)) != NULL)
				return e == not_num ?
					"not a list of LBA:COUNT items" : e;
		}
		if (*s && !is_space(*s) && *s != ',')
			return "not a list of LBA:COUNT items";
		if (max_count && count > max_count)
			return "item count too large";
		if ((e = check_range(lba, count, &v->list.item[n])) != NULL)
			return e;
		n++;
	}
	if (n == 0)
		return "empty list";
	v->list.n = n;
	return NULL;
}

/* The values that are one number, by type. */
static const char *(*const number_parsers[])(const char *s, uint64_t *out) = {
	[CFG_T_SIZE] = parse_size,
	[CFG_T_UINT] = parse_uint,
	[CFG_T_HZ] = parse_hz,
	[CFG_T_BOOL] = parse_bool,
};

/* Parse s as a value of key k into v (v untouched on failure). */
static const char *parse_value(const struct config_key *k, const char *s, struct config_value *v,
			       char *why, size_t why_cap)
{
	struct config_value t;
	const char *e = NULL;
	int idx;

	memset(&t, 0, sizeof(t));
	switch (k->type) {
	case CFG_T_SIZE:
	case CFG_T_UINT:
	case CFG_T_HZ:
	case CFG_T_BOOL:
		e = number_parsers[k->type](s, &t.u);
		break;
	case CFG_T_ENUM:
		idx = choice_index(k->choices, s, strlen(s));
		if (idx < 0) {
			fmt_snprintf(why, why_cap, "not one of %s", k->choices);
			return why;
		}
		t.u = (uint64_t)idx;
		break;
	case CFG_T_RANGE:
		e = parse_range(s, &t.r);
		break;
	case CFG_T_LIST:
		e = parse_list(s, &t, k->max);
		break;
	}
	if (e)
		return e;
	if ((k->type == CFG_T_SIZE || k->type == CFG_T_UINT || k->type == CFG_T_HZ) &&
	    (t.u < k->min || t.u > k->max)) {
		fmt_snprintf(why, why_cap, "out of range (%llu to %llu)",
			     (unsigned long long)k->min, (unsigned long long)k->max);
		return why;
	}
	t.has = 1;
	*v = t;
	return NULL;
}

void config_init(struct config *c)
{
	char why[64];

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < CFG_NKEYS; i++) {
		const char *e;

		if (!keys[i].def[0])
			continue;
		e = parse_value(&keys[i], keys[i].def, &c->v[i], why, sizeof(why));
		if (e)	/* a table mistake; the unit test catches it first */
			config_msg(c, "config: default of %s (%s): %s", keys[i].name,
				   keys[i].def, e);
	}
}

int config_find_key(const char *name)
{
	size_t n = strlen(name);

	for (int i = 0; i < CFG_NKEYS; i++)
		if (ieqn(name, n, keys[i].name))
			return i;
	return -1;
}

bool config_gates_writes(enum config_id id)
{
	return id == CFG_WRITE_TESTS || id == CFG_TEST_AREA || id == CFG_RESULTS_FILE;
}

/* A key that decides whether anything is written got a value that could not
 * be read: no writes (write_tests off, no test_area), remembered as "bad"
 * with its line so the write guard can name it. */
static void fail_safe(struct config *c, enum config_id id, unsigned lineno)
{
	struct config_value *v = &c->v[id];

	memset(v, 0, sizeof(*v));
	if (keys[id].type == CFG_T_BOOL)
		v->has = 1;	/* off */
	v->bad = 1;
	v->from_file = 1;
	v->line = (uint16_t)(lineno > 0xFFFF ? 0xFFFF : lineno);
}

/* Letters and digits of s[0..n), lower case, into out (NUL-terminated). */
static size_t fold_key(const char *s, size_t n, char *out, size_t cap)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < cap; i++)
		if (is_alpha(s[i]) || (s[i] >= '0' && s[i] <= '9'))
			out[k++] = lower(s[i]);
	out[k] = 0;
	return k;
}

/* Whether a key the parser could not take is a misspelling of name: the
 * same letters and digits ("results-file", "Results File") or at most two
 * letters inserted, deleted or changed ("result_file", "resuts_file"). */
static bool looks_like(const char *key, size_t klen, const char *name)
{
	char a[48], b[48];
	uint8_t row[48];
	size_t n = fold_key(key, klen, a, sizeof(a)), m = fold_key(name, strlen(name), b, sizeof(b));

	if (n == 0 || (n > m ? n - m : m - n) > 2)
		return false;
	/* Edit distance, one row (n, m < 48). */
	for (size_t j = 0; j <= m; j++)
		row[j] = (uint8_t)j;
	for (size_t i = 1; i <= n; i++) {
		uint8_t diag = row[0];

		row[0] = (uint8_t)i;
		for (size_t j = 1; j <= m; j++) {
			uint8_t up = row[j], best = (uint8_t)(diag + (a[i - 1] != b[j - 1]));

			if (up + 1 < best)
				best = (uint8_t)(up + 1);
			if (row[j - 1] + 1 < best)
				best = (uint8_t)(row[j - 1] + 1);
			diag = up;
			row[j] = best;
		}
	}
	return row[m] <= 2;
}

/*
 * The one rule that keeps a user's data safe: a line that could not be read
 * whole (malformed, an unknown key, a refused value, too long) means the
 * configuration is not known, so nothing is written this run: write_tests
 * off and no test area, both "bad" so that the guard and the test-area
 * decision name the line. The results file is the user's own file and
 * keeps the message of what happened, unless the line names (or misspells)
 * results_file: then it is off too. key: what stands where a key would
 * (NULL when nothing does); why: what was wrong, for the first line's
 * reason.
 */
static void not_read(struct config *c, unsigned lineno, const char *key, size_t klen,
		     const char *why)
{
	c->unread_lines++;
	if (!c->unread_line) {
		c->unread_line = (uint16_t)(lineno > 0xFFFF ? 0xFFFF : lineno);
		if (lineno)
			fmt_snprintf(c->unread_why, sizeof(c->unread_why),
				     "sdbench.txt line %u could not be read (%s)", lineno, why);
		else
			fmt_snprintf(c->unread_why, sizeof(c->unread_why), "%s", why);
	}
	if (!c->v[CFG_WRITE_TESTS].bad)
		fail_safe(c, CFG_WRITE_TESTS, lineno);
	if (!c->v[CFG_TEST_AREA].bad)
		fail_safe(c, CFG_TEST_AREA, lineno);
	if (key && !c->v[CFG_RESULTS_FILE].bad && looks_like(key, klen, "results_file"))
		fail_safe(c, CFG_RESULTS_FILE, lineno);
}

void config_unreadable_file(struct config *c, const char *why)
{
	char buf[CONFIG_MSG_LEN];

	fmt_snprintf(buf, sizeof(buf), "sdbench.txt could not be read: %s", why);
	not_read(c, 0, NULL, 0, buf);
	/* Whether results_file is in it is unknown too. */
	if (!c->v[CFG_RESULTS_FILE].bad)
		fail_safe(c, CFG_RESULTS_FILE, 0);
}

void config_set_unreadable(struct config *c, const char *why)
{
	fail_safe(c, CFG_WRITE_TESTS, 0);
	c->v[CFG_WRITE_TESTS].from_file = 0;
	c->v[CFG_WRITE_TESTS].from_console = 1;
	fmt_snprintf(c->unread_why, sizeof(c->unread_why), "the console's set line could not be "
		     "read (%s)", why);
	if (!c->unread_lines)
		c->unread_lines = 1;
}

bool config_fully_read(const struct config *c)
{
	return c->unread_lines == 0;
}

const char *config_no_writes_why(const struct config *c)
{
	return c->unread_lines ? c->unread_why : NULL;
}

/* The word where a key would stand in a line without '=' ("write_tests off",
 * "write_tests: off"): up to a space or ':'. */
static size_t first_word(const char *s)
{
	size_t n = 0;

	while (s[n] && !is_space(s[n]) && s[n] != ':')
		n++;
	return n;
}

/* A line too long to read: its key and value are unknown. */
static void long_line(struct config *c, unsigned lineno, const char *text, size_t n)
{
	size_t i = 0, k;
	char why[64];

	while (i < n && is_space(text[i]))
		i++;
	for (k = 0; i + k < n && !is_space(text[i + k]) && text[i + k] != '=' &&
		    text[i + k] != ':'; k++)
		;
	fmt_snprintf(why, sizeof(why), "longer than %d characters", CONFIG_MAX_LINE);
	config_msg(c, "config: line %u: %s: not read; no writes this run", lineno, why);
	not_read(c, lineno, text + i, k, why);
}

/* One line cut into key and value (in place): the comment and the blanks
 * around each dropped, a value's double quotes taken off. false for a
 * blank line (nothing said) or one that is not key = value (said and
 * noted). */
static bool split_line(struct config *c, unsigned lineno, char *line, char **key_out,
		       char **val_out)
{
	char *p = line, *key, *val, *end;

	/* Comments run from '#' to the end of the line. */
	for (end = p; *end && *end != '#'; end++)
		;
	*end = 0;
	while (end > p && is_space(end[-1]))
		*--end = 0;
	while (is_space(*p))
		p++;
	if (!*p)
		return false;

	key = p;
	while (*p && *p != '=')
		p++;
	if (!*p) {
		config_msg(c, "config: line %u: \"%.40s\": expected key = value; no writes "
			   "this run", lineno, key);
		not_read(c, lineno, key, first_word(key), "expected key = value");
		return false;
	}
	val = p + 1;
	for (end = p; end > key && is_space(end[-1]); end--)
		;
	*end = 0;
	while (is_space(*val))
		val++;
	if (!*key) {
		config_msg(c, "config: line %u: no key before '='; no writes this run",
			   lineno);
		not_read(c, lineno, NULL, 0, "no key before '='");
		return false;
	}
	/* "value" in double quotes means the same as without them. */
	end = val + strlen(val);
	if (end - val >= 2 && val[0] == '"' && end[-1] == '"') {
		end[-1] = 0;
		val++;
	}
	*key_out = key;
	*val_out = val;
	return true;
}

/* A value the key refuses (e: why; def: the value kept, formatted): said
 * and noted; a key that gates writes fails safe. */
static void value_refused(struct config *c, unsigned lineno, int id, const char *key,
			  const char *val, const char *e, const char *def)
{
	char what[CONFIG_MSG_LEN];

	if (config_gates_writes((enum config_id)id)) {
		config_msg(c, "config: line %u: %s = %.40s: %s; no writes this run",
			   lineno, keys[id].name, val, e);
		fail_safe(c, (enum config_id)id, lineno);
	} else {
		config_msg(c, "config: line %u: %s = %.40s: %s; %s%s; no writes this "
			   "run", lineno, keys[id].name, val, e,
			   def[0] ? "keeping " : "left unset", def);
	}
	fmt_snprintf(what, sizeof(what), "%s = %.40s: %s", keys[id].name, val, e);
	not_read(c, lineno, key, strlen(key), what);
}

static void parse_line(struct config *c, unsigned lineno, char *line)
{
	char *key, *val, why[96];
	char def[48];
	const char *e;
	unsigned prev_line;
	int id, prev_file;

	if (!split_line(c, lineno, line, &key, &val))
		return;
	id = config_find_key(key);
	if (id < 0) {
		config_msg(c, "config: line %u: unknown key \"%.40s\"; no writes this run",
			   lineno, key);
		fmt_snprintf(why, sizeof(why), "unknown key \"%.40s\"", key);
		not_read(c, lineno, key, strlen(key), why);
		return;
	}
	prev_file = c->v[id].from_file;
	prev_line = c->v[id].line;
	config_format(c, (enum config_id)id, def, sizeof(def));
	if (!*val) {
		if (config_gates_writes((enum config_id)id))
			fail_safe(c, (enum config_id)id, lineno);
		config_msg(c, "config: line %u: %s: no value; %s%s; no writes this run",
			   lineno, keys[id].name, def[0] && !c->v[id].bad ? "keeping " : "",
			   def[0] && !c->v[id].bad ? def : "off");
		fmt_snprintf(why, sizeof(why), "%s: no value", keys[id].name);
		not_read(c, lineno, key, strlen(key), why);
		return;
	}
	e = parse_value(&keys[id], val, &c->v[id], why, sizeof(why));
	if (e) {
		value_refused(c, lineno, id, key, val, e, def);
		return;
	}
	if (prev_file)
		config_msg(c, "config: line %u: %s set again (replaces line %u)", lineno,
			   keys[id].name, prev_line);
	c->v[id].from_file = 1;
	c->v[id].line = (uint16_t)(lineno > 0xFFFF ? 0xFFFF : lineno);
}

unsigned config_parse(struct config *c, const char *text, size_t len)
{
	unsigned before = c->nmsgs + c->dropped, lineno = 0;
	size_t pos = 0;

	if (len >= 3 && (uint8_t)text[0] == 0xEF && (uint8_t)text[1] == 0xBB &&
	    (uint8_t)text[2] == 0xBF)
		pos = 3;
	while (pos < len) {
		char line[CONFIG_MAX_LINE + 1];
		size_t start = pos, n;
		bool nul = false;

		lineno++;
		while (pos < len && text[pos] != '\n' && text[pos] != '\r')
			pos++;
		n = pos - start;
		/* LF, CR LF and a lone CR (old Mac editors) end a line. */
		if (pos < len && text[pos] == '\r')
			pos++;
		if (pos < len && text[pos] == '\n')
			pos++;
		if (n > CONFIG_MAX_LINE) {
			long_line(c, lineno, text + start, n);
			continue;
		}
		memcpy(line, text + start, n);
		line[n] = 0;
		for (size_t i = 0; i < n; i++)
			if (line[i] == 0)
				nul = true;
		if (nul) {
			config_msg(c, "config: line %u: contains a NUL byte: not read; no "
				   "writes this run", lineno);
			not_read(c, lineno, line, first_word(line), "a NUL byte");
			continue;
		}
		parse_line(c, lineno, line);
	}
	return c->nmsgs + c->dropped - before;
}

bool config_has(const struct config *c, enum config_id id)
{
	return id < CFG_NKEYS && c->v[id].has;
}

bool config_from_file(const struct config *c, enum config_id id)
{
	return id < CFG_NKEYS && c->v[id].from_file;
}

bool config_bad(const struct config *c, enum config_id id)
{
	return id < CFG_NKEYS && c->v[id].bad;
}

uint64_t config_u64(const struct config *c, enum config_id id)
{
	if (!config_has(c, id) || keys[id].type == CFG_T_RANGE || keys[id].type == CFG_T_LIST)
		return 0;
	return c->v[id].u;
}

bool config_bool(const struct config *c, enum config_id id)
{
	return config_has(c, id) && keys[id].type == CFG_T_BOOL && c->v[id].u;
}

int config_enum(const struct config *c, enum config_id id)
{
	if (!config_has(c, id) || keys[id].type != CFG_T_ENUM)
		return -1;
	return (int)c->v[id].u;
}

const char *config_enum_name(const struct config *c, enum config_id id)
{
	/* One buffer per key: two different keys can be printed together. */
	static char words[CFG_NKEYS][24];
	int idx = config_enum(c, id);

	if (idx < 0)
		return NULL;
	return choice_word(keys[id].choices, idx, words[id], sizeof(words[id]));
}

int config_set_default(struct config *c, enum config_id id, const char *value)
{
	char why[64];

	if (id >= CFG_NKEYS)
		return -EINVAL;
	if (c->v[id].from_file)
		return 0;
	if (parse_value(&keys[id], value, &c->v[id], why, sizeof(why)))
		return -EINVAL;
	return 0;
}

int config_set(struct config *c, enum config_id id, const char *value, char *why, size_t why_cap)
{
	char buf[96];
	const char *e;

	if (id >= CFG_NKEYS) {
		fmt_snprintf(why, why_cap, "unknown key");
		return -EINVAL;
	}
	e = parse_value(&keys[id], value, &c->v[id], buf, sizeof(buf));
	if (e) {
		fmt_snprintf(why, why_cap, "%s", e);
		return -EINVAL;
	}
	c->v[id].from_console = 1;
	return 0;
}

enum config_type config_key_type(enum config_id id)
{
	return id < CFG_NKEYS ? keys[id].type : CFG_T_UINT;
}

const char *config_key_default(enum config_id id)
{
	return id < CFG_NKEYS ? keys[id].def : "";
}

const char *config_key_choices(enum config_id id)
{
	return id < CFG_NKEYS ? keys[id].choices : NULL;
}

bool config_range(const struct config *c, enum config_id id, struct lba_range *out)
{
	if (!config_has(c, id) || keys[id].type != CFG_T_RANGE)
		return false;
	*out = c->v[id].r;
	return true;
}

unsigned config_list(const struct config *c, enum config_id id, const struct lba_range **items)
{
	if (!config_has(c, id) || keys[id].type != CFG_T_LIST) {
		*items = NULL;
		return 0;
	}
	*items = c->v[id].list.item;
	return c->v[id].list.n;
}

const char *config_key_name(enum config_id id)
{
	return id < CFG_NKEYS ? keys[id].name : "?";
}

int config_enum_index(enum config_id id, const char *word)
{
	if (id >= CFG_NKEYS || keys[id].type != CFG_T_ENUM)
		return -1;
	return choice_index(keys[id].choices, word, strlen(word));
}

static int format_size(char *buf, size_t cap, uint64_t v)
{
	static const char units[] = "KMGT";

	for (int s = 4; s >= 1; s--) {
		uint64_t m = 1ull << (10 * s);

		if (v && v % m == 0)
			return fmt_snprintf(buf, cap, "%llu%c", (unsigned long long)(v / m),
					    units[s - 1]);
	}
	return fmt_snprintf(buf, cap, "%llu", (unsigned long long)v);
}

int config_format(const struct config *c, enum config_id id, char *buf, size_t cap)
{
	const struct config_value *v;
	int n = 0;

	if (cap)
		buf[0] = 0;
	if (!config_has(c, id))
		return 0;
	v = &c->v[id];
	switch (keys[id].type) {
	case CFG_T_SIZE:
		return format_size(buf, cap, v->u);
	case CFG_T_UINT:
		return fmt_snprintf(buf, cap, "%llu", (unsigned long long)v->u);
	case CFG_T_HZ:
		if (v->u && v->u % 1000000 == 0)
			return fmt_snprintf(buf, cap, "%lluMHz", (unsigned long long)(v->u / 1000000));
		if (v->u && v->u % 1000 == 0)
			return fmt_snprintf(buf, cap, "%llukHz", (unsigned long long)(v->u / 1000));
		return fmt_snprintf(buf, cap, "%lluHz", (unsigned long long)v->u);
	case CFG_T_BOOL:
		return fmt_snprintf(buf, cap, "%s", v->u ? "on" : "off");
	case CFG_T_ENUM: {
		char w[32];

		return fmt_snprintf(buf, cap, "%s", choice_word(keys[id].choices, (int)v->u,
								w, sizeof(w)));
	}
	case CFG_T_RANGE:
		return fmt_snprintf(buf, cap, "%lu+%lu", (unsigned long)v->r.first,
				    (unsigned long)v->r.count);
	case CFG_T_LIST:
		for (uint32_t i = 0; i < v->list.n; i++) {
			size_t off = (size_t)n < cap ? (size_t)n : cap;

			n += fmt_snprintf(buf + off, cap - off, "%s%lu:%lu", i ? "," : "",
					  (unsigned long)v->list.item[i].first,
					  (unsigned long)v->list.item[i].count);
		}
		return n;
	}
	return 0;
}

void config_json(const struct config *c, struct json *j)
{
	char buf[CONFIG_MAX_LIST * 24];

	for (int i = 0; i < CFG_NKEYS; i++) {
		const struct config_value *v = &c->v[i];

		if (!v->has) {
			json_null(j, keys[i].name);
			continue;
		}
		switch (keys[i].type) {
		case CFG_T_SIZE:
		case CFG_T_UINT:
		case CFG_T_HZ:
			json_u64(j, keys[i].name, v->u);
			break;
		case CFG_T_BOOL:
			json_bool(j, keys[i].name, v->u != 0);
			break;
		default:
			config_format(c, (enum config_id)i, buf, sizeof(buf));
			json_str(j, keys[i].name, buf);
			break;
		}
	}
	json_arr_begin(j, "from_file");
	for (int i = 0; i < CFG_NKEYS; i++)
		if (c->v[i].from_file)
			json_str(j, NULL, keys[i].name);
	json_arr_end(j);
}

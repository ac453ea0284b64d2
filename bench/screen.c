/*
 * screen.c - the run on a screen (screen.h). Rows, at 2x the 8x16 font:
 *   0 "sdbench - " board model      3 results file
 *   1 card                          4 the running step / the end
 *   2 test area                     5 (empty)
 *   6.. one line per finished workload (the last ones that fit), replaced
 *       at the end by the claims line, the emulated mark, and one row per
 *       summary workload: its figure, its limit and a card / bus / host bar.
 * Only records and the progress line are read, never the text for people.
 */
#include <string.h>

#include "bench/engine/record.h"
#include "bench/screen.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/font.h"

#define ROW_BODY 6
#define MAX_COLS 160
#define MAX_ROWS 68
#define LINE_MAX (RECORD_MAX_BYTES + 64)
#define SCREEN_HELP_MAX 4
#define SCREEN_HELP_LEN 200
#define SCREEN_PHASES 96
#define BAR_CELLS 20	/* a bar's width in characters: 5% a cell */

static struct {
	struct screen_fb fb;
	unsigned cols, rows;
	char line[LINE_MAX];
	unsigned len;
	char body[MAX_ROWS][MAX_COLS + 1];
	unsigned nbody;
	char hl_card[160];	/* its "card": the card and its claims */
	char hl_verdict[256];	/* its "verdict" on the claims (PASS / FAIL, COUNTERFEIT) */
	bool emulated;		/* a headline or summary record says so */
	struct {
		char name[32];
		uint8_t pct[3];	/* card, bus, host: whole per cent */
		bool valid;
	} ph[SCREEN_PHASES];	/* the phases record of each workload */
	unsigned nph;
	char help[SCREEN_HELP_MAX][SCREEN_HELP_LEN]; /* its "help" list */
	unsigned nhelp;
	char summary[4096];	/* the summary record, once printed */
	bool writes_off_said;	/* row 2 says why nothing is written */
} sc;

static void screen_putc(void *ctx, char c);
static void show_end(void);
static void screen_progress(void *ctx, const char *text);
static const struct con_sink sink = { .name = "screen", .putc = screen_putc,
				       .progress = screen_progress };

/* A bar cell: the character's cell in the part's colour, BAR_GAP pixels
 * left dark above and below. */
static void draw_bar_cell(uint32_t x0, uint32_t y0, uint32_t colour)
{
	for (unsigned y = 0; y < FONT_H * SCREEN_SCALE; y++) {
		uint32_t *p = sc.fb.px + (y0 + y) * sc.fb.pitch_px + x0;
		bool on = y >= SCREEN_BAR_GAP && y < FONT_H * SCREEN_SCALE - SCREEN_BAR_GAP;

		for (unsigned x = 0; x < FONT_W * SCREEN_SCALE; x++)
			p[x] = on ? colour : SCREEN_BG;
	}
}

static void draw_char(unsigned row, unsigned col, char ch)
{
	static const uint32_t bar[3] = { SCREEN_CARD, SCREEN_BUS, SCREEN_HOST };
	const uint8_t *g = font_glyph(ch);
	uint32_t x0 = col * FONT_W * SCREEN_SCALE, y0 = row * FONT_H * SCREEN_SCALE;

	if (ch >= SCREEN_BAR_CARD && ch <= SCREEN_BAR_HOST) {
		draw_bar_cell(x0, y0, bar[ch - SCREEN_BAR_CARD]);
		return;
	}
	for (unsigned y = 0; y < FONT_H * SCREEN_SCALE; y++) {
		uint32_t *p = sc.fb.px + (y0 + y) * sc.fb.pitch_px + x0;
		uint8_t bits = g[y / SCREEN_SCALE];

		for (unsigned x = 0; x < FONT_W * SCREEN_SCALE; x++)
			p[x] = (bits & (0x80u >> (x / SCREEN_SCALE))) ? SCREEN_FG : SCREEN_BG;
	}
}

/* Row r shows text (cut at the screen's width), the rest of it blank. */
static void draw_row(unsigned r, const char *text)
{
	unsigned i, n = (unsigned)strlen(text);

	if (r >= sc.rows)
		return;
	for (i = 0; i < sc.cols; i++)
		draw_char(r, i, i < n ? text[i] : ' ');
}

static void row_printf(unsigned r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void row_printf(unsigned r, const char *fmt, ...)
{
	char t[MAX_COLS + 1];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(t, sizeof(t), fmt, ap);
	va_end(ap);
	draw_row(r, t);
}

static void draw_body(void)
{
	unsigned fit = sc.rows > ROW_BODY ? sc.rows - ROW_BODY : 0;
	unsigned first = sc.nbody > fit ? sc.nbody - fit : 0;

	for (unsigned i = 0; i < fit; i++)
		draw_row(ROW_BODY + i, first + i < sc.nbody ? sc.body[first + i] : "");
}

static void body_add(const char *text)
{
	if (sc.nbody == MAX_ROWS) {
		memmove(sc.body[0], sc.body[1], sizeof(sc.body[0]) * (MAX_ROWS - 1));
		sc.nbody--;
	}
	fmt_snprintf(sc.body[sc.nbody++], MAX_COLS + 1, "%s", text);
}

/* text in lines of at most the screen's width, broken at the last space
 * that fits (or at the width when a word is longer). */
static void body_wrap(const char *text)
{
	char t[MAX_COLS + 1];

	while (strlen(text) > sc.cols) {
		unsigned k = sc.cols;

		while (k > 0 && text[k] != ' ')
			k--;
		if (k == 0)
			k = sc.cols;
		fmt_snprintf(t, sizeof(t), "%.*s", (int)k, text);
		body_add(t);
		text += k + (text[k] == ' ');
	}
	body_add(text);
}

/*
 * The raw JSON text of the first "key": value in rec (a string without its
 * quotes, a number or literal as it stands) into out; "" when absent.
 * Escaped characters in strings are kept as they are (records name things
 * in plain ASCII).
 */
static const char *field(const char *rec, const char *key, char *out, unsigned cap)
{
	char pat[40];
	const char *p;
	unsigned n = 0;

	fmt_snprintf(pat, sizeof(pat), "\"%s\":", key);
	out[0] = 0;
	p = strstr(rec, pat);
	if (!p)
		return out;
	p += strlen(pat);
	if (*p == '"') {
		for (p++; *p && *p != '"' && n + 1 < cap; p++)
			out[n++] = *p == '\\' && p[1] ? *++p : *p;
	} else {
		for (; *p && *p != ',' && *p != '}' && *p != ']' && n + 1 < cap; p++)
			out[n++] = *p;
	}
	out[n] = 0;
	return out;
}

/* The strings of the array "key":[...] in rec, each cut at SCREEN_HELP_LEN
 * - 1 bytes, at most SCREEN_HELP_MAX; the number found. */
static unsigned string_list(const char *rec, const char *key,
			    char out[SCREEN_HELP_MAX][SCREEN_HELP_LEN])
{
	char pat[40];
	const char *p;
	unsigned k = 0;

	fmt_snprintf(pat, sizeof(pat), "\"%s\":[", key);
	p = strstr(rec, pat);
	if (!p)
		return 0;
	for (p += strlen(pat); *p == '"' && k < SCREEN_HELP_MAX; k++) {
		unsigned n = 0;

		for (p++; *p && *p != '"'; p++)
			if (n + 1 < SCREEN_HELP_LEN)
				out[k][n++] = *p == '\\' && p[1] ? *++p : *p;
			else if (*p == '\\' && p[1])
				p++;
		out[k][n] = 0;
		if (*p == '"')
			p++;
		if (*p == ',')
			p++;
	}
	return k;
}

/* The length of s before its first " (" (an explanation a row has no
 * room for). */
static int paren_cut(const char *s)
{
	const char *p = strstr(s, " (");

	return p ? (int)(p - s) : (int)strlen(s);
}

static uint64_t parse_u64(const char *s)
{
	uint64_t v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (uint64_t)(*s++ - '0');
	return v;
}

/* "host-bound - the CPU ..." -> "host-bound", "no diagnosis: ..." ->
 * "no diagnosis" */
static void verdict_word(char *v)
{
	char *d = strstr(v, " - "), *c = strstr(v, ": ");

	if (c && (!d || c < d))
		d = c;
	if (d)
		*d = 0;
}

/* The summary's rows; wl: the workload when the row does not name one
 * (the sequential rows name the transfer size they took). */
static const struct {
	const char *key, *label, *wl;
	bool iops;
} summary_rows[] = {
	{ "seq_read", "sequential read", NULL, false },
	{ "seq_write", "sequential write", NULL, false },
	{ "rand_read_4k", "random 4 KiB read", "rand-read-4k", true },
	{ "rand_write_4k", "random 4 KiB write", "rand-write-4k", true },
	{ "mix70_4k", "random 70/30 4 KiB", "mix70-4k", true },
};

static unsigned pct_whole(const char *s)
{
	unsigned v = (unsigned)parse_u64(s);

	return v > 100 ? 100 : v;
}

/* The phases record of a workload: its card, bus and host shares (whole
 * per cent), or not valid (no diagnosis). */
static void keep_phases(const char *rec)
{
	static const char *const keys[3] = { "card_pct", "bus_pct", "host_pct" };
	char name[32], v[24];
	unsigned i;

	field(rec, "workload", name, sizeof(name));
	for (i = 0; i < sc.nph && strcmp(sc.ph[i].name, name); i++)
		;
	if (i == SCREEN_PHASES)
		return;
	if (i == sc.nph)
		sc.nph++;
	fmt_snprintf(sc.ph[i].name, sizeof(sc.ph[i].name), "%s", name);
	sc.ph[i].valid = !strcmp(field(rec, "valid", v, sizeof(v)), "true");
	for (unsigned k = 0; k < 3; k++)
		sc.ph[i].pct[k] = (uint8_t)pct_whole(field(rec, keys[k], v, sizeof(v)));
}

/* The bar of a workload into out (BAR_CELLS characters, or none without
 * a valid phases record): each part's share of BAR_CELLS cells, rounded
 * down, card then bus then host; what the rounding leaves is blank. */
static void bar_text(const char *wl, char *out)
{
	unsigned i, n = 0;

	out[0] = 0;
	for (i = 0; i < sc.nph && strcmp(sc.ph[i].name, wl); i++)
		;
	if (i == sc.nph || !sc.ph[i].valid)
		return;
	for (unsigned k = 0; k < 3; k++)
		for (unsigned c = sc.ph[i].pct[k] * BAR_CELLS / 100; c > 0 && n < BAR_CELLS; c--)
			out[n++] = (char)(SCREEN_BAR_CARD + k);
	out[n] = 0;
}

/* One summary row: the figure, its limit (the verdict's first words) and
 * the bar. */
static void summary_row(unsigned i)
{
	char key[24], num[32], v[96], wl[32], bar[BAR_CELLS + 1], t[MAX_COLS + 1];
	const char *o;

	fmt_snprintf(key, sizeof(key), "\"%s\":{", summary_rows[i].key);
	o = strstr(sc.summary, key);
	if (!o)
		return;
	field(o, summary_rows[i].iops ? "iops" : "mbs", num, sizeof(num));
	field(o, "verdict", v, sizeof(v));
	verdict_word(v);
	if (summary_rows[i].wl)
		fmt_snprintf(wl, sizeof(wl), "%s", summary_rows[i].wl);
	else
		field(o, "workload", wl, sizeof(wl));
	bar_text(wl, bar);
	fmt_snprintf(t, sizeof(t), "  %-18s %10s %-4s  %-15s %s", summary_rows[i].label, num,
		     summary_rows[i].iops ? "IOPS" : "MB/s", v, bar);
	body_add(t);
}

/* The end of the suite, for a person across the room: the verdict on the
 * card's claims (the headline's "verdict" when it has one) with the card,
 * the emulated mark, one row per summary workload with its bar, then the
 * headline's "would help" lines. */
static void show_end(void)
{
	char t[MAX_COLS + 1];

	sc.nbody = 0;
	if (sc.hl_card[0] || sc.hl_verdict[0]) {
		fmt_snprintf(t, sizeof(t), "%s%s%s", sc.hl_verdict, sc.hl_verdict[0] ? ": " : "",
			     sc.hl_card);
		body_wrap(t);
	}
	if (sc.emulated)
		body_add("EMULATED: timings are QEMU's");
	body_add("");
	fmt_snprintf(t, sizeof(t), "  %-18s %15s  %-15s %c card %c bus %c host", "summary",
		     "", "limit", SCREEN_BAR_CARD, SCREEN_BAR_BUS, SCREEN_BAR_HOST);
	body_add(t);
	for (unsigned i = 0; i < sizeof(summary_rows) / sizeof(summary_rows[0]); i++)
		summary_row(i);
	if (sc.nhelp)
		body_add("");
	for (unsigned i = 0; i < sc.nhelp; i++) {
		char h[SCREEN_HELP_LEN + 16];

		fmt_snprintf(h, sizeof(h), "would help: %s", sc.help[i]);
		body_wrap(h);
	}
	draw_body();
}

static void on_record(const char *rec)
{
	char type[24], a[96], b[96], t[MAX_COLS + 1];

	field(rec, "type", type, sizeof(type));
	if (!strcmp(type, "board")) {
		row_printf(0, "sdbench - %s", field(rec, "model", a, sizeof(a)));
	} else if (!strcmp(type, "card")) {
		field(rec, "capacity_bytes", b, sizeof(b));
		row_printf(1, "card: %s %s, %llu MiB", field(rec, "manufacturer", a, sizeof(a)),
			   field(rec, "pnm", t, sizeof(t)),
			   (unsigned long long)(parse_u64(b) >> 20));
	} else if (!strcmp(type, "test_area")) {
		if (!strcmp(field(rec, "usable", a, sizeof(a)), "true"))
			row_printf(2, "test area: %llu MiB, writes go only there",
				   (unsigned long long)(parse_u64(field(rec, "count", b,
									  sizeof(b))) >> 11));
		else
			row_printf(2, "no test area: %.*s", paren_cut(field(rec, "reason", t, sizeof(t))),
				   t);
	} else if (!strcmp(type, "skipped") && !sc.writes_off_said &&
		   !strncmp(field(rec, "reason", t, sizeof(t)), "writes are off", 14)) {
		draw_row(2, t);	/* why the test area is not written */
		sc.writes_off_said = true;
	} else if (!strcmp(type, "results_file")) {
		draw_row(3, !strcmp(field(rec, "usable", a, sizeof(a)), "true") ?
			 "results file: SDBENCH.LOG" : "results file: none");
	} else if (!strcmp(type, "result")) {
		fmt_snprintf(t, sizeof(t), "%-26s %10s MB/s", field(rec, "workload", a, sizeof(a)),
			     field(rec, "mbs", b, sizeof(b)));
		body_add(t);
		draw_body();
	} else if (!strcmp(type, "verdict") && sc.nbody &&
		   !strncmp(sc.body[sc.nbody - 1], field(rec, "workload", a, sizeof(a)),
			    strlen(a)) && sc.body[sc.nbody - 1][strlen(a)] == ' ') {
		field(rec, "bottleneck", b, sizeof(b));
		fmt_snprintf(t, sizeof(t), "%s  %s", sc.body[sc.nbody - 1], b);
		fmt_snprintf(sc.body[sc.nbody - 1], MAX_COLS + 1, "%s", t);
		draw_body();
	} else if (!strcmp(type, "phases")) {
		keep_phases(rec);
	} else if (!strcmp(type, "headline")) {
		field(rec, "card", sc.hl_card, sizeof(sc.hl_card));
		field(rec, "verdict", sc.hl_verdict, sizeof(sc.hl_verdict));
		sc.emulated |= !strcmp(field(rec, "emulated", a, sizeof(a)), "true");
		sc.nhelp = string_list(rec, "help", sc.help);
		if (sc.summary[0])
			show_end();
	} else if (!strcmp(type, "summary")) {
		fmt_snprintf(sc.summary, sizeof(sc.summary), "%s", rec);
		sc.emulated |= !strcmp(field(rec, "emulated", a, sizeof(a)), "true");
		show_end();
	} else if (!strcmp(type, "suite")) {
		row_printf(4, "finished: %s suite in %llu s", field(rec, "profile", a, sizeof(a)),
			   (unsigned long long)(parse_u64(field(rec, "elapsed_us", b,
								   sizeof(b))) / 1000000u));
	} else if (!strcmp(type, "done")) {
		row_printf(4, "done: %s error(s)", field(rec, "errors", a, sizeof(a)));
	}
}

/* The progress line as the serial console shows it ("  label   57%
 * 1.23 MB/s  about 12 s left") after "> ", its runs of spaces made one;
 * NULL: it ended (the step is over). */
static void screen_progress(void *ctx, const char *text)
{
	char t[MAX_COLS + 1] = "> ";
	unsigned n = 2;

	(void)ctx;
	if (!text) {
		draw_row(4, "");
		return;
	}
	while (*text == ' ')
		text++;
	for (; *text && n < MAX_COLS; text++)
		if (*text != ' ' || t[n - 1] != ' ')
			t[n++] = *text;
	while (n > 2 && t[n - 1] == ' ')
		n--;
	t[n] = 0;
	draw_row(4, t);
}

static void screen_putc(void *ctx, char c)
{
	(void)ctx;
	if (c == '\r' || c == '\n') {
		const char *rec;

		sc.line[sc.len] = 0;
		rec = strstr(sc.line, "@ {");
		if (rec && c == '\n')
			on_record(rec + 2);
		sc.len = 0;
		return;
	}
	if (sc.len + 1 < LINE_MAX)
		sc.line[sc.len++] = c;
}

void screen_start(const struct screen_fb *fb)
{
	sc.fb = *fb;
	sc.cols = fb->width / (FONT_W * SCREEN_SCALE);
	sc.rows = fb->height / (FONT_H * SCREEN_SCALE);
	if (sc.cols > MAX_COLS)
		sc.cols = MAX_COLS;
	if (sc.rows > MAX_ROWS)
		sc.rows = MAX_ROWS;
	for (uint32_t y = 0; y < fb->height; y++)
		for (uint32_t x = 0; x < fb->width; x++)
			fb->px[y * fb->pitch_px + x] = SCREEN_BG;
	draw_row(0, "sdbench");
	(void)con_sink_add(&sink);
}

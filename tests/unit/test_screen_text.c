/*
 * test_screen_text.c - what bench/screen.c draws at the end of a run, read
 * back from an in-memory framebuffer: each character cell is matched
 * exactly against the font's glyphs at the screen's scale (no fuzzy
 * recognition). The records are written here by hand. Under QEMU every
 * verdict is "no diagnosis", so the headline's "help" list is empty there
 * (tests/qemu/test_screen.py); this test gives it lines.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/screen.h"
#include "lib/console.h"
#include "lib/font.h"
#include "tests/unit/check.h"

#define W 1280
#define H 720
#define CW (FONT_W * SCREEN_SCALE)
#define CH (FONT_H * SCREEN_SCALE)

static uint32_t px[W * H];

static bool cell_is(unsigned row, unsigned col, char ch)
{
	const uint8_t *g = font_glyph(ch);

	for (unsigned y = 0; y < CH; y++)
		for (unsigned x = 0; x < CW; x++) {
			bool on = g[y / SCREEN_SCALE] & (0x80u >> (x / SCREEN_SCALE));
			uint32_t v = px[(row * CH + y) * W + col * CW + x];

			if (v != (on ? SCREEN_FG : SCREEN_BG))
				return false;
		}
	return true;
}

/* The text of a row, trailing spaces cut; '#' for a cell no glyph matches. */
static void row_text(unsigned row, char *out)
{
	unsigned n = 0, c;
	char ch;

	for (c = 0; c < W / CW; c++) {
		for (ch = 0x20; ch < 0x7f && !cell_is(row, c, ch); ch++)
			;
		out[n++] = ch < 0x7f ? ch : '#';
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = 0;
}

/* The first row from row 6 that starts with text, or -1. */
static int find_row(const char *text)
{
	char t[W / CW + 1];

	for (unsigned r = 6; r < H / CH; r++) {
		row_text(r, t);
		if (!strncmp(t, text, strlen(text)))
			return (int)r;
	}
	return -1;
}

static const char summary[] =
	"@ {\"type\":\"summary\",\"seq_read\":{\"mbs\":21.50,\"verdict\":\"bus-bound - 90%\"}}\n";

TEST(help_lines_follow_the_summary)
{
	const struct screen_fb fb = { px, W, H, W };
	int sum, help;

	screen_start(&fb);
	con_puts(summary);
	con_puts("@ {\"type\":\"headline\",\"text\":\"A card; sequential read 21.50 MB/s\","
		 "\"help\":[\"DMA: data_path = dma in sdbench.txt (the CPU moves every word "
		 "now)\",\"another card: a \\\"quoted\\\" one\"]}\n");
	sum = find_row("  summary");
	help = find_row("would help: DMA: data_path = dma");
	CHECK(sum > 0);
	CHECK(help > sum);
	CHECK(find_row("would help: another card: a \"quoted\" one") > help);
	CHECK(find_row("  sequential read") > sum);
}

TEST(no_help_no_help_line)
{
	const struct screen_fb fb = { px, W, H, W };

	screen_start(&fb);
	con_puts(summary);
	con_puts("@ {\"type\":\"headline\",\"text\":\"A card\",\"help\":[]}\n");
	CHECK(find_row("  summary") > 0);
	CHECK(find_row("would help") < 0);
}

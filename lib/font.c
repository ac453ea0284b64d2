/*
 * font.c - the screen font's glyphs (font.h).
 */
#include "lib/font.h"

static const uint8_t glyphs[95][FONT_H] = {
#include "build/gen/font8x16.inc"
};

const uint8_t *font_glyph(char c)
{
	unsigned char u = (unsigned char)c;

	return glyphs[(u >= 0x20 && u <= 0x7e ? u : '?') - 0x20];
}

/*
 * font.h - the screen's 8x16 bitmap font: printable ASCII (0x20..0x7e),
 * generated at build time by tools/psf2font.py from a Linux console font
 * (Debian's console-setup-linux, Terminus Bold: the Makefile's FONT_PSF).
 */
#ifndef SDB_LIB_FONT_H
#define SDB_LIB_FONT_H

#include <stdint.h>

#define FONT_W 8
#define FONT_H 16

/* The 16 row bytes of c (bit 7 the leftmost pixel); '?' for a character
 * the font does not hold. */
const uint8_t *font_glyph(char c);

#endif

/*
 * screen.h - the run on a screen (HDMI), for boards without a serial
 * adapter: a console sink (lib/console.h) that reads the "@ " records as
 * they are printed and the progress line, and draws with the built-in
 * font (lib/font.h) at twice its size: the board, the card, the test area
 * and the results file; the running step with its progress and an
 * estimate of the time left; each finished workload's result and verdict;
 * at the end the verdict on the card's claims, the emulated mark and one
 * row per summary workload with a card / bus / host bar. docs/screen.md gives the layout; tests/qemu/screen_model.py is
 * the host's own rendering of it that the QEMU test compares with.
 */
#ifndef SDB_BENCH_SCREEN_H
#define SDB_BENCH_SCREEN_H

#include <stdint.h>

/* 32-bit pixels, 0x00RRGGBB. */
struct screen_fb {
	uint32_t *px;
	uint32_t width, height;
	uint32_t pitch_px;	/* pixels from one line to the next */
};

#define SCREEN_SCALE 2
#define SCREEN_FG 0x00ffffffu
#define SCREEN_BG 0x00000000u
/* The card / bus / host bars: a character cell in the part's colour
 * (control characters 1, 2, 3 in a row's text), SCREEN_BAR_GAP pixels
 * dark above and below. */
/* Written as 0x00BBGGRR: with the pixel order mailbox.c asks for (RGB),
 * QEMU's framebuffer (hw/display/bcm2835_fb.c) takes a pixel's byte at the
 * lowest address as red, and so does the screendump tests/qemu/test_screen.py
 * compares (white and black read the same either way). Not seen on a real
 * display yet (docs/screen.md). */
#define SCREEN_CARD 0x0000a0f0u	/* amber: red f0, green a0, blue 00 */
#define SCREEN_BUS 0x00ffa040u	/* blue: 40 a0 ff */
#define SCREEN_HOST 0x006040ffu	/* red: ff 40 60 */
#define SCREEN_BAR_CARD '\x01'
#define SCREEN_BAR_BUS '\x02'
#define SCREEN_BAR_HOST '\x03'
#define SCREEN_BAR_GAP 6

/* Clear the screen and add the sink; fb must stay valid. */
void screen_start(const struct screen_fb *fb);

#endif

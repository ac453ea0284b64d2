/*
 * screen.h - the run on a screen (HDMI), for boards without a serial
 * adapter: a console sink (lib/console.h) that reads the "@ " records as
 * they are printed and the progress line, and draws with the built-in
 * font (lib/font.h) at twice its size: the board, the card, the test area
 * and the results file; the running step with its progress and an
 * estimate of the time left; each finished workload's result and verdict;
 * at the end the headline (when a "headline" record exists) and the
 * summary. docs/screen.md gives the layout; tests/qemu/screen_model.py is
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

/* Clear the screen and add the sink; fb must stay valid. */
void screen_start(const struct screen_fb *fb);

#endif

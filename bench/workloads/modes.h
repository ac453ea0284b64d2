/*
 * modes.h - the bus modes side by side (modes.c measures, modes_report.c
 * prints): every mode both the card and the board accept (DS, HS and the
 * UHS-I modes), the card initialised again in each, the same sequential
 * read in each, with each mode's bus ceiling ("modes" record).
 */
#ifndef SDB_BENCH_WORKLOADS_MODES_H
#define SDB_BENCH_WORKLOADS_MODES_H

#include "bench/engine/workload.h"
#include "drivers/sd/sd.h"

struct modes_point {
	uint8_t mode;          /* enum sd_bus_mode asked for */
	uint8_t ran;           /* enum sd_bus_mode it ran in */
	bool ok;               /* initialised and measured */
	int err;               /* sd_init_mode's error, 0 */
	uint32_t clock_hz;
	uint8_t width;
	uint16_t signal_mv;
	uint32_t tuning_tries;
	double read_mbs;
	double ceiling_mbs;    /* the framing model at that clock, width, SDR/DDR */
	char note[160];        /* card->mode_note */
};

struct modes_result {
	unsigned n;
	struct modes_point pt[SD_MODE_COUNT];
	uint32_t xfer_bytes;
	uint32_t total_bytes;
	uint8_t restored;      /* the mode the suite goes on in */
	bool restore_ok;
	bool emulated;
};

void wl_modes(struct wl_ctx *c);

#endif

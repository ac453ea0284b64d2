/*
 * modes_report.h - what the bus-mode comparison prints (modes_report.c):
 * a line per mode and the "modes" record.
 */
#ifndef SDB_BENCH_WORKLOADS_MODES_REPORT_H
#define SDB_BENCH_WORKLOADS_MODES_REPORT_H

#include <stdbool.h>
#include <stdint.h>

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


void modes_report_heading(const struct modes_result *r);
void modes_report_point(const struct modes_result *r, unsigned i);
void modes_report_end(const struct modes_result *r);

#endif

/*
 * sd_modes.h - names and limits of the bus speed modes (sd_modes.c).
 */
#ifndef SDB_DRIVERS_SD_MODES_H
#define SDB_DRIVERS_SD_MODES_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/sd/sd_host.h"

/* Bus modes for sd_init_mode() in speed order, as the sdbench.txt key
 * bus_mode lists them (auto = the fastest both card and host accept). */
enum sd_bus_mode {
	SD_MODE_AUTO = 0, SD_MODE_DS, SD_MODE_HS, SD_MODE_SDR12, SD_MODE_SDR25,
	SD_MODE_SDR50, SD_MODE_DDR50, SD_MODE_SDR104, SD_MODE_COUNT
};
const char *sd_bus_mode_name(unsigned mode);   /* "auto", "ds", ... */
const char *sd_timing_name(unsigned timing);   /* "DS", "HS", "SDR12", ... */
unsigned sd_timing_mode(unsigned timing);      /* enum sd_timing -> sd_bus_mode */
unsigned sd_mode_timing(unsigned mode);        /* enum sd_bus_mode -> sd_timing (auto: DS) */
uint32_t sd_timing_max_hz(unsigned timing);    /* the mode's top clock */
bool sd_timing_ddr(unsigned timing);           /* two bits per clock per line */

#endif

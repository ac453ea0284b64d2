/*
 * sd_io_pi4.h - the Pi 4 / 400 / CM4 board around EMMC2 for UHS-I: the SD
 * I/O regulator and the card supply, both on the firmware's GPIO expander
 * (sd_io_pi4.c).
 */
#ifndef SDB_PLATFORM_SD_IO_PI4_H
#define SDB_PLATFORM_SD_IO_PI4_H

#include "drivers/sdhci/sdhci.h"

extern const struct sdhci_board sd_io_pi4_board;

#endif

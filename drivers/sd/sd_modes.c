/*
 * sd_modes.c - names and limits of the bus speed modes (sd.h enum
 * sd_bus_mode, sd_host.h enum sd_timing; SD Physical Layer §3.9, §4.3.10.4).
 * Apart from sd.c so that reports can name modes without the card layer.
 */
#include "drivers/sd/sd_modes.h"

static const char *const mode_names[SD_MODE_COUNT] = {
	"auto", "ds", "hs", "sdr12", "sdr25", "sdr50", "ddr50", "sdr104",
};

const char *sd_bus_mode_name(unsigned mode)
{
	return mode < SD_MODE_COUNT ? mode_names[mode] : "?";
}

const char *sd_timing_name(unsigned timing)
{
	static const char *const n[SD_TIMING_COUNT] = {
		"DS", "HS", "SDR12", "SDR25", "SDR50", "SDR104", "DDR50",
	};

	return timing < SD_TIMING_COUNT ? n[timing] : "unknown";
}

unsigned sd_timing_mode(unsigned timing)
{
	static const uint8_t m[SD_TIMING_COUNT] = {
		SD_MODE_DS, SD_MODE_HS, SD_MODE_SDR12, SD_MODE_SDR25,
		SD_MODE_SDR50, SD_MODE_SDR104, SD_MODE_DDR50,
	};

	return timing < SD_TIMING_COUNT ? m[timing] : SD_MODE_DS;
}

unsigned sd_mode_timing(unsigned mode)
{
	static const uint8_t t[SD_MODE_COUNT] = {
		SD_TIMING_DS, SD_TIMING_DS, SD_TIMING_HS, SD_TIMING_SDR12,
		SD_TIMING_SDR25, SD_TIMING_SDR50, SD_TIMING_DDR50, SD_TIMING_SDR104,
	};

	return mode < SD_MODE_COUNT ? t[mode] : SD_TIMING_DS;
}

uint32_t sd_timing_max_hz(unsigned timing)
{
	switch (timing) {
	case SD_TIMING_HS:
	case SD_TIMING_SDR25:
	case SD_TIMING_DDR50:
		return 50000000u;
	case SD_TIMING_SDR50:
		return 100000000u;
	case SD_TIMING_SDR104:
		return 208000000u;
	default:
		return 25000000u;
	}
}

bool sd_timing_ddr(unsigned timing)
{
	return timing == SD_TIMING_DDR50;
}

/*
 * sd_ext_info.h - SD 6.00 function extension registers (SD Physical Layer
 * §5.7, read with CMD48): the General Information's list of functions and
 * the Power Management and Performance Enhancement functions, decoded from
 * their 512-byte blocks (no card access here: sd.c reads them).
 */
#ifndef SDB_DRIVERS_SD_EXT_INFO_H
#define SDB_DRIVERS_SD_EXT_INFO_H

#include <stdbool.h>
#include <stdint.h>

#define SD_EXT_BLOCK 512u

/* SD 6.00 function extension registers as discovery found them
 * (SD Physical Layer §5.7): the General Information's list, the
 * Power Management and Performance Enhancement functions' support bits. */
struct sd_ext {
	bool supported;        /* SCR CMD_SUPPORT lists CMD48/CMD49 */
	bool read;             /* the General Information was read and understood */
	int err;               /* 0, or why discovery stopped (note says more) */
	uint16_t gi_rev;       /* General Information structure revision */
	uint16_t gi_len;
	uint8_t n_ext;         /* extensions listed */
	bool have_pm, have_perf;
	uint8_t pm_fno, perf_fno;
	uint8_t pm_page, perf_page;
	uint16_t pm_off, perf_off;
	uint8_t pm_rev, perf_rev;
	bool pm_off_notify, pm_sustenance, pm_down_mode;
	bool fx_event, card_maint, host_maint;
	bool cache;            /* Performance Enhancement: cache support */
	uint8_t cq_depth;      /* command queue depth, 0 = no command queue */
	char note[96];         /* what went wrong or was not understood, "" */
};

/* The General Information block (FNO 0, page 0, offset 0): revision,
 * length, the functions it lists and where their registers are. Returns
 * 0, or -1 with e->note saying what is not understood (then nothing more
 * should be read). */
int sd_ext_parse_gi(const uint8_t *gi, struct sd_ext *e);
/* A function's register block (512 bytes from its address). */
void sd_ext_decode_pm(const uint8_t *reg, struct sd_ext *e);
void sd_ext_decode_perf(const uint8_t *reg, struct sd_ext *e);

#endif

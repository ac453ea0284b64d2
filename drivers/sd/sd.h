/*
 * sd.h - the SD card protocol layer: initialisation, register reads, block
 * read/write/erase, status. It reaches hardware only through struct
 * sd_host_ops (sd_host.h).
 *
 * Follows the SD Physical Layer Simplified Specification v9.10 (host side).
 * UHS-I: S18R/CMD11 and the 1.8 V switch, SDR12..SDR104 and DDR50, CMD19
 * tuning (sd_init_mode). Not supported: SPI mode, eMMC, UHS-II.
 */
#ifndef SDB_DRIVERS_SD_H
#define SDB_DRIVERS_SD_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/sd/sd_ext_info.h"
#include "drivers/sd/sd_host.h"

#define SD_BLOCK_SIZE 512u

struct sd_card {
	struct sd_host *host;
	bool present;
	bool initialised;

	/* Raw registers as read from the card. */
	uint32_t ocr;          /* ACMD41 response */
	uint16_t rca;
	uint32_t cid[4];       /* bits 127..96 in cid[0] ... 31..0 in cid[3] */
	uint32_t csd[4];       /* same layout */
	uint8_t scr[8];        /* big-endian as sent by the card (bit 63 in scr[0]) */
	uint8_t ssr[64];       /* SD Status, big-endian (bit 511 in ssr[0]) */
	uint8_t sw_status[64]; /* CMD6 mode 0 (query) status, big-endian */
	bool have_scr, have_ssr, have_sw;
	uint32_t r1_last;      /* last R1 card status seen */

	/* Derived from the registers by the init sequence. */
	bool v2;               /* answered CMD8 */
	bool high_capacity;    /* OCR CCS: block addressing */
	uint64_t capacity_bytes;
	uint32_t blocks;       /* 512-byte blocks */
	bool cmd23;            /* SCR CMD_SUPPORT bit 1 */
	bool hs_supported;
	bool write_protected;  /* switch, or CSD TMP/PERM_WRITE_PROTECT */
	uint8_t width;         /* bus width in use */
	uint8_t timing;        /* enum sd_timing in use */
	uint32_t clock_hz;     /* actual SD clock */
	uint32_t max_clock_hz; /* card maximum for the timing in use */
	uint32_t erase_timeout_us_per_au; /* from SSR erase fields, 0 unknown */
	/* Bus mode (UHS-I): what was asked for, what came out of it. */
	uint8_t mode_want;     /* enum sd_bus_mode */
	uint16_t signal_mv;    /* 3300, or 1800 after the UHS-I switch */
	bool s18a;             /* the card accepted 1.8 V in ACMD41 */
	bool no_s18r;          /* do not offer 1.8 V (after a failed switch) */
	uint8_t card_modes;    /* CMD6 group 1: mask of 1u << enum sd_timing */
	uint32_t tuning_tries; /* CMD19s of the last tuning, 0 = none */
	char mode_note[160];   /* why the mode asked for was not used, "" if it was */
	uint32_t init_us;      /* how long sd_init took */

	struct sd_host_err last_err; /* details of the last failure */

	/* Card layer bookkeeping. */
	uint32_t r1_ignore;    /* R1 bits that refer to a failed previous command */
	uint32_t au_size_bytes;/* from the SD Status, 0 unknown */
	struct sd_ext ext;     /* extension registers (sd_ext_info.h), read by sd_init */
};

/* R1 card status (SD Physical Layer §4.10.1). */
#define SD_R1_OUT_OF_RANGE (1u << 31)
#define SD_R1_ADDRESS_ERROR (1u << 30)
#define SD_R1_BLOCK_LEN_ERROR (1u << 29)
#define SD_R1_ERASE_SEQ_ERROR (1u << 28)
#define SD_R1_ERASE_PARAM (1u << 27)
#define SD_R1_WP_VIOLATION (1u << 26)
#define SD_R1_CARD_IS_LOCKED (1u << 25)
#define SD_R1_LOCK_UNLOCK_FAILED (1u << 24)
#define SD_R1_COM_CRC_ERROR (1u << 23)
#define SD_R1_ILLEGAL_COMMAND (1u << 22)
#define SD_R1_CARD_ECC_FAILED (1u << 21)
#define SD_R1_CC_ERROR (1u << 20)
#define SD_R1_ERROR (1u << 19)
#define SD_R1_CSD_OVERWRITE (1u << 16)
#define SD_R1_WP_ERASE_SKIP (1u << 15)
#define SD_R1_CARD_ECC_DISABLED (1u << 14)
#define SD_R1_ERASE_RESET (1u << 13)
#define SD_R1_STATE_SHIFT 9
#define SD_R1_STATE_MASK 0xFu
#define SD_R1_READY_FOR_DATA (1u << 8)
#define SD_R1_FX_EVENT (1u << 6)
#define SD_R1_APP_CMD (1u << 5)
#define SD_R1_AKE_SEQ_ERROR (1u << 3)
/* The bits that make a command fail. */
#define SD_R1_ERRORS 0xFDF98008u

/* CURRENT_STATE values. */
enum sd_state {
	SD_STATE_IDLE = 0, SD_STATE_READY, SD_STATE_IDENT, SD_STATE_STBY,
	SD_STATE_TRAN, SD_STATE_DATA, SD_STATE_RCV, SD_STATE_PRG,
	SD_STATE_DIS,
};

const char *sd_state_name(unsigned state);

/* A check of the card layer failed: card->last_err names the command, its
 * argument, the status that came back and which check (phase; block 0);
 * returns code (a negative errno). */
int sd_card_fail(struct sd_card *c, int code, uint8_t cmd, uint32_t arg,
		 uint32_t status, const char *phase);

#include "drivers/sd/sd_modes.h"

/* Identify and initialise the card (the whole §4.2 sequence, up to 4-bit
 * high speed when card and host allow). Returns 0, -ENOMEDIUM (no card),
 * or another -errno with card->last_err filled. */
int sd_init(struct sd_card *card, struct sd_host *host);
/* The same with a bus mode asked for (enum sd_bus_mode): a mode the card
 * or the host refuses, or whose switch or tuning fails, is noted in
 * card->mode_note and the next slower one is tried. UHS-I (1.8 V) is
 * offered to the card only when the host has voltage_switch and a UHS-I
 * mode, and the mode asked for is auto or a UHS-I one. A failed 1.8 V
 * switch power-cycles the card and goes on at 3.3 V. */
int sd_init_mode(struct sd_card *card, struct sd_host *host, unsigned want);

/* Change clock/width after init (for sweeps); clock_hz = 0 means the
 * maximum for the current timing. Returns 0 or -errno. */
int sd_set_bus(struct sd_card *card, uint32_t clock_hz, uint8_t width);

/* Block I/O. lba in 512-byte blocks whatever the card's addressing;
 * buf of count*512 bytes, any alignment; count 1..65535 (the controller's
 * 16-bit block count; -EINVAL beyond, split larger transfers). 'stop' selects the termination of
 * multi-block transfers (SD_STOP_NONE means CMD12 sent by this layer;
 * SD_STOP_AUTO23 means CMD23 before the command: Auto-CMD23 when the host
 * has it, else an explicit CMD23; -ENOTSUP when the SCR does not list
 * CMD23). count 1 always uses CMD17/CMD24 and ignores 'stop'. times may be
 * NULL; with a CMD12 sent by this layer, times->t_end is the end of its
 * busy. Writes return -EROFS on a write-protected card before any command;
 * after a write the card is polled (CMD13) back to tran and its status
 * checked. Ranges beyond the card give -ERANGE before any command. */
int sd_read_blocks(struct sd_card *card, uint32_t lba, uint32_t count,
		   void *buf, enum sd_stop_mode stop, struct sd_req_times *times);
int sd_write_blocks(struct sd_card *card, uint32_t lba, uint32_t count,
		    const void *buf, enum sd_stop_mode stop,
		    struct sd_req_times *times);
/* Single-block commands (CMD17 / CMD24) regardless of count: one request
 * per block, for the CMD17-loop workload. */
int sd_read_single(struct sd_card *card, uint32_t lba, void *buf,
		   struct sd_req_times *times);
int sd_write_single(struct sd_card *card, uint32_t lba, const void *buf,
		    struct sd_req_times *times);
/* ACMD23: number of blocks to pre-erase before the next multi-block write. */
int sd_set_wr_blk_erase_count(struct sd_card *card, uint32_t count);
/* CMD32/33/38 on [lba, lba+count). */
int sd_erase(struct sd_card *card, uint32_t lba, uint32_t count,
	     struct sd_req_times *times);
/* CMD13: the R1 card status. */
int sd_send_status(struct sd_card *card, uint32_t *status);

/* For the card layer's other files: one command with an R1
 * response and no data, its status checked (*r1 may be NULL); CMD13 with
 * the given argument, the 32-bit answer unchecked (SEND_TASK_STATUS
 * answers a register, not a status); one data command of 'blocks' blocks
 * of blksz bytes (no stop command: the count is the card's), a write
 * followed by the bounded wait back to tran, a failure by the recovery
 * back to tran. 0 or -errno with last_err naming the command. */
int sd_cmd_r1(struct sd_card *card, uint8_t index, uint32_t arg, uint32_t *r1);
int sd_cmd_status_arg(struct sd_card *card, uint32_t arg, uint32_t *resp);
int sd_cmd_data(struct sd_card *card, uint8_t index, uint32_t arg, void *buf, uint32_t blksz,
		uint32_t blocks, uint8_t dir, struct sd_req_times *times);
/* CMD48 READ_EXTR_SINGLE: 'len' bytes (1..512) of extension function
 * fno, page, offset 'off' at the start of blk (SD_EXT_BLOCK bytes). sd_init
 * reads the General Information and the functions it lists with it into
 * card->ext when the SCR lists CMD48/CMD49 (nothing is sent otherwise). */
int sd_ext_read(struct sd_card *card, unsigned fno, unsigned page, unsigned off,
		unsigned len, uint8_t *blk);

/* Human names for R1 status bits that are set ("ILLEGAL_COMMAND|..."),
 * written into buf. */
const char *sd_r1_describe(uint32_t r1, char *buf, unsigned cap);
const char *sd_cmd_name(uint8_t index, bool app);

#endif

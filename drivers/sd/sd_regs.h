/*
 * sd_regs.h - decoding of the SD card registers into plain structs: CID,
 * CSD (v1.0, v2.0, v3.0), SCR, SD Status (SSR), the CMD6 switch status and
 * the OCR. Pure functions: no I/O, no printing, usable on the target and on
 * the host (tools/sdreg.c uses the same code).
 *
 * Follows the SD Physical Layer Simplified Specification v9.10:
 * §5.1 OCR, §5.2 CID, §5.3 CSD (5.3.2 v1.0, 5.3.3 v2.0, 5.3.4 v3.0),
 * §5.6 SCR, §4.10.2 SD Status, §4.3.10 CMD6 switch function status,
 * §4.14 erase timeout calculation, §4.5 CRC7.
 *
 * Raw forms (the same as struct sd_card in sd.h):
 *   CID/CSD: 4 x uint32, bits 127..96 in [0] ... bits 31..0 in [3];
 *   SCR (8 bytes), SSR and switch status (64 bytes each): big-endian byte
 *   arrays, the register's most significant bit in byte 0 bit 7.
 *
 * Reserved or unknown codes are reported as such (a *_valid flag false, a
 * "reserved" name), never mapped to a guess.
 *
 * Not here: MMC/eMMC registers (EXT_CSD), SDIO CCCR/CIS, the
 * SD_SECURITY/EX_SECURITY details beyond their code values; the SD 6.00
 * extension registers (CMD48/49) are decoded in sd_ext_info.h.
 */
#ifndef SDB_DRIVERS_SD_REGS_H
#define SDB_DRIVERS_SD_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* State of the CRC7 carried in bits 7..1 of a CID or CSD. Host controllers
 * of the SDHCI family strip the CRC byte, and Linux then shows it as 0:
 * such a register is "absent", not "bad". */
enum sd_crc_state { SD_CRC_ABSENT = 0, SD_CRC_OK = 1, SD_CRC_BAD = 2 };

/* ---- CID (§5.2) ---------------------------------------------------------- */
struct sd_cid {
	uint8_t raw[16];     /* byte 0 = bits 127..120 */
	uint8_t mid;         /* manufacturer ID */
	char oid[3];         /* OEM/application ID, 2 ASCII chars + NUL */
	char pnm[6];         /* product name, 5 ASCII chars + NUL */
	uint8_t prv;         /* product revision, BCD n.m */
	uint8_t prv_major;   /* n (upper nibble) */
	uint8_t prv_minor;   /* m (lower nibble) */
	uint32_t psn;        /* product serial number */
	uint16_t mdt;        /* raw 12-bit manufacturing date */
	uint16_t mdt_year;   /* 2000 + bits [19:12] */
	uint8_t mdt_month;   /* bits [11:8] */
	bool mdt_valid;      /* month 1..12 (0 and 13..15 are not defined) */
	uint8_t crc;         /* CRC7 as stored (bits 7..1) */
	uint8_t crc_calc;    /* CRC7 computed over bytes 0..14 */
	uint8_t crc_state;   /* enum sd_crc_state */
};

/* ---- CSD (§5.3) ---------------------------------------------------------- */
enum sd_csd_structure {
	SD_CSD_V1 = 0,       /* SDSC */
	SD_CSD_V2 = 1,       /* SDHC, SDXC */
	SD_CSD_V3 = 2,       /* SDUC */
	SD_CSD_RESERVED = 3,
};

struct sd_csd {
	uint8_t raw[16];
	uint8_t csd_structure;     /* enum sd_csd_structure */
	bool known;                /* structure 0..2: the fields below are decoded */

	uint8_t taac;              /* raw code */
	bool taac_valid;           /* time value 0 and bit 7 are reserved */
	uint32_t taac_tenth_ns;    /* TAAC in units of 0.1 ns (1.2 ns exists) */
	uint8_t nsac;              /* raw: units of 100 clocks */
	uint32_t nsac_clocks;
	uint8_t tran_speed;        /* raw code */
	bool tran_speed_valid;     /* units 4..7 and value 0 are reserved */
	uint32_t tran_speed_hz;    /* max clock (one bit per line per clock) */
	uint16_t ccc;              /* card command classes, bit n = class n */
	uint8_t read_bl_len;       /* log2 of the block length */
	bool read_bl_len_valid;    /* v1: 9..11; v2/v3: 9 */
	bool read_bl_partial;
	bool write_blk_misalign;
	bool read_blk_misalign;
	bool dsr_imp;
	uint32_t c_size;           /* 12 bits (v1), 22 bits (v2), 28 bits (v3) */
	uint8_t c_size_mult;       /* v1 only */
	/* v1 only, raw 3-bit codes (see sd_csd_vdd_curr_ma()) */
	uint8_t vdd_r_curr_min, vdd_r_curr_max, vdd_w_curr_min, vdd_w_curr_max;
	bool capacity_valid;       /* false when a field it needs is reserved */
	uint64_t capacity_bytes;
	uint64_t sectors;          /* 512-byte sectors */
	bool erase_blk_en;
	uint8_t sector_size;       /* erase sector = sector_size + 1 write blocks */
	uint8_t wp_grp_size;       /* WP group = wp_grp_size + 1 erase sectors */
	bool wp_grp_enable;
	uint8_t r2w_factor;        /* raw; write time = read time << r2w_factor */
	bool r2w_factor_valid;     /* 0..5 */
	uint8_t write_bl_len;      /* log2 */
	bool write_bl_len_valid;   /* v1: 9..11; v2/v3: 9 */
	bool write_bl_partial;
	bool file_format_grp;
	bool copy;
	bool perm_write_protect;
	bool tmp_write_protect;
	uint8_t file_format;
	bool wp_upc;               /* v2/v3: write protection until power cycle */
	uint8_t crc;
	uint8_t crc_calc;
	uint8_t crc_state;         /* enum sd_crc_state */
};

/* ---- SCR (§5.6) ---------------------------------------------------------- */
#define SD_SCR_BUS_WIDTH_1  (1u << 0)   /* SD_BUS_WIDTHS bit 0: DAT0 */
#define SD_SCR_BUS_WIDTH_4  (1u << 2)   /* SD_BUS_WIDTHS bit 2: DAT0-3 */
#define SD_SCR_CMD20        (1u << 0)   /* CMD_SUPPORT: speed class control */
#define SD_SCR_CMD23        (1u << 1)   /* SET_BLOCK_COUNT */
#define SD_SCR_CMD48_49     (1u << 2)   /* extension register single block */
#define SD_SCR_CMD58_59     (1u << 3)   /* extension register multi-block */

struct sd_scr {
	uint8_t raw[8];
	uint8_t scr_structure;     /* 0 = SCR version 1.0, others reserved */
	uint8_t sd_spec;
	uint8_t sd_spec3;
	uint8_t sd_spec4;
	uint8_t sd_specx;
	const char *spec_version;  /* "1.0x", "1.10", "2.00", "3.0x", "4.xx".."9.xx", "reserved" */
	bool spec_valid;
	bool data_stat_after_erase;
	uint8_t sd_security;       /* see sd_scr_security_name() */
	uint8_t sd_bus_widths;     /* SD_SCR_BUS_WIDTH_* */
	uint8_t ex_security;       /* 0 = extended security not supported */
	uint8_t cmd_support;       /* SD_SCR_CMD* */
	uint32_t manufacturer;     /* bits [31:0], reserved for manufacturer usage */
};

/* ---- SD Status (§4.10.2) ------------------------------------------------- */
struct sd_ssr {
	uint8_t raw[64];
	uint8_t dat_bus_width;     /* raw: 0 = 1 bit, 2 = 4 bit, others reserved */
	bool secured_mode;
	uint16_t sd_card_type;     /* 0 regular RD/WR, 1 ROM, 2 OTP */
	uint32_t size_of_protected_area; /* raw, see sd_ssr_protected_bytes() */
	uint8_t speed_class;       /* raw code */
	int speed_class_num;       /* 0, 2, 4, 6, 10; -1 = reserved code */
	uint8_t performance_move;  /* MB/s; 0 = sequential write, 255 = infinite */
	uint8_t au_size;           /* raw code */
	uint32_t au_size_bytes;    /* 0 = not defined or reserved */
	uint16_t erase_size;       /* AUs erased at a time; 0 = no timeout data */
	uint8_t erase_timeout;     /* seconds for erase_size AUs; 0 = no data */
	uint8_t erase_offset;      /* seconds */
	uint8_t uhs_speed_grade;   /* raw: 0, 1 (U1), 3 (U3); others reserved */
	bool uhs_speed_grade_valid;
	uint8_t uhs_au_size;       /* raw code */
	uint32_t uhs_au_size_bytes; /* 0 = not defined or not used */
	uint8_t video_speed_class; /* raw: 0, 6, 10, 30, 60, 90; others reserved */
	bool video_speed_class_valid;
	uint16_t vsc_au_size;      /* MB, for the video speed class */
	uint32_t sus_addr;         /* suspension address (video speed class) */
	uint8_t app_perf_class;    /* 0 none, 1 A1, 2 A2, others reserved */
	uint8_t performance_enhance; /* raw 8 bits */
	uint8_t cq_depth;          /* command queue depth, 0 = not supported */
	bool cache;                /* cache support */
	bool host_maintenance;     /* host-initiated self-maintenance */
	bool card_maintenance;     /* card-initiated self-maintenance */
	bool discard_support;
	bool fule_support;         /* full user area logical erase */
};

/* ---- CMD6 switch function status (§4.3.10) ------------------------------- */
#define SD_SW_GROUPS 6

struct sd_switch {
	uint8_t raw[64];
	uint16_t max_current_ma;   /* max current for the selected functions; 0 = error */
	uint16_t support[SD_SW_GROUPS];  /* [0] = group 1; bit n = function n supported */
	uint8_t selected[SD_SW_GROUPS];  /* function (to be) selected; 0xF = error/unsupported */
	uint8_t version;           /* data structure version */
	bool busy_valid;           /* version >= 1: busy status is defined */
	uint16_t busy[SD_SW_GROUPS];
};

/* Function group 1 (bus speed mode) functions. */
#define SD_SW_G1_DEFAULT 0   /* default speed / SDR12 */
#define SD_SW_G1_HS      1   /* high speed / SDR25 */

/* ---- OCR (§5.1) ---------------------------------------------------------- */
#define SD_OCR_BUSY   (1u << 31)  /* 1 = power-up routine finished */
#define SD_OCR_CCS    (1u << 30)  /* card capacity status (valid when not busy) */
#define SD_OCR_UHS2   (1u << 29)  /* UHS-II card status */
#define SD_OCR_CO2T   (1u << 27)  /* over 2 TB support (SDUC) */
#define SD_OCR_S18A   (1u << 24)  /* switching to 1.8 V accepted */
#define SD_OCR_VDD_MASK 0x00ff8000u /* bits 23..15: 2.7-3.6 V in 0.1 V steps */

struct sd_ocr {
	uint32_t raw;
	bool powered_up;           /* bit 31 set: not busy */
	bool ccs;
	bool uhs2;
	bool co2t;
	bool s18a;
	uint16_t vdd_bits;         /* bits 23..15 shifted down: bit 0 = 2.7-2.8 V */
	uint16_t min_mv, max_mv;   /* voltage window; both 0 when no bit is set */
	bool window_contiguous;
	uint32_t reserved_bits;    /* reserved bits found set (e.g. 14..8) */
};

/* ---- decoders ------------------------------------------------------------ */
void sd_cid_decode(const uint32_t w[4], struct sd_cid *cid);
void sd_csd_decode(const uint32_t w[4], struct sd_csd *csd);
void sd_scr_decode(const uint8_t b[8], struct sd_scr *scr);
void sd_ssr_decode(const uint8_t b[64], struct sd_ssr *ssr);
void sd_switch_decode(const uint8_t b[64], struct sd_switch *sw);
void sd_ocr_decode(uint32_t raw, struct sd_ocr *ocr);

/* CRC7 (x^7 + x^3 + 1) over n bytes, as used by commands and CID/CSD. */
uint8_t sd_crc7(const uint8_t *b, size_t n);

/* ---- names and derived values -------------------------------------------- */
/* Manufacturer name for the CID MID, "unknown" when not in the table. */
const char *sd_mid_name(uint8_t mid);
/* "SDSC", "SDHC", "SDXC", "SDUC" or "reserved". */
const char *sd_csd_type_name(const struct sd_csd *csd);
/* TAAC as text ("1.5ms", "100us", "1.2ns"), "reserved" when invalid. */
const char *sd_csd_taac_str(const struct sd_csd *csd, char *buf, size_t cap);
/* FILE_FORMAT meaning (depends on FILE_FORMAT_GRP). */
const char *sd_csd_file_format_name(const struct sd_csd *csd);
/* VDD_R/W_CURR_MIN/MAX codes to tenths of mA; is_max selects the table. */
uint32_t sd_csd_vdd_curr_tenth_ma(uint8_t code, bool is_max);
const char *sd_scr_security_name(uint8_t sd_security);
const char *sd_ssr_bus_width_name(uint8_t dat_bus_width);
const char *sd_ssr_card_type_name(uint16_t sd_card_type);
/* "A1", "A2", "none" or "reserved". */
const char *sd_ssr_app_perf_name(uint8_t app_perf_class);
/* Protected area in bytes: SDSC multiplies by C_SIZE_MULT and READ_BL_LEN
 * from the CSD (§4.10.2 note); 0 when the CSD does not allow it. */
uint64_t sd_ssr_protected_bytes(const struct sd_ssr *ssr, const struct sd_csd *csd);
/* Erase timeout (§4.14): ERASE_TIMEOUT / ERASE_SIZE * n_au + ERASE_OFFSET,
 * in ms, rounded up. -ENOTSUP when the card gives no timeout data
 * (ERASE_SIZE or ERASE_TIMEOUT 0). */
int sd_ssr_erase_timeout_ms(const struct sd_ssr *ssr, uint32_t n_au, uint32_t *ms);
/* Per-AU share of the erase timeout in µs (without the offset); 0 unknown. */
uint32_t sd_ssr_erase_us_per_au(const struct sd_ssr *ssr);
/* Function names per group (1..6); NULL when the spec defines none here.
 * fn 0xF is "error/unsupported", its meaning in the selection field. */
const char *sd_switch_fn_name(unsigned group, unsigned fn);

/* ---- raw forms ----------------------------------------------------------- */
/* 16 big-endian bytes <-> the 4-word CID/CSD layout. */
void sd_regs_words_to_bytes(const uint32_t w[4], uint8_t b[16]);
void sd_regs_bytes_to_words(const uint8_t b[16], uint32_t w[4]);
/* Parse exactly 2*n hex digits (either case; as Linux shows the registers
 * in /sys/block/mmcblk0/device/{cid,csd,scr,ssr}) into n bytes, first
 * digit pair into out[0]. Leading and trailing white space (a newline from
 * a file) is allowed, nothing else: no "0x", no inner spaces.
 * Returns 0, -EINVAL (a non-hex character at *err_pos, or empty input) or
 * -ERANGE (wrong number of digits, the count in *err_pos). err_pos may be
 * NULL. */
int sd_hex_parse(const char *hex, uint8_t *out, size_t n, size_t *err_pos);
/* The same for CID/CSD straight into the 4-word layout (32 digits). */
int sd_hex_parse_words(const char *hex, uint32_t w[4], size_t *err_pos);

#endif

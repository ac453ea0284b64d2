/*
 * sd_regs.c - SD register decoders (see sd_regs.h for what and which spec
 * sections). Every field is taken with bits(), by the bit numbers of the
 * spec's tables, from the big-endian byte form of the register; nothing
 * here depends on the host's byte order or on C bitfields.
 *
 * Not supported: see sd_regs.h.
 */
#include <errno.h>
#include <string.h>

#include "drivers/sd/sd_regs.h"
#include "lib/fmt.h"

/* Register fields as "msb, lsb" bit numbers, named as in the spec. */
/* CID, §5.2 Table 5-2 */
#define CID_MID                 127, 120
#define CID_OID                 119, 104
#define CID_PNM_HI              103, 96   /* first character */
#define CID_PRV                  63, 56
#define CID_PSN                  55, 24
#define CID_MDT                  19, 8
#define CID_MDT_YEAR             19, 12
#define CID_MDT_MONTH            11, 8
#define CID_CRC                   7, 1

/* CSD, §5.3.2 (v1.0), §5.3.3 (v2.0), §5.3.4 (v3.0) */
#define CSD_STRUCTURE           127, 126
#define CSD_TAAC                119, 112
#define CSD_NSAC                111, 104
#define CSD_TRAN_SPEED          103, 96
#define CSD_CCC                  95, 84
#define CSD_READ_BL_LEN          83, 80
#define CSD_READ_BL_PARTIAL      79, 79
#define CSD_WRITE_BLK_MISALIGN   78, 78
#define CSD_READ_BLK_MISALIGN    77, 77
#define CSD_DSR_IMP              76, 76
#define CSD1_C_SIZE              73, 62
#define CSD1_VDD_R_CURR_MIN      61, 59
#define CSD1_VDD_R_CURR_MAX      58, 56
#define CSD1_VDD_W_CURR_MIN      55, 53
#define CSD1_VDD_W_CURR_MAX      52, 50
#define CSD1_C_SIZE_MULT         49, 47
#define CSD2_C_SIZE              69, 48
#define CSD3_C_SIZE              75, 48
#define CSD_ERASE_BLK_EN         46, 46
#define CSD_SECTOR_SIZE          45, 39
#define CSD_WP_GRP_SIZE          38, 32
#define CSD_WP_GRP_ENABLE        31, 31
#define CSD_R2W_FACTOR           28, 26
#define CSD_WRITE_BL_LEN         25, 22
#define CSD_WRITE_BL_PARTIAL     21, 21
#define CSD_FILE_FORMAT_GRP      15, 15
#define CSD_COPY                 14, 14
#define CSD_PERM_WRITE_PROTECT   13, 13
#define CSD_TMP_WRITE_PROTECT    12, 12
#define CSD_FILE_FORMAT          11, 10
#define CSD2_WP_UPC               9, 9
#define CSD_CRC                   7, 1

/* SCR, §5.6 Table 5-17 */
#define SCR_STRUCTURE            63, 60
#define SCR_SD_SPEC              59, 56
#define SCR_DATA_STAT_AFTER_ERASE 55, 55
#define SCR_SD_SECURITY          54, 52
#define SCR_SD_BUS_WIDTHS        51, 48
#define SCR_SD_SPEC3             47, 47
#define SCR_EX_SECURITY          46, 43
#define SCR_SD_SPEC4             42, 42
#define SCR_SD_SPECX             41, 38
#define SCR_CMD_SUPPORT          35, 32
#define SCR_MANUFACTURER         31, 0

/* SD Status, §4.10.2 Table 4-44 */
#define SSR_DAT_BUS_WIDTH       511, 510
#define SSR_SECURED_MODE        509, 509
#define SSR_SD_CARD_TYPE        495, 480
#define SSR_SIZE_OF_PROTECTED_AREA 479, 448
#define SSR_SPEED_CLASS         447, 440
#define SSR_PERFORMANCE_MOVE    439, 432
#define SSR_AU_SIZE             431, 428
#define SSR_ERASE_SIZE          423, 408
#define SSR_ERASE_TIMEOUT       407, 402
#define SSR_ERASE_OFFSET        401, 400
#define SSR_UHS_SPEED_GRADE     399, 396
#define SSR_UHS_AU_SIZE         395, 392
#define SSR_VIDEO_SPEED_CLASS   391, 384
#define SSR_VSC_AU_SIZE         377, 368
#define SSR_SUS_ADDR            367, 346
#define SSR_APP_PERF_CLASS      339, 336
#define SSR_PERFORMANCE_ENHANCE 335, 328
#define SSR_DISCARD_SUPPORT     313, 313
#define SSR_FULE_SUPPORT        312, 312
/* PERFORMANCE_ENHANCE sub-fields (bits of the 8-bit value) */
#define SSR_PE_CQ_SHIFT          3       /* [7:3] queue depth - 1, 0 = none */
#define SSR_PE_CACHE            (1u << 2)
#define SSR_PE_HOST_MAINT       (1u << 1)
#define SSR_PE_CARD_MAINT       (1u << 0)

/* CMD6 status, §4.3.10 Table 4-13: groups are 16-bit (support, busy) or
 * 4-bit (selection) fields counted up from group 1. */
#define SW_MAX_CURRENT          511, 496
#define SW_SUPPORT_G1_LSB       400
#define SW_SELECT_G1_LSB        376
#define SW_VERSION              375, 368
#define SW_BUSY_G1_LSB          272

/* One field, msb..lsb inclusive (at most 32 bits), of an n-byte big-endian
 * register: bit k lives in byte n-1-k/8. */
static uint32_t bits(const uint8_t *b, size_t n, unsigned msb, unsigned lsb)
{
	uint32_t v = 0;
	unsigned i;

	for (i = msb + 1; i-- > lsb;)
		v = (v << 1) | ((b[n - 1 - i / 8] >> (i % 8)) & 1u);
	return v;
}

#define F16(b, f) bits((b), 16, f)
#define F8(b, f)  bits((b), 8, f)
#define F64(b, f) bits((b), 64, f)

void sd_regs_words_to_bytes(const uint32_t w[4], uint8_t b[16])
{
	unsigned i;

	for (i = 0; i < 16; i++)
		b[i] = (uint8_t)(w[i / 4] >> (24 - 8 * (i % 4)));
}

void sd_regs_bytes_to_words(const uint8_t b[16], uint32_t w[4])
{
	unsigned i;

	for (i = 0; i < 4; i++)
		w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 |
		       (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
}

uint8_t sd_crc7(const uint8_t *b, size_t n)
{
	uint8_t crc = 0;
	size_t i;
	int k;

	/* Bit-serial, MSB first, as the card shifts it out (§4.5). */
	for (i = 0; i < n; i++) {
		for (k = 7; k >= 0; k--) {
			unsigned in = (b[i] >> k) & 1u;
			unsigned fb = ((crc >> 6) & 1u) ^ in;

			crc = (uint8_t)((crc << 1) & 0x7f);
			if (fb)
				crc ^= 0x09;
		}
	}
	return crc;
}

static uint8_t crc_state(const uint8_t raw[16], uint8_t *stored, uint8_t *calc)
{
	*stored = (uint8_t)F16(raw, CID_CRC);
	*calc = sd_crc7(raw, 15);
	/* A whole zero byte (CRC and end bit) is what a controller that strips
	 * the CRC leaves; a real CRC byte always has its end bit set. */
	if (raw[15] == 0)
		return SD_CRC_ABSENT;
	return *stored == *calc ? SD_CRC_OK : SD_CRC_BAD;
}

/* ---- CID ----------------------------------------------------------------- */
void sd_cid_decode(const uint32_t w[4], struct sd_cid *cid)
{
	uint8_t *r = cid->raw;
	unsigned i;

	sd_regs_words_to_bytes(w, r);
	cid->mid = (uint8_t)F16(r, CID_MID);
	cid->oid[0] = (char)r[1];
	cid->oid[1] = (char)r[2];
	cid->oid[2] = '\0';
	for (i = 0; i < 5; i++)
		cid->pnm[i] = (char)r[3 + i];
	cid->pnm[5] = '\0';
	cid->prv = (uint8_t)F16(r, CID_PRV);
	cid->prv_major = cid->prv >> 4;
	cid->prv_minor = cid->prv & 0x0f;
	cid->psn = F16(r, CID_PSN);
	cid->mdt = (uint16_t)F16(r, CID_MDT);
	cid->mdt_year = (uint16_t)(2000 + F16(r, CID_MDT_YEAR));
	cid->mdt_month = (uint8_t)F16(r, CID_MDT_MONTH);
	cid->mdt_valid = cid->mdt_month >= 1 && cid->mdt_month <= 12;
	cid->crc_state = crc_state(r, &cid->crc, &cid->crc_calc);
}

/* Manufacturer IDs are assigned by the SD Association and not published
 * by it; these are the assignments that public card databases and vendor
 * documentation agree on. Anything else is "unknown", not a guess. */
static const struct {
	uint8_t mid;
	const char *name;
} mid_names[] = {
	{ 0x01, "Panasonic" },
	{ 0x02, "Toshiba/Kioxia" },
	{ 0x03, "SanDisk" },
	{ 0x1b, "Samsung" },
	{ 0x1d, "ADATA" },
	{ 0x27, "Phison" },
	{ 0x28, "Lexar" },
	{ 0x31, "Silicon Power" },
	{ 0x41, "Kingston" },
	{ 0x74, "Transcend" },
	{ 0x76, "Patriot" },
	{ 0x82, "Sony" },
	{ 0x9c, "Angelbird/Hoodman" },
};

const char *sd_mid_name(uint8_t mid)
{
	unsigned i;

	for (i = 0; i < sizeof(mid_names) / sizeof(mid_names[0]); i++)
		if (mid_names[i].mid == mid)
			return mid_names[i].name;
	return "unknown";
}

/* ---- CSD ----------------------------------------------------------------- */
/* TAAC and TRAN_SPEED time/rate value, times 10 (§5.3.2); 0 = reserved. */
static const uint8_t csd_mult10[16] = {
	0, 10, 12, 13, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 70, 80,
};
/* TAAC time unit in ns: 1 ns .. 10 ms. */
static const uint32_t taac_unit_ns[8] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
};
/* TRAN_SPEED unit in bit/s divided by 10 (so that unit * mult10 = Hz);
 * codes 4..7 are reserved. */
static const uint32_t tran_unit_10[4] = { 10000, 100000, 1000000, 10000000 };

static void csd_common(const uint8_t *r, struct sd_csd *c)
{
	unsigned tv, tu;

	c->taac = (uint8_t)F16(r, CSD_TAAC);
	tv = (c->taac >> 3) & 0x0f;
	tu = c->taac & 0x07;
	c->taac_valid = tv != 0 && !(c->taac & 0x80);
	c->taac_tenth_ns = c->taac_valid ? csd_mult10[tv] * taac_unit_ns[tu] : 0;
	c->nsac = (uint8_t)F16(r, CSD_NSAC);
	c->nsac_clocks = (uint32_t)c->nsac * 100u;

	c->tran_speed = (uint8_t)F16(r, CSD_TRAN_SPEED);
	tv = (c->tran_speed >> 3) & 0x0f;
	tu = c->tran_speed & 0x07;
	c->tran_speed_valid = tv != 0 && tu < 4 && !(c->tran_speed & 0x80);
	c->tran_speed_hz = c->tran_speed_valid ? csd_mult10[tv] * tran_unit_10[tu] : 0;

	c->ccc = (uint16_t)F16(r, CSD_CCC);
	c->read_bl_len = (uint8_t)F16(r, CSD_READ_BL_LEN);
	c->read_bl_partial = F16(r, CSD_READ_BL_PARTIAL);
	c->write_blk_misalign = F16(r, CSD_WRITE_BLK_MISALIGN);
	c->read_blk_misalign = F16(r, CSD_READ_BLK_MISALIGN);
	c->dsr_imp = F16(r, CSD_DSR_IMP);
	c->erase_blk_en = F16(r, CSD_ERASE_BLK_EN);
	c->sector_size = (uint8_t)F16(r, CSD_SECTOR_SIZE);
	c->wp_grp_size = (uint8_t)F16(r, CSD_WP_GRP_SIZE);
	c->wp_grp_enable = F16(r, CSD_WP_GRP_ENABLE);
	c->r2w_factor = (uint8_t)F16(r, CSD_R2W_FACTOR);
	c->r2w_factor_valid = c->r2w_factor <= 5;
	c->write_bl_len = (uint8_t)F16(r, CSD_WRITE_BL_LEN);
	c->write_bl_partial = F16(r, CSD_WRITE_BL_PARTIAL);
	c->file_format_grp = F16(r, CSD_FILE_FORMAT_GRP);
	c->copy = F16(r, CSD_COPY);
	c->perm_write_protect = F16(r, CSD_PERM_WRITE_PROTECT);
	c->tmp_write_protect = F16(r, CSD_TMP_WRITE_PROTECT);
	c->file_format = (uint8_t)F16(r, CSD_FILE_FORMAT);
}

void sd_csd_decode(const uint32_t w[4], struct sd_csd *c)
{
	uint8_t raw[16];
	const uint8_t *r = raw;

	sd_regs_words_to_bytes(w, raw);
	memset(c, 0, sizeof(*c));
	memcpy(c->raw, raw, 16);
	c->csd_structure = (uint8_t)F16(r, CSD_STRUCTURE);
	c->crc_state = crc_state(r, &c->crc, &c->crc_calc);
	c->known = c->csd_structure != SD_CSD_RESERVED;
	if (!c->known)
		return;
	csd_common(r, c);

	if (c->csd_structure == SD_CSD_V1) {
		c->c_size = F16(r, CSD1_C_SIZE);
		c->c_size_mult = (uint8_t)F16(r, CSD1_C_SIZE_MULT);
		c->vdd_r_curr_min = (uint8_t)F16(r, CSD1_VDD_R_CURR_MIN);
		c->vdd_r_curr_max = (uint8_t)F16(r, CSD1_VDD_R_CURR_MAX);
		c->vdd_w_curr_min = (uint8_t)F16(r, CSD1_VDD_W_CURR_MIN);
		c->vdd_w_curr_max = (uint8_t)F16(r, CSD1_VDD_W_CURR_MAX);
		/* 1024 and 2048 byte blocks exist only to describe 2 GB and
		 * 4 GB SDSC cards (§4.3.2); other lengths are reserved. */
		c->read_bl_len_valid = c->read_bl_len >= 9 && c->read_bl_len <= 11;
		c->write_bl_len_valid = c->write_bl_len >= 9 && c->write_bl_len <= 11;
		c->capacity_valid = c->read_bl_len_valid;
		if (c->capacity_valid)
			c->capacity_bytes = ((uint64_t)c->c_size + 1)
					    << (c->c_size_mult + 2 + c->read_bl_len);
	} else {
		/* v2.0 and v3.0 fix the block length at 512 and count
		 * capacity in 512 KiB units; v3.0 widens C_SIZE into the
		 * bits v2.0 reserves. */
		if (c->csd_structure == SD_CSD_V2)
			c->c_size = F16(r, CSD2_C_SIZE);
		else
			c->c_size = F16(r, CSD3_C_SIZE);
		c->wp_upc = F16(r, CSD2_WP_UPC);
		c->read_bl_len_valid = c->read_bl_len == 9;
		c->write_bl_len_valid = c->write_bl_len == 9;
		c->capacity_valid = true;
		c->capacity_bytes = ((uint64_t)c->c_size + 1) * 512u * 1024u;
	}
	c->sectors = c->capacity_bytes / 512u;
}

const char *sd_csd_type_name(const struct sd_csd *c)
{
	switch (c->csd_structure) {
	case SD_CSD_V1:
		return "SDSC";
	case SD_CSD_V2:
		/* SDHC ends at C_SIZE 00FF5Fh (32 GB), §5.3.3. */
		return c->c_size <= 0xff5f ? "SDHC" : "SDXC";
	case SD_CSD_V3:
		return "SDUC";
	default:
		return "reserved";
	}
}

/* Trim trailing zeros of a fraction written with 'digits' digits. */
static void put_decimal(char *buf, size_t cap, uint32_t ip, uint32_t frac,
			unsigned digits, const char *unit)
{
	char f[12];
	int n;

	if (frac == 0) {
		fmt_snprintf(buf, cap, "%u%s", (unsigned)ip, unit);
		return;
	}
	n = fmt_snprintf(f, sizeof(f), "%0*u", (int)digits, (unsigned)frac);
	while (n > 0 && f[n - 1] == '0')
		f[--n] = '\0';
	fmt_snprintf(buf, cap, "%u.%s%s", (unsigned)ip, f, unit);
}

const char *sd_csd_taac_str(const struct sd_csd *c, char *buf, size_t cap)
{
	uint32_t t = c->taac_tenth_ns;

	if (!c->known || !c->taac_valid)
		fmt_snprintf(buf, cap, "reserved");
	else if (t >= 10000000u)
		put_decimal(buf, cap, t / 10000000u, t % 10000000u, 7, "ms");
	else if (t >= 10000u)
		put_decimal(buf, cap, t / 10000u, t % 10000u, 4, "us");
	else
		put_decimal(buf, cap, t / 10u, t % 10u, 1, "ns");
	return buf;
}

const char *sd_csd_file_format_name(const struct sd_csd *c)
{
	static const char *const names[4] = {
		"hard disk-like file system with partition table",
		"DOS FAT (floppy-like) with boot sector only",
		"universal file format",
		"others/unknown",
	};

	if (c->file_format_grp)
		return "reserved";
	return names[c->file_format & 3];
}

uint32_t sd_csd_vdd_curr_tenth_ma(uint8_t code, bool is_max)
{
	static const uint16_t min_t[8] = { 5, 10, 50, 100, 250, 350, 600, 1000 };
	static const uint16_t max_t[8] = { 10, 50, 100, 250, 350, 450, 800, 2000 };

	return is_max ? max_t[code & 7] : min_t[code & 7];
}

/* ---- SCR ----------------------------------------------------------------- */
/* §5.6 Table 5-19 "Physical Layer Specification Version": only these
 * combinations are defined; SD_SPEC4 is "don't care" from 5.xx on. */
static const char *scr_version(const struct sd_scr *s)
{
	static const char *const specx[] = {
		NULL, "5.xx", "6.xx", "7.xx", "8.xx", "9.xx",
	};

	if (s->sd_spec == 0 && !s->sd_spec3 && !s->sd_spec4 && !s->sd_specx)
		return "1.0x";
	if (s->sd_spec == 1 && !s->sd_spec3 && !s->sd_spec4 && !s->sd_specx)
		return "1.10";
	if (s->sd_spec != 2)
		return NULL;
	if (!s->sd_spec3)
		return (!s->sd_spec4 && !s->sd_specx) ? "2.00" : NULL;
	if (s->sd_specx == 0)
		return s->sd_spec4 ? "4.xx" : "3.0x";
	if (s->sd_specx < sizeof(specx) / sizeof(specx[0]))
		return specx[s->sd_specx];
	return NULL;
}

void sd_scr_decode(const uint8_t b[8], struct sd_scr *s)
{
	memcpy(s->raw, b, 8);
	s->scr_structure = (uint8_t)F8(b, SCR_STRUCTURE);
	s->sd_spec = (uint8_t)F8(b, SCR_SD_SPEC);
	s->data_stat_after_erase = F8(b, SCR_DATA_STAT_AFTER_ERASE);
	s->sd_security = (uint8_t)F8(b, SCR_SD_SECURITY);
	s->sd_bus_widths = (uint8_t)F8(b, SCR_SD_BUS_WIDTHS);
	s->sd_spec3 = (uint8_t)F8(b, SCR_SD_SPEC3);
	s->ex_security = (uint8_t)F8(b, SCR_EX_SECURITY);
	s->sd_spec4 = (uint8_t)F8(b, SCR_SD_SPEC4);
	s->sd_specx = (uint8_t)F8(b, SCR_SD_SPECX);
	s->cmd_support = (uint8_t)F8(b, SCR_CMD_SUPPORT);
	s->manufacturer = F8(b, SCR_MANUFACTURER);
	s->spec_version = scr_version(s);
	s->spec_valid = s->spec_version != NULL;
	if (!s->spec_valid)
		s->spec_version = "reserved";
}

const char *sd_scr_security_name(uint8_t v)
{
	switch (v) {
	case 0: return "none";
	case 1: return "not used";
	case 2: return "SDSC security 1.01";
	case 3: return "SDHC security 2.00";
	case 4: return "SDXC security 3.xx";
	default: return "reserved";
	}
}

/* ---- SD Status ------------------------------------------------------------ */
/* AU_SIZE (§4.10.2.4) in KiB; 0 = not defined. */
static const uint32_t au_kib[16] = {
	0, 16, 32, 64, 128, 256, 512, 1024,
	2048, 4096, 8192, 12288, 16384, 24576, 32768, 65536,
};

void sd_ssr_decode(const uint8_t b[64], struct sd_ssr *s)
{
	static const int speed_class[5] = { 0, 2, 4, 6, 10 };
	uint8_t pe;

	memcpy(s->raw, b, 64);
	s->dat_bus_width = (uint8_t)F64(b, SSR_DAT_BUS_WIDTH);
	s->secured_mode = F64(b, SSR_SECURED_MODE);
	s->sd_card_type = (uint16_t)F64(b, SSR_SD_CARD_TYPE);
	s->size_of_protected_area = F64(b, SSR_SIZE_OF_PROTECTED_AREA);
	s->speed_class = (uint8_t)F64(b, SSR_SPEED_CLASS);
	s->speed_class_num = s->speed_class < 5 ? speed_class[s->speed_class] : -1;
	s->performance_move = (uint8_t)F64(b, SSR_PERFORMANCE_MOVE);
	s->au_size = (uint8_t)F64(b, SSR_AU_SIZE);
	s->au_size_bytes = au_kib[s->au_size] * 1024u;
	s->erase_size = (uint16_t)F64(b, SSR_ERASE_SIZE);
	s->erase_timeout = (uint8_t)F64(b, SSR_ERASE_TIMEOUT);
	s->erase_offset = (uint8_t)F64(b, SSR_ERASE_OFFSET);
	s->uhs_speed_grade = (uint8_t)F64(b, SSR_UHS_SPEED_GRADE);
	s->uhs_speed_grade_valid = s->uhs_speed_grade == 0 ||
				   s->uhs_speed_grade == 1 ||
				   s->uhs_speed_grade == 3;
	s->uhs_au_size = (uint8_t)F64(b, SSR_UHS_AU_SIZE);
	/* UHS_AU_SIZE codes 1..6 are "not used": UHS cards have AUs of 1 MB
	 * and more. */
	s->uhs_au_size_bytes = s->uhs_au_size >= 7 ? au_kib[s->uhs_au_size] * 1024u : 0;
	s->video_speed_class = (uint8_t)F64(b, SSR_VIDEO_SPEED_CLASS);
	switch (s->video_speed_class) {
	case 0: case 6: case 10: case 30: case 60: case 90:
		s->video_speed_class_valid = true;
		break;
	default:
		s->video_speed_class_valid = false;
	}
	s->vsc_au_size = (uint16_t)F64(b, SSR_VSC_AU_SIZE);
	s->sus_addr = F64(b, SSR_SUS_ADDR);
	s->app_perf_class = (uint8_t)F64(b, SSR_APP_PERF_CLASS);
	pe = (uint8_t)F64(b, SSR_PERFORMANCE_ENHANCE);
	s->performance_enhance = pe;
	s->cq_depth = (pe >> SSR_PE_CQ_SHIFT) ? (uint8_t)((pe >> SSR_PE_CQ_SHIFT) + 1) : 0;
	s->cache = pe & SSR_PE_CACHE;
	s->host_maintenance = pe & SSR_PE_HOST_MAINT;
	s->card_maintenance = pe & SSR_PE_CARD_MAINT;
	s->discard_support = F64(b, SSR_DISCARD_SUPPORT);
	s->fule_support = F64(b, SSR_FULE_SUPPORT);
}

const char *sd_ssr_bus_width_name(uint8_t v)
{
	switch (v) {
	case 0: return "1-bit";
	case 2: return "4-bit";
	default: return "reserved";
	}
}

const char *sd_ssr_card_type_name(uint16_t v)
{
	switch (v) {
	case 0: return "regular SD RD/WR card";
	case 1: return "SD ROM card";
	case 2: return "OTP card";
	default: return "reserved";
	}
}

const char *sd_ssr_app_perf_name(uint8_t v)
{
	switch (v) {
	case 0: return "none";
	case 1: return "A1";
	case 2: return "A2";
	default: return "reserved";
	}
}

uint64_t sd_ssr_protected_bytes(const struct sd_ssr *s, const struct sd_csd *c)
{
	if (!c || !c->known)
		return 0;
	if (c->csd_structure != SD_CSD_V1)
		return s->size_of_protected_area;
	if (!c->read_bl_len_valid)
		return 0;
	return (uint64_t)s->size_of_protected_area
	       << (c->c_size_mult + 2 + c->read_bl_len);
}

int sd_ssr_erase_timeout_ms(const struct sd_ssr *s, uint32_t n_au, uint32_t *ms)
{
	uint64_t t;

	if (s->erase_size == 0 || s->erase_timeout == 0)
		return -ENOTSUP;
	t = ((uint64_t)s->erase_timeout * 1000u * n_au + s->erase_size - 1)
	    / s->erase_size;
	t += (uint64_t)s->erase_offset * 1000u;
	*ms = t > 0xffffffffu ? 0xffffffffu : (uint32_t)t;
	return 0;
}

uint32_t sd_ssr_erase_us_per_au(const struct sd_ssr *s)
{
	if (s->erase_size == 0 || s->erase_timeout == 0)
		return 0;
	return (uint32_t)(((uint64_t)s->erase_timeout * 1000000u + s->erase_size - 1)
			  / s->erase_size);
}

/* ---- CMD6 status ---------------------------------------------------------- */
void sd_switch_decode(const uint8_t b[64], struct sd_switch *sw)
{
	unsigned g;

	memcpy(sw->raw, b, 64);
	sw->max_current_ma = (uint16_t)F64(b, SW_MAX_CURRENT);
	sw->version = (uint8_t)F64(b, SW_VERSION);
	/* Version 0 defines bits 511..376 only; version 1 adds busy status. */
	sw->busy_valid = sw->version >= 1;
	for (g = 0; g < SD_SW_GROUPS; g++) {
		sw->support[g] = (uint16_t)bits(b, 64, SW_SUPPORT_G1_LSB + 16 * g + 15,
						SW_SUPPORT_G1_LSB + 16 * g);
		sw->selected[g] = (uint8_t)bits(b, 64, SW_SELECT_G1_LSB + 4 * g + 3,
						SW_SELECT_G1_LSB + 4 * g);
		sw->busy[g] = sw->busy_valid
			? (uint16_t)bits(b, 64, SW_BUSY_G1_LSB + 16 * g + 15,
					 SW_BUSY_G1_LSB + 16 * g)
			: 0;
	}
}

const char *sd_switch_fn_name(unsigned group, unsigned fn)
{
	static const char *const g1[5] = {
		"default/SDR12", "high-speed/SDR25", "SDR50", "SDR104", "DDR50",
	};
	static const char *const g3[4] = { "type B", "type A", "type C", "type D" };

	if (fn == 0xf)
		return "error/unsupported";
	if (group == 1)
		return fn < 5 ? g1[fn] : "reserved";
	if (group == 3)
		return fn < 4 ? g3[fn] : "reserved";
	if (fn == 0)
		return "default";
	return NULL;
}

/* ---- OCR ------------------------------------------------------------------ */
void sd_ocr_decode(uint32_t raw, struct sd_ocr *o)
{
	unsigned i, lo = 0, hi = 0, n = 0;

	o->raw = raw;
	o->powered_up = raw & SD_OCR_BUSY;
	/* CCS and UHS-II status are only valid once the card is ready. */
	o->ccs = o->powered_up && (raw & SD_OCR_CCS);
	o->uhs2 = o->powered_up && (raw & SD_OCR_UHS2);
	o->co2t = raw & SD_OCR_CO2T;
	o->s18a = raw & SD_OCR_S18A;
	o->vdd_bits = (uint16_t)((raw & SD_OCR_VDD_MASK) >> 15);
	o->reserved_bits = raw & ~(SD_OCR_BUSY | SD_OCR_CCS | SD_OCR_UHS2 |
				   SD_OCR_CO2T | SD_OCR_S18A | SD_OCR_VDD_MASK);
	for (i = 0; i < 9; i++) {
		if (!(o->vdd_bits & (1u << i)))
			continue;
		if (!n)
			lo = i;
		hi = i;
		n++;
	}
	o->window_contiguous = n == 0 || n == hi - lo + 1;
	o->min_mv = n ? (uint16_t)(2700 + 100 * lo) : 0;
	o->max_mv = n ? (uint16_t)(2800 + 100 * hi) : 0;
}

/* ---- hex ------------------------------------------------------------------ */
static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static int is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

int sd_hex_parse(const char *hex, uint8_t *out, size_t n, size_t *err_pos)
{
	size_t start = 0, end, i, digits;

	if (err_pos)
		*err_pos = 0;
	if (!hex)
		return -EINVAL;
	while (is_space(hex[start]))
		start++;
	end = start;
	while (hex[end])
		end++;
	while (end > start && is_space(hex[end - 1]))
		end--;
	if (end == start)
		return -EINVAL;
	for (i = start; i < end; i++) {
		if (hexval(hex[i]) < 0) {
			if (err_pos)
				*err_pos = i;
			return -EINVAL;
		}
	}
	digits = end - start;
	if (digits != 2 * n) {
		if (err_pos)
			*err_pos = digits;
		return -ERANGE;
	}
	for (i = 0; i < n; i++)
		out[i] = (uint8_t)(hexval(hex[start + 2 * i]) << 4 |
				   hexval(hex[start + 2 * i + 1]));
	return 0;
}

int sd_hex_parse_words(const char *hex, uint32_t w[4], size_t *err_pos)
{
	uint8_t b[16];
	int rc = sd_hex_parse(hex, b, sizeof(b), err_pos);

	if (rc == 0)
		sd_regs_bytes_to_words(b, w);
	return rc;
}

/*
 * test_sd_regs.c - the SD register decoders (drivers/sd/sd_regs.c) and the
 * card record (bench/card_report.c).
 *
 * Two kinds of vectors:
 *  - generated: field values packed into the raw bit layout by put(), with
 *    the bit positions written out here again from the spec's tables
 *    (SD Physical Layer Simplified Specification v9.10, §5.2 CID, §5.3 CSD,
 *    §5.6 SCR, §4.10.2 SD Status, §4.3.10 CMD6), not taken from the
 *    decoder, so a wrong position in either shows up;
 *  - literal: hex computed by hand / by an independent script, among them
 *    QEMU's card (hw/sd/sd.c: CID AA "XY" "QEMU!" PRV 01 PSN DEADBEEF
 *    MDT 062, CSD for 512 MiB / 1 GiB / 2 GiB / 4 GiB images, SCR 02 25 00..)
 *    and Linux sysfs strings of typical SDHC/SDXC cards.
 */
#include <errno.h>

#include "tests/unit/check.h"
#include "bench/card_report.h"
#include "bench/engine/record.h"
#include "drivers/sd/sd_regs.h"
#include "lib/host/host_console.h"

/* Set bits msb..lsb of an n-byte big-endian register to v. */
static void put(uint8_t *b, size_t n, unsigned msb, unsigned lsb, uint64_t v)
{
	unsigned i;

	for (i = lsb; i <= msb; i++) {
		uint8_t *p = &b[n - 1 - i / 8];
		uint8_t m = (uint8_t)(1u << (i % 8));

		if ((v >> (i - lsb)) & 1)
			*p |= m;
		else
			*p &= (uint8_t)~m;
	}
}

static void words(const char *hex, uint32_t w[4])
{
	int rc = sd_hex_parse_words(hex, w, NULL);

	CHECK_EQ_I(rc, 0);
}

static void bytes(const char *hex, uint8_t *b, size_t n)
{
	int rc = sd_hex_parse(hex, b, n, NULL);

	CHECK_EQ_I(rc, 0);
}

/* Give a generated CID/CSD its CRC byte. */
static void seal(uint8_t b[16])
{
	b[15] = (uint8_t)(sd_crc7(b, 15) << 1 | 1);
}

/* ---- CRC7 ------------------------------------------------------------------ */
TEST(crc7_known_commands)
{
	/* The fixed CRC bytes every SD driver sends: CMD0 0x95, CMD8 0x87. */
	static const uint8_t cmd0[5] = { 0x40, 0, 0, 0, 0 };
	static const uint8_t cmd8[5] = { 0x48, 0, 0, 0x01, 0xaa };

	CHECK_EQ_U(sd_crc7(cmd0, 5) << 1 | 1, 0x95);
	CHECK_EQ_U(sd_crc7(cmd8, 5) << 1 | 1, 0x87);
}

/* ---- CID ------------------------------------------------------------------- */
TEST(cid_qemu_literal)
{
	uint32_t w[4];
	struct sd_cid c;

	words("aa585951454d552101deadbeef006219", w);
	CHECK_EQ_U(w[0], 0xaa585951);
	CHECK_EQ_U(w[3], 0xef006219);
	sd_cid_decode(w, &c);
	CHECK_EQ_U(c.mid, 0xaa);
	CHECK_STR(c.oid, "XY");
	CHECK_STR(c.pnm, "QEMU!");
	CHECK_EQ_U(c.prv, 0x01);
	CHECK_EQ_U(c.prv_major, 0);
	CHECK_EQ_U(c.prv_minor, 1);
	CHECK_EQ_U(c.psn, 0xdeadbeef);
	CHECK_EQ_U(c.mdt, 0x062);
	CHECK_EQ_U(c.mdt_year, 2006);
	CHECK_EQ_U(c.mdt_month, 2);
	CHECK(c.mdt_valid);
	CHECK_EQ_U(c.crc, 0x0c);
	CHECK_EQ_U(c.crc_state, SD_CRC_OK);
	CHECK_STR(sd_mid_name(c.mid), "unknown");

	/* As an SDHCI controller delivers it: CRC byte stripped. */
	words("aa585951454d552101deadbeef006200", w);
	sd_cid_decode(w, &c);
	CHECK_EQ_U(c.crc_state, SD_CRC_ABSENT);
	CHECK_EQ_U(c.psn, 0xdeadbeef);
	/* A wrong CRC, and a right CRC over a changed byte. */
	words("aa585951454d552101deadbeef00621b", w);
	sd_cid_decode(w, &c);
	CHECK_EQ_U(c.crc_state, SD_CRC_BAD);
	words("aa585951454d552101deadbeef006319", w);
	sd_cid_decode(w, &c);
	CHECK_EQ_U(c.crc_state, SD_CRC_BAD);
	CHECK_EQ_U(c.mdt_month, 3);
}

TEST(cid_generated)
{
	uint8_t b[16] = { 0 };
	uint32_t w[4];
	struct sd_cid c;
	static const char pnm[5] = { 'S', 'C', '3', '2', 'G' };
	unsigned i;

	put(b, 16, 127, 120, 0x03);                   /* MID */
	put(b, 16, 119, 104, ('S' << 8) | 'D');       /* OID */
	for (i = 0; i < 5; i++)                       /* PNM [103:64] */
		put(b, 16, 103 - 8 * i, 96 - 8 * i, (uint8_t)pnm[i]);
	put(b, 16, 63, 56, 0x80);                     /* PRV 8.0 */
	put(b, 16, 55, 24, 0x12345678);               /* PSN */
	put(b, 16, 19, 12, 19);                       /* MDT year 2019 */
	put(b, 16, 11, 8, 6);                         /* MDT month 6 */
	seal(b);
	sd_regs_bytes_to_words(b, w);
	sd_cid_decode(w, &c);
	CHECK_EQ_U(c.mid, 3);
	CHECK_STR(sd_mid_name(c.mid), "SanDisk");
	CHECK_STR(c.oid, "SD");
	CHECK_STR(c.pnm, "SC32G");
	CHECK_EQ_U(c.prv_major, 8);
	CHECK_EQ_U(c.prv_minor, 0);
	CHECK_EQ_U(c.psn, 0x12345678);
	CHECK_EQ_U(c.mdt_year, 2019);
	CHECK_EQ_U(c.mdt_month, 6);
	CHECK_EQ_U(c.crc_state, SD_CRC_OK);
	/* The same card written out by hand (CRC from an independent script). */
	words("03534453433332478012345678013651", w);
	sd_cid_decode(w, &c);
	CHECK_EQ_U(c.crc_state, SD_CRC_OK);
	CHECK_EQ_U(c.raw[15], b[15]);

	/* Month 0 and 13..15 are not dates. */
	put(b, 16, 11, 8, 0);
	sd_regs_bytes_to_words(b, w);
	sd_cid_decode(w, &c);
	CHECK(!c.mdt_valid);
	put(b, 16, 11, 8, 13);
	sd_regs_bytes_to_words(b, w);
	sd_cid_decode(w, &c);
	CHECK(!c.mdt_valid);
	put(b, 16, 11, 8, 12);
	put(b, 16, 19, 12, 255);
	sd_regs_bytes_to_words(b, w);
	sd_cid_decode(w, &c);
	CHECK(c.mdt_valid);
	CHECK_EQ_U(c.mdt_year, 2255);
}

TEST(mid_names)
{
	CHECK_STR(sd_mid_name(0x01), "Panasonic");
	CHECK_STR(sd_mid_name(0x02), "Toshiba/Kioxia");
	CHECK_STR(sd_mid_name(0x1b), "Samsung");
	CHECK_STR(sd_mid_name(0x41), "Kingston");
	CHECK_STR(sd_mid_name(0x74), "Transcend");
	CHECK_STR(sd_mid_name(0x00), "unknown");
	CHECK_STR(sd_mid_name(0xff), "unknown");
}

/* ---- CSD ------------------------------------------------------------------- */
/* A CSD v1.0 from field values (§5.3.2 Table 5-4). */
struct csd1_fields {
	unsigned taac, nsac, tran, ccc, rbl, c_size, mult, wbl, r2w;
};

static void make_csd1(uint8_t b[16], const struct csd1_fields *f)
{
	unsigned i;

	for (i = 0; i < 16; i++)
		b[i] = 0;
	put(b, 16, 127, 126, 0);
	put(b, 16, 119, 112, f->taac);
	put(b, 16, 111, 104, f->nsac);
	put(b, 16, 103, 96, f->tran);
	put(b, 16, 95, 84, f->ccc);
	put(b, 16, 83, 80, f->rbl);
	put(b, 16, 79, 79, 1);          /* READ_BL_PARTIAL (always 1 on v1) */
	put(b, 16, 78, 78, 0);          /* WRITE_BLK_MISALIGN */
	put(b, 16, 77, 77, 1);          /* READ_BLK_MISALIGN */
	put(b, 16, 76, 76, 0);          /* DSR_IMP */
	put(b, 16, 73, 62, f->c_size);
	put(b, 16, 61, 59, 1);          /* VDD_R_CURR_MIN: 1 mA */
	put(b, 16, 58, 56, 6);          /* VDD_R_CURR_MAX: 80 mA */
	put(b, 16, 55, 53, 0);          /* VDD_W_CURR_MIN: 0.5 mA */
	put(b, 16, 52, 50, 7);          /* VDD_W_CURR_MAX: 200 mA */
	put(b, 16, 49, 47, f->mult);
	put(b, 16, 46, 46, 1);          /* ERASE_BLK_EN */
	put(b, 16, 45, 39, 0x1f);       /* SECTOR_SIZE */
	put(b, 16, 38, 32, 0x55);       /* WP_GRP_SIZE */
	put(b, 16, 31, 31, 1);          /* WP_GRP_ENABLE */
	put(b, 16, 28, 26, f->r2w);
	put(b, 16, 25, 22, f->wbl);
	put(b, 16, 21, 21, 0);          /* WRITE_BL_PARTIAL */
	put(b, 16, 15, 15, 0);          /* FILE_FORMAT_GRP */
	put(b, 16, 14, 14, 1);          /* COPY */
	put(b, 16, 13, 13, 0);          /* PERM_WRITE_PROTECT */
	put(b, 16, 12, 12, 1);          /* TMP_WRITE_PROTECT */
	put(b, 16, 11, 10, 1);          /* FILE_FORMAT: FAT, no partition table */
	seal(b);
}

static void decode_csd_bytes(const uint8_t b[16], struct sd_csd *c)
{
	uint32_t w[4];

	sd_regs_bytes_to_words(b, w);
	sd_csd_decode(w, c);
}

TEST(csd_v1_generated_block_lengths)
{
	static const struct {
		unsigned rbl;
		unsigned long long bytes;
	} v[] = {
		{ 9, 1ull << 30 },      /* 1 GiB with 512-byte blocks */
		{ 10, 2ull << 30 },     /* 2 GiB needs READ_BL_LEN 10 */
		{ 11, 4ull << 30 },     /* 4 GiB SDSC with READ_BL_LEN 11 */
	};
	struct csd1_fields f = { 0x26, 0x10, 0x32, 0x5f5, 9, 4095, 7, 9, 4 };
	uint8_t b[16];
	struct sd_csd c;
	char t[24];
	unsigned i;

	for (i = 0; i < 3; i++) {
		f.rbl = v[i].rbl;
		f.wbl = v[i].rbl;
		make_csd1(b, &f);
		decode_csd_bytes(b, &c);
		CHECK_EQ_U(c.csd_structure, SD_CSD_V1);
		CHECK(c.known);
		CHECK_STR(sd_csd_type_name(&c), "SDSC");
		CHECK_EQ_U(c.read_bl_len, v[i].rbl);
		CHECK(c.read_bl_len_valid);
		CHECK_EQ_U(c.c_size, 4095);
		CHECK_EQ_U(c.c_size_mult, 7);
		CHECK(c.capacity_valid);
		CHECK_EQ_U(c.capacity_bytes, v[i].bytes);
		CHECK_EQ_U(c.sectors, v[i].bytes / 512);
		CHECK_EQ_U(c.taac, 0x26);
		CHECK(c.taac_valid);
		CHECK_EQ_U(c.taac_tenth_ns, 15000000);   /* 1.5 ms */
		CHECK_STR(sd_csd_taac_str(&c, t, sizeof(t)), "1.5ms");
		CHECK_EQ_U(c.nsac, 0x10);
		CHECK_EQ_U(c.nsac_clocks, 1600);
		CHECK_EQ_U(c.tran_speed_hz, 25000000);
		CHECK_EQ_U(c.ccc, 0x5f5);
		CHECK(c.read_bl_partial);
		CHECK(!c.write_blk_misalign);
		CHECK(c.read_blk_misalign);
		CHECK(!c.dsr_imp);
		CHECK_EQ_U(c.vdd_r_curr_min, 1);
		CHECK_EQ_U(c.vdd_r_curr_max, 6);
		CHECK_EQ_U(c.vdd_w_curr_min, 0);
		CHECK_EQ_U(c.vdd_w_curr_max, 7);
		CHECK_EQ_U(sd_csd_vdd_curr_tenth_ma(c.vdd_r_curr_max, true), 800);
		CHECK_EQ_U(sd_csd_vdd_curr_tenth_ma(c.vdd_w_curr_min, false), 5);
		CHECK(c.erase_blk_en);
		CHECK_EQ_U(c.sector_size, 0x1f);
		CHECK_EQ_U(c.wp_grp_size, 0x55);
		CHECK(c.wp_grp_enable);
		CHECK_EQ_U(c.r2w_factor, 4);
		CHECK(c.r2w_factor_valid);
		CHECK_EQ_U(c.write_bl_len, v[i].rbl);
		CHECK(c.write_bl_len_valid);
		CHECK(!c.write_bl_partial);
		CHECK(!c.file_format_grp);
		CHECK(c.copy);
		CHECK(!c.perm_write_protect);
		CHECK(c.tmp_write_protect);
		CHECK_EQ_U(c.file_format, 1);
		CHECK_STR(sd_csd_file_format_name(&c), "DOS FAT (floppy-like) with boot sector only");
		CHECK_EQ_U(c.crc_state, SD_CRC_OK);
	}

	/* A small card: C_SIZE 1000, MULT 3 -> 1001 * 32 * 512 bytes. */
	f.rbl = 9;
	f.c_size = 1000;
	f.mult = 3;
	make_csd1(b, &f);
	decode_csd_bytes(b, &c);
	CHECK_EQ_U(c.capacity_bytes, 1001ull * 32 * 512);

	/* READ_BL_LEN 12 is reserved: no capacity is made up. */
	f.rbl = 12;
	f.r2w = 6;
	make_csd1(b, &f);
	decode_csd_bytes(b, &c);
	CHECK(!c.read_bl_len_valid);
	CHECK(!c.capacity_valid);
	CHECK_EQ_U(c.capacity_bytes, 0);
	CHECK(!c.r2w_factor_valid);
}

TEST(csd_v1_qemu_literals)
{
	static const struct {
		const char *hex;
		unsigned rbl;
		unsigned long long bytes;
	} v[] = {
		{ "002600325f59e1ffffffdfff92600041", 9, 512ull << 20 },
		{ "002600325f59e3ffffffdfff926000b5", 9, 1ull << 30 },
		{ "002600325f5ae3ffffffdfff92a000b7", 10, 2ull << 30 },
	};
	uint32_t w[4];
	struct sd_csd c;
	char t[24];
	unsigned i;

	for (i = 0; i < 3; i++) {
		words(v[i].hex, w);
		sd_csd_decode(w, &c);
		CHECK_EQ_U(c.csd_structure, 0);
		CHECK_EQ_U(c.read_bl_len, v[i].rbl);
		CHECK_EQ_U(c.write_bl_len, v[i].rbl);
		CHECK_EQ_U(c.capacity_bytes, v[i].bytes);
		CHECK_EQ_U(c.c_size_mult, 7);
		CHECK_STR(sd_csd_taac_str(&c, t, sizeof(t)), "1.5ms");
		CHECK_EQ_U(c.tran_speed_hz, 25000000);
		CHECK_EQ_U(c.ccc, 0x5f5);
		CHECK_EQ_U(c.sector_size, 63);
		CHECK_EQ_U(c.wp_grp_size, 127);
		CHECK(c.wp_grp_enable);
		CHECK_EQ_U(c.r2w_factor, 4);
		CHECK(c.write_bl_partial);
		CHECK(!c.tmp_write_protect);
		CHECK_EQ_U(c.crc_state, SD_CRC_OK);
	}
}

TEST(csd_v2_sdhc_sdxc)
{
	uint32_t w[4];
	uint8_t b[16] = { 0 };
	struct sd_csd c;
	char t[24];

	/* A 32 GB SDHC card as Linux shows it (CRC byte 0). */
	words("400e00325b590000ed2b7f800a404000", w);
	sd_csd_decode(w, &c);
	CHECK_EQ_U(c.csd_structure, SD_CSD_V2);
	CHECK_STR(sd_csd_type_name(&c), "SDHC");
	CHECK_EQ_U(c.taac_tenth_ns, 10000000);
	CHECK_STR(sd_csd_taac_str(&c, t, sizeof(t)), "1ms");
	CHECK_EQ_U(c.nsac, 0);
	CHECK_EQ_U(c.tran_speed_hz, 25000000);
	CHECK_EQ_U(c.ccc, 0x5b5);
	CHECK_EQ_U(c.read_bl_len, 9);
	CHECK_EQ_U(c.c_size, 0xed2b);
	CHECK_EQ_U(c.capacity_bytes, (0xed2bull + 1) * 512 * 1024);
	CHECK_EQ_U(c.capacity_bytes, 31832670208ull);
	CHECK_EQ_U(c.sectors, 62173184);
	CHECK(c.erase_blk_en);
	CHECK_EQ_U(c.sector_size, 0x7f);
	CHECK_EQ_U(c.wp_grp_size, 0);
	CHECK_EQ_U(c.r2w_factor, 2);
	CHECK_EQ_U(c.write_bl_len, 9);
	CHECK(c.copy);
	CHECK_EQ_U(c.crc_state, SD_CRC_ABSENT);

	/* QEMU's 4 GiB image (CRC present). */
	words("400e00325b5900001fff7f800a4000c3", w);
	sd_csd_decode(w, &c);
	CHECK_EQ_U(c.capacity_bytes, 4ull << 30);
	CHECK_EQ_U(c.crc_state, SD_CRC_OK);
	CHECK(!c.copy);

	/* Generated SDXC (v2.0 layout, §5.3.3): 64 GB, 50 MHz, WP_UPC. */
	put(b, 16, 127, 126, 1);
	put(b, 16, 119, 112, 0x0e);
	put(b, 16, 103, 96, 0x5a);
	put(b, 16, 95, 84, 0xdb7);
	put(b, 16, 83, 80, 9);
	put(b, 16, 69, 48, 0x1dbd3);
	put(b, 16, 46, 46, 1);
	put(b, 16, 45, 39, 0x7f);
	put(b, 16, 28, 26, 2);
	put(b, 16, 25, 22, 9);
	put(b, 16, 13, 13, 1);     /* PERM_WRITE_PROTECT */
	put(b, 16, 9, 9, 1);       /* WP_UPC */
	seal(b);
	decode_csd_bytes(b, &c);
	CHECK_STR(sd_csd_type_name(&c), "SDXC");
	CHECK_EQ_U(c.c_size, 0x1dbd3);
	CHECK_EQ_U(c.capacity_bytes, 63864569856ull);
	CHECK_EQ_U(c.tran_speed_hz, 50000000);
	CHECK_EQ_U(c.ccc, 0xdb7);
	CHECK(c.perm_write_protect);
	CHECK(c.wp_upc);
	CHECK_EQ_U(c.crc_state, SD_CRC_OK);
	/* The top of C_SIZE's 22 bits (a 2 TB card). */
	put(b, 16, 69, 48, 0x3ffeff);
	seal(b);
	decode_csd_bytes(b, &c);
	CHECK_EQ_U(c.capacity_bytes, (0x3ffeffull + 1) * 512 * 1024);
	/* Bits 75..70 are reserved in v2.0: not part of C_SIZE. */
	put(b, 16, 75, 70, 0x3f);
	seal(b);
	decode_csd_bytes(b, &c);
	CHECK_EQ_U(c.c_size, 0x3ffeff);
}

TEST(csd_v3_and_reserved_structure)
{
	uint8_t b[16] = { 0 };
	struct sd_csd c;

	/* CSD v3.0 (SDUC): C_SIZE is 28 bits [75:48]. */
	put(b, 16, 127, 126, 2);
	put(b, 16, 119, 112, 0x0e);
	put(b, 16, 103, 96, 0x32);
	put(b, 16, 83, 80, 9);
	put(b, 16, 75, 48, 0x0800000);
	put(b, 16, 25, 22, 9);
	seal(b);
	decode_csd_bytes(b, &c);
	CHECK_EQ_U(c.csd_structure, SD_CSD_V3);
	CHECK(c.known);
	CHECK_STR(sd_csd_type_name(&c), "SDUC");
	CHECK_EQ_U(c.c_size, 0x0800000);
	CHECK_EQ_U(c.capacity_bytes, (0x0800000ull + 1) * 512 * 1024);

	put(b, 16, 127, 126, 3);
	seal(b);
	decode_csd_bytes(b, &c);
	CHECK_EQ_U(c.csd_structure, SD_CSD_RESERVED);
	CHECK(!c.known);
	CHECK(!c.capacity_valid);
	CHECK_STR(sd_csd_type_name(&c), "reserved");
	CHECK_EQ_U(c.crc_state, SD_CRC_OK);
}

TEST(csd_taac_and_tran_speed_tables)
{
	static const struct {
		uint8_t code;
		const char *text;
		uint32_t tenth_ns;
	} taac[] = {
		{ 0x0e, "1ms", 10000000 },   /* 1.0 x 1 ms */
		{ 0x26, "1.5ms", 15000000 }, /* 1.5 x 1 ms */
		{ 0x08, "1ns", 10 },         /* 1.0 x 1 ns */
		{ 0x10, "1.2ns", 12 },       /* 1.2 x 1 ns */
		{ 0x7f, "80ms", 800000000 }, /* 8.0 x 10 ms */
		{ 0x5d, "500us", 5000000 },  /* 5.0 x 100 us */
		{ 0x1b, "1.3us", 13000 },    /* 1.3 x 1 us */
		{ 0x72, "700ns", 7000 },     /* 7.0 x 100 ns */
		{ 0x7a, "800ns", 8000 },     /* 8.0 x 100 ns */
		{ 0x00, "reserved", 0 },     /* time value 0 */
		{ 0x07, "reserved", 0 },
		{ 0x8e, "reserved", 0 },     /* bit 7 reserved */
	};
	static const struct {
		uint8_t code;
		uint32_t hz;
	} tran[] = {
		{ 0x32, 25000000 }, { 0x5a, 50000000 }, { 0x0b, 100000000 },
		{ 0x2b, 200000000 }, { 0x2a, 20000000 }, { 0x48, 400000 },
		{ 0x11, 1200000 }, { 0x34, 0 }, { 0x37, 0 }, { 0x02, 0 }, { 0xb2, 0 },
	};
	struct csd1_fields f = { 0, 0, 0x32, 0x5f5, 9, 100, 2, 9, 2 };
	uint8_t b[16];
	struct sd_csd c;
	char t[24];
	unsigned i;

	for (i = 0; i < sizeof(taac) / sizeof(taac[0]); i++) {
		f.taac = taac[i].code;
		make_csd1(b, &f);
		decode_csd_bytes(b, &c);
		CHECK_STR(sd_csd_taac_str(&c, t, sizeof(t)), taac[i].text);
		CHECK_EQ_U(c.taac_tenth_ns, taac[i].tenth_ns);
		CHECK_EQ_U(c.taac_valid, taac[i].tenth_ns != 0);
	}
	f.taac = 0x0e;
	for (i = 0; i < sizeof(tran) / sizeof(tran[0]); i++) {
		f.tran = tran[i].code;
		make_csd1(b, &f);
		decode_csd_bytes(b, &c);
		CHECK_EQ_U(c.tran_speed_hz, tran[i].hz);
		CHECK_EQ_U(c.tran_speed_valid, tran[i].hz != 0);
	}
}

/* ---- SCR ------------------------------------------------------------------- */
static void make_scr(uint8_t b[8], unsigned spec, unsigned spec3, unsigned spec4,
		     unsigned specx)
{
	unsigned i;

	for (i = 0; i < 8; i++)
		b[i] = 0;
	put(b, 8, 63, 60, 0);      /* SCR_STRUCTURE */
	put(b, 8, 59, 56, spec);
	put(b, 8, 55, 55, 1);      /* DATA_STAT_AFTER_ERASE */
	put(b, 8, 54, 52, 4);      /* SD_SECURITY: SDXC */
	put(b, 8, 51, 48, 0x5);    /* 1 and 4 bit */
	put(b, 8, 47, 47, spec3);
	put(b, 8, 46, 43, 0x9);    /* EX_SECURITY */
	put(b, 8, 42, 42, spec4);
	put(b, 8, 41, 38, specx);
	put(b, 8, 35, 32, 0xa);    /* CMD23 and CMD58/59 */
	put(b, 8, 31, 0, 0xcafef00d);
}

TEST(scr_versions_generated)
{
	static const struct {
		unsigned spec, spec3, spec4, specx;
		const char *version;
	} v[] = {
		{ 0, 0, 0, 0, "1.0x" },
		{ 1, 0, 0, 0, "1.10" },
		{ 2, 0, 0, 0, "2.00" },
		{ 2, 1, 0, 0, "3.0x" },
		{ 2, 1, 1, 0, "4.xx" },
		{ 2, 1, 0, 1, "5.xx" },
		{ 2, 1, 1, 1, "5.xx" },
		{ 2, 1, 1, 2, "6.xx" },
		{ 2, 1, 0, 3, "7.xx" },
		{ 2, 1, 1, 4, "8.xx" },
		{ 2, 1, 1, 5, "9.xx" },
		/* combinations the table does not define */
		{ 2, 1, 1, 6, "reserved" },
		{ 2, 1, 0, 15, "reserved" },
		{ 3, 0, 0, 0, "reserved" },
		{ 1, 1, 0, 0, "reserved" },
		{ 0, 0, 1, 0, "reserved" },
		{ 2, 0, 1, 0, "reserved" },
		{ 2, 0, 0, 1, "reserved" },
	};
	uint8_t b[8];
	struct sd_scr s;
	unsigned i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		make_scr(b, v[i].spec, v[i].spec3, v[i].spec4, v[i].specx);
		sd_scr_decode(b, &s);
		CHECK_STR(s.spec_version, v[i].version);
		CHECK_EQ_U(s.spec_valid, strcmp(v[i].version, "reserved") != 0);
		CHECK_EQ_U(s.sd_spec, v[i].spec);
		CHECK_EQ_U(s.sd_spec3, v[i].spec3);
		CHECK_EQ_U(s.sd_spec4, v[i].spec4);
		CHECK_EQ_U(s.sd_specx, v[i].specx);
		CHECK_EQ_U(s.scr_structure, 0);
		CHECK(s.data_stat_after_erase);
		CHECK_EQ_U(s.sd_security, 4);
		CHECK_STR(sd_scr_security_name(s.sd_security), "SDXC security 3.xx");
		CHECK_EQ_U(s.sd_bus_widths, SD_SCR_BUS_WIDTH_1 | SD_SCR_BUS_WIDTH_4);
		CHECK_EQ_U(s.ex_security, 9);
		CHECK_EQ_U(s.cmd_support, SD_SCR_CMD23 | SD_SCR_CMD58_59);
		CHECK_EQ_U(s.manufacturer, 0xcafef00d);
	}
}

TEST(scr_literals)
{
	uint8_t b[8];
	struct sd_scr s;

	/* QEMU's card. */
	bytes("0225000000000000", b, 8);
	sd_scr_decode(b, &s);
	CHECK_STR(s.spec_version, "2.00");
	CHECK_EQ_U(s.sd_security, 2);
	CHECK_EQ_U(s.sd_bus_widths, 0x5);
	CHECK_EQ_U(s.cmd_support, 0);
	CHECK(!s.data_stat_after_erase);
	/* Typical SDHC cards as Linux shows them. */
	bytes("0235800100000000", b, 8);
	sd_scr_decode(b, &s);
	CHECK_STR(s.spec_version, "3.0x");
	CHECK_EQ_U(s.cmd_support, SD_SCR_CMD20);
	CHECK_EQ_U(s.sd_security, 3);
	bytes("0235804300000000", b, 8);
	sd_scr_decode(b, &s);
	CHECK_STR(s.spec_version, "5.xx");
	CHECK_EQ_U(s.cmd_support, SD_SCR_CMD20 | SD_SCR_CMD23);
	bytes("0245848f00000000", b, 8);
	sd_scr_decode(b, &s);
	CHECK_STR(s.spec_version, "6.xx");
	CHECK_EQ_U(s.sd_security, 4);
	CHECK_EQ_U(s.cmd_support, 0xf);
	/* SD 1.01 card with 1-bit only. */
	bytes("0011000000000000", b, 8);
	sd_scr_decode(b, &s);
	CHECK_STR(s.spec_version, "1.0x");
	CHECK_EQ_U(s.sd_security, 1);
	CHECK_EQ_U(s.sd_bus_widths, SD_SCR_BUS_WIDTH_1);
	/* SCR_STRUCTURE 1 is reserved, decoded but shown as such. */
	bytes("1225000000000000", b, 8);
	sd_scr_decode(b, &s);
	CHECK_EQ_U(s.scr_structure, 1);
	CHECK_STR(sd_scr_security_name(7), "reserved");
}

/* ---- SD Status ------------------------------------------------------------- */
struct ssr_fields {
	unsigned bus, secured, type, prot, speed, move, au, esize, etime, eoff,
		 uhs, uhs_au, video, vsc_au, sus, app, pe, discard, fule;
};

static void make_ssr(uint8_t b[64], const struct ssr_fields *f)
{
	unsigned i;

	for (i = 0; i < 64; i++)
		b[i] = 0;
	put(b, 64, 511, 510, f->bus);
	put(b, 64, 509, 509, f->secured);
	put(b, 64, 495, 480, f->type);
	put(b, 64, 479, 448, f->prot);
	put(b, 64, 447, 440, f->speed);
	put(b, 64, 439, 432, f->move);
	put(b, 64, 431, 428, f->au);
	put(b, 64, 423, 408, f->esize);
	put(b, 64, 407, 402, f->etime);
	put(b, 64, 401, 400, f->eoff);
	put(b, 64, 399, 396, f->uhs);
	put(b, 64, 395, 392, f->uhs_au);
	put(b, 64, 391, 384, f->video);
	put(b, 64, 377, 368, f->vsc_au);
	put(b, 64, 367, 346, f->sus);
	put(b, 64, 339, 336, f->app);
	put(b, 64, 335, 328, f->pe);
	put(b, 64, 313, 313, f->discard);
	put(b, 64, 312, 312, f->fule);
}

TEST(ssr_generated)
{
	struct ssr_fields f = {
		.bus = 2, .secured = 1, .type = 0, .prot = 0x123456, .speed = 4,
		.move = 0xff, .au = 0xa, .esize = 0x1234, .etime = 0x3f, .eoff = 3,
		.uhs = 1, .uhs_au = 0xf, .video = 60, .vsc_au = 0x2ab,
		.sus = 0x2abcde, .app = 1, .pe = 0x0d, .discard = 0, .fule = 1,
	};
	static const struct { unsigned code; int num; } speed[] = {
		{ 0, 0 }, { 1, 2 }, { 2, 4 }, { 3, 6 }, { 4, 10 }, { 5, -1 }, { 0xff, -1 },
	};
	static const struct { unsigned code; uint32_t bytes; } au[] = {
		{ 0, 0 }, { 1, 16 << 10 }, { 2, 32 << 10 }, { 3, 64 << 10 },
		{ 4, 128 << 10 }, { 5, 256 << 10 }, { 6, 512 << 10 }, { 7, 1 << 20 },
		{ 8, 2 << 20 }, { 9, 4 << 20 }, { 0xa, 8 << 20 }, { 0xb, 12 << 20 },
		{ 0xc, 16 << 20 }, { 0xd, 24 << 20 }, { 0xe, 32 << 20 }, { 0xf, 64 << 20 },
	};
	uint8_t b[64];
	struct sd_ssr s;
	unsigned i;

	make_ssr(b, &f);
	sd_ssr_decode(b, &s);
	CHECK_EQ_U(s.dat_bus_width, 2);
	CHECK_STR(sd_ssr_bus_width_name(s.dat_bus_width), "4-bit");
	CHECK(s.secured_mode);
	CHECK_EQ_U(s.sd_card_type, 0);
	CHECK_EQ_U(s.size_of_protected_area, 0x123456);
	CHECK_EQ_I(s.speed_class_num, 10);
	CHECK_EQ_U(s.performance_move, 0xff);
	CHECK_EQ_U(s.au_size_bytes, 8u << 20);
	CHECK_EQ_U(s.erase_size, 0x1234);
	CHECK_EQ_U(s.erase_timeout, 0x3f);
	CHECK_EQ_U(s.erase_offset, 3);
	CHECK_EQ_U(s.uhs_speed_grade, 1);
	CHECK(s.uhs_speed_grade_valid);
	CHECK_EQ_U(s.uhs_au_size_bytes, 64u << 20);
	CHECK_EQ_U(s.video_speed_class, 60);
	CHECK(s.video_speed_class_valid);
	CHECK_EQ_U(s.vsc_au_size, 0x2ab);
	CHECK_EQ_U(s.sus_addr, 0x2abcde);
	CHECK_EQ_U(s.app_perf_class, 1);
	CHECK_STR(sd_ssr_app_perf_name(s.app_perf_class), "A1");
	CHECK_EQ_U(s.performance_enhance, 0x0d);
	CHECK_EQ_U(s.cq_depth, 2);          /* 00001b: depth 2 */
	CHECK(s.cache);
	CHECK(!s.host_maintenance);
	CHECK(s.card_maintenance);
	CHECK(!s.discard_support);
	CHECK(s.fule_support);

	for (i = 0; i < sizeof(speed) / sizeof(speed[0]); i++) {
		f.speed = speed[i].code;
		make_ssr(b, &f);
		sd_ssr_decode(b, &s);
		CHECK_EQ_I(s.speed_class_num, speed[i].num);
	}
	for (i = 0; i < sizeof(au) / sizeof(au[0]); i++) {
		f.au = au[i].code;
		f.uhs_au = au[i].code;
		make_ssr(b, &f);
		sd_ssr_decode(b, &s);
		CHECK_EQ_U(s.au_size_bytes, au[i].bytes);
		/* UHS_AU_SIZE 1..6 are "not used". */
		CHECK_EQ_U(s.uhs_au_size_bytes, au[i].code >= 7 ? au[i].bytes : 0);
	}
	/* UHS grades 0, 1, 3 are defined; 2 and 4.. are not. */
	f.uhs = 3;
	make_ssr(b, &f);
	sd_ssr_decode(b, &s);
	CHECK(s.uhs_speed_grade_valid);
	f.uhs = 2;
	make_ssr(b, &f);
	sd_ssr_decode(b, &s);
	CHECK(!s.uhs_speed_grade_valid);
	/* Video classes. */
	for (i = 0; i < 100; i++) {
		f.video = i;
		make_ssr(b, &f);
		sd_ssr_decode(b, &s);
		CHECK_EQ_U(s.video_speed_class_valid,
			   i == 0 || i == 6 || i == 10 || i == 30 || i == 60 || i == 90);
	}
	/* A2, command queue depth 32, reserved app class. */
	f.app = 2;
	f.pe = 0xff;
	make_ssr(b, &f);
	sd_ssr_decode(b, &s);
	CHECK_STR(sd_ssr_app_perf_name(s.app_perf_class), "A2");
	CHECK_EQ_U(s.cq_depth, 32);
	CHECK(s.host_maintenance);
	f.app = 3;
	f.pe = 0;
	make_ssr(b, &f);
	sd_ssr_decode(b, &s);
	CHECK_STR(sd_ssr_app_perf_name(s.app_perf_class), "reserved");
	CHECK_EQ_U(s.cq_depth, 0);
	CHECK(!s.cache);
	/* Reserved bus width, ROM card type. */
	f.bus = 1;
	f.type = 1;
	make_ssr(b, &f);
	sd_ssr_decode(b, &s);
	CHECK_STR(sd_ssr_bus_width_name(s.dat_bus_width), "reserved");
	CHECK_STR(sd_ssr_card_type_name(s.sd_card_type), "SD ROM card");
}

/* An A2 / V30 / U3 / class 10 card, by hand:
 * 80 00 | 0000 | 08000000 | 04 | 00 | 9 0 | 0014 | 0a<<2|1 = 29 | 3 9 | 1e |
 * 00 04 (VSC_AU 4) | 00 00 00 (SUS_ADDR) | 02 (A2) | fd (CQ 32, cache, card
 * maintenance) | 00 | 02 (discard) | 39 x 00 */
static const char *ssr_a2_hex =
	"8000000008000000040090001429391e000400000002fd0002"
	"0000000000000000000000000000000000000000000000"
	"00000000000000000000000000000000";

TEST(ssr_literal_a2_card)
{
	uint8_t b[64];
	struct sd_ssr s;
	uint32_t ms = 0;

	bytes(ssr_a2_hex, b, 64);
	sd_ssr_decode(b, &s);
	CHECK_EQ_U(s.dat_bus_width, 2);
	CHECK_EQ_U(s.size_of_protected_area, 0x08000000);
	CHECK_EQ_I(s.speed_class_num, 10);
	CHECK_EQ_U(s.au_size_bytes, 4u << 20);
	CHECK_EQ_U(s.erase_size, 20);
	CHECK_EQ_U(s.erase_timeout, 10);
	CHECK_EQ_U(s.erase_offset, 1);
	CHECK_EQ_U(s.uhs_speed_grade, 3);
	CHECK_EQ_U(s.uhs_au_size_bytes, 4u << 20);
	CHECK_EQ_U(s.video_speed_class, 30);
	CHECK_EQ_U(s.vsc_au_size, 4);
	CHECK_EQ_U(s.sus_addr, 0);
	CHECK_STR(sd_ssr_app_perf_name(s.app_perf_class), "A2");
	CHECK_EQ_U(s.cq_depth, 32);
	CHECK(s.cache);
	CHECK(!s.host_maintenance);
	CHECK(s.card_maintenance);
	CHECK(s.discard_support);
	CHECK(!s.fule_support);

	/* §4.14: 10 s / 20 AUs * 40 AUs + 1 s = 21 s. */
	CHECK_EQ_I(sd_ssr_erase_timeout_ms(&s, 40, &ms), 0);
	CHECK_EQ_U(ms, 21000);
	CHECK_EQ_I(sd_ssr_erase_timeout_ms(&s, 1, &ms), 0);
	CHECK_EQ_U(ms, 1500);
	CHECK_EQ_U(sd_ssr_erase_us_per_au(&s), 500000);
}

TEST(ssr_erase_timeout_helper)
{
	struct ssr_fields f = { .esize = 3, .etime = 1, .eoff = 0 };
	uint8_t b[64];
	struct sd_ssr s;
	uint32_t ms = 7;

	make_ssr(b, &f);
	sd_ssr_decode(b, &s);
	/* 1 s / 3 AUs: rounded up, never short. */
	CHECK_EQ_I(sd_ssr_erase_timeout_ms(&s, 1, &ms), 0);
	CHECK_EQ_U(ms, 334);
	CHECK_EQ_I(sd_ssr_erase_timeout_ms(&s, 3, &ms), 0);
	CHECK_EQ_U(ms, 1000);
	CHECK_EQ_U(sd_ssr_erase_us_per_au(&s), 333334);
	/* Large counts do not overflow. */
	f.esize = 1;
	f.etime = 63;
	f.eoff = 3;
	make_ssr(b, &f);
	sd_ssr_decode(b, &s);
	CHECK_EQ_I(sd_ssr_erase_timeout_ms(&s, 1000000, &ms), 0);
	CHECK_EQ_U(ms, 0xffffffffu);
	/* No data: ERASE_SIZE 0 or ERASE_TIMEOUT 0. */
	f.esize = 0;
	make_ssr(b, &f);
	sd_ssr_decode(b, &s);
	CHECK_EQ_I(sd_ssr_erase_timeout_ms(&s, 1, &ms), -ENOTSUP);
	CHECK_EQ_U(sd_ssr_erase_us_per_au(&s), 0);
	f.esize = 5;
	f.etime = 0;
	make_ssr(b, &f);
	sd_ssr_decode(b, &s);
	CHECK_EQ_I(sd_ssr_erase_timeout_ms(&s, 1, &ms), -ENOTSUP);
}

TEST(ssr_qemu_all_zero_and_protected_area)
{
	uint8_t b[64] = { 0 };
	struct ssr_fields f = { .prot = 100 };
	struct sd_ssr s;
	struct csd1_fields cf = { 0x26, 0, 0x32, 0x5f5, 10, 4095, 7, 10, 4 };
	uint8_t cb[16];
	struct sd_csd c;
	uint32_t w[4];

	/* QEMU 7.2 returns an all-zero SD Status. */
	sd_ssr_decode(b, &s);
	CHECK_STR(sd_ssr_bus_width_name(s.dat_bus_width), "1-bit");
	CHECK_EQ_I(s.speed_class_num, 0);
	CHECK_EQ_U(s.au_size_bytes, 0);
	CHECK_STR(sd_ssr_app_perf_name(s.app_perf_class), "none");
	CHECK(s.uhs_speed_grade_valid);
	CHECK(s.video_speed_class_valid);

	/* SDSC: units of MULT * BLOCK_LEN; SDHC: bytes. */
	make_ssr(b, &f);
	sd_ssr_decode(b, &s);
	make_csd1(cb, &cf);
	decode_csd_bytes(cb, &c);
	CHECK_EQ_U(sd_ssr_protected_bytes(&s, &c), 100ull * 512 * 1024);
	words("400e00325b590000ed2b7f800a404000", w);
	sd_csd_decode(w, &c);
	CHECK_EQ_U(sd_ssr_protected_bytes(&s, &c), 100);
}

/* ---- CMD6 ------------------------------------------------------------------ */
TEST(switch_generated)
{
	uint8_t b[64] = { 0 };
	struct sd_switch sw;
	unsigned g;

	put(b, 64, 511, 496, 200);                  /* max current */
	for (g = 1; g <= 6; g++) {
		put(b, 64, 400 + 16 * (g - 1) + 15, 400 + 16 * (g - 1), 0x8000 | g);
		put(b, 64, 376 + 4 * (g - 1) + 3, 376 + 4 * (g - 1), g == 1 ? 1 : 0xf);
		put(b, 64, 272 + 16 * (g - 1) + 15, 272 + 16 * (g - 1), 0x100 * g);
	}
	put(b, 64, 375, 368, 1);                    /* version 1 */
	sd_switch_decode(b, &sw);
	CHECK_EQ_U(sw.max_current_ma, 200);
	CHECK_EQ_U(sw.version, 1);
	CHECK(sw.busy_valid);
	for (g = 0; g < 6; g++) {
		CHECK_EQ_U(sw.support[g], 0x8000 | (g + 1));
		CHECK_EQ_U(sw.selected[g], g == 0 ? 1 : 0xf);
		CHECK_EQ_U(sw.busy[g], 0x100 * (g + 1));
	}
	CHECK_STR(sd_switch_fn_name(1, sw.selected[0]), "high-speed/SDR25");
	CHECK_STR(sd_switch_fn_name(2, sw.selected[1]), "error/unsupported");
	CHECK_STR(sd_switch_fn_name(1, 4), "DDR50");
	CHECK_STR(sd_switch_fn_name(1, 7), "reserved");
	CHECK_STR(sd_switch_fn_name(3, 2), "type C");
	CHECK(sd_switch_fn_name(2, 3) == NULL);

	/* Version 0: busy status bits are not defined and not reported. */
	put(b, 64, 375, 368, 0);
	sd_switch_decode(b, &sw);
	CHECK(!sw.busy_valid);
	for (g = 0; g < 6; g++)
		CHECK_EQ_U(sw.busy[g], 0);
}

TEST(switch_literal)
{
	/* 200 mA; groups 6..2 support function 0 (+15), group 1 default and
	 * high speed; HS selected; version 1; group 1 busy bit 1. */
	static const char *hex =
		"00c8" "8001" "8001" "8001" "8001" "8001" "8003" "00" "00" "01" "01"
		"0000" "0000" "0000" "0000" "0000" "0002"
		"000000000000000000000000000000000000"
		"00000000000000000000000000000000";
	uint8_t b[64];
	struct sd_switch sw;

	bytes(hex, b, 64);
	sd_switch_decode(b, &sw);
	CHECK_EQ_U(sw.max_current_ma, 200);
	CHECK_EQ_U(sw.support[0], 0x8003);
	CHECK_EQ_U(sw.support[5], 0x8001);
	CHECK_EQ_U(sw.selected[0], 1);
	CHECK_EQ_U(sw.selected[1], 0);
	CHECK_EQ_U(sw.version, 1);
	CHECK_EQ_U(sw.busy[0], 2);
	CHECK_EQ_U(sw.busy[1], 0);
}

/* ---- OCR ------------------------------------------------------------------- */
TEST(ocr_decode)
{
	struct sd_ocr o;

	sd_ocr_decode(0x80ffff00, &o);          /* QEMU SDSC */
	CHECK(o.powered_up);
	CHECK(!o.ccs);
	CHECK_EQ_U(o.min_mv, 2700);
	CHECK_EQ_U(o.max_mv, 3600);
	CHECK(o.window_contiguous);
	CHECK_EQ_U(o.reserved_bits, 0x7f00);
	sd_ocr_decode(0xc0ff8000, &o);          /* QEMU SDHC */
	CHECK(o.ccs);
	CHECK_EQ_U(o.reserved_bits, 0);
	sd_ocr_decode(0x41ff8000, &o);          /* still busy: CCS not valid yet */
	CHECK(!o.powered_up);
	CHECK(!o.ccs);
	CHECK(o.s18a);
	sd_ocr_decode(0xe8300000, &o);
	CHECK(o.uhs2);
	CHECK(o.co2t);
	CHECK_EQ_U(o.min_mv, 3200);
	CHECK_EQ_U(o.max_mv, 3400);
	sd_ocr_decode(0x80a00000, &o);          /* 3.3-3.4 and 3.5-3.6 only */
	CHECK(!o.window_contiguous);
	CHECK_EQ_U(o.min_mv, 3300);
	CHECK_EQ_U(o.max_mv, 3600);
	sd_ocr_decode(0x80000000, &o);
	CHECK_EQ_U(o.min_mv, 0);
	CHECK_EQ_U(o.max_mv, 0);
	sd_ocr_decode(0x00008000, &o);
	CHECK_EQ_U(o.min_mv, 2700);
	CHECK_EQ_U(o.max_mv, 2800);
}

/* ---- hex parsing ----------------------------------------------------------- */
TEST(hex_parser)
{
	uint8_t b[8];
	uint32_t w[4];
	size_t pos = 99;

	CHECK_EQ_I(sd_hex_parse("0225000000000000", b, 8, &pos), 0);
	CHECK_EQ_U(b[0], 0x02);
	CHECK_EQ_U(b[1], 0x25);
	CHECK_EQ_I(sd_hex_parse("ABCDEF0123456789\n", b, 8, NULL), 0);
	CHECK_EQ_U(b[0], 0xab);
	CHECK_EQ_U(b[7], 0x89);
	CHECK_EQ_I(sd_hex_parse("  abcdef0123456789  ", b, 8, NULL), 0);

	CHECK_EQ_I(sd_hex_parse("022500000000000", b, 8, &pos), -ERANGE);   /* 15 */
	CHECK_EQ_U(pos, 15);
	CHECK_EQ_I(sd_hex_parse("022500000000000000", b, 8, &pos), -ERANGE);
	CHECK_EQ_U(pos, 18);
	CHECK_EQ_I(sd_hex_parse("0x25000000000000", b, 8, &pos), -EINVAL);
	CHECK_EQ_U(pos, 1);
	CHECK_EQ_I(sd_hex_parse("02250000 00000000", b, 8, &pos), -EINVAL);
	CHECK_EQ_U(pos, 8);
	CHECK_EQ_I(sd_hex_parse("022500000000000g", b, 8, &pos), -EINVAL);
	CHECK_EQ_U(pos, 15);
	CHECK_EQ_I(sd_hex_parse("", b, 8, &pos), -EINVAL);
	CHECK_EQ_I(sd_hex_parse(" \n", b, 8, &pos), -EINVAL);
	CHECK_EQ_I(sd_hex_parse(NULL, b, 8, &pos), -EINVAL);
	CHECK_EQ_I(sd_hex_parse_words("aa585951454d552101deadbeef0062", w, &pos), -ERANGE);
	CHECK_EQ_U(pos, 30);
	CHECK_EQ_I(sd_hex_parse_words("aa585951454d552101deadbeef006219", w, NULL), 0);
	CHECK_EQ_U(w[1], 0x454d5521);
	CHECK_EQ_U(w[2], 0x01deadbe);
}

TEST(words_bytes_roundtrip)
{
	static const uint32_t w[4] = { 0x00112233, 0x44556677, 0x8899aabb, 0xccddeeff };
	uint8_t b[16];
	uint32_t back[4];
	unsigned i;

	sd_regs_words_to_bytes(w, b);
	for (i = 0; i < 16; i++)
		CHECK_EQ_U(b[i], i * 0x11);
	sd_regs_bytes_to_words(b, back);
	for (i = 0; i < 4; i++)
		CHECK_EQ_U(back[i], w[i]);
}

/* ---- the card record ------------------------------------------------------- */
static char cap_buf[16384];
static size_t cap_len;

static void cap_putc(char c)
{
	if (cap_len + 1 < sizeof(cap_buf)) {
		cap_buf[cap_len++] = c;
		cap_buf[cap_len] = '\0';
	}
}

static void fill_card(struct sd_card *card)
{
	memset(card, 0, sizeof(*card));
	card->present = true;
	card->initialised = true;
	card->ocr = 0xc0ff8000;
	card->rca = 0x4567;
	sd_hex_parse_words("03534453433332478012345678013651", card->cid, NULL);
	sd_hex_parse_words("400e00325b590000ed2b7f800a404039", card->csd, NULL);
	sd_hex_parse("0235804300000000", card->scr, 8, NULL);
	sd_hex_parse(ssr_a2_hex, card->ssr, 64, NULL);
	memset(card->sw_status, 0xff, sizeof(card->sw_status)); /* worst case width */
	card->have_scr = card->have_ssr = card->have_sw = true;
	card->high_capacity = true;
	card->capacity_bytes = 31832670208ull;
	card->blocks = 62173184;
	card->width = 4;
	card->timing = SD_TIMING_HS;
	card->clock_hz = 50000000;
	card->max_clock_hz = 50000000;
}

TEST(card_record_fits_and_is_complete)
{
	struct sd_card card;

	fill_card(&card);
	cap_len = 0;
	cap_buf[0] = '\0';
	host_console_hook = cap_putc;
	card_report_record(&card);
	host_console_hook = NULL;

	CHECK(strncmp(cap_buf, "@ {\"type\":\"card\"", 16) == 0);
	CHECK(strstr(cap_buf, "\"type\":\"error\"") == NULL);
	CHECK(strstr(cap_buf, "\"pnm\":\"SC32G\"") != NULL);
	CHECK(strstr(cap_buf, "\"capacity_bytes\":31832670208") != NULL);
	CHECK(strstr(cap_buf, "\"sd_spec\":\"5.xx\"") != NULL);
	CHECK(strstr(cap_buf, "\"app_perf_class\":\"A2\"") != NULL);
	CHECK(strstr(cap_buf, "\"switch\":{\"raw\":\"ffff") != NULL);
	CHECK(strstr(cap_buf, "\"rca\":\"0x4567\"") != NULL);
	CHECK(strstr(cap_buf, "\"crc_ok\":true") != NULL);
	CHECK(cap_len > 0 && cap_buf[cap_len - 1] == '\n');
	printf("  card record: %zu bytes (limit %u)\n", cap_len, RECORD_MAX_BYTES);

	/* CSD v1 has more fields (VDD currents, C_SIZE_MULT): still fits. */
	sd_hex_parse_words("002600325f5ae3ffffffdfff92a000b7", card.csd, NULL);
	cap_len = 0;
	host_console_hook = cap_putc;
	card_report_record(&card);
	host_console_hook = NULL;
	CHECK(strstr(cap_buf, "\"type\":\"error\"") == NULL);
	CHECK(strstr(cap_buf, "\"vdd_w_curr_max_ma\":") != NULL);
	CHECK(strstr(cap_buf, "\"capacity_bytes\":2147483648") != NULL);
	printf("  card record with CSD v1: %zu bytes\n", cap_len);

	/* What was not read is null, not made up. */
	card.have_scr = card.have_ssr = card.have_sw = false;
	cap_len = 0;
	host_console_hook = cap_putc;
	card_report_record(&card);
	host_console_hook = NULL;
	CHECK(strstr(cap_buf, "\"scr\":null,\"ssr\":null,\"switch\":null") != NULL);
}

TEST(card_report_text)
{
	struct sd_card card;

	fill_card(&card);
	cap_len = 0;
	host_console_hook = cap_putc;
	card_report_print(&card);
	host_console_hook = NULL;
	CHECK(strstr(cap_buf, "manufacturer 0x03 (SanDisk)") != NULL);
	CHECK(strstr(cap_buf, "made 2019-06") != NULL);
	CHECK(strstr(cap_buf, "SD spec 5.xx") != NULL);
	CHECK(strstr(cap_buf, "speed class 10, UHS grade U3, video class V30, app class A2") != NULL);
	CHECK(strstr(cap_buf, "erase: 20 AUs in 10 s + 1 s offset") != NULL);
	CHECK(strstr(cap_buf, "4-bit HS at 50000000 Hz") != NULL);
}

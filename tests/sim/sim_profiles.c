/*
 * sim_profiles.c - the card profiles: register contents and timing
 * distributions for the kinds of cards met in the real world, plus a few
 * made for tests (instantaneous card, fixed latency, faulty cards).
 *
 * Timing figures are plausible values for the class of card, chosen from
 * the speed-class / A1 / A2 minimums (SD Physical Layer §4.13, §4.16) and
 * published random/sequential figures for such cards; they are not
 * measurements of the named manufacturers' products. Names of
 * manufacturers in the CID are the common MID assignments.
 */
#include <string.h>

#include "tests/sim/sim.h"

/* Profiles start from TYPICAL_TIMING and override single fields: the
 * later designated initializer wins (C11 6.7.9p19), which is the point. */
#pragma GCC diagnostic ignored "-Woverride-init"

#define US(x) ((uint64_t)(x) * 1000ull)
#define MS(x) ((uint64_t)(x) * 1000000ull)
#define GB(x) ((uint64_t)(x) * 1000000000ull)
#define MIB(x) ((uint64_t)(x) << 20)
#define GIB(x) ((uint64_t)(x) << 30)

/* Distribution shorthands: fixed value; min + exponential mean. */
#define FIXED(v) { .min_ns = (v) }
#define EXPO(m, e) { .min_ns = (m), .mean_extra_ns = (e) }
#define STALLS(m, e, ppm, a, b) \
	{ .min_ns = (m), .mean_extra_ns = (e), .stall_ppm = (ppm), \
	  .stall_min_ns = (a), .stall_max_ns = (b) }

/* A typical modern card's timing; profiles override what differs. */
#define TYPICAL_TIMING                                                     \
	.ncr_clocks = 8, .init_busy_us = 250000,                           \
	.read_first = STALLS(US(180), US(60), 500, MS(2), MS(8)),          \
	.read_next = STALLS(US(1), US(2), 300, US(200), MS(2)),            \
	.write_single = STALLS(US(400), US(400), 3000, MS(20), MS(80)),    \
	.write_next = STALLS(US(10), US(10), 200, MS(2), MS(30)),          \
	.write_last = EXPO(US(300), US(400)),                              \
	.write_slow = EXPO(US(10), US(4)),                                 \
	.cache_blocks = 8192, .cache_drain_blocks_per_ms = 20,             \
	.erase_base = EXPO(MS(2), MS(2)), .erase_per_au_ns = US(250)

static const struct sim_profile profiles[] = {
	{
		.name = "sdsc-v1-128m",
		.desc = "SDSC, Physical Layer 1.01: no CMD8, no CMD6, 128 MB",
		.mid = 0x01, .oid = "PA", .pnm = "P128M", .prv = 0x10,
		.psn = 0x00c0ffee, .mdt_year = 2004, .mdt_month = 6,
		.kind = SIM_SDSC_V1, .capacity_bytes = MIB(128),
		.read_bl_len = 9, .taac = 0x26, .nsac = 0, .r2w_factor = 4,
		.ccc = 0x1b5, .sd_spec = 0, .bus4 = true, .no_cmd6 = true,
		.ncr_clocks = 20, .init_busy_us = 400000,
		.read_first = EXPO(US(900), US(300)),
		.read_next = EXPO(US(40), US(20)),
		.write_single = STALLS(MS(3), MS(2), 5000, MS(50), MS(200)),
		.write_next = EXPO(US(600), US(300)),
		.write_last = EXPO(MS(2), MS(1)),
		.write_slow = EXPO(US(600), US(300)),
		.erase_base = EXPO(MS(20), MS(10)), .erase_per_au_ns = MS(2),
		.au_size = 4, .erase_size = 1, .erase_timeout = 1,
		.erase_offset = 1,
	},
	{
		.name = "sdsc-v1.1-1g",
		.desc = "SDSC, Physical Layer 1.10: no CMD8, CMD6 and High Speed, 1 GB",
		.mid = 0x02, .oid = "TM", .pnm = "SD01G", .prv = 0x21,
		.psn = 0x1234abcd, .mdt_year = 2007, .mdt_month = 3,
		.kind = SIM_SDSC_V1, .capacity_bytes = GIB(1),
		.read_bl_len = 9, .taac = 0x2d, .nsac = 0x01, .r2w_factor = 5,
		.sd_spec = 1, .bus4 = true, .hs = true,
		.speed_class = 0, .au_size = 7, .erase_size = 1,
		.erase_timeout = 2, .erase_offset = 1,
		TYPICAL_TIMING,
		.ncr_clocks = 16,
		.read_first = EXPO(US(500), US(200)),
		.write_single = STALLS(MS(1), MS(1), 3000, MS(30), MS(120)),
		.write_next = EXPO(US(150), US(100)),
		.cache_blocks = 0,
	},
	{
		.name = "sdsc-v2-2g",
		.desc = "SDSC, Physical Layer 2.00 (answers CMD8, CCS=0), 2 GB, READ_BL_LEN 10",
		.mid = 0x03, .oid = "SD", .pnm = "SU02G", .prv = 0x80,
		.psn = 0x0badcafe, .mdt_year = 2010, .mdt_month = 11,
		.kind = SIM_SDSC_V2, .capacity_bytes = GIB(2),
		.read_bl_len = 10, .taac = 0x26, .nsac = 0, .r2w_factor = 5,
		.sd_spec = 2, .bus4 = true, .hs = true,
		.speed_class = 2, .au_size = 9, .erase_size = 4,
		.erase_timeout = 4, .erase_offset = 2,
		TYPICAL_TIMING,
	},
	{
		.name = "sdsc-v2-512m-ff",
		.desc = "SDSC v2 512 MB, erased blocks read 0xFF, slow erase",
		.mid = 0x1d, .oid = "AD", .pnm = "SD512", .prv = 0x11,
		.psn = 0x00051200, .mdt_year = 2009, .mdt_month = 1,
		.kind = SIM_SDSC_V2, .capacity_bytes = MIB(512),
		.read_bl_len = 9, .taac = 0x0e, .nsac = 0x32, .r2w_factor = 2,
		.sd_spec = 2, .bus4 = true, .hs = true, .erase_ff = true,
		.speed_class = 1, .au_size = 7, .erase_size = 2,
		.erase_timeout = 10, .erase_offset = 2,
		TYPICAL_TIMING,
		.erase_base = EXPO(MS(40), MS(20)), .erase_per_au_ns = MS(5),
	},
	{
		.name = "qemu-like-1g",
		.desc = "the card QEMU emulates (MID 0xAA 'XY' 'QEMU!'), SDSC 1 GiB, instant init",
		.mid = 0xaa, .oid = "XY", .pnm = "QEMU!", .prv = 0x01,
		.psn = 0xdeadbeef, .mdt_year = 2006, .mdt_month = 2,
		.kind = SIM_SDSC_V2, .capacity_bytes = GIB(1),
		.read_bl_len = 9, .taac = 0x0e, .nsac = 0x01, .r2w_factor = 4,
		.ccc = 0x5f5, .sd_spec = 2, .bus4 = true, .hs = true,
		TYPICAL_TIMING,
		.init_busy_us = 0,
	},
	{
		.name = "sdhc-c4-8g",
		.desc = "SDHC class 4, 8 GB, Physical Layer 2.00",
		.mid = 0x02, .oid = "TM", .pnm = "SD08G", .prv = 0x30,
		.psn = 0x40404040, .mdt_year = 2011, .mdt_month = 5,
		.kind = SIM_SDHC, .capacity_bytes = GB(8) / MIB(1) * MIB(1),
		.sd_spec = 2, .bus4 = true, .hs = true,
		.speed_class = 2, .au_size = 9, .erase_size = 8,
		.erase_timeout = 8, .erase_offset = 2,
		TYPICAL_TIMING,
		.read_first = STALLS(US(350), US(150), 500, MS(2), MS(10)),
		.write_single = STALLS(MS(1), MS(2), 5000, MS(40), MS(150)),
		.write_next = STALLS(US(60), US(60), 3000, MS(5), MS(40)),
		.write_slow = EXPO(US(110), US(20)),
		.cache_blocks = 2048, .cache_drain_blocks_per_ms = 9,
	},
	{
		.name = "sdhc-c10-16g",
		.desc = "SDHC class 10 (UHS-I U1 card run at HS), 16 GB, Physical Layer 3.01",
		.mid = 0x03, .oid = "SD", .pnm = "SL16G", .prv = 0x80,
		.psn = 0x16161616, .mdt_year = 2016, .mdt_month = 8,
		.kind = SIM_SDHC, .capacity_bytes = GB(16) / MIB(1) * MIB(1),
		.sd_spec = 2, .sd_spec3 = 1, .bus4 = true, .hs = true,
		.speed_class = 4, .uhs_grade = 1, .au_size = 9,
		.erase_size = 16, .erase_timeout = 16, .erase_offset = 1,
		TYPICAL_TIMING,
		.write_next = STALLS(US(6), US(6), 200, MS(2), MS(30)),
	},
	{
		.name = "sdhc-c10-32g-cmd23",
		.desc = "SDHC class 10, 32 GB, CMD23 supported",
		.mid = 0x1b, .oid = "SM", .pnm = "EB1QT", .prv = 0x30,
		.psn = 0x32323232, .mdt_year = 2018, .mdt_month = 2,
		.kind = SIM_SDHC, .capacity_bytes = GB(32) / MIB(1) * MIB(1),
		.sd_spec = 2, .sd_spec3 = 1, .bus4 = true, .hs = true,
		.cmd23 = true, .speed_class = 4, .uhs_grade = 1, .au_size = 9,
		.erase_size = 16, .erase_timeout = 16, .erase_offset = 1,
		TYPICAL_TIMING,
	},
	{
		.name = "sdxc-u1-64g",
		.desc = "SDXC UHS-I U1, 64 GB, Physical Layer 3.01, CMD23",
		.mid = 0x27, .oid = "PH", .pnm = "SD64G", .prv = 0x60,
		.psn = 0x64646464, .mdt_year = 2019, .mdt_month = 4,
		.kind = SIM_SDXC, .capacity_bytes = GB(64) / MIB(1) * MIB(1),
		.sd_spec = 2, .sd_spec3 = 1, .bus4 = true, .hs = true,
		.cmd23 = true, .speed_class = 4, .uhs_grade = 1, .au_size = 0xd,
		.erase_size = 4, .erase_timeout = 8, .erase_offset = 1,
		TYPICAL_TIMING,
	},
	{
		.name = "sdxc-u3-128g",
		.desc = "SDXC UHS-I U3 V30, 128 GB, Physical Layer 5.00",
		.mid = 0x03, .oid = "SD", .pnm = "SN128", .prv = 0x85,
		.psn = 0x12812812, .mdt_year = 2021, .mdt_month = 9,
		.kind = SIM_SDXC, .capacity_bytes = GB(128) / MIB(1) * MIB(1),
		.sd_spec = 2, .sd_spec3 = 1, .sd_spec4 = 1, .sd_specx = 1,
		.bus4 = true, .hs = true, .cmd23 = true,
		.speed_class = 4, .uhs_grade = 3, .video_class = 30,
		.au_size = 0xf, .erase_size = 2, .erase_timeout = 4,
		.erase_offset = 1,
		TYPICAL_TIMING,
		.read_first = STALLS(US(120), US(40), 300, MS(1), MS(4)),
		.write_next = STALLS(US(8), US(10), 1000, MS(1), MS(10)),
		.write_slow = EXPO(US(15), US(5)),
		.cache_blocks = 65536, .cache_drain_blocks_per_ms = 60,
	},
	{
		.name = "sdhc-a1-32g",
		.desc = "SDHC A1 (1500/500 IOPS class), 32 GB, Physical Layer 5.10",
		.mid = 0x03, .oid = "SD", .pnm = "SC32G", .prv = 0x80,
		.psn = 0xa1a1a1a1, .mdt_year = 2020, .mdt_month = 1,
		.kind = SIM_SDHC, .capacity_bytes = GB(32) / MIB(1) * MIB(1),
		.sd_spec = 2, .sd_spec3 = 1, .sd_spec4 = 1, .sd_specx = 2,
		.bus4 = true, .hs = true, .cmd23 = true,
		.speed_class = 4, .uhs_grade = 1, .video_class = 10,
		.app_class = 1, .au_size = 9, .erase_size = 16,
		.erase_timeout = 16, .erase_offset = 1,
		TYPICAL_TIMING,
		.read_first = STALLS(US(100), US(40), 300, MS(1), MS(5)),
		.write_single = STALLS(US(250), US(150), 2000, MS(10), MS(60)),
	},
	{
		.name = "sdxc-a2-64g",
		.desc = "SDXC A2 (4000/2000 IOPS class, cache), 64 GB, Physical Layer 6.10",
		.mid = 0x03, .oid = "SD", .pnm = "SR64G", .prv = 0x86,
		.psn = 0xa2a2a2a2, .mdt_year = 2022, .mdt_month = 7,
		.kind = SIM_SDXC, .capacity_bytes = GB(64) / MIB(1) * MIB(1),
		.sd_spec = 2, .sd_spec3 = 1, .sd_spec4 = 1, .sd_specx = 3,
		.bus4 = true, .hs = true, .cmd23 = true, .cmd20 = true,
		.speed_class = 4, .uhs_grade = 3, .video_class = 30,
		.app_class = 2, .au_size = 0xf, .erase_size = 2,
		.erase_timeout = 4, .erase_offset = 1,
		TYPICAL_TIMING,
		.read_first = STALLS(US(70), US(30), 200, US(500), MS(3)),
		.write_single = STALLS(US(120), US(80), 1000, MS(5), MS(30)),
		.write_next = STALLS(US(6), US(8), 1000, MS(1), MS(8)),
		.cache_blocks = 131072, .cache_drain_blocks_per_ms = 80,
		.write_slow = EXPO(US(12), US(4)),
	},
	{
		.name = "sdhc-no-hs-4g",
		.desc = "SDHC 4 GB without High Speed (CMD6 group 1 only default)",
		.mid = 0x41, .oid = "42", .pnm = "SD4GB", .prv = 0x20,
		.psn = 0x44444444, .mdt_year = 2010, .mdt_month = 3,
		.kind = SIM_SDHC, .capacity_bytes = GB(4) / MIB(1) * MIB(1),
		.sd_spec = 2, .bus4 = true, .hs = false,
		.speed_class = 2, .au_size = 9, .erase_size = 8,
		.erase_timeout = 8, .erase_offset = 2,
		TYPICAL_TIMING,
	},
	{
		.name = "sdhc-1bit-4g",
		.desc = "SDHC 4 GB whose SCR offers only the 1-bit bus",
		.mid = 0x28, .oid = "BE", .pnm = "1BIT4", .prv = 0x10,
		.psn = 0x01010101, .mdt_year = 2012, .mdt_month = 12,
		.kind = SIM_SDHC, .capacity_bytes = GB(4) / MIB(1) * MIB(1),
		.sd_spec = 2, .bus4 = false, .hs = true,
		.speed_class = 2, .au_size = 9, .erase_size = 8,
		.erase_timeout = 8, .erase_offset = 2,
		TYPICAL_TIMING,
	},
	{
		.name = "sdhc-slow-writer-8g",
		.desc = "SDHC 8 GB very slow writer (5-25 ms per write, no cache)",
		.mid = 0x00, .oid = "  ", .pnm = "SLOWW", .prv = 0x10,
		.psn = 0x510e510e, .mdt_year = 2013, .mdt_month = 4,
		.kind = SIM_SDHC, .capacity_bytes = GB(8) / MIB(1) * MIB(1),
		.sd_spec = 2, .bus4 = true, .hs = true,
		.speed_class = 1, .au_size = 9, .erase_size = 8,
		.erase_timeout = 30, .erase_offset = 2,
		TYPICAL_TIMING,
		.write_single = EXPO(MS(5), MS(8)),
		.write_next = EXPO(US(900), US(600)),
		.write_last = EXPO(MS(5), MS(5)),
		.cache_blocks = 0,
	},
	{
		.name = "sdhc-gc-stalls-16g",
		.desc = "SDHC 16 GB with long garbage-collection stalls (up to 600 ms)",
		.mid = 0x9f, .oid = "TI", .pnm = "GCSTL", .prv = 0x10,
		.psn = 0x6c6c6c6c, .mdt_year = 2017, .mdt_month = 10,
		.kind = SIM_SDHC, .capacity_bytes = GB(16) / MIB(1) * MIB(1),
		.sd_spec = 2, .sd_spec3 = 1, .bus4 = true, .hs = true,
		.speed_class = 4, .uhs_grade = 1, .au_size = 9,
		.erase_size = 16, .erase_timeout = 16, .erase_offset = 1,
		TYPICAL_TIMING,
		.write_single = STALLS(US(400), US(400), 20000, MS(100), MS(600)),
		.write_next = STALLS(US(15), US(25), 5000, MS(100), MS(600)),
		.read_first = STALLS(US(180), US(60), 5000, MS(20), MS(80)),
	},
	{
		.name = "fake-64g-8g",
		.desc = "counterfeit: CSD claims 64 GB, 8 GB of flash, addresses wrap",
		.mid = 0x00, .oid = "00", .pnm = "SD64G", .prv = 0x00,
		.psn = 0x00000001, .mdt_year = 2020, .mdt_month = 1,
		.kind = SIM_SDXC, .capacity_bytes = GB(64) / MIB(1) * MIB(1),
		.real_bytes = GIB(8),
		.sd_spec = 2, .sd_spec3 = 1, .bus4 = true, .hs = true,
		.speed_class = 4, .uhs_grade = 1, .au_size = 9,
		.erase_size = 16, .erase_timeout = 16, .erase_offset = 1,
		TYPICAL_TIMING,
		.write_single = EXPO(MS(2), MS(2)),
		.write_next = EXPO(US(200), US(200)),
		.cache_blocks = 0,
	},
	{
		.name = "instant-4g",
		.desc = "instantaneous card: N_CR 2, no access latency, no busy (framing checks)",
		.mid = 0x7e, .oid = "IN", .pnm = "INSTA", .prv = 0x10,
		.psn = 0x00000000, .mdt_year = 2024, .mdt_month = 1,
		.kind = SIM_SDHC, .capacity_bytes = GIB(4),
		.sd_spec = 2, .sd_spec3 = 1, .bus4 = true, .hs = true,
		.cmd23 = true, .speed_class = 4, .au_size = 9,
		.erase_size = 16, .erase_timeout = 16, .erase_offset = 1,
		.ncr_clocks = 2,
	},
	{
		.name = "fixed-800us-8g",
		.desc = "SDHC 8 GB with a fixed 800 us read access latency (every block), no other delay",
		.mid = 0x7e, .oid = "FX", .pnm = "FX800", .prv = 0x10,
		.psn = 0x00000800, .mdt_year = 2024, .mdt_month = 2,
		.kind = SIM_SDHC, .capacity_bytes = GIB(8),
		.sd_spec = 2, .sd_spec3 = 1, .bus4 = true, .hs = true,
		.cmd23 = true, .speed_class = 4, .au_size = 9,
		.erase_size = 16, .erase_timeout = 16, .erase_offset = 1,
		.ncr_clocks = 2,
		.read_first = FIXED(US(800)),
		.read_next = FIXED(US(800)),
	},
	{
		.name = "wp-switch-8g",
		.desc = "SDHC 8 GB in a slot whose write-protect switch is on",
		.mid = 0x74, .oid = "JE", .pnm = "USD  ", .prv = 0x10,
		.psn = 0x77777777, .mdt_year = 2015, .mdt_month = 6,
		.kind = SIM_SDHC, .capacity_bytes = GB(8) / MIB(1) * MIB(1),
		.sd_spec = 2, .bus4 = true, .hs = true,
		.speed_class = 4, .au_size = 9, .erase_size = 8,
		.erase_timeout = 8, .erase_offset = 2,
		.wp_switch = true,
		TYPICAL_TIMING,
	},
	{
		.name = "csd-tmp-wp-4g",
		.desc = "SDHC 4 GB with CSD TMP_WRITE_PROTECT set: the card refuses writes",
		.mid = 0x03, .oid = "SD", .pnm = "SU04G", .prv = 0x80,
		.psn = 0x1c0c0c0c, .mdt_year = 2014, .mdt_month = 9,
		.kind = SIM_SDHC, .capacity_bytes = GB(4) / MIB(1) * MIB(1),
		.sd_spec = 2, .bus4 = true, .hs = true,
		.speed_class = 4, .au_size = 9, .erase_size = 8,
		.erase_timeout = 8, .erase_offset = 2,
		.csd_tmp_wp = true,
		TYPICAL_TIMING,
	},
	{
		.name = "sdhc-small-cache-8g",
		.desc = "SDHC 8 GB: fast until a 1 MiB write cache is full, then 2 ms per block",
		.mid = 0x09, .oid = "AP", .pnm = "CACHE", .prv = 0x10,
		.psn = 0x0cac0e00, .mdt_year = 2019, .mdt_month = 11,
		.kind = SIM_SDHC, .capacity_bytes = GB(8) / MIB(1) * MIB(1),
		.sd_spec = 2, .sd_spec3 = 1, .bus4 = true, .hs = true,
		.cmd23 = true, .speed_class = 3, .au_size = 9,
		.erase_size = 8, .erase_timeout = 8, .erase_offset = 2,
		TYPICAL_TIMING,
		.write_next = EXPO(US(5), US(5)),
		.write_slow = EXPO(MS(2), US(500)),
		.cache_blocks = 2048, .cache_drain_blocks_per_ms = 1,
	},
	{
		.name = "sdhc-readbuf-16g",
		.desc = "SDHC 16 GB with a 16 KiB read buffer: a read in the page last read takes 25 us",
		.mid = 0x03, .oid = "SD", .pnm = "RDBUF", .prv = 0x80,
		.psn = 0x16b0f000, .mdt_year = 2019, .mdt_month = 6,
		.kind = SIM_SDHC, .capacity_bytes = GB(16) / MIB(1) * MIB(1),
		.sd_spec = 2, .sd_spec3 = 1, .bus4 = true, .hs = true,
		.cmd23 = true, .speed_class = 4, .uhs_grade = 1, .au_size = 9,
		.erase_size = 16, .erase_timeout = 16, .erase_offset = 1,
		TYPICAL_TIMING,
		.read_first = FIXED(US(300)),
		.page_blocks = 32,
		.read_page_hit = FIXED(US(25)),
	},
	{
		.name = "sdhc-slow-init-16g",
		.desc = "SDHC 16 GB whose ACMD41 power-up takes 900 ms",
		.mid = 0x03, .oid = "SD", .pnm = "SLINI", .prv = 0x80,
		.psn = 0x90090090, .mdt_year = 2016, .mdt_month = 3,
		.kind = SIM_SDHC, .capacity_bytes = GB(16) / MIB(1) * MIB(1),
		.sd_spec = 2, .sd_spec3 = 1, .bus4 = true, .hs = true,
		.speed_class = 4, .au_size = 9, .erase_size = 16,
		.erase_timeout = 16, .erase_offset = 1,
		TYPICAL_TIMING,
		.init_busy_us = 900000,
	},
	{
		.name = "sdxc-2t",
		.desc = "SDXC 2 TB: largest SDXC C_SIZE (0x3FFFEF), block addresses near 2^32",
		.mid = 0x03, .oid = "SD", .pnm = "SD2TB", .prv = 0x10,
		.psn = 0x2b2b2b2b, .mdt_year = 2023, .mdt_month = 5,
		.kind = SIM_SDXC, .capacity_bytes = (uint64_t)0x3ffff0 * (512 * 1024),
		.sd_spec = 2, .sd_spec3 = 1, .sd_spec4 = 1, .sd_specx = 2,
		.bus4 = true, .hs = true, .cmd23 = true,
		.speed_class = 4, .uhs_grade = 3, .video_class = 30,
		.app_class = 2, .au_size = 0xf, .erase_size = 2,
		.erase_timeout = 4, .erase_offset = 1,
		TYPICAL_TIMING,
	},
};

unsigned sim_profile_count(void)
{
	return sizeof(profiles) / sizeof(profiles[0]);
}

const struct sim_profile *sim_profile_get(unsigned i)
{
	return i < sim_profile_count() ? &profiles[i] : NULL;
}

const struct sim_profile *sim_profile_find(const char *name)
{
	unsigned i;

	for (i = 0; i < sim_profile_count(); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

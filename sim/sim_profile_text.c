/*
 * sim_profile_text.c - card profiles and host profiles as text: the parser
 * of "key = value" files (sim/README.md, "Profile files"), the
 * formatter that writes a profile back, and the built-in profiles
 * (sim/profiles/NAME.txt and sim/hosts/NAME.txt, compiled in by the
 * Makefile as strings and parsed here at first use).
 *
 * Every value is checked: a wrong one is an error that names the file, the
 * line, the key and what is wrong; an unknown key is an error too (a typo
 * must not silently leave a default).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

/* The built-in texts (build/host/gen/sim_builtin.c). */
extern const char *const sim_builtin_card_text[];
extern const char *const sim_builtin_card_file[];
extern const unsigned sim_builtin_card_n;
extern const char *const sim_builtin_host_text[];
extern const char *const sim_builtin_host_file[];
extern const unsigned sim_builtin_host_n;

enum ftype {
	F_STR,    /* char array, aux = size */
	F_CHARS,  /* exactly aux characters (CID OID/PNM) */
	F_U8, F_U16, F_U32, F_U64,
	F_BOOL,
	F_BYTES,  /* u64, with a size unit */
	F_NS,     /* u64 ns, with a time unit */
	F_NS32,   /* u32 ns, with a time unit */
	F_US32,   /* u32 us, with a time unit */
	F_DIST,   /* struct sim_dist */
	F_KIND,   /* enum sim_card_kind */
	F_MDT,    /* year-month into mdt_year / mdt_month */
	F_PLATFORM, /* enum sim_platform (a host's) */
	F_BLKCNT,   /* enum sim_blkcnt (a host's) */
	F_BWE,      /* enum sim_bwe (a host's) */
	F_DAT0,     /* enum sim_dat0 (a host's) */
	F_SDHFILL,  /* enum sim_sdhost_fill (a host's) */
	F_SDHFSM,   /* enum sim_sdhost_fsm (a host's) */
};

struct field {
	const char *key;
	enum ftype type;
	size_t off;
	unsigned long long min, max; /* integers; 0/0 = any */
	unsigned aux;
	const char *help;
};

#define P(f) offsetof(struct sim_profile, f)
#define C(f) offsetof(struct sim_config, f)

static const struct field card_fields[] = {
	{ "name", F_STR, P(name), 0, 0, sizeof(((struct sim_profile *)0)->name), "profile name" },
	{ "desc", F_STR, P(desc), 0, 0, sizeof(((struct sim_profile *)0)->desc), "one line for people" },
	{ "kind", F_KIND, P(kind), 0, 0, 0, "sdsc-v1, sdsc-v2, sdhc or sdxc" },
	{ "capacity", F_BYTES, P(capacity_bytes), 0, 0, 0, "what the CSD claims" },
	{ "real_capacity", F_BYTES, P(real_bytes), 0, 0, 0, "flash really there (fake cards)" },
	{ "mid", F_U8, P(mid), 0, 255, 0, "CID manufacturer ID" },
	{ "oid", F_CHARS, P(oid), 0, 0, 2, "CID OEM ID, 2 characters" },
	{ "pnm", F_CHARS, P(pnm), 0, 0, 5, "CID product name, 5 characters" },
	{ "prv", F_U8, P(prv), 0, 255, 0, "CID revision, BCD" },
	{ "psn", F_U32, P(psn), 0, 0xffffffffull, 0, "CID serial number" },
	{ "mdt", F_MDT, 0, 0, 0, 0, "CID date, YYYY-MM" },
	{ "read_bl_len", F_U8, P(read_bl_len), 9, 11, 0, "CSD READ_BL_LEN (SDSC)" },
	{ "taac", F_U8, P(taac), 0, 255, 0, "CSD TAAC (SDSC)" },
	{ "nsac", F_U8, P(nsac), 0, 255, 0, "CSD NSAC (SDSC)" },
	{ "r2w_factor", F_U8, P(r2w_factor), 0, 7, 0, "CSD R2W_FACTOR" },
	{ "ccc", F_U16, P(ccc), 0, 0xfff, 0, "CSD card command classes" },
	{ "sd_spec", F_U8, P(sd_spec), 0, 15, 0, "SCR SD_SPEC" },
	{ "sd_spec3", F_U8, P(sd_spec3), 0, 1, 0, "SCR SD_SPEC3" },
	{ "sd_spec4", F_U8, P(sd_spec4), 0, 1, 0, "SCR SD_SPEC4" },
	{ "sd_specx", F_U8, P(sd_specx), 0, 15, 0, "SCR SD_SPECX" },
	{ "bus4", F_BOOL, P(bus4), 0, 0, 0, "4-bit bus in the SCR" },
	{ "cmd23", F_BOOL, P(cmd23), 0, 0, 0, "SCR CMD_SUPPORT CMD23" },
	{ "cmd20", F_BOOL, P(cmd20), 0, 0, 0, "SCR CMD_SUPPORT CMD20" },
	{ "erase_ff", F_BOOL, P(erase_ff), 0, 0, 0, "erased blocks read 0xFF" },
	{ "hs", F_BOOL, P(hs), 0, 0, 0, "High Speed (CMD6 group 1 function 1)" },
	{ "no_cmd6", F_BOOL, P(no_cmd6), 0, 0, 0, "CMD6 is illegal (SD 1.0)" },
	{ "uhs", F_BOOL, P(uhs), 0, 0, 0, "UHS-I: S18A and CMD11 (1.8 V)" },
	{ "sdr50", F_BOOL, P(sdr50), 0, 0, 0, "CMD6 group 1 SDR50" },
	{ "sdr104", F_BOOL, P(sdr104), 0, 0, 0, "CMD6 group 1 SDR104" },
	{ "ddr50", F_BOOL, P(ddr50), 0, 0, 0, "CMD6 group 1 DDR50" },
	{ "tune_first", F_U8, P(tune_first), 0, 39, 0, "first good tuning tap (0..39)" },
	{ "tune_window", F_U8, P(tune_window), 0, 40, 0, "good tuning taps from tune_first" },
	{ "speed_class", F_U8, P(speed_class), 0, 4, 0, "SSR SPEED_CLASS code" },
	{ "uhs_grade", F_U8, P(uhs_grade), 0, 3, 0, "SSR UHS_SPEED_GRADE" },
	{ "video_class", F_U8, P(video_class), 0, 90, 0, "SSR VIDEO_SPEED_CLASS" },
	{ "app_class", F_U8, P(app_class), 0, 2, 0, "SSR APP_PERF_CLASS" },
	{ "au_size", F_U8, P(au_size), 0, 15, 0, "SSR AU_SIZE code" },
	{ "erase_size", F_U16, P(erase_size), 0, 0xffff, 0, "SSR ERASE_SIZE (AUs)" },
	{ "erase_timeout", F_U8, P(erase_timeout), 0, 63, 0, "SSR ERASE_TIMEOUT (s)" },
	{ "erase_offset", F_U8, P(erase_offset), 0, 3, 0, "SSR ERASE_OFFSET (s)" },
	{ "wp_switch", F_BOOL, P(wp_switch), 0, 0, 0, "the slot's WP switch is on" },
	{ "csd_tmp_wp", F_BOOL, P(csd_tmp_wp), 0, 0, 0, "CSD TMP_WRITE_PROTECT" },
	{ "ncr_clocks", F_U16, P(ncr_clocks), 2, 64, 0, "N_CR in SD clocks (2..64)" },
	{ "read_gap_clocks", F_U16, P(read_gap_clocks), 0, 65535, 0,
	  "N_AC between read blocks in SD clocks (at least 2)" },
	{ "busy_min_clocks", F_U16, P(busy_min_clocks), 0, 65535, 0,
	  "DAT0 busy after each write block, at least, in SD clocks" },
	{ "init_busy", F_US32, P(init_busy_us), 0, 0, 0, "ACMD41 power-up time" },
	{ "read_first", F_DIST, P(read_first), 0, 0, 0, "first read block latency" },
	{ "read_next", F_DIST, P(read_next), 0, 0, 0, "latency between read blocks" },
	{ "read_buffer_blocks", F_U32, P(page_blocks), 0, 1u << 20, 0, "read buffer page" },
	{ "read_buffer_hit", F_DIST, P(read_page_hit), 0, 0, 0, "first block from the buffer" },
	{ "write_single", F_DIST, P(write_single), 0, 0, 0, "CMD24 busy" },
	{ "write_next", F_DIST, P(write_next), 0, 0, 0, "CMD25 busy per block" },
	{ "write_last", F_DIST, P(write_last), 0, 0, 0, "extra busy at the end of a CMD25" },
	{ "write_slow", F_DIST, P(write_slow), 0, 0, 0, "busy per block, cache full" },
	{ "cache_blocks", F_U32, P(cache_blocks), 0, 0xffffffffull, 0, "write cache in blocks" },
	{ "cache_drain_blocks_per_ms", F_U32, P(cache_drain_blocks_per_ms), 0, 0xffffffffull, 0,
	  "idle cache flushing" },
	{ "erase_base", F_DIST, P(erase_base), 0, 0, 0, "CMD38 busy" },
	{ "erase_per_au", F_NS, P(erase_per_au_ns), 0, 0, 0, "CMD38 busy per AU touched" },
	{ "flash_page", F_BYTES, P(flash_page_bytes), 0, 0, 0, "flash page size" },
	{ "erase_block", F_BYTES, P(erase_block_bytes), 0, 0, 0, "flash erase-block size" },
	{ "read_cross_page", F_DIST, P(read_cross_page), 0, 0, 0, "read crossing a page" },
	{ "read_cross_eb", F_DIST, P(read_cross_eb), 0, 0, 0, "read crossing an erase block" },
	{ "write_unaligned", F_DIST, P(write_unaligned), 0, 0, 0, "write edge inside a page" },
	{ "open_aus", F_U32, P(open_aus), 0, 4096, 0, "AUs open for writing at once" },
	{ "open_au_size", F_BYTES, P(open_au_bytes), 0, 0, 0, "AU size of the open-AU model" },
	{ "au_switch", F_DIST, P(au_switch), 0, 0, 0, "busy to close an AU" },
	{ "write_next_preerased", F_DIST, P(write_next_preerased), 0, 0, 0,
	  "CMD25 busy per block after ACMD23" },
	{ "write_last_preerased", F_DIST, P(write_last_preerased), 0, 0, 0,
	  "end of a CMD25 after ACMD23" },
	{ "periodic_stall_blocks", F_U32, P(periodic_stall_blocks), 0, 0xffffffffull, 0,
	  "garbage collection every N blocks written (0 = none)" },
	{ "periodic_stall", F_DIST, P(periodic_stall), 0, 0, 0,
	  "busy added to every periodic_stall_blocks-th block written" },
	{ "write_cross_eb", F_DIST, P(write_cross_eb), 0, 0, 0,
	  "busy added to a write block that starts an erase block" },
	{ "write_isolated", F_DIST, P(write_isolated), 0, 0, 0,
	  "busy added to a write of <= 8 blocks not continuing the last one" },
	{ "ext_regs", F_BOOL, P(ext_regs), 0, 0, 0,
	  "CMD48/CMD49 extension registers (SD 6.00): power management and performance enhancement" },
	{ "perf_cache_blocks", F_U32, P(perf_cache_blocks), 0, 4096, 0,
	  "performance enhancement: volatile cache in blocks (0 = no cache)" },
	{ "perf_cache_write", F_DIST, P(perf_cache_write), 0, 0, 0, "busy per block taken into the cache" },
	{ "perf_cache_drain_per_ms", F_U32, P(perf_cache_drain_per_ms), 0, 0xffffffffull, 0,
	  "cached blocks the card commits per ms on its own" },
	{ "perf_flush", F_DIST, P(perf_flush), 0, 0, 0, "busy of a Cache Flush" },
	{ "perf_flush_per_block", F_NS, P(perf_flush_per_block_ns), 0, 0, 0,
	  "Cache Flush (or cache off) busy per block still cached" },
	{ "cq_depth", F_U8, P(cq_depth), 0, 32, 0, "command queue depth (0 or 1 = no queue)" },
	{ "cq_lanes", F_U8, P(cq_lanes), 0, 16, 0, "read tasks the card prepares at once" },
	{ "cq_task", F_DIST, P(cq_task), 0, 0, 0,
	  "scheduling a queued task: from its CMD45 until the card starts on it (reads and writes)" },
	{ "cq_timeout_depth", F_U8, P(cq_timeout_depth), 0, 32, 0,
	  "broken: a task queued behind this many never becomes ready (0 = never)" },
	{ "flush_reorders", F_BOOL, P(flush_reorders), 0, 0, 0,
	  "broken: the last write before a flush lands again after the next writes" },
	{ "flush_ignored", F_BOOL, P(flush_ignored), 0, 0, 0, "broken: Cache Flush commits nothing" },
	{ "cq_rejects_cmd44", F_BOOL, P(cq_rejects_cmd44), 0, 0, 0,
	  "broken: claims a command queue, CMD44 is illegal" },
};

/* Keys --dump-profile prints even at their default (0 unless said): every
 * timing key and the behaviour the timing depends on, so that a dumped
 * profile shows what the simulator will use. */
static bool always_printed(const struct field *f)
{
	static const char *const keys[] = {
		"ncr_clocks", "read_gap_clocks", "busy_min_clocks", "read_buffer_blocks",
		"cache_blocks", "cache_drain_blocks_per_ms", "flash_page", "erase_block",
		"open_aus", "open_au_size", "periodic_stall_blocks", "erase_per_au", NULL
	};
	unsigned i;

	if (f->type == F_DIST)
		return strcmp(f->key, "write_next_preerased") && strcmp(f->key, "write_last_preerased") &&
		       strncmp(f->key, "perf_", 5);
	for (i = 0; keys[i]; i++)
		if (!strcmp(f->key, keys[i]))
			return true;
	return false;
}

static const struct field host_fields[] = {
	{ "name", F_STR, C(host_name), 0, 0, sizeof(((struct sim_config *)0)->host_name), "host name" },
	{ "desc", F_STR, 0, 0, 0, 0, "one line for people" },
	{ "mmio_read", F_NS32, C(mmio_read_ns), 0, 0, 0, "register read" },
	{ "mmio_write", F_NS32, C(mmio_write_ns), 0, 0, 0, "register write" },
	{ "data_read", F_NS32, C(data_read_ns), 0, 0, 0, "DATA port read (one word)" },
	{ "data_write", F_NS32, C(data_write_ns), 0, 0, 0, "DATA port write (one word)" },
	{ "timer_read", F_NS32, C(timer_read_ns), 0, 0, 0, "timestamp read" },
	{ "tick", F_NS32, C(tick_ns), 1, 1000000, 0, "timestamp resolution" },
	{ "buffer_blocks", F_U32, C(buf_blocks), 1, 4, 0, "controller buffer in blocks" },
	{ "cmd_latency", F_NS32, C(cmd_latency_ns), 0, 0, 0, "CMDTM write to the command" },
	{ "cmd_gap_clocks", F_U16, C(cmd_gap_clocks), 8, 65535, 0, "N_RC / N_CC (at least 8)" },
	{ "read_gap_clocks", F_U16, C(read_gap_clocks), 0, 65535, 0,
	  "clock stopped after each read block" },
	{ "write_nwr_clocks", F_U16, C(write_nwr_clocks), 2, 65535, 0, "N_WR (at least 2)" },
	{ "clk_stable", F_NS32, C(clk_stable_ns), 0, 0, 0, "internal clock enable to stable" },
	{ "base_clock", F_U32, C(base_clock_hz), 1000000, 255000000, 0, "controller input clock (Hz)" },
	{ "caps_hi", F_U32, C(caps_hi), 0, 0xffffffffull, 0, "CAPABILITIES[63:32] (UHS-I)" },
	{ "platform", F_PLATFORM, C(platform), 0, 0, 0,
	  "bcm2835 (Arasan EMMC, default) or bcm2712 (Pi 5 SDHCI above 4 GiB)" },
	{ "sdr104", F_BOOL, C(sdr104), 0, 0, 0,
	  "the board allows SDR104 (UHS-I; BCM2712: the Pi 5's switchable I/O regulator)" },
	{ "io_regulator_stuck", F_BOOL, C(io_regulator_stuck), 0, 0, 0,
	  "BCM2712: AON GPIO 3 does not switch the I/O regulator (a faulty board)" },
	{ "controller", F_STR, C(controller), 0, 0, sizeof(((struct sim_config *)0)->controller),
	  "emmc (BCM2835 quirks), emmc2 (BCM2711 quirks) or sdhci (no Pi's: its idle clocks unknown)" },
	{ "soc", F_STR, C(soc), 0, 0, sizeof(((struct sim_config *)0)->soc),
	  "the real SoC whose table builds the board (BCM2835, BCM2836, BCM2837, BCM2711, "
	  "BCM2712; none: the generic simulated board)" },
	{ "adma2", F_BOOL, C(adma2), 0, 0, 0, "ADMA2 in CAPABILITIES and modelled" },
	{ "dma_offset", F_U32, C(dma_offset), 0, 0xffffffffull, 0, "bus address of ARM physical 0" },
	{ "adma64", F_BOOL, C(adma64), 0, 0, 0, "64-bit ADMA2 in CAPABILITIES (bit 28) and modelled" },
	{ "dma_window", F_U64, C(dma_window), 0, 0x10000000000ull, 0, "ARM memory the DMA master sees" },
	{ "dma_word", F_NS32, C(dma_word_ns), 0, 0, 0, "DMA master: one 32-bit word" },
	{ "dma_desc", F_NS32, C(dma_desc_ns), 0, 0, 0, "DMA master: one descriptor fetch" },
	{ "sdhost_write_end_fill_level", F_BOOL, C(sdhost_end_fill_level), 0, 0, 0,
	  "SDHOST: SDEDM's fill after a write's last word is the FIFO's level (no: full)" },
	{ "blkcnt", F_BLKCNT, C(blkcnt), 0, 0, 0,
	  "SDHCI Block Count during a transfer: bus (falls as each block crosses the bus, "
	  "default), drain (as the CPU or DMA moves each block, QEMU), stale (until the end)" },
	{ "buf_write_enable", F_BWE, C(bwe), 0, 0, 0,
	  "SDHCI Buffer Write Enable: slot (while a block's space is free, default), "
	  "empty (only when the buffer is empty, QEMU)" },
	{ "dat0_level", F_DAT0, C(dat0), 0, 0, 0,
	  "SDHCI DAT[0] level during the card's busy: live (default), lag (high dat0_lag "
	  "after the line), none (reads high)" },
	{ "dat0_lag", F_NS32, C(dat0_lag_ns), 0, 0, 0, "dat0_level = lag: how late the level rises" },
	{ "sdhost_edm_fill", F_SDHFILL, C(sdhost_fill), 0, 0, 0,
	  "SDHOST SDEDM's FIFO fill: live (default), lag (the bus's words show "
	  "sdhost_fill_lag SD clocks late), stepped (taken afresh only at events, as QEMU)" },
	{ "sdhost_fill_lag", F_U16, C(sdhost_fill_lag), 0, 4096, 0,
	  "sdhost_edm_fill = lag: how many SD clocks late the bus's words show" },
	{ "sdhost_fill_step", F_U8, C(sdhost_fill_step), 1, 16, 0,
	  "sdhost_edm_fill = stepped: the fill moves in steps of this many words" },
	{ "sdhost_edm_fsm", F_SDHFSM, C(sdhost_fsm), 0, 0, 0,
	  "SDHOST SDEDM's state on a read before the first word is in the FIFO: start "
	  "(READDATA from the start bit, default), words (READWAIT until a word is in)" },
};

const char *sim_blkcnt_name(unsigned v)
{
	static const char *const n[SIM_BLKCNT_N] = { "bus", "drain", "stale" };

	return v < SIM_BLKCNT_N ? n[v] : "?";
}

const char *sim_bwe_name(unsigned v)
{
	static const char *const n[SIM_BWE_N] = { "slot", "empty" };

	return v < SIM_BWE_N ? n[v] : "?";
}

const char *sim_sdhost_fill_name(unsigned v)
{
	static const char *const n[SIM_FILL_N] = { "live", "lag", "stepped" };

	return v < SIM_FILL_N ? n[v] : "?";
}

const char *sim_sdhost_fsm_name(unsigned v)
{
	static const char *const n[SIM_SDH_FSM_N] = { "start", "words" };

	return v < SIM_SDH_FSM_N ? n[v] : "?";
}

const char *sim_dat0_name(unsigned v)
{
	static const char *const n[SIM_DAT0_N] = { "live", "lag", "none" };

	return v < SIM_DAT0_N ? n[v] : "?";
}

/* ---- errors ---------------------------------------------------------------- */

struct ctx {
	const char *origin;
	unsigned line;
	const char *key;
	char *err;
	size_t errlen;
};

static int fail(struct ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct ctx *x, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (x->err && x->errlen) {
		if (x->key && x->line)
			snprintf(x->err, x->errlen, "%s:%u: %s: %s", x->origin, x->line, x->key, msg);
		else if (x->line)
			snprintf(x->err, x->errlen, "%s:%u: %s", x->origin, x->line, msg);
		else if (x->key)
			snprintf(x->err, x->errlen, "%s: %s: %s", x->origin, x->key, msg);
		else
			snprintf(x->err, x->errlen, "%s: %s", x->origin, msg);
	}
	return -1;
}

/* An enum host key by its names (name(i) for i < n). */
static int parse_named(struct ctx *x, const char *v, uint8_t *out, unsigned n,
		       const char *(*name)(unsigned))
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (!strcmp(v, name(i))) {
			*out = (uint8_t)i;
			return 0;
		}
	return fail(x, "'%s' is not one of its values (%s, %s%s)", v, name(0), name(1),
		    n > 2 ? ", ..." : "");
}

/* ---- values ------------------------------------------------------------------ */

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Next whitespace-separated token of *s into tok; 0 at the end. A
 * number followed by a unit on its own ("180 us") is one token. */
static int token(const char **s, char *tok, size_t cap)
{
	const char *p = skip_ws(*s);
	size_t n = 0;
	bool digits = true;

	if (!*p)
		return 0;
	while (*p && *p != ' ' && *p != '\t') {
		if (!((*p >= '0' && *p <= '9') || *p == '.'))
			digits = false;
		if (n + 1 < cap)
			tok[n++] = *p;
		p++;
	}
	if (digits) {
		const char *q = skip_ws(p);

		if ((q[0] == 'n' || q[0] == 'u' || q[0] == 'm') && q[1] == 's' &&
		    (!q[2] || q[2] == ' ' || q[2] == '\t'))
			p = q + 2;
		else if (q[0] == 's' && (!q[1] || q[1] == ' ' || q[1] == '\t'))
			p = q + 1;
		if (p > q)
			while (q < p && n + 1 < cap)
				tok[n++] = *q++;
	}
	tok[n] = 0;
	*s = p;
	return 1;
}

static int parse_uint(struct ctx *x, const char *v, unsigned long long *out)
{
	char *end;

	if (!*v || *v == '-' || *v == '+')
		return fail(x, "'%s' is not a number", v);
	errno = 0;
	*out = strtoull(v, &end, 0);
	if (errno || *end)
		return fail(x, "'%s' is not a number", v);
	return 0;
}

/* A number with an optional fraction and a unit from the table; the value
 * in base units, which must come out whole. */
struct unit {
	const char *name;
	double mul;
};

static const struct unit time_units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { NULL, 0 }
};
static const struct unit size_units[] = {
	{ "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
	{ "TiB", 1099511627776.0 }, { "kB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 },
	{ "TB", 1e12 }, { NULL, 0 }
};

static int parse_unit_value(struct ctx *x, const char *v, const struct unit *units,
			    const char *what, unsigned long long *out)
{
	char *end;
	double num;
	unsigned i;

	if (!*v || *v == '-' || *v == '+')
		return fail(x, "'%s' is not a %s", v, what);
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X'))
		return parse_uint(x, v, out);
	num = strtod(v, &end);
	if (end == v)
		return fail(x, "'%s' is not a %s", v, what);
	while (*end == ' ' || *end == '\t')
		end++;
	if (!*end) {
		if (num == 0) {
			*out = 0;
			return 0;
		}
		if (units == size_units && num == (double)(unsigned long long)num) {
			*out = (unsigned long long)num; /* plain bytes */
			return 0;
		}
		return fail(x, "'%s' needs a unit (%s)", v,
			    units == time_units ? "ns, us, ms, s" :
			    "B, KiB, MiB, GiB, TiB, kB, MB, GB, TB");
	}
	for (i = 0; units[i].name; i++) {
		if (!strcmp(end, units[i].name)) {
			double r = num * units[i].mul, tol;
			unsigned long long q;

			if (r < 0 || r >= 1.8e19)
				return fail(x, "'%s' is out of range", v);
			q = (unsigned long long)(r + 0.5);
			tol = 1e-9 * (r > 1 ? r : 1);
			if (r - (double)q > tol || (double)q - r > tol)
				return fail(x, "'%s' is not a whole number of %s", v,
					    units == time_units ? "ns" : "bytes");
			*out = q;
			return 0;
		}
	}
	return fail(x, "unknown unit '%s' in '%s' (%s)", end, v,
		    units == time_units ? "ns, us, ms, s" :
		    "B, KiB, MiB, GiB, TiB, kB, MB, GB, TB");
}

static int parse_time(struct ctx *x, const char *v, unsigned long long *out)
{
	return parse_unit_value(x, v, time_units, "time", out);
}

/*  dist := time [ "exp" time ] [ "stall" N"ppm" time ".." time ]  */
static int parse_dist(struct ctx *x, const char *v, struct sim_dist *d)
{
	char tok[64];
	unsigned long long t;
	const char *s = v;

	memset(d, 0, sizeof(*d));
	if (!token(&s, tok, sizeof(tok)))
		return fail(x, "empty (a time, e.g. '180us exp 60us stall 500ppm 2ms..8ms')");
	if (parse_time(x, tok, &t))
		return -1;
	d->min_ns = t;
	while (token(&s, tok, sizeof(tok))) {
		if (!strcmp(tok, "exp")) {
			if (!token(&s, tok, sizeof(tok)))
				return fail(x, "'exp' needs a mean time");
			if (parse_time(x, tok, &t))
				return -1;
			d->mean_extra_ns = t;
		} else if (!strcmp(tok, "stall")) {
			char *end, *dots;
			unsigned long long lo, hi;
			double ppm;

			if (!token(&s, tok, sizeof(tok)))
				return fail(x, "'stall' needs a rate, e.g. 500ppm");
			ppm = strtod(tok, &end);
			if (end == tok || strcmp(end, "ppm") || ppm < 0 || ppm > 1e6 ||
			    ppm != (double)(unsigned)ppm)
				return fail(x, "stall rate '%s' is not a whole number of ppm "
					    "(0..1000000ppm)", tok);
			d->stall_ppm = (uint32_t)ppm;
			if (!token(&s, tok, sizeof(tok)))
				return fail(x, "'stall' needs a range, e.g. 2ms..8ms");
			dots = strstr(tok, "..");
			if (!dots)
				return fail(x, "stall range '%s' is not 'low..high'", tok);
			*dots = 0;
			if (parse_time(x, tok, &lo) || parse_time(x, dots + 2, &hi))
				return -1;
			if (hi < lo)
				return fail(x, "stall range ends before it starts");
			d->stall_min_ns = lo;
			d->stall_max_ns = hi;
		} else {
			return fail(x, "'%s' unexpected (a distribution is 'MIN [exp MEAN] "
				    "[stall Nppm LOW..HIGH]')", tok);
		}
	}
	return 0;
}

static int parse_bool(struct ctx *x, const char *v, bool *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1"))
		*out = true;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0"))
		*out = false;
	else
		return fail(x, "'%s' is not yes or no", v);
	return 0;
}

static int set_int(struct ctx *x, const struct field *f, void *base, unsigned long long v)
{
	unsigned long long max = f->max;

	if (!max)
		max = f->type == F_U8 ? 0xff : f->type == F_U16 ? 0xffff :
		      f->type == F_U32 ? 0xffffffffull : ~0ull;
	if (v < f->min || v > max)
		return fail(x, "%llu is out of range (%llu..%llu)", v, f->min, max);
	switch (f->type) {
	case F_U8: *(uint8_t *)((char *)base + f->off) = (uint8_t)v; break;
	case F_U16: *(uint16_t *)((char *)base + f->off) = (uint16_t)v; break;
	case F_U32: *(uint32_t *)((char *)base + f->off) = (uint32_t)v; break;
	default: *(uint64_t *)((char *)base + f->off) = v; break;
	}
	return 0;
}

/* A quoted value keeps its spaces ("USD  "). */
static int unquote(struct ctx *x, char *v)
{
	size_t n = strlen(v);

	if (n && v[0] == '"') {
		if (n < 2 || v[n - 1] != '"')
			return fail(x, "unterminated quote");
		memmove(v, v + 1, n - 2);
		v[n - 2] = 0;
	}
	return 0;
}

static int set_field(struct ctx *x, const struct field *f, void *base, char *v,
		     char *desc, size_t desc_cap)
{
	unsigned long long u;
	bool b;

	switch (f->type) {
	case F_STR:
		if (unquote(x, v))
			return -1;
		if (!f->aux) { /* a host's desc: kept aside */
			if (desc)
				snprintf(desc, desc_cap, "%s", v);
			return 0;
		}
		if (!*v)
			return fail(x, "empty");
		if (strlen(v) >= f->aux)
			return fail(x, "longer than %u characters", f->aux - 1);
		memcpy((char *)base + f->off, v, strlen(v) + 1);
		return 0;
	case F_CHARS:
		if (unquote(x, v))
			return -1;
		if (strlen(v) != f->aux)
			return fail(x, "'%s' must be exactly %u characters (quote it to keep "
				    "spaces)", v, f->aux);
		memcpy((char *)base + f->off, v, f->aux + 1);
		return 0;
	case F_U8: case F_U16: case F_U32: case F_U64:
		if (parse_uint(x, v, &u))
			return -1;
		return set_int(x, f, base, u);
	case F_BOOL:
		if (parse_bool(x, v, &b))
			return -1;
		*(bool *)((char *)base + f->off) = b;
		return 0;
	case F_BYTES:
		if (parse_unit_value(x, v, size_units, "size", &u))
			return -1;
		*(uint64_t *)((char *)base + f->off) = u;
		return 0;
	case F_NS:
		if (parse_time(x, v, &u))
			return -1;
		*(uint64_t *)((char *)base + f->off) = u;
		return 0;
	case F_NS32:
		if (parse_time(x, v, &u))
			return -1;
		if (u > 0xffffffffull || (f->max && (u < f->min || u > f->max)))
			return fail(x, "%llu ns is out of range", u);
		*(uint32_t *)((char *)base + f->off) = (uint32_t)u;
		return 0;
	case F_US32:
		if (parse_time(x, v, &u))
			return -1;
		if (u % 1000)
			return fail(x, "'%s' is not a whole number of us", v);
		if (u / 1000 > 0xffffffffull)
			return fail(x, "'%s' is too long", v);
		*(uint32_t *)((char *)base + f->off) = (uint32_t)(u / 1000);
		return 0;
	case F_DIST:
		return parse_dist(x, v, (struct sim_dist *)(void *)((char *)base + f->off));
	case F_KIND: {
		static const char *const k[] = { "sdsc-v1", "sdsc-v2", "sdhc", "sdxc" };
		unsigned i;

		for (i = 0; i < 4; i++)
			if (!strcmp(v, k[i])) {
				((struct sim_profile *)base)->kind = (enum sim_card_kind)i;
				return 0;
			}
		return fail(x, "'%s' is not sdsc-v1, sdsc-v2, sdhc or sdxc", v);
	}
	case F_BLKCNT: {
		unsigned i;

		for (i = 0; i < SIM_BLKCNT_N; i++)
			if (!strcmp(v, sim_blkcnt_name(i))) {
				*((uint8_t *)base + f->off) = (uint8_t)i;
				return 0;
			}
		return fail(x, "'%s' is not bus, drain or stale", v);
	}
	case F_BWE:
		return parse_named(x, v, (uint8_t *)base + f->off, SIM_BWE_N, sim_bwe_name);
	case F_DAT0:
		return parse_named(x, v, (uint8_t *)base + f->off, SIM_DAT0_N, sim_dat0_name);
	case F_SDHFILL:
		return parse_named(x, v, (uint8_t *)base + f->off, SIM_FILL_N, sim_sdhost_fill_name);
	case F_SDHFSM:
		return parse_named(x, v, (uint8_t *)base + f->off, SIM_SDH_FSM_N, sim_sdhost_fsm_name);
	case F_PLATFORM: {
		struct sim_config *c = base;

		if (!strcmp(v, "bcm2835")) {
			c->platform = SIM_PLATFORM_BCM2835;
			c->base = SIM_EMMC_BASE_DEFAULT;
			return 0;
		}
		if (!strcmp(v, "bcm2712")) {
			/* Its controller lies above 4 GiB: a pointer must hold it. */
			if ((uint64_t)(uintptr_t)SIM_BCM2712_SDHCI_BASE != SIM_BCM2712_SDHCI_BASE)
				return fail(x, "bcm2712 needs a 64-bit host build (its controller "
					    "is at 0x%llx)", (unsigned long long)SIM_BCM2712_SDHCI_BASE);
			c->platform = SIM_PLATFORM_BCM2712;
			c->base = (uintptr_t)SIM_BCM2712_SDHCI_BASE;
			c->base_clock_hz = SIM_BCM2712_CLOCK_HZ;
			snprintf(c->controller, sizeof(c->controller), "sdio1");
			return 0;
		}
		return fail(x, "'%s' is not bcm2835 or bcm2712", v);
	}
	case F_MDT: {
		unsigned y, m;
		char extra;

		if (sscanf(v, "%u-%u%c", &y, &m, &extra) != 2 || y < 2000 || y > 2255 ||
		    m < 1 || m > 12)
			return fail(x, "'%s' is not YYYY-MM (2000-01 .. 2255-12)", v);
		((struct sim_profile *)base)->mdt_year = (uint16_t)y;
		((struct sim_profile *)base)->mdt_month = (uint8_t)m;
		return 0;
	}
	}
	return fail(x, "internal: unknown field type");
}

/* ---- the line parser -------------------------------------------------------- */

static int parse(const char *text, const char *origin, const struct field *fields,
		 unsigned nfields, void *base, char *desc, size_t desc_cap, char *err,
		 size_t errlen, bool *seen)
{
	struct ctx x = { origin, 0, NULL, err, errlen };
	const char *p = text;

	while (*p) {
		char line[512], *eq, *k, *v, *e;
		size_t n = strcspn(p, "\n");
		unsigned i;

		x.line++;
		x.key = NULL;
		if (n >= sizeof(line))
			return fail(&x, "line longer than %u characters", (unsigned)sizeof(line) - 1);
		memcpy(line, p, n);
		line[n] = 0;
		p += n + (p[n] == '\n');
		if ((e = strchr(line, '\r')) != NULL)
			*e = 0;
		/* A comment starts with '#' at the start of the line or after
		 * whitespace (a quoted value may not hold " #"). */
		for (e = line; *e; e++)
			if (*e == '#' && (e == line || e[-1] == ' ' || e[-1] == '\t')) {
				*e = 0;
				break;
			}
		k = (char *)skip_ws(line);
		if (!*k)
			continue;
		eq = strchr(k, '=');
		if (!eq)
			return fail(&x, "'%s' is not 'key = value'", k);
		*eq = 0;
		v = (char *)skip_ws(eq + 1);
		for (e = eq; e > k && (e[-1] == ' ' || e[-1] == '\t'); e--)
			e[-1] = 0;
		for (e = v + strlen(v); e > v && (e[-1] == ' ' || e[-1] == '\t'); e--)
			e[-1] = 0;
		if (!*k)
			return fail(&x, "a value without a key");
		for (i = 0; i < nfields; i++)
			if (!strcmp(fields[i].key, k))
				break;
		if (i == nfields) {
			x.key = k;
			return fail(&x, "unknown key");
		}
		x.key = fields[i].key;
		if (seen[i])
			return fail(&x, "given twice");
		seen[i] = true;
		if (!*v)
			return fail(&x, "no value");
		if (set_field(&x, &fields[i], base, v, desc, desc_cap))
			return -1;
	}
	return 0;
}

#define NCARD (sizeof(card_fields) / sizeof(card_fields[0]))
#define NHOST (sizeof(host_fields) / sizeof(host_fields[0]))

int sim_profile_parse(const char *text, const char *origin, struct sim_profile *out,
		      char *err, size_t errlen)
{
	bool seen[NCARD];
	struct ctx x = { origin, 0, NULL, err, errlen };
	struct sim_profile p;
	static const char *const required[] = { "name", "kind", "capacity" };
	unsigned i, k;

	memset(seen, 0, sizeof(seen));
	memset(&p, 0, sizeof(p));
	if (parse(text, origin, card_fields, NCARD, &p, NULL, 0, err, errlen, seen))
		return -1;
	for (k = 0; k < sizeof(required) / sizeof(required[0]); k++)
		for (i = 0; i < NCARD; i++)
			if (!strcmp(card_fields[i].key, required[k]) && !seen[i]) {
				x.key = required[k];
				return fail(&x, "missing (every profile needs it)");
			}
	/* Consistency: what the simulator cannot build. */
	if ((p.kind == SIM_SDHC || p.kind == SIM_SDXC) && p.capacity_bytes % (512 * 1024)) {
		x.key = "capacity";
		return fail(&x, "an SDHC/SDXC capacity is a multiple of 512 KiB");
	}
	if (p.capacity_bytes < 512 * 1024) {
		x.key = "capacity";
		return fail(&x, "smaller than 512 KiB");
	}
	if (p.real_bytes && (p.real_bytes > p.capacity_bytes || p.real_bytes % 512)) {
		x.key = "real_capacity";
		return fail(&x, "must be a multiple of 512 bytes, at most the capacity");
	}
	if (p.flash_page_bytes % 512 || p.erase_block_bytes % 512 || p.open_au_bytes % 512) {
		x.key = p.flash_page_bytes % 512 ? "flash_page" :
			p.erase_block_bytes % 512 ? "erase_block" : "open_au_size";
		return fail(&x, "must be a multiple of 512 bytes");
	}
	if (!p.ncr_clocks)
		p.ncr_clocks = 2;
	/* Writes need their timing: without write_next every multi-block
	 * write would program instantly. A card that refuses writes may
	 * leave it out. */
	for (i = 0; i < NCARD; i++)
		if (!strcmp(card_fields[i].key, "write_next") && !seen[i] && !p.csd_tmp_wp &&
		    !p.wp_switch) {
			x.key = "write_next";
			return fail(&x, "missing: writes need the busy per block (write_next = 0ns "
				    "for a card that programs at once)");
		}
	for (i = 0; i < NCARD; i++)
		if (!strcmp(card_fields[i].key, "write_next_preerased") && seen[i])
			p.preerase = true;
	*out = p;
	return 0;
}

int sim_host_parse(const char *text, const char *origin, struct sim_config *c, char *err,
		   size_t errlen)
{
	bool seen[NHOST];
	struct sim_config tmp = *c;
	char desc[160];

	memset(seen, 0, sizeof(seen));
	if (parse(text, origin, host_fields, NHOST, &tmp, desc, sizeof(desc), err, errlen, seen))
		return -1;
	if (!seen[0]) {
		struct ctx x = { origin, 0, "name", err, errlen };

		return fail(&x, "missing (every host needs it)");
	}
	*c = tmp;
	return 0;
}

/* ---- formatting ---------------------------------------------------------------- */

struct out {
	char *buf;
	size_t cap, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf ? o->buf + (o->len < o->cap ? o->len : o->cap) : NULL,
		      o->buf && o->len < o->cap ? o->cap - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static void fmt_time(char *b, size_t cap, unsigned long long ns)
{
	if (ns && ns % 1000000000ull == 0)
		snprintf(b, cap, "%llus", ns / 1000000000ull);
	else if (ns && ns % 1000000ull == 0)
		snprintf(b, cap, "%llums", ns / 1000000ull);
	else if (ns && ns % 1000ull == 0)
		snprintf(b, cap, "%lluus", ns / 1000ull);
	else
		snprintf(b, cap, "%lluns", ns);
}

static void fmt_size(char *b, size_t cap, unsigned long long v)
{
	if (v && v % (1ull << 30) == 0)
		snprintf(b, cap, "%lluGiB", v >> 30);
	else if (v && v % (1ull << 20) == 0)
		snprintf(b, cap, "%lluMiB", v >> 20);
	else if (v && v % 1024 == 0)
		snprintf(b, cap, "%lluKiB", v >> 10);
	else
		snprintf(b, cap, "%llu", v);
}

static bool dist_zero(const struct sim_dist *d)
{
	return !d->min_ns && !d->mean_extra_ns && !d->stall_ppm && !d->stall_min_ns &&
	       !d->stall_max_ns;
}

size_t sim_profile_format(const struct sim_profile *p, char *buf, size_t cap)
{
	struct out o = { buf, cap, 0 };
	unsigned i;

	for (i = 0; i < NCARD; i++) {
		const struct field *f = &card_fields[i];
		const char *b = (const char *)p + f->off;
		char t1[32], t2[32], t3[32];

		switch (f->type) {
		case F_STR:
			put(&o, "%s = %s\n", f->key, b);
			break;
		case F_CHARS:
			if (b[0])
				put(&o, "%s = %s%s%s\n", f->key,
				    strchr(b, ' ') ? "\"" : "", b, strchr(b, ' ') ? "\"" : "");
			break;
		case F_U8:
			if (*(const uint8_t *)b || always_printed(f))
				put(&o, f->key[0] == 'm' || f->key[0] == 'p' ? "%s = 0x%02x\n" :
				    "%s = %u\n", f->key, *(const uint8_t *)b);
			break;
		case F_U16:
			if (*(const uint16_t *)b || always_printed(f))
				put(&o, !strcmp(f->key, "ccc") ? "%s = 0x%03x\n" : "%s = %u\n",
				    f->key, *(const uint16_t *)b);
			break;
		case F_U32:
			if (*(const uint32_t *)b || always_printed(f))
				put(&o, !strcmp(f->key, "psn") ? "%s = 0x%08x\n" : "%s = %u\n",
				    f->key, *(const uint32_t *)b);
			break;
		case F_U64:
			if (*(const uint64_t *)b)
				put(&o, "%s = %llu\n", f->key,
				    (unsigned long long)*(const uint64_t *)b);
			break;
		case F_BOOL:
			if (*(const bool *)b)
				put(&o, "%s = yes\n", f->key);
			break;
		case F_BYTES:
			if (*(const uint64_t *)b || always_printed(f)) {
				fmt_size(t1, sizeof(t1), *(const uint64_t *)b);
				put(&o, "%s = %s\n", f->key, t1);
			}
			break;
		case F_NS:
			if (*(const uint64_t *)b || always_printed(f)) {
				fmt_time(t1, sizeof(t1), *(const uint64_t *)b);
				put(&o, "%s = %s\n", f->key, t1);
			}
			break;
		case F_NS32:
			break;
		case F_US32:
			if (*(const uint32_t *)b) {
				fmt_time(t1, sizeof(t1), *(const uint32_t *)b * 1000ull);
				put(&o, "%s = %s\n", f->key, t1);
			}
			break;
		case F_DIST: {
			const struct sim_dist *d = (const struct sim_dist *)(const void *)b;

			if (dist_zero(d) && !always_printed(f) &&
			    !(p->preerase && !strcmp(f->key, "write_next_preerased")))
				break;
			fmt_time(t1, sizeof(t1), d->min_ns);
			put(&o, "%s = %s", f->key, t1);
			if (d->mean_extra_ns) {
				fmt_time(t1, sizeof(t1), d->mean_extra_ns);
				put(&o, " exp %s", t1);
			}
			if (d->stall_ppm || d->stall_min_ns || d->stall_max_ns) {
				fmt_time(t2, sizeof(t2), d->stall_min_ns);
				fmt_time(t3, sizeof(t3), d->stall_max_ns);
				put(&o, " stall %uppm %s..%s", d->stall_ppm, t2, t3);
			}
			put(&o, "\n");
			break;
		}
		case F_KIND: {
			static const char *const k[] = { "sdsc-v1", "sdsc-v2", "sdhc", "sdxc" };

			put(&o, "%s = %s\n", f->key, k[p->kind & 3]);
			break;
		}
		case F_MDT:
			if (p->mdt_year)
				put(&o, "mdt = %04u-%02u\n", p->mdt_year, p->mdt_month);
			break;
		case F_PLATFORM: /* a host's, never in a card profile */
		case F_BLKCNT:
		case F_BWE:
		case F_DAT0:
		case F_SDHFILL:
		case F_SDHFSM:
			break;
		}
	}
	return o.len;
}

/* ---- the built-in profiles --------------------------------------------------- */

#define MAX_BUILTIN 64

static struct sim_profile cards[MAX_BUILTIN];
static unsigned ncards;
static bool cards_loaded;

struct host_entry {
	struct sim_config c;
	char desc[160];
	const char *text;
	const char *file;
};
static struct host_entry hosts[MAX_BUILTIN];
static unsigned nhosts;
static bool hosts_loaded;

static void load_cards(void)
{
	char err[300];
	unsigned i;

	if (cards_loaded)
		return;
	cards_loaded = true;
	for (i = 0; i < sim_builtin_card_n && ncards < MAX_BUILTIN; i++) {
		if (sim_profile_parse(sim_builtin_card_text[i], sim_builtin_card_file[i],
				      &cards[ncards], err, sizeof(err))) {
			fprintf(stderr, "sim: built-in profile: %s\n", err);
			abort();
		}
		ncards++;
	}
}

static void load_hosts(void)
{
	char err[300];
	unsigned i;

	if (hosts_loaded)
		return;
	hosts_loaded = true;
	for (i = 0; i < sim_builtin_host_n && nhosts < MAX_BUILTIN; i++) {
		struct host_entry *h = &hosts[nhosts];
		bool seen[NHOST];

		memset(h, 0, sizeof(*h));
		memset(seen, 0, sizeof(seen));
		if (parse(sim_builtin_host_text[i], sim_builtin_host_file[i], host_fields, NHOST,
			  &h->c, h->desc, sizeof(h->desc), err, sizeof(err), seen) ||
		    !seen[0]) {
			fprintf(stderr, "sim: built-in host: %s\n", seen[0] ? err : "no name");
			abort();
		}
		h->text = sim_builtin_host_text[i];
		h->file = sim_builtin_host_file[i];
		nhosts++;
	}
}

unsigned sim_profile_count(void)
{
	load_cards();
	return ncards;
}

const struct sim_profile *sim_profile_get(unsigned i)
{
	load_cards();
	return i < ncards ? &cards[i] : NULL;
}

const struct sim_profile *sim_profile_find(const char *name)
{
	unsigned i;

	load_cards();
	for (i = 0; name && i < ncards; i++)
		if (!strcmp(cards[i].name, name))
			return &cards[i];
	return NULL;
}

static char *read_text(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	buf = malloc(65537);
	n = buf ? fread(buf, 1, 65536, f) : 0;
	if (buf && !feof(f)) {
		snprintf(err, errlen, "%s: longer than 64 KiB", path);
		free(buf);
		buf = NULL;
	} else if (buf) {
		buf[n] = 0;
		if (strlen(buf) != n) {
			snprintf(err, errlen, "%s: not a text file (a NUL byte)", path);
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

int sim_profile_load(const char *name_or_path, struct sim_profile *out, char *err,
		     size_t errlen)
{
	const struct sim_profile *b = sim_profile_find(name_or_path);
	char *text;
	int r;

	if (b) {
		*out = *b;
		return 0;
	}
	if (!strchr(name_or_path, '/') && !strchr(name_or_path, '.')) {
		snprintf(err, errlen, "no built-in card profile '%s' and no such file",
			 name_or_path);
		return -1;
	}
	text = read_text(name_or_path, err, errlen);
	if (!text)
		return -1;
	r = sim_profile_parse(text, name_or_path, out, err, errlen);
	free(text);
	return r;
}

unsigned sim_host_count(void)
{
	load_hosts();
	return nhosts;
}

const char *sim_host_name(unsigned i)
{
	load_hosts();
	return i < nhosts ? hosts[i].c.host_name : NULL;
}

const char *sim_host_desc(unsigned i)
{
	load_hosts();
	return i < nhosts ? hosts[i].desc : NULL;
}

int sim_host_load(const char *name_or_path, struct sim_config *c, char *err, size_t errlen)
{
	unsigned i;
	char *text;
	int r;

	load_hosts();
	for (i = 0; i < nhosts; i++)
		if (!strcmp(hosts[i].c.host_name, name_or_path))
			return sim_host_parse(hosts[i].text, hosts[i].file, c, err, errlen);
	if (!strchr(name_or_path, '/') && !strchr(name_or_path, '.')) {
		snprintf(err, errlen, "no built-in host '%s' and no such file", name_or_path);
		return -1;
	}
	text = read_text(name_or_path, err, errlen);
	if (!text)
		return -1;
	r = sim_host_parse(text, name_or_path, c, err, errlen);
	free(text);
	return r;
}

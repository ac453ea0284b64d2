/*
 * card_report.c - decoded card registers as JSON, as readable text and as
 * the "card" record (see card_report.h; field meanings follow the SD
 * Physical Layer Simplified Specification v9.10 as cited in sd_regs.h).
 *
 * Output only: nothing here talks to the card. Not printed: the SD
 * extension registers and the SDIO registers (never read by this project).
 */
#include "bench/card_report.h"
#include "bench/engine/record.h"
#include "lib/err.h"
#include "lib/console.h"
#include "lib/fmt.h"

/* ---- small helpers --------------------------------------------------------- */
static void json_crc(struct json *j, uint8_t state)
{
	if (state == SD_CRC_ABSENT)
		json_str(j, "crc_ok", "absent");
	else
		json_bool(j, "crc_ok", state == SD_CRC_OK);
}

static const char *crc_text(uint8_t state)
{
	return state == SD_CRC_OK ? "ok" : state == SD_CRC_BAD ? "BAD" : "absent";
}

/* Tenths as a JSON number: 15 -> 1.5, 20 -> 2. */
static void json_tenths(struct json *j, const char *key, uint64_t tenths)
{
	char t[32];

	if (tenths % 10)
		fmt_snprintf(t, sizeof(t), "%llu.%u", (unsigned long long)(tenths / 10),
			     (unsigned)(tenths % 10));
	else
		fmt_snprintf(t, sizeof(t), "%llu", (unsigned long long)(tenths / 10));
	json_raw(j, key, t);
}

static const char *csd_version_name(uint8_t s)
{
	static const char *const names[4] = { "1.0", "2.0", "3.0", "reserved" };

	return names[s & 3];
}

static const char *timing_name(uint8_t t)
{
	return sd_timing_name(t);
}

/* The bus modes (sdbench.txt bus_mode names) in a mask of 1u << sd_timing. */
static void json_modes(struct json *j, const char *key, unsigned mask)
{
	unsigned t;

	json_arr_begin(j, key);
	for (t = 0; t < SD_TIMING_COUNT; t++)
		if (mask & (1u << t))
			json_str(j, NULL, sd_bus_mode_name(sd_timing_mode(t)));
	json_arr_end(j);
}

/* ---- CID ------------------------------------------------------------------- */
void card_report_json_cid(struct json *j, const char *key, const struct sd_cid *c)
{
	char t[16];

	json_obj_begin(j, key);
	json_hexbytes(j, "raw", c->raw, 16);
	json_u64(j, "mid", c->mid);
	json_str(j, "manufacturer", sd_mid_name(c->mid));
	json_strn(j, "oid", c->oid, 2);
	json_strn(j, "pnm", c->pnm, 5);
	fmt_snprintf(t, sizeof(t), "%u.%u", c->prv_major, c->prv_minor);
	json_str(j, "prv", t);
	json_u64(j, "psn", c->psn);
	json_hex(j, "psn_hex", c->psn, 8);
	if (c->mdt_valid) {
		fmt_snprintf(t, sizeof(t), "%04u-%02u", c->mdt_year, c->mdt_month);
		json_str(j, "mdt", t);
	} else {
		json_str(j, "mdt", "reserved");
	}
	json_hex(j, "mdt_raw", c->mdt, 3);
	json_crc(j, c->crc_state);
	json_obj_end(j);
}

/* Printable copy of an ASCII field: other bytes become '?'. */
static const char *ascii(const char *s, unsigned n, char *buf)
{
	unsigned i;

	for (i = 0; i < n && s[i]; i++)
		buf[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

void card_report_print_cid(const struct sd_cid *c)
{
	char oid[3], pnm[6];

	con_printf("  CID  manufacturer 0x%02x (%s), OEM \"%s\", product \"%s\" rev %u.%u\n",
		   c->mid, sd_mid_name(c->mid), ascii(c->oid, 2, oid),
		   ascii(c->pnm, 5, pnm), c->prv_major, c->prv_minor);
	if (c->mdt_valid)
		con_printf("       serial 0x%08x, made %04u-%02u, CRC %s\n",
			   (unsigned)c->psn, c->mdt_year, c->mdt_month,
			   crc_text(c->crc_state));
	else
		con_printf("       serial 0x%08x, date reserved (MDT 0x%03x), CRC %s\n",
			   (unsigned)c->psn, c->mdt, crc_text(c->crc_state));
}

/* ---- CSD ------------------------------------------------------------------- */
static void json_bl_len(struct json *j, const char *key, const char *bytes_key,
			uint8_t len, bool valid)
{
	json_u64(j, key, len);
	if (valid)
		json_u64(j, bytes_key, 1u << len);
	else
		json_str(j, bytes_key, "reserved");
}

void card_report_json_csd(struct json *j, const char *key, const struct sd_csd *c)
{
	char t[24];
	unsigned i;

	json_obj_begin(j, key);
	json_hexbytes(j, "raw", c->raw, 16);
	json_u64(j, "csd_structure", c->csd_structure);
	json_str(j, "csd_version", csd_version_name(c->csd_structure));
	json_str(j, "card_type", sd_csd_type_name(c));
	if (!c->known) {
		json_crc(j, c->crc_state);
		json_obj_end(j);
		return;
	}
	json_str(j, "taac", sd_csd_taac_str(c, t, sizeof(t)));
	if (c->taac_valid)
		json_tenths(j, "taac_ns", c->taac_tenth_ns);
	else
		json_null(j, "taac_ns");
	json_u64(j, "nsac", c->nsac);
	json_u64(j, "nsac_clocks", c->nsac_clocks);
	json_hex(j, "tran_speed", c->tran_speed, 2);
	json_u64_if(j, "tran_speed_hz", c->tran_speed_valid, c->tran_speed_hz);
	json_hex(j, "ccc", c->ccc, 3);
	json_arr_begin(j, "ccc_classes");
	for (i = 0; i < 12; i++)
		if (c->ccc & (1u << i))
			json_u64(j, NULL, i);
	json_arr_end(j);
	json_bl_len(j, "read_bl_len", "read_bl_bytes", c->read_bl_len, c->read_bl_len_valid);
	json_bool(j, "read_bl_partial", c->read_bl_partial);
	json_bool(j, "write_blk_misalign", c->write_blk_misalign);
	json_bool(j, "read_blk_misalign", c->read_blk_misalign);
	json_bool(j, "dsr_imp", c->dsr_imp);
	json_u64(j, "c_size", c->c_size);
	if (c->csd_structure == SD_CSD_V1) {
		json_u64(j, "c_size_mult", c->c_size_mult);
		json_tenths(j, "vdd_r_curr_min_ma", sd_csd_vdd_curr_tenth_ma(c->vdd_r_curr_min, false));
		json_tenths(j, "vdd_r_curr_max_ma", sd_csd_vdd_curr_tenth_ma(c->vdd_r_curr_max, true));
		json_tenths(j, "vdd_w_curr_min_ma", sd_csd_vdd_curr_tenth_ma(c->vdd_w_curr_min, false));
		json_tenths(j, "vdd_w_curr_max_ma", sd_csd_vdd_curr_tenth_ma(c->vdd_w_curr_max, true));
	}
	json_u64_if(j, "capacity_bytes", c->capacity_valid, c->capacity_bytes);
	json_u64_if(j, "sectors", c->capacity_valid, c->sectors);
	json_bool(j, "erase_blk_en", c->erase_blk_en);
	json_u64(j, "sector_size", c->sector_size);
	json_u64(j, "wp_grp_size", c->wp_grp_size);
	json_bool(j, "wp_grp_enable", c->wp_grp_enable);
	json_u64(j, "r2w_factor", c->r2w_factor);
	if (c->r2w_factor_valid)
		json_u64(j, "r2w_multiplier", 1u << c->r2w_factor);
	else
		json_str(j, "r2w_multiplier", "reserved");
	json_bl_len(j, "write_bl_len", "write_bl_bytes", c->write_bl_len, c->write_bl_len_valid);
	json_bool(j, "write_bl_partial", c->write_bl_partial);
	json_u64(j, "file_format_grp", c->file_format_grp);
	json_u64(j, "file_format", c->file_format);
	json_str(j, "file_format_name", sd_csd_file_format_name(c));
	json_bool(j, "copy", c->copy);
	json_bool(j, "perm_write_protect", c->perm_write_protect);
	json_bool(j, "tmp_write_protect", c->tmp_write_protect);
	if (c->csd_structure != SD_CSD_V1)
		json_bool(j, "wp_upc", c->wp_upc);
	json_crc(j, c->crc_state);
	json_obj_end(j);
}

void card_report_print_csd(const struct sd_csd *c)
{
	char t[24], sz[24];
	unsigned i;

	con_printf("  CSD  version %s (%s), CRC %s\n", csd_version_name(c->csd_structure),
		   sd_csd_type_name(c), crc_text(c->crc_state));
	if (!c->known)
		return;
	if (c->capacity_valid)
		con_printf("       capacity %llu bytes = %llu sectors (%s), C_SIZE %u",
			   (unsigned long long)c->capacity_bytes,
			   (unsigned long long)c->sectors,
			   fmt_size(sz, sizeof(sz), c->capacity_bytes, FMT_SIZE_ABOUT), (unsigned)c->c_size);
	else
		con_printf("       capacity unknown (READ_BL_LEN %u reserved), C_SIZE %u",
			   c->read_bl_len, (unsigned)c->c_size);
	if (c->csd_structure == SD_CSD_V1)
		con_printf(" C_SIZE_MULT %u", c->c_size_mult);
	con_printf("\n");
	con_printf("       TAAC %s, NSAC %u clocks, TRAN_SPEED ", sd_csd_taac_str(c, t, sizeof(t)),
		   (unsigned)c->nsac_clocks);
	if (c->tran_speed_valid)
		con_printf("%u Hz", (unsigned)c->tran_speed_hz);
	else
		con_printf("reserved (0x%02x)", c->tran_speed);
	con_printf(", CCC 0x%03x (classes", c->ccc);
	for (i = 0; i < 12; i++)
		if (c->ccc & (1u << i))
			con_printf(" %u", i);
	con_printf(")\n");
	con_printf("       READ_BL_LEN %u%s WRITE_BL_LEN %u%s R2W_FACTOR ",
		   c->read_bl_len, c->read_bl_len_valid ? "" : " (reserved)",
		   c->write_bl_len, c->write_bl_len_valid ? "" : " (reserved)");
	if (c->r2w_factor_valid)
		con_printf("x%u", 1u << c->r2w_factor);
	else
		con_printf("reserved (%u)", c->r2w_factor);
	con_printf(", partial read %s write %s, misalign read %s write %s, DSR %s\n",
		   c->read_bl_partial ? "yes" : "no", c->write_bl_partial ? "yes" : "no",
		   c->read_blk_misalign ? "yes" : "no", c->write_blk_misalign ? "yes" : "no",
		   c->dsr_imp ? "yes" : "no");
	con_printf("       erase: ERASE_BLK_EN %u, SECTOR_SIZE %u blocks; WP groups %s, %u sectors\n",
		   c->erase_blk_en, c->sector_size + 1u,
		   c->wp_grp_enable ? "on" : "off", c->wp_grp_size + 1u);
	con_printf("       write protect: permanent %s, temporary %s%s; copy %s; file format %s\n",
		   c->perm_write_protect ? "YES" : "no", c->tmp_write_protect ? "YES" : "no",
		   (c->csd_structure != SD_CSD_V1 && c->wp_upc) ? ", until power cycle" : "",
		   c->copy ? "yes" : "no", sd_csd_file_format_name(c));
}

/* ---- SCR ------------------------------------------------------------------- */
static const char *const scr_cmd_names[4] = { "CMD20", "CMD23", "CMD48/49", "CMD58/59" };

void card_report_json_scr(struct json *j, const char *key, const struct sd_scr *s)
{
	unsigned i;

	json_obj_begin(j, key);
	json_hexbytes(j, "raw", s->raw, 8);
	json_u64(j, "scr_structure", s->scr_structure);
	json_str(j, "sd_spec", s->spec_version);
	json_u64(j, "sd_spec_code", s->sd_spec);
	json_u64(j, "sd_spec3", s->sd_spec3);
	json_u64(j, "sd_spec4", s->sd_spec4);
	json_u64(j, "sd_specx", s->sd_specx);
	json_u64(j, "data_stat_after_erase", s->data_stat_after_erase);
	json_u64(j, "sd_security", s->sd_security);
	json_str(j, "sd_security_name", sd_scr_security_name(s->sd_security));
	json_hex(j, "sd_bus_widths", s->sd_bus_widths, 1);
	json_arr_begin(j, "bus_widths");
	if (s->sd_bus_widths & SD_SCR_BUS_WIDTH_1)
		json_u64(j, NULL, 1);
	if (s->sd_bus_widths & SD_SCR_BUS_WIDTH_4)
		json_u64(j, NULL, 4);
	json_arr_end(j);
	json_u64(j, "ex_security", s->ex_security);
	json_arr_begin(j, "cmd_support");
	for (i = 0; i < 4; i++)
		if (s->cmd_support & (1u << i))
			json_str(j, NULL, scr_cmd_names[i]);
	json_arr_end(j);
	json_hex(j, "cmd_support_bits", s->cmd_support, 1);
	json_obj_end(j);
}

void card_report_print_scr(const struct sd_scr *s)
{
	unsigned i;

	con_printf("  SCR  structure %u%s, SD spec %s (SD_SPEC %u SPEC3 %u SPEC4 %u SPECX %u)\n",
		   s->scr_structure, s->scr_structure ? " (reserved)" : "",
		   s->spec_version, s->sd_spec, s->sd_spec3, s->sd_spec4, s->sd_specx);
	con_printf("       bus widths:%s%s%s, security %u (%s), ex-security %u, erased data %u\n",
		   (s->sd_bus_widths & SD_SCR_BUS_WIDTH_1) ? " 1" : "",
		   (s->sd_bus_widths & SD_SCR_BUS_WIDTH_4) ? " 4" : "",
		   (s->sd_bus_widths & ~(SD_SCR_BUS_WIDTH_1 | SD_SCR_BUS_WIDTH_4)) ? " +reserved bits" : "",
		   s->sd_security, sd_scr_security_name(s->sd_security), s->ex_security,
		   s->data_stat_after_erase);
	con_printf("       commands:");
	if (!s->cmd_support)
		con_printf(" none of CMD20/23/48/49/58/59");
	for (i = 0; i < 4; i++)
		if (s->cmd_support & (1u << i))
			con_printf(" %s", scr_cmd_names[i]);
	con_printf("\n");
}

/* ---- SD Status ------------------------------------------------------------- */
void card_report_json_ssr(struct json *j, const char *key, const struct sd_ssr *s)
{
	json_obj_begin(j, key);
	json_hexbytes(j, "raw", s->raw, 64);
	if (s->dat_bus_width == 0)
		json_u64(j, "dat_bus_width", 1);
	else if (s->dat_bus_width == 2)
		json_u64(j, "dat_bus_width", 4);
	else
		json_str(j, "dat_bus_width", "reserved");
	json_bool(j, "secured_mode", s->secured_mode);
	json_hex(j, "sd_card_type", s->sd_card_type, 4);
	json_str(j, "sd_card_type_name", sd_ssr_card_type_name(s->sd_card_type));
	json_u64(j, "size_of_protected_area", s->size_of_protected_area);
	if (s->speed_class_num >= 0)
		json_u64(j, "speed_class", (uint64_t)s->speed_class_num);
	else
		json_str(j, "speed_class", "reserved");
	json_u64(j, "performance_move", s->performance_move);
	json_u64(j, "au_size", s->au_size);
	json_u64_if(j, "au_size_bytes", s->au_size_bytes, s->au_size_bytes);
	json_u64(j, "erase_size", s->erase_size);
	json_u64(j, "erase_timeout", s->erase_timeout);
	json_u64(j, "erase_offset", s->erase_offset);
	if (s->uhs_speed_grade_valid)
		json_u64(j, "uhs_grade", s->uhs_speed_grade);
	else
		json_str(j, "uhs_grade", "reserved");
	json_u64(j, "uhs_au_size", s->uhs_au_size);
	json_u64_if(j, "uhs_au_size_bytes", s->uhs_au_size_bytes, s->uhs_au_size_bytes);
	if (s->video_speed_class_valid)
		json_u64(j, "video_class", s->video_speed_class);
	else
		json_str(j, "video_class", "reserved");
	json_u64(j, "vsc_au_size", s->vsc_au_size);
	json_hex(j, "sus_addr", s->sus_addr, 6);
	json_str(j, "app_perf_class", sd_ssr_app_perf_name(s->app_perf_class));
	json_obj_begin(j, "performance_enhance");
	json_u64(j, "cq_depth", s->cq_depth);
	json_bool(j, "cache", s->cache);
	json_bool(j, "host_maintenance", s->host_maintenance);
	json_bool(j, "card_maintenance", s->card_maintenance);
	json_obj_end(j);
	json_bool(j, "discard_support", s->discard_support);
	json_bool(j, "fule_support", s->fule_support);
	json_obj_end(j);
}

void card_report_print_ssr(const struct sd_ssr *s)
{
	char a[24], b[24];
	uint32_t us = sd_ssr_erase_us_per_au(s);

	con_printf("  SSR  bus %s%s, %s, protected area %u\n",
		   sd_ssr_bus_width_name(s->dat_bus_width),
		   s->secured_mode ? ", secured mode" : "",
		   sd_ssr_card_type_name(s->sd_card_type),
		   (unsigned)s->size_of_protected_area);
	con_printf("       speed class ");
	if (s->speed_class_num >= 0)
		con_printf("%d", s->speed_class_num);
	else
		con_printf("reserved (%u)", s->speed_class);
	con_printf(", UHS grade ");
	if (s->uhs_speed_grade_valid && s->uhs_speed_grade == 0)
		con_printf("none (<10 MB/s)");
	else if (s->uhs_speed_grade_valid)
		con_printf("U%u", s->uhs_speed_grade);
	else
		con_printf("reserved (%u)", s->uhs_speed_grade);
	con_printf(", video class ");
	if (s->video_speed_class == 0)
		con_printf("none");
	else if (s->video_speed_class_valid)
		con_printf("V%u", s->video_speed_class);
	else
		con_printf("reserved (%u)", s->video_speed_class);
	con_printf(", app class %s, move %u MB/s\n",
		   sd_ssr_app_perf_name(s->app_perf_class), s->performance_move);
	con_printf("       AU %s, UHS AU %s, VSC AU %u MB, SUS_ADDR 0x%06x\n",
		   s->au_size_bytes ?
		   fmt_size(a, sizeof(a), s->au_size_bytes, FMT_SIZE_ABOUT) : "not defined",
		   s->uhs_au_size_bytes ?
		   fmt_size(b, sizeof(b), s->uhs_au_size_bytes, FMT_SIZE_ABOUT) : "not defined",
		   s->vsc_au_size, (unsigned)s->sus_addr);
	con_printf("       erase: %u AUs in %u s + %u s offset", s->erase_size,
		   s->erase_timeout, s->erase_offset);
	if (us)
		con_printf(" (%u us per AU)\n", (unsigned)us);
	else
		con_printf(" (no timeout data)\n");
	con_printf("       queue depth %u, cache %s, maintenance host %s card %s, discard %s, FULE %s\n",
		   s->cq_depth, s->cache ? "yes" : "no", s->host_maintenance ? "yes" : "no",
		   s->card_maintenance ? "yes" : "no", s->discard_support ? "yes" : "no",
		   s->fule_support ? "yes" : "no");
}

/* ---- CMD6 status ----------------------------------------------------------- */
void card_report_json_switch(struct json *j, const char *key, const struct sd_switch *sw)
{
	const char *name;
	unsigned g, f;

	json_obj_begin(j, key);
	json_hexbytes(j, "raw", sw->raw, 64);
	json_u64(j, "max_current_ma", sw->max_current_ma);
	json_u64(j, "version", sw->version);
	json_arr_begin(j, "support");
	for (g = 0; g < SD_SW_GROUPS; g++)
		json_hex(j, NULL, sw->support[g], 4);
	json_arr_end(j);
	json_arr_begin(j, "selected");
	for (g = 0; g < SD_SW_GROUPS; g++)
		json_u64(j, NULL, sw->selected[g]);
	json_arr_end(j);
	if (sw->busy_valid) {
		json_arr_begin(j, "busy");
		for (g = 0; g < SD_SW_GROUPS; g++)
			json_hex(j, NULL, sw->busy[g], 4);
		json_arr_end(j);
	} else {
		json_null(j, "busy");
	}
	/* Group 1 (bus speed) by name: what the benchmark cares about. */
	json_arr_begin(j, "bus_speed_modes");
	for (f = 0; f < 15; f++) {
		char t[16];

		if (!(sw->support[0] & (1u << f)))
			continue;
		name = sd_switch_fn_name(1, f);
		if (name && name[0] != 'r') {
			json_str(j, NULL, name);
		} else {
			fmt_snprintf(t, sizeof(t), "reserved:%u", f);
			json_str(j, NULL, t);
		}
	}
	json_arr_end(j);
	json_str(j, "bus_speed_selected", sd_switch_fn_name(1, sw->selected[0]));
	json_obj_end(j);
}

void card_report_print_switch(const struct sd_switch *sw)
{
	const char *name;
	unsigned g, f;

	con_printf("  CMD6 status version %u, max current %u mA\n", sw->version,
		   sw->max_current_ma);
	for (g = 0; g < SD_SW_GROUPS; g++) {
		con_printf("       group %u: supported", g + 1);
		for (f = 0; f < 16; f++) {
			if (!(sw->support[g] & (1u << f)))
				continue;
			/* 0xF names an error only in the selection field. */
			name = f < 15 ? sd_switch_fn_name(g + 1, f) : NULL;
			if (name)
				con_printf(" %u(%s)", f, name);
			else
				con_printf(" %u", f);
		}
		name = sd_switch_fn_name(g + 1, sw->selected[g]);
		con_printf("; selected %u%s%s%s", sw->selected[g], name ? " (" : "",
			   name ? name : "", name ? ")" : "");
		if (sw->busy_valid && sw->busy[g])
			con_printf("; busy 0x%04x", sw->busy[g]);
		con_printf("\n");
	}
}

/* ---- OCR ------------------------------------------------------------------- */
void card_report_json_ocr(struct json *j, const char *key, const struct sd_ocr *o)
{
	char t[32];

	json_obj_begin(j, key);
	json_hex(j, "raw", o->raw, 8);
	json_bool(j, "powered_up", o->powered_up);
	json_bool(j, "ccs", o->ccs);
	json_bool(j, "uhs2", o->uhs2);
	json_bool(j, "co2t", o->co2t);
	json_bool(j, "s18a", o->s18a);
	if (o->min_mv) {
		json_u64(j, "vdd_min_mv", o->min_mv);
		json_u64(j, "vdd_max_mv", o->max_mv);
		fmt_snprintf(t, sizeof(t), "%u.%u-%u.%uV", o->min_mv / 1000u,
			     (o->min_mv / 100u) % 10u, o->max_mv / 1000u, (o->max_mv / 100u) % 10u);
		json_str(j, "voltage_window", t);
	} else {
		json_null(j, "vdd_min_mv");
		json_null(j, "vdd_max_mv");
		json_str(j, "voltage_window", "none");
	}
	json_bool(j, "window_contiguous", o->window_contiguous);
	json_hex(j, "reserved_bits", o->reserved_bits, 8);
	json_obj_end(j);
}

void card_report_print_ocr(const struct sd_ocr *o)
{
	con_printf("  OCR  0x%08x: %s", (unsigned)o->raw, o->powered_up ? "ready" : "busy");
	if (o->powered_up)
		con_printf(", %s", o->ccs ? "CCS=1 (SDHC/SDXC/SDUC, block addressing)"
					  : "CCS=0 (SDSC, byte addressing)");
	if (o->min_mv)
		con_printf(", %u.%u-%u.%u V%s", o->min_mv / 1000u, (o->min_mv / 100u) % 10u,
			   o->max_mv / 1000u, (o->max_mv / 100u) % 10u,
			   o->window_contiguous ? "" : " (with gaps)");
	else
		con_printf(", no voltage window");
	con_printf("%s%s%s\n", o->s18a ? ", S18A" : "", o->uhs2 ? ", UHS-II" : "",
		   o->co2t ? ", CO2T" : "");
}

/* ---- the whole card -------------------------------------------------------- */
/* Decoded forms of everything sd_card holds; static to keep them off the
 * small firmware stack (one report at a time, like the records). */
static struct {
	struct sd_cid cid;
	struct sd_csd csd;
	struct sd_scr scr;
	struct sd_ssr ssr;
	struct sd_switch sw;
	struct sd_ocr ocr;
} dec;

static void decode_card(const struct sd_card *card)
{
	sd_ocr_decode(card->ocr, &dec.ocr);
	sd_cid_decode(card->cid, &dec.cid);
	sd_csd_decode(card->csd, &dec.csd);
	if (card->have_scr)
		sd_scr_decode(card->scr, &dec.scr);
	if (card->have_ssr)
		sd_ssr_decode(card->ssr, &dec.ssr);
	if (card->have_sw)
		sd_switch_decode(card->sw_status, &dec.sw);
}

/* ---- the extension registers (SD 6.00, drivers/sd/sd_ext_info.c) ---------- */

/* What a card whose SD Status claims A2 lacks of what the class asks for
 * (SD Physical Layer 6.00 §4.19: A2 performance needs the card's command
 * queue and cache); "" when it lacks nothing or claims no A2. */
static const char *a2_lacks(const struct sd_card *card)
{
	const struct sd_ext *e = &card->ext;

	if (!card->have_ssr || dec.ssr.app_perf_class != 2)
		return "";
	if (!e->supported)
		return "no extension registers (the SCR lists no CMD48/49): no cache, no command queue";
	if (!e->read)
		return "extension registers that could not be read";
	if (!e->have_perf)
		return "no performance enhancement function";
	if (!e->cache && !e->cq_depth)
		return "no cache and no command queue";
	if (!e->cache)
		return "no cache";
	return e->cq_depth ? "" : "no command queue";
}

static void print_ext(const struct sd_card *card)
{
	const struct sd_ext *e = &card->ext;
	const char *lacks = a2_lacks(card);

	if (!e->supported) {
		con_printf("  EXT  none (the SCR lists no CMD48/49): no cache, no command queue\n");
	} else if (!e->read) {
		con_printf("  EXT  not read: %s\n", e->note);
	} else {
		con_printf("  EXT  %u functions: power management %s, performance enhancement %s\n",
			   (unsigned)e->n_ext, e->have_pm ? "yes" : "no", e->have_perf ? "yes" : "no");
		if (e->have_perf && e->cq_depth)
			con_printf("       cache %s, command queue of depth %u\n",
				   e->cache ? "yes" : "no", (unsigned)e->cq_depth);
		else if (e->have_perf)
			con_printf("       cache %s, no command queue\n", e->cache ? "yes" : "no");
	}
	if (*lacks)
		con_printf("       claims A2 (SD Status) but has %s\n", lacks);
}

/* Opens one extension's sub-object with where its register set is
 * (function number, page, offset, revision); null when the card lists none. */
static bool json_ext_where(struct json *j, const char *name, bool have, unsigned fno,
			   unsigned page, unsigned off, unsigned rev)
{
	if (!have) {
		json_null(j, name);
		return false;
	}
	json_obj_begin(j, name);
	json_u64(j, "fno", fno);
	json_u64(j, "page", page);
	json_u64(j, "offset", off);
	json_u64(j, "rev", rev);
	return true;
}

static void json_ext_pm(struct json *j, const struct sd_ext *e)
{
	if (!json_ext_where(j, "power", e->have_pm, e->pm_fno, e->pm_page, e->pm_off,
			    e->pm_rev))
		return;
	json_bool(j, "off_notify", e->pm_off_notify);
	json_bool(j, "sustenance", e->pm_sustenance);
	json_bool(j, "power_down", e->pm_down_mode);
	json_obj_end(j);
}

static void json_ext_perf(struct json *j, const struct sd_ext *e)
{
	if (!json_ext_where(j, "perf", e->have_perf, e->perf_fno, e->perf_page,
			    e->perf_off, e->perf_rev))
		return;
	json_bool(j, "fx_event", e->fx_event);
	json_bool(j, "card_maintenance", e->card_maint);
	json_bool(j, "host_maintenance", e->host_maint);
	json_bool(j, "cache", e->cache);
	json_u64(j, "cq_depth", e->cq_depth);
	json_obj_end(j);
}

/* The "ext" sub-object: only for a card that lists CMD48/49 or claims an
 * application performance class (the others' records stay as they were). */
static void json_ext(struct json *j, const struct sd_card *card)
{
	const struct sd_ext *e = &card->ext;
	const char *lacks = a2_lacks(card);

	if (!e->supported && !(card->have_ssr && dec.ssr.app_perf_class))
		return;
	json_obj_begin(j, "ext");
	json_bool(j, "cmd48", e->supported);
	json_bool(j, "read", e->read);
	if (e->err)
		json_str(j, "error", err_name(e->err));
	else
		json_null(j, "error");
	if (e->note[0])
		json_str(j, "note", e->note);
	else
		json_null(j, "note");
	json_u64(j, "gi_rev", e->gi_rev);
	json_u64(j, "extensions", e->n_ext);
	json_ext_pm(j, e);
	json_ext_perf(j, e);
	if (*lacks)
		json_str(j, "a2_lacks", lacks);
	else
		json_null(j, "a2_lacks");
	json_obj_end(j);
}

void card_report_print(const struct sd_card *card)
{
	char sz[24];

	decode_card(card);
	con_printf("card: %s, RCA 0x%04x, %llu bytes (%s), %u blocks, %s addressing\n",
		   card->present ? (card->initialised ? "ready" : "present, not initialised")
				 : "absent",
		   card->rca, (unsigned long long)card->capacity_bytes,
		   fmt_size(sz, sizeof(sz), card->capacity_bytes, FMT_SIZE_ABOUT), (unsigned)card->blocks,
		   card->high_capacity ? "block" : "byte");
	con_printf("  bus  %u-bit %s at %u Hz (card max %u Hz), CMD23 %s, HS %s, %s\n",
		   card->width, timing_name(card->timing), (unsigned)card->clock_hz,
		   (unsigned)card->max_clock_hz, card->cmd23 ? "yes" : "no",
		   card->hs_supported ? "supported" : "not supported",
		   card->write_protected ? "WRITE-PROTECTED" : "writable");
	con_printf("  mode %s, %s V signalling, host %s (bus_mode %s)%s%s\n",
		   sd_bus_mode_name(sd_timing_mode(card->timing)),
		   card->signal_mv == 1800 ? "1.8" : "3.3",
		   card->host && card->host->name ? card->host->name : "?",
		   sd_bus_mode_name(card->mode_want), card->mode_note[0] ? ": " : "",
		   card->mode_note);
	card_report_print_ocr(&dec.ocr);
	card_report_print_cid(&dec.cid);
	card_report_print_csd(&dec.csd);
	if (card->have_scr)
		card_report_print_scr(&dec.scr);
	else
		con_printf("  SCR  not read\n");
	if (card->have_ssr) {
		card_report_print_ssr(&dec.ssr);
		if (dec.ssr.size_of_protected_area)
			con_printf("       protected area %llu bytes\n",
				   (unsigned long long)sd_ssr_protected_bytes(&dec.ssr, &dec.csd));
	} else {
		con_printf("  SSR  not read\n");
	}
	if (card->have_sw)
		card_report_print_switch(&dec.sw);
	else
		con_printf("  CMD6 status not read\n");
	if (card->have_scr)
		print_ext(card);
}

void card_report_record(const struct sd_card *card)
{
	struct json *j;

	decode_card(card);
	j = record_begin("card");
	json_bool(j, "present", card->present);
	json_bool(j, "initialised", card->initialised);
	json_str(j, "host", card->host ? card->host->name : "none");
	json_hex(j, "rca", card->rca, 4);
	json_u64(j, "capacity_bytes", card->capacity_bytes);
	json_u64(j, "blocks", card->blocks);
	json_bool(j, "v2", card->v2);
	json_bool(j, "high_capacity", card->high_capacity);
	json_u64(j, "width", card->width);
	json_str(j, "timing", timing_name(card->timing));
	json_u64(j, "clock_hz", card->clock_hz);
	json_u64(j, "max_clock_hz", card->max_clock_hz);
	json_bool(j, "cmd23", card->cmd23);
	json_bool(j, "hs_supported", card->hs_supported);
	json_bool(j, "write_protected", card->write_protected);
	json_u64(j, "erase_timeout_us_per_au", card->erase_timeout_us_per_au);
	json_u64(j, "init_us", card->init_us);
	json_str(j, "host", card->host && card->host->name ? card->host->name : "?");
	json_u64(j, "signal_mv", card->signal_mv ? card->signal_mv : 3300);
	json_str(j, "bus_mode", sd_bus_mode_name(sd_timing_mode(card->timing)));
	json_str(j, "bus_mode_requested", sd_bus_mode_name(card->mode_want));
	json_str_if(j, "bus_mode_note", card->mode_note);
	json_bool(j, "s18a", card->s18a);
	json_modes(j, "uhs_card_modes", card->card_modes & ~(1u << SD_TIMING_DS | 1u << SD_TIMING_HS));
	json_modes(j, "uhs_host_modes", card->host ? card->host->uhs_modes : 0);
	json_u64(j, "tuning_tries", card->tuning_tries);
	card_report_json_ocr(j, "ocr", &dec.ocr);
	card_report_json_cid(j, "cid", &dec.cid);
	card_report_json_csd(j, "csd", &dec.csd);
	if (card->have_scr)
		card_report_json_scr(j, "scr", &dec.scr);
	else
		json_null(j, "scr");
	if (card->have_ssr)
		card_report_json_ssr(j, "ssr", &dec.ssr);
	else
		json_null(j, "ssr");
	if (card->have_sw)
		card_report_json_switch(j, "switch", &dec.sw);
	else
		json_null(j, "switch");
	json_ext(j, card);
	record_end();
}

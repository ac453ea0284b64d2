/*
 * modes_report.c - see modes_report.h.
 */
#include "bench/engine/record.h"
#include "bench/workloads/modes_report.h"
#include "lib/console.h"
#include "lib/err.h"

void modes_report_heading(const struct modes_result *r)
{
	con_printf("\nbus modes side by side (sequential read, %u KiB transfers, %u KiB each):\n",
		   (unsigned)(r->xfer_bytes >> 10), (unsigned)(r->total_bytes >> 10));
}

void modes_report_point(const struct modes_result *r, unsigned i)
{
	const struct modes_point *p = &r->pt[i];

	if (p->err) {
		con_printf("  %-7s not initialised: %s%s%s\n", sd_bus_mode_name(p->mode),
			   err_text(p->err), p->note[0] ? "; " : "", p->note);
		return;
	}
	con_printf("  %-7s %-7s %3u.%03u MHz %u-bit %s V  read %7.2f MB/s  bus ceiling %7.2f MB/s"
		   "%s%s\n", sd_bus_mode_name(p->mode), sd_bus_mode_name(p->ran),
		   (unsigned)(p->clock_hz / 1000000u), (unsigned)(p->clock_hz / 1000u % 1000u),
		   p->width, p->signal_mv == 1800 ? "1.8" : "3.3", p->read_mbs, p->ceiling_mbs,
		   p->note[0] ? "  " : "", p->note);
}

void modes_report_end(const struct modes_result *r)
{
	struct json *j = record_begin("modes");
	unsigned i;

	json_u64(j, "xfer_bytes", r->xfer_bytes);
	json_u64(j, "bytes_per_mode", r->total_bytes);
	json_arr_begin(j, "modes");
	for (i = 0; i < r->n; i++) {
		const struct modes_point *p = &r->pt[i];

		json_obj_begin(j, NULL);
		json_str(j, "mode", sd_bus_mode_name(p->mode));
		json_str(j, "ran", sd_bus_mode_name(p->ran));
		json_bool(j, "ok", p->ok);
		json_str_if(j, "error", p->err ? err_name(p->err) : NULL);
		json_u64(j, "clock_hz", p->clock_hz);
		json_u64(j, "width", p->width);
		json_u64(j, "signal_mv", p->signal_mv);
		json_u64(j, "tuning_tries", p->tuning_tries);
		json_double(j, "read_mbs", p->read_mbs, 2);
		json_double(j, "bus_ceiling_mbs", p->ceiling_mbs, 2);
		json_str_if(j, "note", p->note);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_str(j, "restored", sd_bus_mode_name(r->restored));
	json_bool(j, "restore_ok", r->restore_ok);
	record_end();
}

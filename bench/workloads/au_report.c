/*
 * au_report.c - text and records of the erase-block / AU workloads (see
 * au_report.h).
 */
#include "bench/engine/record.h"
#include "bench/workloads/au_report.h"
#include "bench/workloads/common.h"
#include "lib/console.h"
#include "lib/fmt.h"

/* ---- alignment test ------------------------------------------------------ */

void au_report_align_heading(const struct au_align_result *r)
{
	con_printf("\nerase-block / AU detection by alignment read timing (read-only, %u-byte "
		   "reads, %u boundaries per size)%s\n", (unsigned)r->read_bytes,
		   (unsigned)r->positions, r->emulated ? " - emulated: timings are QEMU's" : "");
}

static const char *const au_match_name[] = {
	[WLA_AU_NO_STEP] = "unknown",
	[WLA_AU_UNDECLARED] = "unknown",
	[WLA_AU_EQUAL] = "equal",
	[WLA_AU_SMALLER] = "smaller",
	[WLA_AU_LARGER] = "larger",
};

/* The erase-block line for people, also the record's "text". */
static void align_text(const struct au_align_result *r, char *text, unsigned cap)
{
	char s1[24], s2[24];
	const char *found = wlx_size_str(r->boundary.size_bytes, s1, sizeof(s1));
	const char *au = wlx_size_str(r->au_bytes, s2, sizeof(s2));
	size_t len = 0;

	switch (r->match) {
	case WLA_AU_NO_STEP:
		fmt_snprintf(text, cap, "no alignment step: the card hides its erase "
			     "blocks from reads (or the effect is below the noise)%s",
			     r->au_declared ? "" : "; the card declares no AU size either");
		break;
	case WLA_AU_UNDECLARED:
		fmt_snprintf(text, cap, "boundary at %s; the card declares no AU size", found);
		break;
	case WLA_AU_EQUAL:
		fmt_snprintf(text, cap, "boundary at %s = the declared AU", found);
		break;
	case WLA_AU_SMALLER:
		fmt_snprintf(text, cap, "boundary at %s, inside the declared %s AU "
			     "(the AU spans several erase blocks)", found, au);
		break;
	default:
		fmt_snprintf(text, cap, "boundary at %s, larger than the declared %s AU", found, au);
		break;
	}
	if (r->emulated) {
		while (text[len])
			len++;
		fmt_snprintf(text + len, cap - len, " (emulated: QEMU's timing, not a "
			     "card's geometry)");
	}
}

void au_report_align(const struct au_align_result *r)
{
	const struct wla_boundary *b = &r->boundary;
	char s1[24], text[240];
	struct json *j;
	unsigned k;

	con_printf("  %10s %10s %10s %10s %10s\n", "align", "pre us", "on us", "post us",
		   "diff us");
	for (k = 0; k < r->npoints; k++)
		con_printf("  %10s %10.1f %10.1f %10.1f %10.1f\n",
			   wlx_size_str(r->pt[k].size_bytes, s1, sizeof(s1)), r->pt[k].pre_ns / 1e3,
			   r->pt[k].on_ns / 1e3, r->pt[k].post_ns / 1e3,
			   (double)wla_align_diff(&r->pt[k]) / 1e3);
	align_text(r, text, sizeof(text));
	con_printf("  erase block: %s\n", text);

	j = record_begin("au");
	json_str(j, "workload", "au-align");
	json_u64(j, "read_bytes", r->read_bytes);
	json_u64(j, "base_lba", r->base_lba);
	json_u64(j, "positions", r->positions);
	json_arr_begin(j, "align_bytes");
	for (k = 0; k < r->npoints; k++)
		json_u64(j, NULL, r->pt[k].size_bytes);
	json_arr_end(j);
	json_arr_begin(j, "pre_ns");
	for (k = 0; k < r->npoints; k++)
		json_u64(j, NULL, r->pt[k].pre_ns);
	json_arr_end(j);
	json_arr_begin(j, "on_ns");
	for (k = 0; k < r->npoints; k++)
		json_u64(j, NULL, r->pt[k].on_ns);
	json_arr_end(j);
	json_arr_begin(j, "post_ns");
	for (k = 0; k < r->npoints; k++)
		json_u64(j, NULL, r->pt[k].post_ns);
	json_arr_end(j);
	json_arr_begin(j, "noise_ns");
	for (k = 0; k < r->npoints; k++)
		json_u64(j, NULL, r->pt[k].noise_ns);
	json_arr_end(j);
	if (b->size_bytes) {
		json_u64(j, "measured_bytes", b->size_bytes);
		json_i64(j, "step_ns", b->step_ns);
		json_u64(j, "first_step_bytes", b->first_step_bytes);
	} else {
		json_null(j, "measured_bytes");
		json_null(j, "step_ns");
		json_null(j, "first_step_bytes");
	}
	if (r->au_declared)
		json_u64(j, "declared_au_bytes", r->au_bytes);
	else
		json_null(j, "declared_au_bytes");
	json_str(j, "match", au_match_name[r->match]);
	json_str(j, "text", text);
	json_bool(j, "emulated", r->emulated);
	record_end();
}

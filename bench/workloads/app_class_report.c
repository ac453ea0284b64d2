/*
 * app_class_report.c - text and record of the application and speed class
 * check (see app_class_report.h).
 */
#include "bench/engine/record.h"
#include "bench/workloads/app_class_report.h"
#include "bench/workloads/common.h"
#include "lib/console.h"
#include "lib/fmt.h"

/* "the card claims: application class A1, speed class C10 U1 V30, AU 4 MiB" */
static void print_claims(const struct app_class_result *r)
{
	const struct wla_speed_claim *sc = &r->speed_claim;
	char sp[32], s1[24];
	unsigned len = 0;

	sp[0] = 0;
	if (sc->speed_class > 0)
		len += (unsigned)fmt_snprintf(sp + len, sizeof(sp) - len, " C%d", sc->speed_class);
	else if (sc->speed_class < 0)
		len += (unsigned)fmt_snprintf(sp + len, sizeof(sp) - len, " (reserved code)");
	if (sc->uhs_grade && len < sizeof(sp))
		len += (unsigned)fmt_snprintf(sp + len, sizeof(sp) - len, " U%u", sc->uhs_grade);
	if (sc->video && len < sizeof(sp))
		fmt_snprintf(sp + len, sizeof(sp) - len, " V%u", sc->video);
	con_printf("  the card claims: application class %s, speed class%s, AU %s\n",
		   sd_ssr_app_perf_name(r->ssr.app_perf_class), sp[0] ? sp : " none",
		   r->ssr.au_size_bytes ? fmt_size(s1, sizeof(s1), r->ssr.au_size_bytes, FMT_SIZE_EXACT) :
		   "not declared");
}

void app_class_report_heading(const struct app_class_result *r)
{
	con_printf("\napplication and speed class check (SD Physical Layer 4.16, 4.13; "
		   "MB = 10^6 B)%s\n", r->emulated ? " - emulated: the figures are QEMU's, "
		   "not a card's" : "");
	if (!r->have_ssr)
		con_printf("  the card's SD Status was not read: there is no claim to compare\n");
	else
		print_claims(r);
}

void app_class_report_pw(const struct app_class_result *r)
{
	char s1[24], s2[24];

	con_printf("  %-28s %s: %s AUs %s, written in %s RUs\n", "", "Pw",
		   fmt_size(s2, sizeof(s2), r->au_bytes, FMT_SIZE_EXACT),
		   r->pw_erased ? "erased first" : "not erased (no CMD38)",
		   fmt_size(s1, sizeof(s1), r->ru_bytes, FMT_SIZE_EXACT));
}

void app_class_report_area_cut(const struct app_class_result *r)
{
	con_printf("  %-28s the time budget filled %u MiB: the random tests use that much\n",
		   "", (unsigned)(r->area_blocks >> 11));
}

void app_class_report(const struct app_class_result *r)
{
	const struct wla_class_verdict *v = &r->verdict;
	struct json *j;
	uint32_t i;

	con_printf("  application class: %s\n", v->app_text);
	con_printf("  speed class:       %s\n", v->speed_text);
	con_printf("  (queue depth 1, no command queue, no cache; card time: host bookkeeping "
		   "between commands excluded; bus %u Hz %u-bit carries at most %.1f MB/s)\n",
		   (unsigned)r->clock_hz, (unsigned)r->width, r->bus_ceiling_mbs);

	j = record_begin("class");
	json_str(j, "workload", "class");
	json_bool(j, "ssr", r->have_ssr);
	if (r->have_ssr) {
		json_str(j, "app_claim", sd_ssr_app_perf_name(r->ssr.app_perf_class));
		json_i64(j, "speed_class_claim", r->speed_claim.speed_class);
		json_u64(j, "uhs_grade_claim", r->speed_claim.uhs_grade);
		json_u64(j, "video_class_claim", r->speed_claim.video);
		json_u64(j, "cq_depth", r->ssr.cq_depth);
		json_bool(j, "cache_support", r->ssr.cache);
	} else {
		json_null(j, "app_claim");
		json_null(j, "speed_class_claim");
		json_null(j, "uhs_grade_claim");
		json_null(j, "video_class_claim");
	}
	json_u64(j, "area_first_lba", r->area_first_lba);
	json_u64(j, "area_bytes", (uint64_t)r->area_blocks * SD_BLOCK_SIZE);
	json_u64(j, "rand_bytes", r->rand_bytes);
	json_str(j, "rand_cmd", r->rand_cmd23 ? "cmd23" : "auto-cmd12");
	json_u64(j, "queue_depth", 1);
	json_bool(j, "cq_enabled", false);
	json_bool(j, "cache_enabled", false);
	json_double_if(j, "read_iops", r->app.read_iops, 1);
	json_double_if(j, "write_iops", r->app.write_iops, 1);
	json_double_if(j, "read_iops_wall", r->read_iops_wall, 1);
	json_double_if(j, "write_iops_wall", r->write_iops_wall, 1);
	json_double_if(j, "seq_write_mbs", r->app.seq_mbs, 3);
	json_u64_if(j, "app_level_measured", v->app_level >= 0, (uint64_t)v->app_level);
	json_bool_if(j, "app_meets_claim", v->app_ok);
	json_str(j, "app_text", v->app_text);
	json_u64(j, "au_bytes", r->au_bytes);
	json_bool(j, "au_declared", r->au_declared);
	json_u64(j, "ru_bytes", r->ru_bytes);
	json_bool(j, "pw_erased", r->pw_erased);
	json_double_if(j, "pw_mbs", r->pw_mbs, 3);
	json_arr_begin(j, "pw_au_mbs");
	for (i = 0; i < r->pw_done; i++)
		json_double(j, NULL, r->pw_au_mbs[i], 3);
	json_arr_end(j);
	json_u64_if(j, "speed_class_met", r->pw_mbs >= 0, v->speed_class_met);
	json_u64_if(j, "uhs_grade_met", r->pw_mbs >= 0, v->uhs_grade_met);
	json_u64_if(j, "video_class_met", r->pw_mbs >= 0, v->video_class_met);
	json_bool_if(j, "speed_meets_claim", v->speed_ok);
	json_str(j, "speed_text", v->speed_text);
	json_double(j, "bus_ceiling_mbs", r->bus_ceiling_mbs, 2);
	json_u64(j, "clock_hz", r->clock_hz);
	json_u64(j, "width", r->width);
	json_bool(j, "emulated", r->emulated);
	record_end();
}

void app_class_report_queued(const struct app_class_queued *a)
{
	static const char *const state[] = { "measured", "broken", "no queue", "not measured",
					     "unknown" };
	struct json *j;

	if (a->claim == WLA_APP_A2)
		con_printf("  %s\n", a->text);
	else
		con_printf("  (the card claims no A2: the queued figures are not a class verdict)\n");
	j = record_begin("class_queue");
	json_str(j, "app_claim", a->have_ssr ? sd_ssr_app_perf_name(a->claim) : NULL);
	json_str(j, "queue", state[a->state]);
	json_u64_if(j, "depth", a->state == ACQ_MEASURED, a->depth);
	json_bool(j, "cache", a->cache);
	json_double_if(j, "read_iops", a->read_iops, 1);
	json_double_if(j, "write_iops", a->write_iops, 1);
	json_double_if(j, "mixed_iops", a->mixed_iops, 1);
	json_double_if(j, "read_iops_d1", a->read_iops_d1, 1);
	json_double_if(j, "write_iops_d1", a->write_iops_d1, 1);
	json_double_if(j, "seq_write_mbs", a->seq_mbs, 3);
	json_bool_if(j, "app_meets_claim", a->claim == WLA_APP_A2 ? a->app_ok : -1);
	json_str_if(j, "app_text", a->claim == WLA_APP_A2 ? a->text : NULL);
	json_str_if(j, "detail", a->claim == WLA_APP_A2 ? a->detail : NULL);
	record_end();
}

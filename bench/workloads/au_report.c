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
	const char *found = fmt_size(s1, sizeof(s1), r->boundary.size_bytes, FMT_SIZE_EXACT);
	const char *au = fmt_size(s2, sizeof(s2), r->au_bytes, FMT_SIZE_EXACT);
	size_t len = 0;

	switch (r->match) {
	case WLA_AU_NO_STEP:
		if (r->boundary.inconclusive) {
			char s3[24];

			fmt_snprintf(text, cap, "inconclusive (threshold %.2f ms): a lasting rise of "
				     "%.2f ms at %s, under what %u boundaries per size tell from the "
				     "noise", r->boundary.threshold_ns / 1e6,
				     r->boundary.candidate_ns / 1e6,
				     fmt_size(s3, sizeof(s3), r->boundary.candidate_bytes,
					      FMT_SIZE_EXACT), (unsigned)r->positions);
			break;
		}
		fmt_snprintf(text, cap, "no alignment step of %.2f ms or more: the card hides "
			     "its erase blocks from reads (or the effect is below that)%s",
			     r->boundary.threshold_ns / 1e6,
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

/* One field of every alignment point, as the record's array key. */
#define ALIGN_COLUMN(j, key, r, field)					\
	do {								\
		json_arr_begin(j, key);					\
		for (unsigned k_ = 0; k_ < (r)->npoints; k_++)		\
			json_u64(j, NULL, (r)->pt[k_].field);		\
		json_arr_end(j);					\
	} while (0)

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
			   fmt_size(s1, sizeof(s1), r->pt[k].size_bytes, FMT_SIZE_EXACT), r->pt[k].pre_ns / 1e3,
			   r->pt[k].on_ns / 1e3, r->pt[k].post_ns / 1e3,
			   (double)wla_align_diff(&r->pt[k]) / 1e3);
	align_text(r, text, sizeof(text));
	con_printf("  erase block: %s\n", text);

	j = record_begin("au");
	json_str(j, "workload", "au-align");
	json_u64(j, "read_bytes", r->read_bytes);
	json_u64(j, "base_lba", r->base_lba);
	json_u64(j, "positions", r->positions);
	ALIGN_COLUMN(j, "align_bytes", r, size_bytes);
	ALIGN_COLUMN(j, "pre_ns", r, pre_ns);
	ALIGN_COLUMN(j, "on_ns", r, on_ns);
	ALIGN_COLUMN(j, "post_ns", r, post_ns);
	ALIGN_COLUMN(j, "noise_ns", r, noise_ns);
	json_u64_if(j, "measured_bytes", b->size_bytes, b->size_bytes);
	json_i64_if(j, "step_ns", b->size_bytes, b->step_ns);
	json_u64_if(j, "first_step_bytes", b->size_bytes, b->first_step_bytes);
	json_u64_if(j, "declared_au_bytes", r->au_declared, r->au_bytes);
	json_str(j, "match", au_match_name[r->match]);
	json_i64(j, "threshold_ns", b->threshold_ns);
	json_bool(j, "inconclusive", b->inconclusive);
	json_u64_if(j, "candidate_bytes", b->inconclusive, b->candidate_bytes);
	json_i64_if(j, "candidate_ns", b->inconclusive, b->candidate_ns);
	json_str(j, "text", text);
	json_bool(j, "emulated", r->emulated);
	record_end();
}

/* ---- open AUs --------------------------------------------------------------- */

/* An "open_au" or "erase" record begun: its workload and AU. */
static struct json *au_record_begin(const char *type, const char *workload,
				    const struct au_plan *p)
{
	struct json *j = record_begin(type);

	json_str(j, "workload", workload);
	json_u64(j, "au_bytes", p->au_bytes);
	json_bool(j, "au_declared", p->au_declared);
	return j;
}

void au_report_open_heading(const struct au_open_result *r)
{
	char s1[24], s2[24];

	con_printf("\nopen AUs: %s writes round-robin into N AUs of %s (%s AU size)%s\n",
		   fmt_size(s1, sizeof(s1), r->chunk_bytes, FMT_SIZE_EXACT),
		   fmt_size(s2, sizeof(s2), r->plan.au_bytes, FMT_SIZE_EXACT),
		   r->plan.au_declared ? "declared" : r->plan.quick ? "quick-profile" : "assumed",
		   r->plan.emulated ? " - emulated" : "");
}

void au_report_open_point(const struct au_open_result *r, unsigned i)
{
	con_printf("  N=%-3u %9.3f MB/s  p50 %8.1f us  p99 %9.1f us  max %9.1f us%s\n",
		   r->n[i], r->mbs[i], r->p50_ns[i] / 1e3, r->p99_ns[i] / 1e3, r->max_ns[i] / 1e3,
		   r->errors[i] ? "  (errors)" : "");
}

void au_report_open(const struct au_open_result *r)
{
	const struct wla_open_au *d = &r->decision;
	struct json *j;
	unsigned i;

	if (d->collapsed)
		con_printf("  open AUs: the card handles %u; with %u the median write takes "
			   "%.1f us against %.1f us (every write closes an AU)\n", d->handled,
			   d->collapse_at, d->at_ns / 1e3, d->base_ns / 1e3);
	else
		con_printf("  open AUs: no collapse up to N=%u (median write %.1f us at best)\n",
			   d->handled, d->base_ns / 1e3);

	j = au_record_begin("open_au", "open-au", &r->plan);
	json_u64(j, "chunk_bytes", r->chunk_bytes);
	json_u64(j, "first_lba", r->plan.first_lba);
	json_arr_begin(j, "n");
	for (i = 0; i < r->npoints; i++)
		json_u64(j, NULL, r->n[i]);
	json_arr_end(j);
	json_arr_begin(j, "mbs");
	for (i = 0; i < r->npoints; i++)
		json_double(j, NULL, r->mbs[i], 3);
	json_arr_end(j);
	json_arr_begin(j, "p99_us");
	for (i = 0; i < r->npoints; i++)
		json_u64(j, NULL, r->p99_ns[i] / 1000);
	json_arr_end(j);
	json_u64(j, "handled", d->handled);
	json_bool(j, "collapsed", d->collapsed);
	json_u64_if(j, "collapse_at", d->collapsed, d->collapse_at);
	json_str(j, "stopped_by", r->stopped_by);
	json_bool(j, "emulated", r->plan.emulated);
	json_arr_begin(j, "p50_us");
	for (i = 0; i < r->npoints; i++)
		json_double(j, NULL, r->p50_ns[i] / 1e3, 1);
	json_arr_end(j);
	json_double(j, "base_p50_us", d->base_ns / 1e3, 1);
	json_double(j, "rise_pct", r->rise * 100.0, 0);
	record_end();
}

/* ---- erase time per AU --------------------------------------------------------- */

void au_report_erase_heading(const struct au_erase_result *r)
{
	char s1[24];

	con_printf("\nerase (CMD38) time per AU of %s (%s)%s\n",
		   fmt_size(s1, sizeof(s1), r->plan.au_bytes, FMT_SIZE_EXACT),
		   r->plan.au_declared ? "declared AU" : r->plan.quick ? "quick profile" : "assumed AU",
		   r->plan.emulated ? " - emulated" : "");
}

void au_report_erase(const struct au_erase_result *r)
{
	const struct wla_spread *t = &r->single_us;
	struct json *j;

	con_printf("  1 AU: min %.3f ms, median %.3f ms, max %.3f ms over %u erases\n",
		   t->min / 1e3, t->median / 1e3, t->max / 1e3, r->count);
	if (r->multi_ok)
		con_printf("  %u AUs at once: %.3f ms -> %.3f ms per further AU\n",
			   (unsigned)r->multi_aus, r->multi_ns / 1e6, r->per_au_us / 1e3);
	if (r->have_timeout)
		con_printf("  the card's SD Status allows up to %u ms for one AU\n",
			   (unsigned)r->timeout_ms);
	else
		con_printf("  the card gives no erase timeout in its SD Status\n");

	j = au_record_begin("erase", "erase-au", &r->plan);
	json_u64(j, "first_lba", r->plan.first_lba);
	json_u64(j, "count", r->count);
	json_u64(j, "min_us", t->min);
	json_u64(j, "median_us", t->median);
	json_u64(j, "max_us", t->max);
	json_u64_if(j, "multi_aus", r->multi_ok, r->multi_aus);
	json_u64_if(j, "multi_us", r->multi_ok, r->multi_ns / 1000);
	if (r->multi_ok)
		json_double(j, "per_au_us", r->per_au_us, 1);
	else
		json_null(j, "per_au_us");
	json_u64_if(j, "timeout_ms_1au", r->have_timeout, r->timeout_ms);
	json_bool(j, "emulated", r->plan.emulated);
	record_end();
}

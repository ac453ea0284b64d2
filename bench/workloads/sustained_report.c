/*
 * sustained_report.c - text and record of the sustained write (see
 * sustained_report.h).
 */
#include "bench/engine/record.h"
#include "bench/workloads/common.h"
#include "bench/workloads/sustained_report.h"
#include "lib/console.h"
#include "lib/fmt.h"

void sustained_report_heading(const struct sustained_result *r)
{
	char s1[24], s2[24];

	con_printf("\nsustained sequential write, %s transfers over up to %s of the test area "
		   "(MB = 10^6 B)%s\n", fmt_size(s1, sizeof(s1), r->xfer_bytes, FMT_SIZE_EXACT),
		   fmt_size(s2, sizeof(s2), r->budget_bytes, FMT_SIZE_EXACT),
		   r->emulated ? " - emulated: the rates are QEMU's, not a card's" : "");
}

void sustained_report(const struct sustained_result *r)
{
	const struct wla_knee *k = &r->knee;
	uint64_t bytes = (uint64_t)r->ops * r->xfer_bytes;
	char s1[24], s2[24], s3[24];
	struct json *j;
	unsigned i;

	if (k->found)
		con_printf("  %-28s initial %.2f MB/s for the first %s, then %.2f MB/s "
			   "(knee: the cache is full after %s)\n", "", k->initial_mbs,
			   fmt_size(s1, sizeof(s1), k->knee_bytes, FMT_SIZE_EXACT), k->steady_mbs,
			   fmt_size(s2, sizeof(s2), k->knee_bytes, FMT_SIZE_EXACT));
	else
		con_printf("  %-28s no knee within %s: %.2f MB/s throughout (no cache, or a cache "
			   "larger than the amount written)\n", "",
			   fmt_size(s1, sizeof(s1), bytes, FMT_SIZE_EXACT), k->overall_mbs);
	con_printf("  %-28s worst stall %.1f ms at %s (median operation %.1f ms)\n", "",
		   k->worst_ns / 1e6, fmt_size(s3, sizeof(s3), (uint64_t)k->worst_op * r->xfer_bytes,
				 FMT_SIZE_EXACT), k->median_ns / 1e6);

	j = record_begin("sustained");
	json_str(j, "workload", "sustained-write");
	json_u64(j, "xfer_bytes", r->xfer_bytes);
	json_u64(j, "first_lba", r->first_lba);
	json_u64(j, "area_bytes", r->area_bytes);
	json_u64(j, "budget_bytes", r->budget_bytes);
	json_u64(j, "bytes", bytes);
	json_u64(j, "ops", r->ops);
	json_str(j, "stopped_by", r->stopped_by);
	json_double(j, "overall_mbs", k->overall_mbs, 3);
	json_bool(j, "knee_found", k->found);
	json_u64_if(j, "knee_bytes", k->found, k->knee_bytes);
	json_u64_if(j, "knee_op", k->found, k->knee_op);
	json_double(j, "initial_mbs", k->initial_mbs, 3);
	json_double(j, "steady_mbs", k->steady_mbs, 3);
	json_u64(j, "median_op_ns", k->median_ns);
	json_u64(j, "worst_ns", k->worst_ns);
	json_u64(j, "worst_at_bytes", (uint64_t)k->worst_op * r->xfer_bytes);
	json_u64(j, "rate_step_bytes", (uint64_t)r->rate_group_ops * r->xfer_bytes);
	json_arr_begin(j, "rate_mbs");
	for (i = 0; i < r->nrates; i++)
		json_double(j, NULL, r->rate_mbs[i], 2);
	json_arr_end(j);
	json_bool(j, "emulated", r->emulated);
	record_end();
}

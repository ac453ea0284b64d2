/*
 * compare_hosts_report.c - see compare_hosts_report.h.
 */
#include "bench/engine/record.h"
#include "bench/workloads/compare_hosts_report.h"
#include "lib/console.h"
#include "lib/json.h"

/* The rows whose split does not hold, and why: their host% and CPU
 * ns/blk are not the host's (bench/engine/validity.h). */
static void print_flagged(const struct hosts_table *t)
{
	unsigned i;

	con_printf("  (! no diagnosis: host%% and CPU ns/blk of these rows do not describe the host)\n");
	for (i = 0; i < t->nrows; i++) {
		const struct hosts_row *r = &t->rows[i];

		if (!r->error && !r->valid)
			con_printf("  ! %s %s %s: %s\n", r->host, r->path, r->workload,
				   r->invalid_why);
	}
}

void hosts_table_report(const struct hosts_table *t)
{
	struct json *j;
	unsigned i, nflagged = 0;

	con_printf("\nhost comparison%s\n", t->emulated ?
		   " (QEMU: emulation speed, not card or controller speed)" : "");
	con_printf("  %-7s %-4s %-6s %-14s %9s %9s %10s %6s %12s\n", "host", "path", "mode",
		   "workload", "MB/s", "IOPS", "p99 us", "host%", "CPU ns/blk");
	for (i = 0; i < t->nrows; i++) {
		const struct hosts_row *r = &t->rows[i];

		if (r->error) {
			con_printf("  %-7s %-4s %-6s %-14s  not measured: %s\n", r->host, r->path,
				   r->mode ? r->mode : "-", r->workload, r->why ? r->why : "error");
			continue;
		}
		con_printf("  %-7s %-4s %-6s %-14s %9.3f %9.1f %10.1f %5.1f%% %12.0f%s%s\n", r->host,
			   r->path, r->mode ? r->mode : "-", r->workload, r->mbs, r->iops, r->p99_ns / 1000.0, r->host_pct,
			   r->cpu_ns_per_block, r->best ? "  *" : "", r->valid ? "" : "  !");
		nflagged += !r->valid;
	}
	con_printf("  (* the fastest configuration for that workload)\n");
	if (nflagged)
		print_flagged(t);

	j = record_begin("hosts");
	json_bool(j, "emulated", t->emulated);
	json_arr_begin(j, "rows");
	for (i = 0; i < t->nrows; i++) {
		const struct hosts_row *r = &t->rows[i];

		json_obj_begin(j, NULL);
		json_str(j, "host", r->host);
		json_str(j, "data_path", r->path);
		json_str(j, "workload", r->workload);
		if (r->mode)
			json_str(j, "bus_mode", r->mode);
		if (r->error) {
			json_i64(j, "error", r->error);
			json_str(j, "reason", r->why ? r->why : "error");
		} else {
			json_u64(j, "ops", r->ops);
			json_double(j, "mbs", r->mbs, 3);
			json_double(j, "iops", r->iops, 1);
			json_u64(j, "p99_ns", r->p99_ns);
			json_double(j, "host_pct", r->host_pct, 1);
			json_double(j, "cpu_ns_per_block", r->cpu_ns_per_block, 0);
			json_bool(j, "best", r->best);
			json_bool(j, "valid", r->valid);
			if (r->valid)
				json_null(j, "why");
			else
				json_str(j, "why", r->invalid_why);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	record_end();
}

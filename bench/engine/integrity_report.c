/*
 * integrity_report.c - text and record of the read-back check (see
 * integrity_report.h).
 */
#include "bench/engine/integrity_report.h"
#include "bench/engine/record.h"
#include "lib/console.h"
#include "lib/err.h"

void wl_report_integrity(const struct wl_integrity *v)
{
	struct json *j;

	con_printf("  %-28s verified %u blocks: %u ok, %u changed, %u overwritten, %u stale, %u corrupted%s\n",
		   v->workload, (unsigned)v->blocks, (unsigned)v->count[PAT_OK],
		   (unsigned)v->count[PAT_CHANGED], (unsigned)v->count[PAT_OVERWRITTEN],
		   (unsigned)v->count[PAT_STALE], (unsigned)v->count[PAT_CORRUPTED],
		   v->partial ? " (only the first ranges were remembered)" : "");
	j = record_begin("integrity");
	json_str(j, "workload", v->workload);
	json_u64(j, "blocks", v->blocks);
	json_u64(j, "ok", v->count[PAT_OK]);
	json_u64(j, "changed", v->count[PAT_CHANGED]);
	json_u64(j, "overwritten", v->count[PAT_OVERWRITTEN]);
	json_u64(j, "stale", v->count[PAT_STALE]);
	json_u64(j, "corrupted", v->count[PAT_CORRUPTED]);
	json_u64(j, "read_errors", v->read_errors);
	if (v->bad)
		json_u64(j, "first_bad_lba", v->first_bad_lba);
	json_bool(j, "partial", v->partial);
	record_end();
	if (v->bad)
		record_error(v->workload, -EIO,
			     "%u of %u blocks did not read back as written (first at LBA %u)",
			     (unsigned)v->bad, (unsigned)v->blocks, (unsigned)v->first_bad_lba);
}

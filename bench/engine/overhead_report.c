/*
 * overhead_report.c - see overhead_report.h.
 */
#include "bench/engine/overhead_report.h"
#include "bench/engine/record.h"
#include "lib/console.h"

void wl_overhead_report(const struct wl_overhead *o)
{
	struct json *j;

	con_printf("measurement overhead: %u ns per timestamp (%s, resolution %u ns), "
		   "%u ns of bookkeeping per operation\n",
		   (unsigned)o->timestamp_ns, o->timer, (unsigned)o->resolution_ns,
		   (unsigned)o->bookkeeping_ns);
	j = record_begin("overhead");
	json_str(j, "timer", o->timer);
	json_u64(j, "timestamp_ns", o->timestamp_ns);
	json_u64(j, "resolution_ns", o->resolution_ns);
	json_u64(j, "bookkeeping_ns_per_op", o->bookkeeping_ns);
	json_u64(j, "timestamps_per_op", o->timestamps_per_op);
	record_end();
}

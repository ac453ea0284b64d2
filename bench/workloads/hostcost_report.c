/*
 * hostcost_report.c - text and records of the request-path cost step (see
 * hostcost_report.h).
 */
#include "bench/engine/record.h"
#include "bench/workloads/hostcost_report.h"
#include "drivers/sd/sd.h"
#include "lib/console.h"

void hostcost_report_heading(const char *host, const char *timer, uint32_t resolution_ns,
			     bool emulated)
{
	con_printf("\nrequest-path cost (%s): sequential reads and writes, each size timed over many "
		   "requests with the %s clock (resolution %u ns)%s\n", host, timer,
		   (unsigned)resolution_ns,
		   emulated ? "; under QEMU -icount shift=0 1 ns is one guest instruction" : "");
	con_printf("  %-5s %-5s %8s %-10s %8s %12s %10s %12s %10s %s\n", "path", "op", "blocks",
		   "command", "requests", "ns/request", "ns/block", "driver ns/rq", "engine ns",
		   "moved by");
}

/* A row whose figures the clock's step moves by more than
 * HOSTCOST_COARSE_PCT: the engine's part (a difference) or the request. */
static bool coarse(const struct hostcost_row *r)
{
	double eng = r->op_ns - r->driver_ns;

	if (eng < 0)
		eng = -eng;
	return 2 * r->resolution_ns * 100.0 > HOSTCOST_COARSE_PCT * eng ||
	       r->resolution_ns * 100.0 > HOSTCOST_COARSE_PCT * r->op_ns;
}

void hostcost_report_row(const char *host, const struct hostcost_row *r)
{
	struct json *j;

	if (r->error)
		con_printf("  %-5s %-5s %8u %-10s failed (%d)\n", r->path, r->op,
			   (unsigned)r->blocks, r->cmd, r->error);
	else
		con_printf("\r  %-5s %-5s %8u %-10s %8u %12.0f %10.1f %12.0f %10.0f %s\n", r->path,
			   r->op, (unsigned)r->blocks, r->cmd, (unsigned)r->requests, r->op_ns,
			   r->op_ns / r->blocks, r->driver_ns, r->op_ns - r->driver_ns,
			   r->moved_by);
	if (!r->error && coarse(r))
		con_printf("  %-5s %-5s %8u %-10s below the clock's resolution: +-%.0f ns per request, "
			   "+-%.0f ns for the engine's part\n", "", "", (unsigned)r->blocks, "",
			   r->resolution_ns, 2 * r->resolution_ns);
	j = record_begin("hostcost");
	json_str(j, "host", host);
	json_str(j, "path", r->path);
	json_str(j, "op", r->op);
	json_str(j, "cmd", r->cmd);
	json_u64(j, "blocks", r->blocks);
	json_u64(j, "xfer_bytes", (uint64_t)r->blocks * SD_BLOCK_SIZE);
	json_u64(j, "requests", r->requests);
	if (r->error) {
		json_i64(j, "error", r->error);
	} else {
		json_double(j, "request_ns", r->op_ns, 1);
		json_double(j, "block_ns", r->op_ns / r->blocks, 1);
		json_double(j, "driver_request_ns", r->driver_ns, 1);
		json_double(j, "driver_block_ns", r->driver_ns / r->blocks, 1);
		json_double(j, "engine_ns", r->op_ns - r->driver_ns, 1);
		json_str(j, "moved_by", r->moved_by);
		json_u64(j, "pio_requests", r->pio_requests);
		json_double(j, "resolution_ns", r->resolution_ns, 1);
		json_bool(j, "below_resolution", coarse(r));
	}
	record_end();
}

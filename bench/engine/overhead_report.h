/*
 * overhead_report.h - prints what overhead.c measured: the cost of the
 * measurement itself (text line and the "overhead" record, docs/records.md).
 */
#ifndef SDB_BENCH_ENGINE_OVERHEAD_REPORT_H
#define SDB_BENCH_ENGINE_OVERHEAD_REPORT_H

#include <stdint.h>

struct wl_overhead {
	const char *timer;       /* the timer's source ("cntpct", "systimer") */
	uint32_t timestamp_ns;   /* one timestamp */
	uint32_t resolution_ns;  /* the timer's resolution */
	uint64_t bookkeeping_ns; /* wl_do's bookkeeping per operation */
	uint32_t timestamps_per_op;
};

void wl_overhead_report(const struct wl_overhead *o);

#endif

/*
 * modes_report.h - what the bus-mode comparison prints (modes_report.c):
 * a line per mode and the "modes" record.
 */
#ifndef SDB_BENCH_WORKLOADS_MODES_REPORT_H
#define SDB_BENCH_WORKLOADS_MODES_REPORT_H

#include "bench/workloads/modes.h"

void modes_report_heading(const struct modes_result *r);
void modes_report_point(const struct modes_result *r, unsigned i);
void modes_report_end(const struct modes_result *r);

#endif

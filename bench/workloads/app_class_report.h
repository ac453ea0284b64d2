/*
 * app_class_report.h - what the application and speed class check
 * (app_class.c) found, and how it is shown: the heading with the card's
 * claims, the Pw and area lines between the timed parts, the verdict lines
 * and the "class" record (docs/records.md). app_class.c measures and
 * analysis.c decides into struct app_class_result; the functions here only
 * print it (workload.h: measure, decide, report).
 */
#ifndef SDB_BENCH_WORKLOADS_APP_CLASS_REPORT_H
#define SDB_BENCH_WORKLOADS_APP_CLASS_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/workloads/analysis.h"
#include "drivers/sd/sd_regs.h"

#define APP_CLASS_MAX_PW_AUS 4

struct app_class_result {
	/* what the card claims (SD Status) */
	bool have_ssr;
	struct sd_ssr ssr;
	struct wla_speed_claim speed_claim; /* all 0 without an SD Status */
	/* plan */
	bool emulated;
	bool writes;               /* false: read-only (only random reads) */
	uint32_t area_first_lba;
	uint32_t area_blocks;      /* shrinks to what the sequential write reached */
	uint32_t rand_bytes;
	bool rand_cmd23;           /* random operations with CMD23, else Auto-CMD12 */
	uint32_t au_bytes;
	bool au_declared;
	uint32_t ru_bytes;
	bool pw_erased;            /* the AUs were erased (CMD38) before the Pw writes */
	uint32_t clock_hz;
	uint8_t width;
	double bus_ceiling_mbs;
	/* measured (card time; -1: not measured) */
	double pw_mbs;             /* the worst AU */
	double pw_au_mbs[APP_CLASS_MAX_PW_AUS];
	uint32_t pw_done;          /* AUs in pw_au_mbs */
	struct wla_app_meas app;   /* random read/write IOPS, sequential write MB/s */
	double read_iops_wall, write_iops_wall;
	/* decided */
	struct wla_class_verdict verdict;
};

/* The heading and the card's claims, before anything is measured. */
void app_class_report_heading(const struct app_class_result *r);
/* After the Pw writes: the AU and RU sizes used. */
void app_class_report_pw(const struct app_class_result *r);
/* After the sequential write, when its time budget cut the area short. */
void app_class_report_area_cut(const struct app_class_result *r);
/* The verdict lines and the "class" record. */
void app_class_report(const struct app_class_result *r);

#endif

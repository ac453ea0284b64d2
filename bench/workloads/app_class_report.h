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

/*
 * The A2 verdict on the queued figures (the queue workload, bench/
 * workloads/queue.c, measures; app_class.c wl_app_class_queued decides):
 * A2 is stated with the command queue and the cache on (SD Physical Layer
 * 6.00 §4.16), so it is judged on the IOPS at the card's full queue depth
 * with the cache on, next to depth 1's with the cache off.
 */
enum acq_state {
	ACQ_MEASURED,       /* the queue ran and every check passed */
	ACQ_BROKEN,         /* a check failed: broken, evidence */
	ACQ_NO_QUEUE,       /* the card has none (why) */
	ACQ_NOT_MEASURED,   /* it has one, not turned on (why: writes off, CMD49 failed) */
	ACQ_UNKNOWN,        /* its extension registers could not be read (why) */
};

struct app_class_queued {
	/* from the queue workload */
	enum acq_state state;
	const char *why, *broken, *evidence;
	unsigned depth;              /* the depth judged (the sweep's deepest) */
	bool cache, card_cache;      /* figures with the cache on; the card has one */
	double read_iops, write_iops, mixed_iops;  /* at depth; -1 none */
	double read_iops_d1, write_iops_d1;        /* depth 1, cache off; -1 none */
	/* from the class check (-1 when it did not run) and the SD Status */
	double seq_mbs;
	unsigned claim;              /* 0 none, 1 A1, 2 A2, 3 reserved */
	bool have_ssr;
	/* decided */
	int app_ok;                  /* 1 meets A2, 0 does not, -1 cannot tell / no A2 claim */
	char text[400];              /* the console line */
	char detail[80];             /* the headline's detail for the A2 claim */
};

/* The heading and the card's claims, before anything is measured. */
void app_class_report_heading(const struct app_class_result *r);
/* After the Pw writes: the AU and RU sizes used. */
void app_class_report_pw(const struct app_class_result *r);
/* After the sequential write, when its time budget cut the area short. */
void app_class_report_area_cut(const struct app_class_result *r);
/* The verdict lines and the "class" record. */
void app_class_report(const struct app_class_result *r);
/* The A2 verdict on the queued figures: its line and the "class_queue"
 * record. */
void app_class_report_queued(const struct app_class_queued *a);

#endif

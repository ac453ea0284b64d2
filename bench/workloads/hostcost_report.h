/*
 * hostcost_report.h - what the request-path cost step (hostcost.c)
 * measured, and how it is shown: a table and one "hostcost" record per
 * data path and request size (docs/records.md). hostcost.c measures into
 * struct hostcost_row; the function here only prints it.
 */
#ifndef SDB_BENCH_WORKLOADS_HOSTCOST_REPORT_H
#define SDB_BENCH_WORKLOADS_HOSTCOST_REPORT_H

#include <stdbool.h>
#include <stdint.h>

struct hostcost_row {
	const char *path;          /* "pio", "dma" */
	const char *op;            /* "read", "write" */
	const char *cmd;           /* "single" (CMD17/24) or "auto-cmd12" (CMD18/25) */
	uint32_t blocks;           /* per request */
	uint32_t requests;         /* how many were timed together */
	int error;                 /* 0, or the first -errno (the row is not valid) */
	/* Measured, per request: the whole operation as the benchmark runs it
	 * (wl_do: the card layer, the host driver, the engine's timestamps
	 * and statistics), and the card-layer call alone. */
	double op_ns;
	double driver_ns;
	/* What actually moved the data: "pio", "dma", or "mixed" (on the DMA
	 * path, small requests and buffers the engine cannot use go by PIO);
	 * pio_requests: how many of the 2 x requests did so. */
	const char *moved_by;
	uint32_t pio_requests;
	/* The clock's step spread over the requests timed together: op_ns and
	 * driver_ns are each within this of the truth (one tick at each end
	 * of the loop), their difference within twice it. */
	double resolution_ns;
};

/* A figure the clock's step moves by more than this % is flagged. */
#define HOSTCOST_COARSE_PCT 10.0

/* The heading: what is measured, with which clock. */
void hostcost_report_heading(const char *host, const char *timer, uint32_t resolution_ns,
			     bool emulated);
/* One line of the table and its "hostcost" record. */
void hostcost_report_row(const char *host, const struct hostcost_row *r);

#endif

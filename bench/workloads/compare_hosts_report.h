/*
 * compare_hosts_report.h - what the host comparison (compare_hosts.c)
 * measured, and how it is shown: one table, a row per host configuration
 * (controller x data path x bus mode) and workload, and the "hosts" record
 * (docs/records.md). compare_hosts.c measures into struct hosts_table;
 * the functions here only print it (workload.h: measure, decide, report).
 */
#ifndef SDB_BENCH_WORKLOADS_COMPARE_HOSTS_REPORT_H
#define SDB_BENCH_WORKLOADS_COMPARE_HOSTS_REPORT_H

#include <stdbool.h>
#include <stdint.h>

/* Pi 0-3: 2 controllers x 2 data paths x 4 workloads; a UHS-I host:
 * 2 data paths x 7 bus modes x 4 workloads. */
#define HOSTS_MAX_ROWS 72

struct hosts_row {
	const char *host;        /* "emmc", "sdhost", "emmc2" */
	const char *path;        /* "pio", "dma" */
	const char *mode;        /* the bus mode it ran in ("hs", "sdr104"); NULL
				    when the configuration could not be set up */
	const char *workload;    /* "seq-read-64k", "rand-write-4k", ... */
	uint32_t ops;
	double mbs, iops;
	uint32_t p99_ns;
	double host_pct;         /* the host's share of the operations' time */
	double cpu_ns_per_block; /* the CPU's time in the data phases (the
				    driver's host_ticks), per 512-byte block */
	int error;               /* 0, or why the row has no numbers */
	const char *why;         /* when error: what happened */
	bool best;               /* highest MB/s of this workload (decided) */
	/* The workload's split holds (bench/engine/validity.h); when not,
	 * host_pct and cpu_ns_per_block do not describe the host (under
	 * QEMU the DMA engine copies inside the CPU's start write). */
	bool valid;
	char invalid_why[160];
};

struct hosts_table {
	bool emulated;
	unsigned nrows;
	struct hosts_row rows[HOSTS_MAX_ROWS];
};

/* The table and the "hosts" record. */
void hosts_table_report(const struct hosts_table *t);

#endif

/*
 * results_log.h - the console output kept in SDBENCH.LOG on the card: a
 * console sink (lib/console.h) that buffers everything printed from the
 * first line on, and, once the run has found the file (results_file.h)
 * and built its write guard, writes the buffer into the file's data blocks
 * at each con_flush() (the end of each workload, the done record) or when
 * the buffer is full. docs/results-file.md describes the file.
 *
 * The file is written from its start at every boot: a header line, the
 * output, and NUL bytes to the end of the last block written; a reader
 * stops at the first NUL (what follows is the pattern the file was made
 * with, or an earlier, longer run).
 */
#ifndef SDB_BENCH_RESULTS_LOG_H
#define SDB_BENCH_RESULTS_LOG_H

#include <stdbool.h>

#include "bench/storage/results_file.h"
#include "bench/storage/write_guard.h"

/* The first line of the file (sdbreport recognises a results file by it). */
#define RESULTS_LOG_HEADER "# sdbench results file: the console output of the last run, " \
	"up to the first NUL byte\n"
/* Output held in RAM between two writes to the card. */
#define RESULTS_LOG_BUF_BYTES (64u << 10)

/* Start buffering (boot/ calls it before the first line it prints). */
void results_log_start(void);
/*
 * The file is known: rf from results_file_find() (its return in status),
 * on = sdbench.txt's results_file. Prints what happens ("results file"
 * line and record); when usable, the guard's log region is set and the
 * buffered output goes to the card at the next flush; otherwise buffering
 * stops and the sink is removed.
 */
void results_log_open(const struct results_file *rf, int status, bool on,
		      struct write_guard *g);
/* Whether output is going to the card (tests). */
bool results_log_active(void);

#endif

/*
 * selftest_report.h - what the SD stack self-test (selftest.c) found, and
 * how it is shown: one line and one "selftest" record per test
 * (docs/records.md). selftest.c measures and checks into the result
 * structs; the functions here only print them (bench/engine/workload.h:
 * measure, decide, report). Failures are reported as they happen, by
 * selftest.c, with record_error.
 */
#ifndef SDB_BENCH_SELFTEST_REPORT_H
#define SDB_BENCH_SELFTEST_REPORT_H

#include <stdbool.h>
#include <stdint.h>

/* The read modes and the write modes, in the order of the records. */
enum selftest_rmode {
	SELFTEST_RM_CMD17, SELFTEST_RM_CMD18, SELFTEST_RM_AUTO12, SELFTEST_RM_CMD23,
	SELFTEST_RM_UNALIGNED, SELFTEST_RM_N
};
enum selftest_wmode {
	SELFTEST_WM_CMD24, SELFTEST_WM_CMD25, SELFTEST_WM_AUTO12, SELFTEST_WM_CMD23,
	SELFTEST_WM_UNALIGNED, SELFTEST_WM_N
};

/* "cmd17", "cmd18", ... (the record's keys). */
const char *selftest_rmode_name(unsigned m);
const char *selftest_wmode_name(unsigned m);

/* One range read in every mode. */
struct selftest_read_result {
	uint32_t lba, count;
	int code[SELFTEST_RM_N];       /* 0 or -errno; -ENOTSUP: the card has no CMD23 */
	uint32_t crc[SELFTEST_RM_N];   /* of what each successful mode read */
	uint32_t ref_crc;              /* the first successful mode's */
	bool match;                    /* every mode ran and they agree */
	uint64_t host_ns;              /* CMD18: CPU time moving the data */
	uint64_t data_ns;              /* CMD18: the data phase */
	uint64_t unaligned_host_ns;
};

/* The write test of one range: segments written in each mode, read back,
 * the tail erased. */
struct selftest_write_result {
	/* plan */
	uint32_t lba, count, run_id;
	uint32_t seg_lba[SELFTEST_WM_N], seg_count[SELFTEST_WM_N];
	uint32_t erase_lba, erase_count;
	/* measured */
	bool write_protected;
	int refused_code;              /* write-protected card: the card layer's answer */
	int code[SELFTEST_WM_N];       /* per segment; -ENOTSUP: the card has no CMD23 */
	uint32_t crc32;                /* of the pattern written */
	bool verify;                   /* read back identical */
	int erase_code;
	int erase_value;               /* 0x00 or 0xFF; -1: not uniform, or not read */
};

/* The heading: how many ranges are read, whether one is written. */
void selftest_report_heading(unsigned nreads, bool write);
void selftest_report_read(const struct selftest_read_result *r);
/* The write test on a write-protected card: was the write refused? */
void selftest_report_write_protected(const struct selftest_write_result *r);
void selftest_report_write(const struct selftest_write_result *r);

#endif

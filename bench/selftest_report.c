/*
 * selftest_report.c - text and records of the SD stack self-test (see
 * selftest_report.h).
 */
#include "bench/engine/record.h"
#include "bench/selftest_report.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/json.h"

static const char *const rmode_name[SELFTEST_RM_N] = {
	"cmd17", "cmd18", "auto12", "cmd23", "unaligned",
};

static const char *const wmode_name[SELFTEST_WM_N] = {
	"cmd24", "cmd25", "auto12", "cmd23", "unaligned",
};

const char *selftest_rmode_name(unsigned m)
{
	return m < SELFTEST_RM_N ? rmode_name[m] : "?";
}

const char *selftest_wmode_name(unsigned m)
{
	return m < SELFTEST_WM_N ? wmode_name[m] : "?";
}

void selftest_report_heading(unsigned nreads, bool write)
{
	con_printf("\nselftest: %u read ranges, %s\n", nreads,
		   write ? "one write range" : "no write range (selftest_write)");
}

/* A "selftest" record begun: its test and range. */
static struct json *selftest_record(const char *test, uint64_t lba, uint64_t count)
{
	struct json *j = record_begin("selftest");

	json_str(j, "test", test);
	json_u64(j, "lba", lba);
	json_u64(j, "count", count);
	return j;
}

void selftest_report_read(const struct selftest_read_result *r)
{
	struct json *j;
	unsigned m;

	con_printf("selftest: read LBA %u+%u: crc32 %08x, modes %s\n",
		   (unsigned)r->lba, (unsigned)r->count, (unsigned)r->ref_crc,
		   r->match ? "agree" : "DISAGREE");
	j = selftest_record("read", r->lba, r->count);
	json_obj_begin(j, "crc32");
	for (m = 0; m < SELFTEST_RM_N; m++) {
		if (r->code[m])
			json_null(j, rmode_name[m]);
		else
			json_hex(j, rmode_name[m], r->crc[m], 8);
	}
	json_obj_end(j);
	json_obj_begin(j, "result");
	for (m = 0; m < SELFTEST_RM_N; m++)
		json_str(j, rmode_name[m], r->code[m] == -ENOTSUP && m == SELFTEST_RM_CMD23 ?
			 "unsupported by card" : r->code[m] ? err_name(r->code[m]) : "ok");
	json_obj_end(j);
	json_bool(j, "match", r->match);
	if (!r->code[SELFTEST_RM_CMD18]) {
		json_u64(j, "host_ns", r->host_ns);
		json_u64(j, "host_ns_per_block", r->host_ns / r->count);
		json_u64(j, "data_ns", r->data_ns);
	}
	if (!r->code[SELFTEST_RM_UNALIGNED])
		json_u64(j, "unaligned_host_ns", r->unaligned_host_ns);
	record_end();
}

void selftest_report_write_protected(const struct selftest_write_result *r)
{
	struct json *j;

	con_printf("selftest: card is write-protected: writes refused (%s)\n",
		   r->refused_code ? err_name(r->refused_code) : "NOT REFUSED");
	j = selftest_record("write", r->lba, r->count);
	json_bool(j, "write_protected", true);
	json_bool(j, "write_refused", r->refused_code == -EROFS);
	json_str(j, "code", r->refused_code ? err_name(r->refused_code) : "ok");
	record_end();
}

void selftest_report_write(const struct selftest_write_result *r)
{
	struct json *j;
	unsigned m;

	con_printf("selftest: wrote LBA %u+%u (run id %u): %s\n",
		   (unsigned)r->lba, (unsigned)r->count, (unsigned)r->run_id,
		   r->verify ? "read back identical" : "FAILED");
	j = selftest_record("write", r->lba, r->count);
	json_u64(j, "run_id", r->run_id);
	json_bool(j, "write_protected", false);
	json_arr_begin(j, "segments");
	for (m = 0; m < SELFTEST_WM_N; m++) {
		json_obj_begin(j, NULL);
		json_str(j, "mode", wmode_name[m]);
		json_u64(j, "lba", r->seg_lba[m]);
		json_u64(j, "count", r->seg_count[m]);
		json_str(j, "result", r->code[m] == -ENOTSUP ? "unsupported by card" :
			 r->code[m] ? err_name(r->code[m]) : "ok");
		json_obj_end(j);
	}
	json_arr_end(j);
	json_hex(j, "crc32", r->crc32, 8);
	json_bool(j, "verify", r->verify);
	json_obj_begin(j, "erase");
	json_u64(j, "lba", r->erase_lba);
	json_u64(j, "count", r->erase_count);
	json_str(j, "result", !r->verify ? "skipped" : r->erase_code ? err_name(r->erase_code) : "ok");
	if (r->erase_value >= 0)
		json_hex(j, "value", (uint64_t)r->erase_value, 2);
	else
		json_null(j, "value");
	json_obj_end(j);
	record_end();
	if (r->erase_count && !r->erase_code && r->erase_value >= 0)
		con_printf("selftest: erased LBA %u+%u: reads 0x%02x\n",
			   (unsigned)r->erase_lba, (unsigned)r->erase_count, (unsigned)r->erase_value);
}

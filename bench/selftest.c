/*
 * selftest.c - the SD stack self-test and the card bring-up of the run
 * (see selftest.h).
 *
 * Read test, per configured range: the same blocks read with CMD17 (one
 * request per block), CMD18 + CMD12, CMD18 with Auto-CMD12, CMD23 + CMD18
 * (when the card's SCR says CMD23 is supported; "unsupported" otherwise)
 * and CMD18 + CMD12 into an unaligned buffer. Every mode's CRC-32 is
 * reported; they must all agree.
 *
 * Write test: the configured range (selftest_write), only when it lies
 * inside the test area chosen by bench/test_area.c (never elsewhere). The
 * range is cut into segments written with CMD24, CMD25 + CMD12, CMD25 with
 * Auto-CMD12, CMD23 + CMD25 (when supported) and CMD25 from an unaligned
 * buffer; then everything is read back and compared. On a write-protected
 * card the write is attempted through the card layer, which must refuse it
 * with -EROFS before anything reaches the card.
 *
 * The PIO cost per block is reported from the host_ticks of the CMD18
 * read (CPU time between "block ready" and "block moved").
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bench/storage/blkdev.h"
#include "bench/storage/config.h"
#include "bench/engine/pattern.h"
#include "bench/engine/record.h"
#include "bench/selftest.h"
#include "bench/storage/test_area.h"
#include "drivers/sd/sd.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "lib/crc32.h"
#include "lib/err.h"
#include "lib/fmt.h"
#include "lib/json.h"

#define SELFTEST_MAX_WRITE_BLOCKS 2048u
#define SELFTEST_DEFAULT_READ_BLOCKS 8u

enum rmode { RM_CMD17, RM_CMD18, RM_AUTO12, RM_CMD23, RM_UNALIGNED, RM_N };

static const char *const rmode_name[RM_N] = {
	"cmd17", "cmd18", "auto12", "cmd23", "unaligned",
};

/* A failed card operation: readable line + error record with the command. */
static void report_fail(struct sd_card *card, const char *ctx, int code,
			const char *what)
{
	const struct sd_host_err *e = &card->last_err;
	char r1[160];

	r1[0] = '\0';
	if (e->phase && !strncmp(e->phase, "card status", 11))
		sd_r1_describe(e->status, r1, sizeof(r1));
	record_error_cmd(ctx, code, e->cmd, e->arg, e->status,
			 "%s: %s (CMD%u arg 0x%08x, %s, status 0x%08x%s%s)",
			 what, err_text(code), (unsigned)e->cmd, (unsigned)e->arg,
			 e->phase ? e->phase : "?", (unsigned)e->status,
			 r1[0] ? " " : "", r1);
}

static int read_mode(struct sd_card *card, enum rmode m, uint32_t lba,
		     uint32_t count, uint8_t *buf, struct sd_req_times *t)
{
	uint32_t i;
	int ret = 0;

	switch (m) {
	case RM_CMD17:
		for (i = 0; i < count && !ret; i++)
			ret = sd_read_single(card, lba + i, buf + i * SD_BLOCK_SIZE,
					     NULL);
		return ret;
	case RM_CMD18:
	case RM_UNALIGNED:
		return sd_read_blocks(card, lba, count, buf, SD_STOP_NONE, t);
	case RM_AUTO12:
		return sd_read_blocks(card, lba, count, buf, SD_STOP_AUTO12, NULL);
	case RM_CMD23:
		return sd_read_blocks(card, lba, count, buf, SD_STOP_AUTO23, NULL);
	default:
		return -EINVAL;
	}
}

static int read_test(struct sd_card *card, const struct lba_range *r,
		     const struct selftest_cfg *cfg)
{
	uint32_t crc[RM_N];
	int code[RM_N];
	bool match = true, have = false;
	uint32_t ref = 0;
	struct sd_req_times t, tu;
	uint64_t host_ns = 0, host_ns_u = 0;
	struct json *j;
	int fails = 0;
	unsigned m;

	if ((uint64_t)r->count * SD_BLOCK_SIZE + 4 > cfg->buf_bytes) {
		record_error("selftest", -EINVAL, "read range %u+%u does not fit the buffer",
			     (unsigned)r->first, (unsigned)r->count);
		return 1;
	}
	memset(&t, 0, sizeof(t));
	memset(&tu, 0, sizeof(tu));
	for (m = 0; m < RM_N; m++) {
		uint8_t *buf = cfg->buf + (m == RM_UNALIGNED ? 1 : 0);

		code[m] = 0;
		if (m == RM_CMD23 && !card->cmd23) {
			code[m] = -ENOTSUP;
			continue;
		}
		code[m] = read_mode(card, (enum rmode)m, r->first, r->count, buf,
				    m == RM_CMD18 ? &t : m == RM_UNALIGNED ? &tu : NULL);
		if (code[m]) {
			char what[64];

			fmt_snprintf(what, sizeof(what), "selftest read %s at LBA %u",
				     rmode_name[m], (unsigned)r->first);
			report_fail(card, "selftest", code[m], what);
			fails++;
			match = false;
			continue;
		}
		crc[m] = crc32_update(0, buf, r->count * SD_BLOCK_SIZE);
		if (!have) {
			ref = crc[m];
			have = true;
		} else if (crc[m] != ref) {
			match = false;
		}
		if (m == RM_CMD18)
			host_ns = timer_ticks_to_ns(t.host_ticks);
		if (m == RM_UNALIGNED)
			host_ns_u = timer_ticks_to_ns(tu.host_ticks);
	}
	if (!match && !fails) {
		record_error("selftest", -EIO, "reads of LBA %u+%u disagree between modes",
			     (unsigned)r->first, (unsigned)r->count);
		fails++;
	}

	con_printf("selftest: read LBA %u+%u: crc32 %08x, modes %s\n",
		   (unsigned)r->first, (unsigned)r->count, (unsigned)ref,
		   match ? "agree" : "DISAGREE");
	j = record_begin("selftest");
	json_str(j, "test", "read");
	json_u64(j, "lba", r->first);
	json_u64(j, "count", r->count);
	json_obj_begin(j, "crc32");
	for (m = 0; m < RM_N; m++) {
		if (code[m])
			json_null(j, rmode_name[m]);
		else
			json_hex(j, rmode_name[m], crc[m], 8);
	}
	json_obj_end(j);
	json_obj_begin(j, "result");
	for (m = 0; m < RM_N; m++)
		json_str(j, rmode_name[m], code[m] == -ENOTSUP && m == RM_CMD23 ?
			 "unsupported by card" : code[m] ? err_name(code[m]) : "ok");
	json_obj_end(j);
	json_bool(j, "match", match);
	if (!code[RM_CMD18]) {
		json_u64(j, "host_ns", host_ns);
		json_u64(j, "host_ns_per_block", host_ns / r->count);
		json_u64(j, "data_ns", timer_ticks_to_ns(t.t_data_done - t.t_first_data));
	}
	if (!code[RM_UNALIGNED])
		json_u64(j, "unaligned_host_ns", host_ns_u);
	record_end();
	return fails;
}

enum wmode { WM_CMD24, WM_CMD25, WM_AUTO12, WM_CMD23, WM_UNALIGNED, WM_N };

static const char *const wmode_name[WM_N] = {
	"cmd24", "cmd25", "auto12", "cmd23", "unaligned",
};

static int write_mode(struct write_guard *g, enum wmode m, uint32_t lba,
		      uint32_t count, const uint8_t *src, uint8_t *scratch)
{
	uint32_t i;
	int ret = 0;

	switch (m) {
	case WM_CMD24:
		for (i = 0; i < count && !ret; i++)
			ret = write_guard_write_single(g, lba + i, src + i * SD_BLOCK_SIZE,
						       NULL);
		return ret;
	case WM_CMD25:
		/* With an ACMD23 pre-erase hint, as a file system would. */
		ret = sd_set_wr_blk_erase_count(g->card, count);
		if (ret)
			return ret;
		return write_guard_write(g, lba, count, src, SD_STOP_NONE, NULL);
	case WM_AUTO12:
		return write_guard_write(g, lba, count, src, SD_STOP_AUTO12, NULL);
	case WM_CMD23:
		return write_guard_write(g, lba, count, src, SD_STOP_AUTO23, NULL);
	case WM_UNALIGNED:
		memmove(scratch + 3, src, count * SD_BLOCK_SIZE);
		return write_guard_write(g, lba, count, scratch + 3, SD_STOP_NONE, NULL);
	default:
		return -EINVAL;
	}
}

static int write_test(struct sd_card *card, const struct selftest_cfg *cfg)
{
	const struct lba_range *r = cfg->write;
	uint32_t bytes = r->count * SD_BLOCK_SIZE, i, seg, done = 0;
	uint8_t *pat = cfg->buf, *back;
	uint32_t seg_lba[WM_N], seg_count[WM_N];
	int code[WM_N], fails = 0, ret, erase_code = 0, erase_val = -1;
	struct lba_range er;
	bool verify = false;
	struct json *j;
	unsigned m;

	if (r->count == 0 || r->count > SELFTEST_MAX_WRITE_BLOCKS ||
	    (uint64_t)bytes * 2 + 8 > cfg->buf_bytes) {
		record_error("selftest", -EINVAL, "selftest_write %u+%u: at most %u blocks",
			     (unsigned)r->first, (unsigned)r->count,
			     (unsigned)SELFTEST_MAX_WRITE_BLOCKS);
		return 1;
	}
	if (!write_guard_in_area(cfg->guard, r->first, r->count)) {
		record_error("selftest", -EINVAL,
			     "selftest_write %u+%u is not inside the test area: not writing",
			     (unsigned)r->first, (unsigned)r->count);
		return 1;
	}
	back = cfg->buf + bytes + 4;
	for (i = 0; i < r->count; i++)
		pattern_fill(pat + i * SD_BLOCK_SIZE, r->first + i, cfg->run_id, i);

	if (card->write_protected) {
		/* Must be refused before any command (the guard; the card
		 * layer refuses too, see tests/unit/test_sd_card.c). */
		ret = write_guard_write(cfg->guard, r->first, r->count, pat, SD_STOP_NONE,
					NULL);
		con_printf("selftest: card is write-protected: writes refused (%s)\n",
			   ret ? err_name(ret) : "NOT REFUSED");
		j = record_begin("selftest");
		json_str(j, "test", "write");
		json_u64(j, "lba", r->first);
		json_u64(j, "count", r->count);
		json_bool(j, "write_protected", true);
		json_bool(j, "write_refused", ret == -EROFS);
		json_str(j, "code", ret ? err_name(ret) : "ok");
		record_end();
		if (ret != -EROFS) {
			record_error("selftest", -EIO,
				     "a write to a write-protected card was not refused");
			return 1;
		}
		return 0;
	}

	if (!write_guard_writes_possible(cfg->guard)) {
		record_error("selftest", -ENOSPC, "no usable test area: not writing");
		return 1;
	}

	/* Segments: CMD24 gets at most 4 blocks, the rest is shared; the
	 * CMD23 segment is empty when the card does not support it. */
	for (m = 0; m < WM_N; m++) {
		uint32_t left = r->count - done, share;

		if (m == WM_CMD23 && !card->cmd23)
			share = 0;
		else if (m == WM_CMD24)
			share = left < 4 ? left : 4;
		else if (m == WM_UNALIGNED)
			share = left;
		else
			share = left / (WM_N - m);
		seg_lba[m] = r->first + done;
		seg_count[m] = share;
		done += share;
	}

	for (m = 0; m < WM_N; m++) {
		code[m] = 0;
		if (!seg_count[m]) {
			code[m] = m == WM_CMD23 && !card->cmd23 ? -ENOTSUP : 0;
			continue;
		}
		seg = seg_lba[m] - r->first;
		code[m] = write_mode(cfg->guard, (enum wmode)m, seg_lba[m], seg_count[m],
				     pat + seg * SD_BLOCK_SIZE, back);
		if (code[m]) {
			char what[64];

			fmt_snprintf(what, sizeof(what), "selftest write %s at LBA %u",
				     wmode_name[m], (unsigned)seg_lba[m]);
			report_fail(card, "selftest", code[m], what);
			fails++;
		}
	}

	ret = sd_read_blocks(card, r->first, r->count, back, SD_STOP_AUTO12, NULL);
	if (ret) {
		report_fail(card, "selftest", ret, "selftest read-back");
		fails++;
	} else {
		verify = memcmp(back, pat, bytes) == 0;
		if (!verify) {
			for (i = 0; i < r->count; i++)
				if (memcmp(back + i * SD_BLOCK_SIZE, pat + i * SD_BLOCK_SIZE,
					   SD_BLOCK_SIZE))
					break;
			record_error("selftest", -EIO,
				     "read-back differs from what was written, first at LBA %u",
				     (unsigned)(r->first + i));
			fails++;
		}
	}

	/* Erase the last blocks of the range (CMD32/33/38) and check that
	 * they read back as one uniform value (0x00 or 0xFF, card-defined). */
	er.first = r->first + r->count - (r->count >= 32 ? 8 : r->count / 4);
	er.count = r->first + r->count - er.first;
	erase_code = 0;
	erase_val = -1;
	if (er.count && verify) {
		erase_code = write_guard_erase(cfg->guard, er.first, er.count, NULL);
		if (erase_code) {
			report_fail(card, "selftest", erase_code, "selftest erase");
			fails++;
		} else {
			erase_code = sd_read_blocks(card, er.first, er.count, back,
						    SD_STOP_NONE, NULL);
			if (erase_code) {
				report_fail(card, "selftest", erase_code,
					    "selftest read after erase");
				fails++;
			} else {
				erase_val = back[0];
				for (i = 0; i < er.count * SD_BLOCK_SIZE; i++)
					if (back[i] != back[0])
						break;
				if (i != er.count * SD_BLOCK_SIZE ||
				    (back[0] != 0x00 && back[0] != 0xFF)) {
					record_error("selftest", -EIO,
						     "erased blocks at LBA %u do not read back uniform 0x00 or 0xFF",
						     (unsigned)er.first);
					erase_val = -1;
					fails++;
				}
			}
		}
	}

	con_printf("selftest: wrote LBA %u+%u (run id %u): %s\n",
		   (unsigned)r->first, (unsigned)r->count, (unsigned)cfg->run_id,
		   verify ? "read back identical" : "FAILED");
	j = record_begin("selftest");
	json_str(j, "test", "write");
	json_u64(j, "lba", r->first);
	json_u64(j, "count", r->count);
	json_u64(j, "run_id", cfg->run_id);
	json_bool(j, "write_protected", false);
	json_arr_begin(j, "segments");
	for (m = 0; m < WM_N; m++) {
		json_obj_begin(j, NULL);
		json_str(j, "mode", wmode_name[m]);
		json_u64(j, "lba", seg_lba[m]);
		json_u64(j, "count", seg_count[m]);
		json_str(j, "result", code[m] == -ENOTSUP ? "unsupported by card" :
			 code[m] ? err_name(code[m]) : "ok");
		json_obj_end(j);
	}
	json_arr_end(j);
	json_hex(j, "crc32", crc32_update(0, pat, bytes), 8);
	json_bool(j, "verify", verify);
	json_obj_begin(j, "erase");
	json_u64(j, "lba", er.first);
	json_u64(j, "count", er.count);
	json_str(j, "result", !verify ? "skipped" : erase_code ? err_name(erase_code) : "ok");
	if (erase_val >= 0)
		json_hex(j, "value", (uint64_t)erase_val, 2);
	else
		json_null(j, "value");
	json_obj_end(j);
	record_end();
	if (er.count && !erase_code && erase_val >= 0)
		con_printf("selftest: erased LBA %u+%u: reads 0x%02x\n",
			   (unsigned)er.first, (unsigned)er.count, (unsigned)erase_val);
	return fails;
}

int selftest_sd(struct sd_card *card, const struct selftest_cfg *cfg)
{
	int fails = 0;
	unsigned i;

	for (i = 0; i < cfg->nreads; i++)
		fails += read_test(card, &cfg->reads[i], cfg);
	if (cfg->write)
		fails += write_test(card, cfg);
	return fails;
}

/* ---- from the configuration ------------------------------------------- */

int selftest_run(const struct bench_env *env, struct sd_card *card,
		 const struct config *cfg, struct write_guard *guard)
{
	const struct lba_range *reads = NULL;
	struct lba_range wr;
	struct selftest_cfg sc;

	static struct lba_range def_reads[2];

	memset(&sc, 0, sizeof(sc));
	sc.nreads = config_list(cfg, CFG_SELFTEST_LBAS, &reads);
	sc.reads = reads;
	if (!sc.nreads && card->blocks >= 2 * SELFTEST_DEFAULT_READ_BLOCKS) {
		/* Without selftest_lbas: the first and the last blocks. */
		def_reads[0].first = 0;
		def_reads[0].count = SELFTEST_DEFAULT_READ_BLOCKS;
		def_reads[1].first = card->blocks - SELFTEST_DEFAULT_READ_BLOCKS;
		def_reads[1].count = SELFTEST_DEFAULT_READ_BLOCKS;
		sc.reads = def_reads;
		sc.nreads = 2;
	}
	sc.write = config_range(cfg, CFG_SELFTEST_WRITE, &wr) ? &wr : NULL;
	sc.guard = guard;
	sc.run_id = config_has(cfg, CFG_SEED) ? (uint32_t)cfg->v[CFG_SEED].u :
		    (uint32_t)timer_now_us();
	sc.buf = env->buf;
	sc.buf_bytes = env->buf_bytes;
	con_printf("\nselftest: %u read ranges, %s\n", sc.nreads,
		   sc.write ? "one write range" : "no write range (selftest_write)");
	return selftest_sd(card, &sc);
}

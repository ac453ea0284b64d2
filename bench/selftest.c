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
 * inside the test area chosen by bench/storage/test_area.c (never elsewhere). The
 * range is cut into segments written with CMD24, CMD25 + CMD12, CMD25 with
 * Auto-CMD12, CMD23 + CMD25 (when supported) and CMD25 from an unaligned
 * buffer; then everything is read back and compared. On a write-protected
 * card the write is attempted through the card layer, which must refuse it
 * with -EROFS before anything reaches the card.
 *
 * The PIO cost per block is reported from the host_ticks of the CMD18
 * read (CPU time between "block ready" and "block moved").
 *
 * Here: plan, measure and check into the result structs of
 * selftest_report.h (failures are reported as they happen);
 * selftest_report.c prints the lines and records (engine/workload.h).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bench/storage/blkdev.h"
#include "bench/storage/config.h"
#include "bench/engine/pattern.h"
#include "bench/engine/record.h"
#include "bench/selftest.h"
#include "bench/selftest_report.h"
#include "bench/storage/test_area.h"
#include "drivers/sd/sd.h"
#include "drivers/timer.h"
#include "lib/crc32.h"
#include "lib/err.h"
#include "lib/fmt.h"

#define SELFTEST_MAX_WRITE_BLOCKS 2048u
#define SELFTEST_DEFAULT_READ_BLOCKS 8u

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

/* How each multi-block read mode ends; CMD18 and the unaligned read (the
 * two with stop NONE, ended by CMD12) are the timed ones. */
static const enum sd_stop_mode rmode_stop[SELFTEST_RM_N] = {
	[SELFTEST_RM_CMD18] = SD_STOP_NONE,
	[SELFTEST_RM_AUTO12] = SD_STOP_AUTO12,
	[SELFTEST_RM_CMD23] = SD_STOP_AUTO23,
	[SELFTEST_RM_UNALIGNED] = SD_STOP_NONE,
};

static int read_mode(struct sd_card *card, enum selftest_rmode m, uint32_t lba,
		     uint32_t count, uint8_t *buf, struct sd_req_times *t)
{
	uint32_t i;
	int ret = 0;

	if (m >= SELFTEST_RM_N)
		return -EINVAL;
	if (m != SELFTEST_RM_CMD17)
		return sd_read_blocks(card, lba, count, buf, rmode_stop[m],
				      rmode_stop[m] == SD_STOP_NONE ? t : NULL);
	for (i = 0; i < count && !ret; i++)
		ret = sd_read_single(card, lba + i, buf + i * SD_BLOCK_SIZE, NULL);
	return ret;
}

static int read_test(struct sd_card *card, const struct lba_range *r,
		     const struct selftest_cfg *cfg)
{
	struct selftest_read_result res;
	bool have = false;
	struct sd_req_times t, tu;
	int fails = 0;
	unsigned m;

	if ((uint64_t)r->count * SD_BLOCK_SIZE + 4 > cfg->buf_bytes) {
		record_error("selftest", -EINVAL, "read range %u+%u does not fit the buffer",
			     (unsigned)r->first, (unsigned)r->count);
		return 1;
	}
	memset(&res, 0, sizeof(res));
	res.lba = r->first;
	res.count = r->count;
	res.match = true;
	memset(&t, 0, sizeof(t));
	memset(&tu, 0, sizeof(tu));
	for (m = 0; m < SELFTEST_RM_N; m++) {
		uint8_t *buf = cfg->buf + (m == SELFTEST_RM_UNALIGNED ? 1 : 0);

		if (m == SELFTEST_RM_CMD23 && !card->cmd23) {
			res.code[m] = -ENOTSUP;
			continue;
		}
		res.code[m] = read_mode(card, (enum selftest_rmode)m, r->first, r->count, buf,
					m == SELFTEST_RM_CMD18 ? &t :
					m == SELFTEST_RM_UNALIGNED ? &tu : NULL);
		if (res.code[m]) {
			char what[64];

			fmt_snprintf(what, sizeof(what), "selftest read %s at LBA %u",
				     selftest_rmode_name(m), (unsigned)r->first);
			report_fail(card, "selftest", res.code[m], what);
			fails++;
			res.match = false;
			continue;
		}
		res.crc[m] = crc32_update(0, buf, r->count * SD_BLOCK_SIZE);
		if (!have) {
			res.ref_crc = res.crc[m];
			have = true;
		} else if (res.crc[m] != res.ref_crc) {
			res.match = false;
		}
	}
	res.host_ns = timer_ticks64_to_ns(t.host_ticks);
	res.data_ns = timer_ticks_to_ns(t.t_data_done - t.t_first_data);
	res.unaligned_host_ns = timer_ticks64_to_ns(tu.host_ticks);
	if (!res.match && !fails) {
		record_error("selftest", -EIO, "reads of LBA %u+%u disagree between modes",
			     (unsigned)r->first, (unsigned)r->count);
		fails++;
	}
	selftest_report_read(&res);
	return fails;
}

static int write_mode(struct write_guard *g, enum selftest_wmode m, uint32_t lba,
		      uint32_t count, const uint8_t *src, uint8_t *scratch)
{
	uint32_t i;
	int ret = 0;

	switch (m) {
	case SELFTEST_WM_CMD24:
		for (i = 0; i < count && !ret; i++)
			ret = write_guard_write_single(g, lba + i, src + i * SD_BLOCK_SIZE,
						       NULL);
		return ret;
	case SELFTEST_WM_CMD25:
		/* With an ACMD23 pre-erase hint, as a file system would. */
		ret = sd_set_wr_blk_erase_count(g->card, count);
		if (ret)
			return ret;
		return write_guard_write(g, lba, count, src, SD_STOP_NONE, NULL);
	case SELFTEST_WM_AUTO12:
		return write_guard_write(g, lba, count, src, SD_STOP_AUTO12, NULL);
	case SELFTEST_WM_CMD23:
		return write_guard_write(g, lba, count, src, SD_STOP_AUTO23, NULL);
	case SELFTEST_WM_UNALIGNED:
		memmove(scratch + 3, src, count * SD_BLOCK_SIZE);
		return write_guard_write(g, lba, count, scratch + 3, SD_STOP_NONE, NULL);
	default:
		return -EINVAL;
	}
}

void selftest_write_plan(const struct lba_range *r, bool cmd23,
			 struct selftest_write_result *w)
{
	uint32_t done = 0;
	unsigned m;

	w->lba = r->first;
	w->count = r->count;
	/* Segments: CMD24 gets at most 4 blocks, the rest is shared; the
	 * CMD23 segment is empty when the card does not support it. */
	for (m = 0; m < SELFTEST_WM_N; m++) {
		uint32_t left = r->count - done, share;

		if (m == SELFTEST_WM_CMD23 && !cmd23)
			share = 0;
		else if (m == SELFTEST_WM_CMD24)
			share = left < 4 ? left : 4;
		else if (m == SELFTEST_WM_UNALIGNED)
			share = left;
		else
			share = left / (SELFTEST_WM_N - m);
		w->seg_lba[m] = r->first + done;
		w->seg_count[m] = share;
		done += share;
	}
	/* The erase test takes the last blocks of the range. */
	w->erase_lba = r->first + r->count - (r->count >= 32 ? 8 : r->count / 4);
	w->erase_count = r->first + r->count - w->erase_lba;
}

uint32_t selftest_first_mismatch(const uint8_t *a, const uint8_t *b, uint32_t blocks)
{
	uint32_t i;

	for (i = 0; i < blocks; i++)
		if (memcmp(a + i * SD_BLOCK_SIZE, b + i * SD_BLOCK_SIZE, SD_BLOCK_SIZE))
			break;
	return i;
}

int selftest_erased_value(const uint8_t *buf, uint32_t bytes)
{
	uint32_t i;

	if (!bytes)
		return -1;
	for (i = 0; i < bytes; i++)
		if (buf[i] != buf[0])
			return -1;
	return buf[0] == 0x00 || buf[0] == 0xFF ? buf[0] : -1;
}

/* Each segment in its mode, through the write guard. Returns the failures
 * (reported). */
static int write_segments(struct sd_card *card, struct write_guard *g, const uint8_t *pat,
			  uint8_t *scratch, struct selftest_write_result *w)
{
	int fails = 0;
	unsigned m;

	for (m = 0; m < SELFTEST_WM_N; m++) {
		w->code[m] = 0;
		if (!w->seg_count[m]) {
			w->code[m] = m == SELFTEST_WM_CMD23 && !card->cmd23 ? -ENOTSUP : 0;
			continue;
		}
		w->code[m] = write_mode(g, (enum selftest_wmode)m, w->seg_lba[m], w->seg_count[m],
					pat + (w->seg_lba[m] - w->lba) * SD_BLOCK_SIZE, scratch);
		if (w->code[m]) {
			char what[64];

			fmt_snprintf(what, sizeof(what), "selftest write %s at LBA %u",
				     selftest_wmode_name(m), (unsigned)w->seg_lba[m]);
			report_fail(card, "selftest", w->code[m], what);
			fails++;
		}
	}
	return fails;
}

/* Read the range back into back[] and compare with pat. */
static int read_back(struct sd_card *card, const uint8_t *pat, uint8_t *back,
		     struct selftest_write_result *w)
{
	uint32_t i;
	int ret = sd_read_blocks(card, w->lba, w->count, back, SD_STOP_AUTO12, NULL);

	w->verify = false;
	if (ret) {
		report_fail(card, "selftest", ret, "selftest read-back");
		return 1;
	}
	i = selftest_first_mismatch(back, pat, w->count);
	w->verify = i == w->count;
	if (!w->verify) {
		record_error("selftest", -EIO,
			     "read-back differs from what was written, first at LBA %u",
			     (unsigned)(w->lba + i));
		return 1;
	}
	return 0;
}

/* Erase the planned tail (CMD32/33/38, through the write guard) and check
 * that it reads back as one uniform value (0x00 or 0xFF, card-defined). */
static int erase_tail(struct sd_card *card, struct write_guard *g, uint8_t *back,
		      struct selftest_write_result *w)
{
	w->erase_code = write_guard_erase(g, w->erase_lba, w->erase_count, NULL);
	if (w->erase_code) {
		report_fail(card, "selftest", w->erase_code, "selftest erase");
		return 1;
	}
	w->erase_code = sd_read_blocks(card, w->erase_lba, w->erase_count, back, SD_STOP_NONE,
				       NULL);
	if (w->erase_code) {
		report_fail(card, "selftest", w->erase_code, "selftest read after erase");
		return 1;
	}
	w->erase_value = selftest_erased_value(back, w->erase_count * SD_BLOCK_SIZE);
	if (w->erase_value < 0) {
		record_error("selftest", -EIO,
			     "erased blocks at LBA %u do not read back uniform 0x00 or 0xFF",
			     (unsigned)w->erase_lba);
		return 1;
	}
	return 0;
}

static int write_test(struct sd_card *card, const struct selftest_cfg *cfg)
{
	const struct lba_range *r = cfg->write;
	uint32_t bytes = r->count * SD_BLOCK_SIZE, i;
	uint8_t *pat = cfg->buf, *back;
	struct selftest_write_result w;
	int fails = 0;

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
	memset(&w, 0, sizeof(w));
	selftest_write_plan(r, card->cmd23, &w);
	w.run_id = cfg->run_id;
	w.erase_value = -1;

	if (card->write_protected) {
		/* Must be refused before any command (the guard; the card
		 * layer refuses too, see tests/unit/test_sd_card.c). */
		w.write_protected = true;
		w.refused_code = write_guard_write(cfg->guard, r->first, r->count, pat,
						   SD_STOP_NONE, NULL);
		selftest_report_write_protected(&w);
		if (w.refused_code != -EROFS) {
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

	fails += write_segments(card, cfg->guard, pat, back, &w);
	fails += read_back(card, pat, back, &w);
	if (w.erase_count && w.verify)
		fails += erase_tail(card, cfg->guard, back, &w);
	w.crc32 = crc32_update(0, pat, bytes);
	selftest_report_write(&w);
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
	selftest_report_heading(sc.nreads, sc.write != NULL);
	return selftest_sd(card, &sc);
}

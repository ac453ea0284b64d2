/*
 * results_log.c - the console sink writing SDBENCH.LOG (results_log.h).
 *
 * The buffer always starts at a block boundary of the file (base): a flush
 * writes every block it holds, the last one padded with NUL bytes, then
 * keeps only that last partial block for the next flush. Nothing is
 * printed from putc (it runs in the middle of a line); what goes wrong
 * while writing is said at the next flush, on every other sink.
 */
#include <string.h>

#include "bench/engine/record.h"
#include "bench/results_log.h"
#include "lib/console.h"
#include "lib/err.h"

/* Blocks per write request: small enough not to hold the card for long. */
#define LOG_CHUNK_BLOCKS 64u

enum log_state { LOG_OFF, LOG_BUFFERING, LOG_WRITING, LOG_STOPPED };

static struct {
	enum log_state state;
	struct results_file rf;
	struct write_guard *guard;
	uint32_t base_block;	/* file block of buf[0] */
	uint32_t len;		/* bytes in buf */
	bool dirty;		/* buf holds bytes not yet on the card */
	bool full;		/* the file is full: later output is dropped */
	bool full_said;
	int err;		/* a failed write (-errno), said at the next flush */
	uint32_t err_lba;
	uint64_t bytes;		/* bytes of output put into the file */
	uint32_t writes;	/* write requests sent */
	uint8_t buf[RESULTS_LOG_BUF_BYTES + BLKDEV_BLOCK_SIZE] __attribute__((aligned(64)));
} lg;

static void log_putc(void *ctx, char c);
static void log_flush(void *ctx);
static const struct con_sink sink = { .name = "results_file", .putc = log_putc,
				       .flush = log_flush };

/* The card block of file block fb, and how many follow it in the same run. */
static uint32_t file_lba(uint32_t fb, uint32_t *run_left)
{
	for (unsigned i = 0; i < lg.rf.n; i++) {
		if (fb < lg.rf.ext[i].count) {
			*run_left = lg.rf.ext[i].count - fb;
			return lg.rf.ext[i].first + fb;
		}
		fb -= lg.rf.ext[i].count;
	}
	*run_left = 0;
	return 0;
}

/* Write the buffer's blocks (the last one NUL-padded); keep its last
 * partial block. Output that ends on a block boundary gets one more block
 * of NULs: the reader's end mark is the first NUL, and the file's old
 * bytes there are not NUL (log_putc leaves room for it). Silent: errors
 * are kept in lg.err. */
static void write_out(void)
{
	uint32_t nblocks = lg.len / BLKDEV_BLOCK_SIZE + 1, done = 0;
	uint32_t keep;

	if (lg.state != LOG_WRITING || !lg.dirty)
		return;
	memset(lg.buf + lg.len, 0, nblocks * BLKDEV_BLOCK_SIZE - lg.len);
	while (done < nblocks) {
		uint32_t left, lba = file_lba(lg.base_block + done, &left), n = nblocks - done;
		int r;

		if (n > left)
			n = left;
		if (n > LOG_CHUNK_BLOCKS)
			n = LOG_CHUNK_BLOCKS;
		r = n ? write_guard_log_write(lg.guard, lba, n,
					     lg.buf + done * BLKDEV_BLOCK_SIZE) : -ENOSPC;
		lg.writes++;
		if (r) {
			lg.err = r;
			lg.err_lba = lba;
			lg.state = LOG_STOPPED;
			return;
		}
		done += n;
	}
	lg.bytes = (uint64_t)lg.base_block * BLKDEV_BLOCK_SIZE + lg.len;
	keep = lg.len % BLKDEV_BLOCK_SIZE;
	memmove(lg.buf, lg.buf + lg.len - keep, keep);
	lg.base_block += lg.len / BLKDEV_BLOCK_SIZE;
	lg.len = keep;
	lg.dirty = false;
}

static void log_putc(void *ctx, char c)
{
	(void)ctx;
	if (lg.state != LOG_BUFFERING && lg.state != LOG_WRITING)
		return;
	if (lg.len == RESULTS_LOG_BUF_BYTES) {
		write_out();	/* buffering only (before the file is known): dropped */
		if (lg.len == RESULTS_LOG_BUF_BYTES)
			return;
	}
	if (lg.state == LOG_WRITING &&
	    (uint64_t)lg.base_block * BLKDEV_BLOCK_SIZE + lg.len >=
	    (uint64_t)lg.rf.blocks * BLKDEV_BLOCK_SIZE - 1) {
		lg.full = true;	/* one NUL stays: the reader's end mark */
		return;
	}
	lg.buf[lg.len++] = (uint8_t)c;
	lg.dirty = true;
}

static void log_flush(void *ctx)
{
	(void)ctx;
	write_out();
	if (lg.err) {
		record_error("results_file", lg.err, "writing %s at LBA %lu failed (%s): no more "
			     "output goes there", RESULTS_FILE_NAME, (unsigned long)lg.err_lba,
			     err_name(lg.err));
		lg.err = 0;
		con_sink_remove(&sink);
	} else if (lg.full && !lg.full_said) {
		con_printf("results file: %s is full after %llu bytes; the rest of the output "
			   "is only on the console\n", RESULTS_FILE_NAME,
			   (unsigned long long)lg.bytes);
		lg.full_said = true;
	}
}

void results_log_start(void)
{
	if (lg.state != LOG_OFF)
		return;
	lg.state = LOG_BUFFERING;
	lg.len = sizeof(RESULTS_LOG_HEADER) - 1;
	memcpy(lg.buf, RESULTS_LOG_HEADER, lg.len);
	lg.dirty = true;
	if (!con_sink_add(&sink))
		lg.state = LOG_OFF;
}

static void say(const struct results_file *rf, const char *why)
{
	struct json *j;

	if (why)
		con_printf("\nresults file: none: %s; the output is only on the console\n", why);
	else
		con_printf("\nresults file: %s, %lu KiB in %u piece%s: the console output goes "
			   "there too\n", RESULTS_FILE_NAME, (unsigned long)(rf->blocks / 2),
			   rf->n, rf->n == 1 ? "" : "s");
	j = record_begin("results_file");
	json_str(j, "name", RESULTS_FILE_NAME);
	json_bool(j, "usable", why == NULL);
	if (why) {
		json_str(j, "reason", why);
	} else {
		json_u64(j, "bytes", (uint64_t)rf->blocks * BLKDEV_BLOCK_SIZE);
		json_arr_begin(j, "extents");
		for (unsigned i = 0; i < rf->n; i++) {
			json_obj_begin(j, NULL);
			json_u64(j, "first_lba", rf->ext[i].first);
			json_u64(j, "count", rf->ext[i].count);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	record_end();
}

void results_log_open(const struct results_file *rf, int status, bool on,
		      struct write_guard *g)
{
	const char *why = NULL;

	if (!on)
		why = "results_file is off (or its value in sdbench.txt could not be read)";
	else if (status == -ENOENT && !rf->reason[0])
		why = "no " RESULTS_FILE_NAME " in the boot partition";
	else if (status || !rf->usable)
		why = rf->reason[0] ? rf->reason : err_text(status);
	else if (g->card->write_protected)
		why = "the card is write-protected";
	else if (write_guard_allow_log(g, rf->ext, rf->n))
		why = "its blocks overlap the test area or lie outside the card";
	if (why || lg.state == LOG_OFF) {
		con_sink_remove(&sink);
		lg.state = LOG_STOPPED;
		say(rf, why ? why : "the output was not buffered from the start");
		return;
	}
	lg.rf = *rf;
	lg.guard = g;
	say(rf, NULL);
	lg.state = LOG_WRITING;
}

bool results_log_active(void)
{
	return lg.state == LOG_WRITING;
}

/*
 * hostcost.c - the request-path cost step (see hostcost.h).
 *
 * What a request costs the CPU beyond moving the data is part of every
 * small-request figure (4 KiB IOPS above all). It is measured here, not
 * computed: each size is read N times in a row between two readings of the
 * engine's clock (wl_now_ns), once through the engine (wl_do: the card
 * layer, the host driver and the engine's own timestamps and statistics,
 * exactly what a workload pays per operation) and once through the card
 * layer alone. Timing many requests together divides the clock's
 * resolution (1 us with the system timer) by their number; each row says
 * what remains (resolution_ns) and flags the rows where it matters.
 *
 * Writes are measured the same way, into the test area only, through the
 * write guard (bench/storage/write_guard.c); without a usable test area
 * (or on a write-protected card) the write rows are skipped and a
 * "skipped" record says why.
 *
 * Under QEMU with -icount shift=0,sleep=off every guest instruction is 1 ns
 * of guest time and the controller models answer without delay, so these
 * figures are instruction counts (make bench-qemu). On a board they are
 * CPU time plus the waits on the card.
 */
#include <stddef.h>

#include "bench/workloads/hostcost.h"
#include "bench/workloads/hostcost_report.h"
#include "bench/engine/pattern.h"
#include "bench/engine/workload_report.h"
#include "bench/storage/write_guard.h"
#include "drivers/timer.h"
#include "lib/err.h"

static const uint32_t sizes[] = { 1, 8, 128, 8192 };
static const char *const path_names[] = { "pio", "dma" };

/* Requests per size: about 2048 blocks' worth, at least 4 requests. */
static uint32_t requests_for(uint32_t blocks)
{
	uint32_t n = 2048 / blocks;

	return n < 4 ? 4 : n;
}

/* One size in one direction: reads from 'first' (the read area), writes
 * into the test area through the write guard, wrapping inside 'window'
 * blocks. */
static void measure(struct wl_ctx *c, const char *path, bool write, uint32_t blocks,
		    uint32_t first, uint32_t window, struct hostcost_row *row)
{
	struct sd_card *card = c->card;
	struct sd_host *h = card->host;
	/* One block: the card layer issues CMD17 / CMD24 (what a 512-byte
	 * random read or write costs); more: CMD18 / CMD25 with Auto-CMD12,
	 * as the workloads do. */
	struct wl_op op = { write, first, blocks, WL_MULTI_AUTO12 };
	struct wl_meas m;
	uint32_t i, n = requests_for(blocks), lba, end = first + window - blocks;
	uint32_t pio0 = h->dma_pio_reqs;
	uint64_t t0, t1;
	int r = 0;

	row->path = path;
	row->op = write ? "write" : "read";
	row->blocks = blocks;
	row->requests = n;
	row->cmd = blocks > 1 ? "auto-cmd12" : "single";
	row->error = 0;
	row->pio_requests = 0;
	row->moved_by = path;
	row->resolution_ns = (double)timer_get_info()->resolution_ns / n;

	/* The card layer alone (writes: through the guard, which checks the
	 * range first; its check is part of what a write costs). */
	lba = first;
	t0 = wl_now_ns(c);
	for (i = 0; i < n && !r; i++) {
		r = write ? write_guard_write(c->guard, lba, blocks, c->buf, SD_STOP_AUTO12, NULL) :
			    sd_read_blocks(card, lba, blocks, c->buf, SD_STOP_AUTO12, NULL);
		lba += blocks;
		if (lba > end)
			lba = first;
	}
	t1 = wl_now_ns(c);
	row->driver_ns = (double)(t1 - t0) / n;
	if (r) {
		row->error = r;
		return;
	}

	/* The same through the engine, as a workload runs it. */
	wl_begin(c, &m, "seq", "hostcost", "request-path cost", write, WL_MULTI_AUTO12, blocks,
		 (uint64_t)n * blocks * SD_BLOCK_SIZE);
	t0 = wl_now_ns(c);
	for (i = 0; i < n && !r; i++) {
		r = wl_do(c, &m, &op);
		op.lba += blocks;
		if (op.lba > end)
			op.lba = first;
	}
	t1 = wl_now_ns(c);
	wl_end(c, &m);
	/* The progress line and Ctrl-C polling are not part of an
	 * operation's cost (the engine excludes them too). */
	row->op_ns = (double)(t1 - t0 - m.excluded_ns) / n;
	if (r)
		row->error = r;
	/* Which path moved the data: the DMA path sends small requests
	 * (host->dma_pio_blocks) and buffers its engine cannot use to PIO,
	 * and counts them. */
	row->pio_requests = h->dma_pio_reqs - pio0;
	if (h->data_path == SD_PATH_DMA)
		row->moved_by = row->pio_requests == 0 ? "dma" :
				row->pio_requests >= 2 * n ? "pio" : "mixed";
}

/* The rows of one data path: reads, then writes into the test area. */
static void path_rows(struct wl_ctx *c, const char *path, uint32_t first, uint32_t window,
		      uint32_t wfirst, uint32_t wwindow)
{
	struct sd_host *h = c->card->host;
	unsigned k, w;

	for (w = 0; w < 2 && !c->abort_all; w++) {
		if (w == 1 && wwindow) {
			/* What the writes carry: the run's pattern (before the
			 * timing; the reads left the read area's data in the
			 * buffer), so that they show on the card. */
			uint32_t i, n = c->buf_bytes / SD_BLOCK_SIZE;

			for (i = 0; i < n && i < 8192u; i++)
				pattern_fill(c->buf + i * SD_BLOCK_SIZE, wfirst + i, c->run_id, 0);
		}
		for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]) && !c->abort_all; k++) {
			struct hostcost_row row;

			if (sizes[k] > (w ? wwindow : window) ||
			    sizes[k] * SD_BLOCK_SIZE > c->buf_bytes)
				continue;
			measure(c, path, w != 0, sizes[k], w ? wfirst : first,
				w ? wwindow : window, &row);
			hostcost_report_row(h->name, &row);
		}
	}
}

void wl_hostcost(struct wl_ctx *c)
{
	struct sd_host *h = c->card->host;
	const struct timer_info *ti = timer_get_info();
	unsigned restore = h->data_path, p;
	uint32_t first = c->read_base, window = 131072; /* 64 MiB */
	uint32_t wfirst = 0, wwindow = 0;
	bool verify = c->verify;

	if (first >= c->card->blocks)
		first = 0;
	if (window > c->card->blocks - first)
		window = c->card->blocks - first;
	/* Writes: only inside the test area, through the write guard; the
	 * data is the run's pattern, filled before the timing (nothing is
	 * read back: verify stays off, the step measures the request). */
	if (wl_writes_possible(c)) {
		wfirst = c->ta->first_lba;
		wwindow = c->ta->count < 131072u ? c->ta->count : 131072u;
	}
	hostcost_report_heading(h->name, ti->source, ti->resolution_ns, c->emulated);
	if (!wwindow) {
		const char *why = write_guard_why_not(c->guard);

		wl_skip("hostcost-write", why ? why : "the test area is empty");
	}
	c->verify = false;
	for (p = 0; p < sizeof(path_names) / sizeof(path_names[0]) && !c->abort_all; p++) {
		if (!(h->data_paths & (1u << p)))
			continue;
		if (p != h->data_path) {
			int r = sd_host_set_data_path(h, p);

			if (r) {
				/* Offered but not selectable: one row says so. */
				struct hostcost_row row = { path_names[p], "read", "single", 1, 0, r,
							    0, 0, path_names[p], 0, 0 };

				hostcost_report_row(h->name, &row);
				continue;
			}
		}
		path_rows(c, path_names[p], first, window, wfirst, wwindow);
	}
	c->verify = verify;
	if (h->data_path != restore)
		(void)sd_host_set_data_path(h, restore);
}

/*
 * lx_cost.c - what one request costs through Linux: the sizes of sdbench's
 * hostcost step (1, 8, 128 and 8192 blocks), each repeated for about 2048
 * blocks' worth (at least 4 requests) between two CLOCK_MONOTONIC
 * readings, reads sequentially from LBA 0, then writes into the test area
 * only. Under QEMU with -icount shift=0,sleep=off and the CPU never idle
 * (one CPU: nosmp), a nanosecond is one guest instruction of the whole
 * stack: system call, block layer, MMC core, host driver, interrupts.
 */
#include <stdio.h>
#include <string.h>

#include "lib/json.h"
#include "tools/sdblinux/lx.h"

static const uint32_t sizes[] = { 1, 8, 128, 8192 };

static uint32_t requests_for(uint32_t blocks)
{
	return blocks >= 512 ? 4 : 2048 / blocks;
}

/* Time n requests of 'blocks' from 'first', wrapping inside 'window'. */
static int time_size(struct lx *x, bool write, uint32_t first, uint32_t window,
		     uint32_t blocks, uint64_t *ns, uint32_t *n)
{
	uint32_t lba = first, i;
	uint64_t t0;
	int r;

	*n = requests_for(blocks);
	/* One request first, so that the timed ones find the path warm. */
	r = write ? lx_write(x, first, blocks, "linuxcost") : lx_read(x, first, blocks, "linuxcost");
	if (r)
		return r;
	t0 = lx_now_ns();
	for (i = 0; i < *n; i++) {
		if ((uint64_t)lba + blocks > (uint64_t)first + window)
			lba = first;
		r = write ? lx_write(x, lba, blocks, "linuxcost") : lx_read(x, lba, blocks, "linuxcost");
		if (r)
			return r;
		lba += blocks;
	}
	*ns = lx_now_ns() - t0;
	return 0;
}

static void one_row(struct lx *x, bool write, uint32_t first, uint32_t window, uint32_t blocks)
{
	uint64_t ns = 0;
	uint32_t n = 0;
	int r = time_size(x, write, first, window, blocks, &ns, &n);
	struct json *j = lx_rec_begin("hostcost");

	json_str(j, "host", "linux");
	json_str(j, "path", "o_direct");
	json_str(j, "op", write ? "write" : "read");
	json_str(j, "cmd", "kernel");
	json_u64(j, "blocks", blocks);
	json_u64(j, "xfer_bytes", (uint64_t)blocks * LX_BLOCK);
	json_u64(j, "requests", n);
	if (r) {
		json_i64(j, "error", r);
	} else {
		json_double(j, "request_ns", (double)ns / n, 1);
		json_double(j, "block_ns", (double)ns / n / blocks, 1);
	}
	lx_rec_end();
	if (!r)
		printf("  %-5s %5u blocks: %10.0f ns/request %9.1f ns/block (%u requests)\n",
		       write ? "write" : "read", (unsigned)blocks, (double)ns / n,
		       (double)ns / n / blocks, (unsigned)n);
}

void lx_cost(struct lx *x)
{
	const char *why = lx_why_no_writes(x);
	unsigned k;

	printf("\nrequest cost through Linux (O_DIRECT, CLOCK_MONOTONIC)\n");
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		if (sizes[k] * 4u <= x->blocks)
			one_row(x, false, 0, x->blocks, sizes[k]);
	if (why) {
		lx_skip("hostcost-write", why);
		return;
	}
	memset(x->buf, 0x5a, (size_t)LX_MAX_BLOCKS * LX_BLOCK);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		if (sizes[k] <= x->st.area.count)
			one_row(x, true, x->st.area.first_lba, x->st.area.count, sizes[k]);
}

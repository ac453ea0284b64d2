/*
 * lx.h - sdblinux, sdbench's companion for Linux: the same workloads on the
 * same card through the kernel's block layer (O_DIRECT, no page cache), so
 * that sdbreport can put the protocol-level figure next to what a program
 * on Linux gets. Reads anywhere on the device; writes only inside the test
 * area that sdbench's own decision code (bench/storage) chooses for the
 * card, and none when it chooses none.
 */
#ifndef SDB_TOOLS_SDBLINUX_LX_H
#define SDB_TOOLS_SDBLINUX_LX_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "bench/storage/storage.h"

/* Byte offsets of the whole card: on 32-bit Linux (armhf) off_t is 32 bits
 * unless built with -D_FILE_OFFSET_BITS=64 (Makefile), and an offset past
 * 4 GiB would wrap onto another part of the card. */
_Static_assert(sizeof(off_t) == 8, "sdblinux needs 64-bit file offsets");

#define LX_BLOCK	512u
#define LX_MAX_BLOCKS	8192u	/* 4 MiB, the largest request of the suite */

struct lx {
	int fd;                 /* the device, O_DIRECT */
	const char *path;
	uint32_t blocks;        /* device size in 512-byte blocks */
	uint8_t *buf;           /* LX_MAX_BLOCKS blocks, page-aligned */
	bool read_only;         /* BLKROGET, or opened read-only */
	bool write_tests;       /* --no-writes clears it */
	bool emulated;          /* --emulated: under QEMU */
	struct storage st;      /* partition table, sdbench.txt, test area */
	uint32_t writes_refused;
	unsigned errors;
};

/* CLOCK_MONOTONIC in ns. */
uint64_t lx_now_ns(void);
/* One request of count blocks at lba; 0 or -errno (an error record is printed). */
int lx_read(struct lx *x, uint32_t lba, uint32_t count, const char *ctx);
/* A write: sent only when lx_may_write() allows it, else -EPERM (or -EROFS). */
int lx_write(struct lx *x, uint32_t lba, uint32_t count, const char *ctx);
/* Writes possible at all on this run (NULL), or why not. */
const char *lx_why_no_writes(const struct lx *x);
/* The one decision for a write: [lba, lba + count) inside the test area. */
bool lx_may_write(const struct lx *x, uint32_t lba, uint32_t count);

/* "@ " records (json through lib/json.h). */
struct json *lx_rec_begin(const char *type);
void lx_rec_end(void);
void lx_error(struct lx *x, const char *ctx, int err, uint32_t lba, uint32_t count);
void lx_skip(const char *workload, const char *why);

/* The request-cost measurement (hostcost records) and the workloads. */
void lx_cost(struct lx *x);
void lx_workloads(struct lx *x, uint32_t seed);

#endif

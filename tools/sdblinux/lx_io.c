/*
 * lx_io.c - sdblinux's requests and records: one pread/pwrite per request
 * on the O_DIRECT descriptor (the kernel sends it to the card as one block
 * request, split only at its own limits), and the write decision.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/json.h"
#include "tools/sdblinux/lx.h"

uint64_t lx_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static char rec_buf[4096];
static struct json rec;

/* Every record says "source": "linux", except test_area, whose own
 * "source" field names where the area is (unpartitioned, file, config). */
struct json *lx_rec_begin(const char *type)
{
	json_init(&rec, rec_buf, sizeof(rec_buf));
	json_obj_begin(&rec, NULL);
	json_str(&rec, "type", type);
	if (strcmp(type, "test_area"))
		json_str(&rec, "source", "linux");
	return &rec;
}

void lx_rec_end(void)
{
	json_obj_end(&rec);
	printf("@ %s\n", json_result(&rec));
	fflush(stdout);
}

void lx_error(struct lx *x, const char *ctx, int err, uint32_t lba, uint32_t count)
{
	struct json *j;

	x->errors++;
	printf("error: %s: LBA %u+%u: %s\n", ctx, (unsigned)lba, (unsigned)count, strerror(err));
	j = lx_rec_begin("error");
	json_str(j, "context", ctx);
	json_str(j, "code", err == EROFS ? "EROFS" : err == EPERM ? "EPERM" :
		 err == EINVAL ? "EINVAL" : "EIO");
	json_str(j, "message", strerror(err));
	json_u64(j, "lba", lba);
	json_u64(j, "count", count);
	lx_rec_end();
}

void lx_skip(const char *workload, const char *why)
{
	struct json *j;

	printf("%s: skipped: %s\n", workload, why);
	j = lx_rec_begin("skipped");
	json_str(j, "workload", workload);
	json_str(j, "reason", why);
	lx_rec_end();
}

static int io(struct lx *x, bool write, uint32_t lba, uint32_t count, const char *ctx)
{
	size_t want = (size_t)count * LX_BLOCK;
	off_t off = (off_t)lba * LX_BLOCK;
	ssize_t n;

	if (!count || count > LX_MAX_BLOCKS || (uint64_t)lba + count > x->blocks) {
		lx_error(x, ctx, EINVAL, lba, count);
		return -EINVAL;
	}
	do
		n = write ? pwrite(x->fd, x->buf, want, off) : pread(x->fd, x->buf, want, off);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)want)
		return 0;
	/* A short transfer on a block device is an error for the benchmark. */
	lx_error(x, ctx, n < 0 ? errno : EIO, lba, count);
	return n < 0 ? -errno : -EIO;
}

int lx_read(struct lx *x, uint32_t lba, uint32_t count, const char *ctx)
{
	return io(x, false, lba, count, ctx);
}

const char *lx_why_no_writes(const struct lx *x)
{
	if (x->read_only)
		return "the device is read-only (write-protected card or read-only open)";
	if (!x->write_tests)
		return "writes are off (--no-writes or write_tests = off in sdbench.txt)";
	if (!x->st.area.usable)
		return "no test area: nowhere safe to write (see the test-area record)";
	return NULL;
}

bool lx_may_write(const struct lx *x, uint32_t lba, uint32_t count)
{
	return !lx_why_no_writes(x) && test_area_contains(&x->st.area, lba, count);
}

int lx_write(struct lx *x, uint32_t lba, uint32_t count, const char *ctx)
{
	if (!lx_may_write(x, lba, count)) {
		x->writes_refused++;
		return x->read_only ? -EROFS : -EPERM;
	}
	return io(x, true, lba, count, ctx);
}

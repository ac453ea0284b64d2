/*
 * sdblinux.c - sdbench's companion for Linux (Raspberry Pi OS, or the
 * Debian kernel under QEMU): the request-cost step and the basic workloads
 * on the card's block device through O_DIRECT, printed as sdbench's `@ `
 * records with "source": "linux" (docs/records.md, docs/linux-cost.md):
 *
 *     sdblinux [--cost] [--workloads] [--no-writes] [--emulated] [--seed N] DEVICE
 *
 * Without --cost or --workloads it runs both. Before anything else it reads
 * the card's partition table, sdbench.txt and the test-area decision with
 * sdbench's own code (bench/storage, as tools/sdarea): writes go only into
 * that area, and none when there is none, when sdbench.txt says
 * write_tests = off, or with --no-writes. Exit status: 0 when the run had
 * no errors, 1 with errors, 2 for bad usage or a device it cannot open.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/host/fd_read.h"
#include "lib/json.h"
#include "tools/sdblinux/lx.h"

static int probe_read(void *ctx, uint32_t lba, uint32_t count, void *buf)
{
	return fd_read_full(*(int *)ctx, buf, (size_t)count * LX_BLOCK, (uint64_t)lba * LX_BLOCK);
}

/* Size in blocks of a block device or an image file. */
static int size_blocks(int fd, uint32_t *blocks)
{
	uint64_t bytes = 0;
	struct stat sb;

	if (fstat(fd, &sb))
		return -errno;
	if (S_ISBLK(sb.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &bytes))
			return -errno;
	} else {
		bytes = (uint64_t)sb.st_size;
	}
	if (bytes < LX_BLOCK || bytes / LX_BLOCK > 0xffffffffull)
		return -EINVAL;
	*blocks = (uint32_t)(bytes / LX_BLOCK);
	return 0;
}

static void board_record(const struct lx *x)
{
	char model[128] = "";
	struct utsname u;
	struct json *j;
	FILE *f = fopen("/proc/device-tree/model", "r");

	if (f) {
		size_t n = fread(model, 1, sizeof(model) - 1, f);

		model[n] = 0;
		fclose(f);
	}
	uname(&u);
	printf("sdblinux: %s, Linux %s %s, device %s (%u blocks)\n", model[0] ? model : "?",
	       u.release, u.machine, x->path, (unsigned)x->blocks);
	j = lx_rec_begin("board");
	json_str(j, "model", model[0] ? model : "unknown");
	json_str(j, "kernel", u.release);
	json_str(j, "arch", u.machine);
	json_str(j, "device", x->path);
	json_bool(j, "emulated", x->emulated);
	lx_rec_end();
}

static void area_record(const struct lx *x)
{
	const struct test_area *a = &x->st.area;
	struct json *j;

	/* sdbench.txt's complaints, as the firmware prints them: a line that
	 * could not be read means no writes here too (config.h). */
	for (unsigned i = 0; i < x->st.cfg.nmsgs; i++)
		printf("  %s\n", x->st.cfg.msgs[i]);
	if (!config_fully_read(&x->st.cfg))
		printf("NOTHING IS WRITTEN THIS RUN: %s\n", config_no_writes_why(&x->st.cfg));
	if (a->usable)
		printf("write test area: %s, LBA %u+%u: %s\n", test_area_source_name(a->source),
		       (unsigned)a->first_lba, (unsigned)a->count, a->reason);
	else
		printf("write test area: none: %s\n", a->reason);
	j = lx_rec_begin("test_area");
	test_area_json(a, j);
	json_bool(j, "write_protected", x->read_only);
	lx_rec_end();
}

/* Probe through an ordinary descriptor (storage's buffers are not aligned),
 * then open the device for the benchmark with O_DIRECT. */
static int open_device(struct lx *x)
{
	struct blkdev dev;
	int fd = open(x->path, O_RDONLY), ro = 0, r;

	if (fd < 0)
		return -errno;
	r = size_blocks(fd, &x->blocks);
	if (r) {
		close(fd);
		return r;
	}
	dev.read = probe_read;
	dev.ctx = &fd;
	dev.total_blocks = x->blocks;
	storage_probe(&x->st, &dev);
	if (ioctl(fd, BLKROGET, &ro) == 0 && ro)
		x->read_only = true;
	close(fd);
	if (!config_bool(&x->st.cfg, CFG_WRITE_TESTS))
		x->write_tests = false;
	x->fd = -1;
	if (!x->read_only && x->write_tests && x->st.area.usable)
		x->fd = open(x->path, O_RDWR | O_DIRECT);
	if (x->fd < 0 && (errno == EROFS || errno == EACCES))
		x->read_only = true;
	if (x->fd < 0)
		x->fd = open(x->path, O_RDONLY | O_DIRECT);
	return x->fd < 0 ? -errno : 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: sdblinux [--cost] [--workloads] [--no-writes] [--emulated] "
			"[--seed N] DEVICE\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct lx x;
	bool cost = false, wls = false;
	uint32_t seed = 1;
	uint64_t t0 = lx_now_ns();
	struct json *j;
	int r;

	x.write_tests = true;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cost"))
			cost = true;
		else if (!strcmp(argv[i], "--workloads"))
			wls = true;
		else if (!strcmp(argv[i], "--no-writes"))
			x.write_tests = false;
		else if (!strcmp(argv[i], "--emulated"))
			x.emulated = true;
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (argv[i][0] == '-' || x.path)
			return usage();
		else
			x.path = argv[i];
	}
	if (!x.path)
		return usage();
	if (!cost && !wls)
		cost = wls = true;
	if (posix_memalign((void **)&x.buf, 4096, (size_t)LX_MAX_BLOCKS * LX_BLOCK))
		return fprintf(stderr, "sdblinux: out of memory\n"), 2;
	r = open_device(&x);
	if (r) {
		fprintf(stderr, "sdblinux: %s: %s\n", x.path, strerror(-r));
		return 2;
	}
	board_record(&x);
	area_record(&x);
	if (cost)
		lx_cost(&x);
	if (wls)
		lx_workloads(&x, seed);
	j = lx_rec_begin("done");
	json_u64(j, "errors", x.errors);
	json_u64(j, "elapsed_us", (lx_now_ns() - t0) / 1000);
	json_u64(j, "writes_refused", x.writes_refused);
	lx_rec_end();
	close(x.fd);
	return x.errors ? 1 : 0;
}

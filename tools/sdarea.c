/*
 * sdarea.c - show on a PC what sdbench will decide about a card before it
 * writes anything: the partition table, sdbench.txt from the boot partition
 * and the write test area, from a card image or a card reader's device,
 * opened read-only:
 *
 *     sdarea [--json] IMAGE|DEVICE
 *
 * The same code as the firmware (bench/storage/). Exit status: 0 when a
 * write area is usable, 1 when there is none, 2 for bad usage or an
 * unreadable file.
 *
 * Not supported: images whose size is not a multiple of 512 bytes (the
 * remainder is ignored), devices larger than 2 TiB.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "bench/storage/storage.h"
#include "lib/host/fd_read.h"
#include "lib/json.h"

static int file_read(void *ctx, uint32_t lba, uint32_t count, void *buf)
{
	return fd_read_full(*(int *)ctx, buf, (size_t)count * BLKDEV_BLOCK_SIZE,
			    (uint64_t)lba * BLKDEV_BLOCK_SIZE);
}

static void print_text(const struct storage *st)
{
	const struct mbr_info *mi = &st->mbr;
	char line[160];

	printf("card: %lu blocks (%lu MiB)\n", (unsigned long)mi->total_blocks,
	       (unsigned long)(mi->total_blocks / 2048));
	printf("partition table: %s", mbr_kind_name(mi->kind));
	if (mi->reason[0])
		printf(": %s", mi->reason);
	printf("\n");
	for (unsigned i = 0; i < mi->nparts; i++) {
		mbr_part_describe(&mi->parts[i], line, sizeof(line));
		printf("  %s, %lu MiB%s\n", line, (unsigned long)(mi->parts[i].count / 2048),
		       mi->parts[i].status == 0x80 ? ", active" : "");
	}
	if (st->config_status == 0)
		printf("sdbench.txt: read\n");
	else
		printf("sdbench.txt: not read (defaults)\n");
	for (unsigned i = 0; i < st->cfg.nmsgs; i++)
		printf("  %s\n", st->cfg.msgs[i]);
	if (st->cfg.dropped)
		printf("  ... and %u more messages\n", st->cfg.dropped);
	for (int id = 0; id < CFG_NKEYS; id++) {
		config_format(&st->cfg, (enum config_id)id, line, sizeof(line));
		printf("  %-16s = %s%s\n", config_key_name((enum config_id)id),
		       line[0] ? line : "(unset)",
		       config_from_file(&st->cfg, (enum config_id)id) ? "" : "  (default)");
	}
	if (st->area.note[0])
		printf("note: %s\n", st->area.note);
	if (st->area.usable)
		printf("write test area: %s, LBA %lu+%lu (%lu MiB): %s\n",
		       test_area_source_name(st->area.source), (unsigned long)st->area.first_lba,
		       (unsigned long)st->area.count, (unsigned long)(st->area.count / 2048),
		       st->area.reason);
	else
		printf("write test area: none: %s\nhint: %s\n", st->area.reason, st->area.hint);
}

static void print_json(const struct storage *st)
{
	static char buf[16384];
	struct json j;

	json_init(&j, buf, sizeof(buf));
	json_obj_begin(&j, NULL);
	json_obj_begin(&j, "mbr");
	storage_mbr_json(&st->mbr, &j);
	json_obj_end(&j);
	json_obj_begin(&j, "config");
	json_bool(&j, "found", st->config_status == 0);
	json_obj_begin(&j, "values");
	config_json(&st->cfg, &j);
	json_obj_end(&j);
	json_arr_begin(&j, "messages");
	for (unsigned i = 0; i < st->cfg.nmsgs; i++)
		json_str(&j, NULL, st->cfg.msgs[i]);
	json_arr_end(&j);
	json_obj_end(&j);
	json_obj_begin(&j, "test_area");
	test_area_json(&st->area, &j);
	json_obj_end(&j);
	json_obj_end(&j);
	printf("%s\n", json_result(&j));
}

int main(int argc, char **argv)
{
	static struct storage st;
	struct blkdev dev;
	const char *path = NULL;
	int json = 0, fd;
	off_t size;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (argv[i][0] == '-' || path) {
			fprintf(stderr, "usage: sdarea [--json] IMAGE|DEVICE\n");
			return 2;
		} else
			path = argv[i];
	}
	if (!path) {
		fprintf(stderr, "usage: sdarea [--json] IMAGE|DEVICE\n");
		return 2;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "sdarea: %s: %s\n", path, strerror(errno));
		return 2;
	}
	size = lseek(fd, 0, SEEK_END);
	if (size < (off_t)BLKDEV_BLOCK_SIZE || size / BLKDEV_BLOCK_SIZE > 0xFFFFFFFFll) {
		fprintf(stderr, "sdarea: %s: size %lld is not a card size\n", path, (long long)size);
		close(fd);
		return 2;
	}
	dev.read = file_read;
	dev.ctx = &fd;
	dev.total_blocks = (uint32_t)(size / BLKDEV_BLOCK_SIZE);
	storage_probe(&st, &dev);
	if (json)
		print_json(&st);
	else
		print_text(&st);
	close(fd);
	return st.area.usable ? 0 : 1;
}

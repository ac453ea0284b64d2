/*
 * fuzz_storage.c - libFuzzer target: the whole read-only look at a card
 * (bench/storage/storage.c: MBR/EBR/GPT detection, the FAT boot partition,
 * sdbench.txt, the test-area decision) over a fuzzed card image
 * (fuzz_image.h), then the JSON the firmware prints about it. Aborts when the
 * chosen area breaks the write-safety rule (fz_check_area) or when the
 * reads are unbounded.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/storage/storage.h"
#include "lib/json.h"
#include "tests/fuzz/fuzz_image.h"

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	static struct storage st;
	static char buf[32768];
	struct fz_image im;
	struct blkdev dev;
	struct json j;
	const char *bad;

	if (fz_image_open(&im, &dev, in, len))
		return 0;
	storage_probe(&st, &dev);
	bad = fz_check_area(&im, &st.area);
	if (bad) {
		fprintf(stderr, "write-safety rule broken: %s (area %s LBA %lu+%lu, mbr %s: %s)\n",
			bad, test_area_source_name(st.area.source), (unsigned long)st.area.first_lba,
			(unsigned long)st.area.count, mbr_kind_name(st.mbr.kind), st.mbr.reason);
		abort();
	}
	if (getenv("SDB_FUZZ_VERBOSE"))
		fprintf(stderr, "mbr %s (%s); area %s LBA %lu+%lu: %s\n", mbr_kind_name(st.mbr.kind),
			st.mbr.reason, test_area_source_name(st.area.source),
			(unsigned long)st.area.first_lba, (unsigned long)st.area.count,
			st.area.reason);
	/* Every read is bounded: the EBR chain, the FAT scan and the wrap
	 * check read at most a few FATs' worth of windows. */
	if (im.reads > 4u * 65536u + 1024u) {
		fprintf(stderr, "%u reads for one probe\n", im.reads);
		abort();
	}
	json_init(&j, buf, sizeof(buf));
	json_obj_begin(&j, NULL);
	json_obj_begin(&j, "mbr");
	storage_mbr_json(&st.mbr, &j);
	json_obj_end(&j);
	json_obj_begin(&j, "config");
	config_json(&st.cfg, &j);
	json_obj_end(&j);
	json_obj_begin(&j, "test_area");
	test_area_json(&st.area, &j);
	json_obj_end(&j);
	json_obj_end(&j);
	(void)json_result(&j);
	return 0;
}

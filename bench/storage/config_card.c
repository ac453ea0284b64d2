/*
 * config_card.c - sdbench.txt from the boot partition (see config_card.h).
 * Not supported: a configuration file in a subdirectory or on a GPT card.
 */
#include "bench/storage/config_card.h"
#include "bench/storage/fat.h"
#include "bench/storage/mbr.h"
#include "lib/err.h"

/* Static: 8 KiB of text and a FAT volume are too much for the stack. */
static struct fat_vol vol;
static int mounted;

struct fat_vol *config_card_volume(void)
{
	return mounted ? &vol : NULL;
}

int config_load_card(struct config *c, const struct blkdev *dev, const struct mbr_info *mi)
{
	static char text[CONFIG_FILE_MAX_BYTES];
	struct fat_dirent de;
	int ret;

	ret = fat_mount_boot(&vol, dev, mi);
	mounted = ret == 0;
	if (ret == -ENOENT)
		return ret;
	if (ret) {
		config_msg(c, "config: no boot partition to read sdbench.txt from: %s", vol.why);
		return ret;
	}
	ret = fat_find_root(&vol, CONFIG_FILE_NAME, &de);
	if (ret == -ENOENT)
		return ret;
	if (ret == 0)
		ret = fat_read_file(&vol, &de, text, sizeof(text));
	if (ret < 0) {
		config_msg(c, "config: sdbench.txt not read: %s", vol.why);
		return ret;
	}
	config_parse(c, text, (size_t)ret);
	return 0;
}

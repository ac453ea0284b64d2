/*
 * config_card.h - load sdbench.txt from the card's boot partition into a
 * struct config (bench/storage/config.h), reading through the block callback only.
 */
#ifndef SDB_BENCH_CONFIG_CARD_H
#define SDB_BENCH_CONFIG_CARD_H

#include "bench/storage/blkdev.h"
#include "bench/storage/config.h"

struct mbr_info;

/* The largest sdbench.txt read (a bigger file is reported and ignored). */
#define CONFIG_FILE_MAX_BYTES	8192

/*
 * Find SDBENCH.TXT in the root of the FAT boot partition (fat_mount_boot)
 * and parse it on top of c (set up by config_init). Returns 0 when the file
 * was read, -ENOENT when there is no boot partition or no file (defaults
 * stay; not a problem), another -errno when it could not be read; every
 * failure other than "no file" also adds a message to c.
 */
int config_load_card(struct config *c, const struct blkdev *dev, const struct mbr_info *mi);

struct fat_vol;
/* The boot partition's volume as config_load_card() mounted it (its block
 * cache still holding what it read last), or NULL when none mounted: the
 * results file is looked up there without reading the card again. */
struct fat_vol *config_card_volume(void);

#endif

/*
 * bpb.h - decode and check a FAT boot sector's BIOS Parameter Block
 * (bpb.c). Shared by the partition-table reader (a FAT volume at LBA 0, no
 * MBR) and the FAT reader, so neither needs the other.
 */
#ifndef SDB_BENCH_STORAGE_BPB_H
#define SDB_BENCH_STORAGE_BPB_H

#include <stdint.h>

/* FAT specification §3.5 / §6: a directory entry's size, and the cluster
 * counts that decide FAT12 / FAT16 / FAT32. */
#define FAT_DIR_ENTRY_BYTES	32u
#define FAT12_MAX_CLUSTERS	4084u
#define FAT16_MAX_CLUSTERS	65524u
/* BPB_ExtFlags (FAT32): mirroring off, and then the active FAT. */
#define EXTFLAGS_NO_MIRROR	(1u << 7)
#define EXTFLAGS_ACTIVE_MASK	0x0Fu

struct bpb {
	uint32_t bps, spc, rsvd, nfats, root_ents, tot_sec, fat_sz, root_secs;
	uint32_t data_secs, nclusters, root_clus, ext_flags;
	uint8_t type;
};

/* Decode the BPB of a 512-byte boot sector into *b: NULL when it describes a
 * FAT volume, else a static reason. */
const char *bpb_decode(const uint8_t *sec, struct bpb *b);

/*
 * Check a boot sector (512 bytes). Returns 0 when it describes a FAT volume
 * and stores the volume's size in 512-byte blocks in *total_blocks (may be
 * NULL); else -EINVAL and, when why is not NULL, a static reason.
 */
int bpb_check(const uint8_t *sec, uint32_t *total_blocks, const char **why);

#endif

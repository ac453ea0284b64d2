/*
 * fat.c - read-only FAT12/16/32 for the boot partition (see fat.h).
 *
 * Follows the Microsoft FAT specification ("FAT: General Overview of On-Disk
 * Format"): BPB fields at their byte offsets, FAT12/16 decided by the count
 * of data clusters (FAT32 by its BPB layout, as Linux does), FAT32 root directory as a cluster chain, the active
 * FAT chosen by BPB_ExtFlags when mirroring is off. Volumes are addressed in
 * 512-byte blocks below the FAT sector size, so sector sizes of 512 to 4096
 * bytes work. Not supported: subdirectories, long names, exFAT, writes.
 */
#include <string.h>

#include "bench/storage/bpb.h"
#include "bench/storage/fat.h"
#include "bench/storage/mbr.h"
#include "lib/err.h"
#include "lib/fmt.h"

/* Directory entry fields */
#define DIR_ENTRY_SIZE		FAT_DIR_ENTRY_BYTES
#define DIR_NAME		0
#define DIR_ATTR		11
#define DIR_FSTCLUSHI		20
#define DIR_FSTCLUSLO		26
#define DIR_FILESIZE		28
#define DIR_NAME_END		0x00	/* no further entries */
#define DIR_NAME_FREE		0xE5	/* deleted entry */
#define DIR_NAME_KANJI_E5	0x05	/* a name that really starts with 0xE5 */

/* The largest directory the FAT specification allows: 65536 entries. */
#define FAT_MAX_DIR_BYTES	(65536u * DIR_ENTRY_SIZE)

/* What fat_next() found after a cluster. */
#define FAT_NEXT_EOC		0xFFFFFFFFu
#define FAT_NEXT_BAD		0xFFFFFFFEu
#define FAT_NEXT_FREE		0u

static int set_why(struct fat_vol *vol, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int set_why(struct fat_vol *vol, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(vol->why, sizeof(vol->why), fmt, ap);
	va_end(ap);
	return ret;
}


/*
 * Make volume block vblock available at vol->blk. Reads a window of
 * FAT_CACHE_BLOCKS aligned blocks at once (FAT scans and directory walks
 * read neighbouring blocks); if the window read fails, the single block is
 * tried alone, so a bad neighbour does not fail a good block.
 */
static int vol_block(struct fat_vol *vol, uint32_t vblock)
{
	uint32_t lba = vol->part_lba + vblock, wstart, count = FAT_CACHE_BLOCKS;
	uint32_t total = vol->dev->total_blocks;
	int ret;

	if (vol->cache_count && lba >= vol->cache_lba && lba - vol->cache_lba < vol->cache_count) {
		vol->blk = vol->cache + (lba - vol->cache_lba) * BLKDEV_BLOCK_SIZE;
		return 0;
	}
	vol->cache_count = 0;
	wstart = vol->part_lba + vblock / FAT_CACHE_BLOCKS * FAT_CACHE_BLOCKS;
	if (total && wstart < total && (uint64_t)wstart + count > total)
		count = total - wstart;
	ret = blkdev_read(vol->dev, wstart, count, vol->cache);
	if (ret) {
		wstart = lba;
		count = 1;
		ret = blkdev_read(vol->dev, lba, 1, vol->cache);
	}
	if (ret)
		return set_why(vol, ret, "reading LBA %lu failed: %s",
			       (unsigned long)lba, err_text(ret));
	vol->cache_lba = wstart;
	vol->cache_count = count;
	vol->blk = vol->cache + (lba - wstart) * BLKDEV_BLOCK_SIZE;
	return 0;
}

static uint32_t sec_to_block(const struct fat_vol *vol, uint32_t sec)
{
	return sec * vol->blocks_per_sec;
}

static uint32_t cluster_to_block(const struct fat_vol *vol, uint32_t clus)
{
	return sec_to_block(vol, vol->data_sec + (clus - 2) * vol->sec_per_clus);
}

static int cluster_valid(const struct fat_vol *vol, uint32_t clus)
{
	return clus >= 2 && clus - 2 < vol->nclusters;
}

/* A byte of the active FAT at byte offset off. */
static int fat_byte(struct fat_vol *vol, uint32_t off, uint8_t *b)
{
	int ret = vol_block(vol, sec_to_block(vol, vol->fat_sec) + off / BLKDEV_BLOCK_SIZE);

	if (ret)
		return ret;
	*b = vol->blk[off % BLKDEV_BLOCK_SIZE];
	return 0;
}

/* The FAT entry of clus, classified: a next cluster, FAT_NEXT_EOC,
 * FAT_NEXT_BAD or FAT_NEXT_FREE. Values beyond the volume count as bad. */
static int fat_next(struct fat_vol *vol, uint32_t clus, uint32_t *next)
{
	uint32_t v, eoc_min, bad;
	int ret;

	if (vol->type == 12) {
		/* 12-bit entries may straddle two blocks: byte by byte. */
		uint32_t off = clus + clus / 2;
		uint8_t b0, b1;

		ret = fat_byte(vol, off, &b0);
		if (!ret)
			ret = fat_byte(vol, off + 1, &b1);
		if (ret)
			return ret;
		v = (uint32_t)b0 | ((uint32_t)b1 << 8);
		v = (clus & 1) ? v >> 4 : v & 0xFFF;
		eoc_min = 0xFF8;
		bad = 0xFF7;
	} else {
		/* 16- and 32-bit entries are aligned: never split. */
		uint32_t size = vol->type / 8, off = clus * size;

		ret = vol_block(vol, sec_to_block(vol, vol->fat_sec) + off / BLKDEV_BLOCK_SIZE);
		if (ret)
			return ret;
		if (vol->type == 16) {
			v = blkdev_le16(vol->blk + off % BLKDEV_BLOCK_SIZE);
			eoc_min = 0xFFF8;
			bad = 0xFFF7;
		} else {
			/* the top 4 bits are reserved */
			v = blkdev_le32(vol->blk + off % BLKDEV_BLOCK_SIZE) & 0x0FFFFFFF;
			eoc_min = 0x0FFFFFF8;
			bad = 0x0FFFFFF7;
		}
	}
	if (v == 0)
		*next = FAT_NEXT_FREE;
	else if (v >= eoc_min)
		*next = FAT_NEXT_EOC;
	else if (v == bad || !cluster_valid(vol, v))
		*next = FAT_NEXT_BAD;
	else
		*next = v;
	return 0;
}

int fat_mount(struct fat_vol *vol, const struct blkdev *dev, uint32_t part_lba,
	      uint32_t part_blocks)
{
	struct bpb b;
	const char *w;
	uint32_t active = 0;
	int ret;

	memset(vol, 0, sizeof(*vol));
	vol->dev = dev;
	vol->part_lba = part_lba;
	vol->part_blocks = part_blocks;
	ret = vol_block(vol, 0);
	if (ret)
		return ret;
	w = bpb_decode(vol->blk, &b);
	if (w)
		return set_why(vol, -EINVAL, "LBA %lu: not a FAT boot sector: %s",
			       (unsigned long)part_lba, w);
	vol->type = b.type;
	vol->nfats = (uint8_t)b.nfats;
	vol->bytes_per_sec = (uint16_t)b.bps;
	vol->blocks_per_sec = b.bps / BLKDEV_BLOCK_SIZE;
	vol->sec_per_clus = b.spc;
	vol->cluster_bytes = b.spc * b.bps;
	vol->total_sec = b.tot_sec;
	if (b.ext_flags & EXTFLAGS_NO_MIRROR)
		active = b.ext_flags & EXTFLAGS_ACTIVE_MASK;
	vol->fat_secs = b.fat_sz;
	vol->fat_sec = b.rsvd + active * b.fat_sz;
	vol->root_sec = b.rsvd + b.nfats * b.fat_sz;
	vol->root_entries = b.root_ents;
	vol->root_cluster = b.root_clus;
	vol->data_sec = vol->root_sec + b.root_secs;
	vol->nclusters = b.nclusters;
	if (part_blocks && sec_to_block(vol, b.tot_sec) > part_blocks)
		return set_why(vol, -EINVAL,
			       "the FAT volume at LBA %lu (%lu blocks) is larger than its "
			       "partition (%lu blocks)", (unsigned long)part_lba,
			       (unsigned long)sec_to_block(vol, b.tot_sec),
			       (unsigned long)part_blocks);
	vol->why[0] = 0;
	return 0;
}

int fat_mount_boot(struct fat_vol *vol, const struct blkdev *dev, const struct mbr_info *mi)
{
	int pass, ret = -ENOENT;

	memset(vol, 0, sizeof(*vol));
	switch (mi->kind) {
	case MBR_OK:
		break;
	case MBR_SUPERFLOPPY:
		return fat_mount(vol, dev, 0, mi->parts[0].count);
	case MBR_GPT:
		return set_why(vol, -ENOTSUP, "GPT cards are not supported");
	case MBR_EMPTY:
		return set_why(vol, -ENOENT, "the card has no partitions");
	default:
		return set_why(vol, -EINVAL, "the partition table is unusable (%s)",
			       mbr_kind_name(mi->kind));
	}
	/* FAT type IDs first (the firmware's choice), then any primary
	 * partition that carries a FAT file system despite its type. */
	for (pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < mi->nparts; i++) {
			const struct mbr_part *p = &mi->parts[i];

			if (p->flags & (MBR_PART_LOGICAL | MBR_PART_EXTENDED))
				continue;
			if (!!mbr_type_is_fat(p->type) != (pass == 0))
				continue;
			ret = fat_mount(vol, dev, p->first_lba, p->count);
			if (ret == 0)
				return 0;
		}
	}
	return set_why(vol, -ENOENT, "no primary partition holds a FAT file system");
}

int fat_name83(const char *name, char out[12])
{
	int i = 0, n;

	memset(out, ' ', 11);
	out[11] = 0;
	for (n = 0; name[i] && name[i] != '.'; i++, n++) {
		if (n == 8)
			return -EINVAL;
		out[n] = name[i];
	}
	if (n == 0)
		return -EINVAL;
	if (name[i] == '.') {
		i++;
		for (n = 8; name[i]; i++, n++) {
			if (n == 11 || name[i] == '.')
				return -EINVAL;
			out[n] = name[i];
		}
	}
	for (n = 0; n < 11; n++) {
		char c = out[n];

		if (c >= 'a' && c <= 'z')
			out[n] = (char)(c - 'a' + 'A');
		else if ((unsigned char)c < 0x20 || c == '/' || c == '\\' || c == '*' ||
			 c == '?' || c == '"' || c == ':' || c == '<' || c == '>' || c == '|')
			return -EINVAL;
	}
	return 0;
}

/*
 * Examine one 32-byte directory entry. Returns 1 when it is the wanted
 * file (de filled in), 2 at the end-of-directory marker, 0 otherwise.
 */
static int dir_match(const uint8_t *e, const char *want, struct fat_dirent *de)
{
	uint8_t attr = e[DIR_ATTR];
	char name[11];

	if (e[DIR_NAME] == DIR_NAME_END)
		return 2;
	if (e[DIR_NAME] == DIR_NAME_FREE)
		return 0;
	if ((attr & FAT_ATTR_LFN) == FAT_ATTR_LFN)
		return 0;
	if (attr & (FAT_ATTR_VOLUME_ID | FAT_ATTR_DIRECTORY))
		return 0;
	memcpy(name, e + DIR_NAME, 11);
	if ((uint8_t)name[0] == DIR_NAME_KANJI_E5)
		name[0] = (char)DIR_NAME_FREE;
	if (memcmp(name, want, 11) != 0)
		return 0;
	memcpy(de->name, e + DIR_NAME, 11);
	de->name[11] = 0;
	de->attr = attr;
	de->first_cluster = blkdev_le16(e + DIR_FSTCLUSLO);
	de->size = blkdev_le32(e + DIR_FILESIZE);
	return 1;
}

/* Scan nblocks directory blocks starting at volume block vblock. */
static int dir_scan(struct fat_vol *vol, uint32_t vblock, uint32_t nblocks,
		    const char *want, struct fat_dirent *de)
{
	for (uint32_t b = 0; b < nblocks; b++) {
		int ret = vol_block(vol, vblock + b);

		if (ret)
			return ret;
		for (unsigned off = 0; off < BLKDEV_BLOCK_SIZE; off += DIR_ENTRY_SIZE) {
			int m = dir_match(vol->blk + off, want, de);

			if (m == 1) {
				if (vol->type == 32)
					de->first_cluster |= (uint32_t)blkdev_le16(
						vol->blk + off + DIR_FSTCLUSHI) << 16;
				return 1;
			}
			if (m == 2)
				return 2;
		}
	}
	return 0;
}

int fat_find_root(struct fat_vol *vol, const char *name, struct fat_dirent *de)
{
	char want[12];
	int ret;

	if (fat_name83(name, want))
		return set_why(vol, -EINVAL, "\"%s\" is not an 8.3 file name", name);
	memset(de, 0, sizeof(*de));
	if (vol->type != 32) {
		uint32_t nblocks = (vol->root_entries * DIR_ENTRY_SIZE + BLKDEV_BLOCK_SIZE - 1) /
				   BLKDEV_BLOCK_SIZE;

		ret = dir_scan(vol, sec_to_block(vol, vol->root_sec), nblocks, want, de);
	} else {
		/* The root directory's chain, bounded by the largest legal
		 * directory (a loop in the FAT ends here as an error). */
		uint32_t clus = vol->root_cluster, max = FAT_MAX_DIR_BYTES / vol->cluster_bytes;

		ret = 0;
		for (uint32_t n = 0; ret == 0; n++) {
			if (n > max || !cluster_valid(vol, clus))
				return set_why(vol, -EIO, "the root directory's cluster chain "
					       "is broken or too long");
			ret = dir_scan(vol, cluster_to_block(vol, clus),
				       sec_to_block(vol, vol->sec_per_clus), want, de);
			if (ret)
				break;
			ret = fat_next(vol, clus, &clus);
			if (ret)
				return ret;
			if (clus == FAT_NEXT_EOC)
				break;
		}
	}
	if (ret < 0)
		return ret;
	if (ret != 1)
		return set_why(vol, -ENOENT, "%s not found in the root directory", name);
	vol->why[0] = 0;
	return 0;
}

/* "SDBENCH DAT" -> "SDBENCH.DAT" for messages. */
static const char *pretty(const struct fat_dirent *de, char out[13])
{
	int n = 0, i;

	for (i = 0; i < 8 && de->name[i] != ' '; i++)
		out[n++] = de->name[i];
	if (de->name[8] != ' ') {
		out[n++] = '.';
		for (i = 8; i < 11 && de->name[i] != ' '; i++)
			out[n++] = de->name[i];
	}
	out[n] = 0;
	return out;
}

/* Clusters a file of this size occupies. */
static uint32_t clusters_for(const struct fat_vol *vol, uint32_t size)
{
	return (uint32_t)(((uint64_t)size + vol->cluster_bytes - 1) / vol->cluster_bytes);
}

int fat_read_file(struct fat_vol *vol, const struct fat_dirent *de, void *buf, uint32_t cap)
{
	uint8_t *out = buf;
	char nm[13];
	uint32_t clus = de->first_cluster, need = clusters_for(vol, de->size), done = 0;
	uint32_t blocks_per_clus = sec_to_block(vol, vol->sec_per_clus);

	if (de->size > cap)
		return set_why(vol, -EFBIG, "%s is %lu bytes, more than %lu",
			       pretty(de, nm), (unsigned long)de->size, (unsigned long)cap);
	if (de->size == 0)
		return 0;
	if (need > vol->nclusters)
		return set_why(vol, -EIO, "%s is larger than its volume", pretty(de, nm));
	for (uint32_t i = 0; i < need; i++) {
		int ret;

		if (!cluster_valid(vol, clus))
			return set_why(vol, -EIO, "%s: broken cluster chain", pretty(de, nm));
		for (uint32_t b = 0; b < blocks_per_clus && done < de->size; b++) {
			uint32_t n = de->size - done;

			ret = vol_block(vol, cluster_to_block(vol, clus) + b);
			if (ret)
				return ret;
			if (n > BLKDEV_BLOCK_SIZE)
				n = BLKDEV_BLOCK_SIZE;
			memcpy(out + done, vol->blk, n);
			done += n;
		}
		if (i + 1 < need) {
			ret = fat_next(vol, clus, &clus);
			if (ret)
				return ret;
		}
	}
	vol->why[0] = 0;
	return (int)done;
}

int fat_file_extent(struct fat_vol *vol, const struct fat_dirent *de, struct lba_range *ext)
{
	uint32_t clus = de->first_cluster, need, first_block, nblocks;
	char nm[13];

	ext->first = ext->count = 0;
	nblocks = de->size / BLKDEV_BLOCK_SIZE;
	if (nblocks == 0)
		return set_why(vol, -EINVAL, "%s is smaller than one block", pretty(de, nm));
	need = clusters_for(vol, de->size);
	if (need > vol->nclusters || !cluster_valid(vol, clus))
		return set_why(vol, -EINVAL, "%s: its size or first cluster lies outside "
			       "the volume", pretty(de, nm));
	/* Walk exactly the clusters the size needs: each must be followed by
	 * the next one (so no loop is possible); the last may end the chain or
	 * continue into space allocated beyond the size. */
	for (uint32_t i = 0; i < need; i++) {
		uint32_t next;
		int ret = fat_next(vol, clus + i, &next);

		if (ret)
			return ret;
		if (i + 1 < need && next != clus + i + 1) {
			if (next == FAT_NEXT_EOC || next == FAT_NEXT_FREE || next == FAT_NEXT_BAD)
				return set_why(vol, -EINVAL, "%s: the cluster chain ends "
					       "after %lu of %lu clusters", pretty(de, nm),
					       (unsigned long)(i + 1), (unsigned long)need);
			return set_why(vol, -EINVAL, "%s is fragmented: cluster %lu is "
				       "followed by %lu (after %lu of %lu clusters)", pretty(de, nm),
				       (unsigned long)(clus + i), (unsigned long)next,
				       (unsigned long)(i + 1), (unsigned long)need);
		}
		if (i + 1 == need && (next == FAT_NEXT_FREE || next == FAT_NEXT_BAD))
			return set_why(vol, -EINVAL, "%s: the last cluster's FAT entry "
				       "is free or bad", pretty(de, nm));
	}
	/* Every other FAT entry: none may point into the run. Bounded by the
	 * cluster count; the run's own links are skipped. */
	for (uint32_t c = 2; c - 2 < vol->nclusters; c++) {
		uint32_t next;
		int ret;

		if (c - clus < need)
			continue;
		ret = fat_next(vol, c, &next);
		if (ret)
			return ret;
		if (next - clus < need)
			return set_why(vol, -EINVAL, "%s is cross-linked: cluster %lu (not part "
				       "of it) links to its cluster %lu; repair the file system "
				       "(fsck.vfat, chkdsk)", pretty(de, nm), (unsigned long)c,
				       (unsigned long)next);
	}
	first_block = cluster_to_block(vol, clus);
	if ((uint64_t)first_block + nblocks > sec_to_block(vol, vol->total_sec))
		return set_why(vol, -EINVAL, "%s extends past its volume", pretty(de, nm));
	ext->first = vol->part_lba + first_block;
	ext->count = nblocks;
	vol->why[0] = 0;
	return 0;
}

/* Cluster clus lies in one of the runs of clusters r[0..n) (first, count). */
static int in_runs(const struct lba_range *r, unsigned n, uint32_t clus)
{
	for (unsigned i = 0; i < n; i++)
		if (clus - r[i].first < r[i].count)
			return 1;
	return 0;
}

/* Walk the need clusters of de's chain into runs of clusters r[0..*n). */
static int chain_runs(struct fat_vol *vol, const struct fat_dirent *de, uint32_t need,
		      struct lba_range *r, unsigned max, unsigned *n)
{
	uint32_t clus = de->first_cluster, next = 0;
	char nm[13];

	*n = 0;
	for (uint32_t i = 0; i < need; i++, clus = next) {
		int ret;

		if (in_runs(r, *n, clus))
			return set_why(vol, -EINVAL, "%s: its cluster chain loops back to "
				       "cluster %lu", pretty(de, nm), (unsigned long)clus);
		if (*n && r[*n - 1].first + r[*n - 1].count == clus) {
			r[*n - 1].count++;
		} else if (*n == max) {
			return set_why(vol, -EINVAL, "%s is fragmented into more than %u pieces",
				       pretty(de, nm), max);
		} else {
			r[*n].first = clus;
			r[*n].count = 1;
			(*n)++;
		}
		ret = fat_next(vol, clus, &next);
		if (ret)
			return ret;
		if (i + 1 < need && next == FAT_NEXT_EOC)
			return set_why(vol, -EINVAL, "%s is shorter than its directory entry "
				       "says: the chain ends after %lu of %lu clusters",
				       pretty(de, nm), (unsigned long)(i + 1), (unsigned long)need);
		if (i + 1 < need && (next == FAT_NEXT_FREE || next == FAT_NEXT_BAD))
			return set_why(vol, -EINVAL, "%s: the cluster chain is broken after %lu "
				       "of %lu clusters (a %s cluster)", pretty(de, nm),
				       (unsigned long)(i + 1), (unsigned long)need,
				       next == FAT_NEXT_FREE ? "free" : "bad or out-of-range");
	}
	if (next != FAT_NEXT_EOC)
		return set_why(vol, -EINVAL, "%s: the cluster chain goes on past the %lu "
			       "clusters its size needs", pretty(de, nm), (unsigned long)need);
	return 0;
}

int fat_file_chain(struct fat_vol *vol, const struct fat_dirent *de, struct lba_range *ext,
		   unsigned max, unsigned *n)
{
	uint32_t need, left, per_clus = sec_to_block(vol, vol->sec_per_clus);
	uint32_t vol_blocks = sec_to_block(vol, vol->total_sec);
	char nm[13];
	int ret;

	*n = 0;
	left = de->size / BLKDEV_BLOCK_SIZE;
	if (left == 0)
		return set_why(vol, -EINVAL, "%s is smaller than one block", pretty(de, nm));
	need = clusters_for(vol, de->size);
	if (need > vol->nclusters || !cluster_valid(vol, de->first_cluster))
		return set_why(vol, -EINVAL, "%s: its size or first cluster lies outside "
			       "the volume", pretty(de, nm));
	ret = chain_runs(vol, de, need, ext, max, n);
	if (ret)
		return ret;
	/* No other FAT entry may link into the chain (bounded by the count). */
	for (uint32_t c = 2; c - 2 < vol->nclusters; c++) {
		uint32_t next;

		if (in_runs(ext, *n, c))
			continue;
		ret = fat_next(vol, c, &next);
		if (ret)
			return ret;
		if (next >= 2 && next < FAT_NEXT_BAD && in_runs(ext, *n, next))
			return set_why(vol, -EINVAL, "%s is cross-linked: cluster %lu (not part "
				       "of it) links to its cluster %lu; repair the file system "
				       "(fsck.vfat, chkdsk)", pretty(de, nm), (unsigned long)c,
				       (unsigned long)next);
	}
	/* Clusters to blocks, in file order, trimmed to the size. */
	for (unsigned i = 0; i < *n; i++) {
		uint32_t first = cluster_to_block(vol, ext[i].first);
		uint32_t count = ext[i].count * per_clus;

		if (count > left)
			count = left;
		left -= count;
		if ((uint64_t)first + count > vol_blocks)
			return set_why(vol, -EINVAL, "%s extends past its volume", pretty(de, nm));
		ext[i].first = vol->part_lba + first;
		ext[i].count = count;
	}
	while (*n && ext[*n - 1].count == 0) /* a last cluster holding no whole block */
		(*n)--;
	vol->why[0] = 0;
	return 0;
}

/*
 * storage.c - the read-only probe of a card before a run (see storage.h).
 */
#include <string.h>

#include "bench/storage/storage.h"
#include "bench/storage/config_card.h"
#include "lib/err.h"
#include "lib/fmt.h"
#include "lib/json.h"

/* A table sdbench can decide a test area on (test_area.c's switch). */
static bool table_usable(const struct mbr_info *mi)
{
	return mi->kind == MBR_OK || mi->kind == MBR_EMPTY || mi->kind == MBR_SUPERFLOPPY;
}

int storage_probe(struct storage *st, const struct blkdev *dev)
{
	struct lba_range r;
	char from[40];

	memset(st, 0, sizeof(*st));
	st->mbr_status = mbr_parse(&st->mbr, dev);
	config_init(&st->cfg);
	st->config_status = config_load_card(&st->cfg, dev, &st->mbr);
	/* A file that exists but could not be read (a broken FAT, a read
	 * error): its settings are unknown, so nothing is written (config.h).
	 * A card without one uses defaults; a card whose partition table
	 * sdbench cannot use (GPT, unreadable) has no test area anyway, and
	 * the table's reason says why. */
	if (st->config_status < 0 && st->config_status != -ENOENT && table_usable(&st->mbr))
		config_unreadable_file(&st->cfg, err_name(st->config_status));
	/* Right after sdbench.txt: the root directory is still in the
	 * volume's cache, so a card without the file costs no read. */
	st->results_status = results_file_find(&st->results, config_card_volume());
	/* A refused range names its line in the file. */
	fmt_snprintf(from, sizeof(from), "from sdbench.txt line %u",
		     (unsigned)st->cfg.v[CFG_TEST_AREA].line);
	st->area_status = test_area_choose_from(&st->area, dev, &st->mbr,
						config_range(&st->cfg, CFG_TEST_AREA, &r) ? &r : NULL,
						from);
	/* A configuration not read whole (or an unreadable test_area): no
	 * writes, not the area the rules would find. */
	if (config_bad(&st->cfg, CFG_TEST_AREA)) {
		char why[CONFIG_MSG_LEN];

		if (config_no_writes_why(&st->cfg))
			fmt_snprintf(why, sizeof(why), "%s", config_no_writes_why(&st->cfg));
		else
			fmt_snprintf(why, sizeof(why), "test_area in sdbench.txt line %u could "
				     "not be read", (unsigned)st->cfg.v[CFG_TEST_AREA].line);
		test_area_refuse_bad_config(&st->area, why);
		st->area_status = -EINVAL;
	}
	return st->area_status;
}

void storage_mbr_json(const struct mbr_info *mi, struct json *j)
{
	json_str(j, "kind", mbr_kind_name(mi->kind));
	if (mi->reason[0])
		json_str(j, "reason", mi->reason);
	json_hex(j, "disk_id", mi->disk_id, 8);
	json_u64(j, "total_blocks", mi->total_blocks);
	json_u64(j, "used_end", mi->used_end);
	json_arr_begin(j, "partitions");
	for (unsigned i = 0; i < mi->nparts; i++) {
		const struct mbr_part *p = &mi->parts[i];

		json_obj_begin(j, NULL);
		json_u64(j, "number", p->number);
		json_hex(j, "type", p->type, 2);
		json_str(j, "type_name", mbr_type_name(p->type));
		json_u64(j, "first_lba", p->first_lba);
		json_u64(j, "count", p->count);
		json_bool(j, "active", p->status == 0x80);
		json_bool(j, "extended", (p->flags & MBR_PART_EXTENDED) != 0);
		json_bool(j, "logical", (p->flags & MBR_PART_LOGICAL) != 0);
		json_obj_end(j);
	}
	json_arr_end(j);
	if (mi->kind == MBR_OK || mi->kind == MBR_EMPTY || mi->kind == MBR_SUPERFLOPPY) {
		struct lba_range u[MBR_MAX_PARTS + 1];
		unsigned n = mbr_used_extents(mi, u, MBR_MAX_PARTS + 1);

		json_arr_begin(j, "used_extents");
		for (unsigned i = 0; i < n; i++) {
			json_obj_begin(j, NULL);
			json_u64(j, "first_lba", u[i].first);
			json_u64(j, "count", u[i].count);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
}

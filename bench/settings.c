/*
 * settings.c - see settings.h. The order of the keys matters: a new host
 * initialises the card again in its fastest mode, so bus_mode, the clock
 * cap and the data path follow it.
 */
#include <string.h>

#include "bench/card_report.h"
#include "bench/engine/record.h"
#include "bench/hosts.h"
#include "bench/settings.h"
#include "bench/status_led.h"
#include "drivers/sd/sd_modes.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"
#include "lib/json.h"

#define ORIGIN_LEN 32

/* Where the value of key id came from, for messages. */
static const char *origin(const struct settings *s, enum config_id id, char *buf)
{
	const struct config_value *v = &s->st->cfg.v[id];

	if (v->from_console)
		return "console";
	if (v->from_file) {
		fmt_snprintf(buf, ORIGIN_LEN, "sdbench.txt line %u", (unsigned)v->line);
		return buf;
	}
	return "default";
}

void settings_init(struct settings *s, struct bench_env *env, struct sd_card *card,
		   struct blkdev *dev, struct storage *st, struct write_guard *guard)
{
	s->env = env;
	s->card = card;
	s->dev = dev;
	s->st = st;
	s->guard = guard;
	s->usual_host = env->host ? env->host->name : NULL;
	s->card_max_hz = card->max_clock_hz;
}

/* The card was (re)initialised: its own maximum and size as it says now. */
static void card_fresh(struct settings *s)
{
	s->card_max_hz = s->card->max_clock_hz;
	s->dev->total_blocks = s->card->blocks;
}

/* host: the card moves to the controller asked for (the same card, the
 * same layout). force: also back to the usual one for "auto" (the console;
 * at boot the card is already there). */
static int apply_host(struct settings *s, bool force)
{
	const char *want = config_enum_name(&s->st->cfg, CFG_HOST);
	const char *cur = s->env->host ? s->env->host->name : NULL;
	char o[ORIGIN_LEN];
	int r;

	if (want && !strcmp(want, "auto"))
		want = force ? s->usual_host : NULL;
	if (!want || (cur && !strcmp(want, cur)))
		return 0;
	r = hosts_switch(s->env, s->card, want);
	if (!s->env->host)
		return r ? r : -EIO;	/* no host left: recorded by hosts_switch */
	card_fresh(s);
	if (r || strcmp(s->env->host->name, want)) {
		con_printf("host = %s (%s) refused: the card is on %s\n",
			   config_enum_name(&s->st->cfg, CFG_HOST), origin(s, CFG_HOST, o),
			   s->env->host->name);
		return r ? r : -ENODEV;
	}
	card_report_record(s->card);
	return 0;
}

/* bus_mode: the card was brought up with auto (the fastest both sides
 * accept); a pinned mode initialises it again in that mode, or the next
 * slower one with the reason (sd_init_mode). force: auto again too. */
static int apply_bus_mode(struct settings *s, bool force)
{
	int want = config_enum(&s->st->cfg, CFG_BUS_MODE);
	struct sd_host *h = s->env->host;
	char o[ORIGIN_LEN];
	int r;

	if (want < SD_MODE_AUTO || want >= SD_MODE_COUNT || (want == SD_MODE_AUTO && !force))
		return 0;
	con_printf("\nbus_mode = %s: initialising the card again\n",
		   sd_bus_mode_name((unsigned)want));
	r = sd_init_mode(s->card, h, (unsigned)want);
	if (r) {
		const struct sd_host_err *e = &s->card->last_err;

		record_error_cmd("init", r, e->cmd, e->arg, e->status,
				 "card initialisation in bus_mode %s (%s) failed in the %s phase",
				 sd_bus_mode_name((unsigned)want), origin(s, CFG_BUS_MODE, o),
				 e->phase ? e->phase : "?");
		/* Back to what worked. */
		if (sd_init_mode(s->card, h, SD_MODE_AUTO))
			return r;
	}
	card_fresh(s);
	card_report_print(s->card);
	card_report_record(s->card);
	return r;
}

/* max_clock_hz: an upper bound for the SD clock from here on; the card's
 * maximum is lowered to it, so the clock sweep stops there too. A higher
 * cap than before gives back up to the card's own maximum. */
static int apply_max_clock(struct settings *s)
{
	const struct config *cfg = &s->st->cfg;
	uint32_t cap = config_has(cfg, CFG_MAX_CLOCK_HZ) ?
		(uint32_t)config_u64(cfg, CFG_MAX_CLOCK_HZ) : UINT32_MAX;
	uint32_t hz = cap < s->card_max_hz ? cap : s->card_max_hz;
	char o[ORIGIN_LEN];
	int r;

	if (hz == s->card->max_clock_hz && s->card->clock_hz <= hz)
		return 0;
	s->card->max_clock_hz = hz;
	r = sd_set_bus(s->card, hz, s->card->width);
	if (r)
		record_error("card", r, "max_clock_hz (%s): cannot set the SD clock to %u Hz",
			     origin(s, CFG_MAX_CLOCK_HZ, o), (unsigned)hz);
	else
		con_printf("max_clock_hz: SD clock %u Hz (at most %u Hz)\n",
			   (unsigned)s->card->clock_hz, (unsigned)hz);
	return r;
}

#define EMULATED_PIO ": under QEMU, whose DMA model copies inside the start " \
	"register write and hides the card/bus split (data_path = dma asks for it)"

static void data_path_record(const struct settings *s, const char *want, bool has_dma,
			     const char *why, bool emulated_pio)
{
	const struct sd_host *h = s->env->host;
	struct json *j;

	j = record_begin("data_path");
	json_str(j, "host", h->name);
	json_str(j, "requested", want ? want : "auto");
	json_str(j, "path", h->data_path == SD_PATH_DMA ? "dma" : "pio");
	json_arr_begin(j, "available");
	json_str(j, NULL, "pio");
	if (has_dma)
		json_str(j, NULL, "dma");
	json_arr_end(j);
	if (has_dma)
		json_u64(j, "dma_pio_blocks", h->dma_pio_blocks);
	if (why)
		json_str(j, "refused", why);
	else if (!has_dma && s->env->dma_note)
		json_str(j, "no_dma", s->env->dma_note);
	if (emulated_pio)
		json_str(j, "auto_note", EMULATED_PIO + 2);
	record_end();
}

/* data_path: auto = the path the platform chose for this host on this
 * board (host->auto_path, docs/config.md says which on each board) when the
 * host has it, else PIO; a path the host lacks is refused with the reason,
 * and data keeps moving by PIO. dma_pio_blocks: small requests on the DMA
 * path, the driver's threshold unless set. The "data_path" record says
 * what runs; every "result" record repeats it. */
static int apply_data_path(struct settings *s)
{
	const struct config *cfg = &s->st->cfg;
	struct sd_host *h = s->env->host;
	const char *want = config_enum_name(cfg, CFG_DATA_PATH);
	bool has_dma = sd_host_has_path(h, SD_PATH_DMA);
	bool is_auto = !want || !strcmp(want, "auto");
	bool auto_dma = has_dma && h->auto_path == SD_PATH_DMA;
	/* the platform's choice under QEMU (platform/bcm2835.h, bcm2711.c) */
	bool emulated_pio = s->env->emulated && has_dma && !auto_dma;
	unsigned path = is_auto ? (auto_dma ? SD_PATH_DMA : SD_PATH_PIO) :
		!strcmp(want, "dma") ? SD_PATH_DMA : SD_PATH_PIO;
	const char *why = NULL;
	char o[ORIGIN_LEN];
	int r = 0;

	if (config_has(cfg, CFG_DMA_PIO_BLOCKS))
		h->dma_pio_blocks = (uint32_t)config_u64(cfg, CFG_DMA_PIO_BLOCKS);
	r = sd_host_set_data_path(h, path);
	if (r == -ENOTSUP && path == SD_PATH_PIO)
		r = 0; /* a host without the operation moves data by PIO */
	if (r) {
		why = s->env->dma_note ? s->env->dma_note : "the host has no DMA data path";
		con_printf("\ndata_path = %s (%s) refused: %s (%s); data moves by PIO\n",
			   want, origin(s, CFG_DATA_PATH, o), why, err_name(r));
		(void)sd_host_set_data_path(h, SD_PATH_PIO);
	}
	con_printf("\ndata path: %s%s%s\n", h->data_path == SD_PATH_DMA ? "DMA" : "PIO",
		   is_auto ? " (auto)" : "", is_auto && emulated_pio ? EMULATED_PIO : "");
	data_path_record(s, want, has_dma, why, is_auto && emulated_pio);
	return r;
}

void settings_report_area(const struct settings *s)
{
	const struct test_area *area = &s->st->area;
	struct test_area shown;
	struct json *j;
	char size[24];

	if (area->usable)
		con_printf("\ntest area (writes go only here): LBA %u..%u, %s, %s\n  %s\n",
			   (unsigned)area->first_lba, (unsigned)(area->first_lba + area->count - 1),
			   fmt_size(size, sizeof(size), (uint64_t)area->count * 512u, FMT_SIZE_ABOUT),
			   test_area_source_name(area->source), area->reason);
	else
		con_printf("\nno test area: write workloads will be skipped\n  %s\n  %s\n",
			   area->reason, area->hint);
	if (area->note[0])
		con_printf("  note: %s\n", area->note);
	if (s->card->write_protected)
		con_printf("  the card is write-protected: every write workload is skipped\n");
	/* The record's "usable" says whether writes may happen at all. */
	shown = *area;
	shown.usable = area->usable && !s->card->write_protected;
	j = record_begin("test_area");
	test_area_json(&shown, j);
	json_bool(j, "write_protected", s->card->write_protected);
	record_end();
}

/* test_area from the console: the same decision as at boot with the new
 * range (reads only). A range the rules refuse is refused here, and the
 * area stays as it was, rather than quietly becoming another one. */
static int apply_test_area(struct settings *s)
{
	static struct test_area t;
	struct storage *st = s->st;
	struct lba_range r;
	bool explicit = config_range(&st->cfg, CFG_TEST_AREA, &r);
	int status = test_area_choose_from(&t, s->dev, &st->mbr, explicit ? &r : NULL,
					   "set on the console");

	if (explicit && t.source != TEST_AREA_CONFIG) {
		const char *why = t.note[0] ? t.note : t.reason;
		/* the note says "test_area A+N ... refused: why": the why once */
		const char *tail = strstr(why, "refused: ");

		con_printf("test_area = %lu+%lu (console) refused: %s\n", (unsigned long)r.first,
			   (unsigned long)r.count, tail ? tail + 9 : why);
		return -EINVAL;
	}
	st->area = t;
	st->area_status = status;
	settings_report_area(s);
	return 0;
}

void settings_guard(struct settings *s, const struct config *cfg)
{
	static char why[CONFIG_MSG_LEN + 24];

	/* Rebuilt: the results file's region (results_log.c) stays. */
	write_guard_rebuild(s->guard, s->card, &s->st->area, config_bool(cfg, CFG_WRITE_TESTS));
	if (config_bad(cfg, CFG_WRITE_TESTS)) {
		if (config_no_writes_why(cfg))
			fmt_snprintf(why, sizeof(why), "writes are off: %s",
				     config_no_writes_why(cfg));
		else
			fmt_snprintf(why, sizeof(why), "writes are off: write_tests in sdbench.txt "
				     "line %u could not be read",
				     (unsigned)cfg->v[CFG_WRITE_TESTS].line);
		s->guard->off_why = why;
	}
}

int settings_apply_file(struct settings *s)
{
	int r = apply_host(s, false);

	if (!s->env->host)
		return r ? r : -EIO;
	apply_bus_mode(s, false);
	s->dev->total_blocks = s->card->blocks;
	apply_max_clock(s);
	settings_report_area(s);
	apply_data_path(s);
	/* The one decision where writes may go (the console rebuilds it
	 * before each run from its effective configuration). */
	settings_guard(s, &s->st->cfg);
	status_led_enable(config_bool(&s->st->cfg, CFG_LED));
	return 0;
}

/* One key of "set": applied, or its old value back with the reason (the
 * appliers print it). */
static bool set_one(struct settings *s, enum config_id id, const struct config *old, int r)
{
	if (!r)
		return true;
	s->st->cfg.v[id] = old->v[id];
	return false;
}

unsigned settings_apply_set(struct settings *s, const struct config *want, unsigned changed)
{
	static struct config old;	/* ~5 KiB: not on the stack */
	struct config *cfg = &s->st->cfg;
	const char *host_before = s->env->host ? s->env->host->name : NULL;
	bool moved;
	unsigned refused = 0;

#define CHANGED(id) (changed & (1u << (id)))
	old = *cfg;
	*cfg = *want;
	if (CHANGED(CFG_HOST) && !set_one(s, CFG_HOST, &old, apply_host(s, true)))
		refused++;
	if (!s->env->host)
		return refused + 1;
	moved = !host_before || strcmp(host_before, s->env->host->name);
	/* A card initialised again runs in auto: a pinned mode again. */
	if ((CHANGED(CFG_BUS_MODE) || moved) &&
	    !set_one(s, CFG_BUS_MODE, &old, apply_bus_mode(s, CHANGED(CFG_BUS_MODE))))
		refused++;
	if ((CHANGED(CFG_MAX_CLOCK_HZ) || moved || CHANGED(CFG_BUS_MODE)) &&
	    !set_one(s, CFG_MAX_CLOCK_HZ, &old, apply_max_clock(s)))
		refused++;
	if (CHANGED(CFG_DATA_PATH) || CHANGED(CFG_DMA_PIO_BLOCKS) || moved) {
		if (apply_data_path(s) && CHANGED(CFG_DATA_PATH)) {
			/* The old path again; the threshold stays applied. */
			set_one(s, CFG_DATA_PATH, &old, -EINVAL);
			apply_data_path(s);
			refused++;
		}
	}
	if (CHANGED(CFG_TEST_AREA) && !set_one(s, CFG_TEST_AREA, &old, apply_test_area(s)))
		refused++;
	if (CHANGED(CFG_TEST_AREA) || CHANGED(CFG_WRITE_TESTS))
		settings_guard(s, cfg);
	if (CHANGED(CFG_LED))
		status_led_enable(config_bool(cfg, CFG_LED));
#undef CHANGED
	return refused;
}

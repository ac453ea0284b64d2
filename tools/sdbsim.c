/*
 * sdbsim - run sdbench's whole program on the host against a simulated
 * card: the real card layer, host driver, storage rules, configuration and
 * benchmark suite, over the register-level simulator (sim/). It prints
 * the same console text and "@ " records a Pi prints, so every host tool
 * reads its output like a real run.
 *
 *   sdbsim --profile NAME|FILE [--host NAME|FILE] [--controller emmc|sdhost]
 *          [--config sdbench.txt] [--seed N] [--seed-per-workload]
 *          [--image CARD.img] [--save-image OUT.img]
 *   sdbsim --random-card SEED [--random-host SEED] [--controller ...] [--config ...]
 *   sdbsim --list | --dump-profile NAME|FILE | --dump-host NAME|FILE
 *   sdbsim --random-card SEED [--random-host SEED] --dump-profile | --dump-host
 *
 * Card profiles and host profiles are the simulator's (sim/profiles,
 * sim/hosts, built in) or text files in the same format
 * (sim/README.md, "Profile files"). The simulated card gets a
 * Pi-style layout: an MBR with a 64 MiB FAT32 boot partition holding the
 * given sdbench.txt, the rest unpartitioned (the test area); or, with
 * --image, the first bytes of the card are a card image's (made by
 * qemu/mkimage.py or make image) and --save-image writes that many bytes
 * back out after the run (tests compare them: what sdbench changed).
 *
 * After each workload sdbsim adds a "truth" record (docs/records.md): the
 * card / bus / host shares of what happened on the simulated wires over
 * the workload's measured window, and the critical path. It learns the
 * windows by wrapping the engine's wl_begin / wl_do / wl_end at link time
 * (-Wl,--wrap): the firmware's code is unchanged. What the engine does
 * unmeasured between operations (wl_untimed_begin / wl_untimed_end, also
 * wrapped) is left out of the truth as it is left out of the measurement.
 *
 * Exit status: 0 no errors, 1 the run reported errors, 2 bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/env.h"
#include "bench/engine/record.h"
#include "bench/engine/workload.h"
#include "bench/engine/workload_report.h"
#include "bench/results_log.h"
#include "bench/run.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "sim/sim.h"
#include "sim/sim_gen.h"
#include "harness/sim_board.h"
#include "harness/sim_harness.h"

#define BUF_BYTES (64u << 20)
#define MAX_CONFIG (32u << 10)

static struct simh_board_slot board_slot;

static void usage(FILE *f)
{
	fprintf(f, "usage: sdbsim --profile NAME|FILE [--host NAME|FILE] [--controller emmc|sdhost]\n"
		   "              [--config sdbench.txt] [--seed N]\n"
		   "              [--image CARD.img] [--save-image OUT.img]   (the card starts with\n"
		   "              that image's bytes; its bytes after the run are saved)\n"
		   "              [--seed-per-workload]   (the card's random numbers restart at each\n"
		   "              workload from the seed and its name: runs at other bus settings\n"
		   "              draw the same card latencies)\n"
		   "       sdbsim --random-card SEED [--random-host SEED] ...  (a card, and a host,\n"
		   "              drawn from the physical envelope of sim/README.md; the host's\n"
		   "              controller and data path come with it)\n"
		   "       sdbsim --random-card SEED --dump-profile   (print the generated card)\n"
		   "       sdbsim --random-host SEED --dump-host      (print the generated host)\n"
		   "       sdbsim --list\n"
		   "       sdbsim --dump-profile NAME|FILE    (print a card profile as text)\n"
		   "       sdbsim --dump-host NAME|FILE       (print a host profile as text)\n"
		   "Runs sdbench on a simulated card and prints its console output and records,\n"
		   "with a \"truth\" record per workload. The host defaults to \"sim\"; the\n"
		   "controller is the host profile's SDHCI (emmc), or with --controller sdhost the\n"
		   "SDHOST model (data_path = dma moves its data through the simulated DMA\n"
		   "engine).\n");
}

/* ---- the truth per workload ------------------------------------------------
 * The engine's functions are wrapped at link time (-Wl,--wrap=wl_do ...):
 * the window of a workload runs from just before its first operation to
 * just after its last one, as the firmware measures it. */

void __real_wl_begin(struct wl_ctx *c, struct wl_meas *m, const char *kind, const char *name,
		     const char *label, bool write, enum wl_cmd cmd, uint32_t xfer_blocks,
		     uint64_t planned_bytes);
int __real_wl_do(struct wl_ctx *c, struct wl_meas *m, const struct wl_op *op);
void __real_wl_end(struct wl_ctx *c, struct wl_meas *m);
void __real_wl_report(struct wl_ctx *c, const struct wl_meas *m);
void __wrap_wl_begin(struct wl_ctx *c, struct wl_meas *m, const char *kind, const char *name,
		     const char *label, bool write, enum wl_cmd cmd, uint32_t xfer_blocks,
		     uint64_t planned_bytes);
int __wrap_wl_do(struct wl_ctx *c, struct wl_meas *m, const struct wl_op *op);
void __wrap_wl_end(struct wl_ctx *c, struct wl_meas *m);
void __wrap_wl_report(struct wl_ctx *c, const struct wl_meas *m);
void __real_wl_untimed_begin(struct wl_ctx *c, struct wl_meas *m);
void __real_wl_untimed_end(struct wl_ctx *c, struct wl_meas *m);
void __wrap_wl_untimed_begin(struct wl_ctx *c, struct wl_meas *m);
void __wrap_wl_untimed_end(struct wl_ctx *c, struct wl_meas *m);

#define MAX_OPEN 8

/* A window is open from wl_begin to wl_end, then pending until its truth is
 * printed: right after the workload's result (wl_report), or, for a workload
 * that prints no result, when the next workload begins or the run ends. */
static struct window {
	const struct wl_meas *m;
	bool started, pending;
	char name[48];
	uint32_t ops;
	struct sim_wire_sum first, last;
	struct sim_wire_sum untimed_from; /* at wl_untimed_begin */
	uint64_t untimed_wall, untimed_ns[SIM_W_NCAT], untimed_wait[SIM_W_NCAT];
} open_w[MAX_OPEN];

static void flush_pending(void);
static bool seed_per_workload;

static struct window *window_of(const struct wl_meas *m, bool make)
{
	unsigned i;

	for (i = 0; i < MAX_OPEN; i++)
		if (open_w[i].m == m)
			return &open_w[i];
	if (!make)
		return NULL;
	for (i = 0; i < MAX_OPEN; i++)
		if (!open_w[i].m) {
			memset(&open_w[i], 0, sizeof(open_w[i]));
			open_w[i].m = m;
			return &open_w[i];
		}
	return NULL;
}

void __wrap_wl_begin(struct wl_ctx *c, struct wl_meas *m, const char *kind, const char *name,
		     const char *label, bool write, enum wl_cmd cmd, uint32_t xfer_blocks,
		     uint64_t planned_bytes)
{
	struct window *w;

	flush_pending();
	w = window_of(m, true);
	if (w)
		w->started = false;
	if (seed_per_workload)
		sim_rng_reseed_tag(name);
	__real_wl_begin(c, m, kind, name, label, write, cmd, xfer_blocks, planned_bytes);
}

int __wrap_wl_do(struct wl_ctx *c, struct wl_meas *m, const struct wl_op *op)
{
	struct window *w = window_of(m, true);
	int r;

	if (w && !w->started) {
		sim_wire_totals(&w->first);
		w->started = true;
	}
	r = __real_wl_do(c, m, op);
	if (w)
		sim_wire_totals(&w->last);
	return r;
}

/* What the engine does between timed operations without measuring it
 * (wl_untimed_begin/end) is left out of the window's truth as the engine
 * leaves it out of its measurement. */
void __wrap_wl_untimed_begin(struct wl_ctx *c, struct wl_meas *m)
{
	struct window *w = window_of(m, false);

	if (w && w->started)
		sim_wire_totals(&w->untimed_from);
	__real_wl_untimed_begin(c, m);
}

void __wrap_wl_untimed_end(struct wl_ctx *c, struct wl_meas *m)
{
	struct window *w = window_of(m, false);
	struct sim_wire_sum now, d;
	unsigned k;

	__real_wl_untimed_end(c, m);
	if (!w || !w->started)
		return;
	sim_wire_totals(&now);
	sim_wire_diff(&now, &w->untimed_from, &d);
	w->untimed_wall += d.t_to - d.t_from;
	for (k = 0; k < SIM_W_NCAT; k++) {
		w->untimed_ns[k] += d.ns[k];
		w->untimed_wait[k] += d.wait_ns[k];
	}
}

static void pct_obj(struct json *j, const char *key, const uint64_t *ns, double wall)
{
	unsigned k;

	json_obj_begin(j, key);
	for (k = 0; k < SIM_W_NCAT; k++)
		json_double(j, sim_wcat_name((enum sim_wcat)k), wall > 0 ? 100.0 * ns[k] / wall : 0, 2);
	json_obj_end(j);
}

static void print_truth(const struct window *w, bool records)
{
	struct sim_wire_sum d;
	struct json *j;
	double wall, cc, cb, ch;

	sim_wire_diff(&w->last, &w->first, &d);
	d.t_to -= w->untimed_wall;
	for (unsigned k = 0; k < SIM_W_NCAT; k++) {
		d.ns[k] -= w->untimed_ns[k];
		d.wait_ns[k] -= w->untimed_wait[k];
	}
	wall = (double)(d.t_to - d.t_from);
	sim_wire_critical(&d, &cc, &cb, &ch);
	if (records)
		con_printf("  %-28s truth (simulator): card %.1f%%, bus %.1f%%, host %.1f%%; "
			   "critical path card %.0f%%, bus %.0f%%, host %.0f%%\n", "",
			   100.0 * sim_wire_card_ns(&d) / wall, 100.0 * sim_wire_bus_ns(&d) / wall,
			   100.0 * sim_wire_host_ns(&d) / wall, cc, cb, ch);
	j = record_begin("truth");
	json_str(j, "workload", w->name);
	json_bool(j, "result_printed", records);
	json_u64(j, "ops", w->ops);
	json_u64(j, "window_ns", d.t_to - d.t_from);
	json_double(j, "card_pct", 100.0 * sim_wire_card_ns(&d) / wall, 2);
	json_double(j, "bus_pct", 100.0 * sim_wire_bus_ns(&d) / wall, 2);
	json_double(j, "host_pct", 100.0 * sim_wire_host_ns(&d) / wall, 2);
	json_double(j, "crit_card_pct", cc, 2);
	json_double(j, "crit_bus_pct", cb, 2);
	json_double(j, "crit_host_pct", ch, 2);
	pct_obj(j, "wire_pct", d.ns, wall);
	pct_obj(j, "crit_pct", d.wait_ns, wall);
	json_u64(j, "clock_hz", sim_sd_clock_hz());
	json_u64(j, "width", sim_bus_width());
	record_end();
}

void __wrap_wl_end(struct wl_ctx *c, struct wl_meas *m)
{
	struct window *w = window_of(m, false);

	__real_wl_end(c, m);
	if (!w)
		return;
	if (w->started && m->ops && w->last.t_to > w->first.t_to) {
		size_t i;

		for (i = 0; i + 1 < sizeof(w->name) && m->name[i]; i++)
			w->name[i] = m->name[i];
		w->name[i] = 0;
		w->ops = m->ops;
		w->pending = true;
	} else {
		w->m = NULL;
	}
}

void __wrap_wl_report(struct wl_ctx *c, const struct wl_meas *m)
{
	struct window *w = window_of(m, false);

	__real_wl_report(c, m);
	if (w && w->pending) {
		print_truth(w, true);
		w->pending = false;
		w->m = NULL;
	}
}

static void flush_pending(void)
{
	unsigned i;

	for (i = 0; i < MAX_OPEN; i++)
		if (open_w[i].m && open_w[i].pending) {
			print_truth(&open_w[i], false);
			open_w[i].pending = false;
			open_w[i].m = NULL;
		}
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f) {
		fprintf(stderr, "sdbsim: cannot open %s\n", path);
		return NULL;
	}
	buf = malloc(MAX_CONFIG + 1);
	*len = buf ? fread(buf, 1, MAX_CONFIG + 1, f) : 0;
	fclose(f);
	if (buf && *len > MAX_CONFIG) {
		fprintf(stderr, "sdbsim: %s is larger than %u bytes\n", path, MAX_CONFIG);
		free(buf);
		return NULL;
	}
	return buf;
}

/* The card's first bytes from an image file: blocks that differ from what
 * the card holds (its erased value) are written into the flash store. */
static int load_image(const char *path, uint64_t card_bytes, uint64_t *len)
{
	FILE *f = fopen(path, "rb");
	static uint8_t blk[512], cur[512];
	uint64_t off = 0;

	if (!f) {
		fprintf(stderr, "sdbsim: cannot open %s\n", path);
		return -1;
	}
	while (fread(blk, 1, sizeof(blk), f) == sizeof(blk)) {
		if (off + sizeof(blk) > card_bytes) {
			fprintf(stderr, "sdbsim: %s is larger than the card\n", path);
			fclose(f);
			return -1;
		}
		sim_card_peek(off, cur, sizeof(cur));
		if (memcmp(cur, blk, sizeof(blk)))
			sim_card_poke(off, blk, sizeof(blk));
		off += sizeof(blk);
	}
	fclose(f);
	*len = off;
	return 0;
}

static int save_image(const char *path, uint64_t len)
{
	FILE *f = fopen(path, "wb");
	static uint8_t blk[512];
	uint64_t off;

	if (!f) {
		fprintf(stderr, "sdbsim: cannot create %s\n", path);
		return -1;
	}
	for (off = 0; off < len; off += sizeof(blk)) {
		sim_card_peek(off, blk, sizeof(blk));
		if (fwrite(blk, 1, sizeof(blk), f) != sizeof(blk))
			break;
	}
	if (fclose(f) || off < len) {
		fprintf(stderr, "sdbsim: writing %s failed\n", path);
		return -1;
	}
	return 0;
}

static const char *platform_name(void)
{
	return sim_get_config()->platform == SIM_PLATFORM_BCM2712 ? "bcm2712" : "bcm2835";
}

static void print_board(const struct sim_profile *p)
{
	const struct timer_info *ti = timer_get_info();
	struct json *j;

	con_printf("board: simulator (sdbsim), card profile %s: %s\n", p->name, p->desc);
	if (sim_get_config()->platform == SIM_PLATFORM_BCM2712)
		con_printf("  host profile %s, platform %s (the simulator's Pi 5: no emulator "
			   "models one, nothing here is measured on a Pi 5)\n",
			   sim_get_config()->host_name, platform_name());
	else
		con_printf("  host profile %s\n", sim_get_config()->host_name);
	con_printf("  timestamps: %s, resolution %u ns\n", ti->source,
		   (unsigned)ti->resolution_ns);
	j = record_begin("board");
	json_str(j, "model", "simulator");
	json_str(j, "soc", "sim");
	json_str(j, "profile", p->name);
	json_str(j, "host", sim_get_config()->host_name);
	if (sim_get_config()->soc[0])
		json_str(j, "soc_table", sim_get_config()->soc);
	if (sim_get_config()->platform != SIM_PLATFORM_BCM2835) {
		/* Only beside the default platform's records (tests/golden). */
		json_str(j, "platform", platform_name());
		json_hex(j, "host_base", sim_get_config()->base,
			 sim_get_config()->base > 0xffffffffu ? 10 : 8);
	}
	json_bool(j, "simulated", true);
	json_bool(j, "emulated", false);
	json_obj_begin(j, "timer");
	json_str(j, "source", ti->source);
	json_u64(j, "freq_hz", ti->freq_hz);
	json_u64(j, "resolution_ns", ti->resolution_ns);
	json_obj_end(j);
	record_end();
}

static int dump_profile(const char *what)
{
	struct sim_profile p;
	char err[400];
	static char text[16384];

	if (sim_profile_load(what, &p, err, sizeof(err))) {
		fprintf(stderr, "sdbsim: %s\n", err);
		return 2;
	}
	sim_profile_format(&p, text, sizeof(text));
	fputs(text, stdout);
	return 0;
}

static int dump_host(const char *what)
{
	struct sim_config c;
	char err[400];

	sim_config_default(&c);
	if (sim_host_load(what, &c, err, sizeof(err))) {
		fprintf(stderr, "sdbsim: %s\n", err);
		return 2;
	}
	printf("name = %s\nmmio_read = %uns\nmmio_write = %uns\ndata_read = %uns\n"
	       "data_write = %uns\ntimer_read = %uns\ntick = %uns\nbuffer_blocks = %u\n"
	       "cmd_latency = %uns\ncmd_gap_clocks = %u\nread_gap_clocks = %u\n"
	       "write_nwr_clocks = %u\nplatform = %s\nsdr104 = %s\n", c.host_name, c.mmio_read_ns, c.mmio_write_ns,
	       c.data_read_ns, c.data_write_ns, c.timer_read_ns, c.tick_ns, c.buf_blocks,
	       c.cmd_latency_ns, c.cmd_gap_clocks, c.read_gap_clocks, c.write_nwr_clocks,
	       c.platform == SIM_PLATFORM_BCM2712 ? "bcm2712" : "bcm2835",
	       c.sdr104 ? "yes" : "no");
	return 0;
}

static bool seed_arg(const char *what, const char *v, uint64_t *out)
{
	char *end;

	*out = strtoull(v, &end, 0);
	if (!*v || *end) {
		fprintf(stderr, "sdbsim: %s: '%s' is not a number\n", what, v);
		return false;
	}
	return true;
}

/* --random-card / --random-host (sim/sim_gen.c): the card into p, the host
 * over sc (its controller into *ctrl), or the dump asked for. Returns -1 to
 * go on and run, else the exit status. */
static int generated(const char *card, const char *host, int dump, struct sim_profile *p,
		     struct sim_config *sc, const char **ctrl)
{
	static char text[16384];
	struct sim_gen_host h;
	uint64_t seed;

	if (dump == 1 || (!dump && card)) {
		if (!card) {
			fprintf(stderr, "sdbsim: --dump-profile needs a NAME, a FILE or --random-card\n");
			return 2;
		}
		if (!seed_arg("--random-card", card, &seed))
			return 2;
		sim_gen_card(seed, p);
		if (dump) {
			sim_profile_format(p, text, sizeof(text));
			fputs(text, stdout);
			return 0;
		}
	}
	if (dump == 2 || (!dump && host)) {
		if (!host) {
			fprintf(stderr, "sdbsim: --dump-host needs a NAME, a FILE or --random-host\n");
			return 2;
		}
		if (!seed_arg("--random-host", host, &seed))
			return 2;
		sim_gen_host(seed, &h);
		if (dump) {
			sim_gen_host_format(&h, text, sizeof(text));
			fputs(text, stdout);
			return 0;
		}
		h.c.seed = sc->seed;
		*sc = h.c;
		if (h.path == SIM_GEN_SDHOST_PIO || h.path == SIM_GEN_SDHOST_DMA)
			*ctrl = "sdhost";
		if (h.path == SIM_GEN_SDHOST_DMA)
			fprintf(stderr, "sdbsim: host %s moves data by the DMA engine: give "
				"data_path = dma in --config to use it\n", h.c.host_name);
		if (h.path == SIM_GEN_EMMC_DMA)
			fprintf(stderr, "sdbsim: host %s: sdbsim moves the EMMC's data by PIO "
				"(its DMA-engine path runs in test_bench_accuracy)\n", h.c.host_name);
	}
	return -1;
}

int main(int argc, char **argv)
{
	const char *profile = NULL, *config = NULL, *host = "sim", *ctrl = "emmc";
	const char *image = NULL, *save = NULL;
	uint64_t image_len = 0;
	const char *random_card = NULL, *random_host = NULL;
	int dump_gen = 0;
	static struct sim_profile p;
	struct sim_config sc;
	struct bench_env env;
	char *txt = NULL, err[400];
	size_t len = 0;
	unsigned errors;
	uint64_t t0;
	int i;

	sim_config_default(&sc);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--profile") && i + 1 < argc) {
			profile = argv[++i];
		} else if (!strcmp(argv[i], "--host") && i + 1 < argc) {
			host = argv[++i];
		} else if (!strcmp(argv[i], "--controller") && i + 1 < argc) {
			ctrl = argv[++i];
			if (strcmp(ctrl, "emmc") && strcmp(ctrl, "sdhost")) {
				fprintf(stderr, "sdbsim: --controller: emmc or sdhost, not '%s'\n", ctrl);
				return 2;
			}
		} else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
			config = argv[++i];
		} else if (!strcmp(argv[i], "--image") && i + 1 < argc) {
			image = argv[++i];
		} else if (!strcmp(argv[i], "--save-image") && i + 1 < argc) {
			save = argv[++i];
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			sc.seed = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--seed-per-workload")) {
			seed_per_workload = true;
		} else if (!strcmp(argv[i], "--random-card") && i + 1 < argc) {
			random_card = argv[++i];
		} else if (!strcmp(argv[i], "--random-host") && i + 1 < argc) {
			random_host = argv[++i];
		} else if (!strcmp(argv[i], "--dump-profile") &&
			   (i + 1 == argc || !strncmp(argv[i + 1], "--", 2))) {
			dump_gen = 1;
		} else if (!strcmp(argv[i], "--dump-host") &&
			   (i + 1 == argc || !strncmp(argv[i + 1], "--", 2))) {
			dump_gen = 2;
		} else if (!strcmp(argv[i], "--dump-profile") && i + 1 < argc) {
			return dump_profile(argv[++i]);
		} else if (!strcmp(argv[i], "--dump-host") && i + 1 < argc) {
			return dump_host(argv[++i]);
		} else if (!strcmp(argv[i], "--list")) {
			unsigned k;

			printf("card profiles (--profile):\n");
			for (k = 0; k < sim_profile_count(); k++)
				printf("  %-22s %s\n", sim_profile_get(k)->name, sim_profile_get(k)->desc);
			printf("hosts (--host):\n");
			for (k = 0; k < sim_host_count(); k++)
				printf("  %-22s %s\n", sim_host_name(k), sim_host_desc(k));
			return 0;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "sdbsim: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (random_card || random_host || dump_gen) {
		int r = generated(random_card, random_host, dump_gen, &p, &sc, &ctrl);

		if (r >= 0)
			return r;
		profile = p.name;
	}
	if (!profile) {
		usage(stderr);
		return 2;
	}
	if (random_card) {
		/* the generated card is in p */
	} else if (sim_profile_load(profile, &p, err, sizeof(err))) {
		fprintf(stderr, "sdbsim: %s%s\n", err, strchr(profile, '/') || strchr(profile, '.') ?
			"" : " (sdbsim --list shows the built-in profiles)");
		return 2;
	}
	if (!random_host) {
		uint64_t seed = sc.seed;

		if (sim_host_load(host, &sc, err, sizeof(err))) {
			fprintf(stderr, "sdbsim: %s%s\n", err, strchr(host, '/') || strchr(host, '.') ?
				"" : " (sdbsim --list shows the built-in hosts)");
			return 2;
		}
		sc.seed = seed;
	}
	if (sc.soc[0]) {
		/* A host profile of a real board: the simulated board is its
		 * SoC's table (platform/<soc>.c), the card on the controller
		 * asked for where that SoC has it. */
		if (!sim_soc_place(sc.soc, strcmp(ctrl, "sdhost") ? NULL : ctrl, &sc)) {
			fprintf(stderr, "sdbsim: host %s: the %s's SD slot has no controller %s\n",
				sc.host_name, sc.soc, ctrl);
			return 2;
		}
	} else if (!strcmp(ctrl, "sdhost")) {
		/* SDHOST at its BCM2835 address; its input clock is the core
		 * clock (the simulator's base clock, 250 MHz by default). */
		sc.sdhost = true;
		sc.base = 0x20202000u;
	}
	if (config && !(txt = read_file(config, &len)))
		return 2;
	if (sim_setup(&sc, &p)) {
		fprintf(stderr, "sdbsim: the simulator refused profile '%s'\n", profile);
		return 2;
	}
	if (save && !image) {
		fprintf(stderr, "sdbsim: --save-image needs --image\n");
		return 2;
	}
	if (image) {
		if (config) {
			fprintf(stderr, "sdbsim: --config and --image: sdbench.txt is the image's\n");
			return 2;
		}
		if (load_image(image, p.real_bytes ? p.real_bytes : p.capacity_bytes, &image_len))
			return 2;
	} else if (sim_layout_pi_card(p.real_bytes ? p.real_bytes : p.capacity_bytes, txt, len)) {
		fprintf(stderr, "sdbsim: card profile '%s' is too small for a boot partition "
			"and a test area\n", profile);
		return 2;
	}
	free(txt);

	timer_init(0);
	t0 = timer_now_us();
	results_log_start();
	con_printf("\nsdbench (simulated card) - SD card benchmark at the protocol layer\n");
	print_board(sim_get_profile());

	/* The simulator's board built by the firmware's slot builder: the
	 * host profile's SDHCI, or SDHOST first with --controller sdhost. */
	simh_program_env(&env, &board_slot, BUF_BYTES);
	errors = bench_main(&env);
	flush_pending();
	record_done(timer_now_us() - t0);
	free(env.buf);
	if (save && save_image(save, image_len))
		return 2;
	return errors ? 1 : 0;
}

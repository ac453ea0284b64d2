/*
 * sdbsim - run sdbench's whole program on the host against a simulated
 * card: the real card layer, host driver, storage rules, configuration and
 * benchmark suite, over the register-level simulator (tests/sim). It prints
 * the same console text and "@ " records a Pi prints, so every host tool
 * reads its output like a real run.
 *
 *   sdbsim --profile NAME [--config sdbench.txt] [--seed N]
 *
 * The simulated card gets a Pi-style layout: an MBR with a 64 MiB FAT32
 * boot partition holding the given sdbench.txt, the rest unpartitioned
 * (the test area). Exit status: 0 no errors, 1 the run reported errors,
 * 2 bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/env.h"
#include "bench/engine/record.h"
#include "bench/run.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "drivers/timer.h"
#include "lib/console.h"
#include "tests/sim/sim.h"

#define BUF_BYTES (64u << 20)
#define MAX_CONFIG (32u << 10)

static struct sdhci_host emmc;

static void usage(FILE *f)
{
	fprintf(f, "usage: sdbsim --profile NAME [--config sdbench.txt] [--seed N]\n"
		   "       sdbsim --list\n"
		   "Runs sdbench on a simulated card and prints its console output and records.\n");
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

static void print_board(const struct sim_profile *p)
{
	const struct timer_info *ti = timer_get_info();
	struct json *j;

	con_printf("board: simulator (sdbsim), card profile %s: %s\n", p->name, p->desc);
	con_printf("  timestamps: %s, resolution %u ns\n", ti->source,
		   (unsigned)ti->resolution_ns);
	j = record_begin("board");
	json_str(j, "model", "simulator");
	json_str(j, "soc", "sim");
	json_str(j, "profile", p->name);
	json_bool(j, "simulated", true);
	json_bool(j, "emulated", false);
	json_obj_begin(j, "timer");
	json_str(j, "source", ti->source);
	json_u64(j, "freq_hz", ti->freq_hz);
	json_u64(j, "resolution_ns", ti->resolution_ns);
	json_obj_end(j);
	record_end();
}

int main(int argc, char **argv)
{
	const char *profile = NULL, *config = NULL;
	const struct sim_profile *p;
	struct sim_config sc;
	struct bench_env env;
	char *txt = NULL;
	size_t len = 0;
	unsigned errors;
	uint64_t t0;
	int i;

	sim_config_default(&sc);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--profile") && i + 1 < argc) {
			profile = argv[++i];
		} else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
			config = argv[++i];
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			sc.seed = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--list")) {
			unsigned k;

			for (k = 0; k < sim_profile_count(); k++)
				printf("%-22s %s\n", sim_profile_get(k)->name, sim_profile_get(k)->desc);
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
	if (!profile) {
		usage(stderr);
		return 2;
	}
	p = sim_profile_find(profile);
	if (!p) {
		fprintf(stderr, "sdbsim: no card profile '%s' (sdbsim --list shows them)\n",
			profile);
		return 2;
	}
	if (config && !(txt = read_file(config, &len)))
		return 2;
	if (sim_setup(&sc, p)) {
		fprintf(stderr, "sdbsim: the simulator refused profile '%s'\n", profile);
		return 2;
	}
	if (sim_layout_pi_card(p->real_bytes ? p->real_bytes : p->capacity_bytes, txt, len)) {
		fprintf(stderr, "sdbsim: card profile '%s' is too small for a boot partition "
			"and a test area\n", profile);
		return 2;
	}
	free(txt);

	timer_init(0);
	t0 = timer_now_us();
	con_printf("\nsdbench (simulated card) - SD card benchmark at the protocol layer\n");
	print_board(p);

	memset(&env, 0, sizeof(env));
	env.emulated = false;
	env.board_model = "simulator";
	/* The simulator's platform: its controller, base clock from the
	 * capabilities register as under QEMU. */
	env.host_error = bcm2835_emmc_init(&emmc, sim_get_config()->base, 0);
	env.host = env.host_error ? NULL : &emmc.host;
	env.host_error_what = "the simulated EMMC host controller did not initialise";
	env.host_error_base = sim_get_config()->base;
	env.buf = malloc(BUF_BYTES);
	env.buf_bytes = env.buf ? BUF_BYTES : 0;
	errors = bench_main(&env);
	record_done(timer_now_us() - t0);
	free(env.buf);
	return errors ? 1 : 0;
}

/*
 * sim_harness.c - see sim_harness.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/dma/bcm2835_dma.h"
#include "drivers/sdhci/bcm2711_emmc2.h"
#include "drivers/sdhci/bcm2712_sdhci.h"
#include "drivers/sdhci/bcm2835_emmc.h"
#include "platform/sd_io_pi5.h"
#include "lib/err.h"
#include "harness/sim_board.h"
#include "harness/sim_harness.h"
#include "bench/engine/workload.h"
#include "bench/storage/write_guard.h"
#include "lib/host/host_console.h"

/* The quirk set of the host profile's controller; base clock 0: taken from
 * CAPABILITIES, as under QEMU. The BCM2712 platform (the simulator's Pi 5):
 * its quirk set with the cfg block, the clock passed in as the firmware
 * does on a Pi 5 (card detect then counts as broken, as on the hardware),
 * and, on a board with the switchable I/O regulator (host key sdr104), the
 * Pi 5's regulator lines (platform/sd_io_pi5.c, on the simulated AON GPIO
 * block), as platform/slot.c builds the slot. */
/* The simulator's choice of data path, as platform/slot.c makes a
 * board's: data_path = auto selects the controller's ADMA2 wherever the
 * host profile offers it (the simulated memory is flat and every ADMA2
 * test runs there), and the host starts on it, so that a test's requests
 * take ADMA2 unless it asks for PIO. */
static int sim_platform_path(struct sdhci_host *sh, int ret)
{
	if (ret)
		return ret;
	sh->host.auto_path = SD_PATH_DMA;
	if (sh->host.data_paths & (1u << SD_PATH_DMA))
		return sd_host_set_data_path(&sh->host, SD_PATH_DMA);
	return 0;
}

static int host_init(struct sdhci_host *sh)
{
	if (sim_get_config()->platform == SIM_PLATFORM_BCM2712) {
		int ret = bcm2712_sdhci_init(sh, sim_get_config()->base,
					     sim_get_config()->base + SIM_BCM2712_CFG_OFFSET,
					     sim_get_config()->base_clock_hz);

		if (!ret && sim_get_config()->sdr104)
			sdhci_set_board(sh, &sd_io_pi5_board);
		return sim_platform_path(sh, ret);
	}
	if (!strcmp(sim_get_config()->controller, "emmc2"))
		return sim_platform_path(sh, bcm2711_emmc2_init(sh, sim_get_config()->base, 0));
	if (!strcmp(sim_get_config()->controller, sim_nopi_quirks.name))
		return sim_platform_path(sh, sdhci_host_init(sh, &sim_nopi_quirks,
							     sim_get_config()->base, 0));
	return sim_platform_path(sh, bcm2835_emmc_init(sh, sim_get_config()->base, 0));
}

int simh_host_only(struct simh *s, const char *profile,
		   const struct sim_config *cfg)
{
	return simh_host_only_p(s, sim_profile_find(profile), cfg);
}

int simh_host_only_p(struct simh *s, const struct sim_profile *p,
		     const struct sim_config *cfg)
{
	memset(s, 0, sizeof(*s));
	if (!p || sim_setup(cfg, p))
		return -1000;
	if (sim_get_config()->sdhost) {
		/* SDHOST: the core clock, as the mailbox gives it. */
		s->host = &s->sdhost.host;
		return bcm2835_sdhost_init(&s->sdhost, sim_get_config()->base,
					   sim_get_config()->base_clock_hz);
	}
	s->host = &s->emmc.host;
	return host_init(&s->emmc);
}

int simh_start(struct simh *s, const char *profile,
	       const struct sim_config *cfg)
{
	return simh_start_p(s, sim_profile_find(profile), cfg);
}

int simh_start_p(struct simh *s, const struct sim_profile *p, const struct sim_config *cfg)
{
	int ret = simh_host_only_p(s, p, cfg);

	if (ret)
		return s->init_ret = ret;
	return s->init_ret = sd_init(&s->card, s->host);
}

/* The UHS-I host of the simulated board: its description's SDHCI
 * (harness/sim_board.c), built by the slot builder without pins or DMA engine. */
static int build_uhs_host(struct sdhci_host *sh)
{
	struct board_info b;
	const struct board_desc *d = sim_board_desc(&b);
	unsigned i;

	for (i = 0; i < d->n_ctrls; i++)
		if (d->ctrls[i].driver != SLOT_DRV_BCM2835_SDHOST)
			return sd_slot_build_sdhci(sh, &d->ctrls[i], &b);
	return -ENODEV;
}

int simh_start_uhs(struct simh *s, const char *profile, const char *host,
		   unsigned want)
{
	const struct sim_profile *p = sim_profile_find(profile);
	struct sim_config c;
	char err[160];

	memset(s, 0, sizeof(*s));
	sim_config_default(&c);
	if (!p || sim_host_load(host, &c, err, sizeof(err)))
		return s->init_ret = -1000;
	return simh_start_uhs_p(s, p, &c, want);
}

int simh_start_uhs_p(struct simh *s, const struct sim_profile *p, const struct sim_config *c,
		     unsigned want)
{
	int ret;

	memset(s, 0, sizeof(*s));
	if (!p || sim_setup(c, p))
		return s->init_ret = -1000;
	s->host = &s->emmc.host;
	ret = build_uhs_host(&s->emmc);
	if (ret)
		return s->init_ret = ret;
	return s->init_ret = sd_init_mode(&s->card, s->host, want);
}

void simh_program_env(struct bench_env *env, struct simh_board_slot *bs, size_t buf_bytes)
{
	const struct board_desc *d;
	const char *start = NULL;

	memset(env, 0, sizeof(*env));
	env->board_model = "simulator";
	env->simulated = true;
	/* The simulated board built by the firmware's slot builder, host
	 * switching included: a real SoC's table when the host profile
	 * names one (the card on the controller the simulator placed it
	 * on), else the generic board (harness/sim_board.c). */
	d = sim_soc_desc(&bs->board);
	if (!d)
		d = sim_board_desc(&bs->board);
	else if (sim_get_config()->sdhost)
		start = BCM2835_SDHOST_NAME;
	sd_slot_start(&bs->slot, d, &bs->board, &sim_slot_services, start);
	env->host = bs->slot.host;
	env->host_error = bs->slot.error;
	env->host_error_what = bs->slot.error_what;
	env->host_error_base = bs->slot.error_base;
	/* No dma_note: the simulator's data_path records never carried one
	 * (tests/golden). */
	env->switch_host = sd_slot_switch;
	env->host_names = bs->slot.names;
	env->buf = aligned_alloc(64, buf_bytes);
	env->buf_bytes = env->buf ? (uint32_t)buf_bytes : 0;
}

int simh_figure_pio_vs_dma(struct simh *s, const char *tag, const char *what, bool write,
			   uint32_t blocks, unsigned reps)
{
	static uint8_t buf[2048 * 512];
	static const char *const path_name[] = { "PIO", "ADMA2" };
	unsigned p, i;
	int ret;

	if (blocks > sizeof(buf) / 512)
		return -EINVAL;
	for (p = SD_PATH_PIO; p <= SD_PATH_DMA; p++) {
		uint64_t t0, host = 0, span = 0;

		ret = sd_host_set_data_path(s->host, p);
		if (ret)
			return ret;
		t0 = sim_now_ns();
		for (i = 0; i < reps; i++) {
			struct sd_req_times t;

			memset(&t, 0, sizeof(t));
			ret = write ? sd_write_blocks(&s->card, 4096 + i * blocks, blocks, buf,
						      SD_STOP_AUTO12, &t) :
				      sd_read_blocks(&s->card, 4096 + i * blocks, blocks, buf,
						     SD_STOP_AUTO12, &t);
			if (ret)
				return ret;
			host += t.host_ticks;
			span += t.t_end - t.t_issue;
		}
		printf("  figure %s%-22s %-5s %7.2f MB/s  CPU moving data %5.1f%% of the requests\n",
		       tag, what, path_name[p],
		       (double)blocks * 512 * reps * 1000.0 / (double)(sim_now_ns() - t0),
		       span ? 100.0 * (double)host / (double)span : 0.0);
	}
	return 0;
}

int simh_random_transfers(struct simh *s, unsigned ops, uint32_t window, uint32_t maxn,
			  uint32_t (*rnd)(uint32_t n), struct simh_xfers *out)
{
	uint8_t *ref = calloc(window, 512);
	uint8_t *wbuf = malloc((size_t)maxn * 512 + 8), *rbuf = malloc((size_t)maxn * 512 + 8);
	uint8_t b[512];
	unsigned i;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!ref || !wbuf || !rbuf) {
		snprintf(out->why, sizeof(out->why), "out of memory");
		goto done;
	}
	for (i = 0; i < ops; i++) {
		uint32_t n = 1 + rnd(rnd(5) ? 16 : maxn);
		uint32_t lba = rnd(window - n + 1), k;
		unsigned off = 4 * rnd(2); /* any 4-byte alignment */
		enum sd_stop_mode stop = (enum sd_stop_mode)rnd(s->card.cmd23 ? 3 : 2);
		int r;

		if (rnd(2)) {
			for (k = 0; k < n * 512; k++)
				wbuf[off + k] = (uint8_t)rnd(256);
			r = sd_write_blocks(&s->card, lba, n, wbuf + off, stop, NULL);
			if (r) {
				snprintf(out->why, sizeof(out->why), "write %u+%u: %d", lba, n, r);
				goto done;
			}
			memcpy(ref + (size_t)lba * 512, wbuf + off, (size_t)n * 512);
			out->writes++;
		} else {
			memset(rbuf, 0xEE, (size_t)maxn * 512 + 8);
			r = sd_read_blocks(&s->card, lba, n, rbuf + off, stop, NULL);
			if (r) {
				snprintf(out->why, sizeof(out->why), "read %u+%u: %d", lba, n, r);
				goto done;
			}
			if (memcmp(ref + (size_t)lba * 512, rbuf + off, (size_t)n * 512)) {
				snprintf(out->why, sizeof(out->why), "read %u+%u differs", lba, n);
				goto done;
			}
			out->reads++;
		}
	}
	for (i = 0; i < window; i++) {
		sim_card_peek((uint64_t)i * 512, b, 512);
		if (memcmp(b, ref + (size_t)i * 512, 512)) {
			snprintf(out->why, sizeof(out->why), "flash block %u differs", i);
			goto done;
		}
	}
	ret = 0;
done:
	free(ref);
	free(wbuf);
	free(rbuf);
	return ret;
}

void simh_config_area(struct test_area *ta, uint32_t first, uint32_t count)
{
	memset(ta, 0, sizeof(*ta));
	ta->usable = true;
	ta->source = TEST_AREA_CONFIG;
	ta->first_lba = first;
	ta->count = count;
}

static char *cap_buf;
static size_t cap_size, cap_len;

static void cap_hook(char ch)
{
	if (cap_len + 1 < cap_size) {
		cap_buf[cap_len++] = ch;
		cap_buf[cap_len] = 0;
	}
}

void simh_capture_start(char *buf, size_t cap)
{
	cap_buf = buf;
	cap_size = cap;
	cap_len = 0;
	buf[0] = 0;
	host_console_hook = cap_hook;
}

void simh_capture_stop(void)
{
	host_console_hook = NULL;
}

void simh_wl_ctx(struct simh *s, const struct test_area *ta, bool writes, bool quick,
		 uint8_t *mem, uint32_t mem_bytes, struct write_guard *g, struct wl_ctx *c)
{
	write_guard_init(g, &s->card, ta, writes);
	wl_ctx_init(c, g, mem, mem_bytes, quick, false, 0x5db, 42);
	c->read_base = ta->first_lba;
}

int simh_attach_dma(struct simh *s, struct dma_chan *ch, uintptr_t base, bool sdhost)
{
	int r = dma_chan_init(ch, base - (sdhost ? 0x202000u : 0x300000u),
			      DMA_MEM_ALIAS_BCM2835, 0x3C);

	if (r)
		return r;
	if (sdhost)
		bcm2835_sdhost_attach_dma(&s->sdhost, ch, DMA_DREQ_SDHOST);
	else
		bcm2835_emmc_attach_dma(&s->emmc, ch, DMA_DREQ_EMMC);
	return sd_host_set_data_path(s->host, SD_PATH_DMA);
}

/*
 * hosts.c - see hosts.h.
 */
#include <string.h>

#include "bench/engine/record.h"
#include "bench/hosts.h"
#include "drivers/sd/sd_modes.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/json.h"

const char *hosts_path_name(unsigned p)
{
	switch (p) {
	case SD_PATH_PIO: return "pio";
	case SD_PATH_DMA: return "dma";
	default: return "?";
	}
}

void hosts_report(const struct sd_host *h)
{
	struct json *j;
	unsigned p, t;

	con_printf("\nhost: %s at 0x%08llx, base clock %u Hz, version 0x%08x, caps 0x%08x\n",
		   h->name, (unsigned long long)h->base, (unsigned)h->base_clock_hz,
		   (unsigned)h->version, (unsigned)h->caps);
	j = record_begin("host");
	json_str(j, "name", h->name);
	json_hex(j, "base", h->base, 8);
	json_hex(j, "version", h->version, 8);
	json_hex(j, "caps", h->caps, 8);
	json_u64(j, "base_clock_hz", h->base_clock_hz);
	json_u64(j, "f_min_hz", h->f_min_hz);
	json_u64(j, "f_max_hz", h->f_max_hz);
	json_bool(j, "bus_4bit", h->cap_4bit);
	json_bool(j, "auto_cmd12", h->cap_auto12);
	json_bool(j, "auto_cmd23", h->cap_auto23);
	json_arr_begin(j, "data_paths");
	for (p = 0; p < 8; p++)
		if (h->data_paths & (1u << p))
			json_str(j, NULL, hosts_path_name(p));
	json_arr_end(j);
	json_str(j, "data_path", hosts_path_name(h->data_path));
	json_arr_begin(j, "modes");
	json_str(j, NULL, "ds");
	if (h->cap_hs)
		json_str(j, NULL, "hs");
	/* the UHS-I modes this host runs on this board (its regulator) */
	for (t = SD_TIMING_SDR12; t < SD_TIMING_COUNT; t++)
		if (h->uhs_modes & (1u << t))
			json_str(j, NULL, sd_bus_mode_name(sd_timing_mode(t)));
	json_arr_end(j);
	record_end();
}

static int init_on(struct bench_env *env, struct sd_card *card)
{
	int r;

	hosts_report(env->host);
	r = sd_init(card, env->host);
	if (r) {
		const struct sd_host_err *e = &card->last_err;

		record_error_cmd("init", r, e->cmd, e->arg, e->status,
				 "card initialisation on %s failed in the %s phase",
				 env->host->name, e->phase ? e->phase : "?");
	}
	return r;
}

int hosts_switch(struct bench_env *env, struct sd_card *card, const char *name)
{
	struct sd_host *h = NULL;
	const char *why = NULL;
	int r;

	if (!env->switch_host) {
		con_printf("\nhost = %s: this platform cannot change the SD host; %s stays\n",
			   name, env->host ? env->host->name : "none");
		return -ENOTSUP;
	}
	r = env->switch_host(name, &h, &why);
	if (r == -ENODEV) {
		con_printf("\nhost = %s: %s; %s stays\n", name,
			   why ? why : "this board has no such controller",
			   env->host ? env->host->name : "none");
		return r;
	}
	if (!r) {
		con_printf("\nhost = %s: the card moves to %s\n", name, h->name);
		env->host = h;
		r = init_on(env, card);
		if (!r)
			return 0;
	} else {
		record_error("init", r, "host = %s: %s", name, why ? why : "failed");
	}
	/* Back to the board's usual controller. */
	h = NULL;
	if (env->switch_host("auto", &h, &why) || !h) {
		env->host = NULL;
		record_error("init", -EIO, "the board's usual SD host could not be rebuilt: %s",
			     why ? why : "?");
		return -EIO;
	}
	con_printf("back to %s\n", h->name);
	env->host = h;
	r = init_on(env, card);
	return r;
}

static int set_path(struct sd_host *h, unsigned path, const char **why)
{
	int r;

	if (h->data_path == path)
		return 0;
	if (!sd_host_has_path(h, path)) {
		*why = "the host has no such data path";
		return -ENOTSUP;
	}
	r = sd_host_set_data_path(h, path);
	if (r)
		*why = "the host refused the data path";
	return r;
}

static int sw_use(void *ctx, const char *name, unsigned path,
		  const struct sd_host **host, const char **why)
{
	struct hosts_switch_ctx *hc = ctx;
	int r;

	*host = NULL;
	*why = NULL;
	if (!hc->env.host || strcmp(hc->env.host->name, name)) {
		r = hosts_switch(&hc->env, hc->card, name);
		if (!hc->env.host || strcmp(hc->env.host->name, name)) {
			*why = "could not move the card to this controller";
			return r ? r : -ENODEV;
		}
		if (r) {
			*why = "the card did not initialise on this controller";
			return r;
		}
	}
	r = set_path(hc->env.host, path, why);
	if (!r)
		*host = hc->env.host;
	return r;
}

static int sw_restore(void *ctx)
{
	struct hosts_switch_ctx *hc = ctx;
	const char *why = NULL;
	int r = 0;

	if (!hc->orig_name)
		return 0;
	if (!hc->env.host || strcmp(hc->env.host->name, hc->orig_name)) {
		con_printf("\nthe card goes back to %s\n", hc->orig_name);
		r = hosts_switch(&hc->env, hc->card, hc->orig_name);
	}
	if (!r && hc->env.host)
		r = set_path(hc->env.host, hc->orig_path, &why);
	return r;
}

void hosts_switcher(struct hosts_switch_ctx *hc, struct wl_host_switch *sw,
		    const struct bench_env *env, struct sd_card *card)
{
	static const char *only[2];

	hc->env = *env;
	hc->card = card;
	hc->orig_name = env->host ? env->host->name : NULL;
	hc->orig_path = env->host ? env->host->data_path : SD_PATH_PIO;
	sw->use = sw_use;
	sw->restore = sw_restore;
	sw->ctx = hc;
	/* A platform that cannot switch compares the host it has. */
	only[0] = hc->orig_name;
	only[1] = NULL;
	sw->names = env->switch_host && env->host_names ? env->host_names : only;
}

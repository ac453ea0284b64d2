/*
 * hosts.c - see hosts.h.
 */
#include <string.h>

#include "bench/engine/record.h"
#include "bench/hosts.h"
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
	unsigned p;

	con_printf("\nhost: %s at 0x%08x, base clock %u Hz, version 0x%08x, caps 0x%08x\n",
		   h->name, (unsigned)h->base, (unsigned)h->base_clock_hz,
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

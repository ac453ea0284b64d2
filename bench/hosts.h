/*
 * hosts.h - which host controller drives the card: the "host" record
 * describing it, and the switch sdbench.txt's "host" key asks for (the
 * platform rebuilds the slot on that controller, the card is initialised
 * again on it).
 */
#ifndef SDB_BENCH_HOSTS_H
#define SDB_BENCH_HOSTS_H

#include "bench/env.h"
#include "bench/workloads/compare_hosts.h"
#include "drivers/sd/sd.h"

/* The text line and the "host" record of h (docs/records.md). */
void hosts_report(const struct sd_host *h);

/* Rebuild env's slot on the controller 'name' ("auto" or one of
 * env->host_names) and initialise the card on it; env->host follows. A controller
 * the board lacks, or one that fails, gets a message and the board's
 * usual one is used. Returns 0 when the card is ready on some host (the
 * requested one, or the fallback), else the error (recorded). */
int hosts_switch(struct bench_env *env, struct sd_card *card, const char *name);

/* The run's side of the host comparison's switch (compare_hosts.h):
 * hosts_switcher() fills sw for the card on env's current host; sw->use
 * moves the card, sw->restore puts it back on the host and data path it
 * had. */
struct hosts_switch_ctx {
	struct bench_env env;     /* a copy; env.host follows the switches */
	struct sd_card *card;
	const char *orig_name;
	unsigned orig_path;
};
void hosts_switcher(struct hosts_switch_ctx *hc, struct wl_host_switch *sw,
		    const struct bench_env *env, struct sd_card *card);

/* The name of enum sd_data_path p ("pio", "dma"). */
const char *hosts_path_name(unsigned p);

#endif

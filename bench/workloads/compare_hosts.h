/*
 * compare_hosts.h - the host comparison (sdbench.txt "compare_hosts = on"):
 * the same short sequential and random workloads once per host
 * configuration the board offers (each controller x each data path in its
 * host->data_paths), side by side ("hosts" record).
 */
#ifndef SDB_BENCH_WORKLOADS_COMPARE_HOSTS_H
#define SDB_BENCH_WORKLOADS_COMPARE_HOSTS_H

#include "bench/engine/workload.h"
#include "drivers/sd/sd_host.h"

/* How the comparison changes the host under the card (bench/hosts.c
 * implements it for the run): use(ctx, name, path) puts the card on
 * controller 'name' (initialised again) with data path 'path' and returns
 * 0 with *host, or -errno with *why. names: the controllers of this board's
 * slot, NULL-terminated. restore(ctx) puts the card back where it was. */
struct wl_host_switch {
	int (*use)(void *ctx, const char *name, unsigned path,
		   const struct sd_host **host, const char **why);
	int (*restore)(void *ctx);
	void *ctx;
	const char *const *names;
};

void wl_compare_hosts(struct wl_ctx *c, const struct wl_host_switch *sw);

#endif

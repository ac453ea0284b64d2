/*
 * silicon.h - the controller characterised before anything is measured
 * (silicon.c): each belief about the hardware that the split's looks rely
 * on, probed on the controller the firmware runs on (docs/silicon.md),
 * with a console line and a "silicon" record.
 */
#ifndef SDB_BENCH_WORKLOADS_SILICON_H
#define SDB_BENCH_WORKLOADS_SILICON_H

#include "bench/engine/workload.h"
#include "drivers/sd/sd_host.h"

/* Run the host's probes (sd_host_characterise) on c's card, print and
 * record what they found. The drivers then use a look only where its
 * meaning was confirmed (sd_host.blkcnt_look). Returns the probe's result
 * (0, -ENOTSUP for a host without probes, or its error). */
int wl_silicon_probe(struct wl_ctx *c);
/* What enum sd_blkcnt_look means, one word ("bus", "drain", ...). */
const char *wl_blkcnt_name(unsigned look);
/* What enum sd_read_wire means, one word ("timed", "instant", ...). */
const char *wl_wire_name(unsigned wire);
/* enum sd_bwe_look, enum sd_dat0_look in one word. */
const char *wl_bwe_name(unsigned look);
const char *wl_dat0_name(unsigned look);
/* enum sd_fill_look by name (SDHOST's SDEDM fill, the silicon record's "fill"). */
const char *wl_fill_name(unsigned look);

#endif

/*
 * modes.h - the bus modes side by side (modes.c measures, modes_report.c
 * prints): every mode both the card and the board accept (DS, HS and the
 * UHS-I modes), the card initialised again in each, the same sequential
 * read in each, with each mode's bus ceiling ("modes" record).
 */
#ifndef SDB_BENCH_WORKLOADS_MODES_H
#define SDB_BENCH_WORKLOADS_MODES_H

#include "bench/engine/workload.h"

void wl_modes(struct wl_ctx *c);

/* Whether both sides accept bus mode m (enum sd_bus_mode): the card's CMD6
 * group 1 and 1.8 V support, the host's uhs_modes on this board and cap_hs.
 * DS always. Used by the host comparison too. */
bool wl_mode_accepted(const struct sd_card *card, const struct sd_host *h, unsigned m);

#endif

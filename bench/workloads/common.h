/*
 * common.h - helpers shared by app_class.c, au.c and sustained.c
 * (common.c). Not for other modules. Bus ceilings come from
 * bench/engine/busmodel.h, sizes as text from lib/fmt.h (fmt_size).
 */
#ifndef SDB_BENCH_WL_EXTRA_INT_H
#define SDB_BENCH_WL_EXTRA_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/engine/workload.h"

/* The AU size used when the card declares none (SSR AU_SIZE 0): the most
 * common AU of SDHC cards. */
#define WLX_DEFAULT_AU_BYTES (4u << 20)

/* Why writes cannot run, or NULL when they can. */
const char *wlx_no_write_reason(const struct wl_ctx *c);
/* The card's declared AU (SSR) in bytes, or WLX_DEFAULT_AU_BYTES with
 * *declared = false. */
uint32_t wlx_au_bytes(const struct wl_ctx *c, bool *declared);
/* Whether the card implements the erase commands (CSD CCC class 5). */
bool wlx_erase_supported(const struct wl_ctx *c);
/* The latency (ns) wl_do stored for the operation it just ran, or 0 when
 * the sample array was full or the operation failed (nlat_before: m->nlat
 * before the call). */
uint32_t wlx_last_lat(const struct wl_ctx *c, const struct wl_meas *m, uint32_t nlat_before);
/* CMD38 erase of [lba, lba+blocks), only inside the test area. Blocks
 * written in verify mode and not yet checked are verified first (erasing
 * them would otherwise read as corruption). *ns: the erase time (system
 * timer, 1 us resolution: erases take milliseconds). Errors are reported
 * with context. Returns 0 or -errno (-EPERM outside the test area). */
int wlx_erase(struct wl_ctx *c, const char *context, uint32_t lba, uint32_t blocks,
	      uint64_t *ns);
/* Round lba up to a multiple of align (a power of two, in blocks). */
uint32_t wlx_align_up(uint32_t lba, uint32_t align);

#endif

/*
 * common.c - helpers of the class, AU and sustained workloads (see
 * common.h).
 */
#include "bench/engine/record.h"
#include "bench/workloads/common.h"
#include "drivers/sd/sd_regs.h"
#include "drivers/timer.h"
#include "lib/err.h"

#define CCC_ERASE (1u << 5) /* CSD CCC: class 5, erase */

const char *wlx_no_write_reason(const struct wl_ctx *c)
{
	return write_guard_why_not(c->guard);
}

uint32_t wlx_au_bytes(const struct wl_ctx *c, bool *declared)
{
	*declared = c->card->au_size_bytes != 0;
	return *declared ? c->card->au_size_bytes : WLX_DEFAULT_AU_BYTES;
}

bool wlx_erase_supported(const struct wl_ctx *c)
{
	struct sd_csd csd;

	sd_csd_decode(c->card->csd, &csd);
	return csd.known && (csd.ccc & CCC_ERASE);
}

uint32_t wlx_last_lat(const struct wl_ctx *c, const struct wl_meas *m, uint32_t nlat_before)
{
	return m->nlat > nlat_before ? c->lat[m->nlat - 1] : 0;
}

int wlx_erase(struct wl_ctx *c, const char *context, uint32_t lba, uint32_t blocks,
	      uint64_t *ns)
{
	uint64_t t0, t1;
	int r;

	*ns = 0;
	if (c->abort_all)
		return -ENOMEDIUM;
	if (write_guard_check(c->guard, lba, blocks)) {
		record_error(context, -EPERM, "refused to erase LBA %u+%u: outside the test area",
			     (unsigned)lba, (unsigned)blocks);
		return -EPERM;
	}
	if (c->verify && c->nwritten)
		wl_verify_written(c, context);
	t0 = timer_now_ns();
	r = write_guard_erase(c->guard, lba, blocks, NULL);
	t1 = timer_now_ns();
	if (r) {
		const struct sd_host_err *e = &c->card->last_err;

		record_error_cmd(context, r, e->cmd, e->arg, e->status,
				 "erase of LBA %u+%u failed (%s phase)", (unsigned)lba,
				 (unsigned)blocks, e->phase ? e->phase : "?");
		if (r == -ENOMEDIUM)
			c->abort_all = true;
		return r;
	}
	*ns = t1 - t0;
	return 0;
}

uint32_t wlx_align_up(uint32_t lba, uint32_t align)
{
	uint64_t a = ((uint64_t)lba + align - 1) & ~(uint64_t)(align - 1);

	return a > 0xffffffffu ? 0xffffffffu : (uint32_t)a;
}

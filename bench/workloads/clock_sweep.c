/*
 * wl_sweep.c - the clock and bus-width sweep.
 *
 * A sequential read (and, with a test area, write) of fixed transfers is
 * repeated at every SD clock from 400 kHz up to the card's maximum and at
 * 1-bit and 4-bit width. The mean operation time is fitted as
 *     T(f) = a + b / f
 * by least squares over the clocks of one width: b / f is the time the bus
 * needs at clock f (b is the number of bus clocks the operation costs), a
 * is what does not scale with the clock: card latency, busy and host time.
 * The fit, its R^2 and RMS residual are printed, and the bus clock count b
 * is compared with the bus model (busmodel.h: the whole CMD18/CMD25 +
 * CMD12 transfer in the direction measured) as a check.
 *
 * Here: measure into struct sweep_result; analysis.c fits (wla_sweep_fit),
 * clock_sweep_report.c prints (workload.h).
 */
#include "bench/engine/busmodel.h"
#include "bench/engine/record.h"
#include "bench/engine/workload_report.h"
#include "bench/workloads/analysis.h"
#include "bench/workloads/clock_sweep.h"
#include "bench/workloads/clock_sweep_report.h"
#include "lib/err.h"
#include "lib/fmt.h"

#define SWEEP_XFER_BLOCKS 128 /* 64 KiB */
/* The transfers of the sweep as the bus model counts them. */
#define SWEEP_BUS_FLAGS(write) (BUS_MULTI | BUS_STOP | ((write) ? BUS_WRITE : 0u))

static const uint32_t sweep_clocks[] = {
	400000, 5000000, 12500000, 25000000, 50000000,
};

/* Every clock up to max_hz at one width, one point each. */
static void measure_width(struct wl_ctx *c, uint32_t max_hz, struct sweep_result *r)
{
	unsigned k;
	uint32_t first = r->write ? c->ta->first_lba : c->read_base;

	r->npoints = 0;
	for (k = 0; k < sizeof(sweep_clocks) / sizeof(sweep_clocks[0]) && !c->abort_all; k++) {
		struct sweep_point *p = &r->pt[r->npoints];
		struct wl_meas m;
		char nm[40], lb[64];
		uint32_t i, nops;
		int rc;

		if (sweep_clocks[k] > max_hz)
			break;
		rc = sd_set_bus(c->card, sweep_clocks[k], r->width);
		if (rc) {
			record_error("sweep", rc, "could not set %u Hz, %u-bit",
				     (unsigned)sweep_clocks[k], r->width);
			continue;
		}
		/* Slow clocks: fewer operations (400 kHz 1-bit: 1.3 s per 64 KiB). */
		nops = sweep_clocks[k] < 1000000 ? 2 : (c->quick ? 4 : 32);
		fmt_snprintf(nm, sizeof(nm), "sweep-%s-%ubit-%ukhz", r->write ? "write" : "read",
			     r->width, (unsigned)(c->card->clock_hz / 1000));
		fmt_snprintf(lb, sizeof(lb), "%s %u-bit %u kHz", r->write ? "write" : "read",
			     r->width, (unsigned)(c->card->clock_hz / 1000));
		wl_begin(c, &m, "sweep", nm, lb, r->write, WL_MULTI_AUTO12, SWEEP_XFER_BLOCKS,
			 (uint64_t)nops * SWEEP_XFER_BLOCKS * SD_BLOCK_SIZE);
		wl_set_budget(&m, c->quick ? 3 : 8);
		for (i = 0; i < nops && !wl_should_stop(c, &m); i++) {
			struct wl_op op = { r->write, first + i * SWEEP_XFER_BLOCKS,
					    SWEEP_XFER_BLOCKS, WL_MULTI_AUTO12 };

			wl_do(c, &m, &op);
		}
		wl_end(c, &m);
		if (!m.ops)
			continue;
		p->clock_hz = c->card->clock_hz;
		p->requested_hz = sweep_clocks[k];
		p->ops = m.ops;
		p->mean_ns = m.sum.mean_ns;
		p->mbs = m.mbs;
		p->ceiling_mbs = bus_xfer_ceiling_mbs(SWEEP_XFER_BLOCKS, SD_BLOCK_SIZE, r->width,
						      c->card->clock_hz, SWEEP_BUS_FLAGS(r->write));
		clock_sweep_report_point(r, r->npoints++);
	}
}

/* Fit T(f) = a + b/f over the points of one width. */
static void fit(struct sweep_result *r)
{
	uint32_t hz[SWEEP_MAX_POINTS];
	double t_s[SWEEP_MAX_POINTS];
	unsigned i;

	for (i = 0; i < r->npoints; i++) {
		hz[i] = r->pt[i].clock_hz;
		t_s[i] = r->pt[i].mean_ns / 1e9;
	}
	r->fitted = wla_sweep_fit(hz, t_s, r->npoints, &r->fit);
}

void wl_clock_sweep(struct wl_ctx *c)
{
	struct sweep_result r;
	uint32_t max_hz = c->card->max_clock_hz ? c->card->max_clock_hz : 25000000;
	uint8_t widths[2] = { 1, 4 };
	uint8_t orig_width = c->card->width;
	unsigned w, dir;

	clock_sweep_report_heading(c->emulated);
	for (dir = 0; dir < 2 && !c->abort_all; dir++) {
		bool write = dir == 1;

		if (write && !wl_writes_possible(c)) {
			wl_skip("sweep-write", "no writable test area");
			break;
		}
		for (w = 0; w < 2 && !c->abort_all; w++) {
			if (widths[w] == 4 && orig_width != 4)
				continue; /* the card or host cannot do 4-bit */
			r.write = write;
			r.width = widths[w];
			r.emulated = c->emulated;
			r.xfer_bytes = SWEEP_XFER_BLOCKS * SD_BLOCK_SIZE;
			r.model_bus_clocks = (double)bus_xfer_clocks(SWEEP_XFER_BLOCKS, SD_BLOCK_SIZE,
								     r.width, SWEEP_BUS_FLAGS(write));
			measure_width(c, max_hz, &r);
			fit(&r);
			clock_sweep_report_fit(&r);
		}
		if (write && c->verify)
			wl_verify_written(c, "sweep-write");
	}
	/* Back to the fastest setting for what follows. */
	if (sd_set_bus(c->card, 0, orig_width))
		record_error("sweep", -EIO, "could not restore the bus to %u-bit at full speed",
			     orig_width);
}

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
 */
#include "bench/engine/busmodel.h"
#include "bench/engine/record.h"
#include "bench/engine/workload_report.h"
#include "bench/workloads/clock_sweep.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"

#define SWEEP_MAX_POINTS 8
#define SWEEP_XFER_BLOCKS 128 /* 64 KiB */
/* The transfers of the sweep as the bus model counts them. */
#define SWEEP_BUS_FLAGS(write) (BUS_MULTI | BUS_STOP | ((write) ? BUS_WRITE : 0u))

static const uint32_t sweep_clocks[] = {
	400000, 5000000, 12500000, 25000000, 50000000,
};

struct point {
	uint32_t clock_hz; /* actual */
	double t_s;        /* mean operation time */
	double mbs;
};

static unsigned run_width(struct wl_ctx *c, bool write, uint8_t width, uint32_t max_hz,
			  struct point *pts)
{
	unsigned k, n = 0;
	uint32_t first = write ? c->ta->first_lba : c->read_base;

	for (k = 0; k < sizeof(sweep_clocks) / sizeof(sweep_clocks[0]) && !c->abort_all; k++) {
		struct wl_meas m;
		char nm[40], lb[64];
		uint32_t i, nops;
		int r;

		if (sweep_clocks[k] > max_hz)
			break;
		r = sd_set_bus(c->card, sweep_clocks[k], width);
		if (r) {
			const struct sd_host_err *e = &c->card->last_err;

			record_error_cmd("sweep", r, e->cmd, e->arg, e->status,
					 "could not set %u Hz, %u-bit", (unsigned)sweep_clocks[k],
					 width);
			continue;
		}
		/* Slow clocks: fewer operations (400 kHz 1-bit: 1.3 s per 64 KiB). */
		nops = sweep_clocks[k] < 1000000 ? 2 : (c->quick ? 4 : 32);
		fmt_snprintf(nm, sizeof(nm), "sweep-%s-%ubit-%ukhz", write ? "write" : "read",
			     width, (unsigned)(c->card->clock_hz / 1000));
		fmt_snprintf(lb, sizeof(lb), "%s %u-bit %u kHz", write ? "write" : "read", width,
			     (unsigned)(c->card->clock_hz / 1000));
		wl_begin(c, &m, "sweep", nm, lb, write, WL_MULTI_AUTO12, SWEEP_XFER_BLOCKS,
			 (uint64_t)nops * SWEEP_XFER_BLOCKS * SD_BLOCK_SIZE);
		wl_set_budget(&m, c->quick ? 3 : 8);
		for (i = 0; i < nops && !wl_should_stop(c, &m); i++) {
			struct wl_op op = { write, first + i * SWEEP_XFER_BLOCKS,
					    SWEEP_XFER_BLOCKS, WL_MULTI_AUTO12 };

			wl_do(c, &m, &op);
		}
		wl_end(c, &m);
		if (!m.ops)
			continue;
		pts[n].clock_hz = c->card->clock_hz;
		pts[n].t_s = m.sum.mean_ns / 1e9;
		pts[n].mbs = m.mbs;
		{
			struct json *j = record_begin("sweep");

			json_str(j, "op", write ? "write" : "read");
			json_u64(j, "width", width);
			json_u64(j, "clock_hz", c->card->clock_hz);
			json_u64(j, "requested_hz", sweep_clocks[k]);
			json_u64(j, "xfer_bytes", SWEEP_XFER_BLOCKS * SD_BLOCK_SIZE);
			json_u64(j, "ops", m.ops);
			json_double(j, "mean_ns", m.sum.mean_ns, 0);
			json_double(j, "mbs", m.mbs, 3);
			json_double(j, "ceiling_mbs",
				    bus_xfer_ceiling_mbs(SWEEP_XFER_BLOCKS, SD_BLOCK_SIZE, width,
							 c->card->clock_hz, SWEEP_BUS_FLAGS(write)),
				    3);
			record_end();
		}
		con_printf("  %-9s %u-bit %9u Hz  %9.3f MB/s  %10.1f us/op\n",
			   write ? "write" : "read", width, (unsigned)c->card->clock_hz,
			   m.mbs, m.sum.mean_ns / 1000.0);
		n++;
	}
	return n;
}

static void fit_and_report(struct wl_ctx *c, bool write, uint8_t width,
			   const struct point *pts, unsigned n)
{
	double x[SWEEP_MAX_POINTS], y[SWEEP_MAX_POINTS];
	struct linfit f;
	unsigned i;
	struct json *j;
	uint32_t fmax = 0;
	double model_clocks = (double)bus_xfer_clocks(SWEEP_XFER_BLOCKS, SD_BLOCK_SIZE, width,
						      SWEEP_BUS_FLAGS(write));

	for (i = 0; i < n; i++) {
		x[i] = 1.0 / pts[i].clock_hz;
		y[i] = pts[i].t_s;
		if (pts[i].clock_hz > fmax)
			fmax = pts[i].clock_hz;
	}
	j = record_begin("sweep");
	json_str(j, "op", write ? "write" : "read");
	json_u64(j, "width", width);
	json_str(j, "fit", "T(f) = a + b/f");
	json_u64(j, "points", n);
	if (n < 2 || !stats_linfit(x, y, n, &f)) {
		json_null(j, "a_ns");
		record_end();
		con_printf("  %s %u-bit: too few clock points for a fit\n",
			   write ? "write" : "read", width);
		return;
	}
	json_double(j, "a_ns", f.a * 1e9, 0);
	json_double(j, "b_clocks", f.b, 0);
	json_double(j, "model_bus_clocks", model_clocks, 0);
	json_double(j, "r2", f.r2, 4);
	json_double(j, "rms_residual_ns", f.rms_residual * 1e9, 0);
	json_u64(j, "fmax_hz", fmax);
	json_double(j, "bus_share_at_fmax_pct",
		    (f.a + f.b / fmax) > 0 ? 100.0 * (f.b / fmax) / (f.a + f.b / fmax) : 0.0, 1);
	json_bool(j, "emulated", c->emulated);
	record_end();
	con_printf("  fit %s %u-bit: T = %.1f us + %.0f clocks / f  (model: %.0f bus clocks), "
		   "R^2 %.4f, residual %.1f us; at %u Hz the bus is %.1f%% of the time\n",
		   write ? "write" : "read", width, f.a * 1e6, f.b, model_clocks, f.r2,
		   f.rms_residual * 1e6, (unsigned)fmax,
		   (f.a + f.b / fmax) > 0 ? 100.0 * (f.b / fmax) / (f.a + f.b / fmax) : 0.0);
}

void wl_clock_sweep(struct wl_ctx *c)
{
	struct point pts[SWEEP_MAX_POINTS];
	uint32_t max_hz = c->card->max_clock_hz ? c->card->max_clock_hz : 25000000;
	uint8_t widths[2] = { 1, 4 };
	uint8_t orig_width = c->card->width;
	unsigned w, dir;

	con_printf("\nclock and bus-width sweep, 64 KiB sequential transfers\n");
	if (c->emulated)
		con_printf("  (QEMU: the emulated card ignores the clock; the fit shows that)\n");
	for (dir = 0; dir < 2 && !c->abort_all; dir++) {
		bool write = dir == 1;

		if (write && !wl_writes_possible(c)) {
			wl_skip("sweep-write", "no writable test area");
			break;
		}
		for (w = 0; w < 2 && !c->abort_all; w++) {
			unsigned n;

			if (widths[w] == 4 && orig_width != 4)
				continue; /* the card or host cannot do 4-bit */
			n = run_width(c, write, widths[w], max_hz, pts);
			fit_and_report(c, write, widths[w], pts, n);
		}
		if (write && c->verify)
			wl_verify_written(c, "sweep-write");
	}
	/* Back to the fastest setting for what follows. */
	if (sd_set_bus(c->card, 0, orig_width)) {
		const struct sd_host_err *e = &c->card->last_err;

		record_error_cmd("sweep", -EIO, e->cmd, e->arg, e->status,
				 "could not restore the bus to %u-bit at full speed", orig_width);
	}
}

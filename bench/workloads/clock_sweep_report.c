/*
 * clock_sweep_report.c - text and records of the clock and bus-width
 * sweep (see clock_sweep_report.h).
 */
#include "bench/engine/record.h"
#include "bench/workloads/clock_sweep_report.h"
#include "lib/console.h"

void clock_sweep_report_heading(bool emulated)
{
	con_printf("\nclock and bus-width sweep, 64 KiB sequential transfers\n");
	if (emulated)
		con_printf("  (QEMU: the emulated card ignores the clock; the fit shows that)\n");
}

static const char *op_name(const struct sweep_result *r)
{
	return r->write ? "write" : "read";
}

/* A point's fields, around the run's transfer size. */
static const struct json_field point_clock[] = {
	JSON_F_U64(struct sweep_point, clock_hz, "clock_hz"),
	JSON_F_U64(struct sweep_point, requested_hz, "requested_hz"),
};
static const struct json_field point_time[] = {
	JSON_F_U64(struct sweep_point, ops, "ops"),
	JSON_F_DOUBLE(struct sweep_point, mean_ns, "mean_ns", 0),
	JSON_F_DOUBLE(struct sweep_point, mbs, "mbs", 3),
	JSON_F_DOUBLE(struct sweep_point, ceiling_mbs, "ceiling_mbs", 3),
};

void clock_sweep_report_point(const struct sweep_result *r, unsigned i)
{
	const struct sweep_point *p = &r->pt[i];
	struct json *j = record_begin("sweep");

	json_str(j, "op", op_name(r));
	json_u64(j, "width", r->width);
	json_fields(j, p, point_clock, JSON_FIELDS_N(point_clock));
	json_u64(j, "xfer_bytes", r->xfer_bytes);
	json_fields(j, p, point_time, JSON_FIELDS_N(point_time));
	record_end();
	con_printf("  %-9s %u-bit %9u Hz  %9.3f MB/s  %10.1f us/op\n", op_name(r), r->width,
		   (unsigned)p->clock_hz, p->mbs, p->mean_ns / 1000.0);
}

void clock_sweep_report_fit(const struct sweep_result *r)
{
	const struct wla_sweep_fit *f = &r->fit;
	struct json *j;

	j = record_begin("sweep");
	json_str(j, "op", op_name(r));
	json_u64(j, "width", r->width);
	json_str(j, "fit", "T(f) = a + b/f");
	json_u64(j, "points", r->npoints);
	if (!r->fitted) {
		json_null(j, "a_ns");
		record_end();
		con_printf("  %s %u-bit: too few clock points for a fit\n", op_name(r), r->width);
		return;
	}
	json_double(j, "a_ns", f->a_s * 1e9, 0);
	json_double(j, "b_clocks", f->b_clocks, 0);
	json_double(j, "model_bus_clocks", r->model_bus_clocks, 0);
	json_double(j, "r2", f->r2, 4);
	json_double(j, "rms_residual_ns", f->rms_s * 1e9, 0);
	json_u64(j, "fmax_hz", f->fmax_hz);
	json_double(j, "bus_share_at_fmax_pct", f->bus_pct, 1);
	json_bool(j, "emulated", r->emulated);
	/* The bus's part b/f must grow as the clock falls: a b of 0 or below
	 * says something other than the bus sets the time, not a bus cost. */
	json_bool(j, "fit_holds", f->b_clocks > 0);
	record_end();
	if (f->b_clocks <= 0) {
		con_printf("  fit %s %u-bit: no fit - T = a + b/f gives b = %.0f clocks, not above "
			   "0: the time does not fall as the clock rises (something other than "
			   "the bus sets it)\n", op_name(r), r->width, f->b_clocks);
		return;
	}
	con_printf("  fit %s %u-bit: T = %.1f us + %.0f clocks / f  (model: %.0f bus clocks), "
		   "R^2 %.4f, residual %.1f us; at %u Hz the bus is %.1f%% of the time\n",
		   op_name(r), r->width, f->a_s * 1e6, f->b_clocks, r->model_bus_clocks, f->r2,
		   f->rms_s * 1e6, (unsigned)f->fmax_hz, f->bus_pct);
}

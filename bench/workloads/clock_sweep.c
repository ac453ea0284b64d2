/*
 * clock_sweep.c - the clock and bus-width sweep.
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
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"

#define SWEEP_XFER_BLOCKS 128 /* 64 KiB */
/* The transfers of the sweep as the bus model counts them (DDR50: two
 * bits per clock per line). */
#define SWEEP_BUS_FLAGS(write) (BUS_MULTI | BUS_STOP | ((write) ? BUS_WRITE : 0u) | \
				(sd_timing_ddr(c->card->timing) ? BUS_DDR : 0u))

/* Up to the card's maximum in its mode: 50 MHz (HS, SDR25, DDR50), 100 MHz
 * (SDR50), 208 MHz (SDR104; a 200 MHz controller gives 200). */
static const uint32_t sweep_clocks[] = {
	400000, 5000000, 12500000, 25000000, 50000000, 100000000, 208000000,
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
			const struct sd_host_err *e = &c->card->last_err;

			record_error_cmd("sweep", rc, e->cmd, e->arg, e->status,
					 "could not set %u Hz, %u-bit", (unsigned)sweep_clocks[k],
					 r->width);
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
			/* SDR50, SDR104 and DDR50 are 4-bit modes. */
			if (widths[w] == 1 && (c->card->timing == SD_TIMING_SDR50 ||
					       c->card->timing == SD_TIMING_SDR104 ||
					       c->card->timing == SD_TIMING_DDR50))
				continue;
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
	if (sd_set_bus(c->card, 0, orig_width)) {
		const struct sd_host_err *e = &c->card->last_err;

		record_error_cmd("sweep", -EIO, e->cmd, e->arg, e->status,
				 "could not restore the bus to %u-bit at full speed", orig_width);
	}
}

/* ---- bus calibration ----------------------------------------------------------
 * The split needs the bus time of every workload. The framing model knows
 * the bits on the wires, not the idle clocks a controller adds of its own
 * (between blocks, before a write block). They scale with the clock like
 * the frames, so two clocks measure them: 64 KiB transfers at a quarter and
 * an eighth of the working clock (slow enough that even a slow CPU does not
 * set the pace), the median operation time at each, and
 *     b = (T(f2) - T(f1)) / (1/f2 - 1/f1)
 * bus clocks per operation. What b has beyond the model, spread over the
 * gaps between the blocks, is time that scales with the clock but is not
 * protocol frame: the card (or the controller) holding the bus idle,
 * booked as the card's clock-paced share of every later workload at this
 * width (struct wl_bus_cal); less than the model shortens the model's
 * pitch. A measurement out of bounds (below half the model: something else
 * set the pace; above 8x) leaves the model.
 *
 * A card stall during one of the two points moves b by the stall over
 * (1/f2 - 1/f1): a stall at the faster clock shortens it (generated pair
 * 34 of the quick suite: a write pitch 1586 clocks shorter than the 4114-
 * clock 1-bit frame, 20 later workloads 6.7 - 16 points off). So the pair
 * of points is measured CAL_ROUNDS times and the median b taken, and a
 * block pitch shorter than a block's frame (start bit, data, CRC16 and
 * end bit on every line: SD Physical Layer §4.5, data packet format;
 * bus_block_frame_clocks) is refused: no bus carries a block faster than
 * its bits. Then the split keeps the framing model and says why (the
 * console line, the bus record's why). */

#define CAL_OPS        8
#define CAL_QUICK_OPS  4
#define CAL_ROUNDS     3      /* the (f1, f2) pair measured 3 times: the median b */
#define CAL_MIN_HZ     400000
#define CAL_MIN_OF_MODEL 0.5  /* a measurement used: 0.5x .. 8x the framing model */
#define CAL_MAX_OF_MODEL 8.0

static bool cal_point(struct wl_ctx *c, bool write, uint32_t hz, uint32_t nops,
		      uint32_t *actual_hz, double *median_ns)
{
	uint32_t first = write ? c->ta->first_lba : c->read_base, i;
	struct wl_meas m;
	int r = sd_set_bus(c->card, hz, c->card->width);

	if (r)
		return false;
	*actual_hz = c->card->clock_hz;
	wl_begin(c, &m, "calibration", write ? "bus-cal-write" : "bus-cal-read",
		 "bus calibration", write, WL_MULTI_AUTO12, SWEEP_XFER_BLOCKS, 0);
	for (i = 0; i < nops && !wl_should_stop(c, &m); i++) {
		struct wl_op op = { write, first + i * SWEEP_XFER_BLOCKS, SWEEP_XFER_BLOCKS,
				    WL_MULTI_AUTO12 };

		wl_do(c, &m, &op);
	}
	wl_end(c, &m);
	*median_ns = (double)m.sum.p50_ns;
	return m.ops == nops && !m.errors;
}

struct cal_result {
	bool ran, ok;
	double b, model, extra;
	double round_b[CAL_ROUNDS]; /* each round's b; the median is b */
	unsigned rounds;
	double pitch;               /* the block pitch measured: the model's + extra */
	uint32_t frame;             /* one block's frame, clocks */
	char why[96];               /* not used: why ("" when used or not run) */
};

static double median3(const double *v)
{
	double a = v[0], b = v[1], c = v[2];

	if (a > b) {
		double t = a;

		a = b;
		b = t;
	}
	return c < a ? a : c > b ? b : c;
}

/* One round: the two points; false when one failed. */
static bool cal_round(struct wl_ctx *c, bool write, uint32_t f1, uint32_t f2, uint32_t *h,
		      double *b)
{
	uint32_t nops = c->quick ? CAL_QUICK_OPS : CAL_OPS;
	double t1, t2;

	if (!cal_point(c, write, f1, nops, &h[0], &t1) ||
	    !cal_point(c, write, f2, nops, &h[1], &t2) || h[0] == h[1])
		return false;
	*b = (t2 - t1) * 1e-9 / (1.0 / h[1] - 1.0 / h[0]);
	return true;
}

static void cal_dir(struct wl_ctx *c, bool write, uint32_t f1, uint32_t f2, uint32_t *h,
		    struct cal_result *res)
{
	unsigned flags = SWEEP_BUS_FLAGS(write);

	res->ran = true;
	res->model = (double)bus_xfer_clocks(SWEEP_XFER_BLOCKS, SD_BLOCK_SIZE, c->card->width,
					     flags);
	res->frame = bus_block_frame_clocks(SD_BLOCK_SIZE, c->card->width, flags);
	for (res->rounds = 0; res->rounds < CAL_ROUNDS && !c->abort_all; res->rounds++)
		if (!cal_round(c, write, f1, f2, h, &res->round_b[res->rounds]))
			return;
	if (res->rounds < CAL_ROUNDS)
		return;
	res->b = median3(res->round_b);
	/* per gap between two blocks of a transfer */
	res->extra = (res->b - res->model) / (SWEEP_XFER_BLOCKS - 1);
	res->pitch = (double)bus_block_pitch_clocks(SD_BLOCK_SIZE, c->card->width, flags) +
		     res->extra;
	/* Both ways: more clocks than the framing are the card holding the
	 * bus idle (or the controller's own), fewer a model too long - but
	 * never shorter than the frame itself. Far below the model something
	 * else set the pace at both clocks; far above it is not the bus. */
	if (res->pitch < (double)res->frame)
		fmt_snprintf(res->why, sizeof(res->why), "a block pitch of %.0f clocks, shorter "
			     "than the %u-clock frame", res->pitch, (unsigned)res->frame);
	else if (res->b < CAL_MIN_OF_MODEL * res->model || res->b > CAL_MAX_OF_MODEL * res->model)
		fmt_snprintf(res->why, sizeof(res->why), "%.0f clocks per transfer, outside "
			     "%.1fx .. %.0fx the model", res->b, CAL_MIN_OF_MODEL, CAL_MAX_OF_MODEL);
	else
		res->ok = true;
}

static void cal_json(struct json *j, const char *key, const struct cal_result *r)
{
	unsigned i;

	json_obj_begin(j, key);
	if (r->ran && r->b > 0) {
		json_double(j, "b_clocks", r->b, 0);
		json_double(j, "model_clocks", r->model, 0);
		json_double(j, "extra_clocks_per_block", r->extra, 1);
	} else {
		json_null(j, "b_clocks");
		json_double(j, "model_clocks", r->model, 0);
		json_null(j, "extra_clocks_per_block");
	}
	json_bool(j, "used", r->ok);
	json_arr_begin(j, "rounds_b_clocks");
	for (i = 0; i < r->rounds; i++)
		json_double(j, NULL, r->round_b[i], 0);
	json_arr_end(j);
	json_u64(j, "frame_clocks", r->frame);
	json_str_if(j, "why", r->why);
	json_obj_end(j);
}

/* The console's words for one direction: the figure used, or why not. */
static void cal_print(const char *dir, const struct cal_result *r)
{
	con_printf("%s ", dir);
	if (r->ok)
		con_printf("%.0f clocks per transfer (median of %u), model %.0f: %+.1f per block",
			   r->b, r->rounds, r->model, r->extra);
	else if (r->why[0])
		con_printf("not used (%s; the framing model instead)", r->why);
	else
		con_printf("not measured");
}

void wl_bus_calibrate(struct wl_ctx *c)
{
	uint32_t f = c->card->clock_hz, f1 = f / 4, f2 = f / 8, hr[2] = { 0, 0 }, hw[2] = { 0, 0 };
	static const struct cal_result none = { false, false, 0, 0, 0, { 0, 0, 0 }, 0, 0, 0, "" };
	struct cal_result rd = none, wr = none;
	uint8_t width = c->card->width;
	struct json *j;

	c->bus_cal = (struct wl_bus_cal){ 0 };
	if (c->emulated) {
		con_printf("bus calibration: skipped (QEMU's card ignores the clock); the split "
			   "uses the framing model\n");
		return;
	}
	if (f2 < CAL_MIN_HZ) {
		con_printf("bus calibration: skipped (clock too low); the split uses the framing "
			   "model\n");
		return;
	}
	cal_dir(c, false, f1, f2, hr, &rd);
	if (wl_writes_possible(c) && !c->abort_all)
		cal_dir(c, true, f1, f2, hw, &wr);
	if (sd_set_bus(c->card, 0, width)) {
		const struct sd_host_err *e = &c->card->last_err;

		record_error_cmd("bus-cal", -EIO, e->cmd, e->arg, e->status,
				 "could not restore the bus to %u-bit at full speed", width);
	}
	c->bus_cal.width = width;
	c->bus_cal.read_ok = rd.ok;
	c->bus_cal.read_extra_clocks = rd.extra;
	c->bus_cal.write_ok = wr.ok;
	c->bus_cal.write_extra_clocks = wr.extra;

	con_printf("bus calibration, %u-bit, 64 KiB at %u and %u Hz: ", width, (unsigned)hr[0],
		   (unsigned)hr[1]);
	cal_print("read", &rd);
	if (wr.ran) {
		con_printf("; ");
		cal_print("write", &wr);
	}
	con_printf("\n");

	j = record_begin("bus");
	json_u64(j, "width", width);
	json_u64(j, "clock_hz", c->card->clock_hz);
	json_arr_begin(j, "cal_clocks_hz");
	json_u64(j, NULL, hr[0]);
	json_u64(j, NULL, hr[1]);
	json_arr_end(j);
	json_u64(j, "xfer_bytes", SWEEP_XFER_BLOCKS * SD_BLOCK_SIZE);
	cal_json(j, "read", &rd);
	if (wr.ran)
		cal_json(j, "write", &wr);
	else
		json_null(j, "write");
	record_end();
}

/*
 * overhead.c - see overhead.h.
 */
#include "bench/engine/overhead.h"
#include "bench/engine/phase_ticks.h"
#include "drivers/timer.h"

void wl_measure_overhead(struct wl_ctx *c, struct wl_overhead *o)
{
	const struct timer_info *ti = timer_get_info();
	struct wl_meas m;
	struct sd_req_times t;
	uint32_t i, t0, t1, n = 1000;

	wl_begin(c, &m, "overhead", "overhead", "overhead", false, WL_MULTI_CMD12, 1, 0);
	t0 = timer_ticks();
	for (i = 0; i < n; i++) {
		uint32_t now = timer_ticks();

		t.t_issue = now;
		t.t_cmd_done = now + 1;
		t.t_first_data = now + 2;
		t.t_data_done = now + 3;
		t.t_end = now + 4;
		t.host_ticks = 1;
		t.host_serial_ticks = 0;
		t.blk_ready = t.blk_done = 0;
		phase_pend_add(&m.pend, &m.acc, &t, 1, SD_BLOCK_SIZE, 0);
		if (m.nlat < c->lat_max)
			c->lat[m.nlat++] = now - t0;
		series_add(&m.ser, wl_now_ns(c), SD_BLOCK_SIZE, 1);
	}
	t1 = timer_ticks();
	o->timer = ti->source;
	o->timestamp_ns = ti->read_cost_ns;
	o->resolution_ns = ti->resolution_ns;
	o->bookkeeping_ns = timer_ticks_to_ns(t1 - t0) / n;
	o->timestamps_per_op = 4;
}

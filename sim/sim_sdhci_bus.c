/*
 * sim_sdhci_bus.c - the simulated controller's clock and bus timing (SD
 * clock = base / 2N with the 10-bit divider, frame times, the data
 * timeout), interrupt status setting, ground-truth accounting, and the
 * event loop that brings the controller up to a given virtual time.
 */
#include "sim/sim_sdhci.h"

struct sim_hc_state sim_hc;

uint32_t sim_sdhci_clock_hz(void)
{
	uint32_t n = ((sim_hc.control1 >> C1_CLK_FREQ8_SHIFT) & 0xff) |
		     ((sim_hc.control1 >> C1_CLK_FREQ_MS2_SHIFT) & 3) << 8;

	/* SDHCI 3.0 10-bit divided clock mode: f = base / 2N, N = 0: base. */
	return n ? cfg()->base_clock_hz / (2 * n) : cfg()->base_clock_hz;
}

bool sim_hc_clock_running(uint64_t t)
{
	return (sim_hc.control1 & C1_CLK_INTLEN) && (sim_hc.control1 & C1_CLK_EN) &&
	       sim_hc.clk_stable_at <= t;
}

uint8_t sim_sdhci_width(void)
{
	return (sim_hc.control0 & C0_HCTL_DWIDTH) ? 4 : 1;
}

uint32_t sim_sd_clock_hz(void)
{
	if (cfg()->sdhost)
		return sim_sdhost_clock_hz();
	return sim_hc_clock_running(sim_clk_now) ? sim_sdhci_clock_hz() : 0;
}

uint8_t sim_bus_width(void)
{
	if (cfg()->sdhost)
		return sim_sdhost_width();
	return sim_sdhci_width();
}

uint64_t sim_clocks_ns(uint64_t clocks, uint32_t hz)
{
	if (!hz)
		return SIM_NEVER;
	return (clocks * 1000000000ull + hz / 2) / hz;
}

uint64_t sim_hc_clk(uint64_t n)
{
	return sim_clocks_ns(n, sim_sdhci_clock_hz());
}

uint64_t sim_hc_edge(uint64_t t)
{
	uint64_t ep = sim_hc.clk_epoch, hz = sim_sdhci_clock_hz(), n, e;

	if (!hz || t <= ep || t == SIM_NEVER)
		return t;
	/* Clock edges fall at ep + k / f. */
	n = (uint64_t)(((unsigned __int128)(t - ep) * hz + 999999999u) / 1000000000u);
	for (;;) {
		e = ep + (uint64_t)(((unsigned __int128)n * 1000000000u + hz / 2) / hz);
		if (e >= t)
			return e;
		n++;
	}
}

/* Data timeout: TMCLK * 2^(13 + DATA_TOUNIT); 0xF disables it. */
uint64_t sim_hc_data_timeout_ns(void)
{
	uint32_t unit = (sim_hc.control1 >> C1_DATA_TOUNIT_SHIFT) & 0xf;
	uint32_t caps = sim_get_config()->caps;
	uint64_t tmclk = (caps & 0x3f) * ((caps & 0x80) ? 1000000ull : 1000ull);

	if (unit == 0xf || !tmclk)
		return SIM_NEVER;
	return ((1ull << (13 + unit)) * 1000000000ull) / tmclk;
}

void sim_hc_irq_raise(uint32_t bits)
{
	sim_hc.irpt |= bits & sim_hc.irpt_mask & ~INT_ERR;
}

void sim_hc_rec_close(struct rec *r, uint64_t t_end, uint32_t err,
		      uint32_t flags)
{
	if (!r->t)
		return;
	r->t->t_end_ns = t_end;
	r->t->err_irq |= err;
	if (err)
		r->t->flags |= SIM_T_ERROR;
	r->t->flags |= flags;
	sim_truth_close(r->t);
	sim_wire_record_closed(r->t);
	r->t = NULL;
}

/* ---- the CMD line ------------------------------------------------------------- */

uint64_t sim_hc_cmd_on_line(uint64_t start, uint32_t ncr, uint32_t rsp_bits,
			    bool timeout)
{
	uint64_t cmd_end = start + sim_hc_clk(W_CMD_BITS), rs, re;

	sim_wire_emit(SIM_LANE_CMD, start, cmd_end, SIM_W_CMD);
	if (timeout) {
		/* Nobody answers: the line stays high until the controller
		 * gives up. The card is what is missing. */
		sim_wire_emit(SIM_LANE_CMD, cmd_end, cmd_end + sim_hc_clk(W_NCR_MIN), SIM_W_GAP);
		sim_wire_emit(SIM_LANE_CMD, cmd_end + sim_hc_clk(W_NCR_MIN),
			      cmd_end + sim_hc_clk(W_CTO), SIM_W_CARD);
		return cmd_end + sim_hc_clk(W_CTO);
	}
	if (!rsp_bits)
		return cmd_end;
	if (ncr < W_NCR_MIN)
		ncr = W_NCR_MIN;
	rs = cmd_end + sim_hc_clk(ncr);
	re = rs + sim_hc_clk(rsp_bits);
	sim_wire_emit(SIM_LANE_CMD, cmd_end, cmd_end + sim_hc_clk(W_NCR_MIN), SIM_W_GAP);
	sim_wire_emit(SIM_LANE_CMD, cmd_end + sim_hc_clk(W_NCR_MIN), rs, SIM_W_CARD);
	sim_wire_emit(SIM_LANE_CMD, rs, re, SIM_W_CMD);
	return re;
}

uint64_t sim_hc_cmd_line_wait(uint64_t from)
{
	uint64_t free_t = sim_hc.cmd_line_free, start;
	uint64_t proto = sim_hc.cmd_resp_end ? sim_hc.cmd_resp_end + sim_hc_clk(W_NRC_MIN) : 0;

	if (free_t > from) {
		/* N_RC / N_CC after the last response: the protocol's 8 clocks,
		 * then what the controller adds. */
		sim_wire_emit(SIM_LANE_CMD, from, min64(free_t, max64(proto, from)), SIM_W_GAP);
		sim_wire_emit(SIM_LANE_CMD, max64(proto, from), free_t, SIM_W_CTRL_GAP);
		from = free_t;
	}
	/* A command starts on an SD clock edge. */
	start = sim_hc_edge(from);
	sim_wire_emit(SIM_LANE_CMD, from, start, SIM_W_GAP);
	return start;
}

/* ---- time ------------------------------------------------------------------ */

uint64_t sim_sdhci_next_event(void)
{
	uint64_t e = SIM_NEVER;
	int w;

	if (sim_hc.cmd_active)
		e = sim_hc.cmd_done_t;
	e = min64(e, sim_hc_xfer_next(&w));
	e = min64(e, sim_hc_r1b_next(&w));
	if (sim_hc.clk_stable_at > sim_clk_now && sim_hc.clk_stable_at != SIM_NEVER)
		e = min64(e, sim_hc.clk_stable_at);
	if (sim_card.present && sim_card.busy_until > sim_clk_now)
		e = min64(e, sim_card.busy_until);
	return e;
}

void sim_sdhci_advance(uint64_t t)
{
	for (;;) {
		uint64_t ec = sim_hc.cmd_active ? sim_hc.cmd_done_t : SIM_NEVER;
		int wx, wb;
		uint64_t ex = sim_hc_xfer_next(&wx);
		uint64_t eb = sim_hc_r1b_next(&wb);
		uint64_t e = min64(ec, min64(ex, eb));

		if (e > t || e == SIM_NEVER)
			break;
		if (e == ec)
			sim_hc_cmd_complete();
		else if (e == ex)
			sim_hc_xfer_step(e, wx);
		else
			sim_hc_r1b_step(e, wb);
	}
	sim_wire_commit(t);
}


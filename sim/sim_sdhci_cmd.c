/*
 * sim_sdhci_cmd.c - the simulated controller's command engine: a command
 * written to CMDTM goes on the CMD line at the programmed clock, reaches
 * the card at its end bit, and completes after N_CR and the response (or a
 * timeout 64 clocks later); Auto-CMD23 goes first; R1b busy follows on
 * DAT0 (SDHCI 3.00 §3.7.1, SD Physical Layer §4.12 timing).
 *
 * Wires: the controller puts the command on CMD cmd_latency_ns after the
 * CMDTM write, at an SD clock edge, and not before cmd_gap_clocks after the
 * previous response (N_RC / N_CC); the card answers N_CR clocks after the
 * command's end bit (its profile). Each piece is booked on the CMD lane of
 * the wire truth (sim_wire.c) when the command is issued.
 *
 * Not modelled: host-side command CRC errors, command conflicts, the
 * "command not issued by Auto-CMD12" error.
 */
#include <string.h>

#include "sim/sim_sdhci.h"

void sim_hc_cmd_complete(void)
{
	uint64_t t = sim_hc.cmd_done_t;

	sim_hc.cmd_active = false;
	if (sim_hc.cmd_load_resp)
		memcpy(sim_hc.resp, sim_hc.cmd_resp, sizeof(sim_hc.resp));
	sim_hc.control2 |= sim_hc.cmd_c2;
	sim_hc_irq_raise(sim_hc.cmd_irq);
	if (sim_hc.cmd_irq & 0xffff0000u) {
		if (cfg()->strict_cmd_inhibit)
			sim_hc.cmd_wedged = true;
		/* The record ends here; a data phase that was asked for
		 * will end in a data timeout with no record of its own. */
		if (sim_hc.x.r.t == sim_hc.cr.t)
			sim_hc.x.r.t = NULL;
		sim_hc_rec_close(&sim_hc.cr, t, sim_hc.cmd_irq & 0xffff0000u, 0);
		return;
	}
	if (sim_hc.cmd_r1b && !sim_hc.x.active) {
		sim_hc.r1b_active = true;
		sim_hc.r1b_start = t;
		sim_wire_hold(SIM_LANE_DAT, t);
		sim_hc.br = sim_hc.cr; /* the record continues through the busy phase */
		sim_hc.cr.t = NULL;
		return;
	}
	if (sim_hc.x.active && sim_hc.x.r.t == sim_hc.cr.t) {
		sim_hc.cr.t = NULL; /* the transfer owns the record now */
		if (sim_hc.x.dir == XK_WRITE)
			sim_hc_irq_raise(INT_WRITE_RDY);
		return;
	}
	sim_hc_rec_close(&sim_hc.cr, t, 0, 0);
}

uint64_t sim_hc_r1b_next(int *what)
{
	uint64_t to = sim_hc_data_timeout_ns(), end;

	*what = 0;
	if (!sim_hc.r1b_active)
		return SIM_NEVER;
	end = sim_hc.r1b_start;
	if (sim_card.present)
		end = max64(sim_card.busy_until, end);
	if (end == SIM_NEVER || (to != SIM_NEVER && end > sim_hc.r1b_start + to)) {
		if (to == SIM_NEVER)
			return SIM_NEVER;
		*what = 3;
		return sim_hc.r1b_start + to;
	}
	*what = 4;
	return end;
}

void sim_hc_r1b_step(uint64_t e, int what)
{
	sim_hc.r1b_active = false;
	/* DAT0 low from the response on (the card was busy since the
	 * command's end bit, under the response). */
	sim_wire_emit(SIM_LANE_DAT, sim_hc.r1b_start, e, SIM_W_BUSY);
	sim_wire_release(SIM_LANE_DAT);
	if (what == 3) {
		sim_hc_irq_raise(INT_DTO_ERR);
		sim_hc_rec_close(&sim_hc.br, e, INT_DTO_ERR, 0);
		sim_hc.dat_wedged = true;
		return;
	}
	sim_hc_irq_raise(INT_DATA_DONE);
	sim_hc_rec_close(&sim_hc.br, e, 0, 0);
}

/* Arm the data engine for the command just issued: what the card will
 * send or accept (o), the faults that hit its blocks, the truth record. */
static void start_data(uint32_t cmdtm, uint8_t idx, const struct sim_cmd_out *o,
		       uint32_t fm, uint32_t fblock, uint64_t stuck,
		       uint64_t cmd_end, struct sim_truth *tr)
{
	uint32_t autoc = (cmdtm >> TM_AUTO_CMD_SHIFT) & 3;
	struct xfer *x = &sim_hc.x;
	uint32_t blksz = sim_hc.blksizecnt & 0x3ff;
	uint32_t cnt = sim_hc.blksizecnt >> 16;

	memset(x, 0, sizeof(*x));
	x->active = true;
	x->dir = (cmdtm & TM_DAT_DIR) ? XK_READ : XK_WRITE;
	x->mem = o->mem;
	if (!o->mem)
		memcpy(x->reg_data, o->reg_data, sizeof(x->reg_data));
	x->blksz = blksz ? blksz : 1024; /* 0 is not valid: see below */
	if (!blksz)
		sim_violation("CMD%u: block size 0", idx);
	x->blkcnt_en = cmdtm & TM_BLKCNT_EN;
	if (!(cmdtm & TM_MULTI_BLOCK))
		x->total = 1;
	else if (x->blkcnt_en || autoc == TM_AUTO_CMD23)
		x->total = cnt;
	else
		x->total = OPEN_ENDED;
	if ((cmdtm & TM_MULTI_BLOCK) && x->total == 0) {
		sim_violation("CMD%u: multi-block with block count 0", idx);
		x->total = 1;
	}
	x->auto12 = autoc == TM_AUTO_CMD12 && (cmdtm & TM_MULTI_BLOCK);
	x->resp_end = sim_hc.cmd_done_t;
	x->fault_mask = fm;
	x->fault_block = fblock;
	x->stuck_ns = stuck;
	x->r.t = tr;
	tr->blksz = x->blksz;
	/* The DAT lines belong to this transfer until it completes. */
	sim_wire_hold(SIM_LANE_DAT, sim_clk_now);
	if (x->dir == XK_READ) {
		bool sends = o->rsp != RSP_NONE && o->xfer == XK_READ;
		bool lost = (fm & (1u << SIM_FAULT_DATA_TIMEOUT)) && fblock == 0;
		uint64_t lat = sends && !lost ? sim_card_read_latency(0) :
						SIM_NEVER;

		x->card_ready = lat == SIM_NEVER ? SIM_NEVER : cmd_end + lat;
		tr->card_access_ns = lat == SIM_NEVER ? 0 : lat;
		x->wait_since = cmd_end;
		/* The first block may start N_AC (>= 2 clocks) after the
		 * command's end bit, while the response is still on CMD. */
		x->wait_from = cmd_end;
		x->proto_ready = cmd_end + sim_hc_clk(W_NAC_MIN);
		x->ctrl_ready = 0;
		if (x->card_ready != SIM_NEVER)
			x->card_ready = max64(x->card_ready, x->proto_ready);
		if (o->mem && o->xfer == XK_READ && o->blksz != x->blksz)
			sim_violation("CMD%u: block size %u, card sends %u",
				      idx, x->blksz, o->blksz);
		if (!o->mem && o->xfer == XK_READ && o->blksz != x->blksz)
			sim_violation("CMD%u: block size %u, register is %u bytes",
				      idx, x->blksz, o->blksz);
	} else {
		x->busy_end = (o->rsp != RSP_NONE && o->xfer == XK_WRITE) ?
				      0 : SIM_NEVER;
		x->wait_since = sim_hc.cmd_done_t;
		/* The first block waits for the response, then N_WR. */
		x->wait_from = sim_hc.cmd_done_t;
		x->proto_ready = sim_hc.cmd_done_t + sim_hc_clk(W_NWR_MIN);
		x->ctrl_ready = sim_hc.cmd_done_t + sim_hc_clk(cfg()->write_nwr_clocks);
	}
	if (cmdtm & TM_DMA_EN) {
		uint32_t sel = (sim_hc.control0 >> C0_DMA_SEL_SHIFT) & 3u;

		if (!cfg()->adma2)
			sim_violation("CMD%u: DMA enabled on a controller without DMA", idx);
		else if (sel == C0_DMA_ADMA2_32)
			sim_hc_adma_start(false);
		else if (sel == 3u && cfg()->adma64)
			sim_hc_adma_start(true);
		else
			sim_violation("CMD%u: DMA select %u (only %s ADMA2 is modelled)",
				      idx, sel, cfg()->adma64 ? "32- and 64-bit" : "32-bit");
	}
}

void sim_hc_issue_command(uint32_t cmdtm)
{
	uint8_t idx = (cmdtm >> CMD_INDEX_SHIFT) & 0x3f;
	uint32_t rtype = (cmdtm >> CMD_RSPNS_SHIFT) & 3;
	bool isdata = cmdtm & CMD_ISDATA;
	uint32_t autoc = (cmdtm >> TM_AUTO_CMD_SHIFT) & 3;
	uint64_t now = sim_clk_now, start, cmd_end;
	uint32_t fm, fblock = 0, flags = 0, hz = sim_sdhci_clock_hz();
	uint64_t stuck = 0;
	struct sim_cmd_out o;
	bool app = sim_card.app_next;
	struct sim_truth *tr;
	int match;

	if (idx != 55 && app)
		flags |= SIM_T_APP;
	if (isdata)
		flags |= (cmdtm & TM_DAT_DIR) ? SIM_T_READ : SIM_T_WRITE;
	if (rtype == CMD_RSPNS_48BUSY)
		flags |= SIM_T_R1B;
	tr = sim_truth_open(idx, sim_hc.arg1, flags | SIM_T_OPEN);
	tr->clock_hz = sim_hc_clock_running(now) ? hz : 0;
	tr->width = sim_sdhci_width();
	sim_hc.cr.t = tr;
	sim_hc.cmd_active = true;
	sim_hc.cmd_irq = 0;
	sim_hc.cmd_c2 = 0;
	sim_hc.cmd_load_resp = false;
	sim_hc.cmd_r1b = rtype == CMD_RSPNS_48BUSY;
	sim_hc.control2 &= ~0xffu;

	if (!sim_hc_clock_running(now)) {
		sim_violation("CMD%u issued with the SD clock off or unstable", idx);
		sim_hc.cmd_done_t = SIM_NEVER; /* nothing moves: SRST_CMD needed */
		return;
	}
	if (hz > 400000 && sim_card.present &&
	    sim_card_state_at(now) <= ST_IDENT && idx != 0)
		sim_violation("CMD%u at %u Hz during identification (max 400 kHz)",
			      idx, hz);

	/* The controller needs cmd_latency_ns to get the command from the
	 * register to the line, and the line must have been idle for N_RC
	 * after the last response: whichever comes last holds the command. */
	{
		uint64_t ready = now + cfg()->cmd_latency_ns;

		if (sim_hc.cmd_line_free > ready) {
			start = sim_hc_cmd_line_wait(now);
		} else {
			sim_wire_emit(SIM_LANE_CMD, now, ready, SIM_W_HOST_CTRL);
			start = sim_hc_cmd_line_wait(ready);
		}
	}
	/* Auto CMD23 goes first (SDHCI 3.0 §3.7.2.2). */
	if (isdata && autoc == TM_AUTO_CMD23 && (cmdtm & TM_MULTI_BLOCK)) {
		struct sim_cmd_out o23;
		uint64_t e23 = start + sim_hc_clk(W_CMD_BITS), r23;

		tr->flags |= SIM_T_AUTO23;
		fm = sim_fault_on_command(23, NULL, NULL);
		if (sim_card.present && !(fm & (1u << SIM_FAULT_CMD_TIMEOUT)))
			sim_card_command(23, sim_hc.arg2, e23, &o23);
		else
			o23.rsp = RSP_NONE;
		if (o23.rsp == RSP_NONE) {
			sim_hc.cmd_done_t = sim_hc_cmd_on_line(start, 0, 0, true);
			sim_hc.cmd_c2 = C2_ACTO_ERR;
			sim_hc.cmd_irq = INT_ACMD_ERR;
			return;
		}
		r23 = sim_hc_cmd_on_line(start, sim_card.p->ncr_clocks, W_R48_BITS, false);
		sim_hc.cmd_resp_end = r23;
		sim_hc.cmd_line_free = r23 + sim_hc_clk(cfg()->cmd_gap_clocks);
		start = sim_hc_cmd_line_wait(r23);
	}
	cmd_end = start + sim_hc_clk(W_CMD_BITS);

	match = app && idx != 55 ? SIM_ACMD(idx) : idx;
	fm = sim_fault_on_command(match, &fblock, &stuck);
	/* Removal on a command without data: the card is gone before it
	 * hears the command. */
	if ((fm & (1u << SIM_FAULT_REMOVE)) && !isdata && sim_card.present) {
		sim_card.present = false;
		sim_sdhci_card_removed();
	}
	if (!sim_card.present || (fm & (1u << SIM_FAULT_CMD_TIMEOUT)))
		memset(&o, 0, sizeof(o));
	else
		sim_card_command(idx, sim_hc.arg1, cmd_end, &o);

	if (o.rsp == RSP_NONE) {
		if (rtype == CMD_RSPNS_NONE) {
			sim_hc.cmd_done_t = sim_hc_cmd_on_line(start, 0, 0, false);
			sim_hc.cmd_irq = INT_CMD_DONE;
		} else {
			sim_hc.cmd_done_t = sim_hc_cmd_on_line(start, 0, 0, true);
			sim_hc.cmd_irq = INT_CTO_ERR |
					 (cfg()->cto_sets_cmd_done ? INT_CMD_DONE : 0);
		}
		sim_hc.cmd_resp_end = sim_hc.cmd_done_t;
		sim_hc.cmd_line_free = sim_hc.cmd_done_t + sim_hc_clk(cfg()->cmd_gap_clocks);
		tr->t_resp_ns = sim_hc.cmd_done_t;
		if (isdata)
			start_data(cmdtm, idx, &o, fm, fblock, stuck, cmd_end, tr);
		return;
	}
	{
		/* A response to a command sent with "no response" still
		 * crosses the line; the controller does not wait for it. */
		uint64_t re = sim_hc_cmd_on_line(start, sim_card.p->ncr_clocks,
						 o.rsp == RSP_136 ? W_R136_BITS : W_R48_BITS,
						 false);

		sim_hc.cmd_done_t = rtype == CMD_RSPNS_NONE ? cmd_end : re;
		sim_hc.cmd_resp_end = re;
		sim_hc.cmd_line_free = re + sim_hc_clk(cfg()->cmd_gap_clocks);
	}
	sim_hc.cmd_irq = INT_CMD_DONE;
	if (rtype != CMD_RSPNS_NONE) {
		sim_hc.cmd_load_resp = true;
		if (rtype == CMD_RSPNS_136) {
			/* Arasan/SDHCI: bits [127:8], CRC byte dropped. */
			sim_hc.cmd_resp[0] = o.r[3] >> 8 | o.r[2] << 24;
			sim_hc.cmd_resp[1] = o.r[2] >> 8 | o.r[1] << 24;
			sim_hc.cmd_resp[2] = o.r[1] >> 8 | o.r[0] << 24;
			sim_hc.cmd_resp[3] = o.r[0] >> 8;
			if (o.rsp != RSP_136)
				sim_hc.cmd_irq = INT_CEND_ERR; /* length mismatch */
		} else {
			sim_hc.cmd_resp[0] = o.r[0];
			sim_hc.cmd_resp[1] = sim_hc.resp[1];
			sim_hc.cmd_resp[2] = sim_hc.resp[2];
			sim_hc.cmd_resp[3] = sim_hc.resp[3];
			if (o.rsp == RSP_136)
				sim_hc.cmd_irq = INT_CEND_ERR;
			if ((cmdtm & CMD_IXCHK_EN) && o.index != idx)
				sim_hc.cmd_irq = INT_CBAD_ERR;
		}
		if ((fm & (1u << SIM_FAULT_CMD_CRC)) && (cmdtm & CMD_CRCCHK_EN))
			sim_hc.cmd_irq = INT_CCRC_ERR;
		if ((fm & (1u << SIM_FAULT_CMD_INDEX)) && (cmdtm & CMD_IXCHK_EN))
			sim_hc.cmd_irq = INT_CBAD_ERR;
		if (fm & (1u << SIM_FAULT_CMD_END))
			sim_hc.cmd_irq = INT_CEND_ERR;
		if (hz > sim_card_max_hz() &&
		    (cmdtm & CMD_CRCCHK_EN))
			sim_hc.cmd_irq = INT_CCRC_ERR;
	}
	tr->t_resp_ns = sim_hc.cmd_done_t;

	if (sim_hc.cmd_r1b && !isdata) {
		uint64_t b = o.busy_ns;

		if (fm & (1u << SIM_FAULT_STUCK_BUSY))
			b = stuck ? stuck : SIM_NEVER;
		if (b)
			sim_card_set_busy(b == SIM_NEVER ? SIM_NEVER : cmd_end + b);
	}
	if (isdata)
		start_data(cmdtm, idx, &o, fm, fblock, stuck, cmd_end, tr);
}


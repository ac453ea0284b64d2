/*
 * sim_sdhci_data.c - the simulated controller's data engine: blocks
 * between the card and the buffer at bus speed, the buffer the CPU drains
 * or fills through the DATA port, write busy on DAT0, Auto-CMD12, data
 * timeout and data errors (SDHCI 3.00 §2.2.9 Present State, §3.7.2 PIO,
 * SD Physical Layer §4.5 data framing, §4.12 timing).
 *
 * Not modelled: DMA, block-gap stop/continue, read wait.
 */
#include <string.h>

#include "tests/sim/sim_sdhci.h"

enum { B_NONE, B_ACCESS, B_BUSY };

static void xfer_error(uint64_t t, uint32_t irq, int bucket)
{
	struct xfer *x = &sim_hc.x;

	if (bucket == B_ACCESS)
		ACCT(&x->r, t, access_ns);
	else if (bucket == B_BUSY)
		ACCT(&x->r, t, busy_ns);
	sim_hc_irq_raise(irq);
	sim_hc_rec_close(&x->r, t, irq, 0);
	x->active = false;
	/* The DAT state machine stops where it was: only SRST_DATA frees it
	 * (measured on QEMU, SDHCI 3.0 §3.10 error recovery). */
	sim_hc.dat_wedged = true;
	/* The card itself stays in data/rcv until CMD12, like a real one. */
}

static bool data_fault(uint32_t kind, uint32_t k)
{
	return (sim_hc.x.fault_mask & (1u << kind)) && sim_hc.x.fault_block == k;
}

/* Anything that garbles the DAT lines: width mismatch, clock too fast. */
static bool dat_garbled(void)
{
	uint32_t f = sim_sdhci_clock_hz();
	uint32_t fmax = sim_card.hs_mode ? 50000000u : 25000000u;

	return sim_sdhci_width() != sim_card.width || f > fmax;
}

static void garbled_violation(void)
{
	sim_violation("CMD%u: DAT lines garbled (width %u vs card %u, %u Hz)",
		      (sim_hc.cmdtm >> CMD_INDEX_SHIFT) & 0x3f, sim_sdhci_width(),
		      sim_card.width, sim_sdhci_clock_hz());
}

static uint64_t frame_ns(void)
{
	uint64_t c = sim_block_clocks(sim_hc.x.blksz, sim_sdhci_width());

	/* Writes: N_WR (2) before the start bit, then 2 clocks and the 5-bit
	 * CRC status token after the end bit (§4.12.4). */
	if (sim_hc.x.dir == XK_WRITE)
		c += 2 + 2 + 5;
	return sim_hc_clk(c);
}

/* Send CMD12 on behalf of the driver (Auto CMD12) starting at t. */
static uint64_t auto12(uint64_t t)
{
	struct sim_cmd_out o;
	uint64_t cmd_end = t + sim_hc_clk(48), done;
	uint32_t fm;

	/* Errors show when the command ends (xfer_next, what 5). */
	fm = sim_fault_on_command(12, NULL, NULL);
	if (!sim_card.present || (fm & (1u << SIM_FAULT_CMD_TIMEOUT))) {
		sim_hc.x.auto12_c2 = C2_ACTO_ERR;
		sim_hc.x.auto12_irq = INT_ACMD_ERR;
		return cmd_end + sim_hc_clk(64);
	}
	sim_card_command(12, 0, cmd_end, &o);
	done = cmd_end + sim_hc_clk(sim_card.p->ncr_clocks + 48);
	if (o.rsp == RSP_NONE) {
		sim_hc.x.auto12_c2 = C2_ACTO_ERR;
		sim_hc.x.auto12_irq = INT_ACMD_ERR;
		return cmd_end + sim_hc_clk(64);
	}
	if (fm & (1u << SIM_FAULT_CMD_CRC)) {
		sim_hc.x.auto12_c2 = C2_ACCRC_ERR;
		sim_hc.x.auto12_irq = INT_ACMD_ERR;
	}
	sim_hc.resp[3] = o.r[0];
	if (sim_hc.x.r.t)
		sim_hc.x.r.t->flags |= SIM_T_AUTO12;
	sim_hc.cmd_line_free = done + sim_hc_clk(8);
	return done;
}

static void read_block_done(void)
{
	struct xfer *x = &sim_hc.x;
	uint32_t k = x->bus_k;
	uint32_t slot = (x->host_k + x->buf_count) % MAX_BUF;
	uint64_t t = x->bus_end, lat;

	ACCT(&x->r, t, data_bus_ns);
	x->in_flight = false;
	if (x->r.t)
		x->r.t->t_last_bus_ns = t;
	if (data_fault(SIM_FAULT_DATA_CRC, k) || dat_garbled()) {
		if (dat_garbled())
			garbled_violation();
		xfer_error(t, INT_DCRC_ERR, B_NONE);
		return;
	}
	if (data_fault(SIM_FAULT_DATA_END, k)) {
		xfer_error(t, INT_DEND_ERR, B_NONE);
		return;
	}
	if (x->mem)
		sim_card_read_data(k, x->buf[slot], x->blksz);
	else
		memcpy(x->buf[slot], x->reg_data, x->blksz);
	x->buf_count++;
	if (x->r.t) {
		x->r.t->blocks++;
		if (k == 0)
			x->r.t->t_first_ready_ns = t;
	}
	if (x->blkcnt_en && (sim_hc.blksizecnt >> 16))
		sim_hc.blksizecnt -= 1u << 16;
	if (x->buf_count == 1)
		sim_hc_irq_raise(INT_READ_RDY);
	x->bus_k++;
	if (x->total != OPEN_ENDED && x->bus_k >= x->total) {
		x->bus_done = true;
		x->bus_done_t = t;
		sim_card_data_done(t, false);
		if (x->auto12) {
			x->auto12_sent = true;
			x->auto12_done = auto12(t);
		}
		return;
	}
	lat = sim_card_read_latency(x->bus_k);
	x->card_ready = lat == SIM_NEVER ? SIM_NEVER : t + lat;
	x->wait_since = t;
}

static void write_block_done(void)
{
	struct xfer *x = &sim_hc.x;
	uint32_t k = x->bus_k;
	uint32_t slot = (x->host_k - x->buf_count) % MAX_BUF;
	uint64_t t = x->bus_end, busy;
	bool last = x->total != OPEN_ENDED && k + 1 >= x->total;

	ACCT(&x->r, t, data_bus_ns);
	x->in_flight = false;
	if (x->r.t) {
		x->r.t->t_last_bus_ns = t;
		x->r.t->blocks++;
	}
	x->buf_count--;
	x->slot_free_t = t;
	if (x->host_k < x->total)
		sim_hc_irq_raise(INT_WRITE_RDY);
	if (data_fault(SIM_FAULT_DATA_CRC, k) || dat_garbled()) {
		/* Negative CRC status: the card drops the block. */
		if (dat_garbled())
			garbled_violation();
		if (!sim_card.op_multi && sim_card.state == ST_RCV)
			sim_card.state = ST_TRAN;
		xfer_error(t, INT_DCRC_ERR, B_NONE);
		return;
	}
	if (data_fault(SIM_FAULT_DATA_TIMEOUT, k)) {
		x->busy_end = SIM_NEVER; /* no CRC status at all */
		x->wait_since = t;
		x->bus_k++;
		return;
	}
	busy = sim_card_write_block(k, x->buf[slot], x->blksz, t, last);
	if (busy != SIM_NEVER && data_fault(SIM_FAULT_STUCK_BUSY, k)) {
		busy = x->stuck_ns ? x->stuck_ns : SIM_NEVER;
		sim_card_set_busy(busy == SIM_NEVER ? SIM_NEVER : t + busy);
	}
	x->busy_end = busy == SIM_NEVER ? SIM_NEVER : t + busy;
	x->wait_since = t;
	if (x->blkcnt_en && (sim_hc.blksizecnt >> 16))
		sim_hc.blksizecnt -= 1u << 16;
	x->bus_k++;
	if (last) {
		x->bus_done = true;
		x->bus_done_t = t;
		if (x->auto12) {
			x->auto12_sent = true;
			x->auto12_done = auto12(t);
			/* CMD12 extended the programming (write_last). */
			if (x->busy_end != SIM_NEVER)
				x->busy_end = max64(x->busy_end,
						    sim_card.busy_until);
		}
	}
}

static void xfer_complete(uint64_t t)
{
	struct xfer *x = &sim_hc.x;

	if (x->r.t) {
		if (x->dir == XK_WRITE) {
			ACCT(&x->r, min64(x->busy_end, t), busy_ns);
			ACCT(&x->r, t, auto_cmd_ns);
		} else {
			ACCT(&x->r, x->auto12_sent ? min64(x->auto12_done, t) : 0,
			     auto_cmd_ns);
			ACCT(&x->r, t, host_wait_ns);
		}
	}
	sim_hc_irq_raise(INT_DATA_DONE);
	sim_hc_rec_close(&x->r, t, 0, 0);
	x->active = false;
}

/* Earliest time something happens in the transfer, SIM_NEVER if it waits
 * for the CPU. *what: 1 block end, 2 block start, 3 timeout, 4 complete. */
uint64_t sim_hc_xfer_next(int *what)
{
	struct xfer *x = &sim_hc.x;
	uint64_t to = sim_hc_data_timeout_ns();

	*what = 0;
	if (!x->active || sim_hc.cmd_active)
		return SIM_NEVER; /* data follows the response in this model */
	if (x->auto12_irq) {
		*what = 5;
		return x->auto12_done;
	}
	if (x->in_flight) {
		*what = 1;
		return x->bus_end;
	}
	if (x->dir == XK_READ) {
		if (x->bus_done) {
			if (x->buf_count == 0) {
				*what = 4;
				return max64(x->host_done_t,
					     x->auto12_sent ? x->auto12_done : 0);
			}
			return SIM_NEVER;
		}
		if (x->buf_count >= cfg()->buf_blocks)
			return SIM_NEVER; /* clock stopped: wait for the CPU */
		{
			uint64_t since = max64(x->wait_since, x->slot_free_t);
			uint64_t s = max64(x->card_ready, x->slot_free_t);

			if (to != SIM_NEVER && (x->card_ready == SIM_NEVER ||
						x->card_ready > since + to)) {
				*what = 3;
				return since + to;
			}
			*what = 2;
			return s;
		}
	}
	/* write */
	if (x->busy_end != SIM_NEVER && x->bus_done) {
		*what = 4;
		return max64(x->busy_end, x->auto12_sent ? x->auto12_done : 0);
	}
	if (x->busy_end == SIM_NEVER) {
		if (to == SIM_NEVER)
			return SIM_NEVER;
		*what = 3;
		return x->wait_since + to;
	}
	if (x->buf_count == 0)
		return SIM_NEVER; /* waiting for the CPU to fill the buffer */
	{
		uint32_t slot = (x->host_k - x->buf_count) % MAX_BUF;
		uint64_t s = max64(max64(x->busy_end, x->fill_t[slot]),
				   x->resp_end);

		if (to != SIM_NEVER && x->busy_end > x->wait_since + to) {
			*what = 3;
			return x->wait_since + to;
		}
		*what = 2;
		return s;
	}
}

static void block_start(uint64_t s)
{
	struct xfer *x = &sim_hc.x;

	if (x->fault_mask & (1u << SIM_FAULT_REMOVE) && x->fault_block == x->bus_k) {
		x->fault_mask &= ~(1u << SIM_FAULT_REMOVE);
		sim_card.present = false;
		sim_sdhci_card_removed();
		x->card_ready = SIM_NEVER;
		x->busy_end = x->dir == XK_WRITE ? SIM_NEVER : x->busy_end;
		x->wait_since = s;
		return;
	}
	if (x->r.t) {
		if (x->dir == XK_READ) {
			ACCT(&x->r, min64(x->card_ready, s), access_ns);
			ACCT(&x->r, s, host_wait_ns);
		} else {
			ACCT(&x->r, min64(x->busy_end, s), busy_ns);
			ACCT(&x->r, s, host_wait_ns);
			if (x->bus_k == 0)
				x->r.t->t_first_ready_ns = s;
		}
	}
	x->in_flight = true;
	x->bus_start = s;
	x->bus_end = s + frame_ns();
	if (x->r.t) {
		struct sim_block_truth *b = sim_truth_blk(x->r.t, x->bus_k);

		b->bus_start_ns = s;
		b->bus_end_ns = x->bus_end;
	}
}

void sim_hc_xfer_step(uint64_t e, int what)
{
	struct xfer *x = &sim_hc.x;

	switch (what) {
	case 1:
		if (x->dir == XK_READ)
			read_block_done();
		else
			write_block_done();
		break;
	case 2:
		block_start(e);
		break;
	case 3:
		xfer_error(e, INT_DTO_ERR,
			   x->dir == XK_WRITE && x->busy_end == SIM_NEVER ?
				   B_BUSY : B_ACCESS);
		break;
	case 4:
		xfer_complete(e);
		break;
	case 5:
		sim_hc.control2 |= x->auto12_c2;
		sim_hc_irq_raise(x->auto12_irq);
		if (x->r.t)
			x->r.t->err_irq |= x->auto12_irq;
		x->auto12_irq = 0;
		break;
	}
}


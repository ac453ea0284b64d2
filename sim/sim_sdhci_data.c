/*
 * sim_sdhci_data.c - the simulated controller's data engine: blocks
 * between the card and the buffer at bus speed, the buffer the CPU drains
 * or fills through the DATA port, write busy on DAT0, Auto-CMD12, data
 * timeout and data errors (SDHCI 3.00 §2.2.9 Present State, §3.7.2 PIO,
 * SD Physical Layer §4.5 data framing, §4.12 timing).
 *
 * Wires (sim/README.md "Timing model"):
 *  - read: a block starts N_AC after the command's end bit or after the
 *    previous block's end bit - at least 2 clocks, more if the card is not
 *    ready (access latency, its own inter-block gap) - on a clock edge. The
 *    controller stops the SD clock while its buffer is full (read wait),
 *    and, on hosts that do it, for read_gap_clocks after every block.
 *  - write: a block starts N_WR (the controller's write_nwr_clocks, at
 *    least 2) after the response or after the previous block's busy, once
 *    the CPU has filled it; then N_CRC (2 clocks), the CRC status token
 *    (5 bits), and DAT0 busy while the card programs.
 * Each DAT-lane wait is booked in the wire truth when the block that ends
 * it starts: its first 2 clocks (the protocol's minimum) as bus, the rest
 * to whatever arrived last - the card, the controller's idle clocks or the
 * CPU.
 *
 * ADMA2 (SDHCI 3.00 §1.13, 32-bit descriptors, and 64-bit ones where the
 * host has them (cfg adma64): DMA Select 11b, 12-byte descriptors with a
 * 64-bit address, ADMA System Address in both halves): with DMA enabled the
 * controller's master takes the CPU's place at the buffer. It moves one
 * block at a time, as soon as a read block is in the buffer or a write
 * slot is free, taking dma_word_ns per word plus dma_desc_ns per
 * descriptor it fetches, and places the bytes by the descriptor table in
 * memory (sim_dma.c): nop and reserved descriptors are skipped, link
 * jumps, tran moves up to 64 KiB (length 0 = 65536), END ends the table.
 * An invalid descriptor (valid clear, a misaligned address), an address
 * the master cannot reach, or a table whose length differs from the
 * transfer's (SDHCI: length mismatch) stops the transfer with
 * ADMA_ERR: ADMA Error Status says the state (FDS: fetching, ADMA_ADDR at
 * the bad descriptor; TFR: transferring, ADMA_ADDR at the next one) and
 * the length error bit. The waits for the master are booked to the host in
 * the wire truth (it is the host side of the bus, like the CPU in PIO).
 *
 * Not modelled: block-gap stop/continue requested by the driver; SDMA,
 * SDHCI 4.x 128-bit descriptors (Host Version 4 Enable), ADMA1; the master's bus contention with the CPU.
 */
#include <string.h>

#include "sim/sim_sdhci.h"

enum { B_NONE, B_ACCESS, B_BUSY };

static void xfer_error(uint64_t t, uint32_t irq, int bucket)
{
	struct xfer *x = &sim_hc.x;

	/* What the DAT lines were waiting for when the error struck. */
	if (bucket == B_ACCESS)
		sim_wire_emit(SIM_LANE_DAT, x->wait_from, t, SIM_W_CARD);
	else if (bucket == B_BUSY)
		sim_wire_emit(SIM_LANE_DAT, x->wait_from, t, SIM_W_BUSY);
	sim_wire_release(SIM_LANE_DAT);
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

/* BCM2712: above 50 MHz the controller needs the delay-line PHY as its
 * clock source (SDIO_CFG_MAX_50MHZ_MODE: strap override set, 50 MHz
 * enable clear; after reset the strap keeps the 50 MHz-only path). */
#define CFG_MAX_50MHZ_MODE 0x1acu
static bool bcm2712_phy_limited(uint32_t f)
{
	uint32_t m;

	if (cfg()->platform != SIM_PLATFORM_BCM2712 || f <= 50000000u)
		return false;
	m = sim_hc.bcm2712_cfg[CFG_MAX_50MHZ_MODE / 4];
	if ((m & (1u << 31)) && !(m & 1u))
		return false;
	sim_violation("SD clock %u Hz on the BCM2712's 50 MHz path (SDIO_CFG_MAX_50MHZ_MODE "
		      "0x%08x: the delay-line PHY is not selected)", f, m);
	return true;
}

/* Anything that garbles the DAT lines: width mismatch, clock too fast
 * for the card's mode, SDR against DDR, 1.8 V signalling on one side
 * only, above 100 MHz a sampling point that was never tuned. */
static bool dat_garbled(void)
{
	uint32_t f = sim_sdhci_clock_hz();
	bool v18 = sim_card.io_mv == 1800;
	uint32_t fmax = sim_card_max_hz();
	bool card_ddr = v18 && sim_card.g1 == 4;

	if (v18 != ((sim_hc.control2 & HC2_1V8_EN) != 0) || card_ddr != sim_hc_ddr())
		return true;
	if (f > 100000000u && !(sim_hc.control2 & HC2_SAMPLE_CLK))
		return true;
	if (bcm2712_phy_limited(f))
		return true;
	return sim_sdhci_width() != sim_card.width || f > fmax;
}

/* A tuning block read with Execute Tuning set: the controller checks it
 * at its current sampling tap and moves on; the CPU never sees it. The
 * procedure ends (Execute Tuning cleared) after the first bad tap past a
 * good run, or after the last tap; Sampling Clock Select then says
 * whether a good run was found. */
static void tuning_block_done(uint64_t t)
{
	struct xfer *x = &sim_hc.x;
	const struct sim_profile *p = sim_card.p;
	uint32_t tap = sim_hc.tune_tap++;
	bool good = p->tune_window && tap >= p->tune_first &&
		    tap < (uint32_t)p->tune_first + p->tune_window &&
		    !sim_fault_active(SIM_FAULT_TUNING) &&
		    !bcm2712_phy_limited(sim_sdhci_clock_hz());

	sim_hc.tune_count++;
	if (good) {
		if (sim_hc.tune_lo < 0)
			sim_hc.tune_lo = (int32_t)tap;
		sim_hc.tune_hi = (int32_t)tap;
	}
	if ((!good && sim_hc.tune_lo >= 0) || sim_hc.tune_tap >= TUNING_TAPS) {
		sim_hc.control2 &= ~(HC2_EXEC_TUNING | HC2_SAMPLE_CLK);
		if (sim_hc.tune_lo >= 0)
			sim_hc.control2 |= HC2_SAMPLE_CLK;
	}
	if (x->r.t) {
		x->r.t->blocks++;
		x->r.t->t_first_ready_ns = t;
	}
	sim_hc_irq_raise(INT_READ_RDY);
	x->bus_k++;
	x->bus_done = true;
	x->bus_done_t = t;
	x->host_done_t = t;
	sim_card_data_done(t, false);
}

static void garbled_violation(void)
{
	sim_violation("CMD%u: DAT lines garbled (width %u vs card %u, %u Hz)",
		      (sim_hc.cmdtm >> CMD_INDEX_SHIFT) & 0x3f, sim_sdhci_width(),
		      sim_card.width, sim_sdhci_clock_hz());
}

/* Send CMD12 on behalf of the driver (Auto CMD12) once the last block has
 * crossed at t. Returns when it ends. */
static uint64_t auto12(uint64_t t)
{
	struct sim_cmd_out o;
	uint64_t start = sim_hc_cmd_line_wait(t);
	uint64_t cmd_end = start + sim_hc_clk(W_CMD_BITS), done;
	uint32_t fm;

	/* Errors show when the command ends (xfer_next, what 5). */
	fm = sim_fault_on_command(12, NULL, NULL);
	if (!sim_card.present || (fm & (1u << SIM_FAULT_CMD_TIMEOUT))) {
		sim_hc.x.auto12_c2 = C2_ACTO_ERR;
		sim_hc.x.auto12_irq = INT_ACMD_ERR;
		return sim_hc_cmd_on_line(start, 0, 0, true);
	}
	sim_card_command(12, 0, cmd_end, &o);
	if (o.rsp == RSP_NONE) {
		sim_hc.x.auto12_c2 = C2_ACTO_ERR;
		sim_hc.x.auto12_irq = INT_ACMD_ERR;
		return sim_hc_cmd_on_line(start, 0, 0, true);
	}
	done = sim_hc_cmd_on_line(start, sim_card.p->ncr_clocks, W_R48_BITS, false);
	if (fm & (1u << SIM_FAULT_CMD_CRC)) {
		sim_hc.x.auto12_c2 = C2_ACCRC_ERR;
		sim_hc.x.auto12_irq = INT_ACMD_ERR;
	}
	sim_hc.resp[3] = o.r[0];
	if (sim_hc.x.r.t)
		sim_hc.x.r.t->flags |= SIM_T_AUTO12;
	sim_hc.cmd_resp_end = done;
	sim_hc.cmd_line_free = done + sim_hc_clk(cfg()->cmd_gap_clocks);
	return done;
}

/* Block Count after a block moved: on the bus (when) = SIM_BLKCNT_BUS,
 * through the data port = SIM_BLKCNT_DRAIN; the host's own behaviour
 * (sim_config.blkcnt) decides which of the two moves it. */
void sim_hc_blkcnt_step(unsigned when)
{
	if (cfg()->blkcnt == when && sim_hc.x.blkcnt_en && (sim_hc.blksizecnt >> 16))
		sim_hc.blksizecnt -= 1u << 16;
}

static void read_block_done(void)
{
	struct xfer *x = &sim_hc.x;
	uint32_t k = x->bus_k;
	uint32_t slot = (x->host_k + x->buf_count) % MAX_BUF;
	uint64_t t = x->bus_end, lat;
	uint32_t gap;

	x->in_flight = false;
	x->wait_from = t;
	if (x->r.t)
		x->r.t->t_last_bus_ns = t;
	if ((sim_hc.control2 & HC2_EXEC_TUNING) && !x->mem &&
	    ((sim_hc.cmdtm >> CMD_INDEX_SHIFT) & 0x3f) == 19) {
		tuning_block_done(t);
		return;
	}
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
	sim_hc_blkcnt_step(SIM_BLKCNT_BUS);
	x->fill_t[slot] = t;
	if (x->buf_count == 1 && !x->dma)
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
	/* The next block: N_AC from this block's end bit - the card's
	 * latency, at least its own inter-block gap and the protocol's 2
	 * clocks; the controller's idle clocks; a free buffer slot. */
	lat = sim_card_read_latency(x->bus_k);
	gap = sim_card.p->read_gap_clocks > W_NAC_MIN ? sim_card.p->read_gap_clocks : W_NAC_MIN;
	x->proto_ready = t + sim_hc_clk(W_NAC_MIN);
	x->ctrl_ready = cfg()->read_gap_clocks ? t + sim_hc_clk(cfg()->read_gap_clocks) : 0;
	x->card_ready = lat == SIM_NEVER ? SIM_NEVER : t + max64(lat, sim_hc_clk(gap));
	x->slot_free_t = x->buf_count >= cfg()->buf_blocks ? SIM_NEVER : t;
	x->wait_since = t;
}

static void write_block_done(void)
{
	struct xfer *x = &sim_hc.x;
	uint32_t k = x->bus_k;
	uint32_t slot = (x->host_k - x->buf_count) % MAX_BUF;
	uint64_t t = x->bus_end, busy;
	bool last = x->total != OPEN_ENDED && k + 1 >= x->total;

	x->in_flight = false;
	x->wait_from = t;
	if (x->r.t) {
		x->r.t->t_last_bus_ns = t;
		x->r.t->blocks++;
	}
	x->buf_count--;
	x->slot_free_t = t;
	/* Buffer Write Ready: Buffer Write Enable went from 0 to 1 (with
	 * buf_write_enable = empty, only once the buffer is empty). */
	if (x->host_k < x->total && !x->dma && x->buf_count < sim_hc_write_slots())
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
	if (busy != SIM_NEVER && sim_card.p->busy_min_clocks &&
	    busy < sim_hc_clk(sim_card.p->busy_min_clocks)) {
		/* The card holds DAT0 low a few clocks even with nothing to
		 * program. */
		busy = sim_hc_clk(sim_card.p->busy_min_clocks);
		sim_card_set_busy(t + busy);
	}
	x->busy_end = busy == SIM_NEVER ? SIM_NEVER : t + busy;
	x->wait_since = t;
	sim_hc_blkcnt_step(SIM_BLKCNT_BUS);
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

	if (x->dir == XK_WRITE) {
		sim_wire_emit(SIM_LANE_DAT, x->wait_from, min64(x->busy_end, t), SIM_W_BUSY);
	} else {
		/* The last blocks wait in the buffer for the CPU. */
		sim_wire_emit(SIM_LANE_DAT, x->wait_from, min64(max64(x->host_done_t, x->wait_from), t),
			      SIM_W_HOST_CPU);
	}
	sim_wire_release(SIM_LANE_DAT);
	/* A stale Block Count shows the end only now. */
	if (cfg()->blkcnt == SIM_BLKCNT_STALE && x->blkcnt_en)
		sim_hc.blksizecnt &= 0xffffu;
	sim_hc_irq_raise(INT_DATA_DONE);
	sim_hc_rec_close(&x->r, t, 0, 0);
	x->active = false;
}

/* When the next write block can start: the card's busy, then N_WR; the
 * CPU's fill; the response. */
static uint64_t write_ready(const struct xfer *x, uint32_t slot)
{
	uint64_t after_busy = max64(x->wait_from, x->busy_end);
	uint64_t nwr = after_busy + sim_hc_clk(cfg()->write_nwr_clocks);

	return sim_hc_edge(max64(max64(nwr, x->fill_t[slot]), x->resp_end));
}

/* Earliest time something happens in the transfer, SIM_NEVER if it waits
 * for the CPU. *what: 1 block end, 2 block start, 3 timeout, 4 complete. */
static uint64_t bus_next(int *what)
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
		if (x->buf_count >= cfg()->buf_blocks || x->slot_free_t == SIM_NEVER)
			return SIM_NEVER; /* clock stopped: wait for the CPU */
		{
			uint64_t since = max64(x->wait_since, x->slot_free_t);
			uint64_t s = max64(max64(x->card_ready, x->proto_ready),
					   max64(x->ctrl_ready, x->slot_free_t));

			if (to != SIM_NEVER && (x->card_ready == SIM_NEVER ||
						x->card_ready > since + to)) {
				*what = 3;
				return since + to;
			}
			*what = 2;
			return sim_hc_edge(s);
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

		if (to != SIM_NEVER && x->busy_end > x->wait_since + to) {
			*what = 3;
			return x->wait_since + to;
		}
		*what = 2;
		return write_ready(x, slot);
	}
}

static uint64_t adma_next_event(void);

/* The data engine's next event; 6 = the DMA master finishes a block. */
uint64_t sim_hc_xfer_next(int *what)
{
	uint64_t e = bus_next(what), d;

	if (!sim_hc.x.active || sim_hc.cmd_active)
		return e;
	d = adma_next_event();
	if (d < e) {
		*what = 6;
		return d;
	}
	return e;
}

/* Book the read wait [wait_from, s] that block bus_k's start ends. */
static void read_wait(struct xfer *x, uint64_t s)
{
	/* Whoever arrived last held the bus (ties: protocol, controller,
	 * card, CPU). */
	uint64_t cpu = max64(x->slot_free_t, x->wait_from);
	uint64_t last = x->proto_ready;
	enum sim_wcat who = SIM_W_GAP;

	if (x->ctrl_ready > last) {
		last = x->ctrl_ready;
		who = SIM_W_CTRL_GAP;
	}
	if (x->card_ready > last) {
		last = x->card_ready;
		who = SIM_W_CARD;
	}
	if (cpu > last)
		who = SIM_W_HOST_CPU;
	sim_wire_emit(SIM_LANE_DAT, x->wait_from, min64(x->proto_ready, s), SIM_W_GAP);
	sim_wire_emit(SIM_LANE_DAT, x->proto_ready, s, who);
}

/* Book the write wait [wait_from, s]: the card's busy and N_WR, or the
 * CPU filling the block, whichever came last. */
static void write_wait(struct xfer *x, uint32_t slot, uint64_t s)
{
	uint64_t from = x->wait_from, after_busy = max64(from, x->busy_end);
	uint64_t proto = after_busy + sim_hc_clk(W_NWR_MIN);
	uint64_t nwr = after_busy + sim_hc_clk(cfg()->write_nwr_clocks);
	uint64_t chain = max64(max64(nwr, proto), x->resp_end);

	if (x->fill_t[slot] > chain) {
		sim_wire_emit(SIM_LANE_DAT, from, min64(from + sim_hc_clk(W_NWR_MIN), s), SIM_W_GAP);
		sim_wire_emit(SIM_LANE_DAT, from + sim_hc_clk(W_NWR_MIN), s, SIM_W_HOST_CPU);
		return;
	}
	sim_wire_emit(SIM_LANE_DAT, from, after_busy, SIM_W_BUSY);
	sim_wire_emit(SIM_LANE_DAT, after_busy, min64(proto, s), SIM_W_GAP);
	sim_wire_emit(SIM_LANE_DAT, proto, min64(nwr, s), SIM_W_CTRL_GAP);
	sim_wire_emit(SIM_LANE_DAT, max64(proto, nwr), s, SIM_W_GAP); /* clock edge */
}

static void block_start(uint64_t s)
{
	struct xfer *x = &sim_hc.x;
	uint32_t clocks = sim_wire_block_clocks(x->blksz, sim_sdhci_width());
	uint64_t frame;

	/* DDR50: the data bits of each line go two per clock; start bit,
	 * CRC16 (one per edge, interleaved) and end bit keep their clocks. */
	if (sim_hc_ddr())
		clocks = 18u + (clocks - 18u + 1u) / 2u;
	frame = sim_hc_clk(clocks);

	if (x->fault_mask & (1u << SIM_FAULT_REMOVE) && x->fault_block == x->bus_k) {
		x->fault_mask &= ~(1u << SIM_FAULT_REMOVE);
		sim_card.present = false;
		sim_sdhci_card_removed();
		x->card_ready = SIM_NEVER;
		x->busy_end = x->dir == XK_WRITE ? SIM_NEVER : x->busy_end;
		x->wait_since = s;
		return;
	}
	if (x->dir == XK_READ) {
		read_wait(x, s);
		sim_wire_emit(SIM_LANE_DAT, s, s + frame, SIM_W_DATA);
		x->bus_end = s + frame;
	} else {
		uint32_t slot = (x->host_k - x->buf_count) % MAX_BUF;
		uint64_t e = s + frame;

		write_wait(x, slot, s);
		if (x->r.t && x->bus_k == 0)
			x->r.t->t_first_ready_ns = s;
		/* The block, N_CRC, the card's CRC status token. */
		sim_wire_emit(SIM_LANE_DAT, s, e, SIM_W_DATA);
		sim_wire_emit(SIM_LANE_DAT, e, e + sim_hc_clk(W_NCRC), SIM_W_GAP);
		sim_wire_emit(SIM_LANE_DAT, e + sim_hc_clk(W_NCRC),
			      e + sim_hc_clk(W_NCRC + W_CRC_TOKEN), SIM_W_DATA);
		x->bus_end = e + sim_hc_clk(W_NCRC + W_CRC_TOKEN);
	}
	x->in_flight = true;
	x->bus_start = s;
	if (x->r.t) {
		struct sim_block_truth *b = sim_truth_blk(x->r.t, x->bus_k);

		b->bus_start_ns = s;
		b->bus_end_ns = x->bus_end;
	}
}

/* ---- ADMA2 ---------------------------------------------------------------- */

static bool adma_fault(uint32_t kind)
{
	return data_fault(kind, sim_hc.x.ad_index);
}

void sim_hc_adma_start(bool ad64)
{
	struct xfer *x = &sim_hc.x;

	x->dma = true;
	x->ad64 = ad64;
	x->dma_failed = false;
	x->dma_free_t = sim_hc.cmd_done_t;
	x->ad_next = ad64 ? sim_hc.adma_addr : (uint32_t)sim_hc.adma_addr;
	x->ad_left = 0;
	x->ad_end = false;
	x->ad_int = false;
	x->ad_index = 0;
	sim_hc.adma_err = AE_ST_STOP;
}

static void adma_error(uint64_t t, uint32_t state, uint64_t addr_reg,
		       const char *why)
{
	struct xfer *x = &sim_hc.x;

	sim_violation("ADMA error (%s): descriptor %u, ADMA_ADDR 0x%08llx", why,
		      x->ad_index, (unsigned long long)addr_reg);
	sim_hc.adma_err = state;
	sim_hc.adma_addr = addr_reg;
	x->dma_failed = true;
	if (x->in_flight)
		sim_wire_truncate(SIM_LANE_DAT, t);
	else
		sim_wire_emit(SIM_LANE_DAT, x->wait_from, t, SIM_W_HOST_CPU);
	if (x->r.t)
		x->r.t->err_irq |= INT_ADMA_ERR;
	xfer_error(t, INT_ADMA_ERR, B_NONE);
}

/* Make the current "tran" descriptor one with bytes left, fetching as
 * needed. Returns 0, or -1 after raising the ADMA error. */
static int adma_fetch(uint64_t t)
{
	struct xfer *x = &sim_hc.x;
	unsigned hops = 0;

	const uint32_t dsz = x->ad64 ? 12u : 8u;

	while (!x->ad_left) {
		uint64_t at = x->ad_next, w1;
		uint32_t w0, attr, act, len;
		const uint8_t *d;

		if (x->ad_end) {
			adma_error(t, AE_ST_TFR | AE_LEN_ERR, x->ad_next,
				   "table shorter than the transfer");
			return -1;
		}
		if (++hops > 4096) {
			adma_error(t, AE_ST_FDS, at, "descriptor loop");
			return -1;
		}
		d = (at & 3u) ? NULL : sim_dma_bus_to_host(at, dsz);
		if (!d) {
			adma_error(t, AE_ST_FDS, at, "descriptor address not reachable");
			return -1;
		}
		w0 = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
		     (uint32_t)d[3] << 24;
		w1 = (uint32_t)d[4] | (uint32_t)d[5] << 8 | (uint32_t)d[6] << 16 |
		     (uint32_t)d[7] << 24;
		if (x->ad64)
			w1 |= ((uint64_t)d[8] | (uint64_t)d[9] << 8 | (uint64_t)d[10] << 16 |
			       (uint64_t)d[11] << 24) << 32;
		sim_dma_count(1, 0);
		if (adma_fault(SIM_FAULT_ADMA_DESC))
			w0 &= ~AD_VALID;
		attr = w0 & 0x3fu;
		act = (attr >> AD_ACT_SHIFT) & 3u;
		len = w0 >> 16;
		if (!len)
			len = 65536u;
		if (adma_fault(SIM_FAULT_ADMA_LEN) && act == AD_ACT_TRAN)
			len = len > 512u ? len - 512u : len;
		if (!(attr & AD_VALID)) {
			adma_error(t, AE_ST_FDS, at, "valid bit clear");
			return -1;
		}
		x->ad_index++;
		x->ad_next = at + dsz;
		sim_hc.adma_addr = x->ad_next;
		if (act == AD_ACT_LINK) {
			x->ad_next = w1;
			sim_hc.adma_addr = w1;
			if (attr & AD_END)
				x->ad_end = true;
			continue;
		}
		if (act != AD_ACT_TRAN) { /* nop, reserved: skipped */
			if (attr & AD_END)
				x->ad_end = true;
			continue;
		}
		if (w1 & 3u) {
			x->ad_next = at;
			sim_hc.adma_addr = at;
			x->ad_index--;
			adma_error(t, AE_ST_FDS, at, "data address not 32-bit aligned");
			return -1;
		}
		x->ad_addr = w1;
		x->ad_left = len;
		x->ad_end = (attr & AD_END) != 0;
		x->ad_int = (attr & AD_INT) != 0;
	}
	return 0;
}

/* Move one block between the buffer slot and memory. Returns 0 or -1. */
static int adma_move(uint64_t t, uint8_t *blk, uint32_t n, bool to_mem)
{
	struct xfer *x = &sim_hc.x;

	while (n) {
		uint32_t chunk;
		uint8_t *m;

		if (adma_fetch(t))
			return -1;
		chunk = n < x->ad_left ? n : x->ad_left;
		m = sim_dma_bus_to_host(x->ad_addr, chunk);
		if (!m) {
			adma_error(t, AE_ST_TFR, x->ad_next, "data address not reachable");
			return -1;
		}
		if (to_mem)
			memcpy(m, blk, chunk);
		else
			memcpy(blk, m, chunk);
		sim_dma_count(0, chunk);
		blk += chunk;
		n -= chunk;
		x->ad_addr += chunk;
		x->ad_left -= chunk;
		if (!x->ad_left && x->ad_int)
			sim_hc_irq_raise(INT_DMA);
	}
	return 0;
}

/* The master's next block: when it will be done (SIM_NEVER: nothing to
 * do). */
static uint64_t adma_next_event(void)
{
	const struct xfer *x = &sim_hc.x;
	uint64_t start, cost;

	if (!x->dma || x->dma_failed)
		return SIM_NEVER;
	if (x->dir == XK_READ) {
		if (!x->buf_count)
			return SIM_NEVER;
		start = max64(x->dma_free_t, x->fill_t[x->host_k % MAX_BUF]);
	} else {
		if (x->host_k >= x->total || x->buf_count >= cfg()->buf_blocks)
			return SIM_NEVER;
		start = max64(x->dma_free_t, x->resp_end);
	}
	cost = (uint64_t)(x->blksz / 4u) * cfg()->dma_word_ns;
	if (x->ad_left < x->blksz)
		cost += cfg()->dma_desc_ns;
	return start + cost;
}

static void adma_step(uint64_t t)
{
	struct xfer *x = &sim_hc.x;
	uint32_t slot = x->host_k % MAX_BUF;
	bool last;

	if (adma_move(t, x->buf[slot], x->blksz, x->dir == XK_READ))
		return;
	x->dma_free_t = t;
	last = x->total != OPEN_ENDED && x->host_k + 1 >= x->total;
	if (last && (x->ad_left || !x->ad_end)) {
		adma_error(t, AE_ST_TFR | AE_LEN_ERR, x->ad_next,
			   "table longer than the transfer");
		return;
	}
	if (x->r.t)
		sim_truth_blk(x->r.t, x->host_k)->cpu_done_ns = t;
	sim_hc_blkcnt_step(SIM_BLKCNT_DRAIN);
	if (x->dir == XK_READ) {
		x->host_k++;
		x->buf_count--;
		if (x->slot_free_t == SIM_NEVER)
			x->slot_free_t = t; /* the read wait ends */
		x->host_done_t = t;
	} else {
		x->fill_t[slot] = t;
		x->host_k++;
		x->buf_count++;
	}
	if (last)
		sim_hc.adma_err = AE_ST_STOP;
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
	case 6:
		adma_step(e);
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

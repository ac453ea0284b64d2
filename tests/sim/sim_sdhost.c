/*
 * sim_sdhost.c - the BCM2835 SDHOST controller (register map
 * drivers/sdhost/bcm2835_sdhost_regs.h) in front of the simulated card,
 * when sim_config.sdhost is set: what the driver bcm2835_sdhost.c sees.
 *
 * A simpler model than the SDHCI's (no wire truth, no CMD-line timing):
 * it checks the protocol and the data byte for byte, with time where the
 * driver has to wait for it.
 *  - SDCMD with NEW: the command goes to the card at once; NEW clears
 *    after the command's and the response's bits at the SD clock
 *    (core / (CDIV + 2)); FAIL with CMD_TIME_OUT (no answer) or CRC7.
 *  - R1b (BUSYWAIT): BUSY_IRPT (with BUSY_IRPT_EN) when the card's busy
 *    ends; never while it is stuck.
 *  - Reads: block k is in the 16-word FIFO from its arrival time (the
 *    card's latency plus its bits on the bus) on; SDEDM shows the fill
 *    and the state machine (READDATA / READWAIT / DATA). Writes: the FIFO
 *    drains to the card block by block; no room while the card is busy.
 *  - Faults (sim_fault_add): command timeout / CRC, data CRC (CRC16),
 *    data timeout (REW_TIME_OUT), stuck busy.
 *  - Violations: unmapped offsets, a command while NEW is still set,
 *    reading an empty FIFO, writing a full one.
 *  - The DMA engine's side (sim_bcm2835_dma.c): DREQ 13 at SDDATA (bus
 *    address 0x7E202040). Read: while the FIFO holds at least the read
 *    threshold (SDEDM[18:14]) of words, or any word of a block that is not
 *    the transfer's last (the hardware's FIFO then fills from the next
 *    block); the last words of a transfer below the threshold raise no
 *    DREQ, as on the hardware: an engine told to move them waits for
 *    ever. Write: while the FIFO has room. The engine's port accesses cost
 *    the CPU nothing.
 */
#include <string.h>

#include "drivers/sdhost/bcm2835_sdhost_regs.h"
#include "tests/sim/sim_internal.h"

#define SDH_SPAN 0x100u

static struct {
	uint32_t cmd, arg, tout, cdiv, hsts, vdd, edm, hcfg, hbct, hblc;
	uint32_t rsp[4];
	uint64_t cmd_done;       /* NEW clears then */
	uint32_t cmd_fail_bits;  /* HSTS bits when the command ends, FAIL */
	bool busy_cmd;           /* a BUSYWAIT command waits for busy end */
	/* data */
	enum sim_xfer_kind xfer;
	bool mem;
	uint8_t reg_data[64];
	uint32_t blksz, total;   /* total 0: open-ended (until CMD12) */
	uint32_t k;              /* current block */
	uint32_t pos;            /* bytes of block k moved by the CPU */
	uint64_t ready_at;       /* read: block k in the FIFO; write: room again */
	uint8_t blk[1024];
	bool loaded;
	bool stopped;            /* error: the data engine stopped */
	uint32_t fblock;         /* data fault block, with fault mask */
	uint32_t fmask;
	uint64_t stuck_ns;
	uint32_t last_reads[SDH_SPAN / 4];
	uint32_t same[SDH_SPAN / 4];
	struct sim_sdhost_stats st;
} h;

void sim_sdhost_get_stats(struct sim_sdhost_stats *s)
{
	*s = h.st;
}

static void write_word(uint32_t v);

static const struct sim_config *conf(void)
{
	return sim_get_config();
}

static uint64_t clk_ns(uint64_t n)
{
	uint32_t div = (h.cdiv & SDH_CDIV_MAX) + 2;
	uint64_t hz = conf()->base_clock_hz / div;

	if (!hz)
		hz = 1;
	return (n * 1000000000ull + hz - 1) / hz;
}

void sim_sdhost_reset(void)
{
	memset(&h, 0, sizeof(h));
	h.edm = 0x0000C60Fu & ~SDH_EDM_FSM_MASK;
	h.cdiv = SDH_CDIV_MAX;
}

static bool fault(enum sim_fault_kind k, uint32_t blk)
{
	return (h.fmask & (1u << k)) && h.fblock == blk;
}

static uint32_t bytes_per_block_ns(void)
{
	uint32_t width = (h.hcfg & SDH_HCFG_WIDE_EXT_BUS) ? 4 : 1;

	/* start + data + CRC16 + end, per data line */
	return (uint32_t)clk_ns(1 + h.blksz * 8 / width + 16 + 1);
}

static void load_read_block(void)
{
	uint64_t lat;

	h.loaded = false;
	h.pos = 0;
	if (h.total && h.k >= h.total) {
		h.ready_at = SIM_NEVER;
		return;
	}
	lat = h.mem ? sim_card_read_latency(h.k) : 0;
	if (lat == SIM_NEVER || fault(SIM_FAULT_DATA_TIMEOUT, h.k)) {
		h.ready_at = SIM_NEVER;
		return;
	}
	h.ready_at = sim_clk_now + lat + bytes_per_block_ns();
}

/* Bring the data engine up to now. */
static void advance(void)
{
	if (h.stopped || h.xfer == XK_NONE)
		return;
	if (h.xfer == XK_READ && !h.loaded && h.ready_at != SIM_NEVER &&
	    sim_clk_now >= h.ready_at) {
		if (fault(SIM_FAULT_DATA_CRC, h.k)) {
			h.hsts |= SDH_HSTS_CRC16;
			h.stopped = true;
			return;
		}
		if (h.mem)
			sim_card_read_data(h.k, h.blk, h.blksz);
		else
			memcpy(h.blk, h.reg_data, h.blksz);
		h.loaded = true;
	}
	if (h.xfer == XK_READ && h.ready_at == SIM_NEVER && !h.loaded &&
	    (!h.total || h.k < h.total) && h.tout) {
		/* data timeout: the controller counts SDTOUT clocks */
		if (!h.cmd_done || sim_clk_now > h.cmd_done + clk_ns(h.tout)) {
			h.hsts |= SDH_HSTS_REW_TMO;
			h.stopped = true;
		}
	}
}

static uint32_t fsm(void)
{
	if (h.xfer == XK_READ && !h.stopped) {
		if (h.total && h.k >= h.total)
			return SDH_EDM_FSM_DATA;
		return h.loaded ? SDH_EDM_FSM_READDATA : SDH_EDM_FSM_READWAIT;
	}
	if (h.xfer == XK_WRITE && !h.stopped) {
		if (sim_card_busy_at(sim_clk_now))
			return SDH_EDM_FSM_WRITEWAIT2;
		if (h.total && h.k >= h.total)
			return SDH_EDM_FSM_DATA;
		return h.pos ? SDH_EDM_FSM_WRITEDATA : SDH_EDM_FSM_WRITESTART1;
	}
	return SDH_EDM_FSM_DATA;
}

static uint32_t fifo_fill(void)
{
	if (h.xfer == XK_READ && h.loaded) {
		uint32_t left = (h.blksz - h.pos) / 4;

		return left < SDH_FIFO_WORDS ? left : SDH_FIFO_WORDS;
	}
	if (h.xfer == XK_WRITE && (h.stopped || sim_card_busy_at(sim_clk_now)))
		return SDH_FIFO_WORDS; /* no room: stopped, or the card is busy */
	if (h.xfer == XK_WRITE && h.total && h.k >= h.total)
		return SDH_FIFO_WORDS;
	return 0;
}

static void command(void)
{
	uint8_t idx = h.cmd & SDH_CMD_INDEX_MASK;
	bool app = sim_card.app_next;
	uint32_t fblock = 0, fm;
	uint64_t stuck = 0, end;
	struct sim_cmd_out o;
	int match = app && idx != 55 ? SIM_ACMD(idx) : idx;

	memset(&o, 0, sizeof(o));
	end = sim_clk_now + clk_ns(48);
	fm = sim_fault_on_command(match, &fblock, &stuck);
	if (sim_card.present && !(fm & (1u << SIM_FAULT_CMD_TIMEOUT)))
		sim_card_command(idx, h.arg, end, &o);
	h.cmd_fail_bits = 0;
	h.busy_cmd = (h.cmd & SDH_CMD_BUSYWAIT) != 0;
	if (o.rsp == RSP_NONE) {
		if (!(h.cmd & SDH_CMD_NO_RSP))
			h.cmd_fail_bits = SDH_HSTS_CMD_TMO;
		h.cmd_done = end + clk_ns(64);
	} else {
		h.cmd_done = end + clk_ns(sim_card.p->ncr_clocks +
					  (o.rsp == RSP_136 ? 136 : 48));
		if (o.rsp == RSP_136) {
			h.rsp[0] = o.r[3];
			h.rsp[1] = o.r[2];
			h.rsp[2] = o.r[1];
			h.rsp[3] = o.r[0];
		} else {
			h.rsp[0] = o.r[0];
		}
		if (fm & (1u << SIM_FAULT_CMD_CRC))
			h.cmd_fail_bits = SDH_HSTS_CRC7;
	}
	if (fm & (1u << SIM_FAULT_STUCK_BUSY)) {
		h.stuck_ns = stuck;
		if (h.busy_cmd)
			sim_card_set_busy(stuck ? h.cmd_done + stuck : SIM_NEVER);
	}
	h.xfer = XK_NONE;
	h.stopped = false;
	h.fmask = fm;
	h.fblock = fblock;
	if (o.xfer != XK_NONE && !h.cmd_fail_bits) {
		if (!(h.cmd & (SDH_CMD_READ | SDH_CMD_WRITE)))
			sim_violation("SDHOST: CMD%u moves data but SDCMD has neither "
				      "READ nor WRITE", idx);
		h.xfer = o.xfer;
		h.mem = o.mem;
		memcpy(h.reg_data, o.reg_data, sizeof(h.reg_data));
		h.blksz = h.hbct;
		if (h.blksz == 0 || h.blksz > sizeof(h.blk) || (h.blksz & 3)) {
			sim_violation("SDHOST: data command with SDHBCT %u", h.blksz);
			h.xfer = XK_NONE;
			return;
		}
		if (!o.mem && o.blksz != h.blksz)
			sim_violation("SDHOST: SDHBCT %u for a %u-byte register read",
				      h.blksz, o.blksz);
		h.total = o.blocks ? o.blocks : h.hblc;
		h.k = 0;
		h.pos = 0;
		h.loaded = false;
		if (h.xfer == XK_READ) {
			uint64_t now = sim_clk_now;

			sim_clk_now = h.cmd_done;
			load_read_block();
			sim_clk_now = now;
		}
	}
}

/* The next moment the model changes by itself (for polling loops). */
static uint64_t next_event(void)
{
	uint64_t e = SIM_NEVER;

	if (h.cmd & SDH_CMD_NEW)
		e = h.cmd_done;
	if (h.busy_cmd && sim_card.busy_until > sim_clk_now && sim_card.busy_until < e)
		e = sim_card.busy_until;
	if (h.xfer == XK_READ && !h.loaded && h.ready_at < e)
		e = h.ready_at;
	if (h.xfer == XK_WRITE && sim_card.busy_until > sim_clk_now &&
	    sim_card.busy_until < e)
		e = sim_card.busy_until;
	return e;
}

static void update(void)
{
	if ((h.cmd & SDH_CMD_NEW) && sim_clk_now >= h.cmd_done) {
		h.cmd &= ~SDH_CMD_NEW;
		if (h.cmd_fail_bits) {
			h.cmd |= SDH_CMD_FAIL;
			h.hsts |= h.cmd_fail_bits;
			h.busy_cmd = false;
		}
	}
	if (!(h.cmd & SDH_CMD_NEW) && h.busy_cmd && !sim_card_busy_at(sim_clk_now)) {
		h.busy_cmd = false;
		if (h.hcfg & SDH_HCFG_BUSY_IRPT_EN)
			h.hsts |= SDH_HSTS_BUSY_IRPT;
	}
	if (!(h.cmd & SDH_CMD_NEW))
		advance();
}

static uint32_t data_pop(void)
{
	uint32_t v;

	if (h.xfer != XK_READ || !h.loaded) {
		sim_violation("SDHOST: read of an empty FIFO");
		return 0;
	}
	memcpy(&v, h.blk + h.pos, 4);
	h.pos += 4;
	if (h.pos >= h.blksz) {
		h.k++;
		if (h.total && h.k >= h.total)
			sim_card_data_done(sim_clk_now, false);
		load_read_block();
	}
	return v;
}

/* ---- the DMA engine's side ---------------------------------------------- */

bool sim_sdhost_dma_dreq(bool write)
{
	uint32_t fill, thr;

	update();
	if (h.cmd & SDH_CMD_NEW)
		return false;
	fill = fifo_fill();
	if (write)
		return h.xfer == XK_WRITE && fill < SDH_FIFO_WORDS;
	if (h.xfer != XK_READ || !fill)
		return false;
	thr = (h.edm >> SDH_EDM_RD_THR_SHIFT) & SDH_EDM_THR_MASK;
	return fill >= thr || !h.total || h.k + 1 < h.total;
}

uint32_t sim_sdhost_dma_port_read(void)
{
	h.st.dma_words_read++;
	return data_pop();
}

void sim_sdhost_dma_port_write(uint32_t v)
{
	h.st.dma_words_written++;
	write_word(v);
}

void sim_sdhost_update(void)
{
	update();
}

uint64_t sim_sdhost_next_event(void)
{
	update();
	return next_event();
}

uint32_t sim_sdhost_read(uintptr_t addr)
{
	uint32_t off = (uint32_t)(addr - conf()->base), v = 0;

	sim_clk_note_mmio();
	sim_clk_charge(off == SDH_DATA ? conf()->data_read_ns : conf()->mmio_read_ns);
	if (addr < conf()->base || off >= SDH_REG_END || (off & 3)) {
		sim_violation("SDHOST: read of unmapped address 0x%lx", (unsigned long)addr);
		return 0;
	}
	update();
	switch (off) {
	case SDH_CMD: v = h.cmd; break;
	case SDH_ARG: v = h.arg; break;
	case SDH_TOUT: v = h.tout; break;
	case SDH_CDIV: v = h.cdiv; break;
	case SDH_RSP0: case SDH_RSP1: case SDH_RSP2: case SDH_RSP3:
		v = h.rsp[(off - SDH_RSP0) / 4];
		break;
	case SDH_HSTS:
		v = h.hsts | (fifo_fill() ? SDH_HSTS_DATA_FLAG : 0);
		break;
	case SDH_VDD: v = h.vdd; break;
	case SDH_EDM:
		v = (h.edm & ~(SDH_EDM_FSM_MASK | SDH_EDM_FIFO_MASK << SDH_EDM_FIFO_SHIFT)) |
		    fsm() | fifo_fill() << SDH_EDM_FIFO_SHIFT;
		break;
	case SDH_HCFG: v = h.hcfg; break;
	case SDH_HBCT: v = h.hbct; break;
	case SDH_HBLC: v = h.hblc; break;
	case SDH_DATA:
		h.st.cpu_words_read++;
		v = data_pop();
		memset(h.same, 0, sizeof(h.same));
		return v;
	default:
		sim_violation("SDHOST: read of reserved offset 0x%02x", off);
		return 0;
	}
	/* Polling: the same status three times: jump to the next event,
	 * never past a driver deadline. */
	if (h.last_reads[off / 4] == v) {
		if (++h.same[off / 4] >= 3 && conf()->fast_forward &&
		    !sim_clk_deadline_hit()) {
			uint64_t e = next_event(), d = sim_clk_next_deadline();

			if (d < e)
				e = d;
			if (e != SIM_NEVER && e > sim_clk_now)
				sim_clk_now = e;
			h.same[off / 4] = 0;
		}
	} else {
		h.last_reads[off / 4] = v;
		h.same[off / 4] = 1;
	}
	return v;
}

static void write_word(uint32_t v)
{
	uint64_t busy;
	bool last;

	if (h.xfer != XK_WRITE || h.stopped || (h.total && h.k >= h.total) ||
	    sim_card_busy_at(sim_clk_now)) {
		sim_violation("SDHOST: write to a full FIFO (block %u)", h.k);
		return;
	}
	memcpy(h.blk + h.pos, &v, 4);
	h.pos += 4;
	if (h.pos < h.blksz)
		return;
	h.pos = 0;
	last = h.total && h.k + 1 == h.total;
	if (fault(SIM_FAULT_DATA_CRC, h.k)) {
		if (!sim_card.op_multi && sim_card.state == ST_RCV)
			sim_card.state = ST_TRAN;
		h.hsts |= SDH_HSTS_CRC16;
		h.stopped = true;
		return;
	}
	if (fault(SIM_FAULT_DATA_TIMEOUT, h.k)) {
		h.hsts |= SDH_HSTS_REW_TMO;
		h.stopped = true;
		return;
	}
	busy = sim_card_write_block(h.k, h.blk, h.blksz, sim_clk_now + bytes_per_block_ns(),
				    last);
	if (busy == SIM_NEVER) {
		h.hsts |= SDH_HSTS_REW_TMO;
		h.stopped = true;
		return;
	}
	if (fault(SIM_FAULT_STUCK_BUSY, h.k))
		sim_card_set_busy(h.stuck_ns ? sim_clk_now + h.stuck_ns : SIM_NEVER);
	else
		sim_card_set_busy(sim_clk_now + bytes_per_block_ns() + busy);
	h.k++;
}

void sim_sdhost_write(uintptr_t addr, uint32_t v)
{
	uint32_t off = (uint32_t)(addr - conf()->base);

	sim_clk_note_mmio();
	sim_clk_charge(off == SDH_DATA ? conf()->data_write_ns : conf()->mmio_write_ns);
	memset(h.same, 0, sizeof(h.same));
	if (addr < conf()->base || off >= SDH_REG_END || (off & 3)) {
		sim_violation("SDHOST: write of unmapped address 0x%lx", (unsigned long)addr);
		return;
	}
	update();
	switch (off) {
	case SDH_CMD:
		if (h.cmd & SDH_CMD_NEW) {
			sim_violation("SDHOST: SDCMD written while a command is running");
			return;
		}
		h.cmd = v & 0xFFFFu & ~SDH_CMD_FAIL;
		if (v & SDH_CMD_NEW)
			command();
		break;
	case SDH_ARG: h.arg = v; break;
	case SDH_TOUT: h.tout = v; break;
	case SDH_CDIV: h.cdiv = v & SDH_CDIV_MAX; break;
	case SDH_HSTS: h.hsts &= ~v; break;
	case SDH_VDD: h.vdd = v & 1; break;
	case SDH_EDM:
		if (v & SDH_EDM_FORCE_DATA_MODE) {
			/* the data engine back to idle */
			if (h.xfer == XK_READ && (!h.total || h.k < h.total))
				sim_card_data_done(sim_clk_now, false);
			h.xfer = XK_NONE;
			h.loaded = false;
		}
		h.edm = v & ~SDH_EDM_FORCE_DATA_MODE;
		break;
	case SDH_HCFG: h.hcfg = v; break;
	case SDH_HBCT: h.hbct = v; break;
	case SDH_HBLC:
		h.hblc = v;
		if (!v && h.xfer != XK_NONE) {
			h.xfer = XK_NONE;
			h.loaded = false;
		}
		break;
	case SDH_DATA:
		h.st.cpu_words_written++;
		write_word(v);
		break;
	default:
		sim_violation("SDHOST: write of reserved offset 0x%02x", off);
		break;
	}
}

/*
 * sim_sdhost.c - the BCM2835 SDHOST controller (register map
 * sim_sdhost_regs.h, the simulator's own) in front of the simulated card,
 * when sim_config.sdhost is set: what the driver bcm2835_sdhost.c sees,
 * and what its wires carry (the ground truth of sim_wire.c, booked from
 * this model's own events).
 *  - SDCMD with NEW: the command's 48 bits go out on CMD at once at the
 *    SD clock (core / (CDIV + 2)); the response follows after the card's
 *    N_CR; NEW clears after the response's end bit; FAIL with
 *    CMD_TIME_OUT (no answer) or CRC7.
 *  - R1b (BUSYWAIT): BUSY_IRPT (with BUSY_IRPT_EN) when the card's busy
 *    ends; never while it is stuck.
 *  - The data path is the 16-word FIFO, word by word. Read: the card's
 *    start bit comes after its access latency (from the command's end bit,
 *    then from each block's end bit), each word enters the FIFO when its
 *    last bit arrived (32 / width clocks), CRC16 and end bit follow. While
 *    the FIFO is full the controller holds the clock: the bus waits for the
 *    CPU (or the DMA engine) to take a word. Write: a block starts N_WR
 *    after the card's busy once its first word is in the FIFO; each word
 *    leaves the FIFO when its bits start; when the FIFO is empty the clock
 *    is held until the CPU writes the next word; CRC16, end bit, N_CRC, the
 *    card's CRC status token and its programming busy follow. SDEDM shows
 *    the fill and the state machine.
 *  - Faults (sim_fault_add): command timeout / CRC, data CRC (CRC16),
 *    data timeout (REW_TIME_OUT), stuck busy.
 *  - Violations: unmapped offsets, a command while NEW is still set,
 *    reading an empty FIFO, writing a full one.
 *  - The DMA engine's side (sim_bcm2835_dma.c): DREQ 13 at SDDATA (bus
 *    address 0x7E202040). Read: while the FIFO holds at least the read
 *    threshold (SDEDM[18:14]) of words: a transfer's last words below the
 *    threshold raise no DREQ, as on the hardware (an engine told to move
 *    them waits for ever). Write: while the FIFO has room. The engine's
 *    port accesses cost the CPU nothing.
 *
 * The wire truth (SIM_LANE_CMD / SIM_LANE_DAT, categories of sim.h):
 * command and response bits are CMD, the card's N_CR beyond 2 clocks CARD;
 * on DAT the frames (start bit, words, CRC16, end bit, CRC status) are
 * DATA, N_AC / N_WR / N_CRC minimum GAP, the card's access latency beyond
 * it CARD, programming and R1b busy BUSY, the clock held for the FIFO
 * (full on a read, empty on a write; the last words not taken) HOST_CPU.
 * Each stretch is booked from what this model did, never from the
 * firmware's bus model.
 */
#include <string.h>

#include "sim/sim_sdhost_regs.h"
#include "sim/sim_internal.h"

#define SIMSDH_SPAN 0x100u
#define NAC_MIN 2u     /* read: end bit -> next start bit (SD §4.12.4) */
#define NWR_MIN 2u     /* write: response / busy end -> start bit */
#define NCRC 2u        /* write: end bit -> CRC status start bit */
#define CRC_TOKEN 5u   /* CRC status: start, 3 bits, end */
#define TAIL_CLOCKS 17u /* CRC16 and end bit, on each line */

/* The data engine's side on the wires. */
enum bphase { B_NONE, B_WAIT, B_WORDS, B_STALL, B_TAIL, B_BUSY, B_DONE };

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
	uint32_t k;              /* the CPU's block */
	uint32_t pos;            /* bytes of block k moved by the CPU */
	bool stopped;            /* error: the data engine stopped */
	uint32_t fblock;         /* data fault block, with fault mask */
	uint32_t fmask;
	uint64_t stuck_ns;
	/* the FIFO: words in order, with the time each was written (write) */
	uint32_t fv[SIMSDH_FIFO_WORDS];
	uint64_t ft[SIMSDH_FIFO_WORDS];
	unsigned fh, fn;
	/* SDEDM's fill as the variants show it (sim.h enum sim_sdhost_fill):
	 * the value taken at the last event (stepped), and a write's recent
	 * words taken by the bus, with their times (lag) */
	unsigned snap;
	uint64_t popt[64];
	unsigned popn;
	uint64_t room_t;         /* read: the FIFO has had room since */
	/* the bus side */
	enum bphase bph;
	uint32_t bk;             /* block on the bus */
	uint32_t bw;             /* its words received (read) / sent (write) */
	uint64_t anc;            /* the clock runs since anc ... */
	uint64_t anc_clk;        /* ... and the next word ends (read) / starts (write) then */
	uint64_t wait_from;      /* B_WAIT / B_STALL since */
	uint64_t card_ready;     /* read: the card's start bit at the earliest */
	uint64_t proto_ready;    /* the protocol's minimum gap ends */
	uint64_t busy_end;       /* write: the card's busy ends */
	uint64_t frame_end, tail_end; /* B_TAIL */
	uint64_t dat_t;          /* DAT described up to here */
	uint8_t bblk[1024];      /* the block on the bus */
	/* truth */
	struct sim_truth *rec;
	uint64_t rec_close;      /* a command without data: closes then */
	uint32_t last_reads[SIMSDH_SPAN / 4];
	uint32_t same[SIMSDH_SPAN / 4];
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

static uint32_t sd_hz(void)
{
	uint32_t div = (h.cdiv & SIMSDH_CDIV_MAX) + 2;
	uint32_t hz = conf()->base_clock_hz / div;

	return hz ? hz : 1;
}

static uint64_t clk_ns(uint64_t n)
{
	uint64_t hz = sd_hz();

	return (n * 1000000000ull + hz - 1) / hz;
}

static uint32_t width(void)
{
	return (h.hcfg & SIMSDH_HCFG_WIDE_EXT_BUS) ? 4 : 1;
}

/* SD clocks one 32-bit word occupies on the data lines. */
static uint32_t word_clocks(void)
{
	return 32u / width();
}

static uint32_t block_words(void)
{
	return h.blksz / 4u;
}

void sim_sdhost_reset(void)
{
	memset(&h, 0, sizeof(h));
	h.edm = 0x0000C60Fu & ~SIMSDH_EDM_FSM_MASK;
	h.cdiv = SIMSDH_CDIV_MAX;
}

static bool fault(enum sim_fault_kind k, uint32_t blk)
{
	return (h.fmask & (1u << k)) && h.fblock == blk;
}

/* ---- the truth ------------------------------------------------------------ */

static void dat(uint64_t b, enum sim_wcat cat)
{
	if (b > h.dat_t) {
		sim_wire_emit(SIM_LANE_DAT, h.dat_t, b, cat);
		h.dat_t = b;
	}
}

static void rec_close(uint64_t t, uint32_t flags)
{
	if (!h.rec)
		return;
	h.rec->t_end_ns = max64(t, h.rec->t_issue_ns);
	h.rec->flags |= flags;
	sim_truth_close(h.rec);
	sim_wire_record_closed(h.rec);
	h.rec = NULL;
	h.rec_close = 0;
}

/* The transfer is over on the wires at t (done, or stopped by an error or
 * by the driver): DAT is free. */
static void dat_end(uint64_t t, uint32_t flags)
{
	if (sim_wire_held(SIM_LANE_DAT)) {
		if (flags & (SIM_T_ERROR | SIM_T_ABORTED))
			sim_wire_truncate(SIM_LANE_DAT, max64(t, h.dat_t));
		sim_wire_release(SIM_LANE_DAT);
	}
	h.bph = B_NONE;
	if (h.rec && !h.rec_close)
		rec_close(t, flags);
	/* The data engine changed state: a status read again is not a
	 * poll of an unchanged status. */
	memset(h.same, 0, sizeof(h.same));
}

/* ---- the FIFO --------------------------------------------------------------- */

static void fifo_push(uint32_t v, uint64_t t)
{
	unsigned i = (h.fh + h.fn) % SIMSDH_FIFO_WORDS;

	h.fv[i] = v;
	h.ft[i] = t;
	h.fn++;
}

static uint32_t fifo_pop(void)
{
	uint32_t v = h.fv[h.fh];

	h.fh = (h.fh + 1) % SIMSDH_FIFO_WORDS;
	h.fn--;
	return v;
}

/* ---- the DMA engine at the FIFO's edge ------------------------------------------ */

static bool in_dma;

/* The DMA engine runs by itself: when DREQ 13 rises (a word entered the
 * FIFO of a read, one left the FIFO of a write) a channel paced by it
 * moves what it can then, not when the CPU next touches a register (when
 * the model is evaluated). */
static void dma_follow(uint64_t t)
{
	uint64_t saved = sim_clk_now;

	if (in_dma)
		return;
	in_dma = true;
	sim_clk_now = t;
	sim_bdma_service();
	sim_clk_now = saved;
	in_dma = false;
}

/* ---- reads: the card's blocks into the FIFO ----------------------------------- */

/* The wait for block bk's start bit from wait_from: N_AC, the card's
 * latency (ready at card_ready), the FIFO's room (room_t). */
static void read_wait_setup(uint64_t from, uint64_t lat)
{
	h.bph = B_WAIT;
	h.wait_from = from;
	h.proto_ready = from + clk_ns(NAC_MIN);
	h.card_ready = lat == SIM_NEVER || fault(SIM_FAULT_DATA_TIMEOUT, h.bk) ? SIM_NEVER :
		       from + lat;
}

static uint64_t read_start_t(void)
{
	if (h.card_ready == SIM_NEVER || h.fn >= SIMSDH_FIFO_WORDS)
		return SIM_NEVER;
	return max64(max64(h.card_ready, h.proto_ready), h.room_t);
}

static void read_block_start(uint64_t s)
{
	/* Whoever came last held the bus (ties: protocol, card, CPU). */
	enum sim_wcat who = h.card_ready > h.proto_ready ? SIM_W_CARD : SIM_W_GAP;

	if (h.room_t > max64(h.card_ready, h.proto_ready))
		who = SIM_W_HOST_CPU;
	dat(min64(h.proto_ready, s), SIM_W_GAP);
	dat(s, who);
	if (h.mem)
		sim_card_read_data(h.bk, h.bblk, h.blksz);
	else
		memcpy(h.bblk, h.reg_data, h.blksz);
	if (h.rec) {
		sim_truth_blk(h.rec, h.bk)->bus_start_ns = s;
		if (h.bk == 0)
			h.rec->card_access_ns = h.card_ready - h.wait_from;
	}
	h.bph = B_WORDS;
	h.bw = 0;
	h.anc = s;
	h.anc_clk = 1 + word_clocks(); /* start bit, first word */
}

static void read_advance(uint64_t now)
{
	for (;;) {
		uint64_t t;

		switch (h.bph) {
		case B_WAIT:
			if (h.card_ready == SIM_NEVER) {
				/* No start bit: the controller counts SDTOUT clocks. */
				t = h.wait_from + clk_ns(h.tout);
				if (!h.tout || t > now)
					return;
				dat(t, SIM_W_CARD);
				h.hsts |= SIMSDH_HSTS_REW_TMO;
				h.stopped = true;
				dat_end(t, SIM_T_ERROR);
				return;
			}
			t = read_start_t();
			if (t > now)
				return;
			read_block_start(t);
			break;
		case B_WORDS: {
			uint32_t v;

			t = h.anc + clk_ns(h.anc_clk);
			if (t > now)
				return;
			dat(t, SIM_W_DATA);
			memcpy(&v, h.bblk + h.bw * 4u, 4);
			/* A block whose CRC16 will not match never reaches the
			 * CPU: the model keeps it out of the FIFO (the error
			 * comes with its end). */
			if (!fault(SIM_FAULT_DATA_CRC, h.bk))
				fifo_push(v, t);
			h.bw++;
			if (h.fn >= ((h.edm >> SIMSDH_EDM_RD_THR_SHIFT) & SIMSDH_EDM_THR_MASK))
				dma_follow(t); /* DREQ: the engine takes words now */
			if (h.fn == SIMSDH_FIFO_WORDS)
				h.room_t = SIM_NEVER;
			if (h.bw == block_words()) {
				h.tail_end = h.anc + clk_ns(h.anc_clk + TAIL_CLOCKS);
				h.bph = B_TAIL;
				if (fault(SIM_FAULT_DATA_CRC, h.bk)) {
					/* the block's CRC16 does not match */
					h.hsts |= SIMSDH_HSTS_CRC16;
					h.stopped = true;
					dat(h.tail_end, SIM_W_DATA);
					dat_end(h.tail_end, SIM_T_ERROR);
					return;
				}
				break;
			}
			h.anc_clk += word_clocks();
			if (h.fn == SIMSDH_FIFO_WORDS) {
				/* Full: the clock is held until a word is taken. */
				h.bph = B_STALL;
				h.wait_from = t;
			}
			break;
		}
		case B_TAIL:
			if (h.tail_end > now) {
				/* The CRC16 and end bit are on the wire now: the
				 * truth is decided up to now (a read's last word
				 * can reach the CPU, and its operation end,
				 * before the block's tail ends). */
				dat(now, SIM_W_DATA);
				return;
			}
			dat(h.tail_end, SIM_W_DATA);
			if (h.rec) {
				sim_truth_blk(h.rec, h.bk)->bus_end_ns = h.tail_end;
				h.rec->t_last_bus_ns = h.tail_end;
				h.rec->blocks = h.bk + 1;
				if (h.bk == 0)
					h.rec->t_first_ready_ns = h.tail_end;
			}
			h.bk++;
			if (h.total && h.bk >= h.total) {
				sim_card_data_done(h.tail_end, false);
				h.bph = B_DONE;
				h.wait_from = h.tail_end;
				if (!h.fn)
					dat_end(h.tail_end, 0);
				return;
			}
			read_wait_setup(h.tail_end, h.mem ? sim_card_read_latency(h.bk) : SIM_NEVER);
			break;
		default:
			return;
		}
	}
}

/* The CPU or the DMA engine took a word of a read at now. */
static void read_taken(void)
{
	uint64_t now = sim_clk_now;

	if (h.fn == SIMSDH_FIFO_WORDS - 1) {
		h.room_t = now;
		if (h.bph == B_STALL) {
			dat(now, SIM_W_HOST_CPU);
			h.bph = B_WORDS;
			h.anc = now;
			h.anc_clk = word_clocks();
		}
	}
	if (h.bph == B_DONE && !h.fn) {
		/* the last words waited for the CPU */
		dat(now, SIM_W_HOST_CPU);
		dat_end(now, 0);
	}
}

/* ---- writes: the FIFO's words onto the bus ---------------------------------------- */

static void write_wait_setup(uint64_t from)
{
	h.bph = B_WAIT;
	h.wait_from = from;
	h.proto_ready = max64(from, h.busy_end) + clk_ns(NWR_MIN);
}

static uint64_t write_start_t(void)
{
	if (!h.fn || h.busy_end == SIM_NEVER)
		return SIM_NEVER;
	return max64(h.proto_ready, h.ft[h.fh]);
}

static void write_block_end(void)
{
	bool last = h.total && h.bk + 1 == h.total;
	uint64_t busy;

	dat(h.frame_end, SIM_W_DATA);
	dat(h.frame_end + clk_ns(NCRC), SIM_W_GAP);
	dat(h.tail_end, SIM_W_DATA);
	if (h.rec) {
		sim_truth_blk(h.rec, h.bk)->bus_end_ns = h.tail_end;
		h.rec->t_last_bus_ns = h.tail_end;
		h.rec->blocks = h.bk + 1;
	}
	if (fault(SIM_FAULT_DATA_CRC, h.bk)) {
		/* the card's CRC status says no */
		if (!sim_card.op_multi && sim_card.state == ST_RCV)
			sim_card.state = ST_TRAN;
		h.hsts |= SIMSDH_HSTS_CRC16;
		h.stopped = true;
		dat_end(h.tail_end, SIM_T_ERROR);
		return;
	}
	if (fault(SIM_FAULT_DATA_TIMEOUT, h.bk)) {
		h.hsts |= SIMSDH_HSTS_REW_TMO;
		h.stopped = true;
		dat_end(h.tail_end, SIM_T_ERROR);
		return;
	}
	busy = sim_card_write_block(h.bk, h.bblk, h.blksz, h.frame_end, last);
	if (busy == SIM_NEVER) {
		h.hsts |= SIMSDH_HSTS_REW_TMO;
		h.stopped = true;
		dat_end(h.tail_end, SIM_T_ERROR);
		return;
	}
	if (fault(SIM_FAULT_STUCK_BUSY, h.bk))
		h.busy_end = h.stuck_ns ? h.tail_end + h.stuck_ns : SIM_NEVER;
	else
		h.busy_end = h.tail_end + busy;
	sim_card_set_busy(h.busy_end);
	h.bk++;
	if (h.total && h.bk >= h.total) {
		h.bph = B_BUSY;
		return;
	}
	write_wait_setup(h.tail_end);
}

static void write_advance(uint64_t now)
{
	for (;;) {
		uint64_t t;

		switch (h.bph) {
		case B_WAIT:
			t = write_start_t();
			if (t > now)
				return;
			/* Whoever came last: the card's busy and N_WR, or the CPU
			 * filling the FIFO. */
			if (h.ft[h.fh] > h.proto_ready) {
				dat(h.wait_from + clk_ns(NWR_MIN), SIM_W_GAP);
				dat(t, SIM_W_HOST_CPU);
			} else {
				dat(h.busy_end, SIM_W_BUSY);
				dat(t, SIM_W_GAP);
			}
			if (h.rec) {
				sim_truth_blk(h.rec, h.bk)->bus_start_ns = t;
				if (h.bk == 0)
					h.rec->t_first_ready_ns = t;
			}
			h.bph = B_WORDS;
			h.bw = 0;
			h.anc = t;
			h.anc_clk = 1; /* the start bit */
			break;
		case B_WORDS: {
			uint32_t v;

			t = h.anc + clk_ns(h.anc_clk);
			if (t > now)
				return;
			if (!h.fn)
				dma_follow(t);
			if (!h.fn) {
				/* Empty: the clock is held until the CPU writes. */
				dat(t, SIM_W_DATA);
				h.bph = B_STALL;
				h.wait_from = t;
				return;
			}
			v = fifo_pop();
			h.popt[h.popn++ % 64u] = t;
			memcpy(h.bblk + h.bw * 4u, &v, 4);
			h.bw++;
			dma_follow(t); /* DREQ: room for the engine's words */
			if (h.bw == block_words()) {
				h.frame_end = h.anc + clk_ns(h.anc_clk + word_clocks() + TAIL_CLOCKS);
				h.tail_end = h.frame_end + clk_ns(NCRC + CRC_TOKEN);
				h.bph = B_TAIL;
				break;
			}
			h.anc_clk += word_clocks();
			break;
		}
		case B_TAIL:
			if (h.tail_end > now) {
				/* The CRC16 and end bit are on the wire now: the
				 * truth is decided up to now (a read's last word
				 * can reach the CPU, and its operation end,
				 * before the block's tail ends). */
				dat(now, SIM_W_DATA);
				return;
			}
			write_block_end();
			break;
		case B_BUSY:
			if (h.busy_end > now)
				return;
			dat(h.busy_end, SIM_W_BUSY);
			h.bph = B_DONE;
			dat_end(h.busy_end, 0);
			return;
		default:
			return;
		}
	}
}

/* The CPU or the DMA engine wrote a word at now. */
static void write_given(void)
{
	if (h.bph == B_STALL) {
		dat(sim_clk_now, SIM_W_HOST_CPU);
		h.bph = B_WORDS;
		h.anc = sim_clk_now;
		h.anc_clk = 0;
	}
}

/* Bring the data engine up to now. */
static void advance(void)
{
	if (h.stopped || h.xfer == XK_NONE)
		return;
	if (h.xfer == XK_READ)
		read_advance(sim_clk_now);
	else
		write_advance(sim_clk_now);
}

/* The next moment the data engine changes by itself. */
static uint64_t data_next(void)
{
	uint32_t left;

	if (h.stopped || h.xfer == XK_NONE)
		return SIM_NEVER;
	switch (h.bph) {
	case B_WAIT:
		if (h.xfer == XK_READ)
			return h.card_ready == SIM_NEVER ?
			       (h.tout ? h.wait_from + clk_ns(h.tout) : SIM_NEVER) : read_start_t();
		return write_start_t();
	case B_WORDS:
		left = block_words() - h.bw;
		if (h.xfer == XK_READ) {
			/* the FIFO full, or the block's last word */
			uint32_t m = SIMSDH_FIFO_WORDS - h.fn;

			m = m < left ? m : left;
			return h.anc + clk_ns(h.anc_clk + (uint64_t)(m - 1) * word_clocks());
		}
		/* the FIFO empty, or the block's last word gone */
		return h.anc + clk_ns(h.anc_clk + (uint64_t)min64(h.fn, left - 1) *
				      word_clocks());
	case B_TAIL:
		return h.tail_end;
	case B_BUSY:
		return h.busy_end;
	default:
		return SIM_NEVER;
	}
}

static uint32_t fsm(void)
{
	if (h.xfer == XK_READ && !h.stopped) {
		if (h.fn)
			return SIMSDH_EDM_FSM_READDATA;
		if (h.bph == B_DONE || h.bph == B_NONE ||
		    (h.bph == B_TAIL && h.total && h.bk + 1 >= h.total))
			return SIMSDH_EDM_FSM_DATA;
		if (h.bph == B_WORDS && conf()->sdhost_fsm == SIM_SDH_FSM_WORDS)
			return SIMSDH_EDM_FSM_READWAIT; /* no word in the FIFO yet */
		return h.bph == B_WORDS || h.bph == B_TAIL ? SIMSDH_EDM_FSM_READDATA :
		       SIMSDH_EDM_FSM_READWAIT;
	}
	if (h.xfer == XK_WRITE && !h.stopped) {
		if (h.bph == B_DONE || h.bph == B_NONE)
			return SIMSDH_EDM_FSM_DATA;
		if (h.bph == B_BUSY || (h.bph == B_WAIT && sim_card_busy_at(sim_clk_now)))
			return SIMSDH_EDM_FSM_WRITEWAIT2;
		if (h.bph == B_WAIT && !h.fn && !h.pos && (!h.total || h.k < h.total))
			return SIMSDH_EDM_FSM_WRITESTART1;
		return SIMSDH_EDM_FSM_WRITEDATA;
	}
	return SIMSDH_EDM_FSM_DATA;
}

/* [silicon:sdhost-fifo-after-write] A write reads full once every word of
 * the transfer was written, or with sdhost_end_fill_level the words still
 * in the FIFO: no authority says which (QEMU reads its level, 0); nothing
 * in the firmware relies on it (docs/silicon.md). */
static uint32_t fifo_fill(void)
{
	if (h.xfer == XK_WRITE && (h.stopped || (h.total && h.k >= h.total &&
						 !conf()->sdhost_end_fill_level)))
		return SIMSDH_FIFO_WORDS; /* no room: stopped, or every word written */
	if (h.xfer == XK_NONE)
		return 0;
	return h.fn;
}

/* [silicon:sdhost-edm-fifo] The fill as SDEDM bits 8:4 show it, by the
 * variant of sim.h enum sim_sdhost_fill. Lag: a read's words count once
 * they have been in the FIFO sdhost_fill_lag SD clocks, a write's words
 * the bus took within that time still count. Stepped: the value taken at
 * the last CPU (or DMA) access to SDDATA, moved on only when the fill
 * crosses a multiple of sdhost_fill_step words or the bus is not inside
 * a block (its end is an event). Either way a read's shows no word that
 * is not there and a write's no room that is not there. */
static uint32_t shown_fill(void)
{
	const struct sim_config *c = conf();
	uint32_t fill = fifo_fill(), step = c->sdhost_fill_step ? c->sdhost_fill_step : 1;
	bool inside = h.bph == B_WORDS || h.bph == B_STALL;

	if (h.xfer == XK_NONE || h.stopped || fill != h.fn)
		return fill; /* idle, or a write's end (sdhost-fifo-after-write) */
	if (c->sdhost_fill == SIM_FILL_LAG) {
		uint64_t lag = clk_ns(c->sdhost_fill_lag);
		uint32_t n = 0, i;

		if (h.xfer == XK_READ) {
			for (i = 0; i < h.fn; i++)
				if (h.ft[(h.fh + i) % SIMSDH_FIFO_WORDS] + lag <= sim_clk_now)
					n++;
			return n;
		}
		for (i = 0; i < 64u && i < h.popn; i++)
			if (h.popt[(h.popn - 1u - i) % 64u] + lag > sim_clk_now)
				n++;
		return fill + n > SIMSDH_FIFO_WORDS ? SIMSDH_FIFO_WORDS : fill + n;
	}
	if (c->sdhost_fill == SIM_FILL_STEPPED && inside) {
		uint32_t lo = fill / step * step, hi = (fill + step - 1) / step * step;

		if (h.xfer == XK_READ)
			return h.snap > lo ? (h.snap < fill ? h.snap : fill) : lo;
		return h.snap < hi ? (h.snap > fill ? h.snap : fill) : hi;
	}
	return fill;
}

/* A transfer the driver ended (FORCE_DATA_MODE, SDHBLC = 0, a new
 * command): the bus stops now. */
static void data_abort(void)
{
	if (h.xfer == XK_READ && !h.stopped && h.bph != B_DONE && h.bph != B_NONE)
		sim_card_data_done(sim_clk_now, false);
	if (h.xfer != XK_NONE && h.bph != B_NONE)
		dat_end(sim_clk_now, h.bph == B_DONE ? 0 : SIM_T_ABORTED);
	h.xfer = XK_NONE;
	h.fn = 0;
	h.bph = B_NONE;
}

static void command(void)
{
	uint8_t idx = h.cmd & SIMSDH_CMD_INDEX_MASK;
	bool app = sim_card.app_next;
	uint32_t fblock = 0, fm, flags = 0;
	uint64_t stuck = 0, end, now = sim_clk_now;
	struct sim_cmd_out o;
	int match = app && idx != 55 ? SIM_ACMD(idx) : idx;

	/* What was still running ends here. */
	if (h.xfer != XK_NONE)
		data_abort();
	if (h.rec)
		rec_close(now, SIM_T_ABORTED);

	memset(&o, 0, sizeof(o));
	end = now + clk_ns(48);
	fm = sim_fault_on_command(match, &fblock, &stuck);
	if (sim_card.present && !(fm & (1u << SIM_FAULT_CMD_TIMEOUT)))
		sim_card_command(idx, h.arg, end, &o);
	h.cmd_fail_bits = 0;
	h.busy_cmd = (h.cmd & SIMSDH_CMD_BUSYWAIT) != 0;
	if (app && idx != 55)
		flags |= SIM_T_APP;
	if (h.busy_cmd)
		flags |= SIM_T_R1B;
	if (o.xfer == XK_READ)
		flags |= SIM_T_READ;
	else if (o.xfer == XK_WRITE)
		flags |= SIM_T_WRITE;
	h.rec = sim_truth_open(idx, h.arg, flags | SIM_T_OPEN);
	h.rec->clock_hz = sd_hz();
	h.rec->width = (uint8_t)width();
	h.rec->blksz = h.hbct;
	/* CMD: the command's bits, then the card's N_CR and response (or the
	 * controller's wait for one that does not come). */
	sim_wire_emit(SIM_LANE_CMD, now, end, SIM_W_CMD);
	if (o.rsp == RSP_NONE) {
		if (!(h.cmd & SIMSDH_CMD_NO_RSP))
			h.cmd_fail_bits = SIMSDH_HSTS_CMD_TMO;
		h.cmd_done = end + clk_ns(64);
		sim_wire_emit(SIM_LANE_CMD, end, end + clk_ns(NAC_MIN), SIM_W_GAP);
		sim_wire_emit(SIM_LANE_CMD, end + clk_ns(NAC_MIN), h.cmd_done,
			      (h.cmd & SIMSDH_CMD_NO_RSP) ? SIM_W_CTRL_GAP : SIM_W_CARD);
	} else {
		uint32_t ncr = sim_card.p->ncr_clocks;
		uint64_t rs = end + clk_ns(ncr);

		h.cmd_done = end + clk_ns(ncr + (o.rsp == RSP_136 ? 136 : 48));
		sim_wire_emit(SIM_LANE_CMD, end, min64(end + clk_ns(2), rs), SIM_W_GAP);
		sim_wire_emit(SIM_LANE_CMD, end + clk_ns(2), rs, SIM_W_CARD);
		sim_wire_emit(SIM_LANE_CMD, rs, h.cmd_done, SIM_W_CMD);
		if (o.rsp == RSP_136) {
			h.rsp[0] = o.r[3];
			h.rsp[1] = o.r[2];
			h.rsp[2] = o.r[1];
			h.rsp[3] = o.r[0];
		} else {
			h.rsp[0] = o.r[0];
		}
		if (fm & (1u << SIM_FAULT_CMD_CRC))
			h.cmd_fail_bits = SIMSDH_HSTS_CRC7;
	}
	h.rec->t_resp_ns = h.cmd_done;
	if (h.cmd_fail_bits)
		h.rec->flags |= SIM_T_ERROR;
	if (fm & (1u << SIM_FAULT_STUCK_BUSY)) {
		h.stuck_ns = stuck;
		if (h.busy_cmd)
			sim_card_set_busy(stuck ? h.cmd_done + stuck : SIM_NEVER);
	}
	h.xfer = XK_NONE;
	h.stopped = false;
	h.fmask = fm;
	h.fblock = fblock;
	h.fn = 0;
	h.fh = 0;
	h.snap = 0;
	h.popn = 0;
	h.bph = B_NONE;
	if (o.xfer != XK_NONE && !h.cmd_fail_bits) {
		if (!(h.cmd & (SIMSDH_CMD_READ | SIMSDH_CMD_WRITE)))
			sim_violation("SDHOST: CMD%u moves data but SDCMD has neither "
				      "READ nor WRITE", idx);
		h.xfer = o.xfer;
		h.mem = o.mem;
		memcpy(h.reg_data, o.reg_data, sizeof(h.reg_data));
		h.blksz = h.hbct;
		if (h.blksz == 0 || h.blksz > sizeof(h.bblk) || (h.blksz & 3)) {
			sim_violation("SDHOST: data command with SDHBCT %u", h.blksz);
			h.xfer = XK_NONE;
			h.rec_close = h.cmd_done;
			return;
		}
		if (!o.mem && o.blksz != h.blksz)
			sim_violation("SDHOST: SDHBCT %u for a %u-byte register read",
				      h.blksz, o.blksz);
		h.total = o.blocks ? o.blocks : h.hblc;
		h.k = 0;
		h.pos = 0;
		h.bk = 0;
		h.bw = 0;
		h.room_t = end;
		h.busy_end = 0;
		h.dat_t = end;
		/* DAT is decided only as far as this model has described it. */
		sim_wire_hold(SIM_LANE_DAT, end);
		if (h.xfer == XK_READ)
			read_wait_setup(end, h.mem ? sim_card_read_latency(0) :
					sim_card.p->read_first.min_ns);
		else
			write_wait_setup(h.cmd_done);
		return;
	}
	/* No data: the record ends with the response, or with the busy. */
	h.rec_close = h.cmd_done;
	if (h.busy_cmd && !h.cmd_fail_bits && sim_card.busy_until > h.cmd_done) {
		if (sim_card.busy_until != SIM_NEVER) {
			sim_wire_emit(SIM_LANE_DAT, h.cmd_done, sim_card.busy_until, SIM_W_BUSY);
			h.rec_close = sim_card.busy_until;
		} else {
			h.rec_close = SIM_NEVER;
		}
	}
}

/* The next moment the model changes by itself (for polling loops). */
static uint64_t next_event(void)
{
	uint64_t e = SIM_NEVER;

	if (h.cmd & SIMSDH_CMD_NEW)
		e = h.cmd_done;
	if (h.busy_cmd && sim_card.busy_until > sim_clk_now && sim_card.busy_until < e)
		e = sim_card.busy_until;
	e = min64(e, data_next());
	if (h.rec && h.rec_close > sim_clk_now)
		e = min64(e, h.rec_close);
	return e;
}

static void update(void)
{
	if (in_dma)
		return; /* the engine asks for DREQ at an event being processed */
	if ((h.cmd & SIMSDH_CMD_NEW) && sim_clk_now >= h.cmd_done) {
		h.cmd &= ~SIMSDH_CMD_NEW;
		if (h.cmd_fail_bits) {
			h.cmd |= SIMSDH_CMD_FAIL;
			h.hsts |= h.cmd_fail_bits;
			h.busy_cmd = false;
		}
	}
	if (!(h.cmd & SIMSDH_CMD_NEW) && h.busy_cmd && !sim_card_busy_at(sim_clk_now)) {
		h.busy_cmd = false;
		if (h.hcfg & SIMSDH_HCFG_BUSY_IRPT_EN)
			h.hsts |= SIMSDH_HSTS_BUSY_IRPT;
	}
	if (h.rec && h.rec_close && h.rec_close != SIM_NEVER && sim_clk_now >= h.rec_close)
		rec_close(h.rec_close, 0);
	advance();
	sim_wire_commit(sim_clk_now);
}

static uint32_t data_pop(void)
{
	uint32_t v;

	if (h.xfer != XK_READ || !h.fn) {
		sim_violation("SDHOST: read of an empty FIFO");
		return 0;
	}
	v = fifo_pop();
	h.snap = h.fn; /* an access to SDDATA: stepped takes the fill afresh */
	h.pos += 4;
	if (h.pos >= h.blksz) {
		if (h.rec)
			sim_truth_blk(h.rec, h.k)->cpu_done_ns = sim_clk_now;
		h.k++;
		h.pos = 0;
	}
	read_taken();
	return v;
}

/* ---- the DMA engine's side ---------------------------------------------- */

bool sim_sdhost_dma_dreq(bool write)
{
	uint32_t fill, thr;

	update();
	if (h.xfer == XK_NONE || h.stopped)
		return false;
	fill = fifo_fill();
	if (write)
		return h.xfer == XK_WRITE && fill < SIMSDH_FIFO_WORDS;
	thr = (h.edm >> SIMSDH_EDM_RD_THR_SHIFT) & SIMSDH_EDM_THR_MASK;
	return h.xfer == XK_READ && fill && fill >= thr;
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

uint32_t sim_sdhost_clock_hz(void)
{
	return sd_hz();
}

uint8_t sim_sdhost_width(void)
{
	return (uint8_t)width();
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

/* Registers a CPU polls: the same value again is the CPU waiting. */
static bool pollable(uint32_t off)
{
	return off == SIMSDH_CMD || off == SIMSDH_HSTS || off == SIMSDH_EDM;
}

uint32_t sim_sdhost_read(uintptr_t addr)
{
	uint32_t off = (uint32_t)(addr - conf()->base), v = 0;

	sim_clk_note_mmio();
	sim_clk_charge(off == SIMSDH_DATA ? conf()->data_read_ns : conf()->mmio_read_ns);
	if (addr < conf()->base || off >= SIMSDH_REG_END || (off & 3)) {
		sim_violation("SDHOST: read of unmapped address 0x%lx", (unsigned long)addr);
		return 0;
	}
	update();
	switch (off) {
	case SIMSDH_CMD: v = h.cmd; break;
	case SIMSDH_ARG: v = h.arg; break;
	case SIMSDH_TOUT: v = h.tout; break;
	case SIMSDH_CDIV: v = h.cdiv; break;
	case SIMSDH_RSP0: case SIMSDH_RSP1: case SIMSDH_RSP2: case SIMSDH_RSP3:
		v = h.rsp[(off - SIMSDH_RSP0) / 4];
		break;
	case SIMSDH_HSTS:
		v = h.hsts | (fifo_fill() ? SIMSDH_HSTS_DATA_FLAG : 0);
		break;
	case SIMSDH_VDD: v = h.vdd; break;
	case SIMSDH_EDM:
		v = (h.edm & ~(SIMSDH_EDM_FSM_MASK | SIMSDH_EDM_FIFO_MASK << SIMSDH_EDM_FIFO_SHIFT)) |
		    fsm() | shown_fill() << SIMSDH_EDM_FIFO_SHIFT;
		break;
	case SIMSDH_HCFG: v = h.hcfg; break;
	case SIMSDH_HBCT: v = h.hbct; break;
	case SIMSDH_HBLC: v = h.hblc; break;
	case SIMSDH_DATA:
		h.st.cpu_words_read++;
		if (h.rec)
			h.rec->host_port_ns += conf()->data_read_ns;
		v = data_pop();
		memset(h.same, 0, sizeof(h.same));
		sim_wire_cpu_work(sim_clk_now);
		return v;
	default:
		sim_violation("SDHOST: read of reserved offset 0x%02x", off);
		return 0;
	}
	/* The CPU looking again at a status that did not change is waiting,
	 * not working (the truth's critical path). */
	if (pollable(off) && h.same[off / 4] && h.last_reads[off / 4] == v)
		sim_wire_cpu_wait(sim_clk_now - conf()->mmio_read_ns, sim_clk_now);
	else
		sim_wire_cpu_work(sim_clk_now);
	/* Polling: the same status three times: jump to the next event,
	 * never past a driver deadline. */
	if (h.last_reads[off / 4] == v) {
		/* Not while the FIFO waits for the CPU (words to take on a
		 * read, room on a write): what the CPU polls here may not
		 * show it (SDHSTS), the next look at SDEDM will. */
		bool cpu_owes = !h.stopped && ((h.xfer == XK_READ && h.fn) ||
					       (h.xfer == XK_WRITE && fifo_fill() < SIMSDH_FIFO_WORDS));

		if (++h.same[off / 4] >= 3 && conf()->fast_forward && !cpu_owes &&
		    !sim_clk_deadline_hit()) {
			uint64_t e = next_event(), d = sim_clk_next_deadline();

			if (d < e)
				e = d;
			if (e != SIM_NEVER && e > sim_clk_now) {
				sim_wire_cpu_wait(sim_clk_now, e);
				sim_clk_now = e;
			}
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
	if (h.xfer != XK_WRITE || h.stopped || (h.total && h.k >= h.total) ||
	    h.fn >= SIMSDH_FIFO_WORDS) {
		sim_violation("SDHOST: write to a full FIFO (block %u)", h.k);
		return;
	}
	fifo_push(v, sim_clk_now);
	h.snap = h.fn;
	h.pos += 4;
	if (h.pos >= h.blksz) {
		if (h.rec)
			sim_truth_blk(h.rec, h.k)->cpu_done_ns = sim_clk_now;
		h.pos = 0;
		h.k++;
	}
	write_given();
}

void sim_sdhost_write(uintptr_t addr, uint32_t v)
{
	uint32_t off = (uint32_t)(addr - conf()->base);

	sim_clk_note_mmio();
	sim_clk_charge(off == SIMSDH_DATA ? conf()->data_write_ns : conf()->mmio_write_ns);
	memset(h.same, 0, sizeof(h.same));
	sim_wire_cpu_work(sim_clk_now);
	if (addr < conf()->base || off >= SIMSDH_REG_END || (off & 3)) {
		sim_violation("SDHOST: write of unmapped address 0x%lx", (unsigned long)addr);
		return;
	}
	update();
	switch (off) {
	case SIMSDH_CMD:
		if (h.cmd & SIMSDH_CMD_NEW) {
			sim_violation("SDHOST: SDCMD written while a command is running");
			return;
		}
		h.cmd = v & 0xFFFFu & ~SIMSDH_CMD_FAIL;
		if (v & SIMSDH_CMD_NEW)
			command();
		break;
	case SIMSDH_ARG: h.arg = v; break;
	case SIMSDH_TOUT: h.tout = v; break;
	case SIMSDH_CDIV: h.cdiv = v & SIMSDH_CDIV_MAX; break;
	case SIMSDH_HSTS: h.hsts &= ~v; break;
	case SIMSDH_VDD: h.vdd = v & 1; break;
	case SIMSDH_EDM:
		if (v & SIMSDH_EDM_FORCE_DATA_MODE)
			data_abort(); /* the data engine back to idle */
		h.edm = v & ~SIMSDH_EDM_FORCE_DATA_MODE;
		break;
	case SIMSDH_HCFG: h.hcfg = v; break;
	case SIMSDH_HBCT: h.hbct = v; break;
	case SIMSDH_HBLC:
		h.hblc = v;
		if (!v && h.xfer != XK_NONE)
			data_abort();
		break;
	case SIMSDH_DATA:
		h.st.cpu_words_written++;
		if (h.rec)
			h.rec->host_port_ns += conf()->data_write_ns;
		write_word(v);
		break;
	default:
		sim_violation("SDHOST: write of reserved offset 0x%02x", off);
		break;
	}
}

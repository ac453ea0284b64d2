/*
 * sim_sdhci.c - a simulated Arasan SDHCI controller with the register map of
 * the BCM2835 EMMC block (BCM2835 ARM Peripherals, chapter 5; field
 * semantics from the SD Host Controller Simplified Specification 3.00),
 * connected to the simulated card (sim_card.c) by a timed SD bus.
 *
 * The hardware is evaluated lazily: every register access first advances
 * the model to the virtual time of the access. A command written at t
 * reaches the card at t + 48 SD clocks and completes after N_CR and the
 * response; read blocks enter the buffer when their frame has crossed the
 * bus; write blocks leave it when sent, and DAT0 busy follows the card's
 * programming time. Bus times come from the SD clock the driver programmed
 * (base clock / 2N) and the bus width it set.
 *
 * Behaviour follows QEMU's hw/sd/sdhci.c where that is how the hardware
 * works (write-1-to-clear status, status bits gated by IRPT_MASK,
 * SRST_CMD|SRST_DATA written together does nothing, Auto CMD12 response in
 * RESP3, R2 stored without its CRC byte). Where QEMU is simpler than real
 * hardware the model follows the hardware: a command timeout does not set
 * CMD_DONE, the SD clock must be enabled and stable, bus time passes, a data
 * error leaves DAT_INHIBIT set until SRST_DATA.
 *
 * Not supported: DMA (SDMA/ADMA; CAPABILITIES says none), 8-bit bus, UHS
 * modes and tuning, boot mode, block-gap stop/continue, SPI mode,
 * interrupts to a CPU (polling only; IRPT_EN is stored), 8/16-bit access.
 */
#include <string.h>

#include "drivers/mmio.h"
#include "tests/sim/sim_internal.h"

/* Register offsets (BCM2835 ARM Peripherals §5.4). */
#define ARG2            0x00
#define BLKSIZECNT      0x04
#define ARG1            0x08
#define CMDTM           0x0c
#define RESP0           0x10
#define RESP1           0x14
#define RESP2           0x18
#define RESP3           0x1c
#define DATA            0x20
#define STATUS          0x24
#define CONTROL0        0x28
#define CONTROL1        0x2c
#define INTERRUPT       0x30
#define IRPT_MASK       0x34
#define IRPT_EN         0x38
#define CONTROL2        0x3c
#define CAPABILITIES    0x40
#define CAPABILITIES_HI 0x44
#define FORCE_IRPT      0x50
#define BOOT_TIMEOUT    0x70
#define DBG_SEL         0x74
#define EXRDFIFO_CFG    0x80
#define EXRDFIFO_EN     0x84
#define TUNE_STEP       0x88
#define TUNE_STEPS_STD  0x8c
#define TUNE_STEPS_DDR  0x90
#define SPI_INT_SPT     0xf0
#define SLOTISR_VER     0xfc
#define REG_SPAN        0x100

/* CMDTM */
#define TM_BLKCNT_EN        (1u << 1)
#define TM_AUTO_CMD_SHIFT   2
#define TM_AUTO_CMD12       1u
#define TM_AUTO_CMD23       2u
#define TM_DAT_DIR          (1u << 4)  /* 1 = card to host */
#define TM_MULTI_BLOCK      (1u << 5)
#define CMD_RSPNS_SHIFT     16
#define CMD_RSPNS_NONE      0u
#define CMD_RSPNS_136       1u
#define CMD_RSPNS_48        2u
#define CMD_RSPNS_48BUSY    3u
#define CMD_CRCCHK_EN       (1u << 19)
#define CMD_IXCHK_EN        (1u << 20)
#define CMD_ISDATA          (1u << 21)
#define CMD_TYPE_SHIFT      22
#define CMD_TYPE_ABORT      3u
#define CMD_INDEX_SHIFT     24

/* STATUS */
#define ST_CMD_INHIBIT      (1u << 0)
#define ST_DAT_INHIBIT      (1u << 1)
#define ST_DAT_ACTIVE       (1u << 2)
#define ST_WRITE_TRANSFER   (1u << 8)
#define ST_READ_TRANSFER    (1u << 9)
#define ST_BUF_WR_EN        (1u << 10)
#define ST_BUF_RD_EN        (1u << 11)
#define ST_CARD_INSERTED    (1u << 16)
#define ST_CARD_STABLE      (1u << 17)
#define ST_CARD_DETECT      (1u << 18)
#define ST_WRITE_ENABLED    (1u << 19) /* WP pin: 1 = writable (SDHCI) */
#define ST_DAT_LEVEL0_SHIFT 20
#define ST_CMD_LEVEL        (1u << 24)

/* CONTROL0 */
#define C0_HCTL_DWIDTH      (1u << 1)
#define C0_HCTL_HS_EN       (1u << 2)
#define C0_HCTL_8BIT        (1u << 5)

/* CONTROL1 */
#define C1_CLK_INTLEN       (1u << 0)
#define C1_CLK_STABLE       (1u << 1)
#define C1_CLK_EN           (1u << 2)
#define C1_CLK_GENSEL       (1u << 5)
#define C1_CLK_FREQ_MS2_SHIFT 6
#define C1_CLK_FREQ8_SHIFT  8
#define C1_DATA_TOUNIT_SHIFT 16
#define C1_SRST_SHIFT       24
#define C1_SRST_HC          1u
#define C1_SRST_CMD         2u
#define C1_SRST_DATA        4u

/* INTERRUPT / IRPT_MASK / IRPT_EN */
#define INT_CMD_DONE        (1u << 0)
#define INT_DATA_DONE       (1u << 1)
#define INT_WRITE_RDY       (1u << 4)
#define INT_READ_RDY        (1u << 5)
#define INT_CARD_INSERT     (1u << 6)
#define INT_CARD_REMOVE     (1u << 7)
#define INT_ERR             (1u << 15)
#define INT_CTO_ERR         (1u << 16)
#define INT_CCRC_ERR        (1u << 17)
#define INT_CEND_ERR        (1u << 18)
#define INT_CBAD_ERR        (1u << 19)
#define INT_DTO_ERR         (1u << 20)
#define INT_DCRC_ERR        (1u << 21)
#define INT_DEND_ERR        (1u << 22)
#define INT_ACMD_ERR        (1u << 24)

/* CONTROL2 low half: Auto CMD error status */
#define C2_ACNOX_ERR        (1u << 0)
#define C2_ACTO_ERR         (1u << 1)
#define C2_ACCRC_ERR        (1u << 2)
#define C2_ACEND_ERR        (1u << 3)
#define C2_ACBAD_ERR        (1u << 4)

#define MAX_BUF 4
#define OPEN_ENDED UINT32_MAX

/* One truth record being filled, with its accounting cursor. */
struct rec {
	struct sim_truth *t;
	uint64_t acct;
};

struct xfer {
	bool active;
	enum sim_xfer_kind dir;
	bool mem;
	uint8_t reg_data[64];
	uint32_t blksz;
	uint32_t total;
	bool blkcnt_en;
	bool auto12;
	uint64_t resp_end;
	/* bus side */
	uint32_t bus_k;
	bool in_flight;
	uint64_t bus_start, bus_end;
	uint64_t card_ready;   /* read: card can start block bus_k */
	uint64_t wait_since;   /* data timeout window start */
	uint64_t busy_end;     /* write: DAT0 busy after the previous block */
	bool bus_done;
	uint64_t bus_done_t;
	bool auto12_sent;
	uint64_t auto12_done;
	uint32_t auto12_irq;   /* error to raise when the Auto CMD12 ends */
	uint32_t auto12_c2;
	/* buffer */
	uint8_t buf[MAX_BUF][1024];
	uint64_t fill_t[MAX_BUF];
	uint32_t buf_count;    /* read: blocks waiting for the CPU; write: filled */
	uint32_t host_k;
	uint32_t host_off;
	uint64_t slot_free_t;
	uint64_t host_done_t;  /* CPU finished the last block */
	/* faults */
	uint32_t fault_mask;
	uint32_t fault_block;
	uint64_t stuck_ns;
	struct rec r;
};

static struct {
	uint32_t arg2, blksizecnt, arg1, cmdtm, resp[4];
	uint32_t control0, control1, irpt, irpt_mask, irpt_en, control2;
	uint32_t other[REG_SPAN / 4]; /* plain storage for the rest */
	uint64_t clk_stable_at;

	/* CMD line */
	bool cmd_active;
	bool cmd_wedged;
	uint64_t cmd_done_t;
	uint64_t cmd_line_free;
	uint32_t cmd_irq;      /* interrupt bits at completion */
	uint32_t cmd_c2;       /* CONTROL2 auto-cmd error bits at completion */
	bool cmd_load_resp;
	uint32_t cmd_resp[4];
	bool cmd_r1b;
	struct rec cr;

	/* R1b busy on DAT0 */
	bool r1b_active;
	uint64_t r1b_start;
	struct rec br;

	struct xfer x;
	bool dat_wedged;

	uint64_t last_wr_t[REG_SPAN / 4];
	uint32_t last_rd_val[REG_SPAN / 4];
	uint32_t same_reads[REG_SPAN / 4]; /* identical reads in a row */
	uint64_t idle_quantum;  /* fast-forward step with no event pending */
} h;

/* ---- helpers ------------------------------------------------------------ */

static const struct sim_config *cfg(void)
{
	return sim_get_config();
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

uint32_t sim_sdhci_clock_hz(void)
{
	uint32_t n = ((h.control1 >> C1_CLK_FREQ8_SHIFT) & 0xff) |
		     ((h.control1 >> C1_CLK_FREQ_MS2_SHIFT) & 3) << 8;

	/* SDHCI 3.0 10-bit divided clock mode: f = base / 2N, N = 0: base. */
	return n ? cfg()->base_clock_hz / (2 * n) : cfg()->base_clock_hz;
}

static bool clock_running(uint64_t t)
{
	return (h.control1 & C1_CLK_INTLEN) && (h.control1 & C1_CLK_EN) &&
	       h.clk_stable_at <= t;
}

uint8_t sim_sdhci_width(void)
{
	return (h.control0 & C0_HCTL_DWIDTH) ? 4 : 1;
}

uint32_t sim_sd_clock_hz(void)
{
	return clock_running(sim_clk_now) ? sim_sdhci_clock_hz() : 0;
}

uint8_t sim_bus_width(void)
{
	return sim_sdhci_width();
}

uint64_t sim_clocks_ns(uint64_t clocks, uint32_t hz)
{
	if (!hz)
		return SIM_NEVER;
	return (clocks * 1000000000ull + hz / 2) / hz;
}

uint32_t sim_block_clocks(uint32_t blksz, uint8_t width)
{
	/* start bit + data + CRC16 + end bit, on each DAT line (§4.5) */
	return 1 + blksz * 8 / width + 16 + 1;
}

static uint64_t clk(uint64_t n)
{
	return sim_clocks_ns(n, sim_sdhci_clock_hz());
}

/* Data timeout: TMCLK * 2^(13 + DATA_TOUNIT); 0xF disables it. */
static uint64_t data_timeout_ns(void)
{
	uint32_t unit = (h.control1 >> C1_DATA_TOUNIT_SHIFT) & 0xf;
	uint32_t caps = sim_get_config()->caps;
	uint64_t tmclk = (caps & 0x3f) * ((caps & 0x80) ? 1000000ull : 1000ull);

	if (unit == 0xf || !tmclk)
		return SIM_NEVER;
	return ((1ull << (13 + unit)) * 1000000000ull) / tmclk;
}

static void raise(uint32_t bits)
{
	h.irpt |= bits & h.irpt_mask & ~INT_ERR;
}

static void acct(struct rec *r, uint64_t to, uint64_t *bucket)
{
	if (!r->t || to <= r->acct || to == SIM_NEVER)
		return;
	*bucket += to - r->acct;
	r->acct = to;
}

/* Charge [cursor, to] of record r to one of its phase fields. */
#define ACCT(r, to, field)                                                 \
	do {                                                               \
		if ((r)->t)                                                \
			acct((r), (to), &(r)->t->field);                   \
	} while (0)

static void rec_close(struct rec *r, uint64_t t_end, uint32_t err,
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
	r->t = NULL;
}

/* ---- data transfer engine ------------------------------------------------ */

enum { B_NONE, B_ACCESS, B_BUSY };

static void xfer_error(uint64_t t, uint32_t irq, int bucket)
{
	struct xfer *x = &h.x;

	if (bucket == B_ACCESS)
		ACCT(&x->r, t, access_ns);
	else if (bucket == B_BUSY)
		ACCT(&x->r, t, busy_ns);
	raise(irq);
	rec_close(&x->r, t, irq, 0);
	x->active = false;
	/* The DAT state machine stops where it was: only SRST_DATA frees it
	 * (measured on QEMU, SDHCI 3.0 §3.10 error recovery). */
	h.dat_wedged = true;
	/* The card itself stays in data/rcv until CMD12, like a real one. */
}

static bool data_fault(uint32_t kind, uint32_t k)
{
	return (h.x.fault_mask & (1u << kind)) && h.x.fault_block == k;
}

/* Anything that garbles the DAT lines: width mismatch, clock too fast. */
static bool dat_garbled(void)
{
	uint32_t f = sim_sdhci_clock_hz();
	uint32_t fmax = sim_card.hs_mode ? 50000000u : 25000000u;

	return sim_sdhci_width() != sim_card.width || f > fmax;
}

static uint64_t frame_ns(void)
{
	uint64_t c = sim_block_clocks(h.x.blksz, sim_sdhci_width());

	/* Writes: N_WR (2) before the start bit, then 2 clocks and the 5-bit
	 * CRC status token after the end bit (§4.12.4). */
	if (h.x.dir == XK_WRITE)
		c += 2 + 2 + 5;
	return clk(c);
}

/* Send CMD12 on behalf of the driver (Auto CMD12) starting at t. */
static uint64_t auto12(uint64_t t)
{
	struct sim_cmd_out o;
	uint64_t cmd_end = t + clk(48), done;
	uint32_t fm;

	/* Errors show when the command ends (xfer_next, what 5). */
	fm = sim_fault_on_command(12, NULL, NULL);
	if (!sim_card.present || (fm & (1u << SIM_FAULT_CMD_TIMEOUT))) {
		h.x.auto12_c2 = C2_ACTO_ERR;
		h.x.auto12_irq = INT_ACMD_ERR;
		return cmd_end + clk(64);
	}
	sim_card_command(12, 0, cmd_end, &o);
	done = cmd_end + clk(sim_card.p->ncr_clocks + 48);
	if (o.rsp == RSP_NONE) {
		h.x.auto12_c2 = C2_ACTO_ERR;
		h.x.auto12_irq = INT_ACMD_ERR;
		return cmd_end + clk(64);
	}
	if (fm & (1u << SIM_FAULT_CMD_CRC)) {
		h.x.auto12_c2 = C2_ACCRC_ERR;
		h.x.auto12_irq = INT_ACMD_ERR;
	}
	h.resp[3] = o.r[0];
	if (h.x.r.t)
		h.x.r.t->flags |= SIM_T_AUTO12;
	h.cmd_line_free = done + clk(8);
	return done;
}

static void read_block_done(void)
{
	struct xfer *x = &h.x;
	uint32_t k = x->bus_k;
	uint32_t slot = (x->host_k + x->buf_count) % MAX_BUF;
	uint64_t t = x->bus_end, lat;

	ACCT(&x->r, t, data_bus_ns);
	x->in_flight = false;
	if (x->r.t)
		x->r.t->t_last_bus_ns = t;
	if (data_fault(SIM_FAULT_DATA_CRC, k) || dat_garbled()) {
		if (dat_garbled())
			sim_violation("CMD%u: DAT lines garbled (width %u vs card %u, %u Hz)",
				      (h.cmdtm >> CMD_INDEX_SHIFT) & 0x3f,
				      sim_sdhci_width(), sim_card.width,
				      sim_sdhci_clock_hz());
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
	if (x->blkcnt_en && (h.blksizecnt >> 16))
		h.blksizecnt -= 1u << 16;
	if (x->buf_count == 1)
		raise(INT_READ_RDY);
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
	struct xfer *x = &h.x;
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
		raise(INT_WRITE_RDY);
	if (data_fault(SIM_FAULT_DATA_CRC, k) || dat_garbled()) {
		/* Negative CRC status: the card drops the block. */
		if (dat_garbled())
			sim_violation("CMD%u: DAT lines garbled (width %u vs card %u, %u Hz)",
				      (h.cmdtm >> CMD_INDEX_SHIFT) & 0x3f,
				      sim_sdhci_width(), sim_card.width,
				      sim_sdhci_clock_hz());
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
	if (x->blkcnt_en && (h.blksizecnt >> 16))
		h.blksizecnt -= 1u << 16;
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
	struct xfer *x = &h.x;

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
	raise(INT_DATA_DONE);
	rec_close(&x->r, t, 0, 0);
	x->active = false;
}

/* Earliest time something happens in the transfer, SIM_NEVER if it waits
 * for the CPU. *what: 1 block end, 2 block start, 3 timeout, 4 complete. */
static uint64_t xfer_next(int *what)
{
	struct xfer *x = &h.x;
	uint64_t to = data_timeout_ns();

	*what = 0;
	if (!x->active || h.cmd_active)
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
	struct xfer *x = &h.x;

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

static void xfer_step(uint64_t e, int what)
{
	struct xfer *x = &h.x;

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
		h.control2 |= x->auto12_c2;
		raise(x->auto12_irq);
		if (x->r.t)
			x->r.t->err_irq |= x->auto12_irq;
		x->auto12_irq = 0;
		break;
	}
}

/* ---- command engine ------------------------------------------------------- */

static void cmd_complete(void)
{
	uint64_t t = h.cmd_done_t;

	h.cmd_active = false;
	if (h.cmd_load_resp)
		memcpy(h.resp, h.cmd_resp, sizeof(h.resp));
	h.control2 |= h.cmd_c2;
	raise(h.cmd_irq);
	if (h.cmd_irq & 0xffff0000u) {
		if (cfg()->strict_cmd_inhibit)
			h.cmd_wedged = true;
		/* The record ends here; a data phase that was asked for
		 * will end in a data timeout with no record of its own. */
		if (h.x.r.t == h.cr.t)
			h.x.r.t = NULL;
		rec_close(&h.cr, t, h.cmd_irq & 0xffff0000u, 0);
		return;
	}
	if (h.cmd_r1b && !h.x.active) {
		h.r1b_active = true;
		h.r1b_start = t;
		h.br = h.cr; /* the record continues through the busy phase */
		h.cr.t = NULL;
		return;
	}
	if (h.x.active && h.x.r.t == h.cr.t) {
		h.cr.t = NULL; /* the transfer owns the record now */
		if (h.x.dir == XK_WRITE)
			raise(INT_WRITE_RDY);
		return;
	}
	rec_close(&h.cr, t, 0, 0);
}

static uint64_t r1b_next(int *what)
{
	uint64_t to = data_timeout_ns(), end;

	*what = 0;
	if (!h.r1b_active)
		return SIM_NEVER;
	end = sim_card.present ? max64(sim_card.busy_until, h.r1b_start) : h.r1b_start;
	if (end == SIM_NEVER || (to != SIM_NEVER && end > h.r1b_start + to)) {
		if (to == SIM_NEVER)
			return SIM_NEVER;
		*what = 3;
		return h.r1b_start + to;
	}
	*what = 4;
	return end;
}

static void r1b_step(uint64_t e, int what)
{
	h.r1b_active = false;
	if (h.br.t)
		ACCT(&h.br, e, busy_ns);
	if (what == 3) {
		raise(INT_DTO_ERR);
		rec_close(&h.br, e, INT_DTO_ERR, 0);
		h.dat_wedged = true;
		return;
	}
	raise(INT_DATA_DONE);
	rec_close(&h.br, e, 0, 0);
}

static void issue_command(uint32_t cmdtm)
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
	tr = sim_truth_open(idx, h.arg1, flags | SIM_T_OPEN);
	tr->clock_hz = clock_running(now) ? hz : 0;
	tr->width = sim_sdhci_width();
	h.cr.t = tr;
	h.cr.acct = now;
	h.cmd_active = true;
	h.cmd_irq = 0;
	h.cmd_c2 = 0;
	h.cmd_load_resp = false;
	h.cmd_r1b = rtype == CMD_RSPNS_48BUSY;
	h.control2 &= ~0xffu;

	if (!clock_running(now)) {
		sim_violation("CMD%u issued with the SD clock off or unstable", idx);
		h.cmd_done_t = SIM_NEVER; /* nothing moves: SRST_CMD needed */
		return;
	}
	if (hz > 400000 && sim_card.present &&
	    sim_card_state_at(now) <= ST_IDENT && idx != 0)
		sim_violation("CMD%u at %u Hz during identification (max 400 kHz)",
			      idx, hz);

	start = max64(now, h.cmd_line_free);
	/* Auto CMD23 goes first (SDHCI 3.0 §3.7.2.2). */
	if (isdata && autoc == TM_AUTO_CMD23 && (cmdtm & TM_MULTI_BLOCK)) {
		struct sim_cmd_out o23;
		uint64_t e23 = start + clk(48);

		tr->flags |= SIM_T_AUTO23;
		fm = sim_fault_on_command(23, NULL, NULL);
		if (sim_card.present && !(fm & (1u << SIM_FAULT_CMD_TIMEOUT)))
			sim_card_command(23, h.arg2, e23, &o23);
		else
			o23.rsp = RSP_NONE;
		if (o23.rsp == RSP_NONE) {
			h.cmd_done_t = e23 + clk(64);
			h.cmd_c2 = C2_ACTO_ERR;
			h.cmd_irq = INT_ACMD_ERR;
			ACCT(&h.cr, h.cmd_done_t, auto_cmd_ns);
			return;
		}
		start = e23 + clk(sim_card.p->ncr_clocks + 48 + 8);
		ACCT(&h.cr, start, auto_cmd_ns);
	}
	cmd_end = start + clk(48);

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
		sim_card_command(idx, h.arg1, cmd_end, &o);

	if (o.rsp == RSP_NONE) {
		if (rtype == CMD_RSPNS_NONE) {
			h.cmd_done_t = cmd_end;
			h.cmd_irq = INT_CMD_DONE;
		} else {
			h.cmd_done_t = cmd_end + clk(64);
			h.cmd_irq = INT_CTO_ERR;
		}
		h.cmd_line_free = h.cmd_done_t + clk(8);
		tr->t_resp_ns = h.cmd_done_t;
		ACCT(&h.cr, h.cmd_done_t, cmd_ns);
		if (isdata)
			goto start_data_wait;
		return;
	}
	if (rtype == CMD_RSPNS_NONE) {
		/* The card answered but the driver did not ask: bus time only. */
		h.cmd_done_t = cmd_end;
	} else {
		h.cmd_done_t = cmd_end + clk(sim_card.p->ncr_clocks +
					     (o.rsp == RSP_136 ? 136 : 48));
	}
	h.cmd_line_free = h.cmd_done_t + clk(8);
	h.cmd_irq = INT_CMD_DONE;
	if (rtype != CMD_RSPNS_NONE) {
		h.cmd_load_resp = true;
		if (rtype == CMD_RSPNS_136) {
			/* Arasan/SDHCI: bits [127:8], CRC byte dropped. */
			h.cmd_resp[0] = o.r[3] >> 8 | o.r[2] << 24;
			h.cmd_resp[1] = o.r[2] >> 8 | o.r[1] << 24;
			h.cmd_resp[2] = o.r[1] >> 8 | o.r[0] << 24;
			h.cmd_resp[3] = o.r[0] >> 8;
			if (o.rsp != RSP_136)
				h.cmd_irq = INT_CEND_ERR; /* length mismatch */
		} else {
			h.cmd_resp[0] = o.r[0];
			h.cmd_resp[1] = h.resp[1];
			h.cmd_resp[2] = h.resp[2];
			h.cmd_resp[3] = h.resp[3];
			if (o.rsp == RSP_136)
				h.cmd_irq = INT_CEND_ERR;
			if ((cmdtm & CMD_IXCHK_EN) && o.index != idx)
				h.cmd_irq = INT_CBAD_ERR;
		}
		if ((fm & (1u << SIM_FAULT_CMD_CRC)) && (cmdtm & CMD_CRCCHK_EN))
			h.cmd_irq = INT_CCRC_ERR;
		if ((fm & (1u << SIM_FAULT_CMD_INDEX)) && (cmdtm & CMD_IXCHK_EN))
			h.cmd_irq = INT_CBAD_ERR;
		if (fm & (1u << SIM_FAULT_CMD_END))
			h.cmd_irq = INT_CEND_ERR;
		if (hz > (sim_card.hs_mode ? 50000000u : 25000000u) &&
		    (cmdtm & CMD_CRCCHK_EN))
			h.cmd_irq = INT_CCRC_ERR;
	}
	tr->t_resp_ns = h.cmd_done_t;
	ACCT(&h.cr, h.cmd_done_t, cmd_ns);

	if (h.cmd_r1b && !isdata) {
		uint64_t b = o.busy_ns;

		if (fm & (1u << SIM_FAULT_STUCK_BUSY))
			b = stuck ? stuck : SIM_NEVER;
		if (b)
			sim_card_set_busy(b == SIM_NEVER ? SIM_NEVER : cmd_end + b);
	}
	if (!isdata)
		return;

start_data_wait:
	{
		struct xfer *x = &h.x;
		uint32_t blksz = h.blksizecnt & 0x3ff;
		uint32_t cnt = h.blksizecnt >> 16;

		memset(x, 0, sizeof(*x));
		x->active = true;
		x->dir = (cmdtm & TM_DAT_DIR) ? XK_READ : XK_WRITE;
		x->mem = o.mem;
		if (!o.mem)
			memcpy(x->reg_data, o.reg_data, sizeof(x->reg_data));
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
		x->resp_end = h.cmd_done_t;
		x->fault_mask = fm;
		x->fault_block = fblock;
		x->stuck_ns = stuck;
		x->r.t = tr;
		x->r.acct = h.cmd_done_t; /* the cursor continues at the response */
		tr->blksz = x->blksz;
		if (x->dir == XK_READ) {
			uint64_t lat = o.rsp != RSP_NONE && o.xfer == XK_READ &&
						       !(fm & (1u << SIM_FAULT_DATA_TIMEOUT) &&
							 fblock == 0) ?
					       sim_card_read_latency(0) : SIM_NEVER;

			x->card_ready = lat == SIM_NEVER ? SIM_NEVER : cmd_end + lat;
			tr->card_access_ns = lat == SIM_NEVER ? 0 : lat;
			x->wait_since = cmd_end;
			if (o.mem && o.xfer == XK_READ && o.blksz != x->blksz)
				sim_violation("CMD%u: block size %u, card sends %u",
					      idx, x->blksz, o.blksz);
			if (!o.mem && o.xfer == XK_READ && o.blksz != x->blksz)
				sim_violation("CMD%u: block size %u, register is %u bytes",
					      idx, x->blksz, o.blksz);
		} else {
			x->busy_end = (o.rsp != RSP_NONE && o.xfer == XK_WRITE) ?
					      0 : SIM_NEVER;
			x->wait_since = h.cmd_done_t;
		}
	}
}

/* ---- time ------------------------------------------------------------------ */

uint64_t sim_sdhci_next_event(void)
{
	uint64_t e = SIM_NEVER;
	int w;

	if (h.cmd_active)
		e = h.cmd_done_t;
	e = min64(e, xfer_next(&w));
	e = min64(e, r1b_next(&w));
	if (h.clk_stable_at > sim_clk_now && h.clk_stable_at != SIM_NEVER)
		e = min64(e, h.clk_stable_at);
	if (sim_card.present && sim_card.busy_until > sim_clk_now)
		e = min64(e, sim_card.busy_until);
	return e;
}

void sim_sdhci_advance(uint64_t t)
{
	for (;;) {
		uint64_t ec = h.cmd_active ? h.cmd_done_t : SIM_NEVER;
		int wx, wb;
		uint64_t ex = xfer_next(&wx);
		uint64_t eb = r1b_next(&wb);
		uint64_t e = min64(ec, min64(ex, eb));

		if (e > t || e == SIM_NEVER)
			break;
		if (e == ec)
			cmd_complete();
		else if (e == ex)
			xfer_step(e, wx);
		else
			r1b_step(e, wb);
	}
}

/* ---- register file ---------------------------------------------------------- */

static uint32_t status_reg(void)
{
	struct xfer *x = &h.x;
	uint32_t s = 0;
	bool busy = sim_card_busy_at(sim_clk_now);

	if (h.cmd_active || h.cmd_wedged)
		s |= ST_CMD_INHIBIT;
	if (x->active || h.dat_wedged || h.r1b_active)
		s |= ST_DAT_INHIBIT;
	if (x->active && !(x->bus_done))
		s |= ST_DAT_ACTIVE;
	if (x->active && x->dir == XK_WRITE) {
		s |= ST_WRITE_TRANSFER;
		if (!h.cmd_active && x->host_k < x->total &&
		    x->buf_count < cfg()->buf_blocks)
			s |= ST_BUF_WR_EN;
	}
	if (x->active && x->dir == XK_READ) {
		s |= ST_READ_TRANSFER;
		if (x->buf_count)
			s |= ST_BUF_RD_EN;
	}
	if (sim_card.present)
		s |= ST_CARD_INSERTED | ST_CARD_STABLE | ST_CARD_DETECT;
	else
		s |= ST_CARD_STABLE;
	if (!sim_wp_switch)
		s |= ST_WRITE_ENABLED;
	s |= (busy ? 0xeu : 0xfu) << ST_DAT_LEVEL0_SHIFT;
	s |= ST_CMD_LEVEL;
	return s;
}

static uint32_t data_read(void)
{
	struct xfer *x = &h.x;
	uint32_t slot, v;
	uint8_t *p;

	if (!x->active || x->dir != XK_READ || !x->buf_count) {
		sim_violation("DATA read with no data in the buffer");
		return 0;
	}
	if (x->r.t)
		x->r.t->host_port_ns += cfg()->data_read_ns;
	slot = x->host_k % MAX_BUF;
	p = &x->buf[slot][x->host_off];
	v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
	x->host_off += 4;
	if (x->host_off >= x->blksz) {
		x->host_off = 0;
		x->host_k++;
		x->buf_count--;
		x->slot_free_t = sim_clk_now;
		x->host_done_t = sim_clk_now;
		if (x->r.t)
			sim_truth_blk(x->r.t, x->host_k - 1)->cpu_done_ns = sim_clk_now;
		if (x->buf_count)
			raise(INT_READ_RDY);
	}
	return v;
}

static void data_write(uint32_t v)
{
	struct xfer *x = &h.x;
	uint32_t slot;
	uint8_t *p;

	if (!(status_reg() & ST_BUF_WR_EN)) {
		sim_violation("DATA write with no space in the buffer");
		return;
	}
	if (x->r.t)
		x->r.t->host_port_ns += cfg()->data_write_ns;
	slot = x->host_k % MAX_BUF;
	p = &x->buf[slot][x->host_off];
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
	x->host_off += 4;
	if (x->host_off >= x->blksz) {
		x->host_off = 0;
		x->fill_t[slot] = sim_clk_now;
		if (x->r.t)
			sim_truth_blk(x->r.t, x->host_k)->cpu_done_ns = sim_clk_now;
		x->host_k++;
		x->buf_count++;
		if (x->host_k < x->total && x->buf_count < cfg()->buf_blocks)
			raise(INT_WRITE_RDY);
	}
}

static void reset_cmd(void)
{
	h.cmd_active = false;
	h.cmd_wedged = false;
	h.irpt &= ~INT_CMD_DONE;
	rec_close(&h.cr, sim_clk_now, 0, SIM_T_ABORTED);
}

static void reset_data(void)
{
	struct xfer *x = &h.x;

	if (x->r.t) {
		ACCT(&x->r, sim_clk_now, host_wait_ns);
		rec_close(&x->r, sim_clk_now, 0, SIM_T_ABORTED);
	}
	if (h.br.t) {
		ACCT(&h.br, sim_clk_now, busy_ns);
		rec_close(&h.br, sim_clk_now, 0, SIM_T_ABORTED);
	}
	memset(x, 0, sizeof(*x));
	h.r1b_active = false;
	h.dat_wedged = false;
	h.irpt &= ~(INT_DATA_DONE | INT_READ_RDY | INT_WRITE_RDY);
}

void sim_sdhci_reset_all(void)
{
	reset_cmd();
	reset_data();
	h.arg2 = h.blksizecnt = h.arg1 = h.cmdtm = 0;
	memset(h.resp, 0, sizeof(h.resp));
	h.control0 = h.control1 = h.irpt = h.irpt_mask = h.irpt_en = 0;
	h.control2 = 0;
	memset(h.other, 0, sizeof(h.other));
	h.clk_stable_at = SIM_NEVER;
}

void sim_sdhci_power_on(void)
{
	memset(&h, 0, sizeof(h));
	h.idle_quantum = 1000;
	sim_sdhci_reset_all();
}

void sim_sdhci_card_removed(void)
{
	raise(INT_CARD_REMOVE);
}

void sim_sdhci_card_event(bool inserted)
{
	raise(inserted ? INT_CARD_INSERT : INT_CARD_REMOVE);
}

static void write_control1(uint32_t v)
{
	uint32_t srst = v >> C1_SRST_SHIFT;
	bool was_on = h.control1 & C1_CLK_INTLEN;

	/* Exactly one reset bit, like QEMU's sdhci_reset_write(): writing
	 * SRST_CMD and SRST_DATA together resets nothing. */
	if (srst == C1_SRST_HC)
		sim_sdhci_reset_all();
	else if (srst == C1_SRST_CMD)
		reset_cmd();
	else if (srst == C1_SRST_DATA)
		reset_data();
	else if (srst)
		sim_violation("CONTROL1 reset bits 0x%x ignored (one at a time)", srst);
	was_on = h.control1 & C1_CLK_INTLEN;
	h.control1 = v & ~(0xffu << C1_SRST_SHIFT) & ~C1_CLK_STABLE;
	if (!(v & C1_CLK_INTLEN))
		h.clk_stable_at = SIM_NEVER;
	else if (!was_on)
		h.clk_stable_at = sim_clk_now + cfg()->clk_stable_ns;
	if ((v & C1_CLK_GENSEL))
		sim_violation("CONTROL1 CLK_GENSEL (programmable clock) not modelled");
}

static uint32_t reg_read(uint32_t off)
{
	switch (off) {
	case ARG2: return h.arg2;
	case BLKSIZECNT: return h.blksizecnt;
	case ARG1: return h.arg1;
	case CMDTM: return h.cmdtm;
	case RESP0: case RESP1: case RESP2: case RESP3:
		return h.resp[(off - RESP0) / 4];
	case DATA: return data_read();
	case STATUS: return status_reg();
	case CONTROL0: return h.control0;
	case CONTROL1:
		return h.control1 | (h.clk_stable_at <= sim_clk_now ? C1_CLK_STABLE : 0);
	case INTERRUPT:
		return h.irpt | ((h.irpt & 0xffff0000u) ? INT_ERR : 0);
	case IRPT_MASK: return h.irpt_mask;
	case IRPT_EN: return h.irpt_en;
	case CONTROL2: return h.control2;
	case CAPABILITIES: return cfg()->caps_zero ? 0 : cfg()->caps;
	case CAPABILITIES_HI: return 0;
	case SLOTISR_VER: return cfg()->version;
	case FORCE_IRPT: case BOOT_TIMEOUT: case DBG_SEL: case EXRDFIFO_CFG:
	case EXRDFIFO_EN: case TUNE_STEP: case TUNE_STEPS_STD:
	case TUNE_STEPS_DDR: case SPI_INT_SPT:
		return h.other[off / 4];
	default:
		sim_violation("read of unknown register 0x%02x", off);
		return 0;
	}
}

static bool pollable(uint32_t off)
{
	return off == STATUS || off == INTERRUPT || off == CONTROL1 ||
	       off == BLKSIZECNT;
}

uint32_t sim_mmio_read32(uintptr_t addr)
{
	uint32_t off = (uint32_t)(addr - cfg()->base), v;

	sim_clk_note_mmio();
	if (addr < cfg()->base || off >= REG_SPAN || (off & 3)) {
		sim_violation("read of unmapped address 0x%lx", (unsigned long)addr);
		sim_clk_charge(cfg()->mmio_read_ns);
		return 0;
	}
	sim_clk_charge(off == DATA ? cfg()->data_read_ns : cfg()->mmio_read_ns);
	sim_sdhci_advance(sim_clk_now);
	v = reg_read(off);
	if (h.same_reads[off / 4] && h.last_rd_val[off / 4] == v) {
		h.same_reads[off / 4]++;
	} else {
		h.same_reads[off / 4] = 1;
		h.idle_quantum = 1000;
	}
	if (pollable(off) && h.same_reads[off / 4] >= 3 &&
	    !sim_clk_deadline_hit()) {
		/* The same value three times with no write in between: the
		 * CPU is polling (two reads can be straight-line code). Jump
		 * to the next moment anything can change, but never past a
		 * deadline the driver set. */
		uint64_t to = min64(sim_sdhci_next_event(), sim_clk_next_deadline());

		if (!cfg()->fast_forward) {
			to = sim_clk_now;
		} else if (to == SIM_NEVER) {
			/* Nothing will ever change: a loop without a deadline.
			 * Let time run faster and faster so that it reaches
			 * the one-hour limit (and fails) instead of hanging. */
			to = sim_clk_now + h.idle_quantum;
			if (h.idle_quantum < 1000000000ull)
				h.idle_quantum *= 2;
		}
		if (to > sim_clk_now) {
			sim_clk_now = to;
			sim_clk_charge(0);
			sim_sdhci_advance(sim_clk_now);
			v = reg_read(off);
		}
	}
	if (h.last_rd_val[off / 4] != v)
		h.same_reads[off / 4] = 1;
	h.last_rd_val[off / 4] = v;
	return v;
}

void sim_mmio_write32(uintptr_t addr, uint32_t v)
{
	uint32_t off = (uint32_t)(addr - cfg()->base);

	sim_clk_note_mmio();
	memset(h.same_reads, 0, sizeof(h.same_reads));
	h.idle_quantum = 1000;
	if (addr < cfg()->base || off >= REG_SPAN || (off & 3)) {
		sim_violation("write of unmapped address 0x%lx", (unsigned long)addr);
		sim_clk_charge(cfg()->mmio_write_ns);
		return;
	}
	sim_clk_charge(off == DATA ? cfg()->data_write_ns : cfg()->mmio_write_ns);
	sim_sdhci_advance(sim_clk_now);
	if (cfg()->write_hazard && off != DATA) {
		uint64_t two = clk(2);
		uint64_t last = h.last_wr_t[off / 4];

		h.last_wr_t[off / 4] = sim_clk_now;
		/* Arasan clock-domain crossing: a second write to the same
		 * register within two SD clocks is lost. */
		if (last && sim_clk_now - last < two) {
			sim_violation("write 0x%08x to 0x%02x lost: %llu ns after the "
				      "previous one (< 2 SD clocks)", v, off,
				      (unsigned long long)(sim_clk_now - last));
			return;
		}
	}
	switch (off) {
	case ARG2: h.arg2 = v; break;
	case ARG1: h.arg1 = v; break;
	case BLKSIZECNT:
		if (h.x.active) {
			sim_violation("BLKSIZECNT written during a transfer");
			break;
		}
		h.blksizecnt = v;
		if ((v & 0x3ff) > 1024 || (v & 0xfc00u))
			sim_violation("BLKSIZECNT 0x%08x: block size field", v);
		break;
	case CMDTM: {
		uint32_t rtype = (v >> CMD_RSPNS_SHIFT) & 3;
		bool abort = ((v >> CMD_TYPE_SHIFT) & 3) == CMD_TYPE_ABORT;

		if (h.cmd_active || h.cmd_wedged) {
			sim_violation("CMD%u written while CMD_INHIBIT",
				      (v >> CMD_INDEX_SHIFT) & 0x3f);
			break;
		}
		if (((v & CMD_ISDATA) || (rtype == CMD_RSPNS_48BUSY && !abort)) &&
		    (h.x.active || h.dat_wedged || h.r1b_active)) {
			sim_violation("CMD%u written while DAT_INHIBIT",
				      (v >> CMD_INDEX_SHIFT) & 0x3f);
			break;
		}
		h.cmdtm = v;
		issue_command(v);
		break;
	}
	case DATA: data_write(v); break;
	case CONTROL0:
		h.control0 = v;
		if (v & C0_HCTL_8BIT)
			sim_violation("8-bit bus selected");
		break;
	case CONTROL1: write_control1(v); break;
	case INTERRUPT:
		h.irpt &= ~v;
		break;
	case IRPT_MASK:
		h.irpt_mask = v;
		h.irpt &= v;
		break;
	case IRPT_EN: h.irpt_en = v; break;
	case CONTROL2:
		h.control2 = (h.control2 & 0xffffu) | (v & 0xffff0000u);
		break;
	case RESP0: case RESP1: case RESP2: case RESP3: case STATUS:
	case CAPABILITIES: case CAPABILITIES_HI: case SLOTISR_VER:
		sim_violation("write 0x%08x to read-only register 0x%02x", v, off);
		break;
	case FORCE_IRPT:
		raise(v & 0xffff0000u);
		break;
	case BOOT_TIMEOUT: case DBG_SEL: case EXRDFIFO_CFG: case EXRDFIFO_EN:
	case TUNE_STEP: case TUNE_STEPS_STD: case TUNE_STEPS_DDR: case SPI_INT_SPT:
		h.other[off / 4] = v;
		break;
	default:
		sim_violation("write 0x%08x to unknown register 0x%02x", v, off);
	}
}

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
 * hardware the model follows the hardware: the SD clock must be enabled
 * and stable, bus time passes, a data error leaves DAT_INHIBIT set until
 * SRST_DATA. Where SDHCI allows two behaviours it takes the stricter one: a
 * command timeout does not also set CMD_DONE (QEMU sets both).
 *
 * UHS-I: Host Control 2 (UHS mode select, 1.8 V signalling enable,
 * Execute Tuning / Sampling Clock Select), CAPABILITIES[63:32] from the
 * configuration, DAT[3:0] levels during the card's voltage switch, and
 * the tuning procedure: each tuning block read with Execute Tuning set
 * is checked by the controller at its next sampling tap (the card's
 * window, sim/sim_card.c) and not given to the CPU; the procedure
 * ends after the window's last tap or the 40th.
 *
 * DMA: ADMA2 with 32-bit descriptors when the host has it (cfg adma2:
 * CAPABILITIES bit 19), see sim_sdhci_data.c; SDMA and 64-bit ADMA2 are
 * violations. The SoC's DMA engine on the data port (DREQ 11) is
 * sim_bcm2835_dma.c. Not supported: 8-bit bus, UHS preset values,
 * re-tuning timers, boot mode, block-gap stop/continue, SPI mode,
 * interrupts to a CPU (polling only; IRPT_EN is stored), 8/16-bit access.
 */
#include <string.h>

#include "drivers/mmio.h"
#include "sim/sim_sdhci.h"

/* ---- register file ---------------------------------------------------------- */

/* The BCM2712's cfg block (base + 0x400, 0x200 bytes; word accesses). */
static bool in_bcm2712_cfg(uintptr_t addr)
{
	uintptr_t lo = cfg()->base + SIM_BCM2712_CFG_OFFSET;

	return cfg()->platform == SIM_PLATFORM_BCM2712 && addr >= lo &&
	       addr < lo + SIM_BCM2712_CFG_SPAN && !(addr & 3);
}

/* SDIO_CFG_CTRL: SDCD_N_TEST_EN (bit 31) with SDCD_N_TEST_LEV (bit 30)
 * clear makes the controller see a card whatever its detect input says. */
#define CFG_CTRL_CD_TEST_EN	(1u << 31)
#define CFG_CTRL_CD_TEST_LEV	(1u << 30)

bool sim_hc_sees_card(void)
{
	uint32_t ctrl;

	if (cfg()->platform != SIM_PLATFORM_BCM2712)
		return sim_card.present;
	/* BCM2712: the slot's detect switch goes to a GPIO, not to the
	 * controller's input; only the override makes it see a card (then
	 * always, card or not). */
	ctrl = sim_hc.bcm2712_cfg[0];
	return (ctrl & CFG_CTRL_CD_TEST_EN) && !(ctrl & CFG_CTRL_CD_TEST_LEV);
}

int sim_set_io_voltage(unsigned mv)
{
	if (cfg()->platform != SIM_PLATFORM_BCM2712) {
		sim_violation("I/O voltage switch to %u mV on a board without a regulator", mv);
		return -1;
	}
	if (mv != 3300 && mv != 1800) {
		sim_violation("I/O voltage %u mV: the regulator has 3300 and 1800", mv);
		return -1;
	}
	if (mv != sim_hc.io_mv)
		sim_hc.io_settled_at = sim_clk_now + SIM_IO_SETTLE_NS;
	sim_hc.io_mv = mv;
	/* The card's side of the signalling is this regulator. */
	return sim_board_set_io_mv(mv);
}

unsigned sim_io_voltage_mv(void)
{
	return sim_hc.io_mv;
}

/* The blocks the buffer may hold before Buffer Write Enable clears: the
 * host's depth, or one where it is set only when the buffer is empty
 * (enum sim_bwe). */
unsigned sim_hc_write_slots(void)
{
	return cfg()->bwe == SIM_BWE_EMPTY ? 1u : cfg()->buf_blocks;
}

/* What Present State's DAT[0] level shows of the card's busy (enum
 * sim_dat0): the line, the line released dat0_lag_ns late, or nothing. */
static bool dat0_level_busy(bool busy)
{
	switch (cfg()->dat0) {
	case SIM_DAT0_LAG:
		return busy || (sim_clk_now >= cfg()->dat0_lag_ns &&
				sim_card_busy_at(sim_clk_now - cfg()->dat0_lag_ns));
	case SIM_DAT0_NONE:
		return false;
	default:
		return busy;
	}
}

static uint32_t status_reg(void)
{
	struct xfer *x = &sim_hc.x;
	uint32_t s = 0;
	bool busy = sim_card_busy_at(sim_clk_now);

	if (sim_hc.cmd_active || sim_hc.cmd_wedged)
		s |= ST_CMD_INHIBIT;
	if (x->active || sim_hc.dat_wedged || sim_hc.r1b_active)
		s |= ST_DAT_INHIBIT;
	/* DAT line active: blocks still to move, or DAT0 held low by a busy
	 * card for this transfer or an R1b command. */
	if ((x->active && (!x->bus_done || busy)) || sim_hc.r1b_active)
		s |= ST_DAT_ACTIVE;
	if (x->active && x->dir == XK_WRITE) {
		s |= ST_WRITE_TRANSFER;
		if (!sim_hc.cmd_active && x->host_k < x->total && !x->dma &&
		    x->buf_count < sim_hc_write_slots())
			s |= ST_BUF_WR_EN;
	}
	if (x->active && x->dir == XK_READ) {
		s |= ST_READ_TRANSFER;
		if (x->buf_count && !x->dma)
			s |= ST_BUF_RD_EN;
	}
	if (sim_hc_sees_card())
		s |= ST_CARD_INSERTED | ST_CARD_STABLE | ST_CARD_DETECT;
	else
		s |= ST_CARD_STABLE;
	if (!sim_wp_switch)
		s |= ST_WRITE_ENABLED;
	if (sim_card_dat_low())
		s |= 0u << ST_DAT_LEVEL0_SHIFT;
	else
		s |= (dat0_level_busy(busy) ? 0xeu : 0xfu) << ST_DAT_LEVEL0_SHIFT;
	s |= ST_CMD_LEVEL;
	return s;
}

static uint32_t data_read(void)
{
	struct xfer *x = &sim_hc.x;
	uint32_t slot, v;
	uint8_t *p;

	if (x->active && x->dma) {
		sim_violation("DATA read during a DMA transfer");
		return 0;
	}
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
		sim_hc_blkcnt_step(SIM_BLKCNT_DRAIN);
		x->host_k++;
		x->buf_count--;
		if (x->slot_free_t == SIM_NEVER)
			x->slot_free_t = sim_clk_now; /* the read wait ends */
		x->host_done_t = sim_clk_now;
		if (x->r.t)
			sim_truth_blk(x->r.t, x->host_k - 1)->cpu_done_ns = sim_clk_now;
		if (x->buf_count)
			sim_hc_irq_raise(INT_READ_RDY);
	}
	return v;
}

static void data_write(uint32_t v)
{
	struct xfer *x = &sim_hc.x;
	uint32_t slot;
	uint8_t *p;

	if (x->active && x->dma) {
		sim_violation("DATA write during a DMA transfer");
		return;
	}
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
		sim_hc_blkcnt_step(SIM_BLKCNT_DRAIN);
		x->host_k++;
		x->buf_count++;
		if (x->host_k < x->total && x->buf_count < sim_hc_write_slots())
			sim_hc_irq_raise(INT_WRITE_RDY);
	}
}

bool sim_hc_dma_dreq(bool write)
{
	struct xfer *x = &sim_hc.x;

	if (write)
		return x->active && x->dir == XK_WRITE && (status_reg() & ST_BUF_WR_EN);
	return x->active && x->dir == XK_READ && x->buf_count;
}

/* The DMA engine's accesses: the same port, but not the CPU's time. */
uint32_t sim_hc_dma_port_read(void)
{
	struct sim_truth *t = sim_hc.x.r.t;
	uint64_t keep = t ? t->host_port_ns : 0;
	uint32_t v = data_read();

	if (t)
		t->host_port_ns = keep;
	return v;
}

void sim_hc_dma_port_write(uint32_t v)
{
	struct sim_truth *t = sim_hc.x.r.t;
	uint64_t keep = t ? t->host_port_ns : 0;

	data_write(v);
	if (t)
		t->host_port_ns = keep;
}

static void reset_cmd(void)
{
	if (sim_hc.cmd_active)
		sim_wire_truncate(SIM_LANE_CMD, sim_clk_now);
	sim_hc.cmd_active = false;
	sim_hc.cmd_wedged = false;
	sim_hc.irpt &= ~INT_CMD_DONE;
	sim_hc_rec_close(&sim_hc.cr, sim_clk_now, 0, SIM_T_ABORTED);
}

static void reset_data(void)
{
	struct xfer *x = &sim_hc.x;

	if (x->active) {
		/* Whatever the transfer was going to do after now does not
		 * happen; the wait until now was for the CPU to give up. */
		sim_wire_truncate(SIM_LANE_DAT, sim_clk_now);
		if (!x->in_flight)
			sim_wire_emit(SIM_LANE_DAT, x->wait_from, sim_clk_now, SIM_W_HOST_CPU);
	}
	if (sim_hc.r1b_active)
		sim_wire_emit(SIM_LANE_DAT, sim_hc.r1b_start, sim_clk_now, SIM_W_BUSY);
	sim_wire_release(SIM_LANE_DAT);
	if (x->r.t)
		sim_hc_rec_close(&x->r, sim_clk_now, 0, SIM_T_ABORTED);
	if (sim_hc.br.t)
		sim_hc_rec_close(&sim_hc.br, sim_clk_now, 0, SIM_T_ABORTED);
	memset(x, 0, sizeof(*x));
	sim_hc.r1b_active = false;
	sim_hc.dat_wedged = false;
	sim_hc.irpt &= ~(INT_DATA_DONE | INT_READ_RDY | INT_WRITE_RDY | INT_DMA);
	sim_hc.adma_err = 0;
}

void sim_sdhci_reset_all(void)
{
	reset_cmd();
	reset_data();
	sim_hc.arg2 = sim_hc.blksizecnt = sim_hc.arg1 = sim_hc.cmdtm = 0;
	memset(sim_hc.resp, 0, sizeof(sim_hc.resp));
	sim_hc.control0 = sim_hc.control1 = 0;
	sim_hc.irpt = sim_hc.irpt_mask = sim_hc.irpt_en = 0;
	sim_hc.control2 = 0;
	sim_hc.adma_addr = 0;
	memset(sim_hc.other, 0, sizeof(sim_hc.other));
	sim_hc.clk_stable_at = SIM_NEVER;
}

void sim_sdhci_power_on(void)
{
	memset(&sim_hc, 0, sizeof(sim_hc));
	sim_hc.idle_quantum = 1000;
	sim_bdma_reset();
	sim_gio_aon_reset();
	{
		/* The board's GPIO block and mailbox under the controller's
		 * peripheral base (EMMC at +0x300000, SDHOST at +0x202000). */
		uintptr_t periph = cfg()->platform == SIM_PLATFORM_BCM2712 ? 0 :
				   cfg()->base - (cfg()->sdhost ? 0x202000u : 0x300000u);

		sim_gpio_reset(periph);
		sim_mbox_reset(periph);
	}
	sim_hc.io_mv = 3300;
	sim_sdhci_reset_all();
}

void sim_sdhci_card_removed(void)
{
	sim_hc_irq_raise(INT_CARD_REMOVE);
}

void sim_sdhci_card_event(bool inserted)
{
	sim_hc_irq_raise(inserted ? INT_CARD_INSERT : INT_CARD_REMOVE);
}

static void write_control1(uint32_t v)
{
	uint32_t srst = v >> C1_SRST_SHIFT;
	bool was_on = sim_hc.control1 & C1_CLK_INTLEN;

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
	{
		uint32_t clk_bits = C1_CLK_INTLEN | C1_CLK_EN | 0xffc0u;
		uint32_t old = sim_hc.control1;
		bool was_en = (old & C1_CLK_EN) && (old & C1_CLK_INTLEN);
		bool is_en = (v & C1_CLK_EN) && (v & C1_CLK_INTLEN) && srst != C1_SRST_HC;

		/* A card in the middle of a voltage switch watches the clock. */
		if (was_en != is_en)
			sim_card_switch_clock(is_en, sim_clk_now);

		was_on = old & C1_CLK_INTLEN;
		sim_hc.control1 = v & ~(0xffu << C1_SRST_SHIFT) & ~C1_CLK_STABLE;
		if (!(v & C1_CLK_INTLEN))
			sim_hc.clk_stable_at = SIM_NEVER;
		else if (!was_on)
			sim_hc.clk_stable_at = sim_clk_now + cfg()->clk_stable_ns;
		/* A new divider or a clock (re)started: the SD clock's edges
		 * start again from here. */
		if ((old ^ sim_hc.control1) & clk_bits)
			sim_hc.clk_epoch = max64(sim_clk_now, sim_hc.clk_stable_at == SIM_NEVER ?
						 sim_clk_now : sim_hc.clk_stable_at);
	}
	if ((v & C1_CLK_GENSEL))
		sim_violation("CONTROL1 CLK_GENSEL (programmable clock) not modelled");
}

static uint32_t reg_read(uint32_t off)
{
	switch (off) {
	case ARG2: return sim_hc.arg2;
	case BLKSIZECNT: return sim_hc.blksizecnt;
	case ARG1: return sim_hc.arg1;
	case CMDTM: return sim_hc.cmdtm;
	case RESP0: case RESP1: case RESP2: case RESP3:
		return sim_hc.resp[(off - RESP0) / 4];
	case DATA: return data_read();
	case STATUS: return status_reg();
	case CONTROL0: return sim_hc.control0;
	case CONTROL1:
		return sim_hc.control1 |
		       (sim_hc.clk_stable_at <= sim_clk_now ? C1_CLK_STABLE : 0);
	case INTERRUPT:
		return sim_hc.irpt | ((sim_hc.irpt & 0xffff0000u) ? INT_ERR : 0);
	case IRPT_MASK: return sim_hc.irpt_mask;
	case IRPT_EN: return sim_hc.irpt_en;
	case CONTROL2: return sim_hc.control2;
	case CAPABILITIES: return cfg()->caps_zero ? 0 : cfg()->caps;
	case CAPABILITIES_HI: return cfg()->caps_zero ? 0 : cfg()->caps_hi;
	case ADMA_ERR: return cfg()->adma2 ? sim_hc.adma_err : 0;
	case ADMA_ADDR: return (uint32_t)sim_hc.adma_addr;
	case ADMA_ADDR_HI: return cfg()->adma64 ? (uint32_t)(sim_hc.adma_addr >> 32) : 0;
	case SLOTISR_VER: return cfg()->version;
	case FORCE_IRPT: case BOOT_TIMEOUT: case DBG_SEL: case EXRDFIFO_CFG:
	case EXRDFIFO_EN: case TUNE_STEP: case TUNE_STEPS_STD:
	case TUNE_STEPS_DDR: case SPI_INT_SPT:
		return sim_hc.other[off / 4];
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

uint32_t host_bus_read32(uintptr_t addr)
{
	uint32_t off = (uint32_t)(addr - cfg()->base), v;

	if (sim_bdma_claims(addr))
		return sim_bdma_mmio_read(addr);
	if (sim_gio_aon_claims(addr))
		return sim_gio_aon_read(addr);
	if (sim_gpio_claims(addr))
		return sim_gpio_read(addr);
	if (sim_mbox_claims(addr))
		return sim_mbox_read(addr);
	if (cfg()->sdhost)
		return sim_sdhost_read(addr);
	sim_clk_note_mmio();
	if (in_bcm2712_cfg(addr)) {
		sim_clk_charge(cfg()->mmio_read_ns);
		sim_wire_cpu_work(sim_clk_now);
		return sim_hc.bcm2712_cfg[(addr - cfg()->base - SIM_BCM2712_CFG_OFFSET) / 4];
	}
	if (addr < cfg()->base || off >= REG_SPAN || (off & 3)) {
		sim_violation("read of unmapped address 0x%llx", (unsigned long long)addr);
		sim_clk_charge(cfg()->mmio_read_ns);
		return 0;
	}
	sim_clk_charge(off == DATA ? cfg()->data_read_ns : cfg()->mmio_read_ns);
	sim_sdhci_advance(sim_clk_now);
	sim_bdma_service();
	v = reg_read(off);
	if (sim_hc.same_reads[off / 4] && sim_hc.last_rd_val[off / 4] == v) {
		sim_hc.same_reads[off / 4]++;
		/* The CPU is looking again at a status that did not change:
		 * it is waiting, not working. */
		if (pollable(off))
			sim_wire_cpu_wait(sim_clk_now - cfg()->mmio_read_ns, sim_clk_now);
		else
			sim_wire_cpu_work(sim_clk_now);
	} else {
		sim_wire_cpu_work(sim_clk_now);
		sim_hc.same_reads[off / 4] = 1;
		sim_hc.idle_quantum = 1000;
	}
	if (pollable(off) && sim_hc.same_reads[off / 4] >= 3 &&
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
			to = sim_clk_now + sim_hc.idle_quantum;
			if (sim_hc.idle_quantum < 1000000000ull)
				sim_hc.idle_quantum *= 2;
		}
		if (to > sim_clk_now) {
			sim_wire_cpu_wait(sim_clk_now, to);
			sim_clk_now = to;
			sim_clk_charge(0);
			sim_sdhci_advance(sim_clk_now);
			sim_bdma_service();
			v = reg_read(off);
		}
	}
	if (sim_hc.last_rd_val[off / 4] != v)
		sim_hc.same_reads[off / 4] = 1;
	sim_hc.last_rd_val[off / 4] = v;
	return v;
}

void host_bus_write32(uintptr_t addr, uint32_t v)
{
	uint32_t off = (uint32_t)(addr - cfg()->base);

	if (sim_bdma_claims(addr)) {
		sim_bdma_mmio_write(addr, v);
		return;
	}
	if (sim_gio_aon_claims(addr)) {
		sim_gio_aon_write(addr, v);
		return;
	}
	if (sim_gpio_claims(addr)) {
		sim_gpio_write(addr, v);
		return;
	}
	if (sim_mbox_claims(addr)) {
		sim_mbox_write(addr, v);
		return;
	}
	if (cfg()->sdhost) {
		sim_sdhost_write(addr, v);
		return;
	}
	sim_clk_note_mmio();
	memset(sim_hc.same_reads, 0, sizeof(sim_hc.same_reads));
	sim_hc.idle_quantum = 1000;
	if (in_bcm2712_cfg(addr)) {
		sim_clk_charge(cfg()->mmio_write_ns);
		sim_wire_cpu_work(sim_clk_now);
		sim_hc.bcm2712_cfg[(addr - cfg()->base - SIM_BCM2712_CFG_OFFSET) / 4] = v;
		return;
	}
	if (addr < cfg()->base || off >= REG_SPAN || (off & 3)) {
		sim_violation("write of unmapped address 0x%llx", (unsigned long long)addr);
		sim_clk_charge(cfg()->mmio_write_ns);
		return;
	}
	sim_clk_charge(off == DATA ? cfg()->data_write_ns : cfg()->mmio_write_ns);
	sim_wire_cpu_work(sim_clk_now);
	sim_sdhci_advance(sim_clk_now);
	sim_bdma_service();
	if (cfg()->write_hazard && off != DATA) {
		uint64_t two = sim_hc_clk(2);
		uint64_t last = sim_hc.last_wr_t[off / 4];

		sim_hc.last_wr_t[off / 4] = sim_clk_now;
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
	case ARG2: sim_hc.arg2 = v; break;
	case ARG1: sim_hc.arg1 = v; break;
	case BLKSIZECNT:
		if (sim_hc.x.active) {
			sim_violation("BLKSIZECNT written during a transfer");
			break;
		}
		sim_hc.blksizecnt = v;
		if ((v & 0x3ff) > 1024 || (v & 0xfc00u))
			sim_violation("BLKSIZECNT 0x%08x: block size field", v);
		break;
	case CMDTM: {
		uint32_t rtype = (v >> CMD_RSPNS_SHIFT) & 3;
		bool abort = ((v >> CMD_TYPE_SHIFT) & 3) == CMD_TYPE_ABORT;

		if (sim_hc.cmd_active || sim_hc.cmd_wedged) {
			sim_violation("CMD%u written while CMD_INHIBIT",
				      (v >> CMD_INDEX_SHIFT) & 0x3f);
			break;
		}
		if (((v & CMD_ISDATA) || (rtype == CMD_RSPNS_48BUSY && !abort)) &&
		    (sim_hc.x.active || sim_hc.dat_wedged || sim_hc.r1b_active)) {
			sim_violation("CMD%u written while DAT_INHIBIT",
				      (v >> CMD_INDEX_SHIFT) & 0x3f);
			break;
		}
		if (!sim_hc_sees_card() && sim_card.present)
			sim_violation("CMD%u issued while the controller sees no card (BCM2712: "
				      "presence not forced in SDIO_CFG_CTRL)",
				      (v >> CMD_INDEX_SHIFT) & 0x3f);
		if (sim_clk_now < sim_hc.io_settled_at)
			sim_violation("CMD%u issued %llu ns after an I/O voltage switch "
				      "(the regulator settles in %llu ns)",
				      (v >> CMD_INDEX_SHIFT) & 0x3f,
				      (unsigned long long)(sim_clk_now + SIM_IO_SETTLE_NS -
							   sim_hc.io_settled_at),
				      (unsigned long long)SIM_IO_SETTLE_NS);
		sim_hc.cmdtm = v;
		sim_hc_issue_command(v);
		break;
	}
	case DATA: data_write(v); break;
	case CONTROL0:
		sim_hc.control0 = v;
		if (v & C0_HCTL_8BIT)
			sim_violation("8-bit bus selected");
		break;
	case CONTROL1: write_control1(v); break;
	case ADMA_ADDR:
		if (sim_hc.x.active && sim_hc.x.dma)
			sim_violation("ADMA_ADDR written during a DMA transfer");
		sim_hc.adma_addr = (sim_hc.adma_addr & ~0xFFFFFFFFull) | v;
		break;
	case ADMA_ADDR_HI:
		if (!cfg()->adma64) {
			if (v)
				sim_violation("ADMA_ADDR_HI 0x%08x: 32-bit ADMA2 only", v);
			break;
		}
		if (sim_hc.x.active && sim_hc.x.dma)
			sim_violation("ADMA_ADDR_HI written during a DMA transfer");
		sim_hc.adma_addr = (sim_hc.adma_addr & 0xFFFFFFFFull) | (uint64_t)v << 32;
		break;
	case INTERRUPT:
		sim_hc.irpt &= ~v;
		break;
	case IRPT_MASK:
		sim_hc.irpt_mask = v;
		sim_hc.irpt &= v;
		break;
	case IRPT_EN: sim_hc.irpt_en = v; break;
	case CONTROL2:
		if ((v & HC2_EXEC_TUNING) && !(sim_hc.control2 & HC2_EXEC_TUNING)) {
			/* Tuning starts at the first tap. */
			sim_hc.tune_tap = 0;
			sim_hc.tune_lo = sim_hc.tune_hi = -1;
		}
		sim_hc.control2 = (sim_hc.control2 & 0xffffu) | (v & 0xffff0000u);
		break;
	case RESP0: case RESP1: case RESP2: case RESP3: case STATUS:
	case CAPABILITIES: case CAPABILITIES_HI: case SLOTISR_VER: case ADMA_ERR:
		sim_violation("write 0x%08x to read-only register 0x%02x", v, off);
		break;
	case FORCE_IRPT:
		sim_hc_irq_raise(v & 0xffff0000u);
		break;
	case BOOT_TIMEOUT: case DBG_SEL: case EXRDFIFO_CFG: case EXRDFIFO_EN:
	case TUNE_STEP: case TUNE_STEPS_STD: case TUNE_STEPS_DDR: case SPI_INT_SPT:
		sim_hc.other[off / 4] = v;
		break;
	default:
		sim_violation("write 0x%08x to unknown register 0x%02x", v, off);
	}
}

unsigned sim_tuning_count(void)
{
	return sim_hc.tune_count;
}

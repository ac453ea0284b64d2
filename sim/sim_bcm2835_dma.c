/*
 * sim_bcm2835_dma.c - the BCM2835 DMA engine (BCM2835 ARM Peripherals chapter 4)
 * as the simulator sees it: channels 0-14 at the peripheral base + 0x7000
 * (peripheral base = the EMMC base - 0x300000, or the SDHOST base -
 * 0x202000 when the simulated controller is SDHOST), executing control
 * blocks against host memory mapped by the simulator's memory map
 * (sim_dma.c, drivers/dma/dma_addr.h's hook) and the simulated
 * controller's data port: the EMMC's (bus address 0x7E300020, DREQ 11) or
 * SDHOST's SDDATA (0x7E202040, DREQ 13, sim_sdhost.c).
 *
 * Stricter than QEMU's model (which runs a chain to completion at once and
 * ignores DREQ), where the hardware is: a word moves to or from the data
 * port only while the EMMC requests it (DREQ 11: data in its buffer for a
 * read, space for a write), so the transfer runs along with the bus; a
 * port side without SRC_DREQ/DEST_DREQ and PERMAP 11, a control block not
 * 32-byte aligned, an address outside memory the driver mapped or not in
 * a memory alias, a lite channel's TXFR_LEN above 65535 and a CONBLK_AD
 * write to an active channel are violations. Words move instantly, when the
 * engine is serviced: on every register access of the CPU (the lazy
 * evaluation the controller model uses too).
 *
 * Faults for tests: sim_dma_fault(SIM_DMA_READ_ERROR) ends the next run
 * with CS.ERROR and DEBUG.READ_ERROR; SIM_DMA_HANG leaves the next run
 * active without moving anything (a DREQ that never comes);
 * sim_dma_stall_after(n) lets the next run move n words, then leaves it
 * active without moving more (a DREQ that stops coming mid-transfer).
 */
#include <string.h>

#include "sim/sim_sdhci.h"

/* The register map, from the datasheet (not the driver's header). */
#define BCM2835_DMA_ENABLE 0xFF0u
#define DMA_CS        0x00u
#define DMA_CONBLK_AD 0x04u
#define DMA_TI        0x08u
#define DMA_SOURCE_AD 0x0Cu
#define DMA_DEST_AD   0x10u
#define DMA_TXFR_LEN  0x14u
#define DMA_STRIDE    0x18u
#define DMA_NEXTCONBK 0x1Cu
#define DMA_DEBUG     0x20u
#define DMA_CS_ACTIVE (1u << 0)
#define DMA_CS_END    (1u << 1)
#define DMA_CS_INT    (1u << 2)
#define DMA_CS_ERROR  (1u << 8)
#define DMA_CS_ABORT  (1u << 30)
#define DMA_CS_RESET  (1u << 31)
#define DMA_TI_TDMODE     (1u << 1)
#define DMA_TI_DEST_INC   (1u << 4)
#define DMA_TI_DEST_WIDTH (1u << 5)
#define DMA_TI_DEST_DREQ  (1u << 6)
#define DMA_TI_SRC_INC    (1u << 8)
#define DMA_TI_SRC_WIDTH  (1u << 9)
#define DMA_TI_SRC_DREQ   (1u << 10)
#define DMA_DEBUG_READ_ERROR (1u << 2)
#define DMA_DEBUG_ERRORS  0x7u
#define DMA_DEBUG_LITE    (1u << 28)

#define DMA_OFF       0x7000u
#define DMA_SPAN      0x1000u
#define NCH           15u
#define EMMC_DATA_BUS 0x7E300020u
#define SDHOST_DATA_BUS 0x7E202040u
#define EMMC_DREQ 11u
#define SDHOST_DREQ 13u

struct chan {
	uint32_t cs, conblk_ad, ti, source_ad, dest_ad, txfr_len, stride;
	uint32_t nextconbk, debug;
	bool fault_hang;
	bool fault_error;
	bool fault_stall;      /* moves stall_left more words, then none */
	uint32_t stall_left;
};

static struct {
	struct chan ch[NCH];
	uint32_t enable;
	uint32_t same_cs_reads;
	uint32_t last_cs;
	uint64_t idle_quantum;
	enum sim_dma_fault pending;
	bool pending_stall;
	uint32_t pending_stall_words;
	struct sim_dma_stats st;
} d;

void (*sim_dma_write_hook)(uintptr_t addr, uint32_t val);

static uintptr_t dma_base(void)
{
	return cfg()->base - (cfg()->sdhost ? 0x202000u : 0x300000u) + DMA_OFF;
}

/* The data port of the simulated controller, its DREQ and its side. */
static uint32_t port_bus(void)
{
	return cfg()->sdhost ? SDHOST_DATA_BUS : EMMC_DATA_BUS;
}

static unsigned port_dreq(void)
{
	return cfg()->sdhost ? SDHOST_DREQ : EMMC_DREQ;
}

static bool port_dreq_up(bool write)
{
	return cfg()->sdhost ? sim_sdhost_dma_dreq(write) : sim_hc_dma_dreq(write);
}

static uint32_t port_read(void)
{
	return cfg()->sdhost ? sim_sdhost_dma_port_read() : sim_hc_dma_port_read();
}

static void port_write(uint32_t v)
{
	if (cfg()->sdhost)
		sim_sdhost_dma_port_write(v);
	else
		sim_hc_dma_port_write(v);
}

/* The controller brought up to now / its next change by itself. */
static void ctrl_advance(void)
{
	if (cfg()->sdhost)
		sim_sdhost_update();
	else
		sim_sdhci_advance(sim_clk_now);
}

static uint64_t ctrl_next_event(void)
{
	return cfg()->sdhost ? sim_sdhost_next_event() : sim_sdhci_next_event();
}

void sim_bdma_reset(void)
{
	unsigned i;

	memset(d.ch, 0, sizeof(d.ch));
	for (i = 0; i < NCH; i++)
		d.ch[i].cs = 0;
	d.enable = 0xFFFFu;
	d.same_cs_reads = 0;
	d.idle_quantum = 1000;
	d.pending = SIM_DMA_NO_FAULT;
	d.pending_stall = false;
	memset(&d.st, 0, sizeof(d.st));
}

void sim_dma_fault(enum sim_dma_fault f)
{
	d.pending = f;
}

void sim_dma_stall_after(uint32_t words)
{
	d.pending_stall = true;
	d.pending_stall_words = words;
}

void sim_dma_get_stats(struct sim_dma_stats *s)
{
	*s = d.st;
}

/* Memory at a bus address: one of the four aliases of ARM memory. */
static uint8_t *mem_at(uint32_t bus, uint32_t n, const char *what)
{
	uint32_t phys = bus & 0x3FFFFFFFu;

	if ((bus & 0xFF000000u) == 0x7E000000u) {
		sim_violation("DMA: %s at bus address 0x%08x is a peripheral, not memory", what, bus);
		return NULL;
	}
	if (cfg()->dma_mem_alias && (bus & 0xC0000000u) != cfg()->dma_mem_alias) {
		sim_violation("DMA: %s at bus address 0x%08x: not in this SoC's memory alias 0x%08x",
			      what, bus, cfg()->dma_mem_alias);
		return NULL;
	}
	{
		uint8_t *m = sim_dma_phys_to_host(phys, n);

		if (m)
			return m;
	}
	sim_violation("DMA: %s at bus address 0x%08x (%u bytes): not mapped memory", what, bus, n);
	return NULL;
}

static uint32_t ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void st32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void chan_error(struct chan *c, uint32_t debug)
{
	c->debug |= debug;
	c->cs |= DMA_CS_ERROR;
	c->cs &= ~DMA_CS_ACTIVE;
	c->txfr_len = 0;
}

/* Load the control block at conblk_ad; false when the channel stops. */
static bool load_cb(struct chan *c, unsigned n)
{
	uint8_t *p;

	if (c->conblk_ad & 31u) {
		sim_violation("DMA channel %u: control block at 0x%08x not 32-byte aligned",
			      n, c->conblk_ad);
		chan_error(c, DMA_DEBUG_READ_ERROR);
		return false;
	}
	p = mem_at(c->conblk_ad, 32, "control block");
	if (!p) {
		chan_error(c, DMA_DEBUG_READ_ERROR);
		return false;
	}
	c->ti = ld32(p);
	c->source_ad = ld32(p + 4);
	c->dest_ad = ld32(p + 8);
	c->txfr_len = ld32(p + 12);
	c->stride = ld32(p + 16);
	c->nextconbk = ld32(p + 20);
	d.st.cbs++;
	if (n >= 7 && c->txfr_len > 0xFFFFu)
		sim_violation("DMA channel %u (lite): TXFR_LEN %u above 65535", n, c->txfr_len);
	if (n >= 7 && (c->ti & DMA_TI_TDMODE))
		sim_violation("DMA channel %u (lite): 2D mode", n);
	if (c->txfr_len & 3u)
		sim_violation("DMA channel %u: TXFR_LEN %u not whole words", n, c->txfr_len);
	if (c->ti & DMA_TI_TDMODE)
		sim_violation("DMA channel %u: 2D mode not modelled", n);
	if (c->source_ad == port_bus() || c->dest_ad == port_bus()) {
		bool src = c->source_ad == port_bus();

		if (!(c->ti & (src ? DMA_TI_SRC_DREQ : DMA_TI_DEST_DREQ)) ||
		    ((c->ti >> 16) & 31u) != port_dreq())
			sim_violation("DMA channel %u: the %s data port is %s without "
				      "%s and PERMAP %u (TI 0x%08x)", n,
				      cfg()->sdhost ? "SDHOST" : "EMMC", src ? "read" : "written",
				      src ? "SRC_DREQ" : "DEST_DREQ", port_dreq(), c->ti);
		if (c->ti & (src ? DMA_TI_SRC_INC : DMA_TI_DEST_INC))
			sim_violation("DMA channel %u: the data port address is incremented", n);
		if (c->ti & (src ? DMA_TI_SRC_WIDTH : DMA_TI_DEST_WIDTH))
			sim_violation("DMA channel %u: 128-bit accesses to the data port", n);
	}
	return true;
}

/* Run channel n as far as DREQ and its control blocks allow. */
static void run_chan(unsigned n)
{
	struct chan *c = &d.ch[n];

	if (!(c->cs & DMA_CS_ACTIVE) || !(d.enable & (1u << n)) || c->fault_hang)
		return;
	if (c->fault_error) {
		c->fault_error = false;
		chan_error(c, DMA_DEBUG_READ_ERROR);
		return;
	}
	for (;;) {
		if (!c->txfr_len) {
			if (!c->conblk_ad) {
				c->cs &= ~DMA_CS_ACTIVE;
				return;
			}
			if (!load_cb(c, n))
				return;
		}
		while (c->txfr_len >= 4) {
			bool src_port = c->source_ad == port_bus();
			bool dst_port = c->dest_ad == port_bus();
			uint32_t v;
			uint8_t *m;

			if (c->fault_stall && !c->stall_left)
				return; /* its DREQ stopped coming */
			if (src_port && !port_dreq_up(false))
				return;
			if (dst_port && !port_dreq_up(true))
				return;
			if ((!src_port && (c->source_ad & 0xFF000000u) == 0x7E000000u &&
			     (c->ti & DMA_TI_SRC_DREQ)) ||
			    (!dst_port && (c->dest_ad & 0xFF000000u) == 0x7E000000u &&
			     (c->ti & DMA_TI_DEST_DREQ)))
				return; /* a peripheral not modelled: its DREQ never comes */
			if (src_port) {
				v = port_read();
				d.st.words_from_port++;
			} else if ((c->source_ad & 0xFF000000u) == 0x7E000000u) {
				sim_violation("DMA channel %u: source 0x%08x is not a modelled peripheral",
					      n, c->source_ad);
				chan_error(c, DMA_DEBUG_READ_ERROR);
				return;
			} else {
				m = mem_at(c->source_ad, 4, "source");
				if (!m) {
					chan_error(c, DMA_DEBUG_READ_ERROR);
					return;
				}
				v = ld32(m);
			}
			if (dst_port) {
				port_write(v);
				d.st.words_to_port++;
			} else {
				m = mem_at(c->dest_ad, 4, "destination");
				if (!m) {
					chan_error(c, DMA_DEBUG_READ_ERROR);
					return;
				}
				st32(m, v);
			}
			if (c->ti & DMA_TI_SRC_INC)
				c->source_ad += 4;
			if (c->ti & DMA_TI_DEST_INC)
				c->dest_ad += 4;
			c->txfr_len -= 4;
			if (c->fault_stall)
				c->stall_left--;
		}
		c->txfr_len = 0;
		c->cs |= DMA_CS_END;
		c->conblk_ad = c->nextconbk;
	}
}

void sim_bdma_service(void)
{
	unsigned n;

	for (n = 0; n < NCH; n++)
		run_chan(n);
}

bool sim_bdma_claims(uintptr_t addr)
{
	return addr - dma_base() < DMA_SPAN;
}

static uint32_t reg_read(uint32_t off)
{
	unsigned n = off >> 8;
	struct chan *c;

	if (off == BCM2835_DMA_ENABLE)
		return d.enable;
	if (off == 0xFE0u) { /* INT_STATUS */
		uint32_t s = 0;

		for (n = 0; n < NCH; n++)
			if (d.ch[n].cs & DMA_CS_INT)
				s |= 1u << n;
		return s;
	}
	if (n >= NCH) {
		sim_violation("DMA: read of unknown register 0x%03x", off);
		return 0;
	}
	c = &d.ch[n];
	switch (off & 0xFFu) {
	case DMA_CS: return c->cs;
	case DMA_CONBLK_AD: return c->conblk_ad;
	case DMA_TI: return c->ti;
	case DMA_SOURCE_AD: return c->source_ad;
	case DMA_DEST_AD: return c->dest_ad;
	case DMA_TXFR_LEN: return c->txfr_len;
	case DMA_STRIDE: return c->stride;
	case DMA_NEXTCONBK: return c->nextconbk;
	case DMA_DEBUG: return c->debug | (n >= 7 ? DMA_DEBUG_LITE : 0);
	default:
		sim_violation("DMA: read of unknown register 0x%03x", off);
		return 0;
	}
}

uint32_t sim_bdma_mmio_read(uintptr_t addr)
{
	uint32_t off = (uint32_t)(addr - dma_base()), v;
	bool same_poll;

	sim_clk_note_mmio();
	sim_clk_charge(cfg()->mmio_read_ns);
	ctrl_advance();
	sim_bdma_service();
	v = reg_read(off);
	/* The CPU looking again at an active channel that has not changed. */
	same_poll = (off & 0xFFu) == DMA_CS && (v & DMA_CS_ACTIVE) && v == d.last_cs;
	/* The truth's critical path: such a look is the CPU waiting for the
	 * channel, anything else is work. */
	if (same_poll)
		sim_wire_cpu_wait(sim_clk_now - cfg()->mmio_read_ns, sim_clk_now);
	else
		sim_wire_cpu_work(sim_clk_now);
	if (same_poll && ++d.same_cs_reads >= 3 && !sim_clk_deadline_hit()) {
		/* The CPU polls a channel that waits for DREQ: jump to the next
		 * moment the controller can change, never past a deadline. */
		uint64_t to = min64(ctrl_next_event(), sim_clk_next_deadline());

		if (!cfg()->fast_forward) {
			to = sim_clk_now;
		} else if (to == SIM_NEVER) {
			to = sim_clk_now + d.idle_quantum;
			if (d.idle_quantum < 1000000000ull)
				d.idle_quantum *= 2;
		}
		if (to > sim_clk_now) {
			/* The polls skipped saw nothing new; this one returns
			 * what it read, the next one sees the change (a
			 * driver's stamp before its last poll is then taken
			 * after the event, as on the hardware, not before a
			 * jump over the whole wait). */
			sim_wire_cpu_wait(sim_clk_now, to);
			sim_clk_now = to;
			sim_clk_charge(0);
			ctrl_advance();
			sim_bdma_service();
		}
	} else if (v != d.last_cs || (off & 0xFFu) != DMA_CS) {
		d.same_cs_reads = (off & 0xFFu) == DMA_CS ? 1 : d.same_cs_reads;
		d.idle_quantum = 1000;
	}
	if ((off & 0xFFu) == DMA_CS)
		d.last_cs = v;
	return v;
}

void sim_bdma_mmio_write(uintptr_t addr, uint32_t v)
{
	uint32_t off = (uint32_t)(addr - dma_base());
	unsigned n = off >> 8;
	struct chan *c;

	sim_clk_note_mmio();
	sim_clk_charge(cfg()->mmio_write_ns);
	sim_wire_cpu_work(sim_clk_now);
	ctrl_advance();
	sim_bdma_service();
	d.same_cs_reads = 0;
	if (sim_dma_write_hook)
		sim_dma_write_hook(addr, v);
	if (off == BCM2835_DMA_ENABLE) {
		d.enable = v & 0xFFFFu;
		return;
	}
	if (n >= NCH) {
		sim_violation("DMA: write of unknown register 0x%03x", off);
		return;
	}
	c = &d.ch[n];
	switch (off & 0xFFu) {
	case DMA_CS: {
		bool was = c->cs & DMA_CS_ACTIVE;

		if (v & DMA_CS_RESET) {
			memset(c, 0, sizeof(*c));
			return;
		}
		if (v & DMA_CS_ABORT) {
			/* Abandon the current control block, go on with the next. */
			c->txfr_len = 0;
		}
		if (v & DMA_CS_END)
			c->cs &= ~DMA_CS_END;
		if (v & DMA_CS_INT)
			c->cs &= ~DMA_CS_INT;
		c->cs = (c->cs & ~0x30FF0001u) | (v & 0x30FF0001u);
		if (!was && (c->cs & DMA_CS_ACTIVE)) {
			d.st.starts++;
			if (c->cs & DMA_CS_ERROR)
				sim_violation("DMA channel %u started with CS.ERROR set", n);
			if (d.pending == SIM_DMA_HANG)
				c->fault_hang = true;
			else if (d.pending == SIM_DMA_READ_ERROR)
				c->fault_error = true;
			d.pending = SIM_DMA_NO_FAULT;
			if (d.pending_stall) {
				c->fault_stall = true;
				c->stall_left = d.pending_stall_words;
				d.pending_stall = false;
			}
			run_chan(n);
		}
		break;
	}
	case DMA_CONBLK_AD:
		if (c->cs & DMA_CS_ACTIVE)
			sim_violation("DMA channel %u: CONBLK_AD written while active", n);
		c->conblk_ad = v;
		c->txfr_len = 0;
		break;
	case DMA_DEBUG:
		c->debug &= ~(v & DMA_DEBUG_ERRORS);
		if (!(c->debug & DMA_DEBUG_ERRORS))
			c->cs &= ~DMA_CS_ERROR;
		break;
	default:
		sim_violation("DMA: write of read-only or unknown register 0x%03x", off);
		break;
	}
}

/*
 * bcm2835_dma.c - see bcm2835_dma.h.
 *
 * Follows the BCM2835 ARM Peripherals chapter 4 (DMA Controller): control
 * blocks of 8 words at 256-bit aligned addresses, CONBLK_AD loaded while
 * the channel is stopped, then ACTIVE set in CS; END set when a block is
 * done, ACTIVE cleared after the last one (NEXTCONBK 0). Peripheral sides
 * are paced by their DREQ (TI.PERMAP with SRC_DREQ or DEST_DREQ) and use
 * 32-bit accesses at a fixed address; memory sides increment. WAIT_RESP
 * makes each write wait for its AXI response and CS.WAIT_FOR_OUTSTANDING_
 * WRITES holds END until the last write has landed, so memory really holds
 * the data when the CPU sees END [silicon:dma-completion]. Lite channels (7-14) have a 16-bit
 * TXFR_LEN, no 2D mode and half the bandwidth: a transfer longer than one
 * control block is a chain of them.
 */
#include "drivers/dma/bcm2835_dma.h"
#include "drivers/dma/cache.h"
#include "drivers/dma/dma_addr.h"
#include "drivers/mmio.h"
#include "drivers/timer.h"
#include "lib/err.h"
#include "lib/fmt.h"


#define DMA_RESET_TIMEOUT_US 1000u
#define DMA_START_CS (DMA_CS_ACTIVE | DMA_CS_WAIT_WRITES | DMA_CS_PRIORITY(8) | \
		      DMA_CS_PANIC(8))

static inline uint32_t rd(const struct dma_chan *c, uint32_t reg)
{
	return mmio_read32(c->regs + reg);
}

static inline void wr(const struct dma_chan *c, uint32_t reg, uint32_t v)
{
	mmio_write32(c->regs + reg, v);
}

uint32_t dma_periph_bus_addr(const struct dma_chan *c, uintptr_t arm_addr)
{
	return BCM2835_PERIPH_BUS + (uint32_t)(arm_addr - c->periph_base);
}

uint32_t dma_mem_bus_addr(const struct dma_chan *c, const void *p, size_t n)
{
	/* ARM memory below 1 GiB (the engine's aliases cover no more). */
	uint32_t phys = (uint32_t)dma_arm_phys(p, n);

	return (phys & 0x3FFFFFFFu) | c->mem_bus_alias;
}

bool dma_buffer_ok(const void *buf, size_t len)
{
	uintptr_t line = cache_line_bytes();

	return buf && len && !(len & 3) && !((uintptr_t)buf & (line - 1)) &&
	       !(len & (line - 1));
}

static void note(struct dma_chan *c, const char *what)
{
	c->last_cs = c->channel >= 0 ? rd(c, DMA_CS) : 0;
	c->last_debug = c->channel >= 0 ? rd(c, DMA_DEBUG) : 0;
	fmt_snprintf(c->err, sizeof(c->err), "DMA channel %d: %s: CS 0x%08x DEBUG 0x%08x",
		     c->channel, what, (unsigned)c->last_cs, (unsigned)c->last_debug);
}

/* Stop and reset the channel: clear ACTIVE (pause), let outstanding writes
 * land (bounded), then RESET; clear END/INT and the DEBUG error bits. */
static void chan_reset(struct dma_chan *c)
{
	timer_deadline_t d;
	uint32_t dbg;

	if (rd(c, DMA_CS) & DMA_CS_ACTIVE) {
		wr(c, DMA_CS, 0);
		d = timer_deadline_us(DMA_RESET_TIMEOUT_US);
		while ((rd(c, DMA_CS) & DMA_CS_WAITING) && !timer_expired(d))
			;
		wr(c, DMA_CS, DMA_CS_ABORT);
	}
	wr(c, DMA_CS, DMA_CS_RESET);
	wr(c, DMA_CS, DMA_CS_END | DMA_CS_INT);
	/* The error bits are write-1-to-clear; write only those set (QEMU
	 * keeps DEBUG as a plain register: writing 1s there would set them). */
	dbg = rd(c, DMA_DEBUG) & DMA_DEBUG_ERRORS;
	if (dbg)
		wr(c, DMA_DEBUG, dbg);
}

int dma_chan_init(struct dma_chan *c, uintptr_t periph_base,
		  uint32_t mem_bus_alias, uint32_t mask)
{
	int ch, pick = -1;

	c->channel = -1;
	c->busy = false;
	c->err[0] = 0;
	c->periph_base = periph_base;
	c->engine = periph_base + BCM2835_DMA_ARM_OFFSET;
	c->mem_bus_alias = mem_bus_alias;
	c->mask = mask;
	/* Full channels first (the highest free one), lite only if none. */
	for (ch = BCM2835_DMA_FIRST_LITE - 1; ch >= 0 && pick < 0; ch--)
		if (mask & (1u << ch))
			pick = ch;
	for (ch = BCM2835_DMA_CHANNELS - 1; ch >= (int)BCM2835_DMA_FIRST_LITE && pick < 0; ch--)
		if (mask & (1u << ch))
			pick = ch;
	if (pick < 0) {
		fmt_snprintf(c->err, sizeof(c->err),
			     "no DMA channel free for the ARM (mask 0x%04x)", (unsigned)mask);
		return -ENODEV;
	}
	c->channel = pick;
	c->lite = pick >= (int)BCM2835_DMA_FIRST_LITE;
	c->max_len = c->lite ? DMA_MAX_LEN_LITE : DMA_MAX_LEN_FULL;
	c->regs = c->engine + 0x100u * (uint32_t)pick;
	mmio_write32(c->engine + BCM2835_DMA_ENABLE,
		     mmio_read32(c->engine + BCM2835_DMA_ENABLE) | 1u << pick);
	chan_reset(c);
	return 0;
}

/* Build the control blocks for the next run (from c->queued), clean them
 * and start the channel. The buffer's maintenance is done by the caller. */
static void start_run(struct dma_chan *c)
{
	uint32_t base_ti = DMA_TI_WAIT_RESP | DMA_TI_NO_WIDE_BURSTS;
	uint32_t left = c->len - c->queued, n = 0;
	/* The buffer and the control blocks are each contiguous in memory. */
	uint32_t mem = dma_mem_bus_addr(c, c->buf, c->span) + c->queued;
	uint32_t cbs = dma_mem_bus_addr(c, c->cb, sizeof(c->cb));

	if (c->dir == DMA_TO_MEM)
		base_ti |= DMA_TI_DEST_INC | (c->dreq ? DMA_TI_SRC_DREQ : 0);
	else
		base_ti |= DMA_TI_SRC_INC | (c->dreq ? DMA_TI_DEST_DREQ : 0);
	base_ti |= DMA_TI_PERMAP(c->dreq);

	while (left && n < DMA_CB_PER_RUN) {
		struct dma_cb *cb = &c->cb[n];
		uint32_t len = left < c->max_len ? left : c->max_len;

		cb->ti = base_ti;
		cb->source_ad = c->dir == DMA_TO_MEM ? c->periph : mem;
		cb->dest_ad = c->dir == DMA_TO_MEM ? mem : c->periph;
		cb->txfr_len = len;
		cb->stride = 0;
		cb->nextconbk = 0;
		cb->reserved[0] = cb->reserved[1] = 0;
		if (n)
			c->cb[n - 1].nextconbk = cbs + n * (uint32_t)sizeof(*cb);
		c->queued += len;
		mem += len;
		left -= len;
		n++;
	}
	/* The engine reads the control blocks from memory: written, cleaned
	 * (cache_clean_range ends with a DSB), then the start. */
	cache_clean_range(c->cb, n * sizeof(c->cb[0]));
	mmio_dsb();
	wr(c, DMA_CS, DMA_CS_END | DMA_CS_INT);
	wr(c, DMA_CONBLK_AD, cbs);
	wr(c, DMA_CS, DMA_START_CS);
	c->runs++;
}

int dma_start_part(struct dma_chan *c, enum dma_dir dir, unsigned dreq,
		   uint32_t periph, void *buf, uint32_t span, uint32_t len)
{
	if (c->channel < 0)
		return -EINVAL;
	if (c->busy)
		return -EBUSY;
	if (!dma_buffer_ok(buf, span) || dreq > 31 || !len || (len & 3) || len > span) {
		fmt_snprintf(c->err, sizeof(c->err),
			     "DMA channel %d: buffer %p + %u (%u moved) not cache-line aligned",
			     c->channel, buf, (unsigned)span, (unsigned)len);
		return -EINVAL;
	}
	c->err[0] = 0;
	c->dir = (uint8_t)dir;
	c->dreq = (uint8_t)dreq;
	c->periph = periph;
	c->buf = buf;
	c->len = len;
	c->span = span;
	c->queued = 0;
	c->runs = 0;
	c->busy = true;
	mmio_barrier(); /* from the caller's peripheral to this one (§1.3) */
	/* Before the engine touches the buffer: a write to the peripheral
	 * reads memory (clean: the engine sees what the CPU wrote); a read
	 * writes it (invalidate: no dirty line is evicted over the data). */
	if (dir == DMA_FROM_MEM)
		cache_clean_range(buf, span);
	else
		cache_invalidate_range(buf, span);
	start_run(c);
	mmio_barrier();
	return 0;
}

void dma_abort(struct dma_chan *c, const char *why)
{
	if (c->channel < 0)
		return;
	mmio_barrier();
	note(c, why ? why : "aborted");
	chan_reset(c);
	if (c->busy && c->dir == DMA_TO_MEM)
		cache_invalidate_range(c->buf, c->span);
	c->busy = false;
	mmio_barrier();
}

static int poll_chan(struct dma_chan *c)
{
	uint32_t cs, dbg;

	if (!c->busy)
		return 0;
	cs = rd(c, DMA_CS);
	if (cs & DMA_CS_ERROR) {
		dma_abort(c, "error");
		return -EIO;
	}
	if (cs & DMA_CS_ACTIVE)
		return 1;
	dbg = rd(c, DMA_DEBUG);
	if (dbg & DMA_DEBUG_ERRORS) {
		dma_abort(c, "error");
		return -EIO;
	}
	if (!(cs & DMA_CS_END)) {
		dma_abort(c, "stopped before the end of the transfer");
		return -EIO;
	}
	if (c->queued < c->len) {
		start_run(c);
		return 1;
	}
	wr(c, DMA_CS, DMA_CS_END | DMA_CS_INT);
	/* The engine wrote memory behind the cache: drop whatever the CPU
	 * may have fetched (speculatively) while it ran. */
	if (c->dir == DMA_TO_MEM)
		cache_invalidate_range(c->buf, c->span);
	c->busy = false;
	return 0;
}

int dma_poll(struct dma_chan *c)
{
	int r;

	/* The caller alternates with its own peripheral's registers: reads
	 * from two peripherals may complete out of order without a barrier
	 * (BCM2835 ARM Peripherals §1.3). */
	mmio_barrier();
	r = poll_chan(c);
	mmio_barrier();
	return r;
}

int dma_wait(struct dma_chan *c, uint32_t timeout_us)
{
	timer_deadline_t d = timer_deadline_us(timeout_us);
	int r;

	while ((r = dma_poll(c)) > 0)
		if (timer_expired(d)) {
			r = dma_poll(c);
			if (r <= 0)
				return r;
			dma_abort(c, "timed out");
			return -ETIMEDOUT;
		}
	return r;
}

/* Looks at the engine's position per block bound (dma_wait_progress). */
#define DMA_WAIT_LOOKS 4u

int dma_wait_progress(struct dma_chan *c, struct dma_watch *w)
{
	const uint32_t looks = w->block_us >= DMA_WAIT_LOOKS ? DMA_WAIT_LOOKS : 1u;
	const uint32_t period = w->block_us / looks;
	uint32_t pos = dma_position(c), now, still = 0, err;
	timer_deadline_t d = timer_deadline_us(period);
	char why[48];
	int r;

	w->errors = 0;
	for (;;) {
		w->t_poll = timer_ticks();
		r = dma_poll(c);
		if (r <= 0)
			return r;
		if (w->host_errors && (err = w->host_errors(w->ctx)) != 0) {
			w->errors = err;
			dma_abort(c, "the controller reported an error");
			return DMA_WAIT_HOST_ERROR;
		}
		if (!timer_expired(d))
			continue;
		d = timer_deadline_us(period);
		now = dma_position(c);
		if (now != pos) { /* it moved: the count starts again */
			pos = now;
			still = 0;
			continue;
		}
		if (++still < looks)
			continue;
		/* It may have ended just now. */
		r = dma_poll(c);
		if (r <= 0)
			return r;
		fmt_snprintf(why, sizeof(why), "timed out, no data moved in %u us",
			     (unsigned)w->block_us);
		dma_abort(c, why);
		return -ETIMEDOUT;
	}
}

int dma_periph_to_mem(struct dma_chan *c, unsigned dreq, uint32_t periph,
		      void *buf, uint32_t len, uint32_t timeout_us)
{
	int r = dma_start(c, DMA_TO_MEM, dreq, periph, buf, len);

	return r ? r : dma_wait(c, timeout_us);
}

int dma_mem_to_periph(struct dma_chan *c, unsigned dreq, uint32_t periph,
		      const void *buf, uint32_t len, uint32_t timeout_us)
{
	int r = dma_start(c, DMA_FROM_MEM, dreq, periph, (void *)(uintptr_t)buf, len);

	return r ? r : dma_wait(c, timeout_us);
}

uint32_t dma_position(const struct dma_chan *c)
{
	uint32_t v;

	if (c->channel < 0)
		return 0;
	mmio_barrier();
	v = rd(c, c->dir == DMA_TO_MEM ? DMA_DEST_AD : DMA_SOURCE_AD);
	mmio_barrier();
	return v + c->runs;
}

const char *dma_error(const struct dma_chan *c)
{
	return c->err;
}

/*
 * sdhci.c - the generic SD Host Controller core (SDHCI 3.00: §3.2 clock,
 * §3.7 commands, §3.7.2 PIO, §1.13 ADMA2, §3.10 error recovery) behind
 * struct sd_host_ops; what an SoC's integration needs comes from its
 * struct sdhci_quirks (sdhci.h); an external DMA mover's data phase
 * (sdhci_attach_dma) through drivers/dma/dma_phase.c, shared with SDHOST.
 * 32-bit register accesses only, every wait bounded by a timer deadline.
 * The quirks, the ADMA2 rules and what is not supported: docs/drivers.md,
 * "drivers/sdhci/sdhci.c".
 */
#include <stddef.h>
#include <stdint.h>

#include "drivers/dma/cache.h"
#include "drivers/dma/dma_addr.h"
#include "drivers/dma/dma_phase.h"
#include "drivers/sdhci/sdhci.h"
#include "drivers/sdhci/sdhci_adma.h"
#include "drivers/sdhci/sdhci_regs.h"
#include "drivers/mmio.h"
#include "drivers/pio_port.h"
#include "drivers/reg_wait.h"
#include "drivers/timer.h"
#include "lib/err.h"

/* Bounds of every wait (microseconds). The controller's own data timeout
 * (DATA_TOUNIT) is set to its maximum; these are the software backstops. */
#define SDHCI_RESET_TIMEOUT_US 100000u
#define SDHCI_CLOCK_TIMEOUT_US 100000u
#define SDHCI_INHIBIT_TIMEOUT_US 500000u
#define SDHCI_CMD_TIMEOUT_US 100000u     /* a response is due in 64 clocks */
#define SDHCI_READ_TIMEOUT_US 500000u    /* per block; SD: 100 ms (SDHC) */
#define SDHCI_BUSY_TIMEOUT_US 1000000u   /* write busy / R1b default; SD: 250-500 ms */
#define SDHCI_POWER_SETTLE_US 1000u      /* SD §6.4.1: 1 ms after power up */
#define SDHCI_CD_STABLE_TIMEOUT_US 500000u /* card-detect debounce */
#define SDHCI_ID_CLOCK_HZ 400000u
#define SDHCI_MIN_CLOCK_HZ 100000u       /* SD: identification 100..400 kHz */


static inline uint32_t rd(const struct sdhci_priv *e, uint32_t reg)
{
	return mmio_read32(e->base + reg);
}

/* Every register write goes through here: the Arasan may lose a write
 * that follows another to the same register within two SD clocks (BCM2835
 * ARM Peripherals §5; U-Boot's bcm2835_sdhci raw write and Linux's
 * sdhci-iproc pace them the same way), so each write is followed by
 * e->wdelay_us, waited on a deadline. set_wdelay() keeps it at two clocks
 * of the slowest clock in effect. [silicon:arasan-write-hazard] */
static inline void wr(const struct sdhci_priv *e, uint32_t reg, uint32_t val)
{
	mmio_write32(e->base + reg, val);
	if (e->wdelay_us)
		timer_udelay(e->wdelay_us);
}

static void set_wdelay(struct sdhci_priv *e, uint32_t clock_hz)
{
	if (!e->q->pace_below_hz || clock_hz >= e->q->pace_below_hz)
		e->wdelay_us = 0;
	else if (clock_hz == 0)
		e->wdelay_us = 2000000u / SDHCI_MIN_CLOCK_HZ;
	else
		e->wdelay_us = (2000000u + clock_hz - 1) / clock_hz;
}

/* Wait until (reg & mask) == want; -ETIMEDOUT otherwise. */
static int wait_reg(const struct sdhci_priv *e, uint32_t reg, uint32_t mask,
		    uint32_t want, uint32_t timeout_us)
{
	timer_deadline_t d;

	if ((rd(e, reg) & mask) == want)
		return 0;
	d = timer_deadline_us(timeout_us);
	while ((rd(e, reg) & mask) != want)
		if (timer_expired(d))
			return (rd(e, reg) & mask) == want ? 0 : -ETIMEDOUT;
	return 0;
}

/* One software reset (SRST_HC, SRST_CMD or SRST_DATA). The clock bits are
 * kept: the reset bits share the word with the clock control. */
static int reset_line(struct sdhci_priv *e, uint32_t bit)
{
	uint32_t c1 = rd(e, SDHCI_CONTROL1) & ~(SDHCI_C1_SRST_HC |
		SDHCI_C1_SRST_CMD | SDHCI_C1_SRST_DATA);

	wr(e, SDHCI_CONTROL1, c1 | bit);
	return wait_reg(e, SDHCI_CONTROL1, bit, 0, SDHCI_RESET_TIMEOUT_US);
}

/* SDHCI §3.10: after an error, reset the CMD line and, if the DAT line
 * was involved, the DAT line - one at a time. */
static int recover(struct sdhci_priv *e, bool dat)
{
	int r1 = reset_line(e, SDHCI_C1_SRST_CMD);
	int r2 = dat ? reset_line(e, SDHCI_C1_SRST_DATA) : 0;

	wr(e, SDHCI_INTERRUPT, SDHCI_INT_ALL);
	return r1 ? r1 : r2;
}

static int irq_to_err(uint32_t irq)
{
	return sd_status_errno(irq, SDHCI_INT_CTO_ERR | SDHCI_INT_DTO_ERR,
			       SDHCI_INT_CCRC_ERR | SDHCI_INT_DCRC_ERR);
}

/* A wait that ended in an error interrupt or (irq 0) a timeout: the
 * controller recovered (command and data lines reset), the failure noted. */
static int irq_fail(struct sdhci_priv *e, struct sd_request *req, uint32_t irq,
		    const char *phase, uint32_t block)
{
	recover(e, true);
	return sd_req_fail(req, irq ? irq_to_err(irq) : -ETIMEDOUT, irq, phase, block);
}

/* Wait for any of 'want' or an error interrupt. Returns the INTERRUPT
 * value, or 0 on timeout. Checks the status before making a deadline so
 * that the common already-ready case costs one read. */
static inline uint32_t wait_irq_more(const struct sdhci_priv *e, uint32_t want,
				     uint32_t timeout_us);

static inline uint32_t wait_irq(const struct sdhci_priv *e, uint32_t want,
				uint32_t timeout_us)
{
	uint32_t irq = rd(e, SDHCI_INTERRUPT);

	if (irq & (want | SDHCI_INT_ERR_MASK))
		return irq;
	return wait_irq_more(e, want, timeout_us);
}

/* The rest of wait_irq, after a first look that found nothing. */
static inline uint32_t wait_irq_more(const struct sdhci_priv *e, uint32_t want,
				     uint32_t timeout_us)
{
	return reg_wait_any(e->base + SDHCI_INTERRUPT, want | SDHCI_INT_ERR_MASK, timeout_us);
}

/*
 * The PIO hot path: one block between the data port and the caller's
 * buffer, the port address and the buffer pointer in registers, no call per
 * word. 'words' is the block size / 4 (2, 16 or 128 in practice).
 *
 * Aligned buffers: drivers/pio_port.h, the data-port mover shared with the
 * SDHOST driver (a few lines of assembly per target: eight port reads and
 * one STM on ARM, SIMD lane loads and ST1 on AArch64; the C loop in host
 * builds, where each port access is a call into the simulator anyway).
 *
 * Unaligned buffers: the same loop shape in C with the word split into
 * bytes. On ARMv6+ with SCTLR.U set (boot/start.S) GCC turns the four byte
 * stores into one unaligned STR; elsewhere they stay byte stores.
 */
#define PIO_PUT_BYTES(q, w) do { \
	(q)[0] = (uint8_t)(w); (q)[1] = (uint8_t)((w) >> 8); \
	(q)[2] = (uint8_t)((w) >> 16); (q)[3] = (uint8_t)((w) >> 24); \
} while (0)
#define PIO_GET_BYTES(q) ((uint32_t)(q)[0] | (uint32_t)(q)[1] << 8 | \
			  (uint32_t)(q)[2] << 16 | (uint32_t)(q)[3] << 24)

static __attribute__((noinline)) void pio_read_aligned(uintptr_t port,
						       uint32_t *p,
						       uint32_t words)
{
	if (words == 128)
		(void)pio_port_read_block128(port, p);
	else
		(void)pio_port_read_words(port, p, words);
}

static __attribute__((noinline)) void pio_write_aligned(uintptr_t port,
							const uint32_t *p,
							uint32_t words)
{
	(void)pio_port_write_words(port, p, words);
}

static __attribute__((noinline)) void pio_read_bytes(uintptr_t port,
						     uint8_t *p,
						     uint32_t words)
{
	for (; words >= 4; words -= 4, p += 16) {
		uint32_t a = mmio_read32(port), b = mmio_read32(port);
		uint32_t c = mmio_read32(port), d = mmio_read32(port);

		PIO_PUT_BYTES(p, a);
		PIO_PUT_BYTES(p + 4, b);
		PIO_PUT_BYTES(p + 8, c);
		PIO_PUT_BYTES(p + 12, d);
	}
	for (; words; words--, p += 4) {
		uint32_t w = mmio_read32(port);

		PIO_PUT_BYTES(p, w);
	}
}

static __attribute__((noinline)) void pio_write_bytes(uintptr_t port,
						      const uint8_t *p,
						      uint32_t words)
{
	for (; words >= 4; words -= 4, p += 16) {
		uint32_t a = PIO_GET_BYTES(p), b = PIO_GET_BYTES(p + 4);
		uint32_t c = PIO_GET_BYTES(p + 8), d = PIO_GET_BYTES(p + 12);

		mmio_write32(port, a); mmio_write32(port, b);
		mmio_write32(port, c); mmio_write32(port, d);
	}
	for (; words; words--, p += 4)
		mmio_write32(port, PIO_GET_BYTES(p));
}

/* The controller's side of the shared DMA data phase (dma_phase.h). */
static uint32_t sdhci_dma_host_errors(void *ctx)
{
	const struct sdhci_priv *e = ctx;
	uint32_t irq = rd(e, SDHCI_INTERRUPT);

	return irq & SDHCI_INT_ERR_MASK ? irq : 0;
}

static int sdhci_dma_start(void *ctx, const struct sd_request *req)
{
	struct sdhci_priv *e = ctx;

	return e->dma->start(e->dma_ctx, req->data, e->base + SDHCI_DATA);
}

static int sdhci_dma_wait(void *ctx, struct dma_watch *w)
{
	struct sdhci_priv *e = ctx;

	return e->dma->wait(e->dma_ctx, w);
}

static const char *sdhci_dma_error(void *ctx)
{
	struct sdhci_priv *e = ctx;

	return e->dma->error(e->dma_ctx);
}

static uint32_t sdhci_dma_status(void *ctx)
{
	return rd(ctx, SDHCI_INTERRUPT);
}

static void sdhci_dma_recover(void *ctx, bool is_read)
{
	(void)is_read;
	recover(ctx, true);
}

/* The data phase through the external mover (sdhci_attach_dma): it moves
 * every block between the data port and the buffer while the CPU watches
 * it and the controller's error bits (dma_phase_run, shared with SDHOST's
 * DMA path): a long transfer that keeps moving is not cut, one that stops
 * fails after about one block's bound, not the sum of all blocks'.
 * host_ticks is the CPU's part: starting the mover (its cache maintenance
 * and control blocks) and the poll that saw the end. Returns 1 when the
 * mover sends the request back to PIO. */
static int sdhci_dma_xfer(struct sdhci_priv *e, struct sd_request *req,
			  uint32_t blk_to)
{
	const struct dma_phase ph = {
		.start = sdhci_dma_start, .wait = sdhci_dma_wait,
		.engine_error = sdhci_dma_error, .status = sdhci_dma_status,
		.status_err = irq_to_err, .recover = sdhci_dma_recover, .ctx = e,
	};
	struct dma_watch w = { .block_us = blk_to, .host_errors = sdhci_dma_host_errors,
			       .ctx = e };
	int r = dma_phase_run(&ph, req, &w);
	uint32_t t1;

	if (r) {
		if (r == 1)
			e->dma_pio++;
		return r;
	}
	t1 = timer_ticks();
	req->t.host_ticks += t1 - w.t_poll;
	req->t.t_data_done = t1;
	return 0;
}

/* The end of a data phase: Transfer Complete (for writes the end of the
 * card's busy after the last block, and of the Auto-CMD12 busy), the
 * auto command's response. blk: the blocks moved, for an error. */
static int xfer_end(struct sdhci_priv *e, struct sd_request *req, uint32_t blk_to,
		    uint32_t blk)
{
	const bool rd_dir = req->data->dir == SD_DATA_READ;
	uint32_t irq = wait_irq(e, SDHCI_INT_DATA_DONE, rd_dir ? SDHCI_READ_TIMEOUT_US :
				blk_to);

	req->t.t_end = timer_ticks();
	if (!irq || (irq & SDHCI_INT_ERR_MASK)) {
		/* For Auto-CMD errors the low half of the status is the
		 * Auto CMD Error Status (CONTROL2[15:0]: ACTO, ACCRC, ...)
		 * instead; the code is -EIO whatever the detail. */
		uint32_t st = (irq & SDHCI_INT_ERR_MASK) |
			      (rd(e, SDHCI_CONTROL2) & 0xFFFFu);

		if (irq & SDHCI_INT_ACMD_ERR) {
			recover(e, true);
			return sd_req_fail(req, -EIO, st, "auto command", blk);
		}
		return irq_fail(e, req, irq, rd_dir ? "read end" : "write busy", blk);
	}
	if (req->data->stop == SD_STOP_AUTO12)
		req->cmd.auto_resp = rd(e, SDHCI_RESP3);
	wr(e, SDHCI_INTERRUPT, SDHCI_INT_DATA_DONE);
	return 0;
}

/* A write block the CPU has just filled: was the bus or the card still
 * busy with the block before it (that one still in the buffer, or DAT0
 * held low by the card's busy; SDHCI Present State, DAT[0] line level)?
 * Then the bus idles before this block for the card, not for the CPU,
 * even when the CPU never waited: with two buffer blocks the CPU fills
 * one while the card programs the other (docs/attribution.md, "CPU and
 * card overlap"). The last block finds no space whatever the bus does,
 * so only DAT0 tells there. Each look is used as the write probe
 * confirmed it (sd_host.bwe_look, dat0_look; never probed: as SDHCI
 * §2.2.9 says); a decision that needs an unconfirmed one is left
 * undecided (*undecided). Where Buffer Write Enable is set only when the
 * buffer is empty, the CPU never fills a block while the bus carries
 * another: the overlap this split is built on does not happen, and every
 * block is undecided. [silicon:dat0-level] [silicon:buf-write-enable]
 * Where the probe found that a block takes no time on the wire (an
 * emulator; [silicon:read-wire]) neither look is needed: the CPU's write
 * of a block's last word hands the block to the card inside that write
 * and makes space for the next at once, the card never busy (QEMU
 * hw/sd/sdhci.c, sdhci_write_dataport and sdhci_write_block_to_card), so
 * every wait before a write block is the CPU's. */
static uint32_t write_behind(const struct sd_host *h, struct sdhci_priv *e, bool last,
			     uint32_t *undecided)
{
	uint32_t st;

	if (h->read_wire == SD_WIRE_INSTANT)
		return 0;
	st = rd(e, SDHCI_STATUS);
	if (h->bwe_look != SD_BWE_SLOT && h->bwe_look != SD_BWE_UNPROBED) {
		(*undecided)++;
		return 0;
	}
	if (!last && !(st & SDHCI_STATUS_BUF_WRITE_EN))
		return 1;
	if (h->dat0_look != SD_DAT0_LIVE && h->dat0_look != SD_DAT0_UNPROBED) {
		(*undecided)++;
		return 0;
	}
	return !(st & SDHCI_STATUS_DAT0_LEVEL);
}

/* Who the bus waits for before the next block of a read (docs/
 * attribution.md, "CPU and card overlap"). With two buffer blocks the bus
 * stops while both are full. A block the CPU found ready at its first
 * look filled the buffer behind the one it had just moved; when that one
 * was moved, the slot it freed let the bus go on: at once if the card was
 * ready (the bus had waited for the CPU), later if not (for the card).
 * So while moving the block, once a frame and an eighth have passed
 * since the slot was freed, the CPU looks at the Block Count (SDHCI: it
 * counts the blocks the bus has transferred): the next block has arrived
 * exactly when the bus went on at once. A block the CPU waited for left
 * the other slot free, so the next one waited for the card.
 * When the bus waited for the CPU, it stood from the end of the block the
 * CPU then moved to the moment the slot was freed: that block's arrival
 * is known from the look before (a frame after its slot was freed when
 * the bus went on at once, else between the look and the end of the
 * move, taken as the middle). So did the last block, from its arrival to
 * the CPU's first look at it.
 * Where the probe found that a block takes no time on the wire (an
 * emulator; [silicon:read-wire]), no look is needed: the next block is
 * put in the buffer the moment the CPU drains the last word of this one
 * (QEMU hw/sd/sdhci.c, sdhci_read_dataport), so every wait between blocks
 * is the CPU's, and the bus stood for it from a block's arrival (the end
 * of the move before) to the end of its own move. */
struct read_pace {
	uint32_t look;     /* words moved before the look; 0: no look */
	uint32_t f_ticks;  /* one frame, timer ticks */
	int next;          /* the next block's wait: 1 the card's, 0 the CPU's,
			      -1 undecided (then: whether the CPU waits for it) */
	uint32_t t_look;   /* when the CPU looked (0: it did not) */
	uint32_t arr;      /* estimated arrival of the block being moved */
	uint32_t stood;    /* how long the bus stood for the CPU before the
			      next block, if it did */
	uint64_t idle;     /* the sum of those where it did (64-bit: a request
			      may last longer than the tick wrap, sd_host.h) */
	uint32_t half;     /* arr known to +- this (0: from the look, exact) */
	uint32_t stood_unc;/* stood known to +- this (from half) */
	uint64_t idle_unc; /* idle known to +- this: the sum of stood_unc
			      where stood was added */
	bool unsure;       /* the look was needed but its meaning is not
			      confirmed on this controller */
	uint32_t undecided;/* blocks whose wait could not be told (unsure) */
	bool instant;      /* the data takes no time on the wire (read-wire) */
	bool moved;        /* instant: a block was moved (arr is set) */
};

/* The words moved before the look, from block 0's time: 0 when the CPU
 * moves a block in less than a frame and an eighth (then whether it waits
 * for the next block tells), or the clock is not known. */
static void read_look_words(const struct sd_host *h, uint32_t blksz, uint32_t blk0_ticks,
			    struct read_pace *rp)
{
	uint32_t words = blksz / 4, w = h->width ? h->width : 1;
	uint32_t clocks = 8u * blksz / w + 18u;
	uint64_t blk_ns = timer_ticks_to_ns(blk0_ticks), frame_ns, k;

	if (!h->actual_clock_hz || !blk_ns || rp->instant)
		return;
	/* start bit, 8B/W data bits, CRC16, end bit (SD §4.5); DDR50 moves
	 * the data bits and the CRC on both edges */
	if (h->timing == SD_TIMING_DDR50)
		clocks = 4u * blksz / w + 18u;
	frame_ns = (uint64_t)clocks * 1000000000ull / h->actual_clock_hz;
	rp->f_ticks = (uint32_t)(frame_ns * blk0_ticks / blk_ns);
	k = (frame_ns * 9u * words + 8u * blk_ns - 1u) / (8u * blk_ns);
	k = (k + 7u) & ~7ull;
	rp->look = k < words ? (uint32_t)k : 0;
	/* [silicon:blkcnt-bus] The look means "blocks on the bus" only where
	 * the probe saw Block Count fall with the CPU moving nothing
	 * (sdhci_characterise; docs/silicon.md): elsewhere the CPU's own
	 * waits decide what they can and the rest stays undecided. */
	if (rp->look && h->blkcnt_look != SD_BLKCNT_BUS) {
		rp->look = 0;
		rp->unsure = true;
	}
}

/* The wait before read block blk > 0 (first: found ready at the first
 * look): 1 the card's, 0 the CPU's (struct read_pace). */
static uint32_t read_wait(struct read_pace *rp, bool first)
{
	uint32_t card = rp->next < 0 ? !first : (uint32_t)rp->next;

	/* Ready at once with no look: the bus ran ahead of the CPU, but
	 * whether it then stood for the CPU or for the card, only the look
	 * tells. */
	if (rp->unsure && rp->next < 0 && first)
		rp->undecided++;
	rp->idle += card ? 0 : rp->stood;
	rp->idle_unc += card ? 0 : rp->stood_unc;
	return card;
}

/* Move read block blk (first: found ready at the first look), and decide
 * the wait before the next one (struct read_pace). */
static void read_block(struct sdhci_priv *e, const struct sd_data *data, uint8_t *p,
		       uint32_t blk, bool first, struct read_pace *rp)
{
	const uintptr_t port = e->base + SDHCI_DATA;
	const uint32_t words = data->blksz / 4;
	uint32_t *w = (uint32_t *)(void *)p, left;

	rp->t_look = 0;
	rp->next = rp->instant ? 0 : first ? -1 : 1;
	if (((uintptr_t)p & 3) != 0) {
		pio_read_bytes(port, p, words);
		return;
	}
	if (!first || !rp->look || blk + 1 >= data->blocks) {
		pio_read_aligned(port, w, words);
		return;
	}
	pio_read_aligned(port, w, rp->look);
	rp->t_look = timer_ticks();
	left = rd(e, SDHCI_BLKSIZECNT) >> SDHCI_BLKCNT_SHIFT;
	pio_read_aligned(port, w + rp->look, words - rp->look);
	rp->next = left > data->blocks - blk - 2u;
}

/* How far the bus's stand before t0 may be from t0 - arr (0 when
 * negative) with the arrival known to +- half: the CPU's look cannot
 * tell where in its interval the block arrived (struct read_pace). */
static uint32_t stood_unc(uint32_t t0, uint32_t arr, uint32_t half, uint32_t stood)
{
	int64_t d = (int64_t)(int32_t)(t0 - arr);
	int64_t hi = d + half > 0 ? d + half : 0, lo = d - half > 0 ? d - half : 0;

	return (uint32_t)(hi - stood > stood - lo ? hi - stood : stood - lo);
}

/* After read block blk (moved t0 .. t1): how long the bus stood for the
 * CPU before the next block if it did, and when the next block arrived. */
static void read_block_after(struct read_pace *rp, uint32_t t0, uint32_t t1)
{
	uint32_t lo, hi;

	if (rp->instant) {
		rp->stood = t1 - (rp->moved ? rp->arr : t0);
		rp->stood_unc = 0;
		rp->arr = t1;
		rp->moved = true;
		return;
	}
	rp->stood = (int32_t)(t0 - rp->arr) > 0 ? t0 - rp->arr : 0;
	rp->stood_unc = stood_unc(t0, rp->arr, rp->half, rp->stood);
	/* The next block arrived in an interval the look cannot resolve,
	 * taken as its middle, known to half its width either way: found
	 * at the look, a frame after the slot was freed (the card ready at
	 * once) or later up to the look (the card was not); not found, or
	 * no look, between the look (or the start of the move) and the end
	 * of the move, and not before a frame after this block's start:
	 * the blocks cross the DAT lines one after the other, each in a
	 * frame (SD Physical Layer §4.5, read_look_words), and this one had
	 * crossed by t0 (or its slot was freed then). */
	if (rp->t_look && !rp->next) {
		lo = t0 + rp->f_ticks;
		hi = (int32_t)(rp->t_look - lo) > 0 ? rp->t_look : lo;
	} else {
		lo = rp->t_look ? rp->t_look : t0;
		if ((int32_t)(lo - t0) < (int32_t)rp->f_ticks)
			lo = t0 + rp->f_ticks;
		hi = (int32_t)(t1 - lo) > 0 ? t1 : lo;
	}
	rp->arr = lo + (hi - lo) / 2u;
	rp->half = hi - rp->arr;
}

/* Move write block p through the data port. */
static void write_block(struct sdhci_priv *e, const struct sd_data *data, const uint8_t *p)
{
	const uint32_t words = data->blksz / 4;

	if (((uintptr_t)data->buf & 3) == 0)
		pio_write_aligned(e->base + SDHCI_DATA, (const uint32_t *)(const void *)p, words);
	else
		pio_write_bytes(e->base + SDHCI_DATA, p, words);
}

/* A request on a host whose data path is DMA: a large one by DMA (then
 * the data phase's result, 0 or an error), a small one by PIO (1: go on
 * with the PIO loop; h->dma_pio_blocks). */
static int xfer_by_dma(struct sd_host *h, struct sdhci_priv *e, struct sd_request *req,
		       uint32_t blk_to)
{
	int r = req->data->blocks > h->dma_pio_blocks ? sdhci_dma_xfer(e, req, blk_to) : 1;

	if (r <= 0)
		return r ? r : xfer_end(e, req, blk_to, req->data->blocks);
	h->dma_pio_reqs++;
	return 1;
}

/* What a PIO data phase measured and decided, summed over its blocks
 * (sums of tick differences: 64-bit, sd_host.h struct sd_req_times). */
struct pio_sums {
	uint64_t host, wait;
	uint32_t waited;   /* blocks the bus waited for the card before */
	uint32_t wund;     /* write blocks whose wait was not decided */
};

/* The request's times once the last block was moved (at t1). */
static void pio_times(struct sd_req_times *t, bool rd_dir, bool first, uint32_t t1,
		      const struct pio_sums *m, struct read_pace *rp)
{
	/* the last block, once arrived, waited for the CPU alone */
	if (rd_dir && first) {
		rp->idle += rp->stood;
		rp->idle_unc += rp->stood_unc;
	}
	t->t_data_done = t1;
	t->host_ticks = m->host;
	t->wait_blocks = m->waited;
	t->wait_ticks = m->wait;
	t->waits_counted = rd_dir ? 2 : 1;
	t->stood_ticks = rp->idle;
	t->stood_unc_ticks = rp->idle_unc;
	t->undecided_blocks = rp->undecided + m->wund;
	t->undecided_looks = (uint8_t)((rp->undecided ? SD_UNDECIDED_BLKCNT : 0u) |
				       (m->wund ? SD_UNDECIDED_WRITE : 0u));
}

/* The data phase of a request, after the command completed. */
static int sdhci_xfer(struct sd_host *h, struct sdhci_priv *e, struct sd_request *req)
{
	struct sd_data *data = req->data;
	struct sd_req_times *t = &req->t;
	const bool rd_dir = data->dir == SD_DATA_READ;
	const uint32_t ready = rd_dir ? SDHCI_INT_READ_RDY : SDHCI_INT_WRITE_RDY;
	const uint32_t blk_to = rd_dir ? SDHCI_READ_TIMEOUT_US :
		(req->cmd.busy_timeout_us ? req->cmd.busy_timeout_us :
		 SDHCI_BUSY_TIMEOUT_US);
	uint8_t *p = data->buf;
	uint32_t blk, irq, t0, t1 = 0;
	struct pio_sums m = { 0 };
	struct read_pace rp = { .next = 1, .instant = h->read_wire == SD_WIRE_INSTANT };
	bool first = false;
	int r;

	if (e->dma_on && (r = xfer_by_dma(h, e, req, blk_to)) <= 0)
		return r;
	for (blk = 0; blk < data->blocks; blk++) {
		/* [silicon:buf-read-ready] A block that is ready at the first
		 * look, a few instructions after the previous one was moved: the previous end stamp t1
		 * serves as its start (one timestamp per block instead of two
		 * on the streaming path; those few instructions count as the
		 * CPU's, which they are). After a real wait the block's start
		 * is stamped as before. */
		irq = rd(e, SDHCI_INTERRUPT);
		first = blk && (irq & (ready | SDHCI_INT_ERR_MASK));
		if (first) {
			t0 = t1;
		} else {
			if (!(irq & (ready | SDHCI_INT_ERR_MASK)))
				irq = wait_irq_more(e, ready, blk_to);
			t0 = timer_ticks();
			if (blk)
				m.wait += t0 - t1;
		}
		/* a read's wait before this block: decided while moving the
		 * last one, or the CPU came before it (the card or the bus set
		 * its pace) */
		if (rd_dir && blk)
			m.waited += read_wait(&rp, first);
		if (!irq || (irq & SDHCI_INT_ERR_MASK)) {
			return irq_fail(e, req, irq, rd_dir ? "read data" : "write data", blk);
		}
		if (blk == 0)
			t->t_first_data = t0;
		if (t->blk_ready)
			t->blk_ready[blk] = t0;
		/* Clear before moving: the last word of this block may make
		 * the next block ready at once. */
		mmio_write32(e->base + SDHCI_INTERRUPT, ready);
		if (rd_dir)
			read_block(e, data, p, blk, first, &rp);
		else
			write_block(e, data, p);
		p += data->blksz;
		t1 = timer_ticks();
		m.host += t1 - t0;
		if (t->blk_done)
			t->blk_done[blk] = t1;
		/* after the stamp: the last block's look falls in the busy
		 * wait, the others' in the next block's work */
		if (!rd_dir && blk)
			m.waited += write_behind(h, e, blk + 1 == data->blocks, &m.wund);
		if (rd_dir && blk == 0 && data->blocks > 2)
			read_look_words(h, data->blksz, t1 - t0, &rp);
		if (rd_dir)
			read_block_after(&rp, t0, t1);
	}
	pio_times(t, rd_dir, first, t1, &m, &rp);
	return xfer_end(e, req, blk_to, blk);
}

/* ---- ADMA2 ------------------------------------------------------------------ */

/* Host Control 1 DMA Select for ADMA2: 64-bit descriptors where the
 * integration and CAPABILITIES (64-bit System Bus Support) have them. */
static uint32_t adma_select(const struct sdhci_priv *e)
{
	return e->adma64 ? SDHCI_C0_HCTL_DMA_ADMA2_64 : SDHCI_C0_HCTL_DMA_ADMA2;
}

/* Build the descriptor table for data, do the cache maintenance and point
 * the controller at the table. Returns the number of descriptors, or 0
 * when this request goes by PIO instead (small, unaligned, or a buffer
 * the DMA master cannot see). */
static int sdhci_adma_prepare(struct sdhci_priv *e, struct sd_data *data,
			      uint64_t *tbl_bus)
{
	const uint32_t dsz = e->adma64 ? SDHCI_ADMA_DESC64_SZ : SDHCI_ADMA_DESC32_SZ;
	uint32_t len = data->blksz * data->blocks;
	uint64_t phys, tphys;
	int n;

	if (len < 512u || ((uintptr_t)data->buf & 3u))
		return 0;
	phys = dma_arm_phys(data->buf, len);
	tphys = dma_arm_phys(e->adma_tbl, sizeof(e->adma_tbl));
	if (phys == DMA_PHYS_NONE || tphys == DMA_PHYS_NONE ||
	    phys + len > e->dma_window ||
	    tphys + sizeof(e->adma_tbl) > e->dma_window)
		return 0;
	if (e->adma64)
		n = sdhci_adma_build64(e->adma_tbl, SDHCI_ADMA_MAX_DESC,
				       phys + e->dma_offset, len);
	else
		n = sdhci_adma_build(e->adma_tbl, SDHCI_ADMA_MAX_DESC,
				     (uint32_t)phys + e->dma_offset, len);
	if (n <= 0)
		return 0;
	*tbl_bus = tphys + e->dma_offset;
	/* The master reads the table (and a write's data) from memory, and
	 * writes a read's data there: nothing of it may stay in (or later
	 * be evicted from) the CPU's cache. */
	cache_clean_range(e->adma_tbl, (size_t)n * dsz);
	if (data->dir == SD_DATA_WRITE)
		cache_clean_range(data->buf, len);
	else
		cache_invalidate_range(data->buf, len);
	wr(e, SDHCI_ADMA_ADDR, (uint32_t)*tbl_bus);
	if (e->adma64)
		wr(e, SDHCI_ADMA_ADDR_HI, (uint32_t)(*tbl_bus >> 32));
	return n;
}

/* After the master wrote a read's data: drop what the CPU may have
 * speculatively loaded meanwhile. */
static void sdhci_adma_finish(struct sd_data *data)
{
	if (data->dir == SD_DATA_READ)
		cache_invalidate_range(data->buf, data->blksz * data->blocks);
}

/* Blocks [done, done + n) were seen transferred at 'now'. */
static void adma_progress(struct sd_req_times *t, uint32_t done, uint32_t n,
			  uint32_t now)
{
	for (; n; n--, done++) {
		if (t->blk_ready)
			t->blk_ready[done] = now;
		if (t->blk_done)
			t->blk_done[done] = now;
	}
}

/* The data phase of an ADMA2 request, after the command completed: the
 * master moves the data; the CPU watches the block count (progress, the
 * phase timestamps) and waits for Transfer Complete or an error.
 * Timestamps: reads: first data = the first block seen on the bus, data
 * done = transfer complete (the master wrote the last word); writes:
 * first data = the command's end (the master fills the buffer at once),
 * data done = all but the last block sent (the last one is then in the
 * controller, as after the CPU's last PIO word). host_ticks stays 0: the
 * CPU moves nothing. look: Block Count counts blocks on the bus
 * ([silicon:blkcnt-bus], confirmed by the probe); otherwise the blocks'
 * times are not known and the request says so (undecided_blocks). */
/* The wait for the end of an ADMA2 transfer, bounded per block: returns
 * the INTERRUPT status that ended it (0: timed out) with *left the blocks
 * Block Count still counts. */
static uint32_t adma_wait(struct sdhci_priv *e, struct sd_request *req, uint32_t blk_to,
			  bool look, uint32_t *left)
{
	struct sd_data *data = req->data;
	struct sd_req_times *t = &req->t;
	const bool rd_dir = data->dir == SD_DATA_READ;
	const uint32_t want = SDHCI_INT_DATA_DONE | SDHCI_INT_ERR_MASK;
	timer_deadline_t d = timer_deadline_us(blk_to);
	uint32_t irq, cnt, now;

	for (;;) {
		irq = rd(e, SDHCI_INTERRUPT);
		if (irq & want)
			return irq;
		/* Block Count moving is progress whatever it counts (the bus,
		 * or the master's drain): it renews the per-block bound and
		 * names a failing block. Its moments are the blocks' times
		 * only where the probe confirmed it counts the bus. */
		cnt = rd(e, SDHCI_BLKSIZECNT) >> SDHCI_BLKCNT_SHIFT;
		if (cnt < *left) {
			now = timer_ticks();
			if (look) {
				adma_progress(t, data->blocks - *left, *left - cnt, now);
				if (rd_dir && !t->t_first_data)
					t->t_first_data = now;
				if (!rd_dir && cnt <= 1 && !t->t_data_done)
					t->t_data_done = now;
			}
			*left = cnt;
			d = timer_deadline_us(blk_to);
			continue;
		}
		if (timer_expired(d)) {
			irq = rd(e, SDHCI_INTERRUPT);
			return irq & want ? irq : 0;
		}
	}
}

/* An ADMA2 transfer that ended in an error (irq; 0: timed out) with left
 * blocks still counted: the descriptor that failed, the auto command's
 * status, or the data phase named. */
static int adma_fail(struct sdhci_priv *e, struct sd_request *req, uint32_t irq,
		     uint32_t left, uint64_t tbl_bus, uint32_t ndesc)
{
	struct sd_data *data = req->data;
	const bool rd_dir = data->dir == SD_DATA_READ;
	uint32_t blk = data->blocks - left;

	if (irq & SDHCI_INT_ADMA_ERR) {
		uint32_t st = rd(e, SDHCI_ADMA_ERR);
		uint64_t sys = rd(e, SDHCI_ADMA_ADDR), da;

		if (e->adma64)
			sys |= (uint64_t)rd(e, SDHCI_ADMA_ADDR_HI) << 32;
		req->err.dma_status = st;
		req->err.dma_desc = sdhci_adma_failing_desc_sz(
			st, sys, tbl_bus, ndesc,
			e->adma64 ? SDHCI_ADMA_DESC64_SZ : SDHCI_ADMA_DESC32_SZ, &da);
		/* The record's field is 32 bits: the low half. */
		req->err.dma_desc_addr = (uint32_t)da;
		recover(e, true);
		sdhci_adma_finish(data);
		return sd_req_fail(req, -EIO, irq, "adma", blk);
	}
	if (irq & SDHCI_INT_ACMD_ERR) {
		uint32_t st = (irq & SDHCI_INT_ERR_MASK) |
			      (rd(e, SDHCI_CONTROL2) & 0xFFFFu);

		recover(e, true);
		sdhci_adma_finish(data);
		return sd_req_fail(req, -EIO, st, "auto command", blk);
	}
	recover(e, true);
	sdhci_adma_finish(data);
	return sd_req_fail(req, irq ? irq_to_err(irq) : -ETIMEDOUT, irq,
			   left ? (rd_dir ? "read data" : "write data") :
			   (rd_dir ? "read end" : "write busy"), blk);
}

/* The data phase by ADMA2 (the table at tbl_bus, ndesc descriptors, set
 * up by sdhci_adma_prepare): the controller's own master moves the data,
 * the CPU waits for Transfer Complete. look: Block Count's moments are the
 * blocks' times (the probe confirmed it counts the bus). */
static int sdhci_xfer_adma(struct sdhci_priv *e, struct sd_request *req,
			   uint64_t tbl_bus, uint32_t ndesc, bool look)
{
	struct sd_data *data = req->data;
	struct sd_req_times *t = &req->t;
	const bool rd_dir = data->dir == SD_DATA_READ;
	const uint32_t blk_to = rd_dir ? SDHCI_READ_TIMEOUT_US :
		(req->cmd.busy_timeout_us ? req->cmd.busy_timeout_us :
		 SDHCI_BUSY_TIMEOUT_US);
	uint32_t left = data->blocks, irq, now;

	now = timer_ticks();
	if (!rd_dir) {
		t->t_first_data = now;
		if (left <= 1)
			t->t_data_done = now;
	}
	irq = adma_wait(e, req, blk_to, look, &left);
	t->t_end = timer_ticks();
	if (!irq || (irq & SDHCI_INT_ERR_MASK))
		return adma_fail(e, req, irq, left, tbl_bus, ndesc);
	if (left)
		adma_progress(t, data->blocks - left, left, t->t_end);
	if (!t->t_first_data)
		t->t_first_data = t->t_end;
	if (rd_dir || !t->t_data_done)
		t->t_data_done = t->t_end;
	t->host_ticks = 0;
	t->undecided_blocks = look ? 0 : data->blocks;
	sdhci_adma_finish(data);
	if (data->stop == SD_STOP_AUTO12)
		req->cmd.auto_resp = rd(e, SDHCI_RESP3);
	wr(e, SDHCI_INTERRUPT, SDHCI_INT_DATA_DONE);
	return 0;
}

/* The Command and Transfer Mode word of req (SDHCI 3.00 §2.2.6, §2.2.7),
 * and the inhibit bits to wait for before issuing it. 0, or the setup
 * error (req->err). */
static int command_word(const struct sd_host *h, struct sd_request *req, uint32_t *cmdtm,
			uint32_t *inhibit)
{
	const struct sdhci_priv *e = h->priv;
	const struct sd_cmd *cmd = &req->cmd;
	const struct sd_data *data = req->data;

	switch (cmd->resp_type) {
	case SD_RESP_NONE:
		break;
	case SD_RESP_R1:
		*cmdtm |= SDHCI_CMD_RSPNS_48 | SDHCI_CMD_CRCCHK_EN | SDHCI_CMD_IXCHK_EN;
		break;
	case SD_RESP_R1B:
		*cmdtm |= SDHCI_CMD_RSPNS_48_BUSY | SDHCI_CMD_CRCCHK_EN |
			 SDHCI_CMD_IXCHK_EN;
		*inhibit |= SDHCI_STATUS_DAT_INHIBIT;
		break;
	case SD_RESP_R2:
		*cmdtm |= SDHCI_CMD_RSPNS_136 | SDHCI_CMD_CRCCHK_EN;
		break;
	case SD_RESP_R3:
		*cmdtm |= SDHCI_CMD_RSPNS_48;
		break;
	default:
		return sd_req_fail(req, -EINVAL, 0, "setup", 0);
	}

	if (data) {
		if (!data->buf || data->blocks == 0 || data->blocks > 0xFFFFu ||
		    data->blksz == 0 || (data->blksz & 3) ||
		    data->blksz > e->max_block)
			return sd_req_fail(req, -EINVAL, 0, "setup", 0);
		*cmdtm |= SDHCI_CMD_ISDATA | SDHCI_TM_BLKCNT_EN;
		if (data->dir == SD_DATA_READ)
			*cmdtm |= SDHCI_TM_DAT_DIR_READ;
		if (data->blocks > 1 || data->stop != SD_STOP_NONE)
			*cmdtm |= SDHCI_TM_MULTI_BLOCK;
		if (data->stop == SD_STOP_AUTO12) {
			if (!h->cap_auto12)
				return sd_req_fail(req, -ENOTSUP, 0, "setup", 0);
			*cmdtm |= SDHCI_TM_AUTO_CMD12;
		} else if (data->stop == SD_STOP_AUTO23) {
			if (!h->cap_auto23)
				return sd_req_fail(req, -ENOTSUP, 0, "setup", 0);
			*cmdtm |= SDHCI_TM_AUTO_CMD23;
		}
		*inhibit |= SDHCI_STATUS_DAT_INHIBIT;
	}
	return 0;
}

/* The command's response from RESP0-3 into cmd->resp. */
static void read_response(const struct sdhci_priv *e, struct sd_cmd *cmd)
{
	if (cmd->resp_type == SD_RESP_R2) {
		/* The controller strips the CRC byte and stores bits 127:8
		 * in RESP3[23:0]..RESP0; put them back in place. Bits 7:0
		 * (CRC7 + end bit) are not delivered and read as 0. */
		uint32_t r0 = rd(e, SDHCI_RESP0), r1 = rd(e, SDHCI_RESP1);
		uint32_t r2 = rd(e, SDHCI_RESP2), r3 = rd(e, SDHCI_RESP3);

		cmd->resp[0] = r3 << 8 | r2 >> 24;
		cmd->resp[1] = r2 << 8 | r1 >> 24;
		cmd->resp[2] = r1 << 8 | r0 >> 24;
		cmd->resp[3] = r0 << 8;
	} else if (cmd->resp_type != SD_RESP_NONE) {
		cmd->resp[0] = rd(e, SDHCI_RESP0);
	}
}

/* A request without data ends with its command, or with the card's busy
 * after an R1b response. */
static int end_without_data(struct sdhci_priv *e, struct sd_request *req)
{
	const struct sd_cmd *cmd = &req->cmd;
	uint32_t irq;

	if (cmd->resp_type != SD_RESP_R1B) {
		req->t.t_end = req->t.t_cmd_done;
		return 0;
	}
	irq = wait_irq(e, SDHCI_INT_DATA_DONE, cmd->busy_timeout_us ?
		       cmd->busy_timeout_us : SDHCI_BUSY_TIMEOUT_US);
	req->t.t_end = timer_ticks();
	if (!irq || (irq & SDHCI_INT_ERR_MASK)) {
		return irq_fail(e, req, irq, "busy", 0);
	}
	wr(e, SDHCI_INTERRUPT, SDHCI_INT_DATA_DONE);
	return 0;
}

/* ---- the probe of the controller's behaviour (docs/silicon.md) ---------------- */

static int sdhci_request(struct sd_host *h, struct sd_request *req);
static int set_clock(struct sd_host *h, uint32_t hz);

#define PROBE_BLOCKS 4u
#define PROBE_WAIT_MAX_US 10000u

static uint32_t probe_buf[PROBE_BLOCKS * 128u] __attribute__((aligned(64)));

static uint32_t blkcnt(const struct sdhci_priv *e)
{
	return rd(e, SDHCI_BLKSIZECNT) >> SDHCI_BLKCNT_SHIFT;
}

/* The probe's data phase (sdhci_characterise): Block Count when the first
 * block is ready; again after the bus had time for two more frames while
 * the CPU moved nothing; again after the CPU drained one block and the bus
 * had the same time; then the rest moved as usual. */
static int probe_xfer(struct sd_host *h, struct sdhci_priv *e, struct sd_request *req,
		      struct sd_silicon *out)
{
	const struct sd_data *data = req->data;
	const uint32_t words = data->blksz / 4u;
	const uint32_t w = h->width ? h->width : 1u;
	uint64_t frame_us = ((uint64_t)(8u * data->blksz / w + 18u) * 1000000u +
			     h->actual_clock_hz - 1u) / h->actual_clock_hz;
	uint32_t blk, irq;

	out->wait_us = (uint32_t)(2u * frame_us + 20u);
	if (out->wait_us > PROBE_WAIT_MAX_US)
		out->wait_us = PROBE_WAIT_MAX_US;
	for (blk = 0; blk < data->blocks; blk++) {
		irq = wait_irq(e, SDHCI_INT_READ_RDY, SDHCI_READ_TIMEOUT_US);
		if (!irq || (irq & SDHCI_INT_ERR_MASK)) {
			return irq_fail(e, req, irq, "probe read data", blk);
		}
		if (blk == 0)
			out->cnt_ready = blkcnt(e);
		wr(e, SDHCI_INTERRUPT, SDHCI_INT_READ_RDY);
		if (blk == 0) {
			timer_udelay(out->wait_us);
			out->cnt_full = blkcnt(e);
		}
		pio_read_aligned(e->base + SDHCI_DATA, (uint32_t *)data->buf + blk * words,
				 words);
		if (blk == 0) {
			timer_udelay(out->wait_us);
			out->cnt_drained = blkcnt(e);
		}
	}
	return xfer_end(e, req, SDHCI_READ_TIMEOUT_US, blk);
}

/* What the three counts say (struct sd_silicon). */
static uint8_t probe_classify(const struct sd_silicon *s)
{
	const uint32_t n = s->blocks;

	if (s->cnt_ready < n && s->cnt_full <= s->cnt_ready && s->cnt_drained <= s->cnt_full)
		return SD_BLKCNT_BUS;
	if (s->cnt_ready == n && s->cnt_full == n && s->cnt_drained == n - 1u)
		return SD_BLKCNT_DRAIN;
	if (s->cnt_ready == n && s->cnt_full == n && s->cnt_drained == n)
		return SD_BLKCNT_STALE;
	return SD_BLKCNT_OTHER;
}

/* [silicon:read-wire] The time from writing a read command to its block
 * ready, by PIO (whatever path the run uses: the CPU must see the block
 * arrive), at a low clock so that one frame is long beside anything the
 * CPU does between its stamps (a register write and a few reads: under
 * QEMU without -icount guest time is the host's, tens of microseconds
 * each); the shortest of a few, as a single one can be long for reasons
 * that are not the bus (the first run of new code under an emulator, a
 * busy host). Both stamps (before the write, after the poll saw the flag)
 * make it longer, never shorter. The read is CMD6 in check mode with no
 * function changed (SD Physical Layer §4.3.10: a 512-bit status block,
 * the card's state unchanged): a register, not the memory array, so the
 * card's access time is small and the card's own state is not touched.
 * A UHS-I timing keeps its clock (its tuned sampling point). */
#define PROBE_WIRE_TRIES 3u
#define PROBE_WIRE_FRAME_US 2000u  /* the frame the low clock aims at */
#define PROBE_WIRE_BYTES 64u       /* CMD6's status block */
#define CMD6_CHECK_NO_CHANGE 0x00FFFFFFu

static int probe_wire_reads(struct sd_host *h, struct sd_silicon *out)
{
	struct sdhci_priv *e = h->priv;
	struct sd_data data = { probe_buf, PROBE_WIRE_BYTES, 1u, SD_DATA_READ, SD_STOP_NONE, 0 };
	const uint8_t path = h->data_path;
	const bool dma_on = e->dma_on;
	const uint32_t hz = e->req_hz;
	const bool uhs = h->timing >= SD_TIMING_SDR50;
	uint32_t k, ns, w = h->width ? h->width : 1u;
	uint32_t low = (8u * data.blksz / w + 18u) * (1000000u / PROBE_WIRE_FRAME_US);
	int r, r2 = 0;

	if (low < SDHCI_MIN_CLOCK_HZ)
		low = SDHCI_MIN_CLOCK_HZ;
	r = uhs || hz <= low ? 0 : set_clock(h, low);

	out->wire_clock_hz = h->actual_clock_hz;
	out->first_ns = UINT32_MAX;
	/* the block's frame (SD §4.5; DDR50: data and CRC on both edges) */
	if (!r && h->actual_clock_hz)
		out->frame_ns = (uint32_t)((uint64_t)((h->timing == SD_TIMING_DDR50 ? 4u : 8u) *
						      data.blksz / w + 18u) * 1000000000u /
					   h->actual_clock_hz);
	h->data_path = SD_PATH_PIO;
	e->dma_on = false;
	for (k = 0; k < PROBE_WIRE_TRIES && !r; k++) {
		struct sd_request req = { .data = &data };

		req.cmd.index = 6;
		req.cmd.resp_type = SD_RESP_R1;
		req.cmd.arg = CMD6_CHECK_NO_CHANGE;
		r = sdhci_request(h, &req);
		ns = (uint32_t)timer_ticks_to_ns(req.t.t_first_data - req.t.t_issue);
		if (!r && ns < out->first_ns)
			out->first_ns = ns;
	}
	h->data_path = path;
	e->dma_on = dma_on;
	if (hz != e->req_hz)
		r2 = set_clock(h, hz);
	return r ? r : r2;
}

/* What the first block's time says (enum sd_read_wire): a block no bus
 * could have carried that soon. Half a frame, not the whole one, so that
 * a clock up to twice what the driver set still counts as a bus. */
static uint8_t probe_wire(const struct sd_silicon *s)
{
	if (!s->frame_ns)
		return SD_WIRE_UNPROBED;
	return s->first_ns < s->frame_ns / 2u ? SD_WIRE_INSTANT : SD_WIRE_TIMED;
}

/* sd_host_ops.characterise: a read of the card's first blocks (address
 * 0: readable on every card) with the probes of probe_xfer. The bus
 * runs at what set_ios gave; the request's waits are bounded as every
 * read's. */
static int sdhci_characterise(struct sd_host *h, struct sd_silicon *out)
{
	struct sdhci_priv *e = h->priv;
	struct sd_data data = { probe_buf, 512u, PROBE_BLOCKS, SD_DATA_READ, SD_STOP_AUTO12, 0 };
	struct sd_request req = { .data = &data };
	uint32_t t0 = timer_ticks();
	int r;

	*out = (struct sd_silicon){ .blocks = PROBE_BLOCKS };
	h->blkcnt_look = SD_BLKCNT_UNPROBED;
	h->read_wire = SD_WIRE_UNPROBED;
	if (!h->actual_clock_hz)
		return -EINVAL;
	req.cmd.index = 18;
	req.cmd.resp_type = SD_RESP_R1;
	req.cmd.arg = 0;
	e->probe = out;
	r = sdhci_request(h, &req);
	e->probe = NULL;
	out->ticks = timer_ticks() - t0;
	if (r)
		return r;
	out->blkcnt = probe_classify(out);
	h->blkcnt_look = out->blkcnt;
	/* a card without CMD6 (SD 1.0) leaves the wire unprobed: the read
	 * split then needs the look, as before */
	r = probe_wire_reads(h, out);
	out->ticks = timer_ticks() - t0;
	out->wire = r ? SD_WIRE_UNPROBED : probe_wire(out);
	if (r)
		out->first_ns = 0;
	h->read_wire = out->wire;
	return 0;
}

/* The write probe's tail (probe_wxfer): from the last word to Transfer
 * Complete, DAT[0] and the interrupt status read in turn; then DAT[0]
 * again, and if it still reads low, until it reads high (at most
 * PROBE_WAIT_MAX_US): how long after Transfer Complete it did. A level
 * high within PROBE_DAT0_TOL_US of it is the line's (a few SD clocks of
 * synchroniser, harmless to the decisions of write_behind). */
#define PROBE_DAT0_TOL_US 4u

static void probe_busy(struct sdhci_priv *e, struct sd_silicon *out, uint32_t busy_to_us)
{
	timer_deadline_t d = timer_deadline_us(busy_to_us);
	uint32_t t0 = timer_ticks(), t;

	for (;;) {
		if (!(rd(e, SDHCI_STATUS) & SDHCI_STATUS_DAT0_LEVEL))
			out->dat0_low = true;
		if ((rd(e, SDHCI_INTERRUPT) & (SDHCI_INT_DATA_DONE | SDHCI_INT_ERR_MASK)) ||
		    timer_expired(d))
			break;
	}
	t = timer_ticks();
	out->busy_us = (uint32_t)(timer_ticks_to_ns(t - t0) / 1000u);
	out->tol_us = PROBE_DAT0_TOL_US;
	d = timer_deadline_us(PROBE_WAIT_MAX_US);
	while (!(rd(e, SDHCI_STATUS) & SDHCI_STATUS_DAT0_LEVEL) && !timer_expired(d))
		out->dat0_low = true;
	out->dat0_late_us = (uint32_t)(timer_ticks_to_ns(timer_ticks() - t) / 1000u);
}

/* The write probe's data phase: Buffer Write Enable right after the
 * first block was filled (the bus cannot have sent it yet: it needs a
 * whole frame after N_WR), the blocks as Buffer Write Ready allows, then
 * the busy (probe_busy). */
static int probe_wxfer(struct sdhci_priv *e, struct sd_request *req, struct sd_silicon *out)
{
	const struct sd_data *data = req->data;
	const uint32_t words = data->blksz / 4u;
	const uint32_t to = req->cmd.busy_timeout_us ? req->cmd.busy_timeout_us :
			    SDHCI_BUSY_TIMEOUT_US;
	uint32_t blk, irq;

	for (blk = 0; blk < data->blocks; blk++) {
		irq = wait_irq(e, SDHCI_INT_WRITE_RDY, to);
		if (!irq || (irq & SDHCI_INT_ERR_MASK)) {
			return irq_fail(e, req, irq, "probe write data", blk);
		}
		mmio_write32(e->base + SDHCI_INTERRUPT, SDHCI_INT_WRITE_RDY);
		pio_write_aligned(e->base + SDHCI_DATA, (const uint32_t *)data->buf + blk * words,
				  words);
		if (blk == 0)
			out->bwe_first = (rd(e, SDHCI_STATUS) & SDHCI_STATUS_BUF_WRITE_EN) != 0;
	}
	probe_busy(e, out, to);
	return xfer_end(e, req, to, blk);
}

/* What the write probe saw (struct sd_silicon): Buffer Write Enable with
 * one block in the buffer (set: a slot; clear: only when empty), and the
 * DAT[0] level against Transfer Complete. Never low through a busy (last
 * word to Transfer Complete) more than twice two frames (what may still
 * wait in the buffer) and the tolerance: the level does not show it;
 * never low through a shorter one: nothing to tell by. */
static void probe_wclassify(const struct sd_host *h, struct sd_silicon *s)
{
	const uint32_t w = h->width ? h->width : 1u;
	uint64_t frame_us = h->actual_clock_hz ?
		((uint64_t)(8u * 512u / w + 18u) * 1000000u + h->actual_clock_hz - 1u) /
		h->actual_clock_hz : 1000u;

	s->bwe = s->bwe_first ? SD_BWE_SLOT : SD_BWE_EMPTY;
	if (s->dat0_low)
		s->dat0 = s->dat0_late_us > s->tol_us ? SD_DAT0_LAG : SD_DAT0_LIVE;
	else
		s->dat0 = s->busy_us > 2u * (2u * frame_us + s->tol_us) + 20u ? SD_DAT0_NONE :
			  SD_DAT0_SHORT;
}

/* sd_host_ops.probe_write: arm (out) or disarm (NULL). */
static void sdhci_probe_write(struct sd_host *h, struct sd_silicon *out)
{
	struct sdhci_priv *e = h->priv;

	e->wprobe = out;
	if (!out)
		return;
	out->wprobed = false;
	h->bwe_look = SD_BWE_FAILED;
	h->dat0_look = SD_DAT0_FAILED;
}

/* The armed write probe's request: the data phase of probe_wxfer, then
 * the looks from what it saw (only a request that ended well counts). */
static int probe_write_req(struct sd_host *h, struct sdhci_priv *e, struct sd_request *req)
{
	struct sd_silicon *s = e->wprobe;
	uint32_t t0 = timer_ticks();
	int r;

	s->bwe_first = s->dat0_low = false;
	s->busy_us = s->dat0_late_us = 0;
	r = probe_wxfer(e, req, s);
	s->wticks = timer_ticks() - t0;
	if (r)
		return r;
	probe_wclassify(h, s);
	s->wprobed = true;
	h->bwe_look = s->bwe;
	h->dat0_look = s->dat0;
	e->wprobe = NULL; /* one request */
	return 0;
}

static int sdhci_request(struct sd_host *h, struct sd_request *req)
{
	/* restrict: nothing but e changes the host's state during a request,
	 * the register accesses least of all, so e->base and e->wdelay_us
	 * stay in registers instead of being loaded again after every
	 * register write. */
	struct sdhci_priv *const __restrict e = h->priv;
	struct sd_cmd *cmd = &req->cmd;
	struct sd_data *data = req->data;
	uint32_t cmdtm = (uint32_t)(cmd->index & 0x3F) << SDHCI_CMD_INDEX_SHIFT;
	uint32_t inhibit = SDHCI_STATUS_CMD_INHIBIT;
	uint32_t irq;
	uint64_t adma_tbl = 0;
	int adma_n = 0;
	int ret;

	/* The rest of err, the stamps and the responses: cleared by the
	 * card layer (req_init, sd_host.h). */
	req->err.cmd = cmd->index;
	req->err.arg = cmd->arg;
	req->err.dma_desc = -1;

	ret = command_word(h, req, &cmdtm, &inhibit);
	if (ret)
		return ret;

	/* Usually free at the first look: no call then. */
	ret = rd(e, SDHCI_STATUS) & inhibit ?
	      wait_reg(e, SDHCI_STATUS, inhibit, 0, SDHCI_INHIBIT_TIMEOUT_US) : 0;
	if (ret) {
		uint32_t st = rd(e, SDHCI_STATUS);

		recover(e, true);
		return sd_req_fail(req, ret, st, "inhibit", 0);
	}

	wr(e, SDHCI_INTERRUPT, SDHCI_INT_ALL);
	if (data) {
		wr(e, SDHCI_BLKSIZECNT, (data->blksz & SDHCI_BLKSIZE_MASK) |
		   data->blocks << SDHCI_BLKCNT_SHIFT);
		if (data->stop == SD_STOP_AUTO23)
			wr(e, SDHCI_ARG2, data->sbc_arg);
	}
	if (data && h->data_path == SD_PATH_DMA && !e->dma && !e->probe && !e->wprobe) {
		adma_n = sdhci_adma_prepare(e, data, &adma_tbl);
		if (adma_n > 0)
			cmdtm |= SDHCI_TM_DMA_EN;
	}
	wr(e, SDHCI_ARG1, cmd->arg);
	req->t.t_issue = timer_ticks();
	wr(e, SDHCI_CMDTM, cmdtm);

	irq = wait_irq(e, SDHCI_INT_CMD_DONE, SDHCI_CMD_TIMEOUT_US);
	req->t.t_cmd_done = timer_ticks();
	if (!irq || (irq & SDHCI_INT_ERR_MASK)) {
		recover(e, data || cmd->resp_type == SD_RESP_R1B);
		if (adma_n > 0)
			sdhci_adma_finish(data);
		return sd_req_fail(req, irq ? irq_to_err(irq) : -ETIMEDOUT, irq,
				   "command", 0);
	}

	read_response(e, cmd);
	wr(e, SDHCI_INTERRUPT, SDHCI_INT_CMD_DONE);

	if (data && adma_n > 0)
		return sdhci_xfer_adma(e, req, adma_tbl, (uint32_t)adma_n,
				       h->blkcnt_look == SD_BLKCNT_BUS);
	if (data && e->probe)
		return probe_xfer(h, e, req, e->probe);
	if (data && e->wprobe && data->dir == SD_DATA_WRITE && data->blocks >= 2 &&
	    data->blksz == 512u && ((uintptr_t)data->buf & 3u) == 0)
		return probe_write_req(h, e, req);
	if (data)
		return sdhci_xfer(h, e, req);
	return end_without_data(e, req);
}

uint32_t sdhci_clock_for(uint32_t base_clock_hz, uint32_t hz, bool v3,
			uint32_t *divider)
{
	uint32_t n;

	if (hz == 0 || base_clock_hz == 0) {
		*divider = 0;
		return 0;
	}
	if (hz >= base_clock_hz) {
		*divider = 0;
		return base_clock_hz;
	}
	/* f = base / (2 N): the smallest N that does not exceed hz. */
	n = (base_clock_hz + 2 * hz - 1) / (2 * hz);
	if (v3) {
		if (n > SDHCI_DIV10_MAX)
			n = SDHCI_DIV10_MAX;
	} else {
		uint32_t p = 1;

		while (p < n && p < SDHCI_DIV8_MAX)
			p <<= 1;
		n = p;
	}
	*divider = n;
	return base_clock_hz / (2 * n);
}

/* Two SD clocks of the slower of two frequencies, at least 1 us: the pace
 * of successive CONTROL1 writes while the divider changes (the crossing
 * into the SD clock domain runs at whichever clock is in effect). */
static uint32_t pace_us(uint32_t a_hz, uint32_t b_hz)
{
	uint32_t f = a_hz && (!b_hz || a_hz < b_hz) ? a_hz : b_hz;

	if (!f || f < SDHCI_MIN_CLOCK_HZ)
		f = SDHCI_MIN_CLOCK_HZ;
	return (2000000u + f - 1) / f;
}

static int set_clock(struct sd_host *h, uint32_t hz)
{
	struct sdhci_priv *e = h->priv;
	uint32_t c1, n, actual, pace;
	int ret;

	if (hz == e->req_hz && h->actual_clock_hz)
		return 0;
	actual = sdhci_clock_for(h->base_clock_hz, hz, e->v3, &n);
	pace = pace_us(h->actual_clock_hz, actual);

	c1 = rd(e, SDHCI_CONTROL1) & ~(SDHCI_C1_SRST_HC | SDHCI_C1_SRST_CMD |
				      SDHCI_C1_SRST_DATA);
	c1 &= ~SDHCI_C1_CLK_EN;
	/* While the divider changes, writes are paced by the slower of the
	 * old and the new clock. */
	e->wdelay_us = e->q->pace_below_hz ? pace : 0;
	wr(e, SDHCI_CONTROL1, c1);
	h->actual_clock_hz = 0;
	e->req_hz = 0;
	if (hz == 0) {
		set_wdelay(e, 0);
		return 0;
	}
	c1 &= ~(SDHCI_C1_CLK_MASK | SDHCI_C1_DATA_TOUNIT_MASK);
	c1 |= (n & 0xFFu) << SDHCI_C1_CLK_FREQ8_SHIFT |
	      ((n >> 8) & 0x3u) << SDHCI_C1_CLK_FREQ_MS2_SHIFT |
	      SDHCI_C1_DATA_TOUNIT_MAX << SDHCI_C1_DATA_TOUNIT_SHIFT |
	      SDHCI_C1_CLK_INTLEN;
	wr(e, SDHCI_CONTROL1, c1);
	ret = wait_reg(e, SDHCI_CONTROL1, SDHCI_C1_CLK_STABLE, SDHCI_C1_CLK_STABLE,
		       SDHCI_CLOCK_TIMEOUT_US);
	if (ret)
		return ret;
	wr(e, SDHCI_CONTROL1, c1 | SDHCI_C1_CLK_EN);
	h->actual_clock_hz = actual;
	e->req_hz = hz;
	set_wdelay(e, actual);
	return 0;
}

static int uhs_set_timing(struct sd_host *h, uint8_t timing, uint32_t *clock_hz);

static int sdhci_set_ios(struct sd_host *h, const struct sd_ios *ios)
{
	struct sdhci_priv *e = h->priv;
	uint32_t c0 = e->ctl0, hz = ios->clock_hz;
	int ret;

	if (ios->width != 1 && ios->width != 4)
		return -EINVAL;
	if (ios->width == 4 && !h->cap_4bit)
		return -ENOTSUP;
	if (ios->timing == SD_TIMING_HS && !h->cap_hs)
		return -ENOTSUP;
	if (ios->clock_hz > h->f_max_hz)
		return -EINVAL;
	ret = uhs_set_timing(h, ios->timing, &hz);
	if (ret)
		return ret;

	c0 &= ~(SDHCI_C0_HCTL_DWIDTH | SDHCI_C0_HCTL_8BIT | SDHCI_C0_HCTL_HS_EN);
	if (ios->width == 4)
		c0 |= SDHCI_C0_HCTL_DWIDTH;
	if ((ios->timing == SD_TIMING_HS || ios->timing == SD_TIMING_SDR25 ||
	     ios->timing == SD_TIMING_SDR50 || ios->timing == SD_TIMING_SDR104 ||
	     ios->timing == SD_TIMING_DDR50) && !e->q->no_hispd_bit)
		c0 |= SDHCI_C0_HCTL_HS_EN;
	if (c0 != e->ctl0) {
		wr(e, SDHCI_CONTROL0, c0);
		e->ctl0 = c0;
	}
	h->width = ios->width;
	h->timing = ios->timing;
	ret = set_clock(h, hz);
	return ret;
}

static int uhs_power_cycle(struct sd_host *h);

static int sdhci_reset(struct sd_host *h)
{
	struct sdhci_priv *e = h->priv;
	struct sd_ios ios = { SDHCI_ID_CLOCK_HZ, 1, SD_TIMING_DS };
	int ret;

	/* A card left at 1.8 V signalling goes back to 3.3 V only through a
	 * power cycle (SD Physical Layer §4.2.4.2). */
	if (h->signal_mv == 1800)
		return uhs_power_cycle(h);
	set_wdelay(e, SDHCI_MIN_CLOCK_HZ);
	/* The whole word is written: CONTROL1 = SRST_HC only, clock off. */
	wr(e, SDHCI_CONTROL1, SDHCI_C1_SRST_HC);
	ret = wait_reg(e, SDHCI_CONTROL1, SDHCI_C1_SRST_HC, 0,
		       SDHCI_RESET_TIMEOUT_US);
	if (ret)
		return ret;
	h->actual_clock_hz = 0;
	e->req_hz = 0;

	/* Status bits we poll must be enabled to appear; nothing is
	 * signalled to the ARM (polled driver). */
	wr(e, SDHCI_IRPT_EN, 0);
	wr(e, SDHCI_IRPT_MASK, SDHCI_INT_ALL & ~SDHCI_INT_CARD);
	wr(e, SDHCI_INTERRUPT, SDHCI_INT_ALL);

	e->ctl0 = SDHCI_C0_SD_BUS_POWER | SDHCI_C0_SD_BUS_VOLT_3V3;
	if (h->data_path == SD_PATH_DMA && !e->dma)
		e->ctl0 |= adma_select(e);
	wr(e, SDHCI_CONTROL0, e->ctl0);
	wr(e, SDHCI_CONTROL2, 0);

	ret = sdhci_set_ios(h, &ios);
	if (ret)
		return ret;
	/* SD §6.4.1: 1 ms after power up and at least 74 clocks before the
	 * first command (185 us at 400 kHz). */
	timer_udelay(SDHCI_POWER_SETTLE_US);
	return 0;
}

static int sdhci_card_busy(struct sd_host *h)
{
	return (rd(h->priv, SDHCI_STATUS) & SDHCI_STATUS_DAT0_LEVEL) ? 0 : 1;
}

static int sdhci_get_cd(struct sd_host *h)
{
	const struct sdhci_priv *e = h->priv;

	if (e->cd_broken)
		return -ENOTSUP;
	/* The detect input is debounced after a reset: its level means
	 * something once CARD_STABLE is set (at once under QEMU). */
	if (wait_reg(e, SDHCI_STATUS, SDHCI_STATUS_CARD_STABLE,
		     SDHCI_STATUS_CARD_STABLE, SDHCI_CD_STABLE_TIMEOUT_US))
		return -ENOTSUP;
	return (rd(e, SDHCI_STATUS) & SDHCI_STATUS_CARD_INSERTED) ? 1 : 0;
}

static int sdhci_get_ro(struct sd_host *h)
{
	/* SDHCI Present State bit 19 is the WP pin level: 1 = writable.
	 * QEMU clears it for a readonly drive. */
	return (rd(h->priv, SDHCI_STATUS) & SDHCI_STATUS_WRITE_EN_PIN) ? 0 : 1;
}

/* ---- UHS-I: Host Control 2, the 1.8 V switch, tuning ------------------------
 *
 * SDHCI 3.00 §2.2.26 (Host Control 2), §3.6.1 (signal voltage switch),
 * §2.2.26/§4.2 (tuning with Execute Tuning and Sampling Clock Select).
 * What the board must do (the SD I/O regulator, the card supply) comes
 * through struct sdhci_board; which modes an integration may run through
 * q->uhs_modes and q->uhs_max_hz.
 */
#define SDHCI_SWITCH_SETTLE_US 5000u  /* 1.8 V stable before the clock */
#define SDHCI_SWITCH_DAT_US 1000u     /* DAT[3:0] high after the clock */
#define SDHCI_POWER_OFF_US 2000u      /* SD §6.4.1.2: VDD off for >= 1 ms */
#define SDHCI_TUNING_MAX 40u          /* SDHCI 3.00: 40 tuning commands */
#define SDHCI_TUNING_CMD_US 150000u   /* the whole procedure: 150 ms */
#define SDHCI_TUNING_BLKSZ 64u        /* 4-bit tuning block (SD §4.2.4.5) */
#define SDHCI_DAT_LEVELS (0xFu << SDHCI_STATUS_DAT_LEVEL0_SHIFT)

static uint32_t uhs_hc2_mode(uint8_t timing)
{
	switch (timing) {
	case SD_TIMING_SDR25: return SDHCI_HC2_UHS_SDR25;
	case SD_TIMING_SDR50: return SDHCI_HC2_UHS_SDR50;
	case SD_TIMING_SDR104: return SDHCI_HC2_UHS_SDR104;
	case SD_TIMING_DDR50: return SDHCI_HC2_UHS_DDR50;
	default: return SDHCI_HC2_UHS_SDR12;
	}
}

/* Host Control 2's UHS Mode Select follows the timing (1.8 V only); the
 * clock is clamped to what the integration's pads run in UHS-I. The
 * clock is stopped while the mode changes (set_clock restarts it). */
static int uhs_set_timing(struct sd_host *h, uint8_t timing, uint32_t *clock_hz)
{
	struct sdhci_priv *e = h->priv;
	uint32_t c2, want;

	if (!SD_TIMING_IS_UHS(timing)) {
		if (timing != SD_TIMING_DS && timing != SD_TIMING_HS)
			return -EINVAL;
		return h->signal_mv == 1800 ? -ENOTSUP : 0;
	}
	if (h->signal_mv != 1800 || !(h->uhs_modes & (1u << timing)))
		return -ENOTSUP;
	if (e->q->uhs_max_hz && *clock_hz > e->q->uhs_max_hz)
		*clock_hz = e->q->uhs_max_hz;
	c2 = rd(e, SDHCI_CONTROL2);
	want = (c2 & ~(SDHCI_HC2_UHS_MASK | 0xFFFFu)) | uhs_hc2_mode(timing);
	if (timing != h->timing)
		want &= ~SDHCI_HC2_SAMPLE_CLK; /* a new mode is tuned again */
	if (want != (c2 & ~0xFFFFu)) {
		wr(e, SDHCI_CONTROL1, rd(e, SDHCI_CONTROL1) & ~(SDHCI_C1_CLK_EN |
		   SDHCI_C1_SRST_HC | SDHCI_C1_SRST_CMD | SDHCI_C1_SRST_DATA));
		wr(e, SDHCI_CONTROL2, want);
		e->req_hz = 0; /* set_clock turns it on again */
	}
	return 0;
}

static int board_io_mv(struct sdhci_priv *e, unsigned mv)
{
	if (!e->board || !e->board->set_io_mv)
		return mv == 3300 ? 0 : -ENOTSUP;
	return e->board->set_io_mv(e->board->ctx, mv);
}

/* SDHCI 3.00 §3.6.1, after CMD11's response. */
static int sdhci_voltage_switch(struct sd_host *h)
{
	struct sdhci_priv *e = h->priv;
	uint32_t c1, c2;
	int ret;

	if (!h->uhs_modes)
		return -ENOTSUP;
	c1 = rd(e, SDHCI_CONTROL1) & ~(SDHCI_C1_SRST_HC | SDHCI_C1_SRST_CMD |
				      SDHCI_C1_SRST_DATA);
	/* 1: SD clock off. */
	wr(e, SDHCI_CONTROL1, c1 & ~SDHCI_C1_CLK_EN);
	/* 2: the card drives DAT[3:0] low once it accepted CMD11. */
	if (rd(e, SDHCI_STATUS) & SDHCI_DAT_LEVELS) {
		wr(e, SDHCI_CONTROL1, c1 | SDHCI_C1_CLK_EN);
		return -EIO;
	}
	/* 3: 1.8 V signalling, in the controller and on the regulator. */
	c2 = rd(e, SDHCI_CONTROL2) & ~0xFFFFu;
	wr(e, SDHCI_CONTROL2, c2 | SDHCI_HC2_1V8_EN);
	ret = board_io_mv(e, 1800);
	h->signal_mv = 1800; /* from here on only a power cycle goes back */
	if (ret)
		return -ENODEV; /* the regulator did not switch */
	/* 4: 5 ms, and the controller must still say 1.8 V. */
	timer_udelay(SDHCI_SWITCH_SETTLE_US);
	if (!(rd(e, SDHCI_CONTROL2) & SDHCI_HC2_1V8_EN))
		return -EIO;
	/* 5: clock on; 6: DAT[3:0] high within 1 ms. */
	wr(e, SDHCI_CONTROL1, c1 | SDHCI_C1_CLK_EN);
	ret = wait_reg(e, SDHCI_STATUS, SDHCI_DAT_LEVELS, SDHCI_DAT_LEVELS,
		       SDHCI_SWITCH_DAT_US);
	return ret ? -EIO : 0;
}

/* Card supply off, signalling back to 3.3 V, supply on, controller reset. */
static int uhs_power_cycle(struct sd_host *h)
{
	struct sdhci_priv *e = h->priv;
	int ret, r2;

	wr(e, SDHCI_CONTROL1, rd(e, SDHCI_CONTROL1) & ~(SDHCI_C1_CLK_EN |
	   SDHCI_C1_SRST_HC | SDHCI_C1_SRST_CMD | SDHCI_C1_SRST_DATA));
	if (e->board && e->board->set_card_power)
		ret = e->board->set_card_power(e->board->ctx, false);
	else
		ret = 0;
	wr(e, SDHCI_CONTROL0, e->ctl0 & ~SDHCI_C0_SD_BUS_POWER);
	wr(e, SDHCI_CONTROL2, 0);
	r2 = board_io_mv(e, 3300);
	timer_udelay(SDHCI_POWER_OFF_US);
	if (e->board && e->board->set_card_power && !ret)
		ret = e->board->set_card_power(e->board->ctx, true);
	h->signal_mv = 3300;
	h->actual_clock_hz = 0;
	e->req_hz = 0;
	if (!ret)
		ret = r2;
	r2 = sdhci_reset(h);
	return ret ? ret : r2;
}

static int sdhci_power_cycle(struct sd_host *h)
{
	return uhs_power_cycle(h);
}

/* SDHCI 3.00 tuning: Execute Tuning set, CMD19/CMD21 repeated (the
 * controller moves its sampling point and reads the tuning block itself,
 * raising Buffer Read Ready each time) until it clears Execute Tuning;
 * Sampling Clock Select then says whether a point was found. */
static int sdhci_execute_tuning(struct sd_host *h, uint8_t cmd_index, uint32_t *tries)
{
	struct sdhci_priv *e = h->priv;
	timer_deadline_t d = timer_deadline_us(SDHCI_TUNING_CMD_US);
	uint32_t c2, i, cmdtm;
	int ret = -EIO;

	*tries = 0;
	c2 = rd(e, SDHCI_CONTROL2) & ~(0xFFFFu | SDHCI_HC2_SAMPLE_CLK);
	wr(e, SDHCI_CONTROL2, c2 | SDHCI_HC2_EXEC_TUNING);
	cmdtm = (uint32_t)(cmd_index & 0x3F) << SDHCI_CMD_INDEX_SHIFT |
		SDHCI_CMD_RSPNS_48 | SDHCI_CMD_CRCCHK_EN | SDHCI_CMD_IXCHK_EN |
		SDHCI_CMD_ISDATA | SDHCI_TM_DAT_DIR_READ;
	for (i = 0; i < SDHCI_TUNING_MAX; i++) {
		uint32_t irq;

		if (wait_reg(e, SDHCI_STATUS, SDHCI_STATUS_CMD_INHIBIT |
			     SDHCI_STATUS_DAT_INHIBIT, 0, SDHCI_INHIBIT_TIMEOUT_US)) {
			ret = -ETIMEDOUT;
			break;
		}
		wr(e, SDHCI_INTERRUPT, SDHCI_INT_ALL);
		wr(e, SDHCI_BLKSIZECNT, SDHCI_TUNING_BLKSZ | 1u << SDHCI_BLKCNT_SHIFT);
		wr(e, SDHCI_ARG1, 0);
		wr(e, SDHCI_CMDTM, cmdtm);
		(*tries)++;
		/* Buffer Read Ready, or an error, bounded by the deadline. */
		for (;;) {
			irq = rd(e, SDHCI_INTERRUPT);
			if (irq & (SDHCI_INT_READ_RDY | SDHCI_INT_ERR_MASK))
				break;
			if (timer_expired(d)) {
				irq = rd(e, SDHCI_INTERRUPT);
				break;
			}
		}
		wr(e, SDHCI_INTERRUPT, SDHCI_INT_ALL);
		if (!(irq & SDHCI_INT_READ_RDY)) {
			/* No block at this sampling point: the controller
			 * moves on as well; clean the lines and go on. */
			recover(e, true);
			if (timer_expired(d)) {
				ret = -ETIMEDOUT;
				break;
			}
		}
		if (!(rd(e, SDHCI_CONTROL2) & SDHCI_HC2_EXEC_TUNING)) {
			ret = (rd(e, SDHCI_CONTROL2) & SDHCI_HC2_SAMPLE_CLK) ? 0 : -EIO;
			break;
		}
	}
	if (ret) {
		/* Not tuned: stop the procedure, fixed sampling clock. */
		c2 = rd(e, SDHCI_CONTROL2) & ~(0xFFFFu | SDHCI_HC2_EXEC_TUNING |
					       SDHCI_HC2_SAMPLE_CLK);
		wr(e, SDHCI_CONTROL2, c2);
		recover(e, true);
	}
	return ret;
}

void sdhci_set_board(struct sdhci_host *sh, const struct sdhci_board *b)
{
	struct sd_host *h = &sh->host;
	struct sdhci_priv *e = &sh->priv;
	uint8_t m = 0;

	e->board = b;
	h->uhs_modes = 0;
	h->tuning_sdr50 = false;
	/* UHS-I needs SDHCI 3.00, a switchable regulator and the modes in
	 * both the quirk set and CAPABILITIES[63:32] (SDR12/SDR25 come with
	 * any of them, SDHCI 3.00 §2.2.26), or in the quirk set alone where
	 * the integration's list replaces the register's (uhs_modes_fixed). */
	if (!b || !b->set_io_mv || !e->v3 || e->caps_missing)
		return;
	if (e->q->uhs_modes_fixed) {
		m = e->q->uhs_modes & (1u << SD_TIMING_SDR50 | 1u << SD_TIMING_SDR104 |
				       1u << SD_TIMING_DDR50);
	} else {
		if (e->caps1 & SDHCI_CAP1_SDR50)
			m |= 1u << SD_TIMING_SDR50;
		if (e->caps1 & SDHCI_CAP1_SDR104)
			m |= 1u << SD_TIMING_SDR104;
		if (e->caps1 & SDHCI_CAP1_DDR50)
			m |= 1u << SD_TIMING_DDR50;
	}
	if (m)
		m |= 1u << SD_TIMING_SDR12 | 1u << SD_TIMING_SDR25;
	h->uhs_modes = m & e->q->uhs_modes;
	h->tuning_sdr50 = (e->caps1 & SDHCI_CAP1_TUNING_SDR50) != 0;
}

/* Host Control 1 DMA Select follows the path: ADMA2 (32- or 64-bit) for DMA,
 * unless an external mover (sdhci_attach_dma) is the DMA path. */
static int sdhci_set_data_path(struct sd_host *h, unsigned path)
{
	struct sdhci_priv *e = h->priv;
	uint32_t c0;

	if (path > SD_PATH_DMA || !(h->data_paths & (1u << path)))
		return -ENOTSUP;
	e->dma_on = path == SD_PATH_DMA && e->dma;
	c0 = e->ctl0 & ~SDHCI_C0_HCTL_DMA_MASK;
	if (path == SD_PATH_DMA && !e->dma)
		c0 |= adma_select(e);
	if (c0 != e->ctl0 && e->ctl0) {
		wr(e, SDHCI_CONTROL0, c0);
		e->ctl0 = c0;
	}
	h->data_path = (uint8_t)path;
	return 0;
}

void sdhci_attach_dma(struct sdhci_host *sh, const struct sdhci_ext_dma *ops,
		      void *ctx)
{
	sh->priv.dma = ops;
	sh->priv.dma_ctx = ctx;
	sh->priv.dma_on = false;
	sh->priv.dma_pio = 0;
	sh->host.dma_pio_blocks = ops ? SD_DMA_PIO_BLOCKS : 0;
	sh->host.dma_pio_reqs = 0;
	if (ops)
		sh->host.data_paths |= 1u << SD_PATH_DMA;
	else
		sh->host.data_paths &= (uint8_t)~(1u << SD_PATH_DMA);
	sh->host.data_path = SD_PATH_PIO;
}

void sdhci_set_dma_view(struct sdhci_host *sh, uint32_t offset, uint64_t window)
{
	/* 32-bit ADMA2: bus addresses are 32 bits, the window must fit above
	 * the offset. 64-bit ADMA2 reaches any address. */
	if (!sh->priv.adma64 && (uint64_t)offset + window > 0x100000000ull)
		window = 0x100000000ull - offset;
	sh->priv.dma_offset = offset;
	sh->priv.dma_window = window;
}

static const struct sd_host_ops sdhci_ops = {
	.reset = sdhci_reset,
	.set_ios = sdhci_set_ios,
	.request = sdhci_request,
	.card_busy = sdhci_card_busy,
	.get_cd = sdhci_get_cd,
	.get_ro = sdhci_get_ro,
	.voltage_switch = sdhci_voltage_switch,
	.power_cycle = sdhci_power_cycle,
	.execute_tuning = sdhci_execute_tuning,
	.set_data_path = sdhci_set_data_path,
	.characterise = sdhci_characterise,
	.probe_write = sdhci_probe_write,
};

/* What the capabilities say (caps: CAPABILITIES0), or the integration's
 * defaults where they are missing: the bus widths and speeds, the largest
 * block, card detection. Returns the base clock: base_clock_hz when the
 * caller knows it, else the capabilities' (0: none). */
static uint32_t sdhci_caps_decode(struct sdhci_host *sh, const struct sdhci_quirks *q,
				  uint32_t caps, uint32_t base_clock_hz)
{
	struct sd_host *h = &sh->host;
	struct sdhci_priv *e = &sh->priv;

	/* Card detect is trusted only where the capabilities describe the
	 * controller, i.e. where they also gave the base clock (QEMU, the
	 * simulator). On hardware the caller passes the mailbox clock: there
	 * Linux declares card detection broken whatever the capabilities
	 * read (sdhci-iproc bcm2835: BROKEN_CARD_DETECTION with MISSING_CAPS;
	 * the Pi 4 device tree: broken-cd on emmc2), the BCM2835 datasheet's
	 * STATUS register (§5) does not define bits 16-18. A missing card
	 * shows as no answer to CMD8 and CMD55 instead (sd.c). */
	e->cd_broken = e->caps_missing || (q->cd_broken_on_hw && base_clock_hz != 0);

	if (e->caps_missing) {
		h->cap_4bit = true;
		h->cap_hs = true;
		e->max_block = q->missing_caps_max_block;
	} else {
		uint32_t mb = (caps >> SDHCI_CAP0_MAXBLK_SHIFT) & SDHCI_CAP0_MAXBLK_MASK;

		h->cap_4bit = true; /* every SDHCI supports 4-bit */
		h->cap_hs = (caps & SDHCI_CAP0_HS) != 0;
		e->max_block = 512u << (mb > 2 ? 2 : mb);
		if (!base_clock_hz) {
			uint32_t mhz = (caps >> SDHCI_CAP0_BASECLK_SHIFT) &
				       (e->v3 ? SDHCI_CAP0_BASECLK_MASK : 0x3Fu);

			base_clock_hz = mhz * 1000000u;
		}
	}
	return base_clock_hz;
}

/* The data paths offered and the clock range, from the capabilities
 * (caps: CAPABILITIES0) and the integration; the host starts on PIO at
 * the identification width and timing. */
static void sdhci_paths_and_clocks(struct sdhci_host *sh, const struct sdhci_quirks *q,
				   uint32_t caps)
{
	struct sd_host *h = &sh->host;
	struct sdhci_priv *e = &sh->priv;
	const uint32_t base_clock_hz = h->base_clock_hz;

	h->cap_auto12 = true;
	/* Auto-CMD23 is an SDHCI 3.00 feature (and in the BCM2835 CMDTM
	 * TM_AUTO_CMD_EN field). QEMU's model ignores it, but QEMU's card
	 * does not support CMD23 either, so it is never asked for there. */
	h->cap_auto23 = e->v3;
	h->dma_pio_blocks = 0;
	h->dma_pio_reqs = 0;
	h->data_paths = 1u << SD_PATH_PIO;
	h->data_path = SD_PATH_PIO;
	h->auto_path = SD_PATH_PIO;
	e->adma64 = q->adma2 && q->adma64 && e->v3 && !e->caps_missing &&
		    (caps & SDHCI_CAP0_SYS64);
	sdhci_set_dma_view(sh, q->dma_offset, q->dma_window);
	/* ADMA2 is offered where the integration has it and the controller
	 * says so; the host starts on PIO all the same: which path to use is
	 * the platform's choice (host.auto_path, set_data_path), not the
	 * driver's. */
	if (q->adma2 && e->v3 && !e->caps_missing && (caps & SDHCI_CAP0_ADMA2) &&
	    e->dma_window)
		h->data_paths |= 1u << SD_PATH_DMA;
	h->f_max_hz = base_clock_hz;
	h->f_min_hz = base_clock_hz / (2 * (e->v3 ? SDHCI_DIV10_MAX : SDHCI_DIV8_MAX));
	if (h->f_min_hz < q->f_min_hz)
		h->f_min_hz = q->f_min_hz;
	h->actual_clock_hz = 0;
	h->width = 1;
	h->timing = SD_TIMING_DS;
}

int sdhci_host_init(struct sdhci_host *sh, const struct sdhci_quirks *q,
		    uintptr_t base, uint32_t base_clock_hz)
{
	struct sd_host *h = &sh->host;
	struct sdhci_priv *e = &sh->priv;
	uint32_t caps, spec;

	e->base = base;
	e->q = q;
	e->wdelay_us = 0;
	set_wdelay(e, 0);
	e->ctl0 = 0;
	e->req_hz = 0;
	e->dma = NULL;
	e->dma_ctx = NULL;
	e->dma_on = false;
	e->dma_pio = 0;
	e->probe = NULL;
	h->blkcnt_look = SD_BLKCNT_UNPROBED;
	h->read_wire = SD_WIRE_UNPROBED;
	e->wprobe = NULL;
	h->bwe_look = SD_BWE_UNPROBED;
	h->dat0_look = SD_DAT0_UNPROBED;

	h->ops = &sdhci_ops;
	h->name = q->name;
	/* SD Host Controller Simplified Specification §2.2.12 (Block Gap
	 * Control, Read Wait Control): between the blocks of a read the
	 * controller stops the SD clock only to hold read data (its buffer
	 * full) or at the driver's Stop At Block Gap Request, which this
	 * driver never sets; a write block follows N_WR after the card's
	 * busy (SD Physical Layer §4.12.4), the controller's own wait there
	 * is the protocol's. So no idle clocks of its own, unless the quirk
	 * set says no authority describes this one.
	 * [silicon:ctrl-idle-clocks] */
	h->idle_clk_max = q->idle_clk_unknown ? SD_IDLE_CLK_UNKNOWN : 0;
	h->base = base;
	h->priv = e;
	h->version = rd(e, SDHCI_SLOTISR_VER);
	caps = rd(e, SDHCI_CAPABILITIES0);
	e->board = NULL;
	h->uhs_modes = 0;
	h->tuning_sdr50 = false;
	h->signal_mv = 3300;
	h->caps = caps;
	spec = (h->version >> SDHCI_VER_SPEC_SHIFT) & SDHCI_VER_SPEC_MASK;
	e->v3 = spec >= SDHCI_VER_SPEC_3_00;
	e->caps1 = e->v3 ? rd(e, SDHCI_CAPABILITIES1) : 0;
	h->caps_hi = e->caps1;
	e->caps_missing = caps == 0 && q->missing_caps_max_block;
	base_clock_hz = sdhci_caps_decode(sh, q, caps, base_clock_hz);
	if (!base_clock_hz)
		return -ENODEV;
	h->base_clock_hz = base_clock_hz;
	sdhci_paths_and_clocks(sh, q, caps);
	return 0;
}

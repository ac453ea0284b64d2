/*
 * bcm2835_sdhost.c - the BCM2835/6/7 SDHOST controller behind struct
 * sd_host_ops (see bcm2835_sdhost.h; registers in bcm2835_sdhost_regs.h):
 * SDCMD NEW/FAIL for commands, a 16-word FIFO at SDDATA (PIO in bursts, or
 * the DMA engine on DREQ 13 with a read's last 3 words by the CPU
 * [silicon:dma-dreq]; the DMA data phase shared with the SDHCI driver in
 * drivers/dma/dma_phase.c), CMD12 sent by the driver for SD_STOP_AUTO12,
 * every wait bounded. The controller's behaviour and its FIFO erratum:
 * docs/drivers.md, "drivers/sdhost/bcm2835_sdhost.c".
 */
#include <stddef.h>
#include <stdint.h>

#include "drivers/dma/dma_phase.h"
#include "drivers/sdhost/bcm2835_sdhost.h"
#include "drivers/sdhost/bcm2835_sdhost_regs.h"
#include "drivers/mmio.h"
#include "drivers/pio_port.h"
#include "drivers/reg_wait.h"
#include "drivers/timer.h"
#include "lib/err.h"

/* Bounds of every wait (microseconds). */
#define SDH_CMD_TIMEOUT_US 100000u     /* NEW clears after the response */
#define SDH_READ_TIMEOUT_US 500000u    /* per FIFO burst; SD: 100 ms (SDHC) */
#define SDH_BUSY_TIMEOUT_US 1000000u   /* write busy / R1b default */
#define SDH_IDLE_TIMEOUT_US 100000u    /* data state machine back to idle */
#define SDH_POWER_US 20000u            /* power and FIFO thresholds settle */
#define SDH_SETTLE_US 1000u            /* SD §6.4.1: 1 ms, >= 74 clocks */
#define SDH_ID_CLOCK_HZ 400000u
#define SDH_MAX_HZ 50000000u           /* high speed; no UHS on this host */
#define SDH_FIFO_THRESHOLD 4u
#define SDH_BURST_WORDS 8u
#define SDH_MAX_BLOCK 1024u
#define SDH_DMA_DRAIN_WORDS (SDH_FIFO_THRESHOLD - 1u) /* read by the CPU */

static inline uint32_t rd(const struct bcm2835_sdhost_priv *p, uint32_t reg)
{
	return mmio_read32(p->base + reg);
}

static inline void wr(const struct bcm2835_sdhost_priv *p, uint32_t reg,
		      uint32_t val)
{
	mmio_write32(p->base + reg, val);
}

static int hsts_to_err(uint32_t hsts)
{
	return sd_status_errno(hsts, SDH_HSTS_CMD_TMO | SDH_HSTS_REW_TMO,
			       SDH_HSTS_CRC7 | SDH_HSTS_CRC16);
}

/* [silicon:sdhost-edm-fifo] */
static inline uint32_t fifo_fill(uint32_t edm)
{
	return (edm >> SDH_EDM_FIFO_SHIFT) & SDH_EDM_FIFO_MASK;
}

/* The rest of wait_cmd, after a first look that found NEW set. */
static __attribute__((noinline)) uint32_t wait_cmd_more(const struct bcm2835_sdhost_priv *p,
							uint32_t timeout_us)
{
	uint32_t c;
	timer_deadline_t d;

	d = timer_deadline_us(timeout_us);
	for (;;) {
		c = rd(p, SDH_CMD);
		if (!(c & SDH_CMD_NEW))
			return c;
		if (timer_expired(d))
			return rd(p, SDH_CMD);
	}
}

/* Wait until NEW has cleared in SDCMD; returns SDCMD, NEW still set on
 * timeout. The first look inline: on the request path NEW has usually
 * cleared by then (no call). */
static inline uint32_t wait_cmd(const struct bcm2835_sdhost_priv *p, uint32_t timeout_us)
{
	uint32_t c = rd(p, SDH_CMD);

	return (c & SDH_CMD_NEW) ? wait_cmd_more(p, timeout_us) : c;
}

/* Wait for any of 'want' or an error in SDHSTS; 0 on timeout. */
static uint32_t wait_hsts(const struct bcm2835_sdhost_priv *p, uint32_t want,
			  uint32_t timeout_us)
{
	uint32_t s = rd(p, SDH_HSTS);

	if (s & (want | SDH_HSTS_ERRS))
		return s;
	return reg_wait_any(p->base + SDH_HSTS, want | SDH_HSTS_ERRS, timeout_us);
}

/* The data state machine is idle: identification or data mode. */
/* [silicon:sdhost-edm-fsm] */
static inline bool fsm_idle(uint32_t edm)
{
	uint32_t fsm = edm & SDH_EDM_FSM_MASK;

	return fsm == SDH_EDM_FSM_IDENT || fsm == SDH_EDM_FSM_DATA;
}

/* Bring the data state machine back to idle: it is there (fsm_idle), it
 * is waiting for a block that will not come (forced back to data mode), or
 * it is busy (programming, CRC): wait for it. 0, or -ETIMEDOUT with the
 * last SDEDM in *edm_out. Out of line: the request path looks once itself
 * (sdh_xfer) and calls this only when the state machine is not idle. */
static __attribute__((noinline)) int wait_idle(const struct bcm2835_sdhost_priv *p,
					       uint32_t timeout_us, uint32_t *edm_out)
{
	timer_deadline_t d = 0;
	bool armed = false;

	for (;;) {
		uint32_t edm = rd(p, SDH_EDM);
		uint32_t fsm = edm & SDH_EDM_FSM_MASK;

		*edm_out = edm;
		if (fsm_idle(edm))
			return 0;
		if (fsm == SDH_EDM_FSM_READWAIT || fsm == SDH_EDM_FSM_READDATA ||
		    fsm == SDH_EDM_FSM_WRITESTART1) {
			wr(p, SDH_EDM, edm | SDH_EDM_FORCE_DATA_MODE);
			return 0;
		}
		if (!armed) {
			d = timer_deadline_us(timeout_us);
			armed = true;
		} else if (timer_expired(d)) {
			return -ETIMEDOUT;
		}
	}
}

/* After an error: the state machine back to idle, a read's FIFO emptied, the
 * block count cleared, the status cleared. Never touches the card's power
 * (a reset of this controller would). */
static void recover(const struct bcm2835_sdhost_priv *p, bool was_read)
{
	uint32_t edm, n;

	(void)wait_cmd(p, SDH_CMD_TIMEOUT_US);
	(void)wait_idle(p, SDH_IDLE_TIMEOUT_US, &edm);
	/* What a read left in the FIFO (a write's leftovers are dropped by
	 * clearing the block count). */
	for (n = 0; was_read && n < 4 * SDH_FIFO_WORDS && fifo_fill(rd(p, SDH_EDM)); n++)
		(void)rd(p, SDH_DATA);
	wr(p, SDH_HBLC, 0);
	wr(p, SDH_HSTS, SDH_HSTS_CLEAR);
}

/* Issue one command and wait for NEW to clear. Returns 0, or an error
 * code with *hsts_out the status bits. Inline: two callers, and the
 * request path's call and argument shuffling cost more than the body. */
static inline __attribute__((always_inline)) int issue(const struct bcm2835_sdhost_priv *p, uint32_t sdcmd, uint32_t arg,
		 uint8_t resp_type, uint32_t *hsts_out)
{
	uint32_t c, s;

	wr(p, SDH_ARG, arg);
	wr(p, SDH_CMD, sdcmd | SDH_CMD_NEW);
	c = wait_cmd(p, SDH_CMD_TIMEOUT_US);
	if (c & SDH_CMD_NEW) {
		*hsts_out = rd(p, SDH_HSTS);
		return -ETIMEDOUT;
	}
	if (!(c & SDH_CMD_FAIL))
		return 0;
	s = rd(p, SDH_HSTS);
	*hsts_out = s;
	/* R3 (OCR) carries no CRC: a CRC7 "error" is not one. */
	if (resp_type == SD_RESP_R3 && !(s & (SDH_HSTS_ERRS & ~SDH_HSTS_CRC7))) {
		wr(p, SDH_HSTS, SDH_HSTS_CRC7);
		return 0;
	}
	return hsts_to_err(s ? s : SDH_HSTS_CMD_TMO);
}

static uint32_t cmd_flags(uint8_t resp_type)
{
	switch (resp_type) {
	case SD_RESP_NONE: return SDH_CMD_NO_RSP;
	case SD_RESP_R1B:  return SDH_CMD_BUSYWAIT;
	case SD_RESP_R2:   return SDH_CMD_LONG_RSP;
	default:           return 0;
	}
}

/* The R1b busy after a command: BUSY_IRPT or an error. */
static int wait_busy(const struct bcm2835_sdhost_priv *p, struct sd_request *req,
		     uint32_t timeout_us, const char *phase)
{
	uint32_t s = wait_hsts(p, SDH_HSTS_BUSY_IRPT, timeout_us);

	if (!s || (s & SDH_HSTS_ERRS)) {
		recover(p, false);
		return sd_req_fail(req, s ? hsts_to_err(s) : -ETIMEDOUT, s, phase, 0);
	}
	wr(p, SDH_HSTS, SDH_HSTS_BUSY_IRPT);
	return 0;
}

/* SDEDM says the FIFO is full (fill >= 16: bit 4 of the 5-bit fill) or
 * empty (no fill bit), as immediates for pio_port.h's burst movers, which
 * address SDEDM from the port. */
#define SDH_EDM_FIFO_FULL  (SDH_FIFO_WORDS << SDH_EDM_FIFO_SHIFT)
#define SDH_EDM_FIFO_ANY   (SDH_EDM_FIFO_MASK << SDH_EDM_FIFO_SHIFT)
#define SDH_EDM_FROM_DATA  ((int32_t)SDH_EDM - (int32_t)SDH_DATA)

/*
 * The PIO loop of one block: move 'words' words between the FIFO and the
 * buffer, as many at a time as the FIFO holds (reads) or has room for
 * (writes), in bursts of at least SDH_BURST_WORDS unless fewer remain. The
 * deadline is only made when the FIFO is not ready. While the FIFO is full
 * (reads) or empty (writes), whole FIFOs move through pio_port.h's burst
 * mover: one SDEDM read, a test and the 16 words per burst, nothing else
 * (a block is 8 bursts; the general loop's bookkeeping around each burst
 * was most of SDHOST's PIO cost, qemu/profile_qemu.py --host sdhost). As
 * the Linux driver (bcm2835_transfer_block_pio), the fill is read once per
 * burst and then that many words move, with no status look per word.
 *
 * *t_first: the time the block's first data was ready. With 'stamped' the
 * caller has put in it a stamp taken a few instructions before (the
 * previous block's end), which serves when the FIFO is ready at the first
 * look; after a wait it is stamped here. NULL: the block's first data has
 * already moved (the rest of a block).
 *
 * pio->waited: the ticks the CPU spent waiting for the FIFO inside the block
 * (after its first data; words still on the bus, or the card not ready):
 * the FIFO holds 16 words, so a block is not in it when the CPU starts,
 * and the time between the block's first data and its last word is the
 * CPU's work only without these waits (one timer read at each end of a
 * wait, none when the FIFO is ready). *t_all (NULL: not wanted): a read:
 * when the remaining words were first all in the FIFO (the bus is done
 * with the block; what follows is the CPU's alone); a write: when the
 * first burst is in the FIFO (the bus can start). look[0] (look NULL:
 * not wanted): the fill at the first look that moved data, and when it
 * was if the CPU had waited for it (else 0: the caller's stamp serves);
 * look[1], a read's: when the rest of the block first fitted in the FIFO
 * (at most 16 words left) and how many of those words the bus had still
 * to bring (unless the caller has set it).
 * Returns 0, or -1 with pio->hsts the error status (0 = timeout).
 */
struct sdh_look {
	uint32_t t, fill;
};

/* n words between the port and a buffer that is not word-aligned, byte
 * by byte. Returns the buffer after them. */
static uint8_t *move_bytes(uintptr_t port, uint8_t *buf, uint32_t n, bool is_read)
{
	for (; n; n--, buf += 4) {
		if (is_read) {
			uint32_t v = mmio_read32(port);

			buf[0] = (uint8_t)v;
			buf[1] = (uint8_t)(v >> 8);
			buf[2] = (uint8_t)(v >> 16);
			buf[3] = (uint8_t)(v >> 24);
		} else {
			mmio_write32(port, (uint32_t)buf[0] | (uint32_t)buf[1] << 8 |
				     (uint32_t)buf[2] << 16 | (uint32_t)buf[3] << 24);
		}
	}
	return buf;
}

/* A request's PIO moves: what is the same for each of its blocks. */
struct sdh_pio {
	bool is_read;
	uint32_t timeout_us;   /* one wait's bound */
	uint32_t hsts;         /* out: the error status of a failed move (0: timeout) */
	uint64_t waited;       /* out: the waits inside blocks, added up */
};

/* One pio_block call's progress. */
struct pio_blk {
	uint8_t *buf;          /* a buffer that is not word-aligned, by bytes */
	uint32_t *w32;         /* an aligned one, by words */
	uint32_t words;        /* still to move */
	bool aligned, stamped;
	uint32_t *t_first, *t_all;
	struct sdh_look *look;
	/* the wait in progress (armed), its start and deadline */
	bool armed, first, inside;
	uint32_t w0;
	timer_deadline_t d;
};

/* A read's stamps at a look that saw fill words: *t_all when the rest of
 * the block is all in the FIFO, look[1] when it first fits there. */
static void pio_read_looks(struct pio_blk *b, uint32_t fill)
{
	if (b->t_all && !*b->t_all && fill >= b->words)
		*b->t_all = timer_ticks();
	if (b->look && !b->look[1].t && b->words <= SDH_FIFO_WORDS) {
		b->look[1].t = b->t_all && *b->t_all ? *b->t_all : timer_ticks();
		b->look[1].fill = b->words > fill ? b->words - fill : 0;
	}
}

/* The FIFO cannot serve the next burst yet: the wait armed, or its
 * bound checked. Returns 0 (waiting on) or -1 with pio->hsts set. */
static int pio_wait(const struct bcm2835_sdhost_priv *p, struct sdh_pio *pio,
		    struct pio_blk *b)
{
	uint32_t s = rd(p, SDH_HSTS);

	if (s & SDH_HSTS_ERRS) {
		pio->hsts = s;
		return -1;
	}
	if (!b->armed) {
		if (b->inside)
			b->w0 = timer_ticks();
		b->d = timer_deadline_us(pio->timeout_us);
		b->armed = true;
	} else if (timer_expired(b->d)) {
		pio->hsts = rd(p, SDH_HSTS) & SDH_HSTS_ERRS;
		return -1;
	}
	return 0;
}

/* The data is there (fill words in the FIFO): a wait's end added up, the
 * block's first data and first look stamped. */
static void pio_data_there(struct sdh_pio *pio, struct pio_blk *b, uint32_t fill)
{
	if (b->armed) {
		uint32_t now = timer_ticks();

		if (b->inside)
			pio->waited += now - b->w0;
		if (b->first && b->t_first)
			*b->t_first = now;
		if (b->first && b->look)
			b->look->t = now;
	} else if (b->first && b->t_first && !b->stamped) {
		*b->t_first = timer_ticks();
	}
	if (b->first && b->look)
		b->look->fill = fill;
	b->armed = false;
	b->first = false;
	b->inside = true;
}

/* Up to n words the FIFO holds (read) or has room for (write) moved:
 * whole FIFOs by the burst mover where it can, else word by word. */
static void pio_move(uintptr_t port, bool is_read, struct pio_blk *b, uint32_t n)
{
	uint32_t cap = b->words;

	/* a read that wants t_all stops at the block's last 16 words
	 * and looks: the moment they were all in is the seam's start */
	if (is_read && b->t_all && !*b->t_all && b->words > SDH_FIFO_WORDS)
		cap = b->words - SDH_FIFO_WORDS;
	if (b->aligned && n >= SDH_FIFO_WORDS && cap >= SDH_FIFO_WORDS) {
		/* a write that wants its first burst's time moves one */
		const bool one = !is_read && b->t_all && !*b->t_all;
		uint32_t k = one ? 1 : cap / SDH_FIFO_WORDS, left = k;

		if (is_read)
			b->w32 = pio_port_read_fifos16(port, SDH_EDM_FROM_DATA,
						       SDH_EDM_FIFO_FULL, b->w32, &left);
		else
			b->w32 = (uint32_t *)(uintptr_t)pio_port_write_fifos16(
				port, SDH_EDM_FROM_DATA, SDH_EDM_FIFO_ANY, b->w32, &left);
		b->words -= (k - left) * SDH_FIFO_WORDS;
		if (one && left == 0)
			*b->t_all = timer_ticks(); /* the first burst is in: the bus can start */
		return;
	}
	if (n > cap)
		n = cap;
	b->words -= n;
	if (!b->aligned)
		b->buf = move_bytes(port, b->buf, n, is_read);
	else if (is_read)
		b->w32 = pio_port_read_words(port, b->w32, n);
	else
		b->w32 = (uint32_t *)(uintptr_t)pio_port_write_words(port, b->w32, n);
	if (!is_read && b->t_all && !*b->t_all)
		*b->t_all = timer_ticks(); /* the first burst is in: the bus can start */
}

static int pio_block(const struct bcm2835_sdhost_priv *p, struct sdh_pio *pio, uint8_t *buf,
		     uint32_t words, uint32_t *t_first, bool stamped, uint32_t *t_all,
		     struct sdh_look *look)
{
	/* a wait at the first look is inside the block when its first data
	 * has already moved (t_first NULL) */
	struct pio_blk b = {
		.buf = buf, .w32 = (uint32_t *)(void *)buf, .words = words,
		.aligned = ((uintptr_t)buf & 3) == 0, .stamped = stamped,
		.t_first = t_first, .t_all = t_all, .look = look,
		.first = true, .inside = t_first == NULL,
	};

	while (b.words) {
		uint32_t need = b.words < SDH_BURST_WORDS ? b.words : SDH_BURST_WORDS;
		uint32_t fill = fifo_fill(rd(p, SDH_EDM));
		uint32_t n = pio->is_read ? fill : (fill < SDH_FIFO_WORDS ?
						    SDH_FIFO_WORDS - fill : 0);

		if (pio->is_read)
			pio_read_looks(&b, fill);
		if (n < need) {
			if (pio_wait(p, pio, &b))
				return -1;
			continue;
		}
		pio_data_there(pio, &b, fill);
		pio_move(p->base + SDH_DATA, pio->is_read, &b, n);
	}
	return 0;
}

/* The controller's side of the shared DMA data phase (dma_phase.h). */
static uint32_t sdh_dma_host_errors(void *ctx)
{
	const struct bcm2835_sdhost_priv *p = ctx;
	uint32_t hsts = rd(p, SDH_HSTS);

	return hsts & SDH_HSTS_ERRS ? hsts : 0;
}

/* The engine started on all but a read's last SDH_DMA_DRAIN_WORDS words
 * (the CPU reads those from the FIFO); -EAGAIN for a buffer the engine
 * cannot take or a read no longer than those words. */
static int sdh_dma_start(void *ctx, const struct sd_request *req)
{
	const struct bcm2835_sdhost_priv *p = ctx;
	const struct sd_data *data = req->data;
	struct dma_chan *c = p->dma;
	const bool is_read = data->dir == SD_DATA_READ;
	const uint32_t len = data->blksz * data->blocks;
	const uint32_t drain = is_read ? SDH_DMA_DRAIN_WORDS : 0;

	if (len <= drain * 4 || !dma_buffer_ok(data->buf, len))
		return -EAGAIN;
	return dma_start_part(c, is_read ? DMA_TO_MEM : DMA_FROM_MEM, c->periph_dreq,
			      dma_periph_bus_addr(c, p->base + SDH_DATA), data->buf, len,
			      len - drain * 4);
}

static int sdh_dma_wait(void *ctx, struct dma_watch *w)
{
	const struct bcm2835_sdhost_priv *p = ctx;

	return dma_wait_progress(p->dma, w);
}

static const char *sdh_dma_error(void *ctx)
{
	const struct bcm2835_sdhost_priv *p = ctx;

	return dma_error(p->dma);
}

static uint32_t sdh_dma_status(void *ctx)
{
	return rd(ctx, SDH_HSTS);
}

static void sdh_dma_recover(void *ctx, bool is_read)
{
	recover(ctx, is_read);
}

/*
 * The data phase through the DMA engine. The CPU starts the engine (cache
 * maintenance and control blocks: its part of the work), then watches the
 * engine and SDHSTS (dma_phase_run, shared with the EMMC's DMA path), and
 * reads a read's last words from the FIFO itself. The wait is bounded by
 * the per-block timeout since the engine last moved data, as the PIO path
 * bounds each FIFO burst. Returns 0 (data moved), 1 (this buffer goes by
 * PIO) or the error code with req->err filled in.
 */
static int sdh_dma_xfer(struct bcm2835_sdhost_priv *p, struct sd_request *req,
			uint32_t blk_to)
{
	const struct dma_phase ph = {
		.start = sdh_dma_start, .wait = sdh_dma_wait, .engine_error = sdh_dma_error,
		.status = sdh_dma_status, .status_err = hsts_to_err,
		.recover = sdh_dma_recover, .ctx = p,
	};
	struct sd_data *data = req->data;
	struct sd_req_times *t = &req->t;
	const bool is_read = data->dir == SD_DATA_READ;
	const uint32_t len = data->blksz * data->blocks;
	const uint32_t drain = is_read ? SDH_DMA_DRAIN_WORDS : 0;
	struct dma_watch w = { .block_us = blk_to, .host_errors = sdh_dma_host_errors,
			       .ctx = p };
	struct sdh_pio pio = { .is_read = true, .timeout_us = blk_to };
	uint32_t t1, first = 0;
	int r = dma_phase_run(&ph, req, &w);

	if (r) {
		if (r == 1)
			p->dma_pio++;
		return r;
	}
	/* A read's data phase ends when the poll that saw the engine's end
	 * began: what follows is the CPU's alone (the buffer's invalidation,
	 * the last words from the FIFO), serial after the bus, as after a
	 * PIO read's last word (the split books it as host). */
	if (is_read)
		t->t_data_done = w.t_poll;
	/* The engine has ended and the buffer is invalidated: the CPU's
	 * stores of the last words land in lines it owns. */
	if (drain && pio_block(p, &pio, (uint8_t *)data->buf + len - drain * 4, drain,
			       &first, false, NULL, NULL)) {
		recover(p, is_read);
		return sd_req_fail(req, pio.hsts ? hsts_to_err(pio.hsts) : -ETIMEDOUT, pio.hsts,
				   "read data (DMA, last words)", data->blocks - 1);
	}
	if (!is_read) {
		t1 = timer_ticks();
		t->host_ticks += t1 - w.t_poll;
		t->t_data_done = t1;
	}
	return 0;
}

/* The streamed part of one block: whole FIFOs moved straight away
 * (pio_port.h's burst mover: SDEDM read once per 16 words); want: the
 * block whose serial part is stamped (*t_all). Returns the bytes moved;
 * pio_block moves the rest, waiting. */
static uint32_t stream_block(struct bcm2835_sdhost_priv *p, uint8_t *buf, uint32_t bursts,
			     bool is_read, bool want, uint32_t *t_all)
{
	const uintptr_t port = p->base + SDH_DATA;
	uint32_t done;
	uint32_t *w = (uint32_t *)(void *)buf;
	uint32_t n = bursts, left;

	/* want_blk's serial part is stamped between bursts:
	 * before a read's last (its 16 words all in the FIFO),
	 * after a write's first (the bus can start; the write's
	 * other bursts go through pio_block, which looks at
	 * SDHSTS when the FIFO is not empty) */
	if (want)
		n = is_read ? bursts - 1 : 1;
	left = n;
	if (n)
		w = is_read ? pio_port_read_fifos16(port, SDH_EDM_FROM_DATA,
						    SDH_EDM_FIFO_FULL, w, &left)
			    : (uint32_t *)(uintptr_t)pio_port_write_fifos16(
				      port, SDH_EDM_FROM_DATA, SDH_EDM_FIFO_ANY, w,
				      &left);
	done = (n - left) * (SDH_FIFO_WORDS * 4);
	if (want && !left) {
		if (!is_read)
			*t_all = timer_ticks(); /* the rest by pio_block */
		else if (rd(p, SDH_EDM) & SDH_EDM_FIFO_FULL) {
			*t_all = timer_ticks();
			left = 1;
			(void)pio_port_read_fifos16(port, SDH_EDM_FROM_DATA,
						    SDH_EDM_FIFO_FULL, w, &left);
			done += (1 - left) * (SDH_FIFO_WORDS * 4);
		}
	}
	return done;
}

/* The end of a data phase: the last block's CRC (read) or CRC status and
 * busy (write), then the CMD12 this controller sends for SD_STOP_AUTO12.
 * blk: the blocks moved, for an error. */
static int xfer_end(struct bcm2835_sdhost_priv *p, struct sd_request *req, uint32_t blk,
		    uint32_t busy_to)
{
	struct sd_req_times *t = &req->t;
	const bool is_read = req->data->dir == SD_DATA_READ;
	uint32_t edm, hsts;
	bool idle;
	int r;

	/* The last block's CRC (read) or CRC status and busy (write). A
	 * state machine that is idle at the first look, a few instructions
	 * after the data's end stamp: that stamp serves as the request's end
	 * (as a block ready at the first look starts at the previous one's
	 * end; one timestamp fewer per request), unless a CMD12 follows. */
	edm = rd(p, SDH_EDM);
	idle = fsm_idle(edm);
	r = idle ? 0 : wait_idle(p, is_read ? SDH_IDLE_TIMEOUT_US : busy_to, &edm);
	hsts = rd(p, SDH_HSTS);
	if (r || (hsts & SDH_HSTS_ERRS)) {
		t->t_end = timer_ticks();
		recover(p, is_read);
		return sd_req_fail(req, r ? r : hsts_to_err(hsts), r ? edm : hsts,
				   is_read ? "read end" : "write busy", blk);
	}
	if (req->data->stop == SD_STOP_AUTO12) {
		/* CMD12 (STOP_TRANSMISSION), R1b: this controller's
		 * "auto" stop. */
		wr(p, SDH_HSTS, SDH_HSTS_CLEAR);
		r = issue(p, 12u | SDH_CMD_BUSYWAIT, 0, SD_RESP_R1B, &hsts);
		if (r) {
			t->t_end = timer_ticks();
			recover(p, false);
			return sd_req_fail(req, -EIO, hsts, "auto command", blk);
		}
		req->cmd.auto_resp = rd(p, SDH_RSP0);
		r = wait_busy(p, req, busy_to, "auto command busy");
		t->t_end = timer_ticks();
		return r;
	}
	t->t_end = idle ? t->t_data_done : timer_ticks();
	return 0;
}

/*
 * The seams of a PIO transfer on the streaming path (sd_host.h seam_*,
 * docs/attribution.md "A FIFO smaller than a block"): the FIFO holds 16
 * words, so while the CPU moves one block's last words the bus is already
 * in the seam to the next (the CRC, the card's gap or busy, the next start
 * bit), and the CPU's own stamps cannot say who the bus waited for. Two
 * looks at the FIFO can: between them the bus moved a known number of
 * words, and the rest of the time it waited. Read: from the look that saw
 * the block's last words all in the FIFO (t_all) to the next block's
 * first look (its fill: the words of that block already in). Write: from
 * the CPU's end of a block (the fill: the words the bus had still to
 * send) to the first look after the next block's first burst (the words
 * of it still in the FIFO). A full FIFO at the second look (read) or an
 * empty one (write) means the bus may also have waited for the CPU:
 * counted apart.
 */
struct sdh_seam {
	uint32_t start_fill;      /* the look at the block's start */
	struct sdh_look tail;     /* read: the previous block's rest first in the
				     FIFO's reach, and its words still to come */
};

static void seam_add(struct sd_req_times *t, bool is_read, const struct sdh_seam *sm,
		     uint32_t t0, uint32_t t_all, uint32_t done, const struct sdh_look *lk)
{
	uint32_t from, to, words;
	bool full;

	if (is_read) {
		if (!sm->tail.t)
			return;
		from = sm->tail.t;
		to = sm->start_fill >= SDH_BURST_WORDS || !lk->t ? t0 : lk->t;
		words = sm->start_fill >= SDH_BURST_WORDS ? sm->start_fill : lk->fill;
		full = words >= SDH_FIFO_WORDS - 1;
		words += sm->tail.fill;
	} else {
		/* the first burst went in at the block's start, and the bus
		 * has taken words of it by the look */
		if (!done || sm->start_fill + done / 4 <= lk->fill)
			return;
		from = t0;
		to = lk->t ? lk->t : t_all;
		words = sm->start_fill + done / 4 - lk->fill;
		full = lk->fill == 0;
	}
	if (full) {
		t->seam_full_ticks += to - from;
		t->seam_full_words += words;
		t->seams_full++;
	} else {
		t->seam_ticks += to - from;
		t->seam_words += words;
		t->seams++;
	}
}

/* The first block on the streaming path: stamped (*t1) when its FIFO is
 * ready at the first look, and then it streams at once (true); else
 * pio_block waits and stamps. The fill seen is a read's first words
 * (sd_host.h fifo_words). */
static bool first_look(const struct bcm2835_sdhost_priv *p, struct sd_req_times *t,
		       bool is_read, uint32_t *t1)
{
	uint32_t e0 = rd(p, SDH_EDM);
	bool ready = is_read ? (e0 & SDH_EDM_FIFO_FULL) != 0 : !(e0 & SDH_EDM_FIFO_ANY);

	if (ready)
		*t1 = timer_ticks();
	t->fifo_counted = 1;
	t->fifo_words = fifo_fill(e0);
	return ready;
}

/* A PIO request's progress across its blocks (sdh_pio_xfer). */
struct pio_req {
	struct sdh_pio pio;
	/* Whole FIFOs per block, for the streaming path (0: not that path) */
	uint32_t bursts;
	/* The serial part of the CPU's work (host_serial_ticks) is measured
	 * on one block: a read's last, from the moment its words were all in
	 * the FIFO; a write's first burst. Streaming, every block's t_all is
	 * stamped: the seams need it. */
	uint32_t want_blk;
	uint32_t go;           /* stream at once: the FIFO was ready */
	uint32_t t1;           /* the previous block's end */
	uint32_t t_all, first_fill;
	/* sums of tick differences over the request: 64-bit (sd_host.h,
	 * struct sd_req_times; one request may outlast the tick wrap) */
	uint64_t host;
	struct sdh_seam sm;
	struct sdh_look end[2];
};

/* One block of a PIO request. A block whose FIFO is ready at the first
 * look, a few instructions after the previous block was moved, starts at
 * that block's end stamp t1 (one timestamp per streamed block instead of
 * two, as the SDHCI driver does); the first block, and any block after a
 * wait, is stamped when its data is there. Streaming, a block is whole
 * FIFOs moved straight away (pio_port.h's burst mover: SDEDM read once
 * per 16 words); whatever is left when the FIFO is not full (reads) or
 * empty (writes) goes through pio_block, which waits. Returns 0 or -1
 * (rq->pio.hsts: the error status, 0 = timeout). */
static int pio_req_block(struct bcm2835_sdhost_priv *p, struct sd_request *req,
			 struct pio_req *rq, uint32_t blk, uint8_t *buf)
{
	struct sd_data *data = req->data;
	struct sd_req_times *t = &req->t;
	const bool is_read = rq->pio.is_read;
	const bool want = rq->bursts || blk == rq->want_blk;
	struct sdh_look lk[2] = { { 0, SDH_FIFO_WORDS }, { 0, 0 } };
	/* a write's last word alone, after a look at the FIFO: the
	 * words the bus had still to send when the CPU was done */
	const uint32_t last_w = rq->bursts && !is_read && blk + 1 == data->blocks;
	uint32_t done = 0, t0 = rq->t1;

	if (rq->bursts && blk)
		rq->sm.start_fill = fifo_fill(rd(p, SDH_EDM));
	rq->t_all = 0;
	if (rq->go)
		done = stream_block(p, buf, rq->bursts, is_read, want, &rq->t_all);
	if (is_read && rq->t_all)
		lk[1].t = rq->t_all; /* the last burst whole in the FIFO */
	if (done < data->blksz &&
	    (pio_block(p, &rq->pio, buf + done, (data->blksz - done) / 4 - last_w,
		       done ? NULL : &t0, blk != 0, want ? &rq->t_all : NULL, lk) ||
	     (last_w && pio_block(p, &rq->pio, buf + data->blksz - 4, 1, NULL, true,
				  NULL, rq->end))))
		return -1;
	if (blk == 0) {
		t->t_first_data = t0;
		if (!is_read && rq->t_all)
			rq->first_fill = rq->t_all - t0;
		if (is_read && !rq->go)
			t->fifo_words = lk[0].fill;
	} else if (rq->bursts) {
		seam_add(t, is_read, &rq->sm, t0, rq->t_all, done, &lk[0]);
	}
	rq->sm.tail = lk[1];
	if (t->blk_ready)
		t->blk_ready[blk] = t0;
	rq->t1 = timer_ticks();
	rq->host += rq->t1 - t0;
	if (t->blk_done)
		t->blk_done[blk] = rq->t1;
	rq->go = rq->bursts;
	return 0;
}

/* The request's stamps after its last block. */
static void pio_req_end(struct sd_req_times *t, const struct pio_req *rq)
{
	const bool is_read = rq->pio.is_read;

	t->t_data_done = rq->t1;
	/* a write's last words still to go out on the bus: what the FIFO
	 * held before its last word, and that word (after the last word the
	 * fill says nothing: the controller takes no more) */
	if (rq->bursts && !is_read)
		t->fifo_words = rq->end[0].fill + 1;
	/* the CPU's work on the blocks: its waits for the FIFO inside them
	 * (pio_block adds them up) left out */
	t->host_ticks = rq->host - rq->pio.waited;
	/* The serial part (the FIFO holds 16 words, so the CPU's work on a
	 * block overlaps its frame): a read's last block's drain after the
	 * bus, a write's first burst before the bus can start. */
	if (is_read && rq->t_all)
		t->host_serial_ticks = rq->t1 - rq->t_all;
	else if (!is_read && rq->first_fill)
		t->host_serial_ticks = rq->first_fill;
}

/* The data phase by PIO. Returns 0 or the error code with req->err filled
 * in. */
static int sdh_pio_xfer(struct bcm2835_sdhost_priv *p, struct sd_request *req, uint32_t blk_to)
{
	struct sd_data *data = req->data;
	const bool is_read = data->dir == SD_DATA_READ;
	uint8_t *buf = data->buf;
	struct pio_req rq = {
		.pio = { .is_read = is_read, .timeout_us = blk_to },
		.bursts = ((uintptr_t)buf & 3) == 0 &&
			(data->blksz % (SDH_FIFO_WORDS * 4)) == 0 ?
			data->blksz / (SDH_FIFO_WORDS * 4) : 0,
		.want_blk = is_read ? data->blocks - 1 : 0,
	};
	uint32_t blk;

	if (rq.bursts && first_look(p, &req->t, is_read, &rq.t1))
		rq.go = rq.bursts;
	for (blk = 0; blk < data->blocks; blk++, buf += data->blksz) {
		if (pio_req_block(p, req, &rq, blk, buf)) {
			recover(p, is_read);
			return sd_req_fail(req, rq.pio.hsts ? hsts_to_err(rq.pio.hsts) : -ETIMEDOUT,
					   rq.pio.hsts, is_read ? "read data" : "write data", blk);
		}
	}
	pio_req_end(&req->t, &rq);
	/* The seams and the FIFO's first / last words all come from the
	 * fill: not confirmed live, the request's blocks are undecided and
	 * its workload gets no diagnosis (bench/engine/validity.c). */
	if (rq.bursts && p->fill_unsure) {
		req->t.undecided_blocks = data->blocks;
		req->t.undecided_looks |= SD_UNDECIDED_FILL;
	}
	return 0;
}

/* The data phase of a request, after the command's response. */
static int sdh_xfer(struct sd_host *h, struct bcm2835_sdhost_priv *p, struct sd_request *req)
{
	struct sd_data *data = req->data;
	const bool is_read = data->dir == SD_DATA_READ;
	const uint32_t busy_to = req->cmd.busy_timeout_us ?
		req->cmd.busy_timeout_us : SDH_BUSY_TIMEOUT_US;
	const uint32_t blk_to = is_read ? SDH_READ_TIMEOUT_US : busy_to;
	int r;

	if (p->dma_on) {
		/* A small request moves by PIO (h->dma_pio_blocks, the Linux
		 * driver's PIO_THRESHOLD). */
		r = data->blocks > h->dma_pio_blocks ? sdh_dma_xfer(p, req, blk_to) : 1;
		if (r < 0)
			return r;
		if (!r)
			return xfer_end(p, req, data->blocks, busy_to);
		h->dma_pio_reqs++;
	}
	r = sdh_pio_xfer(p, req, blk_to);
	return r ? r : xfer_end(p, req, data->blocks, busy_to);
}

static int sdh_request(struct sd_host *h, struct sd_request *req)
{
	struct bcm2835_sdhost_priv *p = h->priv;
	struct sd_cmd *cmd = &req->cmd;
	struct sd_data *data = req->data;
	uint32_t sdcmd = cmd->index & SDH_CMD_INDEX_MASK;
	uint32_t c, hsts = 0;
	int r;

	/* The rest of err, the stamps and the responses: cleared by the
	 * card layer (req_init, sd_host.h). */
	req->err.cmd = cmd->index;
	req->err.arg = cmd->arg;

	if (cmd->resp_type > SD_RESP_R3)
		return sd_req_fail(req, -EINVAL, 0, "setup", 0);
	sdcmd |= cmd_flags(cmd->resp_type);
	if (data) {
		if (!data->buf || data->blocks == 0 || data->blocks > 0xFFFFu ||
		    data->blksz == 0 || (data->blksz & 3) ||
		    data->blksz > SDH_MAX_BLOCK || cmd->resp_type == SD_RESP_R1B)
			return sd_req_fail(req, -EINVAL, 0, "setup", 0);
		if (data->stop == SD_STOP_AUTO23)
			return sd_req_fail(req, -ENOTSUP, 0, "setup", 0);
		sdcmd |= data->dir == SD_DATA_READ ? SDH_CMD_READ : SDH_CMD_WRITE;
	}

	/* The previous command must have ended. */
	c = wait_cmd(p, SDH_CMD_TIMEOUT_US);
	if (c & SDH_CMD_NEW) {
		uint32_t s = rd(p, SDH_HSTS);

		recover(p, false);
		return sd_req_fail(req, -EBUSY, s, "previous command", 0);
	}
	wr(p, SDH_HSTS, SDH_HSTS_CLEAR);
	if (data) {
		wr(p, SDH_HBCT, data->blksz);
		wr(p, SDH_HBLC, data->blocks);
	}
	req->t.t_issue = timer_ticks();
	r = issue(p, sdcmd, cmd->arg, cmd->resp_type, &hsts);
	req->t.t_cmd_done = timer_ticks();
	if (r) {
		recover(p, data && data->dir == SD_DATA_READ);
		return sd_req_fail(req, r, hsts, "command", 0);
	}
	if (cmd->resp_type == SD_RESP_R2) {
		/* All 128 bits, CRC byte included: RSP3 holds 127:96. */
		cmd->resp[0] = rd(p, SDH_RSP3);
		cmd->resp[1] = rd(p, SDH_RSP2);
		cmd->resp[2] = rd(p, SDH_RSP1);
		cmd->resp[3] = rd(p, SDH_RSP0);
	} else if (cmd->resp_type != SD_RESP_NONE) {
		cmd->resp[0] = rd(p, SDH_RSP0);
	}
	if (data)
		return sdh_xfer(h, p, req);
	if (cmd->resp_type == SD_RESP_R1B) {
		r = wait_busy(p, req, cmd->busy_timeout_us ? cmd->busy_timeout_us :
			      SDH_BUSY_TIMEOUT_US, "busy");
		req->t.t_end = timer_ticks();
		return r;
	}
	req->t.t_end = req->t.t_cmd_done;
	return 0;
}

uint32_t bcm2835_sdhost_clock_for(uint32_t core_clock_hz, uint32_t hz,
				  uint32_t *cdiv)
{
	uint32_t div;

	if (!core_clock_hz || !hz) {
		*cdiv = SDH_CDIV_MAX;
		return 0;
	}
	/* The smallest divisor (CDIV + 2 >= 2) that does not exceed hz. */
	div = (core_clock_hz + hz - 1) / hz;
	if (div < 2)
		div = 2;
	if (div - 2 > SDH_CDIV_MAX)
		div = SDH_CDIV_MAX + 2;
	*cdiv = div - 2;
	return core_clock_hz / div;
}

static int sdh_set_ios(struct sd_host *h, const struct sd_ios *ios)
{
	struct bcm2835_sdhost_priv *p = h->priv;
	uint32_t hcfg = p->hcfg & ~SDH_HCFG_WIDE_EXT_BUS, cdiv, actual;

	if (ios->width != 1 && ios->width != 4)
		return -EINVAL;
	if (ios->clock_hz > h->f_max_hz)
		return -EINVAL;
	if (ios->width == 4)
		hcfg |= SDH_HCFG_WIDE_EXT_BUS;
	if (hcfg != p->hcfg) {
		wr(p, SDH_HCFG, hcfg);
		p->hcfg = hcfg;
	}
	h->width = ios->width;
	/* High speed is only the clock here (no timing register). */
	h->timing = ios->timing;
	if (ios->clock_hz == p->req_hz && h->actual_clock_hz)
		return 0;
	actual = bcm2835_sdhost_clock_for(h->base_clock_hz, ios->clock_hz, &cdiv);
	wr(p, SDH_CDIV, cdiv);
	p->cdiv = cdiv;
	/* The data timeout in SD clocks: half a second. */
	wr(p, SDH_TOUT, actual ? actual / 2 : 0xF00000u);
	h->actual_clock_hz = actual;
	p->req_hz = ios->clock_hz;
	return 0;
}

static int sdh_reset(struct sd_host *h)
{
	struct bcm2835_sdhost_priv *p = h->priv;
	struct sd_ios ios = { SDH_ID_CLOCK_HZ, 1, SD_TIMING_DS };
	uint32_t edm;

	/* Card power off, every register to a known value. */
	wr(p, SDH_VDD, 0);
	wr(p, SDH_CMD, 0);
	wr(p, SDH_ARG, 0);
	wr(p, SDH_TOUT, 0xF00000u);
	wr(p, SDH_CDIV, 0);
	wr(p, SDH_HSTS, SDH_HSTS_CLEAR);
	wr(p, SDH_HCFG, 0);
	wr(p, SDH_HBCT, 0);
	wr(p, SDH_HBLC, 0);
	/* FIFO thresholds of 4 words (the erratum the Linux driver avoids
	 * with the same setting). */
	edm = rd(p, SDH_EDM);
	edm &= ~((SDH_EDM_THR_MASK << SDH_EDM_RD_THR_SHIFT) |
		 (SDH_EDM_THR_MASK << SDH_EDM_WR_THR_SHIFT));
	edm |= SDH_FIFO_THRESHOLD << SDH_EDM_RD_THR_SHIFT |
	       SDH_FIFO_THRESHOLD << SDH_EDM_WR_THR_SHIFT;
	wr(p, SDH_EDM, edm);
	timer_udelay(SDH_POWER_US);
	wr(p, SDH_VDD, 1);
	timer_udelay(SDH_POWER_US);
	/* Busy end reported in SDHSTS (polled: the interrupt line to the ARM
	 * is not enabled); the internal bus wide; no clock switching tricks
	 * (SLOW_CARD, as Linux runs it). */
	p->hcfg = SDH_HCFG_BUSY_IRPT_EN | SDH_HCFG_WIDE_INT_BUS | SDH_HCFG_SLOW_CARD;
	wr(p, SDH_HCFG, p->hcfg);
	p->cdiv = SDH_CDIV_MAX;
	wr(p, SDH_CDIV, p->cdiv);
	h->actual_clock_hz = 0;
	p->req_hz = 0;
	if (sdh_set_ios(h, &ios))
		return -EIO;
	timer_udelay(SDH_SETTLE_US);
	return 0;
}

static int sdh_no_pin(struct sd_host *h)
{
	(void)h;
	return -ENOTSUP;
}

static int sdh_set_data_path(struct sd_host *h, unsigned path)
{
	struct bcm2835_sdhost_priv *p = h->priv;

	if (path > SD_PATH_DMA || !(h->data_paths & (1u << path)))
		return -ENOTSUP;
	p->dma_on = path == SD_PATH_DMA;
	h->data_path = (uint8_t)path;
	return 0;
}

/*
 * [silicon:sdhost-edm-fifo] [silicon:sdhost-edm-fsm] The fill probe
 * (sd_host_ops.characterise): one read of CMD6's 64-byte status block in
 * check mode with no function changed (SD Physical Layer §4.3.10: the
 * card's state unchanged; a register, not the memory array), 16 words =
 * one FIFO, at a clock where one frame is about 2 ms, with SDEDM read in
 * a tight loop and nothing drained until the block is all in. Each change
 * of SDEDM's state or fill is kept with the time it was first seen and
 * the time of the look before. A live fill rises one word at a time, the
 * first a word's time (1 + 32/width clocks) after the start bit, which
 * SDEDM's state shows as READDATA (the first look at READDATA, or at a
 * word, is the reference). Bounded by the read timeout.
 */
#define SDH_PROBE_FRAME_US 2000u
#define SDH_PROBE_WORDS 16u
#define SDH_PROBE_SAMPLES 40u
#define SDH_PROBE_SLACK_CLOCKS 8u  /* a few clocks of synchroniser: still live */
#define SDH_CMD6_CHECK 0x00FFFFFFu

struct fill_look {
	uint32_t t_before, t;  /* the look before the change, the change seen */
	uint8_t fsm, fill;
};

struct fill_probe {
	uint32_t t_cmd;
	unsigned n;
	struct fill_look s[SDH_PROBE_SAMPLES];
};

/* SDEDM sampled from the command's write until the block is all in the
 * FIFO, a look at least every 'step_us' (a tight loop does it anyway; the
 * bound keeps the looks' times tight wherever a loop is slowed). 0, or
 * the error with *status the bits. */
static int fill_sample(const struct bcm2835_sdhost_priv *p, struct fill_probe *fp,
		       uint32_t step_us, uint32_t *status)
{
	timer_deadline_t d, look;
	uint32_t last = 0, t_prev, c;

	wr(p, SDH_HSTS, SDH_HSTS_CLEAR);
	wr(p, SDH_HBCT, SDH_PROBE_WORDS * 4u);
	wr(p, SDH_HBLC, 1);
	wr(p, SDH_ARG, SDH_CMD6_CHECK);
	fp->n = 0;
	fp->t_cmd = t_prev = timer_ticks();
	wr(p, SDH_CMD, 6u | SDH_CMD_READ | SDH_CMD_NEW);
	d = timer_deadline_us(SDH_READ_TIMEOUT_US);
	look = timer_deadline_us(step_us);
	for (;;) {
		uint32_t e = rd(p, SDH_EDM), t = timer_ticks();
		uint32_t v = e & (SDH_EDM_FSM_MASK | SDH_EDM_FIFO_MASK << SDH_EDM_FIFO_SHIFT);

		if (v != last && fp->n < SDH_PROBE_SAMPLES)
			fp->s[fp->n++] = (struct fill_look){ t_prev, t, (uint8_t)(e & SDH_EDM_FSM_MASK),
							     (uint8_t)fifo_fill(e) };
		last = v;
		t_prev = t;
		if (fifo_fill(e) >= SDH_PROBE_WORDS)
			break;
		if ((*status & SDH_HSTS_ERRS) || timer_expired(d))
			return (*status & SDH_HSTS_ERRS) ? hsts_to_err(*status) : -ETIMEDOUT;
		if (timer_expired(look))
			look = timer_deadline_us(step_us);
	}
	c = wait_cmd(p, SDH_CMD_TIMEOUT_US);
	*status = rd(p, SDH_HSTS);
	return (c & (SDH_CMD_NEW | SDH_CMD_FAIL)) ? -EIO : 0;
}

static uint32_t ticks_ns(uint32_t a, uint32_t b)
{
	return (uint32_t)timer_ticks_to_ns(b - a);
}

/* What the looks say (enum sd_fill_look). A rise of two words or more
 * between looks less than half a word apart: stepped (farther apart: the
 * looks cannot tell). Every rise one word: the first word's delay from
 * the reference lies between the looks around each; all of that range
 * within the most a live fill takes (its word and a few clocks): live;
 * all of it beyond: lag; else unconfirmed. */
static uint8_t fill_classify(const struct fill_probe *fp, struct sd_silicon *out)
{
	const uint32_t word = out->fill_word_ns;
	uint32_t prev = 0, i, ref = SDH_PROBE_SAMPLES, first = SDH_PROBE_SAMPLES, hi, lo;
	bool sparse = false;

	for (i = 0; i < fp->n; i++) {
		const struct fill_look *l = &fp->s[i];

		if (l->fill > prev + 1u) {
			if (ticks_ns(l->t_before, l->t) < word / 2u) {
				if (l->fill - prev > out->fill_jump)
					out->fill_jump = (uint8_t)(l->fill - prev);
			} else {
				sparse = true;
			}
		}
		if (ref == SDH_PROBE_SAMPLES && (l->fsm == SDH_EDM_FSM_READDATA || l->fill))
			ref = i;
		if (first == SDH_PROBE_SAMPLES && l->fill)
			first = i;
		prev = l->fill;
	}
	if (out->fill_jump >= 2u)
		return SD_FILL_STEPPED;
	if (sparse || first == SDH_PROBE_SAMPLES)
		return SD_FILL_UNCONFIRMED;
	out->fill_delay_ns = ticks_ns(fp->s[ref].t, fp->s[first].t);
	hi = ticks_ns(fp->s[ref].t_before, fp->s[first].t);
	lo = first == ref ? 0 : ticks_ns(fp->s[ref].t, fp->s[first].t_before);
	if (hi <= out->fill_limit_ns)
		return SD_FILL_LIVE;
	return lo > out->fill_limit_ns ? SD_FILL_LAG : SD_FILL_UNCONFIRMED;
}

/* The probe's read: the low clock, the sampling, the block drained, the
 * state machine idle, the clock back. */
static int fill_probe_read(struct sd_host *h, struct fill_probe *fp, struct sd_silicon *out)
{
	struct bcm2835_sdhost_priv *p = h->priv;
	struct sd_ios ios = { 0, h->width, h->timing };
	const uint32_t hz = p->req_hz, w = h->width == 4 ? 4u : 1u;
	uint32_t low = ((8u * SDH_PROBE_WORDS * 4u) / w + 18u) * (1000000u / SDH_PROBE_FRAME_US);
	uint32_t words[SDH_PROBE_WORDS], first = 0, status = 0, edm;
	struct sdh_pio pio = { .is_read = true, .timeout_us = SDH_READ_TIMEOUT_US };
	int r, r2;

	ios.clock_hz = low < h->f_min_hz ? h->f_min_hz : low;
	r = ios.clock_hz < hz ? sdh_set_ios(h, &ios) : 0;
	out->fill_clock_hz = h->actual_clock_hz;
	out->fill_word_ns = (uint32_t)(32ull / w * 1000000000ull / h->actual_clock_hz);
	out->fill_limit_ns = (uint32_t)((1ull + 32u / w + SDH_PROBE_SLACK_CLOCKS) *
					1000000000ull / h->actual_clock_hz);
	if (!r)
		r = fill_sample(p, fp, out->fill_word_ns / 8000u + 1u, &status);
	if (!r && pio_block(p, &pio, (uint8_t *)words, SDH_PROBE_WORDS, &first, false, NULL, NULL))
		r = pio.hsts ? hsts_to_err(pio.hsts) : -ETIMEDOUT;
	if (!r)
		r = wait_idle(p, SDH_IDLE_TIMEOUT_US, &edm);
	if (r)
		recover(p, true);
	wr(p, SDH_HSTS, SDH_HSTS_CLEAR);
	ios.clock_hz = hz;
	r2 = hz != p->req_hz ? sdh_set_ios(h, &ios) : 0;
	return r ? r : r2;
}

static int sdh_characterise(struct sd_host *h, struct sd_silicon *out)
{
	struct bcm2835_sdhost_priv *p = h->priv;
	struct fill_probe fp = { 0 };
	uint32_t t0 = timer_ticks();
	int r;

	*out = (struct sd_silicon){ .fprobed = true };
	if (!h->actual_clock_hz || !p->req_hz)
		return -EINVAL;
	r = fill_probe_read(h, &fp, out);
	out->fill_samples = (uint8_t)fp.n;
	out->fill = r ? SD_FILL_FAILED : fill_classify(&fp, out);
	out->ticks = timer_ticks() - t0;
	h->fill_look = out->fill;
	p->fill_unsure = out->fill != SD_FILL_LIVE;
	return r;
}

static const struct sd_host_ops sdh_ops = {
	.reset = sdh_reset,
	.set_ios = sdh_set_ios,
	.request = sdh_request,
	.card_busy = sdh_no_pin,
	.get_cd = sdh_no_pin,
	.get_ro = sdh_no_pin,
	.set_data_path = sdh_set_data_path,
	.characterise = sdh_characterise,
};

int bcm2835_sdhost_init(struct bcm2835_sdhost *s, uintptr_t base,
			uint32_t core_clock_hz)
{
	struct sd_host *h = &s->host;
	struct bcm2835_sdhost_priv *p = &s->priv;
	uint32_t lo;

	p->base = base;
	p->hcfg = 0;
	p->cdiv = SDH_CDIV_MAX;
	p->req_hz = 0;
	p->dma = NULL;
	p->dma_on = false;
	p->dma_pio = 0;
	p->fill_unsure = false;
	h->fill_look = SD_FILL_UNPROBED;
	h->ops = &sdh_ops;
	h->name = BCM2835_SDHOST_NAME;
	/* No public document describes SDHOST's timing between blocks (the
	 * Linux bcm2835.c driver and QEMU's bcm2835_sdhost.c model none):
	 * its own idle clocks are not known.
	 * [silicon:ctrl-idle-clocks] */
	h->idle_clk_max = SD_IDLE_CLK_UNKNOWN;
	h->base = base;
	h->priv = p;
	/* No version or capabilities register. */
	h->version = 0;
	h->caps = 0;
	if (!core_clock_hz)
		return -ENODEV;
	h->base_clock_hz = core_clock_hz;
	h->f_max_hz = core_clock_hz / 2 < SDH_MAX_HZ ? core_clock_hz / 2 : SDH_MAX_HZ;
	lo = core_clock_hz / (SDH_CDIV_MAX + 2);
	h->f_min_hz = lo < 100000u ? 100000u : lo;
	h->actual_clock_hz = 0;
	h->width = 1;
	h->timing = SD_TIMING_DS;
	h->cap_4bit = true;
	h->cap_hs = true;
	h->cap_auto12 = true; /* sent by this driver, see above */
	h->cap_auto23 = false;
	h->data_paths = 1u << SD_PATH_PIO;
	h->data_path = SD_PATH_PIO;
	h->dma_pio_blocks = 0;
	h->dma_pio_reqs = 0;
	h->auto_path = SD_PATH_PIO; /* the platform's choice (sd_host.h) */
	return 0;
}

void bcm2835_sdhost_attach_dma(struct bcm2835_sdhost *s, struct dma_chan *c, uint8_t dreq)
{
	struct sd_host *h = &s->host;

	if (c)
		c->periph_dreq = dreq;
	s->priv.dma = c && c->channel >= 0 ? c : NULL;
	s->priv.dma_on = false;
	h->data_paths = 1u << SD_PATH_PIO;
	h->dma_pio_blocks = s->priv.dma ? SD_DMA_PIO_BLOCKS : 0;
	h->dma_pio_reqs = 0;
	if (s->priv.dma)
		h->data_paths |= 1u << SD_PATH_DMA;
	h->data_path = SD_PATH_PIO;
}

/*
 * bcm2835_dma.h - the BCM2835/6/7 DMA engine (peripheral base + 0x7000,
 * BCM2835 ARM Peripherals chapter 4) as a polled data mover between memory
 * and a peripheral's data port (the EMMC's on DREQ 11, SDHOST's on
 * DREQ 13). One struct dma_chan per user owns one channel of those the
 * firmware leaves to the ARM; callers pass ARM addresses, the transfer
 * functions do the cache maintenance, every wait is bounded. Addresses,
 * caches and use: docs/drivers.md, "drivers/dma/bcm2835_dma.h".
 */
#ifndef SDB_DRIVERS_DMA_BCM2835_DMA_H
#define SDB_DRIVERS_DMA_BCM2835_DMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BCM2835_DMA_ARM_OFFSET 0x7000u  /* channels 0-14, 0x100 apart */
#define BCM2835_DMA_ENABLE     0xFF0u   /* global enable bits, from the engine base */
#define BCM2835_DMA_CHANNELS   15u      /* channel 15 sits elsewhere: not used */
#define BCM2835_DMA_FIRST_LITE 7u       /* channels 7-14 are DMA Lite */
#define BCM2835_PERIPH_BUS     0x7E000000u

#define DMA_MEM_ALIAS_BCM2835  0x40000000u /* L2 coherent (the firmware's default) */
#define DMA_MEM_ALIAS_BCM2836  0xC0000000u /* BCM2836/7: uncached, L2 off */

/* Peripheral DREQ numbers (PERMAP), BCM2835 ARM Peripherals §4.2.1.3. */
#define DMA_DREQ_NONE   0u
#define DMA_DREQ_EMMC   11u
#define DMA_DREQ_SDHOST 13u

/* Channel registers (offset from the channel's base). */
#define DMA_CS        0x00u
#define DMA_CONBLK_AD 0x04u
#define DMA_TI        0x08u
#define DMA_SOURCE_AD 0x0Cu
#define DMA_DEST_AD   0x10u
#define DMA_TXFR_LEN  0x14u
#define DMA_STRIDE    0x18u
#define DMA_NEXTCONBK 0x1Cu
#define DMA_DEBUG     0x20u

/* CS bits. */
#define DMA_CS_ACTIVE      (1u << 0)
#define DMA_CS_END         (1u << 1)  /* write 1 to clear */
#define DMA_CS_INT         (1u << 2)  /* write 1 to clear */
#define DMA_CS_DREQ        (1u << 3)
#define DMA_CS_PAUSED      (1u << 4)
#define DMA_CS_DREQ_STOPS  (1u << 5)
#define DMA_CS_WAITING     (1u << 6)  /* waiting for outstanding writes */
#define DMA_CS_ERROR       (1u << 8)
#define DMA_CS_PRIORITY(n) ((uint32_t)(n) << 16)
#define DMA_CS_PANIC(n)    ((uint32_t)(n) << 20)
#define DMA_CS_WAIT_WRITES (1u << 28)
#define DMA_CS_ABORT       (1u << 30)
#define DMA_CS_RESET       (1u << 31)

/* Transfer information (TI) bits of a control block. */
#define DMA_TI_INTEN       (1u << 0)
#define DMA_TI_TDMODE      (1u << 1)  /* full channels only */
#define DMA_TI_WAIT_RESP   (1u << 3)
#define DMA_TI_DEST_INC    (1u << 4)
#define DMA_TI_DEST_WIDTH  (1u << 5)  /* 128-bit; 0 = 32-bit */
#define DMA_TI_DEST_DREQ   (1u << 6)
#define DMA_TI_DEST_IGNORE (1u << 7)
#define DMA_TI_SRC_INC     (1u << 8)
#define DMA_TI_SRC_WIDTH   (1u << 9)
#define DMA_TI_SRC_DREQ    (1u << 10)
#define DMA_TI_SRC_IGNORE  (1u << 11)
#define DMA_TI_BURST(n)    ((uint32_t)(n) << 12)
#define DMA_TI_PERMAP(n)   ((uint32_t)(n) << 16)
#define DMA_TI_WAITS(n)    ((uint32_t)(n) << 21)
#define DMA_TI_NO_WIDE_BURSTS (1u << 26)

/* DEBUG error bits (write 1 to clear). */
#define DMA_DEBUG_READ_LAST_NOT_SET (1u << 0)
#define DMA_DEBUG_FIFO_ERROR        (1u << 1)
#define DMA_DEBUG_READ_ERROR        (1u << 2)
#define DMA_DEBUG_ERRORS            0x7u
#define DMA_DEBUG_LITE              (1u << 28)

/* Longest transfer of one control block: full channels TXFR_LEN 30 bits,
 * lite channels 16 bits; kept to whole words. */
#define DMA_MAX_LEN_FULL 0x3FFFFFFCu
#define DMA_MAX_LEN_LITE 0xFFFCu

/* Control blocks chained per run; a longer transfer (lite channel) runs
 * again with the next ones when a run ends. */
#define DMA_CB_PER_RUN 16u

/* A control block as the engine reads it: 8 words, 32-byte aligned. */
struct dma_cb {
	uint32_t ti;
	uint32_t source_ad;
	uint32_t dest_ad;
	uint32_t txfr_len;
	uint32_t stride;
	uint32_t nextconbk;
	uint32_t reserved[2];
} __attribute__((aligned(32)));

enum dma_dir { DMA_TO_MEM = 0, DMA_FROM_MEM = 1 };

struct dma_chan {
	struct dma_cb cb[DMA_CB_PER_RUN];
	uintptr_t engine;        /* ARM address of the engine (channel 0) */
	uintptr_t regs;          /* ARM address of this channel's registers */
	uintptr_t periph_base;   /* ARM peripheral base */
	uint32_t mem_bus_alias;  /* DMA_MEM_ALIAS_* */
	uint32_t mask;           /* channels the firmware left to the ARM */
	int channel;             /* -1 until dma_chan_init succeeded */
	uint8_t periph_dreq;     /* the data port's DREQ (PERMAP), given at attach */
	bool lite;
	uint32_t max_len;        /* per control block */
	/* The transfer in flight. */
	bool busy;
	uint8_t dir;             /* enum dma_dir */
	uint8_t dreq;
	uint32_t periph;         /* bus address of the data port */
	uint8_t *buf;
	uint32_t len;            /* bytes the engine moves */
	uint32_t span;           /* bytes maintained from buf (>= len) */
	uint32_t queued;         /* bytes given to the engine so far */
	uint32_t runs;           /* control-block runs started */
	uint32_t last_cs, last_debug;
	char err[112];
};

/* Take a channel: the highest full channel (0-6) in 'mask', else the
 * highest lite one (7-14); reset it and enable it. periph_base: the ARM
 * peripheral base; mem_bus_alias: DMA_MEM_ALIAS_BCM2835 or _BCM2836 (also
 * BCM2837). Returns 0, or -ENODEV when the mask leaves no channel. */
int dma_chan_init(struct dma_chan *c, uintptr_t periph_base,
		  uint32_t mem_bus_alias, uint32_t mask);

/* Bus addresses the engine uses for a peripheral register / ARM memory. */
uint32_t dma_periph_bus_addr(const struct dma_chan *c, uintptr_t arm_addr);
uint32_t dma_mem_bus_addr(const struct dma_chan *c, const void *p, size_t n);

/* True when [buf, buf+len) can be moved by the engine with safe cache
 * maintenance (see above); len must be a non-zero multiple of 4. */
bool dma_buffer_ok(const void *buf, size_t len);

/* Build the control blocks and start the channel (cache maintenance and
 * ordering as above) to move the first len bytes of a buffer of span bytes
 * (len <= span, a non-zero multiple of 4; dma_start: len = span). The cache
 * maintenance covers [buf, buf+span), which must be dma_buffer_ok: a
 * peripheral whose last words the CPU moves itself (SDHOST reads: its DREQ
 * does not cover a transfer's final words) has the buffer invalidated again
 * when the engine has ended, before the CPU stores the rest. dreq:
 * DMA_DREQ_* pacing the peripheral side (DMA_DREQ_NONE: unpaced). periph:
 * the data port's bus address (fixed, not incremented). Returns 0, -EINVAL
 * (buffer not dma_buffer_ok, no channel) or -EBUSY (a transfer still in
 * flight). */
int dma_start_part(struct dma_chan *c, enum dma_dir dir, unsigned dreq,
		   uint32_t periph, void *buf, uint32_t span, uint32_t len);

static inline int dma_start(struct dma_chan *c, enum dma_dir dir, unsigned dreq,
			    uint32_t periph, void *buf, uint32_t len)
{
	return dma_start_part(c, dir, dreq, periph, buf, len, len);
}

/* 1 while the transfer runs; 0 when it ended (a read's buffer is
 * invalidated again by then); -EIO when the engine reported an error (the
 * channel is reset, dma_error() says which bits). */
int dma_poll(struct dma_chan *c);

/* Where the transfer in flight is: a value that changes whenever the engine
 * has moved data (its memory-side address register and the runs started),
 * for a caller that bounds the time without progress rather than the whole
 * transfer. Reads one register of the channel. */
uint32_t dma_position(const struct dma_chan *c);

/* dma_poll until it is not 1, at most timeout_us; -ETIMEDOUT after that
 * (the channel is aborted and reset). */
int dma_wait(struct dma_chan *c, uint32_t timeout_us);

/* A controller's data phase through the engine (dma_wait_progress): how
 * long the engine may go without moving data, and the controller's error
 * bits, watched while it runs. */
struct dma_watch {
	/* One block's bound (the card's read access time or write busy):
	 * a transfer that keeps moving is never cut, however long it is in
	 * all; one that stops is cut after this long without progress. */
	uint32_t block_us;
	/* Optional: called on every poll while the engine runs; returns the
	 * controller's status when it shows an error, 0 otherwise. */
	uint32_t (*host_errors)(void *ctx);
	void *ctx;
	/* Out: what host_errors returned when it ended the wait (else 0), and
	 * timer_ticks() before the last poll (the one that saw the end: the
	 * CPU's part of the wait). */
	uint32_t errors;
	uint32_t t_poll;
};

#define DMA_WAIT_HOST_ERROR 1 /* dma_wait_progress: the controller's error */

/* Wait for the transfer in flight, bounded by progress: the engine's
 * position (dma_position) is looked at every quarter of w->block_us (the
 * polling loop reads nothing more), and the wait fails when it has not
 * changed for four looks in a row: after between one and one and a quarter
 * block bounds without data moving. Returns 0 (ended), -EIO (the engine's
 * error; the channel is reset), -ETIMEDOUT (no progress: the channel is
 * aborted, dma_error() says "timed out, no data moved in N us" with CS and
 * DEBUG) or DMA_WAIT_HOST_ERROR (host_errors saw an error: the channel is
 * aborted, w->errors holds the controller's status). */
int dma_wait_progress(struct dma_chan *c, struct dma_watch *w);

/* Stop the transfer in flight, reset the channel; a read's buffer is
 * invalidated (its content is undefined). Records CS/DEBUG in dma_error(). */
void dma_abort(struct dma_chan *c, const char *why);

/* dma_start + dma_wait. */
int dma_periph_to_mem(struct dma_chan *c, unsigned dreq, uint32_t periph,
		      void *buf, uint32_t len, uint32_t timeout_us);
int dma_mem_to_periph(struct dma_chan *c, unsigned dreq, uint32_t periph,
		      const void *buf, uint32_t len, uint32_t timeout_us);

/* The last failure: "DMA channel N: <what>: CS 0x... DEBUG 0x..."; "" if
 * none. */
const char *dma_error(const struct dma_chan *c);

#endif

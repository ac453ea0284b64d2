/*
 * sd_host.h - the interface between the SD card protocol layer (drivers/sd)
 * and a host controller driver (drivers/sdhci: the BCM2835 EMMC, the
 * BCM2711 EMMC2 and the BCM2712's SDHCI; drivers/sdhost: the BCM2835
 * SDHOST).
 *
 * A host driver executes exactly one request (a command, optionally with a
 * data phase) and reports what happened with timestamps of the phases it
 * saw. It never decides protocol: no retries, no command sequences, except
 * the controller-level recovery it needs to be usable again (resetting its
 * CMD/DAT state machines after an error) and the stop command it was asked
 * to send automatically.
 *
 * Timestamps are raw timer_ticks() values (drivers/timer.h); bench/ converts
 * them after the timed region.
 */
#ifndef SDB_DRIVERS_SD_HOST_H
#define SDB_DRIVERS_SD_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/err.h"

/* Response types (SD Physical Layer §4.9). */
enum sd_resp_type {
	SD_RESP_NONE = 0,
	SD_RESP_R1,  /* also R6, R7: 48 bits, CRC and index checked */
	SD_RESP_R1B, /* R1 + busy on DAT0 */
	SD_RESP_R2,  /* 136 bits, CID/CSD */
	SD_RESP_R3,  /* OCR: 48 bits, no CRC, no index */
};

enum sd_data_dir { SD_DATA_READ = 0, SD_DATA_WRITE = 1 };

/* How a multi-block transfer is terminated. */
enum sd_stop_mode {
	SD_STOP_NONE = 0,   /* single block, or the caller sends CMD12 itself */
	SD_STOP_AUTO12 = 1, /* controller sends CMD12 after the last block */
	SD_STOP_AUTO23 = 2, /* controller sends CMD23 before the command (SDHCI 3.0) */
};

/* Bus speed modes (SD Physical Layer §3.9, SDHCI 3.00 Host Control 2):
 * DS/HS at 3.3 V signalling; the UHS-I modes at 1.8 V, after CMD11 and
 * the voltage switch. */
enum sd_timing {
	SD_TIMING_DS = 0,     /* default speed, up to 25 MHz */
	SD_TIMING_HS = 1,     /* high speed, up to 50 MHz */
	SD_TIMING_SDR12 = 2,  /* UHS-I, up to 25 MHz */
	SD_TIMING_SDR25 = 3,  /* UHS-I, up to 50 MHz */
	SD_TIMING_SDR50 = 4,  /* UHS-I, up to 100 MHz (tuning if the host says) */
	SD_TIMING_SDR104 = 5, /* UHS-I, up to 208 MHz, tuning */
	SD_TIMING_DDR50 = 6,  /* UHS-I, up to 50 MHz, data on both edges */
	SD_TIMING_COUNT
};
#define SD_TIMING_IS_UHS(t) ((t) >= SD_TIMING_SDR12 && (t) < SD_TIMING_COUNT)

/* How a host moves the data of a request between its FIFO and memory.
 * struct sd_host.data_paths is a mask of (1u << path). */
enum sd_data_path {
	SD_PATH_PIO = 0, /* the CPU reads/writes the data port */
	SD_PATH_DMA = 1, /* a DMA engine (BCM2835 DMA, or the controller's ADMA2) */
};

struct sd_ios {
	uint32_t clock_hz; /* requested; 0 = clock off */
	uint8_t width;     /* 1 or 4 */
	uint8_t timing;    /* enum sd_timing */
};

/* Phase timestamps of one request, raw timer_ticks() values.
 * A field is 0 when the phase did not happen.
 *
 * The stamps are single readings of the 32-bit counter, and a span is the
 * wrap-safe difference of two of them (phase_ticks.c; a request longer
 * than the wrap gets its whole wraps back from the engine's 64-bit clock,
 * phase_acc_add_long). Every sum of tick differences (the *_ticks
 * accumulators below but host_serial_ticks, a single difference) is 64
 * bits: one request can run longer than 2^32 ticks (4.29 s at a 1 ns
 * tick; 4.3 - 6.1 s with the Pi 0/1 cycle counter), and a 32-bit sum of
 * its per-block waits or seams would wrap to a small number and book
 * seconds of the card's time as the CPU's (docs/attribution.md, "Limits").
 * Convert them with timer_ticks64_to_ns(). */
struct sd_req_times {
	uint32_t t_issue;      /* just before the command register write */
	uint32_t t_cmd_done;   /* command complete (response received) */
	uint32_t t_first_data; /* first data block ready (read) / first space (write) */
	uint32_t t_data_done;  /* CPU moved the last word of the last block */
	uint32_t t_end;        /* transfer complete (write: busy ended) */
	uint64_t host_ticks;   /* sum of ticks the CPU spent moving data */
	/* Optional: the CPU's data moving that nothing overlaps, measured by
	 * a controller that does not hold whole blocks (SDHOST's FIFO): a
	 * read's drain from the moment the last block's words were all in the
	 * FIFO, a write's first fill before its bus can start. 0 = not
	 * measured: the split takes host_ticks / blocks (one block's work). */
	uint32_t host_serial_ticks;
	/* Set by the card layer: commands it sent outside this request for
	 * the same operation (an explicit CMD23 before it, CMD13 status polls
	 * after a write). Their bus time is part of the operation's cost. */
	uint32_t extra_cmds;
	/* Optional, set by a driver that moves whole blocks through a buffer
	 * by PIO (docs/attribution.md, "CPU and card overlap"): waits_counted
	 * = 1, wait_blocks = the blocks after the first whose idle bus the CPU
	 * did not come last for: a read's that it found not ready at its first
	 * look, a write's that it had filled while the bus or the card was
	 * still busy with the block before; wait_ticks = how long the CPU
	 * waited for blocks after the first. */
	uint32_t wait_blocks;
	uint64_t wait_ticks;
	/* waits_counted = 2 (a read): also how long the bus stood stopped for
	 * the CPU (buffer full) before the blocks after the first that it
	 * waited for the CPU, as the driver estimated it. */
	uint64_t stood_ticks;
	/* stood_ticks known to +- this: the driver dated a block's arrival
	 * only within an interval its look could not resolve (the middle
	 * taken), here the sum of those intervals' half-widths where stood
	 * time was added (0: every arrival dated exactly). */
	uint64_t stood_unc_ticks;
	uint8_t waits_counted;
	/* The blocks after the first whose wait the driver could not decide:
	 * the decision needed a look (docs/silicon.md) that the probe of
	 * this controller did not confirm (struct sd_silicon). A split built
	 * on them would be a guess: the workload gets no diagnosis. */
	uint32_t undecided_blocks;
	/* Which looks left them undecided: SD_UNDECIDED_* bits (0 with
	 * undecided blocks: the Block Count look). */
	uint8_t undecided_looks;
	/* Optional, set by a driver whose FIFO holds less than a block
	 * (SDHOST's 16 words; docs/attribution.md, "A FIFO smaller than a
	 * block"): fifo_counted = 1, fifo_words = the words in the FIFO when
	 * the first block's data was first seen (read) or when the CPU had
	 * written the last word (write): the part of a frame the bus carried
	 * before the data phase / carries after it. The seams: at each block
	 * boundary the CPU looks at the FIFO twice (read: when the block's
	 * last words were all in it, then when the next block's first data
	 * was; write: when it had written a block, then after the next
	 * block's first burst) and adds the ticks between the looks and the
	 * words the bus moved between them: what is left is the bus waiting
	 * for the card (gap, busy). seams_full: the same for the boundaries
	 * where the FIFO was full (read) or empty (write) at the second look,
	 * when the bus may have waited for the CPU too. */
	uint8_t fifo_counted;
	uint32_t fifo_words;
	uint64_t seam_ticks, seam_full_ticks;
	uint32_t seam_words, seams;
	uint32_t seam_full_words, seams_full;
	/* Optional, caller-provided arrays of 'blocks' entries (may be NULL):
	 * when each block became ready, and when the CPU finished with it. */
	uint32_t *blk_ready;
	uint32_t *blk_done;
};

struct sd_data {
	void *buf;          /* any alignment */
	uint32_t blksz;     /* bytes per block (512 for data, 8/64 for SCR/SSR/CMD6) */
	uint32_t blocks;
	uint8_t dir;        /* enum sd_data_dir */
	uint8_t stop;       /* enum sd_stop_mode */
	uint32_t sbc_arg;   /* argument for SD_STOP_AUTO23 (block count) */
};

struct sd_cmd {
	uint8_t index;
	uint8_t resp_type;  /* enum sd_resp_type */
	uint32_t arg;
	/* R1/R3/R6/R7 in resp[0]. R2: resp[0] = bits 127..96 ... resp[3] =
	 * bits 31..0 of the full 128-bit register (CRC byte included, the host
	 * driver re-aligns what its controller strips). */
	uint32_t resp[4];
	uint32_t auto_resp; /* response of the auto CMD12/CMD23, if any */
	uint32_t busy_timeout_us; /* R1B / write busy bound; 0 = driver default */
};

/* What went wrong, for the caller to print. */
struct sd_host_err {
	int code;           /* negative errno, 0 when ok */
	uint8_t cmd;        /* command index */
	uint32_t arg;
	uint32_t status;    /* controller interrupt/status bits at failure */
	uint32_t block;     /* data block index where it failed */
	const char *phase;  /* "command", "data", "busy", "reset", ... */
	/* DMA errors (phase "adma"): the controller's DMA error status (SDHCI
	 * ADMA Error Status), the bus address of the failing descriptor and
	 * its index in the table (-1 when outside it); 0 / -1 otherwise. */
	uint32_t dma_status;
	uint32_t dma_desc_addr;
	int32_t dma_desc;
};

/* drivers/sd/sd.c req_init() clears every field of a request and its parts
 * one by one (the request path has no memset): add new fields there too.
 * A host's request() finds the responses, the stamps (t) and the error
 * (err) cleared (req_init, again before a retry) and sets only what
 * happens: err.cmd and err.arg always, the rest as the request goes. */
struct sd_request {
	struct sd_cmd cmd;
	struct sd_data *data; /* NULL: no data phase */
	struct sd_req_times t;
	struct sd_host_err err;
};

/* The errno a controller's error status names: a timeout bit, a CRC bit,
 * any other error (SDHCI §2.2.18 Error Interrupt Status; SDHOST SDHSTS). */
static inline int sd_status_errno(uint32_t status, uint32_t timeout_bits, uint32_t crc_bits)
{
	if (status & timeout_bits)
		return -ETIMEDOUT;
	if (status & crc_bits)
		return -EILSEQ;
	return -EIO;
}

/* A controller driver's failure: what, the status bits, the phase and the
 * data block, in the request; returns 'code'. */
static inline int sd_req_fail(struct sd_request *req, int code, uint32_t status,
			      const char *phase, uint32_t block)
{
	req->err.code = code;
	req->err.status = status;
	req->err.phase = phase;
	req->err.block = block;
	return code;
}

struct sd_host;

/* What the controller's Block Count shows during a multi-block read
 * (docs/silicon.md, belief blkcnt-bus), as its probe found it. */
enum sd_blkcnt_look {
	SD_BLKCNT_UNPROBED = 0, /* not probed (the look is not used) */
	SD_BLKCNT_BUS,          /* one less as each block crosses the bus */
	SD_BLKCNT_DRAIN,        /* one less as the CPU drains each block */
	SD_BLKCNT_STALE,        /* unchanged until the transfer ends */
	SD_BLKCNT_OTHER,        /* none of these */
	SD_BLKCNT_COUNT
};

/* Whether a read's data takes its time on the wire (docs/silicon.md,
 * belief read-wire), as the probe found it: the first block of a read
 * can be ready no sooner than the command's 48 bits, N_AC and the
 * block's frame after the command was written (SD Physical Layer
 * §4.12.4). Ready in less than half a frame, no bus carried it: an
 * emulator whose card and bus take no time (QEMU hw/sd/sdhci.c reads
 * the next block from its card inside the CPU's read of the last word
 * of the one before). */
enum sd_read_wire {
	SD_WIRE_UNPROBED = 0,   /* not probed (the read split needs the look) */
	SD_WIRE_TIMED,          /* the block came a frame or more after the command */
	SD_WIRE_INSTANT,        /* sooner than half a frame: no bus time */
	SD_WIRE_COUNT
};

/* sd_req_times.undecided_looks */
#define SD_UNDECIDED_BLKCNT 1u /* a read's Block Count look (blkcnt-bus) */
#define SD_UNDECIDED_WRITE 2u  /* a write's DAT[0] / Buffer Write Enable look */
#define SD_UNDECIDED_FILL 4u   /* SDHOST's FIFO fill in SDEDM (sdhost-edm-fifo) */

/* What SDHOST's SDEDM fill (bits 8:4) shows while a block arrives
 * (docs/silicon.md, belief sdhost-edm-fifo), as its probe found it. */
enum sd_fill_look {
	SD_FILL_UNPROBED = 0, /* never probed: the authorities' reading (live) */
	SD_FILL_LIVE,         /* one more per word, a word's time after the start bit */
	SD_FILL_LAG,          /* one more per word, but late */
	SD_FILL_STEPPED,      /* rises by several words at once (QEMU) */
	SD_FILL_UNCONFIRMED,  /* the looks could not tell (too sparse, no reference) */
	SD_FILL_FAILED,       /* the probe's read failed */
	SD_FILL_COUNT
};

/* What Buffer Write Enable shows during a PIO write (docs/silicon.md,
 * belief buf-write-enable), as the write probe found it. */
enum sd_bwe_look {
	SD_BWE_UNPROBED = 0, /* never probed: the authority's reading (SDHCI
				§2.2.9, space for a block) is used */
	SD_BWE_SLOT,         /* set with a block waiting: the CPU fills one
				while the bus carries the other */
	SD_BWE_EMPTY,        /* set only when the buffer is empty (QEMU) */
	SD_BWE_FAILED,       /* the probe could not run or saw neither */
	SD_BWE_COUNT
};

/* What Present State's DAT[0] level shows of the card's write busy
 * (docs/silicon.md, belief dat0-level), as the write probe found it. */
enum sd_dat0_look {
	SD_DAT0_UNPROBED = 0, /* never probed: the authority's reading (SDHCI
				 §2.2.9, the line's level) is used */
	SD_DAT0_LIVE,         /* low while busy, high by Transfer Complete */
	SD_DAT0_LAG,          /* still low well after Transfer Complete */
	SD_DAT0_NONE,         /* never low through a long busy */
	SD_DAT0_SHORT,        /* the busy was too short to tell */
	SD_DAT0_FAILED,       /* the probe could not run */
	SD_DAT0_COUNT
};

/* The probe of a controller's behaviour (sd_host_ops.characterise): a
 * multi-block read of 'blocks' blocks, Block Count read after the first
 * block was ready and the bus had time for the rest while the CPU moved
 * nothing (full), then after the CPU drained one block (drained); and,
 * on reads of CMD6's status block at a low clock, the shortest time
 * from writing the command to the block's Buffer Read Ready (first_ns)
 * against the block's frame at that clock (frame_ns). */
struct sd_silicon {
	uint8_t blkcnt;          /* enum sd_blkcnt_look */
	uint8_t wire;            /* enum sd_read_wire */
	uint32_t first_ns;       /* command written -> first block ready */
	uint32_t frame_ns;       /* one block's frame on the bus (SD §4.5) */
	uint32_t wire_clock_hz;  /* the clock of those reads */
	uint32_t blocks;         /* the read's blocks (the count written) */
	uint32_t cnt_ready;      /* Block Count when the first block was ready */
	uint32_t cnt_full;       /* ... after the bus had time to fill the buffer */
	uint32_t cnt_drained;    /* ... after the CPU drained one block */
	uint32_t wait_us;        /* how long the probe let the bus run each time */
	uint32_t ticks;          /* the probe's duration, timer ticks */
	/* The write probe (sd_host_ops.probe_write): a multi-block write of
	 * 'blocks' blocks. */
	bool wprobed;            /* it ran to its end */
	uint8_t bwe;             /* enum sd_bwe_look */
	uint8_t dat0;            /* enum sd_dat0_look */
	bool bwe_first;          /* Buffer Write Enable right after block 0 was filled */
	bool dat0_low;           /* DAT[0] read low after the last word */
	uint32_t busy_us;        /* the last word to Transfer Complete */
	uint32_t dat0_late_us;   /* DAT[0] still low after Transfer Complete */
	uint32_t tol_us;         /* what counts as "at Transfer Complete" */
	uint32_t wticks;         /* the write probe's duration, timer ticks */
	/* SDHOST's fill probe (its characterise): one read of CMD6's status
	 * block (16 words, one FIFO) at a low clock, SDEDM sampled without
	 * draining. */
	bool fprobed;            /* it ran */
	uint8_t fill;            /* enum sd_fill_look */
	uint8_t fill_jump;       /* the largest rise between two close looks */
	uint8_t fill_samples;    /* the changes of SDEDM it kept */
	uint32_t fill_clock_hz;  /* the clock of that read */
	uint32_t fill_word_ns;   /* one word's time on the bus there */
	uint32_t fill_delay_ns;  /* READDATA (or a word) first seen -> the fill's first word */
	uint32_t fill_limit_ns;  /* the most a live fill's first word can take */
};

struct sd_host_ops {
	/* Full controller reset, power the card, clock at 400 kHz max, 1-bit. */
	int (*reset)(struct sd_host *h);
	/* Set clock/width/timing; h->actual_clock_hz says what was achieved. */
	int (*set_ios)(struct sd_host *h, const struct sd_ios *ios);
	/* Execute one request. Returns 0 or -errno; req->err is filled on error. */
	int (*request)(struct sd_host *h, struct sd_request *req);
	/* 1 if DAT0 is low (card busy), 0 if not, -errno. */
	int (*card_busy)(struct sd_host *h);
	/* 1 card present, 0 absent, -ENOTSUP if the controller cannot tell. */
	int (*get_cd)(struct sd_host *h);
	/* 1 write-protected, 0 writable, -ENOTSUP if the controller cannot tell. */
	int (*get_ro)(struct sd_host *h);
	/* Optional (NULL: PIO only). Select enum sd_data_path for the requests
	 * that follow; -ENOTSUP when the host has no such path. */
	int (*set_data_path)(struct sd_host *h, unsigned path);
	/* Optional (NULL: 3.3 V signalling only, no UHS-I). The host side of
	 * the UHS-I voltage switch, called after CMD11's response (SDHCI
	 * 3.00 §3.6.1): SD clock off, DAT[3:0] low, 1.8 V signalling, 5 ms,
	 * clock on, DAT[3:0] high within 1 ms. 0, or -EIO / -ETIMEDOUT with
	 * the card left in an unknown state (power_cycle next). */
	int (*voltage_switch)(struct sd_host *h);
	/* Optional: card power off and on again at 3.3 V signalling (the
	 * only way back from 1.8 V), leaving the host as after reset. */
	int (*power_cycle)(struct sd_host *h);
	/* Optional: sampling-clock tuning with the given command (CMD19) in
	 * the current timing (SDHCI 3.00 §3.6.1, at most 40 tries). 0 when
	 * tuned, -EIO when the controller found no sampling point;
	 * *tries gets the number of tuning commands sent. */
	int (*execute_tuning)(struct sd_host *h, uint8_t cmd_index, uint32_t *tries);
	/* Optional: probe the controller's behaviour on a multi-block read
	 * of the card's first blocks (the card selected, in transfer state,
	 * 512-byte blocks, the bus at its working clock): fills *out and
	 * h->blkcnt_look. 0, or -errno (the look stays unconfirmed). Bounded
	 * by the driver's read timeouts. */
	int (*characterise)(struct sd_host *h, struct sd_silicon *out);
	/* Optional: the next write request (sent by the caller, through its
	 * write guard, to where it may write: 512-byte blocks, at least 2,
	 * PIO) is the probe of the write looks: fills out's write fields and
	 * h->bwe_look / h->dat0_look. NULL disarms. */
	void (*probe_write)(struct sd_host *h, struct sd_silicon *out);
};

/* The BCM2835 DMA engine's hosts: requests of at most this many blocks
 * move by PIO on the DMA path (struct sd_host.dma_pio_blocks). */
#define SD_DMA_PIO_BLOCKS 1u

struct sd_host {
	const struct sd_host_ops *ops;
	const char *name;        /* the driver's *_NAME: "emmc", "sdhost", ... */
	uintptr_t base;          /* ARM physical address of the registers */
	uint32_t base_clock_hz;  /* the controller's input clock */
	uint32_t f_min_hz;
	uint32_t f_max_hz;
	uint32_t actual_clock_hz;/* the SD clock actually produced */
	uint8_t width;           /* current bus width */
	uint8_t timing;          /* current enum sd_timing */
	bool cap_4bit;
	bool cap_hs;
	bool cap_auto12;
	bool cap_auto23;
	uint32_t caps;           /* raw capabilities register(s), for reports */
	uint32_t version;        /* raw version register */
	uint8_t data_paths;      /* mask of 1u << enum sd_data_path; PIO always */
	uint8_t data_path;       /* the current enum sd_data_path */
	/* What sdbench.txt's data_path = auto selects for this host on this
	 * board (enum sd_data_path, used when data_paths has it): chosen by
	 * the platform that built the host (platform/slot.c, the
	 * simulator's harness); the drivers leave it at PIO. */
	uint8_t auto_path;
	/* UHS-I: mask of 1u << enum sd_timing the host and board accept
	 * beyond DS/HS (0: none, no S18R is ever sent), whether SDR50 needs
	 * tuning, and the signalling voltage now in effect (mV). */
	uint8_t uhs_modes;
	bool tuning_sdr50;
	uint16_t signal_mv;      /* 3300 or 1800 */
	uint32_t caps_hi;        /* raw CAPABILITIES[63:32], for reports */
	/* The DMA path's small requests: a request of at most dma_pio_blocks
	 * blocks moves by PIO on the DMA path (as the Linux BCM2835 SDHOST
	 * driver's PIO_THRESHOLD of 1 block: starting the BCM2835 DMA engine,
	 * its control block and the cache maintenance, costs the CPU more
	 * than moving one block's 128 words). Set by the host driver when it
	 * attaches such an engine (SD_DMA_PIO_BLOCKS), 0 elsewhere; the
	 * sdbench.txt key dma_pio_blocks overrides it (0: every request by
	 * DMA). dma_pio_reqs counts the DMA-path requests that moved by PIO,
	 * for this reason or because the engine cannot use the buffer. */
	uint32_t dma_pio_blocks;
	uint32_t dma_pio_reqs;
	/* enum sd_blkcnt_look: what characterise() found; a driver uses a
	 * look at Block Count during a transfer only when it is
	 * SD_BLKCNT_BUS (docs/silicon.md, blkcnt-bus). */
	uint8_t blkcnt_look;
	/* enum sd_read_wire: what characterise() found; SD_WIRE_INSTANT
	 * lets a PIO read book every wait between blocks to the CPU without
	 * the look (docs/silicon.md, read-wire). */
	uint8_t read_wire;
	/* enum sd_bwe_look, enum sd_dat0_look: what the write probe found; a
	 * PIO write's wait decision uses Buffer Write Enable and DAT[0] only
	 * as confirmed (docs/silicon.md, buf-write-enable, dat0-level). */
	uint8_t bwe_look;
	uint8_t dat0_look;
	/* enum sd_fill_look: what SDHOST's probe found; its PIO split uses the
	 * fill only when live or never probed (docs/silicon.md,
	 * sdhost-edm-fifo). */
	uint8_t fill_look;
	/* The most SD clocks the controller holds the bus idle of its own
	 * between a transfer's blocks, beyond holding read data while its
	 * buffer is full (which the driver's looks see as the CPU's), as the
	 * authority its driver cites says (docs/silicon.md, ctrl-idle-clocks);
	 * SD_IDLE_CLK_UNKNOWN where no authority does. No measurement tells
	 * such clocks from a card's clock-counted wait between blocks: the
	 * split books the wait to the card, and where it may be the
	 * controller's instead by more than the split promises, the
	 * workload gets no diagnosis (validity: split_uncertain). */
	uint16_t idle_clk_max;
	void *priv;
};

/* struct sd_host.idle_clk_max of a controller no authority describes. */
#define SD_IDLE_CLK_UNKNOWN 0xffffu

/* The optional operations behind checked calls (as Zephyr's sdhc.h wraps
 * its API): a host without one answers -ENOTSUP, so no caller tests ops
 * for NULL itself. sd_host_can_*: whether the host has the operation. */
static inline bool sd_host_has_path(const struct sd_host *h, unsigned path)
{
	return h->ops->set_data_path && (h->data_paths & (1u << path));
}

static inline int sd_host_set_data_path(struct sd_host *h, unsigned path)
{
	return h->ops->set_data_path ? h->ops->set_data_path(h, path) : -ENOTSUP;
}

static inline bool sd_host_can_switch_voltage(const struct sd_host *h)
{
	return h->ops->voltage_switch != 0;
}

static inline int sd_host_voltage_switch(struct sd_host *h)
{
	return h->ops->voltage_switch ? h->ops->voltage_switch(h) : -ENOTSUP;
}

static inline bool sd_host_can_power_cycle(const struct sd_host *h)
{
	return h->ops->power_cycle != 0;
}

static inline int sd_host_power_cycle(struct sd_host *h)
{
	return h->ops->power_cycle ? h->ops->power_cycle(h) : -ENOTSUP;
}

static inline bool sd_host_can_probe_write(const struct sd_host *h)
{
	return h->ops->probe_write != 0;
}

static inline void sd_host_probe_write(struct sd_host *h, struct sd_silicon *out)
{
	if (h->ops->probe_write)
		h->ops->probe_write(h, out);
}

static inline int sd_host_characterise(struct sd_host *h, struct sd_silicon *out)
{
	return h->ops->characterise ? h->ops->characterise(h, out) : -ENOTSUP;
}

static inline int sd_host_execute_tuning(struct sd_host *h, uint8_t cmd_index, uint32_t *tries)
{
	return h->ops->execute_tuning ? h->ops->execute_tuning(h, cmd_index, tries) : -ENOTSUP;
}

#endif

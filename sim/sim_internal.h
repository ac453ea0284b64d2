/*
 * sim_internal.h - what the simulator's files share: the virtual clock, the
 * PRNG, the sparse store, the card model, faults, truth and violations.
 * Not for tests or drivers (they use sim.h).
 */
#ifndef SDB_TESTS_SIM_INTERNAL_H
#define SDB_TESTS_SIM_INTERNAL_H

#include "sim/sim.h"

/* Times on the simulated clock (ns), for every model. */
static inline uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

#define SIM_NEVER UINT64_MAX

/* The protocol's minimum command gap (N_RC, N_CC) and write gap (N_WR). */
#define W_NRC_MIN_CLOCKS 8u
#define W_NWR_MIN_CLOCKS 2u

/* ---- clock (sim_clock.c) ---- */
extern uint64_t sim_clk_now;
/* Charge a host cost to the clock. */
void sim_clk_charge(uint32_t ns);
/* The earliest pending driver deadline after now, SIM_NEVER if none. */
uint64_t sim_clk_next_deadline(void);
/* The driver's last timer_expired() returned true (cleared by the call). */
bool sim_clk_deadline_hit(void);
void sim_clk_reset(void);
/* Called on every register access: a timer spin has been interrupted. */
void sim_clk_note_mmio(void);

/* ---- PRNG (sim_rng.c) ---- */
void sim_rng_seed(uint64_t seed);
uint64_t sim_rng_next(void);
double sim_rng_unit(void);           /* [0, 1) */
uint64_t sim_rng_draw(const struct sim_dist *d);

/* ---- sparse store (sim_store.c) ---- */
void sim_store_reset(void);
/* sim_dma.c: the memory map (see sim.h) and the master's accesses. */
void sim_dma_reset(void);
/* Host memory for bus addresses [bus, bus+n), or NULL when the master
 * cannot reach them (outside its window, or no buffer mapped there). */
uint8_t *sim_dma_bus_to_host(uint64_t bus, uint32_t n);
/* Host memory at ARM physical address phys (the memory map only). */
uint8_t *sim_dma_phys_to_host(uint64_t phys, uint32_t n);
void sim_dma_count(uint32_t descs, uint32_t bytes);
void sim_store_read(uint64_t blk, uint8_t *out);      /* 512 bytes */
void sim_store_write(uint64_t blk, const uint8_t *in);
void sim_store_erase(uint64_t first, uint64_t last, uint8_t value);

/* ---- violations (sim_core.c) ---- */
void sim_violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- faults (sim_fault.c) ---- */
/* Called once per command put on the bus; returns a bit mask of the fault
 * kinds (1 << kind) that fire for this command, and the data fault block
 * index / stuck-busy duration through the pointers. */
uint32_t sim_fault_on_command(int cmd, uint32_t *data_block,
			      uint64_t *busy_ns);
bool sim_fault_active(enum sim_fault_kind k); /* ACMD41/HS faults: any armed */

/* ---- card (sim_card.c, sim_card_regs.c) ---- */
enum sim_state {
	ST_IDLE = 0, ST_READY, ST_IDENT, ST_STBY, ST_TRAN, ST_DATA, ST_RCV,
	ST_PRG, ST_DIS, ST_INA
};

enum sim_rsp_kind { RSP_NONE = 0, RSP_48, RSP_136 };
enum sim_xfer_kind { XK_NONE = 0, XK_READ, XK_WRITE };

/* What the card does with one command. */
struct sim_cmd_out {
	enum sim_rsp_kind rsp;
	uint32_t r[4];      /* 48: r[0] = 32-bit payload; 136: bits 127..0 */
	uint8_t index;      /* index field of a 48-bit response */
	enum sim_xfer_kind xfer;
	bool mem;           /* memory blocks (else reg_data) */
	uint32_t blksz;
	uint32_t blocks;    /* 0 = until CMD12 */
	uint8_t reg_data[64];
	uint64_t busy_ns;   /* R1b busy after the response */
	bool app;           /* was an application command */
};

struct sim_card {
	const struct sim_profile *p;
	bool present;
	enum sim_state state;
	enum sim_state after_busy;   /* state when DAT0 busy ends */
	uint64_t busy_until;         /* DAT0 low until then (SIM_NEVER = stuck) */
	uint16_t rca;
	bool app_next;
	uint32_t err_pending;        /* error bits for the next response */
	uint8_t width;
	bool hs_mode;
	uint32_t blocklen;
	bool acmd41_started;
	uint64_t acmd41_t0;
	bool ccs;
	bool cmd8_ok;                /* a valid CMD8 was seen since CMD0 */
	uint16_t rca_seed;
	uint32_t erase_start, erase_end;
	bool erase_start_set, erase_end_set;
	uint32_t sbc;                /* CMD23 preset count, 0 none */
	uint32_t wr_blk_erase;       /* ACMD23, for the next write */
	uint32_t op_preerased;       /* blocks of this CMD25 covered by ACMD23 */
	uint32_t op_written;         /* blocks of this write received */
	/* open-AU model: the AUs open for writing, most recent first */
	uint64_t open_au[64];
	uint32_t n_open;
	uint32_t well_written;       /* ACMD22 */
	uint64_t blocks_written;     /* card-wide, for periodic_stall_blocks */
	uint64_t last_wr_end;        /* byte address after the last write (~0: none) */
	/* current data operation */
	uint64_t op_addr;            /* byte address of block 0 */
	uint32_t op_blocks;          /* 0 open-ended */
	bool op_multi;
	bool op_mem;                 /* memory blocks, not a register read */
	/* read buffer: the page of the last block read, ~0 = none */
	uint64_t read_page;
	/* write cache */
	double cache_fill;
	uint64_t cache_t;
	uint64_t blocks_total;       /* claimed capacity in 512-byte blocks */
	uint64_t blocks_real;
	uint8_t cid[16], csd[16], scr[8], ssr[64];
	uint32_t ocr_window;
	/* UHS-I */
	uint16_t io_mv;              /* signalling: 3300, 1800 after the switch */
	bool s18a_given;             /* ACMD41 answered S18A since power-up/CMD0 */
	bool switching;              /* CMD11 answered, switch under way */
	bool switch_bad;             /* the switch failed: dead until power-off */
	bool unpowered;              /* the board cut the supply */
	uint64_t clk_off_t;          /* the SD clock stopped during the switch */
	uint8_t g1;                  /* CMD6 group 1 function in effect */
	int8_t g1_next;              /* switched to after the CMD6 block, -1 none */
	/* The data operation's kind: memory blocks, or an extension register
	 * block (CMD48/CMD49, sim_card_cq.c); a queued read task's first
	 * block was prepared before CMD46 (staged). */
	uint8_t op_kind;
	bool op_staged;
};

enum sim_op_kind { OPK_MEM = 0, OPK_EXT = 1 };

extern struct sim_card sim_card;

void sim_card_reset(const struct sim_profile *p);
void sim_card_build_regs(struct sim_card *c);
uint8_t sim_crc7(const uint8_t *data, unsigned len);
/* Set bits [hi:lo] of a big-endian register of nbytes bytes. */
void sim_card_put_bits(uint8_t *reg, unsigned nbytes, unsigned hi,
		       unsigned lo, uint64_t v);
/* Execute command idx (t = end bit of the command on the bus). */
void sim_card_command(uint8_t idx, uint32_t arg, uint64_t t,
		      struct sim_cmd_out *out);
/* Card state at time t (PRG ends when busy ends). */
enum sim_state sim_card_state_at(uint64_t t);
bool sim_card_busy_at(uint64_t t);
/* Memory data path. Latency before block k can start; SIM_NEVER when the
 * card will not send block k (out of range, stopped, removed). */
uint64_t sim_card_read_latency(uint32_t k);
void sim_card_read_data(uint32_t k, uint8_t *buf, uint32_t len);
/* Block k received at time t; returns the programming busy after it
 * (SIM_NEVER = the card does not accept it: no CRC status). */
uint64_t sim_card_write_block(uint32_t k, const uint8_t *buf, uint32_t len,
			      uint64_t t, bool last);
/* The controller stopped the data transfer after the last block. */
void sim_card_data_done(uint64_t t, bool stopped_by_cmd12);
/* Extra busy at the end of a multi-block write (CMD12 or the CMD23 count). */
uint64_t sim_card_write_end_busy(void);
/* The SD Status AU size in bytes. */
uint64_t sim_card_au_bytes(void);
/* Pin DAT0 low until 'until' (fault injection). */
void sim_card_set_busy(uint64_t until);
/* The SD clock stopped / started while the card switches to 1.8 V. */
void sim_card_switch_clock(bool on, uint64_t t);
/* DAT[3:0] held low by the card (during and after a failed switch). */
bool sim_card_dat_low(void);
/* The highest SD clock the card's current mode runs at. */
uint32_t sim_card_max_hz(void);
/* R1 helpers of sim_card.c for the other command files. */
void sim_card_r1(struct sim_cmd_out *o, uint8_t idx, enum sim_state st,
		 uint32_t extra, uint64_t t);
void sim_card_illegal(struct sim_cmd_out *o);
bool sim_card_addressed(uint32_t arg);
/* sim_card_cq.c: extension registers, cache and command queue.
 * sim_cq_command: CMD43-49 and CMD13 with SEND_TASK_STATUS; true when it
 * answered. The data hooks serve an OPK_EXT operation; the write hooks
 * put a memory block through the cache when it is on (returns the busy
 * to use, SIM_NEVER when the cache is off; called before the block is
 * stored). */
void sim_cq_reset(bool power);
bool sim_cq_command(uint8_t idx, uint32_t arg, uint64_t t, struct sim_cmd_out *o,
		    enum sim_state st);
void sim_cq_ext_read(uint8_t *buf, uint32_t len);
uint64_t sim_cq_ext_write(const uint8_t *buf, uint64_t t);
uint64_t sim_cq_mem_write(uint64_t phys_blk, uint64_t t);
/* When the first queued task is (or was) ready: SIM_NEVER with none queued
 * or none that will be (the truth's queue stretches, sim_truth.c). */
uint64_t sim_cq_first_ready(void);
/* Every command the card receives, at t, before it acts on it: the
 * truth's stretches of task-status polls (sim_truth.c). */
void sim_truth_queue_cmd(uint8_t cmd, uint32_t arg, bool app, uint64_t t);
/* The 64-byte 4-bit tuning block (SD Physical Layer §4.2.4.5). */
extern const uint8_t sim_tuning_block[64];

/* ---- controller (sim_sdhci.c) ---- */
extern bool sim_wp_switch;   /* slot write-protect switch (sim_core.c) */
void sim_sdhci_reset_all(void);
void sim_sdhci_power_on(void);
void sim_sdhci_advance(uint64_t t);
uint64_t sim_sdhci_next_event(void);
void sim_sdhci_card_removed(void);
/* Card inserted (true) / removed (false): raise the interrupt. */
void sim_sdhci_card_event(bool inserted);
uint32_t sim_sdhci_clock_hz(void);
/* The DMA engine's side of the data port: DREQ 11 (write: space in the
 * buffer; read: data in it) and the port accesses it makes. */
bool sim_hc_dma_dreq(bool write);
uint32_t sim_hc_dma_port_read(void);
void sim_hc_dma_port_write(uint32_t v);

/* ---- the BCM283x GPIO block and the mailbox (sim_gpio.c, sim_mbox.c) ---- */
void sim_gpio_reset(uintptr_t periph_base);
bool sim_gpio_claims(uintptr_t addr);
uint32_t sim_gpio_read(uintptr_t addr);
void sim_gpio_write(uintptr_t addr, uint32_t v);
void sim_mbox_reset(uintptr_t periph_base);
bool sim_mbox_claims(uintptr_t addr);
uint32_t sim_mbox_read(uintptr_t addr);
void sim_mbox_write(uintptr_t addr, uint32_t v);
/* The watched LED line's driven level changed (or not: ignored). */
void sim_led_note(enum sim_led_src src, unsigned line, int level);

/* ---- the BCM2712 always-on GPIO block (sim_gio_aon.c) ---- */
void sim_gio_aon_reset(void);
bool sim_gio_aon_claims(uintptr_t addr);
uint32_t sim_gio_aon_read(uintptr_t addr);
void sim_gio_aon_write(uintptr_t addr, uint32_t v);

/* ---- the BCM2835 DMA engine (sim_bcm2835_dma.c) ---- */
void sim_bdma_reset(void);
void sim_bdma_service(void);
bool sim_bdma_claims(uintptr_t addr);
uint32_t sim_bdma_mmio_read(uintptr_t addr);
void sim_bdma_mmio_write(uintptr_t addr, uint32_t v);
uint8_t sim_sdhci_width(void);

/* ---- the SDHOST controller (sim_sdhost.c), when sim_config.sdhost ---- */
void sim_sdhost_reset(void);
uint32_t sim_sdhost_read(uintptr_t addr);
void sim_sdhost_write(uintptr_t addr, uint32_t v);
/* The DMA engine's side of SDDATA: DREQ 13 and the engine's accesses;
 * the model brought up to now, and its next change (for polling). */
bool sim_sdhost_dma_dreq(bool write);
uint32_t sim_sdhost_dma_port_read(void);
void sim_sdhost_dma_port_write(uint32_t v);
void sim_sdhost_update(void);
uint64_t sim_sdhost_next_event(void);
uint32_t sim_sdhost_clock_hz(void);  /* core / (CDIV + 2) */
uint8_t sim_sdhost_width(void);      /* 1 or 4 (SDHCFG WIDE_EXT_BUS) */

/* ---- wire truth (sim_wire.c) ---- */
enum sim_lane { SIM_LANE_CMD = 0, SIM_LANE_DAT, SIM_NLANES };
void sim_wire_reset(void);
/* Lane l carried / waited for cat during [a, b) (a before the lane's last
 * end is moved up to it; b <= a: nothing). */
void sim_wire_emit(enum sim_lane l, uint64_t a, uint64_t b, enum sim_wcat cat);
/* Lane l is busy with a transfer: decided only as far as described (at
 * least up to t). */
void sim_wire_hold(enum sim_lane l, uint64_t t);
void sim_wire_release(enum sim_lane l);
bool sim_wire_held(enum sim_lane l);
/* A reset at t: drop what lane l was going to do after t. */
void sim_wire_truncate(enum sim_lane l, uint64_t t);
/* Everything up to 'upto' has been processed: decide what can be decided. */
void sim_wire_commit(uint64_t upto);
/* A truth record closed: fill its wire_ns[] once decided. */
void sim_wire_record_closed(struct sim_truth *t);
void sim_wire_forget_records(void);
/* The CPU waited for the controller during [a, b) (a poll that saw
 * nothing change, a skipped poll loop, a sleep). */
void sim_wire_cpu_wait(uint64_t a, uint64_t b);
/* The CPU did work at t (a register write, a data port access, a read
 * that saw something new). */
void sim_wire_cpu_work(uint64_t t);

/* ---- truth (sim_truth.c) ---- */
struct sim_truth *sim_truth_open(uint8_t cmd, uint32_t arg, uint32_t flags);
void sim_truth_close(struct sim_truth *t);
/* The log entry of block k of a record (NULL if t is NULL). */
struct sim_block_truth *sim_truth_blk(struct sim_truth *t, unsigned k);

#endif

/*
 * sim.h - the host-side SD simulator: a simulated Arasan/SDHCI controller
 * (BCM2835 EMMC register map), a simulated SD memory card, a virtual clock
 * with a timing model, fault injection and ground-truth recording.
 *
 * The real drivers run unchanged against it: drivers/mmio.h routes every
 * register access of a host build to sim_mmio_read32/sim_mmio_write32, and
 * the simulator implements the whole drivers/timer.h API on its virtual
 * clock. One simulator instance per process (tests run sequentially).
 *
 * See tests/sim/README.md for the model, its units and every simplification.
 */
#ifndef SDB_TESTS_SIM_H
#define SDB_TESTS_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the simulated controller answers by default (BCM2835 EMMC). */
#define SIM_EMMC_BASE_DEFAULT 0x20300000u

/* ---- card profiles --------------------------------------------------- */

enum sim_card_kind {
	SIM_SDSC_V1 = 0, /* Physical Layer 1.x: no CMD8, byte addressing */
	SIM_SDSC_V2 = 1, /* answers CMD8, CCS = 0, byte addressing */
	SIM_SDHC = 2,    /* CCS = 1, block addressing, CSD v2 */
	SIM_SDXC = 3,    /* same protocol as SDHC, > 32 GiB */
};

/* A latency distribution, all in nanoseconds:
 * value = min + exponential(mean_extra) + (with probability stall_ppm/1e6)
 * uniform(stall_min, stall_max). Drawn from the simulator's own PRNG. */
struct sim_dist {
	uint64_t min_ns;
	uint64_t mean_extra_ns;
	uint32_t stall_ppm;
	uint64_t stall_min_ns;
	uint64_t stall_max_ns;
};

struct sim_profile {
	const char *name;
	const char *desc;

	/* CID fields */
	uint8_t mid;
	char oid[3];
	char pnm[6];
	uint8_t prv;          /* BCD n.m as 0xnm */
	uint32_t psn;
	uint16_t mdt_year;    /* 2000.. */
	uint8_t mdt_month;

	enum sim_card_kind kind;
	uint64_t capacity_bytes; /* what the CSD claims */
	uint64_t real_bytes;     /* flash really there, 0 = capacity (fake cards wrap) */
	uint8_t read_bl_len;     /* SDSC CSD: 9, 10 or 11 (default 9) */
	uint8_t taac;            /* CSD v1 TAAC (v2 fixes 0x0E) */
	uint8_t nsac;
	uint8_t r2w_factor;      /* CSD, default 2 (x4) */
	uint16_t ccc;            /* default 0x5B5 */

	/* SCR */
	uint8_t sd_spec, sd_spec3, sd_spec4, sd_specx; /* e.g. 2,1,0,0 = 3.0x */
	bool bus4;               /* 4-bit bus in SCR (and accepted by ACMD6) */
	bool cmd23;              /* CMD_SUPPORT bit 1 */
	bool cmd20;              /* CMD_SUPPORT bit 0 */
	bool erase_ff;           /* DATA_STAT_AFTER_ERASE: erased blocks read 0xFF */

	/* CMD6 */
	bool hs;                 /* group 1 function 1 (High Speed) supported */
	bool no_cmd6;            /* SD 1.0 card: CMD6 is illegal */

	/* SD Status (ACMD13) */
	uint8_t speed_class;     /* SSR SPEED_CLASS code: 0,1,2,3,4 = class 0,2,4,6,10 */
	uint8_t uhs_grade;
	uint8_t video_class;
	uint8_t app_class;       /* 0, 1 (A1), 2 (A2) */
	uint8_t au_size;         /* SSR AU_SIZE code */
	uint16_t erase_size;     /* SSR ERASE_SIZE (AUs) */
	uint8_t erase_timeout;   /* SSR ERASE_TIMEOUT (s) */
	uint8_t erase_offset;    /* SSR ERASE_OFFSET (s) */

	/* Write protection */
	bool wp_switch;          /* the slot's WP pin says protected (host-side) */
	bool csd_tmp_wp;         /* CSD TMP_WRITE_PROTECT: the card refuses writes */

	/* Timing */
	uint16_t ncr_clocks;       /* N_CR: command end to response start (2..64) */
	uint32_t init_busy_us;     /* first ACMD41 until OCR busy bit set */
	struct sim_dist read_first;  /* command end bit -> first block start bit */
	struct sim_dist read_next;   /* block end -> next block start (multi-block) */
	uint32_t page_blocks;        /* read buffer ("page") in blocks, 0 = none */
	struct sim_dist read_page_hit; /* first block already in that buffer */
	struct sim_dist write_single;/* CMD24 programming busy */
	struct sim_dist write_next;  /* CMD25 busy after each block */
	struct sim_dist write_last;  /* extra busy after the last block (CMD12) */
	struct sim_dist write_slow;  /* busy per block once the cache is full */
	uint32_t cache_blocks;       /* write cache; 0 = no cache model */
	uint32_t cache_drain_blocks_per_ms; /* idle flushing rate */
	struct sim_dist erase_base;  /* CMD38 busy */
	uint64_t erase_per_au_ns;    /* + per AU (au_size) touched */
};

unsigned sim_profile_count(void);
const struct sim_profile *sim_profile_get(unsigned i);
const struct sim_profile *sim_profile_find(const char *name);

/* ---- setup ------------------------------------------------------------ */

struct sim_config {
	uintptr_t base;          /* controller base address */
	uint32_t base_clock_hz;  /* controller input clock (divider source) */
	uint32_t caps;           /* CAPABILITIES; 0 = derived from base_clock_hz */
	bool caps_zero;          /* CAPABILITIES reads 0, like BCM2835 hardware
				  * (the timeout clock stays the one in caps) */
	uint32_t version;        /* SLOTISR_VER */
	/* Host cost of one access, charged to the virtual clock. */
	uint32_t mmio_read_ns;
	uint32_t mmio_write_ns;
	uint32_t data_read_ns;   /* DATA port read (PIO hot path) */
	uint32_t data_write_ns;
	uint32_t timer_read_ns;  /* each timer_* call that reads the clock */
	uint32_t tick_ns;        /* timer_ticks() period, default 1 ns */
	uint32_t buf_blocks;     /* controller buffer depth in blocks (1 or 2) */
	uint32_t clk_stable_ns;  /* internal clock enable -> CLK_STABLE */
	bool fast_forward;       /* skip idle polling to the next event */
	bool write_hazard;       /* lose same-register writes within 2 SD clocks */
	bool strict_cmd_inhibit; /* CMD_INHIBIT stays set after a command error until SRST_CMD */
	bool cto_sets_cmd_done;  /* a command timeout also sets CMD_DONE (QEMU) */
	uint64_t seed;
};

void sim_config_default(struct sim_config *c);
/* The controller as QEMU 7.2's raspi machines show it: 52 MHz base clock
 * in CAPABILITIES 0x052134B4, SLOTISR_VER 0x24020000, a command timeout
 * with CMD_DONE (other fields as sim_config_default). */
void sim_config_qemu(struct sim_config *c);

/* Reset the whole simulator: clock to 0, controller at power-on, the card
 * of profile p inserted and unpowered-idle, memory empty, faults and truth
 * cleared. cfg NULL = defaults. Returns 0 or -1 (bad profile). */
int sim_setup(const struct sim_config *cfg, const struct sim_profile *p);
const struct sim_config *sim_get_config(void);
const struct sim_profile *sim_get_profile(void);

/* ---- virtual clock ------------------------------------------------------ */

uint64_t sim_now_ns(void);
/* Let time pass without a register access (also processes events). */
void sim_advance_ns(uint64_t ns);

/* ---- card access for tests (bypassing the bus, no time cost) ----------- */

/* Byte offset in the card's physical flash (after any fake-capacity wrap). */
void sim_card_peek(uint64_t byte_off, void *buf, size_t len);
void sim_card_poke(uint64_t byte_off, const void *buf, size_t len);
/* Remove (false) or insert (true) the card now. Re-insertion powers it up
 * in the idle state. */
void sim_card_set_present(bool present);
void sim_card_set_wp_switch(bool wp);
/* Current SD state of the card (0 idle .. 8 dis, 9 ina). */
int sim_card_state(void);
const char *sim_card_state_name(int state);
/* The clock/width the card currently sees. */
uint32_t sim_sd_clock_hz(void);
uint8_t sim_bus_width(void);
/* Raw registers as the card sends them (big-endian byte order). */
void sim_card_regs(uint8_t cid[16], uint8_t csd[16], uint8_t scr[8],
		   uint8_t ssr[64]);

/* ---- card layout --------------------------------------------------------- */

/* Write a Pi-style layout onto the simulated card (no bus traffic, no
 * time): an MBR with one 64 MiB FAT32 boot partition at LBA 8192 holding
 * SDBENCH.TXT (len bytes, none when len is 0), the rest unpartitioned.
 * Returns 0, or -1 when the card is too small or the file too large. */
int sim_layout_pi_card(uint64_t card_bytes, const char *sdbench_txt, size_t len);

/* ---- protocol violations (like QEMU's guest_errors) -------------------- */

unsigned sim_violation_count(void);
const char *sim_violation_last(void);
/* The i-th violation since the last clear (the first 32 are kept). */
const char *sim_violation_msg(unsigned i);
void sim_violation_clear(void);

/* ---- fault injection ------------------------------------------------------ */

enum sim_fault_kind {
	SIM_FAULT_CMD_CRC = 1,     /* response arrives with a bad CRC */
	SIM_FAULT_CMD_TIMEOUT,     /* card does not answer */
	SIM_FAULT_CMD_INDEX,       /* response carries a wrong index */
	SIM_FAULT_CMD_END,         /* response end bit is 0 */
	SIM_FAULT_DATA_CRC,        /* read: block CRC bad; write: CRC status negative */
	SIM_FAULT_DATA_TIMEOUT,    /* the card never sends/acknowledges the block */
	SIM_FAULT_DATA_END,        /* end bit error on the block */
	SIM_FAULT_STUCK_BUSY,      /* DAT0 stays low after the command/block */
	SIM_FAULT_REMOVE,          /* card removed when the block starts (data
				    * command) or before the command (others) */
	SIM_FAULT_ACMD41_NEVER_READY, /* OCR busy bit never set */
	SIM_FAULT_HS_REJECT,       /* CMD6 switch to High Speed answers 0xF */
};

/* Command match value for an application command (after CMD55). */
#define SIM_ACMD(n) (0x100 | (n))
#define SIM_ANY_CMD (-1)

struct sim_fault {
	enum sim_fault_kind kind;
	int cmd;            /* command index, SIM_ACMD(n) or SIM_ANY_CMD */
	uint32_t nth;       /* fire on the nth matching command (1-based, 0 = 1) */
	uint32_t times;     /* how many matching commands fire (0 = 1, ~0u = always) */
	uint32_t block;     /* data faults: block index within the command */
	uint64_t busy_ns;   /* STUCK_BUSY: how long (0 = forever) */
};

/* Returns a fault id >= 0, or -1 when the table is full (8 faults). */
int sim_fault_add(const struct sim_fault *f);
void sim_fault_clear(void);
/* How many times fault id fired so far. */
uint32_t sim_fault_fired(int id);

/* ---- ground truth ----------------------------------------------------------
 * One record per command the controller put on the bus (auto CMD12/CMD23
 * are folded into the record of their data command). The interval
 * [t_issue_ns, t_end_ns] is split exactly into the phase fields below:
 *     cmd_ns + access_ns + data_bus_ns + busy_ns + host_wait_ns
 *            + auto_cmd_ns == t_end_ns - t_issue_ns
 * (each nanosecond is charged to the one thing the transfer waited on). */
enum sim_truth_flags {
	SIM_T_APP = 1 << 0,      /* application command */
	SIM_T_READ = 1 << 1,
	SIM_T_WRITE = 1 << 2,
	SIM_T_ERROR = 1 << 3,    /* ended with an error interrupt */
	SIM_T_AUTO12 = 1 << 4,
	SIM_T_AUTO23 = 1 << 5,
	SIM_T_R1B = 1 << 6,
	SIM_T_OPEN = 1 << 7,     /* not finished yet */
	SIM_T_ABORTED = 1 << 8,  /* ended by a reset, not by completion */
};

struct sim_truth {
	uint32_t seq;            /* 0, 1, 2 ... in issue order */
	uint8_t cmd;
	uint32_t arg;
	uint32_t flags;          /* enum sim_truth_flags */
	uint32_t err_irq;        /* error interrupt bits raised (INTERRUPT[31:16]) */
	uint32_t clock_hz;       /* SD clock at issue */
	uint8_t width;           /* bus width at issue */
	uint32_t blksz;
	uint32_t blocks;         /* blocks that crossed the bus */
	uint64_t t_issue_ns;     /* CMDTM written */
	uint64_t t_resp_ns;      /* response end bit (command complete) */
	uint64_t t_first_ready_ns; /* first block complete in the buffer (read) or
				    * first block start on the bus (write), 0 none */
	uint64_t t_last_bus_ns;  /* end of the last block on the bus */
	uint64_t t_end_ns;       /* transfer complete / busy end / response */
	/* critical-path split of [t_issue_ns, t_end_ns] */
	uint64_t cmd_ns;         /* command, N_CR, response (and N_RC wait) */
	uint64_t auto_cmd_ns;    /* auto CMD23 / CMD12 on the CMD line */
	uint64_t access_ns;      /* card latency: read access, inter-block gaps */
	uint64_t data_bus_ns;    /* blocks on the DAT lines (+ N_WR, CRC status) */
	uint64_t busy_ns;        /* DAT0 busy: write programming, R1b, erase */
	uint64_t host_wait_ns;   /* bus idle waiting for the CPU (buffer full/empty,
				  * last block not yet read) */
	/* not on the split: */
	uint64_t host_port_ns;   /* CPU time inside DATA port accesses */
	uint64_t card_access_ns; /* the first-block latency the card drew
				  * (from the command end bit, overlaps cmd_ns) */
	uint32_t blk_first;      /* where its blocks start in the block log */
	uint32_t blk_count;      /* blocks in the log (touched by bus or CPU) */
};

/* Per-block truth of a data command: when block k crossed the bus and when
 * the CPU finished with it (read: last word taken from the port; write:
 * last word written into it). 0 = did not happen. */
struct sim_block_truth {
	uint64_t bus_start_ns;
	uint64_t bus_end_ns;
	uint64_t cpu_done_ns;
};
/* Block k of record t; 0, or -1 when k is beyond the transfer or the
 * block log (last 65536 blocks) no longer holds it. */
int sim_truth_block(const struct sim_truth *t, unsigned k,
		    struct sim_block_truth *out);

unsigned sim_truth_count(void);                  /* records ever made */
const struct sim_truth *sim_truth_get(unsigned seq); /* NULL if dropped (ring of 4096) */
const struct sim_truth *sim_truth_last(void);    /* NULL if none */
/* The last record for command index cmd (app: SIM_ACMD(n)), NULL if none. */
const struct sim_truth *sim_truth_find_last(int cmd);
void sim_truth_reset(void);

/* Sum of the closed records with seq in [from, to) (e.g. one workload:
 * from = sim_truth_count() before it, to = after it). */
struct sim_truth_sum {
	unsigned records, errors;
	uint64_t blocks;
	uint64_t total_ns;       /* sum of t_end_ns - t_issue_ns */
	uint64_t cmd_ns, auto_cmd_ns, access_ns, data_bus_ns, busy_ns,
		 host_wait_ns, host_port_ns;
};
void sim_truth_sum(unsigned from, unsigned to, struct sim_truth_sum *out);

/* The bus time of one 512-byte-style block frame in SD clocks
 * (start bit + blksz*8/width + CRC16 + end bit): 4114 (1-bit) / 1042 (4-bit)
 * for 512 bytes. Exported for tests and the benchmark's own checks. */
uint32_t sim_block_clocks(uint32_t blksz, uint8_t width);
/* ns for n SD clocks at hz, rounded to the nearest ns. */
uint64_t sim_clocks_ns(uint64_t clocks, uint32_t hz);

#endif

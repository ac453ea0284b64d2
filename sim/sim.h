/*
 * sim.h - the host-side SD simulator: a simulated Arasan/SDHCI controller
 * (BCM2835 EMMC register map), a simulated SD memory card, a virtual clock
 * with a timing model, fault injection and ground-truth recording.
 *
 * The real drivers run unchanged against it: drivers/mmio.h routes every
 * register access of a host build to host_bus_read32/host_bus_write32, and
 * the simulator implements the whole drivers/timer.h API on its virtual
 * clock. One simulator instance per process (tests run sequentially).
 *
 * See sim/README.md for the model, its units and every simplification.
 */
#ifndef SDB_TESTS_SIM_H
#define SDB_TESTS_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the simulated controller answers by default (BCM2835 EMMC). */
#define SIM_EMMC_BASE_DEFAULT 0x20300000u

/* The platforms the simulated controller can stand for (a host profile's
 * "platform" key). BCM2835: the Arasan EMMC of the Pi 0-3 at
 * SIM_EMMC_BASE_DEFAULT. BCM2712 (Pi 5): the SoC's SDHCI above 4 GiB with
 * its integration ("cfg") registers at base + SIM_BCM2712_CFG_OFFSET, the
 * slot's card-detect switch not wired to the controller (presence must be
 * forced through SDIO_CFG_CTRL, or the controller sees no card), and a
 * 1.8 V I/O regulator. The BCM2712 base needs a 64-bit host build
 * (uintptr_t of 64 bits): sim_host_parse() refuses it otherwise. No
 * emulator models a Pi 5; this platform is the simulator's reading of the
 * public device tree and drivers, not a measurement. */
enum sim_platform { SIM_PLATFORM_BCM2835 = 0, SIM_PLATFORM_BCM2712 = 1 };
#define SIM_BCM2712_SDHCI_BASE	0x1000fff000ull
#define SIM_BCM2712_CFG_OFFSET	0x400u
#define SIM_BCM2712_CFG_SPAN	0x200u
#define SIM_BCM2712_CLOCK_HZ	200000000u
#define SIM_IO_SETTLE_NS	5000000ull /* the Pi 5 device tree's regulator settling */
/* The BCM2712's always-on GPIO block (sim_gio_aon.c): AON GPIO 3 selects
 * the SD I/O regulator, AON GPIO 4 the card's supply on the Pi 5. */
#define SIM_BCM2712_GIO_AON_BASE	0x107d517c00ull
#define SIM_BCM2712_GIO_AON_SPAN	0x40u

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
	char name[48];
	char desc[160];

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
	/* UHS-I: S18A in ACMD41 and CMD11 (uhs), the group 1 access modes
	 * beyond SDR12/SDR25 (sdr50, sdr104, ddr50), and the sampling
	 * window tuning finds: taps tune_first .. tune_first + tune_window - 1
	 * of the controller's 40 read the tuning block right (window 0:
	 * tuning finds nothing). */
	bool uhs;
	bool sdr50, sdr104, ddr50;
	uint8_t tune_first, tune_window;

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

	/* Timing on the wires the card controls, in SD clocks */
	uint16_t ncr_clocks;       /* N_CR: command end to response start (2..64) */
	uint16_t read_gap_clocks;  /* N_AC between the blocks of a multi-block
				    * read, at least (2 = the minimum, 0 = 2) */
	uint16_t busy_min_clocks;  /* DAT0 low at least this long after each
				    * write block's CRC status (0 = no minimum) */
	/* Timing inside the card, in ns */
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

	/* Flash geometry (0 = not modelled) */
	uint64_t flash_page_bytes;   /* a read crossing a page boundary pays
					read_cross_page on the block after it */
	uint64_t erase_block_bytes;  /* ... an erase-block boundary: read_cross_eb */
	struct sim_dist read_cross_page;
	struct sim_dist read_cross_eb;
	struct sim_dist write_unaligned; /* extra busy when a write starts or
					    ends inside a flash page */
	uint32_t open_aus;           /* AUs a card keeps open for writing, 0 = any */
	uint64_t open_au_bytes;      /* their size; 0 = the SD Status AU */
	struct sim_dist au_switch;   /* extra busy when a write opens an AU and
					every open one is in use (LRU closed) */
	bool preerase;               /* ACMD23 changes the busy (below) */
	struct sim_dist write_next_preerased; /* CMD25 busy per pre-erased block */
	struct sim_dist write_last_preerased; /* end of a pre-erased CMD25 */
	/* Garbage collection every N blocks written (card-wide count; 0 = none):
	 * the block that completes each N pays periodic_stall on its busy. */
	uint32_t periodic_stall_blocks;
	struct sim_dist periodic_stall;
	/* A write block that starts an erase block (erase_block_bytes) after
	 * the first block of a write: extra busy (a new block is opened). */
	struct sim_dist write_cross_eb;
	/* A write of at most 8 blocks (4 KiB) that does not continue where
	 * the previous write ended: extra busy at its end (the card's
	 * read-modify-write of a partial page outside its sequential stream). */
	struct sim_dist write_isolated;

	/* SD 6.00 function extension registers (SD Physical Layer §5.7:
	 * CMD48/CMD49, SCR CMD_SUPPORT bit 34) with the General Information,
	 * a Power Management function and the Performance Enhancement
	 * function: its volatile cache and its command queue (sim_card_cq.c). */
	bool ext_regs;
	uint32_t perf_cache_blocks;        /* volatile cache; 0 = no cache support */
	struct sim_dist perf_cache_write;  /* busy per block taken into the cache */
	uint32_t perf_cache_drain_per_ms;  /* cached blocks committed per ms on its own */
	struct sim_dist perf_flush;        /* busy of a Cache Flush, plus ... */
	uint64_t perf_flush_per_block_ns;  /* ... this per block still cached */
	uint8_t cq_depth;                  /* command queue depth; 0 (or 1) = no queue */
	uint8_t cq_lanes;                  /* read tasks the card prepares at once (0 = 1) */
	struct sim_dist cq_task;           /* scheduling a queued task: from its CMD45
					    * until the card can start on it (0 = none) */
	/* Broken implementations (the failure modes a kernel meets): */
	uint8_t cq_timeout_depth;          /* a task queued behind this many never
					    * becomes ready (0 = never happens) */
	bool flush_reorders;               /* a write before a Cache Flush lands after
					    * the writes that follow it */
	bool flush_ignored;                /* Cache Flush ends at once, commits nothing */
	bool cq_rejects_cmd44;             /* claims a queue, CMD44 is illegal */
};

/* Built-in profiles: sim/profiles/NAME.txt, compiled in (the loader
 * parses them at first use; a broken built-in file aborts with its error). */
unsigned sim_profile_count(void);
const struct sim_profile *sim_profile_get(unsigned i);
const struct sim_profile *sim_profile_find(const char *name);

/* Parse a profile text (key = value lines, sim/README.md "Profile
 * files"). origin names it in errors ("file.txt"). Returns 0, or -1 with
 * "origin:line: key: what is wrong" in err. */
int sim_profile_parse(const char *text, const char *origin,
		      struct sim_profile *out, char *err, size_t errlen);
/* A built-in profile by name, or else a profile file by path. */
int sim_profile_load(const char *name_or_path, struct sim_profile *out,
		     char *err, size_t errlen);
/* Write p as profile text (every field that differs from 0). */
size_t sim_profile_format(const struct sim_profile *p, char *buf, size_t cap);

/* ---- setup ------------------------------------------------------------ */

struct sim_config {
	enum sim_platform platform; /* whose controller this is (above) */
	bool sdr104;             /* BCM2712: the board has the Pi 5's switchable SD I/O
				  * regulator (AON GPIO 3), so UHS-I up to SDR104 */
	bool io_regulator_stuck; /* BCM2712: AON GPIO 3 never switches the regulator
				  * (SIM_FAULT_IO_REGULATOR for the whole run) */
	uintptr_t base;          /* controller base address */
	uint32_t base_clock_hz;  /* controller input clock (divider source) */
	uint32_t caps;           /* CAPABILITIES; 0 = derived from base_clock_hz */
	bool caps_zero;          /* CAPABILITIES reads 0, like BCM2835 hardware
				  * (the timeout clock stays the one in caps) */
	uint32_t version;        /* SLOTISR_VER */
	uint32_t caps_hi;        /* CAPABILITIES[63:32] (UHS-I modes, tuning) */
	/* The host (a "host profile", sim/hosts/NAME.txt): what the CPU
	 * pays per access, charged to the virtual clock ... */
	char host_name[32];
	/* The DMA engine's view of memory: bus address bits 31:30 it must
	 * carry (0x40000000 BCM2835, 0xC0000000 BCM2836/7); 0 = any alias. */
	uint32_t dma_mem_alias;
	uint32_t mmio_read_ns;
	uint32_t mmio_write_ns;
	uint32_t data_read_ns;   /* DATA port read (PIO hot path) */
	uint32_t data_write_ns;
	uint32_t timer_read_ns;  /* each timer_* call that reads the clock */
	uint32_t tick_ns;        /* timer_ticks() period, default 1 ns */
	/* ... and how its controller drives the wires. */
	uint32_t buf_blocks;     /* controller buffer depth in blocks (1..4) */
	uint32_t cmd_latency_ns; /* CMDTM write -> the command's start bit
				  * (clock-domain crossing, before the next
				  * SD clock edge) */
	uint16_t cmd_gap_clocks; /* idle clocks between a response and the next
				  * command (N_RC / N_CC, at least 8) */
	uint16_t read_gap_clocks;/* the controller stops the SD clock this many
				  * clocks after each read block (0 = never) */
	uint16_t write_nwr_clocks; /* N_WR before each write block (at least 2) */
	uint32_t clk_stable_ns;  /* internal clock enable -> CLK_STABLE */
	/* The controller: "emmc" (BCM2835 Arasan: the bcm2835_emmc quirk
	 * set), "emmc2" (BCM2711 EMMC2: the bcm2711_emmc2 quirk set) or
	 * "sdhci" (an SDHCI controller of no Pi: harness/sim_board.c
	 * sim_nopi_quirks, the BCM2835's integration but with no authority
	 * bounding its own idle clocks, sd_host.h idle_clk_max); tools choose
	 * the driver's quirk set from it. */
	char controller[8];
	/* The real SoC whose table (platform/<soc>.c: "BCM2835", "BCM2836",
	 * "BCM2837", "BCM2711", "BCM2712") builds the simulated board, its
	 * controllers at that SoC's addresses (harness/sim_board.c); "": the
	 * simulator's generic board. The models do not read it. */
	char soc[12];
	/* ADMA2 (SDHCI 3.00 §1.13, 32-bit descriptors): CAPABILITIES says so
	 * and the controller fetches descriptors and data from memory
	 * (sim_dma.c). The DMA master sees ARM physical A at bus address
	 * A + dma_offset for A < dma_window; anything else is an ADMA error. */
	bool adma2;
	/* 64-bit ADMA2 (SDHCI 3.00 DMA Select 11b, 96-bit descriptors, the
	 * ADMA System Address's high half): CAPABILITIES bit 28 (64-bit
	 * System Bus Support) says so; the window may then exceed 4 GiB. */
	bool adma64;
	uint32_t dma_offset;
	uint64_t dma_window;
	uint32_t dma_word_ns;    /* the master moves one 32-bit word */
	uint32_t dma_desc_ns;    /* the master fetches one descriptor */
	bool fast_forward;       /* skip idle polling to the next event */
	bool write_hazard;       /* lose same-register writes within 2 SD clocks */
	bool strict_cmd_inhibit; /* CMD_INHIBIT stays set after a command error until SRST_CMD */
	bool cto_sets_cmd_done;  /* a command timeout also sets CMD_DONE (QEMU) */
	/* When the SDHCI Block Count falls during a multi-block transfer
	 * (host key blkcnt; docs/silicon.md, belief blkcnt-bus): the
	 * authorities allow each of enum sim_blkcnt. */
	uint8_t blkcnt;
	/* SDHOST: what SDEDM's fill reads once every word of a write was
	 * written (host key sdhost_write_end_fill; docs/silicon.md, belief
	 * sdhost-fifo-after-write): false = full (16, the model's first
	 * choice), true = the words still in the FIFO (as QEMU shows the
	 * level, 0 there since its card takes each word at once). */
	bool sdhost_end_fill_level;
	/* SDHOST: how SDEDM bits 8:4 follow the FIFO's fill (host key
	 * sdhost_edm_fill; docs/silicon.md, belief sdhost-edm-fifo): enum
	 * sim_sdhost_fill; with SIM_FILL_LAG the bus's words show
	 * sdhost_fill_lag SD clocks late, with SIM_FILL_STEPPED the value
	 * moves in steps of sdhost_fill_step words (host keys of those
	 * names). */
	uint8_t sdhost_fill;
	uint8_t sdhost_fill_step;
	uint16_t sdhost_fill_lag;
	/* SDHOST: when SDEDM's state machine says READDATA on a read (host
	 * key sdhost_edm_fsm; belief sdhost-edm-fsm): enum sim_sdhost_fsm. */
	uint8_t sdhost_fsm;
	/* When SDHCI Present State's Buffer Write Enable is set during a PIO
	 * write (host key buf_write_enable; docs/silicon.md, belief
	 * buf-write-enable): enum sim_bwe. */
	uint8_t bwe;
	/* What Present State's DAT[0] line level shows while the card holds
	 * DAT0 low after a write block (host key dat0_level; docs/silicon.md,
	 * belief dat0-level): enum sim_dat0; with SIM_DAT0_LAG the level goes
	 * high dat0_lag_ns after the line (host key dat0_lag). */
	uint8_t dat0;
	uint32_t dat0_lag_ns;
	uint64_t seed;
	/* The controller at 'base' is the BCM2835 SDHOST (sim_sdhost.c)
	 * instead of the SDHCI; its input clock is base_clock_hz. */
	bool sdhost;
};

/* SDHCI Block Count during a multi-block transfer (struct sim_config
 * .blkcnt). BUS: one less as each block's end bit crosses the bus (what
 * the firmware's read look was written for). DRAIN: one less when the CPU
 * (or the DMA master) has moved a whole block through the data port, as
 * QEMU's hw/sd/sdhci.c does (sdhci_read_dataport, sdhci_write_dataport).
 * STALE: the value written stays until the transfer ends (SDHCI
 * Simplified Specification: a read during a transfer may return an
 * invalid value; BCM2835 ARM Peripherals: not to be accessed while a
 * transfer is ongoing). */
enum sim_blkcnt { SIM_BLKCNT_BUS = 0, SIM_BLKCNT_DRAIN, SIM_BLKCNT_STALE, SIM_BLKCNT_N };
const char *sim_blkcnt_name(unsigned v);

/* SDHCI Buffer Write Enable during a PIO write (struct sim_config .bwe).
 * SLOT: set while a block's space is free in the buffer (SDHCI §2.2.9:
 * "space for one block"; the model's first choice: the CPU fills one
 * block while the bus carries the one before). EMPTY: set only when the
 * buffer holds no block, as QEMU's hw/sd/sdhci.c shows it
 * (sdhci_write_dataport clears it once a block is filled, and it is set
 * again when the block has gone to the card): the CPU sees one block of
 * buffer whatever the depth. Buffer Write Ready follows (0 to 1). */
enum sim_bwe { SIM_BWE_SLOT = 0, SIM_BWE_EMPTY, SIM_BWE_N };
const char *sim_bwe_name(unsigned v);

/* SDHCI Present State DAT[0] line level while the card is busy after a
 * write block (struct sim_config .dat0). LIVE: low exactly while the card
 * holds the line (SDHCI §2.2.9: the level of the line, "to check the busy
 * status"). LAG: low from the busy's start to dat0_lag_ns after its end
 * (a slow synchroniser; the controller's own busy detection, Transfer
 * Complete, stays live). NONE: reads high whatever the card does (a level
 * that does not reflect the busy). */
enum sim_dat0 { SIM_DAT0_LIVE = 0, SIM_DAT0_LAG, SIM_DAT0_NONE, SIM_DAT0_N };
const char *sim_dat0_name(unsigned v);

/* SDHOST SDEDM bits 8:4, the FIFO's fill (struct sim_config
 * .sdhost_fill). LIVE: the words in the FIFO now (Linux bcm2835.c
 * bcm2835_transfer_block_pio trusts it so; the model's first choice).
 * LAG: the CPU's own moves show at once, the bus's words sdhost_fill_lag
 * SD clocks late (the count crossing from the card's clock domain to the
 * CPU's through a synchroniser): a read's fill reads low, a write's
 * high, never a word that is not there. STEPPED: the value is taken
 * afresh only at events, as QEMU hw/sd/bcm2835_sdhost.c writes fifo_len
 * into SDEDM only when its bcm2835_sdhost_fifo_run runs: a CPU access
 * to SDDATA, the fill crossing a multiple of sdhost_fill_step words, a
 * block's end on the bus. */
enum sim_sdhost_fill { SIM_FILL_LIVE = 0, SIM_FILL_LAG, SIM_FILL_STEPPED, SIM_FILL_N };
const char *sim_sdhost_fill_name(unsigned v);
/* SDHOST SDEDM bits 3:0 on a read between a block's start bit and its
 * first word in the FIFO (struct sim_config .sdhost_fsm). START: READDATA
 * from the start bit (the model's first choice); WORDS: READWAIT until
 * the first word is in the FIFO. Linux bcm2835.c and QEMU name the
 * states (SDEDM_FSM_READDATA 2, SDEDM_FSM_READWAIT 4) but say nothing of
 * when the one becomes the other. */
enum sim_sdhost_fsm { SIM_SDH_FSM_START = 0, SIM_SDH_FSM_WORDS, SIM_SDH_FSM_N };
const char *sim_sdhost_fsm_name(unsigned v);

void sim_config_default(struct sim_config *c);
/* The controller as QEMU 7.2's raspi machines show it: 52 MHz base clock
 * in CAPABILITIES 0x052134B4, SLOTISR_VER 0x24020000, a command timeout
 * with CMD_DONE (other fields as sim_config_default). */
void sim_config_qemu(struct sim_config *c);

/* Host profiles (sim/hosts/NAME.txt, compiled in: pi0, pi1, pi2, pi3,
 * pi4, sim): set the host fields of c from a built-in host by name, or from
 * a host file by path. Fields the file does not name keep their value in c.
 * Returns 0, or -1 with "origin:line: key: what is wrong" in err. */
int sim_host_parse(const char *text, const char *origin, struct sim_config *c,
		   char *err, size_t errlen);
int sim_host_load(const char *name_or_path, struct sim_config *c, char *err,
		  size_t errlen);
unsigned sim_host_count(void);
const char *sim_host_name(unsigned i);
const char *sim_host_desc(unsigned i);

/* Reset the whole simulator: clock to 0, controller at power-on, the card
 * of profile p inserted and unpowered-idle, memory empty, faults and truth
 * cleared. cfg NULL = defaults. Returns 0 or -1 (bad profile). The profile
 * is copied. */
int sim_setup(const struct sim_config *cfg, const struct sim_profile *p);
/* Restart the card's random numbers from the configured seed and a tag
 * (sdbsim --seed-per-workload: the workload's name), so that two runs at
 * different bus settings draw the same latencies for the same workload. */
void sim_rng_reseed_tag(const char *tag);
const struct sim_config *sim_get_config(void);
const struct sim_profile *sim_get_profile(void);

/* The card's I/O supply in mV: 3300 after sim_setup(). Only a platform with
 * a regulator (BCM2712) can switch it (3300 or 1800); elsewhere, or to
 * another value, the switch is a protocol violation and returns -1. A
 * command issued within SIM_IO_SETTLE_NS of a switch is a violation too. */
int sim_set_io_voltage(unsigned mv);
unsigned sim_io_voltage_mv(void);

/* ---- DMA view of memory (sim_dma.c) -------------------------------------
 *
 * Host builds have host pointers where the target has ARM physical
 * addresses. sim_setup() installs drivers/dma/dma_addr.h's hook: each
 * buffer a driver asks about gets an ARM physical address in the
 * simulated machine's first GiB (from 1 MiB up, keeping the pointer's
 * offset within 4 KiB), and the controller's DMA master turns its bus
 * addresses back into host memory through the same map, after removing
 * the configured dma_offset. A driver that forgets the offset or hands
 * over memory outside the window gets an ADMA error, as on hardware. */
/* The next buffer mapped gets ARM physical address 'phys' (tests: a buffer
 * beyond the DMA window). */
void sim_dma_place_next(uint64_t phys);
/* Number of ADMA2 descriptors fetched and bytes moved since sim_setup(). */
uint64_t sim_dma_desc_fetched(void);
uint64_t sim_dma_bytes(void);

/* ---- virtual clock ------------------------------------------------------ */

uint64_t sim_now_ns(void);
/* Let time pass without a register access (also processes events). */
void sim_advance_ns(uint64_t ns);

/* ---- card access for tests (bypassing the bus, no time cost) ----------- */

/* Byte offset in the card's physical flash (after any fake-capacity wrap). */
void sim_card_peek(uint64_t byte_off, void *buf, size_t len);
/* A sum over every stored block outside [first, first + count) (its
 * number and bytes): equal before and after = nothing written there. */
uint64_t sim_card_sum_outside(uint64_t first, uint64_t count);
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
/* The card's Performance Enhancement state (sim_card_cq.c): cache and
 * command queue enabled, blocks in the volatile cache not yet committed,
 * tasks queued. sim_card_power_loss(): the supply is cut and comes back:
 * what was only in the cache is lost (the flash keeps what it had before
 * those writes), the enables and the queue reset. */
bool sim_card_cache_on(void);
bool sim_card_cq_on(void);
unsigned sim_card_cache_dirty(void);
unsigned sim_card_cq_queued(void);
uint64_t sim_card_flushes(void);
void sim_card_power_loss(void);
/* Raw registers as the card sends them (big-endian byte order). */
void sim_card_regs(uint8_t cid[16], uint8_t csd[16], uint8_t scr[8],
		   uint8_t ssr[64]);

/* ---- the board around the controller (UHS-I) ---------------------------
 * The SD I/O regulator (3.3 V / 1.8 V signalling) and the card supply, as
 * a board hook drives them (drivers/sdhci/sdhci.h struct sdhci_board).
 * Cutting the supply resets the card to power-on (3.3 V, idle). */
int sim_board_set_io_mv(unsigned mv);
int sim_board_set_card_power(bool on);
unsigned sim_board_io_mv(void);
/* The slot's pins moved to another controller (harness/sim_board.c, as GPIO
 * 48-53 choose between the EMMC and SDHOST on a BCM2835): the controller
 * at base now has the card, SDHOST when sdhost, else the SDHCI. The card
 * keeps its state, as on the board. */
void sim_board_route_slot(bool sdhost, uintptr_t base);
/* What the card runs: signalling voltage (mV) and its CMD6 group 1
 * function (0 SDR12/DS, 1 SDR25/HS, 2 SDR50, 3 SDR104, 4 DDR50). */
unsigned sim_card_io_mv(void);
unsigned sim_card_g1(void);
/* Tuning commands the controller has run since sim_setup(). */
unsigned sim_tuning_count(void);
/* BCM2712 platform, the always-on GPIO block: the level AON GPIO 'line'
 * drives (0/1; -1 when it is an input), how often the card's supply was
 * cut through AON GPIO 4 and the regulator switched through AON GPIO 3
 * since sim_setup(). */
int sim_gio_aon_line(unsigned line);
unsigned sim_gio_aon_power_offs(void);
unsigned sim_gio_aon_regulator_switches(void);

/* ---- the board's GPIO, mailbox and status LED ------------------------------
 * The BCM2835/6/7/2711 GPIO block (sim_gpio.c) at periph + 0x200000 and
 * the mailbox's property channel (sim_mbox.c) at periph + 0xb880, periph
 * being the simulated controller's peripheral base (its base less the
 * EMMC's or SDHOST's offset; not on the BCM2712 platform). Tests may move
 * them (sim_gpio_place, sim_mbox_reset) to a Pi's own periph base. */
void sim_gpio_place(uintptr_t periph_base);
/* A pin's function (GPFSEL, 0-7: 0 input, 1 output) and the level it
 * drives (0/1; -1 when it is not an output). */
unsigned sim_gpio_function(unsigned pin);
int sim_gpio_pin(unsigned pin);
/* The mailbox at periph_base + 0xb880, cleared: no expander line set, the
 * expander answering, board revision 0. */
void sim_mbox_reset(uintptr_t periph_base);
void sim_mbox_set_revision(uint32_t rev);
/* false: "set GPIO state" (0x00038041) is left unanswered. */
void sim_mbox_expander(bool answers);
/* Expander line n's level (line 128 + n of the tag), -1 never set. */
int sim_mbox_expgpio(unsigned line);
/* Tags left unanswered since the reset. */
unsigned sim_mbox_refused_tags(void);
/* The status LED's line as the board drives it: one line is watched and
 * every change of its driven level (-1 not driven, 0 low, 1 high) is
 * logged with the virtual time, up to SIM_LED_EDGES changes. */
enum sim_led_src { SIM_LED_NONE, SIM_LED_GPIO, SIM_LED_EXPANDER, SIM_LED_AON };
#define SIM_LED_EDGES 256
struct sim_led_edge {
	uint64_t t_ns;
	int level;
};
void sim_led_watch(enum sim_led_src src, unsigned line);
unsigned sim_led_edges(struct sim_led_edge *out, unsigned max);

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

/* ---- the BCM2835 DMA engine (sim_bcm2835_dma.c) --------------------------- */

/* (Its memory is the DMA view of memory below: dma_arm_phys().) */
enum sim_dma_fault {
	SIM_DMA_NO_FAULT = 0,
	SIM_DMA_READ_ERROR, /* the next started run ends with CS.ERROR, DEBUG.READ_ERROR */
	SIM_DMA_HANG,       /* the next started run never moves a word */
};
void sim_dma_fault(enum sim_dma_fault f);
/* The next started run moves 'words' words, then stays active without
 * moving more (a DREQ that stops mid-transfer); the run after is normal. */
void sim_dma_stall_after(uint32_t words);

struct sim_dma_stats {
	uint32_t starts;          /* channel starts (CS.ACTIVE 0 -> 1) */
	uint32_t cbs;             /* control blocks loaded */
	uint32_t words_from_port; /* read from the EMMC data port */
	uint32_t words_to_port;   /* written to it */
};
void sim_dma_get_stats(struct sim_dma_stats *s);

/* The SDHOST model's data port (sim_config.sdhost): words the CPU read
 * from / wrote to SDDATA, and the engine's share (tests: who moved what). */
struct sim_sdhost_stats {
	uint32_t cpu_words_read;
	uint32_t cpu_words_written;
	uint32_t dma_words_read;
	uint32_t dma_words_written;
};
void sim_sdhost_get_stats(struct sim_sdhost_stats *s);

/* Called with every command the card receives, before it acts on it
 * (tests: what reached the card, e.g. the soak's check that every write
 * lands in the test area). */
extern void (*sim_card_cmd_hook)(uint8_t idx, uint32_t arg, bool app);

/* Called with every CPU write to a DMA register (tests: ordering logs). */
extern void (*sim_dma_write_hook)(uintptr_t addr, uint32_t val);

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
	/* ADMA2 faults ('block' = the descriptor's index in the table, in
	 * fetch order): the descriptor reads back with its valid bit clear;
	 * its length reads back 512 bytes short (a length mismatch at the
	 * end of the table). */
	SIM_FAULT_ADMA_DESC,
	SIM_FAULT_ADMA_LEN,
	SIM_FAULT_UHS_SWITCH,      /* after CMD11 the card never releases DAT[3:0] */
	SIM_FAULT_TUNING,          /* no tap reads the tuning block right */
	SIM_FAULT_UHS_REJECT,      /* CMD6 switch to SDR50/SDR104/DDR50 answers 0xF */
	SIM_FAULT_IO_REGULATOR,    /* BCM2712: AON GPIO 3 stuck, the I/O regulator never switches */
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

/* ---- ground truth: what happened on the wires ---------------------------
 *
 * Every nanosecond since sim_setup() is charged to exactly one category,
 * from what the simulated wires, the card and the CPU were doing at that
 * moment (sim/README.md, "Ground truth"). Two lanes are watched: the
 * CMD line and the DAT lines. When bits move on either, the time is bus.
 * An idle stretch of the DAT lines between two transmissions is charged,
 * beyond the protocol's minimum gap, to the one thing still missing when
 * it ended (the card, the controller's own idle clocks, or the CPU). */
enum sim_wcat {
	SIM_W_CMD = 0,   /* bus: command / response bits on CMD (auto commands too) */
	SIM_W_DATA,      /* bus: data frames and CRC status tokens on DAT */
	SIM_W_GAP,       /* bus: the protocol's minimum idle clocks (N_CR, N_AC,
			  * N_WR, N_CRC = 2; N_RC/N_CC = 8) and clock-edge waits */
	SIM_W_CTRL_GAP,  /* bus: idle clocks the controller adds beyond them
			  * (clock stopped between read blocks, longer N_WR,
			  * longer command gaps) */
	SIM_W_CARD,      /* card: silent beyond the minimum (N_CR, read access,
			  * inter-block latency, data timeout) */
	SIM_W_BUSY,      /* card: DAT0 held low (programming, R1b, erase) */
	SIM_W_HOST_CPU,  /* host: the bus waits for the CPU (buffer full on a
			  * read, empty on a write; last block not drained) */
	SIM_W_HOST_CTRL, /* host: CMDTM written, command not yet on the line */
	SIM_W_HOST_SW,   /* host: nothing pending on the bus (software between
			  * commands, the CPU noticing an event) */
	SIM_W_NCAT
};

struct sim_wire_sum {
	uint64_t t_from, t_to;   /* the window */
	uint64_t ns[SIM_W_NCAT];
	/* The critical path (what a faster part would have shortened), by
	 * category: the CPU runs one request at a time and at every moment
	 * either works or waits for the controller (polls a status that does
	 * not change, sleeps between polls). Time it waited is charged to
	 * what the wires did meanwhile; time it worked while the wires waited
	 * for it to the host category; time both worked to the side the
	 * other then waited for (HOST_CPU when the wires waited). The sum
	 * equals the window once nothing is pending (sim_wire_totals at a
	 * quiet moment). */
	uint64_t wait_ns[SIM_W_NCAT];
};

/* The critical-path shares of a sum (wait_ns[]) in percent of its window. */
void sim_wire_critical(const struct sim_wire_sum *s, double *card_pct, double *bus_pct,
		       double *host_pct);

const char *sim_wcat_name(enum sim_wcat c);
/* Card / bus / host ns of a sum (bus = CMD+DATA+GAP+CTRL_GAP, card =
 * CARD+BUSY, host = HOST_*). */
uint64_t sim_wire_bus_ns(const struct sim_wire_sum *s);
uint64_t sim_wire_card_ns(const struct sim_wire_sum *s);
uint64_t sim_wire_host_ns(const struct sim_wire_sum *s);
/* Totals from sim_setup() up to now (t_to = how far the truth is decided:
 * now, unless a transfer is half-way through an idle stretch). */
void sim_wire_totals(struct sim_wire_sum *out);
/* b - a, per category (windows from two sim_wire_totals()). */
void sim_wire_diff(const struct sim_wire_sum *b, const struct sim_wire_sum *a,
		   struct sim_wire_sum *out);
/* Wire intervals described for times already decided (a model bug: 0). */
unsigned sim_wire_late_count(void);
/* The window [a, b] from the recent history (about the last million
 * segments); -1 if it is no longer kept or not decided yet. */
int sim_wire_window(uint64_t a, uint64_t b, struct sim_wire_sum *out);

/* One record per command the controller put on the bus (auto CMD12/CMD23
 * are folded into the record of their data command), with the wire truth
 * of its interval [t_issue_ns, t_end_ns]:
 *     sum of wire_ns[] == t_end_ns - t_issue_ns
 * (filled once the truth is decided up to t_end_ns: at the latest by the
 * next register access after the command ended). */
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
	SIM_T_SPLIT = 1 << 9,    /* wire_ns[] is filled */
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
	uint64_t wire_ns[SIM_W_NCAT]; /* the truth of [t_issue_ns, t_end_ns] */
	/* not on the split: */
	uint64_t host_port_ns;   /* CPU time inside DATA port accesses */
	uint64_t card_access_ns; /* the first-block latency the card drew
				  * (from the command end bit, overlaps the response) */
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
 * from = sim_truth_count() before it, to = after it). Records overlap only
 * when a command is sent during another one's transfer (an abort): use
 * sim_wire_totals() for windows. */
struct sim_truth_sum {
	unsigned records, errors;
	uint64_t blocks;
	uint64_t total_ns;       /* sum of t_end_ns - t_issue_ns */
	uint64_t wire_ns[SIM_W_NCAT];
	uint64_t host_port_ns;
};
void sim_truth_sum(unsigned from, unsigned to, struct sim_truth_sum *out);

/* The card / bus / host truth of [a, b] with several tasks in flight
 * (docs/attribution.md, "Several tasks in flight"): the wire truth
 * (sim_wire_window: bus = CMD+DATA+GAP+CTRL_GAP, card = CARD+BUSY, host =
 * HOST_*), except that a stretch in which the host was asking for the
 * Task Status (CMD13 with SEND_TASK_STATUS, from the first such poll to
 * the next other command) while tasks were queued and none of them ready
 * is the card's whole, CMD13 frames and idle bus alike. 0, or -1 when the
 * wire history no longer holds the window. */
int sim_truth_queue(uint64_t a, uint64_t b, uint64_t *card_ns, uint64_t *bus_ns,
		    uint64_t *host_ns);

/* SD clocks a data block occupies on the DAT lines, counted from the bits
 * each line carries (start bit, its share of the data, its CRC16, end
 * bit), and a command / response: exported for tests. */
uint32_t sim_wire_block_clocks(uint32_t blksz, uint8_t width);
/* ns for n SD clocks at hz, rounded to the nearest ns. */
uint64_t sim_clocks_ns(uint64_t clocks, uint32_t hz);

#endif

/*
 * sdhci.h - a generic SD Host Controller (SDHCI v3.00) core as an SD host
 * (drivers/sd/sd_host.h): command, PIO data, recovery, bounded waits and
 * phase timestamps, with what differs between SoCs in a quirk set (struct
 * sdhci_quirks) chosen by whoever builds the host: bcm2835_emmc.c (the
 * Arasan EMMC of the Pi 0-3), bcm2711_emmc2.c (the EMMC2 of the Pi 4),
 * bcm2712_sdhci.c (the SD slot's SDHCI of the Pi 5).
 *
 * The caller owns each controller's state (struct sdhci_host): the
 * platform builds one per controller it uses, so two may exist at once.
 */
#ifndef SDB_DRIVERS_SDHCI_H
#define SDB_DRIVERS_SDHCI_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/sd/sd_host.h"
#include "drivers/dma/bcm2835_dma.h"

/* What one SoC's integration of the controller needs (all fields static). */
struct sdhci_quirks {
	const char *name;          /* host->name: "emmc", "emmc2", ... */
	/* Write-hazard pacing: below this SD clock every register write is
	 * followed by two SD clocks (the controller can lose the second of
	 * two writes to one register closer than that), and so are the
	 * writes that change the clock divider; 0 = never paced. */
	uint32_t pace_below_hz;
	/* Lowest SD clock the integration is run at (0 = the divider's). */
	uint32_t f_min_hz;
	/* CAPABILITIES may read 0 (BCM2835: Linux MISSING_CAPS): assume
	 * 4-bit, high speed, 3.3 V and this maximum block size then; 0 = a
	 * zero CAPABILITIES register is taken at its word. */
	uint32_t missing_caps_max_block;
	/* The high-speed enable bit of Host Control is not set (the BCM2835
	 * integration: Linux NO_HISPD_BIT); high speed is only the clock. */
	bool no_hispd_bit;
	/* Card detect means nothing on hardware (where the platform supplies
	 * the base clock): Linux BROKEN_CARD_DETECTION / the Pi 4 device
	 * tree's broken-cd. Under QEMU and the simulator it is used. */
	bool cd_broken_on_hw;
	/* The controller's DMA master sees ARM physical address A at A +
	 * dma_offset (BCM2711 EMMC2: the device tree's emmc2bus dma-ranges
	 * put ARM 0x0..0x3FFFFFFF at bus 0xC0000000; 0 for a PIO-only host).
	 * The platform may replace it per board (sdhci_set_dma_view). */
	uint32_t dma_offset;
	/* UHS-I modes the integration may run (mask of 1u << enum
	 * sd_timing, SDR12..DDR50); the controller's CAPABILITIES[63:32]
	 * and a board with a switchable SD I/O regulator (struct
	 * sdhci_board) must agree too. 0 = 3.3 V only. */
	uint8_t uhs_modes;
	/* Highest SD clock the integration's pads are run at in a UHS-I
	 * mode (0 = the base clock). */
	uint32_t uhs_max_hz;
	/* The mode bits of CAPABILITIES[63:32] (SDR50, SDR104, DDR50) are
	 * not used: uhs_modes alone says which modes the integration runs
	 * (Linux sdhci-brcmstb clears those bits and takes the device
	 * tree's sd-uhs-* list instead). The other bits (tuning for SDR50)
	 * still come from the register. */
	bool uhs_modes_fixed;
	/* Bytes of ARM memory from address 0 the DMA master sees (0 = none);
	 * above 4 GiB only with 64-bit ADMA2 (adma64). */
	uint64_t dma_window;
	/* The integration's ADMA2 may be used (when CAPABILITIES also says
	 * ADMA2): SDHCI 3.00 §1.13, 32-bit descriptors. */
	bool adma2;
	/* ... with 64-bit descriptors (SDHCI 3.00 DMA Select 11b, 96-bit
	 * descriptors) when CAPABILITIES bit 28 (64-bit System Bus Support)
	 * also says so; else 32-bit ADMA2 within the first 4 GiB. */
	bool adma64;
	/* No authority bounds the controller's own idle clocks between a
	 * transfer's blocks (sd_host.h idle_clk_max = SD_IDLE_CLK_UNKNOWN).
	 * false: the SDHCI specification's, none (sdhci.c, sdhci_host_init,
	 * [silicon:ctrl-idle-clocks]). */
	bool idle_clk_unknown;
};

/* An external data mover for the data phase (bcm2835_emmc.c: the BCM2835
 * DMA engine on the data port), used while host->data_path is SD_PATH_DMA
 * (sdhci_attach_dma). */
struct sdhci_ext_dma {
	/* Start moving data->blocks * data->blksz bytes between data->buf and
	 * the data port at ARM address 'port'. 0: started; -EAGAIN: this
	 * buffer goes by PIO; another -errno: failed (text from error()). */
	int (*start)(void *ctx, const struct sd_data *data, uintptr_t port);
	/* Wait for the end, bounded by progress (dma_wait_progress: w says
	 * one block's bound and watches the controller's error bits): 0, or
	 * as dma_wait_progress fails, the mover stopped. */
	int (*wait)(void *ctx, struct dma_watch *w);
	const char *(*error)(void *ctx);         /* the last failure, for req->err.phase */
};

/* What the board around the controller provides for UHS-I (all optional,
 * with a context pointer the hooks get back). */
struct sdhci_board {
	const char *name;     /* for reports: "pi4-expgpio", "sim", ... */
	/* The SD I/O (signalling) regulator: mv 1800 or 3300. NULL: the
	 * pads stay at 3.3 V and no UHS-I mode is offered. */
	int (*set_io_mv)(void *ctx, unsigned mv);
	/* The card's supply (NULL: the controller's SD Bus Power bit). */
	int (*set_card_power)(void *ctx, bool on);
	void *ctx;
};

/* Descriptors of one host's ADMA2 table: 512 x 64 KiB = 32 MiB, the
 * largest request (65535 blocks of 512 bytes) fits. */
#define SDHCI_ADMA_MAX_DESC 512u

/* The driver's state of one controller; private to sdhci.c (here only so
 * the caller can own the storage). */
struct sdhci_priv {
	uintptr_t base;
	const struct sdhci_quirks *q;
	uint32_t wdelay_us;   /* delay after a register write (pacing) */
	uint32_t max_block;
	bool v3;              /* SDHCI >= 3.00: 10-bit divider, Auto-CMD23 */
	bool caps_missing;
	bool cd_broken;       /* the card-detect input means nothing here */
	uint32_t ctl0;        /* shadow of CONTROL0 (width, HS, power) */
	uint32_t req_hz;      /* clock asked for by the last set_ios */
	const struct sdhci_ext_dma *dma; /* NULL: PIO only */
	void *dma_ctx;
	bool dma_on;          /* host.data_path == SD_PATH_DMA */
	uint32_t dma_pio;     /* requests the mover sent back to PIO */
	const struct sdhci_board *board; /* NULL: no UHS-I */
	uint32_t caps1;       /* CAPABILITIES[63:32] */
	uint32_t dma_offset;  /* bus address of ARM physical 0 (q->dma_offset) */
	uint64_t dma_window;  /* ARM memory the DMA master sees */
	bool adma64;          /* 64-bit ADMA2 descriptors (q->adma64 and caps) */
	struct sd_silicon *probe; /* during sdhci_characterise: its result */
	struct sd_silicon *wprobe; /* armed by probe_write: the next write's */
	/* The ADMA2 descriptor table (8-byte aligned as SDHCI recommends;
	 * a whole number of cache lines so maintenance touches nothing else). */
	uint32_t adma_tbl[3 * SDHCI_ADMA_MAX_DESC] __attribute__((aligned(64)));
};

struct sdhci_host {
	struct sd_host host; /* what the card layer uses */
	struct sdhci_priv priv;
};

/* Bind sh->host to the controller at 'base' (ARM physical address) run
 * with quirk set q. base_clock_hz is the controller's input clock (the
 * mailbox's clock for it on hardware); 0 takes it from the capabilities
 * register (QEMU fills it in; hardware does not). Reads the version and
 * capabilities, fills h->caps/version/cap_* and f_min/f_max, does not touch
 * the card: call h->ops->reset() next. Returns 0 or -ENODEV when no base
 * clock can be determined. */
int sdhci_host_init(struct sdhci_host *sh, const struct sdhci_quirks *q,
		    uintptr_t base, uint32_t base_clock_hz);

/* Offer SD_PATH_DMA through an external mover (ops static, ctx the
 * mover's state); the path is selected with host.ops->set_data_path. */
void sdhci_attach_dma(struct sdhci_host *sh, const struct sdhci_ext_dma *ops,
		      void *ctx);
/* Attach the board's regulator hooks (NULL detaches): the UHS-I modes
 * offered (h->uhs_modes) become those of the quirk set, the capabilities
 * and the board together. Call after sdhci_host_init. */
void sdhci_set_board(struct sdhci_host *sh, const struct sdhci_board *b);
/* The DMA master's view of ARM memory for this board: ARM physical A is
 * seen at A + offset, for A < window (the SoC revision can change it, see
 * bcm2711_emmc2.c). */
void sdhci_set_dma_view(struct sdhci_host *sh, uint32_t offset, uint64_t window);

/* The divider the driver would program for 'hz' and the frequency it gives
 * (for reports and tests). Returns the actual frequency in Hz. */
uint32_t sdhci_clock_for(uint32_t base_clock_hz, uint32_t hz, bool v3,
			 uint32_t *divider);

#endif

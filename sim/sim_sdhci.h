/*
 * sim_sdhci.h - what the files of the simulated controller share: the
 * BCM2835 EMMC register map (BCM2835 ARM Peripherals §5.4, SDHCI 3.00
 * field semantics), the controller state and the helpers of its bus
 * timing and truth accounting. Private to sim_sdhci*.c.
 */
#ifndef SDB_TESTS_SIM_SDHCI_H
#define SDB_TESTS_SIM_SDHCI_H

#include "sim/sim_internal.h"

/* Register offsets (BCM2835 ARM Peripherals §5.4). */
#define ARG2            0x00
#define BLKSIZECNT      0x04
#define ARG1            0x08
#define CMDTM           0x0c
#define RESP0           0x10
#define RESP1           0x14
#define RESP2           0x18
#define RESP3           0x1c
#define DATA            0x20
#define STATUS          0x24
#define CONTROL0        0x28
#define CONTROL1        0x2c
#define INTERRUPT       0x30
#define IRPT_MASK       0x34
#define IRPT_EN         0x38
#define CONTROL2        0x3c
#define CAPABILITIES    0x40
#define CAPABILITIES_HI 0x44
#define FORCE_IRPT      0x50
#define ADMA_ERR        0x54  /* SDHCI 3.00: ADMA Error Status */
#define ADMA_ADDR       0x58  /* SDHCI 3.00: ADMA System Address [31:0] */
#define ADMA_ADDR_HI    0x5c  /* [63:32]: 32-bit ADMA2 ignores it */
#define BOOT_TIMEOUT    0x70
#define DBG_SEL         0x74
#define EXRDFIFO_CFG    0x80
#define EXRDFIFO_EN     0x84
#define TUNE_STEP       0x88
#define TUNE_STEPS_STD  0x8c
#define TUNE_STEPS_DDR  0x90
#define SPI_INT_SPT     0xf0
#define SLOTISR_VER     0xfc
#define REG_SPAN        0x100

/* CMDTM */
#define TM_DMA_EN           (1u << 0)
#define TM_BLKCNT_EN        (1u << 1)
#define TM_AUTO_CMD_SHIFT   2
#define TM_AUTO_CMD12       1u
#define TM_AUTO_CMD23       2u
#define TM_DAT_DIR          (1u << 4)  /* 1 = card to host */
#define TM_MULTI_BLOCK      (1u << 5)
#define CMD_RSPNS_SHIFT     16
#define CMD_RSPNS_NONE      0u
#define CMD_RSPNS_136       1u
#define CMD_RSPNS_48        2u
#define CMD_RSPNS_48BUSY    3u
#define CMD_CRCCHK_EN       (1u << 19)
#define CMD_IXCHK_EN        (1u << 20)
#define CMD_ISDATA          (1u << 21)
#define CMD_TYPE_SHIFT      22
#define CMD_TYPE_ABORT      3u
#define CMD_INDEX_SHIFT     24

/* STATUS */
#define ST_CMD_INHIBIT      (1u << 0)
#define ST_DAT_INHIBIT      (1u << 1)
#define ST_DAT_ACTIVE       (1u << 2)
#define ST_WRITE_TRANSFER   (1u << 8)
#define ST_READ_TRANSFER    (1u << 9)
#define ST_BUF_WR_EN        (1u << 10)
#define ST_BUF_RD_EN        (1u << 11)
#define ST_CARD_INSERTED    (1u << 16)
#define ST_CARD_STABLE      (1u << 17)
#define ST_CARD_DETECT      (1u << 18)
#define ST_WRITE_ENABLED    (1u << 19) /* WP pin: 1 = writable (SDHCI) */
#define ST_DAT_LEVEL0_SHIFT 20
#define ST_CMD_LEVEL        (1u << 24)

/* CONTROL0 */
#define C0_HCTL_DWIDTH      (1u << 1)
#define C0_HCTL_HS_EN       (1u << 2)
#define C0_HCTL_8BIT        (1u << 5)
#define C0_DMA_SEL_SHIFT    3        /* 00 SDMA, 10 ADMA2 32-bit, 11 ADMA2 64-bit */
#define C0_DMA_ADMA2_32     2u

/* CONTROL1 */
#define C1_CLK_INTLEN       (1u << 0)
#define C1_CLK_STABLE       (1u << 1)
#define C1_CLK_EN           (1u << 2)
#define C1_CLK_GENSEL       (1u << 5)
#define C1_CLK_FREQ_MS2_SHIFT 6
#define C1_CLK_FREQ8_SHIFT  8
#define C1_DATA_TOUNIT_SHIFT 16
#define C1_SRST_SHIFT       24
#define C1_SRST_HC          1u
#define C1_SRST_CMD         2u
#define C1_SRST_DATA        4u

/* INTERRUPT / IRPT_MASK / IRPT_EN */
#define INT_CMD_DONE        (1u << 0)
#define INT_DATA_DONE       (1u << 1)
#define INT_DMA             (1u << 3)
#define INT_WRITE_RDY       (1u << 4)
#define INT_READ_RDY        (1u << 5)
#define INT_CARD_INSERT     (1u << 6)
#define INT_CARD_REMOVE     (1u << 7)
#define INT_ERR             (1u << 15)
#define INT_CTO_ERR         (1u << 16)
#define INT_CCRC_ERR        (1u << 17)
#define INT_CEND_ERR        (1u << 18)
#define INT_CBAD_ERR        (1u << 19)
#define INT_DTO_ERR         (1u << 20)
#define INT_DCRC_ERR        (1u << 21)
#define INT_DEND_ERR        (1u << 22)
#define INT_ACMD_ERR        (1u << 24)
#define INT_ADMA_ERR        (1u << 25)

/* ADMA Error Status and the 32-bit ADMA2 descriptor (SDHCI 3.00 §1.13.4) */
#define AE_ST_STOP          0u
#define AE_ST_FDS           1u
#define AE_ST_TFR           3u
#define AE_LEN_ERR          (1u << 2)
#define AD_VALID            (1u << 0)
#define AD_END              (1u << 1)
#define AD_INT              (1u << 2)
#define AD_ACT_SHIFT        4
#define AD_ACT_NOP          0u
#define AD_ACT_RSV          1u
#define AD_ACT_TRAN         2u
#define AD_ACT_LINK         3u

/* CONTROL2 low half: Auto CMD error status */
#define C2_ACNOX_ERR        (1u << 0)
#define C2_ACTO_ERR         (1u << 1)
#define C2_ACCRC_ERR        (1u << 2)
#define C2_ACEND_ERR        (1u << 3)
#define C2_ACBAD_ERR        (1u << 4)
/* CONTROL2 high half: Host Control 2 (SDHCI 3.00 §2.2.26) */
#define HC2_UHS_SHIFT       16
#define HC2_UHS_MASK        (7u << 16)
#define HC2_UHS_DDR50       4u
#define HC2_1V8_EN          (1u << 19)
#define HC2_EXEC_TUNING     (1u << 22)
#define HC2_SAMPLE_CLK      (1u << 23)
#define TUNING_TAPS         40u

#define MAX_BUF 4
#define OPEN_ENDED UINT32_MAX

/* One truth record being filled. */
struct rec {
	struct sim_truth *t;
};

struct xfer {
	bool active;
	enum sim_xfer_kind dir;
	bool mem;
	uint8_t reg_data[64];
	uint32_t blksz;
	uint32_t total;
	bool blkcnt_en;
	bool auto12;
	uint64_t resp_end;
	/* bus side */
	uint32_t bus_k;
	bool in_flight;
	uint64_t bus_start, bus_end;
	uint64_t card_ready;   /* read: card can start block bus_k */
	uint64_t wait_since;   /* data timeout window start */
	uint64_t busy_end;     /* write: DAT0 busy after the previous block */
	/* The DAT lines' current wait: since wait_from, for the protocol's
	 * minimum gap (proto_ready), the controller's own idle clocks
	 * (ctrl_ready), the card (card_ready / busy_end) and the CPU. */
	uint64_t wait_from;
	uint64_t proto_ready;
	uint64_t ctrl_ready;
	bool bus_done;
	uint64_t bus_done_t;
	bool auto12_sent;
	uint64_t auto12_done;
	uint32_t auto12_irq;   /* error to raise when the Auto CMD12 ends */
	uint32_t auto12_c2;
	/* buffer */
	uint8_t buf[MAX_BUF][1024];
	uint64_t fill_t[MAX_BUF];
	uint32_t buf_count;    /* read: blocks waiting for the CPU; write: filled */
	uint32_t host_k;
	uint32_t host_off;
	uint64_t slot_free_t;
	uint64_t host_done_t;  /* CPU finished the last block */
	/* ADMA2: the master drains (read) or fills (write) the buffer in
	 * the CPU's place, following the descriptor table. */
	bool dma;
	bool dma_failed;
	uint64_t dma_free_t;   /* the master finished its last block */
	uint64_t ad_next;      /* bus address of the next descriptor */
	uint64_t ad_addr;      /* current "tran": where the next byte goes */
	bool ad64;             /* 64-bit ADMA2: 12-byte descriptors */
	uint32_t ad_left;      /* its bytes left */
	bool ad_end;           /* it carried END */
	bool ad_int;           /* it carried INT */
	uint32_t ad_index;     /* descriptors fetched in this transfer */
	/* faults */
	uint32_t fault_mask;
	uint32_t fault_block;
	uint64_t stuck_ns;
	struct rec r;
};

struct sim_hc_state {
	uint32_t arg2, blksizecnt, arg1, cmdtm, resp[4];
	uint32_t control0, control1, irpt, irpt_mask, irpt_en, control2;
	uint32_t adma_err;
	uint64_t adma_addr;    /* ADMA System Address, both halves */
	uint32_t other[REG_SPAN / 4]; /* plain storage for the rest */
	uint32_t bcm2712_cfg[SIM_BCM2712_CFG_SPAN / 4]; /* BCM2712 cfg block */
	unsigned io_mv;        /* the card's I/O supply */
	uint64_t io_settled_at;
	uint64_t clk_stable_at;
	uint64_t clk_epoch;    /* an SD clock edge: the clock's phase */

	/* CMD line */
	bool cmd_active;
	bool cmd_wedged;
	uint64_t cmd_done_t;
	uint64_t cmd_line_free;
	uint32_t cmd_irq;      /* interrupt bits at completion */
	uint32_t cmd_c2;       /* CONTROL2 auto-cmd error bits at completion */
	bool cmd_load_resp;
	uint32_t cmd_resp[4];
	bool cmd_r1b;
	uint64_t cmd_resp_end; /* end of the last response (N_RC counts from it) */
	struct rec cr;

	/* R1b busy on DAT0 */
	bool r1b_active;
	uint64_t r1b_start;
	struct rec br;

	struct xfer x;
	bool dat_wedged;

	uint64_t last_wr_t[REG_SPAN / 4];
	uint32_t last_rd_val[REG_SPAN / 4];
	uint32_t same_reads[REG_SPAN / 4]; /* identical reads in a row */
	uint64_t idle_quantum;  /* fast-forward step with no event pending */
	/* Tuning: the sampling tap tried next, the good run seen so far. */
	uint32_t tune_tap;
	int32_t tune_lo, tune_hi;
	unsigned tune_count;    /* tuning blocks since sim_setup() */
};

extern struct sim_hc_state sim_hc;
/* The controller's view of the card-detect input (platform-dependent). */
bool sim_hc_sees_card(void);


static inline const struct sim_config *cfg(void)
{
	return sim_get_config();
}

/* sim_sdhci_bus.c */
bool sim_hc_clock_running(uint64_t t);
/* n SD clocks at the programmed clock, in ns. */
uint64_t sim_hc_clk(uint64_t n);
/* The first SD clock edge at or after t. */
uint64_t sim_hc_edge(uint64_t t);
uint64_t sim_hc_data_timeout_ns(void);
/* Set interrupt status bits (those enabled in IRPT_MASK). */
void sim_hc_irq_raise(uint32_t bits);
void sim_hc_rec_close(struct rec *r, uint64_t t_end, uint32_t err,
		      uint32_t flags);

/* Wire lengths in SD clocks (SD Physical Layer §4.5, §4.7.2, §4.12). */
#define W_CMD_BITS     48u  /* start, direction, index 6, argument 32, CRC7 7, end */
#define W_R48_BITS     48u  /* start, direction, index 6, payload 32, CRC7 7, end */
#define W_R136_BITS    136u /* start, direction, reserved 6, CID/CSD 120 + CRC7 7, end */
#define W_NCR_MIN      2u   /* command end bit -> response start bit */
#define W_NAC_MIN      2u   /* read: command end / block end -> data start bit */
#define W_NWR_MIN      2u   /* write: response / busy end -> data start bit */
#define W_NCRC         2u   /* write: block end bit -> CRC status start bit */
#define W_CRC_TOKEN    5u   /* CRC status: start, 3 status bits, end */
#define W_NRC_MIN      8u   /* response end -> next command (N_RC, N_CC) */
#define W_CTO          64u  /* no response: the controller gives up */

/* The CMD line's life of one command starting at 'start' (a clock edge):
 * the command, N_CR and the response (rsp_bits 0: none, with timeout
 * clocks if 'timeout'). Returns the response end (the command end bit
 * when no response is expected). */
uint64_t sim_hc_cmd_on_line(uint64_t start, uint32_t ncr, uint32_t rsp_bits,
			    bool timeout);
/* When the CMD line may carry the next command, and what the wait until
 * then is (protocol or controller gap) from 'from' on. */
uint64_t sim_hc_cmd_line_wait(uint64_t from);

/* sim_sdhci_data.c: the next data-engine event (what: 1 block end,
 * 2 block start, 3 timeout, 4 complete, 5 auto-command error) and its
 * processing. */
uint64_t sim_hc_xfer_next(int *what);
/* ADMA2: arm the master for the transfer just started (start_data). */
/* Start the ADMA2 master at ADMA_ADDR; ad64: 64-bit descriptors. */
void sim_hc_adma_start(bool ad64);
void sim_hc_xfer_step(uint64_t e, int what);

/* DDR50 selected in Host Control 2 (at 1.8 V): two bits per clock. */
static inline bool sim_hc_ddr(void)
{
	return (sim_hc.control2 & HC2_1V8_EN) &&
	       ((sim_hc.control2 & HC2_UHS_MASK) >> HC2_UHS_SHIFT) == HC2_UHS_DDR50;
}

/* sim_sdhci_cmd.c */
void sim_hc_issue_command(uint32_t cmdtm);
void sim_hc_cmd_complete(void);
uint64_t sim_hc_r1b_next(int *what);
void sim_hc_r1b_step(uint64_t e, int what);

/* Block Count after a block moved (sim_sdhci_data.c). */
void sim_hc_blkcnt_step(unsigned when);
/* The blocks a PIO write may have in the buffer (enum sim_bwe). */
unsigned sim_hc_write_slots(void);

#endif

/*
 * emmc_regs.h - register map of the Arasan EMMC controller of the BCM2835/6/7
 * (ARM peripheral base + 0x300000, bus address 0x7E300000).
 *
 * Names follow the BCM2835 ARM Peripherals datasheet, chapter 5 (External
 * Mass Media Controller); the SDHCI name (SD Host Controller Simplified
 * Specification v3.00, chapter 2) is given in the comment where it differs.
 * Offsets are byte offsets from the controller base; fields are masks or
 * shift/mask pairs under their register. Only 32-bit accesses are allowed
 * (datasheet §5.1): the 16-bit SDHCI registers that share a word are written
 * together (see emmc.c).
 *
 * Not described: the boot, SPI-mode, tuning and FIFO-configuration registers
 * (0x70..0xF0), which this driver does not use.
 */
#ifndef SDB_DRIVERS_EMMC_REGS_H
#define SDB_DRIVERS_EMMC_REGS_H

#define EMMC_BIT(n) (1u << (n))

#define EMMC_ARM_OFFSET 0x300000u /* from the ARM peripheral base */

#define EMMC_ARG2 0x00 /* SDHCI: SDMA address / Argument 2 (Auto-CMD23) */

#define EMMC_BLKSIZECNT 0x04 /* SDHCI: Block Size (15:0) + Block Count (31:16) */
#define  EMMC_BLKSIZE_MASK 0x3FFu
#define  EMMC_BLKCNT_SHIFT 16

#define EMMC_ARG1 0x08 /* SDHCI: Argument */

#define EMMC_CMDTM 0x0C /* SDHCI: Transfer Mode (15:0) + Command (31:16) */
#define  EMMC_TM_DMA_EN EMMC_BIT(0)         /* SDHCI only; no DMA in this driver */
#define  EMMC_TM_BLKCNT_EN EMMC_BIT(1)
#define  EMMC_TM_AUTO_CMD12 (1u << 2)       /* TM_AUTO_CMD_EN = 01 */
#define  EMMC_TM_AUTO_CMD23 (2u << 2)       /* TM_AUTO_CMD_EN = 10 */
#define  EMMC_TM_DAT_DIR_READ EMMC_BIT(4)   /* card to host */
#define  EMMC_TM_MULTI_BLOCK EMMC_BIT(5)
#define  EMMC_CMD_RSPNS_NONE (0u << 16)
#define  EMMC_CMD_RSPNS_136 (1u << 16)
#define  EMMC_CMD_RSPNS_48 (2u << 16)
#define  EMMC_CMD_RSPNS_48_BUSY (3u << 16)
#define  EMMC_CMD_CRCCHK_EN EMMC_BIT(19)
#define  EMMC_CMD_IXCHK_EN EMMC_BIT(20)
#define  EMMC_CMD_ISDATA EMMC_BIT(21)
#define  EMMC_CMD_TYPE_ABORT (3u << 22)
#define  EMMC_CMD_INDEX_SHIFT 24

#define EMMC_RESP0 0x10 /* response bits 39:8 (R2: 39:8 of 127:8) */
#define EMMC_RESP1 0x14
#define EMMC_RESP2 0x18
#define EMMC_RESP3 0x1C /* also the Auto-CMD12 response */

#define EMMC_DATA 0x20 /* SDHCI: Buffer Data Port; little-endian byte order */

#define EMMC_STATUS 0x24 /* SDHCI: Present State */
#define  EMMC_STATUS_CMD_INHIBIT EMMC_BIT(0)
#define  EMMC_STATUS_DAT_INHIBIT EMMC_BIT(1)
#define  EMMC_STATUS_DAT_ACTIVE EMMC_BIT(2)
#define  EMMC_STATUS_WRITE_TRANSFER EMMC_BIT(8)
#define  EMMC_STATUS_READ_TRANSFER EMMC_BIT(9)
#define  EMMC_STATUS_BUF_WRITE_EN EMMC_BIT(10) /* SDHCI: Buffer Write Enable */
#define  EMMC_STATUS_BUF_READ_EN EMMC_BIT(11)  /* SDHCI: Buffer Read Enable */
#define  EMMC_STATUS_CARD_INSERTED EMMC_BIT(16) /* SDHCI */
#define  EMMC_STATUS_CARD_STABLE EMMC_BIT(17)   /* SDHCI */
#define  EMMC_STATUS_CARD_DETECT EMMC_BIT(18)   /* SDHCI: CD# pin level */
#define  EMMC_STATUS_WRITE_EN_PIN EMMC_BIT(19)  /* SDHCI: WP pin; 1 = writable */
#define  EMMC_STATUS_DAT_LEVEL0_SHIFT 20        /* DAT3..0 line levels */
#define  EMMC_STATUS_DAT0_LEVEL EMMC_BIT(20)
#define  EMMC_STATUS_CMD_LEVEL EMMC_BIT(24)

#define EMMC_CONTROL0 0x28 /* SDHCI: Host Control 1, Power, Block Gap, Wakeup */
#define  EMMC_C0_HCTL_DWIDTH EMMC_BIT(1)    /* 4-bit bus */
#define  EMMC_C0_HCTL_HS_EN EMMC_BIT(2)     /* high-speed timing */
#define  EMMC_C0_HCTL_8BIT EMMC_BIT(5)
#define  EMMC_C0_SD_BUS_POWER EMMC_BIT(8)   /* SDHCI Power Control */
#define  EMMC_C0_SD_BUS_VOLT_3V3 (7u << 9)  /* SDHCI: 111b = 3.3 V */

#define EMMC_CONTROL1 0x2C /* SDHCI: Clock Control, Timeout Control, Software Reset */
#define  EMMC_C1_CLK_INTLEN EMMC_BIT(0)     /* internal clock enable */
#define  EMMC_C1_CLK_STABLE EMMC_BIT(1)
#define  EMMC_C1_CLK_EN EMMC_BIT(2)         /* SD clock to the card */
#define  EMMC_C1_CLK_GENSEL EMMC_BIT(5)     /* 1 = programmable mode (unused) */
#define  EMMC_C1_CLK_FREQ_MS2_SHIFT 6       /* divider bits 9:8 */
#define  EMMC_C1_CLK_FREQ8_SHIFT 8          /* divider bits 7:0 */
#define  EMMC_C1_CLK_MASK 0xFFE0u           /* divider + GENSEL */
#define  EMMC_C1_DATA_TOUNIT_SHIFT 16
#define  EMMC_C1_DATA_TOUNIT_MASK (0xFu << 16)
#define  EMMC_C1_DATA_TOUNIT_MAX 0xEu       /* TMCLK x 2^27 */
#define  EMMC_C1_SRST_HC EMMC_BIT(24)
#define  EMMC_C1_SRST_CMD EMMC_BIT(25)
#define  EMMC_C1_SRST_DATA EMMC_BIT(26)

#define EMMC_INTERRUPT 0x30 /* SDHCI: Normal (15:0) + Error (31:16) Interrupt Status; write 1 to clear */
#define EMMC_IRPT_MASK 0x34 /* SDHCI: Interrupt Status Enable (the bits appear in INTERRUPT) */
#define EMMC_IRPT_EN 0x38   /* SDHCI: Interrupt Signal Enable (to the ARM; unused, polled) */
#define  EMMC_INT_CMD_DONE EMMC_BIT(0)
#define  EMMC_INT_DATA_DONE EMMC_BIT(1)   /* transfer complete / busy end */
#define  EMMC_INT_BLOCK_GAP EMMC_BIT(2)
#define  EMMC_INT_DMA EMMC_BIT(3)         /* SDHCI */
#define  EMMC_INT_WRITE_RDY EMMC_BIT(4)
#define  EMMC_INT_READ_RDY EMMC_BIT(5)
#define  EMMC_INT_CARD_INSERT EMMC_BIT(6) /* SDHCI */
#define  EMMC_INT_CARD_REMOVE EMMC_BIT(7) /* SDHCI */
#define  EMMC_INT_CARD EMMC_BIT(8)
#define  EMMC_INT_RETUNE EMMC_BIT(12)
#define  EMMC_INT_BOOTACK EMMC_BIT(13)
#define  EMMC_INT_ENDBOOT EMMC_BIT(14)
#define  EMMC_INT_ERR EMMC_BIT(15)
#define  EMMC_INT_CTO_ERR EMMC_BIT(16)    /* command timeout */
#define  EMMC_INT_CCRC_ERR EMMC_BIT(17)   /* command CRC */
#define  EMMC_INT_CEND_ERR EMMC_BIT(18)   /* command end bit */
#define  EMMC_INT_CBAD_ERR EMMC_BIT(19)   /* command index */
#define  EMMC_INT_DTO_ERR EMMC_BIT(20)    /* data timeout */
#define  EMMC_INT_DCRC_ERR EMMC_BIT(21)   /* data CRC */
#define  EMMC_INT_DEND_ERR EMMC_BIT(22)   /* data end bit */
#define  EMMC_INT_ACMD_ERR EMMC_BIT(24)   /* Auto-CMD12/23 error (details in CONTROL2) */
#define  EMMC_INT_ADMA_ERR EMMC_BIT(25)   /* SDHCI */
#define  EMMC_INT_ERR_MASK 0xFFFF8000u
#define  EMMC_INT_CMD_ERR_MASK (EMMC_INT_CTO_ERR | EMMC_INT_CCRC_ERR | \
				EMMC_INT_CEND_ERR | EMMC_INT_CBAD_ERR)
#define  EMMC_INT_DATA_ERR_MASK (EMMC_INT_DTO_ERR | EMMC_INT_DCRC_ERR | \
				 EMMC_INT_DEND_ERR | EMMC_INT_ACMD_ERR | \
				 EMMC_INT_ADMA_ERR)
#define  EMMC_INT_ALL 0xFFFFFFFFu

#define EMMC_CONTROL2 0x3C /* SDHCI: Auto CMD Error Status (15:0) + Host Control 2 */
#define  EMMC_C2_ACNOX_ERR EMMC_BIT(0)    /* Auto-CMD12 not executed */
#define  EMMC_C2_ACTO_ERR EMMC_BIT(1)
#define  EMMC_C2_ACCRC_ERR EMMC_BIT(2)
#define  EMMC_C2_ACEND_ERR EMMC_BIT(3)
#define  EMMC_C2_ACBAD_ERR EMMC_BIT(4)
#define  EMMC_C2_NOTC12_ERR EMMC_BIT(7)

#define EMMC_CAPABILITIES0 0x40 /* SDHCI only; not in the BCM2835 datasheet */
#define  EMMC_CAP0_BASECLK_SHIFT 8   /* MHz; 8 bits in v3.00, 6 bits before */
#define  EMMC_CAP0_BASECLK_MASK 0xFFu
#define  EMMC_CAP0_MAXBLK_SHIFT 16   /* 512 << n */
#define  EMMC_CAP0_MAXBLK_MASK 0x3u
#define  EMMC_CAP0_8BIT EMMC_BIT(18)
#define  EMMC_CAP0_ADMA2 EMMC_BIT(19)
#define  EMMC_CAP0_HS EMMC_BIT(21)
#define  EMMC_CAP0_SDMA EMMC_BIT(22)
#define  EMMC_CAP0_V33 EMMC_BIT(24)
#define EMMC_CAPABILITIES1 0x44

#define EMMC_FORCE_IRPT 0x50

#define EMMC_SLOTISR_VER 0xFC /* SDHCI: Slot Interrupt Status + Host Controller Version */
#define  EMMC_VER_SPEC_SHIFT 16      /* SDHCI spec version: 0 = 1.00, 1 = 2.00, 2 = 3.00 */
#define  EMMC_VER_SPEC_MASK 0xFFu
#define  EMMC_VER_SPEC_3_00 2u
#define  EMMC_VER_VENDOR_SHIFT 24

/* Divided clock mode: f_SD = base / (2 * N), N = 1..1023 (10 bits, SDHCI
 * v3.00 §2.2.14); N = 0 passes the base clock through. Before v3.00 the
 * divider is 8 bits and must be a power of two. */
#define EMMC_DIV10_MAX 1023u
#define EMMC_DIV8_MAX 128u

#endif

/*
 * sdhci_regs.h - register map of an SD Host Controller (SD Host Controller
 * Simplified Specification v3.00, chapter 2), as the BCM2835/6/7 Arasan
 * EMMC (ARM peripheral base + 0x300000), the BCM2711 EMMC2 (base +
 * 0x340000) and the BCM2712's SD slot controller implement it. The one register map of drivers/sdhci.
 *
 * Names follow the BCM2835 ARM Peripherals datasheet, chapter 5 (External
 * Mass Media Controller); the SDHCI name is given in the comment where it
 * differs. Offsets are byte offsets from the controller base; fields are
 * masks or shift/mask pairs under their register. The driver makes 32-bit
 * accesses only (datasheet §5.1; the EMMC2 is run the same way): the 16-bit
 * SDHCI registers that share a word are written together (see sdhci.c).
 *
 * Not described: the boot, SPI-mode and FIFO-configuration registers
 * (0x70..0xF0), which this driver does not use (tuning goes through Host
 * Control 2, SDHCI_CONTROL2).
 */
#ifndef SDB_DRIVERS_SDHCI_REGS_H
#define SDB_DRIVERS_SDHCI_REGS_H

#define SDHCI_BIT(n) (1u << (n))

#define SDHCI_ARG2 0x00 /* SDHCI: SDMA address / Argument 2 (Auto-CMD23) */

#define SDHCI_BLKSIZECNT 0x04 /* SDHCI: Block Size (15:0) + Block Count (31:16) */
#define  SDHCI_BLKSIZE_MASK 0x3FFu
#define  SDHCI_BLKCNT_SHIFT 16

#define SDHCI_ARG1 0x08 /* SDHCI: Argument */

#define SDHCI_CMDTM 0x0C /* SDHCI: Transfer Mode (15:0) + Command (31:16) */
#define  SDHCI_TM_DMA_EN SDHCI_BIT(0)         /* SDHCI: DMA Enable (ADMA2 here) */
#define  SDHCI_TM_BLKCNT_EN SDHCI_BIT(1)
#define  SDHCI_TM_AUTO_CMD12 (1u << 2)       /* TM_AUTO_CMD_EN = 01 */
#define  SDHCI_TM_AUTO_CMD23 (2u << 2)       /* TM_AUTO_CMD_EN = 10 */
#define  SDHCI_TM_DAT_DIR_READ SDHCI_BIT(4)   /* card to host */
#define  SDHCI_TM_MULTI_BLOCK SDHCI_BIT(5)
#define  SDHCI_CMD_RSPNS_NONE (0u << 16)
#define  SDHCI_CMD_RSPNS_136 (1u << 16)
#define  SDHCI_CMD_RSPNS_48 (2u << 16)
#define  SDHCI_CMD_RSPNS_48_BUSY (3u << 16)
#define  SDHCI_CMD_CRCCHK_EN SDHCI_BIT(19)
#define  SDHCI_CMD_IXCHK_EN SDHCI_BIT(20)
#define  SDHCI_CMD_ISDATA SDHCI_BIT(21)
#define  SDHCI_CMD_TYPE_ABORT (3u << 22)
#define  SDHCI_CMD_INDEX_SHIFT 24

#define SDHCI_RESP0 0x10 /* response bits 39:8 (R2: 39:8 of 127:8) */
#define SDHCI_RESP1 0x14
#define SDHCI_RESP2 0x18
#define SDHCI_RESP3 0x1C /* also the Auto-CMD12 response */

#define SDHCI_DATA 0x20 /* SDHCI: Buffer Data Port; little-endian byte order */

#define SDHCI_STATUS 0x24 /* SDHCI: Present State */
#define  SDHCI_STATUS_CMD_INHIBIT SDHCI_BIT(0)
#define  SDHCI_STATUS_DAT_INHIBIT SDHCI_BIT(1)
#define  SDHCI_STATUS_DAT_ACTIVE SDHCI_BIT(2)
#define  SDHCI_STATUS_WRITE_TRANSFER SDHCI_BIT(8)
#define  SDHCI_STATUS_READ_TRANSFER SDHCI_BIT(9)
#define  SDHCI_STATUS_BUF_WRITE_EN SDHCI_BIT(10) /* SDHCI: Buffer Write Enable */
#define  SDHCI_STATUS_BUF_READ_EN SDHCI_BIT(11)  /* SDHCI: Buffer Read Enable */
#define  SDHCI_STATUS_CARD_INSERTED SDHCI_BIT(16) /* SDHCI */
#define  SDHCI_STATUS_CARD_STABLE SDHCI_BIT(17)   /* SDHCI */
#define  SDHCI_STATUS_CARD_DETECT SDHCI_BIT(18)   /* SDHCI: CD# pin level */
#define  SDHCI_STATUS_WRITE_EN_PIN SDHCI_BIT(19)  /* SDHCI: WP pin; 1 = writable */
#define  SDHCI_STATUS_DAT_LEVEL0_SHIFT 20        /* DAT3..0 line levels */
#define  SDHCI_STATUS_DAT0_LEVEL SDHCI_BIT(20)
#define  SDHCI_STATUS_CMD_LEVEL SDHCI_BIT(24)

#define SDHCI_CONTROL0 0x28 /* SDHCI: Host Control 1, Power, Block Gap, Wakeup */
#define  SDHCI_C0_HCTL_DWIDTH SDHCI_BIT(1)    /* 4-bit bus */
#define  SDHCI_C0_HCTL_HS_EN SDHCI_BIT(2)     /* high-speed timing */
#define  SDHCI_C0_HCTL_DMA_MASK (3u << 3)   /* SDHCI: DMA Select */
#define  SDHCI_C0_HCTL_DMA_ADMA2 (2u << 3)  /* 10b = 32-bit ADMA2 */
#define  SDHCI_C0_HCTL_DMA_ADMA2_64 (3u << 3) /* 11b = 64-bit ADMA2 (SDHCI 3.00) */
#define  SDHCI_C0_HCTL_8BIT SDHCI_BIT(5)
#define  SDHCI_C0_SD_BUS_POWER SDHCI_BIT(8)   /* SDHCI Power Control */
#define  SDHCI_C0_SD_BUS_VOLT_3V3 (7u << 9)  /* SDHCI: 111b = 3.3 V */

#define SDHCI_CONTROL1 0x2C /* SDHCI: Clock Control, Timeout Control, Software Reset */
#define  SDHCI_C1_CLK_INTLEN SDHCI_BIT(0)     /* internal clock enable */
#define  SDHCI_C1_CLK_STABLE SDHCI_BIT(1)
#define  SDHCI_C1_CLK_EN SDHCI_BIT(2)         /* SD clock to the card */
#define  SDHCI_C1_CLK_GENSEL SDHCI_BIT(5)     /* 1 = programmable mode (unused) */
#define  SDHCI_C1_CLK_FREQ_MS2_SHIFT 6       /* divider bits 9:8 */
#define  SDHCI_C1_CLK_FREQ8_SHIFT 8          /* divider bits 7:0 */
#define  SDHCI_C1_CLK_MASK 0xFFE0u           /* divider + GENSEL */
#define  SDHCI_C1_DATA_TOUNIT_SHIFT 16
#define  SDHCI_C1_DATA_TOUNIT_MASK (0xFu << 16)
#define  SDHCI_C1_DATA_TOUNIT_MAX 0xEu       /* TMCLK x 2^27 */
#define  SDHCI_C1_SRST_HC SDHCI_BIT(24)
#define  SDHCI_C1_SRST_CMD SDHCI_BIT(25)
#define  SDHCI_C1_SRST_DATA SDHCI_BIT(26)

#define SDHCI_INTERRUPT 0x30 /* SDHCI: Normal (15:0) + Error (31:16) Interrupt Status; write 1 to clear */
#define SDHCI_IRPT_MASK 0x34 /* SDHCI: Interrupt Status Enable (the bits appear in INTERRUPT) */
#define SDHCI_IRPT_EN 0x38   /* SDHCI: Interrupt Signal Enable (to the ARM; unused, polled) */
#define  SDHCI_INT_CMD_DONE SDHCI_BIT(0)
#define  SDHCI_INT_DATA_DONE SDHCI_BIT(1)   /* transfer complete / busy end */
#define  SDHCI_INT_BLOCK_GAP SDHCI_BIT(2)
#define  SDHCI_INT_DMA SDHCI_BIT(3)         /* SDHCI */
#define  SDHCI_INT_WRITE_RDY SDHCI_BIT(4)
#define  SDHCI_INT_READ_RDY SDHCI_BIT(5)
#define  SDHCI_INT_CARD_INSERT SDHCI_BIT(6) /* SDHCI */
#define  SDHCI_INT_CARD_REMOVE SDHCI_BIT(7) /* SDHCI */
#define  SDHCI_INT_CARD SDHCI_BIT(8)
#define  SDHCI_INT_RETUNE SDHCI_BIT(12)
#define  SDHCI_INT_BOOTACK SDHCI_BIT(13)
#define  SDHCI_INT_ENDBOOT SDHCI_BIT(14)
#define  SDHCI_INT_ERR SDHCI_BIT(15)
#define  SDHCI_INT_CTO_ERR SDHCI_BIT(16)    /* command timeout */
#define  SDHCI_INT_CCRC_ERR SDHCI_BIT(17)   /* command CRC */
#define  SDHCI_INT_CEND_ERR SDHCI_BIT(18)   /* command end bit */
#define  SDHCI_INT_CBAD_ERR SDHCI_BIT(19)   /* command index */
#define  SDHCI_INT_DTO_ERR SDHCI_BIT(20)    /* data timeout */
#define  SDHCI_INT_DCRC_ERR SDHCI_BIT(21)   /* data CRC */
#define  SDHCI_INT_DEND_ERR SDHCI_BIT(22)   /* data end bit */
#define  SDHCI_INT_ACMD_ERR SDHCI_BIT(24)   /* Auto-CMD12/23 error (details in CONTROL2) */
#define  SDHCI_INT_ADMA_ERR SDHCI_BIT(25)   /* SDHCI */
#define  SDHCI_INT_ERR_MASK 0xFFFF8000u
#define  SDHCI_INT_CMD_ERR_MASK (SDHCI_INT_CTO_ERR | SDHCI_INT_CCRC_ERR | \
				SDHCI_INT_CEND_ERR | SDHCI_INT_CBAD_ERR)
#define  SDHCI_INT_DATA_ERR_MASK (SDHCI_INT_DTO_ERR | SDHCI_INT_DCRC_ERR | \
				 SDHCI_INT_DEND_ERR | SDHCI_INT_ACMD_ERR | \
				 SDHCI_INT_ADMA_ERR)
#define  SDHCI_INT_ALL 0xFFFFFFFFu

#define SDHCI_CONTROL2 0x3C /* SDHCI: Auto CMD Error Status (15:0) + Host Control 2 */
#define  SDHCI_C2_ACNOX_ERR SDHCI_BIT(0)    /* Auto-CMD12 not executed */
#define  SDHCI_C2_ACTO_ERR SDHCI_BIT(1)
#define  SDHCI_C2_ACCRC_ERR SDHCI_BIT(2)
#define  SDHCI_C2_ACEND_ERR SDHCI_BIT(3)
#define  SDHCI_C2_ACBAD_ERR SDHCI_BIT(4)
#define  SDHCI_C2_NOTC12_ERR SDHCI_BIT(7)
/* Host Control 2 (SDHCI 3.00 §2.2.26), bits 31:16 of the word. */
#define  SDHCI_HC2_UHS_MASK (7u << 16)      /* UHS Mode Select */
#define  SDHCI_HC2_UHS_SDR12 (0u << 16)
#define  SDHCI_HC2_UHS_SDR25 (1u << 16)
#define  SDHCI_HC2_UHS_SDR50 (2u << 16)
#define  SDHCI_HC2_UHS_SDR104 (3u << 16)
#define  SDHCI_HC2_UHS_DDR50 (4u << 16)
#define  SDHCI_HC2_1V8_EN SDHCI_BIT(19)     /* 1.8 V Signaling Enable */
#define  SDHCI_HC2_EXEC_TUNING SDHCI_BIT(22)
#define  SDHCI_HC2_SAMPLE_CLK SDHCI_BIT(23) /* Sampling Clock Select: tuned */
#define  SDHCI_HC2_PRESET_EN SDHCI_BIT(31)

#define SDHCI_CAPABILITIES0 0x40 /* SDHCI only; not in the BCM2835 datasheet */
#define  SDHCI_CAP0_BASECLK_SHIFT 8   /* MHz; 8 bits in v3.00, 6 bits before */
#define  SDHCI_CAP0_BASECLK_MASK 0xFFu
#define  SDHCI_CAP0_MAXBLK_SHIFT 16   /* 512 << n */
#define  SDHCI_CAP0_MAXBLK_MASK 0x3u
#define  SDHCI_CAP0_8BIT SDHCI_BIT(18)
#define  SDHCI_CAP0_ADMA2 SDHCI_BIT(19)
#define  SDHCI_CAP0_HS SDHCI_BIT(21)
#define  SDHCI_CAP0_SDMA SDHCI_BIT(22)
#define  SDHCI_CAP0_V33 SDHCI_BIT(24)
#define SDHCI_CAPABILITIES1 0x44 /* SDHCI 3.00: CAPABILITIES[63:32] */
#define  SDHCI_CAP1_SDR50 SDHCI_BIT(0)
#define  SDHCI_CAP1_SDR104 SDHCI_BIT(1)
#define  SDHCI_CAP1_DDR50 SDHCI_BIT(2)
#define  SDHCI_CAP1_TUNING_SDR50 SDHCI_BIT(13)
#define  SDHCI_CAP0_V18 SDHCI_BIT(26)
#define  SDHCI_CAP0_SYS64 SDHCI_BIT(28) /* 64-bit System Bus Support */

#define SDHCI_FORCE_IRPT 0x50

#define SDHCI_ADMA_ERR 0x54 /* SDHCI: ADMA Error Status (§2.2.29) */
#define  SDHCI_ADMA_ERR_STATE_MASK 0x3u  /* the ADMA state at the error: */
#define  SDHCI_ADMA_ST_STOP 0u           /*  stop: address = next descriptor */
#define  SDHCI_ADMA_ST_FDS 1u            /*  fetching: address = the bad one */
#define  SDHCI_ADMA_ST_TFR 3u            /*  transfer: address = next descriptor */
#define  SDHCI_ADMA_ERR_LEN SDHCI_BIT(2)  /* ADMA Length Mismatch Error */
#define SDHCI_ADMA_ADDR 0x58    /* SDHCI: ADMA System Address [31:0] */
#define SDHCI_ADMA_ADDR_HI 0x5C /* [63:32]; 0 in 32-bit ADMA2 */

/* ADMA2 32-bit descriptor (SDHCI 3.00 §1.13.4): word 0 = attribute (5:0)
 * + length (31:16, 0 = 65536 bytes), word 1 = address (4-byte aligned). */
#define SDHCI_ADMA_VALID SDHCI_BIT(0)
#define SDHCI_ADMA_END SDHCI_BIT(1)
#define SDHCI_ADMA_INT SDHCI_BIT(2)
#define SDHCI_ADMA_ACT_MASK (3u << 4)
#define SDHCI_ADMA_ACT_NOP (0u << 4)
#define SDHCI_ADMA_ACT_TRAN (2u << 4)
#define SDHCI_ADMA_ACT_LINK (3u << 4)
#define SDHCI_ADMA_LEN_SHIFT 16
#define SDHCI_ADMA_MAX_LEN 65536u
#define SDHCI_ADMA_DESC32_SZ 8u  /* bytes per 32-bit descriptor */
#define SDHCI_ADMA_DESC64_SZ 12u /* bytes per 64-bit (96-bit) descriptor */

#define SDHCI_SLOTISR_VER 0xFC /* SDHCI: Slot Interrupt Status + Host Controller Version */
#define  SDHCI_VER_SPEC_SHIFT 16      /* SDHCI spec version: 0 = 1.00, 1 = 2.00, 2 = 3.00 */
#define  SDHCI_VER_SPEC_MASK 0xFFu
#define  SDHCI_VER_SPEC_3_00 2u
#define  SDHCI_VER_VENDOR_SHIFT 24

/* Divided clock mode: f_SD = base / (2 * N), N = 1..1023 (10 bits, SDHCI
 * v3.00 §2.2.14); N = 0 passes the base clock through. Before v3.00 the
 * divider is 8 bits and must be a power of two. */
#define SDHCI_DIV10_MAX 1023u
#define SDHCI_DIV8_MAX 128u

#endif

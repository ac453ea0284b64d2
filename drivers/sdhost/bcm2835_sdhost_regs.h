/*
 * bcm2835_sdhost_regs.h - the register map of the BCM2835/6/7 SDHOST
 * controller (ARM peripheral base + 0x202000). Not in the public BCM2835
 * datasheet; the names and bits follow what the Linux, U-Boot and Circle
 * drivers and QEMU's model agree on. The driver's alone: the simulator's
 * model keeps its own copy (sim/sim_sdhost_regs.h), so that a wrong bit
 * in one shows against the other.
 */
#ifndef SDB_DRIVERS_SDHOST_BCM2835_SDHOST_REGS_H
#define SDB_DRIVERS_SDHOST_BCM2835_SDHOST_REGS_H

#define SDH_CMD   0x00u /* command: index, flags, NEW (start) / FAIL */
#define SDH_ARG   0x04u /* command argument */
#define SDH_TOUT  0x08u /* data timeout, in SD clocks */
#define SDH_CDIV  0x0Cu /* clock divider: f = core / (CDIV + 2) */
#define SDH_RSP0  0x10u /* response bits 31:0 (R2: 31:0 of 128) */
#define SDH_RSP1  0x14u
#define SDH_RSP2  0x18u
#define SDH_RSP3  0x1Cu /* R2: bits 127:96 */
#define SDH_HSTS  0x20u /* host status, write 1 to clear */
#define SDH_VDD   0x30u /* card power: bit 0 */
#define SDH_EDM   0x34u /* debug: FSM state, FIFO fill, thresholds */
#define SDH_HCFG  0x38u /* host configuration */
#define SDH_HBCT  0x3Cu /* bytes per block */
#define SDH_DATA  0x40u /* the data FIFO port (32-bit) */
#define SDH_HBLC  0x50u /* block count */
#define SDH_REG_END 0x54u

#define SDH_CMD_NEW        0x8000u /* set to start; clears when the command ended */
#define SDH_CMD_FAIL       0x4000u
#define SDH_CMD_BUSYWAIT   0x0800u /* R1b: wait for the end of busy */
#define SDH_CMD_NO_RSP     0x0400u
#define SDH_CMD_LONG_RSP   0x0200u /* 136-bit response */
#define SDH_CMD_WRITE      0x0080u
#define SDH_CMD_READ       0x0040u
#define SDH_CMD_INDEX_MASK 0x003Fu

#define SDH_CDIV_MAX 0x7FFu

#define SDH_HSTS_BUSY_IRPT  0x400u /* end of busy of a BUSYWAIT command */
#define SDH_HSTS_BLOCK_IRPT 0x200u
#define SDH_HSTS_SDIO_IRPT  0x100u
#define SDH_HSTS_REW_TMO    0x080u /* data read / write / busy timeout */
#define SDH_HSTS_CMD_TMO    0x040u
#define SDH_HSTS_CRC16      0x020u /* data CRC */
#define SDH_HSTS_CRC7       0x010u /* response CRC */
#define SDH_HSTS_FIFO_ERR   0x008u
#define SDH_HSTS_DATA_FLAG  0x001u
#define SDH_HSTS_DATA_ERRS  (SDH_HSTS_REW_TMO | SDH_HSTS_CRC16 | SDH_HSTS_FIFO_ERR)
#define SDH_HSTS_ERRS       (SDH_HSTS_DATA_ERRS | SDH_HSTS_CMD_TMO | SDH_HSTS_CRC7)
#define SDH_HSTS_CLEAR      (SDH_HSTS_ERRS | SDH_HSTS_BUSY_IRPT | \
			     SDH_HSTS_BLOCK_IRPT | SDH_HSTS_SDIO_IRPT)

#define SDH_HCFG_BUSY_IRPT_EN  0x400u
#define SDH_HCFG_BLOCK_IRPT_EN 0x100u
#define SDH_HCFG_SDIO_IRPT_EN  0x020u
#define SDH_HCFG_DATA_IRPT_EN  0x010u
#define SDH_HCFG_SLOW_CARD     0x008u
#define SDH_HCFG_WIDE_EXT_BUS  0x004u /* 4-bit bus */
#define SDH_HCFG_WIDE_INT_BUS  0x002u
#define SDH_HCFG_REL_CMD_LINE  0x001u

#define SDH_EDM_FSM_MASK        0xFu
#define SDH_EDM_FSM_IDENT       0x0u
#define SDH_EDM_FSM_DATA        0x1u
#define SDH_EDM_FSM_READDATA    0x2u
#define SDH_EDM_FSM_WRITEDATA   0x3u
#define SDH_EDM_FSM_READWAIT    0x4u
#define SDH_EDM_FSM_READCRC     0x5u
#define SDH_EDM_FSM_WRITECRC    0x6u
#define SDH_EDM_FSM_WRITEWAIT1  0x7u
#define SDH_EDM_FSM_POWERDOWN   0x8u
#define SDH_EDM_FSM_POWERUP     0x9u
#define SDH_EDM_FSM_WRITESTART1 0xAu
#define SDH_EDM_FSM_WRITESTART2 0xBu
#define SDH_EDM_FSM_GENPULSES   0xCu
#define SDH_EDM_FSM_WRITEWAIT2  0xDu
#define SDH_EDM_FSM_STARTPOWDN  0xFu
#define SDH_EDM_FIFO_SHIFT      4u
#define SDH_EDM_FIFO_MASK       0x1Fu
#define SDH_EDM_WR_THR_SHIFT    9u
#define SDH_EDM_RD_THR_SHIFT    14u
#define SDH_EDM_THR_MASK        0x1Fu
#define SDH_EDM_FORCE_DATA_MODE (1u << 19)

#define SDH_FIFO_WORDS 16u

#endif

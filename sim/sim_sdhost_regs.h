/*
 * sim_sdhost_regs.h - the BCM2835 SDHOST register map as the simulator's
 * model (sim_sdhost.c) implements it. The simulator's own copy, written
 * from the authorities and not from the driver's header, so that a wrong
 * offset or bit in either shows as a disagreement between the two
 * (tests/test_layering.py checks that no sim/ file includes a driver
 * register header). The SDHOST is not in the public BCM2835 ARM
 * Peripherals document; the sources, which agree on every value below:
 *   QEMU hw/sd/bcm2835_sdhost.c (the SDCMD..SDHBLC offsets, the SDCMD,
 *     SDHSTS, SDHCFG and SDEDM bits, SDDATA_FIFO_WORDS = 16);
 *   Linux drivers/mmc/host/bcm2835.c (the same offsets and bits, the
 *     SDEDM FIFO level at bits 8:4 and the read / write thresholds at
 *     18:14 / 13:9, the FSM states in bits 3:0).
 */
#ifndef SDB_SIM_SDHOST_REGS_H
#define SDB_SIM_SDHOST_REGS_H

/* Offsets from the controller's base (0x7E202000 on the VPU bus). */
#define SIMSDH_CMD   0x00u /* SDCMD: index 5:0, READ 6, WRITE 7, flags, FAIL 14, NEW 15 */
#define SIMSDH_ARG   0x04u /* SDARG */
#define SIMSDH_TOUT  0x08u /* SDTOUT: data timeout in SD clocks */
#define SIMSDH_CDIV  0x0Cu /* SDCDIV: SD clock = core / (CDIV + 2), 11 bits */
#define SIMSDH_RSP0  0x10u /* SDRSP0..3: response, RSP3 = bits 127:96 of R2 */
#define SIMSDH_RSP1  0x14u
#define SIMSDH_RSP2  0x18u
#define SIMSDH_RSP3  0x1Cu
#define SIMSDH_HSTS  0x20u /* SDHSTS: status, write 1 to clear */
#define SIMSDH_VDD   0x30u /* SDVDD: card power, bit 0 */
#define SIMSDH_EDM   0x34u /* SDEDM: FSM state, FIFO level, thresholds */
#define SIMSDH_HCFG  0x38u /* SDHCFG: host configuration */
#define SIMSDH_HBCT  0x3Cu /* SDHBCT: bytes per block */
#define SIMSDH_DATA  0x40u /* SDDATA: the FIFO port */
#define SIMSDH_HBLC  0x50u /* SDHBLC: block count */
#define SIMSDH_REG_END 0x54u

/* SDCMD */
#define SIMSDH_CMD_NEW        (1u << 15)
#define SIMSDH_CMD_FAIL       (1u << 14)
#define SIMSDH_CMD_BUSYWAIT   (1u << 11)
#define SIMSDH_CMD_NO_RSP     (1u << 10)
#define SIMSDH_CMD_LONG_RSP   (1u << 9)
#define SIMSDH_CMD_WRITE      (1u << 7)
#define SIMSDH_CMD_READ       (1u << 6)
#define SIMSDH_CMD_INDEX_MASK 0x3Fu
/* SDCDIV: 11 bits */
#define SIMSDH_CDIV_MAX 0x7FFu

/* SDHSTS */
#define SIMSDH_HSTS_BUSY_IRPT  (1u << 10)
#define SIMSDH_HSTS_BLOCK_IRPT (1u << 9)
#define SIMSDH_HSTS_SDIO_IRPT  (1u << 8)
#define SIMSDH_HSTS_REW_TMO    (1u << 7)
#define SIMSDH_HSTS_CMD_TMO    (1u << 6)
#define SIMSDH_HSTS_CRC16      (1u << 5)
#define SIMSDH_HSTS_CRC7       (1u << 4)
#define SIMSDH_HSTS_FIFO_ERR   (1u << 3)
#define SIMSDH_HSTS_DATA_FLAG  (1u << 0)

/* SDHCFG */
#define SIMSDH_HCFG_BUSY_IRPT_EN (1u << 10)
#define SIMSDH_HCFG_WIDE_EXT_BUS (1u << 2) /* 4-bit bus */

/* SDEDM */
#define SIMSDH_EDM_FSM_MASK        0xFu
#define SIMSDH_EDM_FSM_DATA        0x1u
#define SIMSDH_EDM_FSM_READDATA    0x2u
#define SIMSDH_EDM_FSM_WRITEDATA   0x3u
#define SIMSDH_EDM_FSM_READWAIT    0x4u
#define SIMSDH_EDM_FSM_WRITESTART1 0xAu
#define SIMSDH_EDM_FSM_WRITEWAIT2  0xDu
#define SIMSDH_EDM_FIFO_SHIFT      4u
#define SIMSDH_EDM_FIFO_MASK       0x1Fu
#define SIMSDH_EDM_RD_THR_SHIFT    14u
#define SIMSDH_EDM_THR_MASK        0x1Fu
#define SIMSDH_EDM_FORCE_DATA_MODE (1u << 19)

/* The FIFO: 16 32-bit words (QEMU SDDATA_FIFO_WORDS; Linux bcm2835.c
 * FIFO_READ_THRESHOLD / FIFO_WRITE_THRESHOLD are set against it). */
#define SIMSDH_FIFO_WORDS 16u

#endif

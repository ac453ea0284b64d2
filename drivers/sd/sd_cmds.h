/*
 * sd_cmds.h - the command indices of SD memory cards that this stack sends
 * or names, with the names of the SD Physical Layer Simplified
 * Specification v9.10 (§4.7.4, detailed command description, by command
 * class). One scheme:
 *   SD_CMD_<name>   a command (CMDn), sent on its own;
 *   SD_ACMD_<name>  an application command (ACMDn): the index sent after
 *                   SD_CMD_APP_CMD (CMD55), which gives it its meaning.
 * The value is the 6-bit command index. Errors and records keep showing
 * the number ("CMD55"), as the spec and card data sheets do.
 *
 * Not listed: commands this stack never sends (SPI mode, I/O, lock/unlock,
 * write protection groups, SDUC's CMD22) except where sd_cmd_name() names
 * them.
 */
#ifndef SDB_DRIVERS_SD_CMDS_H
#define SDB_DRIVERS_SD_CMDS_H

/* Class 0, basic (§4.2 card identification, §4.3 data transfer mode). */
#define SD_CMD_GO_IDLE_STATE          0u  /* §4.2.1: reset to idle */
#define SD_CMD_ALL_SEND_CID           2u  /* §4.2.3: R2, CID */
#define SD_CMD_SEND_RELATIVE_ADDR     3u  /* §4.2.3: R6, publishes the RCA */
#define SD_CMD_SELECT_CARD            7u  /* §4.3: SELECT/DESELECT_CARD, R1b */
#define SD_CMD_VOLTAGE_SWITCH        11u  /* §4.2.4.2: R1, UHS-I 1.8 V switch */
#define SD_CMD_SEND_TUNING_BLOCK     19u  /* §4.2.4.5: 64-byte tuning block (SDR50/104) */
#define SD_CMD_SEND_IF_COND           8u  /* §4.2.2, §4.3.13: R7, voltage check */
#define SD_CMD_SEND_CSD               9u  /* §4.3: R2, CSD */
#define SD_CMD_SEND_CID              10u  /* §4.3: R2, CID (addressed) */
#define SD_CMD_STOP_TRANSMISSION     12u  /* §4.3.3: ends CMD18/CMD25 */
#define SD_CMD_SEND_STATUS           13u  /* §4.10.1: R1, card status */

/* Class 2, block-oriented read (§4.3.3). */
#define SD_CMD_SET_BLOCKLEN          16u  /* SDSC only; SDHC/SDXC fix 512 */
#define SD_CMD_READ_SINGLE_BLOCK     17u
#define SD_CMD_READ_MULTIPLE_BLOCK   18u
#define SD_CMD_SET_BLOCK_COUNT       23u  /* blocks of the next CMD18/25; also
                                             class 4; not on SDSC (§4.3.14) */

/* Class 4, block-oriented write (§4.3.4). */
#define SD_CMD_WRITE_BLOCK           24u
#define SD_CMD_WRITE_MULTIPLE_BLOCK  25u

/* Class 5, erase (§4.3.5). */
#define SD_CMD_ERASE_WR_BLK_START    32u
#define SD_CMD_ERASE_WR_BLK_END      33u
#define SD_CMD_ERASE                 38u  /* R1b; timeout from §4.14 */

/* Class 10, switch (§4.3.10). */
#define SD_CMD_SWITCH_FUNC            6u

/* Class 11, function extension (SD 6.00 §5.7.2; SCR CMD_SUPPORT bit 34).
 * Argument [31] MIO, [30:27] FNO, [26] MW (CMD49), [25:18] page, [17:9]
 * offset, [8:0] length - 1 (or the mask of a mask write); one 512-byte
 * block. sd.c reads them (sd_ext_read), sd_ext_info.c decodes them. */
#define SD_CMD_READ_EXTR_SINGLE      48u
#define SD_CMD_WRITE_EXTR_SINGLE     49u

/* Class 1, command queue (SD 6.00; the Performance Enhancement function
 * enables it). CMD44 [30] direction (1 read), [20:16] task ID, [15:0]
 * blocks; CMD45 the start block; CMD46/47 [20:16] the task to run; CMD43
 * [3:0] 1 abort the queue, 2 abort task [20:16]; CMD13 [15] asks for the
 * Task Status register. */
#define SD_CMD_Q_MANAGEMENT          43u
#define SD_CMD_Q_TASK_INFO_A         44u
#define SD_CMD_Q_TASK_INFO_B         45u
#define SD_CMD_Q_RD_TASK             46u
#define SD_CMD_Q_WR_TASK             47u
#define SD_CMD13_SEND_TASK_STATUS    (1u << 15)

/* Class 8, application-specific (§4.3.9). */
#define SD_CMD_APP_CMD               55u  /* the next command is an ACMD */

/* Application commands (§4.7.4, application-specific commands). */
#define SD_ACMD_SET_BUS_WIDTH         6u  /* argument 0 = 1 bit, 2 = 4 bits */
#define SD_ACMD_SD_STATUS            13u  /* §4.10.2: 64-byte SD Status */
#define SD_ACMD_SEND_NUM_WR_BLOCKS   22u
#define SD_ACMD_SET_WR_BLK_ERASE_COUNT 23u /* pre-erase hint for CMD25 */
#define SD_ACMD_SD_SEND_OP_COND      41u  /* §4.2.3: R3, OCR */
#define SD_ACMD_SET_CLR_CARD_DETECT  42u
#define SD_ACMD_SEND_SCR             51u  /* §5.6: 8-byte SCR */

#endif

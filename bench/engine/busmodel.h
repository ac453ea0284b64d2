/*
 * busmodel.h - theoretical SD bus times (SD Physical Layer §4.5 data
 * framing, §4.12 timings; see docs/attribution.md):
 *   command and R1/R3/R6/R7 response: 48 clocks each; R2: 136 clocks;
 *   N_CR (command to response) 2..64 clocks, N_RC / N_CC >= 8 clocks;
 *   one data block of B bytes on W lines: 1 start bit + 8*B/W data clocks
 *   + 16 CRC clocks + 1 end bit (4114 clocks for 512 B on 1 bit, 1042 on 4);
 *   write: CRC status token (start, 3 bits, end) 2 clocks after the end bit,
 *   then busy on DAT0.
 * Used to compute bus ceilings and the bus share of measured operations.
 *
 * Whole transfers (bus_xfer_clocks) are counted as the minimum the spec
 * allows, which is what the reference ceilings (docs/attribution.md) assume:
 *   read:  CMD + per block (N_AC min 2 + frame) [+ CMD12] + 8 clocks
 *   write: CMD + N_CR min + R1 + per block (N_WR min 2 + frame + 2 + CRC
 *          status 5) [+ CMD12] + 8 clocks, busy not included
 * N_AC is counted from the command's end bit (the response travels on CMD
 * at the same time); the trailing 8 clocks are the ones the host must give
 * after a transaction (§4.4). A CMD12 is counted in full (48 clocks): it
 * may overlap the last block, the ceiling stays conservative.
 * DDR50 (BUS_DDR): data and the two interleaved CRC16 per line move on both
 * edges, start/end bits and commands stay single-rate.
 * Not modelled: tuning, 8-bit (MMC) DDR, CMD23 (add bus_cmd_r1_clocks()).
 */
#ifndef SDB_BENCH_BUSMODEL_H
#define SDB_BENCH_BUSMODEL_H

#include <stdint.h>

#define BUS_CMD_CLOCKS		48u
#define BUS_R1_CLOCKS		48u
#define BUS_R2_CLOCKS		136u
#define BUS_NCR_MIN_CLOCKS	2u
#define BUS_NRC_MIN_CLOCKS	8u
#define BUS_NAC_MIN_CLOCKS	2u	/* command end bit / block end to read data */
#define BUS_NWR_MIN_CLOCKS	2u	/* response / CRC status end to write data */
#define BUS_NCRC_CLOCKS		2u	/* write block end bit to CRC status */
#define BUS_CRC_STATUS_CLOCKS	5u	/* start, 3 status bits, end */
#define BUS_TRAIL_CLOCKS	8u	/* clocks after a transaction (§4.4) */

/* Flags for bus_xfer_clocks(). */
#define BUS_MULTI	0x1u	/* CMD18/CMD25 (else CMD17/CMD24 per block) */
#define BUS_STOP	0x2u	/* a CMD12 ends each multi-block transfer */
#define BUS_WRITE	0x4u
#define BUS_DDR		0x8u	/* DDR50 data */

/* Clocks to move one data block of blksz bytes on 'width' lines. */
uint32_t bus_block_clocks(uint32_t blksz, unsigned width);
/* The same in the BUS_DDR data rate of flags: one block's frame on the
 * data lines alone (start bit, data, CRC16, end bit on every line: SD
 * Physical Layer §4.5, data packet format), the least a block can take on
 * the bus whatever the gaps around it. */
uint32_t bus_block_frame_clocks(uint32_t blksz, unsigned width, unsigned flags);
/* Clocks of a command with an R1 response (cmd + N_CR min + response). */
uint32_t bus_cmd_r1_clocks(void);
/* ns for a number of clocks at clock_hz. */
uint64_t bus_clocks_to_ns(uint64_t clocks, uint32_t clock_hz);

/* Bus-only time of a whole transfer of 'blocks' 512-byte blocks:
 * command + response + data frames (+ CMD12 for multi-block if stop_cmd),
 * no card latency, no busy. */
uint64_t bus_transfer_ns(uint32_t blocks, unsigned width, uint32_t clock_hz,
			 int multi, int stop_cmd);
/* Payload ceiling in 10^6 bytes/s for such transfers (no card latency). */
double bus_ceiling_mbs(uint32_t blocks, unsigned width, uint32_t clock_hz,
		       int multi, int stop_cmd);

/* The general form: clocks of one transfer of 'blocks' blocks of blksz
 * bytes (BUS_* flags; without BUS_MULTI each block is its own command). */
uint64_t bus_xfer_clocks(uint32_t blocks, uint32_t blksz, unsigned width,
			 unsigned flags);
/* Clocks of one data block including its per-block protocol gaps
 * (read: N_AC min; write: N_WR, CRC status). */
uint32_t bus_block_pitch_clocks(uint32_t blksz, unsigned width, unsigned flags);
/* Payload ceiling in 10^6 bytes/s of bus_xfer_clocks() transfers. */
double bus_xfer_ceiling_mbs(uint32_t blocks, uint32_t blksz, unsigned width,
			    uint32_t clock_hz, unsigned flags);
/* Raw data rate of the lines: clock * width / 8 (x2 for DDR), 10^6 B/s. */
double bus_raw_mbs(unsigned width, uint32_t clock_hz, unsigned flags);

#endif

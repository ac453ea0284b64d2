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
 */
#ifndef SDB_BENCH_BUSMODEL_H
#define SDB_BENCH_BUSMODEL_H

#include <stdint.h>

#define BUS_CMD_CLOCKS		48u
#define BUS_R1_CLOCKS		48u
#define BUS_R2_CLOCKS		136u
#define BUS_NCR_MIN_CLOCKS	2u
#define BUS_NRC_MIN_CLOCKS	8u

/* Clocks to move one data block of blksz bytes on 'width' lines. */
uint32_t bus_block_clocks(uint32_t blksz, unsigned width);
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

#endif

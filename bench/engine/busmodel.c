/*
 * busmodel.c - theoretical SD bus times from the framing of the SD Physical
 * Layer Simplified Specification §4.5 (data packet format), §4.12 (timing
 * N_CR, N_AC, N_WR, CRC status) and §4.4 (clocks after a transaction).
 * The counting rules are in busmodel.h and docs/attribution.md.
 *
 * Not supported: 8-bit MMC bus DDR, UHS-II, tuning and the card's own
 * latency (N_AC beyond its minimum, programming busy): those are card
 * time, measured elsewhere.
 */
#include "bench/engine/busmodel.h"

uint32_t bus_block_clocks(uint32_t blksz, unsigned width)
{
	if (width == 0)
		width = 1;
	/* Every line carries its own start bit, share of the data, CRC16 and
	 * end bit; the lines run in parallel. */
	return 1u + (8u * blksz + width - 1u) / width + 16u + 1u;
}

uint32_t bus_block_frame_clocks(uint32_t blksz, unsigned width, unsigned flags)
{
	uint32_t data;

	if (!(flags & BUS_DDR))
		return bus_block_clocks(blksz, width);
	if (width == 0)
		width = 1;
	/* Two bits per line per clock; the two interleaved CRC16 of a DDR
	 * line (one per edge) take 16 clocks like one SDR CRC16. */
	data = (8u * blksz + 2u * width - 1u) / (2u * width);
	return 1u + data + 16u + 1u;
}

uint32_t bus_cmd_r1_clocks(void)
{
	return BUS_CMD_CLOCKS + BUS_NCR_MIN_CLOCKS + BUS_R1_CLOCKS;
}

uint64_t bus_clocks_to_ns(uint64_t clocks, uint32_t clock_hz)
{
	if (clock_hz == 0)
		return 0;
	/* Rounded; clocks * 10^9 fits 64 bits below ~1.8e10 clocks, which is
	 * 12 hours even at 400 kHz. */
	return (clocks * 1000000000ull + clock_hz / 2u) / clock_hz;
}

uint32_t bus_block_pitch_clocks(uint32_t blksz, unsigned width, unsigned flags)
{
	uint32_t frame = bus_block_frame_clocks(blksz, width, flags);

	if (flags & BUS_WRITE)
		return BUS_NWR_MIN_CLOCKS + frame + BUS_NCRC_CLOCKS + BUS_CRC_STATUS_CLOCKS;
	return BUS_NAC_MIN_CLOCKS + frame;
}

/* Clocks of one command, before its first data block may start. */
static uint32_t cmd_lead_clocks(unsigned flags)
{
	/* Read data may start N_AC after the command's end bit while the
	 * response is still on CMD; write data waits for the response. */
	if (flags & BUS_WRITE)
		return bus_cmd_r1_clocks();
	return BUS_CMD_CLOCKS;
}

uint64_t bus_xfer_clocks(uint32_t blocks, uint32_t blksz, unsigned width,
			 unsigned flags)
{
	uint64_t pitch = bus_block_pitch_clocks(blksz, width, flags);
	uint64_t per_cmd = cmd_lead_clocks(flags) + BUS_TRAIL_CLOCKS;

	if (blocks == 0)
		return 0;
	if (!(flags & BUS_MULTI))
		return (uint64_t)blocks * (per_cmd + pitch);
	return per_cmd + (uint64_t)blocks * pitch +
	       ((flags & BUS_STOP) ? BUS_CMD_CLOCKS : 0u);
}

uint64_t bus_transfer_ns(uint32_t blocks, unsigned width, uint32_t clock_hz,
			 int multi, int stop_cmd)
{
	unsigned flags = (multi ? BUS_MULTI : 0u) | (multi && stop_cmd ? BUS_STOP : 0u);

	return bus_clocks_to_ns(bus_xfer_clocks(blocks, 512, width, flags), clock_hz);
}

double bus_xfer_ceiling_mbs(uint32_t blocks, uint32_t blksz, unsigned width,
			    uint32_t clock_hz, unsigned flags)
{
	uint64_t clocks = bus_xfer_clocks(blocks, blksz, width, flags);

	if (clocks == 0 || clock_hz == 0)
		return 0.0;
	/* bytes / (clocks / f) in 10^6 B/s, without rounding to ns. */
	return (double)blocks * (double)blksz * (double)clock_hz /
	       ((double)clocks * 1e6);
}

double bus_ceiling_mbs(uint32_t blocks, unsigned width, uint32_t clock_hz,
		       int multi, int stop_cmd)
{
	unsigned flags = (multi ? BUS_MULTI : 0u) | (multi && stop_cmd ? BUS_STOP : 0u);

	return bus_xfer_ceiling_mbs(blocks, 512, width, clock_hz, flags);
}

double bus_raw_mbs(unsigned width, uint32_t clock_hz, unsigned flags)
{
	double r = (double)clock_hz * (double)width / 8e6;

	return (flags & BUS_DDR) ? 2.0 * r : r;
}

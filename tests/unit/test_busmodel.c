/*
 * test_busmodel.c - bench/engine/busmodel.c: frame sizes from SD Physical
 * Layer §4.5 and every row of a reference ceiling table worked out from the
 * spec's timings (below; docs/attribution.md prints it), within half a
 * unit of the last printed digit ("≈" rows within 0.05).
 */
#include "tests/unit/check.h"
#include "bench/engine/busmodel.h"

TEST(frame_clocks)
{
	CHECK_EQ_U(bus_block_clocks(512, 1), 4114);
	CHECK_EQ_U(bus_block_clocks(512, 4), 1042);
	CHECK_EQ_U(bus_block_clocks(512, 8), 530);
	CHECK_EQ_U(bus_block_clocks(8, 4), 34);   /* SCR: 16 data clocks */
	CHECK_EQ_U(bus_block_clocks(64, 1), 530); /* SD Status on 1 bit */
	CHECK_EQ_U(bus_cmd_r1_clocks(), 98);
	CHECK_EQ_U(bus_block_pitch_clocks(512, 4, 0), 1044);
	CHECK_EQ_U(bus_block_pitch_clocks(512, 4, BUS_WRITE), 1051);
	CHECK_EQ_U(bus_block_pitch_clocks(512, 4, BUS_DDR), 532);
}

TEST(transfer_clocks_and_ns)
{
	/* single read: CMD 48 + N_AC 2 + 1042 + 8 */
	CHECK_EQ_U(bus_xfer_clocks(1, 512, 4, 0), 1100);
	CHECK_EQ_U(bus_xfer_clocks(3, 512, 4, 0), 3300);
	/* multi read with CMD12: 48 + n * 1044 + 48 + 8 */
	CHECK_EQ_U(bus_xfer_clocks(128, 512, 4, BUS_MULTI | BUS_STOP), 133736);
	CHECK_EQ_U(bus_xfer_clocks(128, 512, 4, BUS_MULTI), 133688);
	/* single write: 98 + (2 + 1042 + 2 + 5) + 8 */
	CHECK_EQ_U(bus_xfer_clocks(1, 512, 4, BUS_WRITE), 1157);
	CHECK_EQ_U(bus_xfer_clocks(0, 512, 4, BUS_MULTI), 0);
	CHECK_EQ_U(bus_clocks_to_ns(1042, 50000000), 20840);
	CHECK_EQ_U(bus_clocks_to_ns(1, 400000), 2500);
	CHECK_EQ_U(bus_clocks_to_ns(1, 0), 0);
	CHECK_EQ_U(bus_transfer_ns(1, 4, 50000000, 0, 0), 22000);
	CHECK_EQ_U(bus_transfer_ns(128, 4, 25000000, 1, 1), 133736ull * 40);
	/* stop_cmd is ignored for single-block transfers */
	CHECK_EQ_U(bus_transfer_ns(1, 4, 25000000, 0, 1), 1100ull * 40);
}

struct row {
	const char *mode;
	unsigned width;
	uint32_t hz;
	unsigned ddr;
	double raw, single, m64k, m1m;
	double tol_single, tol_multi;
};

/* The table, as printed. */
static const struct row table[] = {
	{ "400 kHz 4-bit", 4, 400000, 0, 0.2, 0.186, 0.196, 0.196, 0.0005, 0.0005 },
	{ "DS 25 MHz 1-bit", 1, 25000000, 0, 3.125, 3.07, 3.11, 3.11, 0.005, 0.005 },
	{ "DS 25 MHz 4-bit", 4, 25000000, 0, 12.5, 11.64, 12.25, 12.26, 0.005, 0.005 },
	{ "HS 50 MHz 1-bit", 1, 50000000, 0, 6.25, 6.14, 6.22, 6.22, 0.005, 0.005 },
	{ "HS 50 MHz 4-bit", 4, 50000000, 0, 25.0, 23.27, 24.50, 24.52, 0.005, 0.005 },
	{ "SDR50 100 MHz", 4, 100000000, 0, 50, 46.5, 49.0, 49.04, 0.05, 0.005 },
	{ "DDR50", 4, 50000000, 1, 50, 43.5, 48.0, 48.1, 0.05, 0.05 },
	{ "SDR104 208 MHz", 4, 208000000, 0, 104, 96.8, 101.9, 102.0, 0.05, 0.05 },
};

TEST(reference_table_rows)
{
	unsigned i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct row *r = &table[i];
		unsigned f = r->ddr ? BUS_DDR : 0u;
		unsigned m = f | BUS_MULTI | BUS_STOP;
		double raw = bus_raw_mbs(r->width, r->hz, f);
		double single = bus_xfer_ceiling_mbs(1, 512, r->width, r->hz, f);
		double m64k = bus_xfer_ceiling_mbs(128, 512, r->width, r->hz, m);
		double m1m = bus_xfer_ceiling_mbs(2048, 512, r->width, r->hz, m);

		printf("  %-16s raw %8.3f single %8.4f 64K %8.4f 1M %8.4f\n",
		       r->mode, raw, single, m64k, m1m);
		CHECK_NEAR(raw, r->raw, 1e-9); /* raw rates are exact */
		CHECK_NEAR(single, r->single, r->tol_single);
		CHECK_NEAR(m64k, r->m64k, r->tol_multi);
		CHECK_NEAR(m1m, r->m1m, r->tol_multi);
	}
}

TEST(legacy_ceiling_matches_general_form)
{
	CHECK_NEAR(bus_ceiling_mbs(2048, 4, 50000000, 1, 1),
		   bus_xfer_ceiling_mbs(2048, 512, 4, 50000000, BUS_MULTI | BUS_STOP), 1e-12);
	CHECK_NEAR(bus_ceiling_mbs(1, 4, 25000000, 0, 0), 512.0 * 25.0 / 1100.0, 1e-9);
	CHECK_NEAR(bus_ceiling_mbs(1, 4, 0, 0, 0), 0.0, 0);
	/* a write is slower than a read: response wait + CRC status */
	CHECK(bus_xfer_ceiling_mbs(1, 512, 4, 50000000, BUS_WRITE) <
	      bus_xfer_ceiling_mbs(1, 512, 4, 50000000, 0));
}

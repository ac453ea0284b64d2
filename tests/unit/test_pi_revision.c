/*
 * test_pi_revision.c - board revision decoding, incl. the codes QEMU's
 * raspi machines report.
 */
#include "tests/unit/check.h"
#include "lib/pi_revision.h"

TEST(qemu_machines)
{
	struct pi_revision r;

	pi_revision_decode(0x00920092, &r); /* raspi0 */
	CHECK(r.known && r.new_style);
	CHECK_STR(r.model, "Zero");
	CHECK_STR(r.soc, "BCM2835");
	CHECK_EQ_U(r.memory_mib, 512);
	CHECK_EQ_U(r.pcb_revision, 2);

	pi_revision_decode(0x00900021, &r); /* raspi1ap */
	CHECK_STR(r.model, "A+");
	CHECK_EQ_U(r.memory_mib, 512);

	pi_revision_decode(0x00a21041, &r); /* raspi2b */
	CHECK_STR(r.model, "2 Model B");
	CHECK_STR(r.soc, "BCM2836");
	CHECK_STR(r.maker, "Embest");
	CHECK_EQ_U(r.memory_mib, 1024);
}

TEST(real_boards)
{
	struct pi_revision r;

	pi_revision_decode(0x00c03111, &r);
	CHECK_STR(r.model, "4 Model B");
	CHECK_STR(r.soc, "BCM2711");
	CHECK_EQ_U(r.memory_mib, 4096);
	CHECK_STR(r.maker, "Sony UK");

	pi_revision_decode(0x00a020d3, &r);
	CHECK_STR(r.model, "3 Model B+");
	CHECK_STR(r.soc, "BCM2837");

	pi_revision_decode(0x00902120, &r);
	CHECK_STR(r.model, "Zero 2 W");

	pi_revision_decode(0x0000000e, &r);
	CHECK(r.known && !r.new_style);
	CHECK_STR(r.model, "B");
	CHECK_EQ_U(r.memory_mib, 512);

	pi_revision_decode(0x01000010, &r); /* warranty bit set */
	CHECK_STR(r.model, "B+");
}

/* The Pi 5 family (BCM2712, processor field 4): codes as the Raspberry Pi
 * documentation lists them (Pi 5 4 GB c04170, 8 GB d04170, 16 GB e04171;
 * CM5 d04180; Pi 500 d04190). None of these boards has run sdbench. */
TEST(pi5_family)
{
	struct pi_revision r;

	pi_revision_decode(0x00c04170, &r);
	CHECK(r.known && r.new_style);
	CHECK_STR(r.model, "5");
	CHECK_STR(r.soc, "BCM2712");
	CHECK_EQ_U(r.memory_mib, 4096);
	CHECK_STR(r.maker, "Sony UK");
	pi_revision_decode(0x00e04171, &r);
	CHECK_STR(r.model, "5");
	CHECK_EQ_U(r.memory_mib, 16384);
	CHECK_EQ_U(r.pcb_revision, 1);
	pi_revision_decode(0x00d04180, &r);
	CHECK_STR(r.model, "Compute Module 5");
	CHECK_EQ_U(r.memory_mib, 8192);
	pi_revision_decode(0x00d04190, &r);
	CHECK_STR(r.model, "500");
	pi_revision_decode(0x00b041a0, &r);
	CHECK_STR(r.model, "Compute Module 5 Lite");
}

TEST(unknown_codes)
{
	struct pi_revision r;

	pi_revision_decode(0x0000ffff, &r);
	CHECK(!r.known);
	CHECK_STR(r.model, "unknown");
	pi_revision_decode(0x00800ff0, &r);
	CHECK(!r.known);
}

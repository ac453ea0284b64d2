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

TEST(unknown_codes)
{
	struct pi_revision r;

	pi_revision_decode(0x0000ffff, &r);
	CHECK(!r.known);
	CHECK_STR(r.model, "unknown");
	pi_revision_decode(0x00800ff0, &r);
	CHECK(!r.known);
}

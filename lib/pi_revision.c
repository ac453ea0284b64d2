/*
 * pi_revision.c - Raspberry Pi revision codes (the documented table of
 * old-style codes and the new-style bit fields).
 */
#include "lib/pi_revision.h"

static const char *const new_types[] = {
	[0x00] = "A", [0x01] = "B", [0x02] = "A+", [0x03] = "B+",
	[0x04] = "2 Model B", [0x05] = "Alpha", [0x06] = "Compute Module 1",
	[0x08] = "3 Model B", [0x09] = "Zero", [0x0a] = "Compute Module 3",
	[0x0c] = "Zero W", [0x0d] = "3 Model B+", [0x0e] = "3 Model A+",
	[0x0f] = "internal", [0x10] = "Compute Module 3+", [0x11] = "4 Model B",
	[0x12] = "Zero 2 W", [0x13] = "400", [0x14] = "Compute Module 4",
	[0x15] = "Compute Module 4S", [0x16] = "internal", [0x17] = "5",
	[0x18] = "Compute Module 5", [0x19] = "500", [0x1a] = "Compute Module 5 Lite",
};

static const char *const socs[] = { "BCM2835", "BCM2836", "BCM2837", "BCM2711", "BCM2712" };
static const char *const makers[] = {
	"Sony UK", "Egoman", "Embest", "Sony Japan", "Embest", "Stadium",
};

struct old_rev {
	uint16_t code;
	const char *model;
	uint16_t mib;
	const char *maker;
};

static const struct old_rev old_revs[] = {
	{ 0x0002, "B", 256, "Egoman" },  { 0x0003, "B", 256, "Egoman" },
	{ 0x0004, "B", 256, "Sony UK" }, { 0x0005, "B", 256, "Qisda" },
	{ 0x0006, "B", 256, "Egoman" },  { 0x0007, "A", 256, "Egoman" },
	{ 0x0008, "A", 256, "Sony UK" }, { 0x0009, "A", 256, "Qisda" },
	{ 0x000d, "B", 512, "Egoman" },  { 0x000e, "B", 512, "Sony UK" },
	{ 0x000f, "B", 512, "Egoman" },  { 0x0010, "B+", 512, "Sony UK" },
	{ 0x0011, "Compute Module 1", 512, "Sony UK" },
	{ 0x0012, "A+", 256, "Sony UK" }, { 0x0013, "B+", 512, "Embest" },
	{ 0x0014, "Compute Module 1", 512, "Embest" },
	{ 0x0015, "A+", 256, "Embest" },
};

void pi_revision_decode(uint32_t code, struct pi_revision *r)
{
	unsigned i;

	r->known = false;
	r->model = "unknown";
	r->soc = "unknown";
	r->maker = "unknown";
	r->memory_mib = 0;
	r->pcb_revision = 0;
	r->new_style = (code >> 23) & 1;

	if (r->new_style) {
		uint32_t type = (code >> 4) & 0xff;
		uint32_t proc = (code >> 12) & 0xf;
		uint32_t maker = (code >> 16) & 0xf;
		uint32_t mem = (code >> 20) & 0x7;

		if (type < sizeof(new_types) / sizeof(new_types[0]) && new_types[type]) {
			r->model = new_types[type];
			r->known = true;
		}
		if (proc < sizeof(socs) / sizeof(socs[0]))
			r->soc = socs[proc];
		if (maker < sizeof(makers) / sizeof(makers[0]))
			r->maker = makers[maker];
		if (mem <= 6)
			r->memory_mib = 256u << mem;
		r->pcb_revision = code & 0xf;
		return;
	}
	code &= 0xffff; /* bit 24 marks warranty-voided boards */
	for (i = 0; i < sizeof(old_revs) / sizeof(old_revs[0]); i++)
		if (old_revs[i].code == code) {
			r->known = true;
			r->model = old_revs[i].model;
			r->soc = "BCM2835";
			r->maker = old_revs[i].maker;
			r->memory_mib = old_revs[i].mib;
			return;
		}
}

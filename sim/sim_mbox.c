/*
 * sim_mbox.c - the VideoCore mailbox's property channel (8) as a board's
 * firmware answers it, for the tags sdbench's LED and board code use:
 * "get board revision" (0x00010002: sim_mbox_set_revision) and "set GPIO
 * state" (0x00038041: the firmware's expander, lines 128-135; with
 * sim_mbox_expander(false) the tag is left unanswered, as a firmware or
 * QEMU that does not know it does). Every other tag is left unanswered
 * (no response bit); the request itself always succeeds.
 *
 * Registers at periph + 0xb880: READ +0x00, STATUS +0x18 (bit 31 full,
 * bit 30 empty), WRITE +0x20. A write names the message by its bus
 * address (the 0x40000000 or 0xC0000000 alias of an ARM physical address
 * in the simulator's memory map, sim_dma.c) and channel; the answer is
 * the same word, read back from READ.
 */
#include <string.h>

#include "sim/sim_internal.h"

#define MBOX_OFFSET	0xb880u
#define R_READ		0x00u
#define R_STATUS	0x18u
#define R_WRITE		0x20u
#define EMPTY		(1u << 30)
#define TAG_BOARD_REV	0x00010002u
#define TAG_SET_GPIO	0x00038041u
#define EXP_FIRST	128u
#define EXP_LINES	8u

static struct {
	uintptr_t base;
	bool pending;
	uint32_t answer;
	uint32_t revision;
	bool expander;
	int exp[EXP_LINES];	/* -1 never set */
	unsigned requests, refused_tags;
} mb;

void sim_mbox_reset(uintptr_t periph_base)
{
	memset(&mb, 0, sizeof(mb));
	mb.base = periph_base + MBOX_OFFSET;
	mb.expander = true;
	for (unsigned i = 0; i < EXP_LINES; i++)
		mb.exp[i] = -1;
}

void sim_mbox_set_revision(uint32_t rev)
{
	mb.revision = rev;
}

void sim_mbox_expander(bool answers)
{
	mb.expander = answers;
}

int sim_mbox_expgpio(unsigned line)
{
	return line < EXP_LINES ? mb.exp[line] : -1;
}

unsigned sim_mbox_refused_tags(void)
{
	return mb.refused_tags;
}

bool sim_mbox_claims(uintptr_t addr)
{
	return mb.base && addr >= mb.base && addr < mb.base + 0x40u;
}

/* One tag at t[0..]: answered in place, or left without its response bit. */
static void tag(uint32_t *t)
{
	uint32_t *v = t + 3;

	if (t[0] == TAG_BOARD_REV && t[1] >= 4) {
		v[0] = mb.revision;
		t[2] = 0x80000000u | 4u;
	} else if (t[0] == TAG_SET_GPIO && mb.expander && t[1] >= 8 &&
		   v[0] >= EXP_FIRST && v[0] < EXP_FIRST + EXP_LINES) {
		mb.exp[v[0] - EXP_FIRST] = v[1] ? 1 : 0;
		sim_led_note(SIM_LED_EXPANDER, v[0] - EXP_FIRST, v[1] ? 1 : 0);
		t[2] = 0x80000000u | 8u;
	} else {
		mb.refused_tags++;
	}
}

static void request(uint32_t word)
{
	uint64_t phys = (word & ~0xfu) & 0x3fffffffu;
	uint32_t *m = (uint32_t *)sim_dma_phys_to_host(phys, 8);
	uint32_t size, at = 2;

	mb.requests++;
	if (!m || (m[0] & 3) || m[0] < 12 || !sim_dma_phys_to_host(phys, m[0])) {
		sim_violation("mailbox message at bus 0x%08x is not in the memory map", word & ~0xfu);
		return;
	}
	size = m[0] / 4;
	while (at + 3 <= size && m[at] != 0) {
		tag(m + at);
		at += 3 + (m[at + 1] + 3) / 4;
	}
	m[1] = 0x80000000u;
	mb.answer = word;
	mb.pending = true;
}

uint32_t sim_mbox_read(uintptr_t addr)
{
	uint32_t off = (uint32_t)(addr - mb.base);

	sim_clk_note_mmio();
	sim_clk_charge(sim_get_config()->mmio_read_ns);
	sim_wire_cpu_work(sim_clk_now);
	if (off == R_STATUS)
		return mb.pending ? 0 : EMPTY;
	if (off == R_READ && mb.pending) {
		mb.pending = false;
		return mb.answer;
	}
	sim_violation("mailbox read at +0x%02x%s", off, off == R_READ ? " with nothing to read" : "");
	return 0;
}

void sim_mbox_write(uintptr_t addr, uint32_t v)
{
	uint32_t off = (uint32_t)(addr - mb.base);

	sim_clk_note_mmio();
	sim_clk_charge(sim_get_config()->mmio_write_ns);
	sim_wire_cpu_work(sim_clk_now);
	if (off != R_WRITE) {
		sim_violation("mailbox write of 0x%08x at +0x%02x", v, off);
		return;
	}
	if ((v & 0xfu) != 8u) {
		sim_violation("mailbox write to channel %u (only the property channel 8 is modelled)",
			      v & 0xfu);
		return;
	}
	request(v);
}

/*
 * sim_gpio.c - the BCM2835/6/7/2711 GPIO block as far as an output needs
 * it (BCM2835 ARM Peripherals §6.1): GPFSEL0-5 (three bits a pin, 001 =
 * output), GPSET0/1 and GPCLR0/1 (write 1 to set / clear a pin's output
 * latch; writes only), GPLEV0/1 (a driven pin reads its latch, an input
 * reads low). The pull registers are kept as written. At periph + 0x200000
 * (sim_gpio_place; sim_setup puts it under the simulated controller's
 * peripheral base as harness/sim_board.c computes it).
 *
 * And the status LED's observer for every model: one line (a SoC GPIO,
 * a firmware expander line in sim_mbox.c, an AON GPIO in sim_gio_aon.c)
 * is watched, and each change of the level it drives is logged with the
 * virtual time (sim_led_watch / sim_led_edges).
 */
#include <string.h>

#include "sim/sim_internal.h"

#define GPIO_OFFSET	0x200000u
#define GPIO_SPAN	0x100u
#define R_GPFSEL0	0x00u
#define R_GPSET0	0x1cu
#define R_GPCLR0	0x28u
#define R_GPLEV0	0x34u
#define PINS		54u

static struct {
	uintptr_t base;
	uint32_t reg[GPIO_SPAN / 4];
	uint64_t latch;		/* output latches, bit = pin */
	enum sim_led_src src;	/* the watched line */
	unsigned line;
	int level;		/* its driven level, -1 not driven */
	struct sim_led_edge edges[SIM_LED_EDGES];
	unsigned nedges;
} g;

void sim_gpio_place(uintptr_t periph_base)
{
	g.base = periph_base + GPIO_OFFSET;
}

void sim_gpio_reset(uintptr_t periph_base)
{
	memset(&g, 0, sizeof(g));
	sim_gpio_place(periph_base);
	g.src = SIM_LED_NONE;
	g.level = -1;
}

bool sim_gpio_claims(uintptr_t addr)
{
	return g.base && addr >= g.base && addr < g.base + GPIO_SPAN;
}

unsigned sim_gpio_function(unsigned pin)
{
	return pin < PINS ? (g.reg[R_GPFSEL0 / 4 + pin / 10] >> ((pin % 10) * 3)) & 7u : 0;
}

int sim_gpio_pin(unsigned pin)
{
	if (pin >= PINS || sim_gpio_function(pin) != 1)
		return -1;
	return (int)((g.latch >> pin) & 1);
}

void sim_led_watch(enum sim_led_src src, unsigned line)
{
	g.src = src;
	g.line = line;
	g.level = -1;
	g.nedges = 0;
}

void sim_led_note(enum sim_led_src src, unsigned line, int level)
{
	if (src != g.src || line != g.line || level == g.level)
		return;
	g.level = level;
	if (g.nedges < SIM_LED_EDGES)
		g.edges[g.nedges++] = (struct sim_led_edge){ sim_clk_now, level };
}

unsigned sim_led_edges(struct sim_led_edge *out, unsigned max)
{
	unsigned n = g.nedges < max ? g.nedges : max;

	memcpy(out, g.edges, n * sizeof(*out));
	return n;
}

uint32_t sim_gpio_read(uintptr_t addr)
{
	uint32_t off = (uint32_t)(addr - g.base);

	sim_clk_note_mmio();
	sim_clk_charge(sim_get_config()->mmio_read_ns);
	sim_wire_cpu_work(sim_clk_now);
	if (off & 3) {
		sim_violation("unaligned read of the GPIO block at +0x%02x", off);
		return 0;
	}
	if (off >= R_GPSET0 && off < R_GPLEV0) {
		sim_violation("read of write-only GPIO register +0x%02x", off);
		return 0;
	}
	if (off == R_GPLEV0 || off == R_GPLEV0 + 4) {
		uint32_t v = 0;
		unsigned first = off == R_GPLEV0 ? 0 : 32, p;

		for (p = first; p < first + 32 && p < PINS; p++)
			if (sim_gpio_pin(p) == 1)
				v |= 1u << (p - first);
		return v;
	}
	return g.reg[off / 4];
}

static void latch_write(uint32_t off, uint32_t v)
{
	unsigned first = (off == R_GPSET0 || off == R_GPCLR0) ? 0 : 32;
	bool set = off < R_GPCLR0;
	uint64_t m = (uint64_t)v << first;

	g.latch = set ? (g.latch | m) : (g.latch & ~m);
}

void sim_gpio_write(uintptr_t addr, uint32_t v)
{
	uint32_t off = (uint32_t)(addr - g.base);

	sim_clk_note_mmio();
	sim_clk_charge(sim_get_config()->mmio_write_ns);
	sim_wire_cpu_work(sim_clk_now);
	if (off & 3) {
		sim_violation("unaligned write of the GPIO block at +0x%02x", off);
		return;
	}
	if (off == R_GPSET0 || off == R_GPSET0 + 4 || off == R_GPCLR0 || off == R_GPCLR0 + 4)
		latch_write(off, v);
	else if (off == R_GPLEV0 || off == R_GPLEV0 + 4)
		sim_violation("write of 0x%08x to the read-only GPLEV +0x%02x", v, off);
	else
		g.reg[off / 4] = v;
	if (g.src == SIM_LED_GPIO)
		sim_led_note(SIM_LED_GPIO, g.line, sim_gpio_pin(g.line));
}

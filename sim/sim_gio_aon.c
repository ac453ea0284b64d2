/*
 * sim_gio_aon.c - the BCM2712's always-on GPIO block (a Broadcom STB GPIO
 * block, Linux gpio-brcmstb: per bank of 0x20 bytes ODEN, DATA, IODIR,
 * EC, EI, MASK, LEVEL, STAT; IODIR 1 = input) as the Pi 5 board wires it
 * (bcm2712-rpi-5-b.dts): line 3 SD_IOVDD_SEL selects the SD I/O
 * regulator (1 = 1.8 V, 0 = 3.3 V; sim_set_io_voltage, with its 5 ms
 * settling), line 4 SD_PWR_ON switches the card's supply
 * (sim_board_set_card_power), line 5 SD_CDET_N reads the card-detect
 * switch (low = card in). Only on the BCM2712 platform.
 *
 * What the firmware leaves (modelled, not observed): lines 2 (RP1_RUN,
 * high), 3 (low, 3.3 V) and 4 (high, card powered) driven, the rest
 * inputs. A write that changes any line but 3, 4 and 9 (2712_STAT_LED,
 * the ACT LED sdbench shows its status on), or any bit of bank 1, is a
 * protocol violation: those lines belong to the RP1, the PMIC and the
 * HDMI/PMIC I2C buses.
 *
 * Fault SIM_FAULT_IO_REGULATOR (or the host key io_regulator_stuck): line
 * 3 no longer follows its latch (its pad and the regulator stay at their
 * level; DATA reads the pad).
 */
#include <string.h>

#include "drivers/mmio.h"
#include "sim/sim_internal.h"

#define GIO_BANK	0x20u
#define R_ODEN		0x00u
#define R_DATA		0x04u
#define R_IODIR		0x08u
#define LINE_RP1_RUN	2u
#define LINE_IOVDD_SEL	3u
#define LINE_PWR_ON	4u
#define LINE_CDET_N	5u
#define LINE_STAT_LED	9u
#define OURS		(1u << LINE_IOVDD_SEL | 1u << LINE_PWR_ON)
/* Lines sdbench may change: the slot's two and the status LED (bcm2712-
 * rpi-5-b.dts led-act: gio_aon 9, active low). */
#define WRITABLE	(OURS | 1u << LINE_STAT_LED)

static const char *const line_names[17] = {
	"RP1_SDA", "RP1_SCL", "RP1_RUN", "SD_IOVDD_SEL", "SD_PWR_ON",
	"SD_CDET_N", "SD_FLG_N", "-", "2712_WAKE", "2712_STAT_LED", "-", "-",
	"PMIC_INT", "UART_TX_FS", "UART_RX_FS", "-", "-",
};

static struct {
	uint32_t reg[SIM_BCM2712_GIO_AON_SPAN / 4];
	bool sel_pad;        /* line 3's pad level (what the regulator sees) */
	bool pwr_pad;        /* line 4's */
	unsigned power_offs; /* card supply cut through line 4 */
	unsigned switches;   /* regulator changes through line 3 */
} gio;

static bool platform(void)
{
	return sim_get_config()->platform == SIM_PLATFORM_BCM2712;
}

bool sim_gio_aon_claims(uintptr_t addr)
{
	return platform() && addr >= (uintptr_t)SIM_BCM2712_GIO_AON_BASE &&
	       addr < (uintptr_t)SIM_BCM2712_GIO_AON_BASE + SIM_BCM2712_GIO_AON_SPAN;
}

void sim_gio_aon_reset(void)
{
	memset(&gio, 0, sizeof(gio));
	gio.reg[R_DATA / 4] = 1u << LINE_RP1_RUN | 1u << LINE_PWR_ON;
	gio.reg[R_IODIR / 4] = 0x1ffffu & ~(1u << LINE_RP1_RUN | OURS);
	gio.reg[(GIO_BANK + R_IODIR) / 4] = 0x3fu;
	gio.sel_pad = false;
	gio.pwr_pad = true;
}

/* A line's level as the board sees it: the latch when driven, else the
 * board's default (pulled low: 3.3 V, card unpowered). */
static bool driven(unsigned line)
{
	return !(gio.reg[R_IODIR / 4] & (1u << line)) &&
	       (gio.reg[R_DATA / 4] & (1u << line));
}

static void update_board(void)
{
	bool sel = driven(LINE_IOVDD_SEL), pwr = driven(LINE_PWR_ON);

	if (sim_get_config()->io_regulator_stuck || sim_fault_active(SIM_FAULT_IO_REGULATOR))
		sel = gio.sel_pad;
	if (sel != gio.sel_pad) {
		gio.sel_pad = sel;
		gio.switches++;
		(void)sim_set_io_voltage(sel ? 1800 : 3300);
	}
	if (pwr != gio.pwr_pad) {
		gio.pwr_pad = pwr;
		if (!pwr)
			gio.power_offs++;
		(void)sim_board_set_card_power(pwr);
	}
}

uint32_t sim_gio_aon_read(uintptr_t addr)
{
	uint32_t off = (uint32_t)(addr - (uintptr_t)SIM_BCM2712_GIO_AON_BASE), v;

	sim_clk_note_mmio();
	sim_clk_charge(sim_get_config()->mmio_read_ns);
	sim_wire_cpu_work(sim_clk_now);
	if (off & 3) {
		sim_violation("unaligned read of the AON GPIO block at +0x%02x", off);
		return 0;
	}
	v = gio.reg[off / 4];
	if (off == R_DATA) {
		/* Outputs read their pad, inputs the board's level (card
		 * detect: low with a card in; the others low). */
		v &= ~gio.reg[R_IODIR / 4] & ~OURS;
		v |= (gio.sel_pad ? 1u << LINE_IOVDD_SEL : 0) |
		     (gio.pwr_pad ? 1u << LINE_PWR_ON : 0);
		if (!sim_card.present)
			v |= 1u << LINE_CDET_N;
	}
	return v;
}

void sim_gio_aon_write(uintptr_t addr, uint32_t v)
{
	uint32_t off = (uint32_t)(addr - (uintptr_t)SIM_BCM2712_GIO_AON_BASE);
	uint32_t old, changed;
	unsigned i;

	sim_clk_note_mmio();
	sim_clk_charge(sim_get_config()->mmio_write_ns);
	sim_wire_cpu_work(sim_clk_now);
	if (off & 3) {
		sim_violation("unaligned write of the AON GPIO block at +0x%02x", off);
		return;
	}
	old = gio.reg[off / 4];
	changed = old ^ v;
	if (off == R_ODEN || off == R_DATA || off == R_IODIR) {
		for (i = 0; i < 17; i++)
			if ((changed & (1u << i)) && !(WRITABLE & (1u << i)))
				sim_violation("AON GPIO %u (%s) changed by a write of 0x%08x to +0x%02x: "
					      "not a line of the SD slot or the status LED", i,
					      line_names[i], v, off);
		if (off == R_ODEN && (v & WRITABLE))
			sim_violation("AON GPIO 3/4/9 set to open drain (ODEN 0x%08x)", v);
	} else if (off >= GIO_BANK && changed) {
		sim_violation("AON GPIO bank 1 written (0x%08x to +0x%02x): not a line of the SD slot",
			      v, off);
	}
	gio.reg[off / 4] = v;
	update_board();
	sim_led_note(SIM_LED_AON, LINE_STAT_LED, sim_gio_aon_line(LINE_STAT_LED));
}

int sim_gio_aon_line(unsigned line)
{
	if (line > 16 || (gio.reg[R_IODIR / 4] & (1u << line)))
		return -1;
	return (gio.reg[R_DATA / 4] >> line) & 1;
}

unsigned sim_gio_aon_power_offs(void)
{
	return gio.power_offs;
}

unsigned sim_gio_aon_regulator_switches(void)
{
	return gio.switches;
}

/*
 * board.c - board detection: MIDR gives the core and so the SoC's
 * description (platform/boards.c; its peripheral base, memory map and
 * mailbox); the mailbox then gives the board revision, memory, clocks and
 * identity. An unknown core gets the BCM2836/7's map when it is ARMv7 or
 * later, else the BCM2835's.
 *
 * The BCM2712 (Cortex-A76: Pi 5, CM5, Pi 500) is recognised in a 64-bit
 * build only (its peripherals lie above 4 GiB); no emulator models it, so
 * its table has run only against the simulator, never on a Pi 5.
 *
 * QEMU is recognised by its MAC address prefix 52:54:00 together with a
 * zero board serial (a real Pi has its OUI B8:27:EB, DC:A6:32, E4:5F:01,
 * 28:CD:C1, D8:3A:DD or 2C:CF:67, and a unique serial).
 */
#include "platform/board.h"
#include "platform/boards.h"
#include "platform/board_desc.h"
#include "drivers/gpio.h"
#include "drivers/mailbox.h"
#include "drivers/uart.h"

void board_detect_cpu(struct board_info *b)
{
	const struct board_desc *d;

	b->midr = cpu_midr();
	b->cpu = cpu_kind();
	d = board_desc_for_cpu(b->cpu);
	b->soc = d ? d->id : SOC_UNKNOWN;
	b->soc_name = d ? d->soc : "unknown";
	if (!d)
		d = board_desc_guess(cpu_is_armv7());
	b->desc = d;
	b->periph_base = (uintptr_t)d->periph_base;
	b->periph_size = d->periph_size;
}

static void keep_first(struct board_info *b, int r)
{
	if (r && !b->mbox_status)
		b->mbox_status = r;
}

void board_detect_mailbox(struct board_info *b)
{
	mbox_init(b->periph_base + b->desc->mbox_offset, b->desc->mbox_bus_alias);
	keep_first(b, mbox_get_board_revision(&b->revision));
	pi_revision_decode(b->revision, &b->rev);
	keep_first(b, mbox_get_firmware_revision(&b->fw_revision));
	keep_first(b, mbox_get_arm_memory(&b->arm_mem_base, &b->arm_mem_size));
	keep_first(b, mbox_get_vc_memory(&b->vc_mem_base, &b->vc_mem_size));
	keep_first(b, mbox_get_mac(b->mac));
	/* Optional facts: a missing answer is not an error. */
	(void)mbox_get_board_serial(&b->serial);
	(void)mbox_get_clock_rate(MBOX_CLK_ARM, &b->arm_clock_hz);
	(void)mbox_get_clock_rate(MBOX_CLK_CORE, &b->core_clock_hz);
	(void)mbox_get_clock_rate(MBOX_CLK_EMMC, &b->emmc_clock_hz);
	(void)mbox_get_clock_rate(MBOX_CLK_UART, &b->uart_clock_hz);
	if (b->desc->emmc2_clock)
		(void)mbox_get_clock_rate(MBOX_CLK_EMMC2, &b->emmc2_clock_hz);
	(void)mbox_get_temperature(&b->temp_mc);

	b->emulated = false;
	b->emulated_reason = "";
	if (b->mac[0] == 0x52 && b->mac[1] == 0x54 && b->mac[2] == 0x00 && b->serial == 0) {
		b->emulated = true;
		b->emulated_reason = "QEMU MAC prefix 52:54:00 and zero board serial";
	}
}

void board_start_console(const struct board_info *b, uint32_t baud)
{
	const struct board_desc *d = b->desc;

	if (d->gpio != BOARD_GPIO_NONE)
		gpio_init(b->periph_base, d->gpio == BOARD_GPIO_BCM2711);
	if (d->debug_uart_base && d->debug_uart_base <= UINTPTR_MAX)
		uart_init_pl011((uintptr_t)d->debug_uart_base, d->debug_uart_hz, baud);
	else
		uart_init(b->periph_base, b->uart_clock_hz ? b->uart_clock_hz : 48000000u, baud);
}

/*
 * board.c - board detection: MIDR gives the SoC family and so the
 * peripheral base (BCM2835 0x20000000, BCM2836/7 0x3F000000, BCM2711
 * 0xFE000000 in the low-peripheral mode 32-bit kernels use, BCM2712
 * 0x10_7C00_0000 above 4 GiB); the mailbox then gives the board revision,
 * memory, clocks and identity.
 *
 * The BCM2712 (Cortex-A76: Pi 5, CM5, Pi 500) is recognised in a 64-bit
 * build only; no emulator models it, so its branch has run only against
 * the simulator's BCM2712 platform, never on a Pi 5.
 *
 * QEMU is recognised by its MAC address prefix 52:54:00 together with a
 * zero board serial (a real Pi has its OUI B8:27:EB, DC:A6:32, E4:5F:01,
 * 28:CD:C1, D8:3A:DD or 2C:CF:67, and a unique serial).
 */
#include "platform/board.h"
#include "drivers/mailbox.h"

void board_detect_cpu(struct board_info *b)
{
	b->midr = cpu_midr();
	b->cpu = cpu_kind();
	switch (b->cpu) {
	case CPU_ARM1176:
		b->soc = SOC_BCM2835;
		b->periph_base = 0x20000000;
		break;
	case CPU_CORTEX_A7:
		b->soc = SOC_BCM2836;
		b->periph_base = 0x3f000000;
		break;
	case CPU_CORTEX_A53:
		b->soc = SOC_BCM2837;
		b->periph_base = 0x3f000000;
		break;
	case CPU_CORTEX_A72:
		b->soc = SOC_BCM2711;
		b->periph_base = 0xfe000000;
		break;
#if UINTPTR_MAX > 0xffffffffu
	case CPU_CORTEX_A76:
		b->soc = SOC_BCM2712;
		b->periph_base = (uintptr_t)BCM2712_PERIPH_BASE;
		break;
#endif
	default:
		/* Best guess for an unknown ARMv7+ core: the BCM2836/7 map. */
		b->soc = SOC_UNKNOWN;
		b->periph_base = cpu_is_armv7() ? 0x3f000000 : 0x20000000;
		break;
	}
	b->periph_size = b->soc == SOC_BCM2711 ? 0x01800000 :
			 b->soc == SOC_BCM2712 ? BCM2712_PERIPH_SIZE : 0x01000000;
	{
		static const char *const names[] = { "BCM2835", "BCM2836", "BCM2837",
						     "BCM2711", "unknown", "BCM2712" };
		b->soc_name = names[b->soc];
	}
}

static void keep_first(struct board_info *b, int r)
{
	if (r && !b->mbox_status)
		b->mbox_status = r;
}

void board_detect_mailbox(struct board_info *b)
{
	mbox_init(b->periph_base, b->soc == SOC_BCM2712 ? BCM2712_MBOX_OFFSET : 0);
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
	if (b->soc == SOC_BCM2711 || b->soc == SOC_BCM2712)
		(void)mbox_get_clock_rate(MBOX_CLK_EMMC2, &b->emmc2_clock_hz);
	(void)mbox_get_temperature(&b->temp_mc);

	b->emulated = false;
	b->emulated_reason = "";
	if (b->mac[0] == 0x52 && b->mac[1] == 0x54 && b->mac[2] == 0x00 && b->serial == 0) {
		b->emulated = true;
		b->emulated_reason = "QEMU MAC prefix 52:54:00 and zero board serial";
	}
}

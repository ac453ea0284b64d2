/*
 * board_report.c - see board_report.h.
 */
#include "drivers/cpu.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"
#include "platform/board_desc.h"
#include "platform/board_report.h"

void board_model_name(const struct board_info *b, char *buf, unsigned len)
{
	fmt_snprintf(buf, len, "Raspberry Pi %s", b->rev.known ? b->rev.model : "(unknown model)");
}

void board_print(const struct board_info *b, const struct timer_info *ti)
{
	char model[48];

	board_model_name(b, model, sizeof(model));
	con_printf("board: %s (revision 0x%08x), %s, %s\n", model, (unsigned)b->revision,
		   b->soc_name, cpu_name(b->cpu));
	con_printf("  peripherals at 0x%08llx, ARM memory %u MiB, VC memory %u MiB\n",
		   (unsigned long long)b->periph_base, (unsigned)(b->arm_mem_size >> 20),
		   (unsigned)(b->vc_mem_size >> 20));
	con_printf("  clocks: ARM %u MHz, core %u MHz, EMMC %u MHz, UART %u MHz\n",
		   (unsigned)(b->arm_clock_hz / 1000000), (unsigned)(b->core_clock_hz / 1000000),
		   (unsigned)(b->emmc_clock_hz / 1000000), (unsigned)(b->uart_clock_hz / 1000000));
	if (b->desc->note)
		con_printf("  %s\n", b->desc->note);
	if (b->desc->emmc2_clock)
		con_printf("  EMMC2 (the SD slot) clock %u Hz from the mailbox%s\n",
			   (unsigned)b->emmc2_clock_hz,
			   b->emulated ? "; under QEMU its capabilities register gives it" : "");
	con_printf("  timestamps: %s at %u Hz measured (nominal %u Hz), resolution %u ns, "
		   "read cost %u ns, calibration spread %u ppm\n",
		   ti->source, (unsigned)ti->freq_hz, (unsigned)ti->nominal_hz,
		   (unsigned)ti->resolution_ns, (unsigned)ti->read_cost_ns,
		   (unsigned)ti->calib_ppm);
	if (b->emulated)
		con_printf("  running under QEMU (%s): timings are emulation speed, not card speed\n",
			   b->emulated_reason);
	if (b->mbox_status)
		con_printf("  warning: mailbox: %s (%s)\n", err_name(b->mbox_status),
			   err_text(b->mbox_status));
}

static void mac_text(const uint8_t m[6], char out[18])
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 6; i++) {
		out[i * 3] = hex[m[i] >> 4];
		out[i * 3 + 1] = hex[m[i] & 15];
		out[i * 3 + 2] = i < 5 ? ':' : '\0';
	}
}

static void timer_fields(struct json *j, const struct timer_info *ti)
{
	json_obj_begin(j, "timer");
	json_str(j, "source", ti->source);
	json_u64(j, "freq_hz", ti->freq_hz);
	json_u64(j, "nominal_hz", ti->nominal_hz);
	json_u64(j, "resolution_ns", ti->resolution_ns);
	json_u64(j, "read_cost_ns", ti->read_cost_ns);
	json_u64(j, "calib_ppm", ti->calib_ppm);
	json_obj_end(j);
}

void board_record_fields(struct json *j, const struct board_info *b,
			 const struct timer_info *ti, bool caches)
{
	char model[48], mac[18];

	board_model_name(b, model, sizeof(model));
	mac_text(b->mac, mac);
	json_str(j, "model", model);
	json_hex(j, "revision", b->revision, 8);
	json_str(j, "soc", b->soc_name);
	json_str(j, "cpu", cpu_name(b->cpu));
#ifdef __aarch64__
	/* Only in kernel8.img for now: kernel.img's records stay as they are
	 * (tests/golden); a board record without "arch" is AArch32. */
	json_str(j, "arch", cpu_arch());
	json_u64(j, "el", cpu_exception_level());
#endif
	json_hex(j, "midr", b->midr, 8);
	json_hex(j, "periph_base", b->periph_base, b->periph_base > 0xffffffffu ? 10 : 8);
	json_u64(j, "arm_clock_hz", b->arm_clock_hz);
	json_u64(j, "core_clock_hz", b->core_clock_hz);
	json_u64(j, "emmc_clock_hz", b->emmc_clock_hz);
	json_u64(j, "uart_clock_hz", b->uart_clock_hz);
	if (b->desc->emmc2_clock)
		json_u64(j, "emmc2_clock_hz", b->emmc2_clock_hz);
	json_u64(j, "arm_mem_bytes", b->arm_mem_size);
	json_u64(j, "vc_mem_bytes", b->vc_mem_size);
	json_u64(j, "board_mem_mib", b->rev.memory_mib);
	json_str(j, "maker", b->rev.maker);
	json_hex(j, "firmware", b->fw_revision, 8);
	json_str(j, "mac", mac);
	json_hex(j, "serial", b->serial, 16);
	json_u64(j, "temp_mc", b->temp_mc);
	timer_fields(j, ti);
	json_bool(j, "caches", caches);
	json_bool(j, "emulated", b->emulated);
	json_str(j, "mailbox", b->mbox_status ? err_name(b->mbox_status) : "ok");
}

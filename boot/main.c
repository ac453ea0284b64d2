/*
 * main.c - kmain(): bring the board up, describe it, run the benchmark,
 * end the run.
 *
 * Order matters: the peripheral base comes from the CPU id alone; the timer
 * comes before the mailbox (its waits have deadlines); the UART comes after
 * the mailbox (its divisor needs the UART clock); the MMU and caches come
 * after the RAM size is known.
 */
#include <string.h>

#include "bench/env.h"
#include "bench/engine/record.h"
#include "bench/results_log.h"
#include "bench/run.h"
#include "bench/screen.h"
#include "bench/status_led.h"
#include "boot/mmu.h"
#include "drivers/cpu.h"
#include "boot/platform.h"
#include "platform/board.h"
#include "drivers/gpio.h"
#include "drivers/mailbox.h"
#include "platform/slot.h"
#include "drivers/timer.h"
#include "drivers/uart.h"
#include "lib/console.h"
#include "lib/err.h"
#include "lib/fmt.h"
#include "platform/board.h"
#include "platform/board_led.h"
#include "platform/boards.h"
#include "platform/slot.h"
#include "platform/slot_gpio.h"

#define SDB_VERSION "0.1"
#define UART_BAUD 115200

void kmain(void);

extern char __free_start[];

static struct board_info board;
static struct sd_slot slot;

/* bench_env.switch_host: the slot on the controller sdbench.txt asks for. */
static int switch_host(const char *name, struct sd_host **host, const char **why)
{
	int r = sd_slot_build(&slot, name);

	*host = slot.host;
	*why = slot.error_what;
	return r;
}

static void print_board(const struct board_info *b, const struct timer_info *ti)
{
	struct json *j;
	char mac[18];
	char model[48];
	int i;

	for (i = 0; i < 6; i++) {
		static const char hex[] = "0123456789abcdef";

		mac[i * 3] = hex[b->mac[i] >> 4];
		mac[i * 3 + 1] = hex[b->mac[i] & 15];
		mac[i * 3 + 2] = i < 5 ? ':' : '\0';
	}
	fmt_snprintf(model, sizeof(model), "Raspberry Pi %s",
		     b->rev.known ? b->rev.model : "(unknown model)");

	con_printf("board: %s (revision 0x%08x), %s, %s\n", model, (unsigned)b->revision,
		   b->soc_name, cpu_name(b->cpu));
	con_printf("  peripherals at 0x%08llx, ARM memory %u MiB, VC memory %u MiB\n",
		   (unsigned long long)b->periph_base, (unsigned)(b->arm_mem_size >> 20),
		   (unsigned)(b->vc_mem_size >> 20));
	con_printf("  clocks: ARM %u MHz, core %u MHz, EMMC %u MHz, UART %u MHz\n",
		   (unsigned)(b->arm_clock_hz / 1000000), (unsigned)(b->core_clock_hz / 1000000),
		   (unsigned)(b->emmc_clock_hz / 1000000), (unsigned)(b->uart_clock_hz / 1000000));
	if (b->soc == SOC_BCM2712)
		con_printf("  Raspberry Pi 5 family: sdbench has not been verified on this "
			   "hardware (no emulator models it)\n");
	if (b->soc == SOC_BCM2711 || b->soc == SOC_BCM2712)
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

	j = record_begin("board");
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
	if (b->soc == SOC_BCM2711 || b->soc == SOC_BCM2712)
		json_u64(j, "emmc2_clock_hz", b->emmc2_clock_hz);
	json_u64(j, "arm_mem_bytes", b->arm_mem_size);
	json_u64(j, "vc_mem_bytes", b->vc_mem_size);
	json_u64(j, "board_mem_mib", b->rev.memory_mib);
	json_str(j, "maker", b->rev.maker);
	json_hex(j, "firmware", b->fw_revision, 8);
	json_str(j, "mac", mac);
	json_hex(j, "serial", b->serial, 16);
	json_u64(j, "temp_mc", b->temp_mc);
	json_obj_begin(j, "timer");
	json_str(j, "source", ti->source);
	json_u64(j, "freq_hz", ti->freq_hz);
	json_u64(j, "nominal_hz", ti->nominal_hz);
	json_u64(j, "resolution_ns", ti->resolution_ns);
	json_u64(j, "read_cost_ns", ti->read_cost_ns);
	json_u64(j, "calib_ppm", ti->calib_ppm);
	json_obj_end(j);
	json_bool(j, "caches", cpu_caches_on());
	json_bool(j, "emulated", b->emulated);
	json_str(j, "mailbox", b->mbox_status ? err_name(b->mbox_status) : "ok");
	record_end();
}

/* HDMI: a framebuffer from the firmware, when it gives one (a board
 * without a screen may refuse: then nothing is shown and nothing said). */
static struct screen_fb fb;

static void start_screen(void)
{
	uint32_t w = 1280, h = 720, bus, bytes, pitch;

	if (mbox_fb_alloc(&w, &h, 32, &bus, &bytes, &pitch) || pitch < w * 4 ||
	    bytes < pitch * h)
		return;
	fb.px = (uint32_t *)(uintptr_t)(bus & 0x3fffffffu);
	fb.width = w;
	fb.height = h;
	fb.pitch_px = pitch / 4;
	cpu_mmu_map_uncached((uintptr_t)fb.px, bytes);
	screen_start(&fb);
}

/* After the board record (every run starts with it). */
static void report_screen(void)
{
	struct json *j;

	if (!fb.px)
		return;
	con_printf("  screen: %ux%u (HDMI), the run is shown there too\n", (unsigned)fb.width,
		   (unsigned)fb.height);
	j = record_begin("screen");
	json_u64(j, "width", fb.width);
	json_u64(j, "height", fb.height);
	record_end();
}

void kmain(void)
{
	struct bench_env env;
	const struct timer_info *ti;
	uint32_t ram, errors;
	uintptr_t free_start;
	uint64_t t0;

	board_detect_cpu(&board);
	timer_init(board.periph_base);
	t0 = timer_now_us();
	/* BCM2712: GPIO 14/15 of the header belong to the RP1 chip behind
	 * PCIe (not driven); the console is the SoC's debug UART on the
	 * 3-pin connector, which needs no pin routing. */
	if (board.soc != SOC_BCM2712)
		gpio_init(board.periph_base, board.soc == SOC_BCM2711);
	board_detect_mailbox(&board);
#if UINTPTR_MAX > 0xffffffffu
	if (board.soc == SOC_BCM2712)
		uart_init_pl011((uintptr_t)BCM2712_DEBUG_UART_BASE, BCM2712_DEBUG_UART_HZ,
				UART_BAUD);
	else
#endif
		uart_init(board.periph_base,
			  board.uart_clock_hz ? board.uart_clock_hz : 48000000u, UART_BAUD);
	platform_set_emulated(board.emulated);
	{
		/* The ACT LED of this model (its device tree); nothing is
		 * driven before sdbench.txt's "led" setting is known. */
		static struct board_led led;

		board_led_for(board.revision, &led);
		status_led_start(&led.line, led.label);
	}
	/* From the first line on: the output is kept for SDBENCH.LOG. */
	results_log_start();

	con_printf("\nsdbench %s - SD card benchmark at the protocol layer\n", SDB_VERSION);

	ram = board.arm_mem_size ? board.arm_mem_size : 128u << 20;
	cpu_mmu_enable(ram, board.periph_base, board.periph_size);
	/* Re-calibrate with caches on: the read cost changes. */
	if (timer_init(board.periph_base))
		record_error("init", -EIO, "the 1 MHz system timer at 0x%08llx does not run: "
			     "every wait will time out at once, no time can be measured",
			     (unsigned long long)(board.periph_base + 0x3000));
	ti = timer_get_info();
	start_screen();
	print_board(&board, ti);
	report_screen();

#ifdef SDB_TEST_FAULT
	con_printf("test build: provoking a data abort\n");
	(void)*(volatile uint32_t *)(uintptr_t)0xdead0000u;
#endif

	free_start = (uintptr_t)__free_start;
	env.emulated = board.emulated;
	env.simulated = false;      /* a Pi or QEMU, never the host simulator */
	env.board_model = board.rev.model;
	env.periph_base = board.periph_base;
	env.console_getc = uart_getc;
	env.buf = (uint8_t *)(uintptr_t)free_start;
	/* Leave 1 MiB below the end of ARM memory unused as a margin. */
	env.buf_bytes = ram > free_start + (2u << 20) ?
		(uint32_t)(ram - free_start - (1u << 20)) : 0;
	/* The board's description decides which controller serves the SD
	 * slot, and which others it can be moved to. */
	sd_slot_init(&slot, board_desc_for(&board), &board, &slot_gpio_services);
	sd_slot_build(&slot, NULL);
	env.host = slot.host;
	env.host_error = slot.error;
	env.host_error_what = slot.error_what;
	env.host_error_base = slot.error_base;
	env.dma_note = slot.dma_note;
	env.sd_unsupported = slot.unsupported;
	env.switch_host = switch_host;
	env.host_names = slot.names;

	errors = bench_main(&env);
	status_led_report(errors);
	record_done(timer_now_us() - t0);
	uart_flush();
	platform_exit(errors ? 1 : 0);
}

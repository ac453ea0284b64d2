/*
 * main.c - kmain(): bring the board up, describe it, run the benchmark,
 * end the run.
 *
 * Order matters: the peripheral base comes from the CPU id alone; the timer
 * comes before the mailbox (its waits have deadlines); the UART comes after
 * the mailbox (its divisor needs the UART clock); the MMU and caches come
 * after the RAM size is known. Every SoC fact is the SoC's description's
 * (platform/<soc>.c); the board is described by platform/board_report.c
 * and its SD slot built by platform/slot.c.
 */
#include <string.h>

#include "bench/env.h"
#include "bench/engine/record.h"
#include "bench/results_log.h"
#include "bench/run.h"
#include "bench/screen.h"
#include "bench/status_led.h"
#include "boot/mmu.h"
#include "boot/platform.h"
#include "drivers/mailbox.h"
#include "drivers/timer.h"
#include "drivers/uart.h"
#include "lib/console.h"
#include "lib/err.h"
#include "platform/board.h"
#include "platform/board_desc.h"
#include "platform/board_led.h"
#include "platform/board_report.h"
#include "platform/slot.h"
#include "platform/slot_gpio.h"

#define SDB_VERSION "0.1"
#define UART_BAUD 115200

void kmain(void);

extern char __free_start[];

static struct board_info board;
static struct sd_slot slot;

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
	board_detect_mailbox(&board);
	board_start_console(&board, UART_BAUD);
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
	cpu_mmu_enable(ram, board.periph_base, board.periph_size, board.desc->arm_local_base);
	/* Re-calibrate with caches on: the read cost changes. */
	if (timer_init(board.periph_base))
		record_error("init", -EIO, "the 1 MHz system timer at 0x%08llx does not run: "
			     "every wait will time out at once, no time can be measured",
			     (unsigned long long)(board.periph_base + 0x3000));
	ti = timer_get_info();
	start_screen();
	board_print(&board, ti);
	{
		struct json *j = record_begin("board");

		board_record_fields(j, &board, ti, cpu_caches_on());
		record_end();
	}
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
	sd_slot_start(&slot, board.desc, &board, &slot_gpio_services, NULL);
	env.host = slot.host;
	env.host_error = slot.error;
	env.host_error_what = slot.error_what;
	env.host_error_base = slot.error_base;
	env.dma_note = slot.dma_note;
	env.sd_unsupported = slot.unsupported;
	env.switch_host = sd_slot_switch;
	env.host_names = slot.names;

	errors = bench_main(&env);
	status_led_report(errors);
	record_done(timer_now_us() - t0);
	uart_flush();
	platform_exit(errors ? 1 : 0);
}

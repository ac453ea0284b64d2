/*
 * platform.c - ending a run: QEMU exit through semihosting, or a clean stop.
 *
 * On hardware the status LED then repeats the run's outcome (bench/
 * status_led.c) until power-off.
 *
 * Semihosting (ARM "Semihosting for AArch32 and AArch64", SYS_EXIT_EXTENDED
 * 0x20 with ADP_Stopped_ApplicationExit 0x20026) is only used once the
 * firmware knows it runs under QEMU: on a real Pi nothing would answer the
 * SVC (AArch64: HLT #0xF000). If QEMU runs without -semihosting, the
 * exception handler ignores the call and the program stops like on hardware.
 */
#include <stdint.h>

#include "bench/status_led.h"
#include "boot/platform.h"
#include "lib/console.h"

#define SYS_EXIT_EXTENDED		0x20
#define ADP_STOPPED_APPLICATION_EXIT	0x20026

/* boot/start.S (SVC 0x123456) or boot/aarch64/start.S (HLT #0xF000). */
uintptr_t semihost_call(uint32_t op, const void *param);

static bool emulated;

void platform_set_emulated(bool e)
{
	emulated = e;
}

void platform_exit(int status)
{
	if (emulated) {
		/* The parameter block's fields are register-sized (32 bits in
		 * AArch32, 64 in AArch64). */
		uintptr_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uintptr_t)status };

		semihost_call(SYS_EXIT_EXTENDED, block);
	}
	con_printf("sdbench: stopped (status %d). It is safe to power the board off.\n",
		   status);
	/* The outcome on the status LED until power-off (docs/led.md); a
	 * board without one waits with the CPU idle. A stop that came before
	 * the led record (an exception, status 3) shows the crash code. */
	if (status == 3)
		status_led_crashed();
	for (;;)
		if (!status_led_show_end())
			__asm__ volatile("wfi");
}

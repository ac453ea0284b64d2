/*
 * exceptions.c - what happens when the CPU takes an exception.
 *
 * Every unexpected exception prints a readable dump (type, PC, CPSR, fault
 * status/address registers, r0-r12) on the console and stops the program
 * through platform_exit(): never a silent hang or a reboot loop.
 *
 * Two exceptions are expected and resumed:
 *  - an undefined instruction inside cpu_probe() (optional counters);
 *  - SVC from a semihosting call made while QEMU runs without -semihosting.
 */
#include "boot/exceptions.h"
#include "boot/platform.h"
#include "drivers/cpu.h"
#include "lib/console.h"

static const char *const exc_names[] = {
	"reset", "undefined instruction", "supervisor call", "prefetch abort",
	"data abort", "unused vector", "IRQ", "FIQ",
};

static uint32_t read_dfsr(void)
{
	uint32_t v;

	__asm__ volatile("mrc p15, 0, %0, c5, c0, 0" : "=r"(v));
	return v;
}

static uint32_t read_dfar(void)
{
	uint32_t v;

	__asm__ volatile("mrc p15, 0, %0, c6, c0, 0" : "=r"(v));
	return v;
}

static uint32_t read_ifsr(void)
{
	uint32_t v;

	__asm__ volatile("mrc p15, 0, %0, c5, c0, 1" : "=r"(v));
	return v;
}

void exception_entry(struct exc_frame *f)
{
	unsigned i;
	const char *name = f->type < 8 ? exc_names[f->type] : "?";

	if (f->type == 1 && cpu_probe_caught()) {
		f->pc += 4; /* skip the probed instruction (ARM state) */
		return;
	}
	if (f->type == 2)
		return; /* semihosting SVC without a debugger: ignore */

	con_printf("\n*** EXCEPTION: %s\n", name);
	con_printf("  pc   %08x  cpsr(spsr) %08x\n", (unsigned)f->pc, (unsigned)f->spsr);
	if (f->type == 4)
		con_printf("  DFSR %08x  DFAR %08x (faulting data address)\n",
			   (unsigned)read_dfsr(), (unsigned)read_dfar());
	if (f->type == 3)
		con_printf("  IFSR %08x\n", (unsigned)read_ifsr());
	for (i = 0; i < 13; i++)
		con_printf("  r%-2u  %08x%s", i, (unsigned)f->r[i], (i % 4 == 3) ? "\n" : "");
	con_printf("\n");
	con_printf("@ {\"type\":\"exception\",\"exception\":\"%s\",\"pc\":\"0x%08x\","
		   "\"spsr\":\"0x%08x\"}\n", name, (unsigned)f->pc, (unsigned)f->spsr);
	platform_exit(3);
}

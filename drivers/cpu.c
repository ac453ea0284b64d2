/*
 * cpu.c - which CPU this is (MIDR, ARM ARM B4.1.105), and probing optional
 * instructions with undefined-instruction exceptions caught.
 *
 * Identification lives here, not in boot/, because drivers (the timer picks
 * its counter by CPU) and boot (MMU set-up) both need it.
 */
#include "drivers/cpu.h"

static volatile int probe_active;
static volatile int probe_faulted;

#ifdef __aarch64__
uint32_t cpu_midr(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, midr_el1" : "=r"(v));
	return (uint32_t)v;
}

/* AArch64: always ARMv8-A or later. */
bool cpu_is_armv7(void)
{
	return true;
}

const char *cpu_arch(void)
{
	return "aarch64";
}

unsigned cpu_exception_level(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, CurrentEL" : "=r"(v));
	return (unsigned)(v >> 2) & 3;
}
#else
uint32_t cpu_midr(void)
{
	uint32_t v;

	__asm__ volatile("mrc p15, 0, %0, c0, c0, 0" : "=r"(v));
	return v;
}

/* The ARM1176 also reports the CPUID scheme (MIDR[19:16] = 0xF), so the
 * architecture is told apart by the part number: every Pi CPU but the
 * ARM1176 is ARMv7-A or later. */
bool cpu_is_armv7(void)
{
	return ((cpu_midr() >> 4) & 0xfff) != 0xb76;
}

const char *cpu_arch(void)
{
	return "aarch32";
}

/* AArch32: the program runs in SVC mode (start.S leaves HYP), which is
 * PL1, the privilege of EL1. */
unsigned cpu_exception_level(void)
{
	uint32_t cpsr;

	__asm__ volatile("mrs %0, cpsr" : "=r"(cpsr));
	switch (cpsr & 0x1f) {
	case 0x10:
		return 0; /* User */
	case 0x1a:
		return 2; /* HYP */
	default:
		return 1;
	}
}
#endif

enum cpu_kind cpu_kind(void)
{
	switch ((cpu_midr() >> 4) & 0xfff) {
	case 0xb76:
		return CPU_ARM1176;
	case 0xc07:
		return CPU_CORTEX_A7;
	case 0xd03:
		return CPU_CORTEX_A53;
	case 0xd08:
		return CPU_CORTEX_A72;
	case 0xd0b:
		return CPU_CORTEX_A76;
	default:
		return CPU_UNKNOWN;
	}
}

const char *cpu_name(enum cpu_kind k)
{
	switch (k) {
	case CPU_ARM1176:
		return "ARM1176JZF-S";
	case CPU_CORTEX_A7:
		return "Cortex-A7";
	case CPU_CORTEX_A53:
		return "Cortex-A53";
	case CPU_CORTEX_A72:
		return "Cortex-A72";
	case CPU_CORTEX_A76:
		return "Cortex-A76";
	default:
		return "unknown";
	}
}

bool cpu_probe(void (*fn)(void *), void *arg)
{
	probe_faulted = 0;
	probe_active = 1;
	__asm__ volatile("" ::: "memory");
	fn(arg);
	__asm__ volatile("" ::: "memory");
	probe_active = 0;
	return !probe_faulted;
}

bool cpu_probe_caught(void)
{
	if (!probe_active)
		return false;
	probe_faulted = 1;
	return true;
}

/*
 * cpu.h - CPU identification and instruction probing (cpu.c).
 */
#ifndef SDB_DRIVERS_CPU_H
#define SDB_DRIVERS_CPU_H

#include <stdbool.h>
#include <stdint.h>

enum cpu_kind {
	CPU_UNKNOWN = 0,
	CPU_ARM1176, /* Pi Zero / 1 (BCM2835), ARMv6 */
	CPU_CORTEX_A7,  /* Pi 2 (BCM2836) */
	CPU_CORTEX_A53, /* Pi 3 / Zero 2 (BCM2837) */
	CPU_CORTEX_A72, /* Pi 4 (BCM2711) */
	CPU_CORTEX_A76, /* Pi 5 / CM5 / Pi 500 (BCM2712), AArch64 only */
};

uint32_t cpu_midr(void);
enum cpu_kind cpu_kind(void);
const char *cpu_name(enum cpu_kind k);
bool cpu_is_armv7(void); /* ARMv7 or later (AArch32 or AArch64) */
/* The execution state this build runs in: "aarch32" or "aarch64". */
const char *cpu_arch(void);
/* The exception level the program runs at (AArch32: SVC mode is PL1 = 1). */
unsigned cpu_exception_level(void);

/* Run fn(arg) with undefined-instruction exceptions caught: returns false
 * if fn hit an undefined instruction (used to probe optional counters). */
bool cpu_probe(void (*fn)(void *), void *arg);
/* For the undefined-instruction handler: true when a probe is running (the
 * fault is then recorded for cpu_probe and the instruction is skipped). */
bool cpu_probe_caught(void);

#endif

/*
 * platform.h - how the firmware ends a run.
 */
#ifndef SDB_BOOT_PLATFORM_H
#define SDB_BOOT_PLATFORM_H

#include <stdbool.h>

/* Under QEMU with semihosting allowed: make QEMU exit with this status.
 * On hardware (or when that is not possible): say that the run has stopped
 * and wait forever with the CPU idle. Never returns, never reboots. */
void platform_exit(int status) __attribute__((noreturn));

/* Called once the board is known to be QEMU (semihosting is then used). */
void platform_set_emulated(bool emulated);

#endif

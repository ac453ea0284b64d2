/*
 * exceptions.h - the exception frame start.S pushes, and the C handler
 * that receives it (exceptions.c; AArch64: boot/aarch64/).
 */
#ifndef SDB_BOOT_EXCEPTIONS_H
#define SDB_BOOT_EXCEPTIONS_H

#include <stdint.h>

#ifdef __aarch64__
/* boot/aarch64/start.S: x0-x30, the interrupted SP, then the exception
 * registers; type is the vector's index (0-15, ARM ARM D1.10.2). */
struct exc_frame {
	uint64_t x[31];
	uint64_t sp;
	uint64_t elr;
	uint64_t spsr;
	uint64_t esr;
	uint64_t far;
};

void exception_entry(struct exc_frame *f, uint64_t type);
#else
struct exc_frame {
	uint32_t spsr;
	uint32_t type;
	uint32_t r[13];
	uint32_t pc;
};

void exception_entry(struct exc_frame *f);
#endif

#endif

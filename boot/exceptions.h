/*
 * exceptions.h - the exception frame start.S pushes, and the C handler
 * that receives it (exceptions.c).
 */
#ifndef SDB_BOOT_EXCEPTIONS_H
#define SDB_BOOT_EXCEPTIONS_H

#include <stdint.h>

struct exc_frame {
	uint32_t spsr;
	uint32_t type;
	uint32_t r[13];
	uint32_t pc;
};

void exception_entry(struct exc_frame *f);

#endif

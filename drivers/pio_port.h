/*
 * pio_port.h - moving words between a controller's data port (one FIFO
 * address) and a word-aligned buffer by the CPU, for every host driver
 * that has such a port (drivers/sdhci, drivers/sdhost).
 *
 * On 32-bit ARM: eight port accesses into eight registers and one LDM/STM
 * per eight words (GCC does not merge volatile-ordered accesses by itself,
 * and the port must be accessed 32 bits wide). Host builds and AArch64 use
 * the C loop through mmio.h (the simulator's seam). Each returns the
 * buffer pointer after the last word moved.
 */
#ifndef SDB_DRIVERS_PIO_PORT_H
#define SDB_DRIVERS_PIO_PORT_H

#include <stdint.h>

#include "drivers/mmio.h"

static inline uint32_t *pio_port_read_words(uintptr_t port, uint32_t *p, uint32_t n)
{
#if defined(__arm__) && !defined(SDB_HOST)
	uint32_t n8 = n / 8;

	n &= 7;
	if (n8)
		__asm__ volatile(
			"1:	ldr r4, [%[port]]\n"
			"	ldr r5, [%[port]]\n"
			"	ldr r6, [%[port]]\n"
			"	ldr r7, [%[port]]\n"
			"	ldr r8, [%[port]]\n"
			"	ldr r9, [%[port]]\n"
			"	ldr r10, [%[port]]\n"
			"	ldr r12, [%[port]]\n"
			"	stmia %[p]!, {r4-r10, r12}\n"
			"	subs %[n], %[n], #1\n"
			"	bne 1b\n"
			: [p] "+r"(p), [n] "+r"(n8)
			: [port] "r"(port)
			: "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r12",
			  "cc", "memory");
#endif
	for (; n; n--)
		*p++ = mmio_read32(port);
	return p;
}

static inline const uint32_t *pio_port_write_words(uintptr_t port, const uint32_t *p,
						   uint32_t n)
{
#if defined(__arm__) && !defined(SDB_HOST)
	uint32_t n8 = n / 8;

	n &= 7;
	if (n8)
		__asm__ volatile(
			"1:	ldmia %[p]!, {r4-r10, r12}\n"
			"	str r4, [%[port]]\n"
			"	str r5, [%[port]]\n"
			"	str r6, [%[port]]\n"
			"	str r7, [%[port]]\n"
			"	str r8, [%[port]]\n"
			"	str r9, [%[port]]\n"
			"	str r10, [%[port]]\n"
			"	str r12, [%[port]]\n"
			"	subs %[n], %[n], #1\n"
			"	bne 1b\n"
			: [p] "+r"(p), [n] "+r"(n8)
			: [port] "r"(port)
			: "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r12",
			  "cc", "memory");
#else
	for (; n >= 8; n -= 8, p += 8) {
		uint32_t a = p[0], b = p[1], c = p[2], d = p[3];
		uint32_t f = p[4], g = p[5], h = p[6], i = p[7];

		mmio_write32(port, a); mmio_write32(port, b);
		mmio_write32(port, c); mmio_write32(port, d);
		mmio_write32(port, f); mmio_write32(port, g);
		mmio_write32(port, h); mmio_write32(port, i);
	}
#endif
	for (; n; n--)
		mmio_write32(port, *p++);
	return p;
}

#endif

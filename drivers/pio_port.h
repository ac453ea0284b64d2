/*
 * pio_port.h - moving words between a controller's data port (one FIFO
 * address) and a word-aligned buffer by the CPU, for every host driver
 * that has such a port (drivers/sdhci, drivers/sdhost).
 *
 * The port must be accessed 32 bits wide, once per word, in order, and
 * GCC does not merge volatile-ordered accesses into multiple loads or
 * stores by itself; so each target has a few lines of assembly, chosen at
 * compile time:
 *
 *  - 32-bit ARM: eight port accesses into eight registers and one LDM/STM
 *    per eight words, 11 instructions; a 512-byte block read straight
 *    through (pio_port_read_block128): 144.
 *  - AArch64: no LDM/STM, and the C loop (a 32-bit load per word, an STP
 *    of two words) costs 1.5 instructions per word, 216 per block (worse
 *    than the 32-bit image on the same Pi). Each port word is loaded
 *    instead into one 32-bit lane of a SIMD register (LD1 single
 *    structure: one 32-bit access, like LDR), and four registers, 16
 *    words, are stored with one ST1: 36 instructions per 32 words, 136
 *    per 512-byte block read straight through (pio_port_read_block128). (Combining pairs of words into 64-bit registers for an STP
 *    of four words costs an ORR per pair: 1.75 per word.) The compiler
 *    does not emit lane loads from a volatile address (the intrinsic
 *    takes a plain pointer, whose repeated loads it may merge), hence the
 *    assembly. The FP/SIMD unit is enabled at EL1 by boot/aarch64/start.S.
 *    Writes to the card mirror it: LD1 of 16 words, 16 lane stores.
 *  - Host builds (the simulator's seam, mmio.h): the C loop.
 *
 * Each returns the buffer pointer after the last word moved.
 */
#ifndef SDB_DRIVERS_PIO_PORT_H
#define SDB_DRIVERS_PIO_PORT_H

#include <stdint.h>

#include "drivers/mmio.h"

#if defined(__arm__) && !defined(SDB_HOST)
#define PIO_PORT_LD8_STM \
	"	ldr r4, [%[port]]\n" \
	"	ldr r5, [%[port]]\n" \
	"	ldr r6, [%[port]]\n" \
	"	ldr r7, [%[port]]\n" \
	"	ldr r8, [%[port]]\n" \
	"	ldr r9, [%[port]]\n" \
	"	ldr r10, [%[port]]\n" \
	"	ldr r12, [%[port]]\n" \
	"	stmia %[p]!, {r4-r10, r12}\n"
#define PIO_PORT_LDM8_ST \
	"	ldmia %[p]!, {r4-r10, r12}\n" \
	"	str r4, [%[port]]\n" \
	"	str r5, [%[port]]\n" \
	"	str r6, [%[port]]\n" \
	"	str r7, [%[port]]\n" \
	"	str r8, [%[port]]\n" \
	"	str r9, [%[port]]\n" \
	"	str r10, [%[port]]\n" \
	"	str r12, [%[port]]\n"
#define PIO_PORT_CLOBBERS "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r12", "cc", "memory"
#define PIO_PORT_BNE "bne"
#elif defined(__aarch64__) && !defined(SDB_HOST)
/* 16 port words into the lanes of v0-v3 and one ST1 (v4-v7 for the second
 * half of a 32-word turn: the loads of one half do not wait for the store
 * of the other). */
#define PIO_PORT_LD16(a, b, c, d) \
	"	ld1 {" a ".s}[0], [%[port]]\n" \
	"	ld1 {" a ".s}[1], [%[port]]\n" \
	"	ld1 {" a ".s}[2], [%[port]]\n" \
	"	ld1 {" a ".s}[3], [%[port]]\n" \
	"	ld1 {" b ".s}[0], [%[port]]\n" \
	"	ld1 {" b ".s}[1], [%[port]]\n" \
	"	ld1 {" b ".s}[2], [%[port]]\n" \
	"	ld1 {" b ".s}[3], [%[port]]\n" \
	"	ld1 {" c ".s}[0], [%[port]]\n" \
	"	ld1 {" c ".s}[1], [%[port]]\n" \
	"	ld1 {" c ".s}[2], [%[port]]\n" \
	"	ld1 {" c ".s}[3], [%[port]]\n" \
	"	ld1 {" d ".s}[0], [%[port]]\n" \
	"	ld1 {" d ".s}[1], [%[port]]\n" \
	"	ld1 {" d ".s}[2], [%[port]]\n" \
	"	ld1 {" d ".s}[3], [%[port]]\n" \
	"	st1 {" a ".4s, " b ".4s, " c ".4s, " d ".4s}, [%[p]], #64\n"
#define PIO_PORT_ST16(a, b, c, d) \
	"	ld1 {" a ".4s, " b ".4s, " c ".4s, " d ".4s}, [%[p]], #64\n" \
	"	st1 {" a ".s}[0], [%[port]]\n" \
	"	st1 {" a ".s}[1], [%[port]]\n" \
	"	st1 {" a ".s}[2], [%[port]]\n" \
	"	st1 {" a ".s}[3], [%[port]]\n" \
	"	st1 {" b ".s}[0], [%[port]]\n" \
	"	st1 {" b ".s}[1], [%[port]]\n" \
	"	st1 {" b ".s}[2], [%[port]]\n" \
	"	st1 {" b ".s}[3], [%[port]]\n" \
	"	st1 {" c ".s}[0], [%[port]]\n" \
	"	st1 {" c ".s}[1], [%[port]]\n" \
	"	st1 {" c ".s}[2], [%[port]]\n" \
	"	st1 {" c ".s}[3], [%[port]]\n" \
	"	st1 {" d ".s}[0], [%[port]]\n" \
	"	st1 {" d ".s}[1], [%[port]]\n" \
	"	st1 {" d ".s}[2], [%[port]]\n" \
	"	st1 {" d ".s}[3], [%[port]]\n"
#define PIO_PORT_CLOBBERS "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "cc", "memory"
#define PIO_PORT_BNE "b.ne"
#endif

#if !defined(SDB_HOST)
/* 'body' (moving p on) 'count' times, count > 0; in a function with port
 * and p in scope. */
#define PIO_PORT_LOOP(body, count)					\
	__asm__ volatile("1:\n" body "	subs %[n], %[n], #1\n	" PIO_PORT_BNE " 1b\n" \
			 : [p] "+r"(p), [n] "+r"(count)			\
			 : [port] "r"(port)					\
			 : PIO_PORT_CLOBBERS)
/* 'body' once. */
#define PIO_PORT_ONCE(body)						\
	__asm__ volatile(body : [p] "+r"(p) : [port] "r"(port) : PIO_PORT_CLOBBERS)
#endif

static inline uint32_t *pio_port_read_words(uintptr_t port, uint32_t *p, uint32_t n)
{
#if defined(__arm__) && !defined(SDB_HOST)
	uint32_t n8;

	n8 = n / 8;
	n &= 7;
	if (n8)
		PIO_PORT_LOOP(PIO_PORT_LD8_STM, n8);
#elif defined(__aarch64__) && !defined(SDB_HOST)
	uint64_t n32, n16;

	n32 = n / 32;
	n16 = (n / 16) & 1;
	n &= 15;
	if (n32)
		PIO_PORT_LOOP(PIO_PORT_LD16("v0", "v1", "v2", "v3")
			      PIO_PORT_LD16("v4", "v5", "v6", "v7"), n32);
	if (n16)
		PIO_PORT_ONCE(PIO_PORT_LD16("v0", "v1", "v2", "v3"));
#endif
	for (; n; n--)
		*p++ = mmio_read32(port);
	return p;
}

/* One 512-byte block (128 words), read straight through: 144 instructions
 * on ARM, 136 on AArch64 (the SDHCI driver's usual case; a separate entry
 * so that the other sizes pay no test for it). */
static inline uint32_t *pio_port_read_block128(uintptr_t port, uint32_t *p)
{
#if defined(__arm__) && !defined(SDB_HOST)
#define PIO_PORT_LD32_STM PIO_PORT_LD8_STM PIO_PORT_LD8_STM PIO_PORT_LD8_STM PIO_PORT_LD8_STM
	PIO_PORT_ONCE(PIO_PORT_LD32_STM PIO_PORT_LD32_STM PIO_PORT_LD32_STM PIO_PORT_LD32_STM);
#undef PIO_PORT_LD32_STM
	return p;
#elif defined(__aarch64__) && !defined(SDB_HOST)
#define PIO_PORT_LD32 PIO_PORT_LD16("v0", "v1", "v2", "v3") PIO_PORT_LD16("v4", "v5", "v6", "v7")
	PIO_PORT_ONCE(PIO_PORT_LD32 PIO_PORT_LD32 PIO_PORT_LD32 PIO_PORT_LD32);
#undef PIO_PORT_LD32
	return p;
#else
	return pio_port_read_words(port, p, 128);
#endif
}

static inline const uint32_t *pio_port_write_words(uintptr_t port, const uint32_t *p,
						   uint32_t n)
{
#if defined(__arm__) && !defined(SDB_HOST)
	uint32_t n8 = n / 8;

	n &= 7;
	if (n8)
		PIO_PORT_LOOP(PIO_PORT_LDM8_ST, n8);
#elif defined(__aarch64__) && !defined(SDB_HOST)
	uint64_t n16 = n / 16;

	n &= 15;
	if (n16)
		PIO_PORT_LOOP(PIO_PORT_ST16("v0", "v1", "v2", "v3"), n16);
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


/*
 * Whole 16-word FIFO bursts for a controller whose FIFO fill is in a
 * status register next to the port (SDHOST: SDEDM, SDDATA - 12). Before
 * each burst the status word is read once, and the loop ends when it does
 * not say full (read: (status & mask) != 0) or empty (write: (status &
 * mask) == 0). At most *n bursts (n > 0); *n is left with the bursts not
 * moved. One status read, a test and a branch per burst
 * around the 16 port accesses: the Linux SDHOST driver also reads the
 * fill once and then moves that many words, with no status look per word.
 * off and mask must be compile-time constants (an immediate offset and an
 * immediate test: no register for them in the loop, whose 16 words use
 * eight).
 */
#define PIO_PORT_AI static inline __attribute__((always_inline))

/* The burst loop both directions share: "1:" reads the status word, skips
 * out ('skip', the target's branch on the test) when it says stop, moves
 * one burst ('burst'), and goes on while bursts are left. In a function
 * with port, off, mask, p and n in scope. */
#if defined(__arm__) && !defined(SDB_HOST)
#define PIO_PORT_FIFOS16(skip, burst, a64_skip, a64_burst, go_on, move)	\
	uint32_t s, k = *n;						\
									\
	__asm__ volatile(						\
		"1:	ldr %[s], [%[port], %[off]]\n"			\
		"	tst %[s], %[mask]\n"				\
		"	" skip " 3f\n"					\
		burst							\
		"	subs %[n], %[n], #1\n"				\
		"	bne 1b\n"					\
		"3:\n"							\
		: [p] "+r"(p), [n] "+r"(k), [s] "=&r"(s)		\
		: [port] "r"(port), [off] "J"(off), [mask] "I"(mask)	\
		: PIO_PORT_CLOBBERS);					\
	*n = k
#elif defined(__aarch64__) && !defined(SDB_HOST)
#define PIO_PORT_FIFOS16(arm_skip, arm_burst, skip, burst, go_on, move)	\
	uint32_t s;							\
	uint64_t k = *n;						\
									\
	__asm__ volatile(						\
		"1:	ldur %w[s], [%[port], %[off]]\n"		\
		"	tst %w[s], %[mask]\n"				\
		"	" skip " 3f\n"					\
		burst							\
		"	subs %[n], %[n], #1\n"				\
		"	b.ne 1b\n"					\
		"3:\n"							\
		: [p] "+r"(p), [n] "+r"(k), [s] "=&r"(s)		\
		: [port] "r"(port), [off] "n"(off), [mask] "K"(mask)	\
		: PIO_PORT_CLOBBERS);					\
	*n = (uint32_t)k
#else
/* Host builds: go_on is the test on the status word, move the mover. */
#define PIO_PORT_FIFOS16(arm_skip, arm_burst, a64_skip, a64_burst, go_on, move) \
	uint32_t k = *n;						\
									\
	for (; k && (go_on); k--)					\
		p = move(port, p, 16);					\
	*n = k
#endif

PIO_PORT_AI uint32_t *pio_port_read_fifos16(uintptr_t port, int32_t off, uint32_t mask,
					    uint32_t *p, uint32_t *n)
{
	PIO_PORT_FIFOS16("beq", PIO_PORT_LD8_STM PIO_PORT_LD8_STM,
			 "b.eq", PIO_PORT_LD16("v0", "v1", "v2", "v3"),
			 mmio_read32(port + off) & mask, pio_port_read_words);
	return p;
}

PIO_PORT_AI const uint32_t *pio_port_write_fifos16(uintptr_t port, int32_t off,
						   uint32_t mask, const uint32_t *p,
						   uint32_t *n)
{
	PIO_PORT_FIFOS16("bne", PIO_PORT_LDM8_ST PIO_PORT_LDM8_ST,
			 "b.ne", PIO_PORT_ST16("v0", "v1", "v2", "v3"),
			 !(mmio_read32(port + off) & mask), pio_port_write_words);
	return p;
}

#endif

/*
 * exceptions.c - what happens when the CPU takes an exception (AArch64).
 *
 * Every unexpected exception prints a readable dump (vector, ESR with its
 * exception class, FAR, ELR, SPSR, x0-x30, SP) on the console, an
 * `exception` record, and stops the program through platform_exit(): never
 * a silent hang or a reboot loop.
 *
 * Two exceptions are expected and resumed (as in the AArch32 handler):
 *  - an undefined instruction inside cpu_probe();
 *  - HLT #0xF000 (a semihosting call) when QEMU runs without -semihosting,
 *    where HLT is an undefined instruction.
 */
#include "boot/exceptions.h"
#include "boot/platform.h"
#include "drivers/cpu.h"
#include "lib/console.h"

#define EC_UNKNOWN	0x00	/* undefined instruction */
#define EC_IABT_SAME	0x21
#define EC_PC_ALIGN	0x22
#define EC_DABT_SAME	0x25
#define EC_SP_ALIGN	0x26
#define EC_SERROR	0x2f
#define HLT_SEMIHOST	0xd45e0000u	/* HLT #0xF000 */

static const char *const vec_names[4] = { "synchronous", "IRQ", "FIQ", "SError" };
static const char *const vec_from[4] = { "EL1 with SP_EL0", "EL1", "EL0 (AArch64)",
					 "EL0 (AArch32)" };

/* The names the AArch32 handler uses, where the cause is the same. */
static const char *exc_name(uint64_t type, uint32_t ec)
{
	switch (type & 3) {
	case 1:
		return "IRQ";
	case 2:
		return "FIQ";
	case 3:
		return "SError";
	default:
		break;
	}
	switch (ec) {
	case EC_UNKNOWN:
		return "undefined instruction";
	case 0x20:
	case EC_IABT_SAME:
		return "prefetch abort";
	case 0x24:
	case EC_DABT_SAME:
		return "data abort";
	case EC_PC_ALIGN:
		return "PC alignment fault";
	case EC_SP_ALIGN:
		return "SP alignment fault";
	case 0x15:
		return "supervisor call";
	default:
		return "synchronous exception";
	}
}

void exception_entry(struct exc_frame *f, uint64_t type)
{
	uint32_t ec = (uint32_t)(f->esr >> 26) & 0x3f;
	const char *name = exc_name(type, ec);
	unsigned i;

	if ((type & 3) == 0 && ec == EC_UNKNOWN) {
		if (cpu_probe_caught()) {
			f->elr += 4; /* skip the probed instruction */
			return;
		}
		if (*(const volatile uint32_t *)(uintptr_t)f->elr == HLT_SEMIHOST) {
			f->x[0] = (uint64_t)-1; /* no debugger answered */
			f->elr += 4;
			return;
		}
	}

	con_printf("\n*** EXCEPTION: %s (%s vector from %s)\n", name, vec_names[type & 3],
		   vec_from[(type >> 2) & 3]);
	con_printf("  ESR_EL1 %08x (class 0x%02x, ISS 0x%07x)  FAR_EL1 %016llx\n",
		   (unsigned)f->esr, (unsigned)ec, (unsigned)(f->esr & 0x1ffffff),
		   (unsigned long long)f->far);
	con_printf("  ELR_EL1 %016llx  SPSR_EL1 %08x  SP %016llx\n",
		   (unsigned long long)f->elr, (unsigned)f->spsr, (unsigned long long)f->sp);
	for (i = 0; i < 31; i++)
		con_printf("  x%-2u %016llx%s", i, (unsigned long long)f->x[i],
			   (i % 3 == 2 || i == 30) ? "\n" : "");
	con_printf("@ {\"type\":\"exception\",\"exception\":\"%s\",\"pc\":\"0x%016llx\","
		   "\"spsr\":\"0x%08x\",\"esr\":\"0x%08x\",\"far\":\"0x%016llx\","
		   "\"vector\":%u}\n", name, (unsigned long long)f->elr, (unsigned)f->spsr,
		   (unsigned)f->esr, (unsigned long long)f->far, (unsigned)type);
	platform_exit(3);
}

/*
 * start.S - entry point of kernel8.img (AArch64).
 *
 * Entered at 0x80000 on core 0 by the Pi firmware with arm_64bit=1 (EL2 on
 * Pi 3/4: the firmware's armstub8 leaves EL3 and parks cores 1-3 on the
 * spin table at 0xd8/0xe0/0xe8) or by QEMU's -kernel loader on raspi3b /
 * raspi4b (the same: core 0 in EL2, cores 1-3 in QEMU's stub on the spin
 * table). A core other than 0 that arrives here all the same is parked
 * with WFI.
 *
 * Pi 5 (BCM2712, kernel_2712.img; not verified on hardware): the firmware's
 * BL31 (TF-A, in the reserved first 512 KiB) enters core 0 in EL2 at the
 * load address (kernel_address=0x80000 in config.txt); cores 1-3 stay in
 * BL31 until asked for by PSCI, which sdbench never does.
 *
 * EL3 (no armstub): set up SCR_EL3 for a 64-bit, non-secure EL2 and drop.
 * EL2: give EL1 the physical counter and timer, the FP/SIMD unit, a 64-bit
 * EL1 and drop to EL1h with every interrupt masked. Then at EL1: enable the
 * FP/SIMD unit (the C code uses floating point), set the stack, clear BSS,
 * install the vector table (VBAR_EL1) and call kmain(). The MMU and caches
 * are enabled later from C (mmu.c).
 */
#define SPSR_EL1H_MASKED	0x3c5	/* D, A, I, F masked; EL1 with SP_EL1 */
#define SPSR_EL2H_MASKED	0x3c9
#define HCR_RW			(1 << 31)	/* EL1 is AArch64 */
#define SCR_NS_RW_HCE		((1 << 0) | (1 << 10) | (1 << 8) | (3 << 4))
/* SCTLR_EL1 with the MMU, caches and alignment checks off, little endian,
 * RES1 bits set (ARM ARM D13.2.118). */
#define SCTLR_EL1_RESET		0x30d00800

	.section .text.boot, "ax"
	.globl _start
_start:
	/* Core 0: Aff0 and Aff1 both 0 (Cortex-A53/A72 number their cores
	 * in Aff0; the Cortex-A76 of the BCM2712 in Aff1, with Aff0 the
	 * thread, always 0). */
	mrs	x0, mpidr_el1
	and	x0, x0, #0xffff
	cbnz	x0, park

	mrs	x0, CurrentEL
	lsr	x0, x0, #2
	cmp	x0, #3
	b.ne	1f
	/* EL3 -> EL2 (non-secure, AArch64 below, HVC enabled). */
	ldr	x1, =SCR_NS_RW_HCE
	msr	scr_el3, x1
	mov	x1, #SPSR_EL2H_MASKED
	msr	spsr_el3, x1
	adr	x1, 1f
	msr	elr_el3, x1
	eret
1:
	mrs	x0, CurrentEL
	lsr	x0, x0, #2
	cmp	x0, #2
	b.ne	el1
	/* EL2 -> EL1. CNTHCTL_EL2.EL1PCTEN|EL1PCEN: EL1 reads CNTPCT_EL0 and
	 * uses the physical timer without trapping; virtual offset 0. */
	mrs	x1, cnthctl_el2
	orr	x1, x1, #3
	msr	cnthctl_el2, x1
	msr	cntvoff_el2, xzr
	/* CPTR_EL2: no trap of FP/SIMD (TFP, bit 10) nor of anything else. */
	mov	x1, #0x33ff
	msr	cptr_el2, x1
	msr	hstr_el2, xzr
	mov	x1, #HCR_RW
	msr	hcr_el2, x1
	ldr	x1, =SCTLR_EL1_RESET
	msr	sctlr_el1, x1
	/* Identify the core to EL1 as it is (VPIDR/VMPIDR default to it on
	 * reset only; the firmware may leave anything). */
	mrs	x1, midr_el1
	msr	vpidr_el2, x1
	mrs	x1, mpidr_el1
	msr	vmpidr_el2, x1
	mov	x1, #SPSR_EL1H_MASKED
	msr	spsr_el2, x1
	adr	x1, el1
	msr	elr_el2, x1
	eret

el1:
	/* CPACR_EL1.FPEN = 11: FP/SIMD usable at EL1. */
	mov	x1, #(3 << 20)
	msr	cpacr_el1, x1
	isb
	ldr	x1, =__svc_stack_top
	mov	sp, x1

	ldr	x0, =__bss_start
	ldr	x1, =__bss_end
2:	cmp	x0, x1
	b.hs	3f
	stp	xzr, xzr, [x0], #16
	b	2b
3:
	ldr	x0, =vectors
	msr	vbar_el1, x0
	isb
	bl	kmain
4:	wfi
	b	4b

park:
	/* Cores other than 0: sleep forever (WFI; see boot/start.S). */
	wfi
	b	park

/*
 * The vector table (ARM ARM D1.10.2): 16 entries of 0x80 bytes, aligned
 * to 2 KiB: {current EL with SP_EL0, current EL with SP_ELx, lower EL
 * AArch64, lower EL AArch32} x {synchronous, IRQ, FIQ, SError}.
 * Every entry builds a struct exc_frame64 (boot/exceptions.h) on the stack
 * and calls exception_entry(frame); if that returns (a probed undefined
 * instruction, a semihosting call without a debugger) the registers are
 * restored and the program resumes at frame->elr.
 */
.macro vent type
	.balign 0x80
	sub	sp, sp, #(36 * 8)
	stp	x0, x1, [sp, #0]
	mov	x0, #\type
	b	exc_common
.endm

	.text
	.balign 0x800
	.globl vectors
vectors:
	vent 0
	vent 1
	vent 2
	vent 3
	vent 4
	vent 5
	vent 6
	vent 7
	vent 8
	vent 9
	vent 10
	vent 11
	vent 12
	vent 13
	vent 14
	vent 15

/* Frame: x0..x30 at 0..240, sp at 248, elr 256, spsr 264, esr 272,
 * far 280 (36 words, 16-byte aligned). x0 holds the type on entry. */
exc_common:
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	add	x1, sp, #(36 * 8)
	stp	x30, x1, [sp, #240]
	mrs	x1, elr_el1
	mrs	x2, spsr_el1
	stp	x1, x2, [sp, #256]
	mrs	x1, esr_el1
	mrs	x2, far_el1
	stp	x1, x2, [sp, #272]
	mov	x1, x0
	mov	x0, sp
	bl	exception_entry
	ldp	x1, x2, [sp, #256]
	msr	elr_el1, x1
	msr	spsr_el1, x2
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x19, [sp, #144]
	ldp	x20, x21, [sp, #160]
	ldp	x22, x23, [sp, #176]
	ldp	x24, x25, [sp, #192]
	ldp	x26, x27, [sp, #208]
	ldp	x28, x29, [sp, #224]
	ldr	x30, [sp, #240]
	ldp	x0, x1, [sp, #0]
	add	sp, sp, #(36 * 8)
	eret

/* Semihosting call (A64): w0 = operation, x1 = parameter block; the
 * result comes back in x0. HLT #0xF000 is what QEMU answers with
 * -semihosting; without it, the instruction is undefined and the
 * exception handler skips it. */
	.globl semihost_call
semihost_call:
	hlt	#0xf000
	ret

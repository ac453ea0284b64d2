/*
 * start.S - entry point of kernel.img.
 *
 * Entered at 0x8000 by the Pi firmware (HYP mode on Pi 2/3/4, SVC on
 * Pi 0/1) or by QEMU's -bios loader (SVC mode; on raspi2b the other cores
 * reach it too). Leaves HYP for SVC, parks every core but core 0 with WFI,
 * sets up the stacks of each exception mode, clears BSS, installs the
 * vector table (VBAR on ARMv7+, a copy at address 0 on the ARM1176) and
 * calls kmain(). Caches and the MMU are enabled later from C.
 *
 * ARMv6 (ARM1176) instructions only, except the HYP exit, which runs only
 * when the CPU reports HYP mode (so only on ARMv7 and later).
 */
	.syntax unified
	.arm

#define MODE_MASK	0x1f
#define MODE_FIQ	0x11
#define MODE_IRQ	0x12
#define MODE_SVC	0x13
#define MODE_ABT	0x17
#define MODE_HYP	0x1a
#define MODE_UND	0x1b
#define PSR_I		0x80
#define PSR_F		0x40

	.section .text.boot, "ax"
	.globl _start
_start:
	mrs	r4, cpsr
	and	r5, r4, #MODE_MASK
	cmp	r5, #MODE_HYP
	bne	1f
	/* HYP -> SVC with IRQ/FIQ masked (ARMv7 virtualization extensions). */
	.arch armv7-a
	.arch_extension virt
	/* Let PL1 read the physical counter and use the physical timer
	 * (CNTHCTL.PL1PCTEN, bit 0; PL1PCEN, bit 1): otherwise the CNTPCT
	 * read of the timer driver traps to HYP, where no vector table is
	 * installed. Their reset value is not architecturally fixed and
	 * the firmware's armstub7 does not set them (Linux's hyp-stub.S
	 * sets both before leaving HYP for the same reason). Every core
	 * with the Virtualization Extensions has the Generic Timer. */
	mrc	p15, 4, r5, c14, c1, 0	/* CNTHCTL */
	orr	r5, r5, #3
	mcr	p15, 4, r5, c14, c1, 0
	bic	r4, r4, #MODE_MASK
	orr	r4, r4, #(MODE_SVC | PSR_I | PSR_F)
	msr	spsr_cxsf, r4
	adr	r5, 1f
	msr	elr_hyp, r5
	eret
	.arch armv6kz
1:
	cpsid	if
	/* r8 = 1 on the ARM1176 (part 0xB76, Pi 0/1): single-core, no
	 * MPIDR. Every other Pi CPU is an ARMv7+ core with MPIDR. */
	mrc	p15, 0, r0, c0, c0, 0
	lsr	r1, r0, #4
	ldr	r2, =0xfff
	and	r1, r1, r2
	ldr	r2, =0xb76
	cmp	r1, r2
	moveq	r8, #1
	movne	r8, #0
	beq	primary
	mrc	p15, 0, r0, c0, c0, 5	/* MPIDR */
	ands	r0, r0, #0xff
	beq	primary
park:
	/* Secondary cores sleep forever. WFI, not WFE: under QEMU, cores
	 * spinning on WFE slow the primary core down several times. */
	wfi
	b	park

primary:
	/* ARM1176: the compiler's ARMv6 code assumes the ARMv6 unaligned
	 * access model (LDRD/STRD on word-aligned addresses, unaligned
	 * LDR/STR), which needs SCTLR.U = 1 and A = 0. U's reset value comes
	 * from the UBITINIT input (ARM1176JZF-S TRM §3.2.7, §4.2), so do not
	 * rely on the firmware: set it before the first C code, not only when
	 * the MMU is enabled. ARMv7 and later have U fixed at 1. */
	cmp	r8, #1
	bne	7f
	mrc	p15, 0, r0, c1, c0, 0
	orr	r0, r0, #(1 << 22)	/* U */
	bic	r0, r0, #(1 << 1)	/* A */
	mcr	p15, 0, r0, c1, c0, 0
7:
	/* One stack per exception mode, then back to SVC. */
	cps	#MODE_UND
	ldr	sp, =__und_stack_top
	cps	#MODE_ABT
	ldr	sp, =__abt_stack_top
	cps	#MODE_IRQ
	ldr	sp, =__irq_stack_top
	cps	#MODE_FIQ
	ldr	sp, =__fiq_stack_top
	cps	#MODE_SVC
	ldr	sp, =__svc_stack_top

	/* Clear BSS (word aligned by the linker script). */
	ldr	r0, =__bss_start
	ldr	r1, =__bss_end
	mov	r2, #0
2:	cmp	r0, r1
	strlo	r2, [r0], #4
	blo	2b

	/* Vectors. ARMv7+: point VBAR at the table where it is. Nothing may be
	 * written at address 0 there: under QEMU's -bios boot the secondary
	 * cores start at 0 and slide over the zeroed low memory up to _start,
	 * and a table at 0 would catch them with no stack. ARM1176 (single
	 * core, VBAR only with the Security Extensions): copy the table
	 * (code + literal pool) to address 0. r8 still says which. */
	cmp	r8, #1
	beq	5f
	ldr	r0, =vectors_start
	mcr	p15, 0, r0, c12, c0, 0	/* VBAR */
	b	6f
5:	ldr	r0, =vectors_start
	ldr	r1, =vectors_end
	mov	r2, #0
3:	cmp	r0, r1
	ldrlo	r3, [r0], #4
	strlo	r3, [r2], #4
	blo	3b
6:

	bl	kmain
4:	wfi
	b	4b

/*
 * The vector table. Position-independent: each entry loads the absolute
 * address of its handler from the literal words that follow, so the table
 * works wherever it is copied.
 */
	.balign 32
vectors_start:
	ldr	pc, v_reset
	ldr	pc, v_undef
	ldr	pc, v_svc
	ldr	pc, v_pabort
	ldr	pc, v_dabort
	ldr	pc, v_unused
	ldr	pc, v_irq
	ldr	pc, v_fiq
v_reset:	.word	exc_reset
v_undef:	.word	exc_undef
v_svc:		.word	exc_svc
v_pabort:	.word	exc_pabort
v_dabort:	.word	exc_dabort
v_unused:	.word	exc_unused
v_irq:		.word	exc_irq
v_fiq:		.word	exc_fiq
vectors_end:

/*
 * Common exception entry: build a frame {r0-r12, lr(return), spsr, type}
 * on the mode's stack and call exception_entry(frame). If it returns
 * (only for a probed undefined instruction) resume at frame->pc.
 */
.macro exc_entry type, lr_adjust
	sub	lr, lr, #\lr_adjust
	push	{r0-r12, lr}
	mrs	r0, spsr
	mov	r1, #\type
	push	{r0, r1}
	mov	r0, sp
	bl	exception_entry
	pop	{r0, r1}
	msr	spsr_cxsf, r0
	ldm	sp!, {r0-r12, pc}^
.endm

exc_reset:	exc_entry 0, 0
exc_undef:	exc_entry 1, 4
exc_svc:	exc_entry 2, 0
exc_pabort:	exc_entry 3, 4
exc_dabort:	exc_entry 4, 8
exc_unused:	exc_entry 5, 0
exc_irq:	exc_entry 6, 4
exc_fiq:	exc_entry 7, 4

/* Semihosting call (ARM state): r0 = operation, r1 = parameter block.
 * The SVC is taken in SVC mode, the mode the program runs in, so when no
 * debugger answers it the exception entry overwrites lr_svc: keep the
 * return address on the stack. */
	.text
	.globl semihost_call
semihost_call:
	push	{lr}
	svc	0x123456
	pop	{pc}

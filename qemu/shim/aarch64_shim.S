/*
 * aarch64_shim.S - QEMU only: starts the 32-bit kernel.img on the raspi3b /
 * raspi3ap machines, whose Cortex-A53 cores can only start in AArch64, and
 * on raspi4b (Cortex-A72, QEMU 9.0 and newer) the same way.
 *
 * A real Pi 3 with arm_64bit=0 in config.txt starts kernel.img in AArch32
 * itself; this file is never on an SD card and is not part of kernel.img.
 *
 * QEMU loads it raw with -kernel at 0x80000 and enters it at EL2 (AArch64)
 * on core 0; kernel.img is loaded at 0x8000 with
 * "-device loader,file=build/kernel.img,addr=0x8000,force-raw=on".
 * The shim drops to EL1 in AArch32 and "returns" to 0x8000. Registers as
 * described in the Arm Architecture Reference Manual for A-profile
 * (DDI 0487), "AArch64 System Register Descriptions":
 *   CNTHCTL_EL2 = 3   EL1PCTEN | EL1PCEN: EL1 may read the physical count
 *                     CNTPCT and use the physical timer without a trap to
 *                     EL2 (the timer driver reads CNTPCT). These bits reset
 *                     to UNKNOWN values; QEMU's reset value already allows
 *                     it, real firmware sets them the same way.
 *   CNTVOFF_EL2 = 0   the virtual count equals the physical count.
 *   HCR_EL2 = 0       RW (bit 31) = 0: EL1 (and EL0) run in AArch32; no
 *                     stage-2 translation, nothing of EL1 trapped to EL2.
 *   SPSR_EL2 = 0x1d3  the state ERET restores, in its "exception taken from
 *                     AArch32" layout: M[4] = 1 (AArch32), M[3:0] = 3
 *                     (SVC), A/I/F masked, T = 0 (ARM state) - the state in
 *                     which the Pi firmware and QEMU's 32-bit loaders enter
 *                     kernel.img.
 *   ELR_EL2 = 0x8000  where ERET continues: the first word of kernel.img.
 *
 * Secondary cores: QEMU (hw/arm/raspi.c) starts cores 1-3 in its own
 * AArch64 spin-table stub, a WFE loop at EL2 polling the 64-bit release
 * address at 0xd8 + 8 * core. Spinning on WFE makes QEMU busy-loop those
 * cores: the quick suite took about 3x longer (39 s instead of 12-15 s).
 * So the shim writes its own entry address into the release words of
 * cores 1-3 and sends an event: they go through the same switch to AArch32
 * and reach kernel.img, whose start.S parks every core but core 0 with WFI
 * (as on a real Pi 2/3 and on QEMU's raspi2b). They run this code right
 * away; kernel.img must not use memory at 0x80000 before they have left it
 * (today its stacks and MMU table end well below; tests/qemu/test_raspi3.py
 * checks that).
 *
 * A64 source, assembled by the AArch64 toolchain that also builds
 * kernel8.img (aarch64-linux-gnu-gcc); tests/test_shim64.py checks what
 * build/shim64.bin holds.
 *
 * Not supported: entry at EL3 or EL1 (the shim then idles in WFI), a
 * big-endian kernel, passing r0-r2 boot arguments (kernel.img ignores them).
 */
	.section .text, "ax"
/* A local symbol (no .globl): the object is never linked, so every
 * reference (adr) must be resolved by the assembler, not left as a
 * relocation that objcopy would drop. */
shim64_entry:
	mrs	x0, CurrentEL	// EL in bits [3:2]
	cmp	x0, #8	// EL2?
	b.ne	idle	// no: cannot switch, idle
	mrs	x0, mpidr_el1
	tst	x0, #0xff	// Aff0 = core number
	b.ne	to_aarch32	// cores 1-3: straight on
	adr	x1, shim64_entry	// core 0: release cores 1-3
	mov	x2, #0xe0	// release word of core 1
	str	x1, [x2], #8
	str	x1, [x2], #8
	str	x1, [x2]	// core 3
	dsb	sy	// stores visible before the event
	sev	// wake the WFE loops
to_aarch32:
	mov	x0, #3	// EL1PCTEN | EL1PCEN
	msr	cnthctl_el2, x0
	msr	cntvoff_el2, xzr
	msr	hcr_el2, xzr	// RW = 0: EL1 is AArch32
	mov	x0, #0x1d3	// AArch32 SVC, A/I/F masked
	msr	spsr_el2, x0
	mov	x0, #0x8000	// kernel.img entry
	msr	elr_el2, x0
	eret	// to EL1, AArch32
idle:
	wfi
	b	idle

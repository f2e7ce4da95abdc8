/* SPDX-License-Identifier: MIT */
/*
 * Entry and exception vectors of the bare-metal probe (probe.c): an arm64
 * Image header so both vgpu system and qemu-system-aarch64 load it as a
 * kernel, a stack, and a vector table that records each exception in
 * `trap` and returns past the faulting instruction; an exception from EL0
 * returns from el0_call() instead.
 */
	.section .text.head, "ax"
	.globl _start
_start:
	b	1f			/* code0: branch over the header */
	.long	0
	.quad	0			/* text_offset */
	.quad	_end - _start		/* image_size */
	.quad	0xa			/* flags: LE, 4K pages, anywhere */
	.quad	0, 0, 0
	.ascii	"ARM\x64"
	.long	0
1:	adr	x1, stack_top
	mov	sp, x1
	bl	probe_main
2:	wfi
	b	2b

	.text
	.balign	2048
	.globl	vectors
vectors:
	.irp	n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.balign	128
	mov	x9, #(\n * 0x80)
	b	common
	.endr

common:
	adr	x10, trap
	str	x9, [x10, #0]		/* vector offset */
	mrs	x11, esr_el1
	str	x11, [x10, #8]
	mrs	x12, elr_el1
	str	x12, [x10, #16]
	mrs	x12, far_el1
	str	x12, [x10, #24]
	mrs	x12, spsr_el1
	str	x12, [x10, #32]
	cmp	x9, #0x400
	b.hs	from_el0
	ubfx	x11, x11, #26, #6
	cmp	x11, #0x15		/* SVC: ELR is already past it */
	b.eq	1f
	mrs	x12, elr_el1
	add	x12, x12, #4
	msr	elr_el1, x12
1:	eret

/* Back into el0_call()'s caller at EL1 with its registers. */
from_el0:
	adr	x10, saved
	ldp	x19, x20, [x10, #0]
	ldp	x21, x22, [x10, #16]
	ldp	x23, x24, [x10, #32]
	ldp	x25, x26, [x10, #48]
	ldp	x27, x28, [x10, #64]
	ldp	x29, x30, [x10, #80]
	ldr	x11, [x10, #96]
	mov	sp, x11
	ret

/* void el0_call(uint64_t pc, uint64_t sp): runs pc at EL0 until it traps. */
	.globl	el0_call
el0_call:
	adr	x10, saved
	stp	x19, x20, [x10, #0]
	stp	x21, x22, [x10, #16]
	stp	x23, x24, [x10, #32]
	stp	x25, x26, [x10, #48]
	stp	x27, x28, [x10, #64]
	stp	x29, x30, [x10, #80]
	mov	x11, sp
	str	x11, [x10, #96]
	msr	sp_el0, x1
	msr	elr_el1, x0
	msr	spsr_el1, xzr		/* EL0t, DAIF clear */
	eret

/* The page EL0 runs: a system call, then an access EL0 may not make. */
	.balign	4096
	.globl	el0_page
el0_page:
	svc	#0x77
	b	.
	.globl	el0_kernel_load
el0_kernel_load:
	ldr	x0, [x1]
	b	.
	.balign	4096

	.bss
	.balign	16
	.globl	trap
trap:	.skip	40
saved:	.skip	112
	.balign	16
	.skip	16384
stack_top:

// SPDX-License-Identifier: MIT
/*
 * Host system calls that a guest signal can interrupt without a race.
 *
 * A signal for the guest is only queued by the host handler; the guest
 * sees it once the run loop comes back. If it arrives after the dispatcher
 * started a call but before the host kernel blocked in it, a plain
 * syscall() would sleep on (a read of a pipe nobody writes, a futex nobody
 * wakes) with the signal that should end the wait already taken. Here the
 * "is a signal waiting" test and the syscall instruction form one range:
 * a signal landing inside it moves the thread to a path that returns
 * SAFE_SYSCALL_RESTART instead, and the call is started again after the
 * guest's handler, which is right because it never began.
 */
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>

#include "aarch64-user/abi.h"

/* long safe_syscall_asm(volatile int *flag, long nr, a0, a1, a2, a3, a4, a5)
 * in the System V convention: flag rdi, nr rsi, a0 rdx, a1 rcx, a2 r8,
 * a3 r9, a4 and a5 on the stack; the kernel wants nr in rax and the
 * arguments in rdi rsi rdx r10 r8 r9. */
__asm__(".text\n"
	".globl safe_syscall_asm\n"
	".type safe_syscall_asm, @function\n"
	"safe_syscall_asm:\n"
	"	.cfi_startproc\n"
	"	push %rbx\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	.cfi_rel_offset %rbx, 0\n"
	"	mov %rdi, %rbx\n"
	"	mov %rsi, %rax\n"
	"	mov %rdx, %rdi\n"
	"	mov %rcx, %rsi\n"
	"	mov %r8, %rdx\n"
	"	mov %r9, %r10\n"
	"	mov 16(%rsp), %r8\n"
	"	mov 24(%rsp), %r9\n"
	".globl safe_syscall_start\n"
	"safe_syscall_start:\n"
	"	cmpl $0, (%rbx)\n"
	"	jne safe_syscall_interrupted\n"
	"	syscall\n"
	".globl safe_syscall_end\n"
	"safe_syscall_end:\n"
	"	pop %rbx\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	.cfi_restore %rbx\n"
	"	ret\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	.cfi_rel_offset %rbx, 0\n"
	".globl safe_syscall_interrupted\n"
	"safe_syscall_interrupted:\n"
	"	mov $" SAFE_SYSCALL_RESTART_STR ", %rax\n"
	"	pop %rbx\n"
	"	.cfi_adjust_cfa_offset -8\n"
	"	.cfi_restore %rbx\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size safe_syscall_asm, .-safe_syscall_asm\n");

long safe_syscall_asm(volatile int *flag, long nr, long a0, long a1, long a2,
		      long a3, long a4, long a5);
extern const char safe_syscall_start[], safe_syscall_end[],
	safe_syscall_interrupted[];

long safe_syscall(struct gthread *t, long nr, const uint64_t *a)
{
	static volatile int never;
	volatile int *flag = t ? &t->cpu.interrupt : &never;

	return safe_syscall_asm(flag, nr, (long)a[0], (long)a[1], (long)a[2],
				(long)a[3], (long)a[4], (long)a[5]);
}

void safe_syscall_fixup(void *host_ucontext)
{
	ucontext_t *uc = host_ucontext;
	uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];

	/* safe_syscall_end itself means the call ran: its result stands. */
	if (pc >= (uintptr_t)safe_syscall_start && pc < (uintptr_t)safe_syscall_end)
		uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)safe_syscall_interrupted;
}

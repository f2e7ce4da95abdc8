// SPDX-License-Identifier: MIT
/*
 * Signals without libc: a handler called through the translator's own
 * return trampoline (no SA_RESTORER), a blocked signal left pending until
 * it is unblocked, and SIGSEGV, SIGILL and SIGTRAP raised by instructions,
 * each handler stepping over the culprit by editing the saved pc in its
 * ucontext, which rt_sigreturn must honour.
 */
#include "raw.h"

#define SIGILL 4
#define SIGTRAP 5
#define SIGUSR1 10
#define SIGSEGV 11
#define SA_SIGINFO 4
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1

/* Offsets in the arm64 ucontext: uc_mcontext at 176; in it
 * fault_address at 0, regs at 8, sp at 256, pc at 264. */
#define MC 176

struct k_sigaction {
	void *handler;
	unsigned long flags, restorer, mask;
};

static volatile long usr1_count, last_sig, fault_addr, saved_fault_addr;

static void on_usr1(int sig, void *info, void *uc)
{
	(void)uc;
	if (((int *)info)[0] == sig)
		usr1_count++;
}

static void step_over(int sig, void *info, void *uc)
{
	char *mc = (char *)uc + MC;

	last_sig = sig;
	fault_addr = *(long *)((char *)info + 16); /* si_addr */
	saved_fault_addr = *(long *)mc;
	*(long *)(mc + 264) += 4;
}

static void handle(int sig, void (*fn)(int, void *, void *))
{
	struct k_sigaction a = { (void *)fn, SA_SIGINFO, 0, 0 };

	if (sys6(NR_rt_sigaction, sig, (long)&a, 0, 8, 0, 0))
		exit_group(20 + sig);
}

static void say(const char *what, int ok)
{
	out_line(what, ok ? "ok" : "FAIL");
}

void cmain(long *sp) __attribute__((used, noreturn));
void cmain(long *sp)
{
	long pid = sys3(NR_getpid, 0, 0, 0), mask = 1l << (SIGUSR1 - 1);
	volatile long keep = 0x5eed;

	(void)sp;
	handle(SIGUSR1, on_usr1);
	sys3(NR_kill, pid, SIGUSR1, 0);
	say("handler ran once: ", usr1_count == 1);
	say("locals survive the handler: ", keep == 0x5eed);

	sys6(NR_rt_sigprocmask, SIG_BLOCK, (long)&mask, 0, 8, 0, 0);
	sys3(NR_kill, pid, SIGUSR1, 0);
	say("blocked stays pending: ", usr1_count == 1);
	sys6(NR_rt_sigprocmask, SIG_UNBLOCK, (long)&mask, 0, 8, 0, 0);
	say("delivered on unblock: ", usr1_count == 2);

	handle(SIGSEGV, step_over);
	long bad = 0x10, v = 7;
	__asm__ volatile("ldr %0, [%1]" : "+r"(v) : "r"(bad) : "memory");
	say("SIGSEGV: ", last_sig == SIGSEGV && fault_addr == 0x10 &&
				 saved_fault_addr == 0x10 && v == 7);

	handle(SIGILL, step_over);
	last_sig = 0;
	__asm__ volatile(".inst 0x00000000" ::: "memory");
	say("SIGILL: ", last_sig == SIGILL);

	handle(SIGTRAP, step_over);
	last_sig = 0;
	__asm__ volatile("brk #1" ::: "memory");
	say("SIGTRAP: ", last_sig == SIGTRAP);
	exit_group(0);
}

RAW_START;

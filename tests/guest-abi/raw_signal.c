// SPDX-License-Identifier: MIT
/*
 * Signals without libc: a handler called through the translator's own
 * return trampoline (no SA_RESTORER), a blocked signal left pending until
 * it is unblocked, and SIGSEGV, SIGILL and SIGTRAP raised by instructions,
 * each handler stepping over the culprit by editing the saved pc in its
 * ucontext, which rt_sigreturn must honour; and a signal sent to one
 * thread of several, which runs its handler there and ends its blocking
 * read.
 */
#include "raw.h"

#define SIGILL 4
#define SIGTRAP 5
#define SIGUSR1 10
#define SIGUSR2 12
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

static volatile long fault_pc;

static void return_to_lr(int sig, void *info, void *uc)
{
	char *mc = (char *)uc + MC;

	last_sig = sig;
	fault_addr = *(long *)((char *)info + 16);
	fault_pc = *(long *)(mc + 264);
	*(long *)(mc + 264) = *(long *)(mc + 8 + 30 * 8); /* pc = x30 */
}

static void handle(int sig, void (*fn)(int, void *, void *))
{
	struct k_sigaction a = { (void *)fn, SA_SIGINFO, 0, 0 };

	if (sys6(NR_rt_sigaction, sig, (long)&a, 0, 8, 0, 0))
		exit_group(20 + sig);
}

static volatile long usr2_tid, ready, read_result;
static int pipefd[2], reader_tid;
static long reader_tls[2];
static unsigned char reader_stack[16384] __attribute__((aligned(16)));

static void on_usr2(int sig, void *info, void *uc)
{
	(void)sig, (void)info, (void)uc;
	usr2_tid = sys3(NR_gettid, 0, 0, 0);
}

static void reader(void)
{
	char c;

	__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	read_result = sys3(NR_read, pipefd[0], &c, 1);
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

	/* A jump to an unmapped address: the fault is at the target, and
	 * the handler returns to the caller through the saved lr. */
	handle(SIGSEGV, return_to_lr);
	last_sig = 0;
	((void (*)(void))0x20)();
	say("SIGSEGV on a jump: ", last_sig == SIGSEGV && fault_addr == 0x20 &&
					   fault_pc == 0x20);

	handle(SIGILL, step_over);
	last_sig = 0;
	__asm__ volatile(".inst 0x00000000" ::: "memory");
	say("SIGILL: ", last_sig == SIGILL);

	handle(SIGTRAP, step_over);
	last_sig = 0;
	__asm__ volatile("brk #1" ::: "memory");
	say("SIGTRAP: ", last_sig == SIGTRAP);

	/* No SA_RESTART: a read blocked when the signal comes fails with
	 * EINTR; one not yet blocked runs after the handler and gets the
	 * byte written below. Either way the handler ran in that thread. */
	handle(SIGUSR2, on_usr2);
	if (sys3(NR_pipe2, pipefd, 0, 0))
		exit_group(30);
	long tid = raw_clone(THREAD_FLAGS, reader_stack + sizeof(reader_stack),
			     &reader_tid, reader_tls, &reader_tid, reader);
	while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		sys3(NR_getpid, 0, 0, 0);
	sys3(NR_tgkill, pid, tid, SIGUSR2);
	while (!usr2_tid)
		sys3(NR_getpid, 0, 0, 0);
	sys3(NR_write, pipefd[1], "x", 1);
	join(&reader_tid);
	say("signal ran in its thread: ", usr2_tid == tid);
	say("blocking read ended: ", read_result == -4 || read_result == 1);
	exit_group(0);
}

RAW_START;

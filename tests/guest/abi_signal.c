// SPDX-License-Identifier: MIT
/*
 * Signals as a program sees them: a SIGSEGV taken on purpose and left with
 * siglongjmp, a handler on an alternate stack, the frame's saved context,
 * blocked and pending signals, SA_RESTART, SIGILL from an undefined
 * instruction and SIGTRAP from BRK.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#define CHECK(c) printf("%-40s %s\n", #c, (c) ? "ok" : "FAIL")

static sigjmp_buf jb;
static volatile void *fault_addr;
static volatile int got_sig, on_alt, code;
static volatile uint64_t saved_pc_ok;
static char altstack[65536];

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	ucontext_t *u = uc;

	got_sig = sig;
	code = si->si_code;
	fault_addr = si->si_addr;
	saved_pc_ok = u->uc_mcontext.pc != 0 &&
		      u->uc_mcontext.fault_address == (uint64_t)si->si_addr;
	on_alt = (char *)&u > altstack && (char *)&u < altstack + sizeof(altstack);
	siglongjmp(jb, 1);
}

static volatile int usr1;
static void on_usr1(int sig)
{
	usr1 += sig;
}

static void alarm_handler(int sig)
{
	(void)sig;
}

int main(void)
{
	struct sigaction sa;
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	sigset_t set, pend;

	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(sigaltstack(&ss, NULL) == 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	CHECK(sigaction(SIGSEGV, &sa, NULL) == 0);
	CHECK(sigaction(SIGILL, &sa, NULL) == 0);
	CHECK(sigaction(SIGTRAP, &sa, NULL) == 0);

	/* Through a variable: the compiler must not see the address. */
	volatile uintptr_t bad = 16;
	if (!sigsetjmp(jb, 1))
		*(volatile int *)bad = 1;
	CHECK(got_sig == SIGSEGV && fault_addr == (void *)16 && code == SEGV_MAPERR);
	CHECK(saved_pc_ok && on_alt);

	got_sig = 0;
	if (!sigsetjmp(jb, 1))
		asm volatile(".inst 0x00000000"); /* permanently undefined */
	CHECK(got_sig == SIGILL);

	got_sig = 0;
	if (!sigsetjmp(jb, 1))
		asm volatile("brk #7");
	CHECK(got_sig == SIGTRAP);

	/* The mask sigsetjmp saved is back: SIGSEGV is not blocked. */
	sigprocmask(SIG_BLOCK, NULL, &set);
	CHECK(!sigismember(&set, SIGSEGV));

	signal(SIGUSR1, on_usr1);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGUSR1);
	CHECK(usr1 == 0);
	CHECK(sigpending(&pend) == 0 && sigismember(&pend, SIGUSR1));
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	CHECK(usr1 == SIGUSR1);

	/* A blocking read interrupted by a handler with SA_RESTART goes on;
	 * without it, it fails with EINTR. */
	int p[2];
	char c;
	CHECK(pipe(p) == 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alarm_handler;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { .it_value = { 0, 50000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	CHECK(read(p[0], &c, 1) < 0);
	if (fork() == 0) {
		usleep(200000);
		_exit(write(p[1], "r", 1) == 1 ? 0 : 1);
	}
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	CHECK(read(p[0], &c, 1) == 1 && c == 'r');
	return 0;
}

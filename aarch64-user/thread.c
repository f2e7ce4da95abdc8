// SPDX-License-Identifier: MIT
/*
 * Guest threads: each is a real host thread running its own copy of the
 * run loop, so guest threads execute in parallel. The loop runs the engine
 * until it stops, then does what the stop asks for (a system call, a
 * signal for an undefined instruction...) and delivers pending signals.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "aarch64-user/abi.h"

static __thread struct gthread *self;
static int nthreads = 1;

struct gthread *thread_self(void)
{
	return self;
}

void thread_set_self(struct gthread *t)
{
	self = t;
}

void thread_reset_count(void)
{
	__atomic_store_n(&nthreads, 1, __ATOMIC_SEQ_CST);
}

/* The stop reasons other than SVC and INTERRUPT become the signals the
 * arm64 kernel sends for the same exception. */
static void handle_stop(struct gthread *t, const struct a64_stop_info *s)
{
	switch (s->reason) {
	case A64_STOP_SVC:
		syscall_dispatch(t);
		break;
	case A64_STOP_UNDEF:
	case A64_STOP_HLT: /* HLT is undefined at EL0 */
		signal_raise_sync(t, SIGILL, ILL_ILLOPC, t->cpu.pc);
		break;
	case A64_STOP_BRK:
		signal_raise_sync(t, SIGTRAP, TRAP_BRKPT, t->cpu.pc);
		break;
	case A64_STOP_PC_ALIGN:
		signal_raise_sync(t, SIGBUS, BUS_ADRALN, t->cpu.pc);
		break;
	case A64_STOP_DATA_ALIGN:
		/* data abort from EL0 (IL set), alignment fault */
		t->fault_esr = 0x24ull << 26 | 1ull << 25 | 0x21 |
			       (t->cpu.fault_write ? 1ull << 6 : 0);
		signal_raise_sync(t, SIGBUS, BUS_ADRALN, t->cpu.fault_addr);
		break;
	case A64_STOP_INTERRUPT:
		break;
	}
}

void thread_loop(struct gthread *t)
{
	struct a64_stop_info s;

	thread_set_self(t);
	t->cpu.thread = t;
	for (;;) {
		/* A guest memory fault inside the engine lands here, after the
		 * fault handler queued the signal for the faulting pc. */
		if (sigsetjmp(t->engine_jmp, 0)) {
			t->in_engine = 0;
			signal_deliver(t);
			continue;
		}
		t->in_engine = 1;
		s = a64_run(&t->cpu);
		t->in_engine = 0;
		handle_stop(t, &s);
		signal_deliver(t);
	}
}

struct start {
	struct gthread *t;
	uint64_t flags, ptid, ctid;
	int tid; /* the child's, for the parent: t may be gone by then */
	sem_t ready;
};

static void *thread_start(void *arg)
{
	struct start *st = arg;
	struct gthread *t = st->t;

	t->tid = (int)syscall(SYS_gettid);
	thread_set_self(t);
	/* Both are written before clone() returns in the parent, as the
	 * kernel does, so that the parent can rely on them at once. */
	if (st->flags & CLONE_PARENT_SETTID)
		copy_to_guest(st->ptid, &t->tid, sizeof(int));
	if (st->flags & CLONE_CHILD_SETTID)
		copy_to_guest(st->ctid, &t->tid, sizeof(int));
	st->tid = t->tid;
	sem_post(&st->ready);
	thread_loop(t);
}

long thread_clone(struct gthread *parent, uint64_t flags, uint64_t child_sp,
		  uint64_t ptid, uint64_t tls, uint64_t ctid)
{
	struct start st = { .flags = flags, .ptid = ptid, .ctid = ctid };
	struct gthread *t = calloc(1, sizeof(*t));
	pthread_attr_t attr;
	pthread_t th;
	int err;

	if (!t)
		return -ENOMEM;
	t->cpu = parent->cpu;
	t->cpu.x[0] = 0;
	t->cpu.interrupt = 0;
	t->cpu.excl_valid = false;
	if (child_sp)
		t->cpu.x[31] = child_sp;
	if (flags & CLONE_SETTLS)
		t->cpu.tpidr_el0 = tls;
	if (flags & CLONE_CHILD_CLEARTID)
		t->clear_child_tid = ctid;
	t->sigmask = parent->sigmask;
	t->cpu.thread = t;
	st.t = t;
	sem_init(&st.ready, 0, 0);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	__atomic_add_fetch(&nthreads, 1, __ATOMIC_SEQ_CST);
	/* The new host thread inherits the host signal mask, which mirrors
	 * the parent's guest mask: the child's guest mask is the same. */
	err = pthread_create(&th, &attr, thread_start, &st);
	pthread_attr_destroy(&attr);
	if (err) {
		__atomic_sub_fetch(&nthreads, 1, __ATOMIC_SEQ_CST);
		free(t);
		sem_destroy(&st.ready);
		return -err;
	}
	while (sem_wait(&st.ready) && errno == EINTR)
		;
	sem_destroy(&st.ready);
	return st.tid;
}

void thread_exit(struct gthread *t, int code)
{
	/* The last thread leaving ends the process with its status. */
	if (__atomic_sub_fetch(&nthreads, 1, __ATOMIC_SEQ_CST) == 0) {
		if (abi_opts.strace)
			strace_exited(code);
		syscall(SYS_exit_group, code);
	}
	/* CLONE_CHILD_CLEARTID: what pthread_join waits for. Done here, not
	 * by the kernel, because the host thread is glibc's, whose own
	 * clear-tid address belongs to its struct pthread. */
	if (t->clear_child_tid) {
		int zero = 0;
		if (!copy_to_guest(t->clear_child_tid, &zero, sizeof(zero)))
			syscall(SYS_futex, t->clear_child_tid, FUTEX_WAKE, 1,
				NULL, NULL, 0);
	}
	/* From here on this thread takes no signal: a process-wide one goes
	 * to a thread that still runs guest code instead of being dropped
	 * by a handler that finds no guest thread. */
	uint64_t all = ~0ull;
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, 8);
	thread_set_self(NULL);
	free(t);
	pthread_exit(NULL);
}

// SPDX-License-Identifier: MIT
/*
 * Threads without libc: clone() with the flags glibc's pthread_create
 * uses, TLS through TPIDR_EL0, CLONE_PARENT_SETTID / CLONE_CHILD_CLEARTID
 * and a futex join, and an atomic counter that threads running in
 * parallel on the host must not lose updates of.
 */
#include "raw.h"

#define THREADS 4
#define ROUNDS 20000

static long counter;
static int tids[THREADS];
static long tls_blocks[THREADS][4];
static long tls_ok;
static unsigned char stacks[THREADS][16384] __attribute__((aligned(16)));

static void worker(void)
{
	long *tls;

	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(tls));
	if (tls[0] == (long)tls)
		__atomic_fetch_add(&tls_ok, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < ROUNDS; i++)
		__atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
}

void cmain(long *sp) __attribute__((used, noreturn));
void cmain(long *sp)
{
	long set = 0;

	(void)sp;
	for (int i = 0; i < THREADS; i++) {
		tls_blocks[i][0] = (long)tls_blocks[i];
		long r = raw_clone(THREAD_FLAGS, stacks[i] + sizeof(stacks[i]), &tids[i],
				   tls_blocks[i], &tids[i], worker);
		if (r <= 0)
			exit_group(10 + i);
		/* CLONE_PARENT_SETTID wrote the tid before clone returned
		 * (unless the thread already finished and cleared it). */
		if (tids[i] == r || tids[i] == 0)
			set++;
	}
	for (int i = 0; i < THREADS; i++)
		join(&tids[i]);
	put_num("parent_settid ok: ", set);
	put_num("tls ok: ", tls_ok);
	put_num("counter: ", counter);
	exit_group(counter == THREADS * ROUNDS ? 0 : 1);
}

RAW_START;

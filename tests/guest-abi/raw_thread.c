// SPDX-License-Identifier: MIT
/*
 * Threads without libc: clone() with the flags glibc's pthread_create
 * uses, TLS through TPIDR_EL0, CLONE_PARENT_SETTID / CLONE_CHILD_CLEARTID
 * and a futex join, and an atomic counter that threads running in
 * parallel on the host must not lose updates of.
 */
#include "raw.h"

#define CLONE_VM 0x100
#define CLONE_FS 0x200
#define CLONE_FILES 0x400
#define CLONE_SIGHAND 0x800
#define CLONE_THREAD 0x10000
#define CLONE_SYSVSEM 0x40000
#define CLONE_SETTLS 0x80000
#define CLONE_PARENT_SETTID 0x100000
#define CLONE_CHILD_CLEARTID 0x200000
#define FUTEX_WAIT 0

#define THREADS 4
#define ROUNDS 20000

/* long raw_clone(flags, sp, ptid, tls, ctid, fn): the child runs fn on
 * its new stack, then exit(0). */
long raw_clone(long, void *, int *, void *, int *, void (*)(void));
__asm__(".globl raw_clone\n"
	"raw_clone:\n"
	"	mov x10, x5\n"
	"	mov x8, #220\n"
	"	svc #0\n"
	"	cbnz x0, 1f\n"
	"	blr x10\n"
	"	mov x0, #0\n"
	"	mov x8, #93\n"
	"	svc #0\n"
	"1:	ret\n");

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

static void put_num(const char *what, long v)
{
	char b[24];
	int n = 0;

	do
		b[sizeof(b) - 2 - n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < 20);
	b[sizeof(b) - 1] = 0;
	out_line(what, &b[sizeof(b) - 1 - n]);
}

void cmain(long *sp) __attribute__((used, noreturn));
void cmain(long *sp)
{
	const long flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			   CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS |
			   CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
	long set = 0;

	(void)sp;
	for (int i = 0; i < THREADS; i++) {
		tls_blocks[i][0] = (long)tls_blocks[i];
		long r = raw_clone(flags, stacks[i] + sizeof(stacks[i]), &tids[i],
				   tls_blocks[i], &tids[i], worker);
		if (r <= 0)
			exit_group(10 + i);
		/* CLONE_PARENT_SETTID wrote the tid before clone returned
		 * (unless the thread already finished and cleared it). */
		if (tids[i] == r || tids[i] == 0)
			set++;
	}
	/* Join: CLONE_CHILD_CLEARTID zeroes the tid and wakes the futex. */
	for (int i = 0; i < THREADS; i++) {
		int v;
		while ((v = __atomic_load_n(&tids[i], __ATOMIC_ACQUIRE)) != 0)
			sys6(NR_futex, (long)&tids[i], FUTEX_WAIT, v, 0, 0, 0);
	}
	put_num("parent_settid ok: ", set);
	put_num("tls ok: ", tls_ok);
	put_num("counter: ", counter);
	exit_group(counter == THREADS * ROUNDS ? 0 : 1);
}

RAW_START;

/* SPDX-License-Identifier: MIT */
/*
 * What the libc-less ABI test guests share: raw system calls and output.
 * They need only integer instructions and SVC from the engine, so they run
 * as soon as it does, before it can run glibc.
 */
#ifndef VGPU_TESTS_GUEST_ABI_RAW_H
#define VGPU_TESTS_GUEST_ABI_RAW_H

static inline long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;
	register long x8 __asm__("x8") = nr;

	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5), "r"(x8)
			 : "memory");
	return x0;
}
#define sys3(nr, a, b, c) sys6(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)

enum {
	NR_write = 64, NR_exit = 93, NR_exit_group = 94, NR_futex = 98,
	NR_kill = 129, NR_rt_sigaction = 134, NR_rt_sigprocmask = 135,
	NR_rt_sigreturn = 139, NR_getpid = 172, NR_gettid = 178,
	NR_clone = 220, NR_mmap = 222, NR_read = 63, NR_pipe2 = 59,
	NR_tgkill = 131,
};

static inline unsigned long len(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

static inline void out(const char *s)
{
	sys3(NR_write, 1, s, len(s));
}

static inline void out_line(const char *a, const char *b)
{
	out(a);
	out(b);
	out("\n");
}

static inline void __attribute__((noreturn)) exit_group(long code)
{
	for (;;)
		sys3(NR_exit_group, code, 0, 0);
}

static inline void put_num(const char *what, long v)
{
	char b[24];
	int n = 0;

	do
		b[sizeof(b) - 2 - n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < 20);
	b[sizeof(b) - 1] = 0;
	out_line(what, &b[sizeof(b) - 1 - n]);
}

/* The clone flags of glibc's pthread_create. */
#define THREAD_FLAGS                                                        \
	(0x100 /* VM */ | 0x200 /* FS */ | 0x400 /* FILES */ |              \
	 0x800 /* SIGHAND */ | 0x10000 /* THREAD */ | 0x40000 /* SYSVSEM */ | \
	 0x80000 /* SETTLS */ | 0x100000 /* PARENT_SETTID */ |               \
	 0x200000 /* CHILD_CLEARTID */)

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

/* Waits until CLONE_CHILD_CLEARTID zeroed *tid (the thread is gone). */
static inline void join(int *tid)
{
	int v;

	while ((v = __atomic_load_n(tid, __ATOMIC_ACQUIRE)) != 0)
		sys6(NR_futex, (long)tid, 0 /* FUTEX_WAIT */, v, 0, 0, 0);
}

/* The program's entry: cmain(sp) with the initial stack pointer. */
#define RAW_START                                     \
	__asm__(".globl _start\n"                     \
		"_start:\n"                           \
		"	mov x0, sp\n"                 \
		"	b cmain\n")

#endif

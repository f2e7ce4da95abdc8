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
	NR_clone = 220, NR_mmap = 222,
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

/* The program's entry: cmain(sp) with the initial stack pointer. */
#define RAW_START                                     \
	__asm__(".globl _start\n"                     \
		"_start:\n"                           \
		"	mov x0, sp\n"                 \
		"	b cmain\n")

#endif

// SPDX-License-Identifier: MIT
/*
 * The esr_context record an arm64 kernel puts after fpsimd_context in a
 * SIGSEGV frame: a write to an unmapped page is a data abort (EC 0x24)
 * with WnR set and a level-3 translation fault. (qemu-aarch64 writes an
 * SVE record there instead, so this one has no oracle.)
 */
#include "raw.h"

#define MC 176
#define RESERVED 288
#define FPSIMD_SIZE 528

static volatile unsigned long magic, esr;

static void on_segv(int sig, void *info, void *uc)
{
	char *rec = (char *)uc + MC + RESERVED + FPSIMD_SIZE;

	(void)sig, (void)info;
	magic = *(unsigned *)rec;
	esr = *(unsigned long *)(rec + 8);
	*(long *)((char *)uc + MC + 264) += 4;
}

struct k_sigaction {
	void *handler;
	unsigned long flags, restorer, mask;
};

void cmain(long *sp) __attribute__((used, noreturn));
void cmain(long *sp)
{
	struct k_sigaction a = { (void *)on_segv, 4 /* SA_SIGINFO */, 0, 0 };
	long bad = 0x10, v = 1;

	(void)sp;
	sys6(NR_rt_sigaction, 11, (long)&a, 0, 8, 0, 0);
	__asm__ volatile("str %0, [%1]" : : "r"(v), "r"(bad) : "memory");
	put_num("magic: ", (long)magic);
	put_num("ec: ", (long)(esr >> 26));
	put_num("wnr: ", (long)((esr >> 6) & 1));
	put_num("fsc: ", (long)(esr & 63));
	exit_group(0);
}

RAW_START;

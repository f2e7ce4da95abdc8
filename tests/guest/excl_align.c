// SPDX-License-Identifier: MIT
/*
 * Exclusive, acquire/release and atomic accesses at misaligned addresses:
 * which of them fault, with which signal, code and address. Each access
 * is one instruction in its own function; the handler steps over it.
 * Compared with qemu-aarch64 (tests/dbt/abi_run.c), whose alignment checks
 * are the architecture's (no FEAT_LSE2 relaxation either) except in two
 * places: a store exclusive with no matching load exclusive faults on
 * hardware but fails plainly in qemu-aarch64 7.2, and its LDAPR checks no
 * alignment. Those rows (arch = 1) are printed only with the argument
 * "arch", and checked without the oracle.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

/* The LSE forms are in the file, whatever -march the build uses. */
__asm__(".arch armv8.4-a");

#define OP(name, insn)                                          \
	void name(char *a);                                     \
	__asm__(".text\n.p2align 2\n" #name ":\n"               \
		"	mov x2, x0\n	mov x3, x0\n"           \
		"	" insn "\n	ret\n")

OP(ldxr_w, "ldxr w1, [x0]");
OP(ldxr_x, "ldxr x1, [x0]");
OP(ldxrh, "ldxrh w1, [x0]");
OP(ldxrb, "ldxrb w1, [x0]");
OP(ldaxr_x, "ldaxr x1, [x0]");
OP(stxr_x, "stxr w4, x1, [x0]");
OP(stlxr_w, "stlxr w4, w1, [x0]");
OP(ldxp_x, "ldxp x1, x5, [x0]");
OP(ldxp_w, "ldxp w1, w5, [x0]");
OP(stxp_x, "stxp w4, x1, x5, [x0]");
OP(ldar_x, "ldar x1, [x0]");
OP(ldarh, "ldarh w1, [x0]");
OP(stlr_w, "stlr w1, [x0]");
OP(cas_x, "cas x1, x5, [x0]");
OP(casal_w, "casal w1, w5, [x0]");
OP(cash, "cash w1, w5, [x0]");
OP(casp_x, "casp x2, x3, x6, x7, [x0]");
OP(ldadd_x, "ldadd x1, x5, [x0]");
OP(swpal_w, "swpal w1, w5, [x0]");
OP(ldsetb, "ldsetb w1, w5, [x0]");
OP(ldapr_x, "ldapr x1, [x0]");
OP(ldapurh, "ldapurh w1, [x0]");
OP(stlur_x, "stlur x1, [x0]");
OP(ldr_x, "ldr x1, [x0]");

static const struct {
	const char *name;
	void (*fn)(char *);
	int arch;
} ops[] = {
	{ "ldxr_w", ldxr_w, 0 }, { "ldxr_x", ldxr_x, 0 }, { "ldxrh", ldxrh, 0 },
	{ "ldxrb", ldxrb, 0 }, { "ldaxr_x", ldaxr_x, 0 }, { "stxr_x", stxr_x, 1 },
	{ "stlxr_w", stlxr_w, 1 }, { "ldxp_x", ldxp_x, 0 }, { "ldxp_w", ldxp_w, 0 },
	{ "stxp_x", stxp_x, 1 }, { "ldar_x", ldar_x, 0 }, { "ldarh", ldarh, 0 },
	{ "stlr_w", stlr_w, 0 }, { "cas_x", cas_x, 0 }, { "casal_w", casal_w, 0 },
	{ "cash", cash, 0 }, { "casp_x", casp_x, 0 }, { "ldadd_x", ldadd_x, 0 },
	{ "swpal_w", swpal_w, 0 }, { "ldsetb", ldsetb, 0 }, { "ldapr_x", ldapr_x, 1 },
	{ "ldapurh", ldapurh, 0 }, { "stlur_x", stlur_x, 0 }, { "ldr_x", ldr_x, 0 },
};

static volatile int got_sig, got_code;
static volatile uintptr_t got_addr;

static void on_fault(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;

	got_sig = sig;
	got_code = si->si_code;
	got_addr = (uintptr_t)si->si_addr;
	uc->uc_mcontext.pc += 4;
}

static _Alignas(64) char buf[128];

int main(int argc, char **argv)
{
	int arch = argc > 1 && !strcmp(argv[1], "arch");
	static const int offs[] = { 0, 1, 2, 4, 8, 14, 15 };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		if (ops[k].arch != arch)
			continue;
		printf("%-8s", ops[k].name);
		for (size_t j = 0; j < sizeof(offs) / sizeof(offs[0]); j++) {
			char *a = buf + 32 + offs[j];

			got_sig = 0;
			__asm__ volatile("clrex" ::: "memory");
			ops[k].fn(a);
			if (!got_sig)
				printf(" +%d:ok", offs[j]);
			else
				printf(" +%d:%s/%d@%+ld", offs[j],
				       got_sig == SIGBUS ? "BUS" : "SEGV", got_code,
				       (long)(got_addr - (uintptr_t)a));
		}
		printf("\n");
	}
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Faults in the code generator's direct memory accesses (user mode): the
 * guest state is rebuilt from the host's registers at the fault instead
 * of being stored before every access. Each access records, at its host
 * address, the instruction and which guest registers its pool registers
 * hold dirty (newer than struct a64_cpu); an entry without instruction
 * ends the span after it. Code is appended to the buffer in order, so the
 * table is sorted by host address and a fault finds its entry by binary
 * search: the dirty registers are copied from the signal's context into
 * struct a64_cpu, and the pc is the instruction's, as the interpreter
 * leaves them. NZCV and FPSR are stored before an access still (moves do
 * not change them, but the address arithmetic may).
 */
#include <stdatomic.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "aarch64-user/jit_int.h"

struct fault_ent {
	const uint8_t *at; /* execution address */
	const struct a64_insn *insn; /* NULL: no access here */
	uint8_t reg[JIT_NPOOL]; /* guest register held dirty, or 0xff */
};

#define FAULT_MAX (4u << 20)
static struct fault_ent *tab;
static _Atomic size_t tab_n;

void jit_fault_init(void)
{
	void *p = mmap(NULL, FAULT_MAX * sizeof(*tab), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	tab = p == MAP_FAILED ? NULL : p;
}

void jit_fault_block(const uint8_t *at)
{
	/* A block that failed to compile left entries where this one goes. */
	size_t n = atomic_load_explicit(&tab_n, memory_order_relaxed);
	while (n && tab[n - 1].at >= at)
		n--;
	atomic_store_explicit(&tab_n, n, memory_order_release);
}

bool jit_fault_mark(const uint8_t *at, const struct a64_insn *i, const uint8_t reg[JIT_NPOOL])
{
	size_t n = atomic_load_explicit(&tab_n, memory_order_relaxed);
	if (!tab || n >= FAULT_MAX)
		return false;
	if (n && tab[n - 1].at == at) /* replaces an empty span */
		n--;
	tab[n].at = at;
	tab[n].insn = i;
	memcpy(tab[n].reg, reg, JIT_NPOOL);
	atomic_store_explicit(&tab_n, n + 1, memory_order_release);
	return true;
}

/* Host registers as the signal's context numbers them. */
static const int greg_of[16] = {
	[JX_RAX] = REG_RAX, [JX_RCX] = REG_RCX, [JX_RDX] = REG_RDX, [JX_RBX] = REG_RBX,
	[JX_RSP] = REG_RSP, [JX_RBP] = REG_RBP, [JX_RSI] = REG_RSI, [JX_RDI] = REG_RDI,
	[JX_R8] = REG_R8,   [JX_R9] = REG_R9,   [JX_R10] = REG_R10, [JX_R11] = REG_R11,
	[JX_R12] = REG_R12, [JX_R13] = REG_R13, [JX_R14] = REG_R14, [JX_R15] = REG_R15,
};

bool a64_jit_fault(struct a64_cpu *c, const void *host_ucontext, uint64_t *guest_pc)
{
	const ucontext_t *uc = host_ucontext;
	const uint8_t *rip = (const uint8_t *)uc->uc_mcontext.gregs[REG_RIP];
	size_t lo = 0, hi = atomic_load_explicit(&tab_n, memory_order_acquire);
	if (!tab)
		return false;
	while (lo < hi) { /* the first entry past rip */
		size_t mid = lo + (hi - lo) / 2;
		if (tab[mid].at <= rip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !tab[lo - 1].insn)
		return false;
	const struct fault_ent *e = &tab[lo - 1];
	for (int k = 0; k < JIT_NPOOL; k++)
		if (e->reg[k] < 32)
			c->x[e->reg[k]] = (uint64_t)uc->uc_mcontext.gregs[greg_of[jit_pool[k]]];
	a64_tls_insn = e->insn;
	*guest_pc = e->insn->pc;
	return true;
}

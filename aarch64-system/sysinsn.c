// SPDX-License-Identifier: MIT
/*
 * EL1's system instructions, decoded from sysinsn.decode ahead of user
 * mode's decoder of the same encodings (aarch64-user/decode.c tries this
 * one first in system mode): MRS/MSR through the register table, MSR to
 * PSTATE fields, SVC/HVC/SMC, ERET, WFI, TLBI, AT and the cache
 * maintenance operations.
 * Handlers that change the exception level or the pc leave the block with
 * A64_EXIT_SYNC. Those that change translation, interrupt masks or code
 * (MSR, TLBI, IC, ISB) end their block at decode and go on to the next
 * block as any instruction does, which keeps compiled code chained: the
 * next block's entry looks at its validity, its translation and pending
 * interrupts anyway (jit_softmmu.c, block.c), and so does the run loop.
 */
#include "aarch64-system/sys.h"
#include "aarch64-user/engine.h"

void a64s_psci_call(struct a64s_cpu *s);

/* The decoder generated from sysinsn.decode (a64_decode_sysinsn). */
#include "aarch64-system/sysinsn.decode.inc"

static struct a64s_cpu *sc(struct a64_cpu *c)
{
	return (struct a64s_cpu *)c;
}

/* The last instruction of its block (A64_F_END): the next block starts
 * with a look at pending interrupts when one may now be taken. */
static int sync_next(struct a64s_cpu *s, const struct a64_insn *i)
{
	if (a64s_irq_ready(s))
		s->c.interrupt = 1;
	return a64_next(&s->c, i);
}

static int undef(struct a64s_cpu *s, const struct a64_insn *i)
{
	a64s_take_sync(s, EC_UNKNOWN << 26 | ESR_IL, i->pc);
	return A64_EXIT_SYNC;
}

/* EL0 reaches only the registers of the op1 = 3 space (NZCV, FPCR, TPIDR_EL0,
 * the counters...); the finer controls (SCTLR_EL1.UCT, CNTKCTL) are not modelled. */
static bool el0_denied(const struct a64s_cpu *s, const struct a64_insn *i)
{
	return s->el == 0 && (i->imm >> 11 & 7) != 3;
}

static int exec_mrs(struct a64_cpu *c, const struct a64_insn *i)
{
	struct a64s_cpu *s = sc(c);
	if (el0_denied(s, i))
		return undef(s, i);
	wx(c, i->rd, a64s_sysreg_read(s, (const void *)(uintptr_t)i->imm2));
	return a64_next(c, i);
}

static int exec_msr(struct a64_cpu *c, const struct a64_insn *i)
{
	struct a64s_cpu *s = sc(c);
	if (el0_denied(s, i))
		return undef(s, i);
	a64s_sysreg_write(s, (const void *)(uintptr_t)i->imm2, xr(c, i->rd));
	return sync_next(s, i);
}

static bool dec_SYSREG(struct a64_insn *d, const struct args_SYSREG *a)
{
	const void *r = a64s_sysreg_find((uint32_t)a->reg);
	d->rd = (uint8_t)a->rt;
	d->imm = (uint64_t)a->reg;
	d->imm2 = (uint64_t)(uintptr_t)r;
	d->fn = !r ? a64_exec_undef : a->l ? exec_mrs : exec_msr;
	d->flags = a->l ? 0 : A64_F_END;
	return true;
}

/* MSR to PSTATE fields: op = op1:op2, imm = CRm */
static int exec_msr_imm(struct a64_cpu *c, const struct a64_insn *i)
{
	struct a64s_cpu *s = sc(c);
	if (s->el == 0)
		return undef(s, i);
	uint32_t m = (uint32_t)i->imm << 6;
	switch (i->op) {
	case 036: s->daif |= m; break;	/* DAIFSet */
	case 037: s->daif &= ~m; break; /* DAIFClr */
	default: a64s_set_spsel(s, (unsigned)i->imm & 1); break; /* SPSel */
	}
	return sync_next(s, i);
}

static bool dec_MSR_IMM(struct a64_insn *d, const struct args_MSR_IMM *a)
{
	d->op = (uint8_t)(a->op1 << 3 | a->op2);
	d->imm = (uint64_t)a->crm;
	d->flags = A64_F_END;
	d->fn = d->op == 036 || d->op == 037 || d->op == 005 ? exec_msr_imm : a64_exec_undef;
	return true;
}

static int exec_svc(struct a64_cpu *c, const struct a64_insn *i)
{
	struct a64s_cpu *s = sc(c);
	a64s_take_sync(s, (uint32_t)EC_SVC64 << 26 | ESR_IL | (uint32_t)i->imm, i->pc + 4);
	return A64_EXIT_SYNC;
}

/* HVC or SMC: PSCI when it is the conduit the device tree names. */
static int exec_hvc_smc(struct a64_cpu *c, const struct a64_insn *i)
{
	struct a64s_cpu *s = sc(c);
	if (s->el == 0 || (i->op == 2) != s->m->psci_hvc)
		return undef(s, i);
	a64s_psci_call(s);
	return sync_next(s, i);
}

static bool dec_EXC(struct a64_insn *d, const struct args_EXC *a)
{
	d->imm = (uint64_t)a->imm;
	d->op = (uint8_t)a->op;
	d->flags = A64_F_END;
	d->fn = d->op == 1 ? exec_svc : exec_hvc_smc;
	return true;
}

static int exec_eret(struct a64_cpu *c, const struct a64_insn *i)
{
	struct a64s_cpu *s = sc(c);
	if (s->el == 0)
		return undef(s, i);
	a64s_eret(s);
	if (a64s_irq_ready(s))
		c->interrupt = 1;
	return A64_EXIT_SYNC;
}

static bool dec_ERET(struct a64_insn *d, const struct args_ERET *a)
{
	(void)a;
	d->fn = exec_eret;
	d->flags = A64_F_END;
	return true;
}

static int exec_wfi(struct a64_cpu *c, const struct a64_insn *i)
{
	struct a64s_cpu *s = sc(c);
	s->wfi = true;
	c->interrupt = 1;
	c->pc = i->pc + 4;
	return A64_EXIT_SYNC;
}

static bool dec_WFI(struct a64_insn *d, const struct args_WFI *a)
{
	(void)a;
	d->fn = exec_wfi;
	d->flags = A64_F_END;
	return true;
}

/* ISB: later instructions are fetched afresh, from the next block on. */
static int exec_isb(struct a64_cpu *c, const struct a64_insn *i)
{
	return a64_next(c, i);
}

static bool dec_ISB(struct a64_insn *d, const struct args_ISB *a)
{
	(void)a;
	d->fn = exec_isb;
	d->flags = A64_F_END;
	return true;
}

/* ---- SYS: op = op1, imm = CRn:CRm:op2 ---- */
#define SYSOP(op1, crn, crm, op2) ((op1) << 11 | (crn) << 7 | (crm) << 3 | (op2))

/* TLBIs are broadcast (the inner-shareable forms are what Linux uses on
 * SMP): every vCPU's TLB. Translated code is keyed by host address and
 * stays. */
static void flush_all(struct a64s_cpu *s)
{
	for (unsigned k = 0; k < s->m->ncpus; k++)
		if (s->m->cpu[k])
			a64s_tlb_flush(s->m->cpu[k]);
}

static int exec_tlbi(struct a64_cpu *c, const struct a64_insn *i)
{
	struct a64s_cpu *s = sc(c);
	unsigned op2 = (unsigned)i->imm & 7;
	if (op2 == 0 || op2 == 2) { /* VMALLE1, ASIDE1: everything */
		flush_all(s);
	} else {
		uint64_t va = (uint64_t)sext((xr(c, i->rd) & 0xfffffffffffull) << 12, 56);
		for (unsigned k = 0; k < s->m->ncpus; k++)
			if (s->m->cpu[k])
				a64s_tlb_flush_va(s->m->cpu[k], va);
	}
	return sync_next(s, i);
}

/* AT S1E1R/W, S1E0R/W: the walk's result in PAR_EL1, never a fault. */
static int exec_at(struct a64_cpu *c, const struct a64_insn *i)
{
	struct a64s_cpu *s = sc(c);
	unsigned op2 = (unsigned)i->imm & 7;
	struct a64s_walk w;
	a64s_translate(s, xr(c, i->rd), op2 >= 2 ? 0 : 1, op2 & 1 ? A64S_WRITE : A64S_READ, &w);
	if (w.fault == F_NONE)
		s->reg[R_PAR] = w.pa & 0x0000fffffffff000ull;
	else
		s->reg[R_PAR] = 1 | a64s_fsc(&w) << 1;
	return a64_next(c, i);
}

static int exec_ic_all(struct a64_cpu *c, const struct a64_insn *i)
{
	a64_invalidate(0, ~0ull);
	return sync_next(sc(c), i);
}

/* IC IVAU: drops the code translated from that line's host page, whatever
 * virtual address it ran at. Linux cleans every page it maps executable
 * for user space line by line, so the TLB is asked before a walk. */
static int exec_ic_ivau(struct a64_cpu *c, const struct a64_insn *i)
{
	struct a64s_cpu *s = sc(c);
	uint64_t va = xr(c, i->rd) & ~63ull;
	const struct a64s_tlb_entry *e = a64s_hit(va, 64, A64S_READ);
	void *host = e ? (void *)(uintptr_t)(va + e->addend) : NULL;
	if (!e) {
		struct a64s_walk w;
		a64s_translate(s, va, s->el, A64S_READ, &w);
		host = w.fault == F_NONE ? a64s_ram_ptr(s->m, w.pa, 64) : NULL;
	}
	if (host)
		a64_invalidate((uint64_t)(uintptr_t)host, 64);
	return sync_next(s, i);
}

static int exec_dc_zva(struct a64_cpu *c, const struct a64_insn *i)
{
	gmem_zero(xr(c, i->rd) & ~63ull, 64);
	return a64_next(c, i);
}

/* Clean/invalidate by VA or set/way: memory is coherent here. */
static int exec_nop(struct a64_cpu *c, const struct a64_insn *i)
{
	return a64_next(c, i);
}

static bool dec_SYS(struct a64_insn *d, const struct args_SYS *a)
{
	unsigned crn = (unsigned)a->crn, crm = (unsigned)a->crm, op1 = (unsigned)a->op1;
	unsigned op2 = (unsigned)a->op2, op = SYSOP(op1, crn, crm, op2);
	d->rd = (uint8_t)a->rt;
	d->imm = op;
	d->fn = a64_exec_undef;
	if (crn == 8 && op1 == 0 && (crm == 3 || crm == 7) && op2 != 4 && op2 != 6)
		d->fn = exec_tlbi;
	else if ((op & ~3u) == SYSOP(0, 7, 8, 0))
		d->fn = exec_at;
	else if (op == SYSOP(0, 7, 1, 0) || op == SYSOP(0, 7, 5, 0))
		d->fn = exec_ic_all;
	else if (op == SYSOP(3, 7, 5, 1))
		d->fn = exec_ic_ivau;
	else if (op == SYSOP(3, 7, 4, 1))
		d->fn = exec_dc_zva;
	else if (crn == 7 && (op1 == 0 || op1 == 3))
		d->fn = exec_nop; /* DC IVAC/ISW/CSW/CISW/CVAC/CVAU/CVAP/CIVAC */
	if (d->fn != exec_nop && d->fn != exec_dc_zva && d->fn != exec_at)
		d->flags = A64_F_END;
	return true;
}

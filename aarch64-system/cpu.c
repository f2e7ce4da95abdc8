// SPDX-License-Identifier: MIT
/*
 * vCPU state beyond the engine's registers: exception level, stack
 * pointer selection and banking, DAIF, exception entry to VBAR_EL1 and
 * ERET. The engine's x[31] always holds the SP in use; the other one
 * waits in sp_el0 or sp_el1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aarch64-system/sys.h"

static __thread struct a64s_cpu *cur;

struct a64s_cpu *a64s_current(void)
{
	return cur;
}

__thread uint64_t *a64s_insns_cur __attribute__((tls_model("local-exec")));

void a64s_set_current(struct a64s_cpu *s)
{
	cur = s;
	a64s_insns_cur = &s->stats.insns;
	a64s_tlb_select(s);
}

void a64s_cpu_reset(struct a64s_cpu *s, struct a64s_machine *m, unsigned index)
{
	memset(s, 0, sizeof(*s));
	s->m = m;
	s->index = index;
	s->el = 1;
	s->spsel = 1;
	s->daif = PSR_DAIF;
	/* RES1 bits of SCTLR_EL1 (as the architecture resets them), MMU off */
	s->reg[R_SCTLR] = 0x30d00800;
	s->reg[R_OSLSR] = 0x8; /* OS lock not implemented as locked */
	a64s_tlb_flush(s);
}

/* Which SP x[31] holds: 0 (SP_EL0) or 1 (SP_EL1). */
static unsigned sp_in_use(const struct a64s_cpu *s)
{
	return s->el && s->spsel;
}

static void save_sp(struct a64s_cpu *s)
{
	if (sp_in_use(s))
		s->sp_el1 = s->c.x[31];
	else
		s->sp_el0 = s->c.x[31];
}

static void load_sp(struct a64s_cpu *s)
{
	s->c.x[31] = sp_in_use(s) ? s->sp_el1 : s->sp_el0;
}

void a64s_set_spsel(struct a64s_cpu *s, unsigned spsel)
{
	save_sp(s);
	s->spsel = spsel & 1;
	load_sp(s);
}

uint32_t a64s_pstate(const struct a64s_cpu *s)
{
	return (s->c.nzcv & 0xf0000000u) | s->daif | s->el << 2 | (s->el ? s->spsel : 0);
}

static void enter(struct a64s_cpu *s, unsigned kind, uint64_t ret)
{
	/* vector: +0x000 current EL with SP_EL0, +0x200 current EL with
	 * SP_ELx, +0x400 lower EL (AArch64); +0x80 per kind */
	uint64_t off = s->el == 0 ? 0x400 : s->spsel ? 0x200 : 0;
	s->reg[R_SPSR] = a64s_pstate(s);
	s->reg[R_ELR] = ret;
	save_sp(s);
	s->el = 1;
	s->spsel = 1;
	s->daif = PSR_DAIF;
	load_sp(s);
	a64s_tlb_select(s);
	s->c.pc = (s->reg[R_VBAR] & ~0x7ffull) + off + 0x80ull * kind;
	s->c.excl_valid = false;
}

/* VGPU_SYSTEM_TRACE=1 logs every synchronous exception to stderr. */
static int trace = -1;

void a64s_take_sync(struct a64s_cpu *s, uint32_t esr, uint64_t ret)
{
	if (trace < 0)
		trace = getenv("VGPU_SYSTEM_TRACE") != NULL;
	if (trace)
		fprintf(stderr, "exception: EL%u ESR %#x ELR %#llx FAR %#llx\n", s->el, esr,
			(unsigned long long)ret, (unsigned long long)s->reg[R_FAR]);
	s->reg[R_ESR] = esr;
	s->stats.sync[s->el]++;
	enter(s, 0, ret);
}

void a64s_take_irq(struct a64s_cpu *s)
{
	s->wfi = false;
	s->stats.irqs++;
	enter(s, 1, s->c.pc);
}

void a64s_eret(struct a64s_cpu *s)
{
	uint64_t spsr = s->reg[R_SPSR];
	unsigned m = (unsigned)spsr & 0xf;
	save_sp(s);
	/* Returning to EL2/EL3 or AArch32 is an illegal return: stay at EL1
	 * (PSTATE.IL is not modelled). */
	if (m == 0 || m == 4 || m == 5) {
		s->el = m >> 2;
		s->spsel = m & 1;
	}
	s->daif = (uint32_t)spsr & PSR_DAIF;
	s->c.nzcv = (uint32_t)spsr & 0xf0000000u;
	load_sp(s);
	a64s_tlb_select(s);
	s->c.pc = s->reg[R_ELR];
	s->c.excl_valid = false;
}

bool a64s_irq_ready(struct a64s_cpu *s)
{
	return !(s->daif & PSR_I) && a64s_gic_pending(s->m, s->index);
}

bool a64s_handle_stop(struct a64s_cpu *s, const struct a64_stop_info *si)
{
	uint64_t pc = s->c.pc;
	switch (si->reason) {
	case A64_STOP_UNDEF:
		a64s_take_sync(s, EC_UNKNOWN << 26 | ESR_IL, pc);
		return true;
	case A64_STOP_BRK:
		a64s_take_sync(s, (uint32_t)EC_BRK64 << 26 | ESR_IL | (si->imm & 0xffff), pc);
		return true;
	case A64_STOP_PC_ALIGN:
		s->reg[R_FAR] = pc;
		a64s_take_sync(s, (uint32_t)EC_PC_ALIGN << 26 | ESR_IL, pc);
		return true;
	case A64_STOP_DATA_ALIGN: {
		struct a64s_walk w = { .fault = F_ALIGN };
		s->reg[R_FAR] = s->c.fault_addr;
		a64s_take_sync(s, (uint32_t)(s->el ? EC_DABT_CUR : EC_DABT_LOW) << 26 | ESR_IL |
				       a64s_fsc(&w) | (s->c.fault_write ? 1u << 6 : 0), pc);
		return true;
	}
	default:
		return false;
	}
}

void a64s_dump(struct a64s_cpu *s, FILE *f)
{
	fprintf(f, "vCPU %u: pc %#llx EL%u SPSel %u DAIF %#x NZCV %#x SP %#llx\n", s->index,
		(unsigned long long)s->c.pc, s->el, s->spsel, s->daif, s->c.nzcv >> 28,
		(unsigned long long)s->c.x[31]);
	fprintf(f, "  ESR %#llx FAR %#llx ELR %#llx SPSR %#llx VBAR %#llx\n",
		(unsigned long long)s->reg[R_ESR], (unsigned long long)s->reg[R_FAR],
		(unsigned long long)s->reg[R_ELR], (unsigned long long)s->reg[R_SPSR],
		(unsigned long long)s->reg[R_VBAR]);
	fprintf(f, "  SCTLR %#llx TCR %#llx TTBR0 %#llx TTBR1 %#llx\n",
		(unsigned long long)s->reg[R_SCTLR], (unsigned long long)s->reg[R_TCR],
		(unsigned long long)s->reg[R_TTBR0], (unsigned long long)s->reg[R_TTBR1]);
	for (int k = 0; k < 31; k += 4)
		fprintf(f, "  x%-2d %016llx %016llx %016llx %016llx\n", k,
			(unsigned long long)s->c.x[k], (unsigned long long)s->c.x[k + 1],
			(unsigned long long)s->c.x[k + 2],
			(unsigned long long)(k + 3 < 31 ? s->c.x[k + 3] : 0));
}

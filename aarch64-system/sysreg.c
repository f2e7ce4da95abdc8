// SPDX-License-Identifier: MIT
/*
 * EL1's system registers for MRS/MSR: one table row per register, keyed
 * by its encoding (op0, op1, CRn, CRm, op2), looked up once when the
 * instruction is decoded. A row is storage (a slot of the vCPU's reg[]),
 * a constant (ID registers describing one consistent CPU: a Cortex-A53
 * with only the features the engine implements, so Linux never uses an
 * absent one) or a pair of functions.
 *
 * The ID values: ID_AA64PFR0 EL0/EL1 AArch64 only, no EL2/EL3, FP and
 * AdvSIMD without half-precision arithmetic, no GIC system registers
 * (the GIC is a GICv2 in memory); ISAR0 AES+PMULL, SHA1, SHA256, CRC32,
 * LSE atomics; ISAR1 DC CVAP and LRCPC 2; MMFR0 40-bit physical
 * addresses, 16-bit ASIDs, only the 4 KiB granule; MMFR1 nothing (no PAN,
 * no hardware AF/dirty, no VHE); DFR0 Armv8 debug, no PMU.
 */
#include <stdlib.h>

#include "aarch64-system/sys.h"

#define K(op0, op1, crn, crm, op2) \
	((unsigned)(op0) << 14 | (op1) << 11 | (crn) << 7 | (crm) << 3 | (op2))

enum kind { STORE, CONST, FUNC };

struct sysreg {
	unsigned key;
	enum kind kind;
	uint64_t val; /* STORE: reg[] index; CONST: the value */
	uint64_t (*rd)(struct a64s_cpu *s);
	void (*wr)(struct a64s_cpu *s, uint64_t v);
	bool flush;   /* writes change translation: flush the TLB */
};

static uint64_t rd_sp_el0(struct a64s_cpu *s)
{
	return s->el && s->spsel ? s->sp_el0 : s->c.x[31];
}

static void wr_sp_el0(struct a64s_cpu *s, uint64_t v)
{
	if (s->el && s->spsel)
		s->sp_el0 = v;
	else
		s->c.x[31] = v;
}

static uint64_t rd_spsel(struct a64s_cpu *s) { return s->spsel; }
static void wr_spsel(struct a64s_cpu *s, uint64_t v) { a64s_set_spsel(s, (unsigned)v & 1); }
static uint64_t rd_currentel(struct a64s_cpu *s) { return s->el << 2; }
static uint64_t rd_daif(struct a64s_cpu *s) { return s->daif; }
static void wr_daif(struct a64s_cpu *s, uint64_t v) { s->daif = (uint32_t)v & PSR_DAIF; }
static uint64_t rd_nzcv(struct a64s_cpu *s) { return s->c.nzcv; }
static void wr_nzcv(struct a64s_cpu *s, uint64_t v) { s->c.nzcv = (uint32_t)v & 0xf0000000u; }
static uint64_t rd_fpcr(struct a64s_cpu *s) { return s->c.fpcr; }
/* AHP, DN, FZ, RMode, FZ16; FPSR: QC and the cumulative flags */
static void wr_fpcr(struct a64s_cpu *s, uint64_t v) { s->c.fpcr = (uint32_t)v & 0x07c80000u; }
static uint64_t rd_fpsr(struct a64s_cpu *s) { return s->c.fpsr; }
static void wr_fpsr(struct a64s_cpu *s, uint64_t v) { s->c.fpsr = (uint32_t)v & 0x0800009fu; }
static uint64_t rd_tpidr0(struct a64s_cpu *s) { return s->c.tpidr_el0; }
static void wr_tpidr0(struct a64s_cpu *s, uint64_t v) { s->c.tpidr_el0 = v; }
static uint64_t rd_mpidr(struct a64s_cpu *s) { return 0x80000000ull | s->index; }
static uint64_t rd_cntfrq(struct a64s_cpu *s) { return s->m->timer_hz; }
static uint64_t rd_cnt(struct a64s_cpu *s) { return a64s_counter(s->m); }
static void wr_oslar(struct a64s_cpu *s, uint64_t v)
{
	s->reg[R_OSLSR] = (s->reg[R_OSLSR] & ~2ull) | (v & 1) << 1;
}
/* Cache geometry per CSSELR (an L1 of 32 KiB, 64-byte lines; L2 512 KiB) */
static uint64_t rd_ccsidr(struct a64s_cpu *s)
{
	return (s->reg[R_CSSELR] >> 1) ? 0x703fe07aull : 0x700fe01aull;
}

/* The timers: TVAL is CVAL - counter as a signed 32-bit value. */
static void timer_changed(struct a64s_cpu *s)
{
	a64s_timer_update(s);
}
static void wr_cntv_ctl(struct a64s_cpu *s, uint64_t v) { s->reg[R_CNTV_CTL] = v & 3; timer_changed(s); }
static void wr_cntp_ctl(struct a64s_cpu *s, uint64_t v) { s->reg[R_CNTP_CTL] = v & 3; timer_changed(s); }
static void wr_cntv_cval(struct a64s_cpu *s, uint64_t v) { s->reg[R_CNTV_CVAL] = v; timer_changed(s); }
static void wr_cntp_cval(struct a64s_cpu *s, uint64_t v) { s->reg[R_CNTP_CVAL] = v; timer_changed(s); }
static uint64_t rd_cntv_ctl(struct a64s_cpu *s) { a64s_timer_update(s); return s->reg[R_CNTV_CTL]; }
static uint64_t rd_cntp_ctl(struct a64s_cpu *s) { a64s_timer_update(s); return s->reg[R_CNTP_CTL]; }
static uint64_t rd_cntv_tval(struct a64s_cpu *s)
{
	return (uint32_t)(s->reg[R_CNTV_CVAL] - a64s_counter(s->m));
}
static uint64_t rd_cntp_tval(struct a64s_cpu *s)
{
	return (uint32_t)(s->reg[R_CNTP_CVAL] - a64s_counter(s->m));
}
static void wr_cntv_tval(struct a64s_cpu *s, uint64_t v)
{
	wr_cntv_cval(s, a64s_counter(s->m) + (uint64_t)(int64_t)(int32_t)v);
}
static void wr_cntp_tval(struct a64s_cpu *s, uint64_t v)
{
	wr_cntp_cval(s, a64s_counter(s->m) + (uint64_t)(int64_t)(int32_t)v);
}

#define ST(op0, op1, crn, crm, op2, r) { K(op0, op1, crn, crm, op2), STORE, r, NULL, NULL, false }
#define STF(op0, op1, crn, crm, op2, r) { K(op0, op1, crn, crm, op2), STORE, r, NULL, NULL, true }
#define CN(op0, op1, crn, crm, op2, v) { K(op0, op1, crn, crm, op2), CONST, v, NULL, NULL, false }
#define FN(op0, op1, crn, crm, op2, r, w) { K(op0, op1, crn, crm, op2), FUNC, 0, r, w, false }

static const struct sysreg regs[] = {
	CN(3, 0, 0, 0, 0, 0x410fd034), /* MIDR: Cortex-A53 r0p4 */
	FN(3, 0, 0, 0, 5, rd_mpidr, NULL),
	CN(3, 0, 0, 0, 6, 0),	       /* REVIDR */
	CN(3, 0, 0, 4, 0, 0x11),       /* ID_AA64PFR0 */
	CN(3, 0, 0, 5, 0, 0x6),	       /* ID_AA64DFR0 */
	CN(3, 0, 0, 6, 0, 0x211120),   /* ID_AA64ISAR0 */
	CN(3, 0, 0, 6, 1, 0x200001),   /* ID_AA64ISAR1 */
	CN(3, 0, 0, 7, 0, 0x0f000022), /* ID_AA64MMFR0 */
	STF(3, 0, 1, 0, 0, R_SCTLR),
	CN(3, 0, 1, 0, 1, 0),	       /* ACTLR */
	ST(3, 0, 1, 0, 2, R_CPACR),
	STF(3, 0, 2, 0, 0, R_TTBR0),
	STF(3, 0, 2, 0, 1, R_TTBR1),
	STF(3, 0, 2, 0, 2, R_TCR),
	ST(3, 0, 4, 0, 0, R_SPSR),
	ST(3, 0, 4, 0, 1, R_ELR),
	FN(3, 0, 4, 1, 0, rd_sp_el0, wr_sp_el0),
	FN(3, 0, 4, 2, 0, rd_spsel, wr_spsel),
	FN(3, 0, 4, 2, 2, rd_currentel, NULL),
	ST(3, 0, 5, 1, 0, R_AFSR0),
	ST(3, 0, 5, 1, 1, R_AFSR1),
	ST(3, 0, 5, 2, 0, R_ESR),
	ST(3, 0, 6, 0, 0, R_FAR),
	ST(3, 0, 7, 4, 0, R_PAR),
	ST(3, 0, 10, 2, 0, R_MAIR),
	ST(3, 0, 10, 3, 0, R_AMAIR),
	ST(3, 0, 12, 0, 0, R_VBAR),
	CN(3, 0, 12, 1, 0, 0),	       /* ISR_EL1 (read by nothing that matters) */
	ST(3, 0, 13, 0, 1, R_CONTEXTIDR),
	ST(3, 0, 13, 0, 4, R_TPIDR_EL1),
	ST(3, 0, 14, 1, 0, R_CNTKCTL),
	FN(3, 1, 0, 0, 0, rd_ccsidr, NULL),
	CN(3, 1, 0, 0, 1, 0x0a200023), /* CLIDR: L1 I+D, L2 unified */
	CN(3, 1, 0, 0, 7, 0),	       /* AIDR */
	ST(3, 2, 0, 0, 0, R_CSSELR),
	CN(3, 3, 0, 0, 1, 0x8444c004), /* CTR_EL0: 64-byte lines */
	CN(3, 3, 0, 0, 7, 4),	       /* DCZID_EL0: 64-byte DC ZVA */
	FN(3, 3, 4, 2, 0, rd_nzcv, wr_nzcv),
	FN(3, 3, 4, 2, 1, rd_daif, wr_daif),
	FN(3, 3, 4, 4, 0, rd_fpcr, wr_fpcr),
	FN(3, 3, 4, 4, 1, rd_fpsr, wr_fpsr),
	FN(3, 3, 13, 0, 2, rd_tpidr0, wr_tpidr0),
	ST(3, 3, 13, 0, 3, R_TPIDRRO_EL0),
	FN(3, 3, 14, 0, 0, rd_cntfrq, NULL),
	FN(3, 3, 14, 0, 1, rd_cnt, NULL),
	FN(3, 3, 14, 0, 2, rd_cnt, NULL),
	FN(3, 3, 14, 2, 0, rd_cntp_tval, wr_cntp_tval),
	FN(3, 3, 14, 2, 1, rd_cntp_ctl, wr_cntp_ctl),
	{ K(3, 3, 14, 2, 2), STORE, R_CNTP_CVAL, NULL, wr_cntp_cval, false },
	FN(3, 3, 14, 3, 0, rd_cntv_tval, wr_cntv_tval),
	FN(3, 3, 14, 3, 1, rd_cntv_ctl, wr_cntv_ctl),
	{ K(3, 3, 14, 3, 2), STORE, R_CNTV_CVAL, NULL, wr_cntv_cval, false },
	ST(2, 0, 0, 2, 0, R_MDCCINT),
	ST(2, 0, 0, 2, 2, R_MDSCR),
	FN(2, 0, 1, 0, 4, NULL, wr_oslar),
	ST(2, 0, 1, 1, 4, R_OSLSR),
	CN(2, 0, 1, 3, 4, 0),	       /* OSDLR */
	CN(2, 3, 0, 1, 0, 0),	       /* MDCCSR_EL0 */
};

/* The rest of the ID space (op0 3, op1 0, CRn 0, CRm 1..7) and the debug
 * breakpoint/watchpoint registers read as zero and ignore writes. */
static const struct sysreg raz = { 0, CONST, 0, NULL, NULL, false };

const void *a64s_sysreg_find(uint32_t key)
{
	for (size_t k = 0; k < sizeof(regs) / sizeof(regs[0]); k++)
		if (regs[k].key == key)
			return &regs[k];
	unsigned crm = key >> 3 & 15;
	if ((key & ~(unsigned)0x7f) == K(3, 0, 0, 0, 0) && crm >= 1)
		return &raz;
	if ((key & ~(unsigned)0x7f) == K(2, 0, 0, 0, 0) && (key & 7) >= 4)
		return &raz;
	return NULL;
}

uint64_t a64s_sysreg_read(struct a64s_cpu *s, const void *reg)
{
	const struct sysreg *r = reg;
	if (r->rd)
		return r->rd(s);
	return r->kind == STORE ? s->reg[r->val] : r->val;
}

void a64s_sysreg_write(struct a64s_cpu *s, const void *reg, uint64_t v)
{
	const struct sysreg *r = reg;
	if (r->wr)
		r->wr(s, v);
	else if (r->kind == STORE)
		s->reg[r->val] = v;
	if (r->flush)
		a64s_tlb_flush(s);
}

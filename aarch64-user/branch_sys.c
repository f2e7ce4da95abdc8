// SPDX-License-Identifier: MIT
/* Branches, exception generation (SVC/BRK/HLT), hints, barriers, cache
 * maintenance and the system registers EL0 can reach under Linux. */
#include <time.h>

#include "aarch64-user/engine.h"

/* The decoder generated from branch_sys.decode (a64_decode_branch_sys, which decode.c
 * calls for its major group). */
#include "aarch64-user/branch_sys.decode.inc"

static int64_t times_4(int64_t v)
{
	return (int64_t)((uint64_t)v << 2);
}

static int exec_b(struct a64_cpu *c, const struct a64_insn *i)
{
	c->pc = i->imm;
	return A64_JUMP;
}

static int exec_bl(struct a64_cpu *c, const struct a64_insn *i)
{
	c->x[30] = i->pc + 4;
	c->pc = i->imm;
	return A64_JUMP;
}

static bool dec_B(struct a64_insn *d, const struct args_B *a)
{
	d->imm = d->pc + (uint64_t)a->off;
	d->fn = exec_b;
	d->flags = A64_F_END;
	return true;
}

static bool dec_BL(struct a64_insn *d, const struct args_BL *a)
{
	d->imm = d->pc + (uint64_t)a->off;
	d->fn = exec_bl;
	d->flags = A64_F_END;
	return true;
}

/* Conditional branches do not end their block: not taken, execution
 * simply goes on with the next decoded instruction, so a block runs on
 * through the fall-through paths (fewer block transitions). */
static inline int branch_if(struct a64_cpu *c, const struct a64_insn *i, bool take)
{
	if (!take)
		return a64_next(c, i);
	c->pc = i->imm;
	return A64_JUMP;
}

/* B.cond: one handler per condition, so the condition test is a constant
 * expression and not a switch the host mispredicts between branches. */
#define BCOND_FN(cc)                                                            \
	static int exec_bcond_##cc(struct a64_cpu *c, const struct a64_insn *i) \
	{                                                                       \
		return branch_if(c, i, cond_holds(c->nzcv, cc));                \
	}
BCOND_FN(0) BCOND_FN(1) BCOND_FN(2) BCOND_FN(3) BCOND_FN(4) BCOND_FN(5) BCOND_FN(6)
BCOND_FN(7) BCOND_FN(8) BCOND_FN(9) BCOND_FN(10) BCOND_FN(11) BCOND_FN(12) BCOND_FN(13)
BCOND_FN(14) BCOND_FN(15)

static const a64_fn bcond_fns[16] = {
	exec_bcond_0, exec_bcond_1, exec_bcond_2, exec_bcond_3, exec_bcond_4, exec_bcond_5,
	exec_bcond_6, exec_bcond_7, exec_bcond_8, exec_bcond_9, exec_bcond_10, exec_bcond_11,
	exec_bcond_12, exec_bcond_13, exec_bcond_14, exec_bcond_15,
};

static bool dec_B_cond(struct a64_insn *d, const struct args_B_cond *a)
{
	d->imm = d->pc + (uint64_t)a->off;
	d->op = (uint8_t)a->cond;
	d->fn = bcond_fns[d->op];
	return true;
}

/* CBZ/CBNZ: one handler per width and sense (as B.cond, no run-time
 * branch on the encoding). */
#define CBZ_FN(nz, sf)                                                             \
	static int exec_cbz_##nz##sf(struct a64_cpu *c, const struct a64_insn *i) \
	{                                                                          \
		uint64_t v = xr(c, i->rd);                                         \
		return branch_if(c, i, ((sf ? v : (uint32_t)v) == 0) != nz);      \
	}
CBZ_FN(0, 0) CBZ_FN(0, 1) CBZ_FN(1, 0) CBZ_FN(1, 1)
static const a64_fn cbz_fns[2][2] = { { exec_cbz_00, exec_cbz_01 }, { exec_cbz_10, exec_cbz_11 } };

static bool dec_CBZ(struct a64_insn *d, const struct args_CBZ *a)
{
	d->imm = d->pc + (uint64_t)a->off;
	d->sf = (uint8_t)a->sf;
	d->op = (uint8_t)a->nz;
	d->rd = (uint8_t)a->rt;
	d->fn = cbz_fns[d->op][d->sf];
	return true;
}

#define TBZ_FN(nz)                                                            \
	static int exec_tbz_##nz(struct a64_cpu *c, const struct a64_insn *i) \
	{                                                                     \
		bool set = (xr(c, i->rd) >> i->op2) & 1;                      \
		return branch_if(c, i, set == nz);                            \
	}
TBZ_FN(0) TBZ_FN(1)

static bool dec_TBZ(struct a64_insn *d, const struct args_TBZ *a)
{
	d->imm = d->pc + (uint64_t)a->off;
	d->op = (uint8_t)a->nz;
	d->op2 = (uint8_t)a->bit;
	d->rd = (uint8_t)a->rt;
	d->fn = d->op ? exec_tbz_1 : exec_tbz_0;
	return true;
}

static int exec_br(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t t = xr(c, i->rn);
	if (i->op == 1)
		c->x[30] = i->pc + 4;
	c->pc = t;
	return A64_JUMP;
}

static bool dec_BR(struct a64_insn *d, const struct args_BR *a)
{
	d->op = (uint8_t)a->op;
	d->rn = (uint8_t)a->rn;
	d->fn = exec_br;
	d->flags = A64_F_END;
	return true;
}

static int exec_svc(struct a64_cpu *c, const struct a64_insn *i)
{
	c->pc = i->pc + 4;
	return A64_EXIT_SVC;
}

static int exec_brk(struct a64_cpu *c, const struct a64_insn *i)
{
	(void)c;
	(void)i;
	return A64_EXIT_BRK;
}

static int exec_hlt(struct a64_cpu *c, const struct a64_insn *i)
{
	(void)c;
	(void)i;
	return A64_EXIT_HLT;
}

/* Exception-generating instructions and hints have no operands. */
#define DEC_NO_OPERANDS(name, handler, end)                                   \
	static bool dec_##name(struct a64_insn *d, const struct args_##name *a) \
	{                                                                     \
		(void)a;                                                      \
		d->fn = handler;                                              \
		d->flags = end;                                               \
		return true;                                                  \
	}
DEC_NO_OPERANDS(SVC, exec_svc, A64_F_END)
DEC_NO_OPERANDS(BRK, exec_brk, A64_F_END)
DEC_NO_OPERANDS(HLT, exec_hlt, A64_F_END)

static int exec_nop(struct a64_cpu *c, const struct a64_insn *i)
{
	(void)c;
	(void)i;
	return a64_next(c, i);
}

static int exec_dmb_full(struct a64_cpu *c, const struct a64_insn *i)
{
	(void)c;
	(void)i;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return a64_next(c, i);
}

/* x86 keeps loads ordered with loads and stores with stores: load-only and
 * store-only barriers need just the compiler not to move accesses. */
static int exec_dmb_half(struct a64_cpu *c, const struct a64_insn *i)
{
	(void)c;
	(void)i;
	__asm__ volatile("" ::: "memory");
	return a64_next(c, i);
}

static int exec_clrex(struct a64_cpu *c, const struct a64_insn *i)
{
	(void)i;
	c->excl_valid = false;
	return a64_next(c, i);
}

/* ISB: later instructions are fetched afresh, so leave the block. */
static int exec_isb(struct a64_cpu *c, const struct a64_insn *i)
{
	c->pc = i->pc + 4;
	return A64_EXIT_SYNC;
}

DEC_NO_OPERANDS(HINT, exec_nop, 0)
DEC_NO_OPERANDS(CLREX, exec_clrex, 0)
DEC_NO_OPERANDS(ISB, exec_isb, 0)

static bool dec_BARRIER(struct a64_insn *d, const struct args_BARRIER *a)
{
	d->fn = a->half ? exec_dmb_half : exec_dmb_full;
	return true;
}

static int exec_dc_zva(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t bs = 4u << A64_DCZID_BS;
	gmem_zero(xr(c, i->rd) & ~(bs - 1), (unsigned)bs);
	return a64_next(c, i);
}

/* IC IVAU: the guest rewrote code; drop what we decoded from that line. */
static int exec_ic_ivau(struct a64_cpu *c, const struct a64_insn *i)
{
	a64_invalidate(xr(c, i->rd) & ~63ull, 64);
	c->pc = i->pc + 4;
	return A64_EXIT_SYNC;
}

static bool dec_DC_ZVA(struct a64_insn *d, const struct args_DC_ZVA *a)
{
	d->rd = (uint8_t)a->rt;
	d->fn = exec_dc_zva;
	return true;
}

static bool dec_IC_IVAU(struct a64_insn *d, const struct args_IC_IVAU *a)
{
	d->rd = (uint8_t)a->rt;
	d->fn = exec_ic_ivau;
	return true;
}

/* Cleans to a point of coherency: the host keeps caches coherent. */
static bool dec_DC_NOP(struct a64_insn *d, const struct args_DC_NOP *a)
{
	d->rd = (uint8_t)a->rt;
	d->fn = exec_nop;
	return true;
}

/* ---- MRS / MSR ---------------------------------------------------------- */

#define SYSREG(op0, op1, crn, crm, op2) \
	(((op0) << 14) | ((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2))

enum {
	R_NZCV = SYSREG(3, 3, 4, 2, 0),
	R_FPCR = SYSREG(3, 3, 4, 4, 0),
	R_FPSR = SYSREG(3, 3, 4, 4, 1),
	R_TPIDR = SYSREG(3, 3, 13, 0, 2),
	R_TPIDRRO = SYSREG(3, 3, 13, 0, 3),
	R_CNTFRQ = SYSREG(3, 3, 14, 0, 0),
	R_CNTVCT = SYSREG(3, 3, 14, 0, 2),
	R_CNTVCTSS = SYSREG(3, 3, 14, 0, 6),
	R_CTR = SYSREG(3, 3, 0, 0, 1),
	R_DCZID = SYSREG(3, 3, 0, 0, 7),
	R_MIDR = SYSREG(3, 0, 0, 0, 0),
	R_MPIDR = SYSREG(3, 0, 0, 0, 5),
	R_REVIDR = SYSREG(3, 0, 0, 0, 6),
	R_PFR0 = SYSREG(3, 0, 0, 4, 0),
	R_ISAR0 = SYSREG(3, 0, 0, 6, 0),
	R_ISAR1 = SYSREG(3, 0, 0, 6, 1),
	R_MMFR0 = SYSREG(3, 0, 0, 7, 0),
};

/* FPCR bits kept: AHP, DN, FZ, RMode, FZ16 (trap enables are RAZ). */
#define FPCR_MASK 0x07c80000u
/* FPSR: QC and the cumulative exception flags. */
#define FPSR_MASK 0x0800009fu

#define CNT_FREQ 1000000000ull /* CNTVCT counts host nanoseconds */

static uint64_t counter(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * ID registers as the Linux kernel's MRS emulation shows them to EL0: only
 * the features this engine implements. ID_AA64ISAR0: AES with PMULL
 * (2 << 4), SHA1 (1 << 8), SHA256 (1 << 12), CRC32 (1 << 16) and LSE
 * atomics (2 << 20), as AT_HWCAP says; ID_AA64PFR0: EL0 AArch64-only, FP
 * and AdvSIMD implemented without half-precision arithmetic (fields 0);
 * ID_AA64ISAR1: DC CVAP (DPB 1) and LDAPR plus LDAPUR/STLUR (LRCPC 2).
 * MIDR reads as a generic Arm core; other registers of the ID space read
 * as zero.
 */
static bool read_id(unsigned reg, uint64_t *v)
{
	if ((reg & ~0x7fu) != SYSREG(3, 0, 0, 0, 0))
		return false;
	switch (reg) {
	case R_MIDR: *v = 0x410fd034; break; /* Cortex-A53 r0p4 */
	case R_MPIDR: *v = 0x80000000; break;
	case R_PFR0: *v = 0x11; break;
	case R_ISAR0:
		*v = (2ull << 4) | (1ull << 8) | (1ull << 12) | (1ull << 16) | (2ull << 20);
		break;
	case R_ISAR1: *v = 1 | (2ull << 20); break;
	case R_MMFR0: *v = 0; break;
	default: *v = 0; break;
	}
	return true;
}

static int exec_mrs(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t v;
	switch (i->imm) {
	case R_NZCV: v = c->nzcv; break;
	case R_FPCR: v = c->fpcr; break;
	case R_FPSR: v = c->fpsr; break;
	case R_TPIDR: v = c->tpidr_el0; break;
	case R_TPIDRRO: v = 0; break;
	case R_CNTFRQ: v = CNT_FREQ; break;
	case R_CNTVCT:
	case R_CNTVCTSS: v = counter(); break;
	case R_CTR: v = 0x8444c004; break; /* 64-byte lines, VIPT I-cache */
	case R_DCZID: v = A64_DCZID_BS; break;
	default: v = i->imm2; break; /* ID register, resolved at decode */
	}
	wx(c, i->rd, v);
	return a64_next(c, i);
}

static int exec_msr(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t v = xr(c, i->rd);
	switch (i->imm) {
	case R_NZCV: c->nzcv = (uint32_t)v & 0xf0000000u; break;
	case R_FPCR: c->fpcr = (uint32_t)v & FPCR_MASK; break;
	case R_FPSR: c->fpsr = (uint32_t)v & FPSR_MASK; break;
	default: c->tpidr_el0 = v; break;
	}
	return a64_next(c, i);
}

static bool dec_MRS(struct a64_insn *d, const struct args_MRS *a)
{
	unsigned reg = (unsigned)a->reg;
	d->rd = (uint8_t)a->rt;
	d->imm = reg;
	d->fn = exec_mrs;
	switch (reg) {
	case R_NZCV:
	case R_FPCR:
	case R_FPSR:
	case R_TPIDR:
	case R_TPIDRRO:
	case R_CNTFRQ:
	case R_CNTVCT:
	case R_CNTVCTSS:
	case R_CTR:
	case R_DCZID:
		return true;
	default:
		return read_id(reg, &d->imm2);
	}
}

/* Of the registers EL0 may read, these four it may also write. */
static bool dec_MSR(struct a64_insn *d, const struct args_MSR *a)
{
	unsigned reg = (unsigned)a->reg;
	d->rd = (uint8_t)a->rt;
	d->imm = reg;
	d->fn = exec_msr;
	return reg == R_NZCV || reg == R_FPCR || reg == R_FPSR || reg == R_TPIDR;
}

/* CFINV, XAFLAG, AXFLAG (FlagM) are not offered; other PSTATE writes are
 * privileged. */

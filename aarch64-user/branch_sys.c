// SPDX-License-Identifier: MIT
/* Branches, exception generation (SVC/BRK/HLT), hints, barriers, cache
 * maintenance and the system registers EL0 can reach under Linux. */
#include <time.h>

#include "aarch64-user/engine.h"

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

static bool dec_b(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	d->imm = pc + (uint64_t)(sext(bits(w, 25, 0), 26) * 4);
	d->fn = bit(w, 31) ? exec_bl : exec_b;
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

static bool dec_bcond(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	d->imm = pc + (uint64_t)(sext(bits(w, 23, 5), 19) * 4);
	d->op = bits(w, 3, 0);
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

static bool dec_cbz(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	d->imm = pc + (uint64_t)(sext(bits(w, 23, 5), 19) * 4);
	d->sf = bit(w, 31);
	d->op = bit(w, 24);
	d->rd = bits(w, 4, 0);
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

static bool dec_tbz(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	d->imm = pc + (uint64_t)(sext(bits(w, 18, 5), 14) * 4);
	d->op = bit(w, 24);
	d->op2 = (uint8_t)(bit(w, 31) << 5 | bits(w, 23, 19));
	d->rd = bits(w, 4, 0);
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

static bool dec_br(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 24, 21);
	if (opc > 2)
		return false;
	d->op = (uint8_t)opc;
	d->rn = bits(w, 9, 5);
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

static bool dec_exc(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 23, 21), ll = bits(w, 1, 0);
	d->flags = A64_F_END;
	if (opc == 0 && ll == 1)
		d->fn = exec_svc;
	else if (opc == 1 && ll == 0)
		d->fn = exec_brk;
	else if (opc == 2 && ll == 0)
		d->fn = exec_hlt;
	else
		return false; /* HVC, SMC, DCPS: not from EL0 */
	return true;
}

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

static bool dec_hint(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	(void)w;
	d->fn = exec_nop; /* NOP, YIELD, WFE..., BTI, PAC hints (PAC not offered) */
	return true;
}

static bool dec_barrier(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned op2 = bits(w, 7, 5), crm = bits(w, 11, 8);
	switch (op2) {
	case 2: d->fn = exec_clrex; return true;
	case 4:
	case 5:
		/* CRm<1:0> = 01 (loads only) or 10 (stores only) */
		d->fn = ((crm & 3) == 1 || (crm & 3) == 2) ? exec_dmb_half : exec_dmb_full;
		return true;
	case 6: d->fn = exec_isb; return true;
	case 7: d->fn = exec_dmb_full; return true; /* SB */
	default: return false;
	}
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

static bool dec_sys(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	/* op1:CRn:CRm:op2 of the DC/IC operations EL0 may use */
	unsigned key = bits(w, 18, 5);
	d->rd = bits(w, 4, 0);
	switch (key) {
	case 0x1ba1: d->fn = exec_dc_zva; return true; /* 3,7,4,1 */
	case 0x1ba9:					/* IC IVAU 3,7,5,1 */
		d->fn = exec_ic_ivau;
		return true;
	case 0x1bd1: /* DC CVAC */
	case 0x1bd9: /* DC CVAU */
	case 0x1be1: /* DC CVAP */
	case 0x1be9: /* DC CVADP */
	case 0x1bf1: /* DC CIVAC */
		d->fn = exec_nop; /* the host keeps caches coherent */
		return true;
	default:
		return false;
	}
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

static bool dec_sysreg(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned reg = bits(w, 20, 5);
	bool read = bit(w, 21);
	d->rd = bits(w, 4, 0);
	d->imm = reg;
	switch (reg) {
	case R_NZCV:
	case R_FPCR:
	case R_FPSR:
	case R_TPIDR:
		d->fn = read ? exec_mrs : exec_msr;
		return true;
	case R_TPIDRRO:
	case R_CNTFRQ:
	case R_CNTVCT:
	case R_CNTVCTSS:
	case R_CTR:
	case R_DCZID:
		d->fn = exec_mrs;
		return read;
	default:
		d->fn = exec_mrs;
		return read && read_id(reg, &d->imm2);
	}
}

/* CFINV, XAFLAG, AXFLAG (FlagM) are not offered; other PSTATE writes are
 * privileged. */
struct a64_pattern a64_branch_sys_table[] = {
	A64_ROW("x 00101 xxxxxxxxxxxxxxxxxxxxxxxxxx", dec_b),
	A64_ROW("0101010 0 xxxxxxxxxxxxxxxxxxx 0 xxxx", dec_bcond),
	A64_ROW("x 011010 x xxxxxxxxxxxxxxxxxxx xxxxx", dec_cbz),
	A64_ROW("x 011011 x xxxxx xxxxxxxxxxxxxx xxxxx", dec_tbz),
	A64_ROW("1101011 0 0 xx 11111 000000 xxxxx 00000", dec_br),
	A64_ROW("11010100 xxx xxxxxxxxxxxxxxxx 000 xx", dec_exc),
	A64_ROW("1101010100 0 00 011 0010 xxxx xxx 11111", dec_hint),
	A64_ROW("1101010100 0 00 011 0011 xxxx xxx 11111", dec_barrier),
	A64_ROW("1101010100 0 01 xxx xxxx xxxx xxx xxxxx", dec_sys),
	A64_ROW("1101010100 x 1 x xxx xxxx xxxx xxx xxxxx", dec_sysreg),
	A64_END_TABLE,
};

// SPDX-License-Identifier: MIT
/*
 * Scalar floating point in the code generator: single and double
 * precision arithmetic, FMA, square root, compares, selects, moves and
 * the common conversions on the host's SSE (and FMA) unit.
 *
 * When the host result is the guest's: under round to nearest without
 * FZ and DN (the usual FPCR, checked at every instruction), IEEE add,
 * subtract, multiply, divide, square root, fused multiply-add and the
 * conversions round alike on both, and so raise the same flags; what
 * differs is NaN propagation (x86 keeps the first operand's NaN and
 * makes negative default NaNs; Arm prefers signalling NaNs and its
 * default NaN is positive). So a NaN operand, or a NaN result of
 * non-NaN operands (an invalid operation), takes the interpreter's
 * handler instead, as does any other FPCR. In those cases the host
 * raised nothing but the invalid flag the guest raises too, so going
 * to the handler after trying leaves FPSR exact.
 *
 * FPSR's cumulative flags come from MXCSR's sticky flags: within a
 * block MXCSR is kept free of flags FPSR lacks (fp_sync before the first
 * FP instruction and after each handler call), so ORing its flags into
 * FPSR (fp_flush, before anything may look: a memory access, a handler
 * call, an exit) makes FPSR exactly the guest's.
 */
#include "aarch64-user/fp_core.h"
#include "aarch64-user/jit_int.h"

bool jit_host_fma;

/* FPCR bits under which the host does not round like the guest. */
#define FPCR_SLOW ((3u << 22) | FPCR_FZ | FPCR_DN)

enum { X0, X1, X2, X3 }; /* scratch xmm registers */

/* The slow-path jumps of one instruction, patched to its handler call. */
struct fp_ins {
	struct jc_snap before;
	uint8_t *slow[4];
	int nslow;
};

static bool is_sd(unsigned t)
{
	return t == FT_S || t == FT_D;
}

static uint8_t pfx(unsigned t)
{
	return t == FT_D ? JX_PFX_D : JX_PFX_S;
}

static void to_slow(struct jc *jc, struct fp_ins *f, int cc)
{
	uint8_t *at = jx_jcc(&jc->x, cc, NULL);
	if (at && f->nslow < 4)
		f->slow[f->nslow++] = at;
}

/* Starts an instruction that rounds or raises flags: MXCSR in step, the
 * FPCR test. */
static void fp_begin(struct jc *jc, struct fp_ins *f)
{
	struct jx *j = &jc->x;
	jit_snap(jc, &f->before);
	f->nslow = 0;
	if (!jc->fp_synced) {
		jx_call(j, jit_glue.fp_sync);
		jc->fp_synced = true;
	}
	jx_load(j, 4, false, JX_RAX, JC_CPU, JC_FPCR);
	jx_test_ri(j, false, JX_RAX, (int32_t)FPCR_SLOW);
	to_slow(jc, f, JX_NE);
}

/* Ends it: the native path jumps over the handler call the slow jumps
 * lead to. */
static void fp_end(struct jc *jc, struct fp_ins *f, const struct a64_insn *i)
{
	struct jx *j = &jc->x;
	jc->fp_pending = true;
	uint8_t *done = jx_jmp(j, NULL);
	for (int k = 0; k < f->nslow; k++)
		jx_patch(j, f->slow[k], j->p + j->delta);
	jit_call_keep(jc, i, &f->before);
	if (done)
		jx_patch(j, done, j->p + j->delta);
}

static void load_v(struct jc *jc, unsigned t, int x, unsigned n)
{
	jx_sse_rm(&jc->x, pfx(t), JX_SSE_LOAD, false, x, JC_CPU, JC_V(n));
}

/* Unordered (a NaN) goes to the handler. */
static void nan_check(struct jc *jc, struct fp_ins *f, unsigned t, int a, int b)
{
	jx_sse_rr(&jc->x, t == FT_D ? 0x66 : 0, JX_SSE_UCOMI, false, a, b);
	to_slow(jc, f, JX_P);
}

/* The whole vector register: scalar loads cleared the lanes above. */
static void store_v(struct jc *jc, int x, unsigned n)
{
	jx_sse_rm(&jc->x, 0, JX_SSE_STORE, false, x, JC_CPU, JC_V(n));
}

/* A scalar write from a general register: the rest of V cleared. */
static void store_v_gpr(struct jc *jc, int r, unsigned n)
{
	struct jx *j = &jc->x;
	jx_store(j, 8, r, JC_CPU, JC_V(n));
	jx_alu_rr(j, JX_XOR, false, r, r);
	jx_store(j, 8, r, JC_CPU, JC_V(n) + 8);
}

/* By enum fp_op2, up to FO_NMUL (a multiply negated afterwards). */
static const uint8_t op2_sse[FO_NMUL + 1] = {
	JX_SSE_MUL, JX_SSE_DIV, JX_SSE_ADD, JX_SSE_SUB, JX_SSE_MAX,
	JX_SSE_MIN, JX_SSE_MAX, JX_SSE_MIN, JX_SSE_MUL,
};

/* FMAX, FMIN, FMAXNM, FMINNM of non-NaN operands (the NM forms differ
 * only with NaNs): the host's, except that x86 returns the second of
 * equal operands and Arm orders -0 below +0, so equal operands combine
 * bitwise: AND for the maximum (+0 if either is), OR for the minimum. */
static void fp_minmax(struct jx *j, unsigned t, uint8_t op)
{
	uint8_t *equal = jx_jcc(j, JX_E, NULL);
	jx_sse_rr(j, pfx(t), op, false, X0, X1);
	uint8_t *done = jx_jmp(j, NULL);
	if (equal)
		jx_patch(j, equal, j->p + j->delta);
	jx_sse_rr(j, 0, op == JX_SSE_MAX ? JX_SSE_AND : JX_SSE_OR, false, X0, X1);
	if (done)
		jx_patch(j, done, j->p + j->delta);
}

/* FMUL, FDIV, FADD, FSUB, FMAX, FMIN, FMAXNM, FMINNM, FNMUL (op: enum
 * fp_op2). */
static bool emit_fp2(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	struct fp_ins f;
	if (!is_sd(i->sf) || i->op > FO_NMUL)
		return false;
	fp_begin(jc, &f);
	load_v(jc, i->sf, X0, i->rn);
	load_v(jc, i->sf, X1, i->rm);
	nan_check(jc, &f, i->sf, X0, X1);
	if (i->op >= FO_MAX && i->op <= FO_MINNM) {
		fp_minmax(j, i->sf, op2_sse[i->op]); /* the flags of nan_check's compare */
	} else {
		jx_sse_rr(j, pfx(i->sf), op2_sse[i->op], false, X0, X1);
		nan_check(jc, &f, i->sf, X0, X0);
	}
	if (i->op == FO_NMUL) {
		jx_mov_ri(j, JX_RAX, fp_sign_bit((enum fp_type)i->sf));
		jx_sse_rr(j, 0x66, JX_SSE_MOVD_TO, true, X1, JX_RAX);
		jx_sse_rr(j, 0, JX_SSE_XOR, false, X0, X1);
	}
	store_v(jc, X0, i->rd);
	fp_end(jc, &f, i);
	return true;
}

/* FMADD, FMSUB, FNMADD, FNMSUB (flags: 1 negates the product, 2 the
 * addend) as the 231 forms: X0 = addend, X1 * X2. */
static bool emit_fma(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	static const uint8_t vfm[4] = { 0xb9, 0xbd, 0xbb, 0xbf };
	struct fp_ins f;
	if (!is_sd(i->sf) || !jit_host_fma)
		return false;
	fp_begin(jc, &f);
	load_v(jc, i->sf, X0, i->ra);
	load_v(jc, i->sf, X1, i->rn);
	load_v(jc, i->sf, X2, i->rm);
	nan_check(jc, &f, i->sf, X0, X1);
	nan_check(jc, &f, i->sf, X2, X2);
	jx_fma_rr(&jc->x, vfm[i->flags & 3], i->sf == FT_D, X0, X1, X2);
	nan_check(jc, &f, i->sf, X0, X0);
	store_v(jc, X0, i->rd);
	fp_end(jc, &f, i);
	return true;
}

/* FMOV, FABS, FNEG (bit operations, any precision), FSQRT, FCVT between
 * single and double. op: exec_fp1's (0 mov, 1 abs, 2 neg, 3 sqrt, 4 cvt
 * to op2). */
static bool emit_fp1(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	struct fp_ins f;
	unsigned t = i->sf;
	if (i->op <= 2) {
		uint64_t sign = fp_sign_bit((enum fp_type)t);
		jx_load(j, 1u << t, false, JX_RAX, JC_CPU, JC_V(i->rn));
		if (i->op) {
			jx_mov_ri(j, JX_RCX, i->op == 1 ? ~sign : sign);
			jx_alu_rr(j, i->op == 1 ? JX_AND : JX_XOR, true, JX_RAX, JX_RCX);
		}
		store_v_gpr(jc, JX_RAX, i->rd);
		return true;
	}
	if (!is_sd(t) || i->op > 4 || (i->op == 4 && !is_sd(i->op2)))
		return false;
	fp_begin(jc, &f);
	load_v(jc, t, X0, i->rn);
	nan_check(jc, &f, t, X0, X0);
	if (i->op == 3) {
		jx_sse_rr(j, pfx(t), JX_SSE_SQRT, false, X0, X0);
		nan_check(jc, &f, t, X0, X0);
		store_v(jc, X0, i->rd);
	} else {
		/* the other precision's result over zeroed lanes */
		jx_sse_rr(j, 0, JX_SSE_XOR, false, X1, X1);
		jx_sse_rr(j, pfx(t), JX_SSE_CVTF2F, false, X1, X0);
		store_v(jc, X1, i->rd);
	}
	fp_end(jc, &f, i);
	return true;
}

/* FCMP, FCMPE (op: signalling; flags 2: against zero). The host's quiet
 * and signalling compares raise invalid exactly where Arm's do, so NaNs
 * need no handler. */
static bool emit_fcmp(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	static const int nzcv_regs[3] = { JX_RCX, JX_RDX, JX_R8 };
	struct jx *j = &jc->x;
	struct fp_ins f;
	unsigned t = i->sf;
	if (!is_sd(t))
		return false;
	fp_begin(jc, &f);
	load_v(jc, t, X0, i->rn);
	if (i->flags & 2)
		jx_sse_rr(j, 0, JX_SSE_XOR, false, X1, X1);
	else
		load_v(jc, t, X1, i->rm);
	for (int r = 0; r < 3; r++)
		jx_alu_rr(j, JX_XOR, false, nzcv_regs[r], nzcv_regs[r]);
	jx_sse_rr(j, t == FT_D ? 0x66 : 0, i->op ? JX_SSE_COMI : JX_SSE_UCOMI, false, X0, X1);
	/* (CF, ZF, PF) index a nibble table: greater 0 -> 0010, less 1 ->
	 * 1000, equal 2 -> 0110, unordered 7 -> 0011 */
	jx_setcc(j, JX_B, JX_RCX);
	jx_setcc(j, JX_E, JX_RDX);
	jx_setcc(j, JX_P, JX_R8);
	jx_shift_ri(j, JX_SHL, false, JX_RDX, 1);
	jx_shift_ri(j, JX_SHL, false, JX_R8, 2);
	jx_alu_rr(j, JX_OR, false, JX_RCX, JX_RDX);
	jx_alu_rr(j, JX_OR, false, JX_RCX, JX_R8);
	jx_shift_ri(j, JX_SHL, false, JX_RCX, 2);
	jx_mov_ri(j, JX_RAX, 0x30000682u);
	jx_shift_cl(j, JX_SHR, false, JX_RAX);
	jx_shift_ri(j, JX_SHL, false, JX_RAX, 28);
	jx_store(j, 4, JX_RAX, JC_CPU, JC_NZCV);
	fp_end(jc, &f, i);
	return true;
}

/* FCSEL: op2 = cond. */
static bool emit_fcsel(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	unsigned bytes = 1u << i->sf;
	jx_load(j, bytes, false, JX_RAX, JC_CPU, JC_V(i->rn));
	jx_load(j, bytes, false, JX_RSI, JC_CPU, JC_V(i->rm));
	if (i->op2 < 14)
		jx_cmov(j, jit_cond_test(j, i->op2) ^ 1, true, JX_RAX, JX_RSI);
	store_v_gpr(jc, JX_RAX, i->rd);
	return true;
}

/* FMOV (immediate): the expanded value is imm. */
static bool emit_fmovi(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	jx_mov_ri(&jc->x, JX_RAX, i->imm);
	store_v_gpr(jc, JX_RAX, i->rd);
	return true;
}

/* FMOV to a general register: op = precision, op2 = the top half. */
static bool emit_fmov_to(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	unsigned bytes = i->op2 ? 8 : 1u << i->op;
	jx_load(&jc->x, bytes, false, JX_RAX, JC_CPU, JC_V(i->rn) + (i->op2 ? 8 : 0));
	jit_put_x(jc, JX_RAX, i->rd, false);
	return true;
}

/* FMOV from a general register: the top half alone, or a scalar. */
static bool emit_fmov_from(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	jit_get_x(jc, JX_RAX, i->rn, false);
	if (i->op2) {
		jx_store(j, 8, JX_RAX, JC_CPU, JC_V(i->rd) + 8);
		return true;
	}
	if (i->op != FT_D)
		jx_ext_rr(j, 1u << i->op, false, JX_RAX, JX_RAX);
	store_v_gpr(jc, JX_RAX, i->rd);
	return true;
}

/* SCVTF, and UCVTF of a W register (zero-extended, it converts as a
 * signed X): op = precision, flags & 1 signed, imm = fraction bits. */
static bool emit_cvtf(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	struct fp_ins f;
	bool is_signed = i->flags & 1;
	if (!is_sd(i->op) || i->imm || (!is_signed && i->sf))
		return false;
	fp_begin(jc, &f);
	jit_get_x(jc, JX_RAX, i->rn, false);
	if (!i->sf)
		jx_ext_rr(j, 4, is_signed, JX_RAX, JX_RAX);
	jx_sse_rr(j, 0, JX_SSE_XOR, false, X0, X0);
	jx_sse_rr(j, pfx(i->op), JX_SSE_CVTI2F, true, X0, JX_RAX);
	store_v(jc, X0, i->rd);
	fp_end(jc, &f, i);
	return true;
}

/* FCVTZS to W or X (sf): the host's truncation; its "integer
 * indefinite" (out of range or NaN, or the most negative value itself)
 * goes to the handler, which saturates as Arm does. */
static bool emit_fcvtzs(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	struct fp_ins f;
	if (!is_sd(i->op) || i->imm || i->op2 != FR_Z || !(i->flags & 1))
		return false;
	fp_begin(jc, &f);
	load_v(jc, i->op, X0, i->rn);
	jx_sse_rr(j, pfx(i->op), JX_SSE_CVTTF2I, i->sf, JX_RAX, X0);
	if (i->sf) {
		jx_mov_ri(j, JX_RCX, 1ull << 63);
		jx_alu_rr(j, JX_CMP, true, JX_RAX, JX_RCX);
	} else {
		jx_alu_ri(j, JX_CMP, false, JX_RAX, INT32_MIN);
	}
	to_slow(jc, &f, JX_E);
	jit_put_x(jc, JX_RAX, i->rd, false);
	fp_end(jc, &f, i);
	return true;
}

/* Advanced SIMD FADD, FSUB, FMUL, FDIV, FMLA, FMLS on 2S, 4S and 2D
 * vectors (op: simd_fp.c's key of the operation, sf: lane size, flags 1:
 * Q, 2: scalar): packed SSE. Every NaN operand makes its lane's result a
 * NaN, so one test of the result finds what needs the handler. A 64-bit
 * vector's upper lanes compute zeros on the host, which raise no flag
 * except in a division (0/0), so FDIV .2S is the handler's. */
enum { V_FMLA = 1, V_FMLS = 2 };
static uint8_t vop_of[256]; /* key -> SSE opcode, V_FMLA, V_FMLS or 0 */

static bool emit_fp3v(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)k;
	struct jx *j = &jc->x;
	struct fp_ins f;
	bool q = i->flags & 1, dbl = i->sf == FT_D;
	uint8_t op = vop_of[i->op], pp = dbl ? 0x66 : 0, ld = q ? 0 : JX_PFX_D;
	int r = X0;
	if (!op || (i->flags & 2) || (i->sf != FT_S && !(dbl && q)) || (!q && op == JX_SSE_DIV) ||
	    (op <= V_FMLS && !jit_host_fma))
		return false;
	fp_begin(jc, &f);
	jx_sse_rm(j, ld, JX_SSE_LOAD, false, X0, JC_CPU, JC_V(i->rn));
	jx_sse_rm(j, ld, JX_SSE_LOAD, false, X1, JC_CPU, JC_V(i->rm));
	if (op <= V_FMLS) {
		jx_sse_rm(j, ld, JX_SSE_LOAD, false, X2, JC_CPU, JC_V(i->rd));
		jx_fma_rr(j, op == V_FMLA ? 0xb8 : 0xbc, dbl, X2, X0, X1);
		r = X2;
	} else {
		jx_sse_rr(j, pp, op, false, X0, X1);
	}
	jx_sse_rr(j, 0, JX_SSE_MOVAPS, false, X3, r);
	jx_sse_rr(j, pp, JX_SSE_CMP, false, X3, X3);
	jx_byte(j, 3); /* unordered */
	jx_sse_rr(j, pp, JX_SSE_MOVMSK, false, JX_RAX, X3);
	jx_test_rr(j, false, JX_RAX, JX_RAX);
	to_slow(jc, &f, JX_NE);
	store_v(jc, r, i->rd);
	fp_end(jc, &f, i);
	return true;
}

/* The keys of the vector operations, from their .4S forms. */
void jit_fp_init(void)
{
	static const struct {
		uint32_t word;
		uint8_t op;
	} ops[] = {
		{ 0x4e20d400, JX_SSE_ADD }, { 0x4ea0d400, JX_SSE_SUB }, { 0x6e20dc00, JX_SSE_MUL },
		{ 0x6e20fc00, JX_SSE_DIV }, { 0x4e20cc00, V_FMLA },	{ 0x4ea0cc00, V_FMLS },
	};
	for (size_t n = 0; n < sizeof(ops) / sizeof(ops[0]); n++) {
		struct a64_insn d;
		memset(&d, 0, sizeof(d));
		a64_decode(&d, ops[n].word, 0x10000);
		vop_of[d.op] = ops[n].op;
	}
}

/* Sample words: FADD S0, S0, S0; FMOV S0, S0; FCMP; FCSEL; FMOV #imm;
 * FMADD; FCVTZS W0, S0; SCVTF S0, W0; FMOV W0, S0 and back; FADD
 * V0.4S. */
const struct family jit_fp_families[] = {
	{ 0x1e202800, emit_fp2, { 0 }, { 0 } },
	{ 0x1e204000, emit_fp1, { 0 }, { 0 } },
	{ 0x1e202000, emit_fcmp, { 0 }, { 0 } },
	{ 0x1e200c00, emit_fcsel, { 0 }, { 0 } },
	{ 0x1e201000, emit_fmovi, { 0 }, { 0 } },
	{ 0x1f000000, emit_fma, { 0 }, { 0 } },
	{ 0x1e380000, emit_fcvtzs, { 0 }, { 0 } },
	{ 0x1e220000, emit_cvtf, { 0 }, { 0 } },
	{ 0x1e260000, emit_fmov_to, { 0 }, { 0 } },
	{ 0x1e270000, emit_fmov_from, { 0 }, { 0 } },
	{ 0x4e20d400, emit_fp3v, { 0 }, { 0 } },
};
const size_t jit_fp_nfamilies = sizeof(jit_fp_families) / sizeof(jit_fp_families[0]);

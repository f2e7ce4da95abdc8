// SPDX-License-Identifier: MIT
/* Advanced SIMD floating point (single and double lanes): three same,
 * two-register miscellaneous, across lanes, by element, scalar pairwise
 * and fixed-point conversions. Lane semantics come from fp_core.c. */
#include "aarch64-user/fp_core.h"
#include "aarch64-user/simd.h"

#define SF_Q 1
#define SF_SCALAR 2

/* Operands: sf = element size (2: S, 3: D), op = operation key
 * (U << 6 | a << 5 | opcode), flags as above. What simd_fp.decode names: */
enum { /* three same (and the operations of the pairwise and by-element forms) */
	K_ADDP = 0, /* the integer ADDP Dd, Vn.2D */
	K_MAXNM = 0x18, K_FMLA = 0x19, K_FADD = 0x1a, K_MULX = 0x1b, K_CMEQ = 0x1c, K_MAX = 0x1e,
	K_RECPS = 0x1f, K_MINNM = 0x38, K_FMLS = 0x39, K_FSUB = 0x3a, K_MIN = 0x3e, K_RSQRTS = 0x3f,
	K_MAXNMP = 0x58, K_FADDP = 0x5a, K_FMUL = 0x5b, K_CMGE = 0x5c, K_ACGE = 0x5d, K_MAXP = 0x5e,
	K_FDIV = 0x5f, K_MINNMP = 0x78, K_ABD = 0x7a, K_CMGT = 0x7c, K_ACGT = 0x7d, K_MINP = 0x7e,
};
enum { /* two-register miscellaneous */
	F1_FRINTN = 0x18, F1_FRINTM = 0x19, F1_FCVTNS = 0x1a, F1_FCVTMS = 0x1b, F1_FCVTAS = 0x1c,
	F1_SCVTF = 0x1d, F1_FCMGT0 = 0x2c, F1_FCMEQ0 = 0x2d, F1_FCMLT0 = 0x2e, F1_FABS = 0x2f,
	F1_FRINTP = 0x38, F1_FRINTZ = 0x39, F1_FCVTPS = 0x3a, F1_FCVTZS = 0x3b, F1_URECPE = 0x3c,
	F1_FRECPE = 0x3d, F1_FRINTA = 0x58, F1_FRINTX = 0x59, F1_FCVTNU = 0x5a, F1_FCVTMU = 0x5b,
	F1_FCVTAU = 0x5c, F1_UCVTF = 0x5d, F1_FCMGE0 = 0x6c, F1_FCMLE0 = 0x6d, F1_FNEG = 0x6f,
	F1_FRINTI = 0x79, F1_FCVTPU = 0x7a, F1_FCVTZU = 0x7b, F1_URSQRTE = 0x7c, F1_FRSQRTE = 0x7d,
	F1_FSQRT = 0x7f,
};

/* The decoder generated from simd_fp.decode (a64_decode_simd_fp, which decode.c
 * calls for its major group). */
#include "aarch64-user/simd_fp.decode.inc"

static inline unsigned nlanes(const struct a64_insn *i)
{
	if (i->flags & SF_SCALAR)
		return 1;
	return ((i->flags & SF_Q) ? 16u : 8u) >> i->sf;
}

/* Registers and shape; false when the lanes' size is not allowed. */
static bool fvec_operands(struct a64_insn *d, int64_t rd, int64_t rn, int64_t sz, int64_t q,
			  int64_t scalar, int64_t sizes)
{
	d->rd = (uint8_t)rd;
	d->rn = (uint8_t)rn;
	d->sf = (uint8_t)(2 + sz);
	d->flags = (uint8_t)(q | (scalar ? SF_SCALAR : 0));
	return simd_size_ok(sizes, d->sf, q);
}

static uint64_t fp3(struct a64_cpu *c, unsigned k, enum fp_type t, uint64_t a, uint64_t b,
		    uint64_t d)
{
	uint64_t s = fp_sign_bit(t), ones = t == FT_D ? ~0ull : 0xffffffffull;
	switch (k) {
	case K_MAXNM: case K_MAXNMP: return fp_op2(c, FO_MAXNM, t, a, b);
	case K_MINNM: case K_MINNMP: return fp_op2(c, FO_MINNM, t, a, b);
	case K_MAX: case K_MAXP: return fp_op2(c, FO_MAX, t, a, b);
	case K_MIN: case K_MINP: return fp_op2(c, FO_MIN, t, a, b);
	case K_FADD: case K_FADDP: return fp_op2(c, FO_ADD, t, a, b);
	case K_FSUB: return fp_op2(c, FO_SUB, t, a, b);
	case K_FMUL: return fp_op2(c, FO_MUL, t, a, b);
	case K_FDIV: return fp_op2(c, FO_DIV, t, a, b);
	case K_MULX: return fp_op2(c, FO_MULX, t, a, b);
	case K_RECPS: return fp_op2(c, FO_RECPS, t, a, b);
	case K_RSQRTS: return fp_op2(c, FO_RSQRTS, t, a, b);
	case K_ABD: return fp_op2(c, FO_ABD, t, a, b);
	case K_FMLA: return fp_fma(c, t, d, a, b);
	case K_FMLS: return fp_fma(c, t, d, a ^ s, b);
	case K_CMEQ: return fp_cmp_eq(c, t, a, b) ? ones : 0;
	case K_CMGE: return fp_cmp_ge(c, t, a, b) ? ones : 0;
	case K_CMGT: return fp_cmp_gt(c, t, a, b) ? ones : 0;
	case K_ACGE: return fp_cmp_ge(c, t, a & ~s, b & ~s) ? ones : 0;
	default: return fp_cmp_gt(c, t, a & ~s, b & ~s) ? ones : 0; /* ACGT */
	}
}

static bool pairwise(unsigned k)
{
	return k == K_MAXNMP || k == K_MINNMP || k == K_FADDP || k == K_MAXP || k == K_MINP;
}

static int exec_fp3v(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn], m = c->v[i->rm];
	unsigned es = i->sf, nl = nlanes(i), half = nl / 2;
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a, b;
		if (pairwise(i->op)) {
			const union a64_vreg *src = e < half ? &n : &m;
			a = lane_get(src, es, 2 * (e % half));
			b = lane_get(src, es, 2 * (e % half) + 1);
		} else {
			a = lane_get(&n, es, e);
			b = lane_get(&m, es, e);
		}
		lane_set(&r, es, e, fp3(c, i->op, (enum fp_type)es, a, b, lane_get(&c->v[i->rd], es, e)));
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_FP3(struct a64_insn *d, const struct args_fp3 *a)
{
	if (!fvec_operands(d, a->rd, a->rn, a->sz, a->q, a->scalar, SZ_SD))
		return false;
	d->rm = (uint8_t)a->rm;
	d->op = (uint8_t)a->op;
	d->fn = exec_fp3v;
	return true;
}

/* ---- two-register miscellaneous ------------------------------------------ */

static uint64_t fp1(struct a64_cpu *c, unsigned k, enum fp_type t, uint64_t a)
{
	uint64_t s = fp_sign_bit(t), ones = t == FT_D ? ~0ull : 0xffffffffull;
	unsigned w = t == FT_D ? 64 : 32;
	switch (k) {
	case F1_FRINTN: return fp_round_int(c, t, a, FR_N);
	case F1_FRINTM: return fp_round_int(c, t, a, FR_M);
	case F1_FRINTP: return fp_round_int(c, t, a, FR_P);
	case F1_FRINTZ: return fp_round_int(c, t, a, FR_Z);
	case F1_FRINTA: return fp_round_int(c, t, a, FR_A);
	case F1_FRINTX: return fp_round_int(c, t, a, FR_X);
	case F1_FRINTI: return fp_round_int(c, t, a, fp_fpcr_rmode(c));
	case F1_FCVTNS: return fp_to_int(c, t, a, FR_N, 0, true, w);
	case F1_FCVTMS: return fp_to_int(c, t, a, FR_M, 0, true, w);
	case F1_FCVTAS: return fp_to_int(c, t, a, FR_A, 0, true, w);
	case F1_FCVTPS: return fp_to_int(c, t, a, FR_P, 0, true, w);
	case F1_FCVTZS: return fp_to_int(c, t, a, FR_Z, 0, true, w);
	case F1_FCVTNU: return fp_to_int(c, t, a, FR_N, 0, false, w);
	case F1_FCVTMU: return fp_to_int(c, t, a, FR_M, 0, false, w);
	case F1_FCVTAU: return fp_to_int(c, t, a, FR_A, 0, false, w);
	case F1_FCVTPU: return fp_to_int(c, t, a, FR_P, 0, false, w);
	case F1_FCVTZU: return fp_to_int(c, t, a, FR_Z, 0, false, w);
	case F1_SCVTF: return fp_from_int(c, t, a, 0, true, w);
	case F1_UCVTF: return fp_from_int(c, t, a, 0, false, w);
	case F1_FCMGT0: return fp_cmp_gt(c, t, a, 0) ? ones : 0;
	case F1_FCMEQ0: return fp_cmp_eq(c, t, a, 0) ? ones : 0;
	case F1_FCMLT0: return fp_cmp_gt(c, t, 0, a) ? ones : 0;
	case F1_FCMGE0: return fp_cmp_ge(c, t, a, 0) ? ones : 0;
	case F1_FCMLE0: return fp_cmp_ge(c, t, 0, a) ? ones : 0;
	case F1_FRECPE: return fp_recpe(c, t, a);
	case F1_FRSQRTE: return fp_rsqrte(c, t, a);
	case F1_URECPE: return fp_urecpe((uint32_t)a);
	case F1_URSQRTE: return fp_ursqrte((uint32_t)a);
	case F1_FABS: return a & ~s;
	case F1_FNEG: return a ^ s;
	default: return fp_sqrt(c, t, a); /* FSQRT */
	}
}

static int exec_fp2misc(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = nlanes(i);
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++)
		lane_set(&r, es, e, fp1(c, i->op, (enum fp_type)es, lane_get(&n, es, e)));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* FCVTL (widen, reads the top half for the "2" form) and FCVTN (narrow,
 * writes the top half for "2"); sf = the wider element size. */
static int exec_fcvtl(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = 8u >> (es - 1), off = (i->flags & SF_Q) ? nl : 0;
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++)
		lane_set(&r, es, e, fp_convert(c, (enum fp_type)es, (enum fp_type)(es - 1),
					       lane_get(&n, es - 1, off + e)));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static int exec_fcvtn(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = 8u >> (es - 1), off = (i->flags & SF_Q) ? nl : 0;
	union a64_vreg r = c->v[i->rd];
	if (!off)
		memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++)
		lane_set(&r, es - 1, off + e, fp_convert(c, (enum fp_type)(es - 1), (enum fp_type)es,
							 lane_get(&n, es, e)));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_FP2(struct a64_insn *d, const struct args_fp2 *a)
{
	if (!fvec_operands(d, a->rd, a->rn, a->sz, a->q, a->scalar, a->sizes))
		return false;
	d->op = (uint8_t)a->op;
	d->fn = exec_fp2misc;
	return true;
}

/* The lanes of FCVTN's source and FCVTL's destination fill a 128-bit
 * vector whatever Q says (Q picks the half of the narrow side). */
static bool dec_FCVTN(struct a64_insn *d, const struct args_fp2 *a)
{
	fvec_operands(d, a->rd, a->rn, a->sz, a->q, a->scalar, a->sizes);
	d->fn = exec_fcvtn;
	return true;
}

static bool dec_FCVTL(struct a64_insn *d, const struct args_fp2 *a)
{
	fvec_operands(d, a->rd, a->rn, a->sz, a->q, a->scalar, a->sizes);
	d->fn = exec_fcvtl;
	return true;
}

/* ---- across lanes and scalar pairwise ------------------------------------ */

static int exec_facross(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	uint64_t v[4];
	for (int e = 0; e < 4; e++)
		v[e] = n.s[e];
	/* Arm reduces pairwise as a tree: (0 op 1) op (2 op 3) */
	uint64_t a = fp3(c, i->op, FT_S, v[0], v[1], 0), b = fp3(c, i->op, FT_S, v[2], v[3], 0);
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	r.s[0] = (uint32_t)fp3(c, i->op, FT_S, a, b, 0);
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_FACROSS(struct a64_insn *d, const struct args_FACROSS *a)
{
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->op = (uint8_t)a->op;
	d->fn = exec_facross;
	return true;
}

static int exec_pair_scalar(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf;
	uint64_t a = lane_get(&n, es, 0), b = lane_get(&n, es, 1), r;
	if (i->op == K_ADDP)
		r = a + b;
	else
		r = fp3(c, i->op, (enum fp_type)es, a, b, 0);
	union a64_vreg v;
	memset(&v, 0, sizeof(v));
	lane_set(&v, es, 0, r);
	c->v[i->rd] = v;
	return a64_next(c, i);
}

static bool dec_PAIR(struct a64_insn *d, const struct args_pair *a)
{
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->sf = (uint8_t)(2 + a->sz);
	d->op = (uint8_t)a->op;
	d->fn = exec_pair_scalar;
	return true;
}

/* ---- by element ---------------------------------------------------------- */

static int exec_felem(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = nlanes(i);
	uint64_t b = lane_get(&c->v[i->rm], es, (unsigned)i->imm);
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++)
		lane_set(&r, es, e, fp3(c, i->op, (enum fp_type)es, lane_get(&n, es, e), b,
					lane_get(&c->v[i->rd], es, e)));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_FELEM(struct a64_insn *d, const struct args_felem *a)
{
	if (!fvec_operands(d, a->rd, a->rn, a->sz, a->q, a->scalar, SZ_SD) ||
	    !a64_elem_index(d->sf, a->h, a->l, a->m, a->rm, &d->rm, &d->imm))
		return false;
	d->op = (uint8_t)a->op;
	d->fn = exec_felem;
	return true;
}

/* ---- fixed-point conversions (shift-immediate encodings) ------------------ */

int a64_exec_simd_fixed_cvt(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = nlanes(i), w = 8u << es;
	bool u = i->op >> 5, to_fp = (i->op & 31) == SIMD_CVT_TO_FP;
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a = lane_get(&n, es, e), x;
		if (to_fp)
			x = fp_from_int(c, (enum fp_type)es, a, (unsigned)i->imm, !u, w);
		else
			x = fp_to_int(c, (enum fp_type)es, a, FR_Z, (unsigned)i->imm, !u, w);
		lane_set(&r, es, e, x);
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

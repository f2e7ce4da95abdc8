// SPDX-License-Identifier: MIT
/* Scalar floating point: arithmetic, FMA, compares, selects, moves,
 * precision and integer conversions, rounding to integral. The semantics
 * live in fp_core.c; this file decodes and moves registers. */
#include "aarch64-user/fp_core.h"

/* The one-source operations of exec_fp1 (fp.decode names them). */
enum { F1_MOV, F1_ABS, F1_NEG, F1_SQRT, F1_CVT, F1_RINT };

/* The decoder generated from fp.decode (a64_decode_fp, which decode.c
 * calls for its major group). */
#include "aarch64-user/fp.decode.inc"

/* ftype: 00 single, 01 double, 11 half; 0 for the reserved 10. */
static int64_t fp_type(int64_t ty)
{
	static const uint8_t map[4] = { FT_S, FT_D, 0, FT_H };
	return map[ty & 3];
}

static int64_t fixed_fbits(int64_t scale)
{
	return 64 - scale;
}

static inline uint64_t vget(const struct a64_cpu *c, unsigned n, unsigned t)
{
	uint64_t v = c->v[n].d[0];
	return t == FT_D ? v : t == FT_S ? (uint32_t)v : (uint16_t)v;
}

/* Scalar writes clear the rest of the vector register. */
static inline void vset(struct a64_cpu *c, unsigned n, uint64_t v)
{
	c->v[n].d[0] = v;
	c->v[n].d[1] = 0;
}

static int exec_fp2(struct a64_cpu *c, const struct a64_insn *i)
{
	vset(c, i->rd, fp_op2(c, (enum fp_op2)i->op, (enum fp_type)i->sf,
			     vget(c, i->rn, i->sf), vget(c, i->rm, i->sf)));
	return a64_next(c, i);
}

static bool dec_FP2(struct a64_insn *d, const struct args_fp2 *a)
{
	if (!a->t)
		return false;
	d->sf = (uint8_t)a->t;
	d->op = (uint8_t)a->op;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	d->fn = exec_fp2;
	return true;
}

static int exec_fp1(struct a64_cpu *c, const struct a64_insn *i)
{
	unsigned t = i->sf;
	uint64_t a = vget(c, i->rn, t), r;
	switch (i->op) {
	case F1_MOV: r = a; break;
	case F1_ABS: r = a & ~fp_sign_bit((enum fp_type)t); break;
	case F1_NEG: r = a ^ fp_sign_bit((enum fp_type)t); break;
	case F1_SQRT: r = fp_sqrt(c, (enum fp_type)t, a); break;
	case F1_CVT: r = fp_convert(c, (enum fp_type)i->op2, (enum fp_type)t, a); break;
	default: {
		enum fp_rmode m = (enum fp_rmode)i->op2;
		/* FRINTI: the FPCR mode without the inexact flag */
		if (i->flags & 2)
			m = fp_fpcr_rmode(c);
		r = fp_round_int(c, (enum fp_type)t, a, m);
		break;
	}
	}
	vset(c, i->rd, r);
	return a64_next(c, i);
}

/* op2: the precision converted to (F1_CVT) or the rounding mode
 * (F1_RINT; flags 2: FPCR's). */
static bool dec_FP1(struct a64_insn *d, const struct args_fp1 *a)
{
	if (!a->t || (a->op == F1_CVT && a->to == a->t))
		return false;
	d->sf = (uint8_t)a->t;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->op = (uint8_t)a->op;
	d->op2 = (uint8_t)a->to;
	d->flags = a->fpcr ? 2 : 0;
	d->fn = exec_fp1;
	return true;
}

static int exec_fcmp(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t b = (i->flags & 2) ? 0 : vget(c, i->rm, i->sf);
	c->nzcv = fp_compare(c, (enum fp_type)i->sf, vget(c, i->rn, i->sf), b, i->op);
	return a64_next(c, i);
}

static bool dec_FCMP(struct a64_insn *d, const struct args_FCMP *a)
{
	if (!a->t)
		return false;
	d->sf = (uint8_t)a->t;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	d->op = (uint8_t)a->signal;
	d->flags = a->zero ? 2 : 0;
	d->fn = exec_fcmp;
	return true;
}

static int exec_fccmp(struct a64_cpu *c, const struct a64_insn *i)
{
	if (cond_holds(c->nzcv, i->op2))
		c->nzcv = fp_compare(c, (enum fp_type)i->sf, vget(c, i->rn, i->sf),
				     vget(c, i->rm, i->sf), i->op);
	else
		c->nzcv = (uint32_t)i->imm << 28;
	return a64_next(c, i);
}

static bool dec_FCCMP(struct a64_insn *d, const struct args_FCCMP *a)
{
	if (!a->t)
		return false;
	d->sf = (uint8_t)a->t;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	d->op = (uint8_t)a->signal;
	d->op2 = (uint8_t)a->cond;
	d->imm = (uint64_t)a->nzcv;
	d->fn = exec_fccmp;
	return true;
}

static int exec_fcsel(struct a64_cpu *c, const struct a64_insn *i)
{
	unsigned src = cond_holds(c->nzcv, i->op2) ? i->rn : i->rm;
	vset(c, i->rd, vget(c, src, i->sf));
	return a64_next(c, i);
}

static bool dec_FCSEL(struct a64_insn *d, const struct args_FCSEL *a)
{
	if (!a->t)
		return false;
	d->sf = (uint8_t)a->t;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	d->op2 = (uint8_t)a->cond;
	d->fn = exec_fcsel;
	return true;
}

static int exec_fmovi(struct a64_cpu *c, const struct a64_insn *i)
{
	vset(c, i->rd, i->imm);
	return a64_next(c, i);
}

static bool dec_FMOV_i(struct a64_insn *d, const struct args_FMOV_i *a)
{
	if (!a->t)
		return false;
	d->sf = (uint8_t)a->t;
	d->rd = (uint8_t)a->rd;
	d->imm = fp_expand_imm8((enum fp_type)d->sf, (unsigned)a->imm8);
	d->fn = exec_fmovi;
	return true;
}

/* FMADD/FMSUB/FNMADD/FNMSUB: flags&1 negates Rn, flags&2 negates Ra. */
static int exec_fma3(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t s = fp_sign_bit((enum fp_type)i->sf);
	uint64_t a = vget(c, i->ra, i->sf), n = vget(c, i->rn, i->sf);
	if (i->flags & 1)
		n ^= s;
	if (i->flags & 2)
		a ^= s;
	vset(c, i->rd, fp_fma(c, (enum fp_type)i->sf, a, n, vget(c, i->rm, i->sf)));
	return a64_next(c, i);
}

static bool dec_FMA(struct a64_insn *d, const struct args_fma *a)
{
	if (!a->t)
		return false;
	d->sf = (uint8_t)a->t;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	d->ra = (uint8_t)a->ra;
	d->flags = (uint8_t)a->neg;
	d->fn = exec_fma3;
	return true;
}

/* ---- conversions with general registers --------------------------------- */

/* FCVT[NPMZA][SU]: op2 = rounding mode, flags&1 signed, imm = fbits. */
static int exec_fcvt_int(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t r = fp_to_int(c, (enum fp_type)i->op, vget(c, i->rn, i->op), (enum fp_rmode)i->op2,
			       (unsigned)i->imm, i->flags & 1, i->sf ? 64 : 32);
	wx(c, i->rd, r);
	return a64_next(c, i);
}

static int exec_cvtf(struct a64_cpu *c, const struct a64_insn *i)
{
	vset(c, i->rd, fp_from_int(c, (enum fp_type)i->op, xr(c, i->rn), (unsigned)i->imm,
				   i->flags & 1, i->sf ? 64 : 32));
	return a64_next(c, i);
}

static int exec_fmov_to_gen(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t v = i->op2 ? c->v[i->rn].d[1] : vget(c, i->rn, i->op);
	wx(c, i->rd, v);
	return a64_next(c, i);
}

static int exec_fmov_from_gen(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t v = xr(c, i->rn);
	if (i->op2) {
		c->v[i->rd].d[1] = v; /* FMOV Vd.D[1], Xn keeps the low half */
		return a64_next(c, i);
	}
	vset(c, i->rd, i->op == FT_D ? v : i->op == FT_S ? (uint32_t)v : (uint16_t)v);
	return a64_next(c, i);
}

/* Conversions: sf = the general register is 64-bit, op = precision,
 * op2 = rounding mode, flags&1 = signed, imm = fraction bits. */
static bool cvt_operands(struct a64_insn *d, const struct args_cvt *a, a64_fn fn)
{
	if (!a->t || (!a->sf && a->fbits > 32))
		return false;
	d->sf = (uint8_t)a->sf;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->op = (uint8_t)a->t;
	d->op2 = (uint8_t)a->mode;
	d->flags = !a->u;
	d->imm = (uint64_t)a->fbits;
	d->fn = fn;
	return true;
}

static bool dec_FCVT_int(struct a64_insn *d, const struct args_cvt *a)
{
	return cvt_operands(d, a, exec_fcvt_int);
}

static bool dec_CVTF(struct a64_insn *d, const struct args_cvt *a)
{
	return cvt_operands(d, a, exec_cvtf);
}

/* op2: the top half of V (FMOV Xd, Vn.D[1] and back). */
static bool fmov_operands(struct a64_insn *d, const struct args_fmov *a, a64_fn fn)
{
	d->sf = (uint8_t)a->sf;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->op = (uint8_t)a->t;
	d->op2 = (uint8_t)a->top;
	d->fn = fn;
	return true;
}

static bool dec_FMOV_to(struct a64_insn *d, const struct args_fmov *a)
{
	return fmov_operands(d, a, exec_fmov_to_gen);
}

static bool dec_FMOV_from(struct a64_insn *d, const struct args_fmov *a)
{
	return fmov_operands(d, a, exec_fmov_from_gen);
}

static bool dec_FCVT_fixed(struct a64_insn *d, const struct args_cvt *a)
{
	return cvt_operands(d, a, exec_fcvt_int);
}

static bool dec_CVTF_fixed(struct a64_insn *d, const struct args_cvt *a)
{
	return cvt_operands(d, a, exec_cvtf);
}

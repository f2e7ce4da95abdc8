// SPDX-License-Identifier: MIT
/* Scalar floating point: arithmetic, FMA, compares, selects, moves,
 * precision and integer conversions, rounding to integral. The semantics
 * live in fp_core.c; this file decodes and moves registers. */
#include "aarch64-user/fp_core.h"

/* ftype field (bits 23:22): 00 single, 01 double, 11 half. */
static bool fp_type_of(unsigned ty, uint8_t *t)
{
	static const uint8_t map[4] = { FT_S, FT_D, 0, FT_H };
	*t = map[ty];
	return *t != 0;
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

static bool dec_fp2(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 15, 12);
	if (opc > 8 || !fp_type_of(bits(w, 23, 22), &d->sf))
		return false;
	d->op = (uint8_t)opc; /* same numbering as enum fp_op2 */
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->fn = exec_fp2;
	return true;
}

enum { F1_MOV, F1_ABS, F1_NEG, F1_SQRT, F1_CVT, F1_RINT };

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

static bool dec_fp1(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 20, 15);
	if (!fp_type_of(bits(w, 23, 22), &d->sf))
		return false;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->fn = exec_fp1;
	if (opc <= 3) {
		d->op = (uint8_t)opc;
		return true;
	}
	if (opc >= 4 && opc <= 7) { /* FCVT to single/double/-/half */
		static const uint8_t to[4] = { FT_S, FT_D, 0, FT_H };
		d->op = F1_CVT;
		d->op2 = to[opc & 3];
		return d->op2 && d->op2 != d->sf;
	}
	/* FRINTN P M Z A - X I (opcode 8..15) */
	static const int8_t mode[8] = { FR_N, FR_P, FR_M, FR_Z, FR_A, -1, FR_X, FR_N };
	if (opc >= 8 && opc <= 15 && mode[opc - 8] >= 0) {
		d->op = F1_RINT;
		d->op2 = (uint8_t)mode[opc - 8];
		d->flags = opc == 15 ? 2 : 0;
		return true;
	}
	return false;
}

static int exec_fcmp(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t b = (i->flags & 2) ? 0 : vget(c, i->rm, i->sf);
	c->nzcv = fp_compare(c, (enum fp_type)i->sf, vget(c, i->rn, i->sf), b, i->op);
	return a64_next(c, i);
}

static bool dec_fcmp(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	if (!fp_type_of(bits(w, 23, 22), &d->sf) || bits(w, 2, 0) || bits(w, 15, 14))
		return false;
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->op = bit(w, 4);
	d->flags = bit(w, 3) ? 2 : 0;
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

static bool dec_fccmp(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	if (!fp_type_of(bits(w, 23, 22), &d->sf))
		return false;
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->op = bit(w, 4);
	d->op2 = bits(w, 15, 12);
	d->imm = bits(w, 3, 0);
	d->fn = exec_fccmp;
	return true;
}

static int exec_fcsel(struct a64_cpu *c, const struct a64_insn *i)
{
	unsigned src = cond_holds(c->nzcv, i->op2) ? i->rn : i->rm;
	vset(c, i->rd, vget(c, src, i->sf));
	return a64_next(c, i);
}

static bool dec_fcsel(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	if (!fp_type_of(bits(w, 23, 22), &d->sf))
		return false;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->op2 = bits(w, 15, 12);
	d->fn = exec_fcsel;
	return true;
}

static int exec_fmovi(struct a64_cpu *c, const struct a64_insn *i)
{
	vset(c, i->rd, i->imm);
	return a64_next(c, i);
}

static bool dec_fmovi(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	if (!fp_type_of(bits(w, 23, 22), &d->sf) || bits(w, 9, 5))
		return false;
	d->rd = bits(w, 4, 0);
	d->imm = fp_expand_imm8((enum fp_type)d->sf, bits(w, 20, 13));
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

static bool dec_fma3(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	if (!fp_type_of(bits(w, 23, 22), &d->sf))
		return false;
	unsigned o1 = bit(w, 21), o0 = bit(w, 15);
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->ra = bits(w, 14, 10);
	d->flags = (uint8_t)((o1 ^ o0) | (o1 << 1));
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

static bool dec_fp_int(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned ty = bits(w, 23, 22), rmode = bits(w, 20, 19), opc = bits(w, 18, 16);
	uint8_t t;
	d->sf = bit(w, 31);
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	if (opc >= 6) { /* FMOV */
		bool top = ty == 2 && rmode == 1 && d->sf;
		if (top) {
			d->op = FT_D;
			d->op2 = 1;
		} else {
			if (rmode || !fp_type_of(ty, &t))
				return false;
			if ((t == FT_S && d->sf) || (t == FT_D && !d->sf))
				return false;
			d->op = t;
		}
		d->fn = opc == 6 ? exec_fmov_to_gen : exec_fmov_from_gen;
		return true;
	}
	if (!fp_type_of(ty, &t))
		return false;
	d->op = t;
	d->flags = !(opc & 1);
	if (opc == 2 || opc == 3) {
		if (rmode)
			return false;
		d->fn = exec_cvtf;
		return true;
	}
	if (opc >= 4) {
		if (rmode)
			return false;
		d->op2 = FR_A;
	} else {
		d->op2 = (uint8_t)rmode; /* N P M Z */
	}
	d->fn = exec_fcvt_int;
	return true;
}

static bool dec_fp_fixed(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned rmode = bits(w, 20, 19), opc = bits(w, 18, 16), scale = bits(w, 15, 10);
	uint8_t t;
	d->sf = bit(w, 31);
	if (!fp_type_of(bits(w, 23, 22), &t) || (!d->sf && scale < 32))
		return false;
	d->op = t;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->imm = 64 - scale;
	d->flags = !(opc & 1);
	if (rmode == 3 && opc <= 1) {
		d->op2 = FR_Z;
		d->fn = exec_fcvt_int;
		return true;
	}
	if (rmode == 0 && (opc == 2 || opc == 3)) {
		d->fn = exec_cvtf;
		return true;
	}
	return false;
}

struct a64_pattern a64_fp_table[] = {
	A64_ROW("x 0 0 11110 xx 1 xx xxx 000000 xxxxx xxxxx", dec_fp_int),
	A64_ROW("x 0 0 11110 xx 0 xx xxx xxxxxx xxxxx xxxxx", dec_fp_fixed),
	A64_ROW("0 0 0 11110 xx 1 xxxxx xxxx 01 xxxxx x xxxx", dec_fccmp),
	A64_ROW("0 0 0 11110 xx 1 xxxxx xxxx 11 xxxxx xxxxx", dec_fcsel),
	A64_ROW("0 0 0 11110 xx 1 xxxxx xxxx 10 xxxxx xxxxx", dec_fp2),
	A64_ROW("0 0 0 11110 xx 1 xxxxxx 10000 xxxxx xxxxx", dec_fp1),
	A64_ROW("0 0 0 11110 xx 1 xxxxx xx 1000 xxxxx xxxxx", dec_fcmp),
	A64_ROW("0 0 0 11110 xx 1 xxxxxxxx 100 xxxxx xxxxx", dec_fmovi),
	A64_ROW("0 0 0 11111 xx x xxxxx x xxxxx xxxxx xxxxx", dec_fma3),
	A64_END_TABLE,
};

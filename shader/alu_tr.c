// SPDX-License-Identifier: MIT
/*
 * Transcendental helpers. Mesa (and the DDK) build 1/x and 1/sqrt(x)
 * from a table approximation of the mantissa's reciprocal, FREXPM /
 * FREXPE to split the argument, and Newton steps in FMA_RSCALE:
 *
 *   x1 = FRCP_APPROX(s)            ~ 1/m       with s = m * 2^E
 *   t  = FMA_RSCALE(m, -x1, 1, 0)  = 1 - m * x1
 *   r  = FMA_RSCALE(t, x1, x1, -E) = (x1 + x1 * t) * 2^-E
 *
 * The tables themselves are undocumented, so the approximations here are
 * correctly rounded; the Newton steps then give the correctly rounded
 * result the hardware's sequence aims for. Zero, infinite and NaN
 * arguments go through the same formulas, and the "special" modifier
 * that adjusts them on hardware is not modelled.
 */
#include "shader/alu.h"

/* frexp of an f32: sign-carrying mantissa bits and exponent. Modes:
 * plain m in [0.5, 1); sqrt: exponent made even, m in [0.5, 2), and
 * the exponent halved; log: m in [0.75, 1.5). Specials: m = x, e = 0. */
static void frexp32(uint32_t x, bool sqrt, bool log, uint32_t *m, int32_t *e)
{
	uint32_t sign = x & 0x80000000u, mant = x & 0x7fffff;
	int ex = (x >> 23) & 0xff;

	*m = x;
	*e = 0;
	if (ex == 0xff || !(x & 0x7fffffff))
		return;
	if (!ex) {
		/* normalise a denormal */
		int sh = __builtin_clz(mant) - 8;

		mant = (mant << sh) & 0x7fffff;
		ex = 1 - sh;
	}
	int E = ex - 126;  /* x = 0.1mmm (binary) * 2^E */
	int be = 126;      /* mantissa in [0.5, 1) */

	if (sqrt && (E & 1)) {
		be++;
		E--;
	} else if (log && mant < 0x400000) {
		be++; /* below 0.75: use [1, 1.5) */
		E--;
	}
	*m = sign | (uint32_t)be << 23 | mant;
	*e = sqrt ? E / 2 : E;
}

static void frexp_mods(const struct op *o, bool *sqrt, bool *log)
{
	*sqrt = mod(o, BI_MOD_SQRT, BI_O_NONE) == BI_O_SQRT;
	*log = mod(o, BI_MOD_LOG, BI_O_NONE) == BI_O_LOG;
}

/* f32 source with widen and abs/neg (FREXPE's neg negates the result). */
static uint32_t src_f32(const struct op *o, bool apply_neg)
{
	uint32_t v = raw(o, 0);
	uint16_t wd = mod(o, BI_MOD_WIDEN0, BI_O_NONE);

	if (wd == BI_O_H0 || wd == BI_O_H1)
		v = bi_fp_convert(&bi_f32, &bi_f16, wd == BI_O_H0 ? v & 0xffff : v >> 16,
				  BI_RM_RTE, false);
	if (mod(o, BI_MOD_ABS0, BI_O_NONE) == BI_O_ABS)
		v &= 0x7fffffffu;
	if (apply_neg && mod(o, BI_MOD_NEG0, BI_O_NONE) == BI_O_NEG)
		v ^= 0x80000000u;
	return v;
}

/* FREXPM (mantissa, neg applies to the input) or FREXPE (exponent,
 * neg negates the result, which is how 1/x gets -E). */
static uint32_t frexp_op(const struct op *o, bool exponent)
{
	bool sq, lg, neg = mod(o, BI_MOD_NEG0, BI_O_NONE) == BI_O_NEG;
	uint32_t m;
	int32_t e;

	frexp_mods(o, &sq, &lg);
	frexp32(src_f32(o, !exponent), sq, lg, &m, &e);
	if (!exponent)
		return m;
	return (uint32_t)(neg ? -e : e);
}

/* FMA_RSCALE / FADD_RSCALE: one rounding of (a * b + c) * 2^n. */
static uint32_t rscale(const struct op *o, bool add)
{
	uint32_t a = alu_fsrc(o, 0), b, c;
	int32_t n;
	uint32_t r;

	if (add) {
		b = 0x3f800000u;
		c = alu_fsrc(o, 1);
		n = (int32_t)raw(o, 2);
	} else {
		b = alu_fsrc(o, 1);
		c = alu_fsrc(o, 2);
		n = (int32_t)raw(o, 3);
	}
	n = n > 300 ? 300 : n < -300 ? -300 : n;
	r = bi_fp_fma_scaled(&bi_f32, a, b, c, true, n, bi_round_mode(o->ins),
			     o->x->ftz);
	return bi_fp_clamp(&bi_f32, r, alu_clamp_of(o));
}

static uint32_t bi_ilogb(uint32_t x, bool as_float)
{
	uint32_t m;
	int32_t e;

	if (bi_fp_is_nan(&bi_f32, x))
		return as_float ? bi_fp_quiet(&bi_f32, x) : 0x80000000u;
	if (!(x & 0x7fffffff))
		return as_float ? 0xff800000u : 0x80000000u;
	if ((x & 0x7fffffff) == 0x7f800000u)
		return as_float ? 0x7f800000u : 0x7fffffffu;
	frexp32(x, false, false, &m, &e);
	return as_float ? bi_fp_from_int(&bi_f32, e - 1, BI_RM_RTE) : (uint32_t)(e - 1);
}

/* 2^(k/16) rounded to f32, k = 0..15: the exp2 sequence's table of the
 * fraction's top four bits (adds 0x49400000 to put them in the low
 * mantissa bits, looks them up here and scales by the integer part). */
static const uint32_t exp2_16ths[16] = {
	0x3f800000, 0x3f85aac3, 0x3f8b95c2, 0x3f91c3d3, 0x3f9837f0, 0x3f9ef532,
	0x3fa5fed7, 0x3fad583f, 0x3fb504f3, 0x3fbd08a4, 0x3fc5672a, 0x3fce248c,
	0x3fd744fd, 0x3fe0ccdf, 0x3feac0c7, 0x3ff5257d,
};

bool bi_exec_alu_tr(const struct op *o, uint32_t *out)
{
	bool ftz = o->x->ftz;
	uint32_t a;

	switch (o->ins->desc->op) {
	case BI_OP_FRCP_APPROX_F32:
		*out = bi_fp_recip(&bi_f32, frexp_op(o, false), false, BI_RM_RTE, ftz);
		return true;
	case BI_OP_FRSQ_APPROX_F32: {
		uint32_t m;
		int32_t e;

		frexp32(src_f32(o, true), true, false, &m, &e);
		*out = bi_fp_recip(&bi_f32, m, true, BI_RM_RTE, ftz);
		return true;
	}
	case BI_OP_FRCP_F32:
	case BI_OP_FRSQ_F32:
		*out = bi_fp_recip(&bi_f32, alu_fsrc(o, 0),
				   o->ins->desc->op == BI_OP_FRSQ_F32, BI_RM_RTE, ftz);
		return true;
	case BI_OP_FRCP_F16:
	case BI_OP_FRSQ_F16:
		a = alu_select_lane(raw(o, 0), mod(o, BI_MOD_LANE0, BI_O_H0), false);
		if (mod(o, BI_MOD_ABS0, BI_O_NONE) == BI_O_ABS)
			a &= 0x7fff;
		if (mod(o, BI_MOD_NEG0, BI_O_NONE) == BI_O_NEG)
			a ^= 0x8000;
		*out = bi_fp_recip(&bi_f16, a, o->ins->desc->op == BI_OP_FRSQ_F16,
				   BI_RM_RTE, ftz);
		return true;
	case BI_OP_FREXPM_F32:
	case BI_OP_FREXPE_F32:
		*out = frexp_op(o, o->ins->desc->op == BI_OP_FREXPE_F32);
		return true;
	case BI_OP_FMA_RSCALE_F32:
		*out = rscale(o, false);
		return true;
	case BI_OP_FADD_RSCALE_F32:
		*out = rscale(o, true);
		return true;
	case BI_OP_FEXP_TABLE_U4:
		/* the adj variants (small/low) are not modelled */
		*out = exp2_16ths[raw(o, 0) & 15];
		return true;
	case BI_OP_ILOGB_F32:
	case BI_OP_LOGB_F32:
		*out = bi_ilogb(src_f32(o, false), o->ins->desc->op == BI_OP_LOGB_F32);
		return true;
	default:
		return false;
	}
}

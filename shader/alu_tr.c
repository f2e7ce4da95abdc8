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
 * arguments go through the same formulas; FMA_RSCALE's special=n (zero
 * times infinity is zero) keeps 1/0 and 1/inf right, its "left" and
 * "scale16" modes are not modelled.
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
	/* special=n (Mesa's first Newton step of 1/x and 1/sqrt(x) on G71,
	 * ARM's rcp_mode): a zero times an infinity counts as zero, so
	 * 1/0 and 1/inf come out as inf and 0 instead of NaN */
	if (!add && mod(o, BI_MOD_SPECIAL, BI_O_NONE) == BI_O_N &&
	    (((a & 0x7fffffff) == 0 && (b & 0x7fffffff) == 0x7f800000u) ||
	     ((a & 0x7fffffff) == 0x7f800000u && (b & 0x7fffffff) == 0))) {
		a = (a ^ b) & 0x80000000u;
		b = 0x3f800000u;
	}
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

/*
 * sin(k * pi/32), k = 0..16 (a quarter wave; the rest by symmetry): the
 * sin/cos sequence scales x by 2/pi and biases it so the low six
 * mantissa bits index 64 points per turn, looks both up here and
 * corrects with a Taylor step on the remainder.
 */
static const uint32_t sin_32ths[17] = {
	0x00000000, 0x3dc8bd36, 0x3e47c5c2, 0x3e94a031, 0x3ec3ef15, 0x3ef15aea,
	0x3f0e39da, 0x3f226799, 0x3f3504f3, 0x3f45e403, 0x3f54db31, 0x3f61c598,
	0x3f6c835e, 0x3f74fa0b, 0x3f7b14be, 0x3f7ec46d, 0x3f800000,
};

static uint32_t sin_u6(unsigned k)
{
	k &= 63;
	if (k < 16)
		return sin_32ths[k];
	if (k < 32)
		return sin_32ths[32 - k];
	return sin_u6(k - 32) ^ (k == 32 ? 0 : 0x80000000u);
}

/*
 * The log sequence splits x = a1 * 2^e with a1 in [0.75, 1.5) and looks
 * up, for c = a1 rounded to 1/64, the reduction factor 1/c (mode "red")
 * and log2(c) or ln(c) (modes "base2", "natural"); a series on
 * a1 / c - 1 does the rest. Tables for c = 48/64 .. 96/64.
 */
static const uint32_t rcp_64ths[49] = {
	0x3faaaaab, 0x3fa72f05, 0x3fa3d70a, 0x3fa0a0a1, 0x3f9d89d9, 0x3f9a90e8,
	0x3f97b426, 0x3f94f209, 0x3f924925, 0x3f8fb824, 0x3f8d3dcb, 0x3f8ad8f3,
	0x3f888889, 0x3f864b8a, 0x3f842108, 0x3f820821, 0x3f800000, 0x3f7c0fc1,
	0x3f783e10, 0x3f74898d, 0x3f70f0f1, 0x3f6d7304, 0x3f6a0ea1, 0x3f66c2b4,
	0x3f638e39, 0x3f607038, 0x3f5d67c9, 0x3f5a740e, 0x3f579436, 0x3f54c77b,
	0x3f520d21, 0x3f4f6475, 0x3f4ccccd, 0x3f4a4588, 0x3f47ce0c, 0x3f4565c8,
	0x3f430c31, 0x3f40c0c1, 0x3f3e82fa, 0x3f3c5264, 0x3f3a2e8c, 0x3f381703,
	0x3f360b61, 0x3f340b41, 0x3f321643, 0x3f302c0b, 0x3f2e4c41, 0x3f2c7692,
	0x3f2aaaab,
};

static const uint32_t log2_64ths[49] = {
	0xbed47fcc, 0xbec544c0, 0xbeb6587b, 0xbea7b7de, 0xbe995ff7, 0xbe8b4e03,
	0xbe7afec5, 0xbe5fe33d, 0xbe4544c0, 0xbe2b1ee1, 0xbe116d6e, 0xbdf058d7,
	0xbdbeb025, 0xbd8dd995, 0xbd3b9ca6, 0xbcba1f74, 0x00000000, 0x3cb73cb4,
	0x3d35d69c, 0x3d8759c5, 0x3db31fb8, 0x3dde4212, 0x3e0462c4, 0x3e19574f,
	0x3e2e00d2, 0x3e42615f, 0x3e567af1, 0x3e6a4f72, 0x3e7de0b6, 0x3e88983f,
	0x3e92203d, 0x3e9b8926, 0x3ea4d3c2, 0x3eae00d2, 0x3eb7110e, 0x3ec0052b,
	0x3ec8ddd4, 0x3ed19bb0, 0x3eda3f60, 0x3ee2c97d, 0x3eeb3a9f, 0x3ef39355,
	0x3efbd42b, 0x3f01fed4, 0x3f060828, 0x3f0a0650, 0x3f0df989, 0x3f11e20f,
	0x3f15c01a,
};

static const uint32_t ln_64ths[49] = {
	0xbe934b11, 0xbe88bc74, 0xbe7cc8e3, 0xbe6881c0, 0xbe549f6a, 0xbe411e0b,
	0xbe2dfa03, 0xbe1b2fe6, 0xbe08bc74, 0xbded393b, 0xbdc99af3, 0xbda6988b,
	0xbd842cc6, 0xbd44a551, 0xbd020aec, 0xbc8102b3, 0x00000000, 0x3c7e0546,
	0x3cfc14d8, 0x3d3ba2c8, 0x3d785186, 0x3d9a0ebd, 0x3db78694, 0x3dd4936a,
	0x3df1383b, 0x3e06bbf4, 0x3e14aa98, 0x3e22695b, 0x3e2ff984, 0x3e3d5c48,
	0x3e4a92d5, 0x3e579e4a, 0x3e647fbe, 0x3e71383b, 0x3e7dc8c3, 0x3e851927,
	0x3e8b3ae5, 0x3e914a10, 0x3e974716, 0x3e9d3263, 0x3ea30c5e, 0x3ea8d56c,
	0x3eae8dee, 0x3eb43641, 0x3eb9cec0, 0x3ebf57c2, 0x3ec4d19c, 0x3eca3ca1,
	0x3ecf991f,
};

static uint32_t log_table(const struct op *o)
{
	uint16_t mode = mod(o, BI_MOD_MODE, BI_O_RED);
	uint32_t x = src_f32(o, true), m;
	int32_t e;
	unsigned k;

	if (bi_fp_is_nan(&bi_f32, x))
		return bi_fp_quiet(&bi_f32, x);
	if ((x & 0x80000000u) && (x & 0x7fffffff))
		return F32_QNAN;
	if (!(x & 0x7fffffff) || x == 0x7f800000u)
		return mode == BI_O_RED ? 0x3f800000u : (x ? 0x7f800000u : 0xff800000u);
	frexp32(x, false, true, &m, &e);
	/* c = a1 rounded to 1/64: a1 = 1.mant * 2^(be - 127), be 126/127 */
	k = (unsigned)(((uint64_t)((m & 0x7fffff) | 0x800000) * 64 +
			(1u << (((m >> 23) & 0xff) == 127 ? 22 : 23))) >>
		       (((m >> 23) & 0xff) == 127 ? 23 : 24));
	k = k < 48 ? 48 : k > 96 ? 96 : k;
	if (mode == BI_O_RED)
		return rcp_64ths[k - 48];
	return mode == BI_O_NATURAL ? ln_64ths[k - 48] : log2_64ths[k - 48];
}

/*
 * FLOGD: log2(a1) / (a1 - 1) for the log-mode mantissa a1 of x, so that
 * FMA(FLOGD(x), FADD_LSCALE(-1, x), e) = e + log2(a1) = log2(x).
 */
static uint32_t flogd(uint32_t x)
{
	uint32_t m;
	int32_t e;

	if (bi_fp_is_nan(&bi_f32, x))
		return bi_fp_quiet(&bi_f32, x);
	if ((x & 0x80000000u) && (x & 0x7fffffff))
		return F32_QNAN;
	if (!(x & 0x7fffffff) || x == 0x7f800000u)
		return 0x7f800000u;
	frexp32(x, false, true, &m, &e);
	return bi_fp_log2_ratio((m & 0x7fffff) | 0x800000,
				(int32_t)((m >> 23) & 0xff) - 150);
}

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
	case BI_OP_FEXP_F32:
		/* 8:24 fixed-point exponent; the float it came from decides
		 * the special cases: NaN, and exponents beyond the fixed-point
		 * range (|a| >= 128) overflow to infinity or underflow to 0 */
		a = raw(o, 1);
		if (bi_fp_is_nan(&bi_f32, a))
			*out = bi_fp_quiet(&bi_f32, a);
		else if ((a & 0x7fffffff) >= 0x43000000u) /* |a| >= 128 */
			*out = a >> 31 ? 0 : 0x7f800000u;
		else
			*out = bi_fp_exp2_fixed((int32_t)raw(o, 0), BI_RM_RTE, ftz);
		return true;
	case BI_OP_FLOGD_F32:
		*out = flogd(raw(o, 0));
		return true;
	case BI_OP_FADD_LSCALE_F32: {
		uint32_t m;
		int32_t e;

		frexp32(alu_fsrc(o, 1), false, true, &m, &e);
		*out = bi_f32_add(alu_fsrc(o, 0), m, BI_RM_RTE, ftz);
		return true;
	}
	case BI_OP_FSIN_TABLE_U6:
		*out = sin_u6(raw(o, 0));
		return true;
	case BI_OP_FCOS_TABLE_U6:
		*out = sin_u6(raw(o, 0) + 16);
		return true;
	case BI_OP_FLOG_TABLE_F32:
		*out = log_table(o);
		return true;
	case BI_OP_ILOGB_F32:
	case BI_OP_LOGB_F32:
		*out = bi_ilogb(src_f32(o, false), o->ins->desc->op == BI_OP_LOGB_F32);
		return true;
	default:
		return false;
	}
}

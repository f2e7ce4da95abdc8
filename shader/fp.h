/* SPDX-License-Identifier: MIT */
/*
 * Bit-exact IEEE-754 binary32/binary16 arithmetic for the interpreter,
 * written without libm or host floating point so results do not depend
 * on the host FPU, compiler flags or rounding state.
 *
 * Values are passed as raw bits. Every operation rounds once (FMA is
 * fused), honours the rounding mode and optionally flushes denormal
 * inputs and outputs to zero. NaN results are the first NaN operand,
 * quieted, else the default NaN: the choice Arm makes with default-NaN
 * mode off (an assumption for Mali, where the ISA description is silent).
 */
#ifndef VGPU_SHADER_FP_H
#define VGPU_SHADER_FP_H

#include "os/os.h"

enum bi_rm {
	BI_RM_RTE = 0, /* nearest, ties to even */
	BI_RM_RTP,     /* toward +inf */
	BI_RM_RTN,     /* toward -inf */
	BI_RM_RTZ,     /* toward zero */
	BI_RM_RTNA,    /* nearest, ties away from zero */
	BI_RM_RTO,     /* to odd (for wider emulation) */
};

/* A floating-point format: f32 or f16. */
struct bi_fmt {
	uint8_t mbits, ebits;
};
extern const struct bi_fmt bi_f32, bi_f16;

#define F32_QNAN 0x7fc00000u
#define F16_QNAN 0x7e00u

/* a * b + c. @has_c false computes a plain product (so -0 addends do
 * not change the sign of zero products in RTN). */
uint32_t bi_fp_fma(const struct bi_fmt *f, uint32_t a, uint32_t b, uint32_t c,
		   bool has_c, enum bi_rm rm, bool ftz);

/*
 * Rounds (-1)^neg * r * 2^e (r != 0) into @f. Bit 0 of @r acts as a
 * sticky bit, so callers keep at least one bit of margin below the value.
 */
uint32_t bi_fp_pack(const struct bi_fmt *f, bool neg, unsigned __int128 r,
		    int e, enum bi_rm rm, bool ftz);

/*
 * The general cores bi_fp_pack and bi_fp_fma_scaled fall back to (their
 * fast paths take normal operands and results in 64 bits); for the tests
 * that hold the two to the same bits.
 */
uint32_t bi_fp_pack_slow(const struct bi_fmt *f, bool neg, unsigned __int128 r,
			 int e, enum bi_rm rm, bool ftz);
uint32_t bi_fp_fma_slow(const struct bi_fmt *f, uint32_t a, uint32_t b,
			uint32_t c, bool has_c, int32_t scale, enum bi_rm rm,
			bool ftz);

/* 2^(fx / 2^24) for a signed 8:24 fixed-point exponent (fp_exp_log.c). */
uint32_t bi_fp_exp2_fixed(int32_t fx, enum bi_rm rm, bool ftz);

/* log2(a) / (a - 1) for a = m24 * 2^exp2 in [0.75, 1.5) (fp_exp_log.c;
 * 1/ln 2 at a = 1). */
uint32_t bi_fp_log2_ratio(uint32_t m24, int32_t exp2);

/* (a * b + c) * 2^scale with one rounding. */
uint32_t bi_fp_fma_scaled(const struct bi_fmt *f, uint32_t a, uint32_t b,
			  uint32_t c, bool has_c, int32_t scale, enum bi_rm rm,
			  bool ftz);

/* 1/x, or 1/sqrt(x) when @rsqrt, correctly rounded with IEEE special
 * cases (the hardware's table approximations are finer than nothing
 * but undocumented: correctly rounded is what its Newton steps reach). */
uint32_t bi_fp_recip(const struct bi_fmt *f, uint32_t x, bool rsqrt,
		     enum bi_rm rm, bool ftz);

static inline uint32_t bi_f32_fma(uint32_t a, uint32_t b, uint32_t c,
				  enum bi_rm rm, bool ftz)
{
	return bi_fp_fma(&bi_f32, a, b, c, true, rm, ftz);
}
static inline uint32_t bi_f32_add(uint32_t a, uint32_t b, enum bi_rm rm, bool ftz)
{
	return bi_fp_fma(&bi_f32, a, 0x3f800000u, b, true, rm, ftz);
}
static inline uint32_t bi_f32_mul(uint32_t a, uint32_t b, enum bi_rm rm, bool ftz)
{
	return bi_fp_fma(&bi_f32, a, b, 0, false, rm, ftz);
}

bool bi_fp_is_nan(const struct bi_fmt *f, uint32_t x);
uint32_t bi_fp_quiet(const struct bi_fmt *f, uint32_t x);
uint32_t bi_fp_flush(const struct bi_fmt *f, uint32_t x); /* denormal -> 0 */

/* Converts between formats (f16 <-> f32) with rounding. */
uint32_t bi_fp_convert(const struct bi_fmt *to, const struct bi_fmt *from,
		       uint32_t x, enum bi_rm rm, bool ftz);

/* Integer <-> float. Float -> int saturates; NaN gives 0. */
uint32_t bi_fp_from_int(const struct bi_fmt *f, int64_t v, enum bi_rm rm);
int64_t bi_fp_to_int(const struct bi_fmt *f, uint32_t x, enum bi_rm rm,
		     int64_t lo, int64_t hi);

/* x * 2^n, rounded once. */
uint32_t bi_fp_ldexp(const struct bi_fmt *f, uint32_t x, int32_t n,
		     enum bi_rm rm, bool ftz);

/* Rounds to an integral value in the same format. */
uint32_t bi_fp_round_int(const struct bi_fmt *f, uint32_t x, enum bi_rm rm);

/* Total-order compare ignoring NaN: -1, 0, 1; 2 when unordered. */
int bi_fp_cmp(const struct bi_fmt *f, uint32_t a, uint32_t b);

/* min/max semantics of FMIN/FMAX's sem modifier. */
enum bi_minmax_sem {
	BI_MM_NAN_SUPPRESS, /* IEEE minNum: a NaN operand is ignored */
	BI_MM_NAN_PROPAGATE,
	BI_MM_C,            /* (a < b) ? a : b */
	BI_MM_INVERSE_C,    /* (b < a) ? b : a, i.e. NaN picks a */
};
uint32_t bi_fp_minmax(const struct bi_fmt *f, uint32_t a, uint32_t b, bool max,
		      enum bi_minmax_sem sem);

/* Clamp modifiers: 0 none, 1 [0,inf), 2 [-1,1], 3 [0,1]; NaN -> +0. */
uint32_t bi_fp_clamp(const struct bi_fmt *f, uint32_t x, unsigned clamp);

#endif

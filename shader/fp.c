// SPDX-License-Identifier: MIT
/*
 * Soft floating point (see fp.h). One exact core: operands are unpacked
 * to integer significands, the fused product-plus-addend is formed
 * exactly in 128 bits (far-apart terms keep only a sticky bit), and
 * bi_fp_pack() rounds once into the destination format.
 */
#include "shader/fp.h"

typedef unsigned __int128 u128;

const struct bi_fmt bi_f32 = { 23, 8 };
const struct bi_fmt bi_f16 = { 10, 5 };

static inline unsigned bias(const struct bi_fmt *f)
{
	return (1u << (f->ebits - 1)) - 1;
}
static inline uint32_t emax(const struct bi_fmt *f)
{
	return (1u << f->ebits) - 1;
}
static inline uint32_t sign_bit(const struct bi_fmt *f)
{
	return 1u << (f->mbits + f->ebits);
}
static inline uint32_t mant(const struct bi_fmt *f, uint32_t x)
{
	return x & ((1u << f->mbits) - 1);
}
static inline uint32_t expo(const struct bi_fmt *f, uint32_t x)
{
	return (x >> f->mbits) & emax(f);
}
static inline uint32_t inf_of(const struct bi_fmt *f, bool neg)
{
	return (neg ? sign_bit(f) : 0) | emax(f) << f->mbits;
}
static inline uint32_t qnan_of(const struct bi_fmt *f)
{
	return emax(f) << f->mbits | 1u << (f->mbits - 1);
}

bool bi_fp_is_nan(const struct bi_fmt *f, uint32_t x)
{
	return expo(f, x) == emax(f) && mant(f, x);
}

static bool is_inf(const struct bi_fmt *f, uint32_t x)
{
	return expo(f, x) == emax(f) && !mant(f, x);
}

static bool is_zero(const struct bi_fmt *f, uint32_t x)
{
	return !(x & (sign_bit(f) - 1));
}

uint32_t bi_fp_quiet(const struct bi_fmt *f, uint32_t x)
{
	return x | 1u << (f->mbits - 1);
}

uint32_t bi_fp_flush(const struct bi_fmt *f, uint32_t x)
{
	if (!expo(f, x) && mant(f, x))
		return x & sign_bit(f);
	return x;
}

/* Finite value = sig * 2^exp (sig includes the implicit bit). */
static void unpack(const struct bi_fmt *f, uint32_t x, uint64_t *sig, int *exp)
{
	uint32_t e = expo(f, x);

	*sig = mant(f, x) | (e ? 1u << f->mbits : 0);
	*exp = (int)(e ? e : 1) - (int)bias(f) - f->mbits;
}

static inline int msb128(u128 v)
{
	uint64_t hi = (uint64_t)(v >> 64);

	return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)v);
}

/* Whether to round the magnitude up, given the discarded part. */
static inline bool round_away(bool neg, bool lsb, bool half, bool sticky, enum bi_rm rm)
{
	switch (rm) {
	case BI_RM_RTE:
		return half && (sticky || lsb);
	case BI_RM_RTNA:
		return half;
	case BI_RM_RTP:
		return !neg && (half || sticky);
	case BI_RM_RTN:
		return neg && (half || sticky);
	default:
		return false; /* RTZ; RTO is handled by the caller */
	}
}

/*
 * Rounds (-1)^neg * r * 2^e (r != 0; bit 0 of r may be a sticky bit from
 * below, so callers keep a few bits of margin) into format @f: every case,
 * in 128 bits.
 */
uint32_t bi_fp_pack_slow(const struct bi_fmt *f, bool neg, unsigned __int128 r,
			 int e, enum bi_rm rm, bool ftz)
{
	int msb = msb128(r);
	int emin_lsb = 1 - (int)bias(f) - f->mbits; /* weight of denormal lsb */
	int shift = msb - f->mbits;
	uint64_t q;
	uint32_t s = neg ? sign_bit(f) : 0;
	bool inexact;

	if (e + shift < emin_lsb)
		shift = emin_lsb - e;
	if (shift > 0) {
		u128 rem;

		if (shift > 127) {
			q = 0;
			rem = r;
		} else {
			q = (uint64_t)(r >> shift);
			rem = r & (((u128)1 << shift) - 1);
		}
		bool half = shift <= 127 ? (rem >> (shift - 1)) & 1 : 0;
		bool sticky = shift <= 127 ?
			(rem & (((u128)1 << (shift - 1)) - 1)) != 0 : rem != 0;

		inexact = half || sticky;
		if (rm == BI_RM_RTO) {
			if (inexact)
				q |= 1;
		} else if (round_away(neg, q & 1, half, sticky, rm)) {
			q++;
		}
	} else {
		q = (uint64_t)(r << -shift);
		inexact = false;
	}
	e += shift;
	if (q >> (f->mbits + 1)) {
		q >>= 1;
		e++;
	}
	if (q >> f->mbits) {
		int be = e + f->mbits + (int)bias(f);

		if (be >= (int)emax(f)) {
			/* Overflow: infinity unless the mode rounds toward
			 * zero from this side, which gives the largest value. */
			bool to_max = rm == BI_RM_RTZ || rm == BI_RM_RTO ||
				      (rm == BI_RM_RTP && neg) ||
				      (rm == BI_RM_RTN && !neg);

			return to_max ? s | ((emax(f) - 1) << f->mbits) |
						((1u << f->mbits) - 1)
				      : inf_of(f, neg);
		}
		return s | (uint32_t)be << f->mbits | mant(f, (uint32_t)q);
	}
	/* Denormal (or zero after rounding). */
	(void)inexact;
	if (ftz)
		return s;
	return s | (uint32_t)q;
}

/* hi + lo for sign-magnitude terms: the magnitude, its sign in @neg. */
static inline u128 signed_sum(u128 hi, bool shi, u128 lo, bool slo, bool *neg)
{
	if (shi == slo) {
		*neg = shi;
		return hi + lo;
	}
	*neg = hi >= lo ? shi : slo;
	return hi >= lo ? hi - lo : lo - hi;
}

uint32_t bi_fp_fma_slow(const struct bi_fmt *f, uint32_t a, uint32_t b,
			uint32_t c, bool has_c, int32_t scale, enum bi_rm rm,
			bool ftz)
{
	uint32_t sb = sign_bit(f);
	bool sp, sc;
	uint64_t ma, mb, mc;
	int ea, eb, ec;

	if (ftz) {
		a = bi_fp_flush(f, a);
		b = bi_fp_flush(f, b);
		c = bi_fp_flush(f, c);
	}
	if (bi_fp_is_nan(f, a))
		return bi_fp_quiet(f, a);
	if (bi_fp_is_nan(f, b))
		return bi_fp_quiet(f, b);
	if (has_c && bi_fp_is_nan(f, c))
		return bi_fp_quiet(f, c);
	sp = ((a ^ b) & sb) != 0;
	sc = (c & sb) != 0;
	if (is_inf(f, a) || is_inf(f, b)) {
		if (is_zero(f, a) || is_zero(f, b))
			return qnan_of(f);
		if (has_c && is_inf(f, c) && sc != sp)
			return qnan_of(f);
		return inf_of(f, sp);
	}
	if (has_c && is_inf(f, c))
		return c;

	unpack(f, a, &ma, &ea);
	unpack(f, b, &mb, &eb);
	u128 p = (u128)(ma * mb);
	int ep = ea + eb;

	if (!has_c || is_zero(f, c)) {
		if (p == 0) {
			/* Zero product: its sign, except that adding a zero
			 * of the other sign gives +0 (-0 when rounding down). */
			if (has_c && sc != sp)
				return rm == BI_RM_RTN ? sb : 0;
			return sp ? sb : 0;
		}
		return bi_fp_pack_slow(f, sp, p, ep + scale, rm, ftz);
	}
	unpack(f, c, &mc, &ec);
	if (p == 0)
		return scale ? bi_fp_pack_slow(f, sc, mc, ec + scale, rm, ftz) : c;

	/* Align both terms exactly in 128 bits: put the larger term's top
	 * bit at 120 and shift the other to match, keeping a sticky bit if
	 * it falls off the bottom. */
	u128 hi = p, lo = mc;
	int ehi = ep, elo = ec;
	bool shi = sp, slo = sc;

	if (msb128(mc) + ec > msb128(p) + ep) {
		hi = mc; ehi = ec; shi = sc;
		lo = p; elo = ep; slo = sp;
	}
	int up = 120 - msb128(hi);

	hi <<= up;
	ehi -= up;
	int d = elo - ehi;

	if (d >= 0) {
		lo <<= d;
	} else if (-d < 127) {
		bool st = (lo & (((u128)1 << -d) - 1)) != 0;

		lo = (lo >> -d) | st;
	} else {
		lo = 1; /* only a sticky bit remains */
	}

	bool neg;
	u128 r = signed_sum(hi, shi, lo, slo, &neg);

	if (r == 0)
		return rm == BI_RM_RTN ? sb : 0;
	return bi_fp_pack_slow(f, neg, r, ehi + scale, rm, ftz);
}

/*
 * The common case of bi_fp_pack, in 64 bits: a result in the normal range
 * that cannot overflow when rounded up. Everything else goes the slow way,
 * which gives the same bits (tests/shader/fp compares the two).
 */
static inline __attribute__((always_inline)) uint32_t
pack64(const struct bi_fmt *f, bool neg, uint64_t r, int e, enum bi_rm rm,
       bool ftz)
{
	int msb = 63 - __builtin_clzll(r);
	int shift = msb - f->mbits;
	int be = e + msb + (int)bias(f);
	uint64_t q;

	if (be < 1 || be >= (int)emax(f) - 1)
		return bi_fp_pack_slow(f, neg, r, e, rm, ftz);
	if (shift > 0) {
		uint64_t rem = r & ((1ull << shift) - 1);
		uint64_t halfbit = 1ull << (shift - 1);
		bool half = (rem & halfbit) != 0;
		bool sticky = (rem & (halfbit - 1)) != 0;

		q = r >> shift;
		if (rm == BI_RM_RTO)
			q |= half || sticky;
		else if (round_away(neg, q & 1, half, sticky, rm))
			q++;
		if (q >> (f->mbits + 1)) {
			q >>= 1;	/* rounded up to the next power of 2 */
			be++;
		}
	} else {
		q = r << -shift;
	}
	return (neg ? sign_bit(f) : 0) | (uint32_t)be << f->mbits |
	       mant(f, (uint32_t)q);
}

uint32_t bi_fp_pack(const struct bi_fmt *f, bool neg, unsigned __int128 r,
		    int e, enum bi_rm rm, bool ftz)
{
	if (r >> 64)
		return bi_fp_pack_slow(f, neg, r, e, rm, ftz);
	if (f == &bi_f32)	/* the format's fields as constants */
		return pack64(&bi_f32, neg, (uint64_t)r, e, rm, ftz);
	return pack64(f, neg, (uint64_t)r, e, rm, ftz);
}

/* Nonzero and neither denormal, infinite nor NaN. */
static inline bool is_normal(const struct bi_fmt *f, uint32_t x)
{
	uint32_t e = expo(f, x);

	return e && e != emax(f);
}

/*
 * bi_fp_fma_slow for normal or zero operands (or an absent addend) and
 * small scales, in 64 bits: the product has at most 48 significant bits,
 * so the larger term's top bit at 62 keeps the sum exact wherever it can
 * cancel (the smaller term loses bits to the sticky bit only when it is
 * 2^14 times smaller, when the sum keeps its top bits).
 */
static inline __attribute__((always_inline)) uint32_t
fma_fast(const struct bi_fmt *f, uint32_t a, uint32_t b, uint32_t c,
	 bool has_c, int32_t scale, enum bi_rm rm, bool ftz)
{
	uint32_t sb = sign_bit(f);
	bool c_zero = !has_c || is_zero(f, c);
	bool sp = ((a ^ b) & sb) != 0, sc = (c & sb) != 0;

	if (!(c_zero || is_normal(f, c)) || scale > 256 || scale < -256)
		return bi_fp_fma_slow(f, a, b, c, has_c, scale, rm, ftz);
	if (!is_normal(f, a) || !is_normal(f, b)) {
		/* A zero times a normal or zero (a shader's masked terms):
		 * the addend, or a zero whose sign IEEE's rules give. */
		if (!((is_zero(f, a) || is_normal(f, a)) &&
		      (is_zero(f, b) || is_normal(f, b))) || (!c_zero && scale))
			return bi_fp_fma_slow(f, a, b, c, has_c, scale, rm, ftz);
		if (!c_zero)
			return c;
		if (has_c && sc != sp)
			return rm == BI_RM_RTN ? sb : 0;
		return sp ? sb : 0;
	}

	uint64_t ma, mb, mc;
	int ea, eb, ec;

	unpack(f, a, &ma, &ea);
	unpack(f, b, &mb, &eb);
	uint64_t p = ma * mb;
	int ep = ea + eb;

	if (c_zero)
		return pack64(f, sp, p, ep + scale, rm, ftz);
	unpack(f, c, &mc, &ec);

	uint64_t hi = p, lo = mc;
	int ehi = ep, elo = ec;
	bool shi = sp, slo = sc;
	int mhi = 63 - __builtin_clzll(p), mlo = 63 - __builtin_clzll(mc);

	if (mlo + ec > mhi + ep) {
		hi = mc; ehi = ec; shi = sc;
		lo = p; elo = ep; slo = sp;
		mhi = mlo;
	}
	int up = 62 - mhi;

	hi <<= up;
	ehi -= up;
	int d = elo - ehi;

	if (d >= 0)
		lo <<= d;
	else if (-d < 63)
		lo = (lo >> -d) | ((lo & ((1ull << -d) - 1)) != 0);
	else
		lo = 1; /* only a sticky bit remains */

	bool neg;
	uint64_t r = (uint64_t)signed_sum(hi, shi, lo, slo, &neg);

	if (r == 0)
		return rm == BI_RM_RTN ? sb : 0;
	return pack64(f, neg, r, ehi + scale, rm, ftz);
}

uint32_t bi_fp_fma_scaled(const struct bi_fmt *f, uint32_t a, uint32_t b,
			  uint32_t c, bool has_c, int32_t scale, enum bi_rm rm,
			  bool ftz)
{
	if (f == &bi_f32)	/* the format's fields as constants */
		return fma_fast(&bi_f32, a, b, c, has_c, scale, rm, ftz);
	return fma_fast(f, a, b, c, has_c, scale, rm, ftz);
}

uint32_t bi_fp_fma(const struct bi_fmt *f, uint32_t a, uint32_t b, uint32_t c,
		   bool has_c, enum bi_rm rm, bool ftz)
{
	return bi_fp_fma_scaled(f, a, b, c, has_c, 0, rm, ftz);
}

/* n / d; @exact says whether the remainder is zero. */
static u128 div128(u128 n, uint32_t d, bool *exact)
{
	u128 rem;
	u128 q = os_udiv128(n, d, &rem);

	*exact = rem == 0;
	return q;
}

/* Integer square root of a 128-bit value (floor), bit by bit. */
static u128 isqrt128(u128 v, bool *exact)
{
	u128 r = 0, bit = (u128)1 << 126;

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	*exact = v == 0;
	return r;
}

uint32_t bi_fp_recip(const struct bi_fmt *f, uint32_t x, bool rsqrt,
		     enum bi_rm rm, bool ftz)
{
	bool neg = (x & sign_bit(f)) != 0;
	uint64_t m;
	int e;
	u128 q;
	bool exact;

	if (ftz)
		x = bi_fp_flush(f, x);
	if (bi_fp_is_nan(f, x))
		return bi_fp_quiet(f, x);
	if (rsqrt && neg && !is_zero(f, x))
		return qnan_of(f);
	if (is_zero(f, x))
		return inf_of(f, neg);
	if (is_inf(f, x))
		return neg ? sign_bit(f) : 0;
	unpack(f, x, &m, &e);
	if (!rsqrt) {
		/* 2^63 / m, at least 39 bits, with a sticky bit for the
		 * remainder: one 64-bit division */
		uint64_t q64 = (1ull << 63) / m;

		exact = q64 * m == 1ull << 63;
		return bi_fp_pack(f, neg, (u128)q64 << 1 | !exact, -63 - e - 1,
				  rm, ftz);
	}
	/* 1/sqrt(m * 2^e): make the exponent even, then
	 * sqrt(2^(2K) / (m * 2^(e'))) = sqrt(2^(2K - e') / m). */
	if (e & 1) {
		m <<= 1;
		e--;
	}
	bool q_exact, r_exact;

	q = div128((u128)1 << 120, (uint32_t)m, &q_exact);
	u128 r = isqrt128(q, &r_exact);
	/* value = r * 2^(-60 - e/2); exact only if both steps were */
	exact = q_exact && r_exact;
	return bi_fp_pack(f, false, r << 1 | !exact, -60 - e / 2 - 1, rm, ftz);
}

uint32_t bi_fp_convert(const struct bi_fmt *to, const struct bi_fmt *from,
		       uint32_t x, enum bi_rm rm, bool ftz)
{
	bool neg = (x & sign_bit(from)) != 0;
	uint64_t m;
	int e;

	if (ftz)
		x = bi_fp_flush(from, x);
	if (bi_fp_is_nan(from, x)) {
		/* Keep the payload's top bits, quieted. */
		uint32_t pl = mant(from, x);

		pl = to->mbits >= from->mbits ? pl << (to->mbits - from->mbits)
					      : pl >> (from->mbits - to->mbits);
		return (neg ? sign_bit(to) : 0) | bi_fp_quiet(to, inf_of(to, 0) | pl);
	}
	if (is_inf(from, x))
		return inf_of(to, neg);
	if (is_zero(from, x))
		return neg ? sign_bit(to) : 0;
	unpack(from, x, &m, &e);
	return bi_fp_pack(to, neg, (u128)m << 8, e - 8, rm, ftz);
}

uint32_t bi_fp_ldexp(const struct bi_fmt *f, uint32_t x, int32_t n,
		     enum bi_rm rm, bool ftz)
{
	uint64_t m;
	int e;

	if (ftz)
		x = bi_fp_flush(f, x);
	if (bi_fp_is_nan(f, x))
		return bi_fp_quiet(f, x);
	if (is_inf(f, x) || is_zero(f, x))
		return x;
	unpack(f, x, &m, &e);
	/* Beyond +-300 the result saturates either way; clamping keeps the
	 * exponent arithmetic in range. */
	n = n > 300 ? 300 : n < -300 ? -300 : n;
	return bi_fp_pack(f, (x & sign_bit(f)) != 0, (u128)m << 8, e - 8 + n,
			  rm, ftz);
}

uint32_t bi_fp_from_int(const struct bi_fmt *f, int64_t v, enum bi_rm rm)
{
	bool neg = v < 0;
	uint64_t m = neg ? 0 - (uint64_t)v : (uint64_t)v;

	if (!m)
		return 0;
	return bi_fp_pack(f, neg, (u128)m << 4, -4, rm, false);
}

/* Rounds a finite value to an integer magnitude; returns it in 128 bits. */
static u128 to_integer(const struct bi_fmt *f, uint32_t x, enum bi_rm rm,
		       bool *neg)
{
	uint64_t m;
	int e;

	*neg = (x & sign_bit(f)) != 0;
	unpack(f, x, &m, &e);
	if (e >= 0)
		return e > 60 ? (u128)1 << 100 : (u128)m << e;
	/* m has at most 24 bits: beyond 40 places it is below one half. */
	if (-e > 40)
		return rm == BI_RM_RTO ? m != 0 : round_away(*neg, 0, 0, m != 0, rm);
	uint64_t q = m >> -e, rem = m & ((1ull << -e) - 1);
	bool half = (rem >> (-e - 1)) & 1;
	bool sticky = (rem & ((1ull << (-e - 1)) - 1)) != 0;

	if (rm == BI_RM_RTO)
		return q | (half || sticky);
	return q + round_away(*neg, q & 1, half, sticky, rm);
}

int64_t bi_fp_to_int(const struct bi_fmt *f, uint32_t x, enum bi_rm rm,
		     int64_t lo, int64_t hi)
{
	bool neg;
	u128 m;

	if (bi_fp_is_nan(f, x))
		return 0;
	if (is_inf(f, x))
		return (x & sign_bit(f)) ? lo : hi;
	m = to_integer(f, x, rm, &neg);
	if (neg)
		return m > (u128)(0 - (uint64_t)lo) ? lo : -(int64_t)(uint64_t)m;
	return m > (u128)(uint64_t)hi ? hi : (int64_t)(uint64_t)m;
}

uint32_t bi_fp_round_int(const struct bi_fmt *f, uint32_t x, enum bi_rm rm)
{
	uint64_t m;
	int e;
	bool neg;
	u128 r;

	if (bi_fp_is_nan(f, x))
		return bi_fp_quiet(f, x);
	unpack(f, x, &m, &e);
	if (is_inf(f, x) || e >= 0)
		return x;
	r = to_integer(f, x, rm, &neg);
	if (!r)
		return neg ? sign_bit(f) : 0;
	return bi_fp_pack(f, neg, r, 0, BI_RM_RTE, false);
}

int bi_fp_cmp(const struct bi_fmt *f, uint32_t a, uint32_t b)
{
	uint32_t sb = sign_bit(f);
	int64_t ka, kb;

	if (bi_fp_is_nan(f, a) || bi_fp_is_nan(f, b))
		return 2;
	if (is_zero(f, a) && is_zero(f, b))
		return 0;
	/* Sign-magnitude to a monotonic integer key. */
	ka = (a & sb) ? -(int64_t)(a & (sb - 1)) : (int64_t)a;
	kb = (b & sb) ? -(int64_t)(b & (sb - 1)) : (int64_t)b;
	return ka < kb ? -1 : ka > kb;
}

uint32_t bi_fp_minmax(const struct bi_fmt *f, uint32_t a, uint32_t b, bool max,
		      enum bi_minmax_sem sem)
{
	bool na = bi_fp_is_nan(f, a), nb = bi_fp_is_nan(f, b);
	int c;

	switch (sem) {
	case BI_MM_NAN_SUPPRESS:
		if (na)
			return nb ? bi_fp_quiet(f, a) : b;
		if (nb)
			return a;
		break;
	case BI_MM_NAN_PROPAGATE:
		if (na)
			return bi_fp_quiet(f, a);
		if (nb)
			return bi_fp_quiet(f, b);
		break;
	case BI_MM_C:
		c = bi_fp_cmp(f, a, b);
		return (max ? c == 1 : c == -1) ? a : b;
	default:
		c = bi_fp_cmp(f, b, a);
		return (max ? c == 1 : c == -1) ? b : a;
	}
	c = bi_fp_cmp(f, a, b);
	if (c == 0) {
		/* -0 orders below +0. */
		bool a_neg = (a & sign_bit(f)) != 0;

		return (max ? !a_neg : a_neg) ? a : b;
	}
	return (max ? c > 0 : c < 0) ? a : b;
}

uint32_t bi_fp_clamp(const struct bi_fmt *f, uint32_t x, unsigned clamp)
{
	uint32_t one = bias(f) << f->mbits, mone = one | sign_bit(f);

	if (!clamp)
		return x;
	if (bi_fp_is_nan(f, x))
		return 0;
	if (clamp == 2) {
		if (bi_fp_cmp(f, x, mone) < 0)
			return mone;
	} else if ((x & sign_bit(f)) && !is_zero(f, x)) {
		return 0;
	} else if (x & sign_bit(f)) {
		return 0; /* -0 clamps to +0 */
	}
	if (clamp != 1 && bi_fp_cmp(f, x, one) > 0)
		return one;
	return x;
}

// SPDX-License-Identifier: MIT
/* Arm floating-point semantics on bit patterns; see fp_core.h for the
 * approach (NaNs and flushing in software, rounding on the host). */
#include <math.h>

#include "aarch64-user/fp_core.h"

/* ---- formats -------------------------------------------------------------- */

static inline unsigned mbits(enum fp_type t)
{
	return t == FT_H ? 10 : t == FT_S ? 23 : 52;
}

static inline uint64_t frac_mask(enum fp_type t)
{
	return (1ull << mbits(t)) - 1;
}

static inline uint64_t exp_mask(enum fp_type t)
{
	return (fp_sign_bit(t) - 1) & ~frac_mask(t);
}

static inline uint64_t quiet_bit(enum fp_type t)
{
	return 1ull << (mbits(t) - 1);
}

static inline bool is_nan(enum fp_type t, uint64_t a)
{
	return (a & exp_mask(t)) == exp_mask(t) && (a & frac_mask(t));
}

static inline bool is_snan(enum fp_type t, uint64_t a)
{
	return is_nan(t, a) && !(a & quiet_bit(t));
}

static inline bool is_inf(enum fp_type t, uint64_t a)
{
	return (a & ~fp_sign_bit(t)) == exp_mask(t);
}

static inline bool is_zero(enum fp_type t, uint64_t a)
{
	return (a & ~fp_sign_bit(t)) == 0;
}

static inline bool is_denormal(enum fp_type t, uint64_t a)
{
	return !(a & exp_mask(t)) && (a & frac_mask(t));
}

static inline uint64_t default_nan(enum fp_type t)
{
	return exp_mask(t) | quiet_bit(t);
}

static inline bool fz_on(const struct a64_cpu *c, enum fp_type t)
{
	return c->fpcr & (t == FT_H ? FPCR_FZ16 : FPCR_FZ);
}

/* Input denormals become zeros of the same sign under FZ/FZ16 (IDC). */
static inline uint64_t flush_in(struct a64_cpu *c, enum fp_type t, uint64_t a)
{
	if (fz_on(c, t) && is_denormal(t, a)) {
		if (t != FT_H) /* half inputs flush silently (FZ16) */
			c->fpsr |= FPSR_IDC;
		return a & fp_sign_bit(t);
	}
	return a;
}

static inline uint64_t quieten(struct a64_cpu *c, enum fp_type t, uint64_t a)
{
	if (is_snan(t, a))
		c->fpsr |= FPSR_IOC;
	return (c->fpcr & FPCR_DN) ? default_nan(t) : a | quiet_bit(t);
}

/* Arm's NaN propagation: the first signalling NaN, else the first quiet
 * NaN, in operand order; quietened, or the default NaN under DN. */
static bool nan_pick(struct a64_cpu *c, enum fp_type t, const uint64_t *ops, int n,
		     uint64_t *r)
{
	for (int k = 0; k < n; k++)
		if (is_snan(t, ops[k])) {
			c->fpsr |= FPSR_IOC;
			*r = (c->fpcr & FPCR_DN) ? default_nan(t) : ops[k] | quiet_bit(t);
			return true;
		}
	for (int k = 0; k < n; k++)
		if (is_nan(t, ops[k])) {
			*r = (c->fpcr & FPCR_DN) ? default_nan(t) : ops[k];
			return true;
		}
	return false;
}

/* ---- host rounding window ------------------------------------------------- */

static inline uint32_t mx_get(void)
{
	uint32_t m;
	__asm__ volatile("stmxcsr %0" : "=m"(m));
	return m;
}

static inline void mx_set(uint32_t m)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(m));
}

static inline uint32_t host_fpsr(uint32_t m)
{
	return (m & 1 ? FPSR_IOC : 0) | (m & 4 ? FPSR_DZC : 0) | (m & 8 ? FPSR_OFC : 0) |
	       (m & 16 ? FPSR_UFC : 0) | (m & 32 ? FPSR_IXC : 0);
}

/* MXCSR bits 16..31 are reserved zeros: the mark of a window that did
 * not reprogram the host (see host_begin). */
#define WIN_FAST 0x80000000u
#define MX_DEFAULT 0x1f80u /* round to nearest, all masked, no FTZ/DAZ */
#define MX_FLAGS 0x3fu

/*
 * Opens a window in which host SSE arithmetic of type @t rounds like the
 * guest; returns the host state to restore. All host exceptions stay
 * masked.
 *
 * Fast case, the usual one: round to nearest, no FZ, single or double.
 * A host MXCSR with the default control bits already rounds like the
 * guest, and its sticky flags may stay as they are when each of them is
 * already set in FPSR: the flags read after the operation are then the
 * operation's own plus some FPSR has, so ORing them into FPSR (all
 * finish() does without FZ) gives exactly the guest's FPSR. This saves
 * the two MXCSR writes of a window (each serialises the FP pipeline);
 * MXCSR is only written to drop flags the guest does not have (host FP
 * code between guest operations, or the guest clearing FPSR).
 */
static inline uint32_t host_begin(const struct a64_cpu *c, enum fp_type t, enum fp_rmode m)
{
	static const uint32_t rc[4] = { 0, 2u << 13, 1u << 13, 3u << 13 };
	uint32_t saved = mx_get();
	if (t != FT_H && m == FR_N && !(c->fpcr & FPCR_FZ) &&
	    (saved & ~MX_FLAGS) == MX_DEFAULT) {
		if (host_fpsr(saved) & ~c->fpsr)
			mx_set(MX_DEFAULT);
		return WIN_FAST;
	}
	mx_set((saved & ~0x603fu) | 0x1f80u | rc[m & 3]);
	return saved;
}

/* Closes the window; returns the host flags raised inside it as FPSR
 * bits (finish() decides which of them the guest sees). A fast window's
 * answer may include flags FPSR already has (see host_begin). */
static inline uint32_t host_end(uint32_t saved, uint32_t keep)
{
	uint32_t m = mx_get() & keep;
	if (!(saved & WIN_FAST))
		mx_set(saved);
	return host_fpsr(m);
}

#define HOST_ALL 0x3du /* IE ZE OE UE PE (not DE: Arm reports IDC itself) */
/* Half results: the software rounding reports OE, UE and PE itself (the
 * double-precision step is exact or detectably inexact for half inputs). */
#define HOST_KEEP(t) ((t) == FT_H ? 0x05u : HOST_ALL)

#define FENCE(x) __asm__ volatile("" : "+x"(x))

/* ---- half precision in software ----------------------------------------- */

static double h_to_d(uint64_t h)
{
	int e = (int)((h >> 10) & 31);
	double m = (double)(h & 0x3ff);
	double v = e == 0 ? ldexp(m, -24) : e == 31 ? INFINITY : ldexp(m + 1024, e - 25);
	return (h & 0x8000) ? -v : v;
}

/* Rounds finite or infinite @x to half precision under mode @m, with
 * Arm's flags (tininess before rounding, FZ16 output flush). */
static uint64_t d_to_h(struct a64_cpu *c, double x, enum fp_rmode m, bool fz)
{
	uint64_t sign = signbit(x) ? 0x8000 : 0;
	double a = fabs(x);
	if (isinf(a))
		return sign | 0x7c00;
	if (a == 0)
		return sign;
	int e;
	frexp(a, &e);
	int E = e - 1; /* a = 1.f * 2^E */
	bool tiny = E < -14;
	if (tiny && fz) {
		c->fpsr |= FPSR_UFC;
		return sign;
	}
	int ue = tiny ? -24 : E - 10;
	double q = ldexp(a, -ue), ip = floor(q), fr = q - ip;
	bool up;
	switch (m) {
	case FR_N: up = fr > 0.5 || (fr == 0.5 && fmod(ip, 2) != 0); break;
	case FR_A: up = fr >= 0.5; break;
	case FR_P: up = fr > 0 && !sign; break;
	case FR_M: up = fr > 0 && sign; break;
	default: up = false; break;
	}
	if (fr != 0) {
		c->fpsr |= FPSR_IXC;
		if (tiny)
			c->fpsr |= FPSR_UFC;
	}
	double r = ldexp(ip + (up ? 1 : 0), ue);
	if (r > 65504.0) {
		c->fpsr |= FPSR_OFC | FPSR_IXC;
		bool to_inf = m == FR_N || m == FR_A || (m == FR_P && !sign) || (m == FR_M && sign);
		return sign | (to_inf ? 0x7c00 : 0x7bff);
	}
	if (r < ldexp(1, -14))
		return sign | (uint64_t)ldexp(r, 24);
	frexp(r, &e);
	E = e - 1;
	return sign | (uint64_t)(E + 15) << 10 | ((uint64_t)ldexp(r, 10 - E) & 0x3ff);
}

/* ---- conversions between bits and host doubles ---------------------------- */

static inline double to_d(enum fp_type t, uint64_t a)
{
	if (t == FT_H)
		return h_to_d(a);
	if (t == FT_S) {
		uint32_t u = (uint32_t)a;
		float f;
		memcpy(&f, &u, 4);
		return f;
	}
	double d;
	memcpy(&d, &a, 8);
	return d;
}

/* Rounds @d (inside a host window for S/D) to type t; output flush and the
 * host's negative NaN are fixed up by finish(). */
static inline uint64_t from_d(struct a64_cpu *c, enum fp_type t, double d, enum fp_rmode m)
{
	if (t == FT_D) {
		uint64_t u;
		memcpy(&u, &d, 8);
		return u;
	}
	if (t == FT_S) {
		float f = (float)d;
		FENCE(f);
		uint32_t u;
		memcpy(&u, &f, 4);
		return u;
	}
	if (isnan(d))
		return default_nan(FT_H);
	return d_to_h(c, d, m, c->fpcr & FPCR_FZ16);
}

/* Accounts the host flags @fl of one operation. A NaN out of the host
 * means an invalid operation: Arm's default NaN. A tiny result under FZ
 * is flushed to zero with UFC alone (no IXC). */
static inline uint64_t finish(struct a64_cpu *c, enum fp_type t, uint64_t r, uint32_t fl)
{
	if (is_nan(t, r)) {
		c->fpsr |= fl;
		return default_nan(t);
	}
	if (t != FT_H && fz_on(c, t) && (is_denormal(t, r) || (fl & FPSR_UFC))) {
		c->fpsr |= (fl & ~(FPSR_UFC | FPSR_IXC)) | FPSR_UFC;
		return r & fp_sign_bit(t);
	}
	c->fpsr |= fl;
	return r;
}

/* ---- operations ---------------------------------------------------------- */

/* No operand is a NaN or an infinity, the usual case: then the NaN and
 * infinity rules below have nothing to do and are skipped as a whole. */
static inline bool all_finite(enum fp_type t, uint64_t a, uint64_t b, uint64_t d)
{
	uint64_t e = exp_mask(t);
	return (a & e) != e && (b & e) != e && (d & e) != e;
}

static uint64_t minmax(enum fp_type t, uint64_t a, uint64_t b, bool max)
{
	if (is_zero(t, a) && is_zero(t, b))
		return max ? (a & b) : (a | b);
	double da = to_d(t, a), db = to_d(t, b);
	return (da > db) == max ? a : b;
}

static uint64_t fp_const(enum fp_type t, double v, bool neg)
{
	uint64_t r;
	if (t == FT_D) {
		memcpy(&r, &v, 8);
	} else if (t == FT_S) {
		float f = (float)v;
		uint32_t u;
		memcpy(&u, &f, 4);
		r = u;
	} else {
		r = v == 2.0 ? 0x4000 : v == 1.5 ? 0x3e00 : v == 3.0 ? 0x4200 : 0x3c00;
	}
	return neg ? r ^ fp_sign_bit(t) : r;
}

static inline __attribute__((always_inline)) uint64_t
op2_body(struct a64_cpu *c, enum fp_op2 op, enum fp_type t, uint64_t a, uint64_t b)
{
	uint64_t r, ops[2];
	a = flush_in(c, t, a);
	b = flush_in(c, t, b);
	if (op == FO_MAXNM || op == FO_MINNM) {
		/* one quiet NaN against a number: the number wins */
		if (is_nan(t, a) && !is_snan(t, a) && !is_nan(t, b))
			a = b;
		else if (is_nan(t, b) && !is_snan(t, b) && !is_nan(t, a))
			b = a;
	}
	/* the step operations negate the first operand before anything */
	if (op == FO_RECPS || op == FO_RSQRTS)
		a ^= fp_sign_bit(t);
	ops[0] = a;
	ops[1] = b;
	if (!all_finite(t, a, b, 0) && nan_pick(c, t, ops, 2, &r)) {
		if (op == FO_NMUL)
			r ^= fp_sign_bit(t);
		if (op == FO_ABD)
			r &= ~fp_sign_bit(t);
		return r;
	}
	switch (op) {
	case FO_MAX:
	case FO_MAXNM: return minmax(t, a, b, true);
	case FO_MIN:
	case FO_MINNM: return minmax(t, a, b, false);
	case FO_MULX:
	case FO_RECPS:
	case FO_RSQRTS:
		if ((is_inf(t, a) && is_zero(t, b)) || (is_zero(t, a) && is_inf(t, b))) {
			bool neg = ((a ^ b) & fp_sign_bit(t)) != 0;
			if (op == FO_MULX)
				return fp_const(t, 2.0, neg);
			return fp_const(t, op == FO_RECPS ? 2.0 : 1.5, false);
		}
		break;
	default: break;
	}
	if (op == FO_RECPS)
		return fp_fma(c, t, fp_const(t, 2.0, false), a, b); /* 2 - a*b */
	if (op == FO_RSQRTS) {
		/* (3 - a*b) / 2 with one rounding: 1.5 + (a/2)*b, halving
		 * whichever operand halves exactly (exponent field >= 2) */
		uint64_t one = frac_mask(t) + 1, e2 = 2 * one;
		if ((a & exp_mask(t)) >= e2 && !is_inf(t, a))
			a -= one;
		else if ((b & exp_mask(t)) >= e2 && !is_inf(t, b))
			b -= one;
		else if (!is_zero(t, a) && !is_zero(t, b) && !is_inf(t, a) && !is_inf(t, b)) {
			/* both tiny: 3 - a*b rounds near 3, where halving is exact */
			r = fp_fma(c, t, fp_const(t, 3.0, false), a, b);
			return r - (frac_mask(t) + 1);
		}
		return fp_fma(c, t, fp_const(t, 1.5, false), a, b);
	}
	enum fp_rmode m = fp_fpcr_rmode(c);
	double da = to_d(t, a), db = to_d(t, b), rd;
	uint32_t saved = host_begin(c, t, m);
	FENCE(da);
	FENCE(db);
	switch (op) {
	case FO_DIV: rd = da / db; break;
	case FO_ADD: rd = da + db; break;
	case FO_SUB:
	case FO_ABD: rd = da - db; break;
	default: rd = da * db; break;
	}
	FENCE(rd);
	r = from_d(c, t, rd, m);
	uint32_t fl = host_end(saved, HOST_KEEP(t));
	r = finish(c, t, r, fl);
	if (op == FO_NMUL) /* FPNeg of the product, NaN or not */
		r ^= fp_sign_bit(t);
	if (op == FO_ABD && !is_nan(t, r))
		r &= ~fp_sign_bit(t);
	return r;
}

static inline __attribute__((always_inline)) uint64_t
fma_body(struct a64_cpu *c, enum fp_type t, uint64_t addend, uint64_t a, uint64_t b)
{
	uint64_t r, ops[3];
	addend = flush_in(c, t, addend);
	a = flush_in(c, t, a);
	b = flush_in(c, t, b);
	if (!all_finite(t, addend, a, b)) {
		bool inf_zero = (is_inf(t, a) && is_zero(t, b)) || (is_zero(t, a) && is_inf(t, b));
		if (inf_zero && is_nan(t, addend) && !is_snan(t, addend)) {
			c->fpsr |= FPSR_IOC;
			return default_nan(t);
		}
		ops[0] = addend;
		ops[1] = a;
		ops[2] = b;
		if (nan_pick(c, t, ops, 3, &r))
			return r;
	}
	enum fp_rmode m = fp_fpcr_rmode(c);
	double da = to_d(t, a), db = to_d(t, b), dc = to_d(t, addend), rd;
	uint32_t saved = host_begin(c, t, m);
	if (t == FT_S) {
		float fa = (float)da, fb = (float)db, fc = (float)dc;
		FENCE(fa);
		float fr = fmaf(fa, fb, fc);
		FENCE(fr);
		rd = fr;
	} else {
		FENCE(da);
		rd = fma(da, db, dc);
		FENCE(rd);
	}
	r = from_d(c, t, rd, m);
	uint32_t fl = host_end(saved, HOST_KEEP(t));
	return finish(c, t, r, fl);
}

/* The arithmetic entry points, one instance of the body per type: with
 * the type (TY) a constant, the format masks and type tests of the helpers
 * fold away (vector instructions call these once per lane). */
#define BY_TYPE(t, call)                                              \
	do {                                                          \
		switch (t) {                                          \
		case FT_H: { const enum fp_type TY = FT_H; return call; } \
		case FT_S: { const enum fp_type TY = FT_S; return call; } \
		default: { const enum fp_type TY = FT_D; return call; }   \
		}                                                     \
	} while (0)

uint64_t fp_op2(struct a64_cpu *c, enum fp_op2 op, enum fp_type t, uint64_t a, uint64_t b)
{
	BY_TYPE(t, op2_body(c, op, TY, a, b));
}

uint64_t fp_fma(struct a64_cpu *c, enum fp_type t, uint64_t addend, uint64_t a, uint64_t b)
{
	BY_TYPE(t, fma_body(c, TY, addend, a, b));
}

uint64_t fp_sqrt(struct a64_cpu *c, enum fp_type t, uint64_t a)
{
	uint64_t r;
	a = flush_in(c, t, a);
	if (nan_pick(c, t, &a, 1, &r))
		return r;
	enum fp_rmode m = fp_fpcr_rmode(c);
	double da = to_d(t, a), rd;
	uint32_t saved = host_begin(c, t, m);
	FENCE(da);
	rd = sqrt(da);
	FENCE(rd);
	r = from_d(c, t, rd, m);
	uint32_t fl = host_end(saved, HOST_KEEP(t));
	return finish(c, t, r, fl);
}

uint32_t fp_compare(struct a64_cpu *c, enum fp_type t, uint64_t a, uint64_t b, bool signal_all)
{
	a = flush_in(c, t, a);
	b = flush_in(c, t, b);
	if (is_nan(t, a) || is_nan(t, b)) {
		if (signal_all || is_snan(t, a) || is_snan(t, b))
			c->fpsr |= FPSR_IOC;
		return 0x3u << 28;
	}
	double da = to_d(t, a), db = to_d(t, b);
	if (da == db)
		return 0x6u << 28;
	return da < db ? 0x8u << 28 : 0x2u << 28;
}

static bool cmp_nan(struct a64_cpu *c, enum fp_type t, uint64_t a, uint64_t b, bool quiet_ok)
{
	if (!is_nan(t, a) && !is_nan(t, b))
		return false;
	if (!quiet_ok || is_snan(t, a) || is_snan(t, b))
		c->fpsr |= FPSR_IOC;
	return true;
}

bool fp_cmp_eq(struct a64_cpu *c, enum fp_type t, uint64_t a, uint64_t b)
{
	a = flush_in(c, t, a);
	b = flush_in(c, t, b);
	return !cmp_nan(c, t, a, b, true) && to_d(t, a) == to_d(t, b);
}

bool fp_cmp_ge(struct a64_cpu *c, enum fp_type t, uint64_t a, uint64_t b)
{
	a = flush_in(c, t, a);
	b = flush_in(c, t, b);
	return !cmp_nan(c, t, a, b, false) && to_d(t, a) >= to_d(t, b);
}

bool fp_cmp_gt(struct a64_cpu *c, enum fp_type t, uint64_t a, uint64_t b)
{
	a = flush_in(c, t, a);
	b = flush_in(c, t, b);
	return !cmp_nan(c, t, a, b, false) && to_d(t, a) > to_d(t, b);
}

uint64_t fp_convert(struct a64_cpu *c, enum fp_type to, enum fp_type from, uint64_t a)
{
	if (from != FT_H)
		a = flush_in(c, from, a);
	if (is_nan(from, a)) {
		if (is_snan(from, a))
			c->fpsr |= FPSR_IOC;
		if (c->fpcr & FPCR_DN)
			return default_nan(to);
		uint64_t frac = a & frac_mask(from);
		frac = mbits(to) > mbits(from) ? frac << (mbits(to) - mbits(from))
					       : frac >> (mbits(from) - mbits(to));
		return ((a & fp_sign_bit(from)) ? fp_sign_bit(to) : 0) | exp_mask(to) |
		       quiet_bit(to) | frac;
	}
	enum fp_rmode m = fp_fpcr_rmode(c);
	double d = to_d(from, a);
	uint64_t r;
	if (to == FT_H) {
		r = d_to_h(c, d, m, false); /* conversions ignore FZ16 */
		return r;
	}
	uint32_t saved = host_begin(c, to, m);
	FENCE(d);
	r = from_d(c, to, d, m);
	uint32_t fl = host_end(saved, HOST_ALL);
	return finish(c, to, r, fl);
}

static double round_by(double d, enum fp_rmode m)
{
	switch (m) {
	case FR_N: {
		double r = floor(d), f = d - r;
		if (f > 0.5 || (f == 0.5 && fmod(r, 2) != 0))
			r += 1;
		return r == 0 ? copysign(0, d) : r;
	}
	case FR_P: return ceil(d);
	case FR_M: return floor(d);
	case FR_Z: return trunc(d);
	default: return round(d);
	}
}

uint64_t fp_round_int(struct a64_cpu *c, enum fp_type t, uint64_t a, enum fp_rmode m)
{
	uint64_t r;
	bool exact_flag = m == FR_X;
	a = flush_in(c, t, a);
	if (nan_pick(c, t, &a, 1, &r))
		return r;
	if (is_inf(t, a) || is_zero(t, a))
		return a;
	if (m == FR_X)
		m = fp_fpcr_rmode(c);
	double d = to_d(t, a), rd = round_by(d, m);
	if (exact_flag && rd != d)
		c->fpsr |= FPSR_IXC;
	if (rd == 0)
		rd = copysign(0, d);
	uint32_t saved = host_begin(c, t, FR_N);
	r = from_d(c, t, rd, FR_N); /* exact */
	host_end(saved, 0);
	return r;
}

uint64_t fp_to_int(struct a64_cpu *c, enum fp_type t, uint64_t a, enum fp_rmode m,
		   unsigned fbits, bool is_signed, unsigned width)
{
	a = flush_in(c, t, a);
	if (is_nan(t, a)) {
		c->fpsr |= FPSR_IOC;
		return 0;
	}
	double d = ldexp(to_d(t, a), (int)fbits), r = round_by(d, m);
	double lo = is_signed ? -ldexp(1, (int)width - 1) : 0;
	double hi = is_signed ? ldexp(1, (int)width - 1) : ldexp(1, (int)width);
	uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
	if (r >= hi) {
		c->fpsr |= FPSR_IOC;
		return is_signed ? (mask >> 1) : mask;
	}
	if (r < lo) {
		c->fpsr |= FPSR_IOC;
		return is_signed ? (~(mask >> 1)) & mask : 0;
	}
	if (r != d)
		c->fpsr |= FPSR_IXC;
	uint64_t v = is_signed ? (uint64_t)(int64_t)r : (uint64_t)r;
	return v & mask;
}

uint64_t fp_from_int(struct a64_cpu *c, enum fp_type t, uint64_t v, unsigned fbits,
		     bool is_signed, unsigned width)
{
	if (width == 32)
		v = is_signed ? (uint64_t)(int64_t)(int32_t)v : (uint32_t)v;
	enum fp_rmode m = fp_fpcr_rmode(c);
	uint64_t r;
	uint32_t saved = host_begin(c, t, m);
	if (t == FT_S) {
		float f = is_signed ? (float)(int64_t)v : (float)v;
		FENCE(f);
		f = ldexpf(f, -(int)fbits);
		uint32_t u;
		memcpy(&u, &f, 4);
		r = u;
	} else {
		double d = is_signed ? (double)(int64_t)v : (double)v;
		FENCE(d);
		d = ldexp(d, -(int)fbits);
		r = t == FT_D ? 0 : 1;
		if (t == FT_D)
			memcpy(&r, &d, 8);
		else
			r = d_to_h(c, d, m, c->fpcr & FPCR_FZ16);
	}
	/* int -> double may itself be inexact, even for half results */
	uint32_t fl = host_end(saved, t == FT_H ? 0x25u : HOST_ALL);
	return finish(c, t, r, fl);
}

uint64_t fp_expand_imm8(enum fp_type t, unsigned imm8)
{
	unsigned e = t == FT_H ? 5 : t == FT_S ? 8 : 11, f = mbits(t);
	uint64_t sign = (imm8 >> 7) & 1, b6 = (imm8 >> 6) & 1;
	uint64_t exp = ((b6 ^ 1) << (e - 1)) | ((b6 ? (1ull << (e - 3)) - 1 : 0) << 2) |
		       ((imm8 >> 4) & 3);
	uint64_t frac = (uint64_t)(imm8 & 15) << (f - 4);
	return sign << (e + f) | exp << f | frac;
}

/* ---- reciprocal estimates (FRECPE, FRSQRTE, URECPE, URSQRTE) ------------ */

/* 9-bit estimates of 1/a and 1/sqrt(a) as Arm specifies them, on the
 * 9-bit scaled significand (256..511, or 128..511 for the square root). */
static unsigned recip_estimate(unsigned a)
{
	a = a * 2 + 1;
	unsigned b = (1u << 19) / a;
	return (b + 1) / 2;
}

static unsigned rsqrt_estimate(unsigned a)
{
	if (a < 256)
		a = a * 2 + 1;
	else
		a = ((a >> 1) << 1) * 2 + 2;
	uint64_t b = 512;
	while ((uint64_t)a * (b + 1) * (b + 1) < (1ull << 28))
		b++;
	return (unsigned)((b + 1) / 2);
}

/* The significand as 52 bits and the biased exponent, per Arm's layout. */
static void est_unpack(enum fp_type t, uint64_t a, uint64_t *frac, int64_t *exp)
{
	unsigned mb = mbits(t);
	*frac = (a & frac_mask(t)) << (52 - mb);
	*exp = (int64_t)((a & exp_mask(t)) >> mb);
}

uint64_t fp_recpe(struct a64_cpu *c, enum fp_type t, uint64_t a)
{
	uint64_t r, sign = a & fp_sign_bit(t);
	a = flush_in(c, t, a);
	if (nan_pick(c, t, &a, 1, &r))
		return r;
	if (is_inf(t, a))
		return sign;
	if (is_zero(t, a)) {
		c->fpsr |= FPSR_DZC;
		return sign | exp_mask(t);
	}
	int64_t e;
	uint64_t f;
	est_unpack(t, a, &f, &e);
	int bias = t == FT_H ? 15 : t == FT_S ? 127 : 1023;
	/* |a| < 2^-(bias+1), below half the smallest normal: overflow */
	if (e == 0 && !(f >> 50)) {
		enum fp_rmode m = fp_fpcr_rmode(c);
		bool inf = m == FR_N || (m == FR_P && !sign) || (m == FR_M && sign);
		c->fpsr |= FPSR_OFC | FPSR_IXC;
		return sign | (inf ? exp_mask(t) : exp_mask(t) - 1); /* inf or max normal */
	}
	/* |a| >= 2^(bias-1): the reciprocal is denormal, flushed under FZ */
	if (fz_on(c, t) && e >= 2 * bias - 1) {
		c->fpsr |= FPSR_UFC;
		return sign;
	}
	if (e == 0) {
		if (!(f >> 51)) {
			e = -1;
			f = (f << 2) & ((1ull << 52) - 1);
		} else {
			f = (f << 1) & ((1ull << 52) - 1);
		}
	}
	unsigned scaled = (unsigned)(256 | ((f >> 44) & 0xff));
	int64_t re = 2 * bias - 1 - e;
	uint64_t est = recip_estimate(scaled);
	f = (est & 0xff) << 44;
	if (re == 0) {
		f = (1ull << 51) | (f >> 1);
	} else if (re == -1) {
		f = (1ull << 50) | (f >> 2);
		re = 0;
	}
	unsigned mb = mbits(t);
	return sign | (uint64_t)re << mb | f >> (52 - mb);
}

uint64_t fp_rsqrte(struct a64_cpu *c, enum fp_type t, uint64_t a)
{
	uint64_t r, sign = a & fp_sign_bit(t);
	a = flush_in(c, t, a);
	if (nan_pick(c, t, &a, 1, &r))
		return r;
	if (is_zero(t, a)) {
		c->fpsr |= FPSR_DZC;
		return sign | exp_mask(t);
	}
	if (sign) {
		c->fpsr |= FPSR_IOC;
		return default_nan(t);
	}
	if (is_inf(t, a))
		return 0;
	int64_t e;
	uint64_t f;
	est_unpack(t, a, &f, &e);
	if (e == 0) {
		while (!(f >> 51)) {
			f = (f << 1) & ((1ull << 52) - 1);
			e--;
		}
		f = (f << 1) & ((1ull << 52) - 1);
	}
	unsigned scaled = (e & 1) ? (unsigned)(128 | ((f >> 45) & 0x7f))
				  : (unsigned)(256 | ((f >> 44) & 0xff));
	int bias = t == FT_H ? 15 : t == FT_S ? 127 : 1023;
	int64_t re = (3 * bias - 1 - e) / 2; /* non-negative here */
	uint64_t est = rsqrt_estimate(scaled);
	unsigned mb = mbits(t);
	return (uint64_t)re << mb | ((est & 0xff) << (mb - 8));
}

uint32_t fp_urecpe(uint32_t a)
{
	if (!(a >> 31))
		return 0xffffffffu;
	return recip_estimate(a >> 23) << 23;
}

uint32_t fp_ursqrte(uint32_t a)
{
	if (!(a >> 30))
		return 0xffffffffu;
	return rsqrt_estimate(a >> 23) << 23;
}

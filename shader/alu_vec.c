// SPDX-License-Identifier: MIT
/*
 * 16-bit and 8-bit vector operations (v2i16, v4i8, v2f16) and the
 * conversions between integer, f16 and f32 lanes.
 *
 * Lane options are named by the source lane each destination lane takes:
 * "h10" puts half 1 in lane 0 and half 0 in lane 1, "b0123" is the
 * identity on bytes, "b02" feeds two 16-bit lanes from bytes 0 and 2.
 * arrange() interprets such a name from the option table directly, so
 * one routine serves every swizzle, lane and replicate modifier.
 */
#include "shader/alu.h"

static inline uint32_t sub(uint32_t v, unsigned i, unsigned bits)
{
	return bits == 32 ? v : (v >> (i * bits)) & ((1u << bits) - 1);
}

static inline uint32_t sext(uint32_t v, unsigned bits)
{
	return bits >= 32 ? v : (uint32_t)((int32_t)(v << (32 - bits)) >> (32 - bits));
}

/*
 * Rebuilds @v with destination lanes of @dbits taken from the source
 * lanes @opt names (extended by @sign when narrower). Options that are
 * not lane lists ("none", defaults) leave @v as it is.
 */
/* A lane's value as a signed or unsigned integer. */
static inline int64_t ival(uint32_t v, unsigned bits, bool sign)
{
	return sign ? (int64_t)(int32_t)sext(v, bits) : (int64_t)v;
}

static uint32_t arrange(uint32_t v, uint16_t opt, unsigned dbits, bool sign)
{
	const char *n = bi_opt_names[opt];
	unsigned sbits, lanes = 32 / dbits;
	uint32_t r = 0;

	if ((n[0] != 'h' && n[0] != 'b') || os_strlen(n) != lanes + 1)
		return v;
	sbits = n[0] == 'h' ? 16 : 8;
	for (unsigned k = 0; k < lanes; k++) {
		unsigned i = (unsigned)(n[k + 1] - '0');
		uint32_t s = sub(v, i, sbits);

		if (sbits < dbits && sign)
			s = sext(s, sbits);
		r |= (s & (dbits == 32 ? ~0u : (1u << dbits) - 1)) << (k * dbits);
	}
	return r;
}

static uint32_t arranged(const struct op *o, unsigned s, unsigned m,
			 unsigned dbits, bool sign)
{
	return arrange(raw(o, s), mod(o, m, BI_O_NONE), dbits, sign);
}

static uint32_t lane_sat(int64_t v, unsigned bits, bool sign, bool sat)
{
	if (sat) {
		int64_t lo = sign ? -(1ll << (bits - 1)) : 0;
		int64_t hi = sign ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;

		v = v < lo ? lo : v > hi ? hi : v;
	}
	return (uint32_t)v & ((1u << bits) - 1);
}

/* Integer add/sub/halving-add over lanes. */
static uint32_t vec_add(const struct op *o, unsigned bits, bool sign, int kind)
{
	unsigned lanes = 32 / bits;
	bool sat = mod(o, BI_MOD_SATURATE, BI_O_NONE) == BI_O_SAT;
	uint32_t a = arranged(o, 0, BI_MOD_LANES0, bits, sign);
	uint32_t b = arranged(o, 1, BI_MOD_LANES1, bits, sign);
	uint32_t r = 0;

	if (kind == 2) { /* HADD: swap0/swap1 name the half order */
		a = arranged(o, 0, BI_MOD_SWAP0, bits, sign);
		b = arranged(o, 1, BI_MOD_SWAP1, bits, sign);
	}
	for (unsigned k = 0; k < lanes; k++) {
		int64_t x = ival(sub(a, k, bits), bits, sign);
		int64_t y = ival(sub(b, k, bits), bits, sign);
		int64_t v;

		if (kind == 2) {
			v = x + y + (mod(o, BI_MOD_ROUND, BI_O_RTN) == BI_O_RTP);
			v >>= 1;
		} else {
			v = kind ? x - y : x + y;
		}
		r |= lane_sat(v, bits, sign, sat && kind != 2) << (k * bits);
	}
	return r;
}

static uint32_t vec_cmp(const struct op *o, unsigned bits, bool sign, bool fp)
{
	unsigned lanes = 32 / bits;
	uint32_t a = fp ? alu_hsrc(o, 0) : arranged(o, 0, BI_MOD_SWZ0, bits, false);
	uint32_t b = fp ? alu_hsrc(o, 1) : arranged(o, 1, BI_MOD_SWZ1, bits, false);
	uint16_t type = mod(o, BI_MOD_RESULT_TYPE, BI_O_I1);
	uint16_t cmpf = mod(o, BI_MOD_CMPF, BI_O_EQ);
	uint32_t r = 0, ones = (1u << bits) - 1;

	for (unsigned k = 0; k < lanes; k++) {
		uint32_t x = sub(a, k, bits), y = sub(b, k, bits);
		int c;
		uint32_t v;

		if (fp) {
			if (o->x->ftz) {
				x = bi_fp_flush(&bi_f16, x);
				y = bi_fp_flush(&bi_f16, y);
			}
			c = bi_fp_cmp(&bi_f16, x, y);
		} else {
			c = alu_icmp(sign ? sext(x, bits) : x, sign ? sext(y, bits) : y, sign);
		}
		v = alu_cmp_result(c, cmpf);
		if (v)
			v = type == BI_O_M1 ? ones : type == BI_O_F1 ? 0x3c00 : 1;
		r |= v << (k * bits);
	}
	return r;
}

static uint32_t vec_csel(const struct op *o, unsigned bits, bool sign, bool fp)
{
	uint32_t a = raw(o, 0), b = raw(o, 1), t = raw(o, 2), f = raw(o, 3), r = 0;
	uint16_t cmpf = mod(o, BI_MOD_CMPF, BI_O_EQ);

	for (unsigned k = 0; k < 32 / bits; k++) {
		uint32_t x = sub(a, k, bits), y = sub(b, k, bits);
		int c = fp ? bi_fp_cmp(&bi_f16, x, y)
			   : alu_icmp(sign ? sext(x, bits) : x, sign ? sext(y, bits) : y, sign);

		r |= sub(alu_cmp_result(c, cmpf) ? t : f, k, bits) << (k * bits);
	}
	return r;
}

static uint32_t vec_mux(const struct op *o, unsigned bits)
{
	uint32_t a = arranged(o, 0, BI_MOD_SWAP0, bits, false);
	uint32_t b = arranged(o, 1, BI_MOD_SWAP1, bits, false);
	uint32_t c = arranged(o, 2, BI_MOD_SWAP2, bits, false), r = 0;
	uint16_t m = mod(o, BI_MOD_MUX, BI_O_INT_ZERO);

	/* as MUX.i32 (alu.c): a set bit, a negative lane or a zero one
	 * selects the first source */
	if (m == BI_O_BIT)
		return (a & c) | (b & ~c);
	for (unsigned k = 0; k < 32 / bits; k++) {
		uint32_t ck = sub(c, k, bits);
		bool pick_b;

		if (m == BI_O_NEG)
			pick_b = !((ck >> (bits - 1)) & 1);
		else if (m == BI_O_FP_ZERO)
			pick_b = (ck & ((1u << (bits - 1)) - 1)) != 0;
		else
			pick_b = ck != 0;
		r |= sub(pick_b ? b : a, k, bits) << (k * bits);
	}
	return r;
}

/* Shifts with per-lane amounts from the bytes lanes2 names. */
static uint32_t vec_shift(const struct op *o, unsigned bits, int dir, unsigned kind)
{
	uint32_t a = raw(o, 0), b = raw(o, 1), r = 0;
	uint32_t s = arranged(o, 2, BI_MOD_LANES2, bits, false);

	if (mod(o, BI_MOD_NOT1, BI_O_NONE) == BI_O_NOT)
		b = ~b;
	for (unsigned k = 0; k < 32 / bits; k++) {
		uint32_t x = sub(a, k, bits), y = sub(b, k, bits), v;
		unsigned n = sub(s, k, bits) & (bits - 1);

		if (dir == 0)
			v = x << n;
		else if (dir == 1)
			v = x >> n;
		else
			v = sext(x, bits) >> n | y; /* arithmetic; src1 is zero */
		v = kind == 0 ? (v | y) : kind == 1 ? (v & y) : (v ^ y);
		r |= (v & ((1u << bits) - 1)) << (k * bits);
	}
	if (mod(o, BI_MOD_NOT_RESULT, BI_O_NONE) == BI_O_NOT)
		r = ~r;
	return r;
}

static uint32_t vec_mul(const struct op *o, unsigned bits)
{
	unsigned m0 = bits == 16 ? BI_MOD_SWZ0 : BI_MOD_REPLICATE0;
	unsigned m1 = bits == 16 ? BI_MOD_SWZ1 : BI_MOD_REPLICATE1;
	uint32_t a = arranged(o, 0, m0, bits, false), b = arranged(o, 1, m1, bits, false);
	uint32_t r = 0;

	for (unsigned k = 0; k < 32 / bits; k++)
		r |= ((sub(a, k, bits) * sub(b, k, bits)) & ((1u << bits) - 1)) << (k * bits);
	return r;
}

/* f16 lanes through a per-lane function of the soft float. */
static uint32_t vec_f16(const struct op *o, unsigned what)
{
	uint32_t a = alu_hsrc(o, 0), b = what < 2 ? alu_hsrc(o, 1) : 0, r = 0;

	for (unsigned k = 0; k < 2; k++) {
		uint32_t x = sub(a, k, 16), y = sub(b, k, 16), v;

		if (o->x->ftz) {
			x = bi_fp_flush(&bi_f16, x);
			y = bi_fp_flush(&bi_f16, y);
		}
		if (what < 2)
			v = bi_fp_minmax(&bi_f16, x, y, what == 1, alu_mm_sem(o));
		else if (what == 2)
			v = bi_fp_round_int(&bi_f16, x, bi_round_mode(o->ins));
		else
			v = bi_fp_is_nan(&bi_f16, x) ? bi_fp_quiet(&bi_f16, x) : x;
		r |= v << (16 * k);
	}
	return r;
}

/* v2f16 -> v2s16/v2u16 and back, lanes after swz0. */
static uint32_t vec_cvt16(const struct op *o, bool to_int, bool sign)
{
	uint32_t a = arranged(o, 0, BI_MOD_SWZ0, 16, false), r = 0;
	enum bi_rm rm = bi_round_mode(o->ins);

	for (unsigned k = 0; k < 2; k++) {
		uint32_t x = sub(a, k, 16), v;

		if (to_int)
			v = (uint32_t)bi_fp_to_int(&bi_f16, x, rm, sign ? -32768 : 0,
						   sign ? 32767 : 65535);
		else
			v = bi_fp_from_int(&bi_f16, ival(x, 16, sign), rm);
		r |= (v & 0xffff) << (16 * k);
	}
	return r;
}

/* Two bytes (chosen by swz0) to two 16-bit lanes, as ints or f16. */
static uint32_t vec_cvt8(const struct op *o, bool sign, bool to_f16)
{
	uint32_t a = arranged(o, 0, BI_MOD_SWZ0, 16, sign), r = 0;

	for (unsigned k = 0; k < 2; k++) {
		uint32_t x = sub(a, k, 16);

		if (to_f16)
			x = bi_fp_from_int(&bi_f16, ival(x, 16, sign), BI_RM_RTE);
		r |= (x & 0xffff) << (16 * k);
	}
	return r;
}

bool bi_exec_alu_vec(const struct op *o, uint32_t *out)
{
	uint32_t r = 0, a;
	enum bi_rm rm = bi_round_mode(o->ins);

	switch (o->ins->desc->op) {
	case BI_OP_IADD_V2S16: r = vec_add(o, 16, true, 0); break;
	case BI_OP_IADD_V2U16: r = vec_add(o, 16, false, 0); break;
	case BI_OP_IADD_V4S8: r = vec_add(o, 8, true, 0); break;
	case BI_OP_IADD_V4U8: r = vec_add(o, 8, false, 0); break;
	case BI_OP_ISUB_V2S16: r = vec_add(o, 16, true, 1); break;
	case BI_OP_ISUB_V2U16: r = vec_add(o, 16, false, 1); break;
	case BI_OP_ISUB_V4S8: r = vec_add(o, 8, true, 1); break;
	case BI_OP_ISUB_V4U8: r = vec_add(o, 8, false, 1); break;
	case BI_OP_HADD_V2S16: r = vec_add(o, 16, true, 2); break;
	case BI_OP_HADD_V2U16: r = vec_add(o, 16, false, 2); break;
	case BI_OP_HADD_V4S8: r = vec_add(o, 8, true, 2); break;
	case BI_OP_HADD_V4U8: r = vec_add(o, 8, false, 2); break;
	case BI_OP_IABS_V2S16:
	case BI_OP_IABS_V4S8: {
		unsigned bits = o->ins->desc->op == BI_OP_IABS_V2S16 ? 16 : 8;

		a = arranged(o, 0, BI_MOD_SWZ0, bits, false);
		for (unsigned k = 0; k < 32 / bits; k++) {
			int32_t v = (int32_t)sext(sub(a, k, bits), bits);

			r |= ((uint32_t)(v < 0 ? -v : v) & ((1u << bits) - 1)) << (k * bits);
		}
		break;
	}
	case BI_OP_ICMP_V2I16: r = vec_cmp(o, 16, false, false); break;
	case BI_OP_ICMP_V2S16: r = vec_cmp(o, 16, true, false); break;
	case BI_OP_ICMP_V2U16: r = vec_cmp(o, 16, false, false); break;
	case BI_OP_ICMP_V4I8: r = vec_cmp(o, 8, false, false); break;
	case BI_OP_ICMP_V4S8: r = vec_cmp(o, 8, true, false); break;
	case BI_OP_ICMP_V4U8: r = vec_cmp(o, 8, false, false); break;
	case BI_OP_FCMP_V2F16: r = vec_cmp(o, 16, false, true); break;
	case BI_OP_CSEL_V2I16: r = vec_csel(o, 16, false, false); break;
	case BI_OP_CSEL_V2S16: r = vec_csel(o, 16, true, false); break;
	case BI_OP_CSEL_V2U16: r = vec_csel(o, 16, false, false); break;
	case BI_OP_CSEL_V2F16: r = vec_csel(o, 16, false, true); break;
	case BI_OP_MUX_V2I16: r = vec_mux(o, 16); break;
	case BI_OP_MUX_V4I8: r = vec_mux(o, 8); break;
	case BI_OP_LSHIFT_OR_V2I16: r = vec_shift(o, 16, 0, 0); break;
	case BI_OP_LSHIFT_AND_V2I16: r = vec_shift(o, 16, 0, 1); break;
	case BI_OP_LSHIFT_XOR_V2I16: r = vec_shift(o, 16, 0, 2); break;
	case BI_OP_RSHIFT_OR_V2I16: r = vec_shift(o, 16, 1, 0); break;
	case BI_OP_RSHIFT_AND_V2I16: r = vec_shift(o, 16, 1, 1); break;
	case BI_OP_RSHIFT_XOR_V2I16: r = vec_shift(o, 16, 1, 2); break;
	case BI_OP_ARSHIFT_V2I16: r = vec_shift(o, 16, 2, 0); break;
	case BI_OP_LSHIFT_OR_V4I8: r = vec_shift(o, 8, 0, 0); break;
	case BI_OP_LSHIFT_AND_V4I8: r = vec_shift(o, 8, 0, 1); break;
	case BI_OP_LSHIFT_XOR_V4I8: r = vec_shift(o, 8, 0, 2); break;
	case BI_OP_RSHIFT_OR_V4I8: r = vec_shift(o, 8, 1, 0); break;
	case BI_OP_RSHIFT_AND_V4I8: r = vec_shift(o, 8, 1, 1); break;
	case BI_OP_RSHIFT_XOR_V4I8: r = vec_shift(o, 8, 1, 2); break;
	case BI_OP_ARSHIFT_V4I8: r = vec_shift(o, 8, 2, 0); break;
	case BI_OP_IMUL_V2I16: r = vec_mul(o, 16); break;
	case BI_OP_IMUL_V4I8: r = vec_mul(o, 8); break;
	case BI_OP_MKVEC_V4I8: {
		static const uint8_t lane_mod[4] = { BI_MOD_LANE0, BI_MOD_LANE1,
						     BI_MOD_LANE2, BI_MOD_LANE3 };

		for (unsigned k = 0; k < 4; k++)
			r |= alu_select_lane(raw(o, k), mod(o, lane_mod[k], BI_O_B0), false)
			     << (8 * k);
		break;
	}
	case BI_OP_CLZ_V2U16:
	case BI_OP_CLZ_V4U8: {
		unsigned bits = o->ins->desc->op == BI_OP_CLZ_V2U16 ? 16 : 8;

		a = arranged(o, 0, BI_MOD_SWZ0, bits, false);
		for (unsigned k = 0; k < 32 / bits; k++) {
			uint32_t v = sub(a, k, bits);

			r |= (v ? (unsigned)__builtin_clz(v) - (32 - bits) : bits) << (k * bits);
		}
		break;
	}
	case BI_OP_SWZ_V2I16: r = arranged(o, 0, BI_MOD_SWZ0, 16, false); break;
	case BI_OP_SWZ_V4I8: r = arranged(o, 0, BI_MOD_SWZ0, 8, false); break;
	case BI_OP_FMIN_V2F16: r = vec_f16(o, 0); break;
	case BI_OP_FMAX_V2F16: r = vec_f16(o, 1); break;
	case BI_OP_FROUND_V2F16: r = vec_f16(o, 2); break;
	case BI_OP_QUIET_V2F16: r = vec_f16(o, 3); break;
	case BI_OP_QUIET_F32:
		a = raw(o, 0);
		r = bi_fp_is_nan(&bi_f32, a) ? bi_fp_quiet(&bi_f32, a) : a;
		break;
	case BI_OP_V2F16_TO_V2S16: r = vec_cvt16(o, true, true); break;
	case BI_OP_V2F16_TO_V2U16: r = vec_cvt16(o, true, false); break;
	case BI_OP_V2S16_TO_V2F16: r = vec_cvt16(o, false, true); break;
	case BI_OP_V2U16_TO_V2F16: r = vec_cvt16(o, false, false); break;
	case BI_OP_V2S8_TO_V2S16: r = vec_cvt8(o, true, false); break;
	case BI_OP_V2U8_TO_V2U16: r = vec_cvt8(o, false, false); break;
	case BI_OP_V2S8_TO_V2F16: r = vec_cvt8(o, true, true); break;
	case BI_OP_V2U8_TO_V2F16: r = vec_cvt8(o, false, true); break;
	case BI_OP_F16_TO_S32:
	case BI_OP_F16_TO_U32: {
		bool sign = o->ins->desc->op == BI_OP_F16_TO_S32;

		a = alu_select_lane(raw(o, 0), mod(o, BI_MOD_LANE0, BI_O_H0), false);
		r = (uint32_t)bi_fp_to_int(&bi_f16, a, rm, sign ? INT32_MIN : 0,
					   sign ? INT32_MAX : UINT32_MAX);
		break;
	}
	case BI_OP_S16_TO_F32:
	case BI_OP_U16_TO_F32:
	case BI_OP_S8_TO_F32:
	case BI_OP_U8_TO_F32: {
		unsigned op = o->ins->desc->op;
		bool sign = op == BI_OP_S16_TO_F32 || op == BI_OP_S8_TO_F32;
		bool h = op == BI_OP_S16_TO_F32 || op == BI_OP_U16_TO_F32;

		a = alu_select_lane(raw(o, 0), mod(o, BI_MOD_LANE0, h ? BI_O_H0 : BI_O_B0),
				    sign);
		r = bi_fp_from_int(&bi_f32, sign ? (int32_t)a : (int64_t)a, BI_RM_RTE);
		break;
	}
	case BI_OP_LDEXP_F32:
		r = bi_fp_ldexp(&bi_f32, raw(o, 0), (int32_t)raw(o, 1), rm, o->x->ftz);
		break;
	case BI_OP_LDEXP_V2F16:
		a = raw(o, 0);
		for (unsigned k = 0; k < 2; k++)
			r |= bi_fp_ldexp(&bi_f16, sub(a, k, 16),
					 (int32_t)sext(sub(raw(o, 1), k, 16), 16), rm,
					 o->x->ftz) << (16 * k);
		break;
	default:
		return false;
	}
	*out = r;
	return true;
}

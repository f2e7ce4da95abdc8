// SPDX-License-Identifier: MIT
/*
 * FMA- and ADD-unit arithmetic: integer, bitwise, conversion, compare,
 * select, floating point (through fp.c) and branch operations. Operands
 * come raw from bi_src(); this file applies the source modifiers
 * (widen, swizzle, lane select, abs/neg) and result modifiers (clamp,
 * result type) each operation's table entry carries.
 */
#include "shader/alu.h"

static const uint8_t abs_mod[3] = { BI_MOD_ABS0, BI_MOD_ABS1, BI_MOD_ABS2 };
static const uint8_t neg_mod[3] = { BI_MOD_NEG0, BI_MOD_NEG1, BI_MOD_NEG2 };
static const uint8_t swz_mod[3] = { BI_MOD_SWZ0, BI_MOD_SWZ1, BI_MOD_SWZ2 };

/* A 32-bit float source after widen, abs and neg. */
uint32_t alu_fsrc(const struct op *o, unsigned s)
{
	uint32_t v = raw(o, s);
	unsigned f = s < 3 ? o->ins->srcmod[s] : 0;

	if (os_unlikely(f & (BI_SRC_WIDEN_H0 | BI_SRC_WIDEN_H1)))
		v = bi_fp_convert(&bi_f32, &bi_f16,
				  f & BI_SRC_WIDEN_H0 ? v & 0xffff : v >> 16,
				  BI_RM_RTE, false);
	if (f & BI_SRC_ABS)
		v &= 0x7fffffffu;
	if (f & BI_SRC_NEG)
		v ^= 0x80000000u;
	return v;
}

/* A v2f16 source after swizzle, abs and neg (both halves). */
uint32_t alu_hsrc(const struct op *o, unsigned s)
{
	uint32_t v = raw(o, s), lo = v & 0xffff, hi = v >> 16;

	switch (s < 3 ? mod(o, swz_mod[s], BI_O_H01) : BI_O_H01) {
	case BI_O_H00:
		v = lo | lo << 16;
		break;
	case BI_O_H10:
		v = hi | lo << 16;
		break;
	case BI_O_H11:
		v = hi | hi << 16;
		break;
	default:
		break;
	}
	if (s < 3 && mod(o, abs_mod[s], BI_O_NONE) == BI_O_ABS)
		v &= 0x7fff7fffu;
	if (s < 3 && mod(o, neg_mod[s], BI_O_NONE) == BI_O_NEG)
		v ^= 0x80008000u;
	return v;
}

unsigned alu_clamp_of(const struct op *o)
{
	switch (mod(o, BI_MOD_CLAMP, BI_O_NONE)) {
	case BI_O_CLAMP_0_INF:
		return 1;
	case BI_O_CLAMP_M1_1:
		return 2;
	case BI_O_CLAMP_0_1:
		return 3;
	default:
		return 0;
	}
}

/* Applies a per-half f16 operation to two packed halves. */
static uint32_t v2f16_fma(const struct op *o, uint32_t a, uint32_t b, uint32_t c,
			  bool has_c)
{
	enum bi_rm rm = bi_round_mode(o->ins);
	unsigned cl = alu_clamp_of(o);
	uint32_t r = 0;

	for (unsigned h = 0; h < 2; h++) {
		uint32_t v = bi_fp_fma(&bi_f16, (a >> 16 * h) & 0xffff,
				       (b >> 16 * h) & 0xffff,
				       (c >> 16 * h) & 0xffff, has_c, rm, o->x->ftz);

		r |= bi_fp_clamp(&bi_f16, v, cl) << 16 * h;
	}
	return r;
}

/* Sub-word selection of integer sources (lane, lanes, widen options). */
uint32_t alu_select_lane(uint32_t v, uint16_t opt, bool sign)
{
	switch (opt) {
	case BI_O_H0:
		return sign ? (uint32_t)(int32_t)(int16_t)v : v & 0xffff;
	case BI_O_H1:
		return sign ? (uint32_t)(int32_t)(int16_t)(v >> 16) : v >> 16;
	case BI_O_B0:
	case BI_O_B1:
	case BI_O_B2:
	case BI_O_B3: {
		uint32_t b = (v >> (8 * (opt - BI_O_B0))) & 0xff;

		return sign ? (uint32_t)(int32_t)(int8_t)b : b;
	}
	default:
		return v;
	}
}

bool alu_cmp_result(int c, uint16_t cmpf)
{
	switch (cmpf) {
	case BI_O_EQ:
		return c == 0;
	case BI_O_GT:
		return c == 1;
	case BI_O_GE:
		return c == 1 || c == 0;
	case BI_O_NE:
		return c != 0; /* unordered counts as not equal */
	case BI_O_LT:
		return c == -1;
	case BI_O_LE:
		return c == -1 || c == 0;
	case BI_O_GTLT:
		return c == 1 || c == -1;
	default:
		return false;
	}
}

int alu_icmp(uint32_t a, uint32_t b, bool sign)
{
	if (sign)
		return (int32_t)a < (int32_t)b ? -1 : (int32_t)a > (int32_t)b;
	return a < b ? -1 : a > b;
}

uint32_t alu_bool_result(bool v, uint16_t type)
{
	if (type == BI_O_M1)
		return v ? ~0u : 0;
	if (type == BI_O_F1)
		return v ? 0x3f800000u : 0;
	return v;
}

uint32_t alu_sat_add(uint32_t a, uint32_t b, bool sub, bool sign, bool sat)
{
	uint64_t r;

	if (!sat)
		return sub ? a - b : a + b;
	if (sign) {
		int64_t s = sub ? (int64_t)(int32_t)a - (int32_t)b
				: (int64_t)(int32_t)a + (int32_t)b;

		return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? (uint32_t)INT32_MIN
								  : (uint32_t)s;
	}
	r = sub ? (uint64_t)a - b : (uint64_t)a + b;
	if (sub)
		return a < b ? 0 : (uint32_t)r;
	return r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
}

/* Byte @lane2 of the shift source, as a shift amount. */
static unsigned shift_amount(const struct op *o)
{
	return alu_select_lane(raw(o, 2), mod(o, BI_MOD_LANE2, BI_O_B0), false) & 31;
}

static uint32_t shift_op(const struct op *o, bool left, unsigned kind)
{
	uint32_t a = raw(o, 0), b = raw(o, 1), r;
	unsigned s = shift_amount(o);

	a = left ? a << s : a >> s;
	if (mod(o, BI_MOD_NOT1, BI_O_NONE) == BI_O_NOT)
		b = ~b;
	r = kind == 0 ? (a | b) : kind == 1 ? (a & b) : (a ^ b);
	if (mod(o, BI_MOD_NOT_RESULT, BI_O_NONE) == BI_O_NOT)
		r = ~r;
	return r;
}

/*
 * Branch targets are absolute low words within the current 4 GiB. A
 * target word of 0 is not an address: it ends the thread successfully.
 * Mesa's Bifrost compiler relies on that for every branch to the
 * (empty) end of the program, which it emits as a branch to #0.
 */
static void branch(const struct op *o, bool take, uint32_t target)
{
	if (!take)
		return;
	o->x->taken |= (uint8_t)(1u << o->lane);
	o->x->target[o->lane] = target ? (o->x->pc & ~0xffffffffull) | target
				       : BI_TARGET_END;
}

int alu_fcmp_f(const struct op *o, uint32_t a, uint32_t b)
{
	if (o->x->ftz) {
		a = bi_fp_flush(&bi_f32, a);
		b = bi_fp_flush(&bi_f32, b);
	}
	return bi_fp_cmp(&bi_f32, a, b);
}

enum bi_minmax_sem alu_mm_sem(const struct op *o)
{
	switch (mod(o, BI_MOD_SEM, BI_O_NAN_SUPPRESS)) {
	case BI_O_NAN_PROPAGATE:
		return BI_MM_NAN_PROPAGATE;
	case BI_O_C:
		return BI_MM_C;
	case BI_O_INVERSE_C:
		return BI_MM_INVERSE_C;
	default:
		return BI_MM_NAN_SUPPRESS;
	}
}

/* 16-bit branches: widen0/widen1 pick the half compared (against zero
 * for BRANCHZ, whose target is then source 1 instead of 2). */
static void branch16(const struct op *o)
{
	unsigned op = o->ins->desc->op;
	bool z = op == BI_OP_BRANCHZ_I16 || op == BI_OP_BRANCHZ_S16 ||
		 op == BI_OP_BRANCHZ_U16 || op == BI_OP_BRANCHZ_F16;
	bool sign = op == BI_OP_BRANCHZ_S16 || op == BI_OP_BRANCH_S16;
	bool fp = op == BI_OP_BRANCHZ_F16 || op == BI_OP_BRANCH_F16;
	uint32_t a = alu_select_lane(raw(o, 0), mod(o, BI_MOD_WIDEN0, BI_O_H0), false);
	uint32_t b = z ? 0 : alu_select_lane(raw(o, 1), mod(o, BI_MOD_WIDEN1, BI_O_H0), false);
	int c;

	a &= 0xffff;
	b &= 0xffff;
	if (fp)
		c = bi_fp_cmp(&bi_f16, o->x->ftz ? bi_fp_flush(&bi_f16, a) : a,
			      o->x->ftz ? bi_fp_flush(&bi_f16, b) : b);
	else
		c = alu_icmp(sign ? (uint32_t)(int32_t)(int16_t)a : a,
			     sign ? (uint32_t)(int32_t)(int16_t)b : b, sign);
	branch(o, alu_cmp_result(c, mod(o, BI_MOD_CMPF, BI_O_EQ)), raw(o, z ? 1 : 2));
}

/*
 * SEG_ADD turns a segment (WLS/TLS) offset into a global address, as a
 * 64-bit pair split over the units of one tuple: the FMA adds the base's
 * low word, the ADD its high word plus the carry, which it sees in this
 * tuple's FMA result. preserve_null keeps a null pointer null.
 */
static uint32_t seg_add(const struct op *o)
{
	uint64_t base = mod(o, BI_MOD_SEG, BI_O_WLS) == BI_O_TL ?
			o->x->w->tls_base[o->lane] : o->x->env->wls_base;
	bool keep_null = mod(o, BI_MOD_PRESERVE_NULL, BI_O_NONE) == BI_O_PRESERVE_NULL;
	uint32_t v = raw(o, 0), lo = o->x->fma[o->lane];

	if (o->fma)
		return keep_null && !v ? 0 : v + (uint32_t)base;
	if (keep_null && !v && !lo)
		return 0;
	return v + (uint32_t)(base >> 32) + (lo < (uint32_t)base);
}

/* Cross-lane permute within the warp (subgroups larger than a warp are
 * not something the hardware provides either). */
static uint32_t clper(const struct op *o, bool v6)
{
	unsigned n = o->x->w->nlanes, m = n - 1;
	unsigned src = raw(o, 1) & m;
	uint16_t lop = v6 ? BI_O_NONE : mod(o, BI_MOD_LANE_OP, BI_O_NONE);

	if (lop == BI_O_XOR)
		src = (o->lane ^ raw(o, 1)) & m;
	else if (lop == BI_O_ACCUMULATE)
		src = (o->lane + raw(o, 1)) & m;
	else if (lop == BI_O_SHIFT)
		src = (o->lane - raw(o, 1)) & m;
	if (!(o->x->mask & (1u << src)))
		return v6 ? 0 : (mod(o, BI_MOD_INACTIVE_RESULT, BI_O_ZERO) ==
					 BI_O_UMAX ? ~0u : 0);
	return bi_src(o->x, o->ins, 0, src, o->fma);
}

int bi_exec_alu(struct bi_tctx *x, const struct bi_instr *ins, bool fma,
		unsigned lane, uint32_t *out)
{
	struct op o = { x, ins, lane, fma };
	enum bi_rm rm = bi_round_mode(ins);
	bool ftz = x->ftz;
	uint32_t a, b, r = 0;

	switch (ins->desc->op) {
	case BI_OP_NOP:
	/* The coalescing half of an atomic: no visible effect (msg.c). */
	case BI_OP_ATOM_C_I32:
	case BI_OP_ATOM_C_RETURN_I32:
	case BI_OP_ATOM_C1_I32:
	case BI_OP_ATOM_C1_RETURN_I32:
	case BI_OP_ATOM_C_I64:
	case BI_OP_ATOM_C_RETURN_I64:
	case BI_OP_ATOM_C1_I64:
	case BI_OP_ATOM_C1_RETURN_I64:
		break;
	case BI_OP_ATOM_POST_I32:
		r = raw(&o, 0);
		break;
	case BI_OP_MOV_I32:
		r = raw(&o, 0);
		break;
	case BI_OP_DTSEL_IMM:
		/* passes its source on and picks the descriptor table of the
		 * ADD message in the same tuple */
		r = raw(&o, 0);
		switch (mod(&o, BI_MOD_TABLE, BI_O_NONE)) {
		case BI_O_ATTRIBUTE_1:
			x->table = 1;
			break;
		case BI_O_ATTRIBUTE_2:
			x->table = 2;
			break;
		default:
			return BI_FAULT_UNIMPLEMENTED;
		}
		break;
	/* Floating point */
	case BI_OP_FMA_F32:
		r = bi_f32_fma(alu_fsrc(&o, 0), alu_fsrc(&o, 1), alu_fsrc(&o, 2), rm, ftz);
		r = bi_fp_clamp(&bi_f32, r, alu_clamp_of(&o));
		break;
	case BI_OP_FADD_F32:
		r = bi_f32_add(alu_fsrc(&o, 0), alu_fsrc(&o, 1), rm, ftz);
		r = bi_fp_clamp(&bi_f32, r, alu_clamp_of(&o));
		break;
	case BI_OP_FMA_V2F16:
		r = v2f16_fma(&o, alu_hsrc(&o, 0), alu_hsrc(&o, 1), alu_hsrc(&o, 2), true);
		break;
	case BI_OP_FADD_V2F16:
		r = v2f16_fma(&o, alu_hsrc(&o, 0), 0x3c003c00u, alu_hsrc(&o, 1), true);
		break;
	case BI_OP_FMIN_F32:
	case BI_OP_FMAX_F32:
		a = alu_fsrc(&o, 0);
		b = alu_fsrc(&o, 1);
		if (ftz) {
			a = bi_fp_flush(&bi_f32, a);
			b = bi_fp_flush(&bi_f32, b);
		}
		r = bi_fp_minmax(&bi_f32, a, b, ins->desc->op == BI_OP_FMAX_F32,
				 alu_mm_sem(&o));
		r = bi_fp_clamp(&bi_f32, r, alu_clamp_of(&o));
		break;
	case BI_OP_FCMP_F32:
		r = alu_bool_result(alu_cmp_result(alu_fcmp_f(&o, alu_fsrc(&o, 0), alu_fsrc(&o, 1)),
					   mod(&o, BI_MOD_CMPF, BI_O_EQ)),
				mod(&o, BI_MOD_RESULT_TYPE, BI_O_I1));
		break;
	case BI_OP_FROUND_F32:
		r = bi_fp_round_int(&bi_f32, alu_fsrc(&o, 0), rm);
		break;
	case BI_OP_F16_TO_F32:
		a = raw(&o, 0);
		a = mod(&o, BI_MOD_LANE0, BI_O_H0) == BI_O_H1 ? a >> 16 : a & 0xffff;
		r = bi_fp_convert(&bi_f32, &bi_f16, a, BI_RM_RTE, ftz);
		break;
	case BI_OP_V2F32_TO_V2F16:
		for (unsigned h = 0; h < 2; h++) {
			uint32_t v = bi_fp_convert(&bi_f16, &bi_f32, alu_fsrc(&o, h), rm, ftz);

			r |= bi_fp_clamp(&bi_f16, v, alu_clamp_of(&o)) << 16 * h;
		}
		break;
	case BI_OP_F32_TO_S32:
		r = (uint32_t)bi_fp_to_int(&bi_f32, ftz ? bi_fp_flush(&bi_f32, raw(&o, 0)) : raw(&o, 0),
					   rm, INT32_MIN, INT32_MAX);
		break;
	case BI_OP_F32_TO_U32:
		r = (uint32_t)bi_fp_to_int(&bi_f32, ftz ? bi_fp_flush(&bi_f32, raw(&o, 0)) : raw(&o, 0),
					   rm, 0, UINT32_MAX);
		break;
	case BI_OP_S32_TO_F32:
		r = bi_fp_from_int(&bi_f32, (int32_t)raw(&o, 0), rm);
		break;
	case BI_OP_U32_TO_F32:
		r = bi_fp_from_int(&bi_f32, raw(&o, 0), rm);
		break;
	/* Integer arithmetic */
	case BI_OP_IADD_S32:
	case BI_OP_IADD_U32:
	case BI_OP_ISUB_S32:
	case BI_OP_ISUB_U32: {
		bool sign = ins->desc->op == BI_OP_IADD_S32 ||
			    ins->desc->op == BI_OP_ISUB_S32;
		bool sub = ins->desc->op == BI_OP_ISUB_S32 ||
			   ins->desc->op == BI_OP_ISUB_U32;

		b = alu_select_lane(raw(&o, 1), mod(&o, BI_MOD_LANES1, BI_O_NONE), sign);
		r = alu_sat_add(raw(&o, 0), b, sub, sign,
			    mod(&o, BI_MOD_SATURATE, BI_O_NONE) == BI_O_SAT);
		break;
	}
	case BI_OP_IMUL_I32:
		b = alu_select_lane(raw(&o, 1), mod(&o, BI_MOD_WIDEN1, BI_O_NONE),
				mod(&o, BI_MOD_EXTEND, BI_O_NONE) == BI_O_SEXT);
		r = raw(&o, 0) * b;
		break;
	case BI_OP_IABS_S32:
		a = raw(&o, 0);
		r = (int32_t)a < 0 ? 0 - a : a;
		break;
	case BI_OP_HADD_S32:
	case BI_OP_HADD_U32: {
		bool sign = ins->desc->op == BI_OP_HADD_S32;
		int64_t s = sign ? (int64_t)(int32_t)raw(&o, 0) + (int32_t)raw(&o, 1)
				 : (int64_t)raw(&o, 0) + raw(&o, 1);

		if (mod(&o, BI_MOD_ROUND, BI_O_RTN) == BI_O_RTP)
			s++;
		r = (uint32_t)(s >> 1);
		break;
	}
	case BI_OP_IADDC_I32:
		r = raw(&o, 0) + raw(&o, 1) + (raw(&o, 2) & 1);
		break;
	case BI_OP_ISUBB_I32:
		r = raw(&o, 0) - raw(&o, 1) - (raw(&o, 2) & 1);
		break;
	case BI_OP_S8_TO_S32:
	case BI_OP_U8_TO_U32:
	case BI_OP_S16_TO_S32:
	case BI_OP_U16_TO_U32:
		r = alu_select_lane(raw(&o, 0),
				mod(&o, BI_MOD_LANE0,
				    (ins->desc->op == BI_OP_S8_TO_S32 ||
				     ins->desc->op == BI_OP_U8_TO_U32) ? BI_O_B0 : BI_O_H0),
				ins->desc->op == BI_OP_S8_TO_S32 ||
					ins->desc->op == BI_OP_S16_TO_S32);
		break;
	case BI_OP_MKVEC_V2I16:
		r = (alu_select_lane(raw(&o, 0), mod(&o, BI_MOD_LANE0, BI_O_H0), false) & 0xffff) |
		    alu_select_lane(raw(&o, 1), mod(&o, BI_MOD_LANE1, BI_O_H0), false) << 16;
		break;
	/* Bitwise */
	case BI_OP_LSHIFT_OR_I32:
	case BI_OP_LSHIFT_AND_I32:
	case BI_OP_LSHIFT_XOR_I32:
	case BI_OP_RSHIFT_OR_I32:
	case BI_OP_RSHIFT_AND_I32:
	case BI_OP_RSHIFT_XOR_I32: {
		unsigned op = ins->desc->op;
		bool left = op == BI_OP_LSHIFT_OR_I32 || op == BI_OP_LSHIFT_AND_I32 ||
			    op == BI_OP_LSHIFT_XOR_I32;
		unsigned kind = (op == BI_OP_LSHIFT_OR_I32 || op == BI_OP_RSHIFT_OR_I32) ? 0 :
				(op == BI_OP_LSHIFT_AND_I32 || op == BI_OP_RSHIFT_AND_I32) ? 1 : 2;

		r = shift_op(&o, left, kind);
		break;
	}
	case BI_OP_ARSHIFT_I32:
		r = (uint32_t)((int32_t)raw(&o, 0) >> shift_amount(&o)) | raw(&o, 1);
		break;
	case BI_OP_POPCOUNT_I32:
		r = os_popcount32(raw(&o, 0));
		break;
	case BI_OP_CLZ_U32:
		a = raw(&o, 0);
		r = a ? (uint32_t)__builtin_clz(a) : 32;
		break;
	case BI_OP_BITREV_I32:
		a = raw(&o, 0);
		for (unsigned i = 0; i < 32; i++)
			r |= ((a >> i) & 1) << (31 - i);
		break;
	/* Compare and select */
	case BI_OP_ICMP_I32:
	case BI_OP_ICMP_S32:
	case BI_OP_ICMP_U32:
		r = alu_bool_result(alu_cmp_result(alu_icmp(raw(&o, 0), raw(&o, 1),
						ins->desc->op == BI_OP_ICMP_S32),
					   mod(&o, BI_MOD_CMPF, BI_O_EQ)),
				mod(&o, BI_MOD_RESULT_TYPE, BI_O_I1));
		break;
	case BI_OP_CSEL_I32:
	case BI_OP_CSEL_S32:
	case BI_OP_CSEL_U32:
	case BI_OP_CSEL_F32: {
		int c = ins->desc->op == BI_OP_CSEL_F32 ?
				alu_fcmp_f(&o, raw(&o, 0), raw(&o, 1)) :
				alu_icmp(raw(&o, 0), raw(&o, 1), ins->desc->op == BI_OP_CSEL_S32);

		r = alu_cmp_result(c, mod(&o, BI_MOD_CMPF, BI_O_EQ)) ? raw(&o, 2) : raw(&o, 3);
		break;
	}
	case BI_OP_MUX_I32: {
		uint32_t c = raw(&o, 2);

		a = raw(&o, 0);
		b = raw(&o, 1);
		/* a set bit (the sign for .neg) or a zero selects the first
		 * source: Mesa rewrites MUX.neg x, y, c as CSEL c < 0 ? x : y and
		 * packs a cube map's s and face with MUX.bit s, face, 0x1fffffff */
		switch (mod(&o, BI_MOD_MUX, BI_O_INT_ZERO)) {
		case BI_O_NEG:
			r = (int32_t)c < 0 ? a : b;
			break;
		case BI_O_FP_ZERO:
			r = (c & 0x7fffffffu) == 0 ? a : b;
			break;
		case BI_O_BIT:
			r = (a & c) | (b & ~c);
			break;
		default:
			r = c == 0 ? a : b;
			break;
		}
		break;
	}
	case BI_OP_SEG_ADD:
		r = seg_add(&o);
		break;
	case BI_OP_CLPER_V6_I32:
	case BI_OP_CLPER_I32:
		r = clper(&o, ins->desc->op == BI_OP_CLPER_V6_I32);
		break;
	/* Control flow */
	case BI_OP_JUMP:
		branch(&o, true, raw(&o, 0));
		break;
	case BI_OP_BRANCHZ_I32:
	case BI_OP_BRANCHZ_S32:
	case BI_OP_BRANCHZ_U32:
	case BI_OP_BRANCHZ_F32: {
		int c = ins->desc->op == BI_OP_BRANCHZ_F32 ?
				alu_fcmp_f(&o, raw(&o, 0), 0) :
				alu_icmp(raw(&o, 0), 0, ins->desc->op == BI_OP_BRANCHZ_S32);

		branch(&o, alu_cmp_result(c, mod(&o, BI_MOD_CMPF, BI_O_EQ)), raw(&o, 1));
		break;
	}
	case BI_OP_BRANCHZ_I16:
	case BI_OP_BRANCHZ_S16:
	case BI_OP_BRANCHZ_U16:
	case BI_OP_BRANCHZ_F16:
	case BI_OP_BRANCH_I16:
	case BI_OP_BRANCH_S16:
	case BI_OP_BRANCH_U16:
	case BI_OP_BRANCH_F16:
		branch16(&o);
		break;
	case BI_OP_BRANCH_I32:
	case BI_OP_BRANCH_S32:
	case BI_OP_BRANCH_U32:
	case BI_OP_BRANCH_F32: {
		int c = ins->desc->op == BI_OP_BRANCH_F32 ?
				alu_fcmp_f(&o, alu_fsrc(&o, 0), alu_fsrc(&o, 1)) :
				alu_icmp(raw(&o, 0), raw(&o, 1), ins->desc->op == BI_OP_BRANCH_S32);

		branch(&o, alu_cmp_result(c, mod(&o, BI_MOD_CMPF, BI_O_EQ)), raw(&o, 2));
		break;
	}
	case BI_OP_DISCARD_F32:
		if (alu_cmp_result(alu_fcmp_f(&o, alu_fsrc(&o, 0), alu_fsrc(&o, 1)),
			       mod(&o, BI_MOD_CMPF, BI_O_EQ)))
			x->w->discarded |= 1u << lane;
		break;
	default:
		if (bi_exec_alu_vec(&o, &r) || bi_exec_alu_tr(&o, &r) ||
		    bi_exec_alu_cube(&o, &r))
			break;
		os_dbg("shader", "unimplemented: %s", ins->desc->mnemonic);
		return BI_FAULT_UNIMPLEMENTED;
	}
	*out = r;
	return 0;
}

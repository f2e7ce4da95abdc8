// SPDX-License-Identifier: MIT
/* Advanced SIMD integer arithmetic: three same (vector and scalar),
 * two-register miscellaneous, across lanes, three different (long, wide,
 * narrow), shifts by immediate, and by-element multiplies. Each
 * instruction is one loop over lanes around a per-lane kernel. */
#include "aarch64-user/fp_core.h"
#include "aarch64-user/simd.h"

/* Operand layout of the handlers: sf = element size (log2 bytes), op =
 * U:opcode (the constants below are opcodes), flags: 1 = Q (128-bit),
 * 2 = scalar form. */
#define SI_Q 1
#define SI_SCALAR 2

/* What simd_int.decode names. */
enum { /* three same */
	I3_HADD = 0x00, I3_QADD = 0x01, I3_RHADD = 0x02, I3_HSUB = 0x04, I3_QSUB = 0x05,
	I3_CMGT = 0x06, I3_CMGE = 0x07, I3_SHL = 0x08, I3_QSHL = 0x09, I3_RSHL = 0x0a,
	I3_QRSHL = 0x0b, I3_MAX = 0x0c, I3_MIN = 0x0d, I3_ABD = 0x0e, I3_ABA = 0x0f,
	I3_ADD = 0x10, I3_TST = 0x11, I3_MLA = 0x12, I3_MUL = 0x13, I3_QDMULH = 0x16,
};
enum { I3P_MAX, I3P_MIN, I3P_ADD = 3 }; /* pairwise: opcode - 0x14 */
enum { L_AND, L_BIC, L_ORR, L_ORN, L_EOR, L_BSL, L_BIT, L_BIF }; /* U:size */
enum { /* two-register miscellaneous (U:opcode) */
	I1_CLS = 0x04, I1_CNT = 0x05, I1_SQABS = 0x07, I1_CMGT0 = 0x08, I1_CMEQ0 = 0x09,
	I1_CMLT0 = 0x0a, I1_ABS = 0x0b, I1_CLZ = 0x24, I1_NOT = 0x25, I1_SQNEG = 0x27,
	I1_CMGE0 = 0x28, I1_CMLE0 = 0x29, I1_NEG = 0x2b, I1_RBIT = 0x3f,
};
enum { N_XTN, N_SQXTN, N_UQXTN, N_SQXTUN };
enum { AC_ADDLV = 0x03, AC_MAXV = 0x0a, AC_MINV = 0x1a, AC_ADDV = 0x1b };
enum { /* three different */
	D3_ADDL, D3_ADDW, D3_SUBL, D3_SUBW, D3_ADDHN, D3_ABAL, D3_SUBHN, D3_ABDL,
	D3_MLAL, D3_SQDMLAL, D3_MLSL, D3_SQDMLSL, D3_MULL, D3_SQDMULL, D3_PMULL,
};
enum { /* shifts by immediate */
	SH_SHR = 0x00, SH_SRA = 0x02, SH_RSHR = 0x04, SH_RSRA = 0x06, SH_SRI = 0x08,
	SH_SHL = 0x0a, SH_QSHLU = 0x0c, SH_QSHL = 0x0e, SHN_SHRN = 0x10, SHN_RSHRN = 0x11,
	SHN_QSHRN = 0x12, SHN_QRSHRN = 0x13, SH_SHLL = 0x14,
};
/* How a shift's immh:immb gives its amount and which handler runs it. */
enum { SK_RIGHT, SK_LEFT, SK_NARROW, SK_WIDEN, SK_FIXED };
enum { /* by element */
	E_MLA = 0x0, E_MLAL = 0x2, E_MLS = 0x4, E_MLSL = 0x6, E_MUL = 0x8, E_MULL = 0xa,
	E_QDMULH = 0xc, E_QRDMULH = 0xd,
};

/* The decoder generated from simd_int.decode (a64_decode_simd_int, which decode.c
 * calls for its major group). */
#include "aarch64-user/simd_int.decode.inc"

static inline unsigned lanes(const struct a64_insn *i, unsigned es)
{
	if (i->flags & SI_SCALAR)
		return 1;
	return ((i->flags & SI_Q) ? 16u : 8u) >> es;
}

/* Registers, element size and shape of a decoded instruction; false when
 * the instruction does not allow the size. */
static bool vec_operands(struct a64_insn *d, int64_t rd, int64_t rn, int64_t size, int64_t q,
			 int64_t scalar, int64_t sizes)
{
	d->rd = (uint8_t)rd;
	d->rn = (uint8_t)rn;
	d->sf = (uint8_t)size;
	d->flags = (uint8_t)(q | (scalar ? SI_SCALAR : 0));
	return simd_size_ok(sizes, (unsigned)size, q);
}

/* Saturation to a signed or unsigned element, recording FPSR.QC. */
static uint64_t sat_s(struct a64_cpu *c, __int128 v, unsigned es)
{
	int bw = 8 << es;
	__int128 hi = ((__int128)1 << (bw - 1)) - 1, lo = -((__int128)1 << (bw - 1));
	if (v > hi) {
		c->fpsr |= FPSR_QC;
		v = hi;
	} else if (v < lo) {
		c->fpsr |= FPSR_QC;
		v = lo;
	}
	return (uint64_t)v & es_mask(es);
}

static uint64_t sat_u(struct a64_cpu *c, __int128 v, unsigned es)
{
	__int128 hi = (__int128)es_mask(es);
	if (v > hi) {
		c->fpsr |= FPSR_QC;
		v = hi;
	} else if (v < 0) {
		c->fpsr |= FPSR_QC;
		v = 0;
	}
	return (uint64_t)v;
}

/* Left shift of a possibly negative value, defined as two's complement. */
static inline __int128 shl128(__int128 v, unsigned s)
{
	return (__int128)((unsigned __int128)v << s);
}

/* Shift by a signed register amount (SSHL/USHL/SRSHL/URSHL). */
static uint64_t shl_reg(uint64_t a, int64_t sa, unsigned es, bool is_signed, bool round, int8_t sh)
{
	int bw = 8 << es;
	__int128 v = is_signed ? (__int128)sa : (__int128)a;
	if (sh >= 0) {
		if (sh >= bw)
			return 0;
		return (uint64_t)shl128(v, (unsigned)sh) & es_mask(es);
	}
	int r = -sh;
	if (round) /* the rounding bit can be above the element */
		return r > 126 ? 0 : (uint64_t)((v + ((__int128)1 << (r - 1))) >> r) & es_mask(es);
	if (r > bw)
		r = bw;
	__int128 res = v >> r;
	return (uint64_t)res & es_mask(es);
}

/* SQSHL/UQSHL/SQRSHL/UQRSHL by register: saturating left shifts, plain
 * (or rounding) right shifts. */
static uint64_t qshl_reg(struct a64_cpu *c, uint64_t a, int64_t sa, unsigned es, bool is_signed,
			 bool round, int8_t sh)
{
	int bw = 8 << es;
	if (sh < 0)
		return shl_reg(a, sa, es, is_signed, round, sh);
	__int128 v = is_signed ? (__int128)sa : (__int128)a;
	if (v == 0)
		return 0;
	if (sh >= bw) /* any non-zero value saturates */
		return is_signed ? sat_s(c, v < 0 ? -((__int128)1 << 100) : (__int128)1 << 100, es)
				 : sat_u(c, (__int128)1 << 100, es);
	v = shl128(v, (unsigned)sh);
	return is_signed ? sat_s(c, v, es) : sat_u(c, v, es);
}

/* One lane of a three-same integer operation; @acc is the old Rd lane. */
static uint64_t int3(struct a64_cpu *c, unsigned op, unsigned es, uint64_t a, uint64_t b,
		     uint64_t acc)
{
	int bw = 8 << es;
	int64_t sa = sext(a, bw), sb = sext(b, bw);
	uint64_t m = es_mask(es);
	bool u = op >> 5;
	switch (op & 31) {
	case I3_HADD: return (uint64_t)(u ? ((__int128)a + b) >> 1 : ((__int128)sa + sb) >> 1) & m;
	case I3_QADD: return u ? sat_u(c, (__int128)a + b, es) : sat_s(c, (__int128)sa + sb, es);
	case I3_RHADD: return (uint64_t)(u ? ((__int128)a + b + 1) >> 1 : ((__int128)sa + sb + 1) >> 1) & m;
	case I3_HSUB: return (uint64_t)(u ? ((__int128)a - b) >> 1 : ((__int128)sa - sb) >> 1) & m;
	case I3_QSUB: return u ? sat_u(c, (__int128)a - b, es) : sat_s(c, (__int128)sa - sb, es);
	case I3_CMGT: return (u ? a > b : sa > sb) ? m : 0;
	case I3_CMGE: return (u ? a >= b : sa >= sb) ? m : 0;
	case I3_SHL: return shl_reg(a, sa, es, !u, false, (int8_t)b);
	case I3_RSHL: return shl_reg(a, sa, es, !u, true, (int8_t)b);
	case I3_QSHL: return qshl_reg(c, a, sa, es, !u, false, (int8_t)b);
	case I3_QRSHL: return qshl_reg(c, a, sa, es, !u, true, (int8_t)b);
	case I3_MAX: return u ? (a > b ? a : b) : (uint64_t)(sa > sb ? sa : sb) & m;
	case I3_MIN: return u ? (a < b ? a : b) : (uint64_t)(sa < sb ? sa : sb) & m;
	case I3_ABD: return u ? (a > b ? a - b : b - a) : (uint64_t)(sa > sb ? sa - sb : sb - sa) & m;
	case I3_ABA:
		return (acc + (u ? (a > b ? a - b : b - a) : (uint64_t)(sa > sb ? sa - sb : sb - sa))) & m;
	case I3_ADD: return (u ? a - b : a + b) & m;
	case I3_TST: return (u ? a == b : (a & b) != 0) ? m : 0;
	case I3_MLA: return (u ? acc - a * b : acc + a * b) & m;
	case I3_MUL:
		if (u) { /* PMUL: carry-less */
			uint64_t r = 0;
			for (int k = 0; k < bw; k++)
				if (b >> k & 1)
					r ^= a << k;
			return r & m;
		}
		return (a * b) & m;
	case I3_QDMULH: { /* SQDMULH / SQRDMULH */
		__int128 p = (__int128)2 * sa * sb;
		if (u)
			p += (__int128)1 << (bw - 1);
		return sat_s(c, p >> bw, es);
	}
	default: return 0;
	}
}

static int exec_3same(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg *n = &c->v[i->rn], *mm = &c->v[i->rm];
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	unsigned es = i->sf, nl = lanes(i, es);
	for (unsigned e = 0; e < nl; e++)
		lane_set(&r, es, e, int3(c, i->op, es, lane_get(n, es, e), lane_get(mm, es, e),
					 lane_get(&c->v[i->rd], es, e)));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* Pairwise: lanes of the concatenation Rm:Rn taken two at a time. */
static int exec_3pair(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg *n = &c->v[i->rn], *mm = &c->v[i->rm];
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	unsigned es = i->sf, nl = lanes(i, es), half = nl / 2;
	unsigned op = i->op2 == I3P_ADD ? I3_ADD : (i->op & 0x20) | (i->op2 == I3P_MAX ? I3_MAX : I3_MIN);
	for (unsigned e = 0; e < nl; e++) {
		const union a64_vreg *src = e < half ? n : mm;
		unsigned k = 2 * (e % half);
		lane_set(&r, es, e, int3(c, op, es, lane_get(src, es, k), lane_get(src, es, k + 1), 0));
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static int exec_logic3(struct a64_cpu *c, const struct a64_insn *i)
{
	union a64_vreg r;
	for (int k = 0; k < 2; k++) {
		uint64_t a = c->v[i->rn].d[k], b = c->v[i->rm].d[k], d = c->v[i->rd].d[k];
		switch (i->op2) {
		case L_AND: r.d[k] = a & b; break;
		case L_BIC: r.d[k] = a & ~b; break;
		case L_ORR: r.d[k] = a | b; break;
		case L_ORN: r.d[k] = a | ~b; break;
		case L_EOR: r.d[k] = a ^ b; break;
		case L_BSL: r.d[k] = (d & a) | (~d & b); break;
		case L_BIT: r.d[k] = (d & ~b) | (a & b); break;
		default: r.d[k] = (d & b) | (a & ~b); break; /* BIF */
		}
	}
	vreg_put(c, i->rd, &r, i->flags & SI_Q);
	return a64_next(c, i);
}

static bool dec_INT3(struct a64_insn *d, const struct args_int3 *a)
{
	if (!vec_operands(d, a->rd, a->rn, a->size, a->q, a->scalar, a->sizes))
		return false;
	d->rm = (uint8_t)a->rm;
	d->op = (uint8_t)(a->u << 5 | a->op);
	d->fn = exec_3same;
	return true;
}

static bool dec_INT3P(struct a64_insn *d, const struct args_int3 *a)
{
	if (!vec_operands(d, a->rd, a->rn, a->size, a->q, a->scalar, a->sizes))
		return false;
	d->rm = (uint8_t)a->rm;
	d->op = (uint8_t)(a->u << 5 | (0x14 + a->op));
	d->op2 = (uint8_t)a->op;
	d->fn = exec_3pair;
	return true;
}

static bool dec_LOGIC(struct a64_insn *d, const struct args_LOGIC *a)
{
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	d->flags = (uint8_t)a->q;
	d->op2 = (uint8_t)a->op;
	d->fn = exec_logic3;
	return true;
}

/* ---- two-register miscellaneous ------------------------------------------ */

static uint64_t rbit8(uint64_t x)
{
	uint64_t r = 0;
	for (int k = 0; k < 8; k++)
		r |= ((x >> k) & 1) << (7 - k);
	return r;
}

static uint64_t int1(struct a64_cpu *c, unsigned op, unsigned es, uint64_t a)
{
	int bw = 8 << es;
	int64_t sa = sext(a, bw);
	uint64_t m = es_mask(es);
	switch (op) {
	case I1_CLS: {
		uint64_t x = (a ^ (uint64_t)(sa >> 1)) & m;
		int lz = x ? __builtin_clzll(x) - (64 - bw) : bw;
		return (uint64_t)(lz - 1);
	}
	case I1_CLZ: return a ? (uint64_t)(__builtin_clzll(a) - (64 - bw)) : (uint64_t)bw;
	case I1_CNT: return (uint64_t)__builtin_popcountll(a);
	case I1_NOT: return ~a & m;
	case I1_RBIT: return rbit8(a);
	case I1_SQABS: return sat_s(c, sa < 0 ? -(__int128)sa : sa, es);
	case I1_SQNEG: return sat_s(c, -(__int128)sa, es);
	case I1_CMGT0: return sa > 0 ? m : 0;
	case I1_CMEQ0: return sa == 0 ? m : 0;
	case I1_CMLT0: return sa < 0 ? m : 0;
	case I1_CMGE0: return sa >= 0 ? m : 0;
	case I1_CMLE0: return sa <= 0 ? m : 0;
	case I1_ABS: return (sa < 0 ? -(uint64_t)sa : (uint64_t)sa) & m;
	case I1_NEG: return -(uint64_t)sa & m;
	default: return 0;
	}
}

static int exec_2misc(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg *n = &c->v[i->rn];
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	unsigned es = i->sf, nl = lanes(i, es);
	for (unsigned e = 0; e < nl; e++)
		lane_set(&r, es, e, int1(c, i->op, es, lane_get(n, es, e)));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* REV16/REV32/REV64: reverse elements within containers of op2 bytes. */
static int exec_rev(struct a64_cpu *c, const struct a64_insn *i)
{
	union a64_vreg r;
	const union a64_vreg *n = &c->v[i->rn];
	unsigned es = i->sf, esz = 1u << es, cont = i->op2, bytes = (i->flags & SI_Q) ? 16 : 8;
	memset(&r, 0, sizeof(r));
	for (unsigned base = 0; base < bytes; base += cont)
		for (unsigned k = 0; k < cont; k += esz)
			memcpy(&r.b[base + cont - esz - k], &n->b[base + k], esz);
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* XTN/SQXTN/UQXTN/SQXTUN: narrow to es; the "2" forms fill the top half. */
static int exec_narrow(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = 8u >> es, off = (i->flags & SI_Q) ? nl : 0;
	union a64_vreg r = c->v[i->rd];
	if (!off)
		memset(&r, 0, sizeof(r));
	if (i->flags & SI_SCALAR) {
		nl = 1;
		memset(&r, 0, sizeof(r));
		off = 0;
	}
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a = lane_get(&n, es + 1, e), x;
		int64_t sa = sext(a, 16 << es);
		switch (i->op) {
		case N_XTN: x = a & es_mask(es); break;
		case N_SQXTN: x = sat_s(c, sa, es); break;
		case N_UQXTN: x = sat_u(c, a, es); break;
		default: x = sat_u(c, sa, es); break; /* SQXTUN */
		}
		lane_set(&r, es, off + e, x);
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* SADDLP/UADDLP/SADALP/UADALP: op&1 unsigned, op&2 accumulate. */
static int exec_addlp(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = lanes(i, es + 1);
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a = lane_get(&n, es, 2 * e), b = lane_get(&n, es, 2 * e + 1), s;
		if (i->op & 1)
			s = a + b;
		else
			s = (uint64_t)(sext(a, 8 << es) + sext(b, 8 << es));
		if (i->op & 2)
			s += lane_get(&c->v[i->rd], es + 1, e);
		lane_set(&r, es + 1, e, s & es_mask(es + 1));
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* SHLL: widen and shift left by the element size. */
static int exec_shll(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, off = (i->flags & SI_Q) ? 8u >> es : 0;
	union a64_vreg r;
	for (unsigned e = 0; e < (8u >> es); e++)
		lane_set(&r, es + 1, e, lane_get(&n, es, off + e) << (8 << es));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* The two-register forms differ in their handler and what it takes as op. */
static bool int2_insn(struct a64_insn *d, const struct args_int2 *a, int64_t op, a64_fn fn)
{
	if (!vec_operands(d, a->rd, a->rn, a->size, a->q, a->scalar, a->sizes))
		return false;
	d->op = (uint8_t)op;
	d->fn = fn;
	return true;
}

static bool dec_INT2(struct a64_insn *d, const struct args_int2 *a)
{
	return int2_insn(d, a, a->op, exec_2misc);
}

static bool dec_REV(struct a64_insn *d, const struct args_int2 *a)
{
	d->op2 = (uint8_t)a->op; /* the container's bytes */
	return int2_insn(d, a, 0, exec_rev);
}

static bool dec_ADDLP(struct a64_insn *d, const struct args_int2 *a)
{
	return int2_insn(d, a, a->op << 1 | a->u, exec_addlp);
}

static bool dec_SHLL(struct a64_insn *d, const struct args_int2 *a)
{
	return int2_insn(d, a, 0, exec_shll);
}

static bool dec_NARROW(struct a64_insn *d, const struct args_int2 *a)
{
	return int2_insn(d, a, a->op, exec_narrow);
}

/* ---- across lanes ---------------------------------------------------------- */

static int exec_across(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg *n = &c->v[i->rn];
	unsigned es = i->sf, nl = lanes(i, es);
	bool u = i->op >> 5;
	__int128 acc = u ? (__int128)lane_get(n, es, 0) : (__int128)lane_sget(n, es, 0);
	for (unsigned e = 1; e < nl; e++) {
		__int128 x = u ? (__int128)lane_get(n, es, e) : (__int128)lane_sget(n, es, e);
		switch (i->op & 31) {
		case AC_MAXV: acc = x > acc ? x : acc; break;
		case AC_MINV: acc = x < acc ? x : acc; break;
		default: acc += x; break;
		}
	}
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	unsigned res_es = (i->op & 31) == AC_ADDLV ? es + 1 : es;
	lane_set(&r, res_es, 0, (uint64_t)acc & es_mask(res_es));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_ACROSS(struct a64_insn *d, const struct args_across *a)
{
	/* at least four lanes: S lanes only in a 128-bit vector */
	if (!vec_operands(d, a->rd, a->rn, a->size, a->q, 0, SZ_BHS) || (a->size == 2 && !a->q))
		return false;
	d->op = (uint8_t)(a->u << 5 | a->op);
	d->fn = exec_across;
	return true;
}

/* ---- three different ----------------------------------------------------- */

static int exec_3diff(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn], m = c->v[i->rm];
	unsigned es = i->sf, nl = 8u >> es, off = (i->flags & SI_Q) ? nl : 0;
	unsigned opc = i->op & 15;
	bool u = i->op >> 5;
	union a64_vreg r = c->v[i->rd];
	if (opc == D3_ADDHN || opc == D3_SUBHN) { /* (R)ADDHN, (R)SUBHN: narrow into es */
		if (!off)
			memset(&r, 0, sizeof(r));
		for (unsigned e = 0; e < nl; e++) {
			uint64_t a = lane_get(&n, es + 1, e), b = lane_get(&m, es + 1, e);
			__int128 s = opc == D3_ADDHN ? (__int128)a + b : (__int128)a - b;
			if (u)
				s += (__int128)1 << ((8 << es) - 1);
			lane_set(&r, es, off + e, (uint64_t)(s >> (8 << es)) & es_mask(es));
		}
		c->v[i->rd] = r;
		return a64_next(c, i);
	}
	for (unsigned e = 0; e < nl; e++) {
		bool wide = opc == D3_ADDW || opc == D3_SUBW;
		__int128 a = wide ? (u ? (__int128)lane_get(&n, es + 1, e) : lane_sget(&n, es + 1, e))
				  : (u ? (__int128)lane_get(&n, es, off + e) : lane_sget(&n, es, off + e));
		__int128 b = u ? (__int128)lane_get(&m, es, off + e) : lane_sget(&m, es, off + e);
		__int128 acc = (__int128)lane_get(&r, es + 1, e), x;
		switch (opc) {
		case D3_ADDL: case D3_ADDW: x = a + b; break;
		case D3_SUBL: case D3_SUBW: x = a - b; break;
		case D3_ABAL: x = acc + (a > b ? a - b : b - a); break;
		case D3_ABDL: x = a > b ? a - b : b - a; break;
		case D3_MLAL: x = acc + a * b; break;
		case D3_MLSL: x = acc - a * b; break;
		case D3_MULL: x = a * b; break;
		case D3_SQDMLAL: /* both the doubling and the sum saturate */
		case D3_SQDMLSL:
		case D3_SQDMULL: {
			uint64_t p = sat_s(c, 2 * a * b, es + 1);
			x = sext(p, 16 << es);
			if (opc != D3_SQDMULL) {
				__int128 sacc = sext((uint64_t)acc, 16 << es);
				x = (__int128)sat_s(c, opc == D3_SQDMLAL ? sacc + x : sacc - x, es + 1);
			}
			break;
		}
		default: { /* PMULL 8 -> 16 */
			uint64_t p = 0, ua = (uint64_t)a & 0xff, ub = (uint64_t)b & 0xff;
			for (int k = 0; k < 8; k++)
				if (ub >> k & 1)
					p ^= ua << k;
			x = p;
			break;
		}
		}
		lane_set(&r, es + 1, e, (uint64_t)x & es_mask(es + 1));
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_INT3D(struct a64_insn *d, const struct args_int3d *a)
{
	if (!vec_operands(d, a->rd, a->rn, a->size, a->q, 0, a->sizes))
		return false;
	d->rm = (uint8_t)a->rm;
	d->op = (uint8_t)(a->u << 5 | a->op);
	d->fn = exec_3diff;
	return true;
}

/* ---- shifts by immediate -------------------------------------------------- */

/* op = U:opcode, imm = shift amount, sf = element size (destination size
 * for narrowing, source size for SHLL-type). */
static int exec_shimm(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, sh = (unsigned)i->imm, nl = lanes(i, es), bw = 8u << es;
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	bool u = i->op >> 5;
	uint64_t m = es_mask(es);
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a = lane_get(&n, es, e), d = lane_get(&c->v[i->rd], es, e), x;
		__int128 v = u ? (__int128)a : (__int128)sext(a, (int)bw);
		switch (i->op & 31) {
		case SH_SHR: x = (uint64_t)(v >> sh); break;
		case SH_SRA: x = d + (uint64_t)(v >> sh); break;
		case SH_RSHR: x = (uint64_t)((v + ((__int128)1 << (sh - 1))) >> sh); break;
		case SH_RSRA: x = d + (uint64_t)((v + ((__int128)1 << (sh - 1))) >> sh); break;
		case SH_SRI: {
			uint64_t keep = sh == bw ? m : ~(m >> sh) & m;
			x = (d & keep) | (sh == bw ? 0 : a >> sh);
			break;
		}
		case SH_SHL: /* and SLI */
			x = a << sh;
			if (u)
				x |= d & ((1ull << sh) - 1);
			break;
		case SH_QSHLU: x = sat_u(c, shl128(sext(a, (int)bw), sh), es); break;
		default: /* SQSHL/UQSHL */
			x = u ? sat_u(c, (__int128)a << sh, es) : sat_s(c, shl128(sext(a, (int)bw), sh), es);
			break;
		}
		lane_set(&r, es, e, x & m);
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* SHRN/RSHRN/SQSHRN/UQSHRN/SQRSHRN/UQRSHRN/SQSHRUN/SQRSHRUN into es. */
static int exec_shrn(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, sh = (unsigned)i->imm, nl = 8u >> es, off = (i->flags & SI_Q) ? nl : 0;
	union a64_vreg r = c->v[i->rd];
	if (i->flags & SI_SCALAR) {
		nl = 1;
		off = 0;
	}
	if (!off)
		memset(&r, 0, sizeof(r));
	bool u = i->op >> 5, round = i->op & 1;
	/* SHRN with U is SQSHRUN; SQSHRN with U is UQSHRN */
	bool plain = (i->op & 30) == SHN_SHRN;
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a = lane_get(&n, es + 1, e);
		bool src_signed = !(!plain && u) && !(plain && !u);
		__int128 v = src_signed ? (__int128)sext(a, 16 << es) : (__int128)a;
		if (round)
			v += (__int128)1 << (sh - 1);
		v >>= sh;
		uint64_t x;
		if (plain && !u)
			x = (uint64_t)v & es_mask(es); /* SHRN, RSHRN */
		else if (plain)
			x = sat_u(c, v, es); /* SQSHRUN */
		else
			x = u ? sat_u(c, v, es) : sat_s(c, v, es);
		lane_set(&r, es, off + e, x);
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* SSHLL/USHLL (SXTL/UXTL): widen from es, shift left. */
static int exec_shll_imm(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = 8u >> es, off = (i->flags & SI_Q) ? nl : 0;
	union a64_vreg r;
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a = lane_get(&n, es, off + e);
		uint64_t v = (i->op >> 5) ? a : (uint64_t)sext(a, 8 << es);
		lane_set(&r, es + 1, e, (v << i->imm) & es_mask(es + 1));
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* immh's top set bit gives the element size (of the destination when
 * narrowing, of the source when widening), immh:immb the amount: right
 * shifts count down from twice the element's width, left shifts up from
 * the width. */
static bool dec_SHIFT(struct a64_insn *d, const struct args_shift *a)
{
	static const a64_fn handler[] = {
		[SK_RIGHT] = exec_shimm, [SK_LEFT] = exec_shimm, [SK_NARROW] = exec_shrn,
		[SK_WIDEN] = exec_shll_imm, [SK_FIXED] = a64_exec_simd_fixed_cvt,
	};
	if (!a->immh)
		return false; /* a modified immediate (simd.decode) */
	unsigned es = 31 - (unsigned)__builtin_clz((unsigned)a->immh), bw = 8u << es;
	if (!vec_operands(d, a->rd, a->rn, es, a->q, a->scalar, a->sizes))
		return false;
	bool left = a->kind == SK_LEFT || a->kind == SK_WIDEN;
	d->imm = left ? (uint64_t)a->immhb - bw : 2 * bw - (uint64_t)a->immhb;
	d->op = (uint8_t)(a->u << 5 | a->op);
	d->fn = handler[a->kind];
	return true;
}

/* ---- by element ------------------------------------------------------------ */

static int exec_elem(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf;
	uint64_t b = lane_get(&c->v[i->rm], es, (unsigned)i->imm);
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	unsigned opc = i->op & 15;
	bool u = i->op >> 5;
	if (opc == E_MULL || opc == E_MLAL || opc == E_MLSL) {
		unsigned nl = 8u >> es, off = (i->flags & SI_Q) ? nl : 0;
		__int128 bb = u ? (__int128)b : (__int128)sext(b, 8 << es);
		r = c->v[i->rd];
		for (unsigned e = 0; e < nl; e++) {
			__int128 a = u ? (__int128)lane_get(&n, es, off + e) : lane_sget(&n, es, off + e);
			__int128 acc = (__int128)lane_get(&r, es + 1, e);
			__int128 x = opc == E_MULL ? a * bb : opc == E_MLAL ? acc + a * bb : acc - a * bb;
			lane_set(&r, es + 1, e, (uint64_t)x & es_mask(es + 1));
		}
		c->v[i->rd] = r;
		return a64_next(c, i);
	}
	unsigned nl = lanes(i, es);
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a = lane_get(&n, es, e), d = lane_get(&c->v[i->rd], es, e), x;
		switch (opc) {
		case E_MUL: x = a * b; break;
		case E_MLA: x = d + a * b; break;
		case E_MLS: x = d - a * b; break;
		default: /* SQDMULH; SQRDMULH is its U form among the three same */
			x = int3(c, (opc == E_QDMULH ? 0 : 0x20) | I3_QDMULH, es, a, b, 0);
			break;
		}
		lane_set(&r, es, e, x & es_mask(es));
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

bool a64_elem_index(unsigned es, int64_t h, int64_t l, int64_t m, int64_t rm4, uint8_t *rm,
		    uint64_t *idx)
{
	*rm = (uint8_t)rm4;
	switch (es) {
	case 1: *idx = (uint64_t)(h << 2 | l << 1 | m); return true;
	case 2: *idx = (uint64_t)(h << 1 | l); *rm |= (uint8_t)(m << 4); return true;
	case 3: if (l) return false; *idx = (uint64_t)h; *rm |= (uint8_t)(m << 4); return true;
	default: return false;
	}
}

static bool dec_ELEM(struct a64_insn *d, const struct args_elem *a)
{
	if (!vec_operands(d, a->rd, a->rn, a->size, a->q, 0, SZ_HS) ||
	    !a64_elem_index((unsigned)a->size, a->h, a->l, a->m, a->rm, &d->rm, &d->imm))
		return false;
	d->op = (uint8_t)(a->u << 5 | a->op);
	d->fn = exec_elem;
	return true;
}

// SPDX-License-Identifier: MIT
/* Advanced SIMD integer arithmetic: three same (vector and scalar),
 * two-register miscellaneous, across lanes, three different (long, wide,
 * narrow), shifts by immediate, and by-element multiplies. Each
 * instruction is one loop over lanes around a per-lane kernel. */
#include "aarch64-user/fp_core.h"
#include "aarch64-user/simd.h"

/* Common operand layout: sf = element size (log2 bytes), op = U:opcode,
 * flags: 1 = Q (128-bit), 2 = scalar form. */
#define SI_Q 1
#define SI_SCALAR 2

static inline unsigned lanes(const struct a64_insn *i, unsigned es)
{
	if (i->flags & SI_SCALAR)
		return 1;
	return ((i->flags & SI_Q) ? 16u : 8u) >> es;
}

static void dec_vec(struct a64_insn *d, uint32_t w)
{
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->sf = bits(w, 23, 22);
	d->flags = (uint8_t)(bit(w, 30) | (bit(w, 28) ? SI_SCALAR : 0));
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
	case 0x00: return (uint64_t)(u ? ((__int128)a + b) >> 1 : ((__int128)sa + sb) >> 1) & m;
	case 0x01: return u ? sat_u(c, (__int128)a + b, es) : sat_s(c, (__int128)sa + sb, es);
	case 0x02: return (uint64_t)(u ? ((__int128)a + b + 1) >> 1 : ((__int128)sa + sb + 1) >> 1) & m;
	case 0x04: return (uint64_t)(u ? ((__int128)a - b) >> 1 : ((__int128)sa - sb) >> 1) & m;
	case 0x05: return u ? sat_u(c, (__int128)a - b, es) : sat_s(c, (__int128)sa - sb, es);
	case 0x06: return (u ? a > b : sa > sb) ? m : 0;
	case 0x07: return (u ? a >= b : sa >= sb) ? m : 0;
	case 0x08: return shl_reg(a, sa, es, !u, false, (int8_t)b);
	case 0x0a: return shl_reg(a, sa, es, !u, true, (int8_t)b);
	case 0x09: return qshl_reg(c, a, sa, es, !u, false, (int8_t)b);
	case 0x0b: return qshl_reg(c, a, sa, es, !u, true, (int8_t)b);
	case 0x0c: return u ? (a > b ? a : b) : (uint64_t)(sa > sb ? sa : sb) & m;
	case 0x0d: return u ? (a < b ? a : b) : (uint64_t)(sa < sb ? sa : sb) & m;
	case 0x0e: return u ? (a > b ? a - b : b - a) : (uint64_t)(sa > sb ? sa - sb : sb - sa) & m;
	case 0x0f:
		return (acc + (u ? (a > b ? a - b : b - a) : (uint64_t)(sa > sb ? sa - sb : sb - sa))) & m;
	case 0x10: return (u ? a - b : a + b) & m;
	case 0x11: return (u ? a == b : (a & b) != 0) ? m : 0;
	case 0x12: return (u ? acc - a * b : acc + a * b) & m;
	case 0x13:
		if (u) { /* PMUL: carry-less */
			uint64_t r = 0;
			for (int k = 0; k < bw; k++)
				if (b >> k & 1)
					r ^= a << k;
			return r & m;
		}
		return (a * b) & m;
	case 0x16: { /* SQDMULH / SQRDMULH */
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
	/* op2: 0 MAXP, 1 MINP, 3 ADDP (opcode - 0x14) */
	unsigned op = i->op2 == 3 ? 0x10 : (i->op & 0x20) | (0x0c + i->op2);
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
		case 0: r.d[k] = a & b; break;
		case 1: r.d[k] = a & ~b; break;
		case 2: r.d[k] = a | b; break;
		case 3: r.d[k] = a | ~b; break;
		case 4: r.d[k] = a ^ b; break;
		case 5: r.d[k] = (d & a) | (~d & b); break;  /* BSL */
		case 6: r.d[k] = (d & ~b) | (a & b); break;  /* BIT */
		default: r.d[k] = (d & b) | (a & ~b); break; /* BIF */
		}
	}
	vreg_put(c, i->rd, &r, i->flags & SI_Q);
	return a64_next(c, i);
}

static bool dec_3same(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 15, 11), u = bit(w, 29);
	dec_vec(d, w);
	d->op = (uint8_t)(u << 5 | opc);
	bool scalar = d->flags & SI_SCALAR;
	if (opc == 0x03) {
		if (scalar)
			return false;
		d->op2 = (uint8_t)(u << 2 | d->sf);
		d->fn = exec_logic3;
		return true;
	}
	if (d->sf == 3 && !(d->flags & SI_Q) && !scalar)
		return false;
	if (scalar) {
		/* scalar: saturating add/sub/shift any size; the rest D only */
		if (opc == 0x01 || opc == 0x05 || opc == 0x09 || opc == 0x0b) {
			d->fn = exec_3same;
			return true;
		}
		if (d->sf != 3 || !(opc == 0x06 || opc == 0x07 || opc == 0x08 || opc == 0x0a ||
				     opc == 0x10 || opc == 0x11))
			return false;
		d->fn = exec_3same;
		return true;
	}
	switch (opc) {
	case 0x01: case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0a: case 0x0b:
	case 0x10: case 0x11:
		d->fn = exec_3same;
		return true;
	case 0x00: case 0x02: case 0x04:
	case 0x0c: case 0x0d: case 0x0e: case 0x0f: case 0x12:
		if (d->sf == 3)
			return false;
		d->fn = exec_3same;
		return true;
	case 0x13:
		if (d->sf == 3 || (u && d->sf))
			return false;
		d->fn = exec_3same;
		return true;
	case 0x16:
		if (d->sf == 0 || d->sf == 3)
			return false;
		d->fn = exec_3same;
		return true;
	case 0x14: case 0x15: case 0x17:
		if (d->sf == 3 && opc != 0x17)
			return false;
		if (opc == 0x17 && u)
			return false;
		d->op2 = (uint8_t)(opc - 0x14);
		d->fn = exec_3pair;
		return true;
	default:
		return false;
	}
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
	case 0x04: { /* CLS */
		uint64_t x = (a ^ (uint64_t)(sa >> 1)) & m;
		int lz = x ? __builtin_clzll(x) - (64 - bw) : bw;
		return (uint64_t)(lz - 1);
	}
	case 0x24: return a ? (uint64_t)(__builtin_clzll(a) - (64 - bw)) : (uint64_t)bw;
	case 0x05: return (uint64_t)__builtin_popcountll(a);
	case 0x25: return ~a & m; /* NOT */
	case 0x3f: return rbit8(a); /* RBIT: bytes, though encoded as size 01 */
	case 0x07: return sat_s(c, sa < 0 ? -(__int128)sa : sa, es);
	case 0x27: return sat_s(c, -(__int128)sa, es);
	case 0x08: return sa > 0 ? m : 0;
	case 0x09: return sa == 0 ? m : 0;
	case 0x0a: return sa < 0 ? m : 0;
	case 0x28: return sa >= 0 ? m : 0;
	case 0x29: return sa <= 0 ? m : 0;
	case 0x0b: return (sa < 0 ? -(uint64_t)sa : (uint64_t)sa) & m;
	case 0x2b: return -(uint64_t)sa & m;
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
		case 0: x = a & es_mask(es); break;
		case 1: x = sat_s(c, sa, es); break;	 /* SQXTN */
		case 2: x = sat_u(c, a, es); break;	 /* UQXTN */
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

static bool dec_2misc(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 16, 12), u = bit(w, 29);
	dec_vec(d, w);
	d->op = (uint8_t)(u << 5 | opc);
	bool scalar = d->flags & SI_SCALAR, q = d->flags & SI_Q;
	if (opc == 0x12 || opc == 0x14) { /* narrowing */
		if (d->sf == 3)
			return false;
		if (scalar && !(opc == 0x14 || u))
			return false;
		d->op = (uint8_t)(opc == 0x12 ? (u ? 3 : 0) : (u ? 2 : 1));
		d->fn = exec_narrow;
		return true;
	}
	if (scalar) {
		switch (d->op) {
		case 0x07: case 0x27: break; /* SQABS/SQNEG any size */
		case 0x08: case 0x09: case 0x0a: case 0x28: case 0x29: case 0x0b: case 0x2b:
			if (d->sf != 3)
				return false;
			break;
		default: return false;
		}
		d->fn = exec_2misc;
		return true;
	}
	switch (d->op) {
	case 0x00: case 0x01: case 0x20: { /* REV64 REV16 REV32 */
		unsigned cont = d->op == 0x00 ? 8 : d->op == 0x20 ? 4 : 2;
		if ((1u << d->sf) >= cont)
			return false;
		d->op2 = (uint8_t)cont;
		d->fn = exec_rev;
		return true;
	}
	case 0x02: case 0x22: case 0x06: case 0x26:
		if (d->sf == 3)
			return false;
		d->op = (uint8_t)(u | (opc == 6 ? 2 : 0));
		d->fn = exec_addlp;
		return true;
	case 0x33: /* SHLL */
		if (d->sf == 3)
			return false;
		d->fn = exec_shll;
		return true;
	case 0x04: case 0x24:
		if (d->sf == 3)
			return false;
		d->fn = exec_2misc;
		return true;
	case 0x05: case 0x25:
		if (d->sf > (u ? 1 : 0))
			return false;
		if (d->sf == 1)
			d->op = 0x3f;
		d->sf = 0;
		d->fn = exec_2misc;
		return true;
	case 0x07: case 0x27: case 0x08: case 0x09: case 0x0a: case 0x28: case 0x29:
	case 0x0b: case 0x2b:
		if (d->sf == 3 && !q)
			return false;
		d->fn = exec_2misc;
		return true;
	default:
		return false;
	}
}

/* ---- across lanes ---------------------------------------------------------- */

static int exec_across(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg *n = &c->v[i->rn];
	unsigned es = i->sf, nl = lanes(i, es);
	bool u = i->op >> 5;
	int bw = 8 << es;
	__int128 acc = u ? (__int128)lane_get(n, es, 0) : (__int128)lane_sget(n, es, 0);
	for (unsigned e = 1; e < nl; e++) {
		__int128 x = u ? (__int128)lane_get(n, es, e) : (__int128)lane_sget(n, es, e);
		switch (i->op & 31) {
		case 0x0a: acc = x > acc ? x : acc; break;
		case 0x1a: acc = x < acc ? x : acc; break;
		default: acc += x; break;
		}
	}
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	unsigned res_es = (i->op & 31) == 0x03 ? es + 1 : es;
	(void)bw;
	lane_set(&r, res_es, 0, (uint64_t)acc & es_mask(res_es));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_across(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 16, 12), u = bit(w, 29);
	dec_vec(d, w);
	if (d->sf == 3 || (d->sf == 2 && !(d->flags & SI_Q)))
		return false;
	if (opc != 0x03 && opc != 0x0a && opc != 0x1a && !(opc == 0x1b && !u))
		return false;
	d->op = (uint8_t)(u << 5 | opc);
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
	if (opc == 4 || opc == 6) { /* ADDHN/SUBHN (+R): narrow into es */
		if (!off)
			memset(&r, 0, sizeof(r));
		for (unsigned e = 0; e < nl; e++) {
			uint64_t a = lane_get(&n, es + 1, e), b = lane_get(&m, es + 1, e);
			__int128 s = opc == 4 ? (__int128)a + b : (__int128)a - b;
			if (u)
				s += (__int128)1 << ((8 << es) - 1);
			lane_set(&r, es, off + e, (uint64_t)(s >> (8 << es)) & es_mask(es));
		}
		c->v[i->rd] = r;
		return a64_next(c, i);
	}
	for (unsigned e = 0; e < nl; e++) {
		bool wide = opc == 1 || opc == 3;
		__int128 a = wide ? (u ? (__int128)lane_get(&n, es + 1, e) : lane_sget(&n, es + 1, e))
				  : (u ? (__int128)lane_get(&n, es, off + e) : lane_sget(&n, es, off + e));
		__int128 b = u ? (__int128)lane_get(&m, es, off + e) : lane_sget(&m, es, off + e);
		__int128 acc = (__int128)lane_get(&r, es + 1, e), x;
		switch (opc) {
		case 0: case 1: x = a + b; break;
		case 2: case 3: x = a - b; break;
		case 5: x = acc + (a > b ? a - b : b - a); break;
		case 7: x = a > b ? a - b : b - a; break;
		case 8: x = acc + a * b; break;
		case 10: x = acc - a * b; break;
		case 12: x = a * b; break;
		case 9: /* SQDMLAL: both the doubling and the sum saturate */
		case 11:
		case 13: {
			uint64_t p = sat_s(c, 2 * a * b, es + 1);
			x = sext(p, 16 << es);
			if (opc != 13) {
				__int128 sacc = sext((uint64_t)acc, 16 << es);
				x = (__int128)sat_s(c, opc == 9 ? sacc + x : sacc - x, es + 1);
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

static bool dec_3diff(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 15, 12), u = bit(w, 29);
	dec_vec(d, w);
	if (d->sf == 3)
		return false;
	switch (opc) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 10: case 12:
		break;
	case 9: case 11: case 13:
		if (u || d->sf == 0)
			return false;
		break;
	case 14:
		if (u || d->sf != 0)
			return false;
		break;
	default:
		return false;
	}
	d->op = (uint8_t)(u << 5 | opc);
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
		case 0x00: x = (uint64_t)(v >> sh); break;
		case 0x02: x = d + (uint64_t)(v >> sh); break;
		case 0x04: x = (uint64_t)((v + ((__int128)1 << (sh - 1))) >> sh); break;
		case 0x06: x = d + (uint64_t)((v + ((__int128)1 << (sh - 1))) >> sh); break;
		case 0x08: { /* SRI */
			uint64_t keep = sh == bw ? m : ~(m >> sh) & m;
			x = (d & keep) | (sh == bw ? 0 : a >> sh);
			break;
		}
		case 0x0a: /* SHL / SLI */
			x = a << sh;
			if (u)
				x |= d & ((1ull << sh) - 1);
			break;
		case 0x0c: x = sat_u(c, shl128(sext(a, (int)bw), sh), es); break; /* SQSHLU */
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
	unsigned kind = (i->op & 31) >> 1; /* 8: SHRN/SQSHRUN, 9: SQSHRN/UQSHRN */
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a = lane_get(&n, es + 1, e);
		bool src_signed = !(kind == 9 && u) && !(kind == 8 && !u);
		__int128 v = src_signed ? (__int128)sext(a, 16 << es) : (__int128)a;
		if (round)
			v += (__int128)1 << (sh - 1);
		v >>= sh;
		uint64_t x;
		if (kind == 8 && !u)
			x = (uint64_t)v & es_mask(es); /* SHRN, RSHRN */
		else if (kind == 8)
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

static bool dec_shimm(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned immh = bits(w, 22, 19), immb = bits(w, 18, 16), opc = bits(w, 15, 11);
	unsigned u = bit(w, 29);
	if (!immh)
		return false; /* modified immediate, decoded elsewhere */
	dec_vec(d, w);
	unsigned es = 31 - (unsigned)__builtin_clz(immh);
	unsigned v = immh << 3 | immb, bw = 8u << es;
	bool scalar = d->flags & SI_SCALAR, q = d->flags & SI_Q;
	d->op = (uint8_t)(u << 5 | opc);
	d->sf = (uint8_t)es;
	if (opc >= 0x10 && opc <= 0x13) {
		/* narrowing right shifts: immh's top bit gives the destination
		 * element size, the source lanes are twice as wide */
		if (es == 3 || (opc <= 0x11 && !u && scalar))
			return false;
		d->imm = 2 * bw - v;
		d->fn = exec_shrn;
		return true;
	}
	if (opc == 0x14) {
		if (es == 3 || scalar)
			return false;
		d->imm = v - bw;
		d->fn = exec_shll_imm;
		return true;
	}
	if (opc == 0x1c || opc == 0x1f) {
		if (es < 2 && !scalar)
			return false;
		if (es < 2)
			return false;
		d->imm = 2 * bw - v; /* fbits */
		d->fn = a64_exec_simd_fixed_cvt;
		return true;
	}
	if (es == 3 && !q && !scalar)
		return false;
	if (scalar && es != 3 && !(opc == 0x0e || opc == 0x0c))
		return false;
	switch (opc) {
	case 0x00: case 0x02: case 0x04: case 0x06:
		d->imm = 2 * bw - v;
		break;
	case 0x08:
		if (!u)
			return false;
		d->imm = 2 * bw - v;
		break;
	case 0x0a:
		d->imm = v - bw;
		break;
	case 0x0c:
		if (!u)
			return false;
		d->imm = v - bw;
		break;
	case 0x0e:
		d->imm = v - bw;
		break;
	default:
		return false;
	}
	d->fn = exec_shimm;
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
	if (opc == 10 || opc == 2 || opc == 6) { /* [SU]MULL, [SU]MLAL, [SU]MLSL */
		unsigned nl = 8u >> es, off = (i->flags & SI_Q) ? nl : 0;
		__int128 bb = u ? (__int128)b : (__int128)sext(b, 8 << es);
		r = c->v[i->rd];
		for (unsigned e = 0; e < nl; e++) {
			__int128 a = u ? (__int128)lane_get(&n, es, off + e) : lane_sget(&n, es, off + e);
			__int128 acc = (__int128)lane_get(&r, es + 1, e);
			__int128 x = opc == 10 ? a * bb : opc == 2 ? acc + a * bb : acc - a * bb;
			lane_set(&r, es + 1, e, (uint64_t)x & es_mask(es + 1));
		}
		c->v[i->rd] = r;
		return a64_next(c, i);
	}
	unsigned nl = lanes(i, es);
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a = lane_get(&n, es, e), d = lane_get(&c->v[i->rd], es, e), x;
		switch (opc) {
		case 8: x = a * b; break;
		case 0: x = d + a * b; break;
		case 4: x = d - a * b; break;
		default: x = int3(c, (opc == 12 ? 0 : 0x20) | 0x16, es, a, b, 0); break;
		}
		lane_set(&r, es, e, x & es_mask(es));
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* Decodes the index of a by-element operand (H:L:M by size). */
bool a64_elem_index(uint32_t w, unsigned es, uint8_t *rm, uint64_t *idx)
{
	unsigned h = bit(w, 11), l = bit(w, 21), m = bit(w, 20);
	*rm = bits(w, 19, 16);
	switch (es) {
	case 1: *idx = h << 2 | l << 1 | m; return true;
	case 2: *idx = h << 1 | l; *rm |= (uint8_t)(m << 4); return true;
	case 3: if (l) return false; *idx = h; *rm |= (uint8_t)(m << 4); return true;
	default: return false;
	}
}

static bool dec_elem(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 15, 12), u = bit(w, 29);
	dec_vec(d, w);
	if (d->flags & SI_SCALAR)
		return false;
	if (!a64_elem_index(w, d->sf, &d->rm, &d->imm) || d->sf == 3)
		return false;
	d->op = (uint8_t)(u << 5 | opc);
	switch (d->op) {
	case 0x08: case 0x20: case 0x24: case 0x0a: case 0x2a: case 0x02: case 0x22:
	case 0x06: case 0x26: case 0x0c: case 0x0d:
		d->fn = exec_elem;
		return true;
	default:
		return false;
	}
}

struct a64_pattern a64_simd_int_table[] = {
	A64_ROW("0 x x 01110 xx 1 xxxxx xxxxx 1 xxxxx xxxxx", dec_3same),
	A64_ROW("01 x 11110 xx 1 xxxxx xxxxx 1 xxxxx xxxxx", dec_3same),
	A64_ROW("0 x x 01110 xx 10000 xxxxx 10 xxxxx xxxxx", dec_2misc),
	A64_ROW("01 x 11110 xx 10000 xxxxx 10 xxxxx xxxxx", dec_2misc),
	A64_ROW("0 x x 01110 xx 11000 xxxxx 10 xxxxx xxxxx", dec_across),
	A64_ROW("0 x x 01110 xx 1 xxxxx xxxx 00 xxxxx xxxxx", dec_3diff),
	A64_ROW("0 x x 011110 xxxx xxx xxxxx 1 xxxxx xxxxx", dec_shimm),
	A64_ROW("01 x 111110 xxxx xxx xxxxx 1 xxxxx xxxxx", dec_shimm),
	A64_ROW("0 x x 01111 xx x x xxxx xxxx x 0 xxxxx xxxxx", dec_elem),
	A64_END_TABLE,
};

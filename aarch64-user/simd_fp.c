// SPDX-License-Identifier: MIT
/* Advanced SIMD floating point (single and double lanes): three same,
 * two-register miscellaneous, across lanes, by element, scalar pairwise
 * and fixed-point conversions. Lane semantics come from fp_core.c. */
#include "aarch64-user/fp_core.h"
#include "aarch64-user/simd.h"

#define SF_Q 1
#define SF_SCALAR 2

/* Operands: sf = element size (2: S, 3: D), op = operation key
 * (U << 6 | a << 5 | opcode), flags as above. */
static inline unsigned nlanes(const struct a64_insn *i)
{
	if (i->flags & SF_SCALAR)
		return 1;
	return ((i->flags & SF_Q) ? 16u : 8u) >> i->sf;
}

static void dec_fvec(struct a64_insn *d, uint32_t w)
{
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->sf = (uint8_t)(2 + bit(w, 22));
	d->flags = (uint8_t)(bit(w, 30) | (bit(w, 28) ? SF_SCALAR : 0));
	d->op = (uint8_t)(bit(w, 29) << 6 | bit(w, 23) << 5 | bits(w, 15, 11));
}

enum {
	K_MAXNM = 0x18, K_FMLA = 0x19, K_FADD = 0x1a, K_MULX = 0x1b, K_CMEQ = 0x1c, K_MAX = 0x1e,
	K_RECPS = 0x1f, K_MINNM = 0x38, K_FMLS = 0x39, K_FSUB = 0x3a, K_MIN = 0x3e, K_RSQRTS = 0x3f,
	K_MAXNMP = 0x58, K_FADDP = 0x5a, K_FMUL = 0x5b, K_CMGE = 0x5c, K_ACGE = 0x5d, K_MAXP = 0x5e,
	K_FDIV = 0x5f, K_MINNMP = 0x78, K_ABD = 0x7a, K_CMGT = 0x7c, K_ACGT = 0x7d, K_MINP = 0x7e,
};

static uint64_t fp3(struct a64_cpu *c, unsigned k, enum fp_type t, uint64_t a, uint64_t b,
		    uint64_t d)
{
	uint64_t s = fp_sign_bit(t), ones = t == FT_D ? ~0ull : 0xffffffffull;
	switch (k) {
	case K_MAXNM: case K_MAXNMP: return fp_op2(c, FO_MAXNM, t, a, b);
	case K_MINNM: case K_MINNMP: return fp_op2(c, FO_MINNM, t, a, b);
	case K_MAX: case K_MAXP: return fp_op2(c, FO_MAX, t, a, b);
	case K_MIN: case K_MINP: return fp_op2(c, FO_MIN, t, a, b);
	case K_FADD: case K_FADDP: return fp_op2(c, FO_ADD, t, a, b);
	case K_FSUB: return fp_op2(c, FO_SUB, t, a, b);
	case K_FMUL: return fp_op2(c, FO_MUL, t, a, b);
	case K_FDIV: return fp_op2(c, FO_DIV, t, a, b);
	case K_MULX: return fp_op2(c, FO_MULX, t, a, b);
	case K_RECPS: return fp_op2(c, FO_RECPS, t, a, b);
	case K_RSQRTS: return fp_op2(c, FO_RSQRTS, t, a, b);
	case K_ABD: return fp_op2(c, FO_ABD, t, a, b);
	case K_FMLA: return fp_fma(c, t, d, a, b);
	case K_FMLS: return fp_fma(c, t, d, a ^ s, b);
	case K_CMEQ: return fp_cmp_eq(c, t, a, b) ? ones : 0;
	case K_CMGE: return fp_cmp_ge(c, t, a, b) ? ones : 0;
	case K_CMGT: return fp_cmp_gt(c, t, a, b) ? ones : 0;
	case K_ACGE: return fp_cmp_ge(c, t, a & ~s, b & ~s) ? ones : 0;
	default: return fp_cmp_gt(c, t, a & ~s, b & ~s) ? ones : 0; /* ACGT */
	}
}

static bool pairwise(unsigned k)
{
	return k == K_MAXNMP || k == K_MINNMP || k == K_FADDP || k == K_MAXP || k == K_MINP;
}

static int exec_fp3v(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn], m = c->v[i->rm];
	unsigned es = i->sf, nl = nlanes(i), half = nl / 2;
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a, b;
		if (pairwise(i->op)) {
			const union a64_vreg *src = e < half ? &n : &m;
			a = lane_get(src, es, 2 * (e % half));
			b = lane_get(src, es, 2 * (e % half) + 1);
		} else {
			a = lane_get(&n, es, e);
			b = lane_get(&m, es, e);
		}
		lane_set(&r, es, e, fp3(c, i->op, (enum fp_type)es, a, b, lane_get(&c->v[i->rd], es, e)));
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_fp3v(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	if (bits(w, 15, 14) != 3)
		return false;
	dec_fvec(d, w);
	if (d->sf == 3 && !(d->flags & (SF_Q | SF_SCALAR)))
		return false;
	switch (d->op) {
	case K_MULX: case K_CMEQ: case K_RECPS: case K_RSQRTS: case K_CMGE: case K_ACGE:
	case K_ABD: case K_CMGT: case K_ACGT:
		break;
	case K_MAXNM: case K_FMLA: case K_FADD: case K_MAX: case K_MINNM: case K_FMLS:
	case K_FSUB: case K_MIN: case K_MAXNMP: case K_FADDP: case K_FMUL: case K_MAXP:
	case K_FDIV: case K_MINNMP: case K_MINP:
		if (d->flags & SF_SCALAR)
			return false;
		break;
	default:
		return false;
	}
	d->fn = exec_fp3v;
	return true;
}

/* ---- two-register miscellaneous ------------------------------------------ */

static uint64_t fp1(struct a64_cpu *c, unsigned k, enum fp_type t, uint64_t a)
{
	uint64_t s = fp_sign_bit(t), ones = t == FT_D ? ~0ull : 0xffffffffull;
	unsigned w = t == FT_D ? 64 : 32;
	switch (k) {
	case 0x18: return fp_round_int(c, t, a, FR_N);
	case 0x19: return fp_round_int(c, t, a, FR_M);
	case 0x38: return fp_round_int(c, t, a, FR_P);
	case 0x39: return fp_round_int(c, t, a, FR_Z);
	case 0x58: return fp_round_int(c, t, a, FR_A);
	case 0x59: return fp_round_int(c, t, a, FR_X);
	case 0x79: return fp_round_int(c, t, a, fp_fpcr_rmode(c));
	case 0x1a: return fp_to_int(c, t, a, FR_N, 0, true, w);
	case 0x1b: return fp_to_int(c, t, a, FR_M, 0, true, w);
	case 0x1c: return fp_to_int(c, t, a, FR_A, 0, true, w);
	case 0x3a: return fp_to_int(c, t, a, FR_P, 0, true, w);
	case 0x3b: return fp_to_int(c, t, a, FR_Z, 0, true, w);
	case 0x5a: return fp_to_int(c, t, a, FR_N, 0, false, w);
	case 0x5b: return fp_to_int(c, t, a, FR_M, 0, false, w);
	case 0x5c: return fp_to_int(c, t, a, FR_A, 0, false, w);
	case 0x7a: return fp_to_int(c, t, a, FR_P, 0, false, w);
	case 0x7b: return fp_to_int(c, t, a, FR_Z, 0, false, w);
	case 0x1d: return fp_from_int(c, t, a, 0, true, w);
	case 0x5d: return fp_from_int(c, t, a, 0, false, w);
	case 0x2c: return fp_cmp_gt(c, t, a, 0) ? ones : 0;
	case 0x2d: return fp_cmp_eq(c, t, a, 0) ? ones : 0;
	case 0x2e: return fp_cmp_gt(c, t, 0, a) ? ones : 0;
	case 0x6c: return fp_cmp_ge(c, t, a, 0) ? ones : 0;
	case 0x6d: return fp_cmp_ge(c, t, 0, a) ? ones : 0;
	case 0x3d: return fp_recpe(c, t, a);
	case 0x7d: return fp_rsqrte(c, t, a);
	case 0x3c: return fp_urecpe((uint32_t)a);
	case 0x7c: return fp_ursqrte((uint32_t)a);
	case 0x2f: return a & ~s;
	case 0x6f: return a ^ s;
	default: return fp_sqrt(c, t, a); /* 0x7f */
	}
}

static int exec_fp2misc(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = nlanes(i);
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++)
		lane_set(&r, es, e, fp1(c, i->op, (enum fp_type)es, lane_get(&n, es, e)));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

/* FCVTL (widen, reads the top half for the "2" form) and FCVTN (narrow,
 * writes the top half for "2"); sf = the wider element size. */
static int exec_fcvtl(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = 8u >> (es - 1), off = (i->flags & SF_Q) ? nl : 0;
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++)
		lane_set(&r, es, e, fp_convert(c, (enum fp_type)es, (enum fp_type)(es - 1),
					       lane_get(&n, es - 1, off + e)));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static int exec_fcvtn(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = 8u >> (es - 1), off = (i->flags & SF_Q) ? nl : 0;
	union a64_vreg r = c->v[i->rd];
	if (!off)
		memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++)
		lane_set(&r, es - 1, off + e, fp_convert(c, (enum fp_type)(es - 1), (enum fp_type)es,
							 lane_get(&n, es, e)));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_fp2misc(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	dec_fvec(d, w);
	d->op = (uint8_t)(bit(w, 29) << 6 | bit(w, 23) << 5 | bits(w, 16, 12));
	bool scalar = d->flags & SF_SCALAR;
	if (d->op == 0x16 || d->op == 0x17) { /* FCVTN / FCVTL, half<->single too */
		if (scalar)
			return false;
		d->sf = (uint8_t)(2 + bit(w, 22));
		d->fn = d->op == 0x17 ? exec_fcvtl : exec_fcvtn;
		return true;
	}
	if (d->sf == 3 && !(d->flags & (SF_Q | SF_SCALAR)))
		return false;
	switch (d->op) {
	case 0x1a: case 0x1b: case 0x1c: case 0x3a: case 0x3b: case 0x5a: case 0x5b: case 0x5c:
	case 0x7a: case 0x7b: case 0x1d: case 0x5d: case 0x2c: case 0x2d: case 0x2e: case 0x6c:
	case 0x6d: case 0x3d: case 0x7d:
		break;
	case 0x3c: case 0x7c: /* URECPE, URSQRTE: 32-bit lanes, vector only */
		if (scalar || d->sf != 2)
			return false;
		break;
	case 0x18: case 0x19: case 0x38: case 0x39: case 0x58: case 0x59: case 0x79: case 0x2f:
	case 0x6f: case 0x7f:
		if (scalar)
			return false;
		break;
	default:
		return false;
	}
	d->fn = exec_fp2misc;
	return true;
}

/* ---- across lanes and scalar pairwise ------------------------------------ */

static int exec_facross(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	uint64_t v[4];
	for (int e = 0; e < 4; e++)
		v[e] = n.s[e];
	/* Arm reduces pairwise as a tree: (0 op 1) op (2 op 3) */
	uint64_t a = fp3(c, i->op, FT_S, v[0], v[1], 0), b = fp3(c, i->op, FT_S, v[2], v[3], 0);
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	r.s[0] = (uint32_t)fp3(c, i->op, FT_S, a, b, 0);
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_facross(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 16, 12), a = bit(w, 23);
	if (!bit(w, 29) || !bit(w, 30) || bit(w, 22) || (opc != 0x0c && opc != 0x0f))
		return false;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->op = (uint8_t)(opc == 0x0c ? (a ? K_MINNM : K_MAXNM) : (a ? K_MIN : K_MAX));
	d->fn = exec_facross;
	return true;
}

static int exec_pair_scalar(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf;
	uint64_t a = lane_get(&n, es, 0), b = lane_get(&n, es, 1), r;
	if (i->op == 0)
		r = a + b; /* ADDP Dd, Vn.2D */
	else
		r = fp3(c, i->op, (enum fp_type)es, a, b, 0);
	union a64_vreg v;
	memset(&v, 0, sizeof(v));
	lane_set(&v, es, 0, r);
	c->v[i->rd] = v;
	return a64_next(c, i);
}

static bool dec_pair_scalar(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned u = bit(w, 29), a = bit(w, 23), opc = bits(w, 16, 12);
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	if (!u) {
		if (opc != 0x1b || bits(w, 23, 22) != 3)
			return false;
		d->sf = 3;
		d->op = 0;
		d->fn = exec_pair_scalar;
		return true;
	}
	d->sf = (uint8_t)(2 + bit(w, 22));
	switch (opc) {
	case 0x0c: d->op = a ? K_MINNM : K_MAXNM; break;
	case 0x0d: if (a) return false; d->op = K_FADD; break;
	case 0x0f: d->op = a ? K_MIN : K_MAX; break;
	default: return false;
	}
	d->fn = exec_pair_scalar;
	return true;
}

/* ---- by element ---------------------------------------------------------- */

static int exec_felem(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = nlanes(i);
	uint64_t b = lane_get(&c->v[i->rm], es, (unsigned)i->imm);
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++)
		lane_set(&r, es, e, fp3(c, i->op, (enum fp_type)es, lane_get(&n, es, e), b,
					lane_get(&c->v[i->rd], es, e)));
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_felem(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 15, 12), u = bit(w, 29), sz = bit(w, 22);
	if (!bit(w, 23))
		return false; /* size 0x: integer or half forms */
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->sf = (uint8_t)(2 + sz);
	d->flags = (uint8_t)(bit(w, 30) | (bit(w, 28) ? SF_SCALAR : 0));
	if (d->sf == 3 && !(d->flags & (SF_Q | SF_SCALAR)))
		return false;
	if (!a64_elem_index(w, d->sf, &d->rm, &d->imm))
		return false;
	switch (u << 4 | opc) {
	case 0x01: d->op = K_FMLA; break;
	case 0x05: d->op = K_FMLS; break;
	case 0x09: d->op = K_FMUL; break;
	case 0x19: d->op = K_MULX; break;
	default: return false;
	}
	d->fn = exec_felem;
	return true;
}

/* ---- fixed-point conversions (shift-immediate encodings) ------------------ */

int a64_exec_simd_fixed_cvt(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg n = c->v[i->rn];
	unsigned es = i->sf, nl = nlanes(i), w = 8u << es;
	bool u = i->op >> 5, to_fp = (i->op & 31) == 0x1c;
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < nl; e++) {
		uint64_t a = lane_get(&n, es, e), x;
		if (to_fp)
			x = fp_from_int(c, (enum fp_type)es, a, (unsigned)i->imm, !u, w);
		else
			x = fp_to_int(c, (enum fp_type)es, a, FR_Z, (unsigned)i->imm, !u, w);
		lane_set(&r, es, e, x);
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

struct a64_pattern a64_simd_fp_table[] = {
	A64_ROW("0 x x 01110 xx 1 xxxxx xxxxx 1 xxxxx xxxxx", dec_fp3v),
	A64_ROW("01 x 11110 xx 1 xxxxx xxxxx 1 xxxxx xxxxx", dec_fp3v),
	A64_ROW("0 x x 01110 xx 10000 xxxxx 10 xxxxx xxxxx", dec_fp2misc),
	A64_ROW("01 x 11110 xx 10000 xxxxx 10 xxxxx xxxxx", dec_fp2misc),
	A64_ROW("0 x x 01110 xx 11000 xxxxx 10 xxxxx xxxxx", dec_facross),
	A64_ROW("01 x 11110 xx 11000 xxxxx 10 xxxxx xxxxx", dec_pair_scalar),
	A64_ROW("0 x x 01111 xx x x xxxx xxxx x 0 xxxxx xxxxx", dec_felem),
	A64_ROW("01 x 11111 xx x x xxxx xxxx x 0 xxxxx xxxxx", dec_felem),
	A64_END_TABLE,
};

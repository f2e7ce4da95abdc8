// SPDX-License-Identifier: MIT
/* Advanced SIMD moves and permutes: DUP, INS, UMOV/SMOV, modified
 * immediates (MOVI/MVNI/ORR/BIC/FMOV), ZIP/UZP/TRN, EXT, TBL/TBX. */
#include "aarch64-user/fp_core.h"
#include "aarch64-user/simd.h"

/* imm5: the lowest set bit gives the element size, the bits above it the
 * index. */
static bool imm5_split(unsigned imm5, uint8_t *es, uint64_t *idx)
{
	if (!(imm5 & 15))
		return false;
	*es = (uint8_t)__builtin_ctz(imm5);
	*idx = imm5 >> (*es + 1);
	return true;
}

/* DUP (element) vector and scalar: flags&1 = scalar. */
static int exec_dup_elem(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t x = lane_get(&c->v[i->rn], i->sf, (unsigned)i->imm);
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	unsigned n = (i->flags & 1) ? 1 : (i->op ? 16u : 8u) >> i->sf;
	for (unsigned e = 0; e < n; e++)
		lane_set(&r, i->sf, e, x);
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static int exec_dup_gen(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t x = xr(c, i->rn);
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	unsigned n = (i->op ? 16u : 8u) >> i->sf;
	for (unsigned e = 0; e < n; e++)
		lane_set(&r, i->sf, e, x);
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static int exec_ins_gen(struct a64_cpu *c, const struct a64_insn *i)
{
	lane_set(&c->v[i->rd], i->sf, (unsigned)i->imm, xr(c, i->rn));
	return a64_next(c, i);
}

static int exec_ins_elem(struct a64_cpu *c, const struct a64_insn *i)
{
	lane_set(&c->v[i->rd], i->sf, (unsigned)i->imm, lane_get(&c->v[i->rn], i->sf, (unsigned)i->imm2));
	return a64_next(c, i);
}

/* UMOV (op = 0) / SMOV (op = 1, op2 = 1 for an X destination). */
static int exec_mov_to_gen(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t x = lane_get(&c->v[i->rn], i->sf, (unsigned)i->imm);
	if (i->op) {
		x = (uint64_t)sext(x, 8 << i->sf);
		if (!i->op2)
			x = (uint32_t)x;
	}
	wx(c, i->rd, x);
	return a64_next(c, i);
}

static bool dec_copy(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned q = bit(w, 30), op = bit(w, 29), imm4 = bits(w, 14, 11);
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->op = (uint8_t)q;
	if (!imm5_split(bits(w, 20, 16), &d->sf, &d->imm))
		return false;
	if (op) {
		if (!q)
			return false;
		d->imm2 = imm4 >> d->sf;
		d->fn = exec_ins_elem;
		return true;
	}
	switch (imm4) {
	case 0:
		if (d->sf == 3 && !q)
			return false;
		d->fn = exec_dup_elem;
		return true;
	case 1:
		if (d->sf == 3 && !q)
			return false;
		d->fn = exec_dup_gen;
		return true;
	case 3:
		if (!q)
			return false;
		d->fn = exec_ins_gen;
		return true;
	case 5: /* SMOV: W for B/H, X for B/H/S */
		if (d->sf > 2 || (d->sf == 2 && !q))
			return false;
		d->op = 1;
		d->op2 = (uint8_t)q;
		d->fn = exec_mov_to_gen;
		return true;
	case 7: /* UMOV: W for B/H/S, X for D */
		if ((d->sf == 3) != q)
			return false;
		d->op = 0;
		d->fn = exec_mov_to_gen;
		return true;
	default:
		return false;
	}
}

static bool dec_dup_scalar(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	if (bits(w, 14, 11) || !imm5_split(bits(w, 20, 16), &d->sf, &d->imm))
		return false;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->flags = 1;
	d->fn = exec_dup_elem;
	return true;
}

/* ---- modified immediate --------------------------------------------------- */

/* imm = 64-bit pattern (replicated to both halves); op: 0 MOVI/FMOV,
 * 1 MVNI, 2 ORR, 3 BIC. */
static int exec_modimm(struct a64_cpu *c, const struct a64_insn *i)
{
	union a64_vreg *v = &c->v[i->rd];
	uint64_t x = i->imm;
	bool q = i->flags & 1;
	switch (i->op) {
	case 0: v->d[0] = x; v->d[1] = q ? x : 0; break;
	case 1: v->d[0] = ~x; v->d[1] = q ? ~x : 0; break;
	case 2: v->d[0] |= x; v->d[1] = q ? v->d[1] | x : 0; break;
	default: v->d[0] &= ~x; v->d[1] = q ? v->d[1] & ~x : 0; break;
	}
	return a64_next(c, i);
}

static bool dec_modimm(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned q = bit(w, 30), op = bit(w, 29), cmode = bits(w, 15, 12);
	uint64_t imm8 = bits(w, 18, 16) << 5 | bits(w, 9, 5), x;
	if (bit(w, 11))
		return false; /* o2: FMOV half (FP16), not offered */
	d->rd = bits(w, 4, 0);
	d->flags = (uint8_t)q;
	d->op = 0;
	switch (cmode >> 1) {
	case 0: case 1: case 2: case 3:
		x = imm8 << (8 * (cmode >> 1));
		x |= x << 32;
		d->op = (uint8_t)((cmode & 1) ? 2 + op : op);
		break;
	case 4: case 5:
		x = imm8 << (8 * ((cmode >> 1) & 1));
		x |= x << 16;
		x |= x << 32;
		d->op = (uint8_t)((cmode & 1) ? 2 + op : op);
		break;
	case 6:
		x = (cmode & 1) ? (imm8 << 16 | 0xffff) : (imm8 << 8 | 0xff);
		x |= x << 32;
		d->op = (uint8_t)op;
		break;
	default:
		if (!(cmode & 1)) {
			if (!op) {
				x = imm8 * 0x0101010101010101ull;
			} else {
				x = 0;
				for (int k = 0; k < 8; k++)
					if (imm8 >> k & 1)
						x |= 0xffull << (8 * k);
			}
		} else if (!op) {
			x = fp_expand_imm8(FT_S, (unsigned)imm8);
			x |= x << 32;
		} else {
			if (!q)
				return false;
			x = fp_expand_imm8(FT_D, (unsigned)imm8);
		}
		break;
	}
	d->imm = x;
	d->fn = exec_modimm;
	return true;
}

/* ---- permutes ------------------------------------------------------------- */

static int exec_perm(struct a64_cpu *c, const struct a64_insn *i)
{
	const union a64_vreg *n = &c->v[i->rn], *m = &c->v[i->rm];
	unsigned es = i->sf, elems = ((i->flags & 1) ? 16 : 8) >> es, half = elems / 2;
	unsigned part = i->op >> 2; /* 0: "1" forms, 1: "2" forms */
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	for (unsigned e = 0; e < elems; e++) {
		uint64_t x;
		switch (i->op & 3) {
		case 1: { /* UZP */
			unsigned k = 2 * e + part;
			x = k < elems ? lane_get(n, es, k) : lane_get(m, es, k - elems);
			break;
		}
		case 2: /* TRN */
			x = lane_get((e & 1) ? m : n, es, (e & ~1u) + part);
			break;
		default: /* ZIP */
			x = lane_get((e & 1) ? m : n, es, part * half + e / 2);
			break;
		}
		lane_set(&r, es, e, x);
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_perm(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 14, 12);
	if ((opc & 3) == 0)
		return false;
	d->sf = bits(w, 23, 22);
	d->flags = bit(w, 30);
	if (d->sf == 3 && !d->flags)
		return false;
	d->op = (uint8_t)opc;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->fn = exec_perm;
	return true;
}

static int exec_ext(struct a64_cpu *c, const struct a64_insn *i)
{
	uint8_t cat[32];
	unsigned n = (i->flags & 1) ? 16 : 8;
	memcpy(cat, c->v[i->rn].b, n);
	memcpy(cat + n, c->v[i->rm].b, n);
	union a64_vreg r;
	memset(&r, 0, sizeof(r));
	memcpy(r.b, cat + i->imm, n);
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_ext(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	d->flags = bit(w, 30);
	d->imm = bits(w, 14, 11);
	if (!d->flags && d->imm > 7)
		return false;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->fn = exec_ext;
	return true;
}

/* TBL (op = 0) / TBX (op = 1) over op2 + 1 table registers. */
static int exec_tbl(struct a64_cpu *c, const struct a64_insn *i)
{
	uint8_t table[64];
	unsigned len = i->op2 + 1u, n = (i->flags & 1) ? 16 : 8;
	for (unsigned k = 0; k < len; k++)
		memcpy(table + 16 * k, c->v[(i->rn + k) % 32].b, 16);
	union a64_vreg r = c->v[i->rd];
	const union a64_vreg m = c->v[i->rm];
	for (unsigned e = 0; e < n; e++) {
		unsigned idx = m.b[e];
		if (idx < 16 * len)
			r.b[e] = table[idx];
		else if (!i->op)
			r.b[e] = 0;
	}
	vreg_put(c, i->rd, &r, i->flags & 1);
	return a64_next(c, i);
}

static bool dec_tbl(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	d->flags = bit(w, 30);
	d->op = bit(w, 12);
	d->op2 = bits(w, 14, 13);
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->fn = exec_tbl;
	return true;
}

struct a64_pattern a64_simd_table[] = {
	A64_ROW("0 x x 01110000 xxxxx 0 xxxx 1 xxxxx xxxxx", dec_copy),
	A64_ROW("01 0 11110000 xxxxx 0 xxxx 1 xxxxx xxxxx", dec_dup_scalar),
	A64_ROW("0 x x 0111100000 xxx xxxx x 1 xxxxx xxxxx", dec_modimm),
	A64_ROW("0 x 0 01110 xx 0 xxxxx 0 xxx 10 xxxxx xxxxx", dec_perm),
	A64_ROW("0 x 101110 00 0 xxxxx 0 xxxx 0 xxxxx xxxxx", dec_ext),
	A64_ROW("0 x 001110 00 0 xxxxx 0 xx x 00 xxxxx xxxxx", dec_tbl),
	A64_END_TABLE,
};

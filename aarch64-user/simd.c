// SPDX-License-Identifier: MIT
/* Advanced SIMD moves and permutes: DUP, INS, UMOV/SMOV, modified
 * immediates (MOVI/MVNI/ORR/BIC/FMOV), ZIP/UZP/TRN, EXT, TBL/TBX. */
#include "aarch64-user/fp_core.h"
#include "aarch64-user/simd.h"

/* What simd.decode names: the copy forms; the modified immediates' shapes
 * and uses (exec_modimm's op); the permutes (exec_perm's op, with the part
 * above them). */
enum { CP_DUP_ELEM, CP_DUP_GEN, CP_INS_GEN, CP_SMOV, CP_UMOV, CP_INS_ELEM, CP_DUP_SCALAR };
enum { MK_LSL32, MK_LSL16, MK_MSL, MK_BYTES, MK_BYTEMASK, MK_FMOV_S, MK_FMOV_D };
enum { MI_MOVI, MI_MVNI, MI_ORR, MI_BIC };
enum { PERM_UZP = 1, PERM_TRN, PERM_ZIP };

/* The decoder generated from simd.decode (a64_decode_simd, which decode.c
 * calls for its major group). */
#include "aarch64-user/simd.decode.inc"

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

static bool dec_COPY(struct a64_insn *d, const struct args_copy *a)
{
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->op = (uint8_t)a->q;
	if (!imm5_split((unsigned)a->imm5, &d->sf, &d->imm))
		return false;
	switch (a->op) {
	case CP_INS_ELEM:
		d->imm2 = (uint64_t)a->imm4 >> d->sf;
		d->fn = exec_ins_elem;
		return true;
	case CP_DUP_SCALAR:
		d->flags = 1;
		d->op = 0;
		d->fn = exec_dup_elem;
		return true;
	case CP_DUP_ELEM:
	case CP_DUP_GEN:
		if (d->sf == 3 && !a->q)
			return false;
		d->fn = a->op == CP_DUP_ELEM ? exec_dup_elem : exec_dup_gen;
		return true;
	case CP_INS_GEN:
		d->fn = exec_ins_gen;
		return true;
	case CP_SMOV: /* W for B/H, X for B/H/S */
		if (d->sf > 2 || (d->sf == 2 && !a->q))
			return false;
		d->op = 1;
		d->op2 = (uint8_t)a->q;
		d->fn = exec_mov_to_gen;
		return true;
	default: /* UMOV: W for B/H/S, X for D */
		if ((d->sf == 3) != (bool)a->q)
			return false;
		d->op = 0;
		d->fn = exec_mov_to_gen;
		return true;
	}
}

/* ---- modified immediate --------------------------------------------------- */

/* imm = 64-bit pattern (replicated to both halves); op: what to do with
 * it (MOVI and FMOV set it). */
static int exec_modimm(struct a64_cpu *c, const struct a64_insn *i)
{
	union a64_vreg *v = &c->v[i->rd];
	uint64_t x = i->imm;
	bool q = i->flags & 1;
	switch (i->op) {
	case MI_MOVI: v->d[0] = x; v->d[1] = q ? x : 0; break;
	case MI_MVNI: v->d[0] = ~x; v->d[1] = q ? ~x : 0; break;
	case MI_ORR: v->d[0] |= x; v->d[1] = q ? v->d[1] | x : 0; break;
	default: v->d[0] &= ~x; v->d[1] = q ? v->d[1] & ~x : 0; break;
	}
	return a64_next(c, i);
}

/* The 64-bit pattern of a modified immediate (both halves alike). */
static uint64_t modimm_value(unsigned kind, unsigned sh, uint64_t imm8)
{
	uint64_t x = 0;
	switch (kind) {
	case MK_LSL32:
		x = imm8 << (8 * sh);
		return x | x << 32;
	case MK_LSL16:
		x = imm8 << (8 * sh);
		x |= x << 16;
		return x | x << 32;
	case MK_MSL:
		x = sh ? (imm8 << 16 | 0xffff) : (imm8 << 8 | 0xff);
		return x | x << 32;
	case MK_BYTES:
		return imm8 * 0x0101010101010101ull;
	case MK_BYTEMASK:
		for (int k = 0; k < 8; k++)
			if (imm8 >> k & 1)
				x |= 0xffull << (8 * k);
		return x;
	case MK_FMOV_S:
		x = fp_expand_imm8(FT_S, (unsigned)imm8);
		return x | x << 32;
	default:
		return fp_expand_imm8(FT_D, (unsigned)imm8);
	}
}

static bool dec_MODIMM(struct a64_insn *d, const struct args_modimm *a)
{
	d->rd = (uint8_t)a->rd;
	d->flags = (uint8_t)a->q;
	d->op = (uint8_t)a->act;
	d->imm = modimm_value((unsigned)a->kind, (unsigned)a->sh, (uint64_t)a->imm8);
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
		case PERM_UZP: {
			unsigned k = 2 * e + part;
			x = k < elems ? lane_get(n, es, k) : lane_get(m, es, k - elems);
			break;
		}
		case PERM_TRN:
			x = lane_get((e & 1) ? m : n, es, (e & ~1u) + part);
			break;
		default: /* PERM_ZIP */
			x = lane_get((e & 1) ? m : n, es, part * half + e / 2);
			break;
		}
		lane_set(&r, es, e, x);
	}
	c->v[i->rd] = r;
	return a64_next(c, i);
}

static bool dec_PERM(struct a64_insn *d, const struct args_perm *a)
{
	if (a->size == 3 && !a->q)
		return false;
	d->sf = (uint8_t)a->size;
	d->flags = (uint8_t)a->q;
	d->op = (uint8_t)(a->part << 2 | a->kind);
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
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

static bool dec_EXT(struct a64_insn *d, const struct args_EXT *a)
{
	if (!a->q && a->imm4 > 7)
		return false;
	d->flags = (uint8_t)a->q;
	d->imm = (uint64_t)a->imm4;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
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

static bool dec_TBL(struct a64_insn *d, const struct args_TBL *a)
{
	d->flags = (uint8_t)a->q;
	d->op = (uint8_t)a->tbx;
	d->op2 = (uint8_t)a->len;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	d->fn = exec_tbl;
	return true;
}

// SPDX-License-Identifier: MIT
/* Advanced SIMD structure loads and stores: LD1-LD4/ST1-ST4 of multiple
 * structures, of a single lane, and LD1R-LD4R, with post-indexing. */
#include "aarch64-user/simd.h"

/* Operands: rd = Rt, rn = base, rm = post-index register (31: imm), sf =
 * element size, op = structure elements (selem), op2 = registers per
 * element group (LD1 with 1-4 registers), flags: 1 load, 2 Q, 4 post,
 * 8 replicate; imm = lane index or post-index immediate (imm2). */
#define SL_LOAD 1
#define SL_Q 2
#define SL_POST 4
#define SL_REPL 8

static inline void post_index(struct a64_cpu *c, const struct a64_insn *i, uint64_t base)
{
	if (i->flags & SL_POST)
		c->x[i->rn] = base + (i->rm == 31 ? i->imm2 : c->x[i->rm]);
}

static int exec_multi(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t base = c->x[i->rn], a = base;
	unsigned es = i->sf, esz = 1u << es, elems = ((i->flags & SL_Q) ? 16 : 8) >> es;
	unsigned selem = i->op, rpt = i->op2;
	union a64_vreg tmp[4];
	bool load = i->flags & SL_LOAD;

	if (load)
		for (unsigned r = 0; r < rpt * selem; r++)
			memset(&tmp[r], 0, sizeof(tmp[r]));
	else
		for (unsigned r = 0; r < rpt * selem; r++)
			tmp[r] = c->v[(i->rd + r) % 32];
	/* All memory is touched before any register changes, so a fault
	 * leaves the registers as they were. */
	for (unsigned r = 0; r < rpt; r++)
		for (unsigned e = 0; e < elems; e++)
			for (unsigned s = 0; s < selem; s++) {
				union a64_vreg *v = &tmp[r + s];
				if (load)
					lane_set(v, es, e, ld_sz(a, es));
				else
					st_sz(a, es, lane_get(v, es, e));
				a += esz;
			}
	if (load)
		for (unsigned r = 0; r < rpt * selem; r++)
			c->v[(i->rd + r) % 32] = tmp[r];
	post_index(c, i, base);
	return a64_next(c, i);
}

static bool dec_multi(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	static const int8_t sel[16] = { 4, -1, 1, -1, 3, -1, 1, 1, 2, -1, 1, -1, -1, -1, -1, -1 };
	static const int8_t rpt[16] = { 1, -1, 4, -1, 1, -1, 3, 1, 1, -1, 2, -1, -1, -1, -1, -1 };
	unsigned opc = bits(w, 15, 12);
	if (sel[opc] < 0)
		return false;
	d->sf = bits(w, 11, 10);
	d->op = (uint8_t)sel[opc];
	d->op2 = (uint8_t)rpt[opc];
	d->flags = (uint8_t)((bit(w, 22) ? SL_LOAD : 0) | (bit(w, 30) ? SL_Q : 0) |
			     (bit(w, 23) ? SL_POST : 0));
	if (d->sf == 3 && !bit(w, 30) && d->op > 1)
		return false;
	if (!bit(w, 23) && bits(w, 20, 16))
		return false;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->imm2 = (uint64_t)(bit(w, 30) ? 16 : 8) * d->op * d->op2;
	d->fn = exec_multi;
	return true;
}

static int exec_single(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t base = c->x[i->rn], a = base;
	unsigned es = i->sf, selem = i->op;
	uint64_t vals[4];

	if (i->flags & SL_LOAD) {
		for (unsigned s = 0; s < selem; s++)
			vals[s] = ld_sz(a + (s << es), es);
		for (unsigned s = 0; s < selem; s++) {
			union a64_vreg *v = &c->v[(i->rd + s) % 32];
			if (i->flags & SL_REPL) {
				unsigned n = ((i->flags & SL_Q) ? 16 : 8) >> es;
				union a64_vreg r;
				memset(&r, 0, sizeof(r));
				for (unsigned e = 0; e < n; e++)
					lane_set(&r, es, e, vals[s]);
				*v = r;
			} else {
				lane_set(v, es, (unsigned)i->imm, vals[s]);
			}
		}
	} else {
		for (unsigned s = 0; s < selem; s++)
			st_sz(a + (s << es), es, lane_get(&c->v[(i->rd + s) % 32], es, (unsigned)i->imm));
	}
	post_index(c, i, base);
	return a64_next(c, i);
}

static bool dec_single(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opc = bits(w, 15, 13), s = bit(w, 12), size = bits(w, 11, 10);
	unsigned q = bit(w, 30), l = bit(w, 22), scale = opc >> 1;
	d->op = (uint8_t)(((opc & 1) << 1 | bit(w, 21)) + 1);
	d->flags = (uint8_t)((l ? SL_LOAD : 0) | (q ? SL_Q : 0) | (bit(w, 23) ? SL_POST : 0));
	switch (scale) {
	case 0: d->imm = q << 3 | s << 2 | size; break;
	case 1:
		if (size & 1)
			return false;
		d->imm = q << 2 | s << 1 | size >> 1;
		break;
	case 2:
		if (size & 2)
			return false;
		if (size == 0) {
			d->imm = q << 1 | s;
		} else {
			if (s)
				return false;
			d->imm = q;
			scale = 3;
		}
		break;
	default:
		if (!l || s)
			return false;
		scale = size;
		d->flags |= SL_REPL;
		break;
	}
	if (!bit(w, 23) && bits(w, 20, 16))
		return false;
	d->sf = (uint8_t)scale;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->imm2 = (uint64_t)d->op << scale;
	d->fn = exec_single;
	return true;
}

struct a64_pattern a64_simd_ldst_table[] = {
	A64_ROW("0 x 001100 x x 0 xxxxx xxxx xx xxxxx xxxxx", dec_multi),
	A64_ROW("0 x 001101 x x x xxxxx xxx x xx xxxxx xxxxx", dec_single),
	A64_END_TABLE,
};

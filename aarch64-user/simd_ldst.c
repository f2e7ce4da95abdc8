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

/* The decoder generated from simd_ldst.decode (a64_decode_simd_ldst, which decode.c
 * calls for its major group). */
#include "aarch64-user/simd_ldst.decode.inc"

static int64_t plus_one(int64_t v)
{
	return v + 1;
}

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

static bool dec_MULTI(struct a64_insn *d, const struct args_vmulti *a)
{
	if (a->size == 3 && !a->q && a->sel > 1)
		return false;
	if (!a->post && a->rm)
		return false;
	d->sf = (uint8_t)a->size;
	d->op = (uint8_t)a->sel;
	d->op2 = (uint8_t)a->rpt;
	d->flags = (uint8_t)((a->load ? SL_LOAD : 0) | (a->q ? SL_Q : 0) | (a->post ? SL_POST : 0));
	d->rd = (uint8_t)a->rt;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	d->imm2 = (uint64_t)(a->q ? 16 : 8) * d->op * d->op2;
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

static bool dec_SINGLE(struct a64_insn *d, const struct args_vsingle *a)
{
	if (!a->post && a->rm)
		return false;
	d->op = (uint8_t)a->nreg;
	d->flags = (uint8_t)((a->load ? SL_LOAD : 0) | (a->q ? SL_Q : 0) | (a->post ? SL_POST : 0) |
			     (a->repl ? SL_REPL : 0));
	d->imm = (uint64_t)a->index;
	d->sf = (uint8_t)a->scale;
	d->rd = (uint8_t)a->rt;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	d->imm2 = (uint64_t)d->op << a->scale;
	d->fn = exec_single;
	return true;
}

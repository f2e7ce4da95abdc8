// SPDX-License-Identifier: MIT
/* Loads and stores of general and SIMD&FP registers: literal, unsigned
 * offset, unscaled, pre/post-index, register offset, pairs. */
#include "aarch64-user/engine.h"
#include "aarch64-user/ldst.h"

/* Addressing: op2 = mode, imm = signed offset, rm/ra/flags = register
 * offset (Rm, extend option, shift amount). */
enum { AM_OFF, AM_PRE, AM_POST, AM_REG };

static inline __attribute__((always_inline)) uint64_t
ea_begin_m(struct a64_cpu *c, const struct a64_insn *i, unsigned mode)
{
	uint64_t base = c->x[i->rn];
	switch (mode) {
	case AM_OFF:
	case AM_PRE: return base + i->imm;
	case AM_POST: return base;
	default: return base + extend_val(xr(c, i->rm), i->ra, i->flags >> 4);
	}
}

static inline __attribute__((always_inline)) void
ea_end_m(struct a64_cpu *c, const struct a64_insn *i, unsigned mode)
{
	if (mode == AM_PRE || mode == AM_POST)
		c->x[i->rn] += i->imm;
}

static inline uint64_t ea_begin(struct a64_cpu *c, const struct a64_insn *i)
{
	return ea_begin_m(c, i, i->op2);
}

static inline void ea_end(struct a64_cpu *c, const struct a64_insn *i)
{
	ea_end_m(c, i, i->op2);
}

void a64_vload(struct a64_cpu *c, unsigned t, uint64_t a, unsigned scale)
{
	union a64_vreg v;
	memset(&v, 0, sizeof(v));
	gmem_read(&v, a, 1u << scale);
	c->v[t] = v;
}

void a64_vstore(struct a64_cpu *c, unsigned t, uint64_t a, unsigned scale)
{
	gmem_write(a, &c->v[t], 1u << scale);
}

/* Plain loads and stores dominate most code: one handler per addressing
 * mode and size, instantiated from one body, so none of them switches on
 * data (see dp_reg.c for why). */
static inline __attribute__((always_inline)) int
ld_body(struct a64_cpu *c, const struct a64_insn *i, unsigned mode, unsigned size)
{
	uint64_t v = ld_sz(ea_begin_m(c, i, mode), size);
	ea_end_m(c, i, mode);
	wx(c, i->rd, v);
	return a64_next(c, i);
}

static inline __attribute__((always_inline)) int
st_body(struct a64_cpu *c, const struct a64_insn *i, unsigned mode, unsigned size)
{
	st_sz(ea_begin_m(c, i, mode), size, xr(c, i->rd));
	ea_end_m(c, i, mode);
	return a64_next(c, i);
}

#define LDST_FN(kind, mode, size)                                                  \
	static int exec_##kind##_##mode##_##size(struct a64_cpu *c, const struct a64_insn *i) \
	{                                                                          \
		return kind##_body(c, i, mode, size);                              \
	}
#define LDST_FNS_M(kind, mode) \
	LDST_FN(kind, mode, 0) LDST_FN(kind, mode, 1) LDST_FN(kind, mode, 2) LDST_FN(kind, mode, 3)
#define LDST_FNS(kind) LDST_FNS_M(kind, 0) LDST_FNS_M(kind, 1) LDST_FNS_M(kind, 2) LDST_FNS_M(kind, 3)
LDST_FNS(ld)
LDST_FNS(st)

#define LDST_ROW(kind, mode) \
	{ exec_##kind##_##mode##_0, exec_##kind##_##mode##_1, exec_##kind##_##mode##_2, exec_##kind##_##mode##_3 }
static const a64_fn ld_fns[4][4] = { LDST_ROW(ld, 0), LDST_ROW(ld, 1), LDST_ROW(ld, 2), LDST_ROW(ld, 3) };
static const a64_fn st_fns[4][4] = { LDST_ROW(st, 0), LDST_ROW(st, 1), LDST_ROW(st, 2), LDST_ROW(st, 3) };

/* Sign-extending loads: sf = size, imm2 = destination width (32/64). */
static int exec_lds(struct a64_cpu *c, const struct a64_insn *i)
{
	unsigned bitsz = 8u << i->sf;
	uint64_t v = (uint64_t)sext(ld_sz(ea_begin(c, i), i->sf), (int)bitsz);
	ea_end(c, i);
	wx(c, i->rd, i->imm2 == 32 ? (uint32_t)v : v);
	return a64_next(c, i);
}

static int exec_vld(struct a64_cpu *c, const struct a64_insn *i)
{
	a64_vload(c, i->rd, ea_begin(c, i), i->sf);
	ea_end(c, i);
	return a64_next(c, i);
}

static int exec_vst(struct a64_cpu *c, const struct a64_insn *i)
{
	a64_vstore(c, i->rd, ea_begin(c, i), i->sf);
	ea_end(c, i);
	return a64_next(c, i);
}

static int exec_nop(struct a64_cpu *c, const struct a64_insn *i)
{
	(void)c;
	(void)i;
	return a64_next(c, i);
}

/* Sets handler and access size from size:V:opc; false if unallocated. */
static bool ldst_kind(struct a64_insn *d, unsigned size, unsigned v, unsigned opc,
		      bool prfm_ok)
{
	if (v) {
		unsigned sc = ((opc >> 1) << 2) | size;
		if (sc > 4)
			return false;
		d->sf = sc;
		d->fn = (opc & 1) ? exec_vld : exec_vst;
		return true;
	}
	d->sf = size;
	switch (opc) {
	case 0: d->fn = st_fns[0][size]; return true; /* mode set by finish_kind() */
	case 1: d->fn = ld_fns[0][size]; return true;
	case 2:
		if (size == 3) {
			d->fn = exec_nop; /* PRFM: a hint */
			return prfm_ok;
		}
		d->fn = exec_lds;
		d->imm2 = 64;
		return true;
	default:
		if (size >= 2)
			return false;
		d->fn = exec_lds;
		d->imm2 = 32;
		return true;
	}
}

/* Picks the per-mode plain load/store handler once d->op2 is known. */
static void finish_kind(struct a64_insn *d)
{
	if (d->fn == st_fns[0][d->sf & 3])
		d->fn = st_fns[d->op2][d->sf & 3];
	else if (d->fn == ld_fns[0][d->sf & 3])
		d->fn = ld_fns[d->op2][d->sf & 3];
}

static bool dec_uimm(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	if (!ldst_kind(d, bits(w, 31, 30), bit(w, 26), bits(w, 23, 22), true))
		return false;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->op2 = AM_OFF;
	d->imm = (uint64_t)bits(w, 21, 10) << d->sf;
	finish_kind(d);
	return true;
}

/* Unscaled (STUR/LDUR), unprivileged (LDTR: same as unscaled in user
 * mode), post- and pre-index: bits [11:10] pick which. */
static bool dec_imm9(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	static const uint8_t mode[4] = { AM_OFF, AM_POST, AM_OFF, AM_PRE };
	unsigned idx = bits(w, 11, 10);
	if (!ldst_kind(d, bits(w, 31, 30), bit(w, 26), bits(w, 23, 22), idx == 0))
		return false;
	if (idx == 2 && bit(w, 26))
		return false;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->op2 = mode[idx];
	d->imm = (uint64_t)sext(bits(w, 20, 12), 9);
	finish_kind(d);
	return true;
}

static bool dec_regoff(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	unsigned opt = bits(w, 15, 13);
	if (!(opt & 2))
		return false;
	if (!ldst_kind(d, bits(w, 31, 30), bit(w, 26), bits(w, 23, 22), true))
		return false;
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->rm = bits(w, 20, 16);
	d->ra = opt;
	d->op2 = AM_REG;
	d->flags = (uint8_t)((bit(w, 12) ? d->sf : 0) << 4);
	finish_kind(d);
	return true;
}

static int exec_ld_lit(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t v = ld_sz(i->imm, i->sf);
	if (i->imm2)
		v = (uint64_t)sext(v, 32);
	wx(c, i->rd, v);
	return a64_next(c, i);
}

static int exec_vld_lit(struct a64_cpu *c, const struct a64_insn *i)
{
	a64_vload(c, i->rd, i->imm, i->sf);
	return a64_next(c, i);
}

static bool dec_literal(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	unsigned opc = bits(w, 31, 30);
	d->rd = bits(w, 4, 0);
	d->imm = pc + (uint64_t)(sext(bits(w, 23, 5), 19) * 4);
	if (bit(w, 26)) {
		if (opc == 3)
			return false;
		d->sf = (uint8_t)(2 + opc);
		d->fn = exec_vld_lit;
		return true;
	}
	switch (opc) {
	case 0: d->sf = 2; break;
	case 1: d->sf = 3; break;
	case 2: d->sf = 2; d->imm2 = 1; break;
	default: d->fn = exec_nop; return true;
	}
	d->fn = exec_ld_lit;
	return true;
}

/* Pairs: sf = log2 element size, op = L, flags&1 = LDPSW. Both elements
 * are read before either register is written, so a fault on the second
 * leaves the registers untouched. Handlers per (mode, size, direction)
 * like single loads and stores. */
static inline __attribute__((always_inline)) int
pair_body(struct a64_cpu *c, const struct a64_insn *i, unsigned mode, unsigned sz, bool load,
	  bool sign32)
{
	uint64_t a = ea_begin_m(c, i, mode);
	unsigned n = 1u << sz;
	if (load) {
		uint64_t v1 = ld_sz(a, sz), v2 = ld_sz(a + n, sz);
		if (sign32) {
			v1 = (uint64_t)sext(v1, 32);
			v2 = (uint64_t)sext(v2, 32);
		}
		ea_end_m(c, i, mode);
		wx(c, i->rd, v1);
		wx(c, i->ra, v2);
	} else {
		uint64_t v1 = xr(c, i->rd), v2 = xr(c, i->ra);
		st_sz(a, sz, v1);
		st_sz(a + n, sz, v2);
		ea_end_m(c, i, mode);
	}
	return a64_next(c, i);
}

#define PAIR_FN(mode, sz, load)                                                          \
	static int exec_pair_##mode##sz##load(struct a64_cpu *c, const struct a64_insn *i) \
	{                                                                                \
		return pair_body(c, i, mode, sz, load, false);                           \
	}
#define PAIR_FNS(mode) PAIR_FN(mode, 2, 0) PAIR_FN(mode, 2, 1) PAIR_FN(mode, 3, 0) PAIR_FN(mode, 3, 1)
PAIR_FNS(0) PAIR_FNS(1) PAIR_FNS(2)

#define PAIR_ROW(mode) \
	{ { exec_pair_##mode##20, exec_pair_##mode##21 }, { exec_pair_##mode##30, exec_pair_##mode##31 } }
static const a64_fn pair_fns[3][2][2] = { PAIR_ROW(0), PAIR_ROW(1), PAIR_ROW(2) };

static int exec_ldpsw(struct a64_cpu *c, const struct a64_insn *i)
{
	/* rare: the mode is read at run time */
	switch (i->op2) {
	case AM_OFF: return pair_body(c, i, AM_OFF, 2, true, true);
	case AM_PRE: return pair_body(c, i, AM_PRE, 2, true, true);
	default: return pair_body(c, i, AM_POST, 2, true, true);
	}
}

static int exec_vpair(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t a = ea_begin(c, i);
	unsigned sz = i->sf, n = 1u << sz;
	if (i->op) {
		union a64_vreg v1, v2;
		memset(&v1, 0, sizeof(v1));
		memset(&v2, 0, sizeof(v2));
		gmem_read(&v1, a, n);
		gmem_read(&v2, a + n, n);
		ea_end(c, i);
		c->v[i->rd] = v1;
		c->v[i->ra] = v2;
	} else {
		a64_vstore(c, i->rd, a, sz);
		a64_vstore(c, i->ra, a + n, sz);
		ea_end(c, i);
	}
	return a64_next(c, i);
}

static bool dec_pair(struct a64_insn *d, uint32_t w, uint64_t pc)
{
	(void)pc;
	static const uint8_t mode[4] = { AM_OFF, AM_POST, AM_OFF, AM_PRE };
	unsigned opc = bits(w, 31, 30), l = bit(w, 22);
	if (bit(w, 26)) {
		if (opc == 3)
			return false;
		d->sf = (uint8_t)(2 + opc);
		d->fn = exec_vpair;
	} else {
		if (opc == 3 || (opc == 1 && !l))
			return false;
		if (opc == 1 && bits(w, 24, 23) == 0)
			return false; /* LDNP has no sign-extending form */
		d->sf = opc == 2 ? 3 : 2;
		d->flags = opc == 1;
	}
	d->op = (uint8_t)l;
	d->op2 = mode[bits(w, 24, 23)];
	if (!bit(w, 26))
		d->fn = opc == 1 ? exec_ldpsw : pair_fns[d->op2][d->sf - 2][l];
	d->rd = bits(w, 4, 0);
	d->rn = bits(w, 9, 5);
	d->ra = bits(w, 14, 10);
	d->imm = (uint64_t)sext(bits(w, 21, 15), 7) << d->sf;
	return true;
}

struct a64_pattern a64_ldst_table[] = {
	A64_ROW("xx 011 x 00 xxxxxxxxxxxxxxxxxxx xxxxx", dec_literal),
	A64_ROW("xx 101 x 0xx x xxxxxxx xxxxx xxxxx xxxxx", dec_pair),
	A64_ROW("xx 111 x 01 xx xxxxxxxxxxxx xxxxx xxxxx", dec_uimm),
	A64_ROW("xx 111 x 00 xx 0 xxxxxxxxx xx xxxxx xxxxx", dec_imm9),
	A64_ROW("xx 111 x 00 xx 1 xxxxx xxx x 10 xxxxx xxxxx", dec_regoff),
	A64_END_TABLE,
};

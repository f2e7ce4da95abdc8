// SPDX-License-Identifier: MIT
/* Loads and stores of general and SIMD&FP registers: literal, unsigned
 * offset, unscaled, pre/post-index, register offset, pairs. */
#include "aarch64-user/engine.h"
#include "aarch64-user/ldst.h"

/* Addressing: op2 = mode, imm = signed offset, rm/ra/flags = register
 * offset (Rm, extend option, shift amount). */
enum { AM_OFF, AM_PRE, AM_POST, AM_REG };

/* The decoder generated from ldst.decode (a64_decode_ldst, which decode.c
 * calls for its major group). */
#include "aarch64-user/ldst.decode.inc"

/* The 2-bit index field of 9-bit-offset and pair forms. */
static int64_t index_mode(int64_t v)
{
	static const uint8_t mode[4] = { AM_OFF, AM_POST, AM_OFF, AM_PRE };
	return mode[v & 3];
}

static int64_t times_4(int64_t v)
{
	return (int64_t)((uint64_t)v << 2);
}

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

/* Operands of a single-register access of 1 << scale bytes: op2 is the
 * addressing mode, imm the byte offset; register offsets keep Rm, the
 * extend option (ra) and the shift (flags >> 4). */
static bool ldst_operands(struct a64_insn *d, const struct args_ls *a, unsigned scale)
{
	d->sf = (uint8_t)scale;
	d->rd = (uint8_t)a->rt;
	d->rn = (uint8_t)a->rn;
	d->op2 = (uint8_t)a->mode;
	d->imm = a->scaled ? (uint64_t)a->imm << scale : (uint64_t)a->imm;
	if (a->mode == AM_REG) {
		d->rm = (uint8_t)a->rm;
		d->ra = (uint8_t)a->option;
		d->flags = (uint8_t)((a->shift ? scale : 0) << 4);
	}
	return true;
}

static bool dec_ST(struct a64_insn *d, const struct args_ls *a)
{
	d->fn = st_fns[a->mode][a->size];
	return ldst_operands(d, a, (unsigned)a->size);
}

static bool dec_LD(struct a64_insn *d, const struct args_ls *a)
{
	d->fn = ld_fns[a->mode][a->size];
	return ldst_operands(d, a, (unsigned)a->size);
}

/* imm2: the destination's width. */
static bool dec_LDS(struct a64_insn *d, const struct args_ls *a)
{
	d->fn = exec_lds;
	d->imm2 = (uint64_t)a->ext;
	return ldst_operands(d, a, (unsigned)a->size);
}

static bool dec_PRFM(struct a64_insn *d, const struct args_ls *a)
{
	d->fn = exec_nop; /* a hint */
	return ldst_operands(d, a, (unsigned)a->size);
}

static bool dec_VST(struct a64_insn *d, const struct args_ls *a)
{
	d->fn = exec_vst;
	return ldst_operands(d, a, a->q ? 4 : (unsigned)a->size);
}

static bool dec_VLD(struct a64_insn *d, const struct args_ls *a)
{
	d->fn = exec_vld;
	return ldst_operands(d, a, a->q ? 4 : (unsigned)a->size);
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

/* imm: the literal's address, sf its log2 size, imm2 sign-extends. */
static bool dec_LDR_lit(struct a64_insn *d, const struct args_lit *a)
{
	d->rd = (uint8_t)a->rt;
	d->imm = d->pc + (uint64_t)a->off;
	d->sf = (uint8_t)a->size;
	d->imm2 = (uint64_t)a->sw;
	d->fn = exec_ld_lit;
	return true;
}

static bool dec_PRFM_lit(struct a64_insn *d, const struct args_PRFM_lit *a)
{
	d->rd = (uint8_t)a->rt;
	d->imm = d->pc + (uint64_t)a->off;
	d->fn = exec_nop;
	return true;
}

static bool dec_VLDR_lit(struct a64_insn *d, const struct args_VLDR_lit *a)
{
	d->rd = (uint8_t)a->rt;
	d->imm = d->pc + (uint64_t)a->off;
	d->sf = (uint8_t)a->size;
	d->fn = exec_vld_lit;
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

/* Pairs: sf = log2 element size, op = L, op2 = mode, ra = Rt2, flags&1 =
 * LDPSW. */
static bool pair_operands(struct a64_insn *d, const struct args_pair *a)
{
	d->sf = (uint8_t)a->size;
	d->op = (uint8_t)a->load;
	d->op2 = (uint8_t)a->mode;
	d->rd = (uint8_t)a->rt;
	d->rn = (uint8_t)a->rn;
	d->ra = (uint8_t)a->rt2;
	d->imm = (uint64_t)a->imm << a->size;
	return true;
}

static bool dec_PAIR(struct a64_insn *d, const struct args_pair *a)
{
	d->fn = pair_fns[a->mode][a->size - 2][a->load];
	return pair_operands(d, a);
}

static bool dec_LDPSW(struct a64_insn *d, const struct args_pair *a)
{
	d->flags = 1;
	d->fn = exec_ldpsw;
	return pair_operands(d, a);
}

static bool dec_VPAIR(struct a64_insn *d, const struct args_pair *a)
{
	d->fn = exec_vpair;
	return pair_operands(d, a);
}

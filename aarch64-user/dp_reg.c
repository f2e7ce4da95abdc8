// SPDX-License-Identifier: MIT
/* Data processing with register operands: logical and add/subtract
 * (shifted and extended), add/subtract with carry, conditional compare and
 * select, one-, two- and three-source operations, CRC32. */
#include <pthread.h>

#include "aarch64-user/engine.h"

/* The decoder generated from dp_reg.decode (a64_decode_dp_reg, which decode.c
 * calls for its major group). */
#include "aarch64-user/dp_reg.decode.inc"

/* The operands every three-register form has (handlers read them as u8). */
#define DEC_RRR(d, a)                      \
	do {                               \
		(d)->sf = (uint8_t)(a)->sf; \
		(d)->rd = (uint8_t)(a)->rd; \
		(d)->rn = (uint8_t)(a)->rn; \
		(d)->rm = (uint8_t)(a)->rm; \
	} while (0)

/*
 * Logical and add/subtract (shifted register) are the hottest instructions
 * of integer code. Their handlers are instantiated per operation, shift
 * type and width from one always-inline body, so that executing one takes
 * no data-dependent branch (a shared handler switching on the operation
 * mispredicts whenever neighbouring instructions differ).
 */
static inline __attribute__((always_inline)) int
logic_body(struct a64_cpu *c, const struct a64_insn *i, unsigned op, unsigned type, bool sf)
{
	uint64_t a = xr(c, i->rn);
	uint64_t b = shift_val(xr(c, i->rm), type, (unsigned)i->imm, sf), r;
	switch (op) {
	case 0: r = a & b; break;
	case 1: r = a & ~b; break;
	case 2: r = a | b; break;
	case 3: r = a | ~b; break;
	case 4: r = a ^ b; break;
	case 5: r = a ^ ~b; break;
	case 6: r = a & b; logic_flags(c, r, sf); break;
	default: r = a & ~b; logic_flags(c, r, sf); break;
	}
	wxs(c, i->rd, r, sf);
	return a64_next(c, i);
}

#define LOGIC_FN(op, type, sf)                                                       \
	static int exec_logic_##op##_##type##_##sf(struct a64_cpu *c, const struct a64_insn *i) \
	{                                                                            \
		return logic_body(c, i, op, type, sf);                               \
	}
#define LOGIC_FNS_T(op, type) LOGIC_FN(op, type, 0) LOGIC_FN(op, type, 1)
#define LOGIC_FNS(op) LOGIC_FNS_T(op, 0) LOGIC_FNS_T(op, 1) LOGIC_FNS_T(op, 2) LOGIC_FNS_T(op, 3)
LOGIC_FNS(0) LOGIC_FNS(1) LOGIC_FNS(2) LOGIC_FNS(3) LOGIC_FNS(4) LOGIC_FNS(5) LOGIC_FNS(6)
LOGIC_FNS(7)

#define LOGIC_ROW_T(op, type) { exec_logic_##op##_##type##_0, exec_logic_##op##_##type##_1 }
#define LOGIC_ROW(op) { LOGIC_ROW_T(op, 0), LOGIC_ROW_T(op, 1), LOGIC_ROW_T(op, 2), LOGIC_ROW_T(op, 3) }
static const a64_fn logic_fns[8][4][2] = {
	LOGIC_ROW(0), LOGIC_ROW(1), LOGIC_ROW(2), LOGIC_ROW(3),
	LOGIC_ROW(4), LOGIC_ROW(5), LOGIC_ROW(6), LOGIC_ROW(7),
};

/* MOV Xd, Xm (ORR with XZR, no shift) is common enough for its own path. */
static int exec_mov_reg(struct a64_cpu *c, const struct a64_insn *i)
{
	wxs(c, i->rd, xr(c, i->rm), i->sf);
	return a64_next(c, i);
}

static bool dec_LOGIC_r(struct a64_insn *d, const struct args_logic_r *a)
{
	DEC_RRR(d, a);
	d->imm = (uint64_t)a->amt;
	if (!d->sf && d->imm > 31)
		return false;
	d->op = (uint8_t)a->op;
	d->op2 = (uint8_t)a->shift;
	d->fn = (d->op == 2 && d->rn == 31 && d->imm == 0) ? exec_mov_reg
							    : logic_fns[d->op][d->op2][d->sf];
	return true;
}

/* Add/subtract: op = 1 for subtraction (b inverted, carry in 1), S sets
 * NZCV; the shift type and amount apply to Rm. */
static inline __attribute__((always_inline)) int
addsub_body(struct a64_cpu *c, const struct a64_insn *i, bool sub, bool setf, unsigned type, bool sf)
{
	uint64_t b = shift_val(xr(c, i->rm), type, (unsigned)i->imm, sf);
	if (sub)
		b = ~b;
	uint64_t r = add_flags(c, xr(c, i->rn), b, sub, sf, setf);
	wxs(c, i->rd, r, sf);
	return a64_next(c, i);
}

#define ADDSUB_FN(sub, setf, type, sf)                                                         \
	static int exec_addsub_##sub##setf##type##sf(struct a64_cpu *c, const struct a64_insn *i) \
	{                                                                                      \
		return addsub_body(c, i, sub, setf, type, sf);                                 \
	}
#define ADDSUB_FNS_T(sub, setf, type) ADDSUB_FN(sub, setf, type, 0) ADDSUB_FN(sub, setf, type, 1)
#define ADDSUB_FNS(sub, setf) ADDSUB_FNS_T(sub, setf, 0) ADDSUB_FNS_T(sub, setf, 1) ADDSUB_FNS_T(sub, setf, 2)
ADDSUB_FNS(0, 0) ADDSUB_FNS(0, 1) ADDSUB_FNS(1, 0) ADDSUB_FNS(1, 1)

#define ADDSUB_ROW_T(sub, setf, type) { exec_addsub_##sub##setf##type##0, exec_addsub_##sub##setf##type##1 }
#define ADDSUB_ROW(sub, setf) { ADDSUB_ROW_T(sub, setf, 0), ADDSUB_ROW_T(sub, setf, 1), ADDSUB_ROW_T(sub, setf, 2) }
static const a64_fn addsub_fns[2][2][3][2] = {
	{ ADDSUB_ROW(0, 0), ADDSUB_ROW(0, 1) },
	{ ADDSUB_ROW(1, 0), ADDSUB_ROW(1, 1) },
};

static bool dec_ADDSUB_r(struct a64_insn *d, const struct args_ADDSUB_r *a)
{
	DEC_RRR(d, a);
	d->op2 = (uint8_t)a->shift;
	d->imm = (uint64_t)a->amt;
	if (d->op2 == 3 || (!d->sf && d->imm > 31))
		return false;
	d->op = (uint8_t)a->sub;
	d->flags = a->setf ? 2 : 0;
	d->fn = addsub_fns[d->op][a->setf][d->op2][d->sf];
	return true;
}

static int exec_addsub_ext(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t b = extend_val(xr(c, i->rm), i->op2, (unsigned)i->imm);
	if (i->op)
		b = ~b;
	uint64_t r = add_flags(c, xsp(c, i->rn), b, i->op, i->sf, i->flags & 2);
	if (i->flags & 2)
		wxs(c, i->rd, r, i->sf);
	else
		wsp(c, i->rd, r, i->sf);
	return a64_next(c, i);
}

static bool dec_ADDSUB_x(struct a64_insn *d, const struct args_ADDSUB_x *a)
{
	DEC_RRR(d, a);
	d->op2 = (uint8_t)a->option;
	d->imm = (uint64_t)a->amt;
	if (d->imm > 4)
		return false;
	d->op = (uint8_t)a->sub;
	d->flags = a->setf ? 2 : 0;
	d->fn = exec_addsub_ext;
	return true;
}

static int exec_adc(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t b = xr(c, i->rm);
	if (i->op)
		b = ~b;
	uint64_t r = add_flags(c, xr(c, i->rn), b, (c->nzcv >> 29) & 1, i->sf, i->flags & 2);
	wxs(c, i->rd, r, i->sf);
	return a64_next(c, i);
}

static bool dec_ADC(struct a64_insn *d, const struct args_ADC *a)
{
	DEC_RRR(d, a);
	d->op = (uint8_t)a->sub;
	d->flags = a->setf ? 2 : 0;
	d->fn = exec_adc;
	return true;
}

/* CCMP/CCMN: flags of the comparison when cond holds, else #nzcv. op = 1
 * for CCMP; flags&1: Rm field is an immediate (imm). */
static int exec_ccmp(struct a64_cpu *c, const struct a64_insn *i)
{
	if (!cond_holds(c->nzcv, i->op2)) {
		c->nzcv = (uint32_t)i->imm2 << 28;
		return a64_next(c, i);
	}
	uint64_t b = (i->flags & 1) ? i->imm : xr(c, i->rm);
	if (i->op)
		b = ~b;
	add_flags(c, xr(c, i->rn), b, i->op, i->sf, true);
	return a64_next(c, i);
}

static bool dec_CCMP(struct a64_insn *d, const struct args_CCMP *a)
{
	d->sf = (uint8_t)a->sf;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	d->op = (uint8_t)a->sub;
	d->op2 = (uint8_t)a->cond;
	d->flags = (uint8_t)a->imm_form;
	d->imm = (uint64_t)a->rm;
	d->imm2 = (uint64_t)a->nzcv;
	d->fn = exec_ccmp;
	return true;
}

/* CSEL/CSINC/CSINV/CSNEG: op = op:op2<0>. Conditional selects decide
 * data-dependent minimum/maximum loops (xz's match finder): one handler
 * per condition and operation. */
static inline __attribute__((always_inline)) int
csel_body(struct a64_cpu *c, const struct a64_insn *i, unsigned cc, unsigned op)
{
	/* both operands first, then a select the host does without a branch
	 * (the guest chose CSEL because the condition is unpredictable) */
	uint64_t n = xr(c, i->rn), m = xr(c, i->rm);
	switch (op) {
	case 1: m = m + 1; break;
	case 2: m = ~m; break;
	case 3: m = -m; break;
	default: break;
	}
	wxs(c, i->rd, cond_holds(c->nzcv, cc) ? n : m, i->sf);
	return a64_next(c, i);
}

#define CSEL_FN(cc, op)                                                             \
	static int exec_csel_##cc##_##op(struct a64_cpu *c, const struct a64_insn *i) \
	{                                                                           \
		return csel_body(c, i, cc, op);                                     \
	}
#define CSEL_FNS(cc) CSEL_FN(cc, 0) CSEL_FN(cc, 1) CSEL_FN(cc, 2) CSEL_FN(cc, 3)
CSEL_FNS(0) CSEL_FNS(1) CSEL_FNS(2) CSEL_FNS(3) CSEL_FNS(4) CSEL_FNS(5) CSEL_FNS(6)
CSEL_FNS(7) CSEL_FNS(8) CSEL_FNS(9) CSEL_FNS(10) CSEL_FNS(11) CSEL_FNS(12) CSEL_FNS(13)
CSEL_FNS(14) CSEL_FNS(15)

#define CSEL_ROW(cc) { exec_csel_##cc##_0, exec_csel_##cc##_1, exec_csel_##cc##_2, exec_csel_##cc##_3 }
static const a64_fn csel_fns[16][4] = {
	CSEL_ROW(0), CSEL_ROW(1), CSEL_ROW(2), CSEL_ROW(3), CSEL_ROW(4), CSEL_ROW(5),
	CSEL_ROW(6), CSEL_ROW(7), CSEL_ROW(8), CSEL_ROW(9), CSEL_ROW(10), CSEL_ROW(11),
	CSEL_ROW(12), CSEL_ROW(13), CSEL_ROW(14), CSEL_ROW(15),
};

static bool dec_CSEL(struct a64_insn *d, const struct args_csel *a)
{
	DEC_RRR(d, a);
	d->op = (uint8_t)a->op;
	d->op2 = (uint8_t)a->cond;
	d->fn = csel_fns[d->op2][d->op];
	return true;
}

/* MADD/MSUB/SMADDL/SMSUBL/UMADDL/UMSUBL/SMULH/UMULH; op = op31, flags&1 = o0. */
static inline __attribute__((always_inline)) int
dp3_body(struct a64_cpu *c, const struct a64_insn *i, unsigned op)
{
	uint64_t n = xr(c, i->rn), m = xr(c, i->rm), a = xr(c, i->ra), p;
	switch (op) {
	case 0: p = n * m; break;
	case 1: p = (uint64_t)((int64_t)(int32_t)n * (int64_t)(int32_t)m); break;
	case 2: p = (uint64_t)(((__int128)(int64_t)n * (int64_t)m) >> 64); break;
	case 5: p = (uint64_t)(uint32_t)n * (uint32_t)m; break;
	default: p = (uint64_t)(((unsigned __int128)n * m) >> 64); break;
	}
	if (op == 2 || op == 6) {
		wx(c, i->rd, p);
		return a64_next(c, i);
	}
	wxs(c, i->rd, (i->flags & 1) ? a - p : a + p, i->sf);
	return a64_next(c, i);
}

/* One handler per operation (multiplies sit in hash and division-by-
 * constant sequences, next to each other). */
#define DP3_FN(op)                                                            \
	static int exec_dp3_##op(struct a64_cpu *c, const struct a64_insn *i) \
	{                                                                     \
		return dp3_body(c, i, op);                                    \
	}
DP3_FN(0) DP3_FN(1) DP3_FN(2) DP3_FN(5) DP3_FN(6)
static const a64_fn dp3_fns[8] = {
	[0] = exec_dp3_0, [1] = exec_dp3_1, [2] = exec_dp3_2, [5] = exec_dp3_5, [6] = exec_dp3_6,
};

static bool dec_DP3(struct a64_insn *d, const struct args_dp3 *a)
{
	DEC_RRR(d, a);
	d->ra = (uint8_t)a->ra;
	d->op = (uint8_t)a->op;
	d->flags = (uint8_t)a->o0;
	d->fn = dp3_fns[d->op];
	return true;
}

static int exec_div(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t n = xr(c, i->rn), m = xr(c, i->rm), r;
	if (i->sf) {
		if (m == 0)
			r = 0;
		else if (i->op)
			r = ((int64_t)n == INT64_MIN && (int64_t)m == -1)
				    ? n : (uint64_t)((int64_t)n / (int64_t)m);
		else
			r = n / m;
	} else {
		uint32_t a = (uint32_t)n, b = (uint32_t)m;
		if (b == 0)
			r = 0;
		else if (i->op)
			r = ((int32_t)a == INT32_MIN && (int32_t)b == -1)
				    ? a : (uint32_t)((int32_t)a / (int32_t)b);
		else
			r = a / b;
	}
	wxs(c, i->rd, r, i->sf);
	return a64_next(c, i);
}

static int exec_shiftv(struct a64_cpu *c, const struct a64_insn *i)
{
	wxs(c, i->rd, shift_val(xr(c, i->rn), i->op, (unsigned)xr(c, i->rm), i->sf), i->sf);
	return a64_next(c, i);
}

/* CRC-32 (0x04C11DB7) and CRC-32C (0x1EDC6F41), bit-reflected as Arm
 * defines them; tables built on first use of the decoder. */
static uint32_t crc_tab[2][256];

static void crc_init(void)
{
	static const uint32_t poly[2] = { 0xEDB88320u, 0x82F63B78u };
	for (int t = 0; t < 2; t++)
		for (uint32_t n = 0; n < 256; n++) {
			uint32_t v = n;
			for (int k = 0; k < 8; k++)
				v = (v >> 1) ^ ((v & 1) ? poly[t] : 0);
			crc_tab[t][n] = v;
		}
}

static int exec_crc(struct a64_cpu *c, const struct a64_insn *i)
{
	uint32_t acc = (uint32_t)xr(c, i->rn);
	uint64_t val = xr(c, i->rm);
	const uint32_t *tab = crc_tab[i->op2];
	for (unsigned k = 0; k < (1u << i->op); k++) {
		acc = (acc >> 8) ^ tab[(acc ^ val) & 0xff];
		val >>= 8;
	}
	wx(c, i->rd, acc);
	return a64_next(c, i);
}

static bool dec_DIV(struct a64_insn *d, const struct args_rrr_op *a)
{
	DEC_RRR(d, a);
	d->op = (uint8_t)a->op;
	d->fn = exec_div;
	return true;
}

static bool dec_SHIFTV(struct a64_insn *d, const struct args_rrr_op *a)
{
	DEC_RRR(d, a);
	d->op = (uint8_t)a->op;
	d->fn = exec_shiftv;
	return true;
}

/* op: log2 of the bytes, op2: CRC-32C. */
static bool dec_CRC32(struct a64_insn *d, const struct args_CRC32 *a)
{
	DEC_RRR(d, a);
	d->op = (uint8_t)a->sz;
	d->op2 = (uint8_t)a->castagnoli;
	if ((d->op == 3) != d->sf)
		return false;
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, crc_init); /* decoders run in any guest thread */
	d->fn = exec_crc;
	return true;
}

static uint64_t rev_bytes_in(uint64_t v, unsigned chunk_bytes)
{
	uint64_t r = 0;
	for (unsigned base = 0; base < 8; base += chunk_bytes)
		for (unsigned k = 0; k < chunk_bytes; k++)
			r |= ((v >> ((base + k) * 8)) & 0xff) << ((base + chunk_bytes - 1 - k) * 8);
	return r;
}

static int exec_dp1(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t v = xr(c, i->rn), r;
	bool sf = i->sf;
	unsigned width = sf ? 64 : 32;
	if (!sf)
		v = (uint32_t)v;
	switch (i->op) {
	case 0: /* RBIT */
		r = 0;
		for (unsigned k = 0; k < width; k++)
			r |= ((v >> k) & 1) << (width - 1 - k);
		break;
	case 1: r = rev_bytes_in(v, 2); break;
	case 2: r = rev_bytes_in(v, 4); break; /* REV Wd or REV32 Xd */
	case 3: r = rev_bytes_in(v, 8); break;
	case 4: r = v ? (unsigned)(sf ? __builtin_clzll(v) : __builtin_clz((uint32_t)v)) : width; break;
	default: { /* CLS: leading zeros of v ^ (v >> 1), whose top bit is 0 */
		uint64_t x = sf ? v ^ (uint64_t)((int64_t)v >> 1)
				: (uint32_t)(v ^ (uint64_t)((int32_t)v >> 1));
		if (!x)
			r = width - 1;
		else
			r = (sf ? (unsigned)__builtin_clzll(x) : (unsigned)__builtin_clz((uint32_t)x)) - 1;
		break;
	}
	}
	wxs(c, i->rd, r, sf);
	return a64_next(c, i);
}

static bool dec_DP1(struct a64_insn *d, const struct args_rr_op *a)
{
	d->sf = (uint8_t)a->sf;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->op = (uint8_t)a->op;
	d->fn = exec_dp1;
	return true;
}

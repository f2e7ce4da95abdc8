// SPDX-License-Identifier: MIT
/* Data processing with immediates: PC-relative addressing, add/subtract,
 * logical (bitmask immediates), move wide, bitfield, extract. */
#include "aarch64-user/engine.h"

/* The decoder generated from dp_imm.decode (a64_decode_dp_imm, which decode.c
 * calls for its major group). */
#include "aarch64-user/dp_imm.decode.inc"

static int exec_adr(struct a64_cpu *c, const struct a64_insn *i)
{
	wx(c, i->rd, i->imm);
	return a64_next(c, i);
}

static int64_t times_4k(int64_t v)
{
	return (int64_t)((uint64_t)v << 12);
}

static bool dec_ADR(struct a64_insn *d, const struct args_ADR *a)
{
	d->rd = (uint8_t)a->rd;
	d->fn = exec_adr;
	d->imm = d->pc + (uint64_t)a->imm;
	return true;
}

static bool dec_ADRP(struct a64_insn *d, const struct args_ADRP *a)
{
	d->rd = (uint8_t)a->rd;
	d->fn = exec_adr;
	d->imm = (d->pc & ~0xfffull) + (uint64_t)a->imm;
	return true;
}

/* ADD/SUB (immediate): the subtraction is folded into the immediate as
 * a + ~imm + 1, which gives Arm's carry semantics directly. One handler
 * per (sub, S, width), instantiated from one body. */
static inline __attribute__((always_inline)) int
addsub_imm_body(struct a64_cpu *c, const struct a64_insn *i, bool sub, bool setf, bool sf)
{
	uint64_t r = add_flags(c, xsp(c, i->rn), i->imm, sub, sf, setf);
	if (setf)
		wxs(c, i->rd, r, sf);
	else
		wsp(c, i->rd, r, sf);
	return a64_next(c, i);
}

#define ADDSUB_IMM_FN(sub, setf, sf)                                                     \
	static int exec_addsub_imm_##sub##setf##sf(struct a64_cpu *c, const struct a64_insn *i) \
	{                                                                                \
		return addsub_imm_body(c, i, sub, setf, sf);                             \
	}
ADDSUB_IMM_FN(0, 0, 0) ADDSUB_IMM_FN(0, 0, 1) ADDSUB_IMM_FN(0, 1, 0) ADDSUB_IMM_FN(0, 1, 1)
ADDSUB_IMM_FN(1, 0, 0) ADDSUB_IMM_FN(1, 0, 1) ADDSUB_IMM_FN(1, 1, 0) ADDSUB_IMM_FN(1, 1, 1)

static const a64_fn addsub_imm_fns[2][2][2] = {
	{ { exec_addsub_imm_000, exec_addsub_imm_001 }, { exec_addsub_imm_010, exec_addsub_imm_011 } },
	{ { exec_addsub_imm_100, exec_addsub_imm_101 }, { exec_addsub_imm_110, exec_addsub_imm_111 } },
};

static bool dec_ADDSUB_i(struct a64_insn *d, const struct args_ADDSUB_i *a)
{
	uint64_t imm = (uint64_t)a->imm << (a->sh * 12);
	d->sf = (uint8_t)a->sf;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->imm = a->sub ? ~imm : imm;
	d->fn = addsub_imm_fns[a->sub][a->setf][a->sf];
	return true;
}

bool a64_decode_bitmask(unsigned n, unsigned imms, unsigned immr, bool sf,
			uint64_t *wmask, uint64_t *tmask)
{
	unsigned combined = (n << 6) | (~imms & 0x3f);
	int len = -1;
	for (int k = 6; k >= 0; k--)
		if (combined & (1u << k)) {
			len = k;
			break;
		}
	if (len < 1 || (!sf && n))
		return false;
	unsigned esize = 1u << len, levels = esize - 1;
	unsigned s = imms & levels, r = immr & levels;
	if (!tmask && s == levels)
		return false; /* all-ones logical immediate is reserved */
	unsigned d = (s - r) & levels;
	uint64_t emask = esize == 64 ? ~0ull : (1ull << esize) - 1;
	uint64_t welem = (s + 1 == 64) ? ~0ull : (1ull << (s + 1)) - 1;
	uint64_t telem = (d + 1 == 64) ? ~0ull : (1ull << (d + 1)) - 1;
	/* rotate right welem by r within esize */
	if (r)
		welem = ((welem >> r) | (welem << (esize - r))) & emask;
	uint64_t wm = 0, tm = 0;
	for (unsigned k = 0; k < 64; k += esize) {
		wm |= welem << k;
		tm |= telem << k;
	}
	if (!sf) {
		wm &= 0xffffffffu;
		tm &= 0xffffffffu;
	}
	*wmask = wm;
	if (tmask)
		*tmask = tm;
	return true;
}

static int exec_logic_imm(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t a = xr(c, i->rn), r;
	switch (i->op) {
	case 0: r = a & i->imm; break;
	case 1: r = a | i->imm; break;
	case 2: r = a ^ i->imm; break;
	default:
		r = a & i->imm;
		logic_flags(c, r, i->sf);
		wxs(c, i->rd, r, i->sf);
		return a64_next(c, i);
	}
	wsp(c, i->rd, r, i->sf);
	return a64_next(c, i);
}

static bool dec_LOGIC_i(struct a64_insn *d, const struct args_logic_i *a)
{
	d->sf = (uint8_t)a->sf;
	if (!a64_decode_bitmask((unsigned)a->n, (unsigned)a->imms, (unsigned)a->immr, d->sf,
				&d->imm, NULL))
		return false;
	d->op = (uint8_t)a->op;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->fn = exec_logic_imm;
	return true;
}

static int exec_movw(struct a64_cpu *c, const struct a64_insn *i)
{
	wx(c, i->rd, i->imm);
	return a64_next(c, i);
}

static int exec_movk(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t v = (xr(c, i->rd) & ~i->imm2) | i->imm;
	wxs(c, i->rd, v, i->sf);
	return a64_next(c, i);
}

/* MOVN (inv) and MOVZ. */
static bool dec_MOVW(struct a64_insn *d, const struct args_MOVW *a)
{
	d->sf = (uint8_t)a->sf;
	if (!d->sf && a->hw >= 2)
		return false;
	d->rd = (uint8_t)a->rd;
	uint64_t imm = (uint64_t)a->imm << (a->hw * 16);
	if (a->inv)
		imm = ~imm;
	if (!d->sf)
		imm = (uint32_t)imm;
	d->imm = imm;
	d->fn = exec_movw;
	return true;
}

static bool dec_MOVK(struct a64_insn *d, const struct args_MOVK *a)
{
	d->sf = (uint8_t)a->sf;
	if (!d->sf && a->hw >= 2)
		return false;
	d->rd = (uint8_t)a->rd;
	d->imm = (uint64_t)a->imm << (a->hw * 16);
	d->imm2 = 0xffffull << (a->hw * 16);
	d->fn = exec_movk;
	return true;
}

/* Bitfield moves per the Arm pseudocode: rotate the source right by immr,
 * keep the bits of wmask, and fill the rest from the destination (BFM),
 * zero (UBFM) or the sign bit at imms (SBFM). imm = wmask, imm2 = tmask. */
static inline __attribute__((always_inline)) int
bfm_body(struct a64_cpu *c, const struct a64_insn *i, unsigned op, bool sf)
{
	unsigned width = sf ? 64 : 32, r = i->op2, s = i->ra;
	uint64_t src = xr(c, i->rn);
	if (!sf)
		src = (uint32_t)src;
	uint64_t rot = r ? ((src >> r) | (src << (width - r))) : src;
	if (!sf)
		rot = (uint32_t)rot;
	uint64_t bot, top, res;
	switch (op) {
	case 0: { /* SBFM */
		bot = rot & i->imm;
		top = (src >> s) & 1 ? ~0ull : 0;
		res = (top & ~i->imm2) | (bot & i->imm2);
		break;
	}
	case 1: /* BFM */
		bot = (xr(c, i->rd) & ~i->imm) | (rot & i->imm);
		res = (xr(c, i->rd) & ~i->imm2) | (bot & i->imm2);
		break;
	default: /* UBFM */
		res = rot & i->imm & i->imm2;
		break;
	}
	wxs(c, i->rd, res, sf);
	return a64_next(c, i);
}

/* One handler per operation and width (LSL/LSR/UBFX... are hot). */
#define BFM_FN(op, sf)                                                          \
	static int exec_bfm_##op##sf(struct a64_cpu *c, const struct a64_insn *i) \
	{                                                                       \
		return bfm_body(c, i, op, sf);                                  \
	}
BFM_FN(0, 0) BFM_FN(0, 1) BFM_FN(1, 0) BFM_FN(1, 1) BFM_FN(2, 0) BFM_FN(2, 1)
static const a64_fn bfm_fns[3][2] = {
	{ exec_bfm_00, exec_bfm_01 }, { exec_bfm_10, exec_bfm_11 }, { exec_bfm_20, exec_bfm_21 },
};

static bool dec_BFM(struct a64_insn *d, const struct args_bfm *a)
{
	d->sf = (uint8_t)a->sf;
	d->op = (uint8_t)a->op;
	if (a->n != a->sf)
		return false;
	if (!d->sf && (a->immr > 31 || a->imms > 31))
		return false;
	if (!a64_decode_bitmask((unsigned)a->n, (unsigned)a->imms, (unsigned)a->immr, d->sf,
				&d->imm, &d->imm2))
		return false;
	d->op2 = (uint8_t)a->immr;
	d->ra = (uint8_t)a->imms;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->fn = bfm_fns[d->op][d->sf];
	return true;
}

/* EXTR (and ROR, its alias): one handler per width, no width branch. */
static int exec_extr64(struct a64_cpu *c, const struct a64_insn *i)
{
	unsigned lsb = i->op2;
	uint64_t hi = xr(c, i->rn), lo = xr(c, i->rm);
	wx(c, i->rd, lsb ? (lo >> lsb) | (hi << (64 - lsb)) : lo);
	return a64_next(c, i);
}

static int exec_extr32(struct a64_cpu *c, const struct a64_insn *i)
{
	uint64_t cat = (xr(c, i->rn) << 32) | (uint32_t)xr(c, i->rm);
	wx(c, i->rd, (uint32_t)(cat >> i->op2));
	return a64_next(c, i);
}

static bool dec_EXTR(struct a64_insn *d, const struct args_EXTR *a)
{
	d->sf = (uint8_t)a->sf;
	if (a->n != a->sf || (!d->sf && a->lsb > 31))
		return false;
	d->op2 = (uint8_t)a->lsb;
	d->rd = (uint8_t)a->rd;
	d->rn = (uint8_t)a->rn;
	d->rm = (uint8_t)a->rm;
	d->fn = d->sf ? exec_extr64 : exec_extr32;
	return true;
}

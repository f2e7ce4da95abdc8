/* SPDX-License-Identifier: MIT */
/*
 * Random but valid A64 instruction generators, one per encoding class, for
 * the differential test. Each emits instructions whose operands keep the
 * case deterministic and inside the harness's areas: memory goes through
 * base registers that point into the data area (X28, SP), the register
 * offset index is X27 (small, never written), branches only go forward to
 * instructions of the same case.
 */
#ifndef VGPU_TESTS_A64_GEN_H
#define VGPU_TESTS_A64_GEN_H

#include <stdint.h>

#include "a64_diff.h"

struct gen {
	uint64_t s;
	uint32_t *code;
	unsigned n, max;
	/* slots some branch jumps to; reset per case */
	uint8_t targeted[A64D_MAX_INSNS + 1];
};

static inline uint64_t g_rand(struct gen *g)
{
	g->s ^= g->s << 13;
	g->s ^= g->s >> 7;
	g->s ^= g->s << 17;
	return g->s;
}

static inline uint32_t rnd(struct gen *g, uint32_t n)
{
	return (uint32_t)(g_rand(g) % n);
}

#define F(v, lo) ((uint32_t)(v) << (lo))

static inline void emit(struct gen *g, uint32_t w)
{
	if (g->n < g->max)
		g->code[g->n++] = w;
}

/* Any register, 31 included (SP or ZR depending on the encoding). */
static inline uint32_t anyreg(struct gen *g)
{
	return rnd(g, 32);
}

/* Registers a memory class may write: not the bases X27/X28. */
static inline uint32_t datareg(struct gen *g)
{
	uint32_t r;
	do
		r = rnd(g, 32);
	while (r == 27 || r == 28);
	return r;
}

/* Interesting 64-bit values: edges, small numbers and noise. */
static inline uint64_t rand_val(struct gen *g)
{
	static const uint64_t edge[] = { 0, 1, 2, 0x7f, 0x80, 0xff, 0x7fffffff, 0x80000000,
					 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
					 0x8000000000000000ull, ~0ull, ~1ull };
	switch (rnd(g, 4)) {
	case 0: return edge[rnd(g, sizeof(edge) / sizeof(edge[0]))];
	case 1: return rnd(g, 64) - 32;
	default: return g_rand(g);
	}
}

/* ---- integer data processing ------------------------------------------ */

static void gen_dp_imm(struct gen *g)
{
	uint32_t sf = rnd(g, 2), rd = anyreg(g), rn = anyreg(g);
	uint32_t w = sf ? 64 : 32;
	switch (rnd(g, 6)) {
	case 0:
		emit(g, F(rnd(g, 2), 31) | F(rnd(g, 4), 29) | F(0x10, 24) | F(rnd(g, 1 << 19), 5) | rd);
		break;
	case 1:
		emit(g, F(sf, 31) | F(rnd(g, 2), 30) | F(rnd(g, 2), 29) | F(0x22, 23) | F(rnd(g, 2), 22) |
			F(rnd(g, 4096), 10) | F(rn, 5) | rd);
		break;
	case 2:
		emit(g, F(sf, 31) | F(rnd(g, 4), 29) | F(0x24, 23) | F(sf ? rnd(g, 2) : 0, 22) |
			F(rnd(g, w), 16) | F(rnd(g, w), 10) | F(rn, 5) | rd);
		break;
	case 3: {
		static const uint32_t opc[3] = { 0, 2, 3 };
		emit(g, F(sf, 31) | F(opc[rnd(g, 3)], 29) | F(0x25, 23) | F(rnd(g, sf ? 4 : 2), 21) |
			F(rnd(g, 65536), 5) | rd);
		break;
	}
	case 4:
		emit(g, F(sf, 31) | F(rnd(g, 3), 29) | F(0x26, 23) | F(sf, 22) | F(rnd(g, w), 16) |
			F(rnd(g, w), 10) | F(rn, 5) | rd);
		break;
	default:
		emit(g, F(sf, 31) | F(0x27, 23) | F(sf, 22) | F(anyreg(g), 16) | F(rnd(g, w), 10) |
			F(rn, 5) | rd);
		break;
	}
}

static void gen_dp_reg(struct gen *g)
{
	uint32_t sf = rnd(g, 2), rd = anyreg(g), rn = anyreg(g), rm = anyreg(g);
	uint32_t w = sf ? 64 : 32, base = F(sf, 31) | F(rm, 16) | F(rn, 5) | rd;
	switch (rnd(g, 9)) {
	case 0:
		emit(g, base | F(rnd(g, 4), 29) | F(0xa, 24) | F(rnd(g, 4), 22) | F(rnd(g, 2), 21) |
			F(rnd(g, w), 10));
		break;
	case 1:
		emit(g, base | F(rnd(g, 4), 29) | F(0xb, 24) | F(rnd(g, 3), 22) | F(rnd(g, w), 10));
		break;
	case 2:
		emit(g, base | F(rnd(g, 4), 29) | F(0xb, 24) | F(1, 21) | F(rnd(g, 8), 13) |
			F(rnd(g, 5), 10));
		break;
	case 3:
		emit(g, base | F(rnd(g, 4), 29) | F(0xd0, 21));
		break;
	case 4:
		emit(g, (base & ~0x1fu) | F(rnd(g, 2), 30) | F(1, 29) | F(0xd2, 21) | F(rnd(g, 16), 12) |
			F(rnd(g, 2), 11) | rnd(g, 16));
		break;
	case 5:
		emit(g, base | F(rnd(g, 2), 30) | F(0xd4, 21) | F(rnd(g, 16), 12) | F(rnd(g, 2), 10));
		break;
	case 6: {
		static const uint32_t opc[] = { 2, 3, 8, 9, 10, 11, 0x10, 0x11, 0x12, 0x13,
						0x14, 0x15, 0x16, 0x17 };
		uint32_t o = opc[rnd(g, sizeof(opc) / sizeof(opc[0]))];
		if (o >= 0x10)
			base = (base & ~F(1, 31)) | F((o & 3) == 3, 31);
		emit(g, base | F(0xd6, 21) | F(o, 10));
		break;
	}
	case 7: {
		uint32_t o = rnd(g, 6);
		emit(g, (base & ~F(31, 16)) | F(1, 30) | F(0xd6, 21) | F(o, 10));
		break;
	}
	default: {
		static const uint32_t op31[] = { 0, 1, 2, 5, 6 };
		uint32_t o = op31[rnd(g, 5)];
		if (o)
			base |= F(1, 31);
		emit(g, base | F(0x1b, 24) | F(o, 21) | F((o == 2 || o == 6) ? 0 : rnd(g, 2), 15) |
			F((o == 2 || o == 6) ? 31 : anyreg(g), 10));
		break;
	}
	}
}

/* ---- branches: forward only, inside the case ------------------------- */

static void gen_branch(struct gen *g)
{
	unsigned left = g->max - g->n; /* the BRK follows the last slot */
	if (left < 3) {
		gen_dp_reg(g);
		return;
	}
	uint32_t k = 1 + rnd(g, left - 1); /* words forward, target <= BRK */
	uint32_t rt = anyreg(g), kind = rnd(g, 8);
	if (kind >= 2 && kind <= 5)
		g->targeted[g->n + k] = 1;
	switch (kind) {
	case 0:
	case 1:
		gen_dp_reg(g); /* set flags and values to branch on */
		break;
	case 2:
		emit(g, F(0x54, 24) | F(k, 5) | rnd(g, 16));
		break;
	case 3:
		emit(g, F(rnd(g, 2), 31) | F(0x1a, 25) | F(rnd(g, 2), 24) | F(k, 5) | rt);
		break;
	case 4:
		emit(g, F(rnd(g, 2), 31) | F(0x1b, 25) | F(rnd(g, 2), 24) | F(rnd(g, 32), 19) |
			F(k, 5) | rt);
		break;
	case 5:
		emit(g, F(rnd(g, 2), 31) | F(5, 26) | k);
		break;
	default: {
		/* ADR Xt, target; BR/BLR/RET Xt, target past the BR. Nothing may
		 * jump to the BR itself: its register would be arbitrary. */
		uint32_t r = rnd(g, 31);
		if (g->targeted[g->n + 1]) {
			gen_dp_reg(g);
			break;
		}
		k = 2 + rnd(g, left - 1);
		g->targeted[g->n + k] = 1;
		emit(g, F(0x10, 24) | F(k, 5) | r);
		emit(g, 0xd61f0000u | F(rnd(g, 3), 21) | F(r, 5));
		break;
	}
	}
}

/* ---- loads and stores ------------------------------------------------- */

static inline uint32_t membase(struct gen *g)
{
	return rnd(g, 2) ? 28 : 31;
}

static void gen_ldst(struct gen *g)
{
	uint32_t size = rnd(g, 4), v = rnd(g, 4) == 0, opc = rnd(g, 4);
	uint32_t rt = datareg(g), rn = membase(g);
	switch (rnd(g, 5)) {
	case 0:
		emit(g, F(size, 30) | F(7, 27) | F(v, 26) | F(1, 24) | F(opc, 22) | F(rnd(g, 64), 10) |
			F(rn, 5) | rt);
		break;
	case 1:
		emit(g, F(size, 30) | F(7, 27) | F(v, 26) | F(opc, 22) | F(rnd(g, 512), 12) |
			F(rnd(g, 4), 10) | F(rn, 5) | rt);
		break;
	case 2: {
		static const uint32_t opt[4] = { 2, 3, 6, 7 };
		emit(g, F(size, 30) | F(7, 27) | F(v, 26) | F(opc, 22) | F(1, 21) | F(27, 16) |
			F(opt[rnd(g, 4)], 13) | F(rnd(g, 2), 12) | F(2, 10) | F(rn, 5) | rt);
		break;
	}
	case 3: {
		uint32_t rt2 = datareg(g), l = rnd(g, 2), opc = rnd(g, 3);
		if (opc == 1 && !v)
			l = 1; /* LDPSW; the store form is STGP (MTE) */
		uint32_t mode = rnd(g, 4);
		if (mode == 0 && opc == 1 && !v)
			mode = 2; /* no LDNPSW */
		if (l && !v && rt2 == rt)
			rt2 = rt == 0 ? 1 : 0;
		if (l && v && rt2 == rt)
			rt2 = (rt + 1) & 31;
		emit(g, F(opc, 30) | F(5, 27) | F(v, 26) | F(mode, 23) | F(l, 22) |
			F(rnd(g, 128), 15) | F(rt2, 10) | F(rn, 5) | rt);
		break;
	}
	default: {
		/* literal: read words of this case, never past the BRK */
		int lo = -(int)g->n, hi = (int)(g->max - g->n) - 4;
		int off = hi > lo ? lo + (int)rnd(g, (uint32_t)(hi - lo)) : 0;
		emit(g, F(rnd(g, 3), 30) | F(3, 27) | F(v, 26) | F((uint32_t)off & 0x7ffff, 5) | rt);
		break;
	}
	}
}

/* ---- exclusives, acquire/release, LSE ----------------------------------- */

static void gen_atomic(struct gen *g)
{
	uint32_t size = rnd(g, 4), rt = datareg(g), rs = datareg(g), n = 28;
	switch (rnd(g, 7)) {
	case 0: { /* LD[A]XR ... ST[L]XR, status register distinct */
		uint32_t ws;
		do
			ws = datareg(g);
		while (ws == rt || ws == 31);
		emit(g, F(size, 30) | F(8, 24) | F(1, 22) | F(0x1f, 16) | F(rnd(g, 2), 15) |
			F(0x1f, 10) | F(n, 5) | rt);
		if (rnd(g, 2)) /* ADDS between, on data registers only */
			emit(g, 0xab000000u | F(datareg(g), 16) | F(datareg(g), 5) | datareg(g));
		emit(g, F(size, 30) | F(8, 24) | F(ws, 16) | F(rnd(g, 2), 15) | F(0x1f, 10) | F(n, 5) |
			datareg(g));
		break;
	}
	case 1: { /* LD[A]XP ... ST[L]XP */
		uint32_t sz = 2 + rnd(g, 2), rt2, ws;
		rt = rnd(g, 27);
		do
			rt2 = datareg(g);
		while (rt2 == rt || rt2 == 31);
		do
			ws = datareg(g);
		while (ws == rt || ws == rt2 || ws == 31);
		emit(g, F(sz, 30) | F(8, 24) | F(1, 22) | F(1, 21) | F(0x1f, 16) | F(rnd(g, 2), 15) |
			F(rt2, 10) | F(n, 5) | rt);
		uint32_t s1 = datareg(g), s2 = datareg(g);
		while (s1 == ws)
			s1 = (s1 + 1) % 27;
		while (s2 == ws)
			s2 = (s2 + 1) % 27;
		emit(g, F(sz, 30) | F(8, 24) | F(1, 21) | F(ws, 16) | F(rnd(g, 2), 15) | F(s2, 10) |
			F(n, 5) | s1);
		break;
	}
	case 2: /* LDAR/STLR/LDLAR/STLLR */
		emit(g, F(size, 30) | F(8, 24) | F(1, 23) | F(rnd(g, 2), 22) | F(0x1f, 16) |
			F(rnd(g, 2), 15) | F(0x1f, 10) | F(n, 5) | rt);
		break;
	case 3: /* CAS family */
		emit(g, F(size, 30) | F(8, 24) | F(1, 23) | F(rnd(g, 2), 22) | F(1, 21) | F(rs, 16) |
			F(rnd(g, 2), 15) | F(0x1f, 10) | F(n, 5) | rt);
		break;
	case 4: { /* CASP: even pairs below X27 */
		uint32_t s = rnd(g, 13) * 2, t = rnd(g, 13) * 2;
		emit(g, F(rnd(g, 2), 30) | F(8, 24) | F(rnd(g, 2), 22) | F(1, 21) | F(s, 16) |
			F(rnd(g, 2), 15) | F(0x1f, 10) | F(n, 5) | t);
		break;
	}
	case 5: { /* LSE: LDADD..LDUMIN, SWP, LDAPR */
		uint32_t o3 = rnd(g, 4) == 0, opc = o3 ? 0 : rnd(g, 8);
		if (o3 && rnd(g, 2)) {
			emit(g, F(size | 2, 30) | F(0x38, 24) | F(1, 23) | F(1, 21) | F(0x1f, 16) |
				F(1, 15) | F(4, 12) | F(n, 5) | rt);
			break;
		}
		emit(g, F(size, 30) | F(0x38, 24) | F(rnd(g, 4), 22) | F(1, 21) | F(rs, 16) |
			F(o3, 15) | F(opc, 12) | F(n, 5) | rt);
		break;
	}
	default: /* LDAPUR/STLUR, aligned (qemu faults unaligned ones) */
		emit(g, F(size, 30) | F(0x19, 24) | F(rnd(g, 4), 22) |
			F((rnd(g, 512) << size) & 0x1ff, 12) | F(n, 5) | rt);
		break;
	}
}

/* ---- system ------------------------------------------------------------- */

static void gen_sys(struct gen *g)
{
	uint32_t rt = datareg(g);
	switch (rnd(g, 8)) {
	case 0:
		emit(g, 0xd53b4200u | rt); /* MRS NZCV */
		break;
	case 1:
		emit(g, 0xd51b4200u | rt); /* MSR NZCV */
		break;
	case 2:
		emit(g, (rnd(g, 2) ? 0xd53b4400u : 0xd53b4420u) | rt); /* MRS FPCR/FPSR */
		break;
	case 3: /* MSR FPSR: qemu keeps the RES0 bits 31:28, hardware not */
	case 4: /* DC ZVA: its block size is 512 bytes in qemu, 64 here */
		emit(g, 0xd503201fu);
		break;
	case 5: {
		static const uint32_t hint[] = { 0xd503201f, 0xd503203f, 0xd50330bf, 0xd5033bbf,
						 0xd50339bf, 0xd5033abf, 0xd5033fdf, 0xd503305f,
						 0xd5033f9f, 0xd50b7b20 | 28, 0xd50b7e20 | 28 };
		emit(g, hint[rnd(g, sizeof(hint) / sizeof(hint[0]))]);
		break;
	}
	case 6:
		emit(g, 0xd51b4200u | 31); /* MSR NZCV, XZR */
		break;
	default:
		gen_dp_reg(g);
		break;
	}
}

#endif

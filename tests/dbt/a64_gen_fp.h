/* SPDX-License-Identifier: MIT */
/* Random floating-point and SIMD instruction generators (differential test). */
#ifndef VGPU_TESTS_A64_GEN_FP_H
#define VGPU_TESTS_A64_GEN_FP_H

#include "a64_gen.h"

/* A half, single or double bit pattern from the interesting classes:
 * zeros, infinities, quiet and signalling NaNs, denormals, values near
 * 1 and near the extremes, and noise. */
static inline uint64_t rand_fp_bits(struct gen *g, unsigned log2size)
{
	unsigned mb = log2size == 1 ? 10 : log2size == 2 ? 23 : 52;
	unsigned eb = log2size == 1 ? 5 : log2size == 2 ? 8 : 11;
	uint64_t sign = (uint64_t)rnd(g, 2) << (mb + eb);
	uint64_t emax = (1ull << eb) - 1, fr = g_rand(g) & ((1ull << mb) - 1);
	uint64_t bias = emax >> 1, e;
	switch (rnd(g, 10)) {
	case 0: return sign;
	case 1: return sign | emax << mb;
	case 2: return sign | emax << mb | (fr | 1ull << (mb - 1)); /* quiet NaN */
	case 3: return sign | emax << mb | ((fr & ((1ull << (mb - 1)) - 1)) | 1); /* signalling */
	case 4: return sign | fr; /* denormal (or zero) */
	case 5: e = 1 + rnd(g, 2); break;
	case 6: e = emax - 1 - rnd(g, 2); break;
	case 7: e = bias - 2 + rnd(g, 5); fr &= ~((1ull << (mb - 3)) - 1); break;
	default: e = bias - 8 + rnd(g, 17); break;
	}
	return sign | e << mb | fr;
}

static inline uint64_t rand_fp_pair(struct gen *g)
{
	switch (rnd(g, 4)) {
	case 0: return rand_fp_bits(g, 3);
	case 1: return rand_fp_bits(g, 2) | rand_fp_bits(g, 2) << 32;
	case 2: {
		uint64_t v = 0;
		for (int k = 0; k < 4; k++)
			v |= rand_fp_bits(g, 1) << (16 * k);
		return v;
	}
	default: /* a half in the low bits, a single above it (scalar ops) */
		return rand_fp_bits(g, 1) | (rand_fp_bits(g, 2) & 0xffff0000ull) |
		       rand_fp_bits(g, 2) << 32;
	}
}

/* RMode, FZ, DN, FZ16 at random; AHP and trap enables stay 0. */
static inline uint32_t rand_fpcr(struct gen *g)
{
	return (uint32_t)rnd(g, 4) << 22 | (uint32_t)rnd(g, 2) << 24 |
	       (uint32_t)rnd(g, 2) << 25 | (uint32_t)rnd(g, 2) << 19;
}

static inline uint32_t fp_ty(struct gen *g)
{
	static const uint32_t ty[3] = { 0, 1, 3 };
	return ty[rnd(g, 3)];
}

static void gen_fp(struct gen *g)
{
	uint32_t ty = fp_ty(g), rd = rnd(g, 32), rn = rnd(g, 32), rm = rnd(g, 32);
	uint32_t base = F(0x1e, 24) | F(ty, 22) | F(1, 21) | F(rn, 5);
	switch (rnd(g, 10)) {
	case 0:
	case 1:
		emit(g, base | F(rm, 16) | F(rnd(g, 9), 12) | F(2, 10) | rd);
		break;
	case 2: { /* FMOV FABS FNEG FSQRT FCVT FRINT* */
		static const uint32_t op[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 14, 15 };
		uint32_t o = op[rnd(g, sizeof(op) / sizeof(op[0]))];
		if (o >= 4 && o <= 7 && (o & 3) == (ty == 3 ? 3 : ty))
			o = 3;
		emit(g, base | F(o, 15) | F(0x10, 10) | rd);
		break;
	}
	case 3:
		emit(g, base | F(rm, 16) | F(8, 10) | F(rnd(g, 4), 3));
		break;
	case 4:
		emit(g, base | F(rm, 16) | F(rnd(g, 16), 12) | F(1, 10) | F(rnd(g, 2), 4) |
			rnd(g, 16));
		break;
	case 5:
		emit(g, base | F(rm, 16) | F(rnd(g, 16), 12) | F(3, 10) | rd);
		break;
	case 6:
		emit(g, (base & ~F(31, 5)) | F(rnd(g, 256), 13) | F(4, 10) | rd);
		break;
	case 7:
		emit(g, F(0x1f, 24) | F(ty, 22) | F(rnd(g, 2), 21) | F(rm, 16) | F(rnd(g, 2), 15) |
			F(rnd(g, 32), 10) | F(rn, 5) | rd);
		break;
	case 8: { /* FCVT*, SCVTF/UCVTF, FMOV with general registers */
		uint32_t sf = rnd(g, 2), opc = rnd(g, 8), rmode = opc < 2 ? rnd(g, 4) : 0;
		if (opc >= 6) {
			uint32_t kind = rnd(g, 4); /* W-S, X-D, W/X-H, X-D[1] */
			static const uint32_t t4[4] = { 0, 1, 3, 2 };
			ty = t4[kind];
			sf = kind == 0 ? 0 : kind == 1 || kind == 3 ? 1 : sf;
			rmode = kind == 3;
		}
		emit(g, F(sf, 31) | F(0x1e, 24) | F(ty, 22) | F(1, 21) | F(rmode, 19) | F(opc, 16) |
			F(rn, 5) | rd);
		break;
	}
	default: { /* fixed-point FCVTZ[SU] and [SU]CVTF */
		uint32_t sf = rnd(g, 2), opc = rnd(g, 4);
		uint32_t scale = sf ? rnd(g, 64) : 32 + rnd(g, 32);
		emit(g, F(sf, 31) | F(0x1e, 24) | F(ty, 22) | F(opc < 2 ? 3 : 0, 19) | F(opc, 16) |
			F(scale, 10) | F(rn, 5) | rd);
		break;
	}
	}
}

#endif

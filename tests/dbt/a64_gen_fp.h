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

/* ---- Advanced SIMD ---------------------------------------------------------- */

#define PICK(g, arr) (arr)[rnd((g), sizeof(arr) / sizeof((arr)[0]))]

static void gen_simd_int(struct gen *g)
{
	uint32_t q = rnd(g, 2), u = rnd(g, 2), size = rnd(g, 4), rd = rnd(g, 32), rn = rnd(g, 32),
		 rm = rnd(g, 32);
	uint32_t regs = F(rm, 16) | F(rn, 5) | rd;
	switch (rnd(g, 8)) {
	case 0:
	case 1: {
		static const uint32_t opc[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf,
						0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17 };
		emit(g, F(q, 30) | F(u, 29) | F(0xe, 24) | F(size, 22) | F(1, 21) | F(PICK(g, opc), 11) |
			F(1, 10) | regs);
		break;
	}
	case 2: {
		static const uint32_t opc[] = { 1, 5, 6, 7, 8, 9, 0xa, 0xb, 0x10, 0x11 };
		uint32_t o = PICK(g, opc);
		if (o != 1 && o != 5 && o != 9 && o != 0xb)
			size = 3;
		emit(g, F(1, 30) | F(u, 29) | F(0x1e, 24) | F(size, 22) | F(1, 21) | F(o, 11) |
			F(1, 10) | regs);
		break;
	}
	case 3: {
		static const uint32_t op[] = { 0x00, 0x01, 0x20, 0x02, 0x22, 0x06, 0x26, 0x04, 0x24,
					       0x05, 0x25, 0x07, 0x27, 0x08, 0x09, 0x0a, 0x28,
					       0x29, 0x0b, 0x2b, 0x12, 0x32, 0x14, 0x34, 0x33 };
		uint32_t o = PICK(g, op), sc = rnd(g, 4) == 0;
		emit(g, F(sc ? 1 : q, 30) | F(o >> 5, 29) | F(sc ? 0x1e : 0xe, 24) | F(size, 22) |
			F(0x10, 17) | F(o & 31, 12) | F(2, 10) | F(rn, 5) | rd);
		break;
	}
	case 4: {
		static const uint32_t op[] = { 0x03, 0x0a, 0x1a, 0x1b, 0x23, 0x2a, 0x3a };
		uint32_t o = PICK(g, op);
		emit(g, F(q, 30) | F(o >> 5, 29) | F(0xe, 24) | F(size, 22) | F(0x18, 17) |
			F(o & 31, 12) | F(2, 10) | F(rn, 5) | rd);
		break;
	}
	case 5: {
		static const uint32_t opc[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };
		uint32_t o = PICK(g, opc);
		if (o == 9 || o == 11 || o == 13)
			u = 0;
		emit(g, F(q, 30) | F(o == 14 ? 0 : u, 29) | F(0xe, 24) | F(o == 14 ? 0 : rnd(g, 3), 22) |
			F(1, 21) | F(o, 12) | regs);
		break;
	}
	case 6: {
		static const uint32_t op[] = { 0x00, 0x02, 0x04, 0x06, 0x28, 0x0a, 0x2a, 0x2c, 0x0e,
					       0x2e, 0x10, 0x30, 0x11, 0x31, 0x12, 0x32, 0x13, 0x33,
					       0x14, 0x34 };
		uint32_t o = PICK(g, op), sc = rnd(g, 5) == 0;
		uint32_t immh = 1 + rnd(g, 15);
		if (sc && (o & 31) < 0x10 && (o & 31) != 0x0e && (o & 31) != 0x0c)
			immh |= 8;
		if (sc && (o & 31) >= 0x10)
			immh = 1 + rnd(g, 7);
		emit(g, F(sc ? 1 : q, 30) | F(o >> 5, 29) | F(sc ? 0x1f : 0xf, 24) | F(immh, 19) |
			F(rnd(g, 8), 16) | F(o & 31, 11) | F(1, 10) | F(rn, 5) | rd);
		break;
	}
	default: {
		static const uint32_t op[] = { 0x08, 0x0a, 0x02, 0x06, 0x0c, 0x0d, 0x20, 0x24, 0x2a,
					       0x22, 0x26 };
		uint32_t o = PICK(g, op);
		emit(g, F(q, 30) | F(o >> 5, 29) | F(0xf, 24) | F(1 + rnd(g, 2), 22) |
			F(rnd(g, 4), 20) | F(rnd(g, 16), 16) | F(o & 15, 12) | F(rnd(g, 2), 11) |
			F(rn, 5) | rd);
		break;
	}
	}
}

static void gen_simd_fp(struct gen *g)
{
	uint32_t q = rnd(g, 2), sz = rnd(g, 2), rd = rnd(g, 32), rn = rnd(g, 32), rm = rnd(g, 32);
	uint32_t regs = F(rm, 16) | F(rn, 5) | rd;
	switch (rnd(g, 8)) {
	case 0:
	case 1: {
		static const uint32_t key[] = { 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1e, 0x1f, 0x38, 0x39,
						0x3a, 0x3e, 0x3f, 0x58, 0x5a, 0x5b, 0x5c, 0x5d, 0x5e,
						0x5f, 0x78, 0x7a, 0x7c, 0x7d, 0x7e };
		uint32_t k = PICK(g, key);
		emit(g, F(q, 30) | F(k >> 6, 29) | F(0xe, 24) | F((k >> 5) & 1, 23) | F(sz, 22) |
			F(1, 21) | F(k & 31, 11) | F(1, 10) | regs);
		break;
	}
	case 2: {
		static const uint32_t key[] = { 0x1b, 0x1c, 0x1f, 0x3f, 0x5c, 0x5d, 0x7a, 0x7c, 0x7d };
		uint32_t k = PICK(g, key);
		emit(g, F(1, 30) | F(k >> 6, 29) | F(0x1e, 24) | F((k >> 5) & 1, 23) | F(sz, 22) |
			F(1, 21) | F(k & 31, 11) | F(1, 10) | regs);
		break;
	}
	case 3:
	case 4: {
		static const uint32_t key[] = { 0x18, 0x19, 0x38, 0x39, 0x58, 0x59, 0x79, 0x1a, 0x1b,
						0x1c, 0x3a, 0x3b, 0x5a, 0x5b, 0x5c, 0x7a, 0x7b, 0x1d,
						0x5d, 0x2c, 0x2d, 0x2e, 0x6c, 0x6d, 0x2f, 0x6f, 0x7f,
						0x16, 0x17, 0x3d, 0x7d, 0x3c, 0x7c };
		uint32_t k = PICK(g, key), sc = rnd(g, 4) == 0 && (k & 31) >= 0x1a && (k & 31) <= 0x1d &&
						   k != 0x3c && k != 0x7c;
		emit(g, F(sc ? 1 : q, 30) | F(k >> 6, 29) | F(sc ? 0x1e : 0xe, 24) |
			F((k >> 5) & 1, 23) | F(sz, 22) | F(0x10, 17) | F(k & 31, 12) | F(2, 10) |
			F(rn, 5) | rd);
		break;
	}
	case 5:
		if (rnd(g, 2)) /* FMAXV FMINV FMAXNMV FMINNMV */
			emit(g, F(1, 30) | F(1, 29) | F(0xe, 24) | F(rnd(g, 2), 23) | F(0x18, 17) |
				F(rnd(g, 2) ? 0x0c : 0x0f, 12) | F(2, 10) | F(rn, 5) | rd);
		else /* FADDP/FMAXP/FMINP/FMAXNMP/FMINNMP scalar, ADDP D */
			emit(g, F(1, 30) | F(1, 29) | F(0x1e, 24) | F(rnd(g, 2), 23) | F(sz, 22) |
				F(0x18, 17) | F(PICK(g, ((const uint32_t[]){ 0x0c, 0x0f, 0x0d })), 12) |
				F(2, 10) | F(rn, 5) | rd);
		break;
	case 6: {
		static const uint32_t op[] = { 0x01, 0x05, 0x09, 0x19 };
		uint32_t o = PICK(g, op), sc = rnd(g, 3) == 0;
		emit(g, F(sc ? 1 : q, 30) | F(o >> 4, 29) | F(sc ? 0x1f : 0xf, 24) | F(1, 23) |
			F(sz, 22) | F(sz ? 0 : rnd(g, 2), 21) | F(rnd(g, 2), 20) | F(rnd(g, 16), 16) |
			F(o & 15, 12) | F(rnd(g, 2), 11) | F(rn, 5) | rd);
		break;
	}
	default: { /* fixed-point SCVTF/UCVTF/FCVTZS/FCVTZU */
		uint32_t immh = sz ? 8 + rnd(g, 8) : 4 + rnd(g, 4);
		emit(g, F(q | sz, 30) | F(rnd(g, 2), 29) | F(0xf, 24) | F(immh, 19) | F(rnd(g, 8), 16) |
			F(rnd(g, 2) ? 0x1c : 0x1f, 11) | F(1, 10) | F(rn, 5) | rd);
		break;
	}
	}
}

static void gen_simd_perm(struct gen *g)
{
	uint32_t q = rnd(g, 2), rd = rnd(g, 32), rn = rnd(g, 32), rm = rnd(g, 32);
	uint32_t imm5 = 1 + rnd(g, 31);
	switch (rnd(g, 7)) {
	case 0: {
		static const uint32_t imm4[] = { 0, 1, 3, 5, 7 };
		uint32_t k = PICK(g, imm4);
		if (k == 7)
			q = (imm5 & 15) == 8;
		if (k == 3)
			q = 1;
		emit(g, F(q, 30) | F(0xe, 24) | F(imm5, 16) | F(k, 11) | F(1, 10) | F(rn, 5) | rd);
		break;
	}
	case 1: /* INS (element) */
		emit(g, F(1, 30) | F(1, 29) | F(0xe, 24) | F(imm5, 16) | F(rnd(g, 16), 11) | F(1, 10) |
			F(rn, 5) | rd);
		break;
	case 2:
		if (rnd(g, 2)) /* DUP scalar */
			emit(g, F(1, 30) | F(0x1e, 24) | F(imm5, 16) | F(1, 10) | F(rn, 5) | rd);
		else { /* modified immediate */
			uint32_t cmode = rnd(g, 16), op = rnd(g, 2);
			if (cmode == 15 && op)
				q = 1;
			emit(g, F(q, 30) | F(op, 29) | F(0xf, 24) | F(rnd(g, 8), 16) | F(cmode, 12) |
				F(1, 10) | F(rnd(g, 32), 5) | rd);
		}
		break;
	case 3:
	case 4: {
		static const uint32_t opc[] = { 1, 2, 3, 5, 6, 7 };
		uint32_t size = rnd(g, 4);
		if (size == 3)
			q = 1;
		emit(g, F(q, 30) | F(0xe, 24) | F(size, 22) | F(rm, 16) | F(PICK(g, opc), 12) |
			F(2, 10) | F(rn, 5) | rd);
		break;
	}
	case 5:
		emit(g, F(q, 30) | F(0x2e, 24) | F(rm, 16) | F(q ? rnd(g, 16) : rnd(g, 8), 11) | F(rn, 5) |
			rd);
		break;
	default:
		emit(g, F(q, 30) | F(0xe, 24) | F(rm, 16) | F(rnd(g, 4), 13) | F(rnd(g, 2), 12) |
			F(rn, 5) | rd);
		break;
	}
}

static void gen_simd_ldst(struct gen *g)
{
	uint32_t q = rnd(g, 2), l = rnd(g, 2), post = rnd(g, 2), rt = rnd(g, 32);
	uint32_t rm = post ? (rnd(g, 2) ? 31 : 27) : 0;
	if (rnd(g, 2)) {
		static const uint32_t opc[] = { 0, 2, 4, 6, 7, 8, 10 };
		uint32_t o = PICK(g, opc), size = rnd(g, 4);
		if (size == 3 && o != 2 && o != 6 && o != 7 && o != 10)
			q = 1;
		emit(g, F(q, 30) | F(0xc, 24) | F(post, 23) | F(l, 22) | F(rm, 16) | F(o, 12) |
			F(size, 10) | F(28, 5) | rt);
	} else {
		uint32_t opc = rnd(g, 8), s = rnd(g, 2), size = rnd(g, 4);
		uint32_t scale = opc >> 1;
		if (scale == 1)
			size &= 2;
		if (scale == 2) {
			size = rnd(g, 2);
			if (size)
				s = 0;
		}
		if (scale == 3) {
			l = 1;
			s = 0;
		}
		emit(g, F(q, 30) | F(0xd, 24) | F(post, 23) | F(l, 22) | F(rnd(g, 2), 21) | F(rm, 16) |
			F(opc, 13) | F(s, 12) | F(size, 10) | F(28, 5) | rt);
	}
}

/* The cryptographic extension: AES, SHA-1, SHA-256 and PMULL .1Q, with
 * a few unallocated opcodes of the same classes (SIGILL on both sides). */
static void gen_crypto(struct gen *g)
{
	uint32_t rd = rnd(g, 32), rn = rnd(g, 32), rm = rnd(g, 32);

	switch (rnd(g, 4)) {
	case 0: /* AESE, AESD, AESMC, AESIMC */
		emit(g, 0x4e280800 | F(4 + rnd(g, rnd(g, 16) ? 4 : 6), 12) | F(rn, 5) | rd);
		break;
	case 1: /* SHA1C/P/M/SU0, SHA256H/H2/SU1 */
		emit(g, 0x5e000000 | F(rm, 16) | F(rnd(g, rnd(g, 16) ? 7 : 8), 12) | F(rn, 5) | rd);
		break;
	case 2: /* SHA1H, SHA1SU1, SHA256SU0 */
		emit(g, 0x5e280800 | F(rnd(g, rnd(g, 16) ? 3 : 4), 12) | F(rn, 5) | rd);
		break;
	default: /* PMULL, PMULL2 .1Q */
		emit(g, 0x0ee0e000 | F(rnd(g, 2), 30) | F(rm, 16) | F(rn, 5) | rd);
		break;
	}
}

/* Scalar FP and vector FP arithmetic under the default FPCR (round to
 * nearest, no FZ or DN, where the code generator uses the host's unit)
 * from a random FPSR, with integer instructions, conditional branches
 * and FPSR reads and writes in between, so flags are checked where the
 * guest reads them and after the guest clears them. */
static void gen_fp_rn(struct gen *g)
{
	uint32_t rt = rnd(g, 31);
	switch (rnd(g, 16)) {
	case 0: emit(g, 0xd53b4420 | rt); break; /* MRS Xt, FPSR */
	case 1: /* AND Wt, Wt, #0x1f; MSR FPSR, Xt: the cumulative flags only
		 * (qemu keeps bits 31:28, which AArch64 does not have), so no
		 * branch may land on the MSR */
		if (g->targeted[g->n + 1]) {
			emit(g, 0xd53b4420 | rt);
			break;
		}
		emit(g, 0x12001000 | rt << 5 | rt);
		emit(g, 0xd51b4420 | rt);
		break;
	case 2: gen_dp_reg(g); break;
	case 3: gen_branch(g); break;
	case 4:
	case 5: { /* FMLA FADD FMLS FSUB FMUL FDIV (vector) */
		static const uint32_t key[] = { 0x19, 0x1a, 0x39, 0x3a, 0x5b, 0x5f };
		uint32_t k = PICK(g, key);
		emit(g, F(rnd(g, 2), 30) | F(k >> 6, 29) | F(0xe, 24) | F((k >> 5) & 1, 23) |
			F(rnd(g, 2), 22) | F(1, 21) | F(rnd(g, 32), 16) | F(k & 31, 11) | F(1, 10) |
			F(rnd(g, 32), 5) | rnd(g, 32));
		break;
	}
	case 6: gen_simd_fp(g); break;
	case 7: { /* +0 and -0 into FMAX, FMIN, FMAXNM, FMINNM, either way round */
		uint32_t dbl = rnd(g, 2), a = rnd(g, 32), b = rnd(g, 32), sw = rnd(g, 2);
		emit(g, (dbl ? 0x9e6703e0 : 0x1e2703e0) | a);
		emit(g, (dbl ? 0x1e614000 : 0x1e214000) | a << 5 | b);
		emit(g, F(0x1e, 24) | F(dbl, 22) | F(1, 21) | F(sw ? a : b, 16) |
			F(4 + rnd(g, 4), 12) | F(2, 10) | F(sw ? b : a, 5) | rnd(g, 32));
		break;
	}
	default: gen_fp(g); break;
	}
}

/* Every register-only class interleaved in one block: flags, FPSR and
 * registers flow between integer, FP and SIMD instructions and branches. */
static void gen_mixed(struct gen *g)
{
	switch (rnd(g, 7)) {
	case 0: gen_dp_imm(g); break;
	case 1: gen_dp_reg(g); break;
	case 2: gen_branch(g); break;
	case 3: gen_fp(g); break;
	case 4: gen_simd_int(g); break;
	case 5: gen_simd_fp(g); break;
	default: gen_simd_perm(g); break;
	}
}

#endif

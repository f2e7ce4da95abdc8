/* SPDX-License-Identifier: MIT */
/*
 * Test COMPUTE jobs: descriptors (job header, invocation, draw
 * descriptor, renderer state, push uniforms, UBO, local storage) and a
 * vector-add shader, written into a region the test maps at a GPU VA.
 * Used with stand-in vgpu accessors (compute.c) and with the real GPU
 * model and MMU (compute_vgpu.c).
 */
#ifndef VGPU_TESTS_SHADER_BI_JOB_H
#define VGPU_TESTS_SHADER_BI_JOB_H

#include "bi_asm.h"
#include "bi_enc.h"
#include "vgpu/regs.h"

/* Offsets in the region. */
#define TJ_JOB 0x000
#define TJ_RSD 0x200
#define TJ_PUSH 0x300
#define TJ_LSD 0x400
#define TJ_UBOS 0x480
#define TJ_CODE 0x800
#define TJ_A 0x2000 /* 8 KiB each */
#define TJ_B 0x4000
#define TJ_O 0x6000
#define TJ_WLS 0xa000
#define TJ_SIZE 0x10000

struct tjob {
	uint8_t *mem;  /* host view of the region */
	uint64_t va;   /* its GPU VA */
	unsigned code_q;
};

static inline uint32_t *tj32(struct tjob *j, unsigned off)
{
	return (uint32_t *)(j->mem + off);
}

static inline void tj64(struct tjob *j, unsigned off, uint64_t v)
{
	memcpy(j->mem + off, &v, 8);
}

/* A compute job: @lx x 1 x 1 threads per group, @gx groups, @nuni
 * uniform slots, 2^@wls_log2 bytes of local memory (0: none). */
static inline void tjob_write(struct tjob *j, unsigned lx_bits, unsigned lx,
			      unsigned gx, unsigned nuni, unsigned wls_log2)
{
	memset(j->mem, 0, TJ_CODE);
	j->code_q = 0;
	tj32(j, TJ_JOB + 16)[0] = 1 | MALI_JOB_TYPE_COMPUTE << 1;
	/* invocation: local x-1 in [0, lx_bits), groups x-1 above */
	tj32(j, TJ_JOB + 32)[0] = (lx - 1) | (gx - 1) << lx_bits;
	tj32(j, TJ_JOB + 36)[0] = lx_bits | lx_bits << 5 | lx_bits << 10 |
				  20 << 16 | 20 << 22;
	tj64(j, TJ_JOB + 64 + 4 * 12, j->va + TJ_PUSH);
	tj64(j, TJ_JOB + 64 + 4 * 14, j->va + TJ_RSD);
	tj64(j, TJ_JOB + 64 + 4 * 28, j->va + TJ_LSD);
	tj64(j, TJ_JOB + 64 + 4 * 6, j->va + TJ_UBOS);
	tj64(j, TJ_RSD, j->va + TJ_CODE);
	tj32(j, TJ_RSD + 48)[0] = nuni << 15;
	tj32(j, TJ_RSD + 16)[0] = 1; /* one UBO */
	tj64(j, TJ_UBOS, ((j->va + TJ_B) >> 4) << 12 | (0x2000 / 16 - 1));
	if (wls_log2) {
		tj32(j, TJ_LSD + 4)[0] = (wls_log2 + 1) << 8; /* one instance */
		tj64(j, TJ_LSD + 16, j->va + TJ_WLS);
	} else {
		tj32(j, TJ_LSD + 4)[0] = 31; /* no workgroup memory */
	}
}

static inline void tjob_emit(struct tjob *j, const struct asm_header *h,
			     const struct asm_tuple *t, unsigned n)
{
	j->code_q += asm_clause(tj32(j, TJ_CODE + 16 * j->code_q), h, t, n, NULL, 0);
}

#define TJ_NOP_F bi_enc(true, "*NOP", NULL, NULL)
#define TJ_NOP_A bi_enc(false, "+NOP", NULL, NULL)

/* Uniforms the whole-program jobs share: u2 = &out, u3.w0 = 2 (the shift
 * for gid * 4). */
#define TJ_U_OUT 0x82
#define TJ_U_K 0x83

/* GPU VA of the next clause emitted. */
static inline uint64_t tjob_here(const struct tjob *j)
{
	return j->va + TJ_CODE + 16ull * j->code_q;
}

/* One clause: r7 = &out[gid] (low word; u2.w1 is the high one). */
static inline bool tjob_emit_out_address(struct tjob *j)
{
	struct asm_header h = { .flow = 3 };
	struct asm_tuple t[2] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL), TJ_NOP_A,
		  asm_block(true, 60, -1, -1, -1, 7, TJ_U_K) },
		{ TJ_NOP_F, bi_enc(false, "+IADD.s32", SRCS(6, 4), NULL),
		  asm_block(false, -1, -1, -1, -1, -1, TJ_U_OUT) },
	};

	if (t[0].reg == ~0ull || t[1].reg == ~0ull)
		return false;
	tjob_emit(j, &h, t, 2);
	return true;
}

/* The last clause: out[gid] = r@sr (r7 from tjob_emit_out_address). */
static inline bool tjob_emit_store_out(struct tjob *j, unsigned sr)
{
	struct asm_header h = { .flow = 0, .staging_reg = sr };
	struct asm_tuple t = { TJ_NOP_F, bi_enc(false, "+STORE.i32", SRCS(0, 5), NULL),
			       asm_block(true, 7, -1, -1, -1, -1, TJ_U_OUT) };

	if (t.add == ~0u)
		return false;
	tjob_emit(j, &h, &t, 1);
	return true;
}

/* One clause: branch to @target while r@reg != 0. The target travels in
 * embedded constant 0's high word, relative to this clause (PC_HI). */
static inline bool tjob_emit_branch_nz(struct tjob *j, unsigned reg, uint64_t target)
{
	struct asm_header h = { .flow = 3 };
	struct asm_tuple t = { TJ_NOP_F,
			       bi_enc(false, "+BRANCHZ.i32", SRCS(0, 5), "cmpf=ne"),
			       asm_block(true, (int)reg, -1, -1, -1, -1, 0x40) };
	uint32_t off = (uint32_t)(int32_t)(target - tjob_here(j));
	uint64_t k[2] = { (uint64_t)(off & 0x0fffffff) << 32 | 4ull << 60, 0 };

	if (t.add == ~0u)
		return false;
	j->code_q += asm_clause(tj32(j, TJ_CODE + 16 * j->code_q), &h, &t, 1, k, 2);
	return true;
}

/* 8 threads: r7 = &out[gid] (never 0), stored at out[gid] (the sign
 * that the shader runs), then a clause that branches to itself while
 * r7 != 0, then the store it never reaches. */
static inline bool tjob_forever(struct tjob *j)
{
	struct asm_header h = { .flow = 3, .staging_reg = 7 };
	struct asm_tuple st = { TJ_NOP_F, bi_enc(false, "+STORE.i32", SRCS(0, 5), NULL),
				asm_block(true, 7, -1, -1, -1, -1, TJ_U_OUT) };
	uint64_t top;

	tjob_write(j, 3, 8, 1, 4, 0);
	tj64(j, TJ_PUSH + 16, j->va + TJ_O);
	tj64(j, TJ_PUSH + 24, 2);
	memset(j->mem + TJ_O, 0, 32);
	if (!tjob_emit_out_address(j) || st.add == ~0u)
		return false;
	tjob_emit(j, &h, &st, 1);
	top = tjob_here(j);
	if (!tjob_emit_branch_nz(j, 7, top) || !tjob_emit_store_out(j, 7))
		return false;
	tj32(j, TJ_JOB + 16)[0] |= 1u << 16; /* job index 1 */
	return true;
}

/*
 * out[gid] = a[gid] + b[gid] (floats) for 8 x @groups threads; a and out
 * through push uniforms u0 and u2, b through UBO 0 (seg=ubo), u3.w0 = 2
 * is the shift for gid * 4. Returns false if an op does not encode.
 */
static inline bool tjob_vecadd(struct tjob *j, unsigned groups)
{
	struct asm_header h1 = { .flow = 3, .staging_reg = 2 };
	struct asm_header h2 = { .flow = 3, .staging_reg = 3 };
	struct asm_header h3 = { .flow = 0, .staging_reg = 4 };
	/* clause 1: r0 = gid << 2; r2 = load(a + r0) */
	struct asm_tuple c1[3] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL), TJ_NOP_A,
		  asm_block(true, 60, -1, -1, -1, -1, 0x83) },
		{ TJ_NOP_F, bi_enc(false, "+IADD.s32", SRCS(6, 4), NULL),
		  asm_block(false, -1, -1, -1, 0, -1, 0x80) },
		{ TJ_NOP_F, bi_enc(false, "+LOAD.i32", SRCS(7, 5), NULL),
		  asm_block(false, -1, -1, -1, -1, -1, 0x80) },
	};
	/* clause 2: r3 = ubo[u3.w1 = 0][r0] */
	struct asm_tuple c2 = { TJ_NOP_F,
				bi_enc(false, "+LOAD.i32", SRCS(0, 5), "seg=ubo"),
				asm_block(true, 0, -1, -1, -1, -1, 0x83) };
	/* clause 3: r4 = r2 + r3, r5 = out + r0 (written by the second
	 * tuple's block, so only a later tuple sees them); store r4 at r5 */
	struct asm_tuple c3[3] = {
		{ bi_enc(true, "*FADD.f32", SRCS(0, 1), NULL),
		  bi_enc(false, "+IADD.s32", SRCS(2, 4), NULL),
		  asm_block(true, 2, 3, 0, -1, -1, 0x82) },
		{ TJ_NOP_F, TJ_NOP_A, asm_block(false, -1, -1, -1, 4, 5, 0) },
		{ TJ_NOP_F, bi_enc(false, "+STORE.i32", SRCS(0, 5), NULL),
		  asm_block(false, 5, -1, -1, -1, -1, 0x82) },
	};
	unsigned n = 8 * groups;

	for (unsigned i = 0; i < 3; i++)
		if (c1[i].fma == ~0u || c1[i].add == ~0u || c1[i].reg == ~0ull)
			return false;
	if (c2.add == ~0u || c3[2].add == ~0u)
		return false;
	for (unsigned i = 0; i < 3; i++)
		if (c3[i].reg == ~0ull)
			return false;
	tjob_write(j, 3, 8, groups, 4, 0);
	tjob_emit(j, &h1, c1, 3);
	tjob_emit(j, &h2, &c2, 1);
	tjob_emit(j, &h3, c3, 3);
	tj64(j, TJ_PUSH, j->va + TJ_A);
	tj64(j, TJ_PUSH + 8, 0);
	tj64(j, TJ_PUSH + 16, j->va + TJ_O);
	tj64(j, TJ_PUSH + 24, 2);
	for (unsigned i = 0; i < n; i++) {
		float a = (float)i * 1.5f, b = 100.0f - (float)(i % 64);

		memcpy(j->mem + TJ_A + 4 * i, &a, 4);
		memcpy(j->mem + TJ_B + 4 * i, &b, 4);
	}
	memset(j->mem + TJ_O, 0, 4 * n);
	return true;
}

/* Index of the first wrong output, or -1. */
static inline int tjob_vecadd_check(struct tjob *j, unsigned groups)
{
	for (unsigned i = 0; i < 8 * groups; i++) {
		float o, want = (float)i * 1.5f + 100.0f - (float)(i % 64);

		memcpy(&o, j->mem + TJ_O + 4 * i, 4);
		if (o != want)
			return (int)i;
	}
	return -1;
}

#endif

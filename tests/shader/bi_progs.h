/* SPDX-License-Identifier: MIT */
/*
 * Whole-program COMPUTE jobs, hand-assembled in the shapes Mesa's
 * Bifrost compiler produces, each with a C reference: the workloads of
 * tests/shader/compute.c and of the shader benchmark (tests/bench).
 *
 *   vecadd   out[gid] = a[gid] + b[gid]               (bi_job.h)
 *   reduce   butterfly sum over a 16-thread group in shared memory,
 *            two barriers per step
 *   atomics  global histogram: atomic_inc(&bins[(gid >> 2) & 15])
 *   loop     a data-dependent loop of 1..16 iterations (divergent)
 *   sgemm    out[row][col] = sum_k a[row][k] * b[k][col], k < 16, FMA
 *
 * Uniforms: u0 = &a, u1 = &b, u2 = &out, u3.w0 = 2, then per program.
 */
#ifndef VGPU_TESTS_SHADER_BI_PROGS_H
#define VGPU_TESTS_SHADER_BI_PROGS_H

#include <math.h>

#include "bi_job.h"

#define TP_NOP_F TJ_NOP_F
#define TP_NOP_A TJ_NOP_A

static inline bool tp_ok(const struct asm_tuple *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (t[i].fma == ~0u || t[i].add == ~0u || t[i].reg == ~0ull)
			return false;
	return true;
}

static inline bool tp_emit(struct tjob *j, const struct asm_header *h,
			   const struct asm_tuple *t, unsigned n)
{
	if (!tp_ok(t, n))
		return false;
	tjob_emit(j, h, t, n);
	return true;
}

static inline uint32_t tp_rd(struct tjob *j, unsigned off)
{
	uint32_t v;

	memcpy(&v, j->mem + off, 4);
	return v;
}

/* The descriptors of a 16-thread-group job and the shared uniforms. */
static inline void tp_job(struct tjob *j, unsigned groups, unsigned nuni,
			  unsigned wls_log2)
{
	tjob_write(j, 4, 16, groups, nuni, wls_log2);
	tj64(j, TJ_PUSH, j->va + TJ_A);
	tj64(j, TJ_PUSH + 8, j->va + TJ_B);
	tj64(j, TJ_PUSH + 16, j->va + TJ_O);
	tj64(j, TJ_PUSH + 24, 2);
	memset(j->mem + TJ_O, 0xff, 0x2000);
}

/* Clause: r0 = gid << 2; r@sr = a[gid] (a below 4 GiB). */
static inline bool tp_load_a(struct tjob *j, unsigned sr)
{
	struct asm_header h = { .flow = 3, .staging_reg = sr };
	struct asm_tuple t[3] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL), TP_NOP_A,
		  asm_block(true, 60, -1, -1, -1, -1, TJ_U_K) },
		{ TP_NOP_F, bi_enc(false, "+IADD.s32", SRCS(6, 4), NULL),
		  asm_block(false, -1, -1, -1, 0, -1, 0x80) },
		{ TP_NOP_F, bi_enc(false, "+LOAD.i32", SRCS(7, 5), NULL),
		  asm_block(false, -1, -1, -1, -1, -1, 0x80) },
	};

	return tp_emit(j, &h, t, 3);
}

/* --- reduce: 16 threads, a[gid] = 3 gid + 1, out[gid] = group sum --- */
static inline bool tp_reduce(struct tjob *j, unsigned groups)
{
	struct asm_header h = { .flow = 3 }, hs = { .flow = 3, .staging_reg = 2 };
	struct asm_header h3 = { .flow = 3, .staging_reg = 3 };
	struct asm_header h4 = { .flow = 3, .staging_reg = 4 };
	/* wls[lid] = r2; r1 = lid << 2 */
	struct asm_tuple st[2] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL), TP_NOP_A,
		  asm_block(true, 55, -1, -1, -1, -1, TJ_U_K) },
		{ TP_NOP_F, bi_enc(false, "+STORE.i32", SRCS(6, 3), "seg=wls"),
		  asm_block(false, -1, -1, -1, 1, -1, 0) },
	};
	struct asm_tuple bar = { TP_NOP_F, bi_enc(false, "+BARRIER", NULL, NULL),
				 asm_block(true, -1, -1, -1, -1, -1, 0) };
	/* r3 = wls[r1] */
	struct asm_tuple l1 = { TP_NOP_F, bi_enc(false, "+LOAD.i32", SRCS(0, 3), "seg=wls"),
				asm_block(true, 1, -1, -1, -1, -1, 0) };
	/* r3 += r4 (written for the store of the next tuple); wls[r1] = r3 */
	struct asm_tuple add[2] = {
		{ TP_NOP_F, bi_enc(false, "+IADD.s32", SRCS(0, 1), NULL),
		  asm_block(true, 3, 4, -1, -1, -1, 0) },
		{ TP_NOP_F, bi_enc(false, "+STORE.i32", SRCS(0, 3), "seg=wls"),
		  asm_block(false, 1, -1, -1, -1, 3, 0) },
	};

	tp_job(j, groups, 6, 6);
	tj32(j, TJ_LSD + 4)[0] |= 2; /* 4 WLS instances: 4 groups at once */
	/* the partner offsets: u4 = { 32, 16 }, u5 = { 8, 4 } */
	tj64(j, TJ_PUSH + 32, (uint64_t)16 << 32 | 32);
	tj64(j, TJ_PUSH + 40, (uint64_t)4 << 32 | 8);
	if (!tp_load_a(j, 2) || !tp_emit(j, &hs, st, 2))
		return false;
	for (unsigned s = 0; s < 4; s++) {
		/* r4 = wls[r1 ^ partner] */
		struct asm_tuple l2[2] = {
			{ bi_enc(true, "*LSHIFT_XOR.i32", SRCS(0, 4 + s % 2, 3), NULL),
			  TP_NOP_A, asm_block(true, 1, -1, -1, -1, -1, 0x84 + s / 2) },
			{ TP_NOP_F, bi_enc(false, "+LOAD.i32", SRCS(6, 3), "seg=wls"),
			  asm_block(false, -1, -1, -1, -1, -1, 0) },
		};

		if (!tp_emit(j, &h, &bar, 1) || !tp_emit(j, &h3, &l1, 1) ||
		    !tp_emit(j, &h4, l2, 2) || !tp_emit(j, &h, &bar, 1) ||
		    !tp_emit(j, &h3, add, 2))
			return false;
	}
	if (!tjob_emit_out_address(j) || !tjob_emit_store_out(j, 3))
		return false;
	for (unsigned i = 0; i < 16 * groups; i++)
		tj32(j, TJ_A + 4 * i)[0] = 3 * i + 1;
	return true;
}

static inline int tp_reduce_check(struct tjob *j, unsigned groups)
{
	for (unsigned i = 0; i < 16 * groups; i++) {
		uint32_t g = i / 16, want = 0;

		for (uint32_t l = 0; l < 16; l++)
			want += 3 * (16 * g + l) + 1;
		if (tp_rd(j, TJ_O + 4 * i) != want)
			return (int)i;
	}
	return -1;
}

/* --- atomics: bins[(gid >> 2) & 15]++ on out[0..15] --- */
static inline bool tp_atomics(struct tjob *j, unsigned groups)
{
	struct asm_header h = { .flow = 0, .staging_reg = 11, .msg = 7 };
	struct asm_tuple t[4] = {
		{ bi_enc(true, "*RSHIFT_AND.i32", SRCS(0, 4, 5), NULL), TP_NOP_A,
		  asm_block(true, 60, -1, -1, -1, -1, 0x84) },
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(6, 3, 4), NULL), TP_NOP_A,
		  asm_block(false, -1, -1, -1, -1, -1, TJ_U_K) },
		{ bi_enc(true, "*IADDC.i32", SRCS(6, 4, 3), NULL),
		  bi_enc(false, "+MOV.i32", SRCS(5), NULL),
		  asm_block(false, -1, -1, -1, -1, -1, TJ_U_OUT) },
		{ bi_enc(true, "*ATOM_C1_RETURN.i32", SRCS(6, 7), "atom_opc=ainc"),
		  bi_enc_imm(false, "+ATOM_CX", SRCS(6, 7, 5), NULL, (uint32_t[]){ 2 }),
		  asm_block(false, -1, -1, -1, -1, -1, 0) },
	};

	tp_job(j, groups, 5, 0);
	tj64(j, TJ_PUSH + 32, (uint64_t)2 << 32 | 15); /* u4 = { mask, shift } */
	memset(j->mem + TJ_O, 0, 64);
	return tp_emit(j, &h, t, 4);
}

static inline int tp_atomics_check(struct tjob *j, unsigned groups)
{
	uint32_t want[16] = { 0 };

	for (unsigned i = 0; i < 16 * groups; i++)
		want[(i >> 2) & 15]++;
	for (unsigned b = 0; b < 16; b++)
		if (tp_rd(j, TJ_O + 4 * b) != want[b])
			return (int)b;
	return -1;
}

/* --- loop: n = (gid & 15) + 1; acc = gid; do acc = acc * acc + --n;
 * while (n); out[gid] = acc --- */
static inline bool tp_loop(struct tjob *j, unsigned groups)
{
	struct asm_header h = { .flow = 3 };
	/* r0 = n, r1 = gid */
	struct asm_tuple init[2] = {
		{ bi_enc(true, "*LSHIFT_AND.i32", SRCS(0, 4, 3), NULL),
		  bi_enc(false, "+IADD.s32", SRCS(3, 5), NULL),
		  asm_block(true, 60, -1, -1, -1, 1, 0x84) },
		{ TP_NOP_F, bi_enc(false, "+IADD.s32", SRCS(0, 3), NULL),
		  asm_block(false, 60, -1, -1, -1, 0, 0x84) },
	};
	/* r0 = r0 - 1; r1 = r1 * r1 + (r0 - 1) */
	struct asm_tuple body[2] = {
		{ bi_enc(true, "*IMUL.i32", SRCS(1, 1), NULL),
		  bi_enc(false, "+ISUB.s32", SRCS(0, 5), NULL),
		  asm_block(true, 0, 1, -1, -1, 1, 0x84) },
		{ TP_NOP_F, bi_enc(false, "+IADD.s32", SRCS(6, 7), NULL),
		  asm_block(false, -1, -1, -1, -1, 0, 0) },
	};
	uint64_t top;

	tp_job(j, groups, 5, 0);
	tj64(j, TJ_PUSH + 32, (uint64_t)1 << 32 | 15); /* u4 = { 15, 1 } */
	if (!tp_emit(j, &h, init, 2))
		return false;
	top = tjob_here(j);
	return tp_emit(j, &h, body, 2) && tjob_emit_branch_nz(j, 0, top) &&
	       tjob_emit_out_address(j) && tjob_emit_store_out(j, 1);
}

/* The loop's outputs for (gid & @mask) + 1 iterations. */
static inline int tp_loop_mask_check(struct tjob *j, unsigned groups, uint32_t mask)
{
	for (unsigned i = 0; i < 16 * groups; i++) {
		uint32_t n = (i & mask) + 1, acc = i;

		do {
			n--;
			acc = acc * acc + n;
		} while (n);
		if (tp_rd(j, TJ_O + 4 * i) != acc)
			return (int)i;
	}
	return -1;
}

static inline int tp_loop_check(struct tjob *j, unsigned groups)
{
	return tp_loop_mask_check(j, groups, 15);
}

/*
 * An honest job that takes a while: the loop over 768 workgroups with
 * (gid & 0xffff) + 1 iterations, some 3 ms of a Mali-G71 MP8 at its peak
 * rate and seconds of interpretation (a minute under a sanitizer on a
 * busy machine). Its buffer is TP_LONG_BO bytes.
 */
#define TP_LONG_GROUPS 768
#define TP_LONG_BO (TJ_O + 64 * TP_LONG_GROUPS + 4096)

static inline bool tp_long_loop(struct tjob *j)
{
	if (!tp_loop(j, TP_LONG_GROUPS))
		return false;
	tj64(j, TJ_PUSH + 32, (uint64_t)1 << 32 | 0xffff); /* u4 = { mask, 1 } */
	memset(j->mem + TJ_O, 0xff, 64 * TP_LONG_GROUPS);
	tj32(j, TJ_JOB + 16)[0] |= 1u << 16;
	return true;
}

static inline int tp_long_loop_check(struct tjob *j)
{
	return tp_loop_mask_check(j, TP_LONG_GROUPS, 0xffff);
}

/* --- sgemm: row = wg & 7, col = lid; a: 8 x 16, b: 16 x 16 floats --- */
static inline float tp_sgemm_a(unsigned i)
{
	return (float)(int)(i % 13) * 0.375f - 1.5f;
}

static inline float tp_sgemm_b(unsigned i)
{
	return (float)(int)(i % 7) * 1.25f + 0.1f;
}

static inline bool tp_sgemm(struct tjob *j, unsigned groups)
{
	struct asm_header h = { .flow = 3 };
	struct asm_header h5 = { .flow = 3, .staging_reg = 5 };
	struct asm_header h6 = { .flow = 3, .staging_reg = 6 };
	/* r2 = a + row * 64, r3 = b + col * 4, r4 = 0.0, r0 = 16 */
	struct asm_tuple init[4] = {
		{ bi_enc(true, "*LSHIFT_AND.i32", SRCS(0, 4, 5), NULL), TP_NOP_A,
		  asm_block(true, 57, -1, -1, -1, 3, 0x84) },
		{ bi_enc(true, "*MOV.i32", SRCS(3), NULL),
		  bi_enc(false, "+IADD.s32", SRCS(6, 4), NULL),
		  asm_block(false, -1, -1, -1, -1, -1, 0x80) },
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL),
		  bi_enc(false, "+MOV.i32", SRCS(5), NULL),
		  asm_block(false, 55, -1, -1, 4, 2, TJ_U_K) },
		{ TP_NOP_F, bi_enc(false, "+IADD.s32", SRCS(6, 4), NULL),
		  asm_block(false, -1, -1, -1, -1, 0, 0x81) },
	};
	struct asm_tuple la = { TP_NOP_F, bi_enc(false, "+LOAD.i32", SRCS(0, 5), NULL),
				asm_block(true, 2, -1, -1, -1, -1, 0x80) };
	struct asm_tuple lb = { TP_NOP_F, bi_enc(false, "+LOAD.i32", SRCS(0, 5), NULL),
				asm_block(true, 3, -1, -1, -1, -1, 0x81) };
	/* r4 = fma(r5, r6, r4); r3 += 64; r2 += 4; r0 -= 1 */
	struct asm_tuple body[3] = {
		{ bi_enc(true, "*FMA.f32", SRCS(0, 1, 2), NULL), TP_NOP_A,
		  asm_block(true, 5, 6, 4, -1, 0, 0) },
		{ bi_enc(true, "*IADDC.i32", SRCS(1, 5, 3), NULL),
		  bi_enc(false, "+IADD.s32", SRCS(0, 4), NULL),
		  asm_block(false, 2, 3, -1, 4, -1, 0x85) },
		{ TP_NOP_F, bi_enc(false, "+ISUB.s32", SRCS(0, 4), NULL),
		  asm_block(false, 0, -1, -1, 3, 2, 0x86) },
	};
	uint64_t top;

	tp_job(j, groups, 7, 0);
	tj64(j, TJ_PUSH + 24, (uint64_t)16 << 32 | 2); /* u3 = { 2, 16 } */
	tj64(j, TJ_PUSH + 32, (uint64_t)6 << 32 | 448);
	tj64(j, TJ_PUSH + 40, (uint64_t)64 << 32 | 4);
	tj64(j, TJ_PUSH + 48, 1);
	if (!tp_emit(j, &h, init, 4))
		return false;
	top = tjob_here(j);
	if (!tp_emit(j, &h5, &la, 1) || !tp_emit(j, &h6, &lb, 1) ||
	    !tp_emit(j, &h, body, 3) || !tjob_emit_branch_nz(j, 0, top) ||
	    !tjob_emit_out_address(j) || !tjob_emit_store_out(j, 4))
		return false;
	for (unsigned i = 0; i < 8 * 16; i++) {
		float a = tp_sgemm_a(i);

		memcpy(j->mem + TJ_A + 4 * i, &a, 4);
	}
	for (unsigned i = 0; i < 16 * 16; i++) {
		float b = tp_sgemm_b(i);

		memcpy(j->mem + TJ_B + 4 * i, &b, 4);
	}
	return true;
}

static inline int tp_sgemm_check(struct tjob *j, unsigned groups)
{
	for (unsigned i = 0; i < 16 * groups; i++) {
		unsigned row = (i / 16) & 7, col = i % 16;
		float acc = 0.0f, got;

		for (unsigned k = 0; k < 16; k++)
			acc = fmaf(tp_sgemm_a(16 * row + k), tp_sgemm_b(16 * k + col), acc);
		memcpy(&got, j->mem + TJ_O + 4 * i, 4);
		if (memcmp(&got, &acc, 4))
			return (int)i;
	}
	return -1;
}

static inline bool tp_vecadd(struct tjob *j, unsigned groups)
{
	return tjob_vecadd(j, groups);
}

static inline int tp_vecadd_check(struct tjob *j, unsigned groups)
{
	return tjob_vecadd_check(j, groups);
}

struct tprog {
	const char *name;
	unsigned threads;     /* per workgroup */
	unsigned max_groups;  /* the buffers' limit */
	bool (*build)(struct tjob *j, unsigned groups);
	int (*check)(struct tjob *j, unsigned groups); /* -1: right */
};

static const struct tprog tprogs[] = {
	{ "vecadd", 8, 256, tp_vecadd, tp_vecadd_check },
	{ "reduce", 16, 128, tp_reduce, tp_reduce_check },
	{ "atomics", 16, 128, tp_atomics, tp_atomics_check },
	{ "loop", 16, 128, tp_loop, tp_loop_check },
	{ "sgemm", 16, 128, tp_sgemm, tp_sgemm_check },
};

#endif

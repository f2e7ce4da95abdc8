// SPDX-License-Identifier: MIT
/*
 * The interpreter on hand-assembled programs: register ports, write-back
 * and temporaries, FAU uniforms and embedded constants, FMA/ADD
 * arithmetic against host IEEE, loads/stores through the memory
 * interface, atomics, divergent branches, barriers and faults.
 */
#include <math.h>

#include "harness.h"
#include "bi_asm.h"
#include "bi_enc.h"
#include "bi_run.h"
#include "shader/fp.h"
#include "shader/stats.h"

static uint32_t fb(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

#define NOP_F bi_enc(true, "*NOP", NULL, NULL)
#define NOP_A bi_enc(false, "+NOP", NULL, NULL)

static enum bi_run run(struct trun *t)
{
	return bi_warp_run(&t->env, &t->w, 10000);
}

TEST(fma_f32_per_lane_matches_host)
{
	struct trun *t = trun_new();
	struct asm_header h = { .flow = 0 };
	struct asm_tuple tu = {
		bi_enc(true, "*FMA.f32", SRCS(0, 1, 2), NULL), NOP_A,
		asm_block(true, 0, 1, 2, 3, -1, 0),
	};
	float a[4] = { 1.5f, -2.25f, 3e30f, 1e-20f }, b[4] = { 2, 4, 1e8f, 1e-20f },
	      c[4] = { 0.25f, 1, -3e38f, 0 };

	ASSERT_NE(tu.fma, ~0u);
	ASSERT_NE(tu.reg, ~0ull);
	trun_clause(t, &h, &tu, 1, NULL, 0);
	for (unsigned l = 0; l < 4; l++) {
		t->w.r[l][0] = fb(a[l]);
		t->w.r[l][1] = fb(b[l]);
		t->w.r[l][2] = fb(c[l]);
	}
	ASSERT_EQ(run(t), BI_RUN_DONE);
	for (unsigned l = 0; l < 4; l++)
		EXPECT_EQ(t->w.r[l][3], fb(fmaf(a[l], b[l], c[l])));
	EXPECT_EQ(t->w.clauses, 1u);
	EXPECT_EQ(t->w.live, 0);
	trun_free(t);
}

TEST(modifiers_round_clamp_abs_neg)
{
	struct trun *t = trun_new();
	struct asm_header h = { 0 };
	struct asm_tuple tu = {
		bi_enc(true, "*FADD.f32", SRCS(0, 1), "round=rtz clamp=clamp_0_1 neg1=neg"),
		NOP_A, asm_block(true, 0, 1, -1, 3, -1, 0),
	};

	ASSERT_NE(tu.fma, ~0u);
	trun_clause(t, &h, &tu, 1, NULL, 0);
	/* 1 - (-x) clamps to 1; 0.25 - 0.5 clamps to 0; rtz of 1/3-ish */
	float a[4] = { 1.0f, 0.25f, 0.1f, -5.0f }, b[4] = { -0.5f, 0.5f, -0.2f, -5.5f };

	for (unsigned l = 0; l < 4; l++) {
		t->w.r[l][0] = fb(a[l]);
		t->w.r[l][1] = fb(b[l]);
	}
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][3], fb(1.0f));
	EXPECT_EQ(t->w.r[1][3], 0u);
	EXPECT_EQ(t->w.r[2][3], bi_f32_add(fb(0.1f), fb(0.2f), BI_RM_RTZ, false));
	EXPECT_NE(t->w.r[2][3], fb(0.1f + 0.2f)); /* RTE differs here */
	EXPECT_EQ(t->w.r[3][3], fb(0.5f));
	trun_free(t);
}

TEST(add_reads_fma_result_and_uniforms)
{
	/* FMA: r0 * u0.w0 ; ADD: t + u0.w1 -> r4 */
	struct trun *t = trun_new();
	struct asm_header h = { 0 };
	struct asm_tuple tu = {
		bi_enc(true, "*FMA.f32", SRCS(0, 4, 3), NULL),
		bi_enc(false, "+FADD.f32", SRCS(3, 5), NULL),
		asm_block(true, 0, -1, -1, -1, 4, 0x80),
	};

	ASSERT_NE(tu.add, ~0u);
	ASSERT_NE(tu.reg, ~0ull);
	trun_clause(t, &h, &tu, 1, NULL, 0);
	t->uniforms[0] = (uint64_t)fb(10.0f) << 32 | fb(3.0f);
	for (unsigned l = 0; l < 4; l++)
		t->w.r[l][0] = fb((float)l);
	ASSERT_EQ(run(t), BI_RUN_DONE);
	for (unsigned l = 0; l < 4; l++)
		EXPECT_EQ(t->w.r[l][4], fb(3.0f * l + 10.0f));
	trun_free(t);
}

/* A tuple's result reaches the register file in the same cycle as the
 * next tuple reads it: that tuple sees the old value, and the new one
 * only through the passthrough. */
TEST(next_tuple_reads_old_register_value)
{
	struct trun *t = trun_new();
	struct asm_header h = { 0 };
	struct asm_tuple tu[2] = {
		{ NOP_F, bi_enc(false, "+MOV.i32", SRCS(4), NULL),
		  asm_block(true, -1, -1, -1, -1, 6, 0x80) },
		{ NOP_F, bi_enc(false, "+IADD.s32", SRCS(0, 7), NULL),
		  asm_block(false, 5, -1, -1, -1, 5, 0) },
	};

	ASSERT_NE(tu[1].reg, ~0ull);
	trun_clause(t, &h, tu, 2, NULL, 0);
	t->uniforms[0] = 7;
	t->w.live = 1;
	t->w.r[0][5] = 100;
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][5], 7u);   /* tuple 0's write */
	EXPECT_EQ(t->w.r[0][6], 107u); /* old r5 + passthrough 7 */
	trun_free(t);
}

TEST(integer_ops_with_embedded_constants)
{
	/* Two tuples: IADD.s32 r0 + const0 -> temp; then the next tuple's
	 * ADD computes LSHIFT_OR? no: ISUB t1 - r1 -> r2, and the first
	 * result is written to r5 by the second block. */
	struct trun *t = trun_new();
	struct asm_header h = { 0 };
	struct asm_tuple tu[2] = {
		{ NOP_F, bi_enc(false, "+IADD.s32", SRCS(0, 4), NULL),
		  asm_block(true, 0, -1, -1, -1, 2, 0x40 | 0x3) },
		{ NOP_F, bi_enc(false, "+ISUB.s32", SRCS(7, 0), NULL),
		  asm_block(false, 1, -1, -1, -1, 5, 0) },
	};
	uint64_t k[1] = { 0x0000000012345670ull };

	ASSERT_NE(tu[1].reg, ~0ull);
	trun_clause(t, &h, tu, 2, k, 1);
	for (unsigned l = 0; l < 4; l++) {
		t->w.r[l][0] = 100 * l;
		t->w.r[l][1] = 7;
	}
	ASSERT_EQ(run(t), BI_RUN_DONE);
	for (unsigned l = 0; l < 4; l++) {
		EXPECT_EQ(t->w.r[l][5], 100 * l + 0x12345673u);
		EXPECT_EQ(t->w.r[l][2], 100 * l + 0x12345673u - 7);
	}
	trun_free(t);
}

TEST(store_then_load_through_memory)
{
	struct trun *t = trun_new();
	struct asm_header hs = { .flow = 3, .staging_reg = 0, .msg = 6 };
	struct asm_header hl = { .flow = 0, .staging_reg = 8, .msg = 5 };
	struct asm_tuple st = { NOP_F, bi_enc(false, "+STORE.i32", SRCS(0, 1), NULL),
				asm_block(true, 1, 2, -1, -1, -1, 0) };
	struct asm_tuple ld = { NOP_F, bi_enc(false, "+LOAD.i32", SRCS(0, 1), NULL),
				asm_block(true, 1, 2, -1, -1, -1, 0) };

	ASSERT_NE(st.add, ~0u);
	ASSERT_NE(ld.add, ~0u);
	trun_clause(t, &hs, &st, 1, NULL, 0);
	trun_clause(t, &hl, &ld, 1, NULL, 0);
	for (unsigned l = 0; l < 4; l++) {
		uint64_t va = TMEM_DATA + 4 * l;

		t->w.r[l][0] = 0xc0de0000 + l;
		t->w.r[l][1] = (uint32_t)va;
		t->w.r[l][2] = (uint32_t)(va >> 32);
	}
	ASSERT_EQ(run(t), BI_RUN_DONE);
	for (unsigned l = 0; l < 4; l++) {
		EXPECT_EQ(*tdata(t, 4 * l), 0xc0de0000 + l);
		EXPECT_EQ(t->w.r[l][8], 0xc0de0000 + l);
	}
	EXPECT_EQ(t->mem.writes, 4u);
	trun_free(t);
}

TEST(narrow_loads_extend_and_wide_loads_fill_staging)
{
	struct trun *t = trun_new();
	struct asm_header h1 = { .flow = 3, .staging_reg = 8 };
	struct asm_header h2 = { .flow = 3, .staging_reg = 12 };
	struct asm_header h3 = { .flow = 0, .staging_reg = 20 };
	struct asm_tuple a = { NOP_F, bi_enc(false, "+LOAD.i8", SRCS(0, 1), "lane_dest=w0 extend=sext"),
			       asm_block(true, 1, 2, -1, -1, -1, 0) };
	struct asm_tuple b = { NOP_F, bi_enc(false, "+LOAD.i128", SRCS(0, 1), NULL),
			       asm_block(true, 1, 2, -1, -1, -1, 0) };
	struct asm_tuple c = { NOP_F, bi_enc(false, "+LOAD.i16", SRCS(0, 1), "lane_dest=h1"),
			       asm_block(true, 1, 2, -1, -1, -1, 0) };

	ASSERT_NE(a.add, ~0u);
	ASSERT_NE(c.add, ~0u);
	trun_clause(t, &h1, &a, 1, NULL, 0);
	trun_clause(t, &h2, &b, 1, NULL, 0);
	trun_clause(t, &h3, &c, 1, NULL, 0);
	for (unsigned i = 0; i < 4; i++)
		*tdata(t, 4 * i) = 0x11223380 + i;
	t->w.live = 1;
	t->w.r[0][1] = (uint32_t)TMEM_DATA;
	t->w.r[0][2] = (uint32_t)(TMEM_DATA >> 32);
	t->w.r[0][20] = 0x0000beef;
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][8], 0xffffff80u);
	for (unsigned i = 0; i < 4; i++)
		EXPECT_EQ(t->w.r[0][12 + i], 0x11223380u + i);
	EXPECT_EQ(t->w.r[0][20], 0x3380beefu);
	trun_free(t);
}

TEST(divergent_loop_reconverges)
{
	/*
	 * L: r1 += u0.w0 (1); r0 -= 1          (2 tuples)
	 * B: branchz.ne r0 -> L                 (PC-relative constant)
	 * E: r2 = r1 + r1, end
	 */
	struct trun *t = trun_new();
	struct asm_header hn = { .flow = 3 }, he = { .flow = 0 };
	struct asm_tuple body[2] = {
		{ NOP_F, bi_enc(false, "+IADD.s32", SRCS(0, 4), NULL),
		  asm_block(true, 1, -1, -1, -1, 0, 0x80) },
		{ NOP_F, bi_enc(false, "+ISUB.s32", SRCS(0, 4), NULL),
		  asm_block(false, 0, -1, -1, -1, 1, 0x80) },
	};
	struct asm_tuple br = { NOP_F, bi_enc(false, "+BRANCHZ.i32", SRCS(0, 5), "cmpf=ne"),
				asm_block(true, 0, -1, -1, -1, -1, 0x40) };
	struct asm_tuple end = { NOP_F, bi_enc(false, "+IADD.s32", SRCS(0, 0), NULL),
				 asm_block(true, 1, -1, -1, -1, 2, 0) };
	uint64_t l_va, b_va;

	ASSERT_NE(br.add, ~0u);
	ASSERT_NE(body[1].reg, ~0ull);
	l_va = trun_clause(t, &hn, body, 2, NULL, 0);
	b_va = TMEM_CODE + 16ull * t->code_q;
	int32_t off = (int32_t)(l_va - b_va);
	/* const 0: high word PC-relative (top nibbles 4 - 0 = M1 4) */
	uint64_t k[2] = { (uint64_t)((uint32_t)off & 0x0fffffff) << 32 | 4ull << 60, 0 };
	trun_clause(t, &hn, &br, 1, k, 2);
	trun_clause(t, &he, &end, 1, NULL, 0);
	struct bi_stats st = { 0 };

	t->w.stats = &st;
	t->uniforms[0] = 1;
	for (unsigned l = 0; l < 4; l++) {
		t->w.r[l][0] = 1 + 2 * l; /* iterations: 1, 3, 5, 7 */
		t->w.r[l][1] = 100;
	}
	ASSERT_EQ(run(t), BI_RUN_DONE);
	for (unsigned l = 0; l < 4; l++) {
		EXPECT_EQ(t->w.r[l][0], 0u);
		EXPECT_EQ(t->w.r[l][1], 101 + 2 * l);
		EXPECT_EQ(t->w.r[l][2], 2 * (101 + 2 * l));
	}
	/* 7 body+branch rounds, and the final clause once: threads that
	 * left the loop waited for the others (reconvergence). */
	EXPECT_EQ(t->w.clauses, 7u * 2 + 1);
	/* Statistics: 7 branches, divergent when a thread leaves the loop
	 * while others stay (iterations 1, 3 and 5). */
	EXPECT_EQ(st.clauses, 15u);
	EXPECT_EQ(st.branches, 7u);
	EXPECT_EQ(st.branches_divergent, 3u);
	EXPECT_EQ(st.clause_tuples[1], 8u);
	EXPECT_EQ(st.clause_tuples[2], 7u);
	/* body runs 1+3+5+7 = 16 thread-iterations: 2 ADD ops each */
	EXPECT_EQ(st.instrs[BI_CLASS_ADD_ARITH], 16u * 2 + 4);
	EXPECT_EQ(st.instrs[BI_CLASS_CONTROL], 16u);
	EXPECT_EQ(st.threads_in_clauses, 16u * 2 + 4);
	/* The branch site: 16 thread-decisions, 12 back to the loop. */
	ASSERT_EQ(st.nsites, 1u);
	EXPECT_EQ(st.site[0].va, b_va);
	EXPECT_EQ(st.site[0].target, l_va);
	EXPECT_EQ(st.site[0].next_va, b_va + 32);
	EXPECT_EQ(st.site[0].execs, 7u);
	EXPECT_EQ(st.site[0].taken, 12u);
	EXPECT_EQ(st.site[0].not_taken, 4u);
	EXPECT_EQ(st.site[0].divergent, 3u);

	struct bi_text txt = { 0 };
	char want[128];

	bi_stats_dot(&st, &txt);
	snprintf(want, sizeof(want), "\"0x%llx\" -> \"0x%llx\" [label=\"taken 12\"]",
		 (unsigned long long)b_va, (unsigned long long)l_va);
	EXPECT_NONNULL(strstr(txt.buf, want));
	free(txt.buf);
	txt = (struct bi_text){ 0 };
	bi_stats_text(&st, &txt);
	EXPECT_NONNULL(strstr(txt.buf, "branches 7, divergent 3"));
	free(txt.buf);

	/* Merging two workers' blocks sums per site. */
	struct bi_stats sum = { 0 };

	bi_stats_merge(&sum, &st);
	bi_stats_merge(&sum, &st);
	EXPECT_EQ(sum.nsites, 1u);
	EXPECT_EQ(sum.site[0].taken, 24u);
	EXPECT_EQ(sum.clauses, 30u);
	trun_free(t);
}

TEST(atomic_add_returns_serialised_old_values)
{
	struct trun *t = trun_new();
	struct asm_header ha = { .flow = 3, .staging_reg = 4, .msg = 7 };
	struct asm_header hp = { .flow = 0 };
	struct asm_tuple at = {
		bi_enc(true, "*ATOM_C_RETURN.i32", SRCS(0, 1, 2), "atom_opc=aadd"),
		bi_enc_imm(false, "+ATOM_CX", SRCS(0, 1, 2), NULL, (uint32_t[]){ 2 }),
		asm_block(true, 0, 1, 4, -1, -1, 0),
	};
	struct asm_tuple post = {
		bi_enc(true, "*ATOM_POST.i32", SRCS(0, 1), "atom_opc=aadd"), NOP_A,
		asm_block(true, 4, 5, -1, 6, -1, 0),
	};

	ASSERT_NE(at.fma, ~0u);
	ASSERT_NE(at.add, ~0u);
	ASSERT_NE(post.fma, ~0u);
	trun_clause(t, &ha, &at, 1, NULL, 0);
	trun_clause(t, &hp, &post, 1, NULL, 0);
	*tdata(t, 0) = 100;
	for (unsigned l = 0; l < 4; l++) {
		t->w.r[l][0] = (uint32_t)TMEM_DATA;
		t->w.r[l][1] = (uint32_t)(TMEM_DATA >> 32);
		t->w.r[l][4] = l + 1;
	}
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(*tdata(t, 0), 110u);
	EXPECT_EQ(t->w.r[0][6], 100u);
	EXPECT_EQ(t->w.r[1][6], 101u);
	EXPECT_EQ(t->w.r[2][6], 103u);
	EXPECT_EQ(t->w.r[3][6], 106u);
	EXPECT_EQ(t->mem.atomics, 4u);
	trun_free(t);
}

TEST(compare_exchange_on_local_memory)
{
	struct trun *t = trun_new();
	struct asm_header h = { .flow = 0, .staging_reg = 8 };
	struct asm_tuple tu = { NOP_F, bi_enc(false, "+ACMPXCHG.i32", SRCS(0, 1), "seg=wls"),
				asm_block(true, 1, 2, -1, -1, -1, 0) };

	ASSERT_NE(tu.add, ~0u);
	trun_clause(t, &h, &tu, 1, NULL, 0);
	*tdata(t, 0x4000 + 16) = 5;
	for (unsigned l = 0; l < 4; l++) {
		t->w.r[l][1] = 16; /* offset in the workgroup's local memory */
		t->w.r[l][2] = 0;
		t->w.r[l][8] = 50 + l; /* new */
		t->w.r[l][9] = 5 + l;  /* expected: only lane 0's matches */
	}
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(*tdata(t, 0x4000 + 16), 50u);
	EXPECT_EQ(t->w.r[0][8], 5u);
	EXPECT_EQ(t->w.r[1][8], 50u);
	trun_free(t);
}

TEST(exchange_64_and_compare_store)
{
	struct trun *t = trun_new();
	struct asm_header h1 = { .flow = 3, .staging_reg = 8 };
	struct asm_header h2 = { .flow = 0, .staging_reg = 12 };
	struct asm_tuple x = { NOP_F, bi_enc(false, "+AXCHG.i64", SRCS(0, 1), NULL),
			       asm_block(true, 1, 2, -1, -1, -1, 0) };
	struct asm_tuple c = { NOP_F, bi_enc(false, "+ACMPSTORE.i32", SRCS(0, 1), NULL),
			       asm_block(true, 3, 4, -1, -1, -1, 0) };
	uint64_t v = 0x1122334455667788ull;

	ASSERT_NE(x.add, ~0u);
	ASSERT_NE(c.add, ~0u);
	trun_clause(t, &h1, &x, 1, NULL, 0);
	trun_clause(t, &h2, &c, 1, NULL, 0);
	memcpy(tdata(t, 0), &v, 8);
	*tdata(t, 16) = 7;
	t->w.live = 1;
	t->w.r[0][1] = (uint32_t)TMEM_DATA;
	t->w.r[0][2] = (uint32_t)(TMEM_DATA >> 32);
	t->w.r[0][3] = (uint32_t)TMEM_DATA + 16;
	t->w.r[0][4] = (uint32_t)(TMEM_DATA >> 32);
	t->w.r[0][8] = 0xaaaaaaaa;
	t->w.r[0][9] = 0xbbbbbbbb;
	t->w.r[0][12] = 99; /* new */
	t->w.r[0][13] = 7;  /* compare: matches */
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][8], 0x55667788u);
	EXPECT_EQ(t->w.r[0][9], 0x11223344u);
	EXPECT_EQ(*tdata(t, 0), 0xaaaaaaaau);
	EXPECT_EQ(*tdata(t, 4), 0xbbbbbbbbu);
	EXPECT_EQ(*tdata(t, 16), 99u);
	EXPECT_EQ(t->w.r[0][12], 99u); /* a store returns nothing */
	trun_free(t);
}

TEST(flush_to_zero_follows_clause_header)
{
	for (unsigned ftz = 0; ftz < 2; ftz++) {
		struct trun *t = trun_new();
		struct asm_header h = { .ftz = ftz };
		struct asm_tuple tu = {
			bi_enc(true, "*FADD.f32", SRCS(0, 1), NULL), NOP_A,
			asm_block(true, 0, 1, -1, 3, -1, 0),
		};

		trun_clause(t, &h, &tu, 1, NULL, 0);
		t->w.live = 1;
		t->w.r[0][0] = 0x00000100;
		t->w.r[0][1] = 0x00000001;
		ASSERT_EQ(run(t), BI_RUN_DONE);
		EXPECT_EQ(t->w.r[0][3], ftz ? 0u : 0x101u);
		trun_free(t);
	}
}

TEST(cross_lane_permute)
{
	struct trun *t = trun_new();
	struct asm_header h = { 0 };
	struct asm_tuple tu = { NOP_F, bi_enc(false, "+CLPER_V6.i32", SRCS(0, 1), NULL),
				asm_block(true, 0, 1, -1, -1, 2, 0) };

	ASSERT_NE(tu.add, ~0u);
	trun_clause(t, &h, &tu, 1, NULL, 0);
	for (unsigned l = 0; l < 4; l++) {
		t->w.r[l][0] = 0xa0 + l;
		t->w.r[l][1] = (l + 1) & 3;
	}
	ASSERT_EQ(run(t), BI_RUN_DONE);
	for (unsigned l = 0; l < 4; l++)
		EXPECT_EQ(t->w.r[l][2], 0xa0 + ((l + 1) & 3));
	trun_free(t);
}

TEST(eight_lane_warps_on_v7)
{
	struct trun *t = trun_new();
	struct asm_header h = { 0 };
	struct asm_tuple tu = { NOP_F, bi_enc(false, "+CLPER.i32", SRCS(0, 1), "lane_op=xor"),
				asm_block(true, 0, 1, -1, -1, 2, 0) };

	ASSERT_NE(tu.add, ~0u);
	trun_clause(t, &h, &tu, 1, NULL, 0);
	t->w.nlanes = 8;
	t->w.live = 0xff;
	for (unsigned l = 0; l < 8; l++) {
		t->w.pc[l] = TMEM_CODE;
		t->w.r[l][0] = 0xb0 + l;
		t->w.r[l][1] = 5; /* partner: lane ^ 5 */
	}
	ASSERT_EQ(run(t), BI_RUN_DONE);
	for (unsigned l = 0; l < 8; l++)
		EXPECT_EQ(t->w.r[l][2], 0xb0 + (l ^ 5));
	EXPECT_EQ(t->w.instrs, 16u);
	trun_free(t);
}

TEST(barrier_yields_then_resumes)
{
	struct trun *t = trun_new();
	struct asm_header h1 = { .flow = 3, .msg = 8 }, h2 = { 0 };
	struct asm_tuple b = { NOP_F, bi_enc(false, "+BARRIER", NULL, NULL), 0 };
	struct asm_tuple e = { NOP_F, NOP_A, 0 };

	b.reg = asm_block(true, -1, -1, -1, -1, -1, 0);
	e.reg = b.reg;
	trun_clause(t, &h1, &b, 1, NULL, 0);
	trun_clause(t, &h2, &e, 1, NULL, 0);
	ASSERT_EQ(run(t), BI_RUN_BARRIER);
	EXPECT_EQ(t->w.live, 0xf);
	ASSERT_EQ(run(t), BI_RUN_DONE);
	trun_free(t);
}

TEST(reciprocal_newton_sequence_is_correctly_rounded)
{
	/*
	 * The sequence compilers emit for 1/x:
	 *   T0: m = *FREXPM(x)          x1 = +FRCP_APPROX(x)
	 *   T1: t = *FMA_RSCALE(m, -x1, 1.0, 0)    e = +FREXPE(-x)
	 *   T2: r = *FMA_RSCALE(t, x1, x1, e)
	 */
	struct trun *t = trun_new();
	struct asm_header h = { 0 };
	struct asm_tuple tu[3] = {
		{ bi_enc(true, "*FREXPM.f32", SRCS(0), NULL),
		  bi_enc(false, "+FRCP_APPROX.f32", SRCS(0), NULL),
		  asm_block(true, 0, -1, -1, 2, -1, 0) },
		{ bi_enc(true, "*FMA_RSCALE.f32", SRCS(6, 7, 4, 3), "neg1=neg"),
		  bi_enc(false, "+FREXPE.f32", SRCS(0), "neg0=neg"),
		  asm_block(false, 0, -1, -1, -1, 1, 0x80) },
		{ bi_enc(true, "*FMA_RSCALE.f32", SRCS(6, 0, 0, 7), NULL), NOP_A,
		  asm_block(false, 1, -1, -1, -1, -1, 0) },
	};
	static const float x[] = { 3.0f, -7.0f, 0.1f, 1e30f, 1.5e-38f, 123456.7f, 1.0f, -0.5f };
	unsigned bad = 0;

	for (unsigned i = 0; i < 3; i++) {
		ASSERT_NE(tu[i].fma, ~0u);
		ASSERT_NE(tu[i].add, ~0u);
		ASSERT_NE(tu[i].reg, ~0ull);
	}
	trun_clause(t, &h, tu, 3, NULL, 0);
	t->uniforms[0] = fb(1.0f);
	for (unsigned k = 0; k < OS_ARRAY_SIZE(x); k += 4) {
		t->w.live = 0xf;
		for (unsigned l = 0; l < 4; l++) {
			t->w.pc[l] = TMEM_CODE;
			t->w.r[l][0] = fb(x[k + l]);
		}
		ASSERT_EQ(run(t), BI_RUN_DONE);
		for (unsigned l = 0; l < 4; l++) {
			if (t->w.r[l][2] != fb(1.0f / x[k + l])) {
				TH_LOG("1/%g: %08x want %08x", x[k + l], t->w.r[l][2],
				       fb(1.0f / x[k + l]));
				bad++;
			}
		}
	}
	EXPECT_EQ(bad, 0u);
	trun_free(t);
}

TEST(faults_are_reported_not_fatal)
{
	struct trun *t = trun_new();
	struct asm_header h = { 0 };
	struct asm_tuple bad = { 0x7fffff, NOP_A, 0 };

	/* invalid opcode */
	trun_clause(t, &h, &bad, 1, NULL, 0);
	ASSERT_EQ(run(t), BI_RUN_FAULT);
	EXPECT_EQ(t->w.fault, BI_FAULT_INSTR_INVALID_ENC);
	EXPECT_EQ(t->w.fault_va, TMEM_CODE);
	trun_free(t);

	/* load from an unmapped address */
	t = trun_new();
	struct asm_tuple ld = { NOP_F, bi_enc(false, "+LOAD.i32", SRCS(0, 1), NULL),
				asm_block(true, 1, 2, -1, -1, -1, 0) };
	trun_clause(t, &h, &ld, 1, NULL, 0);
	for (unsigned l = 0; l < 4; l++)
		t->w.r[l][1] = 0x1000;
	ASSERT_EQ(run(t), BI_RUN_FAULT);
	EXPECT_EQ(t->w.fault, BI_FAULT_MEMORY);
	EXPECT_EQ(t->w.fault_va, 0x1000u);
	trun_free(t);

	/* jump to unmapped code; then a misaligned PC */
	t = trun_new();
	for (unsigned l = 0; l < 4; l++)
		t->w.pc[l] = 0x5000;
	ASSERT_EQ(run(t), BI_RUN_FAULT);
	EXPECT_EQ(t->w.fault, BI_FAULT_MEMORY);
	for (unsigned l = 0; l < 4; l++)
		t->w.pc[l] = TMEM_CODE + 4;
	t->w.fault = 0;
	ASSERT_EQ(run(t), BI_RUN_FAULT);
	EXPECT_EQ(t->w.fault, BI_FAULT_INSTR_INVALID_PC);
	trun_free(t);
}

TEST(decode_cache_decodes_once)
{
	struct trun *t = trun_new();
	struct asm_header h = { .flow = 0 };
	struct asm_tuple tu = { NOP_F, bi_enc(false, "+MOV.i32", SRCS(4), NULL),
				asm_block(true, -1, -1, -1, -1, 5, 0x80) };
	unsigned reads;

	trun_clause(t, &h, &tu, 1, NULL, 0);
	t->uniforms[0] = 11;
	t->uniforms[1] = 22;
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][5], 11u);
	reads = t->mem.reads;
	EXPECT_EQ(reads, 1u);
	/* same generation: no memory access for the code at all */
	t->w.live = 0xf;
	for (unsigned l = 0; l < 4; l++)
		t->w.pc[l] = TMEM_CODE;
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(t->mem.reads, reads);

	/* rewrite the code (now u1.w0): a new generation re-checks it once
	 * and decodes the new clause */
	t->code_q = 0;
	tu.reg = asm_block(true, -1, -1, -1, -1, 5, 0x81);
	trun_clause(t, &h, &tu, 1, NULL, 0);
	t->w.live = 0xf;
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][5], 11u); /* still the cached decode */
	bi_cache_new_generation(t->env.cache);
	t->w.live = 0xf;
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][5], 22u);

	/* unchanged code in a new generation: one check, no decode */
	reads = t->mem.reads;
	bi_cache_new_generation(t->env.cache);
	t->w.live = 0xf;
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(t->mem.reads, reads + 1);
	bi_cache_flush(t->env.cache, 1);
	t->w.live = 0xf;
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(t->mem.reads, reads + 2);
	trun_free(t);
}

/* Code rewritten at one address, job after job: each replaced decode is
 * freed once no job holds the cache, so the cache stays one entry big. */
TEST(decode_cache_frees_replaced_clauses_after_the_jobs)
{
	struct trun *t = trun_new();
	struct asm_header h = { .flow = 0 };
	struct asm_tuple tu = { NOP_F, bi_enc(false, "+MOV.i32", SRCS(4), NULL),
				asm_block(true, -1, -1, -1, -1, 5, 0x80) };

	t->uniforms[0] = 11;
	t->uniforms[1] = 22;
	for (unsigned i = 0; i < 8; i++) {
		/* u0.w0, then u0.w1 (uniform 1), and back */
		tu.reg = asm_block(true, -1, -1, -1, -1, 5, 0x80 | (i & 1));
		t->code_q = 0;
		trun_clause(t, &h, &tu, 1, NULL, 0);
		bi_cache_job_begin(t->env.cache);
		t->w.live = 0xf;
		for (unsigned l = 0; l < 4; l++)
			t->w.pc[l] = TMEM_CODE;
		ASSERT_EQ(run(t), BI_RUN_DONE);
		EXPECT_EQ(t->w.r[0][5], i & 1 ? 22u : 11u);
		/* the replaced decode lives while the job may hold it */
		EXPECT_EQ(bi_cache_entries(t->env.cache), i ? 2u : 1u);
		bi_cache_job_end(t->env.cache);
		EXPECT_EQ(bi_cache_entries(t->env.cache), 1u);
	}
	/* while another job holds the cache, nothing is freed */
	bi_cache_job_begin(t->env.cache);
	bi_cache_job_begin(t->env.cache);
	tu.reg = asm_block(true, -1, -1, -1, -1, 5, 0x80);
	t->code_q = 0;
	trun_clause(t, &h, &tu, 1, NULL, 0);
	t->w.live = 0xf;
	for (unsigned l = 0; l < 4; l++)
		t->w.pc[l] = TMEM_CODE;
	ASSERT_EQ(run(t), BI_RUN_DONE);
	EXPECT_EQ(t->w.r[0][5], 11u);
	bi_cache_job_end(t->env.cache);
	EXPECT_EQ(bi_cache_entries(t->env.cache), 2u);
	bi_cache_job_end(t->env.cache);
	EXPECT_EQ(bi_cache_entries(t->env.cache), 1u);
	trun_free(t);
}

TEST_HARNESS_MAIN

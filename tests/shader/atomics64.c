// SPDX-License-Identifier: MIT
/*
 * 64-bit atomics: every atom_opc of *ATOM_C.i64, *ATOM_C_RETURN.i64,
 * *ATOM_C1.i64 and *ATOM_C1_RETURN.i64 paired with +ATOM_CX, on global
 * memory and on the workgroup's local memory (through SEG_ADD-made
 * global pointers), with the old value returned (or not) in the staging
 * registers; and threads serialised in order. Expected values are
 * written out by hand.
 */
#include "harness.h"
#include "bi_asm.h"
#include "bi_enc.h"
#include "bi_run.h"

#define NOP_A bi_enc(false, "+NOP", NULL, NULL)

#define MEM0 0xffffffff00000004ull  /* negative as signed, even */
#define ARG 0x00000001fffffffeull   /* low word -2 as signed */

static const struct row {
	const char *op, *opc;
	uint64_t want; /* memory afterwards */
} rows[] = {
	{ "C", "aadd", 0x0000000100000002ull },
	{ "C", "aaddu", 0x0000000000000002ull },  /* + 0xfffffffe */
	{ "C", "aadds", 0xffffffff00000002ull },  /* + -2 */
	{ "C", "asmin", MEM0 },
	{ "C", "asmax", ARG },
	{ "C", "aumin", ARG },
	{ "C", "aumax", MEM0 },
	{ "C", "aand", 0x0000000100000004ull },
	{ "C", "aor", 0xfffffffffffffffeull },
	{ "C", "axor", 0xfffffffefffffffaull },
	{ "C1", "ainc", 0xffffffff00000005ull },
	{ "C1", "adec", 0xffffffff00000003ull },
	{ "C1", "aumax1", MEM0 },
	{ "C1", "asmax1", 1 },
	{ "C1", "aor1", 0xffffffff00000005ull },
};

/* One clause: the atomic at r0:r1 with staging r4 (operand r4:r5). */
static uint64_t atomic_clause(struct trun *t, const char *fma, const char *opc)
{
	struct asm_header h = { .flow = 0, .staging_reg = 4, .msg = 7 };
	char mods[32];
	bool c1 = strstr(fma, "C1") != NULL;
	struct asm_tuple at;

	snprintf(mods, sizeof(mods), "atom_opc=%s", opc);
	at.fma = c1 ? bi_enc(true, fma, SRCS(0, 1), mods)
		    : bi_enc(true, fma, SRCS(0, 1, 2), mods);
	at.add = bi_enc_imm(false, "+ATOM_CX", SRCS(0, 1, 2), NULL, (uint32_t[]){ 2 });
	at.reg = asm_block(true, 0, 1, 4, -1, -1, 0);
	if (at.fma == ~0u || at.add == ~0u)
		return 0;
	return trun_clause(t, &h, &at, 1, NULL, 0);
}

static void set64(struct trun *t, unsigned lane, unsigned reg, uint64_t v)
{
	t->w.r[lane][reg] = (uint32_t)v;
	t->w.r[lane][reg + 1] = (uint32_t)(v >> 32);
}

static uint64_t get64(struct trun *t, unsigned lane, unsigned reg)
{
	return t->w.r[lane][reg] | (uint64_t)t->w.r[lane][reg + 1] << 32;
}

TEST(every_64_bit_operation_with_and_without_return)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		for (int ret = 0; ret < 2; ret++) {
			/* global memory, then local memory (shared) */
			for (int local = 0; local < 2; local++) {
				struct trun *t = trun_new();
				uint64_t va = local ? t->env.wls_base + 8 : TMEM_DATA + 8;
				unsigned off = (unsigned)(va - TMEM_DATA);
				char fma[32];
				uint64_t mem;

				snprintf(fma, sizeof(fma), "*ATOM_%s%s.i64", rows[i].op,
					 ret ? "_RETURN" : "");
				TH_LOG("%s %s %s", fma, rows[i].opc, local ? "local" : "global");
				ASSERT_NE(atomic_clause(t, fma, rows[i].opc), 0u);
				memcpy(tdata(t, off), &(uint64_t){ MEM0 }, 8);
				t->w.live = 1;
				set64(t, 0, 0, va);
				set64(t, 0, 4, ARG);
				ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
				memcpy(&mem, tdata(t, off), 8);
				EXPECT_EQ(mem, rows[i].want);
				/* the old value, or the operand left alone */
				EXPECT_EQ(get64(t, 0, 4), ret ? MEM0 : ARG);
				EXPECT_EQ(t->mem.atomics, 1u);
				trun_free(t);
			}
		}
	}
}

/* Four threads add 2^32 + lane each, in thread order: each gets the sum
 * of the ones before it, with carries across the words. */
TEST(threads_are_serialised_in_order)
{
	struct trun *t = trun_new();
	uint64_t mem, base = 0x00000000ffffffffull;

	ASSERT_NE(atomic_clause(t, "*ATOM_C_RETURN.i64", "aadd"), 0u);
	memcpy(tdata(t, 0), &base, 8);
	for (unsigned l = 0; l < 4; l++) {
		set64(t, l, 0, TMEM_DATA);
		set64(t, l, 4, (1ull << 32) + l);
	}
	ASSERT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_DONE);
	EXPECT_EQ(get64(t, 0, 4), base);
	EXPECT_EQ(get64(t, 1, 4), base + (1ull << 32));
	EXPECT_EQ(get64(t, 2, 4), base + (2ull << 32) + 1);
	EXPECT_EQ(get64(t, 3, 4), base + (3ull << 32) + 3);
	memcpy(&mem, tdata(t, 0), 8);
	EXPECT_EQ(mem, base + (4ull << 32) + 6);
	trun_free(t);
}

/* A misaligned 64-bit atomic is the shader's fault, not the host's: the
 * vgpu memory interface reports an alignment fault (compute_vgpu covers
 * the MMU side); the flat test memory faults outside its range. */
TEST(atomic_outside_memory_faults)
{
	struct trun *t = trun_new();

	ASSERT_NE(atomic_clause(t, "*ATOM_C.i64", "aadd"), 0u);
	t->w.live = 1;
	set64(t, 0, 0, 0x1000);
	EXPECT_EQ(bi_warp_run(&t->env, &t->w, 100), BI_RUN_FAULT);
	EXPECT_EQ(t->w.fault, BI_FAULT_MEMORY);
	EXPECT_EQ(t->w.fault_va, 0x1000u);
	trun_free(t);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: MIT
/*
 * COMPUTE jobs built by hand from the code patterns Mesa 22.3's Bifrost
 * compiler emits for GLES compute shaders (seen in its disassembly of a
 * shared-memory reduction and a shared-memory atomic histogram), each of
 * which the interpreter once got wrong:
 *
 *  - a branch to the end of the program is a branch to #0, which ends
 *    the thread (the compiler drops the empty end block on Bifrost);
 *  - a message's staging register may be the one the previous tuple of
 *    the clause wrote (staging reads see that write; operand ports
 *    don't);
 *  - +ATOM_CX's encoded sources are the address's low and high words,
 *    then the staging base; shared-memory atomics reach it through
 *    SEG_ADD.wls.
 *
 * No Mesa needed: descriptors and clauses are hand-assembled, memory is
 * the flat stand-in of job_stub.h.
 */
#include <stdlib.h>

#include "harness.h"
#include "bi_job.h"
#include "shader/compute.h"
#include "shader/stats.h"

#define BASE 0x30000000ull
#define STUB_BASE BASE
#define STUB_SIZE TJ_SIZE
#include "job_stub.h"

#define NOP_F TJ_NOP_F
#define NOP_A TJ_NOP_A
#define OUT (BASE + TJ_O)

static struct tjob tj = { stub_mem, BASE, 0 };

/* Push uniforms the programs share: u2 = &out, u3 = { 2, 5 }, u4.w0 = 3. */
#define U_OUT TJ_U_OUT
#define U_K TJ_U_K
#define U_MASK 0x84
#define NUNI 5

static void job(unsigned lx_bits, unsigned lx, unsigned gx, unsigned wls_log2)
{
	tjob_write(&tj, lx_bits, lx, gx, NUNI, wls_log2);
	tj64(&tj, TJ_PUSH + 16, OUT);
	tj64(&tj, TJ_PUSH + 24, (uint64_t)5 << 32 | 2);
	tj64(&tj, TJ_PUSH + 32, 3);
	memset(tj.mem + TJ_O, 0xff, 0x2000);
	job_stub_start(BASE + TJ_JOB);
}

static void emit(const struct asm_header *h, const struct asm_tuple *t, unsigned n)
{
	tjob_emit(&tj, h, t, n);
}

static uint32_t out(unsigned i)
{
	uint32_t v;

	memcpy(&v, tj.mem + TJ_O + 4 * i, 4);
	return v;
}

/* Runs the job on a fresh back end; its record to @rec if not NULL. */
static uint32_t run_job_rec(struct bi_job_record *rec)
{
	struct bi_compute *bc;
	uint32_t exc;

	job_cfg.gpu_id = 0x60000000;
	job_cfg.shader_present = 0xff;
	job_cfg.thread_max_threads = 256;
	bc = bi_compute_attach(NULL);
	if (!bc)
		return ~0u;
	exc = bi_compute_run(bc, NULL);
	if (rec && bi_compute_jobs(bc, rec, 1, NULL) != 1)
		exc = ~0u;
	bi_compute_detach(NULL, bc);
	return exc;
}

static uint32_t run_job(void)
{
	return run_job_rec(NULL);
}

/*
 * if (gid & 1) return; out[gid] = gid. The return is what Mesa emits for
 * a branch to the program's end: BRANCHZ to the FAU zero (#0). Odd
 * threads must end there, not jump to address 0 (an MMU fault), and the
 * even threads of the same warps must go on.
 */
TEST(branch_to_zero_ends_the_thread)
{
	struct asm_header h = { .flow = 3 };
	/* t = gid & u0.w0 (1), then branch to #0 (FAU 0, the zero) if set */
	struct asm_tuple t[2] = {
		{ bi_enc(true, "*LSHIFT_AND.i32", SRCS(0, 4, 3), NULL), NOP_A,
		  asm_block(true, 60, -1, -1, -1, -1, 0x80) },
		{ NOP_F, bi_enc(false, "+BRANCHZ.i32", SRCS(6, 4), "cmpf=ne"),
		  asm_block(false, -1, -1, -1, -1, -1, 0) },
	};
	struct bi_job_record rec;
	struct bi_text dot = { 0 };

	ASSERT_NE(t[0].fma, ~0u);
	ASSERT_NE(t[1].add, ~0u);
	job(3, 8, 4, 0);
	tj64(&tj, TJ_PUSH, 1); /* u0.w0: the bit tested */
	emit(&h, t, 2);
	ASSERT_TRUE(tjob_emit_out_address(&tj));
	ASSERT_TRUE(tjob_emit_store_out(&tj, 60));
	ASSERT_EQ(run_job_rec(&rec), (uint32_t)MALI_EXC_DONE);
	for (unsigned g = 0; g < 32; g++)
		EXPECT_EQ(out(g), g & 1 ? 0xffffffffu : g);
	/* The branch graph: half the threads went to the end, every time
	 * divergently (8 warps of 4 threads, 2 odd each). */
	ASSERT_EQ(rec.st.nsites, 1u);
	EXPECT_EQ(rec.st.site[0].taken, 16u);
	EXPECT_EQ(rec.st.site[0].divergent, 8u);
	bi_stats_dot(&rec.st, &dot);
	ASSERT_NONNULL(dot.buf);
	EXPECT_NONNULL(strstr(dot.buf, "-> \"end\" [label=\"taken 16\"]"));
	free(dot.buf);
}

/*
 * out[gid] = gid + 5, where the value is computed by one tuple and
 * stored by the next from the register that tuple wrote (its staging
 * register), as Mesa schedules `part[l] += part[l + s]`: the store must
 * see the new value although an operand port in its tuple would not.
 */
TEST(store_sees_value_written_by_previous_tuple)
{
	struct asm_header h = { .flow = 0, .staging_reg = 9 };
	struct asm_tuple t[2] = {
		/* r9 = gid + u3.w1 (written by the next tuple's block) */
		{ NOP_F, bi_enc(false, "+IADD.s32", SRCS(0, 5), NULL),
		  asm_block(true, 60, -1, -1, -1, -1, U_K) },
		/* store r9 at r7 (port 0), u2.w1 */
		{ NOP_F, bi_enc(false, "+STORE.i32", SRCS(0, 5), NULL),
		  asm_block(false, 7, -1, -1, -1, 9, U_OUT) },
	};

	ASSERT_NE(t[1].reg, ~0ull);
	ASSERT_NE(t[1].add, ~0u);
	job(3, 8, 4, 0);
	ASSERT_TRUE(tjob_emit_out_address(&tj));
	emit(&h, t, 2);
	ASSERT_EQ(run_job(), (uint32_t)MALI_EXC_DONE);
	for (unsigned g = 0; g < 32; g++)
		EXPECT_EQ(out(g), g + 5);
}

/*
 * A shared-memory histogram, as Mesa compiles atomicAdd(bins[v & 3], 1)
 * on a `shared` array: bins[l] = 0; barrier; the bin's offset becomes a
 * global pointer with SEG_ADD.wls (FMA low word, ADD high word), then
 * *ATOM_C1_RETURN.i32.ainc + +ATOM_CX(lo, hi, #0.y); barrier;
 * out[gid] = bins[l]. 16 threads per group, 3 groups sharing one local
 * memory instance one after the other: bins 0-3 count 4 each.
 */
TEST(local_memory_atomic_histogram)
{
	struct asm_header hz = { .flow = 3, .staging_reg = 10 };
	struct asm_header hb = { .flow = 3 };
	struct asm_header ha = { .flow = 3, .staging_reg = 11, .msg = 7 };
	struct asm_header hl = { .flow = 3, .staging_reg = 12 };
	/* bins[l] = r10 (0) */
	struct asm_tuple z[2] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL), NOP_A,
		  asm_block(true, 55, -1, -1, -1, -1, U_K) },
		{ NOP_F, bi_enc(false, "+STORE.i32", SRCS(6, 3), "seg=wls"),
		  asm_block(false, -1, -1, -1, -1, -1, 0) },
	};
	struct asm_tuple b = { NOP_F, bi_enc(false, "+BARRIER", NULL, NULL),
			       asm_block(true, -1, -1, -1, -1, -1, 0) };
	/* r11 = atomic_inc(&bins[gid & 3]) */
	struct asm_tuple a[4] = {
		{ bi_enc(true, "*LSHIFT_AND.i32", SRCS(0, 4, 3), NULL), NOP_A,
		  asm_block(true, 60, -1, -1, -1, -1, U_MASK) },
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(6, 3, 4), NULL), NOP_A,
		  asm_block(false, -1, -1, -1, -1, -1, U_K) },
		{ bi_enc(true, "*SEG_ADD", SRCS(6), "seg=wls"),
		  bi_enc(false, "+SEG_ADD", SRCS(4), "seg=wls"),
		  asm_block(false, -1, -1, -1, -1, -1, 0) },
		{ bi_enc(true, "*ATOM_C1_RETURN.i32", SRCS(6, 7), "atom_opc=ainc"),
		  bi_enc_imm(false, "+ATOM_CX", SRCS(6, 7, 5), NULL, (uint32_t[]){ 2 }),
		  asm_block(false, -1, -1, -1, -1, -1, 0) },
	};
	/* r12 = bins[l] */
	struct asm_tuple l[2] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL), NOP_A,
		  asm_block(true, 55, -1, -1, -1, -1, U_K) },
		{ NOP_F, bi_enc(false, "+LOAD.i32", SRCS(6, 3), "seg=wls"),
		  asm_block(false, -1, -1, -1, -1, -1, 0) },
	};
	struct bi_job_record rec;

	for (unsigned i = 0; i < 4; i++) {
		ASSERT_NE(a[i].fma, ~0u);
		ASSERT_NE(a[i].add, ~0u);
		ASSERT_NE(a[i].reg, ~0ull);
	}
	ASSERT_NE(z[1].add, ~0u);
	ASSERT_NE(l[1].add, ~0u);
	job(4, 16, 3, 8);
	memset(tj.mem + TJ_WLS, 0xee, 256); /* the program must clear it */
	emit(&hz, z, 2);
	emit(&hb, &b, 1);
	emit(&ha, a, 4);
	emit(&hb, &b, 1);
	emit(&hl, l, 2);
	ASSERT_TRUE(tjob_emit_out_address(&tj));
	ASSERT_TRUE(tjob_emit_store_out(&tj, 12));
	ASSERT_EQ(run_job_rec(&rec), (uint32_t)MALI_EXC_DONE);
	for (unsigned g = 0; g < 48; g++)
		EXPECT_EQ(out(g), g % 16 < 4 ? 4u : 0u);
	/* The job's record: the atomics went through global pointers, but
	 * into local storage, and count there. */
	EXPECT_EQ(rec.seq, 1u);
	EXPECT_EQ(rec.exception, (uint32_t)MALI_EXC_DONE);
	EXPECT_EQ(rec.workgroups, 3u);
	EXPECT_EQ(rec.inv.local[0], 16u);
	EXPECT_EQ(rec.st.mem[BI_SPACE_LOCAL][BI_ACC_STORE], 48u);
	EXPECT_EQ(rec.st.mem[BI_SPACE_LOCAL][BI_ACC_ATOMIC], 48u);
	EXPECT_EQ(rec.st.mem[BI_SPACE_LOCAL][BI_ACC_LOAD], 48u);
	EXPECT_EQ(rec.st.mem_bytes[BI_SPACE_LOCAL], 3u * 48 * 4);
	EXPECT_EQ(rec.st.mem[BI_SPACE_GLOBAL][BI_ACC_STORE], 48u);
	EXPECT_EQ(rec.st.mem[BI_SPACE_GLOBAL][BI_ACC_ATOMIC], 0u);
	/* The 4-tuple clause: once per warp (4 per group). */
	EXPECT_EQ(rec.st.clause_tuples[4], 12u);
}

TEST_HARNESS_MAIN

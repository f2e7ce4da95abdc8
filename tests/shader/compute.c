// SPDX-License-Identifier: MIT
/*
 * COMPUTE jobs through the back end (shader/compute.c) with hand-built
 * descriptors and hand-assembled shaders. The vgpu side (address space,
 * job, configuration) is stood in for by job_stub.h: one flat memory
 * region, so the test checks the back end's descriptor reading, thread
 * IDs, dispatch and barriers, not the MMU (tests/vgpu does that).
 */
#include <pthread.h>

#include "harness.h"
#include "bi_progs.h"
#include "shader/compute.h"
#include "vgpu/regs.h"

#define BASE 0x20000000ull
#define SIZE 0x20000u /* two job regions */
#define STUB_BASE BASE
#define STUB_SIZE SIZE
#include "job_stub.h"
#define mem stub_mem

static struct tjob tj = { mem, BASE, 0 };
static struct tjob tj2 = { mem + TJ_SIZE, BASE + TJ_SIZE, 0 };

#define WLS (BASE + TJ_WLS)
#define BUF_O (BASE + TJ_O)
#define PUSH (BASE + TJ_PUSH)
#define RSD (BASE + TJ_RSD)
#define NOP_F TJ_NOP_F
#define NOP_A TJ_NOP_A

static uint32_t *w32(uint64_t va)
{
	return (uint32_t *)at(va, 4);
}

static void put64(uint64_t va, uint64_t v)
{
	memcpy(at(va, 8), &v, 8);
}

static void make_job(unsigned lx_bits, unsigned lx, unsigned gx, unsigned nuni,
		     unsigned wls_log2)
{
	tjob_write(&tj, lx_bits, lx, gx, nuni, wls_log2);
	job_stub_start(BASE + TJ_JOB);
}

static void emit(const struct asm_header *h, const struct asm_tuple *t,
		 unsigned n)
{
	tjob_emit(&tj, h, t, n);
}

TEST(invocation_field_decodes)
{
	struct bi_invocation inv;

	/* local 8x2x1, groups 4x3x5 */
	bi_invocation_decode(7 | 1 << 3 | 0 << 4 | 3 << 4 | 2 << 6 | 4u << 8,
			     3 | 4 << 5 | 4 << 10 | 6 << 16 | 8 << 22, &inv);
	EXPECT_EQ(inv.local[0], 8u);
	EXPECT_EQ(inv.local[1], 2u);
	EXPECT_EQ(inv.local[2], 1u);
	EXPECT_EQ(inv.groups[0], 4u);
	EXPECT_EQ(inv.groups[1], 3u);
	EXPECT_EQ(inv.groups[2], 5u);
}

static void vector_add(struct __test_metadata *_metadata, unsigned workers,
		       unsigned groups, uint32_t gpu_id)
{
	struct bi_compute *bc;
	struct bi_stats st;
	unsigned n = 8 * groups;

	ASSERT_TRUE(tjob_vecadd(&tj, groups));
	job_stub_start(BASE + TJ_JOB);
	job_cfg.gpu_id = gpu_id;
	job_cfg.shader_present = 0xff;
	job_cfg.thread_max_threads = 256;
	bc = bi_compute_attach(NULL);
	ASSERT_NONNULL(bc);
	bi_compute_set_workers(bc, workers);
	EXPECT_EQ(bi_compute_run(bc, NULL), (uint32_t)MALI_EXC_DONE);
	EXPECT_EQ(tjob_vecadd_check(&tj, groups), -1);
	EXPECT_EQ(job_events[VGPU_EV_TASKS], groups);
	EXPECT_EQ(job_events[VGPU_EV_THREADS], n);
	/* tuples per warp: 7; warps per group: 8 threads / warp width */
	EXPECT_EQ(job_events[VGPU_EV_INSTRUCTIONS],
		  (gpu_id >> 28 >= 7 ? 1u : 2u) * groups * 7);
	bi_compute_stats(bc, &st);
	EXPECT_EQ(st.instrs[BI_CLASS_LOAD], 2u * n);
	EXPECT_EQ(st.instrs[BI_CLASS_STORE], n);
	bi_compute_detach(NULL, bc);
}

TEST(vector_add_job)
{
	vector_add(_metadata, 1, 4, 0x60000000);
}

/* The same on 4 host threads sharing 256 workgroups. */
TEST(vector_add_job_on_four_workers)
{
	vector_add(_metadata, 4, 256, 0x60000000);
}

/* Mali-G52 (v7): warps of eight threads, one per workgroup here. */
TEST(vector_add_job_g52_eight_lane_warps)
{
	vector_add(_metadata, 2, 16, 0x72120000);
}

/*
 * Local memory and a barrier: each thread stores its local id at
 * wls[lid], waits at the barrier, then loads wls[(lid + 1) % 8] and
 * writes it to out[gid]. Run without the barrier, the first warp reads
 * the second warp's slots before they are written: the test can fail.
 */
static void barrier_program(bool with_barrier)
{
	struct asm_header hs = { .flow = 3, .staging_reg = 55 };
	struct asm_header hb = { .flow = 3 };
	struct asm_header hl = { .flow = 3, .staging_reg = 6 };
	struct asm_header ha = { .flow = 3 };
	struct asm_header ho = { .flow = 0, .staging_reg = 6 };
	/* r1 = lid << 2; wls[r1] = r55 (= lid.x, as lid.y = 0) */
	struct asm_tuple s1[2] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL), NOP_A,
		  asm_block(true, 55, -1, -1, -1, -1, 0x83) },
		{ NOP_F, bi_enc(false, "+STORE.i32", SRCS(6, 3), "seg=wls"),
		  asm_block(false, -1, -1, -1, 1, -1, 0) },
	};
	struct asm_tuple b = { NOP_F, bi_enc(false, "+BARRIER", NULL, NULL),
			       asm_block(true, -1, -1, -1, -1, -1, 0) };
	/* r6 = wls[(r1 + 4) & 31] */
	struct asm_tuple l[3] = {
		{ bi_enc(true, "*IADDC.i32", SRCS(0, 4, 3), NULL), NOP_A,
		  asm_block(true, 1, -1, -1, -1, -1, 0x84) },
		{ bi_enc(true, "*RSHIFT_AND.i32", SRCS(6, 5, 3), NULL), NOP_A,
		  asm_block(false, -1, -1, -1, -1, -1, 0x84) },
		{ NOP_F, bi_enc(false, "+LOAD.i32", SRCS(6, 3), "seg=wls"),
		  asm_block(false, -1, -1, -1, -1, -1, 0) },
	};
	/* r7 = u2.w0 + (gid << 2) */
	struct asm_tuple a[2] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 4), NULL), NOP_A,
		  asm_block(true, 60, -1, -1, -1, 7, 0x83) },
		{ NOP_F, bi_enc(false, "+IADD.s32", SRCS(6, 4), NULL),
		  asm_block(false, -1, -1, -1, -1, -1, 0x82) },
	};
	struct asm_tuple o = { NOP_F, bi_enc(false, "+STORE.i32", SRCS(0, 5), NULL),
			       asm_block(true, 7, -1, -1, -1, -1, 0x82) };

	emit(&hs, s1, 2);
	if (with_barrier)
		emit(&hb, &b, 1);
	emit(&hl, l, 3);
	emit(&ha, a, 2);
	emit(&ho, &o, 1);
	put64(PUSH + 16, BUF_O);
	put64(PUSH + 24, 2);
	put64(PUSH + 32, (uint64_t)31 << 32 | 4);
}

TEST(barrier_orders_local_memory)
{
	for (int with = 1; with >= 0; with--) {
		struct bi_compute *bc;
		unsigned wrong = 0;

		make_job(3, 8, 2, 5, 8);
		barrier_program(with);
		memset(at(WLS, 64), 0, 64);
		memset(at(BUF_O, 64), 0xff, 64);
		bc = bi_compute_attach(NULL);
		ASSERT_NONNULL(bc);
		EXPECT_EQ(bi_compute_run(bc, NULL), (uint32_t)MALI_EXC_DONE);
		for (unsigned g = 0; g < 16; g++)
			wrong += *w32(BUF_O + 4 * g) != (g % 8 + 1) % 8;
		if (with)
			EXPECT_EQ(wrong, 0u);
		else
			EXPECT_GT(wrong, 0u);
		bi_compute_detach(NULL, bc);
	}
}

TEST(faulting_shader_fails_the_job)
{
	struct bi_compute *bc;
	struct asm_header h = { 0 };
	struct asm_tuple t = { 0x7fffff, NOP_A, 0 };

	make_job(3, 8, 1, 0, 0);
	emit(&h, &t, 1);
	bc = bi_compute_attach(NULL);
	ASSERT_NONNULL(bc);
	EXPECT_EQ(bi_compute_run(bc, NULL), (uint32_t)MALI_EXC_INSTR_INVALID_ENC);
	/* a shader pointer outside memory */
	put64(RSD, 0x1000);
	EXPECT_NE(bi_compute_run(bc, NULL), (uint32_t)MALI_EXC_DONE);
	bi_compute_detach(NULL, bc);
}

struct job_thread {
	struct bi_compute *bc;
	struct vgpu_job_info info;
	unsigned bad;
};

static void *run_three_jobs(void *arg)
{
	struct job_thread *jt = arg;

	for (int i = 0; i < 3; i++)
		jt->bad += bi_compute_run(jt->bc, (struct vgpu_job *)(void *)&jt->info) !=
			   MALI_EXC_DONE;
	return NULL;
}

/*
 * Workers stay from job to job (a pool; the job's thread is worker 0):
 * consecutive jobs reuse them, and two jobs at once (two job slots) both
 * finish, the second on threads of its own. Detaching stops the pool.
 */
TEST(worker_pool_serves_consecutive_and_concurrent_jobs)
{
	struct job_thread jt[2];
	struct bi_compute *bc;
	pthread_t th[2];
	uint64_t jobs = 0;
	struct bi_job_record rec;

	ASSERT_TRUE(tjob_vecadd(&tj, 64));
	ASSERT_TRUE(tjob_vecadd(&tj2, 64));
	job_stub_start(BASE + TJ_JOB);
	job_cfg.gpu_id = 0x60000000;
	job_cfg.shader_present = 0xff;
	job_cfg.thread_max_threads = 256;
	bc = bi_compute_attach(NULL);
	ASSERT_NONNULL(bc);
	bi_compute_set_workers(bc, 3);
	for (int i = 0; i < 5; i++) {
		memset(at(BUF_O, 4 * 8 * 64), 0, 4 * 8 * 64);
		ASSERT_EQ(bi_compute_run(bc, NULL), (uint32_t)MALI_EXC_DONE);
		EXPECT_EQ(tjob_vecadd_check(&tj, 64), -1);
	}
	/* two jobs (in two regions) at once */
	memset(at(BUF_O, 4 * 8 * 64), 0, 4 * 8 * 64);
	memset(at(BASE + TJ_SIZE + TJ_O, 4 * 8 * 64), 0, 4 * 8 * 64);
	for (int i = 0; i < 2; i++) {
		jt[i] = (struct job_thread){ bc, job_info, 0 };
		jt[i].info.va = (i ? tj2.va : tj.va) + TJ_JOB;
		ASSERT_EQ(pthread_create(&th[i], NULL, run_three_jobs, &jt[i]), 0);
	}
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(pthread_join(th[i], NULL), 0);
		EXPECT_EQ(jt[i].bad, 0u);
	}
	EXPECT_EQ(tjob_vecadd_check(&tj, 64), -1);
	EXPECT_EQ(tjob_vecadd_check(&tj2, 64), -1);
	ASSERT_EQ(bi_compute_jobs(bc, &rec, 1, &jobs), 1u);
	EXPECT_EQ(jobs, 11u);
	EXPECT_EQ(rec.workgroups, 64u);
	bi_compute_detach(NULL, bc);
}

/* Runs @p's job of @groups workgroups; its record in *@rec. */
static uint32_t run_prog(const struct tprog *p, unsigned groups, unsigned workers,
			 uint32_t gpu_id, bool stats, struct bi_job_record *rec)
{
	struct bi_compute *bc;
	uint32_t exc;

	if (!p->build(&tj, groups))
		return ~0u;
	job_stub_start(BASE + TJ_JOB);
	job_cfg.gpu_id = gpu_id;
	job_cfg.shader_present = 0xff;
	job_cfg.thread_max_threads = 256;
	bc = bi_compute_attach(NULL);
	if (!bc)
		return ~0u;
	bi_compute_set_workers(bc, workers);
	bi_compute_set_stats(bc, stats);
	exc = bi_compute_run(bc, NULL);
	if (bi_compute_jobs(bc, rec, 1, NULL) != 1)
		exc = ~0u;
	bi_compute_detach(NULL, bc);
	return exc;
}

/* Every whole-program job (bi_progs.h) matches its C reference on both
 * GPUs, on one and on three host threads. */
TEST(whole_programs_match_their_references)
{
	static const uint32_t gpus[2] = { 0x60000000, 0x72120000 };

	for (size_t i = 0; i < sizeof(tprogs) / sizeof(tprogs[0]); i++) {
		const struct tprog *p = &tprogs[i];

		for (unsigned g = 0; g < 2; g++) {
			for (unsigned workers = 1; workers <= 3; workers += 2) {
				struct bi_job_record rec;

				TH_LOG("%s on %08x, %u workers", p->name, gpus[g], workers);
				ASSERT_EQ(run_prog(p, 32, workers, gpus[g], true, &rec),
					  (uint32_t)MALI_EXC_DONE);
				EXPECT_EQ(p->check(&tj, 32), -1);
				EXPECT_EQ(rec.workgroups, 32u);
				EXPECT_GT(rec.instrs, 0u);
			}
		}
	}
}

/*
 * Statistics off: the same results and thread-instruction counts, and no
 * statistics block. On, the class counts add up to the thread-instructions
 * (a NOP counts in its own class).
 */
TEST(statistics_switch_off_per_device)
{
	for (size_t i = 0; i < sizeof(tprogs) / sizeof(tprogs[0]); i++) {
		const struct tprog *p = &tprogs[i];
		struct bi_job_record on, off;
		uint64_t sum = 0;

		ASSERT_EQ(run_prog(p, 8, 2, 0x60000000, true, &on), (uint32_t)MALI_EXC_DONE);
		ASSERT_EQ(run_prog(p, 8, 2, 0x60000000, false, &off), (uint32_t)MALI_EXC_DONE);
		EXPECT_EQ(p->check(&tj, 8), -1);
		EXPECT_TRUE(on.stats);
		EXPECT_FALSE(off.stats);
		EXPECT_EQ(off.instrs, on.instrs);
		EXPECT_EQ(off.tuples, on.tuples);
		EXPECT_EQ(off.st.clauses, 0u);
		EXPECT_GT(on.st.clauses, 0u);
		for (unsigned c = 0; c < BI_CLASS_COUNT; c++)
			sum += on.st.instrs[c];
		EXPECT_EQ(sum, on.instrs);
	}
}

TEST_HARNESS_MAIN

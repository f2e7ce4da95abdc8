// SPDX-License-Identifier: MIT
/*
 * COMPUTE jobs end to end through the GPU model: a board with page
 * tables, the job submitted through the job-slot registers, the shader
 * back end attached to the Job Manager, every shader access translated
 * by the MMU model. A faulting shader raises the MMU interrupt and fails
 * the job once the "driver" gives up on the address space.
 */
#include "harness.h"
#include "bi_job.h"
#include "shader/compute.h"
#include "vgpu/vgpu_test.h"

#define REGION_VA 0x1000000ull
#define AS 1
#define SLOT 1

FIXTURE(gpu)
{
	struct board b;
	struct area region;
	struct tjob tj;
	struct bi_compute *bc;
};

FIXTURE_SETUP(gpu)
{
	ASSERT_EQ(board_init(&self->b, "g71", 0, FMT_LPAE), 0);
	ASSERT_TRUE(reset_and_power_up(&self->b));
	self->region = make_area(&self->b, AS, REGION_VA, TJ_SIZE / PG,
				 MAP_R | MAP_W | MAP_X);
	as_enable(&self->b, AS);
	self->tj.mem = area_ptr(&self->b, &self->region, REGION_VA);
	self->tj.va = REGION_VA;
	self->bc = bi_compute_attach(self->b.gpu);
	ASSERT_NONNULL(self->bc);
}

FIXTURE_TEARDOWN(gpu)
{
	bi_compute_detach(self->b.gpu, self->bc);
	board_fini(&self->b);
}

static void submit_job(struct board *b, struct tjob *tj)
{
	tj32(tj, TJ_JOB + 16)[0] |= 1u << 16; /* job index 1 */
	submit(b, SLOT, AS, tj->va + TJ_JOB, 0);
}

TEST_F(gpu, vector_add_through_the_mmu)
{
	struct bi_stats st;

	ASSERT_TRUE(tjob_vecadd(&self->tj, 64));
	bi_compute_set_workers(self->bc, 2);
	submit_job(&self->b, &self->tj);
	ASSERT_EQ(wait_slot(&self->b, SLOT, 20), MALI_JOB_IRQ_DONE(SLOT));
	EXPECT_EQ(tjob_vecadd_check(&self->tj, 64), -1);
	bi_compute_stats(self->bc, &st);
	EXPECT_EQ(st.instrs[BI_CLASS_STORE], 8u * 64);
}

/* What one vecadd job of @groups workgroups (8 threads each) on 4
 * workers adds to address space AS's traffic counters, and the L2 read
 * and write lookups of a performance-counter sample taken after it. */
static void vecadd_traffic(struct __test_metadata *_metadata,
			   struct __fixture_gpu *self, unsigned groups,
			   struct vgpu_as_stats *d, uint32_t l2[2])
{
	struct board *b = &self->b;
	const uint64_t dump_va = 0x2000000;
	struct area dump = make_area(b, AS, dump_va, 1, MAP_R | MAP_W);
	const uint32_t *blk;
	struct vgpu_stats s0, s1;

	wr64(b, MALI_GPU_PRFCNT_BASE_LO, dump_va);
	wr(b, MALI_GPU_PRFCNT_MMU_L2_EN, ~0u);
	wr(b, MALI_GPU_PRFCNT_CONFIG, MALI_PRFCNT_MODE_MANUAL | (AS << 4));
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_PRFCNT_CLEAR);
	ASSERT_TRUE(tjob_vecadd(&self->tj, groups));
	bi_compute_set_workers(self->bc, 4);
	vgpu_stats_get(b->gpu, &s0);
	submit_job(b, &self->tj);
	ASSERT_EQ(wait_slot(b, SLOT, 20), MALI_JOB_IRQ_DONE(SLOT));
	ASSERT_EQ(tjob_vecadd_check(&self->tj, groups), -1);
	vgpu_stats_get(b->gpu, &s1);
	d->bytes_read = s1.as[AS].bytes_read - s0.as[AS].bytes_read;
	d->bytes_written = s1.as[AS].bytes_written - s0.as[AS].bytes_written;
	d->bytes_fetched = s1.as[AS].bytes_fetched - s0.as[AS].bytes_fetched;
	wr(b, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_ALL);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_PRFCNT_SAMPLE);
	ASSERT_TRUE(wait_irq(b, VGPU_IRQ_GPU, 10));
	wr(b, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_ALL);
	/* the memory-system block follows the job manager's and the tiler's */
	blk = (const uint32_t *)area_ptr(b, &dump, dump_va) + 2 * 64;
	l2[0] = blk[26]; /* L2_READ_LOOKUP */
	l2[1] = blk[27]; /* L2_WRITE_LOOKUP */
}

/*
 * The workers' page caches count what they move: a job of 66 workgroups
 * moves 64 * 8 threads * (4 + 4 bytes read, 4 written) more than one of
 * 2 (descriptors, uniforms and the job header are the same), each access
 * one 64-byte L2 lookup. Instruction fetches are counted apart, as
 * workers racing on a new clause may each fetch it.
 */
TEST_F(gpu, traffic_counts_are_exact_across_workers)
{
	struct vgpu_as_stats small, big;
	uint32_t l2s[2], l2b[2];

	vecadd_traffic(_metadata, self, 2, &small, l2s);
	vecadd_traffic(_metadata, self, 66, &big, l2b);
	EXPECT_EQ(big.bytes_read - small.bytes_read, 64u * 8 * 8);
	EXPECT_EQ(big.bytes_written - small.bytes_written, 64u * 8 * 4);
	EXPECT_EQ(l2b[1] - l2s[1], 64u * 8);
	/* reads: at least the data's lookups (fetches vary) */
	EXPECT_GE(l2b[0], 66u * 8 * 2);
	EXPECT_GT(small.bytes_fetched, 0u);
}

TEST_F(gpu, unmapped_access_faults_the_job)
{
	ASSERT_TRUE(tjob_vecadd(&self->tj, 4));
	/* point the output at an unmapped page */
	tj64(&self->tj, TJ_PUSH + 16, 0x7000000ull);
	submit_job(&self->b, &self->tj);
	ASSERT_TRUE(wait_irq(&self->b, VGPU_IRQ_MMU, 20));
	as_disable(&self->b, AS);
	wr(&self->b, MALI_MMU_IRQ_CLEAR, ~0u);
	EXPECT_EQ(wait_slot(&self->b, SLOT, 20), MALI_JOB_IRQ_FAIL(SLOT));
	EXPECT_EQ(tjob_vecadd_check(&self->tj, 4), 0);
}

/*
 * Atomics contended across workgroups and host worker threads: every
 * thread of 256 workgroups adds 1 to one counter (no return), on 4
 * workers; the host-side atomics of the memory interface keep the sum.
 */
TEST_F(gpu, atomic_counter_across_workers)
{
	struct tjob *tj = &self->tj;
	struct asm_header h1 = { .flow = 3 };
	struct asm_header h2 = { .flow = 0, .staging_reg = 8, .msg = 7 };
	/* r8 = u0.w0 (= 1) */
	struct asm_tuple c1 = { TJ_NOP_F, bi_enc(false, "+MOV.i32", SRCS(4), NULL),
				asm_block(true, -1, -1, -1, -1, 8, 0x80) };
	/* counter (u1) += r8 */
	struct asm_tuple c2 = {
		bi_enc(true, "*ATOM_C.i32", SRCS(4, 5, 2), "atom_opc=aadd"),
		bi_enc_imm(false, "+ATOM_CX", SRCS(4, 5, 2), NULL, (uint32_t[]){ 2 }),
		asm_block(true, -1, -1, 8, -1, -1, 0x81),
	};
	uint32_t counter;

	ASSERT_NE(c2.fma, ~0u);
	ASSERT_NE(c2.add, ~0u);
	ASSERT_NE(c2.reg, ~0ull);
	tjob_write(tj, 3, 8, 256, 2, 0);
	tjob_emit(tj, &h1, &c1, 1);
	tjob_emit(tj, &h2, &c2, 1);
	tj64(tj, TJ_PUSH, 1);
	tj64(tj, TJ_PUSH + 8, tj->va + TJ_O);
	memset(tj->mem + TJ_O, 0, 4);
	bi_compute_set_workers(self->bc, 4);
	submit_job(&self->b, tj);
	ASSERT_EQ(wait_slot(&self->b, SLOT, 30), MALI_JOB_IRQ_DONE(SLOT));
	memcpy(&counter, tj->mem + TJ_O, 4);
	EXPECT_EQ(counter, 8u * 256);
}

/*
 * Thread-local storage (the stack compilers spill to): each thread stores
 * its global id at tl+4, reads it back in a later clause and writes it to
 * out[gid]. Threads sharing a stack would read each other's values.
 */
TEST_F(gpu, stack_spill_is_per_thread)
{
	struct tjob *tj = &self->tj;
	struct asm_header hs = { .flow = 3, .staging_reg = 60 };
	struct asm_header hl = { .flow = 3, .staging_reg = 9 };
	struct asm_header ho = { .flow = 0, .staging_reg = 9 };
	/* tl[u0.w0 = 4] = r60 */
	struct asm_tuple st = { TJ_NOP_F, bi_enc(false, "+STORE.i32", SRCS(4, 3), "seg=tl"),
				asm_block(true, -1, -1, -1, -1, -1, 0x80) };
	/* r9 = tl[4] */
	struct asm_tuple ld = { TJ_NOP_F, bi_enc(false, "+LOAD.i32", SRCS(4, 3), "seg=tl"),
				asm_block(true, -1, -1, -1, -1, -1, 0x80) };
	/* out[gid] = r9: address u1.w0 + (gid << 2) (u0.w1 = 2) */
	struct asm_tuple o[2] = {
		{ bi_enc(true, "*LSHIFT_OR.i32", SRCS(0, 3, 5), NULL), TJ_NOP_A,
		  asm_block(true, 60, -1, -1, -1, -1, 0x80) },
		{ TJ_NOP_F, bi_enc(false, "+IADD.s32", SRCS(6, 4), NULL),
		  asm_block(false, -1, -1, -1, -1, -1, 0x81) },
	};
	struct asm_tuple so = { TJ_NOP_F, bi_enc(false, "+STORE.i32", SRCS(7, 5), NULL),
				asm_block(true, -1, -1, -1, -1, -1, 0x81) };
	struct asm_tuple out[3] = { o[0], o[1], so };
	unsigned bad = 0;

	out[2].reg = asm_block(false, -1, -1, -1, -1, -1, 0x81);
	ASSERT_NE(st.add, ~0u);
	ASSERT_NE(ld.add, ~0u);
	tjob_write(tj, 3, 8, 16, 2, 0);
	tjob_emit(tj, &hs, &st, 1);
	tjob_emit(tj, &hl, &ld, 1);
	tjob_emit(tj, &ho, out, 3);
	tj64(tj, TJ_PUSH, (uint64_t)2 << 32 | 4);
	tj64(tj, TJ_PUSH + 8, tj->va + TJ_O);
	/* 32-byte stacks (16 << 1) at the WLS area */
	tj32(tj, TJ_LSD)[0] = 1;
	tj64(tj, TJ_LSD + 8, tj->va + TJ_WLS);
	memset(tj->mem + TJ_O, 0xff, 4 * 128);
	bi_compute_set_workers(self->bc, 2);
	submit_job(&self->b, tj);
	ASSERT_EQ(wait_slot(&self->b, SLOT, 30), MALI_JOB_IRQ_DONE(SLOT));
	for (unsigned g = 0; g < 128; g++)
		bad += tj32(tj, TJ_O + 4 * g)[0] != g;
	EXPECT_EQ(bad, 0u);
}

TEST_HARNESS_MAIN

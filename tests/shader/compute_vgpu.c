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

TEST_HARNESS_MAIN

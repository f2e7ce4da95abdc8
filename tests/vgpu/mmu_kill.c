// SPDX-License-Identifier: MIT
/*
 * How Linux's panfrost kills a job after an unhandled page fault: it
 * acknowledges the fault, disables the job's address space and masks that
 * space's MMU interrupts until it hands the space out again. Another
 * thread of the same job may fault between the acknowledgement and the
 * disable, and that fault is never acknowledged; disabling the space must
 * still end the stalled access, and an access through the disabled space
 * must fail rather than stall. Then the space, re-enabled, runs a job.
 */
#include <sched.h>

#include "harness.h"
#include "vgpu_test.h"

#define JOBS_VA 0x1000000ull
#define HOLE_VA 0x2005000ull	/* nothing maps it */
#define DATA_VA 0x3000000ull

static void kill_by_disable(struct __test_metadata *_metadata, enum pt_fmt fmt)
{
	struct board bb, *b = &bb;
	struct area j, d;
	uint32_t pf = MALI_MMU_IRQ_PAGE_FAULT(0);

	ASSERT_EQ(board_init(b, "g71", 0, fmt), 0);
	ASSERT_TRUE(reset_and_power_up(b));
	j = make_area(b, 0, JOBS_VA, 1, MAP_R | MAP_W);
	d = make_area(b, 0, DATA_VA, 1, MAP_R | MAP_W);
	wr(b, MALI_MMU_IRQ_MASK, ~0u);
	as_enable(b, 0);

	put_write_value(b, &j, JOBS_VA, 1, 0, 0, HOLE_VA, MALI_WRITE_VALUE_IMM32, 1);
	submit(b, 1, 0, JOBS_VA, 0);
	ASSERT_TRUE(poll_reg(b, MALI_MMU_IRQ_RAWSTAT, pf, pf));
	/* The fault stays pending (as one raised after panfrost's
	 * acknowledgement would), masked; the disable alone ends the job. */
	wr(b, MALI_MMU_IRQ_MASK, ~pf);
	as_disable(b, 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS) & 0xf8, MALI_EXC_TRANSLATION_FAULT(0));
	EXPECT_EQ(rd(b, MALI_MMU_IRQ_RAWSTAT), pf);

	/* A job through the still disabled space fails at once. */
	put_write_value(b, &j, JOBS_VA + 128, 1, 0, 0, DATA_VA, MALI_WRITE_VALUE_IMM32, 2);
	submit(b, 2, 0, JOBS_VA + 128, 0);
	ASSERT_EQ(wait_slot(b, 2, 10), MALI_JOB_IRQ_FAIL(2));
	EXPECT_EQ(rd(b, MALI_JS(2) + MALI_JS_STATUS), MALI_EXC_TRANSLATION_FAULT(0));

	/* panfrost hands the space out again: clear, unmask, enable. */
	wr(b, MALI_MMU_IRQ_CLEAR, pf);
	wr(b, MALI_MMU_IRQ_MASK, ~0u);
	as_enable(b, 0);
	put_write_value(b, &j, JOBS_VA + 256, 1, 0, 0, DATA_VA, MALI_WRITE_VALUE_IMM32,
			0x600d);
	submit(b, 1, 0, JOBS_VA + 256, 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	EXPECT_EQ(*(uint32_t *)pa_ptr(b, d.pa), 0x600du);
	EXPECT_EQ(rd(b, MALI_MMU_IRQ_RAWSTAT), 0u);
	board_fini(b);
}

TEST(disable_kills_a_job_with_its_fault_pending_lpae) { kill_by_disable(_metadata, FMT_LPAE); }
TEST(disable_kills_a_job_with_its_fault_pending_aarch64) { kill_by_disable(_metadata, FMT_A64); }

TEST_HARNESS_MAIN

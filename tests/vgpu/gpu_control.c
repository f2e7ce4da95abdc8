// SPDX-License-Identifier: MIT
/* GPU_CONTROL as drivers use it: identification, reset, power, IRQs,
 * caches, counters, statistics, performance counters. */
#include "harness.h"
#include "vgpu_test.h"

FIXTURE(g71) {
	struct board b;
};
FIXTURE_SETUP(g71)
{
	ASSERT_EQ(board_init(&self->b, "g71", 0, FMT_LPAE), 0);
}
FIXTURE_TEARDOWN(g71)
{
	board_fini(&self->b);
}

TEST_F(g71, identifies_as_mali_g71_mp8)
{
	struct board *b = &self->b;

	/* panfrost and Mesa match the product ID in GPU_ID[31:16]. */
	EXPECT_EQ(rd(b, MALI_GPU_ID) >> 16, 0x6000u);
	EXPECT_EQ(rd(b, MALI_GPU_SHADER_PRESENT_LO), 0xffu);
	EXPECT_EQ(rd(b, MALI_GPU_SHADER_PRESENT_HI), 0u);
	EXPECT_EQ(rd(b, MALI_GPU_L2_PRESENT_LO), 1u);
	EXPECT_EQ(rd(b, MALI_GPU_TILER_PRESENT_LO), 1u);
	EXPECT_EQ(rd(b, MALI_GPU_JS_PRESENT), 7u);
	EXPECT_EQ(rd(b, MALI_GPU_AS_PRESENT), 0xffu);
	EXPECT_EQ(rd(b, MALI_GPU_MMU_FEATURES) & 0xff, 48u);	/* VA bits */
	EXPECT_EQ(rd(b, MALI_GPU_JS_FEATURES(0)), 0x20eu);
	EXPECT_EQ(rd(b, MALI_GPU_JS_FEATURES(1)), 0x1feu);
	EXPECT_EQ(rd(b, MALI_GPU_JS_FEATURES(2)), 0x07eu);
	EXPECT_EQ(rd(b, MALI_GPU_JS_FEATURES(3)), 0u);
	EXPECT_EQ(rd(b, MALI_GPU_TILER_FEATURES), 0x809u);
	EXPECT_NE(rd(b, MALI_GPU_THREAD_MAX_THREADS), 0u);
	EXPECT_NE(rd(b, MALI_GPU_L2_FEATURES), 0u);
	EXPECT_NE(rd(b, MALI_GPU_TEXTURE_FEATURES(0)), 0u);
}

TEST(g52_with_core_count)
{
	struct board b;

	ASSERT_EQ(board_init(&b, "g52", 2, FMT_A64), 0);
	EXPECT_EQ(rd(&b, MALI_GPU_ID) >> 16, 0x7212u);
	EXPECT_EQ(rd(&b, MALI_GPU_SHADER_PRESENT_LO), 0x3u);
	EXPECT_EQ(rd(&b, MALI_GPU_STACK_PRESENT_LO), 0x3u);
	EXPECT_EQ(rd(&b, MALI_GPU_TILER_FEATURES), 0x209u);
	EXPECT_TRUE(reset_and_power_up(&b));
	EXPECT_EQ(rd(&b, MALI_GPU_SHADER_READY_LO), 0x3u);
	/* kbase may power the core stacks itself. */
	wr(&b, MALI_GPU_STACK_PWRON_LO, 0x3);
	EXPECT_EQ(rd(&b, MALI_GPU_STACK_READY_LO), 0x3u);
	EXPECT_EQ(rd(&b, MALI_GPU_STACK_PWRTRANS_LO), 0u);
	wr(&b, MALI_GPU_STACK_PWROFF_LO, 0x1);
	EXPECT_EQ(rd(&b, MALI_GPU_STACK_READY_LO), 0x2u);
	board_fini(&b);
}

TEST(config_names_and_limits)
{
	struct vgpu_config c;

	EXPECT_EQ(vgpu_config_init(&c, NULL, 0), 0);
	EXPECT_STREQ(c.name, "g71");
	EXPECT_EQ(vgpu_config_init(&c, "g52", 32), 0);
	EXPECT_EQ(c.shader_present, 0xffffffffull);
	EXPECT_EQ(vgpu_config_init(&c, "g52", 33), -1);
	EXPECT_EQ(vgpu_config_init(&c, "t860", 0), -1);
	EXPECT_STREQ(vgpu_config_names[0], "g71");
	EXPECT_STREQ(vgpu_config_names[1], "g52");
	EXPECT_NULL(vgpu_config_names[2]);
	c.shader_present = 0;
	EXPECT_NULL(vgpu_create(&c, NULL, NULL));
}

TEST_F(g71, reset_and_power_sequence)
{
	struct board *b = &self->b;

	/* Powered off and idle before anything happens. */
	EXPECT_EQ(rd(b, MALI_GPU_SHADER_READY_LO), 0u);
	EXPECT_EQ(rd(b, MALI_GPU_IRQ_RAWSTAT), 0u);
	/* kbase enables RESET_COMPLETED and waits for the interrupt. */
	wr(b, MALI_GPU_IRQ_MASK, MALI_GPU_IRQ_RESET_COMPLETED);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_SOFT_RESET);
	ASSERT_TRUE(wait_irq(b, VGPU_IRQ_GPU, 10));
	EXPECT_EQ(rd(b, MALI_GPU_IRQ_STATUS), MALI_GPU_IRQ_RESET_COMPLETED);
	wr(b, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_RESET_COMPLETED);
	EXPECT_FALSE(vgpu_irq_level(b->gpu, VGPU_IRQ_GPU));

	wr(b, MALI_GPU_IRQ_MASK, MALI_GPU_IRQ_POWER_CHANGED_ALL);
	wr(b, MALI_GPU_L2_PWRON_LO, 1);
	ASSERT_TRUE(wait_irq(b, VGPU_IRQ_GPU, 10));
	EXPECT_EQ(rd(b, MALI_GPU_L2_READY_LO), 1u);
	EXPECT_EQ(rd(b, MALI_GPU_L2_PWRTRANS_LO), 0u);
	wr(b, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_ALL);
	wr(b, MALI_GPU_SHADER_PWRON_LO, 0x0f);
	EXPECT_EQ(rd(b, MALI_GPU_SHADER_READY_LO), 0x0fu);
	EXPECT_TRUE(rd(b, MALI_GPU_IRQ_RAWSTAT) & MALI_GPU_IRQ_POWER_CHANGED);
	/* Only present cores power up. */
	wr(b, MALI_GPU_SHADER_PWRON_LO, 0xffff);
	EXPECT_EQ(rd(b, MALI_GPU_SHADER_READY_LO), 0xffu);
	wr(b, MALI_GPU_SHADER_PWROFF_LO, 0xf0);
	EXPECT_EQ(rd(b, MALI_GPU_SHADER_READY_LO), 0x0fu);
	wr(b, MALI_GPU_TILER_PWRON_LO, 1);
	EXPECT_EQ(rd(b, MALI_GPU_TILER_READY_LO), 1u);

	/* A second reset powers everything off again. */
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_HARD_RESET);
	EXPECT_EQ(rd(b, MALI_GPU_SHADER_READY_LO), 0u);
	EXPECT_EQ(rd(b, MALI_GPU_L2_READY_LO), 0u);
	EXPECT_TRUE(rd(b, MALI_GPU_IRQ_RAWSTAT) & MALI_GPU_IRQ_RESET_COMPLETED);
	EXPECT_TRUE(reset_and_power_up(b));
}

TEST_F(g71, irq_rawstat_mask_status_clear)
{
	struct board *b = &self->b;

	ASSERT_TRUE(reset_and_power_up(b));
	wr(b, MALI_GPU_IRQ_MASK, 0);
	wr(b, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_ALL);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_CLEAN_CACHES);
	EXPECT_EQ(rd(b, MALI_GPU_IRQ_RAWSTAT) & MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED,
		  MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	EXPECT_EQ(rd(b, MALI_GPU_IRQ_STATUS), 0u);
	EXPECT_FALSE(vgpu_irq_level(b->gpu, VGPU_IRQ_GPU));
	/* Unmasking a pending interrupt raises the line. */
	wr(b, MALI_GPU_IRQ_MASK, MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	EXPECT_EQ(rd(b, MALI_GPU_IRQ_STATUS), MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	EXPECT_TRUE(wait_irq(b, VGPU_IRQ_GPU, 10));
	wr(b, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	EXPECT_EQ(rd(b, MALI_GPU_IRQ_RAWSTAT) & MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED,
		  0u);
	EXPECT_FALSE(vgpu_irq_level(b->gpu, VGPU_IRQ_GPU));
	EXPECT_FALSE(b->level[VGPU_IRQ_GPU]);
	/* RAWSTAT is read-only. */
	wr(b, MALI_GPU_IRQ_RAWSTAT, ~0u);
	EXPECT_EQ(rd(b, MALI_GPU_IRQ_RAWSTAT), 0u);
}

TEST_F(g71, cache_clean_and_flush_id)
{
	struct board *b = &self->b;
	uint32_t id;

	ASSERT_TRUE(reset_and_power_up(b));
	id = rd(b, MALI_GPU_LATEST_FLUSH);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_CLEAN_INV_CACHES);
	ASSERT_TRUE(wait_irq(b, VGPU_IRQ_GPU, 10));
	EXPECT_EQ(rd(b, MALI_GPU_IRQ_STATUS), MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	EXPECT_EQ(rd(b, MALI_GPU_LATEST_FLUSH), id + 1);
}

/* TIMESTAMP is the system timer (host time); CYCLE_COUNT the GPU's
 * modelled clock, which moves only with work (tests/vgpu/jobs.c): an idle
 * GPU's stands still, started or not. */
TEST_F(g71, timestamp_advances_idle_cycle_counter_does_not)
{
	struct board *b = &self->b;
	struct timespec d = { 0, 2000000 };
	uint64_t t0, t1, c0;

	ASSERT_TRUE(reset_and_power_up(b));
	EXPECT_EQ(rd64(b, MALI_GPU_CYCLE_COUNT_LO), 0u);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_START);
	EXPECT_TRUE(rd(b, MALI_GPU_STATUS) & MALI_GPU_STATUS_CYCLE_COUNT_ACTIVE);
	t0 = rd64(b, MALI_GPU_TIMESTAMP_LO);
	c0 = rd64(b, MALI_GPU_CYCLE_COUNT_LO);
	nanosleep(&d, NULL);
	t1 = rd64(b, MALI_GPU_TIMESTAMP_LO);
	EXPECT_GT(t1, t0);
	EXPECT_EQ(rd64(b, MALI_GPU_CYCLE_COUNT_LO), c0);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_STOP);
	EXPECT_FALSE(rd(b, MALI_GPU_STATUS) & MALI_GPU_STATUS_CYCLE_COUNT_ACTIVE);
}

TEST_F(g71, absent_slot_and_address_space_read_zero)
{
	struct board *b = &self->b;

	ASSERT_TRUE(reset_and_power_up(b));
	/* JS3 and AS8 do not exist: writes vanish, reads give 0. */
	wr64(b, MALI_JS(3) + MALI_JS_HEAD_NEXT_LO, 0x1234000);
	wr(b, MALI_JS(3) + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_START);
	EXPECT_EQ(rd(b, MALI_JS(3) + MALI_JS_HEAD_NEXT_LO), 0u);
	EXPECT_EQ(rd(b, MALI_JS(3) + MALI_JS_STATUS), 0u);
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_JS_STATE), 0u);
	wr64(b, MALI_AS(8) + MALI_AS_TRANSTAB_LO, 0x5000);
	EXPECT_EQ(rd(b, MALI_AS(8) + MALI_AS_TRANSTAB_LO), 0u);
	wr(b, MALI_AS(8) + MALI_AS_COMMAND, MALI_AS_CMD_UPDATE);
	EXPECT_EQ(rd(b, MALI_MMU_IRQ_RAWSTAT), 0u);
	/* ...while present ones keep what is written. */
	wr64(b, MALI_JS(2) + MALI_JS_HEAD_NEXT_LO, 0x1234000);
	EXPECT_EQ(rd64(b, MALI_JS(2) + MALI_JS_HEAD_NEXT_LO), 0x1234000ull);
	wr64(b, MALI_AS(7) + MALI_AS_TRANSTAB_LO, 0xabcd000);
	EXPECT_EQ(rd64(b, MALI_AS(7) + MALI_AS_TRANSTAB_LO), 0xabcd000ull);
	/* Beyond the window and unaligned: ignored. */
	EXPECT_EQ(rd(b, 0x4000), 0u);
	EXPECT_EQ(rd(b, MALI_GPU_ID + 2), 0u);
}

TEST_F(g71, statistics_count_registers_and_irqs)
{
	struct board *b = &self->b;
	struct vgpu_stats st;

	vgpu_stats_reset(b->gpu);
	rd(b, MALI_GPU_ID);
	rd(b, MALI_GPU_ID);
	rd(b, MALI_JOB_IRQ_RAWSTAT);
	wr(b, MALI_GPU_IRQ_MASK, MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_CLEAN_CACHES);
	wr(b, MALI_AS(0) + MALI_AS_COMMAND, MALI_AS_CMD_NOP);
	vgpu_stats_get(b->gpu, &st);
	EXPECT_EQ(st.reg_reads[VGPU_BLOCK_GPU_CONTROL], 2u);
	EXPECT_EQ(st.reg_reads[VGPU_BLOCK_JOB_CONTROL], 1u);
	EXPECT_EQ(st.reg_writes[VGPU_BLOCK_GPU_CONTROL], 2u);
	EXPECT_EQ(st.reg_writes[VGPU_BLOCK_MMU], 1u);
	EXPECT_EQ(st.irqs[VGPU_IRQ_GPU], 1u);
	EXPECT_EQ(st.irqs[VGPU_IRQ_JOB], 0u);
	EXPECT_EQ(vgpu_stats_reg(b->gpu, MALI_GPU_ID, false), 2u);
	EXPECT_EQ(vgpu_stats_reg(b->gpu, MALI_GPU_COMMAND, true), 1u);
	EXPECT_EQ(vgpu_stats_reg(b->gpu, MALI_GPU_COMMAND, false), 0u);
	EXPECT_EQ(vgpu_block_of(MALI_AS(3)), VGPU_BLOCK_MMU);
	EXPECT_STREQ(vgpu_block_name(VGPU_BLOCK_JOB_CONTROL), "job_control");
	vgpu_stats_reset(b->gpu);
	EXPECT_EQ(vgpu_stats_reg(b->gpu, MALI_GPU_ID, false), 0u);
}

TEST_F(g71, perfcnt_sample_counts_jobs)
{
	struct board *b = &self->b;
	uint64_t dump_va = 0x200000, job_va = 0x100000;
	struct area dump, jobs;
	const uint32_t *d;

	ASSERT_TRUE(reset_and_power_up(b));
	dump = make_area(b, 0, dump_va, 4, MAP_R | MAP_W);
	jobs = make_area(b, 0, job_va, 1, MAP_R | MAP_W);
	as_enable(b, 0);
	/* panfrost's set-up: base, enables, manual mode in AS 0, clear. */
	wr64(b, MALI_GPU_PRFCNT_BASE_LO, dump_va);
	wr(b, MALI_GPU_PRFCNT_JM_EN, ~0u);
	wr(b, MALI_GPU_PRFCNT_SHADER_EN, ~0u);
	wr(b, MALI_GPU_PRFCNT_TILER_EN, ~0u);
	wr(b, MALI_GPU_PRFCNT_MMU_L2_EN, ~0u);
	wr(b, MALI_GPU_PRFCNT_CONFIG, MALI_PRFCNT_MODE_MANUAL | (0u << 4));
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_PRFCNT_CLEAR);

	put_job(b, &jobs, job_va, MALI_JOB_TYPE_NULL, 1, 0, 0, job_va + 128);
	put_job(b, &jobs, job_va + 128, MALI_JOB_TYPE_NULL, 2, 1, 0,
		job_va + 256);
	put_job(b, &jobs, job_va + 256, MALI_JOB_TYPE_NULL, 3, 2, 0, 0);
	put_job(b, &jobs, job_va + 384, MALI_JOB_TYPE_NULL, 0, 0, 0, 0);
	submit(b, 1, 0, job_va, 0);
	EXPECT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	ASSERT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_DONE);

	wr(b, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_ALL);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_PRFCNT_SAMPLE);
	ASSERT_TRUE(wait_irq(b, VGPU_IRQ_GPU, 10));
	EXPECT_EQ(rd(b, MALI_GPU_IRQ_STATUS), MALI_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED);
	d = area_ptr(b, &dump, dump_va);
	EXPECT_EQ(d[MALI_PRFCNT_HDR_ENABLE], ~0u);
	EXPECT_NE(d[MALI_PRFCNT_HDR_TIMESTAMP_LO] | d[MALI_PRFCNT_HDR_TIMESTAMP_HI], 0u);
	EXPECT_EQ(d[8 + 8 * 1], 3u);	/* JS1_JOBS */
	EXPECT_EQ(d[8 + 8 * 0], 0u);	/* JS0_JOBS */
	/* Memory-system block (after JM and tiler): MMU lookups and
	 * cache-line write transactions (the job headers) happened. */
	EXPECT_GT(d[2 * 64 + 4], 0u);
	EXPECT_GE(d[2 * 64 + 42], 3u);	/* L2_EXT_WRITE */
	EXPECT_EQ(d[2 * 64 + MALI_PRFCNT_HDR_ENABLE], ~0u);
	/* A second sample holds the delta: no jobs since. */
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_PRFCNT_SAMPLE);
	EXPECT_EQ(d[8 + 8 * 1], 0u);
	/* Disabled groups read as zero. */
	wr(b, MALI_GPU_PRFCNT_JM_EN, 0);
	submit(b, 1, 0, job_va + 384, 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_PRFCNT_SAMPLE);
	EXPECT_EQ(d[8 + 8 * 1], 0u);
	EXPECT_EQ(d[MALI_PRFCNT_HDR_ENABLE], 0u);
}

struct reentrant {
	struct vgpu *gpu;
	unsigned calls, raised;
};

/* An IRQ handler in the kernel's style: reads STATUS and clears it from
 * inside the callback. */
static void clear_in_callback(void *owner, enum vgpu_irq_line line, bool level)
{
	struct reentrant *r = owner;

	r->calls++;
	if (line != VGPU_IRQ_GPU || !level)
		return;
	r->raised++;
	vgpu_write32(r->gpu, MALI_GPU_IRQ_CLEAR,
		     vgpu_read32(r->gpu, MALI_GPU_IRQ_STATUS));
}

TEST(irq_callback_may_access_registers)
{
	struct reentrant r = { 0 };
	struct vgpu_config c;

	ASSERT_EQ(vgpu_config_init(&c, "g71", 0), 0);
	r.gpu = vgpu_create(&c, clear_in_callback, &r);
	ASSERT_NONNULL(r.gpu);
	vgpu_write32(r.gpu, MALI_GPU_IRQ_MASK, MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	for (int i = 0; i < 3; i++)
		vgpu_write32(r.gpu, MALI_GPU_COMMAND, MALI_GPU_CMD_CLEAN_CACHES);
	/* Raised and lowered three times, all on this thread. */
	EXPECT_EQ(r.raised, 3u);
	EXPECT_EQ(r.calls, 6u);
	EXPECT_FALSE(vgpu_irq_level(r.gpu, VGPU_IRQ_GPU));
	EXPECT_EQ(vgpu_read32(r.gpu, MALI_GPU_IRQ_RAWSTAT), 0u);
	vgpu_destroy(r.gpu);
}

TEST(bus_ranges)
{
	struct vgpu_config c;
	struct vgpu *gpu;
	static uint8_t mem[4 * 4096] __attribute__((aligned(4096)));

	ASSERT_EQ(vgpu_config_init(&c, "g71", 0), 0);
	gpu = vgpu_create(&c, NULL, NULL);
	ASSERT_NONNULL(gpu);
	EXPECT_EQ(vgpu_bus_add(gpu, 0x10000, 2 * 4096, mem), 0);
	EXPECT_EQ(vgpu_bus_add(gpu, 0x11000, 4096, mem), -1);	/* overlap */
	EXPECT_EQ(vgpu_bus_add(gpu, 0x0f000, 2 * 4096, mem), -1);
	EXPECT_EQ(vgpu_bus_add(gpu, 0x12001, 4096, mem), -1);	/* alignment */
	EXPECT_EQ(vgpu_bus_add(gpu, 0x12000, 4096, mem + 8192), 0);
	EXPECT_EQ(vgpu_bus_add(gpu, 0x0f000, 4096, mem + 12288), 0);
	EXPECT_EQ(vgpu_bus_remove(gpu, 0x11000), -1);	/* not a start */
	EXPECT_EQ(vgpu_bus_remove(gpu, 0x10000), 0);
	EXPECT_EQ(vgpu_bus_add(gpu, 0x11000, 4096, mem), 0);
	vgpu_destroy(gpu);
}

TEST_HARNESS_MAIN

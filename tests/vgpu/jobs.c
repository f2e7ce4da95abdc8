// SPDX-License-Identifier: MIT
/* Job chains through JOB_CONTROL: job types, dependencies, several slots,
 * the _NEXT registers, soft and hard stops, and the compute back end. */
#include "harness.h"
#include "vgpu_test.h"

#define JOBS_VA 0x1000000ull
#define DATA_VA 0x2000000ull

FIXTURE(chain) {
	struct board b;
	struct area jobs, data;
};
FIXTURE_SETUP(chain)
{
	struct board *b = &self->b;

	ASSERT_EQ(board_init(b, "g71", 0, FMT_LPAE), 0);
	ASSERT_TRUE(reset_and_power_up(b));
	self->jobs = make_area(b, 0, JOBS_VA, 16, MAP_R | MAP_W);
	self->data = make_area(b, 0, DATA_VA, 4, MAP_R | MAP_W);
	as_enable(b, 0);
}
FIXTURE_TEARDOWN(chain)
{
	board_fini(&self->b);
}

#define J(n) (JOBS_VA + (n) * 128ull)
#define D(off) (DATA_VA + (off))

static uint64_t data64(struct __fixture_chain *self, uint64_t off)
{
	uint64_t v;

	memcpy(&v, area_ptr(&self->b, &self->data, D(off)), 8);
	return v;
}

TEST_F(chain, write_value_every_type)
{
	struct board *b = &self->b;
	uint8_t *d = area_ptr(b, &self->data, DATA_VA);
	static const struct { unsigned type; uint64_t imm; } w[] = {
		{ MALI_WRITE_VALUE_IMM8, 0x1122334455667788ull },
		{ MALI_WRITE_VALUE_IMM16, 0x1122334455667788ull },
		{ MALI_WRITE_VALUE_IMM32, 0x1122334455667788ull },
		{ MALI_WRITE_VALUE_IMM64, 0x1122334455667788ull },
		{ MALI_WRITE_VALUE_ZERO, 0x1122334455667788ull },
		{ MALI_WRITE_VALUE_SYSTEM_TIMESTAMP, 0 },
		{ MALI_WRITE_VALUE_CYCLE_COUNTER, 0 },
	};
	unsigned n = sizeof(w) / sizeof(w[0]);

	memset(d, 0xee, 4096);
	for (unsigned i = 0; i < n; i++)
		put_write_value(b, &self->jobs, J(i), i + 1, 0,
				i + 1 < n ? J(i + 1) : 0, D(16 * i), w[i].type,
				w[i].imm);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_START);
	submit(b, 1, 0, J(0), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_DONE);
	/* Each write has its width; the rest of the slot keeps 0xee. */
	EXPECT_EQ(data64(self, 0), 0xeeeeeeeeeeeeee88ull);
	EXPECT_EQ(data64(self, 16), 0xeeeeeeeeeeee7788ull);
	EXPECT_EQ(data64(self, 32), 0xeeeeeeee55667788ull);
	EXPECT_EQ(data64(self, 48), 0x1122334455667788ull);
	EXPECT_EQ(data64(self, 64), 0u);
	EXPECT_NE(data64(self, 80), 0xeeeeeeeeeeeeeeeeull);
	EXPECT_NE(data64(self, 80), 0u);
	EXPECT_NE(data64(self, 96), 0xeeeeeeeeeeeeeeeeull);
	for (unsigned i = 0; i < n; i++) {
		struct job_hdr *h = job_at(b, &self->jobs, J(i));

		EXPECT_EQ(h->status, MALI_EXC_DONE);
		EXPECT_EQ(h->fault_ptr, 0u);
	}
}

TEST_F(chain, dependencies_order_execution)
{
	struct board *b = &self->b;

	/* Job 2 comes first in the list but depends on job 1, which writes
	 * the same word: honoured dependencies leave job 2's value. */
	put_write_value(b, &self->jobs, J(0), 2, 1, J(1), D(0),
			MALI_WRITE_VALUE_IMM32, 0xaaaa);
	put_write_value(b, &self->jobs, J(1), 1, 0, J(2), D(0),
			MALI_WRITE_VALUE_IMM32, 0xbbbb);
	/* Job 3 needs both, through dep1 and dep2. */
	put_job(b, &self->jobs, J(2), MALI_JOB_TYPE_NULL, 3, 1, 2, 0);
	submit(b, 1, 0, J(0), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	EXPECT_EQ(data64(self, 0) & 0xffffffff, 0xaaaau);
	EXPECT_EQ(job_at(b, &self->jobs, J(2))->status, MALI_EXC_DONE);
}

TEST_F(chain, unsatisfiable_dependency_faults)
{
	struct board *b = &self->b;

	put_job(b, &self->jobs, J(0), MALI_JOB_TYPE_NULL, 1, 0, 0, J(1));
	put_job(b, &self->jobs, J(1), MALI_JOB_TYPE_NULL, 2, 7, 0, 0);
	submit(b, 2, 0, J(0), 0);
	ASSERT_EQ(wait_slot(b, 2, 10), MALI_JOB_IRQ_FAIL(2));
	EXPECT_EQ(rd(b, MALI_JS(2) + MALI_JS_STATUS), MALI_EXC_JOB_CONFIG_FAULT);
	EXPECT_EQ(rd64(b, MALI_JS(2) + MALI_JS_TAIL_LO), J(1));
	EXPECT_EQ(job_at(b, &self->jobs, J(0))->status, MALI_EXC_DONE);
}

TEST_F(chain, three_slots_with_null_and_cache_flush)
{
	struct board *b = &self->b;
	uint32_t flush = rd(b, MALI_GPU_LATEST_FLUSH);
	struct vgpu_stats st;

	vgpu_stats_reset(b->gpu);
	for (unsigned s = 0; s < 3; s++) {
		unsigned j = s * 4;
		uint8_t *cf = area_ptr(b, &self->jobs, J(j + 1));

		put_job(b, &self->jobs, J(j), MALI_JOB_TYPE_NULL, 1, 0, 0,
			J(j + 1));
		put_job(b, &self->jobs, J(j + 1), MALI_JOB_TYPE_CACHE_FLUSH, 2,
			1, 0, J(j + 2));
		cf[36] = MALI_CACHE_FLUSH_L2_CLEAN | MALI_CACHE_FLUSH_L2_INVALIDATE;
		put_write_value(b, &self->jobs, J(j + 2), 3, 2, 0, D(8 * s),
				MALI_WRITE_VALUE_IMM64, 0x100 + s);
	}
	for (unsigned s = 0; s < 3; s++)
		submit(b, s, 0, J(s * 4), 0);
	for (unsigned s = 0; s < 3; s++) {
		EXPECT_EQ(wait_slot(b, s, 10), MALI_JOB_IRQ_DONE(s));
		EXPECT_EQ(data64(self, 8 * s), 0x100u + s);
		EXPECT_EQ(rd(b, MALI_JS(s) + MALI_JS_STATUS), MALI_EXC_DONE);
	}
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_RAWSTAT), 0u);
	EXPECT_FALSE(vgpu_irq_level(b->gpu, VGPU_IRQ_JOB));
	EXPECT_GT(rd(b, MALI_GPU_LATEST_FLUSH), flush);
	vgpu_stats_get(b->gpu, &st);
	EXPECT_EQ(st.jobs[MALI_JOB_TYPE_NULL], 3u);
	EXPECT_EQ(st.jobs[MALI_JOB_TYPE_CACHE_FLUSH], 3u);
	EXPECT_EQ(st.jobs[MALI_JOB_TYPE_WRITE_VALUE], 3u);
	EXPECT_EQ(st.chains, 3u);
	EXPECT_EQ(st.jobs_failed, 0u);
	EXPECT_GE(st.irqs[VGPU_IRQ_JOB], 1u);
	EXPECT_GE(st.as[0].pages_touched, 2u);
	EXPECT_LE(st.as[0].pages_touched, 3u);
}

/* A ring of three jobs: runs until stopped. */
static void put_ring(struct board *b, const struct area *a, unsigned first)
{
	put_job(b, a, J(first), MALI_JOB_TYPE_NULL, 0, 0, 0, J(first + 1));
	put_job(b, a, J(first + 1), MALI_JOB_TYPE_NULL, 0, 0, 0, J(first + 2));
	put_job(b, a, J(first + 2), MALI_JOB_TYPE_NULL, 0, 0, 0, J(first));
}

static bool in_ring(uint64_t va, unsigned first)
{
	return va == J(first) || va == J(first + 1) || va == J(first + 2);
}

TEST_F(chain, looping_chain_soft_stop_then_resume)
{
	struct board *b = &self->b;
	uint64_t tail;

	put_ring(b, &self->jobs, 0);
	submit(b, 1, 0, J(0), 0);
	/* The loop never ends by itself: the slot stays active. */
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_JS_STATE) & 2, 2u);
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_ACTIVE);
	wr(b, MALI_JS(1) + MALI_JS_COMMAND, MALI_JS_CMD_SOFT_STOP);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_STOPPED);
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_JS_STATE) & 2, 0u);
	tail = rd64(b, MALI_JS(1) + MALI_JS_TAIL_LO);
	EXPECT_TRUE(in_ring(tail, 0));
	EXPECT_EQ(rd64(b, MALI_JS(1) + MALI_JS_HEAD_LO), tail);
	/* Resume from TAIL, as kbase does, with the loop broken. */
	job_at(b, &self->jobs, J(2))->next = 0;
	job_at(b, &self->jobs, J(1))->next = J(2);
	submit(b, 1, 0, tail, 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_DONE);
}

TEST_F(chain, looping_chain_hard_stop)
{
	struct board *b = &self->b;

	put_ring(b, &self->jobs, 0);
	submit(b, 0, 0, J(0), 0);
	wr(b, MALI_JS(0) + MALI_JS_COMMAND, MALI_JS_CMD_HARD_STOP);
	ASSERT_EQ(wait_slot(b, 0, 10), MALI_JOB_IRQ_FAIL(0));
	EXPECT_EQ(rd(b, MALI_JS(0) + MALI_JS_STATUS), MALI_EXC_TERMINATED);
	EXPECT_TRUE(in_ring(rd64(b, MALI_JS(0) + MALI_JS_TAIL_LO), 0));
}

TEST_F(chain, stop_commands_follow_job_chain_flag)
{
	struct board *b = &self->b;

	put_ring(b, &self->jobs, 0);
	submit(b, 1, 0, J(0), MALI_JS_CONFIG_JOB_CHAIN_FLAG);
	/* HARD_STOP_0 is for chains with the flag clear: ignored here. */
	wr(b, MALI_JS(1) + MALI_JS_COMMAND, MALI_JS_CMD_HARD_STOP_0);
	wr(b, MALI_JS(1) + MALI_JS_COMMAND, MALI_JS_CMD_SOFT_STOP_1);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_STOPPED);
	submit(b, 1, 0, J(0), 0);
	wr(b, MALI_JS(1) + MALI_JS_COMMAND, MALI_JS_CMD_HARD_STOP_0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_TERMINATED);
}

TEST_F(chain, next_registers_queue_and_cancel)
{
	struct board *b = &self->b;

	put_ring(b, &self->jobs, 0);
	put_write_value(b, &self->jobs, J(4), 1, 0, 0, D(0),
			MALI_WRITE_VALUE_IMM32, 0x1234);
	put_write_value(b, &self->jobs, J(5), 1, 0, 0, D(8),
			MALI_WRITE_VALUE_IMM32, 0x5678);
	submit(b, 1, 0, J(0), 0);
	/* The current chain moved out of _NEXT... */
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_COMMAND_NEXT), 0u);
	EXPECT_EQ(rd64(b, MALI_JS(1) + MALI_JS_HEAD_NEXT_LO), 0u);
	EXPECT_TRUE(in_ring(rd64(b, MALI_JS(1) + MALI_JS_HEAD_LO), 0));
	/* ...so a second one can wait there, and be cancelled (kbase). */
	submit(b, 1, 0, J(5), 0);
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_COMMAND_NEXT), MALI_JS_CMD_START);
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_JS_STATE), (1u << 1) | (1u << 17));
	wr(b, MALI_JS(1) + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_NOP);
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_JS_STATE), 1u << 1);
	/* Queue a third: the loop's failure holds it until the driver
	 * acknowledges the FAIL interrupt, then it starts by itself. */
	submit(b, 1, 0, J(4), 0);
	wr(b, MALI_JS(1) + MALI_JS_COMMAND, MALI_JS_CMD_HARD_STOP);
	ASSERT_TRUE(wait_irq(b, VGPU_IRQ_JOB, 10));
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_RAWSTAT), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_TERMINATED);
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_JS_STATE), 1u << 17);
	EXPECT_EQ(rd64(b, MALI_JS(1) + MALI_JS_HEAD_NEXT_LO), J(4));
	EXPECT_EQ(data64(self, 0), 0u);
	wr(b, MALI_JOB_IRQ_CLEAR, MALI_JOB_IRQ_FAIL(1));
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_DONE);
	EXPECT_EQ(data64(self, 0) & 0xffffffff, 0x1234u);
	EXPECT_EQ(data64(self, 8), 0u);	/* the cancelled chain never ran */
}

/* kbase's and panfrost's order of events when a slot holds two chains:
 * the second is written to _NEXT while the first runs and starts without
 * the driver when the first ends; one DONE bit then stands for both, and
 * JS_STATE (nothing running, nothing queued) tells the driver so. */
TEST_F(chain, queued_chain_runs_when_the_running_one_ends)
{
	struct board *b = &self->b;
	struct vgpu_stats st;

	vgpu_stats_reset(b->gpu);
	put_ring(b, &self->jobs, 0);
	put_write_value(b, &self->jobs, J(3), 1, 0, 0, D(0),
			MALI_WRITE_VALUE_IMM32, 0xaaaa);
	put_write_value(b, &self->jobs, J(4), 1, 0, 0, D(8),
			MALI_WRITE_VALUE_IMM32, 0xbbbb);
	submit(b, 2, 0, J(0), 0);
	submit(b, 2, 0, J(4), MALI_JS_CONFIG_JOB_CHAIN_FLAG);
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_JS_STATE), (1u << 2) | (1u << 18));
	EXPECT_EQ(rd64(b, MALI_JS(2) + MALI_JS_HEAD_NEXT_LO), J(4));
	EXPECT_EQ(data64(self, 8), 0u);
	/* The loop ends through J(3); the queued chain follows. */
	__atomic_store_n(&job_at(b, &self->jobs, J(2))->next, J(3),
			 __ATOMIC_SEQ_CST);
	ASSERT_TRUE(wait_irq(b, VGPU_IRQ_JOB, 10));
	ASSERT_TRUE(poll_reg(b, MALI_JOB_IRQ_JS_STATE, ~0u, 0));
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_RAWSTAT), MALI_JOB_IRQ_DONE(2));
	EXPECT_EQ(rd(b, MALI_JS(2) + MALI_JS_STATUS), MALI_EXC_DONE);
	EXPECT_EQ(rd(b, MALI_JS(2) + MALI_JS_CONFIG) &
		  MALI_JS_CONFIG_JOB_CHAIN_FLAG, MALI_JS_CONFIG_JOB_CHAIN_FLAG);
	EXPECT_EQ(data64(self, 0) & 0xffffffff, 0xaaaau);
	EXPECT_EQ(data64(self, 8) & 0xffffffff, 0xbbbbu);
	wr(b, MALI_JOB_IRQ_CLEAR, MALI_JOB_IRQ_DONE(2));
	EXPECT_FALSE(vgpu_irq_level(b->gpu, VGPU_IRQ_JOB));
	vgpu_stats_get(b->gpu, &st);
	EXPECT_EQ(st.chains, 2u);
	EXPECT_EQ(st.jobs_failed, 0u);
}

/* After a failure the driver takes the queued chain back: NOP to
 * COMMAND_NEXT before the clear, and HEAD_NEXT shows it never started. */
TEST_F(chain, failed_chain_lets_the_driver_evict_the_queued_one)
{
	struct board *b = &self->b;

	put_ring(b, &self->jobs, 0);
	put_write_value(b, &self->jobs, J(4), 1, 0, 0, D(0),
			MALI_WRITE_VALUE_IMM32, 0x4444);
	submit(b, 0, 0, J(0), 0);
	submit(b, 0, 0, J(4), MALI_JS_CONFIG_JOB_CHAIN_FLAG);
	/* Stops name the chain by its flag: _1 would miss the loop. */
	wr(b, MALI_JS(0) + MALI_JS_COMMAND, MALI_JS_CMD_SOFT_STOP_1);
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_JS_STATE), 1u | (1u << 16));
	wr(b, MALI_JS(0) + MALI_JS_COMMAND, MALI_JS_CMD_SOFT_STOP_0);
	ASSERT_TRUE(wait_irq(b, VGPU_IRQ_JOB, 10));
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_RAWSTAT), MALI_JOB_IRQ_FAIL(0));
	EXPECT_EQ(rd(b, MALI_JS(0) + MALI_JS_STATUS), MALI_EXC_STOPPED);
	EXPECT_TRUE(in_ring(rd64(b, MALI_JS(0) + MALI_JS_TAIL_LO), 0));
	wr(b, MALI_JS(0) + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_NOP);
	EXPECT_EQ(rd64(b, MALI_JS(0) + MALI_JS_HEAD_NEXT_LO), J(4));
	wr(b, MALI_JOB_IRQ_CLEAR, MALI_JOB_IRQ_FAIL(0));
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_JS_STATE), 0u);
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_RAWSTAT), 0u);
	EXPECT_EQ(data64(self, 0), 0u);
	/* Resubmitted, it runs. */
	submit(b, 0, 0, J(4), 0);
	ASSERT_EQ(wait_slot(b, 0, 10), MALI_JOB_IRQ_DONE(0));
	EXPECT_EQ(data64(self, 0) & 0xffffffff, 0x4444u);
}

TEST_F(chain, malformed_jobs_fault_with_config_fault)
{
	struct board *b = &self->b;

	/* Not a 64-bit descriptor. */
	put_job(b, &self->jobs, J(0), MALI_JOB_TYPE_NULL, 1, 0, 0, 0);
	job_at(b, &self->jobs, J(0))->w4 &= ~MALI_JOB_IS_64B;
	submit(b, 1, 0, J(0), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_JOB_CONFIG_FAULT);
	EXPECT_EQ(job_at(b, &self->jobs, J(0))->status, MALI_EXC_JOB_CONFIG_FAULT);
	/* Unknown write-value type. */
	put_write_value(b, &self->jobs, J(1), 1, 0, 0, D(0), 9, 0);
	submit(b, 1, 0, J(1), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_JOB_CONFIG_FAULT);
	/* Job type 0 and an address space the GPU does not have. */
	put_job(b, &self->jobs, J(2), MALI_JOB_TYPE_NOT_STARTED, 1, 0, 0, 0);
	submit(b, 1, 0, J(2), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_JOB_CONFIG_FAULT);
	put_job(b, &self->jobs, J(3), MALI_JOB_TYPE_NULL, 1, 0, 0, 0);
	submit(b, 1, 9, J(3), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), MALI_EXC_JOB_CONFIG_FAULT);
	EXPECT_EQ(job_at(b, &self->jobs, J(3))->status, 0u);
}

TEST_F(chain, shader_jobs_fault_without_back_end)
{
	struct board *b = &self->b;
	static const unsigned types[] = {
		MALI_JOB_TYPE_COMPUTE, MALI_JOB_TYPE_VERTEX, MALI_JOB_TYPE_TILER,
		MALI_JOB_TYPE_FRAGMENT,
	};

	for (unsigned i = 0; i < 4; i++) {
		put_job(b, &self->jobs, J(i), types[i], 1, 0, 0, 0);
		submit(b, 1, 0, J(i), 0);
		ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_FAIL(1));
		EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS),
			  MALI_EXC_JOB_CONFIG_FAULT);
		EXPECT_EQ(job_at(b, &self->jobs, J(i))->status,
			  MALI_EXC_JOB_CONFIG_FAULT);
	}
}

struct fake_be {
	unsigned calls;
	struct vgpu_job_info seen;
	int as_ret;
};

/* A stand-in shader core: copies 16 bytes from data+0 to data+64. */
static uint32_t fake_run(void *priv, struct vgpu_job *job)
{
	struct fake_be *f = priv;
	uint8_t buf[16];
	uint32_t *p;

	f->calls++;
	f->seen = *vgpu_job_info(job);
	if (vgpu_as_read(vgpu_job_as(job), DATA_VA, buf, 16) ||
	    vgpu_as_write(vgpu_job_as(job), DATA_VA + 64, buf, 16)) {
		f->as_ret = -1;
		return MALI_EXC_DONE;	/* the MMU's code must win */
	}
	p = vgpu_as_map(vgpu_job_as(job), DATA_VA + 128, 4, VGPU_ACCESS_ATOMIC);
	if (p)
		__atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST);
	vgpu_job_event(job, VGPU_EV_THREADS, 0, 64);
	vgpu_job_event(job, VGPU_EV_INSTRUCTIONS, 1, 10);
	return MALI_EXC_DONE;
}

TEST_F(chain, compute_back_end_runs_through_the_mmu)
{
	struct board *b = &self->b;
	struct fake_be f = { 0 };
	struct vgpu_compute_backend be = { "fake", fake_run, &f };
	uint8_t *d = area_ptr(b, &self->data, DATA_VA);
	struct vgpu_stats st;

	vgpu_set_compute_backend(b->gpu, &be);
	/* Counters on, dumped to the data area's last page. */
	wr64(b, MALI_GPU_PRFCNT_BASE_LO, DATA_VA + 3 * PG);
	wr(b, MALI_GPU_PRFCNT_SHADER_EN, ~0u);
	wr(b, MALI_GPU_PRFCNT_CONFIG, MALI_PRFCNT_MODE_MANUAL);
	for (int i = 0; i < 16; i++)
		d[i] = (uint8_t)(i * 7);
	put_job(b, &self->jobs, J(0), MALI_JOB_TYPE_COMPUTE, 1, 0, 0, J(1));
	put_job(b, &self->jobs, J(1), MALI_JOB_TYPE_COMPUTE, 2, 1, 0, 0);
	submit(b, 2, 0, J(0), 0);
	ASSERT_EQ(wait_slot(b, 2, 10), MALI_JOB_IRQ_DONE(2));
	EXPECT_EQ(f.calls, 2u);
	EXPECT_EQ(f.seen.va, J(1));
	EXPECT_EQ(f.seen.type, (unsigned)MALI_JOB_TYPE_COMPUTE);
	EXPECT_EQ(f.seen.slot, 2u);
	EXPECT_EQ(f.seen.as_nr, 0u);
	EXPECT_MEMEQ(d + 64, d, 16);
	EXPECT_EQ(d[128], 2u);
	vgpu_stats_get(b->gpu, &st);
	EXPECT_EQ(st.shader_events[VGPU_EV_THREADS], 128u);
	EXPECT_EQ(st.jobs[MALI_JOB_TYPE_COMPUTE], 2u);
	/* Blocks: JM, tiler, L2, then shader cores 0, 1, ... */
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_PRFCNT_SAMPLE);
	{
		const uint32_t *pc = area_ptr(b, &self->data, DATA_VA + 3 * PG);

		EXPECT_EQ(pc[4 * 64 + 28], 20u);	/* core 1 EXEC_INSTR_COUNT */
		EXPECT_EQ(pc[3 * 64 + 28], 0u);
	}
	vgpu_set_compute_backend(b->gpu, NULL);
	submit(b, 2, 0, J(1), 0);
	ASSERT_EQ(wait_slot(b, 2, 10), MALI_JOB_IRQ_FAIL(2));
	EXPECT_EQ(f.calls, 2u);
}

/* A stand-in shader core that issued 24000 warp tuples. */
static uint32_t issue_run(void *priv, struct vgpu_job *job)
{
	(void)priv;
	vgpu_job_issue(job, 24000);
	return MALI_EXC_DONE;
}

static uint64_t cycles_of_chain(struct board *b, struct area *jobs, uint64_t cores)
{
	uint64_t c0 = rd64(b, MALI_GPU_CYCLE_COUNT_LO);

	put_job(b, jobs, J(0), MALI_JOB_TYPE_COMPUTE, 1, 0, 0, J(1));
	put_job(b, jobs, J(1), MALI_JOB_TYPE_NULL, 2, 1, 0, 0);
	wr64(b, MALI_JS(2) + MALI_JS_HEAD_NEXT_LO, J(0));
	wr64(b, MALI_JS(2) + MALI_JS_AFFINITY_NEXT_LO, cores);
	wr(b, MALI_JS(2) + MALI_JS_CONFIG_NEXT, MALI_JS_CONFIG_START_MMU);
	wr(b, MALI_JS(2) + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_START);
	if (wait_slot(b, 2, 10) != MALI_JOB_IRQ_DONE(2))
		return 0;
	return rd64(b, MALI_GPU_CYCLE_COUNT_LO) - c0;
}

/*
 * CYCLE_COUNT is the modelled clock: 100 cycles per job for the Job
 * Manager, and shader work at the part's peak issue rate (the G71: 3
 * warps per core per clock, over the 8 cores of the job's affinity).
 * Stopped, it holds its value whatever runs.
 */
TEST_F(chain, cycle_counter_counts_modelled_work)
{
	struct board *b = &self->b;
	struct vgpu_compute_backend be = { "issue", issue_run, NULL };

	vgpu_set_compute_backend(b->gpu, &be);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_START);
	/* two jobs (200) + 24000 / (3 x 8) */
	EXPECT_EQ(cycles_of_chain(b, &self->jobs, 0xff), 1200u);
	/* Half the cores take twice as long. */
	EXPECT_EQ(cycles_of_chain(b, &self->jobs, 0x0f), 2200u);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_STOP);
	EXPECT_EQ(cycles_of_chain(b, &self->jobs, 0xff), 0u);
	vgpu_set_compute_backend(b->gpu, NULL);
}

TEST_F(chain, reset_abandons_a_running_chain)
{
	struct board *b = &self->b;

	put_ring(b, &self->jobs, 0);
	submit(b, 1, 0, J(0), 0);
	wr(b, MALI_GPU_COMMAND, MALI_GPU_CMD_SOFT_RESET);
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_JS_STATE), 0u);
	EXPECT_EQ(rd(b, MALI_JS(1) + MALI_JS_STATUS), 0u);
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_MASK), 0u);
	/* The GPU works again after the usual bring-up. */
	ASSERT_TRUE(reset_and_power_up(b));
	as_enable(b, 0);
	put_write_value(b, &self->jobs, J(4), 1, 0, 0, D(0),
			MALI_WRITE_VALUE_IMM32, 0x77);
	submit(b, 1, 0, J(4), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	EXPECT_EQ(data64(self, 0), 0x77u);
	EXPECT_EQ(rd(b, MALI_JOB_IRQ_RAWSTAT), 0u);
}

TEST(g52_runs_a_chain_with_aarch64_tables)
{
	struct board bb, *b = &bb;
	struct area jobs, data;
	uint32_t v;

	ASSERT_EQ(board_init(b, "g52", 0, FMT_A64), 0);
	ASSERT_TRUE(reset_and_power_up(b));
	jobs = make_area(b, 3, JOBS_VA, 1, MAP_R | MAP_W);
	data = make_area(b, 3, DATA_VA, 1, MAP_R | MAP_W);
	as_enable(b, 3);
	put_write_value(b, &jobs, J(0), 1, 0, 0, D(4), MALI_WRITE_VALUE_IMM32,
			0xc0ffee);
	submit(b, 1, 3, J(0), 0);
	ASSERT_EQ(wait_slot(b, 1, 10), MALI_JOB_IRQ_DONE(1));
	memcpy(&v, area_ptr(b, &data, D(4)), 4);
	EXPECT_EQ(v, 0xc0ffeeu);
	board_fini(b);
}

TEST_HARNESS_MAIN

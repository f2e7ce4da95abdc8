// SPDX-License-Identifier: MIT
/*
 * A shader that never ends, on the in-process nodes with a short job
 * timeout: the watchdog soft-stops it (the model ends it at a clause
 * boundary, STOPPED; the driver resumes it from JS_TAIL), then hard-stops
 * it (TERMINATED). Only that job fails: the slot then runs the next one
 * normally. The loop has no memory access and no barrier, so only the
 * back end's clause-boundary checks can see the stops. (kbase shares the
 * watchdog: tests/node/kbase.c stops a looping job chain the same way.)
 * Then the watchdog's own clock, GPU time: under a 1 ms GPU-time limit
 * the looping shader and a long honest job are stopped, and the honest
 * job finishes under the default limit. Last, the same stops on the bare
 * model, through JS_COMMAND.
 */
#include <sys/mman.h>

#include "harness.h"
#include "node/devnode.h"
#include "fuse-dev/inproc.h"
#include "node/inproc_bo.h"
#include "shader/bi_job.h"
#include "shader/bi_progs.h"
#include "shader/compute.h"
#include "vgpu/vgpu_test.h"

FIXTURE(loop)
{
	struct vgpu_inproc *ip;
	struct vgpu_inproc_file *f;
	struct tjob tj;
};

FIXTURE_SETUP(loop)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71, .job_timeout_ms = 100 };

	self->ip = vgpu_inproc_create(&cfg);
	ASSERT_NONNULL(self->ip);
}

FIXTURE_TEARDOWN(loop)
{
	vgpu_inproc_close(self->f);
	vgpu_inproc_destroy(self->ip);
}

/* The vector add the slot runs afterwards, in the same memory. */
TEST_F_TIMEOUT(loop, panfrost_runaway_shader_is_terminated_then_the_slot_works, 60)
{
	char *json;
	size_t len;

	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &self->f), 0);
	self->tj.mem = pan_bo(self->f, TJ_SIZE, &self->tj.va);
	ASSERT_TRUE(self->tj.mem != MAP_FAILED);
	ASSERT_TRUE(tjob_forever(&self->tj));
	/* The out-fence signals once the watchdog gave up on the job. */
	ASSERT_EQ(pan_run(self->f, self->tj.va + TJ_JOB), 0);
	EXPECT_EQ(tj32(&self->tj, TJ_JOB)[0], (uint32_t)MALI_EXC_TERMINATED);
	/* The vector add the slot runs next, in the same memory. */
	ASSERT_TRUE(tjob_vecadd(&self->tj, 8));
	tj32(&self->tj, TJ_JOB + 16)[0] |= 1u << 16;
	ASSERT_EQ(pan_run(self->f, self->tj.va + TJ_JOB), 0);
	EXPECT_EQ(tj32(&self->tj, TJ_JOB)[0], (uint32_t)MALI_EXC_DONE);
	EXPECT_EQ(tjob_vecadd_check(&self->tj, 8), -1);
	len = vgpu_inproc_stats_json(self->ip, NULL, 0);
	json = calloc(1, len + 1);
	ASSERT_NONNULL(json);
	vgpu_inproc_stats_json(self->ip, json, len + 1);
	EXPECT_EQ(json_num(json, "jobs_failed"), 1);
	/* Stopped, not reset: the hard stop ended it. */
	EXPECT_EQ(json_num(json, "gpu_resets"), 0);
	free(json);
	munmap(self->tj.mem, TJ_SIZE);
}

/*
 * The watchdog's clock is the GPU's (CYCLE_COUNT, advanced by the work
 * modelled), its default limit the Linux driver's 500 ms; these nodes
 * set a GPU-time limit of 1 ms and leave the host-time ceiling at its
 * default (minutes), so only the GPU-time limit can stop a job in time.
 */
struct gnode {
	struct vgpu_inproc *ip;
	struct vgpu_inproc_file *f;
	struct tjob tj;  /* in a BO of @size bytes */
	uint32_t size;
};

static bool gnode_open(struct gnode *g, uint32_t gpu_ms, uint32_t size)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71, .job_gpu_timeout_ms = gpu_ms };

	g->size = size;
	g->f = NULL;
	g->tj.mem = MAP_FAILED;
	g->ip = vgpu_inproc_create(&cfg);
	if (!g->ip || vgpu_inproc_open(g->ip, "renderD128", &g->f))
		return false;
	g->tj.mem = pan_bo(g->f, size, &g->tj.va);
	return g->tj.mem != MAP_FAILED;
}

static void gnode_close(struct gnode *g)
{
	if (g->tj.mem != MAP_FAILED)
		munmap(g->tj.mem, g->size);
	if (g->f)
		vgpu_inproc_close(g->f);
	if (g->ip)
		vgpu_inproc_destroy(g->ip);
}

/* How long to wait for a job stopped by its GPU time: as long as the
 * test may run (@secs, its timeout, scaled as the harness scales it), so
 * the harness's timeout is the only hang guard. GPU time is the work
 * modelled, so its 1 ms takes as long as interpreting that work: minutes
 * of host time under ThreadSanitizer (tests/run.sh scales by 8 there). */
#define GPU_TIME_TEST_S 120
#define LONG_JOB_TEST_S 300
static int gpu_time_wait(int secs)
{
	return (int)(secs * th_timeout_scale());
}

/* Runs the vector add on @tj: its status, -2 if it did not run. */
static int vecadd_after(struct vgpu_inproc_file *f, struct tjob *tj)
{
	if (!tjob_vecadd(tj, 8))
		return -2;
	tj32(tj, TJ_JOB + 16)[0] |= 1u << 16;
	if (pan_run(f, tj->va + TJ_JOB) || tjob_vecadd_check(tj, 8) != -1)
		return -2;
	return (int)tj32(tj, TJ_JOB)[0];
}

TEST_TIMEOUT(runaway_shader_is_stopped_by_gpu_time, GPU_TIME_TEST_S)
{
	struct gnode g;

	ASSERT_TRUE(gnode_open(&g, 1, TJ_SIZE));
	ASSERT_TRUE(tjob_forever(&g.tj));
	ASSERT_EQ(pan_run_wait(g.f, g.tj.va + TJ_JOB, gpu_time_wait(GPU_TIME_TEST_S)), 0);
	/* soft-stopped, resumed, still over its time: hard-stopped */
	EXPECT_EQ(tj32(&g.tj, TJ_JOB)[0], (uint32_t)MALI_EXC_TERMINATED);
	EXPECT_EQ(vecadd_after(g.f, &g.tj), MALI_EXC_DONE);
	gnode_close(&g);
}

/*
 * An honest job that takes a while (tp_long_loop of bi_progs.h): under a
 * 1 ms GPU-time limit it is stopped (and the slot runs the next job);
 * under the default limit it finishes, right.
 */
TEST_TIMEOUT(long_honest_job_gpu_time_limit_vs_default, LONG_JOB_TEST_S)
{
	for (int dflt = 0; dflt < 2; dflt++) {
		struct gnode g;

		ASSERT_TRUE(gnode_open(&g, dflt ? 0 : 1, TP_LONG_BO));
		ASSERT_TRUE(tp_long_loop(&g.tj));
		ASSERT_EQ(pan_run_wait(g.f, g.tj.va + TJ_JOB, gpu_time_wait(LONG_JOB_TEST_S)), 0);
		if (dflt) {
			EXPECT_EQ(tj32(&g.tj, TJ_JOB)[0], (uint32_t)MALI_EXC_DONE);
			EXPECT_EQ(tp_long_loop_check(&g.tj), -1);
		} else {
			EXPECT_EQ(tj32(&g.tj, TJ_JOB)[0], (uint32_t)MALI_EXC_TERMINATED);
			EXPECT_EQ(vecadd_after(g.f, &g.tj), MALI_EXC_DONE);
		}
		gnode_close(&g);
	}
}

/*
 * The same shader on the bare model, stopped by hand through JS_COMMAND
 * once it is known to run (its first store landed): a soft stop ends it
 * at a clause boundary as STOPPED with JS_TAIL at the job (resumable), a
 * hard stop of the resumed chain as TERMINATED; the slot then runs a
 * vector add.
 */
#define BARE_VA 0x1000000ull
#define BARE_AS 1
#define BARE_SLOT 1

static bool wait_first_store(struct tjob *tj)
{
	/* A hang guard, not a measurement: the store comes first. */
	for (int i = 0; i < 20000; i++) {
		if (__atomic_load_n(tj32(tj, TJ_O), __ATOMIC_SEQ_CST))
			return true;
		usleep(1000);
	}
	return false;
}

TEST(bare_model_soft_stop_is_stopped_hard_stop_terminated)
{
	struct board b;
	struct area region;
	struct tjob tj;
	struct bi_compute *bc;

	ASSERT_EQ(board_init(&b, "g71", 0, FMT_LPAE), 0);
	ASSERT_TRUE(reset_and_power_up(&b));
	region = make_area(&b, BARE_AS, BARE_VA, TJ_SIZE / PG, MAP_R | MAP_W | MAP_X);
	as_enable(&b, BARE_AS);
	tj.mem = area_ptr(&b, &region, BARE_VA);
	tj.va = BARE_VA;
	bc = bi_compute_attach(b.gpu);
	ASSERT_NONNULL(bc);
	ASSERT_TRUE(tjob_forever(&tj));
	for (int round = 0; round < 2; round++) {
		memset(tj.mem + TJ_O, 0, 32);
		submit(&b, BARE_SLOT, BARE_AS, tj.va + TJ_JOB, 0);
		ASSERT_TRUE(wait_first_store(&tj));
		wr(&b, MALI_JS(BARE_SLOT) + MALI_JS_COMMAND,
		   round ? MALI_JS_CMD_HARD_STOP : MALI_JS_CMD_SOFT_STOP);
		ASSERT_EQ(wait_slot(&b, BARE_SLOT, 20), MALI_JOB_IRQ_FAIL(BARE_SLOT));
		EXPECT_EQ(rd(&b, MALI_JS(BARE_SLOT) + MALI_JS_STATUS),
			  round ? MALI_EXC_TERMINATED : MALI_EXC_STOPPED);
		EXPECT_EQ(rd64(&b, MALI_JS(BARE_SLOT) + MALI_JS_TAIL_LO), tj.va + TJ_JOB);
		EXPECT_EQ(tj32(&tj, TJ_JOB)[0],
			  (uint32_t)(round ? MALI_EXC_TERMINATED : MALI_EXC_STOPPED));
	}
	ASSERT_TRUE(tjob_vecadd(&tj, 8));
	tj32(&tj, TJ_JOB + 16)[0] |= 1u << 16;
	submit(&b, BARE_SLOT, BARE_AS, tj.va + TJ_JOB, 0);
	ASSERT_EQ(wait_slot(&b, BARE_SLOT, 20), MALI_JOB_IRQ_DONE(BARE_SLOT));
	EXPECT_EQ(tjob_vecadd_check(&tj, 8), -1);
	bi_compute_detach(b.gpu, bc);
	board_fini(&b);
}

TEST_HARNESS_MAIN

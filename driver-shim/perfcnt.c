// SPDX-License-Identifier: MIT
/*
 * What the hardware back end reads back from the GPU besides job results:
 * performance counter dumps, the timestamp and cycle counters. Registers
 * only, as in gpu.c.
 */
#include "driver-shim/gpu_priv.h"

/*
 * Performance counters, as Linux panfrost's perfcnt does it: the context's
 * address space is pinned while counters are on, PRFCNT_BASE points at a
 * buffer in it, and a dump is SAMPLE, wait for SAMPLE_COMPLETED, then
 * CLEAN_CACHES, wait for CLEAN_CACHES_COMPLETED.
 */
int shim_perfcnt_enable(struct shim_dev *dev, struct shim_ctx *ctx,
			   uint64_t gpu_va, struct shim_acct *a)
{
	struct shim_gpu *gpu = dev->gpu;

	if (!gpu)
		return -SHIM_ENODEV;
	if (!mmu_as_get(gpu, ctx, a))
		return -SHIM_EBUSY;
	ctx->as_pinned = true;
	gpu_write64(gpu, a, MALI_GPU_PRFCNT_BASE_LO, gpu_va);
	gpu_write(gpu, a, MALI_GPU_PRFCNT_JM_EN, ~0u);
	gpu_write(gpu, a, MALI_GPU_PRFCNT_SHADER_EN, ~0u);
	gpu_write(gpu, a, MALI_GPU_PRFCNT_TILER_EN, ~0u);
	gpu_write(gpu, a, MALI_GPU_PRFCNT_MMU_L2_EN, ~0u);
	gpu_write(gpu, a, MALI_GPU_PRFCNT_CONFIG,
	   MALI_PRFCNT_MODE_MANUAL | ((uint32_t)ctx->as_nr << 4));
	gpu_write(gpu, a, MALI_GPU_COMMAND, MALI_GPU_CMD_PRFCNT_CLEAR);
	return 0;
}

void shim_perfcnt_disable(struct shim_dev *dev, struct shim_ctx *ctx,
			     struct shim_acct *a)
{
	if (!dev->gpu)
		return;
	gpu_write(dev->gpu, a, MALI_GPU_PRFCNT_CONFIG, MALI_PRFCNT_MODE_OFF);
	ctx->as_pinned = false;
}

static int perfcnt_command_wait(struct shim_gpu *gpu, struct shim_acct *a,
			    uint32_t cmd, uint32_t done)
{
	gpu_write(gpu, a, MALI_GPU_IRQ_CLEAR, done);
	gpu_write(gpu, a, MALI_GPU_COMMAND, cmd);
	if (!gpu_poll_reg(gpu, a, MALI_GPU_IRQ_RAWSTAT, done, done))
		return -SHIM_EIO;
	gpu_write(gpu, a, MALI_GPU_IRQ_CLEAR, done);
	return 0;
}

int shim_perfcnt_sample(struct shim_dev *dev, struct shim_acct *a)
{
	struct shim_gpu *gpu = dev->gpu;

	if (!gpu)
		return -SHIM_ENODEV;
	if (perfcnt_command_wait(gpu, a, MALI_GPU_CMD_PRFCNT_SAMPLE,
			     MALI_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED) ||
	    perfcnt_command_wait(gpu, a, MALI_GPU_CMD_CLEAN_CACHES,
			     MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED))
		return -SHIM_EIO;
	return 0;
}

/*
 * The cycle counter counts only between CYCLE_COUNT_START and _STOP; on
 * some Malis the TIMESTAMP register needs it running too. Holders: jobs
 * submitted with the cycle-count requirement and timestamp reads, as
 * Linux panfrost's refcounted cycle_counter_get/put. dev->lock held.
 */
void perfcnt_cycle_get(struct shim_gpu *gpu, struct shim_acct *a)
{
	if (!gpu->cycle_users++)
		gpu_write(gpu, a, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_START);
}

void perfcnt_cycle_put(struct shim_gpu *gpu, struct shim_acct *a)
{
	if (gpu->cycle_users && !--gpu->cycle_users)
		gpu_write(gpu, a, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_STOP);
}

/* A GPU reset stops the counter: start it again for its holders. */
void perfcnt_cycle_restore(struct shim_gpu *gpu, struct shim_acct *a)
{
	if (gpu->cycle_users)
		gpu_write(gpu, a, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_START);
}

/* A 64-bit counter read as two halves: re-read until the high half did
 * not move in between, so a carry out of the low half is never torn. */
uint64_t perfcnt_read64(struct shim_gpu *gpu, uint32_t off)
{
	uint32_t hi, lo;

	do {
		hi = gpu_read(gpu, NULL, off + 4);
		lo = gpu_read(gpu, NULL, off);
	} while (hi != gpu_read(gpu, NULL, off + 4));
	return (uint64_t)hi << 32 | lo;
}

uint64_t shim_perfcnt_timestamp(struct shim_dev *dev)
{
	uint64_t t;

	if (!dev->gpu)
		return os_time_ns();
	perfcnt_cycle_get(dev->gpu, NULL);
	t = perfcnt_read64(dev->gpu, MALI_GPU_TIMESTAMP_LO);
	perfcnt_cycle_put(dev->gpu, NULL);
	return t;
}

uint64_t shim_perfcnt_timestamp_hz(struct shim_dev *dev)
{
	return dev->port.timestamp_hz;
}

uint64_t shim_perfcnt_cycles(struct shim_dev *dev)
{
	if (!dev->gpu)
		return os_time_ns();
	return perfcnt_read64(dev->gpu, MALI_GPU_CYCLE_COUNT_LO);
}

// SPDX-License-Identifier: MIT
/*
 * What the hardware back end reads back from the GPU besides job results:
 * performance counter dumps, the timestamp and cycle counters. Registers
 * only, as in hw.c.
 */
#include "driver-shim/hw_priv.h"

/*
 * Performance counters, as Linux panfrost's perfcnt does it: the context's
 * address space is pinned while counters are on, PRFCNT_BASE points at a
 * buffer in it, and a dump is SAMPLE, wait for SAMPLE_COMPLETED, then
 * CLEAN_CACHES, wait for CLEAN_CACHES_COMPLETED.
 */
int shim_hw_perfcnt_enable(struct shim_dev *dev, struct shim_ctx *ctx,
			   uint64_t gpu_va, struct shim_acct *a)
{
	struct shim_hw *hw = dev->hw;

	if (!hw)
		return -SHIM_ENODEV;
	if (!hw_as_get(hw, ctx, a))
		return -SHIM_EBUSY;
	ctx->as_pinned = true;
	wr64(hw, a, MALI_GPU_PRFCNT_BASE_LO, gpu_va);
	wr(hw, a, MALI_GPU_PRFCNT_JM_EN, ~0u);
	wr(hw, a, MALI_GPU_PRFCNT_SHADER_EN, ~0u);
	wr(hw, a, MALI_GPU_PRFCNT_TILER_EN, ~0u);
	wr(hw, a, MALI_GPU_PRFCNT_MMU_L2_EN, ~0u);
	wr(hw, a, MALI_GPU_PRFCNT_CONFIG,
	   MALI_PRFCNT_MODE_MANUAL | ((uint32_t)ctx->as_nr << 4));
	wr(hw, a, MALI_GPU_COMMAND, MALI_GPU_CMD_PRFCNT_CLEAR);
	return 0;
}

void shim_hw_perfcnt_disable(struct shim_dev *dev, struct shim_ctx *ctx,
			     struct shim_acct *a)
{
	if (!dev->hw)
		return;
	wr(dev->hw, a, MALI_GPU_PRFCNT_CONFIG, MALI_PRFCNT_MODE_OFF);
	ctx->as_pinned = false;
}

static int gpu_command_wait(struct shim_hw *hw, struct shim_acct *a,
			    uint32_t cmd, uint32_t done)
{
	wr(hw, a, MALI_GPU_IRQ_CLEAR, done);
	wr(hw, a, MALI_GPU_COMMAND, cmd);
	if (!hw_poll_reg(hw, a, MALI_GPU_IRQ_RAWSTAT, done, done))
		return -SHIM_EIO;
	wr(hw, a, MALI_GPU_IRQ_CLEAR, done);
	return 0;
}

int shim_hw_perfcnt_sample(struct shim_dev *dev, struct shim_acct *a)
{
	struct shim_hw *hw = dev->hw;

	if (!hw)
		return -SHIM_ENODEV;
	if (gpu_command_wait(hw, a, MALI_GPU_CMD_PRFCNT_SAMPLE,
			     MALI_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED) ||
	    gpu_command_wait(hw, a, MALI_GPU_CMD_CLEAN_CACHES,
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
void hw_cycle_counter_get(struct shim_hw *hw, struct shim_acct *a)
{
	if (!hw->cycle_users++)
		wr(hw, a, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_START);
}

void hw_cycle_counter_put(struct shim_hw *hw, struct shim_acct *a)
{
	if (hw->cycle_users && !--hw->cycle_users)
		wr(hw, a, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_STOP);
}

/* A GPU reset stops the counter: start it again for its holders. */
void hw_cycle_counter_restore(struct shim_hw *hw, struct shim_acct *a)
{
	if (hw->cycle_users)
		wr(hw, a, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_START);
}

/* A 64-bit counter read as two halves: re-read until the high half did
 * not move in between, so a carry out of the low half is never torn. */
uint64_t hw_rd64_counter(struct shim_hw *hw, uint32_t off)
{
	uint32_t hi, lo;

	do {
		hi = rd(hw, NULL, off + 4);
		lo = rd(hw, NULL, off);
	} while (hi != rd(hw, NULL, off + 4));
	return (uint64_t)hi << 32 | lo;
}

uint64_t shim_hw_timestamp(struct shim_dev *dev)
{
	uint64_t t;

	if (!dev->hw)
		return os_time_ns();
	hw_cycle_counter_get(dev->hw, NULL);
	t = hw_rd64_counter(dev->hw, MALI_GPU_TIMESTAMP_LO);
	hw_cycle_counter_put(dev->hw, NULL);
	return t;
}

uint64_t shim_hw_timestamp_hz(struct shim_dev *dev)
{
	return dev->port.timestamp_hz;
}

uint64_t shim_hw_cycles(struct shim_dev *dev)
{
	if (!dev->hw)
		return os_time_ns();
	return hw_rd64_counter(dev->hw, MALI_GPU_CYCLE_COUNT_LO);
}

uint64_t shim_hw_queued_next(struct shim_dev *dev)
{
	return dev->hw ? dev->hw->st_queued_next : 0;
}

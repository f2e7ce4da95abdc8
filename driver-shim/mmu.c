// SPDX-License-Identifier: MIT
/*
 * The MMU block, as Linux panfrost's panfrost_mmu.c drives it: each
 * context's backing window is registered on the GPU bus; address spaces
 * are handed to contexts on demand (LRU among idle ones) and programmed
 * with TRANSTAB/MEMATTR/TRANSCFG + UPDATE; page-table edits are followed
 * by LOCK + FLUSH_MEM. A fault in growable memory is resolved by backing
 * more pages; any other disables the address space, so the stalled access
 * is abandoned and the job fails with the fault's code.
 */
#include "driver-shim/gpu_priv.h"

static void mmu_as_cmd(struct shim_gpu *gpu, struct shim_acct *a, int as, uint32_t cmd)
{
	gpu_poll_reg(gpu, a, MALI_AS(as) + MALI_AS_STATUS, MALI_AS_STATUS_ACTIVE, 0);
	gpu_write(gpu, a, MALI_AS(as) + MALI_AS_COMMAND, cmd);
	gpu_poll_reg(gpu, a, MALI_AS(as) + MALI_AS_STATUS, MALI_AS_STATUS_ACTIVE, 0);
}

static void mmu_as_program(struct shim_gpu *gpu, struct shim_acct *a, int as,
		       struct shim_ctx *ctx)
{
	uint32_t base = MALI_AS(as);

	if (!ctx) {
		/* Unmapped: outstanding accesses are abandoned. */
		gpu_write64(gpu, a, base + MALI_AS_TRANSTAB_LO, 0);
		gpu_write64(gpu, a, base + MALI_AS_TRANSCFG_LO, MALI_TRANSCFG_ADRMODE_UNMAPPED);
	} else if (ctx->kbase) {
		gpu_write64(gpu, a, base + MALI_AS_TRANSTAB_LO, ctx->pgd);
		gpu_write64(gpu, a, base + MALI_AS_MEMATTR_LO, 0x88888888ull);
		gpu_write64(gpu, a, base + MALI_AS_TRANSCFG_LO,
		     MALI_TRANSCFG_ADRMODE_AARCH64_4K |
		     ((55u - 48u) << MALI_TRANSCFG_INA_BITS_SHIFT));
	} else {
		/* Linux 6.1 panfrost: legacy mode, TRANSCFG left at 0. */
		gpu_write64(gpu, a, base + MALI_AS_TRANSCFG_LO, MALI_TRANSCFG_ADRMODE_LEGACY);
		gpu_write64(gpu, a, base + MALI_AS_TRANSTAB_LO,
		     ctx->pgd | MALI_TRANSTAB_ADRMODE_TABLE | MALI_TRANSTAB_READ_INNER);
		gpu_write64(gpu, a, base + MALI_AS_MEMATTR_LO, 0x88888888ull);
	}
	mmu_as_cmd(gpu, a, as, MALI_AS_CMD_UPDATE);
}

/* Gives @ctx an address space; false when all are busy. */
bool mmu_as_get(struct shim_gpu *gpu, struct shim_ctx *ctx, struct shim_acct *a)
{
	int victim = -1;

	if (ctx->as_nr >= 0) {
		/* After a terminal fault the space stays disabled, and
		 * reserved, until no job of the context runs on it. */
		if (ctx->as_faulted) {
			if (job_as_busy(gpu, ctx->as_nr))
				return false;
			mmu_as_program(gpu, a, ctx->as_nr, ctx);
			ctx->as_faulted = false;
		}
		gpu->as_lru[ctx->as_nr] = ++gpu->lru_clock;
		return true;
	}
	for (int i = 0; i < MMU_AS; i++) {
		if (!(gpu->dev->regs.as_present & (1u << i)) || job_as_busy(gpu, i) ||
		    (gpu->as_owner[i] && gpu->as_owner[i]->as_pinned))
			continue;
		if (!gpu->as_owner[i]) {
			victim = i;
			break;
		}
		if (victim < 0 || gpu->as_lru[i] < gpu->as_lru[victim])
			victim = i;
	}
	if (victim < 0)
		return false;
	if (gpu->as_owner[victim]) {
		gpu->as_owner[victim]->as_nr = -1;
		gpu->as_owner[victim]->as_faulted = false;
	}
	gpu->as_owner[victim] = ctx;
	ctx->as_nr = victim;
	gpu->as_lru[victim] = ++gpu->lru_clock;
	mmu_as_program(gpu, a, victim, ctx);
	return true;
}

void shim_mmu_flush_as(struct shim_dev *dev, struct shim_ctx *ctx,
		      struct shim_acct *a)
{
	struct shim_gpu *gpu = dev->gpu;

	if (!gpu || ctx->as_nr < 0 || ctx->as_faulted)
		return;
	/* Lock the whole 48-bit space, then flush: width 47 -> 2^48 bytes. */
	gpu_write64(gpu, a, MALI_AS(ctx->as_nr) + MALI_AS_LOCKADDR_LO, 47);
	mmu_as_cmd(gpu, a, ctx->as_nr, MALI_AS_CMD_LOCK);
	mmu_as_cmd(gpu, a, ctx->as_nr, MALI_AS_CMD_FLUSH_MEM);
}

/* The MMU line's thread: page faults in growable memory are resolved,
 * others are terminal for the job. */
void mmu_irq_thread(struct shim_gpu *gpu, struct shim_acct *a)
{
	uint32_t st = gpu_read(gpu, a, MALI_MMU_IRQ_STATUS);

	if (!st)
		return;
	a->irqs++;
	for (int as = 0; as < MMU_AS; as++) {
		uint32_t bits = MALI_MMU_IRQ_PAGE_FAULT(as) | MALI_MMU_IRQ_BUS_FAULT(as);
		struct shim_ctx *ctx = gpu->as_owner[as];
		uint32_t fs;
		uint64_t fa;

		if (!(st & bits))
			continue;
		fs = gpu_read(gpu, a, MALI_AS(as) + MALI_AS_FAULTSTATUS);
		fa = gpu_read64(gpu, a, MALI_AS(as) + MALI_AS_FAULTADDRESS_LO);
		/* A translation fault in growable memory is resolved by
		 * backing more pages; clearing the interrupt and issuing an
		 * MMU command then replays the stalled access. */
		if (ctx && ctx->grow && (st & MALI_MMU_IRQ_PAGE_FAULT(as)) &&
		    (MALI_AS_FAULT_EXC(fs) & 0xf8) == 0xc0 &&
		    !ctx->grow(ctx, fa, a)) {
			ctx->st_grows++;
			gpu_write(gpu, a, MALI_MMU_IRQ_CLEAR, st & bits);
			mmu_as_cmd(gpu, a, as, MALI_AS_CMD_FLUSH_PT);
			continue;
		}
		a->faults++;
		gpu->dev->st_mmu_faults++;
		if (ctx)
			ctx->st_faults++;
		os_info("mmu", "MMU fault AS%d ctx %d: status 0x%x (%s) at 0x%llx", as,
			ctx ? ctx->id : -1, fs,
			MALI_AS_FAULT_ACCESS(fs) == MALI_AS_FAULT_ACCESS_WRITE ? "write" :
			MALI_AS_FAULT_ACCESS(fs) == MALI_AS_FAULT_ACCESS_EXECUTE ? "exec" :
			"read", (unsigned long long)fa);
		/* Terminal: disabling the space abandons the stalled access
		 * (the job then fails with the fault's code). The space stays
		 * the context's, disabled, until that job is off the GPU:
		 * handing it to another context earlier would let the
		 * failing job touch that context's memory. */
		mmu_as_program(gpu, a, as, NULL);
		gpu_write(gpu, a, MALI_MMU_IRQ_CLEAR, st & bits);
		if (ctx)
			ctx->as_faulted = true;
	}
}

int shim_mmu_ctx_attach(struct shim_dev *dev, struct shim_ctx *ctx)
{
	if (!dev->gpu)
		return 0;
	return dev->port.bus_add(dev->port.priv, ctx->pa_base, ctx->backing.size,
				 ctx->backing.host) ? -SHIM_ENOMEM : 0;
}

void shim_mmu_ctx_detach(struct shim_dev *dev, struct shim_ctx *ctx)
{
	if (dev->gpu && ctx->backing.host)
		dev->port.bus_remove(dev->port.priv, ctx->pa_base);
}

void mmu_as_release(struct shim_gpu *gpu, struct shim_ctx *ctx)
{
	if (ctx->as_nr < 0)
		return;
	mmu_as_program(gpu, NULL, ctx->as_nr, NULL);
	gpu->as_owner[ctx->as_nr] = NULL;
	ctx->as_nr = -1;
	ctx->as_faulted = false;
}

void mmu_reset(struct shim_gpu *gpu)
{
	for (int as = 0; as < MMU_AS; as++) {
		if (gpu->as_owner[as]) {
			gpu->as_owner[as]->as_nr = -1;
			gpu->as_owner[as]->as_faulted = false;
		}
		gpu->as_owner[as] = NULL;
	}
}

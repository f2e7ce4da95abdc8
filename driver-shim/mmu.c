// SPDX-License-Identifier: MIT
/*
 * The MMU block, as Linux panfrost's panfrost_mmu.c drives it: each
 * context's backing window is registered on the GPU bus; address spaces
 * are handed to contexts on demand (LRU among idle ones) and programmed
 * with TRANSTAB/MEMATTR/TRANSCFG + UPDATE; the page tables (below) are the
 * driver's, and their edits are followed by LOCK + FLUSH_MEM. A fault in growable memory is resolved by backing
 * more pages; any other disables the address space, so the stalled access
 * is abandoned and the job fails with the fault's code.
 */
#include "driver-shim/gpu_priv.h"

#define PTE_VALID 1ull
#define PTE_TABLE 3ull
#define PTE_ADDR_MASK 0x0000fffffffff000ull
/* AArch64 format (kbase): attribute index, access, shareability, AF, XN. */
#define A64_ATE_L3 3ull
#define A64_MEMATTR_IDX(i) ((uint64_t)(i) << 2)
#define A64_ACCESS_RW (1ull << 6)
#define A64_ACCESS_RO (3ull << 6)
#define A64_SHARE_INNER (3ull << 8)
#define A64_AF (1ull << 10)
#define A64_NX (1ull << 54)
/* Mali LPAE (panfrost): L3 entries use the block type; stage-2 style
 * read/write permission bits; XN is two bits. */
#define LPAE_ATE_L3 1ull
#define LPAE_READ (1ull << 6)
#define LPAE_WRITE (1ull << 7)
#define LPAE_AF (1ull << 10)
#define LPAE_XN (3ull << 53)

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
			uint32_t stale = MALI_MMU_IRQ_PAGE_FAULT(ctx->as_nr) |
					 MALI_MMU_IRQ_BUS_FAULT(ctx->as_nr);

			if (job_as_busy(gpu, ctx->as_nr))
				return false;
			/* A fault still pending here is the failed job's own
			 * (its descriptor write-back into the disabled space):
			 * left for the MMU thread, it would disable the space
			 * again under the next job. */
			stale &= gpu_read(gpu, a, MALI_MMU_IRQ_RAWSTAT);
			if (stale)
				gpu_write(gpu, a, MALI_MMU_IRQ_CLEAR, stale);
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

/* A terminal fault in space @as, with the job it stopped, into the log. */
static void mmu_fault_log(struct shim_gpu *gpu, int as, const struct shim_ctx *ctx,
			  uint32_t fs, uint64_t fa, struct shim_acct *a)
{
	struct shim_fault f = {
		.kind = SHIM_FAULT_MMU, .ctx = ctx ? ctx->id : -1, .as = as,
		.status = fs, .address = fa,
		.extra = gpu_read64(gpu, a, MALI_AS(as) + MALI_AS_FAULTEXTRA_LO),
	};

	job_fault_where(gpu, as, &f, a);
	shim_fault_record(gpu->dev, &f);
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
		/* The space is already disabled for a fault: this is the
		 * failing job's trailing access, not a new fault. */
		if (ctx && ctx->as_faulted) {
			gpu_write(gpu, a, MALI_MMU_IRQ_CLEAR, st & bits);
			continue;
		}
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
		mmu_fault_log(gpu, as, ctx, fs, fa, a);
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

/* ---- Page tables ----
 * kbase contexts use the AArch64 4K translation format, panfrost files
 * the legacy Mali LPAE format Linux 6.1's panfrost programs; both have
 * four levels of 512 entries. Tables live in the device's private pool,
 * never in client-visible memory, so a client cannot rewrite its own
 * translations.
 */

static uint64_t *mmu_kpool_ptr(struct shim_dev *dev, uint64_t pa)
{
	return (uint64_t *)(dev->kpool + (pa - SHIM_KPOOL_PA));
}

uint64_t mmu_pt_alloc(struct shim_ctx *ctx)
{
	uint64_t off;

	if (ralloc_alloc(&ctx->dev->kpool_alloc, SHIM_PAGE_SIZE, SHIM_PAGE_SIZE,
			 &off))
		return 0;
	os_memset(ctx->dev->kpool + off, 0, SHIM_PAGE_SIZE);
	ctx->pt_pages++;
	return SHIM_KPOOL_PA + off;
}

static void mmu_pt_free_tree(struct shim_ctx *ctx, uint64_t pa, int level)
{
	uint64_t *t = mmu_kpool_ptr(ctx->dev, pa);

	if (level < 3)
		for (int i = 0; i < 512; i++)
			if ((t[i] & 3) == PTE_TABLE)
				mmu_pt_free_tree(ctx, t[i] & PTE_ADDR_MASK, level + 1);
	ralloc_free(&ctx->dev->kpool_alloc, pa - SHIM_KPOOL_PA, SHIM_PAGE_SIZE);
	ctx->pt_pages--;
}

void mmu_pt_free(struct shim_ctx *ctx)
{
	if (ctx->pgd)
		mmu_pt_free_tree(ctx, ctx->pgd, 0);
	ctx->pgd = 0;
}

/* The level-3 entry slot for @va, creating tables when @create. Without
 * one, *@absent (if given) is the pages from @va on that have none
 * either: to the end of the range the missing table would map, or all
 * when there are no tables. */
static uint64_t *mmu_pte_slot(struct shim_ctx *ctx, uint64_t va, bool create,
			      uint64_t *absent)
{
	uint64_t table = ctx->pgd;

	if (absent)
		*absent = UINT64_MAX;
	if (!table)
		return NULL; /* the owner is gone; so are its tables */
	for (int level = 0; level < 3; level++) {
		uint64_t *t = mmu_kpool_ptr(ctx->dev, table);
		unsigned shift = 39 - 9 * level, idx = (va >> shift) & 511;

		if ((t[idx] & 3) != PTE_TABLE) {
			uint64_t n;

			if (absent) /* at least 1 */
				*absent = (1ull << (shift - 12)) -
					  ((va >> 12) & ((1ull << (shift - 12)) - 1));
			if (!create)
				return NULL;
			n = mmu_pt_alloc(ctx);
			if (!n)
				return NULL;
			t[idx] = n | PTE_TABLE;
		}
		table = t[idx] & PTE_ADDR_MASK;
	}
	return mmu_kpool_ptr(ctx->dev, table) + ((va >> 12) & 511);
}

static uint64_t mmu_make_pte(struct shim_ctx *ctx, uint64_t pa, unsigned prot)
{
	if (ctx->kbase)
		return pa | A64_ATE_L3 | A64_MEMATTR_IDX(0) | A64_SHARE_INNER |
		       A64_AF |
		       ((prot & SHIM_PROT_WRITE) ? A64_ACCESS_RW : A64_ACCESS_RO) |
		       ((prot & SHIM_PROT_EXEC) ? 0 : A64_NX);
	return pa | LPAE_ATE_L3 | LPAE_AF |
	       ((prot & SHIM_PROT_READ) ? LPAE_READ : 0) |
	       ((prot & SHIM_PROT_WRITE) ? LPAE_WRITE : 0) |
	       ((prot & SHIM_PROT_EXEC) ? 0 : LPAE_XN);
}

int shim_ctx_map(struct shim_ctx *ctx, uint64_t va, uint64_t off,
		 uint64_t pages, unsigned prot, struct shim_acct *a)
{
	if (off + pages * SHIM_PAGE_SIZE > ctx->backing.size)
		return -SHIM_EINVAL;
	return shim_ctx_map_pa(ctx, va, ctx->pa_base + off, pages, prot, a);
}

int shim_ctx_map_pa(struct shim_ctx *ctx, uint64_t va, uint64_t pa,
		    uint64_t pages, unsigned prot, struct shim_acct *a)
{
	uint64_t i;

	if (va & (SHIM_PAGE_SIZE - 1) || va >> 48 || pages > (1ull << 36))
		return -SHIM_EINVAL;
	if (!ctx->pgd)
		return -SHIM_ENODEV;
	for (i = 0; i < pages; i++) {
		uint64_t *pte = mmu_pte_slot(ctx, va + i * SHIM_PAGE_SIZE, true, NULL);

		if (!pte) {
			shim_ctx_unmap(ctx, va, i, a);
			return -SHIM_ENOMEM;
		}
		if (!(*pte & PTE_VALID)) {
			ctx->pages_mapped++;
			ctx->dev->st_pages_live++;
		}
		*pte = mmu_make_pte(ctx, pa + i * SHIM_PAGE_SIZE, prot);
	}
	if (ctx->pages_mapped > ctx->st_pages_peak)
		ctx->st_pages_peak = ctx->pages_mapped;
	if (a)
		a->pages += pages;
	shim_mmu_flush_as(ctx->dev, ctx, a);
	return 0;
}

void shim_ctx_unmap(struct shim_ctx *ctx, uint64_t va, uint64_t pages,
		    struct shim_acct *a)
{
	/* Ranges without tables are stepped over whole: a kbase region
	 * reserves far more than it commits, and freeing one looked at
	 * each of its pages (a seventh of the capture fuzz target's time). */
	for (uint64_t i = 0, absent; i < pages; i += OS_MIN(absent, pages - i)) {
		uint64_t *pte = mmu_pte_slot(ctx, va + i * SHIM_PAGE_SIZE, false, &absent);

		if (pte) {
			absent = 1;
			if (*pte & PTE_VALID) {
				*pte = 0;
				ctx->pages_mapped--;
				ctx->dev->st_pages_live--;
			}
		}
	}
	if (pages)
		shim_mmu_flush_as(ctx->dev, ctx, a);
}

int mmu_translate(struct shim_ctx *ctx, uint64_t va, bool write, uint64_t *pa)
{
	uint64_t *pte = mmu_pte_slot(ctx, va, false, NULL);

	if (!pte || !(*pte & PTE_VALID))
		return -SHIM_EFAULT;
	if (write && (ctx->kbase ? (*pte & A64_ACCESS_RO) == A64_ACCESS_RO
				 : !(*pte & LPAE_WRITE)))
		return -SHIM_EFAULT;
	*pa = (*pte & PTE_ADDR_MASK) + (va & 0xfff);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * The GPU as a whole: life cycle, the register window (dispatch to the
 * GPU_CONTROL, JOB_CONTROL and MMU blocks), reset, and IRQ line delivery.
 */
#include "vgpu/internal.h"

struct vgpu_block_ops {
	uint32_t base, size;
	uint32_t (*read)(struct vgpu *gpu, uint32_t off);
	void (*write)(struct vgpu *gpu, uint32_t off, uint32_t val);
	const char *name;
};

static const struct vgpu_block_ops blocks[] = {
	[VGPU_BLOCK_GPU_CONTROL] = { 0x0000, 0x1000, vgpu_gpu_control_read,
				     vgpu_gpu_control_write, "gpu_control" },
	[VGPU_BLOCK_JOB_CONTROL] = { 0x1000, 0x1000, vgpu_job_control_read,
				     vgpu_job_control_write, "job_control" },
	[VGPU_BLOCK_MMU] = { 0x2000, 0x1000, vgpu_mmu_read, vgpu_mmu_write,
			     "mmu" },
};

const char *vgpu_block_name(enum vgpu_block b)
{
	if (b < VGPU_BLOCK_OTHER)
		return blocks[b].name;
	return "other";
}

enum vgpu_block vgpu_block_of(uint32_t offset)
{
	for (unsigned b = 0; b < OS_ARRAY_SIZE(blocks); b++)
		if (offset - blocks[b].base < blocks[b].size)
			return (enum vgpu_block)b;
	return VGPU_BLOCK_OTHER;
}

bool vgpu_reg_table_read(const struct vgpu_reg_field *tbl, size_t n,
			 const void *base, uint32_t off, uint32_t *val)
{
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = (const uint8_t *)base + tbl[i].field;
		uint64_t v64;

		if (tbl[i].offset != off)
			continue;
		if (tbl[i].kind == VGPU_R32) {
			*val = *(const uint32_t *)p;
			return true;
		}
		v64 = *(const uint64_t *)p;
		*val = (uint32_t)(tbl[i].kind == VGPU_R64_HI ? v64 >> 32 : v64);
		return true;
	}
	return false;
}

bool vgpu_reg_table_write(const struct vgpu_reg_field *tbl, size_t n,
			  void *base, uint32_t off, uint32_t val)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t *p = (uint8_t *)base + tbl[i].field;
		uint64_t *v64 = (uint64_t *)p;

		if (tbl[i].offset != off)
			continue;
		if (tbl[i].rw != VGPU_REG_RW)
			return false;
		if (tbl[i].kind == VGPU_R32)
			*(uint32_t *)p = val;
		else if (tbl[i].kind == VGPU_R64_LO)
			*v64 = (*v64 & ~0xffffffffull) | val;
		else
			*v64 = (*v64 & 0xffffffffull) | ((uint64_t)val << 32);
		return true;
	}
	return false;
}

static bool bad_offset(uint32_t offset)
{
	if (offset < MALI_REG_WINDOW_SIZE && !(offset & 3))
		return false;
	os_warn(VGPU_LOG, "register access at bad offset 0x%x", offset);
	return true;
}

uint32_t vgpu_read32(struct vgpu *gpu, uint32_t offset)
{
	enum vgpu_block b = vgpu_block_of(offset);
	uint32_t val = 0;

	if (bad_offset(offset))
		return 0;
	os_mutex_lock(gpu->lock);
	vgpu_stats_reg_locked(gpu, offset, false);
	if (b < VGPU_BLOCK_OTHER)
		val = blocks[b].read(gpu, offset);
	os_mutex_unlock(gpu->lock);
	/* Reads have side effects only on statistics; no IRQ change. */
	return val;
}

void vgpu_write32(struct vgpu *gpu, uint32_t offset, uint32_t value)
{
	enum vgpu_block b = vgpu_block_of(offset);

	if (bad_offset(offset))
		return;
	os_mutex_lock(gpu->lock);
	vgpu_stats_reg_locked(gpu, offset, true);
	if (b < VGPU_BLOCK_OTHER)
		blocks[b].write(gpu, offset, value);
	vgpu_irq_update_locked(gpu);
	os_mutex_unlock(gpu->lock);
	vgpu_irq_deliver(gpu);
}

/* Recomputes the three line levels from RAWSTAT & MASK. */
void vgpu_irq_update_locked(struct vgpu *gpu)
{
	uint32_t lv = 0, old;

	if (gpu->job_irq_raw & gpu->job_irq_mask)
		lv |= 1u << VGPU_IRQ_JOB;
	if (gpu->mmu_irq_raw & gpu->mmu_irq_mask)
		lv |= 1u << VGPU_IRQ_MMU;
	if (gpu->gpu_irq_raw & gpu->gpu_irq_mask)
		lv |= 1u << VGPU_IRQ_GPU;
	old = __atomic_exchange_n(&gpu->irq_levels, lv, __ATOMIC_SEQ_CST);
	for (unsigned l = 0; l < VGPU_IRQ_COUNT; l++)
		if ((lv & ~old) & (1u << l))
			gpu->stats.s.irqs[l]++;
}

/*
 * Hands level changes to the owner without holding gpu->lock, one caller
 * at a time: whoever finds the deliverer busy leaves a note (irq_dirty)
 * that the deliverer picks up before it lets go, so the last level always
 * reaches the owner, even when the callback itself touches registers.
 */
void vgpu_irq_deliver(struct vgpu *gpu)
{
	for (;;) {
		__atomic_store_n(&gpu->irq_dirty, 1, __ATOMIC_SEQ_CST);
		if (__atomic_exchange_n(&gpu->irq_busy, 1, __ATOMIC_SEQ_CST))
			return;
		while (__atomic_exchange_n(&gpu->irq_dirty, 0,
					   __ATOMIC_SEQ_CST)) {
			uint32_t lv = __atomic_load_n(&gpu->irq_levels,
						      __ATOMIC_SEQ_CST);
			uint32_t diff = lv ^ gpu->irq_delivered;

			gpu->irq_delivered = lv;
			for (unsigned l = 0; l < VGPU_IRQ_COUNT; l++)
				if ((diff & (1u << l)) && gpu->irq_fn)
					gpu->irq_fn(gpu->irq_owner,
						    (enum vgpu_irq_line)l,
						    lv & (1u << l));
		}
		__atomic_store_n(&gpu->irq_busy, 0, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&gpu->irq_dirty, __ATOMIC_SEQ_CST))
			return;
	}
}

bool vgpu_irq_level(struct vgpu *gpu, enum vgpu_irq_line line)
{
	if (line >= VGPU_IRQ_COUNT)
		return false;
	return __atomic_load_n(&gpu->irq_levels, __ATOMIC_SEQ_CST) &
	       (1u << line);
}

/*
 * Soft/hard reset: every block back to its reset state. Running chains
 * are abandoned (their threads see the generation change and report
 * nothing); stalled MMU accesses are woken to give up.
 */
void vgpu_reset_locked(struct vgpu *gpu)
{
	__atomic_fetch_add(&gpu->reset_gen, 1, __ATOMIC_SEQ_CST);
	vgpu_job_control_reset(gpu);
	vgpu_mmu_reset(gpu);
	vgpu_gpu_control_reset(gpu);
	os_cond_broadcast(gpu->stall_wake);
}

static bool config_valid(const struct vgpu_config *cfg)
{
	return cfg->shader_present && cfg->l2_present &&
	       cfg->js_present && !(cfg->js_present & ~0xffffu) &&
	       cfg->as_present && !(cfg->as_present & ~0xffffu) &&
	       !(cfg->js_present & (cfg->js_present + 1)) &&
	       !(cfg->as_present & (cfg->as_present + 1));
}

struct vgpu *vgpu_create(const struct vgpu_config *cfg, vgpu_irq_fn irq,
			 void *owner)
{
	struct vgpu *gpu;

	if (!cfg || !config_valid(cfg))
		return NULL;
	gpu = os_zalloc(sizeof(*gpu));
	if (!gpu)
		return NULL;
	gpu->cfg = *cfg;
	gpu->ts_origin = os_time_ns();
	gpu->nslots = os_popcount64(cfg->js_present);
	gpu->nas = os_popcount64(cfg->as_present);
	gpu->irq_fn = irq;
	gpu->irq_owner = owner;
	gpu->lock = os_mutex_new();
	gpu->stall_wake = os_cond_new();
	if (!gpu->lock || !gpu->stall_wake || vgpu_bus_init(&gpu->bus) ||
	    vgpu_stats_init(gpu) || vgpu_perf_init(gpu))
		goto fail;
	os_mutex_lock(gpu->lock);
	vgpu_reset_locked(gpu);
	gpu->gpu_irq_raw = 0;	/* power-on: no reset has completed yet */
	os_mutex_unlock(gpu->lock);
	if (vgpu_job_manager_start(gpu))
		goto fail;
	os_info(VGPU_LOG, "created %s (GPU_ID 0x%08x, %u cores)", cfg->name,
		cfg->gpu_id, os_popcount64(cfg->shader_present));
	return gpu;
fail:
	vgpu_destroy(gpu);
	return NULL;
}

void vgpu_destroy(struct vgpu *gpu)
{
	if (!gpu)
		return;
	vgpu_job_manager_stop(gpu);
	vgpu_perf_fini(gpu);
	vgpu_stats_fini(gpu);
	vgpu_bus_fini(&gpu->bus);
	if (gpu->stall_wake)
		os_cond_free(gpu->stall_wake);
	if (gpu->lock)
		os_mutex_free(gpu->lock);
	os_free(gpu);
}

const struct vgpu_config *vgpu_get_config(const struct vgpu *gpu)
{
	return &gpu->cfg;
}

void vgpu_set_compute_backend(struct vgpu *gpu,
			      const struct vgpu_compute_backend *be)
{
	os_mutex_lock(gpu->lock);
	gpu->have_backend = be && be->run;
	if (gpu->have_backend)
		gpu->backend = *be;
	os_mutex_unlock(gpu->lock);
}

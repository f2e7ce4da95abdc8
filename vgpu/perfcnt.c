// SPDX-License-Identifier: MIT
/*
 * Performance counters (job-manager GPUs): PRFCNT_CONFIG, _BASE and _*_EN and
 * the SAMPLE/CLEAR commands. A sample writes one 256-byte block per unit
 * (job manager, tiler, each L2 slice, each shader core up to the highest
 * present one) to PRFCNT_BASE in the configured address space, then
 * clears the counters, so consecutive samples are deltas. Counters count
 * events of the model: jobs, cycles, MMU walks, memory transactions and
 * what the shader back end reports.
 */
#include "vgpu/internal.h"

#define PC(off, member, rw) VGPU_REG32(off, struct vgpu_perf, member, rw)

static const struct vgpu_reg_field perf_regs[] = {
	VGPU_REG64(MALI_GPU_PRFCNT_BASE_LO, struct vgpu_perf, base, VGPU_REG_RW),
	PC(MALI_GPU_PRFCNT_CONFIG, config, VGPU_REG_RW),
	PC(MALI_GPU_PRFCNT_JM_EN, jm_en, VGPU_REG_RW),
	PC(MALI_GPU_PRFCNT_SHADER_EN, shader_en, VGPU_REG_RW),
	PC(MALI_GPU_PRFCNT_TILER_EN, tiler_en, VGPU_REG_RW),
	PC(MALI_GPU_PRFCNT_MMU_L2_EN, mmu_l2_en, VGPU_REG_RW),
};

int vgpu_perf_init(struct vgpu *gpu)
{
	struct vgpu_perf *p = &gpu->perf;

	p->ncores = os_fls64(gpu->cfg.shader_present);
	p->shader = os_zalloc(p->ncores * sizeof(*p->shader));
	return p->shader ? 0 : -1;
}

void vgpu_perf_fini(struct vgpu *gpu)
{
	os_free(gpu->perf.shader);
	gpu->perf.shader = NULL;
}

bool vgpu_perf_read(struct vgpu *gpu, uint32_t off, uint32_t *val)
{
	return vgpu_reg_table_read(perf_regs, OS_ARRAY_SIZE(perf_regs),
				   &gpu->perf, off, val);
}

bool vgpu_perf_write(struct vgpu *gpu, uint32_t off, uint32_t val)
{
	/* Slot threads test the mode without the lock. */
	if (off == MALI_GPU_PRFCNT_CONFIG) {
		__atomic_store_n(&gpu->perf.config, val, __ATOMIC_RELAXED);
		return true;
	}
	return vgpu_reg_table_write(perf_regs, OS_ARRAY_SIZE(perf_regs),
				    &gpu->perf, off, val);
}

static uint32_t *block(struct vgpu *gpu, enum vgpu_perf_block b, unsigned core)
{
	struct vgpu_perf *p = &gpu->perf;

	switch (b) {
	case VGPU_PERF_JM:
		return p->jm;
	case VGPU_PERF_TILER:
		return p->tiler;
	case VGPU_PERF_L2:
		return p->l2;
	case VGPU_PERF_SHADER:
		return core < p->ncores ? p->shader[core] : NULL;
	}
	return NULL;
}

void vgpu_perf_add(struct vgpu *gpu, enum vgpu_perf_block b, unsigned core,
		   unsigned idx, uint64_t n)
{
	uint32_t *blk = block(gpu, b, core);
	uint32_t cfg = __atomic_load_n(&gpu->perf.config, __ATOMIC_RELAXED);

	/* Hardware counters are 32 bits wide and count only when enabled. */
	if (!blk || idx < 4 || idx >= MALI_PRFCNT_COUNTERS_PER_BLOCK ||
	    MALI_PRFCNT_MODE(cfg) == MALI_PRFCNT_MODE_OFF)
		return;
	__atomic_fetch_add(&blk[idx], (uint32_t)n, __ATOMIC_RELAXED);
}

static void zero(uint32_t *c)
{
	/* Counters are added to without the lock: clear them atomically. */
	for (unsigned i = 0; i < MALI_PRFCNT_COUNTERS_PER_BLOCK; i++)
		__atomic_store_n(&c[i], 0, __ATOMIC_RELAXED);
}

void vgpu_perf_clear_locked(struct vgpu *gpu)
{
	struct vgpu_perf *p = &gpu->perf;

	zero(p->jm);
	zero(p->tiler);
	zero(p->l2);
	for (unsigned c = 0; p->shader && c < p->ncores; c++)
		zero(p->shader[c]);
}

/* Writes one block at @va; false once the destination faulted. */
static bool dump_block(struct vgpu *gpu, uint64_t va, const uint32_t *src,
		       uint32_t enable, uint64_t ts)
{
	unsigned as = MALI_PRFCNT_AS(gpu->perf.config);
	uint32_t out[MALI_PRFCNT_COUNTERS_PER_BLOCK];
	uint32_t exc;
	void *dst;

	for (unsigned i = 0; i < MALI_PRFCNT_COUNTERS_PER_BLOCK; i++)
		out[i] = (enable >> (i / 4)) & 1 ?
				 __atomic_load_n(&src[i], __ATOMIC_RELAXED) : 0;
	out[MALI_PRFCNT_HDR_TIMESTAMP_LO] = (uint32_t)ts;
	out[MALI_PRFCNT_HDR_TIMESTAMP_HI] = (uint32_t)(ts >> 32);
	out[MALI_PRFCNT_HDR_ENABLE] = enable;
	out[3] = 0;
	/* Blocks are 256-byte aligned in the dump: never across a page. */
	dst = vgpu_mmu_translate_locked(gpu, as, va, sizeof(out),
					VGPU_ACCESS_WRITE, true, true, &exc);
	if (!dst)
		return false;
	os_memcpy(dst, out, sizeof(out));
	return true;
}

void vgpu_perf_sample_locked(struct vgpu *gpu)
{
	struct vgpu_perf *p = &gpu->perf;
	uint64_t va = p->base & ~(uint64_t)(MALI_PRFCNT_BLOCK_BYTES - 1);
	uint64_t ts = vgpu_timestamp(gpu);
	unsigned nl2 = os_popcount64(gpu->cfg.l2_present);
	bool ok;

	if (MALI_PRFCNT_MODE(p->config) == MALI_PRFCNT_MODE_OFF ||
	    MALI_PRFCNT_AS(p->config) >= gpu->nas)
		return;
	ok = dump_block(gpu, va, p->jm, p->jm_en, ts);
	va += MALI_PRFCNT_BLOCK_BYTES;
	ok = ok && dump_block(gpu, va, p->tiler, p->tiler_en, ts);
	va += MALI_PRFCNT_BLOCK_BYTES;
	/* The model has one L2 counter set; later slices read as zero. */
	for (unsigned i = 0; ok && i < nl2; i++, va += MALI_PRFCNT_BLOCK_BYTES) {
		static const uint32_t zero[MALI_PRFCNT_COUNTERS_PER_BLOCK];

		ok = dump_block(gpu, va, i ? zero : p->l2, p->mmu_l2_en, ts);
	}
	for (unsigned c = 0; ok && c < p->ncores;
	     c++, va += MALI_PRFCNT_BLOCK_BYTES)
		ok = dump_block(gpu, va, p->shader[c],
				(gpu->cfg.shader_present >> c) & 1 ?
					p->shader_en : 0, ts);
	vgpu_perf_clear_locked(gpu);
}

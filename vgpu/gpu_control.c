// SPDX-License-Identifier: MIT
/*
 * GPU_CONTROL: identification and feature registers, IRQs, commands
 * (reset, cache maintenance, cycle counter, performance counters), fault
 * registers and power domains.
 */
#include "vgpu/internal.h"

#define CFG(off, member) VGPU_REG32(off, struct vgpu_config, member, VGPU_REG_RO)
#define CFG64(off, member) VGPU_REG64(off, struct vgpu_config, member, VGPU_REG_RO)

/* Fixed values straight from the configuration. */
static const struct vgpu_reg_field id_regs[] = {
	CFG(MALI_GPU_ID, gpu_id),
	CFG(MALI_GPU_L2_FEATURES, l2_features),
	CFG(MALI_GPU_CORE_FEATURES, core_features),
	CFG(MALI_GPU_TILER_FEATURES, tiler_features),
	CFG(MALI_GPU_MEM_FEATURES, mem_features),
	CFG(MALI_GPU_MMU_FEATURES, mmu_features),
	CFG(MALI_GPU_AS_PRESENT, as_present),
	CFG(MALI_GPU_JS_PRESENT, js_present),
	CFG(MALI_GPU_AFBC_FEATURES, afbc_features),
	CFG(MALI_GPU_THREAD_MAX_THREADS, thread_max_threads),
	CFG(MALI_GPU_THREAD_MAX_WORKGROUP_SIZE, thread_max_workgroup_size),
	CFG(MALI_GPU_THREAD_MAX_BARRIER_SIZE, thread_max_barrier_size),
	CFG(MALI_GPU_THREAD_FEATURES, thread_features),
	CFG(MALI_GPU_TEXTURE_FEATURES(0), texture_features[0]),
	CFG(MALI_GPU_TEXTURE_FEATURES(1), texture_features[1]),
	CFG(MALI_GPU_TEXTURE_FEATURES(2), texture_features[2]),
	CFG(MALI_GPU_TEXTURE_FEATURES(3), texture_features[3]),
	CFG(MALI_GPU_COHERENCY_FEATURES, coherency_features),
	CFG(MALI_GPU_THREAD_TLS_ALLOC, thread_tls_alloc),
	CFG64(MALI_GPU_SHADER_PRESENT_LO, shader_present),
	CFG64(MALI_GPU_TILER_PRESENT_LO, tiler_present),
	CFG64(MALI_GPU_L2_PRESENT_LO, l2_present),
	CFG64(MALI_GPU_STACK_PRESENT_LO, stack_present),
};

#define ST(off, member, rw) VGPU_REG32(off, struct vgpu, member, rw)
/* Plain state registers. */
static const struct vgpu_reg_field state_regs[] = {
	ST(MALI_GPU_IRQ_RAWSTAT, gpu_irq_raw, VGPU_REG_RO),
	ST(MALI_GPU_IRQ_MASK, gpu_irq_mask, VGPU_REG_RW),
	ST(MALI_GPU_LATEST_FLUSH, latest_flush, VGPU_REG_RO),
	ST(MALI_GPU_FAULTSTATUS, gpu_faultstatus, VGPU_REG_RO),
	VGPU_REG64(MALI_GPU_FAULTADDRESS_LO, struct vgpu, gpu_faultaddress,
		   VGPU_REG_RO),
	ST(MALI_GPU_PWR_OVERRIDE0, pwr_override0, VGPU_REG_RW),
	ST(MALI_GPU_PWR_OVERRIDE1, pwr_override1, VGPU_REG_RW),
	ST(MALI_GPU_COHERENCY_ENABLE, coherency_enable, VGPU_REG_RW),
	ST(MALI_GPU_JM_CONFIG, jm_config, VGPU_REG_RW),
	ST(MALI_GPU_SHADER_CONFIG, shader_config, VGPU_REG_RW),
	ST(MALI_GPU_TILER_CONFIG, tiler_config, VGPU_REG_RW),
	ST(MALI_GPU_L2_MMU_CONFIG, l2_mmu_config, VGPU_REG_RW),
};

/* Power domains, in the order of gpu->ready[]. */
enum { PD_SHADER, PD_TILER, PD_L2, PD_STACK, PD_COUNT };

struct power_domain {
	uint32_t base, stride;	/* stride between READY, PWRON, ... */
	size_t present;		/* offsetof(struct vgpu_config, ...) */
};

static const struct power_domain domains[PD_COUNT] = {
	[PD_SHADER] = { MALI_GPU_SHADER_BASE, 0x40,
			offsetof(struct vgpu_config, shader_present) },
	[PD_TILER] = { MALI_GPU_TILER_BASE, 0x40,
		       offsetof(struct vgpu_config, tiler_present) },
	[PD_L2] = { MALI_GPU_L2_BASE, 0x40,
		    offsetof(struct vgpu_config, l2_present) },
	[PD_STACK] = { MALI_GPU_STACK_PRESENT_LO, 0x10,
		       offsetof(struct vgpu_config, stack_present) },
};

/* Register index within a domain: 1 READY, 2 PWRON, 3 PWROFF, 4 PWRTRANS,
 * 5 PWRACTIVE; -1 if @off is not one of its registers. */
static int power_reg(uint32_t off, unsigned *pd, bool *hi)
{
	for (unsigned d = 0; d < PD_COUNT; d++) {
		uint32_t rel = off - domains[d].base;
		unsigned idx = rel / domains[d].stride;

		if (off < domains[d].base || rel % domains[d].stride > 4 ||
		    idx < 1 || idx > 5)
			continue;
		if (d == PD_STACK && idx == 5)
			continue;
		*pd = d;
		*hi = rel % domains[d].stride == 4;
		return (int)idx;
	}
	return -1;
}

static uint64_t present(struct vgpu *gpu, unsigned pd)
{
	return *(const uint64_t *)((const uint8_t *)&gpu->cfg +
				   domains[pd].present);
}

static bool any_slot_active(struct vgpu *gpu)
{
	for (unsigned s = 0; s < gpu->nslots; s++)
		if (gpu->slot[s].active)
			return true;
	return false;
}

bool vgpu_busy(struct vgpu *gpu)
{
	bool busy;

	os_mutex_lock(gpu->lock);
	busy = any_slot_active(gpu);
	os_mutex_unlock(gpu->lock);
	return busy;
}

uint64_t vgpu_timestamp(struct vgpu *gpu)
{
	/* The system timer is the host's clock: what profiling measures is
	 * the time the model really took. */
	return (os_time_ns() - gpu->ts_origin) / (1000000000ull / VGPU_TIMESTAMP_HZ);
}

/*
 * CYCLE_COUNT counts the modelled GPU clock, not host time: the GPU's
 * clock advances only by the work modelled (vgpu_clock_add: the Job
 * Manager per job, the shader back end per instruction issued), so a
 * driver that times jobs by it sees the time a real part would take.
 */
static uint64_t clock_cycles(struct vgpu *gpu)
{
	return __atomic_load_n(&gpu->clock_q16, __ATOMIC_RELAXED) >> 16;
}

uint64_t vgpu_cycle_count_locked(struct vgpu *gpu)
{
	if (gpu->cycle_users)
		return gpu->cycle_accum + (clock_cycles(gpu) - gpu->cycle_start);
	return gpu->cycle_accum;
}

uint32_t vgpu_gpu_control_read(struct vgpu *gpu, uint32_t off)
{
	uint32_t val = 0;
	unsigned pd;
	bool hi;
	int r;

	if (vgpu_reg_table_read(id_regs, OS_ARRAY_SIZE(id_regs), &gpu->cfg,
				off, &val) ||
	    vgpu_reg_table_read(state_regs, OS_ARRAY_SIZE(state_regs), gpu,
				off, &val) ||
	    vgpu_perf_read(gpu, off, &val))
		return val;
	if (off >= MALI_GPU_JS_FEATURES(0) && off < MALI_GPU_JS_FEATURES(16))
		return gpu->cfg.js_features[(off - MALI_GPU_JS_FEATURES(0)) / 4];
	r = power_reg(off, &pd, &hi);
	if (r == 1 || r == 5) {	/* READY; PWRACTIVE: powered and busy */
		uint64_t v = gpu->ready[pd];

		if (r == 5 && !any_slot_active(gpu))
			v = 0;
		return (uint32_t)(hi ? v >> 32 : v);
	}
	if (r > 1)		/* PWRON/PWROFF (write-only), PWRTRANS: 0 */
		return 0;

	switch (off) {
	case MALI_GPU_IRQ_STATUS:
		return gpu->gpu_irq_raw & gpu->gpu_irq_mask;
	case MALI_GPU_STATUS:
		return (any_slot_active(gpu) ? MALI_GPU_STATUS_ACTIVE : 0) |
		       (gpu->cycle_users ? MALI_GPU_STATUS_CYCLE_COUNT_ACTIVE : 0);
	case MALI_GPU_CYCLE_COUNT_LO:
		return (uint32_t)vgpu_cycle_count_locked(gpu);
	case MALI_GPU_CYCLE_COUNT_HI:
		return (uint32_t)(vgpu_cycle_count_locked(gpu) >> 32);
	case MALI_GPU_TIMESTAMP_LO:
		return (uint32_t)vgpu_timestamp(gpu);
	case MALI_GPU_TIMESTAMP_HI:
		return (uint32_t)(vgpu_timestamp(gpu) >> 32);
	default:
		return 0;	/* unimplemented and write-only: read as zero */
	}
}

/* Power changes complete at once: READY follows, PWRTRANS stays 0. */
static void power_write(struct vgpu *gpu, unsigned pd, int r, bool hi,
			uint32_t val)
{
	uint64_t mask = hi ? (uint64_t)val << 32 : val;

	mask &= present(gpu, pd);
	if (r == 2)
		gpu->ready[pd] |= mask;
	else if (r == 3)
		gpu->ready[pd] &= ~mask;
	else
		return;
	gpu->gpu_irq_raw |= MALI_GPU_IRQ_POWER_CHANGED |
			    MALI_GPU_IRQ_POWER_CHANGED_ALL;
}

void vgpu_flush_caches_locked(struct vgpu *gpu)
{
	gpu->latest_flush++;
}

/* A GPU fault outside the MMU (e.g. a bus error): FAULT, or
 * MULTIPLE_FAULT when one is already pending. */
void vgpu_gpu_fault_locked(struct vgpu *gpu, uint32_t status, uint64_t addr)
{
	if (gpu->gpu_irq_raw & MALI_GPU_IRQ_FAULT) {
		gpu->gpu_irq_raw |= MALI_GPU_IRQ_MULTIPLE_FAULT;
		return;
	}
	gpu->gpu_faultstatus = status;
	gpu->gpu_faultaddress = addr;
	gpu->gpu_irq_raw |= MALI_GPU_IRQ_FAULT;
}

static void command(struct vgpu *gpu, uint32_t cmd)
{
	switch (cmd) {
	case MALI_GPU_CMD_NOP:
		break;
	case MALI_GPU_CMD_SOFT_RESET:
	case MALI_GPU_CMD_HARD_RESET:
		vgpu_reset_locked(gpu);
		gpu->gpu_irq_raw |= MALI_GPU_IRQ_RESET_COMPLETED;
		break;
	case MALI_GPU_CMD_PRFCNT_CLEAR:
		vgpu_perf_clear_locked(gpu);
		break;
	case MALI_GPU_CMD_PRFCNT_SAMPLE:
		vgpu_perf_sample_locked(gpu);
		gpu->gpu_irq_raw |= MALI_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED;
		break;
	case MALI_GPU_CMD_CYCLE_COUNT_START:
		if (!gpu->cycle_users++)
			gpu->cycle_start = clock_cycles(gpu);
		break;
	case MALI_GPU_CMD_CYCLE_COUNT_STOP:
		if (gpu->cycle_users && !--gpu->cycle_users)
			gpu->cycle_accum += clock_cycles(gpu) - gpu->cycle_start;
		break;
	case MALI_GPU_CMD_CLEAN_CACHES:
	case MALI_GPU_CMD_CLEAN_INV_CACHES:
		/* Memory is coherent with the host: only the flush ID and the
		 * completion interrupt are visible. */
		vgpu_flush_caches_locked(gpu);
		gpu->gpu_irq_raw |= MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED;
		break;
	default:
		os_warn(VGPU_LOG, "unsupported GPU_COMMAND 0x%x ignored", cmd);
		break;
	}
}

void vgpu_gpu_control_write(struct vgpu *gpu, uint32_t off, uint32_t val)
{
	unsigned pd;
	bool hi;
	int r;

	if (vgpu_reg_table_write(state_regs, OS_ARRAY_SIZE(state_regs), gpu,
				 off, val) ||
	    vgpu_perf_write(gpu, off, val))
		return;
	r = power_reg(off, &pd, &hi);
	if (r > 0) {
		power_write(gpu, pd, r, hi, val);
		return;
	}
	switch (off) {
	case MALI_GPU_IRQ_CLEAR:
		gpu->gpu_irq_raw &= ~val;
		break;
	case MALI_GPU_COMMAND:
		command(gpu, val);
		break;
	case MALI_GPU_PWR_KEY:
		gpu->pwr_key = val;
		break;
	default:
		os_dbg(VGPU_LOG, "write 0x%x to read-only/unknown GPU_CONTROL 0x%x",
		       val, off);
		break;
	}
}

/* Reset: power off, faults and flush state cleared. The IRQ mask is kept
 * so that a driver waiting for RESET_COMPLETED gets its interrupt. */
void vgpu_gpu_control_reset(struct vgpu *gpu)
{
	os_memset(gpu->ready, 0, sizeof(gpu->ready));
	gpu->gpu_irq_raw = 0;
	gpu->gpu_faultstatus = 0;
	gpu->gpu_faultaddress = 0;
	gpu->jm_config = gpu->shader_config = 0;
	gpu->tiler_config = gpu->l2_mmu_config = 0;
	gpu->pwr_override0 = gpu->pwr_override1 = gpu->pwr_key = 0;
	gpu->coherency_enable = 0;
	gpu->cycle_users = 0;
	gpu->cycle_accum = 0;
	vgpu_perf_clear_locked(gpu);
	__atomic_store_n(&gpu->perf.config, 0, __ATOMIC_RELAXED);
	gpu->perf.base = 0;
	gpu->perf.jm_en = gpu->perf.shader_en = 0;
	gpu->perf.tiler_en = gpu->perf.mmu_l2_en = 0;
}

// SPDX-License-Identifier: MIT
/*
 * The GPU_CONTROL block, as Linux panfrost's panfrost_gpu.c drives it:
 *
 *  probe    soft reset, wait RESET_COMPLETED, read the ID and feature
 *           registers, power up L2 then shader cores and tiler, unmask
 *           the three IRQ lines;
 *  IRQs     each line (JOB, MMU, GPU) is requested with a handler of its
 *           own, threaded: the handler only wakes the line's thread
 *           (it may run inside our own register writes), which takes the
 *           device lock and runs the block's handler (job.c, mmu.c, the
 *           GPU one here);
 *  recovery a job that will not stop is ended by a soft reset and
 *           power-up; only that job fails, the others run again.
 *
 * Registers only (DESIGN.md invariant 1): the port is all we have.
 */
#include "driver-shim/gpu_priv.h"

/* Polls until (reg & mask) == want; false on timeout (a broken model). */
bool gpu_poll_reg(struct shim_gpu *gpu, struct shim_acct *a, uint32_t off,
		 uint32_t mask, uint32_t want)
{
	for (int i = 0; i < GPU_POLL_TRIES; i++) {
		if ((gpu_read(gpu, a, off) & mask) == want)
			return true;
		os_sleep_ns(GPU_POLL_NS);
	}
	os_err("gpu", "register 0x%x stuck (mask 0x%x)", off, mask);
	return false;
}

/* The product by GPU_ID's top half, as panfrost names it. */
static const char *gpu_model_name(uint32_t gpu_id)
{
	static const struct { uint16_t id; const char *name; } models[] = {
		{ 0x6000, "Mali-G71" },
		{ 0x7212, "Mali-G52" },
	};

	for (unsigned i = 0; i < OS_ARRAY_SIZE(models); i++)
		if (models[i].id == gpu_id >> 16)
			return models[i].name;
	return "Mali (unknown)";
}

static bool gpu_power_domain(struct shim_gpu *gpu, struct shim_acct *a,
			 uint32_t base, uint64_t present)
{
	if (!present)
		return true;
	gpu_write64(gpu, a, base + MALI_PWR_PWRON, present);
	for (int i = 0; i < GPU_POLL_TRIES; i++) {
		if ((gpu_read64(gpu, a, base + MALI_PWR_READY) & present) == present)
			return true;
		os_sleep_ns(GPU_POLL_NS);
	}
	os_err("gpu", "power domain 0x%x did not come up", base);
	return false;
}

static void gpu_read_features(struct shim_gpu *gpu, struct shim_gpu_regs *r)
{
	r->gpu_id = gpu_read(gpu, NULL, MALI_GPU_ID);
	r->l2_features = gpu_read(gpu, NULL, MALI_GPU_L2_FEATURES);
	r->core_features = gpu_read(gpu, NULL, MALI_GPU_CORE_FEATURES);
	r->tiler_features = gpu_read(gpu, NULL, MALI_GPU_TILER_FEATURES);
	r->mem_features = gpu_read(gpu, NULL, MALI_GPU_MEM_FEATURES);
	r->mmu_features = gpu_read(gpu, NULL, MALI_GPU_MMU_FEATURES);
	r->as_present = gpu_read(gpu, NULL, MALI_GPU_AS_PRESENT);
	r->js_present = gpu_read(gpu, NULL, MALI_GPU_JS_PRESENT);
	r->thread_max_threads = gpu_read(gpu, NULL, MALI_GPU_THREAD_MAX_THREADS);
	r->thread_max_workgroup_size = gpu_read(gpu, NULL, MALI_GPU_THREAD_MAX_WORKGROUP_SIZE);
	r->thread_max_barrier_size = gpu_read(gpu, NULL, MALI_GPU_THREAD_MAX_BARRIER_SIZE);
	r->thread_features = gpu_read(gpu, NULL, MALI_GPU_THREAD_FEATURES);
	r->thread_tls_alloc = gpu_read(gpu, NULL, MALI_GPU_THREAD_TLS_ALLOC);
	r->coherency_features = gpu_read(gpu, NULL, MALI_GPU_COHERENCY_FEATURES);
	r->afbc_features = gpu_read(gpu, NULL, MALI_GPU_AFBC_FEATURES);
	for (int i = 0; i < 4; i++)
		r->texture_features[i] = gpu_read(gpu, NULL, MALI_GPU_TEXTURE_FEATURES(i));
	for (int i = 0; i < 16; i++)
		r->js_features[i] = gpu_read(gpu, NULL, MALI_GPU_JS_FEATURES(i));
	r->shader_present = gpu_read64(gpu, NULL, MALI_GPU_SHADER_PRESENT_LO);
	r->tiler_present = gpu_read64(gpu, NULL, MALI_GPU_TILER_PRESENT_LO);
	r->l2_present = gpu_read64(gpu, NULL, MALI_GPU_L2_PRESENT_LO);
	r->stack_present = gpu_read64(gpu, NULL, MALI_GPU_STACK_PRESENT_LO);
}

/* Reset and power-up, as at probe and after a hung job. */
static int gpu_bring_up(struct shim_gpu *gpu, struct shim_acct *a)
{
	struct shim_gpu_regs *r = &gpu->dev->regs;

	gpu_write(gpu, a, MALI_GPU_IRQ_MASK, 0);
	gpu_write(gpu, a, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_ALL);
	gpu_write(gpu, a, MALI_GPU_COMMAND, MALI_GPU_CMD_SOFT_RESET);
	if (!gpu_poll_reg(gpu, a, MALI_GPU_IRQ_RAWSTAT, MALI_GPU_IRQ_RESET_COMPLETED,
		      MALI_GPU_IRQ_RESET_COMPLETED))
		return -SHIM_EIO;
	gpu_write(gpu, a, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_ALL);
	if (!gpu_power_domain(gpu, a, MALI_GPU_L2_BASE, r->l2_present) ||
	    !gpu_power_domain(gpu, a, MALI_GPU_SHADER_BASE, r->shader_present) ||
	    !gpu_power_domain(gpu, a, MALI_GPU_TILER_BASE, r->tiler_present))
		return -SHIM_EIO;
	gpu_write(gpu, a, MALI_GPU_IRQ_MASK,
	   MALI_GPU_IRQ_FAULT | MALI_GPU_IRQ_MULTIPLE_FAULT);
	gpu_write(gpu, a, MALI_JOB_IRQ_CLEAR, ~0u);
	gpu_write(gpu, a, MALI_JOB_IRQ_MASK, 0x00070007u);
	gpu_write(gpu, a, MALI_MMU_IRQ_CLEAR, ~0u);
	gpu_write(gpu, a, MALI_MMU_IRQ_MASK, 0x00ff00ffu);
	return 0;
}

/* The GPU line: faults are logged; nothing waits on the others (the
 * commands that raise them are polled for). */
static void gpu_irq_thread(struct shim_gpu *gpu, struct shim_acct *a)
{
	uint32_t st = gpu_read(gpu, a, MALI_GPU_IRQ_STATUS);

	if (!st)
		return;
	a->irqs++;
	if (st & (MALI_GPU_IRQ_FAULT | MALI_GPU_IRQ_MULTIPLE_FAULT)) {
		struct shim_fault f = {
			.kind = SHIM_FAULT_GPU, .ctx = -1, .as = -1, .slot = -1,
			.status = gpu_read(gpu, a, MALI_GPU_FAULTSTATUS),
			.address = gpu_read64(gpu, a, MALI_GPU_FAULTADDRESS_LO),
		};

		shim_fault_record(gpu->dev, &f);
	}
	gpu_write(gpu, a, MALI_GPU_IRQ_CLEAR, st);
}

int shim_gpu_bus_add(struct shim_dev *dev, uint64_t pa, uint64_t size, void *host)
{
	if (!dev->gpu)
		return -SHIM_ENODEV;
	return dev->port.bus_add(dev->port.priv, pa, size, host) ? -SHIM_ENOMEM : 0;
}

void shim_gpu_bus_remove(struct shim_dev *dev, uint64_t pa)
{
	if (dev->gpu)
		dev->port.bus_remove(dev->port.priv, pa);
}

void gpu_recover(struct shim_gpu *gpu, unsigned guilty, struct shim_acct *a)
{
	struct shim_job *taken[JOB_SLOTS][JOB_RB] = { { 0 } };

	gpu->dev->st_gpu_resets++;
	gpu->dev->disjoint++;
	job_reset_take(gpu, taken);
	mmu_reset(gpu);
	if (gpu_bring_up(gpu, a))
		os_err("gpu", "GPU reset failed");
	perfcnt_cycle_restore(gpu, a);
	job_reset_requeue(gpu, guilty, taken);
}

/* ---- Threaded IRQ lines ---- */

static void gpu_irq_edge(void *arg, bool level)
{
	struct gpu_irq *irq = arg;

	if (!level)
		return;
	os_mutex_lock(irq->lock);
	irq->pending = true;
	os_cond_signal(irq->wake);
	os_mutex_unlock(irq->lock);
}

static void gpu_irq_loop(void *arg)
{
	struct gpu_irq *irq = arg;
	struct shim_dev *dev = irq->gpu->dev;
	/* The job line's wakes run the watchdog: a host-time limit shorter
	 * than the poll is looked at four times within it, not at 50 ms. */
	uint64_t poll = OS_MAX(OS_MIN(GPU_IRQ_POLL_NS, irq->gpu->host_timeout_ns / 4), 1000000ull);

	for (;;) {
		struct shim_acct a = { 0 };
		bool stopping;

		os_mutex_lock(irq->lock);
		if (!irq->pending && !irq->stopping)
			os_cond_wait(irq->wake, irq->lock, poll);
		irq->pending = false;
		stopping = irq->stopping;
		os_mutex_unlock(irq->lock);
		if (stopping)
			return;
		/* Lines are level-triggered: the handler reads the status
		 * whether or not an edge woke us. */
		os_mutex_lock(dev->lock);
		irq->fn(irq->gpu, &a);
		os_mutex_unlock(dev->lock);
		if (a.irqs || a.reg_writes) {
			shim_stat_add(dev, SHIM_STAT_ROW_IRQ, &a);
			os_mutex_lock(dev->lock);
			shim_wake_all(dev);
			os_mutex_unlock(dev->lock);
		}
	}
}

/* request_threaded_irq: the line's handler is live from here on; its
 * thread starts with gpu_irq_start(). */
static int gpu_irq_request(struct shim_gpu *gpu, enum shim_irq_line line,
			   void (*fn)(struct shim_gpu *gpu, struct shim_acct *a))
{
	struct gpu_irq *irq = &gpu->irq[line];

	irq->gpu = gpu;
	irq->line = line;
	irq->fn = fn;
	irq->lock = os_mutex_new();
	irq->wake = os_cond_new();
	if (!irq->lock || !irq->wake)
		return -SHIM_ENOMEM;
	if (gpu->port->request_irq(gpu->port->priv, line, gpu_irq_edge, irq))
		return -SHIM_EBUSY;
	irq->requested = true;
	return 0;
}

static int gpu_irq_start(struct gpu_irq *irq)
{
	static const char *const names[SHIM_IRQ_LINES] = {
		[SHIM_IRQ_JOB] = "vgpu-irq-job",
		[SHIM_IRQ_MMU] = "vgpu-irq-mmu",
		[SHIM_IRQ_GPU] = "vgpu-irq-gpu",
	};

	irq->thread = os_thread_start(gpu_irq_loop, irq, names[irq->line]);
	return irq->thread ? 0 : -SHIM_ENOMEM;
}

/* Stops the thread, then frees the line (either may not have started). */
static void gpu_irq_free(struct gpu_irq *irq)
{
	if (irq->thread) {
		os_mutex_lock(irq->lock);
		irq->stopping = true;
		os_cond_signal(irq->wake);
		os_mutex_unlock(irq->lock);
		os_thread_join(irq->thread);
		irq->thread = NULL;
	}
	if (irq->requested)
		irq->gpu->port->free_irq(irq->gpu->port->priv, irq->line);
	irq->requested = false;
	if (irq->wake)
		os_cond_free(irq->wake);
	if (irq->lock)
		os_mutex_free(irq->lock);
	irq->wake = NULL;
	irq->lock = NULL;
}

/* ---- Probe and removal ---- */

static void gpu_free(struct shim_gpu *gpu)
{
	for (int l = 0; l < SHIM_IRQ_LINES; l++)
		gpu_irq_free(&gpu->irq[l]);
	os_free(gpu);
}

int shim_gpu_init(struct shim_dev *dev)
{
	static void (*const handlers[SHIM_IRQ_LINES])(struct shim_gpu *gpu,
						      struct shim_acct *a) = {
		[SHIM_IRQ_JOB] = job_irq_thread,
		[SHIM_IRQ_MMU] = mmu_irq_thread,
		[SHIM_IRQ_GPU] = gpu_irq_thread,
	};
	struct shim_gpu *gpu = os_zalloc(sizeof(*gpu));

	if (!gpu)
		return -SHIM_ENOMEM;
	gpu->dev = dev;
	gpu->port = &dev->port;
	job_init(gpu);
	for (int l = 0; l < SHIM_IRQ_LINES; l++)
		if (gpu_irq_request(gpu, l, handlers[l]))
			goto fail;
	if (gpu->port->bus_add(gpu->port->priv, SHIM_KPOOL_PA, SHIM_KPOOL_SIZE,
			       dev->kpool))
		goto fail;
	gpu_read_features(gpu, &dev->regs);
	dev->gpu_name = gpu_model_name(dev->regs.gpu_id);
	dev->gpu = gpu;
	/* The threads start after bring-up, which runs without dev->lock. */
	if (gpu_bring_up(gpu, NULL))
		goto fail_bus;
	for (int l = 0; l < SHIM_IRQ_LINES; l++)
		if (gpu_irq_start(&gpu->irq[l]))
			goto fail_bus;
	return 0;

fail_bus:
	dev->gpu = NULL;
	gpu->port->bus_remove(gpu->port->priv, SHIM_KPOOL_PA);
fail:
	gpu_free(gpu);
	return -SHIM_EIO;
}

void shim_gpu_fini(struct shim_dev *dev)
{
	struct shim_gpu *gpu = dev->gpu;

	if (!gpu)
		return;
	for (int l = 0; l < SHIM_IRQ_LINES; l++)
		gpu_irq_free(&gpu->irq[l]);
	/* Masked, so the GPU raises nothing with no handler there. */
	gpu_write(gpu, NULL, MALI_JOB_IRQ_MASK, 0);
	gpu_write(gpu, NULL, MALI_MMU_IRQ_MASK, 0);
	gpu_write(gpu, NULL, MALI_GPU_IRQ_MASK, 0);
	gpu->port->bus_remove(gpu->port->priv, SHIM_KPOOL_PA);
	gpu_free(gpu);
	dev->gpu = NULL;
}

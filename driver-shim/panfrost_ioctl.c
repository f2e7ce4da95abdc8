// SPDX-License-Identifier: MIT
/*
 * The panfrost driver ioctls (Linux 6.1): buffer objects, parameters and
 * job submission. A submitted job waits for its in-syncobjs' fences, then
 * runs on slot 0 (fragment, PANFROST_JD_REQ_FS) or slot 1; its fence
 * replaces the out-syncobj's at submit time and marks its BOs busy for
 * WAIT_BO until it completes (successfully or not: panfrost reports job
 * faults through the kernel log, not through the fence).
 */
#include "driver-shim/drm_priv.h"
#include "vgpu/regs.h"

#define PAN_HEAP_ALIGN (2ull << 20)
#define PAN_MAX_BO_SIZE (4ull << 30)

struct pan_job {
	struct shim_job job;
	struct shim_file *file;
	struct shim_fence **in;
	unsigned nin;
	struct pan_bo **bos;
	unsigned nbos;
	struct shim_fence *done;
	struct shim_list link; /* drm_dev_priv.jobs */
	bool submitted;
};

static void pan_perfcnt_off(struct drm_file_priv *p);

static void job_free(struct shim_dev *dev, struct pan_job *j)
{
	for (unsigned i = 0; i < j->nin; i++)
		fence_put(j->in[i]);
	for (unsigned i = 0; i < j->nbos; i++) {
		j->bos[i]->busy--;
		pan_bo_put(dev, j->bos[i]);
	}
	if (j->file->drm)
		drm_prime_unmap_idle(j->file->drm, false);
	fence_put(j->done);
	os_free(j->in);
	os_free(j->bos);
	os_free(j);
}

/* The error a job's fence carries, as Linux panfrost sets it: a job
 * hard-stopped (the watchdog gave up on it) or dropped is cancelled, any
 * other failure is EINVAL. (A soft-stopped one never ends here: it is
 * resumed.) */
static int fence_error(uint32_t status)
{
	if (status == MALI_EXC_DONE)
		return 0;
	if (status == MALI_EXC_TERMINATED || status == SHIM_JOB_STATUS_CANCELLED)
		return -SHIM_ECANCELED;
	return -SHIM_EINVAL;
}

static void job_done(struct shim_job *sj, uint32_t status)
{
	struct pan_job *j = shim_container_of(sj, struct pan_job, job);
	struct shim_dev *dev = j->file->dev;

	if (status != MALI_EXC_DONE)
		os_info("panfrost", "job 0x%llx failed: status 0x%x",
			(unsigned long long)sj->jc, status);
	j->done->signaled = true;
	j->done->error = fence_error(status);
	shim_list_del(&j->link);
	job_free(dev, j);
	/* Other jobs may have waited on this fence. */
	pan_fence_signalled(dev);
	shim_wake_all(dev);
}

/* Starts every queued job whose in-fences have all signalled. */
void pan_fence_signalled(struct shim_dev *dev)
{
	struct shim_list *pos, *tmp;
	bool again = true;

	while (again) {
		again = false;
		shim_list_for_each_safe(pos, tmp, &dev->drm->jobs) {
			struct pan_job *j = shim_container_of(pos, struct pan_job, link);
			bool ready = !j->submitted;

			for (unsigned i = 0; ready && i < j->nin; i++)
				ready = j->in[i]->signaled;
			if (!ready)
				continue;
			j->submitted = true;
			shim_job_submit(dev, &j->job);
			/* A synchronous completion edits the list. */
			again = true;
			break;
		}
	}
}

void pan_file_release(struct drm_file_priv *p)
{
	struct shim_dev *dev = p->file->dev;
	struct shim_list *pos, *tmp;

	/* Jobs not yet on the hardware are dropped; job teardown cancels
	 * the rest through job_done(). */
	shim_list_for_each_safe(pos, tmp, &dev->drm->jobs) {
		struct pan_job *j = shim_container_of(pos, struct pan_job, link);

		if (j->file != p->file || j->submitted)
			continue;
		j->done->signaled = true;
		j->done->error = -SHIM_ECANCELED;
		shim_list_del(&j->link);
		job_free(dev, j);
	}
	pan_perfcnt_off(p);
	shim_job_ctx_teardown(dev, p->file->ctx);
	pan_fence_signalled(dev);
}

static long create_bo(struct drm_file_priv *p, struct pan_create_bo_arg *a,
		      struct shim_acct *acct)
{
	struct shim_ctx *ctx = p->file->ctx;
	struct pan_bo *bo;
	uint64_t size, align;
	unsigned prot = SHIM_PROT_READ | SHIM_PROT_WRITE;
	long ret;

	if (!a->size || a->pad || (a->flags & ~(PAN_BO_NOEXEC | PAN_BO_HEAP)))
		return -SHIM_EINVAL;
	/* Heaps are never executable. */
	if ((a->flags & PAN_BO_HEAP) && !(a->flags & PAN_BO_NOEXEC))
		return -SHIM_EINVAL;
	size = (a->flags & PAN_BO_HEAP) ? OS_ALIGN_UP((uint64_t)a->size, PAN_HEAP_ALIGN)
					: OS_ALIGN_UP((uint64_t)a->size, SHIM_PAGE_SIZE);
	if (size > PAN_MAX_BO_SIZE)
		return -SHIM_ENOMEM;
	bo = os_zalloc(sizeof(*bo));
	if (!bo)
		return -SHIM_ENOMEM;
	if (shim_ctx_phys_alloc(ctx, size, &bo->phys_off)) {
		os_free(bo);
		return -SHIM_ENOMEM;
	}
	align = ((a->flags & PAN_BO_NOEXEC) && size >= PAN_HEAP_ALIGN) ? PAN_HEAP_ALIGN
								      : SHIM_PAGE_SIZE;
	if (ralloc_alloc(&p->va, size, align, &bo->gpu_va)) {
		shim_ctx_phys_free(ctx, bo->phys_off, size);
		os_free(bo);
		return -SHIM_ENOMEM;
	}
	if (!(a->flags & PAN_BO_NOEXEC))
		prot |= SHIM_PROT_EXEC;
	bo->owner = shim_ctx_get(ctx);
	bo->owner_file = p;
	bo->size = size;
	bo->flags = a->flags;
	bo->prot = prot;
	shim_list_add_tail(&bo->link, &p->file->dev->drm->bos);
	/* Heap BOs start unmapped and grow on GPU faults (pan_grow). */
	ret = 0;
	if (!(a->flags & PAN_BO_HEAP))
		ret = shim_ctx_map(ctx, bo->gpu_va, bo->phys_off,
				   size / SHIM_PAGE_SIZE, prot, acct);
	if (!ret)
		ret = drm_bo_handle_new(p, bo, bo->gpu_va, &a->handle);
	if (ret) {
		bo->refs = 1;
		pan_bo_put(p->file->dev, bo);
		return ret == -SHIM_ENOSPC ? -SHIM_ENOSPC : -SHIM_ENOMEM;
	}
	a->offset = bo->gpu_va;
	return 0;
}

/* A GPU fault in a heap BO maps the 2 MiB chunk around it (Linux 6.1's
 * panfrost_mmu_map_fault_addr). */
int pan_grow(struct shim_ctx *ctx, uint64_t va, struct shim_acct *a)
{
	struct drm_file_priv *p = ctx->grow_owner;
	struct shim_list *pos, *tmp;

	shim_list_for_each_safe(pos, tmp, &p->file->dev->drm->bos) {
		struct pan_bo *bo = shim_container_of(pos, struct pan_bo, link);
		uint64_t chunk;

		if (bo->owner_file != p || !(bo->flags & PAN_BO_HEAP) ||
		    va < bo->gpu_va || va - bo->gpu_va >= bo->size)
			continue;
		chunk = (va - bo->gpu_va) & ~(PAN_HEAP_ALIGN - 1);
		return shim_ctx_map(ctx, bo->gpu_va + chunk, bo->phys_off + chunk,
				    OS_MIN(PAN_HEAP_ALIGN, bo->size - chunk) / SHIM_PAGE_SIZE,
				    SHIM_PROT_READ | SHIM_PROT_WRITE, a);
	}
	return -SHIM_EFAULT;
}

static long mmap_bo(struct drm_file_priv *p, struct pan_mmap_bo_arg *a)
{
	struct pan_bo *bo;

	if (a->flags)
		return -SHIM_EINVAL;
	bo = drm_bo_lookup(p, a->handle);
	if (!bo)
		return -SHIM_ENOENT;
	/* Heap pages are not pinned in Linux: no CPU mapping. */
	if (bo->flags & PAN_BO_HEAP)
		return -SHIM_EINVAL;
	if (!bo->mmap_offset) {
		bo->mmap_offset = p->file->dev->drm->next_mmap_offset;
		p->file->dev->drm->next_mmap_offset += OS_ALIGN_UP(bo->size, SHIM_PAGE_SIZE);
	}
	a->offset = bo->mmap_offset;
	return 0;
}

static long wait_bo(struct shim_file *f, struct shim_caller *c,
		    struct pan_wait_bo_arg *a)
{
	struct pan_bo *bo;
	long ret = 0;

	if (a->pad)
		return -SHIM_EINVAL;
	bo = drm_bo_lookup(f->drm, a->handle);
	if (!bo)
		return -SHIM_ENOENT;
	bo->refs++;
	/* timeout_ns is an absolute CLOCK_MONOTONIC time. */
	while (bo->busy) {
		if (a->timeout_ns <= 0 || (uint64_t)a->timeout_ns <= os_time_ns()) {
			ret = a->timeout_ns > 0 ? -SHIM_ETIMEDOUT : -SHIM_EBUSY;
			break;
		}
		ret = shim_wait(f->dev, c, (uint64_t)a->timeout_ns);
		if (ret == -SHIM_EINTR)
			break;
		ret = 0;
	}
	pan_bo_put(f->dev, bo);
	return ret;
}

static uint64_t param_value(struct shim_dev *dev, uint32_t param, bool *ok)
{
	const struct shim_gpu_regs *r = &dev->regs;

	*ok = true;
	if (param >= PAN_PARAM_JS_FEATURES0 && param <= PAN_PARAM_JS_FEATURES15)
		return r->js_features[param - PAN_PARAM_JS_FEATURES0];
	if (param >= PAN_PARAM_TEXTURE_FEATURES0 && param <= PAN_PARAM_TEXTURE_FEATURES3)
		return r->texture_features[param - PAN_PARAM_TEXTURE_FEATURES0];
	switch (param) {
	case PAN_PARAM_GPU_PROD_ID: return r->gpu_id >> 16;
	case PAN_PARAM_GPU_REVISION: return r->gpu_id & 0xffff;
	case PAN_PARAM_SHADER_PRESENT: return r->shader_present;
	case PAN_PARAM_TILER_PRESENT: return r->tiler_present;
	case PAN_PARAM_L2_PRESENT: return r->l2_present;
	case PAN_PARAM_STACK_PRESENT: return r->stack_present;
	case PAN_PARAM_AS_PRESENT: return r->as_present;
	case PAN_PARAM_JS_PRESENT: return r->js_present;
	case PAN_PARAM_L2_FEATURES: return r->l2_features;
	case PAN_PARAM_CORE_FEATURES: return r->core_features;
	case PAN_PARAM_TILER_FEATURES: return r->tiler_features;
	case PAN_PARAM_MEM_FEATURES: return r->mem_features;
	case PAN_PARAM_MMU_FEATURES: return r->mmu_features;
	case PAN_PARAM_THREAD_FEATURES: return r->thread_features;
	case PAN_PARAM_MAX_THREADS: return r->thread_max_threads;
	case PAN_PARAM_THREAD_MAX_WORKGROUP_SZ: return r->thread_max_workgroup_size;
	case PAN_PARAM_THREAD_MAX_BARRIER_SZ: return r->thread_max_barrier_size;
	case PAN_PARAM_COHERENCY_FEATURES: return r->coherency_features;
	case PAN_PARAM_NR_CORE_GROUPS: return 1;
	case PAN_PARAM_THREAD_TLS_ALLOC: return r->thread_tls_alloc;
	case PAN_PARAM_AFBC_FEATURES: return r->afbc_features;
	case PAN_PARAM_SYSTEM_TIMESTAMP: return shim_perfcnt_timestamp(dev);
	case PAN_PARAM_SYSTEM_TIMESTAMP_FREQUENCY: return shim_perfcnt_timestamp_hz(dev);
	}
	*ok = false;
	return 0;
}

static long submit(struct shim_file *f, struct shim_caller *c,
		   struct pan_submit_arg *a)
{
	struct drm_file_priv *p = f->drm;
	struct drm_syncobj *out = NULL;
	struct pan_job *j;
	uint32_t *h = NULL;
	long ret = 0;

	if (!a->jc)
		return -SHIM_EINVAL;
	if (a->requirements & ~(PAN_JD_REQ_FS | PAN_JD_REQ_CYCLE_COUNT))
		return -SHIM_EINVAL;
	if (a->out_sync) {
		out = drm_syncobj_lookup(p, a->out_sync);
		if (!out)
			return -SHIM_ENODEV;
	}
	if (a->in_sync_count > 4096 || a->bo_handle_count > 65536)
		return -SHIM_EINVAL;
	j = os_zalloc(sizeof(*j));
	if (!j)
		return -SHIM_ENOMEM;
	j->file = f;
	j->done = fence_new(false);
	j->in = os_zalloc((a->in_sync_count + 1) * sizeof(*j->in));
	j->bos = os_zalloc((a->bo_handle_count + 1) * sizeof(*j->bos));
	h = os_alloc((OS_MAX(a->in_sync_count, a->bo_handle_count) + 1) * sizeof(*h));
	if (!j->done || !j->in || !j->bos || !h) {
		ret = -SHIM_ENOMEM;
		goto fail;
	}
	if (shim_copy_in(c, h, a->in_syncs, a->in_sync_count * sizeof(*h))) {
		ret = -SHIM_EFAULT;
		goto fail;
	}
	for (unsigned i = 0; i < a->in_sync_count; i++) {
		struct shim_fence *fe;

		ret = drm_syncobj_fence(p, h[i], &fe);
		if (ret)
			goto fail;
		j->in[j->nin++] = fence_get(fe);
	}
	if (shim_copy_in(c, h, a->bo_handles, a->bo_handle_count * sizeof(*h))) {
		ret = -SHIM_EFAULT;
		goto fail;
	}
	for (unsigned i = 0; i < a->bo_handle_count; i++) {
		struct pan_bo *bo = drm_bo_lookup(p, h[i]);

		if (!bo) {
			ret = -SHIM_ENOENT;
			goto fail;
		}
		bo->refs++;
		bo->busy++;
		j->bos[j->nbos++] = bo;
	}
	/*
	 * Implicit synchronisation, as Linux 6.1 panfrost does through the
	 * BOs' reservations: every listed BO counts as written, so the job
	 * waits for the last job that listed any of them, and becomes the
	 * one the next job waits for.
	 */
	for (unsigned i = 0; i < j->nbos; i++) {
		struct pan_bo *bo = j->bos[i];

		if (bo->last && !bo->last->signaled && bo->last != j->done) {
			struct shim_fence **nin = os_realloc(j->in, (j->nin + 1) * sizeof(*nin));

			if (!nin) {
				ret = -SHIM_ENOMEM;
				goto fail;
			}
			j->in = nin;
			j->in[j->nin++] = fence_get(bo->last);
		}
	}
	for (unsigned i = 0; i < j->nbos; i++) {
		fence_put(j->bos[i]->last);
		j->bos[i]->last = fence_get(j->done);
	}
	os_free(h);
	j->job.ctx = f->ctx;
	j->job.jc = a->jc;
	j->job.slot = (a->requirements & PAN_JD_REQ_FS) ? 0 : 1;
	j->job.cycle_count = !!(a->requirements & PAN_JD_REQ_CYCLE_COUNT);
	j->job.done = job_done;
	j->job.owner = j;
	j->job.stat_index = 256 + DRM_COMMAND_BASE + PAN_NR_SUBMIT;
	if (out)
		drm_syncobj_replace(out, j->done);
	shim_list_add_tail(&j->link, &f->dev->drm->jobs);
	f->ctx->st_jobs++;
	pan_fence_signalled(f->dev);
	return 0;
fail:
	os_free(h);
	job_free(f->dev, j);
	return ret;
}

/* Counter blocks: job manager, tiler, each L2 slice, each shader core up
 * to the highest present one; 64 32-bit counters each. */
static uint64_t perfcnt_size(const struct shim_gpu_regs *r)
{
	unsigned nl2 = 0, ncores = 0;

	for (uint64_t v = r->l2_present; v; v &= v - 1)
		nl2++;
	for (uint64_t v = r->shader_present; v; v >>= 1)
		ncores++;
	return (2ull + nl2 + ncores) * 64 * 4;
}

static void pan_perfcnt_off(struct drm_file_priv *p)
{
	struct shim_file *f = p->file;

	if (f->dev->drm->perfcnt_owner != p)
		return;
	shim_perfcnt_disable(f->dev, f->ctx, NULL);
	shim_ctx_unmap(f->ctx, p->perf_va, p->perf_size / SHIM_PAGE_SIZE, NULL);
	ralloc_free(&p->va, p->perf_va, p->perf_size);
	shim_ctx_phys_free(f->ctx, p->perf_off, p->perf_size);
	f->dev->drm->perfcnt_owner = NULL;
}

static long perfcnt_on(struct shim_file *f, struct shim_acct *a)
{
	struct drm_file_priv *p = f->drm;
	uint64_t size = OS_ALIGN_UP(perfcnt_size(&f->dev->regs), SHIM_PAGE_SIZE);
	long ret;

	if (shim_ctx_phys_alloc(f->ctx, size, &p->perf_off))
		return -SHIM_ENOMEM;
	if (ralloc_alloc(&p->va, size, SHIM_PAGE_SIZE, &p->perf_va)) {
		shim_ctx_phys_free(f->ctx, p->perf_off, size);
		return -SHIM_ENOMEM;
	}
	p->perf_size = size;
	ret = shim_ctx_map(f->ctx, p->perf_va, p->perf_off, size / SHIM_PAGE_SIZE,
			   SHIM_PROT_READ | SHIM_PROT_WRITE, a);
	f->dev->drm->perfcnt_owner = p;
	if (!ret)
		ret = shim_perfcnt_enable(f->dev, f->ctx, p->perf_va, a);
	if (ret)
		pan_perfcnt_off(p);
	return ret;
}

static long perfcnt(struct shim_file *f, struct shim_caller *c, unsigned nr,
		    void *arg, struct shim_acct *a)
{
	struct drm_dev_priv *d = f->dev->drm;
	struct drm_file_priv *p = f->drm;
	long ret;

	/* Linux hides these behind the unstable_ioctls module parameter. */
	if (!f->dev->cfg.unstable_ioctls)
		return -SHIM_ENOSYS;
	if (nr == PAN_NR_PERFCNT_ENABLE) {
		struct pan_perfcnt_enable_arg *e = arg;

		if (e->enable > 1 || e->counterset > 1)
			return -SHIM_EINVAL;
		if (!e->enable) {
			if (d->perfcnt_owner != p)
				return -SHIM_EINVAL;
			pan_perfcnt_off(p);
			return 0;
		}
		/* One counter unit: taken by another file, or by a kbase
		 * KINSTR_PRFCNT reader, it is busy (Linux panfrost's EBUSY
		 * when its counters already have a user). */
		if (d->perfcnt_owner || f->dev->prfcnt_reader)
			return -SHIM_EBUSY;
		return perfcnt_on(f, a);
	}
	if (d->perfcnt_owner != p)
		return -SHIM_EINVAL;
	ret = shim_perfcnt_sample(f->dev, a);
	if (ret)
		return ret;
	if (shim_copy_out(c, ((struct pan_perfcnt_dump_arg *)arg)->buf_ptr,
			  f->ctx->backing.host + p->perf_off,
			  perfcnt_size(&f->dev->regs)))
		return -SHIM_EFAULT;
	return 0;
}

long pan_ioctl(struct shim_file *f, struct shim_caller *c, unsigned nr,
	       void *arg, struct shim_acct *a)
{
	struct drm_file_priv *p = f->drm;

	switch (nr) {
	case PAN_NR_SUBMIT:
		return submit(f, c, arg);
	case PAN_NR_WAIT_BO:
		return wait_bo(f, c, arg);
	case PAN_NR_CREATE_BO:
		return create_bo(p, arg, a);
	case PAN_NR_MMAP_BO:
		return mmap_bo(p, arg);
	case PAN_NR_GET_PARAM: {
		struct pan_get_param_arg *g = arg;
		bool ok;

		if (g->pad)
			return -SHIM_EINVAL;
		g->value = param_value(f->dev, g->param, &ok);
		return ok ? 0 : -SHIM_EINVAL;
	}
	case PAN_NR_GET_BO_OFFSET: {
		struct pan_get_bo_offset_arg *g = arg;
		struct pan_bo *bo = drm_bo_lookup(p, g->handle);

		if (!bo)
			return -SHIM_ENOENT;
		g->offset = drm_bo_va(p, g->handle);
		return 0;
	}
	case PAN_NR_PERFCNT_ENABLE:
	case PAN_NR_PERFCNT_DUMP:
		return perfcnt(f, c, nr, arg, a);
	case PAN_NR_MADVISE: {
		struct pan_madvise_arg *m = arg;
		struct pan_bo *bo = drm_bo_lookup(p, m->handle);

		if (!bo)
			return -SHIM_ENOENT;
		/* Nothing is ever purged here, so the pages are retained. */
		bo->dontneed = m->madv == PAN_MADV_DONTNEED;
		m->retained = 1;
		return 0;
	}
	}
	return -SHIM_EINVAL;
}

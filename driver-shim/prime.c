// SPDX-License-Identifier: MIT
/*
 * PRIME: a GEM object as a dma-buf file object (shim.h) and back. One
 * dma-buf per BO while any descriptor of it lives, as drm_gem_prime
 * caches obj->dma_buf; importing it into the exporting file gives the
 * same handle, into another file maps the exporter's pages into that
 * file's address space too (the buffer then outlives its exporter), and
 * stays there while jobs use it, after its handle is closed. Its mmap
 * maps the BO's pages in the owner's backing: CPU and GPU coherent.
 */
#include "driver-shim/drm_priv.h"

/* <linux/dma-buf.h>: the begin/end CPU access bracket. */
#define DMA_BUF_IOC_SYNC_NR 0
#define DMA_BUF_SYNC_RW 3u
#define DMA_BUF_SYNC_END 4u

static void dmabuf_release(struct shim_fobj *o)
{
	struct pan_bo *bo = o->priv;

	bo->dmabuf = NULL;
	pan_bo_put(o->dev, bo);
}

static long dmabuf_ioctl(struct shim_fobj *o, struct shim_caller *c,
			 unsigned cmd, void *arg)
{
	uint64_t flags;

	(void)o, (void)c;
	if (SHIM_IOC_TYPE(cmd) != 'b' || SHIM_IOC_NR(cmd) != DMA_BUF_IOC_SYNC_NR ||
	    SHIM_IOC_SIZE(cmd) != 8)
		return -SHIM_ENOTTY;
	/* Pages are shared and coherent: nothing to flush, only checks. */
	os_memcpy(&flags, arg, sizeof(flags));
	if ((flags & ~(DMA_BUF_SYNC_RW | DMA_BUF_SYNC_END)) || !(flags & DMA_BUF_SYNC_RW))
		return -SHIM_EINVAL;
	return 0;
}

static unsigned dmabuf_poll(struct shim_fobj *o)
{
	(void)o;
	return SHIM_POLLIN; /* no implicit fences are tracked on it */
}

static int dmabuf_mmap(struct shim_fobj *o, uint64_t pgoff, uint64_t length,
		       uint32_t prot, struct shim_mmap_info *out)
{
	struct pan_bo *bo = o->priv;

	(void)prot;
	return shim_fobj_map_range(bo->owner, bo->phys_off, bo->size, pgoff, length, out);
}

/* Only the size can be found, as on Linux: SEEK_END or SEEK_SET, offset 0
 * (the SEEK_END, SEEK_SET pair an importer uses to size the buffer). */
static int64_t dmabuf_llseek(struct shim_fobj *o, int64_t off, int whence)
{
	struct pan_bo *bo = o->priv;

	if (off || (whence != SHIM_SEEK_SET && whence != SHIM_SEEK_END))
		return -SHIM_EINVAL;
	return whence == SHIM_SEEK_END ? (int64_t)bo->size : 0;
}

static const struct shim_fobj_ops dmabuf_ops = {
	.kind = SHIM_FOBJ_DMABUF,
	.release = dmabuf_release,
	.ioctl = dmabuf_ioctl,
	.poll = dmabuf_poll,
	.mmap_prepare = dmabuf_mmap,
	.llseek = dmabuf_llseek,
};

/*
 * An imported BO's mapping that a job in flight may still read: GEM_CLOSE
 * drops the handle at once, but, as panfrost's job keeps its mappings
 * (panfrost_gem_mapping) until it ends, the pages stay at their VA until
 * no job lists the BO. The record holds a reference to the BO.
 */
struct prime_unmap {
	struct shim_list link; /* drm_file_priv.unmaps */
	struct pan_bo *bo;
	uint64_t va;
};

static void unmap_now(struct drm_file_priv *p, struct pan_bo *bo, uint64_t va)
{
	shim_ctx_unmap(p->file->ctx, va, bo->size / SHIM_PAGE_SIZE, NULL);
	ralloc_free(&p->va, va, bo->size);
}

void drm_prime_unmap(struct drm_file_priv *p, struct pan_bo *bo, uint64_t va)
{
	struct prime_unmap *u = bo->busy ? os_zalloc(sizeof(*u)) : NULL;

	if (!u) {
		/* idle (or no memory for the record: as before, at once) */
		unmap_now(p, bo, va);
		return;
	}
	u->bo = bo;
	u->va = va;
	bo->refs++;
	shim_list_add_tail(&u->link, &p->unmaps);
}

void drm_prime_unmap_idle(struct drm_file_priv *p, bool all)
{
	struct shim_list *pos, *tmp;

	shim_list_for_each_safe(pos, tmp, &p->unmaps) {
		struct prime_unmap *u = shim_container_of(pos, struct prime_unmap, link);

		if (u->bo->busy && !all)
			continue;
		unmap_now(p, u->bo, u->va);
		pan_bo_put(p->file->dev, u->bo);
		shim_list_del(&u->link);
		os_free(u);
	}
}

long drm_prime_to_fd(struct drm_file_priv *p, struct shim_caller *c,
		     struct drm_prime_handle_arg *a)
{
	struct pan_bo *bo;
	struct shim_fobj *o;
	int fd;

	if (a->flags & ~(DRM_CLOEXEC | DRM_RDWR))
		return -SHIM_EINVAL;
	bo = drm_bo_lookup(p, a->handle);
	if (!bo)
		return -SHIM_ENOENT;
	if (bo->dmabuf) {
		o = shim_fobj_get(bo->dmabuf);
	} else {
		o = shim_fobj_new(p->file->dev, &dmabuf_ops, bo);
		if (!o)
			return -SHIM_ENOMEM;
		bo->refs++;
		bo->dmabuf = o;
	}
	fd = shim_fobj_install(c, o, a->flags & DRM_CLOEXEC);
	if (fd < 0)
		return fd;
	a->fd = fd;
	return 0;
}

long drm_prime_to_handle(struct drm_file_priv *p, struct shim_caller *c,
			 struct drm_prime_handle_arg *a)
{
	struct shim_fobj *o;
	struct pan_bo *bo;
	uint64_t va;
	int ret = shim_fobj_lookup(c, a->fd, SHIM_FOBJ_DMABUF, &o);

	if (ret)
		return ret;
	bo = o->priv;
	/* One handle per object and file, as GEM guarantees. */
	for (unsigned i = 0; i < p->nbos; i++) {
		if (p->bos[i] == bo) {
			a->handle = i + 1;
			goto out;
		}
	}
	/* The exporter itself, after closing its handle: the BO kept its
	 * mapping here (the dma-buf holds it), as a GEM object keeps its VA. */
	if (bo->owner_file == p) {
		ret = drm_bo_handle_new(p, bo, bo->gpu_va, &a->handle);
		goto out;
	}
	/* Another file's buffer: map its pages (in the exporter's backing)
	 * into this file's address space too. */
	if (ralloc_alloc(&p->va, bo->size, SHIM_PAGE_SIZE, &va)) {
		ret = -SHIM_ENOMEM;
		goto out;
	}
	ret = shim_ctx_map_pa(p->file->ctx, va, bo->owner->pa_base + bo->phys_off,
			      bo->size / SHIM_PAGE_SIZE, bo->prot, NULL);
	if (!ret)
		ret = drm_bo_handle_new(p, bo, va, &a->handle);
	if (ret)
		unmap_now(p, bo, va);
out:
	shim_fobj_put_locked(o);
	return ret;
}

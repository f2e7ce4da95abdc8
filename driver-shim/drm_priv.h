/* SPDX-License-Identifier: MIT */
/*
 * State of the DRM render node: per-file GEM handle and syncobj tables,
 * panfrost buffer objects, fences and the jobs that signal them.
 */
#ifndef VGPU_SHIM_DRM_PRIV_H
#define VGPU_SHIM_DRM_PRIV_H

#include "driver-shim/shim_internal.h"
#include "driver-shim/uapi_drm.h"

/* A GEM object. Its pages are in the owner context's backing. */
struct pan_bo {
	int refs;
	struct shim_ctx *owner;
	struct drm_file_priv *owner_file;
	uint64_t size;
	uint32_t flags;         /* PAN_BO_* */
	uint64_t phys_off;
	uint64_t mmap_offset;   /* fake offset for mmap, 0 until MMAP_BO */
	uint64_t gpu_va;        /* in the owner's address space */
	unsigned prot;          /* SHIM_PROT_* of its GPU mappings */
	unsigned busy;          /* jobs in flight that list it */
	struct shim_fence *last; /* fence of the last job that listed it */
	bool dontneed;
	struct shim_fobj *dmabuf; /* its PRIME export while one lives */
	struct shim_list link;  /* drm_dev_priv.bos */
};

/* A DRM syncobj: a (possibly empty) list of timeline points; a binary
 * syncobj is the same with a single point 0. */
struct sync_point {
	uint64_t point;
	struct shim_fence *fence;
};
struct drm_syncobj {
	int refs;
	unsigned npoints, cap;
	struct sync_point *points;
};

struct drm_file_priv {
	struct shim_file *file;
	struct pan_bo **bos;           /* GEM handle - 1 -> BO */
	unsigned nbos;
	uint64_t *bo_va;               /* GEM handle - 1 -> its GPU VA here */
	unsigned nbo_va;
	struct drm_syncobj **syncobjs; /* syncobj handle - 1 -> object */
	unsigned nsyncobjs;
	struct ralloc va;              /* GPU VA for BOs: 32 MiB .. 4 GiB - 32 MiB */
	struct shim_list unmaps;       /* imported BOs' mappings jobs still use */
	/* performance counter buffer while counters are enabled */
	uint64_t perf_va, perf_off, perf_size;
};

struct drm_dev_priv {
	struct shim_list bos;          /* every live BO */
	struct shim_list jobs;         /* panfrost jobs not yet finished */
	uint64_t next_mmap_offset;
	struct drm_file_priv *perfcnt_owner;
};

/* drm.c: handle tables. drm_handle_slot finds (or makes) a free slot in
 * a table of object pointers; handle = slot + 1. */
int drm_handle_slot(void ***table, unsigned *n, unsigned *slot);
struct pan_bo *drm_bo_lookup(struct drm_file_priv *p, uint32_t handle);
/* A new handle for @bo, mapped at @va in this file's address space. */
int drm_bo_handle_new(struct drm_file_priv *p, struct pan_bo *bo, uint64_t va,
		      uint32_t *handle);
/* Where handle @handle's BO is mapped for this file's GPU jobs. */
uint64_t drm_bo_va(struct drm_file_priv *p, uint32_t handle);

/* prime.c: an imported BO's mapping at @va leaves this file's address
 * space once no job in flight lists the BO; drm_prime_unmap_idle (after
 * a job, @all at release) unmaps those that became idle. */
void drm_prime_unmap(struct drm_file_priv *p, struct pan_bo *bo, uint64_t va);
void drm_prime_unmap_idle(struct drm_file_priv *p, bool all);
void pan_bo_put(struct shim_dev *dev, struct pan_bo *bo);

/* syncobj.c */
long drm_syncobj_ioctl(struct shim_file *f, struct shim_caller *c,
		       unsigned nr, void *arg);
struct drm_syncobj *drm_syncobj_lookup(struct drm_file_priv *p, uint32_t handle);
/* The fence a submit waits for: -ENOENT/-EINVAL as DRM's find_fence. */
int drm_syncobj_fence(struct drm_file_priv *p, uint32_t handle,
		      struct shim_fence **out);
void drm_syncobj_replace(struct drm_syncobj *s, struct shim_fence *f);
void drm_syncobj_file_release(struct drm_file_priv *p);
void syncobj_put(struct drm_syncobj *s);
int syncobj_handle_new(struct drm_file_priv *p, struct drm_syncobj *s,
		       uint32_t *handle);

/* prime.c: PRIME dma-bufs; syncobj_fd.c: syncobj files and sync_files */
long drm_prime_to_fd(struct drm_file_priv *p, struct shim_caller *c,
		     struct drm_prime_handle_arg *a);
long drm_prime_to_handle(struct drm_file_priv *p, struct shim_caller *c,
			 struct drm_prime_handle_arg *a);
long drm_syncobj_to_fd(struct drm_file_priv *p, struct shim_caller *c,
		       struct drm_syncobj_handle_arg *a);
long drm_syncobj_from_fd(struct drm_file_priv *p, struct shim_caller *c,
			 struct drm_syncobj_handle_arg *a);

/* panfrost_ioctl.c */
long pan_ioctl(struct shim_file *f, struct shim_caller *c, unsigned nr,
	       void *arg, struct shim_acct *a);
void pan_file_release(struct drm_file_priv *p);
void pan_fence_signalled(struct shim_dev *dev);
int pan_grow(struct shim_ctx *ctx, uint64_t va, struct shim_acct *a);

#endif

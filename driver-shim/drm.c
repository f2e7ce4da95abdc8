// SPDX-License-Identifier: MIT
/*
 * The DRM core as a render-node client meets it: dispatch by ioctl number
 * alone (the size in the request only says how much the client passed;
 * missing bytes read as zero, as drm_ioctl() does), render-node
 * permissions, VERSION, GET_CAP, SET_CLIENT_CAP, GEM handles.
 * PRIME itself is in prime.c.
 */
#include "driver-shim/drm_priv.h"

#define DRM_DRIVER_NAME "panfrost"
#define DRM_DRIVER_DATE "20180908"
#define DRM_DRIVER_DESC "panfrost DRM"
/* panfrost 1.3: HEAP/NOEXEC BOs (1.1), AFBC_FEATURES (1.2), the
 * CYCLE_COUNT submit requirement and the SYSTEM_TIMESTAMP(_FREQUENCY)
 * params (1.3). 1.4 (SET_LABEL_BO) is not served. */
#define DRM_DRIVER_MAJOR 1
#define DRM_DRIVER_MINOR 3
/* GPU VA window Linux's panfrost gives each file. */
#define PAN_VA_START (32ull << 20)
#define PAN_VA_END ((4ull << 30) - (32ull << 20))

int drm_dev_init(struct shim_dev *dev)
{
	struct drm_dev_priv *d = os_zalloc(sizeof(*d));

	if (!d)
		return -SHIM_ENOMEM;
	shim_list_init(&d->bos);
	shim_list_init(&d->jobs);
	d->next_mmap_offset = DRM_FILE_PAGE_OFFSET_START;
	dev->drm = d;
	return 0;
}

void drm_dev_fini(struct shim_dev *dev)
{
	os_free(dev->drm);
	dev->drm = NULL;
}

int drm_file_open(struct shim_file *f)
{
	struct drm_file_priv *p = os_zalloc(sizeof(*p));

	if (!p)
		return -SHIM_ENOMEM;
	p->file = f;
	/* Each file is its own GPU address space (panfrost_open). */
	f->ctx = shim_ctx_create(f->dev, false);
	if (!f->ctx) {
		os_free(p);
		return -SHIM_ENOMEM;
	}
	ralloc_init(&p->va, PAN_VA_START, PAN_VA_END - PAN_VA_START);
	shim_list_init(&p->unmaps);
	f->ctx->grow = pan_grow;
	f->ctx->grow_owner = p;
	f->drm = p;
	return 0;
}

void pan_bo_put(struct shim_dev *dev, struct pan_bo *bo)
{
	(void)dev;
	if (--bo->refs)
		return;
	if (bo->owner_file) {
		shim_ctx_unmap(bo->owner, bo->gpu_va, bo->size / SHIM_PAGE_SIZE, NULL);
		ralloc_free(&bo->owner_file->va, bo->gpu_va, bo->size);
	}
	/* The pages belong to the owner's backing, alive through our ref. */
	shim_ctx_phys_free(bo->owner, bo->phys_off, bo->size);
	fence_put(bo->last);
	shim_ctx_put(bo->owner);
	shim_list_del(&bo->link);
	os_free(bo);
}

/* Drops handle @h of @p: an imported BO also leaves this address space. */
static void handle_drop(struct drm_file_priv *p, uint32_t h)
{
	struct pan_bo *bo = p->bos[h - 1];

	if (bo->owner_file != p)
		drm_prime_unmap(p, bo, p->bo_va[h - 1]);
	p->bos[h - 1] = NULL;
	pan_bo_put(p->file->dev, bo);
}

void drm_file_release(struct shim_file *f)
{
	struct drm_file_priv *p = f->drm;
	struct shim_list *pos, *tmp;

	if (!p)
		return;
	pan_file_release(p);
	drm_syncobj_file_release(p);
	for (unsigned i = 0; i < p->nbos; i++)
		if (p->bos[i])
			handle_drop(p, i + 1);
	drm_prime_unmap_idle(p, true);
	os_free(p->bos);
	os_free(p->bo_va);
	/* BOs of this file other files imported stay: their pages live in
	 * this context's backing, which their references keep. */
	shim_list_for_each_safe(pos, tmp, &f->dev->drm->bos) {
		struct pan_bo *bo = shim_container_of(pos, struct pan_bo, link);

		if (bo->owner_file == p)
			bo->owner_file = NULL;
	}
	ralloc_fini(&p->va);
	shim_ctx_destroy(f->ctx);
	f->ctx = NULL;
	os_free(p);
	f->drm = NULL;
}

struct pan_bo *drm_bo_lookup(struct drm_file_priv *p, uint32_t handle)
{
	if (!handle || handle > p->nbos)
		return NULL;
	return p->bos[handle - 1];
}

int drm_handle_slot(void ***table, unsigned *n, unsigned *slot)
{
	unsigned i;

	for (i = 0; i < *n; i++)
		if (!(*table)[i])
			break;
	if (i == *n) {
		unsigned cap = *n ? *n * 2 : 16;
		void **nt;

		/* GEM's idr hands out at most about a million handles here. */
		if (cap > (1u << 20))
			return -SHIM_ENOSPC;
		nt = os_realloc(*table, cap * sizeof(*nt));
		if (!nt)
			return -SHIM_ENOMEM;
		os_memset(nt + *n, 0, (cap - *n) * sizeof(*nt));
		*table = nt;
		*n = cap;
	}
	*slot = i;
	return 0;
}

int drm_bo_handle_new(struct drm_file_priv *p, struct pan_bo *bo, uint64_t va,
		      uint32_t *handle)
{
	unsigned i;
	int ret = drm_handle_slot((void ***)&p->bos, &p->nbos, &i);

	if (ret)
		return ret;
	if (p->nbo_va < p->nbos) {
		uint64_t *nv = os_realloc(p->bo_va, p->nbos * sizeof(*nv));

		if (!nv)
			return -SHIM_ENOMEM;
		p->bo_va = nv;
		p->nbo_va = p->nbos;
	}
	p->bos[i] = bo;
	p->bo_va[i] = va;
	bo->refs++;
	*handle = i + 1;
	return 0;
}

uint64_t drm_bo_va(struct drm_file_priv *p, uint32_t handle)
{
	return p->bo_va[handle - 1];
}

/* drm_copy_field(): report the full length, copy what fits. */
static int copy_field(struct shim_caller *c, uint64_t *len, uint64_t buf,
		      const char *s)
{
	uint64_t n = os_strlen(s), copy = OS_MIN(n, *len);

	*len = n;
	if (copy && buf && shim_copy_out(c, buf, s, copy))
		return -SHIM_EFAULT;
	return 0;
}

static long drm_version(struct shim_caller *c, struct drm_version_arg *v)
{
	v->version_major = DRM_DRIVER_MAJOR;
	v->version_minor = DRM_DRIVER_MINOR;
	v->version_patchlevel = 0;
	if (copy_field(c, &v->name_len, v->name, DRM_DRIVER_NAME) ||
	    copy_field(c, &v->date_len, v->date, DRM_DRIVER_DATE) ||
	    copy_field(c, &v->desc_len, v->desc, DRM_DRIVER_DESC))
		return -SHIM_EFAULT;
	return 0;
}

static long drm_get_cap(struct drm_get_cap_arg *c)
{
	switch (c->capability) {
	case DRM_CAP_TIMESTAMP_MONOTONIC:
		c->value = 1;
		return 0;
	case DRM_CAP_PRIME:
		c->value = DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT;
		return 0;
	case DRM_CAP_SYNCOBJ:
	case DRM_CAP_SYNCOBJ_TIMELINE:
		c->value = 1;
		return 0;
	}
	/* The rest only exist on drivers with mode setting. */
	return -SHIM_EOPNOTSUPP;
}

static long drm_gem_close(struct drm_file_priv *p, struct drm_gem_close_arg *g)
{
	if (!drm_bo_lookup(p, g->handle))
		return -SHIM_EINVAL;
	handle_drop(p, g->handle);
	return 0;
}

/* Core ioctls that exist but are not for render nodes (EACCES there). */
static bool core_not_render(unsigned nr)
{
	static const uint8_t list[] = {
		0x01, 0x02, 0x05, 0x06, 0x07, 0x0a, 0x0b, 0x0d, 0x10, 0x11,
		0x12, 0x13, 0x1e, 0x1f, 0x27, 0x28, 0x3a, 0x3b, 0x3c, 0x3f,
		0xc6, 0xc7, 0xc8, 0xc9, 0xce, 0xd0,
	};

	if (nr >= 0xa0 && nr <= 0xbe)
		return true; /* mode setting */
	for (unsigned i = 0; i < sizeof(list); i++)
		if (list[i] == nr)
			return true;
	return false;
}

/* The input arrays of DRM ioctls, each an address and a count in the
 * argument: SUBMIT's in-syncs and BOs, the syncobj calls' handles and
 * points (QUERY's points are its output). */
#define ARRAY_OF(nr, T, ptr, count, size) \
	{ nr, offsetof(struct T, ptr), offsetof(struct T, count), size }
static const struct {
	uint8_t nr, ptr, count, size;
} in_arrays[] = {
	ARRAY_OF(DRM_COMMAND_BASE + PAN_NR_SUBMIT, pan_submit_arg, in_syncs, in_sync_count, 4),
	ARRAY_OF(DRM_COMMAND_BASE + PAN_NR_SUBMIT, pan_submit_arg, bo_handles, bo_handle_count, 4),
	ARRAY_OF(DRM_NR_SYNCOBJ_WAIT, drm_syncobj_wait_arg, handles, count_handles, 4),
	ARRAY_OF(DRM_NR_SYNCOBJ_TIMELINE_WAIT, drm_syncobj_timeline_wait_arg, handles,
		 count_handles, 4),
	ARRAY_OF(DRM_NR_SYNCOBJ_TIMELINE_WAIT, drm_syncobj_timeline_wait_arg, points,
		 count_handles, 8),
	ARRAY_OF(DRM_NR_SYNCOBJ_RESET, drm_syncobj_array_arg, handles, count_handles, 4),
	ARRAY_OF(DRM_NR_SYNCOBJ_SIGNAL, drm_syncobj_array_arg, handles, count_handles, 4),
	ARRAY_OF(DRM_NR_SYNCOBJ_QUERY, drm_syncobj_timeline_array_arg, handles,
		 count_handles, 4),
	ARRAY_OF(DRM_NR_SYNCOBJ_TIMELINE_SIGNAL, drm_syncobj_timeline_array_arg, handles,
		 count_handles, 4),
	ARRAY_OF(DRM_NR_SYNCOBJ_TIMELINE_SIGNAL, drm_syncobj_timeline_array_arg, points,
		 count_handles, 8),
};

unsigned drm_ioctl_precopy(unsigned cmd, const void *arg, struct shim_urange *r)
{
	unsigned n = 0;

	/* As drm_ioctl() dispatches: by number alone. */
	for (unsigned i = 0; i < OS_ARRAY_SIZE(in_arrays) && n < SHIM_PRECOPY_MAX; i++) {
		const uint8_t *a = arg;
		uint64_t ptr;
		uint32_t count;

		if (in_arrays[i].nr != SHIM_IOC_NR(cmd))
			continue;
		os_memcpy(&ptr, a + in_arrays[i].ptr, sizeof(ptr));
		os_memcpy(&count, a + in_arrays[i].count, sizeof(count));
		r[n++] = (struct shim_urange){ ptr, (size_t)count * in_arrays[i].size };
	}
	return n;
}

long drm_ioctl(struct shim_file *f, struct shim_caller *c, unsigned cmd,
	       void *arg, struct shim_acct *a)
{
	struct drm_file_priv *p = f->drm;
	unsigned nr = SHIM_IOC_NR(cmd);

	if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END) {
		if (nr - DRM_COMMAND_BASE >= PAN_NUM_IOCTLS)
			return -SHIM_EINVAL;
		return pan_ioctl(f, c, nr - DRM_COMMAND_BASE, arg, a);
	}
	switch (nr) {
	case DRM_NR_VERSION:
		return drm_version(c, arg);
	case DRM_NR_GET_CAP:
		return drm_get_cap(arg);
	case DRM_NR_GEM_CLOSE:
		return drm_gem_close(p, arg);
	case DRM_NR_PRIME_HANDLE_TO_FD:
		return drm_prime_to_fd(p, c, arg);
	case DRM_NR_PRIME_FD_TO_HANDLE:
		return drm_prime_to_handle(p, c, arg);
	case DRM_NR_SYNCOBJ_CREATE:
	case DRM_NR_SYNCOBJ_DESTROY:
	case DRM_NR_SYNCOBJ_HANDLE_TO_FD:
	case DRM_NR_SYNCOBJ_FD_TO_HANDLE:
	case DRM_NR_SYNCOBJ_WAIT:
	case DRM_NR_SYNCOBJ_RESET:
	case DRM_NR_SYNCOBJ_SIGNAL:
	case DRM_NR_SYNCOBJ_TIMELINE_WAIT:
	case DRM_NR_SYNCOBJ_QUERY:
	case DRM_NR_SYNCOBJ_TRANSFER:
	case DRM_NR_SYNCOBJ_TIMELINE_SIGNAL:
		return drm_syncobj_ioctl(f, c, nr, arg);
	}
	if (core_not_render(nr))
		return -SHIM_EACCES;
	return -SHIM_EINVAL;
}

int drm_mmap_prepare(struct shim_file *f, uint64_t pgoff, uint64_t length,
		     struct shim_mmap_info *out)
{
	struct shim_list *pos, *tmp;
	uint64_t off = pgoff << SHIM_PAGE_SHIFT;

	if (pgoff >> (64 - SHIM_PAGE_SHIFT))
		return -SHIM_EINVAL;
	shim_list_for_each_safe(pos, tmp, &f->dev->drm->bos) {
		struct pan_bo *bo = shim_container_of(pos, struct pan_bo, link);
		bool mine = false;

		if (!bo->mmap_offset || bo->mmap_offset != off)
			continue;
		/* The fake offset only works through a file holding a handle. */
		for (unsigned i = 0; i < f->drm->nbos; i++)
			mine |= f->drm->bos[i] == bo;
		if (!mine)
			return -SHIM_EACCES;
		if (length > bo->size)
			return -SHIM_EINVAL;
		out->backing = bo->owner->backing.handle;
		out->offset = bo->phys_off;
		out->length = length;
		return 0;
	}
	return -SHIM_EINVAL;
}

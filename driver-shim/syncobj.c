// SPDX-License-Identifier: MIT
/*
 * DRM syncobjs, binary and timeline, and the fences behind them. A
 * syncobj holds a list of (point, fence); binary operations use a single
 * point 0, timeline ones add points. Waits take absolute CLOCK_MONOTONIC
 * deadlines and time out with ETIME, as drm_syncobj does.
 * Their files and sync_files (HANDLE_TO_FD/FD_TO_HANDLE): syncobj_fd.c.
 */
#include "driver-shim/drm_priv.h"

#define SYNCOBJ_MAX_WAIT 4096

struct shim_fence *fence_new(bool signaled)
{
	struct shim_fence *f = os_zalloc(sizeof(*f));

	if (f) {
		f->refs = 1;
		f->signaled = signaled;
	}
	return f;
}

struct shim_fence *fence_get(struct shim_fence *f)
{
	if (f)
		f->refs++;
	return f;
}

void fence_put(struct shim_fence *f)
{
	if (f && !--f->refs)
		os_free(f);
}

static void syncobj_clear(struct drm_syncobj *s)
{
	for (unsigned i = 0; i < s->npoints; i++)
		fence_put(s->points[i].fence);
	s->npoints = 0;
}

void syncobj_put(struct drm_syncobj *s)
{
	if (--s->refs)
		return;
	syncobj_clear(s);
	os_free(s->points);
	os_free(s);
}

static int syncobj_add_point(struct drm_syncobj *s, uint64_t point,
			     struct shim_fence *f)
{
	if (s->npoints == s->cap) {
		unsigned n = s->cap ? s->cap * 2 : 4;
		struct sync_point *np = os_realloc(s->points, n * sizeof(*np));

		if (!np)
			return -SHIM_ENOMEM;
		s->points = np;
		s->cap = n;
	}
	s->points[s->npoints].point = point;
	s->points[s->npoints].fence = fence_get(f);
	s->npoints++;
	return 0;
}

void drm_syncobj_replace(struct drm_syncobj *s, struct shim_fence *f)
{
	syncobj_clear(s);
	if (f)
		syncobj_add_point(s, 0, f);
}

struct drm_syncobj *drm_syncobj_lookup(struct drm_file_priv *p, uint32_t h)
{
	if (!h || h > p->nsyncobjs)
		return NULL;
	return p->syncobjs[h - 1];
}

int syncobj_handle_new(struct drm_file_priv *p, struct drm_syncobj *s,
		       uint32_t *handle)
{
	unsigned i;
	int ret = drm_handle_slot((void ***)&p->syncobjs, &p->nsyncobjs, &i);

	if (ret)
		return ret;
	p->syncobjs[i] = s;
	s->refs++;
	*handle = i + 1;
	return 0;
}

void drm_syncobj_file_release(struct drm_file_priv *p)
{
	for (unsigned i = 0; i < p->nsyncobjs; i++)
		if (p->syncobjs[i])
			syncobj_put(p->syncobjs[i]);
	os_free(p->syncobjs);
	p->syncobjs = NULL;
	p->nsyncobjs = 0;
}

/* The fence that covers @point (the last one for binary use). */
static struct shim_fence *point_fence(struct drm_syncobj *s, uint64_t point,
				      bool binary)
{
	if (!s->npoints)
		return NULL;
	if (binary)
		return s->points[s->npoints - 1].fence;
	for (unsigned i = 0; i < s->npoints; i++)
		if (s->points[i].point >= point)
			return s->points[i].fence;
	return NULL;
}

/* Signalled: the covering fence and every earlier one are done. */
static bool point_signaled(struct drm_syncobj *s, uint64_t point, bool binary)
{
	struct shim_fence *f = point_fence(s, point, binary);

	if (!f)
		return false;
	for (unsigned i = 0; i < s->npoints; i++) {
		if (!s->points[i].fence->signaled)
			return false;
		if (s->points[i].fence == f)
			break;
	}
	return true;
}

int drm_syncobj_fence(struct drm_file_priv *p, uint32_t handle,
		      struct shim_fence **out)
{
	struct drm_syncobj *s = drm_syncobj_lookup(p, handle);

	if (!s)
		return -SHIM_ENOENT;
	*out = point_fence(s, 0, true);
	return *out ? 0 : -SHIM_EINVAL;
}

static long syncobj_create(struct drm_file_priv *p,
			   struct drm_syncobj_create_arg *a)
{
	struct drm_syncobj *s;
	long ret;

	if (a->flags & ~DRM_SYNCOBJ_CREATE_SIGNALED)
		return -SHIM_EINVAL;
	s = os_zalloc(sizeof(*s));
	if (!s)
		return -SHIM_ENOMEM;
	if (a->flags & DRM_SYNCOBJ_CREATE_SIGNALED) {
		struct shim_fence *f = fence_new(true);

		if (!f || syncobj_add_point(s, 0, f)) {
			fence_put(f);
			os_free(s);
			return -SHIM_ENOMEM;
		}
		fence_put(f);
	}
	ret = syncobj_handle_new(p, s, &a->handle);
	if (ret) {
		s->refs = 1;
		syncobj_put(s);
	}
	return ret;
}

/* Copies in and looks up @count handles (and points). */
static long lookup_array(struct drm_file_priv *p, struct shim_caller *c,
			 uint64_t uhandles, uint64_t upoints, uint32_t count,
			 struct drm_syncobj ***objs, uint64_t **points)
{
	uint32_t *h;
	long ret = 0;

	*objs = NULL;
	*points = NULL;
	if (!count)
		return -SHIM_EINVAL;
	if (count > SYNCOBJ_MAX_WAIT)
		return -SHIM_EINVAL;
	h = os_alloc(count * sizeof(*h));
	*objs = os_zalloc(count * sizeof(**objs));
	*points = os_zalloc(count * sizeof(**points));
	if (!h || !*objs || !*points) {
		ret = -SHIM_ENOMEM;
		goto out;
	}
	if (shim_copy_in(c, h, uhandles, count * sizeof(*h)) ||
	    (upoints && shim_copy_in(c, *points, upoints, count * sizeof(**points)))) {
		ret = -SHIM_EFAULT;
		goto out;
	}
	for (uint32_t i = 0; i < count && !ret; i++) {
		(*objs)[i] = drm_syncobj_lookup(p, h[i]);
		if (!(*objs)[i])
			ret = -SHIM_ENOENT;
	}
	/* Hold them: a wait sleeps, and another thread may destroy handles. */
	for (uint32_t i = 0; i < count && !ret; i++)
		(*objs)[i]->refs++;
out:
	os_free(h);
	if (ret) {
		os_free(*objs);
		os_free(*points);
		*objs = NULL;
		*points = NULL;
	}
	return ret;
}

static void put_array(struct drm_syncobj **objs, uint64_t *points,
		      uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		syncobj_put(objs[i]);
	os_free(objs);
	os_free(points);
}

static long syncobj_wait(struct shim_file *f, struct shim_caller *c,
			 uint64_t uhandles, uint64_t upoints, uint32_t count,
			 uint32_t flags, int64_t timeout, uint32_t *first)
{
	const uint32_t allowed = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE |
				 (upoints ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE : 0);
	bool binary = !upoints, all = flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	struct drm_syncobj **objs;
	uint64_t *points;
	long ret;

	if (flags & ~allowed)
		return -SHIM_EINVAL;
	ret = lookup_array(f->drm, c, uhandles, upoints, count, &objs, &points);
	if (ret)
		return ret;
	/* Without WAIT_FOR_SUBMIT, waiting on nothing is an error. */
	if (!(flags & (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
		       DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE))) {
		for (uint32_t i = 0; i < count; i++) {
			if (!point_fence(objs[i], points[i], binary)) {
				ret = -SHIM_EINVAL;
				goto out;
			}
		}
	}
	for (;;) {
		uint32_t done = 0, firstdone = ~0u;

		for (uint32_t i = 0; i < count; i++) {
			bool ok = (flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE)
					  ? point_fence(objs[i], points[i], binary) != NULL
					  : point_signaled(objs[i], points[i], binary);

			if (ok) {
				done++;
				if (firstdone == ~0u)
					firstdone = i;
			}
		}
		if (all ? done == count : done > 0) {
			*first = all ? 0 : firstdone;
			ret = 0;
			break;
		}
		if (timeout <= 0 || (uint64_t)timeout <= os_time_ns()) {
			ret = -SHIM_ETIME;
			break;
		}
		ret = shim_wait(f->dev, c, (uint64_t)timeout);
		if (ret == -SHIM_EINTR)
			break;
	}
out:
	put_array(objs, points, count);
	return ret;
}

static long syncobj_signal(struct drm_file_priv *p, struct shim_caller *c,
			   uint64_t uhandles, uint64_t upoints, uint32_t count,
			   bool reset)
{
	struct drm_syncobj **objs;
	uint64_t *points;
	long ret = lookup_array(p, c, uhandles, upoints, count, &objs, &points);

	if (ret)
		return ret;
	for (uint32_t i = 0; i < count && !ret; i++) {
		struct shim_fence *f;

		if (reset) {
			drm_syncobj_replace(objs[i], NULL);
			continue;
		}
		f = fence_new(true);
		if (!f) {
			ret = -SHIM_ENOMEM;
			break;
		}
		if (upoints)
			ret = syncobj_add_point(objs[i], points[i], f);
		else
			drm_syncobj_replace(objs[i], f);
		fence_put(f);
	}
	put_array(objs, points, count);
	shim_wake_all(p->file->dev);
	return ret;
}

static long syncobj_query(struct drm_file_priv *p, struct shim_caller *c,
			  struct drm_syncobj_timeline_array_arg *a)
{
	struct drm_syncobj **objs;
	uint64_t *points;
	long ret;

	if (a->flags & ~DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED)
		return -SHIM_EINVAL;
	ret = lookup_array(p, c, a->handles, 0, a->count_handles, &objs, &points);
	if (ret)
		return ret;
	for (uint32_t i = 0; i < a->count_handles; i++) {
		struct drm_syncobj *s = objs[i];
		uint64_t v = 0;

		for (unsigned j = 0; j < s->npoints; j++) {
			if (!(a->flags & DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED) &&
			    !s->points[j].fence->signaled)
				break;
			v = s->points[j].point;
		}
		points[i] = v;
	}
	ret = shim_copy_out(c, a->points, points, a->count_handles * sizeof(*points))
		      ? -SHIM_EFAULT : 0;
	put_array(objs, points, a->count_handles);
	return ret;
}

static long syncobj_transfer(struct drm_file_priv *p,
			     struct drm_syncobj_transfer_arg *a)
{
	struct drm_syncobj *src = drm_syncobj_lookup(p, a->src_handle);
	struct drm_syncobj *dst = drm_syncobj_lookup(p, a->dst_handle);
	struct shim_fence *f;
	long ret = 0;

	if (a->pad)
		return -SHIM_EINVAL;
	if (!src || !dst)
		return -SHIM_ENOENT;
	f = fence_get(point_fence(src, a->src_point, !a->src_point));
	if (!f)
		return -SHIM_EINVAL;
	if (a->dst_point)
		ret = syncobj_add_point(dst, a->dst_point, f);
	else
		drm_syncobj_replace(dst, f);
	fence_put(f);
	return ret;
}

long drm_syncobj_ioctl(struct shim_file *f, struct shim_caller *c,
		       unsigned nr, void *arg)
{
	struct drm_file_priv *p = f->drm;

	switch (nr) {
	case DRM_NR_SYNCOBJ_CREATE:
		return syncobj_create(p, arg);
	case DRM_NR_SYNCOBJ_DESTROY: {
		struct drm_syncobj_destroy_arg *a = arg;
		struct drm_syncobj *s;

		if (a->pad)
			return -SHIM_EINVAL;
		s = drm_syncobj_lookup(p, a->handle);
		if (!s)
			return -SHIM_EINVAL;
		p->syncobjs[a->handle - 1] = NULL;
		syncobj_put(s);
		return 0;
	}
	case DRM_NR_SYNCOBJ_HANDLE_TO_FD:
		return drm_syncobj_to_fd(p, c, arg);
	case DRM_NR_SYNCOBJ_FD_TO_HANDLE:
		return drm_syncobj_from_fd(p, c, arg);
	case DRM_NR_SYNCOBJ_WAIT: {
		struct drm_syncobj_wait_arg *a = arg;

		return syncobj_wait(f, c, a->handles, 0, a->count_handles,
				    a->flags, a->timeout_nsec, &a->first_signaled);
	}
	case DRM_NR_SYNCOBJ_TIMELINE_WAIT: {
		struct drm_syncobj_timeline_wait_arg *a = arg;

		if (!a->points)
			return -SHIM_EFAULT;
		return syncobj_wait(f, c, a->handles, a->points, a->count_handles,
				    a->flags, a->timeout_nsec, &a->first_signaled);
	}
	case DRM_NR_SYNCOBJ_RESET:
	case DRM_NR_SYNCOBJ_SIGNAL: {
		struct drm_syncobj_array_arg *a = arg;

		if (a->pad)
			return -SHIM_EINVAL;
		return syncobj_signal(p, c, a->handles, 0, a->count_handles,
				      nr == DRM_NR_SYNCOBJ_RESET);
	}
	case DRM_NR_SYNCOBJ_TIMELINE_SIGNAL: {
		struct drm_syncobj_timeline_array_arg *a = arg;

		if (a->flags)
			return -SHIM_EINVAL;
		if (!a->points)
			return -SHIM_EFAULT;
		return syncobj_signal(p, c, a->handles, a->points,
				      a->count_handles, false);
	}
	case DRM_NR_SYNCOBJ_QUERY:
		return syncobj_query(p, c, arg);
	case DRM_NR_SYNCOBJ_TRANSFER:
		return syncobj_transfer(p, arg);
	}
	return -SHIM_EINVAL;
}

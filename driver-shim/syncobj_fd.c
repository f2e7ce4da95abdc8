// SPDX-License-Identifier: MIT
/*
 * Syncobjs as files (DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD / FD_TO_HANDLE), and
 * their fences as sync_files (EXPORT_SYNC_FILE / IMPORT_SYNC_FILE; see
 * sync_file.c). A syncobj file shares the syncobj itself: a new file each
 * export, as drm_syncobj_get_fd does; a sync_file holds the fence the
 * syncobj had then.
 * Errnos are drm_syncobj.c's: a descriptor that is not open or not a
 * syncobj file is EINVAL, a missing handle ENOENT.
 */
#include "driver-shim/drm_priv.h"

static void syncobj_file_release(struct shim_fobj *o)
{
	syncobj_put(o->priv);
}

static const struct shim_fobj_ops syncobj_file_ops = {
	.kind = SHIM_FOBJ_SYNCOBJ,
	.release = syncobj_file_release,
};

long drm_syncobj_to_fd(struct drm_file_priv *p, struct shim_caller *c,
		       struct drm_syncobj_handle_arg *a)
{
	struct shim_dev *dev = p->file->dev;
	int fd;

	if (a->pad || (a->flags & ~DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE))
		return -SHIM_EINVAL;
	if (a->flags) {
		struct shim_fence *f;
		int ret = drm_syncobj_fence(p, a->handle, &f);

		if (ret)
			return ret;
		fd = shim_sync_file_install(dev, c, f);
	} else {
		struct drm_syncobj *s = drm_syncobj_lookup(p, a->handle);
		struct shim_fobj *o;

		if (!s)
			return -SHIM_ENOENT;
		o = shim_fobj_new(dev, &syncobj_file_ops, s);
		if (!o)
			return -SHIM_ENOMEM;
		s->refs++;
		fd = shim_fobj_install(c, o, true);
	}
	if (fd < 0)
		return fd;
	a->fd = fd;
	return 0;
}

long drm_syncobj_from_fd(struct drm_file_priv *p, struct shim_caller *c,
			 struct drm_syncobj_handle_arg *a)
{
	bool sync_file = a->flags & DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
	struct drm_syncobj *s = NULL;
	struct shim_fence *f;
	struct shim_fobj *o;
	long ret;

	if (a->pad || (a->flags & ~DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE))
		return -SHIM_EINVAL;
	if (sync_file) {
		s = drm_syncobj_lookup(p, a->handle);
		if (!s)
			return -SHIM_ENOENT;
	}
	if (sync_file) {
		ret = shim_sync_file_fence(c, a->fd, &f);
		if (ret)
			return -SHIM_EINVAL;
		drm_syncobj_replace(s, f);
		fence_put(f);
		shim_wake_all(p->file->dev);
		return 0;
	}
	ret = shim_fobj_lookup(c, a->fd, SHIM_FOBJ_SYNCOBJ, &o);
	if (ret)
		return -SHIM_EINVAL;
	ret = syncobj_handle_new(p, o->priv, &a->handle);
	shim_fobj_put_locked(o);
	return ret;
}

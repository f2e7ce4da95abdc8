// SPDX-License-Identifier: MIT
/*
 * sync_files: file objects (shim.h) holding one fence, as the kernel's
 * drivers/dma-buf/sync_file.c. DRM syncobjs export and import them, and
 * kbase's fence soft jobs create (FENCE_TRIGGER) and wait on (FENCE_WAIT)
 * them, so a fence passes between the two UAPIs of one device. A
 * sync_file polls readable once its fence is signalled.
 */
#include "driver-shim/shim_internal.h"

static void sync_file_release(struct shim_fobj *o)
{
	fence_put(o->priv);
}

static unsigned sync_file_poll(struct shim_fobj *o)
{
	struct shim_fence *f = o->priv;

	return f->signaled ? SHIM_POLLIN : 0;
}

static const struct shim_fobj_ops sync_file_ops = {
	.kind = SHIM_FOBJ_SYNC_FILE,
	.release = sync_file_release,
	.poll = sync_file_poll,
};

int shim_sync_file_install(struct shim_dev *dev, struct shim_caller *c,
			   struct shim_fence *f)
{
	struct shim_fobj *o = shim_fobj_new(dev, &sync_file_ops, fence_get(f));

	if (!o) {
		fence_put(f);
		return -SHIM_ENOMEM;
	}
	/* sync_file descriptors are always close-on-exec. */
	return shim_fobj_install(c, o, true);
}

int shim_sync_file_fence(struct shim_caller *c, int fd, struct shim_fence **out)
{
	struct shim_fobj *o;
	int ret = shim_fobj_lookup(c, fd, SHIM_FOBJ_SYNC_FILE, &o);

	if (ret)
		return ret;
	*out = fence_get(o->priv);
	shim_fobj_put_locked(o);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * kbase explicit fences, as a kernel built with CONFIG_SYNC_FILE has them:
 * a FENCE_TRIGGER soft job creates a sync_file at submit (its descriptor
 * is written back into the struct base_fence at the atom's jc, a user
 * pointer) and signals it when the atom runs, or with an error when the
 * atom fails; a FENCE_WAIT soft job takes the sync_file named there and
 * completes once its fence signals (JOB_CANCELLED if that fence carries
 * an error). STREAM_CREATE makes the (operation-less) stream file, and
 * FENCE_VALIDATE checks a descriptor is a sync_file. The fences are the
 * driver's own (struct shim_fence), so a sync_file passes between kbase
 * and DRM syncobjs of one device. Without descriptor support (FUSE) the
 * soft jobs fail with JOB_INVALID and the ioctls say EOPNOTSUPP.
 */
#include "driver-shim/kbase_priv.h"

/* struct base_fence: the descriptor, and the stream it was made on. */
struct kb_base_fence {
	int32_t fd;
	int32_t stream_fd;
};

#define KB_FENCE_EFAULT (-14) /* the error a failed trigger signals */

uint32_t kb_fence_prepare(struct kb_atom *k, struct shim_caller *c)
{
	struct shim_dev *dev = k->kb->file->dev;
	uint32_t type = k->core_req & KB_JD_REQ_SOFT_JOB_TYPE;
	struct kb_base_fence bf;
	int fd;

	if (shim_copy_in(c, &bf, k->jc, sizeof(bf)))
		return KB_EVENT_JOB_INVALID;
	if (type == KB_JD_REQ_SOFT_FENCE_WAIT)
		return shim_sync_file_fence(c, bf.fd, &k->fence) ? KB_EVENT_JOB_INVALID
								   : KB_EVENT_DONE;
	k->fence = fence_new(false);
	if (!k->fence)
		return KB_EVENT_JOB_INVALID;
	fd = shim_sync_file_install(dev, c, k->fence);
	if (fd < 0)
		return KB_EVENT_JOB_INVALID;
	bf.fd = fd;
	/* The descriptor stays the caller's even if this fails, as in kbase. */
	if (shim_copy_out(c, k->jc, &bf, sizeof(bf)))
		return KB_EVENT_JOB_INVALID;
	return KB_EVENT_DONE;
}

bool kb_fence_run(struct kb_atom *k, uint32_t *code)
{
	if ((k->core_req & KB_JD_REQ_SOFT_JOB_TYPE) == KB_JD_REQ_SOFT_FENCE_TRIGGER) {
		*code = KB_EVENT_DONE; /* kb_fence_done signals it */
		return true;
	}
	if (!k->fence->signaled)
		return false;
	*code = k->fence->error ? KB_EVENT_JOB_CANCELLED : KB_EVENT_DONE;
	return true;
}

void kb_fence_done(struct kb_atom *k, uint32_t code)
{
	struct shim_fence *f = k->fence;

	if (!f)
		return;
	k->fence = NULL;
	/* A trigger signals even when its atom failed, with an error, so
	 * that nothing waits for it forever. */
	if ((k->core_req & KB_JD_REQ_SOFT_JOB_TYPE) == KB_JD_REQ_SOFT_FENCE_TRIGGER &&
	    !f->signaled) {
		f->error = code == KB_EVENT_DONE ? 0 : KB_FENCE_EFAULT;
		f->signaled = true;
	}
	fence_put(f);
}

void kb_fence_recheck_all(struct shim_dev *dev)
{
	struct shim_list *pos, *tmp;

	shim_list_for_each_safe(pos, tmp, &dev->files) {
		struct shim_file *f = shim_container_of(pos, struct shim_file, link);

		if (f->node == SHIM_NODE_KBASE && f->kb)
			kb_fence_waits_recheck(f->kb);
	}
}

/* The stream: a file without operations (kbase's stream_fops). */
static const struct shim_fobj_ops stream_ops = {
	.kind = SHIM_FOBJ_FENCE_STREAM,
};

long kb_stream_create(struct shim_file *f, struct shim_caller *c,
		      const struct kb_stream_create *a)
{
	struct shim_fobj *o;

	if (a->name[sizeof(a->name) - 1])
		return -SHIM_EINVAL;
	o = shim_fobj_new(f->dev, &stream_ops, NULL);
	if (!o)
		return -SHIM_ENOMEM;
	return shim_fobj_install(c, o, true);
}

long kb_fence_validate(struct shim_caller *c, const struct kb_fence_validate *a)
{
	struct shim_fence *f;
	int ret = shim_sync_file_fence(c, a->fd, &f);

	if (ret == -SHIM_EOPNOTSUPP)
		return ret;
	if (ret)
		return -SHIM_EINVAL;
	fence_put(f);
	return 0;
}

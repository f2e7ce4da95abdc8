// SPDX-License-Identifier: MIT
/*
 * File objects (shim.h): the shim's side of the descriptors a kernel
 * driver creates. An object is a reference-counted pointer to driver state
 * (a BO, a fence, a syncobj, a counter reader) with file operations; the
 * transport turns it into a descriptor of the caller (fd_install) and back
 * (fd_get), the way dma_buf_fd()/dma_buf_get() use current's fd table.
 *
 * References are atomic because a transport takes one inside fd_install,
 * which runs with dev->lock held; releasing the last one takes the lock
 * (shim_fobj_put) or expects it held (shim_fobj_put_locked).
 */
#include "driver-shim/shim_internal.h"

struct shim_fobj *shim_fobj_new(struct shim_dev *dev,
				const struct shim_fobj_ops *ops, void *priv)
{
	struct shim_fobj *o = os_zalloc(sizeof(*o));

	if (!o)
		return NULL;
	o->dev = dev;
	o->ops = ops;
	o->priv = priv;
	o->refs = 1;
	shim_list_add_tail(&o->link, &dev->fobjs);
	return o;
}

enum shim_fobj_kind shim_fobj_kind(struct shim_fobj *o)
{
	return o->ops->kind;
}

bool shim_fobj_level(struct shim_fobj *o)
{
	return o->ops->level;
}

struct shim_fobj *shim_fobj_get(struct shim_fobj *o)
{
	__atomic_add_fetch(&o->refs, 1, __ATOMIC_RELAXED);
	return o;
}

void shim_fobj_unget(struct shim_fobj *o)
{
	__atomic_sub_fetch(&o->refs, 1, __ATOMIC_ACQ_REL);
}

void shim_fobj_put_locked(struct shim_fobj *o)
{
	if (!o || __atomic_sub_fetch(&o->refs, 1, __ATOMIC_ACQ_REL))
		return;
	shim_list_del(&o->link);
	if (o->ops->release)
		o->ops->release(o);
	os_free(o);
}

void shim_fobj_put(struct shim_fobj *o)
{
	struct shim_dev *dev;

	if (!o)
		return;
	dev = o->dev;
	os_mutex_lock(dev->lock);
	shim_fobj_put_locked(o);
	os_mutex_unlock(dev->lock);
}

void shim_fobj_set_host_data(struct shim_fobj *o, void *data)
{
	o->host_data = data;
}

void *shim_fobj_host_data(struct shim_fobj *o)
{
	return o->host_data;
}

long shim_fobj_ioctl(struct shim_fobj *o, struct shim_caller *c, unsigned cmd,
		     void *arg)
{
	long ret = -SHIM_ENOTTY;

	os_mutex_lock(o->dev->lock);
	if (o->ops->ioctl)
		ret = o->ops->ioctl(o, c, cmd, arg);
	os_mutex_unlock(o->dev->lock);
	return ret;
}

long shim_fobj_read(struct shim_fobj *o, struct shim_caller *c, void *buf,
		    size_t len, bool nonblock)
{
	long ret = -SHIM_EINVAL;

	os_mutex_lock(o->dev->lock);
	if (o->ops->read)
		ret = o->ops->read(o, c, buf, len, nonblock);
	os_mutex_unlock(o->dev->lock);
	return ret;
}

unsigned shim_fobj_poll(struct shim_fobj *o)
{
	unsigned mask = 0;

	os_mutex_lock(o->dev->lock);
	if (o->ops->poll)
		mask = o->last_poll = o->ops->poll(o);
	os_mutex_unlock(o->dev->lock);
	return mask;
}

int shim_fobj_mmap_prepare(struct shim_fobj *o, uint64_t pgoff, uint64_t length,
			   uint32_t prot, struct shim_mmap_info *out)
{
	int ret = -SHIM_ENODEV; /* no mmap handler: what mmap() gives */

	os_memset(out, 0, sizeof(*out));
	if (!length || length > (1ull << 47))
		return -SHIM_EINVAL;
	length = OS_ALIGN_UP(length, SHIM_PAGE_SIZE);
	os_mutex_lock(o->dev->lock);
	if (o->ops->mmap_prepare)
		ret = o->ops->mmap_prepare(o, pgoff, length, prot, out);
	os_mutex_unlock(o->dev->lock);
	return ret;
}

int64_t shim_fobj_llseek(struct shim_fobj *o, int64_t off, int whence)
{
	int64_t ret = -SHIM_ESPIPE;

	os_mutex_lock(o->dev->lock);
	if (o->ops->llseek)
		ret = o->ops->llseek(o, off, whence);
	os_mutex_unlock(o->dev->lock);
	return ret;
}

int shim_fobj_install(struct shim_caller *c, struct shim_fobj *o, bool cloexec)
{
	int fd;

	if (!c || !c->fd_install) {
		shim_fobj_put_locked(o);
		static bool told;

		if (!told) {
			told = true;
			os_warn("shim", "this transport cannot give its clients new file "
				"descriptors (a FUSE server cannot install them in the "
				"caller): PRIME, syncobj/sync_file export and kbase readers "
				"answer EOPNOTSUPP; use `vgpu run` or --socket");
		}
		return -SHIM_EOPNOTSUPP;
	}
	fd = c->fd_install(c, o, cloexec);
	/* A new descriptor starts not ready: tell it if the object is. */
	if (fd >= 0 && o->ops->poll) {
		o->last_poll = o->ops->poll(o);
		if (o->last_poll && o->dev->host.fobj_notify)
			o->dev->host.fobj_notify(o->dev->host.priv, o, o->last_poll);
	}
	/* The descriptor holds the object now (or, on failure, nothing). */
	shim_fobj_put_locked(o);
	return fd;
}

int shim_fobj_map_range(const struct shim_ctx *ctx, uint64_t off, uint64_t size,
			uint64_t pgoff, uint64_t length, struct shim_mmap_info *out)
{
	if (pgoff > size >> SHIM_PAGE_SHIFT || length > size - (pgoff << SHIM_PAGE_SHIFT))
		return -SHIM_EINVAL;
	out->backing = ctx->backing.handle;
	out->offset = off + (pgoff << SHIM_PAGE_SHIFT);
	out->length = length;
	return 0;
}

int shim_fobj_lookup(struct shim_caller *c, int fd, enum shim_fobj_kind kind,
		     struct shim_fobj **out)
{
	struct shim_fobj *o = NULL;
	int ret;

	*out = NULL;
	if (fd < 0)
		return -SHIM_EBADF;
	if (!c || !c->fd_get)
		return -SHIM_EOPNOTSUPP;
	ret = c->fd_get(c, fd, &o);
	if (ret)
		return ret;
	if (o->ops->kind != kind) {
		shim_fobj_put_locked(o);
		return -SHIM_EINVAL;
	}
	*out = o;
	return 0;
}

void shim_fobj_notify_all(struct shim_dev *dev)
{
	struct shim_list *pos, *tmp;

	if (!dev->host.fobj_notify)
		return;
	shim_list_for_each_safe(pos, tmp, &dev->fobjs) {
		struct shim_fobj *o = shim_container_of(pos, struct shim_fobj, link);
		unsigned mask = o->ops->poll ? o->ops->poll(o) : 0;

		if (mask != o->last_poll) {
			o->last_poll = mask;
			dev->host.fobj_notify(dev->host.priv, o, mask);
		}
	}
}

// SPDX-License-Identifier: MIT
/*
 * The device and its open files: the shim's equivalent of a kernel
 * driver's probe() and file_operations. Each entry point takes the
 * device lock, dispatches to the kbase or DRM front end, and records
 * statistics for the call.
 */
#include "driver-shim/shim_internal.h"
#include "driver-shim/uapi_ioc.h"

struct shim_dev *shim_dev_create(const struct shim_config *cfg,
				 const struct shim_host *host,
				 const struct shim_port *port)
{
	struct shim_dev *dev = os_zalloc(sizeof(*dev));

	if (!dev)
		return NULL;
	dev->cfg = *cfg;
	if (!dev->cfg.backing_size || dev->cfg.backing_size > SHIM_WINDOW_STRIDE)
		dev->cfg.backing_size = SHIM_DEFAULT_BACKING;
	dev->cfg.backing_size = OS_ALIGN_UP(dev->cfg.backing_size, 2ull << 20);
	dev->host = *host;
	dev->port = *port;
	dev->lock = os_mutex_new();
	dev->stat_lock = os_mutex_new();
	dev->wake = os_cond_new();
	shim_list_init(&dev->files);
	shim_list_init(&dev->fobjs);
	shim_list_init(&dev->ctxs);
	dev->next_ctx_id = 1;
	/* Anonymous pages: only the page-table pages actually used cost
	 * memory. */
	dev->kpool = os_alloc_pages(SHIM_KPOOL_SIZE);
	if (!dev->lock || !dev->stat_lock || !dev->wake || !dev->kpool)
		goto fail;
	ralloc_init(&dev->kpool_alloc, 0, SHIM_KPOOL_SIZE);
	ralloc_init(&dev->import_pa, SHIM_IMPORT_PA, SHIM_IMPORT_SIZE);
	if (shim_gpu_init(dev))
		goto fail_ralloc;
	if (drm_dev_init(dev))
		goto fail_gpu;
	os_info("shim", "%s ready: %u shader cores, %u address spaces",
		dev->gpu_name, os_popcount64(dev->regs.shader_present),
		os_popcount64(dev->regs.as_present));
	return dev;

fail_gpu:
	shim_gpu_fini(dev);
fail_ralloc:
	ralloc_fini(&dev->kpool_alloc);
	ralloc_fini(&dev->import_pa);
fail:
	os_free_pages(dev->kpool, SHIM_KPOOL_SIZE);
	if (dev->wake)
		os_cond_free(dev->wake);
	if (dev->stat_lock)
		os_mutex_free(dev->stat_lock);
	if (dev->lock)
		os_mutex_free(dev->lock);
	os_free(dev);
	return NULL;
}

void shim_dev_destroy(struct shim_dev *dev)
{
	struct shim_list *pos, *tmp;

	if (!dev)
		return;
	/* Files still open at shutdown are released as if their owners
	 * had closed them. */
	shim_list_for_each_safe(pos, tmp, &dev->files)
		shim_release(shim_container_of(pos, struct shim_file, link));
	kb_prfcnt_fini(dev);
	/* The transport has dropped its file objects; any left go now. */
	shim_list_for_each_safe(pos, tmp, &dev->fobjs) {
		struct shim_fobj *o = shim_container_of(pos, struct shim_fobj, link);

		o->refs = 1;
		shim_fobj_put_locked(o);
	}
	drm_dev_fini(dev);
	shim_gpu_fini(dev);
	ralloc_fini(&dev->kpool_alloc);
	ralloc_fini(&dev->import_pa);
	os_free_pages(dev->kpool, SHIM_KPOOL_SIZE);
	os_cond_free(dev->wake);
	os_mutex_free(dev->stat_lock);
	os_mutex_free(dev->lock);
	os_free(dev);
}

const char *shim_dev_gpu_name(struct shim_dev *dev)
{
	return dev->gpu_name;
}

/* copy_from_user/copy_to_user: all or nothing, EFAULT otherwise. */
static int copy_user(struct shim_caller *c, void *kbuf, uint64_t uaddr,
		     size_t len, bool out)
{
	if (!len)
		return 0;
	if (!c || uaddr + len < uaddr ||
	    !(out ? (void *)c->copy_to_user : (void *)c->copy_from_user))
		return -SHIM_EFAULT;
	if (out ? c->copy_to_user(c, uaddr, kbuf, len)
		: c->copy_from_user(c, kbuf, uaddr, len))
		return -SHIM_EFAULT;
	*(out ? &c->copied_out : &c->copied_in) += len;
	return 0;
}

int shim_copy_in(struct shim_caller *c, void *dst, uint64_t uaddr, size_t len)
{
	return copy_user(c, dst, uaddr, len, false);
}

int shim_copy_out(struct shim_caller *c, uint64_t uaddr, const void *src,
		  size_t len)
{
	return copy_user(c, (void *)src, uaddr, len, true);
}

int shim_wait(struct shim_dev *dev, struct shim_caller *c, uint64_t deadline_ns)
{
	/* Wake up now and then to notice a caller that died or was
	 * interrupted: the transport cannot wake a sleeping driver. */
	uint64_t slice = 20 * 1000 * 1000, now = os_time_ns();

	if (c && c->interrupted && c->interrupted(c))
		return -SHIM_EINTR;
	if (deadline_ns) {
		if (now >= deadline_ns)
			return -SHIM_ETIMEDOUT;
		slice = OS_MIN(slice, deadline_ns - now);
	}
	os_cond_wait(dev->wake, dev->lock, slice);
	if (c && c->interrupted && c->interrupted(c))
		return -SHIM_EINTR;
	return 0;
}

void shim_wake_all(struct shim_dev *dev)
{
	struct shim_list *pos, *tmp;

	os_cond_broadcast(dev->wake);
	/* A fence may have signalled: kbase FENCE_WAIT atoms waiting on it
	 * complete, which may signal more (their dependents' triggers). */
	if (dev->fence_recheck) {
		dev->fence_recheck_again = true;
	} else {
		dev->fence_recheck = true;
		do {
			dev->fence_recheck_again = false;
			kb_fence_recheck_all(dev);
		} while (dev->fence_recheck_again);
		dev->fence_recheck = false;
	}
	shim_fobj_notify_all(dev);
	if (!dev->host.file_notify)
		return;
	shim_list_for_each_safe(pos, tmp, &dev->files) {
		struct shim_file *f = shim_container_of(pos, struct shim_file, link);

		if (f->node == SHIM_NODE_KBASE && kb_poll(f))
			dev->host.file_notify(dev->host.priv, f);
	}
}

void shim_file_set_host_data(struct shim_file *f, void *data)
{
	f->host_data = data;
}

void *shim_file_host_data(struct shim_file *f)
{
	return f->host_data;
}

int shim_open(struct shim_dev *dev, enum shim_node node,
	      struct shim_caller *c, struct shim_file **out)
{
	struct shim_file *f = os_zalloc(sizeof(*f));
	int ret;

	if (!f)
		return -SHIM_ENOMEM;
	f->dev = dev;
	f->node = node;
	f->pid = c ? c->pid : 0;
	os_mutex_lock(dev->lock);
	ret = node == SHIM_NODE_KBASE ? kb_file_open(f) : drm_file_open(f);
	if (!ret) {
		shim_list_add_tail(&f->link, &dev->files);
		dev->st_opens++;
	}
	os_mutex_unlock(dev->lock);
	if (ret) {
		os_free(f);
		return ret;
	}
	*out = f;
	return 0;
}

void shim_release(struct shim_file *f)
{
	struct shim_dev *dev = f->dev;

	os_mutex_lock(dev->lock);
	shim_list_del(&f->link);
	if (f->node == SHIM_NODE_KBASE)
		kb_file_release(f);
	else
		drm_file_release(f);
	dev->st_releases++;
	os_cond_broadcast(dev->wake);
	os_mutex_unlock(dev->lock);
	os_free(f);
}

static unsigned lat_bucket(uint64_t ns)
{
	unsigned b = 0;

	while (ns > 1 && b < SHIM_LAT_BUCKETS - 1) {
		ns >>= 1;
		b++;
	}
	return b;
}

static void acct_add(struct shim_acct *to, const struct shim_acct *a)
{
	to->reg_reads += a->reg_reads;
	to->reg_writes += a->reg_writes;
	to->irqs += a->irqs;
	to->jobs += a->jobs;
	to->pages += a->pages;
	to->faults += a->faults;
	to->gpu_bytes += a->gpu_bytes;
}

static void stat_call(struct shim_dev *dev, unsigned row, uint64_t t0,
		      long ret, uint64_t in, uint64_t out,
		      const struct shim_acct *a, const struct shim_caller *c,
		      const struct shim_file *f)
{
	struct shim_stat_row *s = &dev->stats[row];
	uint64_t ns = os_time_ns() - t0;

	if (__atomic_load_n(&dev->trace, __ATOMIC_RELAXED))
		shim_trace_ioctl(dev, shim_row_name(row), c ? c->pid : 0,
				 f && f->ctx ? f->ctx->id : 0, t0, ns, ret);
	os_mutex_lock(dev->stat_lock);
	s->count++;
	if (ret < 0)
		s->errors++;
	s->bytes_in += in;
	s->bytes_out += out;
	s->lat[lat_bucket(ns)]++;
	s->lat_sum_ns += ns;
	if (ns > s->lat_max_ns)
		s->lat_max_ns = ns;
	if (a)
		acct_add(&s->acct, a);
	/* The file (and so its context) outlives its own calls. */
	if (f && f->ctx) {
		struct shim_ctx_row *r = &f->ctx->st_rows[row];

		r->count++;
		r->errors += ret < 0;
		r->ns += ns;
	}
	os_mutex_unlock(dev->stat_lock);
}

void shim_stat_add(struct shim_dev *dev, unsigned row, const struct shim_acct *a)
{
	if (row >= SHIM_STAT_ROWS)
		return;
	os_mutex_lock(dev->stat_lock);
	acct_add(&dev->stats[row].acct, a);
	os_mutex_unlock(dev->stat_lock);
}

long shim_ioctl(struct shim_file *f, struct shim_caller *c, unsigned cmd,
		void *arg)
{
	struct shim_dev *dev = f->dev;
	struct shim_acct a = { 0 };
	uint64_t t0 = os_time_ns();
	unsigned size = SHIM_IOC_SIZE(cmd), dir = SHIM_IOC_DIR(cmd);
	unsigned row = (f->node == SHIM_NODE_KBASE ? 0 : 256) + SHIM_IOC_NR(cmd);
	struct shim_urange r[SHIM_PRECOPY_MAX];
	struct shim_precopy pc;
	struct shim_caller *hc;
	long ret;

	if (c)
		c->copied_in = c->copied_out = 0;
	/* A kbase ioctl of another type is not counted under a kbase row. */
	if (f->node == SHIM_NODE_KBASE && SHIM_IOC_TYPE(cmd) != 0x80)
		row = 255;
	hc = shim_precopy_begin(&pc, c, r, f->node == SHIM_NODE_KBASE ?
				kb_ioctl_precopy(cmd, arg, r) : drm_ioctl_precopy(cmd, arg, r));
	os_mutex_lock(dev->lock);
	if (f->ctx)
		f->ctx->st_ioctls++;
	if (f->node == SHIM_NODE_KBASE)
		ret = kb_ioctl(f, hc, cmd, arg, &a);
	else
		ret = drm_ioctl(f, hc, cmd, arg, &a);
	os_mutex_unlock(dev->lock);
	shim_precopy_end(&pc);
	stat_call(dev, row, t0, ret,
		  ((dir & SHIM_IOC_WRITE) ? size : 0) + (c ? c->copied_in : 0),
		  ((dir & SHIM_IOC_READ) && ret >= 0 ? size : 0) +
			  (c ? c->copied_out : 0), &a, c, f);
	return ret;
}

long shim_read(struct shim_file *f, struct shim_caller *c, void *buf,
	       size_t len, bool nonblock)
{
	uint64_t t0 = os_time_ns();
	long ret;

	if (f->node != SHIM_NODE_KBASE)
		return -SHIM_EINVAL; /* DRM render nodes have no events to read */
	os_mutex_lock(f->dev->lock);
	ret = kb_read(f, c, buf, len, nonblock);
	os_mutex_unlock(f->dev->lock);
	stat_call(f->dev, SHIM_STAT_ROW_READ, t0, ret, 0,
		  ret > 0 ? (uint64_t)ret : 0, NULL, c, f);
	return ret;
}

unsigned shim_poll(struct shim_file *f)
{
	unsigned mask = 0;

	os_mutex_lock(f->dev->lock);
	if (f->node == SHIM_NODE_KBASE)
		mask = kb_poll(f);
	os_mutex_unlock(f->dev->lock);
	return mask;
}

int shim_mmap_prepare(struct shim_file *f, uint64_t pgoff, uint64_t length,
		      uint32_t prot, struct shim_mmap_info *out)
{
	uint64_t t0 = os_time_ns();
	int ret;

	os_memset(out, 0, sizeof(*out));
	/* mmap() rounds the length up to whole pages. */
	if (!length || length > (1ull << 47))
		return -SHIM_EINVAL;
	length = OS_ALIGN_UP(length, SHIM_PAGE_SIZE);
	os_mutex_lock(f->dev->lock);
	if (f->node == SHIM_NODE_KBASE)
		ret = kb_mmap_prepare(f, pgoff, length, prot, out);
	else
		ret = drm_mmap_prepare(f, pgoff, length, out);
	os_mutex_unlock(f->dev->lock);
	stat_call(f->dev, SHIM_STAT_ROW_MMAP, t0, ret, 0, 0, NULL, NULL, f);
	return ret;
}

int shim_mmap_commit(struct shim_file *f, uint64_t pgoff, uint64_t length,
		     uint64_t cpu_va)
{
	int ret = 0;

	if (f->node != SHIM_NODE_KBASE)
		return 0; /* panfrost does not care where a BO is mapped */
	length = OS_ALIGN_UP(length, SHIM_PAGE_SIZE);
	os_mutex_lock(f->dev->lock);
	ret = kb_mmap_commit(f, pgoff, length, cpu_va);
	os_mutex_unlock(f->dev->lock);
	return ret;
}

int shim_munmap(struct shim_file *f, uint64_t cpu_va, uint64_t length)
{
	int ret = 0;

	if (f->node != SHIM_NODE_KBASE)
		return 0;
	os_mutex_lock(f->dev->lock);
	ret = kb_munmap(f, cpu_va, length);
	os_mutex_unlock(f->dev->lock);
	return ret;
}

int shim_gpu_read(struct shim_file *f, uint64_t va, void *buf, size_t len)
{
	int ret = -SHIM_EINVAL;

	os_mutex_lock(f->dev->lock);
	if (f->ctx)
		ret = shim_ctx_gpu_rw(f->ctx, va, buf, len, false);
	os_mutex_unlock(f->dev->lock);
	return ret;
}

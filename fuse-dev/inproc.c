// SPDX-License-Identifier: MIT
/* In-process device nodes (see inproc.h). */
#include "fuse-dev/inproc.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "driver-shim/uapi_ioc.h"
#include "fuse-dev/client.h"
#include "fuse-dev/transport.h"

struct vgpu_inproc {
	struct shim_dev *dev;
};

struct vgpu_inproc_file {
	struct vgpu_inproc *ip;
	struct shim_file *sf;
	int efd;
};

static bool (*signal_pending)(void);

void vgpu_inproc_set_interrupt_check(bool (*pending)(void))
{
	signal_pending = pending;
}

static bool local_interrupted(struct shim_caller *c)
{
	(void)c;
	return signal_pending && signal_pending();
}

/* "current" for a call from this process: user copies that turn a bad
 * pointer into EFAULT, and interruption by the caller's signals. */
static void caller_init(struct fuse_caller *c)
{
	transport_caller_init_local(c);
	c->base.interrupted = local_interrupted;
}

/* Level-triggered: the eventfd counter is 1 while the file is readable. */
static void sync_eventfd(struct vgpu_inproc_file *f, bool readable)
{
	uint64_t v = 1;

	if (readable) {
		uint64_t cur;

		/* Only one token: drain first, then add one. */
		while (read(f->efd, &cur, sizeof(cur)) == sizeof(cur))
			;
		if (write(f->efd, &v, sizeof(v)) != sizeof(v))
			return;
	} else {
		while (read(f->efd, &v, sizeof(v)) == sizeof(v))
			;
	}
}

static void notify(void *priv, struct shim_file *sf)
{
	struct vgpu_inproc_file *f = shim_file_host_data(sf);

	(void)priv;
	if (f)
		sync_eventfd(f, true);
}

/* The transport's memfds, kept clear of the guest's descriptor numbers. */
static int (*transport_backing_create)(void *priv, uint64_t size, struct shim_backing *b);

static int backing_create(void *priv, uint64_t size, struct shim_backing *b)
{
	int ret = transport_backing_create(priv, size, b);

	if (!ret)
		b->handle = transport_fd_aside(b->handle);
	return ret;
}

struct vgpu_inproc *vgpu_inproc_create(const struct shim_config *cfg)
{
	struct vgpu_inproc *ip = calloc(1, sizeof(*ip));
	struct shim_host host;

	if (!ip)
		return NULL;
	memset(&host, 0, sizeof(host));
	transport_host_init(&host, ip);
	transport_backing_create = host.backing_create;
	host.backing_create = backing_create;
	host.file_notify = notify;
	host.local_user_memory = true;
	ip->dev = shim_dev_create(cfg, &host);
	if (!ip->dev) {
		free(ip);
		return NULL;
	}
	os_info("inproc", "%s in-process (no FUSE): nodes served inside this process",
		shim_dev_gpu_name(ip->dev));
	return ip;
}

void vgpu_inproc_destroy(struct vgpu_inproc *ip)
{
	if (!ip)
		return;
	shim_dev_destroy(ip->dev);
	free(ip);
}

size_t vgpu_inproc_stats_json(struct vgpu_inproc *ip, char *buf, size_t size)
{
	return shim_stats_json(ip->dev, buf, size);
}

int vgpu_inproc_open(struct vgpu_inproc *ip, const char *node,
		     struct vgpu_inproc_file **out)
{
	struct vgpu_inproc_file *f;
	struct fuse_caller c;
	enum shim_node n;
	int ret;

	if (!strcmp(node, "mali0"))
		n = SHIM_NODE_KBASE;
	else if (!strcmp(node, "renderD128"))
		n = SHIM_NODE_PANFROST;
	else
		return -ENOENT;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->ip = ip;
	f->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (f->efd < 0) {
		ret = -errno;
		free(f);
		return ret;
	}
	f->efd = transport_fd_aside(f->efd);
	caller_init(&c);
	ret = shim_open(ip->dev, n, &c.base, &f->sf);
	if (ret) {
		close(f->efd);
		free(f);
		return ret;
	}
	shim_file_set_host_data(f->sf, f);
	*out = f;
	return 0;
}

void vgpu_inproc_close(struct vgpu_inproc_file *f)
{
	if (!f)
		return;
	shim_release(f->sf);
	close(f->efd);
	free(f);
}

int vgpu_inproc_pollfd(struct vgpu_inproc_file *f)
{
	return f->efd;
}

long vgpu_inproc_ioctl(struct vgpu_inproc_file *f, unsigned cmd, void *arg)
{
	size_t size = SHIM_IOC_SIZE(cmd);
	unsigned dir = SHIM_IOC_DIR(cmd);
	struct fuse_caller c;
	uint8_t *buf;
	long ret;

	buf = calloc(1, size > SHIM_IOC_MAX_ARG ? size : SHIM_IOC_MAX_ARG);
	if (!buf)
		return -ENOMEM;
	caller_init(&c);
	/* What a restricted FUSE ioctl would carry, copied the same way. */
	if ((dir & SHIM_IOC_WRITE) && size &&
	    c.base.copy_from_user(&c.base, buf, (uintptr_t)arg, size)) {
		free(buf);
		return -EFAULT;
	}
	ret = shim_ioctl(f->sf, &c.base, cmd, buf);
	if (ret >= 0 && (dir & SHIM_IOC_READ) && size &&
	    c.base.copy_to_user(&c.base, (uintptr_t)arg, buf, size))
		ret = -EFAULT;
	free(buf);
	sync_eventfd(f, shim_poll(f->sf));
	return ret;
}

long vgpu_inproc_read(struct vgpu_inproc_file *f, void *buf, size_t len,
		      bool nonblock)
{
	struct fuse_caller c;
	uint8_t *tmp = malloc(len ? len : 1);
	long n;

	if (!tmp)
		return -ENOMEM;
	caller_init(&c);
	n = shim_read(f->sf, &c.base, tmp, len, nonblock);
	if (n > 0 && c.base.copy_to_user(&c.base, (uintptr_t)buf, tmp, (size_t)n))
		n = -EFAULT;
	free(tmp);
	sync_eventfd(f, shim_poll(f->sf));
	return n;
}

unsigned vgpu_inproc_poll(struct vgpu_inproc_file *f)
{
	return shim_poll(f->sf);
}

void *vgpu_inproc_mmap(struct vgpu_inproc_file *f, void *addr, size_t len,
		       int prot, int flags, off_t offset, int *err)
{
	struct shim_mmap_info mi;
	int mflags = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE);
	void *p;
	int ret;

	ret = shim_mmap_prepare(f->sf, (uint64_t)offset >> 12, len, (uint32_t)prot, &mi);
	if (ret) {
		*err = -ret;
		return MAP_FAILED;
	}
	if (mi.flags & SHIM_MMAP_READONLY)
		prot &= ~PROT_WRITE;
	/* The driver needs the range inside one 4 GiB page: pick one, unless
	 * the caller fixed the address (then the commit judges it). */
	if ((mi.flags & SHIM_MMAP_SAME_4GB) && !mflags) {
		addr = vgpu_dev_4gb_hint(len);
		if (addr)
			mflags = MAP_FIXED;
	}
	if (mi.flags & SHIM_MMAP_RESERVE_ONLY)
		p = mmap(addr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | mflags, -1, 0);
	else
		p = mmap(addr, len, prot, MAP_SHARED | mflags, mi.backing, (off_t)mi.offset);
	if (p == MAP_FAILED) {
		*err = errno;
		return MAP_FAILED;
	}
	ret = shim_mmap_commit(f->sf, (uint64_t)offset >> 12, len, (uintptr_t)p);
	if (ret) {
		munmap(p, len);
		*err = -ret;
		return MAP_FAILED;
	}
	return p;
}

int vgpu_inproc_munmap(struct vgpu_inproc_file *f, void *addr, size_t len)
{
	shim_munmap(f->sf, (uintptr_t)addr, len);
	return munmap(addr, len) ? -errno : 0;
}

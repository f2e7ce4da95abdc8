// SPDX-License-Identifier: MIT
/* In-process device nodes (see inproc.h). */
#include "fuse-dev/inproc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pthread.h>
#include <sys/stat.h>

#include "board/board.h"
#include "driver-shim/uapi_ioc.h"
#include "fuse-dev/fobj_fd.h"
#include "fuse-dev/fuse_mmap_client.h"
#include "fuse-dev/node_host.h"
#include "fuse-dev/socket.h"

struct vgpu_inproc {
	struct board *board;           /* the machine */
	struct shim_dev *dev;          /* its driver */
	pthread_mutex_t lock;          /* @objs */
	struct vgpu_inproc_file *objs; /* file objects with a descriptor */
};

/* An open node (@sf) or a file object the driver created (@obj). */
struct vgpu_inproc_file {
	struct vgpu_inproc *ip;
	struct shim_file *sf;
	struct shim_fobj *obj;
	int efd;                       /* a node's eventfd, an object's h.rfd */
	struct fobj_fd h;
	struct vgpu_inproc_file *next; /* ip->objs */
};

static bool (*signal_pending)(void);
static int (*install_hook)(struct vgpu_inproc_file *f, bool cloexec);

/* Takes an object's file off its device's list. */
static void unlist(struct vgpu_inproc_file *f)
{
	struct vgpu_inproc_file **pp;

	pthread_mutex_lock(&f->ip->lock);
	for (pp = &f->ip->objs; *pp; pp = &(*pp)->next)
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	pthread_mutex_unlock(&f->ip->lock);
}

void vgpu_inproc_set_install_hook(int (*install)(struct vgpu_inproc_file *f,
						 bool cloexec))
{
	install_hook = install;
}

void vgpu_inproc_set_interrupt_check(bool (*pending)(void))
{
	signal_pending = pending;
}

static bool local_interrupted(struct shim_caller *c)
{
	(void)c;
	return signal_pending && signal_pending();
}

/* fd_install: the object's descriptor (a pipe, fobj_fd.h), handed to the
 * DBT's descriptor table when it set the hook, else a plain descriptor of
 * this process (vgpu_inproc_fd_file() finds its file). The file is known
 * before the guest can close its descriptor. */
static int fd_install(struct shim_caller *c, struct shim_fobj *o, bool cloexec)
{
	struct vgpu_inproc *ip = ((struct node_caller *)c)->base.priv;
	struct vgpu_inproc_file *f = calloc(1, sizeof(*f));
	int fd, ret;

	if (!f)
		return -ENOMEM;
	ret = fobj_fd_make(&f->h, shim_fobj_level(o));
	if (ret) {
		free(f);
		return ret;
	}
	f->h.rfd = node_fd_aside(f->h.rfd);
	f->h.wfd = node_fd_aside(f->h.wfd);
	f->ip = ip;
	f->efd = f->h.rfd;
	f->obj = shim_fobj_get(o);
	shim_fobj_set_host_data(o, &f->h);
	pthread_mutex_lock(&ip->lock);
	f->next = ip->objs;
	ip->objs = f;
	pthread_mutex_unlock(&ip->lock);
	if (install_hook)
		fd = install_hook(f, cloexec);
	else if ((fd = fcntl(f->efd, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, 0)) < 0)
		fd = -errno;
	if (fd < 0) {
		unlist(f);
		shim_fobj_set_host_data(o, NULL);
		/* The driver's lock is held: give the reference back without
		 * it (the driver still holds its own). */
		shim_fobj_unget(o);
		fobj_fd_close(&f->h);
		free(f);
	}
	return fd;
}

/* fd_get: a descriptor of this process back to its object, by identity. */
static int fd_get(struct shim_caller *c, int fd, struct shim_fobj **out)
{
	struct vgpu_inproc *ip = ((struct node_caller *)c)->base.priv;
	struct vgpu_inproc_file *f;
	struct stat st;
	int ret = -EINVAL;

	if (fd < 0 || fstat(fd, &st))
		return -EBADF;
	pthread_mutex_lock(&ip->lock);
	for (f = ip->objs; f; f = f->next) {
		if (fobj_fd_is(&f->h, &st)) {
			*out = shim_fobj_get(f->obj);
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&ip->lock);
	return ret;
}

struct vgpu_inproc_file *vgpu_inproc_fd_file(struct vgpu_inproc *ip, int fd)
{
	struct vgpu_inproc_file *f;
	struct stat st;

	if (fstat(fd, &st))
		return NULL;
	pthread_mutex_lock(&ip->lock);
	for (f = ip->objs; f && !fobj_fd_is(&f->h, &st); f = f->next)
		;
	pthread_mutex_unlock(&ip->lock);
	return f;
}

/* "current" for a call from this process: user copies that turn a bad
 * pointer into EFAULT, interruption by the caller's signals, and this
 * process's descriptor table for file objects. */
static void caller_init(struct node_caller *c, struct vgpu_inproc *ip)
{
	node_caller_init_local(c);
	c->base.interrupted = local_interrupted;
	c->base.priv = ip;
	c->base.fd_install = fd_install;
	c->base.fd_get = fd_get;
}

static void notify(void *priv, struct shim_file *sf)
{
	struct vgpu_inproc_file *f = shim_file_host_data(sf);

	(void)priv;
	if (f)
		node_efd_ready(f->efd, true);
}

/* The transport's memfds, kept clear of the guest's descriptor numbers. */
static int (*memfd_backing_create)(void *priv, uint64_t size, struct shim_backing *b);

static int backing_create(void *priv, uint64_t size, struct shim_backing *b)
{
	int ret = memfd_backing_create(priv, size, b);

	if (!ret)
		b->handle = node_fd_aside(b->handle);
	return ret;
}

struct vgpu_inproc *vgpu_inproc_create(const struct shim_config *cfg)
{
	struct vgpu_inproc *ip = calloc(1, sizeof(*ip));
	struct board_config bc;
	struct shim_host host;

	if (!ip)
		return NULL;
	memset(&host, 0, sizeof(host));
	node_host_init(&host, ip);
	memfd_backing_create = host.backing_create;
	host.backing_create = backing_create;
	host.file_notify = notify;
	host.fobj_notify = fobj_fd_notify;
	host.local_user_memory = true;
	pthread_mutex_init(&ip->lock, NULL);
	board_config_from_shim(&bc, cfg);
	ip->board = board_create(&bc, &host);
	if (!ip->board) {
		pthread_mutex_destroy(&ip->lock);
		free(ip);
		return NULL;
	}
	ip->dev = board_dev(ip->board);
	os_info("inproc", "%s in-process (no FUSE): nodes served inside this process",
		shim_dev_gpu_name(ip->dev));
	return ip;
}

void vgpu_inproc_destroy(struct vgpu_inproc *ip)
{
	if (!ip)
		return;
	/* Objects whose descriptors are still open die with the device. */
	while (ip->objs)
		vgpu_inproc_close(ip->objs);
	board_destroy(ip->board);
	pthread_mutex_destroy(&ip->lock);
	free(ip);
}

size_t vgpu_inproc_stats_json(struct vgpu_inproc *ip, char *buf, size_t size)
{
	return board_stats_json(ip->board, buf, size);
}

char *vgpu_inproc_stats_dup(struct vgpu_inproc *ip, size_t *len)
{
	return board_stats_json_dup(ip->board, len);
}

struct shim_dev *vgpu_inproc_shim(struct vgpu_inproc *ip)
{
	return ip->dev;
}

struct board *vgpu_inproc_board(struct vgpu_inproc *ip)
{
	return ip->board;
}

int vgpu_inproc_open(struct vgpu_inproc *ip, const char *node,
		     struct vgpu_inproc_file **out)
{
	struct vgpu_inproc_file *f;
	struct node_caller c;
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
	f->efd = node_fd_aside(f->efd);
	caller_init(&c, ip);
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
	if (f->obj) {
		unlist(f);
		shim_fobj_set_host_data(f->obj, NULL);
		shim_fobj_put(f->obj);
		fobj_fd_close(&f->h);
		free(f);
		return;
	}
	shim_release(f->sf);
	close(f->efd);
	free(f);
}

int vgpu_inproc_pollfd(struct vgpu_inproc_file *f)
{
	return f->efd;
}

int vgpu_inproc_after_fork(struct vgpu_inproc_file *f)
{
	int efd;

	if (f->obj)
		return -EINVAL;
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (efd < 0)
		return -errno;
	/* Only this process's copy of the shared descriptor goes. */
	close(f->efd);
	f->efd = node_fd_aside(efd);
	return f->efd;
}

static long file_ioctl(struct vgpu_inproc_file *f, struct node_caller *c, unsigned cmd,
		       void *arg)
{
	size_t size = SHIM_IOC_SIZE(cmd);
	unsigned dir = SHIM_IOC_DIR(cmd);
	uint8_t *buf;
	long ret;

	buf = calloc(1, size > SHIM_IOC_MAX_ARG ? size : SHIM_IOC_MAX_ARG);
	if (!buf)
		return -ENOMEM;
	/* What a restricted FUSE ioctl would carry, copied the same way. */
	if ((dir & SHIM_IOC_WRITE) && size &&
	    c->base.copy_from_user(&c->base, buf, (uintptr_t)arg, size)) {
		free(buf);
		return -EFAULT;
	}
	ret = f->obj ? shim_fobj_ioctl(f->obj, &c->base, cmd, buf)
		     : shim_ioctl(f->sf, &c->base, cmd, buf);
	if (ret >= 0 && (dir & SHIM_IOC_READ) && size &&
	    c->base.copy_to_user(&c->base, (uintptr_t)arg, buf, size))
		ret = -EFAULT;
	free(buf);
	transport_rearm(f->obj, &f->h, f->sf, f->efd);
	return ret;
}

long vgpu_inproc_ioctl(struct vgpu_inproc_file *f, unsigned cmd, void *arg)
{
	struct node_caller c;

	caller_init(&c, f->ip);
	return file_ioctl(f, &c, cmd, arg);
}

void vgpu_inproc_serve(struct vgpu_inproc_file *f, int sock)
{
	sock_serve_lent(sock, f->sf, f->obj, &f->h, f->efd);
}

static long file_read(struct vgpu_inproc_file *f, struct node_caller *c, uint64_t buf,
		      size_t len, bool nonblock)
{
	uint8_t *tmp = malloc(len ? len : 1);
	long n;

	if (!tmp)
		return -ENOMEM;
	n = f->obj ? shim_fobj_read(f->obj, &c->base, tmp, len, nonblock)
		   : shim_read(f->sf, &c->base, tmp, len, nonblock);
	if (n > 0 && c->base.copy_to_user(&c->base, buf, tmp, (size_t)n))
		n = -EFAULT;
	free(tmp);
	transport_rearm(f->obj, &f->h, f->sf, f->efd);
	return n;
}

long vgpu_inproc_read(struct vgpu_inproc_file *f, void *buf, size_t len,
		      bool nonblock)
{
	struct node_caller c;

	caller_init(&c, f->ip);
	return file_read(f, &c, (uintptr_t)buf, len, nonblock);
}

unsigned vgpu_inproc_poll(struct vgpu_inproc_file *f)
{
	return f->obj ? shim_fobj_poll(f->obj) : shim_poll(f->sf);
}

void *vgpu_inproc_mmap(struct vgpu_inproc_file *f, void *addr, size_t len,
		       int prot, int flags, off_t offset, int *err)
{
	struct shim_mmap_info mi;
	int mflags = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE);
	void *p;
	int ret;

	ret = f->obj ? shim_fobj_mmap_prepare(f->obj, (uint64_t)offset >> 12, len,
					      (uint32_t)prot, &mi)
		     : shim_mmap_prepare(f->sf, (uint64_t)offset >> 12, len,
					 (uint32_t)prot, &mi);
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
	ret = f->obj ? 0 : shim_mmap_commit(f->sf, (uint64_t)offset >> 12, len, (uintptr_t)p);
	if (ret) {
		munmap(p, len);
		*err = -ret;
		return MAP_FAILED;
	}
	return p;
}

int vgpu_inproc_munmap(struct vgpu_inproc_file *f, void *addr, size_t len)
{
	if (f->sf)
		shim_munmap(f->sf, (uintptr_t)addr, len);
	return munmap(addr, len) ? -errno : 0;
}

off_t vgpu_inproc_lseek(struct vgpu_inproc_file *f, off_t off, int whence)
{
	return f->obj ? (off_t)shim_fobj_llseek(f->obj, (int64_t)off, whence) : -ESPIPE;
}

// SPDX-License-Identifier: MIT
/*
 * The guest's device view: under `vgpu run`, /dev/dri/renderD128 (panfrost
 * DRM) and /dev/mali0 (kbase) look as they do on a board with a Mali, and
 * are served by the driver inside this process (fuse-dev/inproc.h). Their
 * paths are the tree's (devview_tree.c), the device is the one the options
 * describe (devview_config.c), a forked child's calls on the files it
 * inherited run in its parent (devview_fork.c).
 *
 * Open nodes: the guest's descriptor is a duplicate of the file's
 * eventfd, readable exactly while the file is, so poll/epoll/select work
 * natively. ioctl, read, write, mmap, munmap, fstat, fcntl(F_GETFL/
 * F_SETFL) and /proc/self/fd/N on it come here; dup/dup3/F_DUPFD copies
 * share the file (GEM and syncobj handles), which is released when its
 * last descriptor and mapping are gone, as the kernel does.
 *
 * The eventfd the driver keeps is never the guest's descriptor: the guest
 * may close or dup over its own numbers at will. O_NONBLOCK belongs to the
 * open file (shared by its copies) and is kept here, since the eventfd
 * itself must stay non-blocking for the driver.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "aarch64-user/abi.h"
#include "aarch64-user/devview.h"

pthread_mutex_t dv_lock = PTHREAD_MUTEX_INITIALIZER;
struct vgpu_inproc *dv_dev;
struct dv_file **dv_fds;
size_t dv_nfds;
struct dv_map *dv_maps;
bool dv_forked;
/* Descriptors in @dv_fds: every other descriptor skips the lock (one
 * load) while there is none. */
static int open_count;

/* ---- descriptors ---- */

void dv_file_put_locked(struct dv_file *df, struct vgpu_inproc_file **close_me)
{
	if (--df->refs == 0) {
		/* An inherited copy is left alone (devview_fork.c). */
		*close_me = df->inherited ? NULL : df->f;
		free(df);
	}
}

void dv_file_put(struct dv_file *df)
{
	struct vgpu_inproc_file *c = NULL;

	pthread_mutex_lock(&dv_lock);
	dv_file_put_locked(df, &c);
	pthread_mutex_unlock(&dv_lock);
	/* Outside the lock: release waits for the file's calls to end. */
	vgpu_inproc_close(c);
}

/* The file behind guest descriptor @fd with a reference, or NULL. */
static struct dv_file *file_get(int fd)
{
	struct dv_file *df = NULL;

	if (!__atomic_load_n(&open_count, __ATOMIC_ACQUIRE) || fd < 0)
		return NULL;
	pthread_mutex_lock(&dv_lock);
	if ((size_t)fd < dv_nfds && (df = dv_fds[fd]))
		df->refs++;
	pthread_mutex_unlock(&dv_lock);
	return df;
}

/* @fd now refers to @df (or nothing); drops what it referred to. */
static int fd_bind_locked(int fd, struct dv_file *df, struct vgpu_inproc_file **close_me)
{
	struct dv_file *old;

	if ((size_t)fd >= dv_nfds) {
		size_t n = dv_nfds ? dv_nfds : 64;
		struct dv_file **nv;

		if (!df)
			return 0;
		while (n <= (size_t)fd)
			n *= 2;
		nv = realloc(dv_fds, n * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		memset(nv + dv_nfds, 0, (n - dv_nfds) * sizeof(*nv));
		dv_fds = nv;
		dv_nfds = n;
	}
	old = dv_fds[fd];
	dv_fds[fd] = df;
	if (df) {
		df->refs++;
		__atomic_add_fetch(&open_count, 1, __ATOMIC_RELEASE);
	}
	if (old) {
		__atomic_sub_fetch(&open_count, 1, __ATOMIC_RELEASE);
		dv_file_put_locked(old, close_me);
	}
	return 0;
}

static void fd_bind(int fd, struct dv_file *df)
{
	struct vgpu_inproc_file *c = NULL;

	pthread_mutex_lock(&dv_lock);
	if (fd_bind_locked(fd, df, &c) && df) {
		/* No room to remember it: the copy cannot reach the file. */
		close(fd);
	}
	pthread_mutex_unlock(&dv_lock);
	vgpu_inproc_close(c);
}

/* A guest signal the calling thread does not block is waiting. */
static bool guest_signal_pending(void)
{
	struct gthread *t = thread_self();

	return t && (t->pending & ~t->sigmask);
}

/* A file the driver created in an ioctl (a PRIME dma-buf, a sync_file:
 * fuse-dev/inproc.h) gets a guest descriptor like a node's: a duplicate
 * of its pipe or eventfd, with calls on it routed to the file. It has no
 * node (@node NULL): fstat shows the pipe itself. */
static int install_object(struct vgpu_inproc_file *f, bool cloexec)
{
	struct dv_file *df = calloc(1, sizeof(*df));
	int fd;

	if (!df)
		return -ENOMEM;
	df->f = f;
	df->oflags = O_RDWR;
	fd = fcntl(vgpu_inproc_pollfd(f), cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (fd < 0) {
		fd = -errno;
		free(df);
		return fd;
	}
	fd_bind(fd, df);
	return fd;
}

static struct vgpu_inproc *device(void)
{
	struct vgpu_inproc *ip;

	dv_fork_watch();
	pthread_mutex_lock(&dv_lock);
	if (!dv_dev) {
		dv_dev = dv_device_create();
		vgpu_inproc_set_interrupt_check(guest_signal_pending);
		vgpu_inproc_set_install_hook(install_object);
		/* Which mode serves the nodes: only when asked for,
		 * so that the program's own output stays clean. */
		if (dv_dev && abi_opts.strace)
			fprintf(stderr, "vgpu run: /dev/dri/renderD128 and /dev/mali0 are "
				"served in process (%s, no FUSE)\n",
				dv_gpu_name());
	}
	ip = dv_dev;
	pthread_mutex_unlock(&dv_lock);
	return ip;
}

long devview_open(const char *raw, int host_flags)
{
	const struct dev_tree_node *n = dev_tree_node_of(raw);
	struct vgpu_inproc *ip;
	struct dv_file *df;
	int ret, fd;

	if (!n)
		return -ENOENT;
	if ((host_flags & O_DIRECTORY) || (host_flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return (host_flags & O_DIRECTORY) ? -ENOTDIR : -EEXIST;
	if (!(ip = device()))
		return -ENODEV;
	if (!(df = calloc(1, sizeof(*df))))
		return -ENOMEM;
	ret = vgpu_inproc_open(ip, n->name, &df->f);
	if (ret) {
		free(df);
		return ret;
	}
	df->node = n;
	df->oflags = host_flags & (O_ACCMODE | O_NONBLOCK | O_APPEND);
	fd = fcntl(vgpu_inproc_pollfd(df->f),
		   (host_flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (fd < 0) {
		ret = -errno;
		vgpu_inproc_close(df->f);
		free(df);
		return ret;
	}
	fd_bind(fd, df);
	return fd;
}

/* Whether guest descriptor @fd is a node (one load when none is open). */
static bool fd_is_node(int fd)
{
	bool yes;

	if (!__atomic_load_n(&open_count, __ATOMIC_ACQUIRE) || fd < 0)
		return false;
	pthread_mutex_lock(&dv_lock);
	yes = (size_t)fd < dv_nfds && dv_fds[fd];
	pthread_mutex_unlock(&dv_lock);
	return yes;
}

/* After a successful dup of @oldfd to @newfd (which the host closed
 * first if it was open). */
static void dup_done(int oldfd, int newfd)
{
	struct dv_file *df = file_get(oldfd);

	if (!df && !fd_is_node(newfd))
		return;
	fd_bind(newfd, df);
	if (df)
		dv_file_put(df);
}

long sys_close(struct gthread *t, const uint64_t *a)
{
	struct vgpu_inproc_file *c = NULL;
	int fd = (int)a[0];
	long r;

	(void)t;
	if (!fd_is_node(fd))
		return close(fd) ? -errno : 0;
	/* Under the lock, so that no other thread's open can get the number
	 * before the table forgets it. The descriptor is gone even when
	 * close reports an error. */
	pthread_mutex_lock(&dv_lock);
	r = close(fd) ? -errno : 0;
	if (r != -EBADF)
		fd_bind_locked(fd, NULL, &c);
	pthread_mutex_unlock(&dv_lock);
	vgpu_inproc_close(c);
	return r;
}

long sys_dup(struct gthread *t, const uint64_t *a)
{
	long r = syscall(SYS_dup, (int)a[0]);

	(void)t;
	if (r < 0)
		return -errno;
	dup_done((int)a[0], (int)r);
	return r;
}

long sys_dup3(struct gthread *t, const uint64_t *a)
{
	long r = syscall(SYS_dup3, (int)a[0], (int)a[1], oflags_to_host(a[2]));

	(void)t;
	if (r < 0)
		return -errno;
	dup_done((int)a[0], (int)r);
	return r;
}

long sys_close_range(struct gthread *t, const uint64_t *a)
{
	unsigned first = (unsigned)a[0], last = (unsigned)a[1];

	(void)t;
	if (syscall(SYS_close_range, first, last, (unsigned)a[2]))
		return -errno;
	/* The same bit in the guest's ABI: it only marks them. */
	if (a[2] & CLOSE_RANGE_CLOEXEC)
		return 0;
	/* Only descriptors the table knows can be nodes. */
	pthread_mutex_lock(&dv_lock);
	size_t end = last < dv_nfds ? (size_t)last + 1 : dv_nfds;
	pthread_mutex_unlock(&dv_lock);
	for (size_t fd = first; fd < end; fd++)
		if (fd_is_node((int)fd))
			fd_bind((int)fd, NULL);
	return 0;
}

/* ---- calls on an open node ---- */

long sys_ioctl(struct gthread *t, const uint64_t *a)
{
	struct dv_file *df = file_get((int)a[0]);
	long r;

	if (!df)
		return safe_syscall(t, SYS_ioctl, a);
	if (df->inherited)
		r = dv_inherited_ioctl(df, (unsigned)a[1], a[2]);
	else
		r = vgpu_inproc_ioctl(df->f, (unsigned)a[1], (void *)a[2]);
	dv_file_put(df);
	return r;
}

long sys_read(struct gthread *t, const uint64_t *a)
{
	struct dv_file *df = file_get((int)a[0]);
	long r;

	if (!df)
		return safe_syscall(t, SYS_read, a);
	if (df->inherited)
		r = dv_inherited_read(df, a[1], a[2]);
	else
		r = vgpu_inproc_read(df->f, (void *)a[1], a[2], df->oflags & O_NONBLOCK);
	dv_file_put(df);
	return r;
}

long sys_write(struct gthread *t, const uint64_t *a)
{
	struct dv_file *df = file_get((int)a[0]);

	if (!df)
		return safe_syscall(t, SYS_write, a);
	/* Neither driver has a write handler. */
	dv_file_put(df);
	return -EINVAL;
}

long sys_lseek(struct gthread *t, const uint64_t *a)
{
	struct dv_file *df = file_get((int)a[0]);
	long r;

	if (!df)
		return safe_syscall(t, SYS_lseek, a);
	if (df->inherited)
		r = dv_inherited_lseek(df, (int64_t)a[1], (int)a[2]);
	else
		r = (long)vgpu_inproc_lseek(df->f, (off_t)a[1], (int)a[2]);
	dv_file_put(df);
	return r;
}

long devview_dupfd(int fd, int cmd, uint64_t arg)
{
	long r = syscall(SYS_fcntl, fd, cmd, arg);

	if (r < 0)
		return -errno;
	dup_done(fd, (int)r);
	return r;
}

/* F_GETFL/F_SETFL of a node, or 1 when @fd is none. */
long devview_fcntl(int fd, int cmd, uint64_t arg)
{
	struct dv_file *df = file_get(fd);
	long r = 0;

	if (!df)
		return 1;
	if (cmd == F_GETFL) {
		/* The host's O_LARGEFILE (glibc spells it 0 on x86-64, the
		 * kernel shows it): oflags_to_guest() makes it the guest's. */
		r = (long)oflags_to_guest(df->oflags | 0100000);
	} else {
		int h = oflags_to_host(arg);

		pthread_mutex_lock(&dv_lock);
		df->oflags = (df->oflags & ~(O_NONBLOCK | O_APPEND)) |
			     (h & (O_NONBLOCK | O_APPEND));
		pthread_mutex_unlock(&dv_lock);
	}
	dv_file_put(df);
	return r;
}

/* What fstat shows for descriptor @fd if it is a node: 0 and @st filled,
 * 1 when it is none, or -errno. */
int devview_fstat(int fd, struct stat *st)
{
	struct dv_file *df = file_get(fd);
	char buf[PATH_MAX];
	int r = 0;

	if (!df)
		return 1;
	if (!df->node) {
		dv_file_put(df);
		return 1;
	}
	/* The tree file's identity, so that stat and fstat agree. */
	if (stat(devview_path(df->node->path, buf), st))
		r = -errno;
	else
		dev_tree_stat_as_node(df->node, st);
	dv_file_put(df);
	return r;
}

const char *devview_node_path(int fd)
{
	struct dv_file *df = file_get(fd);
	const char *p;

	if (!df)
		return NULL;
	p = df->node ? df->node->path : NULL;
	dv_file_put(df);
	return p;
}

/* ---- mappings ---- */

long devview_mmap(int fd, uint64_t addr, uint64_t len, int prot, int flags,
		  uint64_t off, bool *handled)
{
	struct dv_file *df = (flags & MAP_ANONYMOUS) ? NULL : file_get(fd);
	struct dv_map *m;
	int err = 0;
	void *p;

	*handled = df != NULL;
	if (!df)
		return 0;
	if (!(m = calloc(1, sizeof(*m)))) {
		dv_file_put(df);
		return -ENOMEM;
	}
	p = vgpu_inproc_mmap(df->f, (void *)addr, len, prot, flags, (off_t)off, &err);
	if (p == MAP_FAILED) {
		free(m);
		dv_file_put(df);
		return -err;
	}
	/* The mapping keeps the reference taken above, as a VMA keeps its
	 * file open. */
	m->addr = (uint64_t)p;
	m->len = len;
	m->file = df;
	pthread_mutex_lock(&dv_lock);
	m->next = dv_maps;
	dv_maps = m;
	pthread_mutex_unlock(&dv_lock);
	return (long)p;
}

long devview_munmap(uint64_t addr, uint64_t len, bool *handled)
{
	struct dv_map **pp, *m = NULL;
	long r;

	*handled = false;
	if (!__atomic_load_n(&dv_maps, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&dv_lock);
	for (pp = &dv_maps; *pp; pp = &(*pp)->next) {
		if ((*pp)->addr == addr) {
			m = *pp;
			*pp = m->next;
			break;
		}
	}
	pthread_mutex_unlock(&dv_lock);
	if (!m)
		return 0;
	*handled = true;
	/* The driver's vm_close, then the host unmap (an inherited copy's
	 * driver is left alone). */
	if (m->file->inherited)
		r = munmap((void *)addr, len ? len : m->len) ? -errno : 0;
	else
		r = vgpu_inproc_munmap(m->file->f, (void *)addr, len ? len : m->len);
	dv_file_put(m->file);
	free(m);
	return r;
}

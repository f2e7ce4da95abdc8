// SPDX-License-Identifier: MIT
/*
 * One open device file: connections to `vgpu dev --socket`
 * (fuse-dev/socket_proto.h). A request takes an idle connection of the
 * file, or attaches a new one, so concurrent requests from several
 * threads (a wait in one, a submission in another) proceed as they would
 * on a kernel file; while a request waits for its reply it answers the
 * driver's user-copy callbacks from this process's memory
 * (sock_exchange(), fuse-dev/socket_io.h): a pointer the program got
 * wrong is EFAULT for the ioctl, as copy_from_user/copy_to_user make it,
 * never a crash. Mappings of
 * device memory are kept in a list so munmap() can tell the driver (its
 * vm_close).
 *
 * Files the driver creates in an ioctl (a PRIME dma-buf, a sync_file...)
 * arrive as FD_INSTALL inside that ioctl: the descriptor the server sends
 * becomes the program's, with a vconn of its own (the server's token), so
 * ioctl/mmap/read on it work as on a node. An import (FD_GET) sends the
 * program's descriptor back: the server names the object by its
 * identity, so a descriptor received from another process works too;
 * mmap of such a descriptor asks the server what it is (IDENTIFY).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "fuse-dev/fuse_mmap_client.h"
#include "fuse-dev/socket_io.h"
#include "preload/preload.h"

/* Idle connections kept per file; more are closed after use. */
#define IDLE_MAX 8

struct vconn {
	enum preload_node node;
	int refs;
	bool nonblock;
	uint64_t token; /* names the file to ATTACH to */
	pthread_mutex_t lock;
	int idle[IDLE_MAX]; /* connections no request is using */
	int nidle;
};

void vconn_get(struct vconn *c)
{
	__atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
}

void vconn_put(struct vconn *c)
{
	if (__atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL))
		return;
	/* The last descriptor and mapping are gone: the server releases
	 * the file when its last connection ends. */
	for (int i = 0; i < c->nidle; i++)
		close(c->idle[i]);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

void vconn_after_fork(struct vconn *c)
{
	/* The parent keeps using its idle connections: the child must not
	 * talk on the same streams. It attaches its own when it needs them,
	 * sharing the file as a forked descriptor shares a kernel file. */
	pthread_mutex_init(&c->lock, NULL);
	for (int i = 0; i < c->nidle; i++)
		close(c->idle[i]);
	c->nidle = 0;
}

enum preload_node vconn_node(struct vconn *c)
{
	return c->node;
}

void vconn_set_nonblock(struct vconn *c, bool nonblock)
{
	c->nonblock = nonblock;
}

bool vconn_nonblock(struct vconn *c)
{
	return c->nonblock;
}

static int serve_fd(int sock, const struct vgpu_sock_msg *m, int *fd);

static int connect_server(void);

/* Descriptor @fd now names the file object @token of the server. */
static int object_bind(int fd, uint64_t token)
{
	struct vconn *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->node = PRELOAD_OBJECT;
	c->refs = 1;
	c->token = token;
	pthread_mutex_init(&c->lock, NULL);
	fdtab_set(fd, c);
	vconn_put(c);
	return 0;
}

/* FD_INSTALL: the new file's descriptor @fd becomes the program's. */
static int adopt(const struct vgpu_sock_msg *m, int fd)
{
	if (fd < 0)
		return -EPROTO;
	/* The table only covers low numbers (fdtab.c). */
	if (fd >= 65536) {
		int low = fcntl(fd, F_DUPFD_CLOEXEC, 3);

		close(fd);
		if (low < 0)
			return -errno;
		fd = low;
	}
	if (!(m->b & VGPU_SOCK_FD_CLOEXEC))
		fcntl(fd, F_SETFD, 0);
	if (object_bind(fd, m->a)) {
		close(fd);
		return -ENOMEM;
	}
	return fd;
}

int vconn_identify(int fd)
{
	struct vgpu_sock_msg req = { .op = VGPU_SOCK_IDENTIFY }, rep;
	int sock = connect_server(), ret, got = -1;

	if (sock < 0)
		return sock;
	ret = sock_send(sock, &req, NULL, fd);
	if (!ret)
		ret = sock_recv_hdr(sock, &rep, &got);
	if (got >= 0)
		close(got);
	close(sock);
	if (!ret && rep.op != VGPU_SOCK_REPLY)
		ret = -EPROTO;
	if (!ret)
		ret = rep.ret < 0 ? (int)rep.ret : object_bind(fd, rep.a);
	return ret;
}

/* The driver's descriptor-table callbacks inside a request. */
static int serve_fd(int sock, const struct vgpu_sock_msg *m, int *fd)
{
	struct vgpu_sock_msg r = { .op = VGPU_SOCK_REPLY };
	int pass = -1;

	if (m->op == VGPU_SOCK_FD_INSTALL) {
		r.ret = adopt(m, *fd);
		*fd = -1;
	} else if (m->a > INT32_MAX || fcntl((int)m->a, F_GETFD) < 0) {
		r.ret = -EBADF;
	} else {
		pass = (int)m->a;
	}
	return sock_send(sock, &r, NULL, pass);
}

/* An idle connection of @c, or a new one attached to its file. */
static int take_sock(struct vconn *c)
{
	struct vgpu_sock_msg req = { .op = VGPU_SOCK_ATTACH, .a = c->token }, rep;
	int sock = -1;

	pthread_mutex_lock(&c->lock);
	if (c->nidle)
		sock = c->idle[--c->nidle];
	pthread_mutex_unlock(&c->lock);
	if (sock >= 0)
		return sock;
	sock = connect_server();
	if (sock < 0)
		return sock;
	if (sock_exchange(sock, &req, NULL, &rep, NULL, 0, NULL, serve_fd) || rep.ret < 0) {
		close(sock);
		return -EIO;
	}
	return sock;
}

static void give_sock(struct vconn *c, int sock, bool broken)
{
	pthread_mutex_lock(&c->lock);
	if (!broken && c->nidle < IDLE_MAX) {
		c->idle[c->nidle++] = sock;
		sock = -1;
	}
	pthread_mutex_unlock(&c->lock);
	if (sock >= 0)
		close(sock);
}

/* One request on the file (see sock_exchange()). */
static int call(struct vconn *c, struct vgpu_sock_msg *req, const void *in,
		struct vgpu_sock_msg *rep, void *out, size_t cap, int *got_fd)
{
	int sock = take_sock(c), ret;

	if (sock < 0) {
		if (got_fd)
			*got_fd = -1;
		return sock;
	}
	ret = sock_exchange(sock, req, in, rep, out, cap, got_fd, serve_fd);
	give_sock(c, sock, ret != 0);
	/* A broken stream looks like a device that went away. */
	return ret ? -EIO : 0;
}

static int connect_server(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *path = preload_socket_path();
	int fd;

	if (!path || strlen(path) >= sizeof(sa.sun_path))
		return -ENOENT;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = errno;

		close(fd);
		/* No server: the node does not exist. */
		return e == ECONNREFUSED ? -ENOENT : -e;
	}
	return fd;
}

int vconn_open(enum preload_node node, bool nonblock, struct vconn **out)
{
	struct vgpu_sock_msg req = { .op = VGPU_SOCK_OPEN, .a = (uint64_t)node }, rep;
	struct vconn *c = calloc(1, sizeof(*c));
	int efd = -1, ret, sock;

	if (!c)
		return -ENOMEM;
	c->node = node;
	c->nonblock = nonblock;
	c->refs = 1;
	pthread_mutex_init(&c->lock, NULL);
	sock = connect_server();
	if (sock < 0) {
		vconn_put(c);
		return sock;
	}
	ret = sock_exchange(sock, &req, NULL, &rep, NULL, 0, &efd, serve_fd) ? -EIO : 0;
	if (!ret && rep.ret < 0)
		ret = (int)rep.ret;
	else if (!ret && efd < 0)
		ret = -EPROTO;
	if (ret) {
		if (efd >= 0)
			close(efd);
		close(sock);
		vconn_put(c);
		return ret;
	}
	c->token = rep.a;
	give_sock(c, sock, false);
	*out = c;
	return efd;
}

long vconn_ioctl(struct vconn *c, unsigned long cmd, void *arg)
{
	int sock = take_sock(c), err;
	long ret;

	if (sock < 0)
		return sock;
	err = sock_call_ioctl(sock, cmd, arg, serve_fd, &ret);
	give_sock(c, sock, err != 0);
	/* A broken stream looks like a device that went away. */
	return err ? -EIO : ret;
}

long vconn_read(struct vconn *c, void *buf, size_t len)
{
	int sock = take_sock(c), err;
	long ret;

	if (sock < 0)
		return sock;
	err = sock_call_read(sock, buf, len, c->nonblock, serve_fd, &ret);
	give_sock(c, sock, err != 0);
	return err ? -EIO : ret;
}

long long vconn_lseek(struct vconn *c, long long off, int whence)
{
	int sock = take_sock(c), err;
	int64_t ret;

	if (sock < 0)
		return sock;
	err = sock_call_lseek(sock, off, whence, &ret);
	give_sock(c, sock, err != 0);
	return err ? -EIO : ret;
}

/* ---- mappings ---- */
struct vmap {
	uintptr_t addr;
	size_t len;
	struct vconn *c;
	struct vmap *next;
};

static struct vmap *maps;
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;

static int simple(struct vconn *c, uint32_t op, uint64_t a, uint64_t b, uint64_t cc)
{
	struct vgpu_sock_msg req = { .op = op, .a = a, .b = b, .c = cc }, rep;
	int ret = call(c, &req, NULL, &rep, NULL, 0, NULL);

	return ret ? ret : (int)rep.ret;
}

void *vconn_mmap(struct vconn *c, void *addr, size_t len, int prot, int flags,
		 off_t offset, int *err)
{
	struct vgpu_sock_msg req = { .op = VGPU_SOCK_MMAP_PREPARE,
				     .a = (uint64_t)offset >> 12, .b = len,
				     .c = (uint32_t)prot }, rep;
	int fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE);
	struct vmap *m = malloc(sizeof(*m));
	int mfd = -1, ret;
	void *p;

	ret = m ? call(c, &req, NULL, &rep, NULL, 0, &mfd) : -ENOMEM;
	if (!ret && rep.ret < 0)
		ret = (int)rep.ret;
	if (ret) {
		if (mfd >= 0)
			close(mfd);
		free(m);
		*err = -ret;
		return MAP_FAILED;
	}
	if (rep.a & VGPU_DEV_MMAP_READONLY)
		prot &= ~PROT_WRITE;
	/* The driver wants the range inside one 4 GiB page: pick one, unless
	 * the caller fixed the address (then the commit judges it). */
	if ((rep.a & VGPU_DEV_MMAP_SAME_4GB) && !fixed) {
		addr = vgpu_dev_4gb_hint(len);
		if (addr)
			fixed = MAP_FIXED;
	}
	if (mfd < 0)
		p = mmap(addr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | fixed, -1, 0);
	else
		p = mmap(addr, len, prot, MAP_SHARED | fixed, mfd, (off_t)rep.b);
	*err = errno;
	if (mfd >= 0)
		close(mfd);
	if (p == MAP_FAILED) {
		free(m);
		return MAP_FAILED;
	}
	ret = simple(c, VGPU_SOCK_MMAP_COMMIT, (uint64_t)offset >> 12, len,
		     (uintptr_t)p);
	if (ret) {
		munmap(p, len);
		free(m);
		*err = -ret;
		return MAP_FAILED;
	}
	vconn_get(c);
	m->addr = (uintptr_t)p;
	m->len = len;
	m->c = c;
	pthread_mutex_lock(&maps_lock);
	m->next = maps;
	maps = m;
	pthread_mutex_unlock(&maps_lock);
	return p;
}

void vconn_munmap_notify(void *addr, size_t len)
{
	struct vmap **pp, *m = NULL;

	pthread_mutex_lock(&maps_lock);
	for (pp = &maps; *pp; pp = &(*pp)->next) {
		if ((*pp)->addr == (uintptr_t)addr) {
			m = *pp;
			*pp = m->next;
			break;
		}
	}
	pthread_mutex_unlock(&maps_lock);
	if (!m)
		return;
	simple(m->c, VGPU_SOCK_MUNMAP, m->addr, len ? len : m->len, 0);
	vconn_put(m->c);
	free(m);
}

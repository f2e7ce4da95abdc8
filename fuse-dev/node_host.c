// SPDX-License-Identifier: MIT
/*
 * The host under driver-shim (node_host.h): copy_from_user/copy_to_user with
 * process_vm_readv/writev on the thread that made the request (a fault or
 * a vanished process is EFAULT, as in the kernel), interruption (FUSE
 * INTERRUPT, the caller gone, or its file being released), and memfds as
 * the backing objects of GPU contexts.
 */
#include "fuse-dev/node_host.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

static int vm_copy(struct shim_caller *sc, void *local, uint64_t remote,
		   size_t len, bool write)
{
	struct iovec l = { .iov_base = local, .iov_len = len };
	struct iovec r = { .iov_base = (void *)(uintptr_t)remote, .iov_len = len };
	ssize_t n;

	if (!len)
		return 0;
	if (!sc->pid)
		return -1;
	n = write ? process_vm_writev(sc->pid, &l, 1, &r, 1, 0)
		  : process_vm_readv(sc->pid, &l, 1, &r, 1, 0);
	return n == (ssize_t)len ? 0 : -1;
}

static int copy_from(struct shim_caller *c, void *dst, uint64_t uaddr, size_t len)
{
	return vm_copy(c, dst, uaddr, len, false);
}

static int copy_to(struct shim_caller *c, uint64_t uaddr, const void *src,
		   size_t len)
{
	return vm_copy(c, (void *)src, uaddr, len, true);
}

static bool interrupted(struct shim_caller *sc)
{
	struct node_caller *c = (struct node_caller *)sc;

	if (c->fh && node_fh_closing(c->fh))
		return true;
	if (c->req && fuse_req_interrupted(c->req))
		return true;
	/* A caller killed with SIGKILL may never send INTERRUPT. */
	return c->base.pid && kill(c->base.pid, 0) && errno == ESRCH;
}

void node_caller_init(struct node_caller *c, fuse_req_t req,
			   struct dev_fh *fh)
{
	const struct fuse_ctx *ctx = req ? fuse_req_ctx(req) : NULL;

	c->base.pid = ctx ? (int)ctx->pid : 0;
	c->base.priv = c;
	c->base.copy_from_user = copy_from;
	c->base.copy_to_user = copy_to;
	c->base.interrupted = interrupted;
	c->base.copied_in = c->base.copied_out = 0;
	/* No descriptors can be given to a FUSE caller (README.md). */
	c->base.fd_install = NULL;
	c->base.fd_get = NULL;
	c->req = req;
	c->fh = fh;
}

void node_caller_init_local(struct node_caller *c)
{
	node_caller_init(c, NULL, NULL);
	c->base.pid = (int)getpid();
}

int node_fd_aside(int fd)
{
	struct rlimit rl;
	rlim_t base;
	int nfd;

	if (fd < 0 || getrlimit(RLIMIT_NOFILE, &rl))
		return fd;
	/* The upper half of the table, where programs seldom reach. */
	base = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 8192 ? 4096 : rl.rlim_cur / 2;
	if (base <= (rlim_t)fd || base < 64)
		return fd;
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, (int)base);
	if (nfd < 0)
		return fd;
	close(fd);
	return nfd;
}

static atomic_int backing_seq;

static int backing_create(void *priv, uint64_t size, struct shim_backing *b)
{
	char name[32];
	void *p;
	int fd;

	(void)priv;
	snprintf(name, sizeof(name), "vgpu-ctx-%d", atomic_fetch_add(&backing_seq, 1));
	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	/* Sparse: pages are allocated when first touched. */
	if (ftruncate(fd, (off_t)size)) {
		close(fd);
		return -1;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE,
		 fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return -1;
	}
	b->host = p;
	b->size = size;
	b->handle = fd;
	b->priv = NULL;
	return 0;
}

static void backing_destroy(void *priv, struct shim_backing *b)
{
	(void)priv;
	if (b->host)
		munmap(b->host, b->size);
	if (b->handle >= 0)
		close(b->handle);
	b->host = NULL;
	b->handle = -1;
}

static void backing_discard(void *priv, struct shim_backing *b, uint64_t off,
			    uint64_t len)
{
	(void)priv;
	/* Freed GPU memory goes back to the host and reads as zero when
	 * reused, like freshly allocated kernel pages. */
	if (fallocate(b->handle, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)off, (off_t)len))
		memset(b->host + off, 0, len);
}

void node_host_init(struct shim_host *host, void *priv)
{
	host->priv = priv;
	host->backing_create = backing_create;
	host->backing_destroy = backing_destroy;
	host->backing_discard = backing_discard;
}

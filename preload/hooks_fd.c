// SPDX-License-Identifier: MIT
/*
 * Calls on descriptors: those of open nodes (fdtab) go to their
 * connection; duplicates share the file (and so its GEM handles and
 * syncobjs), as dup() of a real node shares the struct file. poll() and
 * friends need nothing: the descriptor is an eventfd that is readable
 * exactly while the file is.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "preload/preload.h"

static long syscall_result(long ret)
{
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

int close(int fd)
{
	if (fdtab_get(fd))
		fdtab_clear(fd);
	return REAL(close)(fd);
}

/* @newfd (a fresh descriptor) now names what @oldfd names. */
static int dup_result(int oldfd, int newfd)
{
	struct vconn *c = newfd >= 0 ? fdtab_get(oldfd) : NULL;

	if (c)
		fdtab_set(newfd, c);
	else if (newfd >= 0 && fdtab_get(newfd))
		fdtab_clear(newfd);
	return newfd;
}

int dup(int fd)
{
	return dup_result(fd, REAL(dup)(fd));
}

int dup2(int fd, int newfd)
{
	return dup_result(fd, REAL(dup2)(fd, newfd));
}

int dup3(int fd, int newfd, int flags)
{
	return dup_result(fd, REAL(dup3)(fd, newfd, flags));
}

static int do_fcntl(int fd, int cmd, unsigned long arg)
{
	struct vconn *c = fdtab_get(fd);

	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return dup_result(fd, REAL(fcntl)(fd, cmd, arg));
	case F_GETFL:
		if (c)
			return O_RDWR | (vconn_nonblock(c) ? O_NONBLOCK : 0);
		break;
	case F_SETFL:
		/* Only read() looks at it; the eventfd stays non-blocking. */
		if (c) {
			vconn_set_nonblock(c, arg & O_NONBLOCK);
			return 0;
		}
		break;
	}
	return REAL(fcntl)(fd, cmd, arg);
}

int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	unsigned long arg;

	va_start(ap, cmd);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	return do_fcntl(fd, cmd, arg);
}

int fcntl64(int fd, int cmd, ...) __attribute__((alias("fcntl")));

int ioctl(int fd, unsigned long req, ...)
{
	struct vconn *c = fdtab_acquire(fd);
	va_list ap;
	void *arg;
	long ret;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!c)
		return REAL(ioctl)(fd, req, arg);
	ret = vconn_ioctl(c, req, arg);
	vconn_put(c);
	return (int)syscall_result(ret);
}

ssize_t read(int fd, void *buf, size_t len)
{
	struct vconn *c = fdtab_acquire(fd);
	long ret;

	if (!c)
		return REAL(read)(fd, buf, len);
	ret = vconn_read(c, buf, len);
	vconn_put(c);
	return syscall_result(ret);
}

/* A pipe we never saw may be a driver object another process passed us
 * (a dma-buf): pipes cannot be mapped, so asking costs nothing else. */
static struct vconn *foreign_object(int fd)
{
	struct stat st;

	if (!preload_socket_path() || REAL(fstat)(fd, &st) || !S_ISFIFO(st.st_mode) ||
	    vconn_identify(fd))
		return NULL;
	return fdtab_acquire(fd);
}

/* A dma-buf answers with its size at SEEK_END, as Linux's dma_buf_llseek
 * (Mesa's import asks before FD_TO_HANDLE). Other descriptors go to libc
 * first: only a pipe's ESPIPE may hide a driver object another process
 * passed us, so nothing else pays for asking the server. */
off_t lseek(int fd, off_t off, int whence)
{
	struct vconn *c = fdtab_acquire(fd);
	off_t ret;
	int err;

	if (!c) {
		ret = REAL(lseek)(fd, off, whence);
		err = errno;
		if (ret != -1 || err != ESPIPE || !(c = foreign_object(fd))) {
			errno = err;
			return ret;
		}
	}
	/* A node's too: ESPIPE, as in process (its eventfd would say EINVAL). */
	ret = (off_t)syscall_result(vconn_lseek(c, off, whence));
	vconn_put(c);
	return ret;
}

off_t lseek64(int fd, off_t off, int whence) __attribute__((alias("lseek")));

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	struct vconn *c = fd >= 0 && !(flags & MAP_ANONYMOUS) ? fdtab_acquire(fd) : NULL;
	void *p;
	int err;

	if (!c && fd >= 0 && !(flags & MAP_ANONYMOUS))
		c = foreign_object(fd);
	if (!c)
		return REAL(mmap)(addr, len, prot, flags, fd, off);
	p = vconn_mmap(c, addr, len, prot, flags, off, &err);
	vconn_put(c);
	if (p == MAP_FAILED)
		errno = err;
	return p;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
	__attribute__((alias("mmap")));

int munmap(void *addr, size_t len)
{
	vconn_munmap_notify(addr, len);
	return REAL(munmap)(addr, len);
}

// SPDX-License-Identifier: MIT
/*
 * Opening: the nodes become connections to the server; other paths we
 * answer for (/dev/dri, the sysfs entries) are rewritten into the
 * server's tree; everything else goes to libc untouched. glibc's
 * fortified (__open_2) and 64-bit-offset names are the same calls.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "preload/preload.h"

#define PATH_BUF 4200

/* open() of a node: the program gets the file's eventfd. */
static int open_node(enum preload_node node, int flags)
{
	struct vconn *c;
	int fd = vconn_open(node, flags & O_NONBLOCK, &c);

	if (fd < 0) {
		errno = -fd;
		return -1;
	}
	if (!(flags & O_CLOEXEC))
		fcntl(fd, F_SETFD, 0);
	fdtab_set(fd, c);
	vconn_put(c); /* the table's reference is the descriptor's */
	return fd;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ?
		(mode_t)va_arg(ap, int) : 0;
}

static int do_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	char buf[PATH_BUF];
	enum preload_node node = preload_node_of(path);

	if (node != PRELOAD_NOT_NODE)
		return open_node(node, flags);
	return REAL(openat)(dirfd, preload_path(path, buf, sizeof(buf)), flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return do_openat(AT_FDCWD, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return do_openat(dirfd, path, flags, mode);
}

/* On LP64 the 64-bit-offset names are the same calls. */
int open64(const char *path, int flags, ...) __attribute__((alias("open")));
int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));

int __open_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);

int __open_2(const char *path, int flags)
{
	return do_openat(AT_FDCWD, path, flags, 0);
}

int __openat_2(int dirfd, const char *path, int flags)
{
	return do_openat(dirfd, path, flags, 0);
}

int __open64_2(const char *path, int flags) __attribute__((alias("__open_2")));
int __openat64_2(int dirfd, const char *path, int flags) __attribute__((alias("__openat_2")));

/* libdrm reads uevent with stdio, whose own open() we cannot see. */
FILE *fopen(const char *path, const char *mode)
{
	char buf[PATH_BUF];

	return REAL(fopen)(preload_path(path, buf, sizeof(buf)), mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	char buf[PATH_BUF];

	return REAL(fopen64)(preload_path(path, buf, sizeof(buf)), mode);
}

DIR *opendir(const char *path)
{
	char buf[PATH_BUF];

	return REAL(opendir)(preload_path(path, buf, sizeof(buf)));
}

int access(const char *path, int mode)
{
	char buf[PATH_BUF];

	return REAL(access)(preload_path(path, buf, sizeof(buf)), mode);
}

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	char buf[PATH_BUF];

	return REAL(faccessat)(dirfd, preload_path(path, buf, sizeof(buf)), mode, flags);
}

ssize_t readlink(const char *path, char *out, size_t size)
{
	char buf[PATH_BUF];

	return REAL(readlink)(preload_path(path, buf, sizeof(buf)), out, size);
}

ssize_t readlinkat(int dirfd, const char *path, char *out, size_t size)
{
	char buf[PATH_BUF];

	return REAL(readlinkat)(dirfd, preload_path(path, buf, sizeof(buf)), out, size);
}

// SPDX-License-Identifier: MIT
/*
 * stat and friends: a node's path and an open node's descriptor both
 * show the same character device (libdrm compares stat's and fstat's
 * rdev; minors 128-191 are render nodes). Other paths of ours are
 * rewritten into the server's tree; the rest passes through. On the
 * 64-bit targets we build for, struct stat64 is struct stat.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "preload/preload.h"

#define PATH_BUF 4200

_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "LP64 stat");

static int node_fstat(struct vconn *c, struct stat *st)
{
	char buf[PATH_BUF];
	enum preload_node node = vconn_node(c);

	if (REAL(stat)(preload_node_tree_path(node, buf, sizeof(buf)), st))
		return -1;
	preload_stat_as_node(node, st);
	return 0;
}

static int do_fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	char buf[PATH_BUF];
	enum preload_node node;
	struct vconn *c;

	if (path && !path[0] && (flags & AT_EMPTY_PATH) && (c = fdtab_node(dirfd)))
		return node_fstat(c, st);
	node = preload_node_of(path);
	if (REAL(fstatat)(dirfd, preload_path(path, buf, sizeof(buf)), st, flags))
		return -1;
	if (node != PRELOAD_NOT_NODE)
		preload_stat_as_node(node, st);
	return 0;
}

int stat(const char *path, struct stat *st)
{
	return do_fstatat(AT_FDCWD, path, st, 0);
}

int stat64(const char *path, struct stat64 *st)
{
	return do_fstatat(AT_FDCWD, path, (struct stat *)st, 0);
}

int lstat(const char *path, struct stat *st)
{
	return do_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

int lstat64(const char *path, struct stat64 *st)
{
	return do_fstatat(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return do_fstatat(dirfd, path, st, flags);
}

int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	return do_fstatat(dirfd, path, (struct stat *)st, flags);
}

int fstat(int fd, struct stat *st)
{
	struct vconn *c = fdtab_node(fd);

	return c ? node_fstat(c, st) : REAL(fstat)(fd, st);
}

int fstat64(int fd, struct stat64 *st)
{
	return fstat(fd, (struct stat *)st);
}

int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *stx)
{
	char buf[PATH_BUF];
	enum preload_node node = PRELOAD_NOT_NODE;
	struct vconn *c;
	int ret;

	if (!path[0] && (flags & AT_EMPTY_PATH) && (c = fdtab_node(dirfd))) {
		node = vconn_node(c);
		path = preload_node_tree_path(node, buf, sizeof(buf));
		dirfd = AT_FDCWD;
		flags &= ~AT_EMPTY_PATH;
	} else {
		node = preload_node_of(path);
		path = preload_path(path, buf, sizeof(buf));
	}
	ret = REAL(statx)(dirfd, path, flags, mask, stx);
	if (!ret && node != PRELOAD_NOT_NODE) {
		struct stat st = { 0 };

		preload_stat_as_node(node, &st);
		stx->stx_mode = (uint16_t)st.st_mode;
		stx->stx_size = 0;
		stx->stx_rdev_major = major(st.st_rdev);
		stx->stx_rdev_minor = minor(st.st_rdev);
	}
	return ret;
}

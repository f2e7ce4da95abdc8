// SPDX-License-Identifier: MIT
/*
 * The directory beside the socket ("<socket>.d") that the preload library
 * shows its program in place of /dev/dri, /dev/mali0 and
 * /sys/dev/char/226:128: just what libdrm's device scan and Mesa's probe
 * read (issue 7 lists it), as real files, so that opendir/readdir,
 * readlink, fopen and stat need only a path rewrite in the client. The
 * node files are empty regular files; the client's stat() reports them as
 * the character devices they stand for.
 */
#define _XOPEN_SOURCE 700
#include "fuse-dev/socket.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuse-dev/socket_proto.h"

/* A Mali-G71 board's GPU as Linux's device tree names it. */
static const char uevent_text[] =
	"DRIVER=panfrost\n"
	"OF_NAME=gpu\n"
	"OF_FULLNAME=/gpu@ff9a0000\n"
	"OF_COMPATIBLE_0=arm,mali-bifrost\n"
	"OF_COMPATIBLE_N=1\n"
	"MODALIAS=of:NgpuT(null)Carm,mali-bifrost\n";

/* Only a directory holding this file is removed at exit. */
#define MARKER ".vgpu-socket-tree"

static int put_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t len = strlen(text);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, len) == (ssize_t)len;
	return close(fd) || !ok ? -1 : 0;
}

int sock_tree_create(const char *sock_path)
{
	static const char *const dirs[] = {
		"", "/dev", "/dev/dri", "/sys", "/sys/bus", "/sys/bus/platform",
		"/sys/dev", "/sys/dev/char", "/sys/dev/char/226:128",
		"/sys/dev/char/226:128/device", "/sys/dev/char/226:128/device/drm",
		"/sys/dev/char/226:128/device/drm/renderD128",
	};
	char root[4096], p[4200];

	snprintf(root, sizeof(root), "%s%s", sock_path, VGPU_SOCK_TREE_SUFFIX);
	sock_tree_remove(sock_path);
	/* Never adopt (or later delete) a directory that is not ours. */
	if (mkdir(root, 0755))
		return -1;
	snprintf(p, sizeof(p), "%s/%s", root, MARKER);
	if (put_file(p, "made by vgpu dev --socket; removed at exit\n"))
		return -1;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", root, dirs[i]);
		if (mkdir(p, 0755) && errno != EEXIST)
			return -1;
	}
	snprintf(p, sizeof(p), "%s/dev/dri/renderD128", root);
	if (put_file(p, ""))
		return -1;
	snprintf(p, sizeof(p), "%s/dev/mali0", root);
	if (put_file(p, ""))
		return -1;
	snprintf(p, sizeof(p), "%s/sys/dev/char/226:128/device/uevent", root);
	if (put_file(p, uevent_text))
		return -1;
	/* libdrm tells the bus by the name this link ends in. */
	snprintf(p, sizeof(p), "%s/sys/dev/char/226:128/device/subsystem", root);
	if (symlink("../../../../bus/platform", p))
		return -1;
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void sock_tree_remove(const char *sock_path)
{
	char root[4096];

	char marker[4200];

	snprintf(root, sizeof(root), "%s%s", sock_path, VGPU_SOCK_TREE_SUFFIX);
	snprintf(marker, sizeof(marker), "%s/%s", root, MARKER);
	if (access(marker, F_OK))
		return;
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

// SPDX-License-Identifier: MIT
/*
 * The device view's entries (dev_tree.h): just what libdrm's scan and
 * Mesa's probe read, as real files. The node files are empty regular
 * files; the program's stat() reports them as the character devices they
 * stand for.
 */
#include "fuse-dev/dev_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Minors 128-191 are DRM render nodes; mali0 is a misc device. */
static const struct dev_tree_node nodes[] = {
	{ "/dev/dri/renderD128", "renderD128", 226, 128 },
	{ "/dev/mali0", "mali0", 10, 60 },
};

#define SYS_DIR "/sys/dev/char/226:128"

/* A Mali-G71 board's GPU as Linux's device tree names it (a G52 board
 * uses the same compatible string). */
static const char uevent_text[] =
	"DRIVER=panfrost\n"
	"OF_NAME=gpu\n"
	"OF_FULLNAME=/gpu@ff9a0000\n"
	"OF_COMPATIBLE_0=arm,mali-bifrost\n"
	"OF_COMPATIBLE_N=1\n"
	"MODALIAS=of:NgpuT(null)Carm,mali-bifrost\n";

const struct dev_tree_node *dev_tree_node_of(const char *path)
{
	for (size_t i = 0; path && i < sizeof(nodes) / sizeof(nodes[0]); i++)
		if (!strcmp(path, nodes[i].path))
			return &nodes[i];
	return NULL;
}

/* @path is @prefix or lies below it. */
static bool under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(path, prefix, n) && (path[n] == '\0' || path[n] == '/');
}

bool dev_tree_covers(const char *path)
{
	return path && (under(path, "/dev/dri") || dev_tree_node_of(path) ||
			under(path, SYS_DIR));
}

void dev_tree_stat_as_node(const struct dev_tree_node *n, struct stat *st)
{
	st->st_mode = S_IFCHR | 0666;
	st->st_size = 0;
	st->st_blocks = 0;
	st->st_rdev = makedev(n->major, n->minor);
}

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

int dev_tree_populate(const char *root)
{
	static const char *const dirs[] = {
		"/dev", "/dev/dri", "/sys", "/sys/bus", "/sys/bus/platform",
		"/sys/dev", "/sys/dev/char", SYS_DIR, SYS_DIR "/device",
		SYS_DIR "/device/drm", SYS_DIR "/device/drm/renderD128",
	};
	char p[4200];

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", root, dirs[i]);
		if (mkdir(p, 0755) && errno != EEXIST)
			return -1;
	}
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", root, nodes[i].path);
		if (put_file(p, ""))
			return -1;
	}
	snprintf(p, sizeof(p), "%s%s/device/uevent", root, SYS_DIR);
	if (put_file(p, uevent_text))
		return -1;
	/* libdrm tells the bus by the name this link ends in. */
	snprintf(p, sizeof(p), "%s%s/device/subsystem", root, SYS_DIR);
	if (symlink("../../../../bus/platform", p) && errno != EEXIST)
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

void dev_tree_remove(const char *root)
{
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

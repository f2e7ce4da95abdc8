// SPDX-License-Identifier: MIT
/*
 * The device view's paths: the entries libdrm's scan and Mesa's probe
 * read (/dev/dri, the nodes, /sys/dev/char/226:128/...;
 * fuse-dev/dev_tree.h) are rewritten into a real directory made once per
 * user, so every path system call (openat, getdents64 on it, stat,
 * readlink, faccessat, statx) works unchanged; stat of a node shows the
 * character device it stands for.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aarch64-user/abi.h"
#include "fuse-dev/dev_tree.h"

/* The tree's layout version: a change of dev_tree.c's entries bumps it,
 * so an older tree is never mistaken for the current one. */
#define TREE_VERSION 1
#define TREE_MARKER ".vgpu-devview"

static char tree_root[PATH_MAX];
static pthread_once_t tree_once = PTHREAD_ONCE_INIT;

/* Ours: a directory owned by us, writable by nobody else, and marked. */
static bool tree_valid(const char *root)
{
	char p[PATH_MAX + 32];
	struct stat st;

	if (lstat(root, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
	    (st.st_mode & 022))
		return false;
	snprintf(p, sizeof(p), "%s/%s", root, TREE_MARKER);
	return !lstat(p, &st) && S_ISREG(st.st_mode) && st.st_uid == getuid();
}

/*
 * Its contents never change, so one tree per user serves every process
 * (forked and exec'd ones too) and needs no clean-up, whatever way a
 * process ends. It is built aside and renamed into place, so a concurrent
 * process sees either none or a whole one.
 */
static void tree_make(void)
{
	const char *tmp = getenv("TMPDIR");
	char base[PATH_MAX], work[PATH_MAX + 16], p[PATH_MAX + 32];
	int fd;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	snprintf(base, sizeof(base), "%s/vgpu-devview-%u-v%d", tmp,
		 (unsigned)getuid(), TREE_VERSION);
	if (!tree_valid(base)) {
		snprintf(work, sizeof(work), "%s.XXXXXX", base);
		if (!mkdtemp(work))
			goto fail;
		snprintf(p, sizeof(p), "%s/%s", work, TREE_MARKER);
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 || close(fd) || chmod(work, 0755) ||
		    dev_tree_populate(work) || (rename(work, base) && !tree_valid(base))) {
			dev_tree_remove(work);
			goto fail;
		}
		/* Another process won the race: its tree is as good. */
		dev_tree_remove(work);
	}
	if (!tree_valid(base))
		goto fail;
	snprintf(tree_root, sizeof(tree_root), "%s", base);
	return;
fail:
	fprintf(stderr, "vgpu run: cannot make the device view's directory %s: %s; "
		"/dev/dri stays the host's\n", base, strerror(errno));
}

const char *devview_path(const char *p, char *buf)
{
	if (!p || p[0] != '/' || !dev_tree_covers(p))
		return p;
	pthread_once(&tree_once, tree_make);
	if (!tree_root[0] || snprintf(buf, PATH_MAX, "%s%s", tree_root, p) >= PATH_MAX)
		return p;
	return buf;
}

void devview_stat_as_node(const char *raw, struct stat *st)
{
	const struct dev_tree_node *n = dev_tree_node_of(raw);

	if (n)
		dev_tree_stat_as_node(n, st);
}

const char *devview_tree_root(void)
{
	return tree_root[0] ? tree_root : NULL;
}

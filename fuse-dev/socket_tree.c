// SPDX-License-Identifier: MIT
/*
 * The directory beside the socket ("<socket>.d") that the preload library
 * shows its program in place of /dev/dri, /dev/mali0 and
 * /sys/dev/char/226:128 (the entries: dev_tree.c), made and removed with
 * the socket.
 */
#include "fuse-dev/socket.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuse-dev/dev_tree.h"
#include "fuse-dev/socket_proto.h"

/* Only a directory holding this file is removed at exit. */
#define MARKER ".vgpu-socket-tree"

int sock_tree_create(const char *sock_path)
{
	char root[4096], p[4200];
	int fd;

	snprintf(root, sizeof(root), "%s%s", sock_path, VGPU_SOCK_TREE_SUFFIX);
	sock_tree_remove(sock_path);
	/* Never adopt (or later delete) a directory that is not ours. */
	if (mkdir(root, 0755))
		return -1;
	snprintf(p, sizeof(p), "%s/%s", root, MARKER);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || close(fd))
		return -1;
	return dev_tree_populate(root);
}

void sock_tree_remove(const char *sock_path)
{
	char root[4096];

	char marker[4200];

	snprintf(root, sizeof(root), "%s%s", sock_path, VGPU_SOCK_TREE_SUFFIX);
	snprintf(marker, sizeof(marker), "%s/%s", root, MARKER);
	if (access(marker, F_OK))
		return;
	dev_tree_remove(root);
}

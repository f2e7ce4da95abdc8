// SPDX-License-Identifier: MIT
/*
 * The paths the preload library answers for: the device view's entries
 * (fuse-dev/dev_tree.h: the nodes, /dev/dri, /sys/dev/char/226:128),
 * rewritten into the tree `vgpu dev --socket` keeps beside its socket.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuse-dev/dev_tree.h"
#include "preload/preload.h"

#define RENDER_PATH "/dev/dri/renderD128"
#define MALI_PATH "/dev/mali0"

const char *preload_socket_path(void)
{
	const char *s = getenv("VGPU_SOCKET");

	return s && *s ? s : NULL;
}

const char *preload_path(const char *path, char *buf, size_t size)
{
	const char *sock = preload_socket_path();
	int n;

	if (!sock || !path || path[0] != '/')
		return path;
	if (!dev_tree_covers(path))
		return path;
	n = snprintf(buf, size, "%s%s%s", sock, VGPU_SOCK_TREE_SUFFIX, path);
	return n > 0 && (size_t)n < size ? buf : path;
}

enum preload_node preload_node_of(const char *path)
{
	const struct dev_tree_node *n;

	if (!preload_socket_path() || !(n = dev_tree_node_of(path)))
		return PRELOAD_NOT_NODE;
	return !strcmp(n->path, MALI_PATH) ? PRELOAD_KBASE : PRELOAD_PANFROST;
}

const char *preload_node_tree_path(enum preload_node node, char *buf, size_t size)
{
	return preload_path(node == PRELOAD_KBASE ? MALI_PATH : RENDER_PATH, buf, size);
}

void preload_stat_as_node(enum preload_node node, struct stat *st)
{
	dev_tree_stat_as_node(dev_tree_node_of(node == PRELOAD_KBASE ? MALI_PATH : RENDER_PATH),
			      st);
}

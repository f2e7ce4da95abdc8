// SPDX-License-Identifier: MIT
/*
 * The paths the preload library answers for: the device nodes, /dev/dri
 * (libdrm lists it) and /sys/dev/char/226:128 (libdrm reads device/drm,
 * device/subsystem and device/uevent there). They are rewritten into the
 * tree `vgpu dev --socket` keeps beside its socket.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "preload/preload.h"

#define RENDER_PATH "/dev/dri/renderD128"
#define MALI_PATH "/dev/mali0"
#define SYS_PATH "/sys/dev/char/226:128"

const char *preload_socket_path(void)
{
	const char *s = getenv("VGPU_SOCKET");

	return s && *s ? s : NULL;
}

/* @path is @prefix or lies below it. */
static bool under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(path, prefix, n) && (path[n] == '\0' || path[n] == '/');
}

const char *preload_path(const char *path, char *buf, size_t size)
{
	const char *sock = preload_socket_path();
	int n;

	if (!sock || !path || path[0] != '/')
		return path;
	if (!under(path, "/dev/dri") && strcmp(path, MALI_PATH) && !under(path, SYS_PATH))
		return path;
	n = snprintf(buf, size, "%s%s%s", sock, VGPU_SOCK_TREE_SUFFIX, path);
	return n > 0 && (size_t)n < size ? buf : path;
}

enum preload_node preload_node_of(const char *path)
{
	if (!preload_socket_path() || !path)
		return PRELOAD_NOT_NODE;
	if (!strcmp(path, RENDER_PATH))
		return PRELOAD_PANFROST;
	if (!strcmp(path, MALI_PATH))
		return PRELOAD_KBASE;
	return PRELOAD_NOT_NODE;
}

const char *preload_node_tree_path(enum preload_node node, char *buf, size_t size)
{
	return preload_path(node == PRELOAD_KBASE ? MALI_PATH : RENDER_PATH, buf, size);
}

void preload_stat_as_node(enum preload_node node, struct stat *st)
{
	st->st_mode = S_IFCHR | 0666;
	st->st_size = 0;
	if (node == PRELOAD_KBASE)
		st->st_rdev = makedev(VGPU_SOCK_MISC_MAJOR, VGPU_SOCK_MALI_MINOR);
	else
		st->st_rdev = makedev(VGPU_SOCK_DRM_MAJOR, VGPU_SOCK_RENDER_MINOR);
}

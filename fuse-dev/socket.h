/* SPDX-License-Identifier: MIT */
/*
 * `vgpu dev --socket PATH`: the device nodes over a unix socket
 * (socket_proto.h), served by the same driver as the FUSE nodes, and the
 * directory beside it that shows clients /dev/dri and the sysfs entries
 * libdrm reads (socket_tree.c).
 */
#ifndef VGPU_FUSE_DEV_SOCKET_H
#define VGPU_FUSE_DEV_SOCKET_H

#include "fuse-dev/server.h"

struct sock_server;
struct capture;

/* Listens on @path (replacing a stale socket there) and creates the tree;
 * with @cap, records panfrost submissions (capture.h). NULL on failure
 * (with a message). */
struct sock_server *sock_server_start(struct server *srv, const char *path,
				      struct capture *cap);
/* Closes every connection (releasing its file), then the socket and the
 * tree. Call before server_fini(). */
void sock_server_stop(struct sock_server *ss);

/* The tree "<path>.d": 0 or -1 (errno set). */
int sock_tree_create(const char *sock_path);
void sock_tree_remove(const char *sock_path);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * `vgpu dev --socket PATH`: the device nodes over a unix socket
 * (socket_proto.h), served by the same driver as the FUSE nodes, and the
 * directory beside it that shows clients /dev/dri and the sysfs entries
 * libdrm reads (socket_tree.c).
 */
#ifndef VGPU_FUSE_DEV_SOCKET_H
#define VGPU_FUSE_DEV_SOCKET_H

#include "fuse-dev/fuse_server.h"

struct sock_server;
struct capture;

/* Listens on @path (replacing a stale socket there) and creates the tree;
 * with @cap, records panfrost submissions (capture.h). NULL on failure
 * (with a message). */
struct sock_server *sock_server_start(struct server *srv, const char *path,
				      struct capture *cap);
/* The time limit on each call-back to a client inside a driver call
 * (COPY_IN/COPY_OUT, FD_*), in ms (0: the default); set before clients
 * connect. Past it the call fails as on a bad pointer and the client's
 * connection is hung up (socket.c, call_client()). */
#define SOCK_CALL_MS_DEFAULT 2000u
void sock_server_set_call_ms(struct sock_server *ss, unsigned ms);
/* Serves connected stream socket @fd (closed at the end) as a connection
 * accepted on @ss's socket, in the calling thread, until the peer hangs
 * up: for a caller that makes its connections itself (socketpair()) and
 * runs them on threads it keeps, as the socket fuzz target does. */
void sock_server_serve(struct sock_server *ss, int fd);
/* Closes every connection (releasing its file), then the socket and the
 * tree. Call before server_fini(). */
void sock_server_stop(struct sock_server *ss);

/*
 * Serves the requests on connected stream socket @fd, as on a connection
 * ATTACHed to a file, until the peer hangs up, for a file another
 * transport owns and keeps: node file @sf, or file object @obj with its
 * descriptor @h; @efd is readable while the file is. `vgpu run`'s fork
 * relay (aarch64-user/devview_fork.c): a forked child's calls on the
 * in-process files it inherited. The peer gets no descriptors (FD_* is
 * never asked) and no statistics.
 */
struct fobj_fd;
void sock_serve_lent(int fd, struct shim_file *sf, struct shim_fobj *obj,
		     struct fobj_fd *h, int efd);

/* The tree "<path>.d": 0 or -1 (errno set). */
int sock_tree_create(const char *sock_path);
void sock_tree_remove(const char *sock_path);

#endif

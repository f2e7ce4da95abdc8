/* SPDX-License-Identifier: MIT */
/* The FUSE file system that serves the nodes (server.c). */
#ifndef VGPU_FUSE_DEV_SERVER_H
#define VGPU_FUSE_DEV_SERVER_H

#include <poll.h>

#include "fuse-dev/transport.h"

struct server {
	struct shim_dev *dev;
};

/* Creates the driver (and the GPU model under it). 0 or -1. */
int server_init(struct server *srv, const struct shim_config *cfg);
void server_fini(struct server *srv);
/* The low-level operations; their userdata is the struct server. */
const struct fuse_lowlevel_ops *server_ops_get(void);

#endif

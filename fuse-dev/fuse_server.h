/* SPDX-License-Identifier: MIT */
/* The FUSE file system that serves the nodes (fuse_server.c). */
#ifndef VGPU_FUSE_DEV_FUSE_SERVER_H
#define VGPU_FUSE_DEV_FUSE_SERVER_H

#include <poll.h>
#include <pthread.h>

#include "fuse-dev/node_host.h"

struct dev_fh;

/*
 * What every transport keeps as a shim file's host data: the driver's
 * wake-up (a file became readable) calls @notify, so FUSE files and
 * socket files can share one driver.
 */
struct server_file {
	void (*notify)(struct server_file *hf);
};

struct board;
struct handoff;

struct server {
	struct board *board; /* the machine (board/) */
	struct shim_dev *dev; /* its driver */
	struct handoff *handoff; /* FUSE clients' memfds (fuse_handoff.h) */
	/* The nodes' owner, group and permission bits, as a render node's
	 * (root:render 0660 by default; dev_cmd.c). */
	uid_t node_uid;
	gid_t node_gid;
	unsigned node_mode;
	bool node_perm_given; /* --mode or --group: the socket's too */
	/* Open files: a client's last close sends RELEASE asynchronously,
	 * so some may still be open when the session ends. */
	pthread_mutex_t lock;
	struct dev_fh *open_files;
};

/* Builds the machine (board/: the GPU model and the driver). 0 or -1. */
int server_init(struct server *srv, const struct shim_config *cfg);
void server_fini(struct server *srv);
/* The FUSE nodes' memfd hand-off socket (fuse_handoff.h). 0 or -1. */
int server_handoff_start(struct server *srv);
/* The low-level operations; their userdata is the struct server. */
const struct fuse_lowlevel_ops *server_ops_get(void);

#endif

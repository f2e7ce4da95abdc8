/* SPDX-License-Identifier: MIT */
/*
 * What this process gives driver-shim under the device nodes: "current"
 * for a caller whose memory is reached by pid (a FUSE request's, or this
 * very process's in-process calls: user copies with
 * process_vm_readv/writev, and interruption), and per-context backing
 * objects (memfds) for every transport.
 */
#ifndef VGPU_FUSE_DEV_NODE_HOST_H
#define VGPU_FUSE_DEV_NODE_HOST_H

#define FUSE_USE_VERSION FUSE_MAKE_VERSION(3, 14)
#include <fuse_lowlevel.h>
#include <stdatomic.h>

#include "driver-shim/shim.h"

struct dev_fh;

/* One request's caller. */
struct node_caller {
	struct shim_caller base;
	fuse_req_t req;
	struct dev_fh *fh;
};

void node_caller_init(struct node_caller *c, fuse_req_t req,
			   struct dev_fh *fh);
/* A caller in this very process (in-process mode): user copies go
 * through process_vm_readv/writev on ourselves, so a bad guest pointer is
 * EFAULT, not a crash. */
void node_caller_init_local(struct node_caller *c);
/* True when @fh is being released (wakes blocked requests on it). */
bool node_fh_closing(struct dev_fh *fh);

/* Moves descriptor @fd (close-on-exec) out of the low numbers, and
 * returns its new number (@fd itself when there is no room): in process,
 * the driver's descriptors share a table with the guest program's, which
 * counts on getting the lowest free numbers as it would on a board. */
int node_fd_aside(int fd);

/* The backing-object half of struct shim_host. */
void node_host_init(struct shim_host *host, void *priv);

#endif

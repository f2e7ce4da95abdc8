/* SPDX-License-Identifier: MIT */
/*
 * What the FUSE server gives driver-shim: "current" for each request
 * (user copies with process_vm_readv/writev on the calling thread, and
 * interruption), and per-context backing objects (memfds).
 */
#ifndef VGPU_FUSE_DEV_TRANSPORT_H
#define VGPU_FUSE_DEV_TRANSPORT_H

#define FUSE_USE_VERSION FUSE_MAKE_VERSION(3, 14)
#include <fuse_lowlevel.h>
#include <stdatomic.h>

#include "driver-shim/shim.h"

struct dev_fh;

/* One request's caller. */
struct fuse_caller {
	struct shim_caller base;
	fuse_req_t req;
	struct dev_fh *fh;
};

void transport_caller_init(struct fuse_caller *c, fuse_req_t req,
			   struct dev_fh *fh);
/* A caller in this very process (in-process mode): user copies go
 * through process_vm_readv/writev on ourselves, so a bad guest pointer is
 * EFAULT, not a crash. */
void transport_caller_init_local(struct fuse_caller *c);
/* True when @fh is being released (wakes blocked requests on it). */
bool transport_fh_closing(struct dev_fh *fh);

/* Moves descriptor @fd (close-on-exec) out of the low numbers, and
 * returns its new number (@fd itself when there is no room): in process,
 * the driver's descriptors share a table with the guest program's, which
 * counts on getting the lowest free numbers as it would on a board. */
int transport_fd_aside(int fd);

/* The backing-object half of struct shim_host. */
void transport_host_init(struct shim_host *host, void *priv);

#endif

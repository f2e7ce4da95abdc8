/* SPDX-License-Identifier: MIT */
/*
 * A driver file object (driver-shim/shim.h) as a host descriptor, for the
 * transports that can give their clients descriptors (in-process and the
 * socket; see fuse-dev/README.md, "File objects").
 *
 * Objects that can be passed to other clients and imported back (dma-bufs,
 * sync_files, syncobj files) are the read end of a pipe: a pipe has an
 * inode of its own, so a descriptor coming back in an import is named by
 * fstat() whatever process it went through; the writer end, kept here,
 * makes the read end poll readable once the object is (a signalled fence;
 * that never goes back) and reports POLLERR once no read end is left
 * anywhere (the object's last descriptor is gone). Objects whose
 * readiness comes and goes (a counter reader) are an eventfd holding one
 * token while readable; they are never imported.
 */
#ifndef VGPU_FUSE_DEV_FOBJ_FD_H
#define VGPU_FUSE_DEV_FOBJ_FD_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

struct fobj_fd {
	int rfd;    /* what the client gets (pipe read end or eventfd) */
	int wfd;    /* pipe write end, -1 for an eventfd */
	dev_t dev;  /* the pipe's identity */
	ino_t ino;
	bool ready; /* a pipe's byte is written */
};

/* 0 or -errno. @level: an eventfd, else a pipe. */
int fobj_fd_make(struct fobj_fd *h, bool level);
/* The object's poll mask is now @mask. */
void fobj_fd_ready(struct fobj_fd *h, unsigned mask);
/* Whether descriptor @fd (of this process) is this object's. */
bool fobj_fd_is(const struct fobj_fd *h, const struct stat *st);
/* A pipe whose every read end is closed. */
bool fobj_fd_orphaned(const struct fobj_fd *h);
void fobj_fd_close(struct fobj_fd *h);

/* struct shim_host.fobj_notify for transports that set each object's host
 * data to its struct fobj_fd. */
struct shim_fobj;
void fobj_fd_notify(void *priv, struct shim_fobj *o, unsigned mask);

#endif

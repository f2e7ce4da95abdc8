/* SPDX-License-Identifier: MIT */
/*
 * A driver file object (driver-shim/shim.h) as a host descriptor, for the
 * transports that can give their clients descriptors (in-process and the
 * socket; see fuse-dev/README.md, "File objects").
 *
 * An object's descriptor is the read end of a pipe: a pipe has an inode
 * of its own, so a descriptor coming back in an import is named by
 * fstat() whatever process it went through; the write end, kept here,
 * makes the read end poll readable once the object is. For objects whose
 * readiness never goes back (a signalled fence; dma-bufs, syncobj files)
 * the transport may give away every read end, and the write end then
 * reports POLLERR once none is left anywhere (the object's last
 * descriptor is gone). Objects whose readiness comes and goes (@level, a
 * counter reader) keep a read end here to drain the pipe: one byte while
 * readable.
 */
#ifndef VGPU_FUSE_DEV_FOBJ_FD_H
#define VGPU_FUSE_DEV_FOBJ_FD_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

struct fobj_fd {
	int rfd;    /* the read end: what the client gets a copy of */
	int wfd;    /* the write end */
	dev_t dev;  /* the pipe's identity */
	ino_t ino;
	bool level; /* readiness comes and goes */
	bool ready; /* the byte is in the pipe */
};

/* 0 or -errno. */
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

/* A device node's file (kbase events) is readable through an eventfd of
 * the transport's: one token while the file is readable. */
void node_efd_ready(int efd, bool readable);

/*
 * After a call that may have consumed what made a file readable: re-arms
 * its descriptor, @h when the file is driver object @obj, else node file
 * @sf's eventfd @efd. An event a driver thread queued between the check
 * and the drain had its notification drained too (an event is queued
 * before its notification is sent), so a file still readable afterwards
 * gets its token back.
 */
struct shim_file;
void transport_rearm(struct shim_fobj *obj, struct fobj_fd *h, struct shim_file *sf,
		     int efd);

#endif

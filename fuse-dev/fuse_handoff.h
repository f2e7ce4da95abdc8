/* SPDX-License-Identifier: MIT */
/*
 * How a FUSE client gets its context's memfd (fuse_mmap.h): the server
 * cannot put a descriptor in its caller's table, and /proc/<server>/fd/N
 * would hand any memfd to whoever may open it (and to nobody once the
 * server is non-dumpable). So MMAP_PREPARE issues a one-use ticket for
 * the memfd, bound to the thread that asked; the client redeems it on
 * the server's abstract unix socket, and gets the memfd with SCM_RIGHTS
 * only if the socket's peer (SO_PEERCRED) is that thread's process, with
 * the same uid.
 */
#ifndef VGPU_FUSE_DEV_FUSE_HANDOFF_H
#define VGPU_FUSE_DEV_FUSE_HANDOFF_H

#include <stdint.h>
#include <sys/types.h>

struct handoff;

/* Listens on a fresh abstract socket; NULL (errno) if it cannot. */
struct handoff *handoff_start(void);
void handoff_stop(struct handoff *h);
/* The number in the socket's name (fuse_mmap.h: VGPU_DEV_MMAP_SOCKET). */
uint64_t handoff_channel(const struct handoff *h);

/*
 * A ticket (never 0) for a copy of @fd that thread @tid, of a process
 * with uid @uid, may redeem once; @owner (the open file) keeps a few
 * outstanding at most, the oldest dropped first. 0 on failure.
 */
uint64_t handoff_issue(struct handoff *h, const void *owner, int fd, pid_t tid,
		       uid_t uid);
/* Drops @owner's unredeemed tickets (its file is being released). */
void handoff_forget(struct handoff *h, const void *owner);

#endif

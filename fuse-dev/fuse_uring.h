/* SPDX-License-Identifier: MIT */
/*
 * FUSE over io_uring for a libfuse session (fuse_uring.c): requests come
 * from per-CPU queues of io_uring commands on /dev/fuse instead of a
 * read() and a writev() each, and the session's own low-level operations
 * serve them, so both transports run the same handlers.
 */
#ifndef VGPU_FUSE_DEV_FUSE_URING_H
#define VGPU_FUSE_DEV_FUSE_URING_H

#define FUSE_USE_VERSION FUSE_MAKE_VERSION(3, 14)
#include <fuse_lowlevel.h>
#include <stdbool.h>

enum fuse_transport {
	FUSE_TRANSPORT_CLASSIC, /* libfuse's read/writev loop */
	FUSE_TRANSPORT_URING,   /* io_uring, or fail saying why */
	FUSE_TRANSPORT_AUTO,    /* io_uring where the kernel has it */
};

/* "classic", "uring" or "auto" into @t: 0, or -1 for anything else. */
int fuse_transport_parse(const char *s, enum fuse_transport *t);

/*
 * Before mounting: whether to try io_uring for @want. Turns the fuse
 * module's enable_uring on when it is off and we may (root), saying so.
 * 1 try it, 0 classic (auto only; the reason on stderr), -1 when @want is
 * uring and it cannot work (the reason on stderr). @prog prefixes the
 * messages. $VGPU_FUSE_URING_PARAM names another file to read as the
 * parameter (the tests' own, in place of the host's setting).
 */
int fuse_uring_prepare(enum fuse_transport want, const char *prog);

struct fuse_uring;

/*
 * After fuse_session_mount() at @mnt, before the session loop: negotiates
 * io_uring at INIT and serves from rings once the kernel agrees. With
 * @forced, a kernel that does not agree ends the session
 * (fuse_uring_failed()). NULL on failure. One per process.
 * $VGPU_FUSE_URING_ENTRIES="INITIAL,SPARE" sets the entries each queue
 * starts with (16) and keeps idle (8).
 */
struct fuse_uring *fuse_uring_attach(struct fuse_session *se, const char *mnt, bool forced);
/* The nudger process's body (`vgpu dev --uring-nudger MOUNTPOINT`, which
 * fuse_uring_attach() starts): a statfs() of @mnt from the CPU of each
 * queue number read from stdin, until it ends. */
int fuse_uring_nudger_main(const char *mnt);
/* True when io_uring was forced and could not be set up. */
bool fuse_uring_failed(const struct fuse_uring *u);
/* After the session loop: stops the rings' threads (waiting for requests
 * in progress, as libfuse's loop does) and frees @u. NULL is fine. */
void fuse_uring_stop(struct fuse_uring *u);

#endif

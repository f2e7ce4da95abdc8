/* SPDX-License-Identifier: MIT */
/*
 * Both ends' message I/O for socket_proto.h: the framing on a stream
 * socket, shared by the server (fuse-dev/socket.c) and its clients, and
 * the client's side of a request, shared by the clients: the preload
 * library and `vgpu run`'s fork relay (aarch64-user/devview_fork.c).
 * libc only, and only sendmsg/recvmsg on the stream: the preload library
 * intercepts read() and close().
 */
#ifndef VGPU_FUSE_DEV_SOCKET_IO_H
#define VGPU_FUSE_DEV_SOCKET_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "fuse-dev/socket_proto.h"

/* Room for one descriptor's SCM_RIGHTS message, aligned. */
union sock_fd_ctl {
	struct cmsghdr h;
	char buf[CMSG_SPACE(sizeof(int))];
};

/* Makes @mh carry descriptor @fd (SCM_RIGHTS), its control data in @ctl. */
void sock_attach_fd(struct msghdr *mh, union sock_fd_ctl *ctl, int fd);

/* Sends @m (its len says how much of @payload) and, if @pass_fd >= 0,
 * that descriptor. 0, or -errno (-EPIPE when the peer is gone). */
int sock_send(int fd, const struct vgpu_sock_msg *m, const void *payload,
	      int pass_fd);
/* Receives one header; a descriptor sent with it lands in *@got_fd
 * (close-on-exec), else *@got_fd is -1. 0, -EPIPE at end of stream, or
 * -errno. */
int sock_recv_hdr(int fd, struct vgpu_sock_msg *m, int *got_fd);
/* Receives exactly @len payload bytes into @buf (NULL: throw them away). */
int sock_recv_payload(int fd, void *buf, size_t len);

/* The same with a deadline (sock_deadline(); 0: none): what is not sent
 * or received by then is -ETIMEDOUT, the stream out of step. The server
 * bounds its call-backs so: a client that stops answering or reading
 * must not hold the driver (fuse-dev/socket.c). */
uint64_t sock_deadline(unsigned ms); /* @ms from now */
int sock_send_by(int fd, const struct vgpu_sock_msg *m, const void *payload,
		 int pass_fd, uint64_t deadline);
int sock_recv_hdr_by(int fd, struct vgpu_sock_msg *m, int *got_fd, uint64_t deadline);
int sock_recv_payload_by(int fd, void *buf, size_t len, uint64_t deadline);

/* ---- the client's side ---- */

/* Copies @len bytes between this process's memory at @user and @buf
 * (@to_user: towards @user) without faulting: 0, or -EFAULT when any of
 * it is not mapped so. */
int sock_user_rw(uintptr_t user, void *buf, size_t len, bool to_user);

/* Answers a driver's descriptor-table callback @m (FD_INSTALL, FD_GET)
 * on @sock; *@fd is the descriptor that came with it (set it to -1 when
 * taken). 0 or -errno of the stream. */
typedef int sock_fd_answer(int sock, const struct vgpu_sock_msg *m, int *fd);

/*
 * Sends @req (+ @in) on @sock, answers the driver's callbacks while it
 * waits (COPY_IN/COPY_OUT from this process's memory, FD_* with @fdc; a
 * client without @fdc gets none from a server that installs nothing),
 * and receives the reply: its header into *@rep, up to @cap payload
 * bytes into @out, a descriptor into *@got_fd (if not NULL). 0, or
 * -errno of the stream.
 */
int sock_exchange(int sock, struct vgpu_sock_msg *req, const void *in,
		  struct vgpu_sock_msg *rep, void *out, size_t cap, int *got_fd,
		  sock_fd_answer *fdc);

/* ioctl @cmd with argument @arg (this process's pointer) on the file of
 * connection @sock, its argument copied in and out as the _IOC encoding
 * sizes it (a bad pointer is EFAULT, as the kernel's ioctl entry makes
 * it): 0 and the driver's answer in *@ret, or -errno of the stream. */
int sock_call_ioctl(int sock, unsigned long cmd, void *arg, sock_fd_answer *fdc,
		    long *ret);
/* read(2) of up to @len bytes into @buf: as sock_call_ioctl(). */
int sock_call_read(int sock, void *buf, size_t len, bool nonblock,
		   sock_fd_answer *fdc, long *ret);
/* lseek(2) to @off from @whence: as sock_call_ioctl(), the new offset or
 * -errno in *@ret. */
int sock_call_lseek(int sock, int64_t off, int whence, int64_t *ret);

#endif

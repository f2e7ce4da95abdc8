/* SPDX-License-Identifier: MIT */
/*
 * Framing of socket_proto.h messages on a stream socket, shared by the
 * server (fuse-dev/socket.c) and the preload library. libc only, and only
 * sendmsg/recvmsg: the preload library intercepts read() and close().
 */
#ifndef VGPU_FUSE_DEV_SOCKET_IO_H
#define VGPU_FUSE_DEV_SOCKET_IO_H

#include <stddef.h>

#include "fuse-dev/socket_proto.h"

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

#endif

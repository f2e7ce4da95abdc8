/* SPDX-License-Identifier: MIT */
/*
 * The wire protocol of `vgpu dev --socket PATH` (fuse-dev/socket.c) and
 * its client, the preload library (preload/); `vgpu run`'s fork relay
 * speaks it too, on connections made already attached to a file
 * (sock_serve_lent(), socket.h).
 *
 * A stream connection begins with OPEN (a new open device file), ATTACH
 * (one more connection to a file already open: a client gives each of
 * its threads its own, so that a blocking request holds up no other) or
 * STATS (no file). The file is released when its last connection closes,
 * like a kernel file's release when its last descriptor goes.
 * Every message is a struct vgpu_sock_msg followed by @len payload bytes.
 * A connection's requests are answered in order, each by one REPLY.
 *
 * A request may call back before it is answered: the driver's
 * copy_from_user/copy_to_user become COPY_IN/COPY_OUT messages that the
 * client answers with a REPLY of its own (the bytes, or ret < 0 for a
 * fault). So the client marshals nothing but the ioctl's own argument
 * bytes (as the _IOC encoding sizes them): the driver fetches exactly the
 * user memory it reads, in both UAPIs, with no table of their layouts to
 * fall out of step.
 *
 * File descriptors travel as SCM_RIGHTS: the OPEN reply carries an
 * eventfd that is readable exactly while the file is (kbase events), and
 * the client hands that to its program as the device's descriptor, so
 * poll/epoll work natively; an MMAP_PREPARE reply carries the context's
 * memfd, which the client maps itself: CPU and GPU share those pages.
 * Ioctls that create descriptors (PRIME, syncobj and sync_file exports,
 * counter readers) send the new file's descriptor in an FD_INSTALL; the
 * client gives it to its program and uses the token as for a node; an
 * import asks for the program's descriptor with FD_GET, and the server
 * names the object by the descriptor's identity (fobj_fd.h).
 */
#ifndef VGPU_FUSE_DEV_SOCKET_PROTO_H
#define VGPU_FUSE_DEV_SOCKET_PROTO_H

#include <stdint.h>

enum vgpu_sock_op {
	/* client -> server */
	VGPU_SOCK_OPEN = 1,      /* a: VGPU_SOCK_NODE_*; reply a: the file's
				  * token (for ATTACH), + its eventfd */
	VGPU_SOCK_IOCTL,         /* a: cmd; payload: the argument if _IOC_WRITE;
				  * reply ret, payload the argument if _IOC_READ */
	VGPU_SOCK_READ,          /* a: length, b: nonblocking; reply payload */
	VGPU_SOCK_MMAP_PREPARE,  /* a: pgoff, b: length, c: prot; reply a: flags
				  * (VGPU_DEV_MMAP_*), b: offset, + the memfd */
	VGPU_SOCK_MMAP_COMMIT,   /* a: pgoff, b: length, c: cpu_va */
	VGPU_SOCK_MUNMAP,        /* a: cpu_va, b: length */
	VGPU_SOCK_STATS,         /* reply payload: the statistics JSON */
	VGPU_SOCK_ATTACH,        /* a: an OPEN reply's token: this connection
				  * serves that file too */
	/* server -> client, inside a request */
	VGPU_SOCK_COPY_IN,       /* a: user address, b: length; reply payload */
	VGPU_SOCK_COPY_OUT,      /* a: user address; payload: the bytes */
	/* either way */
	VGPU_SOCK_REPLY,         /* ret: >= 0 or -errno */
	/* server -> client, inside a request: the driver's descriptor table
	 * calls (file objects, fuse-dev/README.md) */
	VGPU_SOCK_FD_INSTALL,    /* a: the new file's token (for ATTACH), b:
				  * VGPU_SOCK_FD_*; + its descriptor; reply ret:
				  * the program's descriptor number, or -errno */
	VGPU_SOCK_FD_GET,        /* a: a descriptor number of the program;
				  * reply ret 0 + that descriptor, or -EBADF */
	/* client -> server, a first message (then the connection ends) */
	VGPU_SOCK_IDENTIFY,      /* + a descriptor the client did not get from
				  * us (received from another process); reply
				  * a: the token of the file object it is, or
				  * ret -EINVAL */
	/* client -> server */
	VGPU_SOCK_LSEEK,         /* a: offset, b: whence (SEEK_*); reply ret:
				  * the new offset or -errno (a dma-buf tells
				  * its size; -ESPIPE for a node) */
};

#define VGPU_SOCK_FD_CLOEXEC 1u

enum {
	VGPU_SOCK_NODE_KBASE = 0,    /* /dev/mali0 */
	VGPU_SOCK_NODE_PANFROST = 1, /* /dev/dri/renderD128 */
};

struct vgpu_sock_msg {
	uint32_t op;
	uint32_t len; /* payload bytes that follow */
	int64_t ret;
	uint64_t a, b, c;
};

/* No single message carries more (a kbase read, a property buffer). */
#define VGPU_SOCK_MAX_PAYLOAD (64u << 20)

/* The directory beside the socket holding what /dev/dri and
 * /sys/dev/char/226:128 show a client: "<socket path>.d". */
#define VGPU_SOCK_TREE_SUFFIX ".d"

#endif

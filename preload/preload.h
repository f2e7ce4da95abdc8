/* SPDX-License-Identifier: MIT */
/*
 * libvgpu-preload.so: the virtual Mali for any dynamically linked process
 * (LD_PRELOAD; under qemu-aarch64 with -E LD_PRELOAD=...). It gives the
 * process /dev/dri/renderD128 and /dev/mali0 backed by `vgpu dev --socket`
 * ($VGPU_SOCKET), and the /dev/dri and /sys/dev/char/226:128 entries
 * libdrm's scan reads, by rewriting those paths into the server's tree
 * (fuse-dev/socket_tree.c). Everything else passes through to libc.
 *
 * The program's descriptor for an open node is the eventfd the server
 * sends (readable exactly while the file is), so poll/epoll/select need
 * no interception; the connection socket is kept privately beside it.
 * libc only: no libfuse, nothing of vgpu's server side.
 */
#ifndef VGPU_PRELOAD_H
#define VGPU_PRELOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "fuse-dev/socket_proto.h"

/* libc's own definition of @name (dlsym RTLD_NEXT), or NULL. */
void *preload_real(const char *name);
/* The real function behind one of our hooks, resolved once. */
#define REAL(fn)                                                        \
	({                                                              \
		static __typeof__(&fn) real_;                           \
		if (!__atomic_load_n(&real_, __ATOMIC_ACQUIRE))         \
			__atomic_store_n(&real_, (__typeof__(&fn))      \
					 preload_real(#fn), __ATOMIC_RELEASE); \
		real_;                                                  \
	})

/* ---- paths.c: which paths are ours ---- */
enum preload_node {
	PRELOAD_OBJECT = -2,  /* a file the driver created (dma-buf, sync_file...) */
	PRELOAD_NOT_NODE = -1,
	PRELOAD_KBASE = VGPU_SOCK_NODE_KBASE,
	PRELOAD_PANFROST = VGPU_SOCK_NODE_PANFROST,
};
/* @path rewritten into the server's tree when it names one of the entries
 * we provide (the result is @buf), else @path itself. */
const char *preload_path(const char *path, char *buf, size_t size);
/* Which node an (un-rewritten) path opens. */
enum preload_node preload_node_of(const char *path);
/* What stat() shows of a node: the tree file's identity as a character
 * device with the node's rdev. */
void preload_stat_as_node(enum preload_node node, struct stat *st);
/* The tree file standing for @node (for fstat of an open node). */
const char *preload_node_tree_path(enum preload_node node, char *buf, size_t size);
/* $VGPU_SOCKET, or NULL when unset (then nothing is intercepted). */
const char *preload_socket_path(void);

/* ---- conn.c: one open device file ---- */
struct vconn;
/* Connects and opens @node; the eventfd to give the program, or -errno. */
int vconn_open(enum preload_node node, bool nonblock, struct vconn **out);
void vconn_get(struct vconn *c);
void vconn_put(struct vconn *c);
enum preload_node vconn_node(struct vconn *c);
/* In a child after fork(): forget the parent's idle connections. */
void vconn_after_fork(struct vconn *c);
void vconn_set_nonblock(struct vconn *c, bool nonblock);
bool vconn_nonblock(struct vconn *c);
/* Like the syscalls: >= 0 or -errno. */
long vconn_ioctl(struct vconn *c, unsigned long cmd, void *arg);
long vconn_read(struct vconn *c, void *buf, size_t len);
/* The file's llseek (a dma-buf's size at SEEK_END). */
long long vconn_lseek(struct vconn *c, long long off, int whence);
void *vconn_mmap(struct vconn *c, void *addr, size_t len, int prot, int flags,
		 off_t offset, int *err);
/* Binds @fd, a descriptor another process passed us, to the server's
 * file object it is (a dma-buf...): 0, or -errno when it is none. */
int vconn_identify(int fd);
/* The driver's vm_close for a mapping made by vconn_mmap (tracked here). */
void vconn_munmap_notify(void *addr, size_t len);

/* ---- fdtab.c: descriptors of open nodes ---- */
/* The file behind @fd, or NULL (cheap: one load for other descriptors). */
struct vconn *fdtab_get(int fd);
/* The file behind @fd if it is a device node (not a driver object). */
struct vconn *fdtab_node(int fd);
/* The same with a reference for a call in progress (vconn_put it after). */
struct vconn *fdtab_acquire(int fd);
/* @fd now refers to @c (takes a reference). */
void fdtab_set(int fd, struct vconn *c);
/* Forgets @fd (drops its reference). */
void fdtab_clear(int fd);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The device nodes without FUSE, inside the process that uses them: what
 * `vgpu run` uses when no FUSE mount is possible (unprivileged
 * containers). The DBT intercepts the guest's syscalls on a node and calls
 * these; semantics (errnos, argument copies by the _IOC encoding, events)
 * are exactly those of the FUSE nodes, since both run driver-shim.
 *
 * Each open file comes with an eventfd that is readable exactly while the
 * file is (kbase events pending): the DBT gives the guest a duplicate of
 * it as the file descriptor, lets poll()/epoll work natively on it, and
 * routes ioctl/read/mmap/munmap/close here (aarch64-user/devview.c). The
 * eventfd and the contexts' memfds sit high in the descriptor table, so
 * that the guest's own descriptors get the numbers they would get on a
 * board. mmap() maps the context's memfd
 * directly at the guest address, so the guest and the GPU share pages.
 */
#ifndef VGPU_FUSE_DEV_INPROC_H
#define VGPU_FUSE_DEV_INPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "driver-shim/shim.h"

struct vgpu_inproc;
struct vgpu_inproc_file;

struct vgpu_inproc *vgpu_inproc_create(const struct shim_config *cfg);
void vgpu_inproc_destroy(struct vgpu_inproc *ip);

/* @pending tells whether a signal waits for the calling thread (the DBT's
 * guest signals): a call sleeping in the driver then ends with -EINTR
 * within 20 ms, as a kernel driver's interruptible wait does, and the
 * caller restarts it or not by the handler's SA_RESTART. */
void vgpu_inproc_set_interrupt_check(bool (*pending)(void));

/* The statistics as JSON into @buf; returns the length it needs. */
size_t vgpu_inproc_stats_json(struct vgpu_inproc *ip, char *buf, size_t size);
/* All of it in a buffer of its own (free it), even while jobs run. */
char *vgpu_inproc_stats_dup(struct vgpu_inproc *ip, size_t *len);
/* The driver behind the nodes (its trace: shim_trace_start/_write). */
struct shim_dev *vgpu_inproc_shim(struct vgpu_inproc *ip);
/* The machine the device runs on. */
struct board *vgpu_inproc_board(struct vgpu_inproc *ip);

/* @node: "mali0" or "renderD128". 0 or -errno. */
int vgpu_inproc_open(struct vgpu_inproc *ip, const char *node,
		     struct vgpu_inproc_file **out);
void vgpu_inproc_close(struct vgpu_inproc_file *f);
/* The eventfd described above (owned by the file). */
int vgpu_inproc_pollfd(struct vgpu_inproc_file *f);
/* In a forked child, for a node file it inherited: an eventfd of its own
 * in place of the one it shares with the parent (the new one returned, or
 * -errno), so that nothing the child does changes the parent's poll
 * readiness. Async-signal-safe, for an atfork child handler. */
int vgpu_inproc_after_fork(struct vgpu_inproc_file *f);

/* Like the syscalls; return >= 0, or -errno. @arg is the caller's pointer. */
long vgpu_inproc_ioctl(struct vgpu_inproc_file *f, unsigned cmd, void *arg);
long vgpu_inproc_read(struct vgpu_inproc_file *f, void *buf, size_t len,
		      bool nonblock);
unsigned vgpu_inproc_poll(struct vgpu_inproc_file *f); /* POLLIN bits */
/* Serves the calls another process makes on this file over connected
 * stream socket @sock (the socket transport's protocol, socket_proto.h)
 * until it hangs up: a forked child's, whose DBT relays them
 * (aarch64-user/devview_fork.c); no descriptor can be handed to it. */
void vgpu_inproc_serve(struct vgpu_inproc_file *f, int sock);
/* mmap(@addr, @len, @prot, @flags & MAP_FIXED*, this file, @offset). */
void *vgpu_inproc_mmap(struct vgpu_inproc_file *f, void *addr, size_t len,
		       int prot, int flags, off_t offset, int *err);
int vgpu_inproc_munmap(struct vgpu_inproc_file *f, void *addr, size_t len);
/* lseek(): a dma-buf tells its size (SEEK_END); the nodes and the other
 * objects cannot seek (-ESPIPE, as their descriptors would say). */
off_t vgpu_inproc_lseek(struct vgpu_inproc_file *f, off_t off, int whence);

/*
 * Files the driver creates (PRIME dma-bufs, syncobj files, sync_files,
 * counter readers: driver-shim's file objects) are vgpu_inproc_files too,
 * reached with the same calls. Their descriptor is a pipe's read end
 * (fuse-dev/fobj_fd.h); an import finds the object by fstat()
 * of the descriptor it is given. With an install hook set (the DBT), the
 * hook takes the new file, gives the caller a descriptor for it (a
 * duplicate of vgpu_inproc_pollfd()) and returns its number or -errno;
 * the file is then the hook's to close (on failure, it stays the
 * caller's: the hook must not close it). Without one, the caller gets a
 * duplicate directly, vgpu_inproc_fd_file() finds its file, and
 * vgpu_inproc_close() of that file ends the object.
 */
void vgpu_inproc_set_install_hook(int (*install)(struct vgpu_inproc_file *f,
						 bool cloexec));
struct vgpu_inproc_file *vgpu_inproc_fd_file(struct vgpu_inproc *ip, int fd);

#endif

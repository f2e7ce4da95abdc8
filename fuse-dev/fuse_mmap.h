/* SPDX-License-Identifier: MIT */
/*
 * vgpu's own ioctls on the FUSE device nodes: the mmap side channel.
 *
 * A FUSE file cannot give a client the driver's view of mmap(): FUSE maps
 * files through the page cache (or refuses, with direct I/O), and the
 * server never learns where the client mapped. So a client (the DBT on
 * behalf of its guest, or a native program) maps device memory in three
 * steps instead of calling mmap() on the node:
 *
 *  1. VGPU_DEV_IOC_MMAP_PREPARE with the mmap() page offset, length and
 *     protection: the server runs the driver's mmap handler and answers
 *     with the offset in the backing object (the context's memfd) and a
 *     one-use ticket for that memfd;
 *  2. the client connects to the server's abstract unix socket
 *     VGPU_DEV_MMAP_SOCKET (with @channel), sends the ticket and gets the
 *     memfd with SCM_RIGHTS, which the server sends only to the process
 *     whose thread made the PREPARE (fuse_handoff.h); it mmap()s it
 *     MAP_SHARED at that offset: CPU and GPU now share the pages;
 *  3. VGPU_DEV_IOC_MMAP_COMMIT tells the driver the CPU address (kbase
 *     SAME_VA: it becomes the GPU address); VGPU_DEV_IOC_MUNMAP before
 *     munmap() is the driver's vm_close.
 *
 * The type byte 0xf7 is used by neither kbase (0x80) nor DRM ('d'); the
 * server recognises these requests before the driver sees anything.
 */
#ifndef VGPU_FUSE_DEV_FUSE_MMAP_H
#define VGPU_FUSE_DEV_FUSE_MMAP_H

#include <stdint.h>
#include <sys/ioctl.h>

struct vgpu_dev_mmap {
	uint64_t pgoff;      /* in: mmap()'s offset in pages */
	uint64_t length;     /* in: bytes */
	uint32_t prot;       /* in: PROT_* */
	uint32_t flags;      /* out: VGPU_DEV_MMAP_* */
	uint64_t ticket;     /* out: redeems the memfd; 0: reserve only */
	uint64_t offset;     /* out: byte offset in the backing object */
	uint64_t cpu_va;     /* in (COMMIT, MUNMAP): the client's address */
	uint64_t channel;    /* out: names the server's hand-off socket */
};

/* The hand-off socket's abstract name (after its leading NUL byte), from
 * @channel; the server answers a ticket (8 bytes) with one byte, 1 and
 * the memfd attached, or 0 when the ticket is not the peer's to redeem. */
#define VGPU_DEV_MMAP_SOCKET "vgpu-dev-mmap-%016llx"

#define VGPU_DEV_MMAP_NEEDS_COMMIT 1u /* the driver wants the CPU address */
#define VGPU_DEV_MMAP_READONLY 2u     /* map it read-only */
#define VGPU_DEV_MMAP_RESERVE_ONLY 4u /* GPU-only pages: reserve the range */
#define VGPU_DEV_MMAP_SAME_4GB 8u     /* place it inside one 4 GiB page */

#define VGPU_DEV_IOC_TYPE 0xf7
#define VGPU_DEV_IOC_MMAP_PREPARE _IOWR(VGPU_DEV_IOC_TYPE, 1, struct vgpu_dev_mmap)
#define VGPU_DEV_IOC_MMAP_COMMIT _IOW(VGPU_DEV_IOC_TYPE, 2, struct vgpu_dev_mmap)
#define VGPU_DEV_IOC_MUNMAP _IOW(VGPU_DEV_IOC_TYPE, 3, struct vgpu_dev_mmap)

#endif

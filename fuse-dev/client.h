/* SPDX-License-Identifier: MIT */
/*
 * Client side of the mmap side channel (dev_ioctl.h), for native
 * programs and tests: vgpu_dev_mmap() does what mmap() on a real Mali or
 * DRM node does, vgpu_dev_munmap() what munmap() does.
 */
#ifndef VGPU_FUSE_DEV_CLIENT_H
#define VGPU_FUSE_DEV_CLIENT_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuse-dev/dev_ioctl.h"

/* Returns the mapping, or MAP_FAILED with errno set. */
static inline void *vgpu_dev_mmap(int devfd, size_t length, int prot,
				  uint64_t offset)
{
	struct vgpu_dev_mmap m = { .pgoff = offset >> 12, .length = length,
				   .prot = (uint32_t)prot };
	char path[64];
	void *p;
	int mfd;

	if (ioctl(devfd, VGPU_DEV_IOC_MMAP_PREPARE, &m) < 0)
		return MAP_FAILED;
	if (m.flags & VGPU_DEV_MMAP_READONLY)
		prot &= ~PROT_WRITE;
	if (m.flags & VGPU_DEV_MMAP_RESERVE_ONLY) {
		p = mmap(NULL, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	} else {
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", m.server_pid,
			 m.backing_fd);
		mfd = open(path, (prot & PROT_WRITE) ? O_RDWR : O_RDONLY);
		if (mfd < 0)
			return MAP_FAILED;
		p = mmap(NULL, length, prot, MAP_SHARED, mfd, (off_t)m.offset);
		close(mfd);
	}
	if (p == MAP_FAILED)
		return MAP_FAILED;
	m.cpu_va = (uint64_t)(uintptr_t)p;
	if (ioctl(devfd, VGPU_DEV_IOC_MMAP_COMMIT, &m) < 0) {
		int e = errno;

		munmap(p, length);
		errno = e;
		return MAP_FAILED;
	}
	return p;
}

static inline int vgpu_dev_munmap(int devfd, void *addr, size_t length)
{
	struct vgpu_dev_mmap m = { .length = length,
				   .cpu_va = (uint64_t)(uintptr_t)addr };

	ioctl(devfd, VGPU_DEV_IOC_MUNMAP, &m);
	return munmap(addr, length);
}

#endif

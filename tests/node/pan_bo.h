/* SPDX-License-Identifier: MIT */
/*
 * Panfrost client pieces the node suites share: a BO created and mapped
 * for the CPU through the FUSE mmap side channel, and binary syncobjs.
 */
#ifndef VGPU_TESTS_NODE_PAN_BO_H
#define VGPU_TESTS_NODE_PAN_BO_H

#include <sys/mman.h>
#include <time.h>

#include "driver-shim/uapi_drm.h"
#include "node/devnode.h"

struct bo {
	uint32_t handle;
	uint64_t gpu;
	uint8_t *cpu;
	size_t size;
};

static inline int bo_new(int fd, size_t size, uint32_t flags, struct bo *bo)
{
	struct pan_create_bo_arg c = { .size = (uint32_t)size, .flags = flags };
	struct pan_mmap_bo_arg m = { 0 };

	*bo = (struct bo){ .size = size };
	if (ioctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &c))
		return -1;
	bo->handle = c.handle;
	bo->gpu = c.offset;
	m.handle = c.handle;
	if (ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &m))
		return -1;
	bo->cpu = vgpu_dev_mmap(fd, size, PROT_READ | PROT_WRITE, m.offset);
	return bo->cpu == MAP_FAILED ? -1 : 0;
}

static inline uint32_t syncobj_new(int fd, uint32_t flags)
{
	struct drm_syncobj_create_arg c = { .flags = flags };

	return ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c) ? 0 : c.handle;
}

static inline int syncobj_wait(int fd, uint32_t *handles, uint32_t n,
			       uint32_t flags, int64_t timeout_ns)
{
	struct drm_syncobj_wait_arg w = {
		.handles = (uintptr_t)handles, .count_handles = n, .flags = flags,
	};
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.timeout_nsec = timeout_ns < 0 ? 0 :
			 ts.tv_sec * 1000000000ll + ts.tv_nsec + timeout_ns;
	return ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

#endif

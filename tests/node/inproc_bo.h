/* SPDX-License-Identifier: MIT */
/*
 * Panfrost BOs and submissions on the in-process nodes (fuse-dev/inproc.h),
 * for the node tier's in-process suites (inproc.c, sched.c, prime_jobs.c).
 */
#ifndef VGPU_TESTS_NODE_INPROC_BO_H
#define VGPU_TESTS_NODE_INPROC_BO_H

#include <stddef.h>
#include <sys/mman.h>
#include <time.h>

#include "driver-shim/uapi_drm.h"
#include "fuse-dev/inproc.h"

/* A panfrost BO of @size bytes with PAN_BO_* @flags, mapped for the CPU
 * (MAP_FAILED on failure); its GPU address in *@va. */
static inline uint8_t *pan_bo_flags(struct vgpu_inproc_file *f, uint32_t size,
				    uint32_t flags, uint64_t *va)
{
	struct pan_create_bo_arg c = { .size = size, .flags = flags };
	struct pan_mmap_bo_arg m = { 0 };
	int err;

	*va = 0;
	if (vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_CREATE_BO, &c))
		return MAP_FAILED;
	m.handle = c.handle;
	if (vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_MMAP_BO, &m))
		return MAP_FAILED;
	*va = c.offset;
	return vgpu_inproc_mmap(f, NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
				(off_t)m.offset, &err);
}

static inline uint8_t *pan_bo(struct vgpu_inproc_file *f, uint32_t size, uint64_t *va)
{
	return pan_bo_flags(f, size, 0, va);
}

/*
 * Submits the job chain at @jc and waits for it on a syncobj, at most
 * @secs seconds of host time (a hang guard: a loaded machine or a
 * sanitizer build runs the interpreter many times slower): 0 or -1.
 */
static inline int pan_run_wait(struct vgpu_inproc_file *f, uint64_t jc, int secs)
{
	struct drm_syncobj_create_arg sc = { 0 };
	struct drm_syncobj_wait_arg w = { 0 };
	struct pan_submit_arg s = { 0 };
	struct timespec ts;

	if (vgpu_inproc_ioctl(f, DRM_IOCTL_SYNCOBJ_CREATE, &sc))
		return -1;
	s.jc = jc;
	s.out_sync = sc.handle;
	if (vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_SUBMIT, &s))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.handles = (uintptr_t)&sc.handle;
	w.count_handles = 1;
	w.timeout_nsec = (ts.tv_sec + secs) * 1000000000ll;
	return vgpu_inproc_ioctl(f, DRM_IOCTL_SYNCOBJ_WAIT, &w) ? -1 : 0;
}

static inline int pan_run(struct vgpu_inproc_file *f, uint64_t jc)
{
	return pan_run_wait(f, jc, 60);
}

/* PRIME and syncobj HANDLE_TO_FD / FD_TO_HANDLE: both arguments begin
 * with handle, flags, fd (the syncobj one has 4 bytes of padding more). */
static inline long fd_ioctl(struct vgpu_inproc_file *f, unsigned cmd, uint32_t *handle,
		     int *fd, uint32_t flags)
{
	struct drm_syncobj_handle_arg a = { .handle = *handle, .flags = flags, .fd = *fd };
	long r = vgpu_inproc_ioctl(f, cmd, &a);

	_Static_assert(offsetof(struct drm_prime_handle_arg, fd) ==
		       offsetof(struct drm_syncobj_handle_arg, fd), "layouts");
	*handle = a.handle;
	*fd = a.fd;
	return r;
}

static inline uint32_t bo_handle_of(struct vgpu_inproc_file *f, uint64_t va)
{
	/* CREATE_BO handed out handles from 1: find the one at @va. */
	for (uint32_t h = 1; h < 16; h++) {
		struct pan_get_bo_offset_arg o = { .handle = h };

		if (!vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o) &&
		    o.offset == va)
			return h;
	}
	return 0;
}

#endif

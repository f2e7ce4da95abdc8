// SPDX-License-Identifier: MIT
/*
 * An imported dma-buf and the jobs that use it (driver-shim/prime.c):
 * GEM_CLOSE of the importer's handle while a submitted job still lists
 * the BO leaves the buffer mapped in the importer's address space until
 * that job ends, as panfrost's jobs hold their mappings; Mesa closes an
 * imported image's handle right after flushing the draw that samples it
 * (piglit's ext_image_dma_buf_import-modifiers stress_test faulted
 * TRANSLATION_FAULT there). Once idle, the mapping goes.
 */
#include "harness.h"
#include "node/devnode.h"
#include "node/inproc_bo.h"

FIXTURE(pj)
{
	struct vgpu_inproc *ip;
	struct vgpu_inproc_file *exp, *imp;
};

FIXTURE_SETUP(pj)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71 };

	self->ip = vgpu_inproc_create(&cfg);
	ASSERT_NONNULL(self->ip);
	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &self->exp), 0);
	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &self->imp), 0);
}

FIXTURE_TEARDOWN(pj)
{
	vgpu_inproc_close(self->imp);
	vgpu_inproc_close(self->exp);
	vgpu_inproc_destroy(self->ip);
}

/* Submits the chain at @jc listing BOs @h[0..n) on @f; its out-syncobj. */
static uint32_t submit(struct vgpu_inproc_file *f, uint64_t jc, const uint32_t *h,
		       unsigned n)
{
	struct drm_syncobj_create_arg sc = { 0 };
	struct pan_submit_arg s = { .jc = jc, .bo_handles = (uintptr_t)h, .bo_handle_count = n };

	if (vgpu_inproc_ioctl(f, DRM_IOCTL_SYNCOBJ_CREATE, &sc))
		return 0;
	s.out_sync = sc.handle;
	return vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_SUBMIT, &s) ? 0 : sc.handle;
}

static int wait_sync(struct vgpu_inproc_file *f, uint32_t sync)
{
	struct drm_syncobj_wait_arg w = { .handles = (uintptr_t)&sync, .count_handles = 1 };
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.timeout_nsec = (ts.tv_sec + 60) * 1000000000ll; /* a hang guard */
	return (int)vgpu_inproc_ioctl(f, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

/*
 * The exporter's job that never ends by itself (a NULL job chained to
 * itself) lists the shared BO, so the importer's write to it waits; the
 * importer closes its handle; closing the exporter cancels its job, and
 * the write lands. A second write to the old address, the BO now idle,
 * reaches nothing.
 */
TEST_F(pj, a_closed_import_stays_mapped_for_its_jobs)
{
	struct pan_get_bo_offset_arg o = { 0 };
	struct drm_gem_close_arg gc = { 0 };
	struct vgpu_inproc_file *buf;
	uint64_t xva, lva, wva;
	uint32_t hx, hl, h2 = 0, hw, hs[2], sync;
	uint8_t *x, *loop, *w, *view;
	int fd = -1, err = 0;

	x = pan_bo(self->exp, 4096, &xva);
	loop = pan_bo(self->exp, 4096, &lva);
	ASSERT_TRUE(x != MAP_FAILED && loop != MAP_FAILED);
	hx = bo_handle_of(self->exp, xva);
	hl = bo_handle_of(self->exp, lva);
	ASSERT_EQ(fd_ioctl(self->exp, DRM_IOCTL_PRIME_HANDLE_TO_FD, &hx, &fd, 0), 0);
	buf = vgpu_inproc_fd_file(self->ip, fd);
	ASSERT_NONNULL(buf);
	ASSERT_EQ(fd_ioctl(self->imp, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &fd, 0), 0);
	o.handle = h2;
	ASSERT_EQ(vgpu_inproc_ioctl(self->imp, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o), 0);

	job_write(loop, JOB_TYPE_NULL, 1, 0, lva);
	hs[0] = hl;
	hs[1] = hx;
	ASSERT_NE(submit(self->exp, lva, hs, 2), 0u);
	w = pan_bo(self->imp, 4096, &wva);
	ASSERT_TRUE(w != MAP_FAILED);
	hw = bo_handle_of(self->imp, wva);
	job_write_value(w, 1, 0, 0, o.offset + 8, WRITE_VALUE_IMM32, 0x5ca1ab1e);
	hs[0] = hw;
	hs[1] = h2;
	sync = submit(self->imp, wva, hs, 2);
	ASSERT_NE(sync, 0u);
	gc.handle = h2;
	ASSERT_EQ(vgpu_inproc_ioctl(self->imp, DRM_IOCTL_GEM_CLOSE, &gc), 0);
	munmap(x, 4096);
	munmap(loop, 4096);
	vgpu_inproc_close(self->exp);
	self->exp = NULL;
	ASSERT_EQ(wait_sync(self->imp, sync), 0);
	view = vgpu_inproc_mmap(buf, NULL, 4096, PROT_READ, MAP_SHARED, 0, &err);
	ASSERT_TRUE(view != MAP_FAILED);
	EXPECT_EQ(*(volatile uint32_t *)(view + 8), 0x5ca1ab1eu);

	/* idle now: the old address is unmapped */
	job_write_value(w, 1, 0, 0, o.offset + 16, WRITE_VALUE_IMM32, 0xbad);
	sync = submit(self->imp, wva, &hw, 1);
	ASSERT_NE(sync, 0u);
	ASSERT_EQ(wait_sync(self->imp, sync), 0);
	EXPECT_EQ(*(volatile uint32_t *)(view + 16), 0u);
	vgpu_inproc_munmap(buf, view, 4096);
	munmap(w, 4096);
	vgpu_inproc_close(buf);
	close(fd);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: MIT
/*
 * The panfrost DRM UAPI on a mounted renderD128, driven the way Mesa's
 * panfrost does: drmGetVersion, GET_CAP, GET_PARAM for the GPU's features,
 * CREATE_BO / MMAP_BO / GET_BO_OFFSET, job chains in BOs, SUBMIT with BO
 * lists and syncobjs, SYNCOBJ_WAIT / WAIT_BO, then memory checks. Also the
 * syncobj API incl. timelines, bad input and isolation between files.
 */
#include <poll.h>
#include <sys/mman.h>

#include "harness.h"
#include "node/devnode.h"
#include "node/pan_bo.h"
#include "driver-shim/uapi_drm.h"
#include "vgpu/gpu.h"

/* The encodings libdrm and Mesa are compiled with. */
_Static_assert(DRM_IOCTL_VERSION == 0xc0406400u, "VERSION");
_Static_assert(DRM_IOCTL_GET_CAP == 0xc010640cu, "GET_CAP");
_Static_assert(DRM_IOCTL_GEM_CLOSE == 0x40086409u, "GEM_CLOSE");
_Static_assert(DRM_IOCTL_SYNCOBJ_CREATE == 0xc00864bfu, "SYNCOBJ_CREATE");
_Static_assert(DRM_IOCTL_SYNCOBJ_WAIT == 0xc02064c3u, "SYNCOBJ_WAIT");
_Static_assert(DRM_IOCTL_PANFROST_SUBMIT == 0x40286440u, "SUBMIT");
_Static_assert(DRM_IOCTL_PANFROST_CREATE_BO == 0xc0186442u, "CREATE_BO");
_Static_assert(DRM_IOCTL_PANFROST_GET_PARAM == 0xc0106444u, "GET_PARAM");

FIXTURE(pan)
{
	struct devnode d;
	const char *skip;
	int fd;
};

FIXTURE_SETUP(pan)
{
	self->fd = -1;
	self->skip = devnode_unavailable();
	if (self->skip)
		return;
	ASSERT_EQ(devnode_start(&self->d, NULL), 0);
	self->fd = open(self->d.render, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(pan)
{
	if (self->fd >= 0)
		close(self->fd);
	if (!self->skip)
		EXPECT_EQ(devnode_stop(&self->d), 0);
}

static int64_t abs_timeout(int64_t rel_ns)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec + rel_ns;
}

TEST_F(pan, version_is_panfrost)
{
	struct drm_version_arg v = { 0 };
	char name[32] = { 0 }, small[4] = { 0 };

	NEED_DEV();
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_VERSION, &v), 0);
	EXPECT_EQ(v.name_len, 8u);
	EXPECT_EQ(v.version_major, 1);
	/* 1.3: CYCLE_COUNT jobs, SYSTEM_TIMESTAMP(_FREQUENCY) (tests below). */
	EXPECT_EQ(v.version_minor, 3);
	v.name = (uintptr_t)name;
	v.name_len = sizeof(name);
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_VERSION, &v), 0);
	EXPECT_STREQ(name, "panfrost");
	/* Truncated copy, full length reported. */
	v.name = (uintptr_t)small;
	v.name_len = 3;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_VERSION, &v), 0);
	EXPECT_EQ(v.name_len, 8u);
	EXPECT_EQ(memcmp(small, "pan", 3), 0);
	v.name = 0x10;
	v.name_len = 8;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_VERSION, &v), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST_F(pan, caps_and_render_node_permissions)
{
	struct drm_get_cap_arg c = { .capability = DRM_CAP_PRIME };
	struct drm_set_client_cap_arg sc = { .capability = 2, .value = 1 };
	uint8_t junk[64] = { 0 };

	NEED_DEV();
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_GET_CAP, &c), 0);
	EXPECT_EQ(c.value, 3u);
	c.capability = DRM_CAP_SYNCOBJ;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_GET_CAP, &c), 0);
	EXPECT_EQ(c.value, 1u);
	c.capability = DRM_CAP_DUMB_BUFFER; /* mode setting only */
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_GET_CAP, &c), -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_SET_CLIENT_CAP, &sc), -1);
	EXPECT_EQ(errno, EACCES);
	/* GEM_FLINK exists but not for render nodes; 0x30 is nothing. */
	EXPECT_EQ(ioctl(self->fd, SHIM_IOWR('d', 0x0a, struct drm_gem_flink_arg), junk), -1);
	EXPECT_EQ(errno, EACCES);
	EXPECT_EQ(ioctl(self->fd, SHIM_IOWR('d', 0x30, uint64_t), junk), -1);
	EXPECT_EQ(errno, EINVAL);
	/* Past the last panfrost ioctl. */
	EXPECT_EQ(ioctl(self->fd, SHIM_IOWR('d', 0x40 + 9, uint64_t), junk), -1);
	EXPECT_EQ(errno, EINVAL);
}

TEST_F(pan, every_param_matches_the_gpu)
{
	struct pan_get_param_arg p = { 0 };

	NEED_DEV();
	for (uint32_t i = 0; i < PAN_PARAM_COUNT; i++) {
		p.param = i;
		EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_GET_PARAM, &p), 0);
	}
	p.param = PAN_PARAM_GPU_PROD_ID;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_GET_PARAM, &p), 0);
	EXPECT_EQ(p.value, 0x6000u);
	p.param = PAN_PARAM_SHADER_PRESENT;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_GET_PARAM, &p), 0);
	EXPECT_EQ(p.value, 0xffu);
	p.param = PAN_PARAM_JS_FEATURES0 + 1;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_GET_PARAM, &p), 0);
	EXPECT_EQ(p.value, 0x1feu);
	p.param = PAN_PARAM_COUNT;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_GET_PARAM, &p), -1);
	EXPECT_EQ(errno, EINVAL);
	p.param = 0;
	p.pad = 1;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_GET_PARAM, &p), -1);
	EXPECT_EQ(errno, EINVAL);
}

static uint64_t param(int fd, uint32_t which)
{
	struct pan_get_param_arg p = { .param = which };

	return ioctl(fd, DRM_IOCTL_PANFROST_GET_PARAM, &p) ? 0 : p.value;
}

static uint64_t host_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The model's TIMESTAMP is host time since the GPU's creation at
 * VGPU_TIMESTAMP_HZ (1 MHz): it never goes back, and the ticks between two
 * readings are no more than the host time around them, at that rate. */
TEST_F(pan, system_timestamp_is_monotonic_at_its_frequency)
{
	uint64_t prev = 0, first, h0, h1, t;

	NEED_DEV();
	EXPECT_EQ(param(self->fd, PAN_PARAM_SYSTEM_TIMESTAMP_FREQUENCY),
		  VGPU_TIMESTAMP_HZ);
	h0 = host_ns();
	first = param(self->fd, PAN_PARAM_SYSTEM_TIMESTAMP);
	EXPECT_GT(first, 0u);
	for (int i = 0; i < 200; i++) {
		t = param(self->fd, PAN_PARAM_SYSTEM_TIMESTAMP);
		ASSERT_GE(t, prev);
		prev = t;
	}
	h1 = host_ns();
	/* +1: a tick may begin just after the first reading */
	EXPECT_LE(t - first, (h1 - h0) * VGPU_TIMESTAMP_HZ / 1000000000u + 1);
}

/* A job's WRITE_VALUE SYSTEM_TIMESTAMP (Mesa's OpenCL event START/END)
 * reads the same counter as GET_PARAM; CYCLE_COUNTER, the GPU's modelled
 * clock, moves with the jobs run between (100 cycles each), with or
 * without PAN_JD_REQ_CYCLE_COUNT: the driver keeps the counter running
 * for every job, as its watchdog times them by it. */
TEST_F(pan, job_timestamps_and_the_cycle_count_requirement)
{
	struct pan_submit_arg s = { 0 };
	uint64_t t0, t1, v[4];
	uint32_t sync;
	struct bo bo;

	NEED_DEV();
	ASSERT_EQ(bo_new(self->fd, 8192, 0, &bo), 0);
	sync = syncobj_new(self->fd, 0);
	ASSERT_NE(sync, 0u);
	/* timestamp, cycles, cycles, timestamp */
	for (unsigned i = 0; i < 4; i++)
		job_write_value(bo.cpu + 64 * i, i + 1, i, i < 3 ? bo.gpu + 64 * (i + 1) : 0,
				bo.gpu + 4096 + 8 * i,
				i == 0 || i == 3 ? WRITE_VALUE_SYSTEM_TIMESTAMP :
						   WRITE_VALUE_CYCLE_COUNTER, 0);
	s.jc = bo.gpu;
	s.out_sync = sync;
	s.requirements = PAN_JD_REQ_CYCLE_COUNT;
	t0 = param(self->fd, PAN_PARAM_SYSTEM_TIMESTAMP);
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	ASSERT_EQ(syncobj_wait(self->fd, &sync, 1, 0, 10000000000ll), 0);
	t1 = param(self->fd, PAN_PARAM_SYSTEM_TIMESTAMP);
	memcpy(v, bo.cpu + 4096, sizeof(v));
	EXPECT_EQ(job_status(bo.cpu + 192), 1u);
	EXPECT_GE(v[0], t0);
	EXPECT_GE(v[3], v[0]); /* 1 MHz: the jobs may share a tick */
	EXPECT_LE(v[3], t1);
	EXPECT_GT(v[2], v[1]);
	EXPECT_EQ(v[2] - v[1], 100u);
	s.requirements = 0;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	ASSERT_EQ(syncobj_wait(self->fd, &sync, 1, 0, 10000000000ll), 0);
	memcpy(v, bo.cpu + 4096, sizeof(v));
	EXPECT_EQ(v[2] - v[1], 100u);
	/* Unknown requirement bits are refused. */
	s.requirements = 1u << 2;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -1);
	EXPECT_EQ(errno, EINVAL);
	munmap(bo.cpu, bo.size);
}

TEST_F(pan, bo_create_map_offset_close)
{
	struct pan_create_bo_arg c = { .size = 4096 };
	struct pan_get_bo_offset_arg o = { 0 };
	struct pan_mmap_bo_arg m = { 0 };
	struct drm_gem_close_arg g = { 0 };
	struct pan_madvise_arg mv = { 0 };
	struct bo bo;

	NEED_DEV();
	ASSERT_EQ(bo_new(self->fd, 8192, 0, &bo), 0);
	EXPECT_GE(bo.gpu, 32ull << 20);
	EXPECT_LT(bo.gpu, 4ull << 30);
	bo.cpu[8191] = 0x5a;
	o.handle = bo.handle;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o), 0);
	EXPECT_EQ(o.offset, bo.gpu);
	mv.handle = bo.handle;
	mv.madv = PAN_MADV_DONTNEED;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_MADVISE, &mv), 0);
	EXPECT_EQ(mv.retained, 1u);
	/* Bad creations. */
	c.size = 0;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_CREATE_BO, &c), -1);
	EXPECT_EQ(errno, EINVAL);
	c.size = 4096;
	c.flags = PAN_BO_HEAP; /* heaps must be NOEXEC */
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_CREATE_BO, &c), -1);
	EXPECT_EQ(errno, EINVAL);
	c.flags = 8;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_CREATE_BO, &c), -1);
	EXPECT_EQ(errno, EINVAL);
	c.flags = 0;
	c.pad = 1;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_CREATE_BO, &c), -1);
	EXPECT_EQ(errno, EINVAL);
	/* A heap BO is 2 MiB aligned and cannot be mapped for the CPU. */
	c.pad = 0;
	c.flags = PAN_BO_HEAP | PAN_BO_NOEXEC;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_CREATE_BO, &c), 0);
	EXPECT_EQ(c.offset & ((2u << 20) - 1), 0u);
	m.handle = c.handle;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_MMAP_BO, &m), -1);
	EXPECT_EQ(errno, EINVAL);
	m.handle = bo.handle;
	m.flags = 1;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_MMAP_BO, &m), -1);
	EXPECT_EQ(errno, EINVAL);
	/* Close, close again, use the stale handle. */
	g.handle = bo.handle;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_GEM_CLOSE, &g), 0);
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_GEM_CLOSE, &g), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o), -1);
	EXPECT_EQ(errno, ENOENT);
	m.flags = 0;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_MMAP_BO, &m), -1);
	EXPECT_EQ(errno, ENOENT);
	munmap(bo.cpu, bo.size);
}

TEST_F(pan, submit_write_value_signals_out_syncobj)
{
	struct pan_submit_arg s = { 0 };
	struct pan_wait_bo_arg wb = { 0 };
	uint32_t sync, handles[1];
	struct bo bo;

	NEED_DEV();
	ASSERT_EQ(bo_new(self->fd, 8192, 0, &bo), 0);
	sync = syncobj_new(self->fd, 0);
	ASSERT_NE(sync, 0u);
	job_write(bo.cpu, JOB_TYPE_NULL, 1, 0, bo.gpu + 64);
	job_write_value(bo.cpu + 64, 2, 1, 0, bo.gpu + 4096, WRITE_VALUE_IMM32, 0xabcd1234);
	handles[0] = bo.handle;
	s.jc = bo.gpu;
	s.bo_handles = (uintptr_t)handles;
	s.bo_handle_count = 1;
	s.out_sync = sync;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	ASSERT_EQ(syncobj_wait(self->fd, &sync, 1, 0, 10000000000ll), 0);
	EXPECT_EQ(*(volatile uint32_t *)(bo.cpu + 4096), 0xabcd1234u);
	EXPECT_EQ(job_status(bo.cpu + 64), 1u);
	/* Idle now. */
	wb.handle = bo.handle;
	wb.timeout_ns = abs_timeout(1000000000ll);
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_WAIT_BO, &wb), 0);
	munmap(bo.cpu, bo.size);
}

TEST_F(pan, submit_waits_for_in_syncobjs_and_wait_bo)
{
	struct pan_submit_arg s = { 0 };
	struct pan_wait_bo_arg wb = { 0 };
	struct drm_syncobj_array_arg sig = { 0 };
	uint32_t in, out, handles[1];
	struct bo bo;

	NEED_DEV();
	ASSERT_EQ(bo_new(self->fd, 8192, 0, &bo), 0);
	in = syncobj_new(self->fd, 0);
	out = syncobj_new(self->fd, 0);
	/* No fence yet: the submit cannot wait for it (DRM's rule). */
	job_write_value(bo.cpu, 1, 0, 0, bo.gpu + 4096, WRITE_VALUE_IMM32, 77);
	handles[0] = bo.handle;
	s.jc = bo.gpu;
	s.in_syncs = (uintptr_t)&in;
	s.in_sync_count = 1;
	s.bo_handles = (uintptr_t)handles;
	s.bo_handle_count = 1;
	s.out_sync = out;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -1);
	EXPECT_EQ(errno, EINVAL);
	/* Signalled: the job runs. */
	sig.handles = (uintptr_t)&in;
	sig.count_handles = 1;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &sig), 0);
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	wb.handle = bo.handle;
	wb.timeout_ns = abs_timeout(10000000000ll);
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_WAIT_BO, &wb), 0);
	EXPECT_EQ(*(volatile uint32_t *)(bo.cpu + 4096), 77u);
	EXPECT_EQ(syncobj_wait(self->fd, &out, 1, 0, 0), 0);
	munmap(bo.cpu, bo.size);
}

TEST_F(pan, jobs_sharing_a_bo_are_ordered_implicitly)
{
	const char *const args[] = { "--job-timeout", "300", NULL };
	struct pan_submit_arg s = { 0 };
	uint32_t sync[2], handles[2];
	struct bo loop, target, late;
	struct devnode d2;
	int fd;

	NEED_DEV();
	ASSERT_EQ(devnode_start(&d2, args), 0);
	fd = open(d2.render, O_RDWR);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(bo_new(fd, 4096, 0, &loop), 0);
	ASSERT_EQ(bo_new(fd, 4096, 0, &target), 0);
	ASSERT_EQ(bo_new(fd, 4096, 0, &late), 0);
	/* Job 1 never ends by itself (the watchdog stops it); it lists
	 * target. Job 2, on the other slot, also lists target. */
	job_write(loop.cpu, JOB_TYPE_NULL, 1, 0, loop.gpu);
	job_write_value(late.cpu, 1, 0, 0, target.gpu, WRITE_VALUE_IMM32, 2);
	sync[0] = syncobj_new(fd, 0);
	sync[1] = syncobj_new(fd, 0);
	handles[0] = loop.handle;
	handles[1] = target.handle;
	s.jc = loop.gpu;
	s.bo_handles = (uintptr_t)handles;
	s.bo_handle_count = 2;
	s.out_sync = sync[0];
	ASSERT_EQ(ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	handles[0] = late.handle;
	s.jc = late.gpu;
	s.requirements = PAN_JD_REQ_FS;
	s.out_sync = sync[1];
	ASSERT_EQ(ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	ASSERT_EQ(syncobj_wait(fd, &sync[1], 1, 0, 20000000000ll), 0);
	/* Job 2 waited for job 1 through the shared BO. */
	EXPECT_EQ(syncobj_wait(fd, &sync[0], 1, 0, 0), 0);
	EXPECT_EQ(*(volatile uint32_t *)target.cpu, 2u);
	munmap(loop.cpu, loop.size);
	munmap(target.cpu, target.size);
	munmap(late.cpu, late.size);
	close(fd);
	EXPECT_EQ(devnode_stop(&d2), 0);
}

TEST_F(pan, submit_rejects_bad_arguments)
{
	struct pan_submit_arg s = { .jc = 0x2000000 };
	uint32_t bad = 999, sync;

	NEED_DEV();
	sync = syncobj_new(self->fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	s.jc = 0;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -1);
	EXPECT_EQ(errno, EINVAL);
	s.jc = 0x2000000;
	s.requirements = 4; /* bit 1 is CYCLE_COUNT since 1.3 */
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -1);
	EXPECT_EQ(errno, EINVAL);
	s.requirements = 0;
	s.out_sync = 999;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -1);
	EXPECT_EQ(errno, ENODEV);
	s.out_sync = 0;
	s.in_syncs = (uintptr_t)&bad;
	s.in_sync_count = 1;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -1);
	EXPECT_EQ(errno, ENOENT);
	s.in_syncs = 0x10; /* unmapped */
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -1);
	EXPECT_EQ(errno, EFAULT);
	s.in_syncs = (uintptr_t)&sync;
	s.bo_handles = (uintptr_t)&bad;
	s.bo_handle_count = 1;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -1);
	EXPECT_EQ(errno, ENOENT);
}

TEST_F(pan, syncobj_binary_semantics)
{
	struct drm_syncobj_destroy_arg d = { 0 };
	struct drm_syncobj_array_arg a = { 0 };
	uint32_t s1, s2, both[2];

	NEED_DEV();
	s1 = syncobj_new(self->fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	s2 = syncobj_new(self->fd, 0);
	ASSERT_NE(s1, 0u);
	ASSERT_NE(s2, 0u);
	EXPECT_EQ(syncobj_wait(self->fd, &s1, 1, 0, 0), 0);
	/* Nothing submitted: an error without WAIT_FOR_SUBMIT... */
	EXPECT_EQ(syncobj_wait(self->fd, &s2, 1, 0, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	/* ...and a timeout with it. */
	EXPECT_EQ(syncobj_wait(self->fd, &s2, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
			       1000000), -1);
	EXPECT_EQ(errno, ETIME);
	both[0] = s1;
	both[1] = s2;
	/* Any of them: the first is signalled. */
	EXPECT_EQ(syncobj_wait(self->fd, both, 2, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
			       1000000), 0);
	EXPECT_EQ(syncobj_wait(self->fd, both, 2, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			       DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 1000000), -1);
	EXPECT_EQ(errno, ETIME);
	a.handles = (uintptr_t)&s1;
	a.count_handles = 1;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_RESET, &a), 0);
	EXPECT_EQ(syncobj_wait(self->fd, &s1, 1, 0, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syncobj_wait(self->fd, both, 0, 0, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syncobj_wait(self->fd, &s1, 1, 1u << 7, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	d.handle = s1;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d), 0);
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syncobj_wait(self->fd, &s1, 1, 0, 0), -1);
	EXPECT_EQ(errno, ENOENT);
}

TEST_F(pan, syncobj_timeline_signal_query_wait_transfer)
{
	struct drm_syncobj_timeline_array_arg t = { 0 };
	struct drm_syncobj_timeline_wait_arg w = { 0 };
	struct drm_syncobj_transfer_arg x = { 0 };
	uint64_t point, got = 0;
	uint32_t s, b;

	NEED_DEV();
	s = syncobj_new(self->fd, 0);
	b = syncobj_new(self->fd, 0);
	point = 5;
	t.handles = (uintptr_t)&s;
	t.points = (uintptr_t)&point;
	t.count_handles = 1;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &t), 0);
	t.points = (uintptr_t)&got;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, &t), 0);
	EXPECT_EQ(got, 5u);
	/* Point 3 is covered by 5; point 9 is not there yet. */
	point = 3;
	w.handles = (uintptr_t)&s;
	w.points = (uintptr_t)&point;
	w.count_handles = 1;
	w.timeout_nsec = abs_timeout(0);
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w), 0);
	point = 9;
	w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w), -1);
	EXPECT_EQ(errno, ETIME);
	/* Move point 5 into the binary syncobj. */
	x.src_handle = s;
	x.dst_handle = b;
	x.src_point = 5;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &x), 0);
	EXPECT_EQ(syncobj_wait(self->fd, &b, 1, 0, 0), 0);
	x.pad = 1;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &x), -1);
	EXPECT_EQ(errno, EINVAL);
}

/* A FUSE server cannot put a descriptor into its caller: every ioctl that
 * would make one says EOPNOTSUPP (as a driver without PRIME or syncobj
 * files does), after checking its arguments. The descriptors themselves
 * are tested in process (inproc.c) and over the socket (fdobj.c). */
TEST_F(pan, fd_ioctls_are_eopnotsupp_over_fuse)
{
	struct drm_prime_handle_arg p = { 0 };
	struct drm_syncobj_handle_arg sh = { 0 };
	struct bo bo;

	NEED_DEV();
	ASSERT_EQ(bo_new(self->fd, 4096, PAN_BO_NOEXEC, &bo), 0);
	p.handle = bo.handle;
	p.flags = DRM_CLOEXEC | DRM_RDWR;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p), -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
	p.fd = 0;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p), -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
	p.flags = 0x100;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p), -1);
	EXPECT_EQ(errno, EINVAL);
	p.flags = 0;
	p.handle = 777;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p), -1);
	EXPECT_EQ(errno, ENOENT);
	sh.handle = syncobj_new(self->fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	ASSERT_NE(sh.handle, 0u);
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &sh), -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
	sh.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE;
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &sh), -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
	munmap(bo.cpu, bo.size);
}

TEST_F(pan, files_are_separate_address_spaces)
{
	struct pan_submit_arg s = { 0 };
	uint32_t sync;
	struct bo a, b;
	int fd2;

	NEED_DEV();
	fd2 = open(self->d.render, O_RDWR);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(bo_new(self->fd, 8192, 0, &a), 0);
	ASSERT_EQ(bo_new(fd2, 8192, 0, &b), 0);
	/* Same GPU address in both files, different memory. */
	EXPECT_EQ(a.gpu, b.gpu);
	*(volatile uint32_t *)(a.cpu + 4096) = 1;
	job_write_value(b.cpu, 1, 0, 0, b.gpu + 4096, WRITE_VALUE_IMM32, 2);
	sync = syncobj_new(fd2, 0);
	s.jc = b.gpu;
	s.out_sync = sync;
	ASSERT_EQ(ioctl(fd2, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	ASSERT_EQ(syncobj_wait(fd2, &sync, 1, 0, 10000000000ll), 0);
	EXPECT_EQ(*(volatile uint32_t *)(b.cpu + 4096), 2u);
	EXPECT_EQ(*(volatile uint32_t *)(a.cpu + 4096), 1u);
	/* A's mmap offset means nothing through B's file. */
	{
		struct pan_mmap_bo_arg m = { .handle = a.handle };

		ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_MMAP_BO, &m), 0);
		EXPECT_TRUE(vgpu_dev_mmap(fd2, 4096, PROT_READ, m.offset) == MAP_FAILED);
	}
	munmap(a.cpu, a.size);
	munmap(b.cpu, b.size);
	close(fd2);
}

TEST_F(pan, faulting_job_still_signals_and_others_run)
{
	struct pan_submit_arg s = { 0 };
	uint32_t sync;
	struct bo bo;
	char *st;

	NEED_DEV();
	ASSERT_EQ(bo_new(self->fd, 8192, 0, &bo), 0);
	sync = syncobj_new(self->fd, 0);
	/* Write far outside any BO. */
	job_write_value(bo.cpu, 1, 0, 0, 0x3f000000ull, WRITE_VALUE_IMM32, 1);
	s.jc = bo.gpu;
	s.out_sync = sync;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	ASSERT_EQ(syncobj_wait(self->fd, &sync, 1, 0, 10000000000ll), 0);
	EXPECT_NE(job_status(bo.cpu), 1u);
	/* The file's address space works again for the next job. */
	job_write_value(bo.cpu + 256, 1, 0, 0, bo.gpu + 4096, WRITE_VALUE_IMM32, 5);
	s.jc = bo.gpu + 256;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	ASSERT_EQ(syncobj_wait(self->fd, &sync, 1, 0, 10000000000ll), 0);
	EXPECT_EQ(*(volatile uint32_t *)(bo.cpu + 4096), 5u);
	st = devnode_stats(&self->d);
	EXPECT_GE(json_num(st, "mmu_faults"), 1);
	EXPECT_GE(json_num(st, "jobs_failed"), 1);
	free(st);
	munmap(bo.cpu, bo.size);
}

/* A job still running when its file is closed is hard-stopped, as
 * panfrost stops a closing file's jobs (a program that exits without
 * waiting leaves its last one so): given up, as the queued ones are,
 * not a failed job. */
TEST_F(pan, job_running_at_close_is_stopped_not_failed)
{
	struct pan_submit_arg s = { 0 };
	struct bo bo;
	char *st;
	int fd;

	NEED_DEV();
	fd = open(self->d.render, O_RDWR);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(bo_new(fd, 8192, 0, &bo), 0);
	/* A NULL job whose next pointer is itself never ends. */
	job_write(bo.cpu, JOB_TYPE_NULL, 1, 0, bo.gpu);
	s.jc = bo.gpu;
	s.bo_handles = (uintptr_t)&bo.handle;
	s.bo_handle_count = 1;
	ASSERT_EQ(ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	munmap(bo.cpu, bo.size);
	close(fd);
	EXPECT_EQ(devnode_wait_live(&self->d, 1, 20000), 1); /* the fixture's */
	st = devnode_stats(&self->d);
	EXPECT_EQ(json_num(st, "jobs_done"), 0);
	EXPECT_EQ(json_num(st, "jobs_failed"), 0);
	free(st);
}

TEST_F(pan, heap_bo_grows_on_gpu_fault)
{
	struct pan_create_bo_arg c = { .size = 8u << 20,
				       .flags = PAN_BO_HEAP | PAN_BO_NOEXEC };
	struct pan_submit_arg s = { 0 };
	uint32_t sync, handles[2];
	struct bo bo;
	char *st;

	NEED_DEV();
	ASSERT_EQ(bo_new(self->fd, 8192, 0, &bo), 0);
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_CREATE_BO, &c), 0);
	sync = syncobj_new(self->fd, 0);
	/* Two writes 5 MiB apart into the heap: two chunks get backed. */
	job_write_value(bo.cpu, 1, 0, bo.gpu + 64, c.offset + (1u << 20),
			WRITE_VALUE_IMM32, 1);
	job_write_value(bo.cpu + 64, 2, 0, 0, c.offset + (6u << 20),
			WRITE_VALUE_IMM32, 2);
	handles[0] = bo.handle;
	handles[1] = c.handle;
	s.jc = bo.gpu;
	s.bo_handles = (uintptr_t)handles;
	s.bo_handle_count = 2;
	s.out_sync = sync;
	ASSERT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
	ASSERT_EQ(syncobj_wait(self->fd, &sync, 1, 0, 10000000000ll), 0);
	EXPECT_EQ(job_status(bo.cpu), 1u);
	EXPECT_EQ(job_status(bo.cpu + 64), 1u);
	st = devnode_stats(&self->d);
	EXPECT_EQ(json_num(st, "mmu_faults"), 0);
	/* 2 + 2 pages of the first BO... and 2 chunks of 512 pages. */
	EXPECT_EQ(json_num(st, "gpu_pages_mapped"), 2 + 2 * 512);
	free(st);
	munmap(bo.cpu, bo.size);
}

TEST_F_TIMEOUT(pan, clients_killed_at_random_moments, 120)
{
	long long live;

	NEED_DEV();
	srand(99);
	for (int r = 0; r < 24; r++) {
		pid_t pid = fork();

		ASSERT_GE(pid, 0);
		if (pid == 0) {
			int fd = open(self->d.render, O_RDWR);
			uint32_t prev, done;
			struct bo bo;

			if (fd < 0 || bo_new(fd, 8192, 0, &bo))
				_exit(1);
			/* Every fourth job also waits for the previous one
			 * through its syncobj (an in-fence). */
			done = syncobj_new(fd, 0);
			prev = done;
			for (unsigned i = 0;; i++) {
				struct pan_submit_arg s = { 0 };

				job_write_value(bo.cpu, 1, 0, 0, bo.gpu + 4096, WRITE_VALUE_IMM32, i);
				s.jc = bo.gpu;
				s.bo_handles = (uintptr_t)&bo.handle;
				s.bo_handle_count = 1;
				s.out_sync = done;
				if (i % 4 == 3) {
					s.in_syncs = (uintptr_t)&prev;
					s.in_sync_count = 1;
				}
				ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &s);
				syncobj_wait(fd, &done, 1, 0, 1000000000ll);
			}
		}
		usleep((useconds_t)(rand() % 20000));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	live = devnode_wait_live(&self->d, 1, 20000); /* the fixture's own file */
	EXPECT_EQ(live, 1);
	{
		struct pan_get_param_arg p = { .param = PAN_PARAM_GPU_PROD_ID };

		EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_GET_PARAM, &p), 0);
	}
}

TEST_F(pan, perfcnt_needs_unstable_ioctls)
{
	const char *const args[] = { "--unstable-ioctls", NULL };
	struct pan_perfcnt_enable_arg e = { .enable = 1 };
	struct devnode d2;
	int fd2;

	NEED_DEV();
	/* Linux says ENOSYS; the FUSE kernel module turns an ioctl's ENOSYS
	 * into ENOTTY on the way to the caller. */
	EXPECT_EQ(ioctl(self->fd, DRM_IOCTL_PANFROST_PERFCNT_ENABLE, &e), -1);
	EXPECT_TRUE(errno == ENOSYS || errno == ENOTTY);
	ASSERT_EQ(devnode_start(&d2, args), 0);
	fd2 = open(d2.render, O_RDWR);
	ASSERT_GE(fd2, 0);
	EXPECT_EQ(ioctl(fd2, DRM_IOCTL_PANFROST_PERFCNT_ENABLE, &e), 0);
	/* Counting real work: a job, then a dump. */
	{
		struct pan_perfcnt_dump_arg dump;
		struct pan_submit_arg s = { 0 };
		uint32_t *counters = calloc(1, 64 * 1024), sync;
		struct bo bo;
		uint64_t sum = 0;

		ASSERT_EQ(bo_new(fd2, 8192, 0, &bo), 0);
		sync = syncobj_new(fd2, 0);
		job_write_value(bo.cpu, 1, 0, 0, bo.gpu + 4096, WRITE_VALUE_IMM32, 1);
		s.jc = bo.gpu;
		s.out_sync = sync;
		ASSERT_EQ(ioctl(fd2, DRM_IOCTL_PANFROST_SUBMIT, &s), 0);
		ASSERT_EQ(syncobj_wait(fd2, &sync, 1, 0, 10000000000ll), 0);
		dump.buf_ptr = (uintptr_t)counters;
		ASSERT_EQ(ioctl(fd2, DRM_IOCTL_PANFROST_PERFCNT_DUMP, &dump), 0);
		/* Job-manager block: a header, then counters; some moved. */
		for (int i = 4; i < 64; i++)
			sum += counters[i];
		EXPECT_GT(sum, 0u);
		dump.buf_ptr = 0x10;
		EXPECT_EQ(ioctl(fd2, DRM_IOCTL_PANFROST_PERFCNT_DUMP, &dump), -1);
		EXPECT_EQ(errno, EFAULT);
		free(counters);
		munmap(bo.cpu, bo.size);
	}
	EXPECT_EQ(ioctl(fd2, DRM_IOCTL_PANFROST_PERFCNT_ENABLE, &e), -1);
	EXPECT_EQ(errno, EBUSY);
	e.counterset = 2;
	EXPECT_EQ(ioctl(fd2, DRM_IOCTL_PANFROST_PERFCNT_ENABLE, &e), -1);
	EXPECT_EQ(errno, EINVAL);
	e.counterset = 0;
	e.enable = 0;
	EXPECT_EQ(ioctl(fd2, DRM_IOCTL_PANFROST_PERFCNT_ENABLE, &e), 0);
	close(fd2);
	EXPECT_EQ(devnode_stop(&d2), 0);
}

TEST_F(pan, short_struct_is_zero_extended)
{
	/* An older client's 32-byte SYNCOBJ_WAIT and a caller passing only
	 * the first 8 bytes of GET_PARAM: the rest reads as zero. */
	struct pan_get_param_arg p = { .param = PAN_PARAM_GPU_PROD_ID };

	NEED_DEV();
	ASSERT_EQ(ioctl(self->fd, SHIM_IOC(SHIM_IOC_READ | SHIM_IOC_WRITE, 'd', 0x44, 16), &p), 0);
	EXPECT_EQ(p.value, 0x6000u);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: MIT
/*
 * The in-process device nodes (fuse-dev/inproc.h), as `vgpu run` uses them
 * when FUSE is not available: same driver, same semantics, no mount. These
 * run everywhere, FUSE or not.
 */
#include <fcntl.h>
#include <unistd.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/mman.h>

#include "harness.h"
#include "node/devnode.h"
#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"
#include "fuse-dev/inproc.h"
#include "node/inproc_bo.h"
#include "node/inproc_kb.h"
#include "shader/bi_job.h"

FIXTURE(ip)
{
	struct vgpu_inproc *ip;
	struct vgpu_inproc_file *f;
};

FIXTURE_SETUP(ip)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71 };

	self->ip = vgpu_inproc_create(&cfg);
	ASSERT_NONNULL(self->ip);
}

FIXTURE_TEARDOWN(ip)
{
	vgpu_inproc_close(self->f);
	vgpu_inproc_destroy(self->ip);
}

TEST_F(ip, kbase_job_with_eventfd_poll)
{
	struct pollfd p;
	struct kb_event ev;
	uint8_t *mem;

	ASSERT_TRUE(kb_ready(self->ip, &self->f));
	mem = kb_mem_map(self->f, 2);
	ASSERT_TRUE(mem != MAP_FAILED);
	job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 4096), WRITE_VALUE_IMM32, 0x1234);
	p.fd = vgpu_inproc_pollfd(self->f);
	p.events = POLLIN;
	EXPECT_EQ(poll(&p, 1, 0), 0);
	/* The eventfd becomes readable when the event is there. */
	ASSERT_EQ(kb_run(self->f, (uintptr_t)mem, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	EXPECT_EQ(ev.atom_number, 9);
	EXPECT_EQ(*(volatile uint32_t *)(mem + 4096), 0x1234u);
	EXPECT_EQ(poll(&p, 1, 0), 0); /* drained */
	EXPECT_EQ(vgpu_inproc_munmap(self->f, mem, 2 * 4096), 0);
}

TEST_F(ip, user_buffer_import_is_zero_copy)
{
	union kb_mem_alloc a = { .in = { .va_pages = 1, .commit_pages = 1,
		.flags = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR |
			 KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR } };
	struct kb_import_user_buffer ub;
	union kb_mem_import im = { 0 };
	struct kb_mem_free fr;
	struct kb_event ev;
	uint8_t *jobs, *user;
	int err = 0;

	ASSERT_TRUE(kb_ready(self->ip, &self->f));
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_MEM_ALLOC, &a), 0);
	jobs = vgpu_inproc_mmap(self->f, NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
				(off_t)a.out.gpu_va, &err);
	ASSERT_TRUE(jobs != MAP_FAILED);
	/* The client's own memory, not allocated by the driver. */
	user = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(user != MAP_FAILED);
	ub.ptr = (uintptr_t)user + 100;
	ub.length = 2 * 4096;
	im.in.flags = KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR;
	im.in.phandle = (uintptr_t)&ub;
	im.in.type = KB_MEM_IMPORT_TYPE_USER_BUFFER;
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_MEM_IMPORT, &im), 0);
	EXPECT_EQ(im.out.gpu_va, (uintptr_t)user);
	EXPECT_EQ(im.out.va_pages, 3u);
	job_write_value(jobs, 1, 0, 0, (uintptr_t)user + 8192 + 4, WRITE_VALUE_IMM32, 0xbeef);
	ASSERT_EQ(kb_run(self->f, (uintptr_t)jobs, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	EXPECT_EQ(*(volatile uint32_t *)(user + 8192 + 4), 0xbeefu);
	/* Importing the same pages twice overlaps: refused. (The ioctl's
	 * output overwrote its input: set it again.) */
	im.in.flags = KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR;
	im.in.phandle = (uintptr_t)&ub;
	im.in.type = KB_MEM_IMPORT_TYPE_USER_BUFFER;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_MEM_IMPORT, &im), -ENOMEM);
	fr.gpu_addr = (uintptr_t)user;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_MEM_FREE, &fr), 0);
	/* Unmapped memory cannot be imported. */
	munmap(user, 3 * 4096);
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_MEM_IMPORT, &im), -EFAULT);
}

TEST_F(ip, bad_pointers_are_efault_not_crashes)
{
	struct kb_version_check v = { 11, 20 };
	struct kb_set_flags fl = { 0 };
	struct kb_job_submit s = { .addr = 0x10, .nr_atoms = 1, .stride = 56 };

	ASSERT_EQ(vgpu_inproc_open(self->ip, "mali0", &self->f), 0);
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_VERSION_CHECK, (void *)0x20), -EFAULT);
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_VERSION_CHECK, &v), 0);
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_SET_FLAGS, &fl), 0);
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_JOB_SUBMIT, &s), -EFAULT);
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, 0xc0ffee00u, &s), -ENOTTY);
	EXPECT_EQ(vgpu_inproc_open(self->ip, "card0", &self->f), -ENOENT);
}

TEST_F(ip, panfrost_submit_and_syncobj)
{
	struct drm_version_arg ver = { 0 };
	char name[16] = { 0 };
	uint64_t va;
	uint8_t *cpu;

	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &self->f), 0);
	ver.name = (uintptr_t)name;
	ver.name_len = sizeof(name);
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, DRM_IOCTL_VERSION, &ver), 0);
	EXPECT_STREQ(name, "panfrost");
	cpu = pan_bo(self->f, 8192, &va);
	ASSERT_TRUE(cpu != MAP_FAILED);
	job_write_value(cpu, 1, 0, 0, va + 4096, WRITE_VALUE_IMM32, 0x4321);
	ASSERT_EQ(pan_run(self->f, va), 0);
	EXPECT_EQ(*(volatile uint32_t *)(cpu + 4096), 0x4321u);
	munmap(cpu, 8192);
}

/* The shader cores' per-job statistics reach the stats JSON: a vector
 * add (64 threads, one load through a push-uniform pointer and one
 * through a UBO, one store each) and its record. */
TEST_F(ip, compute_job_statistics_in_the_stats_json)
{
	struct tjob tj;
	char want[160], *json;
	size_t len;

	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &self->f), 0);
	tj.mem = pan_bo(self->f, TJ_SIZE, &tj.va);
	ASSERT_TRUE(tj.mem != MAP_FAILED);
	ASSERT_TRUE(tjob_vecadd(&tj, 8));
	tj32(&tj, TJ_JOB + 16)[0] |= 1u << 16; /* job index 1 */
	ASSERT_EQ(pan_run(self->f, tj.va + TJ_JOB), 0);
	EXPECT_EQ(tjob_vecadd_check(&tj, 8), -1);
	len = vgpu_inproc_stats_json(self->ip, NULL, 0);
	json = calloc(1, len + 1);
	ASSERT_NONNULL(json);
	vgpu_inproc_stats_json(self->ip, json, len + 1);
	EXPECT_NONNULL(strstr(json, "\"shader\": {\"jobs_run\": 1, \"total\": {"));
	snprintf(want, sizeof(want), "{\"seq\": 1, \"job_va\": \"0x%llx\"",
		 (unsigned long long)(tj.va + TJ_JOB));
	EXPECT_NONNULL(strstr(json, want));
	EXPECT_NONNULL(strstr(json, "\"exception\": 1, \"local_size\": [8, 1, 1], "
				    "\"groups\": [8, 1, 1], \"workgroups\": 8"));
	EXPECT_NONNULL(strstr(json, "\"load\": 128, \"store\": 64"));
	EXPECT_NONNULL(strstr(json, "\"global\": {\"loads\": 64, \"stores\": 64, "
				    "\"atomics\": 0, \"bytes\": 512}"));
	EXPECT_NONNULL(strstr(json, "\"ubo\": {\"loads\": 64, \"stores\": 0, "
				    "\"atomics\": 0, \"bytes\": 256}"));
	free(json);
	munmap(tj.mem, TJ_SIZE);
}

/* ---- file objects: descriptors the driver creates (fuse-dev/inproc.h) ---- */

TEST_F(ip, prime_fd_maps_the_bo_and_imports_into_another_file)
{
	struct vgpu_inproc_file *f2 = NULL, *buf;
	struct pan_get_bo_offset_arg o = { 0 };
	uint64_t va, jva;
	uint32_t h, h2, hsame;
	uint8_t *cpu, *view, *jobs;
	int fd = -1, fd2 = -1, err = 0, null, pfd[2];
	struct stat st1;

	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &self->f), 0);
	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &f2), 0);
	cpu = pan_bo(self->f, 8192, &va);
	ASSERT_TRUE(cpu != MAP_FAILED);
	cpu[0] = 0x11;
	h = bo_handle_of(self->f, va);
	ASSERT_NE(h, 0u);
	/* A real descriptor, close-on-exec as asked; a second export is the
	 * same dma-buf (one handle), though another pipe (fobj_fd.h). */
	ASSERT_EQ(fd_ioctl(self->f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h, &fd,
			      DRM_CLOEXEC | DRM_RDWR), 0);
	ASSERT_GE(fd, 0);
	EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	ASSERT_EQ(fd_ioctl(self->f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h, &fd2, 0), 0);
	EXPECT_FALSE(fcntl(fd2, F_GETFD) & FD_CLOEXEC);
	ASSERT_EQ(fstat(fd, &st1), 0);
	EXPECT_TRUE(S_ISFIFO(st1.st_mode));
	h2 = hsame = 0;
	ASSERT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &fd2, 0), 0);
	ASSERT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &hsame, &fd, 0), 0);
	EXPECT_EQ(hsame, h2);
	vgpu_inproc_close(vgpu_inproc_fd_file(self->ip, fd2));
	close(fd2);
	/* Its mmap is the BO's pages. */
	buf = vgpu_inproc_fd_file(self->ip, fd);
	ASSERT_NONNULL(buf);
	view = vgpu_inproc_mmap(buf, NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, 0, &err);
	ASSERT_TRUE(view != MAP_FAILED);
	EXPECT_EQ(view[0], 0x11);
	view[4096] = 0x22;
	EXPECT_EQ(cpu[4096], 0x22);
	EXPECT_EQ(vgpu_inproc_munmap(buf, view, 8192), 0);
	view = vgpu_inproc_mmap(buf, NULL, 4096, PROT_READ, MAP_SHARED, 2 * 4096, &err);
	EXPECT_TRUE(view == MAP_FAILED);
	EXPECT_EQ(err, EINVAL);
	/* Back into its own file: the same handle; after GEM_CLOSE, a new
	 * handle to the same object at the same GPU address. */
	h2 = 0;
	ASSERT_EQ(fd_ioctl(self->f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &fd, 0), 0);
	EXPECT_EQ(h2, h);
	{
		struct drm_gem_close_arg gc = { .handle = h };
		struct pan_get_bo_offset_arg same = { 0 };

		ASSERT_EQ(vgpu_inproc_ioctl(self->f, DRM_IOCTL_GEM_CLOSE, &gc), 0);
		h2 = 0;
		ASSERT_EQ(fd_ioctl(self->f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &fd, 0), 0);
		same.handle = h2;
		ASSERT_EQ(vgpu_inproc_ioctl(self->f, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &same), 0);
		EXPECT_EQ(same.offset, va);
	}
	/* Into another file: a handle there, usable by its jobs, and the
	 * buffer outlives its exporter. */
	h2 = 0;
	ASSERT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &fd, 0), 0);
	EXPECT_NE(h2, 0u);
	o.handle = h2;
	ASSERT_EQ(vgpu_inproc_ioctl(f2, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o), 0);
	munmap(cpu, 8192);
	vgpu_inproc_close(self->f);
	self->f = NULL;
	jobs = pan_bo(f2, 4096, &jva);
	ASSERT_TRUE(jobs != MAP_FAILED);
	job_write_value(jobs, 1, 0, 0, o.offset + 8, WRITE_VALUE_IMM32, 0x5ca1ab1e);
	ASSERT_EQ(pan_run(f2, jva), 0);
	view = vgpu_inproc_mmap(buf, NULL, 4096, PROT_READ, MAP_SHARED, 0, &err);
	ASSERT_TRUE(view != MAP_FAILED);
	EXPECT_EQ(view[0], 0x11);
	EXPECT_EQ(*(volatile uint32_t *)(view + 8), 0x5ca1ab1eu);
	vgpu_inproc_munmap(buf, view, 4096);
	/* Another device's dma-buf is not one of ours. */
	{
		struct shim_config cfg = { .gpu = SHIM_GPU_G71 };
		struct vgpu_inproc *ip2 = vgpu_inproc_create(&cfg);
		struct vgpu_inproc_file *o = NULL;
		uint64_t va2;
		uint32_t h3 = 1;
		int fd3 = -1;
		uint8_t *m2;

		ASSERT_NONNULL(ip2);
		ASSERT_EQ(vgpu_inproc_open(ip2, "renderD128", &o), 0);
		m2 = pan_bo(o, 4096, &va2);
		ASSERT_TRUE(m2 != MAP_FAILED);
		munmap(m2, 4096);
		ASSERT_EQ(fd_ioctl(o, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h3, &fd3, 0), 0);
		h3 = 0;
		EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h3, &fd3, 0), -EINVAL);
		vgpu_inproc_close(vgpu_inproc_fd_file(ip2, fd3));
		close(fd3);
		vgpu_inproc_close(o);
		vgpu_inproc_destroy(ip2);
	}
	/* Bad descriptors get dma_buf_get()'s errnos. */
	null = open("/dev/null", O_RDONLY);
	ASSERT_GE(null, 0);
	ASSERT_EQ(pipe(pfd), 0);
	h2 = 0;
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &null, 0), -EINVAL);
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &pfd[0], 0), -EINVAL);
	close(null);
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &null, 0), -EBADF);
	fd2 = -1;
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &fd2, 0), -EBADF);
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h2, &fd2, 0x100), -EINVAL);
	h2 = 99;
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h2, &fd2, 0), -ENOENT);
	close(pfd[0]);
	close(pfd[1]);
	munmap(jobs, 4096);
	vgpu_inproc_close(buf);
	close(fd);
	vgpu_inproc_close(f2);
}

static uint32_t syncobj_make(struct vgpu_inproc_file *f, uint32_t flags)
{
	struct drm_syncobj_create_arg c = { .flags = flags };

	return vgpu_inproc_ioctl(f, DRM_IOCTL_SYNCOBJ_CREATE, &c) ? 0 : c.handle;
}

static long syncobj_wait1(struct vgpu_inproc_file *f, uint32_t h)
{
	struct drm_syncobj_wait_arg w = { .handles = (uintptr_t)&h, .count_handles = 1 };
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.timeout_nsec = (ts.tv_sec + 20) * 1000000000ll;
	return vgpu_inproc_ioctl(f, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

/* What Mesa's import does with another file's buffer: sizes the dma-buf
 * by lseek, imports, then maps and closes the handle in the importer. */
TEST_F(ip, dma_buf_sizes_by_lseek_and_maps_through_the_importer)
{
	struct vgpu_inproc_file *f2 = NULL, *buf;
	struct pan_get_bo_offset_arg o = { 0 };
	struct pan_mmap_bo_arg m = { 0 };
	struct drm_gem_close_arg gc = { 0 };
	uint32_t h, h2 = 0, sync;
	uint64_t va;
	uint8_t *cpu, *view;
	int fd = -1, sfd = -1, err = 0;

	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &self->f), 0);
	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &f2), 0);
	cpu = pan_bo(self->f, 3 * 4096, &va);
	ASSERT_TRUE(cpu != MAP_FAILED);
	memset(cpu, 0x5a, 3 * 4096);
	cpu[2 * 4096 + 7] = 0xc3;
	h = bo_handle_of(self->f, va);
	ASSERT_EQ(fd_ioctl(self->f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h, &fd, DRM_CLOEXEC), 0);
	buf = vgpu_inproc_fd_file(self->ip, fd);
	ASSERT_NONNULL(buf);
	/* dma_buf_llseek: the size at SEEK_END, 0 at SEEK_SET, nothing else. */
	EXPECT_EQ(vgpu_inproc_lseek(buf, 0, SEEK_END), 3 * 4096);
	EXPECT_EQ(vgpu_inproc_lseek(buf, 0, SEEK_SET), 0);
	EXPECT_EQ(vgpu_inproc_lseek(buf, 0, SEEK_CUR), -EINVAL);
	EXPECT_EQ(vgpu_inproc_lseek(buf, 4096, SEEK_SET), -EINVAL);
	EXPECT_EQ(vgpu_inproc_lseek(buf, -1, SEEK_END), -EINVAL);
	/* Neither a node nor a syncobj file seeks. */
	EXPECT_EQ(vgpu_inproc_lseek(f2, 0, SEEK_END), -ESPIPE);
	sync = syncobj_make(self->f, 0);
	ASSERT_NE(sync, 0u);
	ASSERT_EQ(fd_ioctl(self->f, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &sync, &sfd, 0), 0);
	EXPECT_EQ(vgpu_inproc_lseek(vgpu_inproc_fd_file(self->ip, sfd), 0, SEEK_END), -ESPIPE);
	vgpu_inproc_close(vgpu_inproc_fd_file(self->ip, sfd));
	close(sfd);
	/* The importer's handle: an address, a map offset, the same bytes. */
	ASSERT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &fd, 0), 0);
	ASSERT_NE(h2, 0u);
	o.handle = m.handle = h2;
	ASSERT_EQ(vgpu_inproc_ioctl(f2, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o), 0);
	EXPECT_NE(o.offset, 0u);
	ASSERT_EQ(vgpu_inproc_ioctl(f2, DRM_IOCTL_PANFROST_MMAP_BO, &m), 0);
	view = vgpu_inproc_mmap(f2, NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
				(off_t)m.offset, &err);
	ASSERT_TRUE(view != MAP_FAILED);
	EXPECT_EQ(view[0], 0x5a);
	EXPECT_EQ(view[2 * 4096 + 7], 0xc3);
	view[4096] = 0x3c;
	EXPECT_EQ(cpu[4096], 0x3c);
	EXPECT_EQ(vgpu_inproc_munmap(f2, view, 3 * 4096), 0);
	/* Closing it there leaves the exporter's; a second close is EINVAL. */
	gc.handle = h2;
	EXPECT_EQ(vgpu_inproc_ioctl(f2, DRM_IOCTL_GEM_CLOSE, &gc), 0);
	EXPECT_EQ(vgpu_inproc_ioctl(f2, DRM_IOCTL_GEM_CLOSE, &gc), -EINVAL);
	o.handle = h2;
	EXPECT_EQ(vgpu_inproc_ioctl(f2, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o), -ENOENT);
	EXPECT_EQ(cpu[2 * 4096 + 7], 0xc3);
	o.handle = h;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o), 0);
	/* A descriptor that is no dma-buf, and one that is not open. */
	h2 = 0;
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &sfd, 0), -EBADF);
	sfd = vgpu_inproc_pollfd(f2);
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &sfd, 0), -EINVAL);
	munmap(cpu, 3 * 4096);
	vgpu_inproc_close(buf);
	close(fd);
	vgpu_inproc_close(f2);
}

TEST_F(ip, syncobj_fds_and_sync_files)
{
	struct vgpu_inproc_file *f2 = NULL;
	struct pan_submit_arg sub = { 0 };
	struct pollfd p = { .events = POLLIN };
	uint32_t s1, s2, s3, empty, h;
	int fd = -1, sf = -1, bad = -1;
	uint64_t jva;
	uint8_t *jobs;

	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &self->f), 0);
	ASSERT_EQ(vgpu_inproc_open(self->ip, "renderD128", &f2), 0);
	s1 = syncobj_make(self->f, 0);
	ASSERT_NE(s1, 0u);
	/* A syncobj file shares the syncobj: file 2 waits on file 1's job. */
	ASSERT_EQ(fd_ioctl(self->f, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &s1, &fd, 0), 0);
	ASSERT_GE(fd, 0);
	s2 = 0;
	ASSERT_EQ(fd_ioctl(f2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &s2, &fd, 0), 0);
	ASSERT_NE(s2, 0u);
	jobs = pan_bo(self->f, 4096, &jva);
	ASSERT_TRUE(jobs != MAP_FAILED);
	job_write_value(jobs, 1, 0, 0, jva + 256, WRITE_VALUE_IMM32, 7);
	sub.jc = jva;
	sub.out_sync = s1;
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, DRM_IOCTL_PANFROST_SUBMIT, &sub), 0);
	EXPECT_EQ(syncobj_wait1(f2, s2), 0);
	EXPECT_EQ(*(volatile uint32_t *)(jobs + 256), 7u);
	/* Its fence as a sync_file: readable once signalled, and imported
	 * into another syncobj of the other file. */
	h = s1;
	ASSERT_EQ(fd_ioctl(self->f, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h, &sf,
			     DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE), 0);
	p.fd = sf;
	EXPECT_EQ(poll(&p, 1, 0), 1);
	s3 = syncobj_make(f2, 0);
	ASSERT_NE(s3, 0u);
	h = s3;
	ASSERT_EQ(fd_ioctl(f2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h, &sf,
			     DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE), 0);
	EXPECT_EQ(syncobj_wait1(f2, s3), 0);
	/* Bad input: drm_syncobj.c's errnos. */
	h = s3;
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h, &fd,
			     DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE), -EINVAL);
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h, &sf, 0), -EINVAL);
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h, &bad, 0), -EINVAL);
	h = 999;
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h, &sf,
			     DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE), -ENOENT);
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h, &bad, 0), -ENOENT);
	empty = syncobj_make(f2, 0);
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &empty, &bad,
			     DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE), -EINVAL);
	EXPECT_EQ(fd_ioctl(f2, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &empty, &bad, 0x8), -EINVAL);
	vgpu_inproc_close(vgpu_inproc_fd_file(self->ip, sf));
	vgpu_inproc_close(vgpu_inproc_fd_file(self->ip, fd));
	close(sf);
	close(fd);
	munmap(jobs, 4096);
	vgpu_inproc_close(f2);
}

/* kbase fence soft jobs (struct base_fence at the atom's jc). */
struct kfence {
	int32_t fd, stream_fd;
};

TEST_F(ip, kbase_fence_trigger_and_wait_soft_jobs)
{
	struct kb_soft_event_update up = { .new_status = 1 };
	struct kb_stream_create sc = { .name = "vgpu-test" };
	struct kb_fence_validate fv;
	struct kfence trig = { -1, -1 }, wait, bad = { 12345, -1 };
	struct kb_atom_v2 at[4];
	struct pollfd p = { .events = POLLIN };
	struct kb_event ev;
	uint32_t seen = 0, code;
	uint8_t *mem, nr;
	int stream, null;

	ASSERT_TRUE(kb_ready(self->ip, &self->f));
	/* The stream is a descriptor; its name must be terminated. */
	stream = (int)vgpu_inproc_ioctl(self->f, KB_IOCTL_STREAM_CREATE, &sc);
	ASSERT_GE(stream, 0);
	memset(sc.name, 'x', sizeof(sc.name));
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_STREAM_CREATE, &sc), -EINVAL);
	mem = kb_mem_map(self->f, 2);
	ASSERT_TRUE(mem != MAP_FAILED);
	mem[2048] = 0; /* the soft event, not set */
	job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 4096), WRITE_VALUE_IMM32, 0xf00d);
	/* 1 waits for the event; 2 triggers a fence after it; 3 waits on
	 * that fence (created by 2 at submit, so submitted after it); 4 is
	 * a GPU job after 3. */
	trig.stream_fd = stream;
	katom(&at[0], 1, KB_JD_REQ_SOFT_EVENT_WAIT, (uintptr_t)(mem + 2048), 0);
	katom(&at[1], 2, KB_JD_REQ_SOFT_FENCE_TRIGGER, (uintptr_t)&trig, 1);
	ASSERT_EQ(ksubmit(self->f, at, 2), 0);
	ASSERT_GE(trig.fd, 0);
	EXPECT_TRUE(fcntl(trig.fd, F_GETFD) & FD_CLOEXEC);
	p.fd = trig.fd;
	EXPECT_EQ(poll(&p, 1, 0), 0);
	fv.fd = trig.fd;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_FENCE_VALIDATE, &fv), 0);
	null = open("/dev/null", O_RDONLY);
	fv.fd = null;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_FENCE_VALIDATE, &fv), -EINVAL);
	fv.fd = stream;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_FENCE_VALIDATE, &fv), -EINVAL);
	close(null);
	wait = trig;
	katom(&at[2], 3, KB_JD_REQ_SOFT_FENCE_WAIT, (uintptr_t)&wait, 0);
	katom(&at[3], 4, KB_JD_REQ_CS, (uintptr_t)mem, 3);
	ASSERT_EQ(ksubmit(self->f, &at[2], 2), 0);
	/* Everything waits for the event: no completion yet. */
	EXPECT_EQ(vgpu_inproc_read(self->f, &ev, sizeof(ev), true), -EAGAIN);
	EXPECT_EQ(*(volatile uint32_t *)(mem + 4096), 0u);
	up.event = (uintptr_t)(mem + 2048);
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_SOFT_EVENT_UPDATE, &up), 0);
	for (int i = 0; i < 4; i++) {
		code = kevent(self->f, &nr);
		EXPECT_EQ(code, (uint32_t)KB_EVENT_DONE);
		seen |= 1u << nr;
	}
	EXPECT_EQ(seen, 0x1eu);
	EXPECT_EQ(*(volatile uint32_t *)(mem + 4096), 0xf00du);
	EXPECT_EQ(poll(&p, 1, 0), 1); /* the sync_file signalled */
	/* A wait on something that is not a sync_file is an invalid job. */
	katom(&at[0], 5, KB_JD_REQ_SOFT_FENCE_WAIT, (uintptr_t)&bad, 0);
	ASSERT_EQ(ksubmit(self->f, at, 1), 0);
	EXPECT_EQ(kevent(self->f, &nr), (uint32_t)KB_EVENT_JOB_INVALID);
	EXPECT_EQ(nr, 5);
	vgpu_inproc_close(vgpu_inproc_fd_file(self->ip, trig.fd));
	vgpu_inproc_close(vgpu_inproc_fd_file(self->ip, stream));
	close(trig.fd);
	close(stream);
	vgpu_inproc_munmap(self->f, mem, 2 * 4096);
}

/* ---- kbase hardware counters: KINSTR_PRFCNT (kbase_prfcnt.c) ---- */

static void prf_req(struct kb_prfcnt_request_item *r, uint16_t type, uint8_t a,
		    uint64_t mask)
{
	memset(r, 0, sizeof(*r));
	r->hdr.item_type = type;
	if (type == KB_PRFCNT_REQUEST_MODE) {
		r->u.mode.mode = a;
		r->u.mode.period_ns = 1000000;
	} else if (type == KB_PRFCNT_REQUEST_ENABLE) {
		r->u.enable.block_type = a;
		r->u.enable.enable_mask[0] = mask;
	}
}

static long prf_setup(struct vgpu_inproc_file *f, struct kb_prfcnt_request_item *r,
		      uint32_t n, union kb_kinstr_prfcnt_setup *s)
{
	memset(s, 0, sizeof(*s));
	s->in.request_item_count = n;
	s->in.request_item_size = sizeof(*r);
	s->in.requests_ptr = (uintptr_t)r;
	return vgpu_inproc_ioctl(f, KB_IOCTL_KINSTR_PRFCNT_SETUP, s);
}

static long prf_cmd(struct vgpu_inproc_file *r, uint16_t cmd, uint64_t user_data)
{
	struct kb_prfcnt_control_cmd c = { .cmd = cmd, .user_data = user_data };

	return vgpu_inproc_ioctl(r, KB_IOCTL_PRFCNT_CMD, &c);
}

/* The sum of the counters (not the 4 header values) of the first block of
 * type @type in the sample at @off, or -1 when it has none. */
static long long prf_block_sum(const uint8_t *buf, uint64_t off, uint8_t type)
{
	const struct kb_prfcnt_metadata *md = (const void *)(buf + off);

	for (; md->hdr.item_type; md++) {
		const uint64_t *v;
		long long sum = 0;

		if (md->hdr.item_type != KB_PRFCNT_META_BLOCK || md->u.block.block_type != type)
			continue;
		v = (const uint64_t *)(buf + md->u.block.values_offset);
		for (int i = 4; i < 64; i++)
			sum += (long long)v[i];
		return sum;
	}
	return -1;
}

TEST_F(ip, kinstr_prfcnt_enum_setup_and_samples_from_the_gpu_counters)
{
	struct kb_kinstr_prfcnt_enum_info e = { 0 };
	struct kb_prfcnt_enum_item items[8];
	struct kb_prfcnt_request_item req[6];
	union kb_kinstr_prfcnt_setup s;
	struct kb_prfcnt_sample_access sa;
	const struct kb_prfcnt_metadata *md;
	struct vgpu_inproc_file *early = NULL, *rd;
	struct pollfd p = { .events = POLLIN };
	struct kb_event ev;
	uint8_t *buf, *mem;
	int fd, err = 0, nblocks = 0;

	/* What can be counted; kbase answers before the handshake. */
	ASSERT_EQ(vgpu_inproc_open(self->ip, "mali0", &early), 0);
	ASSERT_EQ(vgpu_inproc_ioctl(early, KB_IOCTL_KINSTR_PRFCNT_ENUM_INFO, &e), 0);
	EXPECT_EQ(e.info_item_size, 32u);
	ASSERT_EQ(e.info_item_count, 8u);
	e.info_list_ptr = (uintptr_t)items;
	e.info_item_count = 7;
	EXPECT_EQ(vgpu_inproc_ioctl(early, KB_IOCTL_KINSTR_PRFCNT_ENUM_INFO, &e), -EINVAL);
	e.info_item_count = 8;
	ASSERT_EQ(vgpu_inproc_ioctl(early, KB_IOCTL_KINSTR_PRFCNT_ENUM_INFO, &e), 0);
	EXPECT_EQ(items[0].hdr.item_type, KB_PRFCNT_ENUM_REQUEST);
	EXPECT_EQ(items[2].hdr.item_type, KB_PRFCNT_ENUM_SAMPLE_INFO);
	EXPECT_EQ(items[2].u.sample_info.num_clock_domains, 1u);
	for (int i = 3; i < 7; i++) {
		EXPECT_EQ(items[i].hdr.item_type, KB_PRFCNT_ENUM_BLOCK);
		EXPECT_EQ(items[i].u.block.block_type, i - 3);
		EXPECT_EQ(items[i].u.block.num_values, 64);
		EXPECT_GT(items[i].u.block.num_instances, 0);
	}
	EXPECT_EQ(items[7].hdr.item_type, 0);
	/* Bad setups: kbase's parse_setup errnos. */
	prf_req(&req[0], KB_PRFCNT_REQUEST_MODE, KB_PRFCNT_MODE_MANUAL, 0);
	prf_req(&req[1], KB_PRFCNT_REQUEST_ENABLE, KB_PRFCNT_BLOCK_FE, ~0ull);
	prf_req(&req[2], KB_PRFCNT_REQUEST_ENABLE, KB_PRFCNT_BLOCK_SHADER, ~0ull);
	prf_req(&req[3], KB_PRFCNT_ITEM_NONE, 0, 0);
	EXPECT_EQ(prf_setup(early, req, 1, &s), -EINVAL);
	EXPECT_EQ(prf_setup(early, req, 3, &s), -EINVAL);    /* no terminator */
	EXPECT_EQ(prf_setup(early, &req[1], 3, &s), -EINVAL); /* no mode */
	req[1].u.enable.set = 1;                               /* secondary */
	EXPECT_EQ(prf_setup(early, req, 4, &s), -EINVAL);
	req[1].u.enable.set = 0;
	/* A reader: a descriptor, its buffers mapped read-only. */
	fd = (int)prf_setup(early, req, 4, &s);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(s.out.prfcnt_metadata_item_size, 48u);
	rd = vgpu_inproc_fd_file(self->ip, fd);
	ASSERT_NONNULL(rd);
	buf = vgpu_inproc_mmap(rd, NULL, s.out.prfcnt_mmap_size_bytes, PROT_READ,
			       MAP_SHARED, 0, &err);
	ASSERT_TRUE(buf != MAP_FAILED);
	p.fd = fd;
	EXPECT_EQ(poll(&p, 1, 0), 0);
	EXPECT_EQ(vgpu_inproc_ioctl(rd, KB_IOCTL_PRFCNT_GET_SAMPLE, &sa), -EINVAL);
	EXPECT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_SAMPLE_SYNC, 0), -EINVAL); /* not started */
	EXPECT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_STOP, 0), -EINVAL);
	EXPECT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_SAMPLE_ASYNC, 0), -EINVAL);
	ASSERT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_START, 0), 0);
	/* A job runs: the job manager's counters see it. */
	ASSERT_TRUE(kb_ready(self->ip, &self->f));
	mem = kb_mem_map(self->f, 2);
	ASSERT_TRUE(mem != MAP_FAILED);
	job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 4096), WRITE_VALUE_IMM32, 1);
	ASSERT_EQ(kb_run(self->f, (uintptr_t)mem, &ev), 0);
	ASSERT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_SAMPLE_SYNC, 77), 0);
	EXPECT_EQ(poll(&p, 1, 0), 1);
	ASSERT_EQ(vgpu_inproc_ioctl(rd, KB_IOCTL_PRFCNT_GET_SAMPLE, &sa), 0);
	EXPECT_EQ(sa.sequence, 0u);
	md = (const void *)(buf + sa.sample_offset_bytes);
	EXPECT_EQ(md[0].hdr.item_type, KB_PRFCNT_META_SAMPLE);
	EXPECT_EQ(md[0].u.sample.user_data, 77u);
	EXPECT_GT(md[0].u.sample.timestamp_end, md[0].u.sample.timestamp_start);
	EXPECT_EQ(md[1].hdr.item_type, KB_PRFCNT_META_CLOCK);
	for (md += 2; md->hdr.item_type == KB_PRFCNT_META_BLOCK; md++) {
		EXPECT_NE(md->u.block.block_type, KB_PRFCNT_BLOCK_TILER); /* not asked */
		nblocks++;
	}
	EXPECT_EQ(md->hdr.item_type, 0);
	EXPECT_EQ(nblocks, 1 + items[6].u.block.num_instances);
	EXPECT_GT(prf_block_sum(buf, sa.sample_offset_bytes, KB_PRFCNT_BLOCK_FE), 0);
	EXPECT_EQ(prf_block_sum(buf, sa.sample_offset_bytes, KB_PRFCNT_BLOCK_MEMORY), -1);
	EXPECT_EQ(vgpu_inproc_ioctl(rd, KB_IOCTL_PRFCNT_GET_SAMPLE, &sa), -EBUSY);
	sa.sequence = 5;
	EXPECT_EQ(vgpu_inproc_ioctl(rd, KB_IOCTL_PRFCNT_PUT_SAMPLE, &sa), -EINVAL);
	sa.sequence = 0;
	ASSERT_EQ(vgpu_inproc_ioctl(rd, KB_IOCTL_PRFCNT_PUT_SAMPLE, &sa), 0);
	EXPECT_EQ(poll(&p, 1, 0), 0);
	/* Counters are deltas: nothing ran since, the STOP sample is zero. */
	ASSERT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_STOP, 8), 0);
	ASSERT_EQ(vgpu_inproc_ioctl(rd, KB_IOCTL_PRFCNT_GET_SAMPLE, &sa), 0);
	EXPECT_EQ(sa.sequence, 1u);
	EXPECT_EQ(prf_block_sum(buf, sa.sample_offset_bytes, KB_PRFCNT_BLOCK_FE), 0);
	EXPECT_EQ(vgpu_inproc_ioctl(rd, KB_IOCTL_PRFCNT_PUT_SAMPLE, &sa), 0);
	EXPECT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_STOP, 0), -EINVAL);
	EXPECT_EQ(vgpu_inproc_munmap(rd, buf, s.out.prfcnt_mmap_size_bytes), 0);
	vgpu_inproc_close(rd);
	close(fd);
	vgpu_inproc_munmap(self->f, mem, 2 * 4096);
	vgpu_inproc_close(early);
}

/* PERIODIC readers are sampled by the driver's own thread. */
TEST_F(ip, kinstr_prfcnt_periodic_samples_arrive_by_themselves)
{
	struct kb_prfcnt_request_item req[3];
	union kb_kinstr_prfcnt_setup s;
	struct kb_prfcnt_sample_access sa;
	struct vgpu_inproc_file *rd;
	struct pollfd p = { .events = POLLIN };
	int fd;

	ASSERT_TRUE(kb_ready(self->ip, &self->f));
	prf_req(&req[0], KB_PRFCNT_REQUEST_MODE, KB_PRFCNT_MODE_PERIODIC, 0);
	prf_req(&req[1], KB_PRFCNT_REQUEST_ENABLE, KB_PRFCNT_BLOCK_MEMORY, ~0ull);
	prf_req(&req[2], KB_PRFCNT_ITEM_NONE, 0, 0);
	req[0].u.mode.period_ns = 0;
	EXPECT_EQ(prf_setup(self->f, req, 3, &s), -EINVAL);
	req[0].u.mode.period_ns = 1000000;
	fd = (int)prf_setup(self->f, req, 3, &s);
	ASSERT_GE(fd, 0);
	rd = vgpu_inproc_fd_file(self->ip, fd);
	ASSERT_NONNULL(rd);
	ASSERT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_START, 5), 0);
	EXPECT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_SAMPLE_SYNC, 0), -EINVAL); /* periodic */
	p.fd = fd;
	ASSERT_EQ(poll(&p, 1, 20000), 1);
	ASSERT_EQ(vgpu_inproc_ioctl(rd, KB_IOCTL_PRFCNT_GET_SAMPLE, &sa), 0);
	EXPECT_EQ(sa.sequence, 0u);
	ASSERT_EQ(vgpu_inproc_ioctl(rd, KB_IOCTL_PRFCNT_PUT_SAMPLE, &sa), 0);
	ASSERT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_STOP, 0), 0);
	vgpu_inproc_close(rd);
	close(fd);
}

/* One counter unit: whichever of the two UAPIs has it, the other gets
 * EBUSY, in both orders. */
TEST_F(ip, counter_unit_is_kbase_or_panfrost_never_both)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71, .unstable_ioctls = true };
	struct pan_perfcnt_enable_arg on = { .enable = 1 }, off = { .enable = 0 };
	struct kb_prfcnt_request_item req[3];
	union kb_kinstr_prfcnt_setup s;
	struct vgpu_inproc *ip2 = vgpu_inproc_create(&cfg);
	struct vgpu_inproc_file *kb = NULL, *pan = NULL, *rd;
	int fd;

	ASSERT_NONNULL(ip2);
	ASSERT_TRUE(kb_ready(ip2, &kb));
	ASSERT_EQ(vgpu_inproc_open(ip2, "renderD128", &pan), 0);
	prf_req(&req[0], KB_PRFCNT_REQUEST_MODE, KB_PRFCNT_MODE_MANUAL, 0);
	prf_req(&req[1], KB_PRFCNT_REQUEST_ENABLE, KB_PRFCNT_BLOCK_FE, ~0ull);
	prf_req(&req[2], KB_PRFCNT_ITEM_NONE, 0, 0);
	fd = (int)prf_setup(kb, req, 3, &s);
	ASSERT_GE(fd, 0);
	rd = vgpu_inproc_fd_file(ip2, fd);
	ASSERT_NONNULL(rd);
	/* kbase first: panfrost waits for the reader to stop. */
	ASSERT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_START, 0), 0);
	EXPECT_EQ(vgpu_inproc_ioctl(pan, DRM_IOCTL_PANFROST_PERFCNT_ENABLE, &on), -EBUSY);
	ASSERT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_STOP, 0), 0);
	/* panfrost first: the reader cannot start until it is off. */
	ASSERT_EQ(vgpu_inproc_ioctl(pan, DRM_IOCTL_PANFROST_PERFCNT_ENABLE, &on), 0);
	EXPECT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_START, 0), -EBUSY);
	ASSERT_EQ(vgpu_inproc_ioctl(pan, DRM_IOCTL_PANFROST_PERFCNT_ENABLE, &off), 0);
	EXPECT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_START, 0), 0);
	EXPECT_EQ(prf_cmd(rd, KB_PRFCNT_CMD_STOP, 0), 0);
	vgpu_inproc_close(rd);
	close(fd);
	vgpu_inproc_close(pan);
	vgpu_inproc_close(kb);
	vgpu_inproc_destroy(ip2);
}

/* ---- kbase atom state changes: KINSTR_JM_FD (kbase_kinstr_jm.c) ---- */

struct jm_rec {
	uint64_t timestamp;
	int8_t state;
	uint8_t atom, flags, reserved, slot, padding[3];
};
enum { JM_QUEUE, JM_START, JM_STOP, JM_COMPLETE };

/* A reader of @count records: its descriptor, its file in *@rd. */
static int jm_reader(struct vgpu_inproc *ip, struct vgpu_inproc_file *f, uint16_t count,
		     struct vgpu_inproc_file **rd)
{
	union kb_kinstr_jm_fd a = { .in = { .count = count } };
	long fd = vgpu_inproc_ioctl(f, KB_IOCTL_KINSTR_JM_FD, &a);

	*rd = NULL;
	if (fd < 0)
		return (int)fd;
	if (a.out.version != 2 || a.out.size != sizeof(struct jm_rec))
		return -1000;
	*rd = vgpu_inproc_fd_file(ip, (int)fd);
	return (int)fd;
}

/* Reads what is there: the records' states as a string ("qsSc"...). */
static void jm_states(struct vgpu_inproc_file *rd, char *out, uint8_t *atoms,
		      struct jm_rec *last)
{
	struct jm_rec r[32];
	long n = vgpu_inproc_read(rd, r, sizeof(r), true);

	*out = 0;
	for (long i = 0; i < n / (long)sizeof(r[0]); i++) {
		out[i] = "qsSc"[r[i].state & 3];
		out[i + 1] = 0;
		atoms[i] = r[i].atom;
		*last = r[i];
	}
}

TEST_F(ip, kinstr_jm_reader_sees_atoms_queue_start_stop_complete)
{
	union kb_kinstr_jm_fd bad = { .in = { .count = 8 } };
	struct vgpu_inproc_file *early = NULL, *rd, *rd2, *more[17];
	struct pollfd p = { .events = POLLIN };
	struct kb_atom_v2 at[2];
	struct jm_rec r, last;
	struct kb_event ev;
	uint8_t *mem, atoms[32], nr;
	char st[33];
	int fd, fd2, mfd[17], nmore = 0;

	/* A context's ioctl: not before the handshake. */
	ASSERT_EQ(vgpu_inproc_open(self->ip, "mali0", &early), 0);
	EXPECT_EQ(vgpu_inproc_ioctl(early, KB_IOCTL_KINSTR_JM_FD, &bad), -EPERM);
	vgpu_inproc_close(early);
	ASSERT_TRUE(kb_ready(self->ip, &self->f));
	EXPECT_EQ(jm_reader(self->ip, self->f, 0, &rd), -EINVAL);
	EXPECT_EQ(jm_reader(self->ip, self->f, 12, &rd), -EINVAL);
	bad.in.padding[3] = 1;
	EXPECT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_KINSTR_JM_FD, &bad), -EINVAL);
	fd = jm_reader(self->ip, self->f, 64, &rd);
	ASSERT_GE(fd, 0);
	ASSERT_NONNULL(rd);
	p.fd = fd;
	EXPECT_EQ(poll(&p, 1, 0), 0);
	EXPECT_EQ(vgpu_inproc_read(rd, &r, sizeof(r), true), -EAGAIN);
	EXPECT_EQ(vgpu_inproc_read(rd, &r, sizeof(r) - 1, true), -ENOBUFS);
	/* A hardware atom: queued, on its slot, off it, completed. */
	mem = kb_mem_map(self->f, 2);
	ASSERT_TRUE(mem != MAP_FAILED);
	job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 4096), WRITE_VALUE_IMM32, 1);
	ASSERT_EQ(kb_run(self->f, (uintptr_t)mem, &ev), 0);
	EXPECT_EQ(poll(&p, 1, 0), 1);
	jm_states(rd, st, atoms, &last);
	EXPECT_STREQ(st, "qsSc");
	EXPECT_EQ(atoms[0], 9);
	EXPECT_EQ(atoms[3], 9);
	EXPECT_EQ(poll(&p, 1, 0), 0);
	/* A soft job runs in the driver; a dependency-only atom never starts;
	 * one that fails at submit is queued and completed. */
	katom(&at[0], 3, KB_JD_REQ_SOFT_EVENT_SET, (uintptr_t)mem + 4096 + 64, 0);
	katom(&at[1], 4, KB_JD_REQ_DEP, 0, 3);
	ASSERT_EQ(ksubmit(self->f, at, 2), 0);
	EXPECT_EQ(kevent(self->f, &nr), KB_EVENT_DONE);
	EXPECT_EQ(kevent(self->f, &nr), KB_EVENT_DONE);
	jm_states(rd, st, atoms, &last);
	EXPECT_STREQ(st, "qsScqc");
	EXPECT_EQ(atoms[0], 3);
	EXPECT_EQ(atoms[4], 4);
	katom(&at[0], 6, KB_JD_REQ_SOFT_DEBUG_COPY, (uintptr_t)mem, 0);
	ASSERT_EQ(ksubmit(self->f, at, 1), 0);
	EXPECT_EQ(kevent(self->f, &nr), KB_EVENT_JOB_INVALID);
	jm_states(rd, st, atoms, &last);
	EXPECT_STREQ(st, "qc");
	/* A ring of 4 keeps 3 records; the third says it filled the ring. */
	fd2 = jm_reader(self->ip, self->f, 4, &rd2);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(kb_run(self->f, (uintptr_t)mem, &ev), 0);
	jm_states(rd2, st, atoms, &last);
	EXPECT_STREQ(st, "qsS");
	EXPECT_EQ(last.flags, 1);
	jm_states(rd, st, atoms, &last);
	EXPECT_STREQ(st, "qsSc");
	EXPECT_EQ(last.flags, 0);
	/* 17 readers per context (kbase's bound lets one past 16), then ENOMEM. */
	for (; nmore < 17; nmore++) {
		mfd[nmore] = jm_reader(self->ip, self->f, 2, &more[nmore]);
		if (mfd[nmore] < 0)
			break;
	}
	EXPECT_EQ(nmore, 15);
	EXPECT_EQ(mfd[nmore], -ENOMEM);
	for (int i = 0; i < nmore; i++) {
		vgpu_inproc_close(more[i]);
		close(mfd[i]);
	}
	/* A reader outlives its context: nothing more arrives. */
	vgpu_inproc_munmap(self->f, mem, 2 * 4096);
	vgpu_inproc_close(self->f);
	self->f = NULL;
	jm_states(rd, st, atoms, &last);
	EXPECT_STREQ(st, "");
	vgpu_inproc_close(rd2);
	close(fd2);
	vgpu_inproc_close(rd);
	close(fd);
}

TEST_HARNESS_MAIN

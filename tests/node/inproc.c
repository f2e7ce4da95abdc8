// SPDX-License-Identifier: MIT
/*
 * The in-process device nodes (fuse-dev/inproc.h), as `vgpu run` uses them
 * when FUSE is not available: same driver, same semantics, no mount. These
 * run everywhere, FUSE or not.
 */
#include <poll.h>
#include <sys/mman.h>

#include "harness.h"
#include "node/devnode.h"
#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"
#include "fuse-dev/inproc.h"
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

/* Opens mali0 and does the handshake; false on any failure. */
static bool kb_ready(struct vgpu_inproc *ip, struct vgpu_inproc_file **f)
{
	struct kb_version_check v = { 11, 20 };
	struct kb_set_flags fl = { 0 };

	return !vgpu_inproc_open(ip, "mali0", f) &&
	       !vgpu_inproc_ioctl(*f, KB_IOCTL_VERSION_CHECK, &v) && v.minor == 20 &&
	       !vgpu_inproc_ioctl(*f, KB_IOCTL_SET_FLAGS, &fl);
}

/* Submits one hardware atom and waits on the eventfd for its event. */
static int kb_run(struct vgpu_inproc_file *f, uint64_t jc, struct kb_event *ev)
{
	struct kb_atom_v2 atom;
	struct kb_job_submit s = { .addr = (uintptr_t)&atom, .nr_atoms = 1,
				   .stride = sizeof(atom) };
	struct pollfd p = { .fd = vgpu_inproc_pollfd(f), .events = POLLIN };

	memset(&atom, 0, sizeof(atom));
	atom.jc = jc;
	atom.atom_number = 9;
	atom.core_req = KB_JD_REQ_CS;
	if (vgpu_inproc_ioctl(f, KB_IOCTL_JOB_SUBMIT, &s) || poll(&p, 1, 20000) != 1)
		return -1;
	return vgpu_inproc_read(f, ev, sizeof(*ev), true) == sizeof(*ev) ? 0 : -1;
}

TEST_F(ip, kbase_job_with_eventfd_poll)
{
	union kb_mem_alloc a = { .in = { .va_pages = 2, .commit_pages = 2,
		.flags = KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR |
			 KB_MEM_PROT_GPU_RD | KB_MEM_PROT_GPU_WR } };
	struct pollfd p;
	struct kb_event ev;
	uint8_t *mem;
	int err = 0;

	ASSERT_TRUE(kb_ready(self->ip, &self->f));
	ASSERT_EQ(vgpu_inproc_ioctl(self->f, KB_IOCTL_MEM_ALLOC, &a), 0);
	mem = vgpu_inproc_mmap(self->f, NULL, 2 * 4096, PROT_READ | PROT_WRITE,
			       MAP_SHARED, (off_t)a.out.gpu_va, &err);
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

/* A panfrost BO of @size bytes mapped for the CPU (MAP_FAILED on
 * failure); its GPU address in *@va. */
static uint8_t *pan_bo(struct vgpu_inproc_file *f, uint32_t size, uint64_t *va)
{
	struct pan_create_bo_arg c = { .size = size };
	struct pan_mmap_bo_arg m = { 0 };
	int err;

	if (vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_CREATE_BO, &c))
		return MAP_FAILED;
	m.handle = c.handle;
	if (vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_MMAP_BO, &m))
		return MAP_FAILED;
	*va = c.offset;
	return vgpu_inproc_mmap(f, NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
				(off_t)m.offset, &err);
}

/* Submits the job chain at @jc and waits for it on a syncobj: 0 or -1. */
static int pan_run(struct vgpu_inproc_file *f, uint64_t jc)
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
	w.timeout_nsec = (ts.tv_sec + 20) * 1000000000ll;
	return vgpu_inproc_ioctl(f, DRM_IOCTL_SYNCOBJ_WAIT, &w) ? -1 : 0;
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

TEST_HARNESS_MAIN

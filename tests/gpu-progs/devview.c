// SPDX-License-Identifier: MIT
/*
 * Runs under libvgpu-preload.so (tests/node/preload.c starts it, natively
 * and under qemu-aarch64): checks the device view libdrm and Mesa rely on
 * (the /dev and sysfs entries of fuse-dev/dev_tree.h) and one GPU job
 * through it, with no Mesa involved.
 * Prints one line per failed check and exits non-zero on any.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"
#include "node/devnode.h"
#include "gpu-progs/check.h"
#include "gpu-progs/kb_client.h"

static void check_scan(void)
{
	struct stat st, fst;
	char link[256] = "", line[256];
	bool listed = false, compat = false, fullname = false;
	struct dirent *e;
	ssize_t n;
	DIR *d = opendir("/dev/dri");
	FILE *f;
	int fd;

	CHECK(d != NULL, "opendir /dev/dri");
	while (d && (e = readdir(d)))
		listed |= !strcmp(e->d_name, "renderD128");
	if (d)
		closedir(d);
	CHECK(listed, "renderD128 listed in /dev/dri");
	CHECK(!stat("/dev/dri/renderD128", &st), "stat");
	CHECK(S_ISCHR(st.st_mode), "a character device (mode %o)", st.st_mode);
	CHECK(major(st.st_rdev) == 226 && minor(st.st_rdev) == 128, "rdev %u:%u",
	      major(st.st_rdev), minor(st.st_rdev));
	fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "open");
	CHECK(!fstat(fd, &fst) && fst.st_rdev == st.st_rdev && S_ISCHR(fst.st_mode),
	      "fstat agrees with stat");
	close(fd);
	CHECK(!stat("/sys/dev/char/226:128/device/drm", &st) && S_ISDIR(st.st_mode),
	      "device/drm");
	n = readlink("/sys/dev/char/226:128/device/subsystem", link, sizeof(link) - 1);
	CHECK(n > 9 && !strcmp(link + n - 9, "/platform"), "subsystem link '%s'", link);
	f = fopen("/sys/dev/char/226:128/device/uevent", "r");
	CHECK(f != NULL, "uevent");
	while (f && fgets(line, sizeof(line), f)) {
		compat |= !strncmp(line, "OF_COMPATIBLE_0=", 16);
		fullname |= !strncmp(line, "OF_FULLNAME=", 12);
	}
	if (f)
		fclose(f);
	CHECK(compat && fullname, "OF_COMPATIBLE_0 and OF_FULLNAME in uevent");
	CHECK(open("/dev/dri/renderD129", O_RDWR) < 0 && errno == ENOENT, "renderD129 absent");
}

struct waiter {
	int fd;
	uint32_t sync;
	int started;
	int ret, err;
};

/* Waits for a syncobj nobody has submitted to yet (WAIT_FOR_SUBMIT). */
static void *wait_thread(void *arg)
{
	struct waiter *w = arg;
	struct drm_syncobj_wait_arg wa = { .handles = (uintptr_t)&w->sync, .count_handles = 1,
					   .flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT };
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	wa.timeout_nsec = (ts.tv_sec + 60) * 1000000000ll;
	__atomic_store_n(&w->started, 1, __ATOMIC_RELEASE);
	w->ret = ioctl(w->fd, DRM_IOCTL_SYNCOBJ_WAIT, &wa);
	w->err = errno;
	return NULL;
}

/*
 * One thread blocks in that wait while another submits the job that
 * signals it: the file must serve both at once, as a kernel file does
 * (a transport that served them in turn would let the wait time out).
 */
static void check_concurrent_wait(int fd, uint8_t *cpu, uint64_t gpu, uint32_t handle)
{
	struct drm_syncobj_create_arg sc = { 0 };
	struct pan_submit_arg s = { 0 };
	struct waiter w = { .fd = fd };
	pthread_t t;

	CHECK(!ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc), "SYNCOBJ_CREATE");
	w.sync = sc.handle;
	CHECK(!pthread_create(&t, NULL, wait_thread, &w), "pthread_create");
	while (!__atomic_load_n(&w.started, __ATOMIC_ACQUIRE))
		sched_yield();
	job_write_value(cpu, 1, 0, 0, gpu + 4096, WRITE_VALUE_IMM32, 0x7e57ab1e);
	s.jc = gpu;
	s.bo_handles = (uintptr_t)&handle;
	s.bo_handle_count = 1;
	s.out_sync = sc.handle;
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &s), "SUBMIT while another thread waits");
	pthread_join(t, NULL);
	errno = w.err;
	CHECK(w.ret == 0, "the waiting thread saw the submission's fence signal");
	CHECK(*(volatile uint32_t *)(cpu + 4096) == 0x7e57ab1e, "second job's write (0x%x)",
	      *(uint32_t *)(cpu + 4096));
}

/* A forked child shares the file: it sees the parent's BO; and the
 * parent's own requests still work afterwards. */
static void check_forked_child(int fd, uint32_t handle, uint64_t gpu)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		struct pan_get_bo_offset_arg o = { .handle = handle };

		_exit(ioctl(fd, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o) || o.offset != gpu);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && status == 0,
	      "a forked child reaches the parent's BO (status %d)", status);
	{
		struct pan_get_bo_offset_arg o = { .handle = handle };

		CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o) && o.offset == gpu,
		      "the parent's file after the fork");
	}
}

/* A WRITE_VALUE job through a dup'd descriptor, seen through the mapping. */
static void check_job(void)
{
	struct drm_version_arg v = { 0 };
	struct pan_get_param_arg gp = { .param = PAN_PARAM_GPU_PROD_ID };
	struct pan_create_bo_arg c = { .size = 8192 };
	struct pan_mmap_bo_arg m = { 0 };
	struct pan_submit_arg s = { 0 };
	struct pan_wait_bo_arg w = { 0 };
	struct timespec ts;
	char name[16] = "";
	uint32_t handle;
	uint8_t *cpu;
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC), fd2;

	CHECK(fd >= 0, "open");
	v.name = (uintptr_t)name;
	v.name_len = sizeof(name) - 1;
	CHECK(!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "panfrost"),
	      "VERSION '%s'", name);
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_GET_PARAM, &gp) && gp.value == 0x6000,
	      "PROD_ID 0x%llx", (unsigned long long)gp.value);
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &c), "CREATE_BO");
	/* Handles belong to the file: a duplicate sees them. */
	fd2 = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	CHECK(fd2 >= 0, "F_DUPFD_CLOEXEC");
	close(fd);
	m.handle = handle = c.handle;
	CHECK(!ioctl(fd2, DRM_IOCTL_PANFROST_MMAP_BO, &m), "MMAP_BO on the dup");
	cpu = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, (off_t)m.offset);
	CHECK(cpu != MAP_FAILED, "mmap");
	if (cpu == MAP_FAILED || failures)
		return;
	job_write_value(cpu, 1, 0, 0, c.offset + 4096, WRITE_VALUE_IMM32, 0x600dcafe);
	s.jc = c.offset;
	s.bo_handles = (uintptr_t)&handle;
	s.bo_handle_count = 1;
	CHECK(!ioctl(fd2, DRM_IOCTL_PANFROST_SUBMIT, &s), "SUBMIT");
	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.handle = handle;
	w.timeout_ns = (ts.tv_sec + 30) * 1000000000ll;
	CHECK(!ioctl(fd2, DRM_IOCTL_PANFROST_WAIT_BO, &w), "WAIT_BO");
	CHECK(*(volatile uint32_t *)(cpu + 4096) == 0x600dcafe,
	      "the job's write is in the CPU mapping (0x%x)", *(uint32_t *)(cpu + 4096));
	CHECK(job_status(cpu) == 1, "job status %u", job_status(cpu));
	check_concurrent_wait(fd2, cpu, c.offset, handle);
	check_forked_child(fd2, handle, c.offset);
	munmap(cpu, 8192);
	close(fd2);
}

/* kbase on /dev/mali0: SAME_VA memory by mmap of its cookie, a job, and
 * its event through poll() (on the descriptor itself) and read(). */
static void check_kbase(void)
{
	struct kb_version_check v = { .major = 11, .minor = 40 };
	struct kb_set_flags f = { 0 };
	struct kb_event ev = { 0 };
	struct pollfd p;
	uint8_t *mem;
	int fd = open("/dev/mali0", O_RDWR | O_CLOEXEC);
	struct stat st;

	CHECK(fd >= 0, "open /dev/mali0");
	if (fd < 0)
		return;
	CHECK(!fstat(fd, &st) && S_ISCHR(st.st_mode), "mali0 is a character device");
	CHECK(!ioctl(fd, KB_IOCTL_VERSION_CHECK, &v) && v.major == 11, "VERSION_CHECK");
	CHECK(!ioctl(fd, KB_IOCTL_SET_FLAGS, &f), "SET_FLAGS");
	mem = kb_same_va(fd, 4);
	CHECK(mem != MAP_FAILED, "MEM_ALLOC SAME_VA and mmap of its cookie");
	if (mem == MAP_FAILED || failures) {
		close(fd);
		return;
	}
	/* SAME_VA: the CPU address is the GPU address. */
	job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 2048), WRITE_VALUE_IMM32, 0xcafef00d);
	CHECK(!kb_submit_chain(fd, 1, (uintptr_t)mem), "JOB_SUBMIT");
	p.fd = fd;
	p.events = POLLIN;
	CHECK(poll(&p, 1, 30000) == 1 && (p.revents & POLLIN), "poll sees the event");
	CHECK(read(fd, &ev, sizeof(ev)) == sizeof(ev), "read the event");
	CHECK(ev.event_code == KB_EVENT_DONE && ev.atom_number == 1, "event %#x atom %u",
	      ev.event_code, ev.atom_number);
	CHECK(*(volatile uint32_t *)(mem + 2048) == 0xcafef00d, "the job's write (0x%x)",
	      *(uint32_t *)(mem + 2048));
	/* Nothing more to read: the descriptor is no longer readable. */
	CHECK(poll(&p, 1, 0) == 0, "no further event");
	munmap(mem, 4 * 4096);
	close(fd);
}

int main(void)
{
	check_scan();
	check_job();
	check_kbase();
	if (!failures)
		printf("devview: all checks passed\n");
	return failures ? 1 : 0;
}

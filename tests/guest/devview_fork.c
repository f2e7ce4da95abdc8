// SPDX-License-Identifier: MIT
/*
 * Runs under `vgpu run` (tests/dbt/devview.c): a forked child and the GPU,
 * as on Linux, where the child shares its parent's open files. The child
 * submits on the files it inherited (the parent's BO, the parent's kbase
 * memory) and reads its kbase event; the parent sees the results in the
 * memory they share; a bad pointer there is EFAULT, as on the parent's
 * own files. A grandchild cannot use those files (ENODEV: their
 * driver runs two processes up). Nodes the child opens itself give it a
 * GPU of its own; the parent's files work on. Prints one line per failed
 * check; lseek answers on inherited files as on the parent's (a
 * dma-buf's size, a node's ESPIPE). Then it prints the GPU's
 * SHADER_PRESENT (-cores); with the argument "exec" a program it execs
 * prints it too (the options survive execve).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"
#include "node/devnode.h"
#include "gpu-progs/check.h"
#include "gpu-progs/kb_client.h"

#define RENDER "/dev/dri/renderD128"
#define MALI "/dev/mali0"

struct bo {
	uint32_t handle;
	uint64_t gpu;
	uint8_t *cpu;
};

static int bo_new(int fd, struct bo *b)
{
	struct pan_create_bo_arg c = { .size = 8192 };
	struct pan_mmap_bo_arg m = { 0 };

	if (ioctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &c))
		return -1;
	m.handle = c.handle;
	if (ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &m))
		return -1;
	b->cpu = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
	b->handle = c.handle;
	b->gpu = c.offset;
	return b->cpu == MAP_FAILED ? -1 : 0;
}

/* A WRITE_VALUE of @v to the BO's second page, submitted and waited for
 * on a syncobj: 0, or the failing call's -errno. */
static int pan_job(int fd, const struct bo *b, uint32_t v)
{
	struct drm_syncobj_create_arg sc = { 0 };
	struct drm_syncobj_wait_arg w = { 0 };
	struct pan_submit_arg s = { 0 };
	struct timespec ts;

	job_write_value(b->cpu, 1, 0, 0, b->gpu + 4096, WRITE_VALUE_IMM32, v);
	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc))
		return -errno;
	s.jc = b->gpu;
	s.bo_handles = (uintptr_t)&b->handle;
	s.bo_handle_count = 1;
	s.out_sync = sc.handle;
	if (ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &s))
		return -errno;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.handles = (uintptr_t)&sc.handle;
	w.count_handles = 1;
	w.timeout_nsec = (ts.tv_sec + 20) * 1000000000ll;
	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w))
		return -errno;
	return *(volatile uint32_t *)(b->cpu + 4096) == v ? 0 : -EIO;
}

/* mali0 after the handshake, or -1. */
static int kb_open(void)
{
	struct kb_version_check v = { .major = 11, .minor = 40 };
	struct kb_set_flags f = { 0 };
	int fd = open(MALI, O_RDWR | O_CLOEXEC);

	if (fd >= 0 && (ioctl(fd, KB_IOCTL_VERSION_CHECK, &v) || ioctl(fd, KB_IOCTL_SET_FLAGS, &f))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* On kbase file @fd: SAME_VA memory, one job and its event. 0 on
 * success. */
static int kbase_job(int fd)
{
	struct kb_event ev = { 0 };
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t *mem = fd < 0 ? MAP_FAILED : kb_same_va(fd, 1);
	int ok;

	if (mem == MAP_FAILED)
		return -1;
	job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 2048), WRITE_VALUE_IMM32, 0xc41d);
	ok = !kb_submit_chain(fd, 1, (uintptr_t)mem) && poll(&p, 1, 20000) == 1 &&
	     read(fd, &ev, sizeof(ev)) == sizeof(ev) && ev.event_code == KB_EVENT_DONE &&
	     *(volatile uint32_t *)(mem + 2048) == 0xc41d;
	munmap(mem, 4096);
	return ok ? 0 : -1;
}

/* A kbase atom running a WRITE_VALUE of @v at @mem + 2048, set up in
 * @mem (SAME_VA memory of file @fd), and its event. 0 on success. */
static int kb_write(int fd, uint8_t *mem, uint32_t v)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct kb_event ev = { 0 };

	job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 2048), WRITE_VALUE_IMM32, v);
	return !kb_submit_chain(fd, 1, (uintptr_t)mem) && poll(&p, 1, 20000) == 1 &&
	       read(fd, &ev, sizeof(ev)) == sizeof(ev) && ev.event_code == KB_EVENT_DONE &&
	       ev.atom_number == 1 && *(volatile uint32_t *)(mem + 2048) == v ? 0 : -1;
}

/* The parent's BO exported as a dma-buf before the fork. */
static int dmabuf = -1;

/* Two forks down: the files' driver is not its parent's. */
static int grandchild(int inherited, const struct bo *parent_bo)
{
	int r = pan_job(inherited, parent_bo, 0x5555);

	CHECK(r == -ENODEV, "a grandchild's submission on the file is ENODEV (%d)", r);
	return failures ? 1 : 0;
}

static int child(int inherited, int kb_inherited, uint8_t *kb_mem, const struct bo *parent_bo)
{
	struct pan_get_bo_offset_arg o = { .handle = parent_bo->handle };
	struct bo mine;
	int fd, r, status = -1;
	pid_t pid;

	/* The inherited files are the parent's: what they hold is there... */
	CHECK(!ioctl(inherited, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o) &&
	      o.offset == parent_bo->gpu, "the parent's BO through the inherited file");
	CHECK(*(volatile uint32_t *)(parent_bo->cpu + 4096) == 0x1111,
	      "the parent's mapping (0x%x)", *(uint32_t *)(parent_bo->cpu + 4096));
	/* lseek reaches the parent's driver too: a dma-buf's size at its end. */
	off_t end = lseek(dmabuf, 0, SEEK_END);

	CHECK(end == 8192, "lseek to the inherited dma-buf's end (%lld, errno %d)",
	      (long long)end, errno);
	errno = 0;
	CHECK(lseek(inherited, 0, SEEK_SET) == -1 && errno == ESPIPE,
	      "lseek on the inherited node is ESPIPE (errno %d)", errno);
	/* ...and jobs run on them, on both UAPIs. */
	r = pan_job(inherited, parent_bo, 0x2222);
	CHECK(!r, "a panfrost job on the inherited file (%d)", r);
	CHECK(!kb_write(kb_inherited, kb_mem, 0x2323), "a kbase job and its event on the inherited mali0");
	/* A bad pointer is EFAULT, not a crash: the argument's own, and one
	 * inside it, whose bytes the parent's driver asks the child for. */
	errno = 0;
	r = ioctl(inherited, DRM_IOCTL_PANFROST_GET_BO_OFFSET, (void *)8);
	CHECK(r == -1 && errno == EFAULT, "a bad argument on the inherited file (%d, errno %d)", r,
	      errno);
	errno = 0;
	r = ioctl(inherited, DRM_IOCTL_PANFROST_SUBMIT,
		  &(struct pan_submit_arg){ .jc = parent_bo->gpu, .bo_handles = 8,
					    .bo_handle_count = 1 });
	CHECK(r == -1 && errno == EFAULT, "a bad BO list on the inherited file (%d, errno %d)", r,
	      errno);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		r = grandchild(inherited, parent_bo);
		fflush(stdout);
		_exit(r);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && status == 0,
	      "the grandchild's checks (status 0x%x)", status);
	/* Its own open: a GPU of its own. */
	fd = open(RENDER, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "the child opens " RENDER);
	if (fd >= 0) {
		CHECK(!bo_new(fd, &mine), "a BO of the child's");
		r = pan_job(fd, &mine, 0x3333);
		CHECK(!r, "a panfrost job on the child's own file (%d)", r);
		close(fd);
	}
	fd = kb_open();
	CHECK(!kbase_job(fd), "a kbase job on the child's own mali0");
	close(fd);
	return failures ? 1 : 0;
}

static unsigned long long shader_present(void)
{
	struct pan_get_param_arg p = { .param = PAN_PARAM_SHADER_PRESENT };
	int fd = open(RENDER, O_RDWR | O_CLOEXEC);

	if (fd < 0 || ioctl(fd, DRM_IOCTL_PANFROST_GET_PARAM, &p))
		p.value = 0;
	if (fd >= 0)
		close(fd);
	return p.value;
}

int main(int argc, char **argv)
{
	struct bo b;
	int fd, kfd, status = -1, r;
	uint8_t *kmem;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "present")) {
		printf("exec'd shader_present 0x%llx\n", shader_present());
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "exec")) {
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			execl("/proc/self/exe", argv[0], "present", (char *)NULL);
			_exit(127);
		}
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && status == 0,
		      "the exec'd program (status 0x%x)", status);
	}
	kfd = kb_open();
	CHECK(kfd >= 0, "open " MALI);
	kmem = kfd < 0 ? MAP_FAILED : kb_same_va(kfd, 1);
	fd = open(RENDER, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "open " RENDER);
	if (fd < 0 || kmem == MAP_FAILED || bo_new(fd, &b))
		return 1;
	r = pan_job(fd, &b, 0x1111);
	CHECK(!r, "the parent's job (%d)", r);
	struct drm_prime_handle_arg ph = { .handle = b.handle, .flags = O_RDWR | O_CLOEXEC };

	CHECK(!ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), "export the BO (errno %d)", errno);
	dmabuf = ph.fd;
	CHECK(lseek(dmabuf, 0, SEEK_END) == 8192, "lseek to the dma-buf's end");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		r = child(fd, kfd, kmem, &b);
		fflush(stdout);
		_exit(r);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "the child's checks (status 0x%x)", status);
	/* What the child's jobs wrote is in the memory both share. */
	CHECK(*(volatile uint32_t *)(b.cpu + 4096) == 0x2222, "the child's panfrost job's write (0x%x)",
	      *(uint32_t *)(b.cpu + 4096));
	CHECK(*(volatile uint32_t *)(kmem + 2048) == 0x2323, "the child's kbase job's write (0x%x)",
	      *(uint32_t *)(kmem + 2048));
	/* The parent's files and GPU work on. */
	r = pan_job(fd, &b, 0x4444);
	CHECK(!r, "the parent's job after the fork (%d)", r);
	CHECK(!kbase_job(kfd), "a kbase job on the parent's mali0 after the fork");
	close(kfd);
	close(fd);
	printf("shader_present 0x%llx\n", shader_present());
	if (!failures)
		printf("devview_fork: all checks passed\n");
	return failures ? 1 : 0;
}

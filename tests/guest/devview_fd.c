// SPDX-License-Identifier: MIT
/*
 * Runs under `vgpu run` (tests/dbt/devview.c): what a board's kernel
 * shows of an open DRM render node beyond libdrm's scan (which the shared
 * tests/gpu-progs/devview.c checks): its /proc/self/fd link, F_GETFL and
 * O_NONBLOCK shared by copies, statx, the node file living on through
 * dup2/dup3 copies and mappings and ending with the last of them, close
 * and close_range forgetting the descriptor, no write handler,
 * rusticl's direct probe of renderD129..191, descriptors the driver makes
 * (PRIME dma-bufs, sync_files), and waits in the driver that a signal
 * interrupts. Prints one line per failed
 * check, then the GPU's PROD_ID; with the argument "exec" it first runs
 * itself again through execve (the new program must see the same GPU).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <time.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "driver-shim/uapi_drm.h"
#include "gpu-progs/check.h"

#define RENDER "/dev/dri/renderD128"

static bool bo_known(int fd, uint32_t handle)
{
	struct pan_get_bo_offset_arg o = { .handle = handle };

	return !ioctl(fd, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o);
}

static void check_link(int fd, const char *want)
{
	char path[64], link[256] = "";
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	CHECK(n > 0 && !strcmp(link, want), "%s -> '%s', want '%s'", path, link, want);
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", getpid(), fd);
	memset(link, 0, sizeof(link));
	n = readlink(path, link, sizeof(link) - 1);
	CHECK(n > 0 && !strcmp(link, want), "%s -> '%s'", path, link);
}

static void check_listing(void)
{
	struct dirent *e;
	int names = 0, render = 0;
	DIR *d = opendir("/dev/dri");
	int dfd;

	CHECK(d != NULL, "opendir /dev/dri");
	if (!d)
		return;
	dfd = dirfd(d);
	check_link(dfd, "/dev/dri");
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names++;
		render += !strcmp(e->d_name, "renderD128");
	}
	closedir(d);
	CHECK(names == 1 && render == 1, "/dev/dri holds renderD128 only (%d names)", names);
}

static void check_stat(int fd)
{
	struct statx by_fd, by_path;
	struct stat st;

	CHECK(!statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &by_fd), "statx(fd)");
	CHECK(!statx(AT_FDCWD, RENDER, 0, STATX_BASIC_STATS, &by_path), "statx(path)");
	CHECK(S_ISCHR(by_fd.stx_mode) && by_fd.stx_rdev_major == 226 &&
	      by_fd.stx_rdev_minor == 128, "statx(fd): mode %o rdev %u:%u",
	      by_fd.stx_mode, by_fd.stx_rdev_major, by_fd.stx_rdev_minor);
	CHECK(S_ISCHR(by_path.stx_mode) && by_path.stx_ino == by_fd.stx_ino &&
	      by_path.stx_rdev_minor == 128, "statx by path and by fd agree");
	CHECK(!faccessat(AT_FDCWD, RENDER, R_OK | W_OK, 0), "faccessat");
	CHECK(!stat("/dev/mali0", &st) && S_ISCHR(st.st_mode) &&
	      major(st.st_rdev) == 10, "/dev/mali0 a misc character device");
	/* rusticl opens every render minor: only 128 exists. */
	for (int m = 129; m <= 191; m++) {
		char p[32];
		int f;

		snprintf(p, sizeof(p), "/dev/dri/renderD%d", m);
		errno = 0;
		f = open(p, O_RDWR | O_CLOEXEC);
		CHECK(f < 0 && errno == ENOENT, "%s absent", p);
		if (f >= 0)
			close(f);
	}
}

static void check_flags(int fd)
{
	int fl = fcntl(fd, F_GETFL), dup_fd = dup(fd);

	CHECK((fl & O_ACCMODE) == O_RDWR && !(fl & O_NONBLOCK), "F_GETFL %#x", fl);
	CHECK(!fcntl(fd, F_SETFL, fl | O_NONBLOCK), "F_SETFL");
	/* O_NONBLOCK belongs to the open file, which the copy shares. */
	CHECK(fcntl(dup_fd, F_GETFL) & O_NONBLOCK, "the copy sees O_NONBLOCK");
	CHECK(!fcntl(dup_fd, F_SETFL, fl), "F_SETFL on the copy");
	CHECK(!(fcntl(fd, F_GETFL) & O_NONBLOCK), "O_NONBLOCK cleared through the copy");
	close(dup_fd);
	errno = 0;
	CHECK(write(fd, "x", 1) < 0 && errno == EINVAL, "write has no handler");
}

/* Copies share the file; it ends with the last copy and mapping. */
static void check_lifetime(void)
{
	struct pan_create_bo_arg c = { .size = 4096 };
	struct pan_mmap_bo_arg m = { 0 };
	int fd = open(RENDER, O_RDWR | O_CLOEXEC), other, nul;
	uint32_t *cpu;

	CHECK(fd >= 0, "open");
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &c), "CREATE_BO");
	CHECK(dup2(fd, 100) == 100 && bo_known(100, c.handle), "dup2 shares the handle");
	m.handle = c.handle;
	CHECK(!ioctl(100, DRM_IOCTL_PANFROST_MMAP_BO, &m), "MMAP_BO");
	cpu = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, 100, (off_t)m.offset);
	CHECK(cpu != MAP_FAILED, "mmap");
	close(fd);
	CHECK(bo_known(100, c.handle), "the file lives on in its copy");
	other = open(RENDER, O_RDWR | O_CLOEXEC);
	CHECK(other >= 0 && !bo_known(other, c.handle), "another open is another file");
	close(other);
	/* dup3 of another file over the copy closes the node there. */
	nul = open("/dev/null", O_RDWR | O_CLOEXEC);
	CHECK(dup3(nul, 100, O_CLOEXEC) == 100, "dup3 over the node");
	errno = 0;
	CHECK(ioctl(100, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &(struct pan_get_bo_offset_arg){ 0 }) < 0 &&
	      errno == ENOTTY, "descriptor 100 is /dev/null now");
	CHECK(write(100, "x", 1) == 1, "and writable");
	close(100);
	close(nul);
	/* The mapping keeps the pages (as a VMA keeps its file). */
	if (cpu != MAP_FAILED) {
		cpu[7] = 0x5eed;
		CHECK(cpu[7] == 0x5eed, "the mapping outlives every descriptor");
		CHECK(!munmap(cpu, 4096), "munmap");
	}
	/* A closed node's number, reused by a regular file, is that file. */
	fd = open(RENDER, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "open");
	CHECK(!syscall(SYS_close_range, fd, fd, 0), "close_range");
	nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
	CHECK(nul == fd && write(nul, "x", 1) == 1, "the number is /dev/null's (%d)", nul);
	close(nul);
}

/* Descriptors the driver makes (fuse-dev/README.md, "File objects"): a
 * PRIME dma-buf maps its BO and imports into another file, also through
 * a copy; a sync_file polls readable once signalled and imports back. */
static void check_file_objects(void)
{
	struct pan_create_bo_arg c = { .size = 8192 };
	struct pan_mmap_bo_arg m = { 0 };
	struct drm_prime_handle_arg p = { 0 };
	struct drm_syncobj_create_arg sc = { .flags = DRM_SYNCOBJ_CREATE_SIGNALED };
	struct drm_syncobj_handle_arg sh = { 0 };
	struct pollfd pf = { .events = POLLIN };
	int fd = open(RENDER, O_RDWR | O_CLOEXEC), fd2 = open(RENDER, O_RDWR | O_CLOEXEC);
	int buf, copy, nul;
	uint8_t *cpu, *view;
	uint32_t h2;
	struct stat st;

	CHECK(fd >= 0 && fd2 >= 0, "open");
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &c), "CREATE_BO");
	m.handle = c.handle;
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &m), "MMAP_BO");
	cpu = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
	CHECK(cpu != MAP_FAILED, "mmap BO");
	if (cpu == MAP_FAILED)
		return;
	cpu[0] = 0x42;
	p.handle = c.handle;
	p.flags = DRM_CLOEXEC | DRM_RDWR;
	CHECK(!ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p) && p.fd >= 0, "PRIME export");
	buf = p.fd;
	CHECK((fcntl(buf, F_GETFD) & FD_CLOEXEC) && !fstat(buf, &st) && S_ISFIFO(st.st_mode),
	      "a close-on-exec descriptor of its own");
	view = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, buf, 0);
	CHECK(view != MAP_FAILED && view[0] == 0x42, "the dma-buf maps the BO");
	if (view != MAP_FAILED) {
		view[4096] = 0x43;
		CHECK(cpu[4096] == 0x43, "coherently");
		munmap(view, 8192);
	}
	copy = dup(buf);
	close(buf);
	p.fd = copy;
	p.handle = 0;
	CHECK(!ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p) && bo_known(fd2, p.handle),
	      "a copy imports into another file");
	h2 = p.handle;
	p.handle = 0;
	CHECK(!ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p) && p.handle == h2,
	      "twice: the same handle");
	/* How an importer sizes it (Mesa's panfrost does, before importing). */
	CHECK(lseek(copy, 0, SEEK_END) == 8192 && lseek(copy, 0, SEEK_SET) == 0,
	      "a dma-buf's lseek tells its size");
	errno = 0;
	CHECK(lseek(copy, 0, SEEK_CUR) < 0 && errno == EINVAL, "and nothing else");
	close(copy);
	errno = 0;
	CHECK(ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p) < 0 && errno == EBADF,
	      "a closed descriptor is EBADF");
	nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
	p.fd = nul;
	errno = 0;
	CHECK(ioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p) < 0 && errno == EINVAL,
	      "another file is EINVAL");
	close(nul);
	CHECK(!ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc), "SYNCOBJ_CREATE");
	sh.handle = sc.handle;
	sh.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE;
	CHECK(!ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &sh) && sh.fd >= 0, "sync_file export");
	pf.fd = sh.fd;
	CHECK(poll(&pf, 1, 0) == 1, "a signalled sync_file polls readable");
	sc.flags = 0;
	CHECK(!ioctl(fd2, DRM_IOCTL_SYNCOBJ_CREATE, &sc), "SYNCOBJ_CREATE");
	sh.handle = sc.handle;
	sh.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
	CHECK(!ioctl(fd2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &sh), "sync_file import");
	close(sh.fd);
	munmap(cpu, 8192);
	close(fd);
	close(fd2);
}

static volatile int alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/*
 * Waits on a syncobj nobody signals, with SIGALRM every second: a single
 * alarm could fire before the wait starts when the machine is loaded, and
 * the wait would then never see one.
 */
static int wait_with_alarm(int fd, uint32_t sync, int restart, int secs)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = restart };
	struct drm_syncobj_wait_arg wa = { .handles = (uintptr_t)&sync, .count_handles = 1,
					   .flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT };
	struct timespec ts;
	int r;

	sigaction(SIGALRM, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	wa.timeout_nsec = (ts.tv_sec + secs) * 1000000000ll + ts.tv_nsec;
	struct itimerval every_second = { { 1, 0 }, { 1, 0 } }, off = { 0 };

	alarms = 0;
	setitimer(ITIMER_REAL, &every_second, NULL);
	r = ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &wa);
	setitimer(ITIMER_REAL, &off, NULL);
	return r;
}

/* A wait in the driver is interruptible, as the kernel's is: without
 * SA_RESTART it ends with EINTR (well before its deadline, which is
 * far), with SA_RESTART it goes on after the handler until it times out. */
static void check_interruptible_wait(void)
{
	struct drm_syncobj_create_arg sc = { 0 };
	int fd = open(RENDER, O_RDWR | O_CLOEXEC), r;

	CHECK(fd >= 0 && !ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc), "SYNCOBJ_CREATE");
	r = wait_with_alarm(fd, sc.handle, 0, 20);
	CHECK(r < 0 && errno == EINTR && alarms >= 1, "interrupted wait: %d, %d alarms", r,
	      alarms);
	r = wait_with_alarm(fd, sc.handle, SA_RESTART, 3);
	CHECK(r < 0 && errno == ETIME && alarms >= 1, "restarted wait: %d, %d alarms", r,
	      alarms);
	close(fd);
}

static unsigned long long prod_id(void)
{
	struct pan_get_param_arg gp = { .param = PAN_PARAM_GPU_PROD_ID };
	int fd = open(RENDER, O_RDWR | O_CLOEXEC);

	CHECK(fd >= 0 && !ioctl(fd, DRM_IOCTL_PANFROST_GET_PARAM, &gp), "GET_PARAM");
	close(fd);
	return (unsigned long long)gp.value;
}

int main(int argc, char **argv)
{
	int fd;

	if (argc > 1 && !strcmp(argv[1], "exec")) {
		int status = -1;
		pid_t pid = fork();

		if (pid == 0) {
			execl("/proc/self/exe", argv[0], "child", (char *)NULL);
			_exit(127);
		}
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && status == 0,
		      "the exec'd program (status %d)", status);
	}
	if (argc > 1 && !strcmp(argv[1], "child")) {
		printf("exec'd prod_id 0x%llx\n", prod_id());
		return failures ? 1 : 0;
	}
	fd = open(RENDER, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, "open " RENDER);
	if (fd < 0)
		return 1;
	check_link(fd, RENDER);
	check_listing();
	check_stat(fd);
	check_flags(fd);
	close(fd);
	check_lifetime();
	check_file_objects();
	check_interruptible_wait();
	printf("prod_id 0x%llx\n", prod_id());
	if (!failures)
		printf("devview_fd: all checks passed\n");
	return failures ? 1 : 0;
}

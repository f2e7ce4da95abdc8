// SPDX-License-Identifier: MIT
/*
 * Descriptors the driver creates (PRIME dma-bufs, syncobj files,
 * sync_files, kbase fence soft jobs, counter and atom-state readers) over
 * `vgpu dev --socket` with libvgpu-preload.so: native
 * x86-64 clients (this very binary, re-run under LD_PRELOAD in a client
 * role) export, map, pass a dma-buf to another process over a unix
 * socket, size it by lseek there and import it after the exporter is
 * gone. The in-process
 * transport's side is in inproc.c, FUSE's EOPNOTSUPP in panfrost.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "fuse-dev/socket_io.h"
#include "node/devnode.h"
#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"

#define ROLE_ENV "VGPU_FDOBJ_ROLE"
#define CHAN_ENV "VGPU_FDOBJ_CHAN"
#define RENDER "/dev/dri/renderD128"

/* ---- the client roles (run under the preload library) ---- */

/* A failed check in a client: say which and exit with its line. */
#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "fdobj client: %s:%d: %s (errno %d)\n", \
				__FILE__, __LINE__, #cond, errno);           \
			_exit(__LINE__ % 250 + 1);                           \
		}                                                            \
	} while (0)

struct cbo {
	uint32_t handle;
	uint64_t va;
	uint8_t *cpu;
};

static void cbo_new(int fd, uint32_t size, struct cbo *b)
{
	struct pan_create_bo_arg c = { .size = size };
	struct pan_mmap_bo_arg m = { 0 };

	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &c));
	m.handle = c.handle;
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &m));
	b->cpu = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
	CHECK(b->cpu != MAP_FAILED);
	b->handle = c.handle;
	b->va = c.offset;
}

static uint32_t csyncobj(int fd, uint32_t flags)
{
	struct drm_syncobj_create_arg c = { .flags = flags };

	CHECK(!ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c));
	return c.handle;
}

static int cwait(int fd, uint32_t h)
{
	struct drm_syncobj_wait_arg w = { .handles = (uintptr_t)&h, .count_handles = 1 };
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.timeout_nsec = (ts.tv_sec + 20) * 1000000000ll;
	return ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

/* A WRITE_VALUE job of file @fd storing @value at GPU address @target. */
static void cwrite(int fd, uint64_t target, uint32_t value)
{
	struct pan_submit_arg s = { 0 };
	struct cbo jobs;

	cbo_new(fd, 4096, &jobs);
	job_write_value(jobs.cpu, 1, 0, 0, target, WRITE_VALUE_IMM32, value);
	s.jc = jobs.va;
	s.out_sync = csyncobj(fd, 0);
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &s));
	CHECK(!cwait(fd, s.out_sync));
	munmap(jobs.cpu, 4096);
}

static int prime(int fd, unsigned long cmd, uint32_t *handle, int *dfd, uint32_t flags)
{
	struct drm_prime_handle_arg p = { .handle = *handle, .fd = *dfd, .flags = flags };
	int r = ioctl(fd, cmd, &p);

	*handle = p.handle;
	*dfd = p.fd;
	return r;
}

/* One process: export, map the dma-buf, import into its own and another
 * file, bad descriptors. */
static void role_prime(void)
{
	int fd = open(RENDER, O_RDWR | O_CLOEXEC), fd2 = open(RENDER, O_RDWR);
	uint32_t h, h2 = 0;
	int buf = -1, bad, pfd[2];
	struct pan_get_bo_offset_arg o = { 0 };
	struct cbo bo;
	uint8_t *view;

	CHECK(fd >= 0 && fd2 >= 0);
	cbo_new(fd, 8192, &bo);
	bo.cpu[0] = 0x11;
	h = bo.handle;
	CHECK(!prime(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h, &buf, DRM_CLOEXEC | DRM_RDWR));
	CHECK(buf >= 0 && (fcntl(buf, F_GETFD) & FD_CLOEXEC));
	{
		struct stat st;

		CHECK(!fstat(buf, &st) && S_ISFIFO(st.st_mode)); /* not the node */
	}
	/* dma_buf_llseek: the size at SEEK_END, 0 at SEEK_SET, nothing
	 * else; a node has no offset. */
	CHECK(lseek(buf, 0, SEEK_END) == 8192);
	CHECK(lseek(buf, 0, SEEK_SET) == 0);
	CHECK(lseek(buf, 0, SEEK_CUR) == -1 && errno == EINVAL);
	CHECK(lseek(buf, 4096, SEEK_SET) == -1 && errno == EINVAL);
	CHECK(lseek64(buf, 0, SEEK_END) == 8192);
	CHECK(lseek(fd, 0, SEEK_END) == -1 && errno == ESPIPE);
	/* The dma-buf maps the BO's pages. */
	view = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, buf, 0);
	CHECK(view != MAP_FAILED);
	CHECK(view[0] == 0x11);
	view[4096] = 0x22;
	CHECK(bo.cpu[4096] == 0x22);
	CHECK(!munmap(view, 8192));
	CHECK(!prime(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &buf, 0) && h2 == bo.handle);
	/* Another file: its own handle, and its jobs reach the pages. */
	h2 = 0;
	CHECK(!prime(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &buf, 0) && h2);
	o.handle = h2;
	CHECK(!ioctl(fd2, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o));
	cwrite(fd2, o.offset + 8, 0x5ca1ab1e);
	CHECK(*(volatile uint32_t *)(bo.cpu + 8) == 0x5ca1ab1e);
	/* dma_buf_get()'s errnos. */
	CHECK(pipe(pfd) == 0);
	CHECK(prime(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &pfd[0], 0) == -1 && errno == EINVAL);
	bad = open("/dev/null", O_RDONLY);
	CHECK(prime(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &bad, 0) == -1 && errno == EINVAL);
	close(bad);
	CHECK(prime(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &bad, 0) == -1 && errno == EBADF);
	close(buf);
	CHECK(prime(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &buf, 0) == -1 && errno == EBADF);
	/* A syncobj file is not a dma-buf. */
	h = csyncobj(fd, 0);
	{
		struct drm_syncobj_handle_arg a = { .handle = h };

		CHECK(!ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &a));
		CHECK(prime(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h2, &a.fd, 0) == -1 &&
		      errno == EINVAL);
		CHECK(lseek(a.fd, 0, SEEK_END) == -1 && errno == ESPIPE);
		close(a.fd);
	}
	_exit(0);
}

/* Exporter: a BO with a pattern, its dma-buf sent to the importer; then
 * everything of ours is closed and we exit. */
static void role_export(int chan)
{
	int fd = open(RENDER, O_RDWR), buf = -1;
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	uint32_t h;
	struct cbo bo;

	CHECK(fd >= 0);
	cbo_new(fd, 8192, &bo);
	for (int i = 0; i < 8192; i++)
		bo.cpu[i] = (uint8_t)(i * 7);
	h = bo.handle;
	CHECK(!prime(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &h, &buf, DRM_CLOEXEC));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &buf, sizeof(int));
	CHECK(sendmsg(chan, &mh, 0) == 1);
	_exit(0);
}

/* Importer: waits until the exporter is gone, then imports the dma-buf
 * it received (a descriptor the library never saw) into its own file. */
static void role_import(int chan)
{
	char cbuf[CMSG_SPACE(sizeof(int))], c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct pan_mmap_bo_arg m = { 0 };
	struct pan_get_bo_offset_arg o = { 0 };
	uint32_t h = 0;
	int buf, fd;
	uint8_t *view;

	CHECK(recvmsg(chan, &mh, 0) == 1);
	CHECK(CMSG_FIRSTHDR(&mh) && CMSG_FIRSTHDR(&mh)->cmsg_type == SCM_RIGHTS);
	memcpy(&buf, CMSG_DATA(CMSG_FIRSTHDR(&mh)), sizeof(int));
	CHECK(read(chan, &c, 1) == 0); /* the exporter exited */
	/* Mesa's import sizes it first: a descriptor the library never saw. */
	CHECK(lseek(buf, 0, SEEK_END) == 8192 && lseek(buf, 0, SEEK_SET) == 0);
	/* The dma-buf maps as it is, before any import. */
	view = mmap(NULL, 8192, PROT_READ, MAP_SHARED, buf, 0);
	CHECK(view != MAP_FAILED && view[4095] == (uint8_t)(4095 * 7));
	CHECK(!munmap(view, 8192));
	fd = open(RENDER, O_RDWR);
	CHECK(fd >= 0);
	CHECK(!prime(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &h, &buf, 0) && h);
	m.handle = h;
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &m));
	view = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
	CHECK(view != MAP_FAILED);
	for (int i = 0; i < 8192; i++)
		CHECK(view[i] == (uint8_t)(i * 7));
	o.handle = h;
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &o));
	cwrite(fd, o.offset + 4096, 0xfeedf00d);
	CHECK(*(volatile uint32_t *)(view + 4096) == 0xfeedf00d);
	/* Importing it again is the same handle. */
	{
		uint32_t again = 0;

		CHECK(!prime(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &again, &buf, 0) && again == h);
	}
	_exit(0);
}

static int sfd(int fd, unsigned long cmd, uint32_t *h, int *dfd, uint32_t flags)
{
	struct drm_syncobj_handle_arg a = { .handle = *h, .fd = *dfd, .flags = flags };
	int r = ioctl(fd, cmd, &a);

	*h = a.handle;
	*dfd = a.fd;
	return r;
}

/* Syncobj files and sync_files between two files of one process. */
static void role_sync(void)
{
	int fd = open(RENDER, O_RDWR), fd2 = open(RENDER, O_RDWR);
	int so = -1, sf = -1, bad = 12345;
	uint32_t s1, s2 = 0, s3, h;
	struct pollfd p = { .events = POLLIN };
	struct pan_submit_arg sub = { 0 };
	struct cbo jobs;

	CHECK(fd >= 0 && fd2 >= 0);
	s1 = csyncobj(fd, 0);
	CHECK(!sfd(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &s1, &so, 0) && so >= 0);
	CHECK(!sfd(fd2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &s2, &so, 0) && s2);
	cbo_new(fd, 4096, &jobs);
	job_write_value(jobs.cpu, 1, 0, 0, jobs.va + 512, WRITE_VALUE_IMM32, 9);
	sub.jc = jobs.va;
	sub.out_sync = s1;
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &sub));
	CHECK(!cwait(fd2, s2));
	CHECK(*(volatile uint32_t *)(jobs.cpu + 512) == 9);
	h = s1;
	CHECK(!sfd(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h, &sf,
		   DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE) && sf >= 0);
	p.fd = sf;
	CHECK(poll(&p, 1, 5000) == 1 && (p.revents & POLLIN));
	s3 = csyncobj(fd2, 0);
	h = s3;
	CHECK(!sfd(fd2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h, &sf,
		   DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE));
	CHECK(!cwait(fd2, s3));
	/* Wrong kinds and closed descriptors: EINVAL, as drm_syncobj.c. */
	CHECK(sfd(fd2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h, &sf, 0) == -1 && errno == EINVAL);
	CHECK(sfd(fd2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h, &so,
		  DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE) == -1 && errno == EINVAL);
	CHECK(sfd(fd2, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h, &bad, 0) == -1 && errno == EINVAL);
	_exit(0);
}

/* kbase handshake on a fresh mali0. */
static int kb_open_ready(void)
{
	struct kb_version_check v = { 11, 20 };
	struct kb_set_flags fl = { 0 };
	int fd = open("/dev/mali0", O_RDWR | O_CLOEXEC);

	CHECK(fd >= 0);
	CHECK(!ioctl(fd, KB_IOCTL_VERSION_CHECK, &v));
	CHECK(!ioctl(fd, KB_IOCTL_SET_FLAGS, &fl));
	return fd;
}

/* A kbase fence: a trigger's sync_file, waited on by another atom and
 * imported into a DRM syncobj of the render node. */
static void role_kfence(void)
{
	struct { int32_t fd, stream_fd; } trig = { -1, -1 }, wait;
	struct kb_atom_v2 at;
	struct kb_job_submit js = { .addr = (uintptr_t)&at, .nr_atoms = 1,
				    .stride = sizeof(at) };
	struct drm_syncobj_handle_arg im = { 0 };
	struct pollfd p = { .events = POLLIN };
	struct kb_event ev;
	int kb = kb_open_ready(), dri = open(RENDER, O_RDWR);

	CHECK(dri >= 0);
	memset(&at, 0, sizeof(at));
	at.atom_number = 1;
	at.core_req = KB_JD_REQ_SOFT_FENCE_TRIGGER;
	at.jc = (uintptr_t)&trig;
	CHECK(!ioctl(kb, KB_IOCTL_JOB_SUBMIT, &js));
	CHECK(trig.fd >= 0);
	p.fd = kb;
	CHECK(poll(&p, 1, 20000) == 1 && read(kb, &ev, sizeof(ev)) == sizeof(ev));
	CHECK(ev.event_code == KB_EVENT_DONE && ev.atom_number == 1);
	p.fd = trig.fd;
	CHECK(poll(&p, 1, 20000) == 1);
	wait = trig;
	at.atom_number = 2;
	at.core_req = KB_JD_REQ_SOFT_FENCE_WAIT;
	at.jc = (uintptr_t)&wait;
	CHECK(!ioctl(kb, KB_IOCTL_JOB_SUBMIT, &js));
	p.fd = kb;
	CHECK(poll(&p, 1, 20000) == 1 && read(kb, &ev, sizeof(ev)) == sizeof(ev));
	CHECK(ev.event_code == KB_EVENT_DONE && ev.atom_number == 2);
	im.handle = csyncobj(dri, 0);
	im.fd = trig.fd;
	im.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
	CHECK(!ioctl(dri, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &im));
	CHECK(!cwait(dri, im.handle));
	_exit(0);
}

/* A counter reader: mapped, started, sampled around a job, polled. */
static void role_prfcnt(void)
{
	struct kb_kinstr_prfcnt_enum_info e = { 0 };
	struct kb_prfcnt_request_item req[3];
	union kb_kinstr_prfcnt_setup su = { 0 };
	struct kb_prfcnt_control_cmd cmd = { .cmd = KB_PRFCNT_CMD_START };
	struct kb_prfcnt_sample_access sa;
	const struct kb_prfcnt_metadata *md;
	struct pollfd p = { .events = POLLIN };
	int kb = kb_open_ready(), rd;
	uint8_t *buf;

	CHECK(!ioctl(kb, KB_IOCTL_KINSTR_PRFCNT_ENUM_INFO, &e) && e.info_item_count == 8);
	memset(req, 0, sizeof(req));
	req[0].hdr.item_type = KB_PRFCNT_REQUEST_MODE;
	req[1].hdr.item_type = KB_PRFCNT_REQUEST_ENABLE;
	req[1].u.enable.block_type = KB_PRFCNT_BLOCK_FE;
	req[1].u.enable.enable_mask[0] = ~0ull;
	su.in.request_item_count = 3;
	su.in.request_item_size = sizeof(req[0]);
	su.in.requests_ptr = (uintptr_t)req;
	rd = ioctl(kb, KB_IOCTL_KINSTR_PRFCNT_SETUP, &su);
	CHECK(rd >= 0 && (fcntl(rd, F_GETFD) & FD_CLOEXEC));
	buf = mmap(NULL, su.out.prfcnt_mmap_size_bytes, PROT_READ, MAP_SHARED, rd, 0);
	CHECK(buf != MAP_FAILED);
	CHECK(!ioctl(rd, KB_IOCTL_PRFCNT_CMD, &cmd));
	cmd.cmd = KB_PRFCNT_CMD_SAMPLE_SYNC;
	cmd.user_data = 99;
	CHECK(!ioctl(rd, KB_IOCTL_PRFCNT_CMD, &cmd));
	p.fd = rd;
	CHECK(poll(&p, 1, 20000) == 1);
	CHECK(!ioctl(rd, KB_IOCTL_PRFCNT_GET_SAMPLE, &sa) && sa.sequence == 0);
	md = (const void *)(buf + sa.sample_offset_bytes);
	CHECK(md[0].hdr.item_type == KB_PRFCNT_META_SAMPLE && md[0].u.sample.user_data == 99);
	CHECK(md[2].hdr.item_type == KB_PRFCNT_META_BLOCK &&
	      md[2].u.block.block_type == KB_PRFCNT_BLOCK_FE && md[3].hdr.item_type == 0);
	CHECK(poll(&p, 1, 0) == 0); /* fetched: nothing more to read */
	CHECK(!ioctl(rd, KB_IOCTL_PRFCNT_PUT_SAMPLE, &sa));
	CHECK(ioctl(rd, KB_IOCTL_PRFCNT_PUT_SAMPLE, &sa) == -1 && errno == EINVAL);
	cmd.cmd = KB_PRFCNT_CMD_STOP;
	CHECK(!ioctl(rd, KB_IOCTL_PRFCNT_CMD, &cmd));
	CHECK(!munmap(buf, su.out.prfcnt_mmap_size_bytes));
	close(rd);
	_exit(0);
}

/* An atom-state reader: a dependency-only atom is queued and completed. */
static void role_kinstr_jm(void)
{
	union kb_kinstr_jm_fd a = { .in = { .count = 16 } };
	struct kb_atom_v2 at = { .atom_number = 7, .core_req = KB_JD_REQ_DEP };
	struct kb_job_submit js = { .addr = (uintptr_t)&at, .nr_atoms = 1,
				    .stride = sizeof(at) };
	struct pollfd p = { .events = POLLIN };
	uint8_t rec[4][16];
	int kb = kb_open_ready(), rd;

	rd = ioctl(kb, KB_IOCTL_KINSTR_JM_FD, &a);
	CHECK(rd >= 0 && (fcntl(rd, F_GETFD) & FD_CLOEXEC));
	CHECK(a.out.version == 2 && a.out.size == 16);
	p.fd = rd;
	CHECK(poll(&p, 1, 0) == 0);
	CHECK(!ioctl(kb, KB_IOCTL_JOB_SUBMIT, &js));
	CHECK(poll(&p, 1, 20000) == 1);
	/* QUEUE (0) and COMPLETE (3) of atom 7: state at byte 8, atom at 9. */
	CHECK(read(rd, rec, sizeof(rec)) == 32);
	CHECK(rec[0][8] == 0 && rec[0][9] == 7 && rec[1][8] == 3 && rec[1][9] == 7);
	CHECK(poll(&p, 1, 0) == 0);
	close(rd);
	_exit(0);
}

/* The role this process was re-run for, before the harness starts. */
__attribute__((constructor)) static void client_role(void)
{
	const char *role = getenv(ROLE_ENV), *chan = getenv(CHAN_ENV);

	if (!role)
		return;
	if (!strcmp(role, "prime"))
		role_prime();
	else if (!strcmp(role, "sync"))
		role_sync();
	else if (!strcmp(role, "kfence"))
		role_kfence();
	else if (!strcmp(role, "prfcnt"))
		role_prfcnt();
	else if (!strcmp(role, "kinstr_jm"))
		role_kinstr_jm();
	else if (!strcmp(role, "export") && chan)
		role_export(atoi(chan));
	else if (!strcmp(role, "import") && chan)
		role_import(atoi(chan));
	_exit(99);
}

/* ---- the harness side ---- */

FIXTURE(sock)
{
	pid_t server;
	char dir[64], sock[96], lib[4096], self_exe[4096];
};

FIXTURE_SETUP(sock)
{
	char vgpu[4096];
	struct stat st;

	self->server = 0;
	snprintf(self->dir, sizeof(self->dir), "/tmp/vgpu-fdobj-XXXXXX");
	ASSERT_NONNULL(mkdtemp(self->dir));
	snprintf(self->sock, sizeof(self->sock), "%s/sock", self->dir);
	ASSERT_NONNULL(realpath(build_path("vgpu"), vgpu));
	ASSERT_NONNULL(realpath(build_path("libvgpu-preload.so"), self->lib));
	ASSERT_GT(readlink("/proc/self/exe", self->self_exe, sizeof(self->self_exe) - 1), 0);
	self->server = fork();
	ASSERT_GE(self->server, 0);
	if (self->server == 0) {
		int null = open("/dev/null", O_WRONLY);

		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (null >= 0)
			dup2(null, 1);
		execl(vgpu, vgpu, "dev", "--socket", self->sock, "--no-fuse", (char *)NULL);
		_exit(127);
	}
	/* Up once the socket is there (slow sanitizer builds: up to 20 s). */
	for (int i = 0; i < 2000 && stat(self->sock, &st); i++)
		usleep(10000);
	ASSERT_EQ(stat(self->sock, &st), 0);
}

FIXTURE_TEARDOWN(sock)
{
	int status = -1;

	if (self->server > 0) {
		kill(self->server, SIGTERM);
		waitpid(self->server, &status, 0);
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	rmdir(self->dir);
}

/* Re-runs this binary in @role under the library, with @chan (or -1) as
 * its channel; returns its pid. */
static pid_t client_start(struct __test_metadata *_metadata, struct __fixture_sock *self,
			  const char *role, int chan, int other)
{
	pid_t pid = fork();

	if (pid == 0) {
		char c[16];

		snprintf(c, sizeof(c), "%d", chan);
		if (other >= 0)
			close(other);
		setenv("LD_PRELOAD", self->lib, 1);
		setenv("VGPU_SOCKET", self->sock, 1);
		setenv(ROLE_ENV, role, 1);
		setenv(CHAN_ENV, c, 1);
		/* Sanitizer builds: the library is not instrumented. */
		setenv("ASAN_OPTIONS", "verify_asan_link_order=0:detect_leaks=0", 1);
		execl(self->self_exe, self->self_exe, (char *)NULL);
		_exit(127);
	}
	EXPECT_GT(pid, 0);
	return pid;
}

/* "contexts_live" in the server's statistics (a STATS connection). */
static long long server_live(const char *sock_path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct vgpu_sock_msg m = { .op = VGPU_SOCK_STATS };
	long long live = -1;
	char *json;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), got;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    sock_send(fd, &m, NULL, -1) || sock_recv_hdr(fd, &m, &got)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	json = calloc(1, m.len + 1);
	if (json && !sock_recv_payload(fd, json, m.len))
		live = json_num(json, "contexts_live");
	free(json);
	close(fd);
	return live;
}

/* The server releases a client's files and objects when it notices
 * they are gone: wait (up to 10 s) for no context to be left. */
static long long server_wait_idle(const char *sock_path)
{
	long long live = -1;

	for (int i = 0; i < 1000 && (live = server_live(sock_path)) != 0; i++)
		usleep(10000);
	return live;
}

static int client_wait(pid_t pid)
{
	int status;

	if (pid <= 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST_F(sock, prime_export_map_and_import_in_one_client)
{
	EXPECT_EQ(client_wait(client_start(_metadata, self, "prime", -1, -1)), 0);
}

TEST_F(sock, syncobj_fds_and_sync_files)
{
	EXPECT_EQ(client_wait(client_start(_metadata, self, "sync", -1, -1)), 0);
}

TEST_F(sock, kbase_fence_soft_jobs_and_a_drm_import_of_their_sync_file)
{
	EXPECT_EQ(client_wait(client_start(_metadata, self, "kfence", -1, -1)), 0);
}

TEST_F(sock, kinstr_prfcnt_reader_mapped_sampled_and_polled)
{
	EXPECT_EQ(client_wait(client_start(_metadata, self, "prfcnt", -1, -1)), 0);
	/* The reader's own context goes with its last connection. */
	EXPECT_EQ(server_wait_idle(self->sock), 0);
}

TEST_F(sock, kinstr_jm_reader_reads_atom_state_changes)
{
	EXPECT_EQ(client_wait(client_start(_metadata, self, "kinstr_jm", -1, -1)), 0);
	EXPECT_EQ(server_wait_idle(self->sock), 0);
}

TEST_F(sock, dma_buf_passed_to_another_client_outlives_its_exporter)
{
	int sp[2];
	pid_t exp, imp;

	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp), 0);
	/* The channel must survive exec in the clients. */
	fcntl(sp[0], F_SETFD, 0);
	fcntl(sp[1], F_SETFD, 0);
	imp = client_start(_metadata, self, "import", sp[1], sp[0]);
	exp = client_start(_metadata, self, "export", sp[0], sp[1]);
	close(sp[0]);
	close(sp[1]);
	EXPECT_EQ(client_wait(exp), 0);
	EXPECT_EQ(client_wait(imp), 0);
	/* Both gone, with every descriptor of the dma-buf: so is the
	 * exporter's context its pages kept alive. */
	EXPECT_EQ(server_wait_idle(self->sock), 0);
}

TEST_HARNESS_MAIN

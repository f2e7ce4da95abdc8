// SPDX-License-Identifier: MIT
/*
 * A socket client that stops answering must not hold up the others
 * (fuse-dev/socket.c): a user copy over the socket is a round trip to the
 * client. Client A submits a job and never answers the COPY_IN of its
 * atom; client B then opens the device, submits an atom and reads its
 * event while A stays silent. The server gives up on A after its time
 * limit, fails the copy, hangs A up and says so on stderr: an in-process
 * server (its log is ours), and `vgpu dev --client-timeout`. The atoms
 * are copied in before the driver's lock is taken (driver-shim/precopy.c),
 * so B is not even delayed: with no time limit in sight, B is served
 * while A sits on its copy, and A's submission then runs once it answers.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "lib/proc.h"
#include "driver-shim/uapi_kbase.h"
#include "fuse-dev/socket.h"
#include "fuse-dev/socket_io.h"

/* A hang guard only (far beyond the server's limit below): without it a
 * server that never gives up would hang the test instead of failing it. */
#define GUARD_S 20
#define CALL_MS 300

FIXTURE(stall)
{
	struct server srv;
	struct sock_server *ss;
	char path[108];
	int log_fd, saved_err; /* the server's stderr while the test runs */
};

FIXTURE_SETUP(stall)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71 };

	snprintf(self->path, sizeof(self->path), "/tmp/vgpu-stall-%d", (int)getpid());
	self->log_fd = memfd_create("server-log", MFD_CLOEXEC);
	ASSERT_GE(self->log_fd, 0);
	ASSERT_EQ(server_init(&self->srv, &cfg), 0);
	self->ss = sock_server_start(&self->srv, self->path, NULL);
	ASSERT_NONNULL(self->ss);
	sock_server_set_call_ms(self->ss, CALL_MS);
	fflush(stderr);
	self->saved_err = dup(2);
	ASSERT_GE(self->saved_err, 0);
	dup2(self->log_fd, 2);
}

FIXTURE_TEARDOWN(stall)
{
	if (self->saved_err >= 0) {
		fflush(stderr);
		dup2(self->saved_err, 2);
		close(self->saved_err);
	}
	sock_server_stop(self->ss);
	server_fini(&self->srv);
	close(self->log_fd);
}

static int conn(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval guard = { .tv_sec = GUARD_S };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &guard, sizeof(guard))) {
		if (s >= 0)
			close(s);
		return -1;
	}
	return s;
}

/* A kbase file on a new connection, past its handshake: the connection,
 * its eventfd in *@efd; -1 on failure. */
static int kb_open(const char *path, int *efd)
{
	struct vgpu_sock_msg req = { .op = VGPU_SOCK_OPEN, .a = VGPU_SOCK_NODE_KBASE }, rep;
	struct kb_version_check v = { 11, 46 };
	struct kb_set_flags fl = { 0 };
	int s = conn(path);
	long r1 = -1, r2 = -1;

	*efd = -1;
	if (s < 0)
		return -1;
	if (sock_exchange(s, &req, NULL, &rep, NULL, 0, efd, NULL) || rep.ret ||
	    sock_call_ioctl(s, KB_IOCTL_VERSION_CHECK, &v, NULL, &r1) ||
	    sock_call_ioctl(s, KB_IOCTL_SET_FLAGS, &fl, NULL, &r2) || r1 || r2) {
		if (*efd >= 0)
			close(*efd);
		close(s);
		return -1;
	}
	return s;
}

static bool log_says(int fd, const char *what)
{
	char buf[4096];
	ssize_t n;

	fflush(stderr);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return false;
	buf[n] = 0;
	return strstr(buf, what) != NULL;
}

/* A opens a file and submits @js, whose one atom the driver then asks
 * for: A's connection (its eventfd in *@efd), sitting on that COPY_IN. */
static int stalled_submit(struct __test_metadata *_metadata, const char *path,
			  const struct kb_job_submit *js, int *efd)
{
	struct vgpu_sock_msg m = { .op = VGPU_SOCK_IOCTL, .a = KB_IOCTL_JOB_SUBMIT,
				   .len = sizeof(*js) };
	int a = kb_open(path, efd), got;

	ASSERT_GE(a, 0);
	ASSERT_EQ(sock_send(a, &m, js, -1), 0);
	ASSERT_EQ(sock_recv_hdr(a, &m, &got), 0);
	ASSERT_EQ(m.op, (uint32_t)VGPU_SOCK_COPY_IN);
	ASSERT_EQ(m.a, js->addr);
	ASSERT_EQ(m.b, (uint64_t)js->stride);
	return a;
}

/* The next event of the file on @sock (eventfd @efd): atom @nr, done. */
static void event_done(struct __test_metadata *_metadata, int sock, int efd, unsigned nr)
{
	struct pollfd p = { .fd = efd, .events = POLLIN };
	struct kb_event ev = { 0 };
	long ret = -1;

	ASSERT_EQ(poll(&p, 1, GUARD_S * 1000), 1);
	ASSERT_EQ(sock_call_read(sock, &ev, sizeof(ev), true, NULL, &ret), 0);
	ASSERT_EQ(ret, (long)sizeof(ev));
	EXPECT_EQ(ev.event_code, (uint32_t)KB_EVENT_DONE);
	EXPECT_EQ(ev.atom_number, nr);
}

/* B opens a file, submits @js (one atom, @nr) and reads its event: B's
 * connection, its eventfd in *@efd. */
static int served_submit(struct __test_metadata *_metadata, const char *path,
			 const struct kb_job_submit *js, unsigned nr, int *efd)
{
	int b = kb_open(path, efd);
	long ret = -1;

	ASSERT_GE(b, 0);
	ASSERT_EQ(sock_call_ioctl(b, KB_IOCTL_JOB_SUBMIT, (void *)js, NULL, &ret), 0);
	ASSERT_EQ(ret, 0);
	event_done(_metadata, b, *efd, nr);
	return b;
}

/* A silent on a COPY_IN, B served meanwhile, A hung up and the server's
 * log @log_fd saying why, against the server at @path. */
static void silent_client(struct __test_metadata *_metadata, const char *path,
			  int log_fd)
{
	struct kb_atom_v2 atom = { .atom_number = 5, .core_req = KB_JD_REQ_DEP };
	struct kb_job_submit js = { .addr = (uintptr_t)&atom, .nr_atoms = 1,
				    .stride = sizeof(atom) };
	struct vgpu_sock_msg m;
	char line[128];
	int a, a_efd, b, b_efd, got;
	long ret = -1;

	a = stalled_submit(_metadata, path, &js, &a_efd);
	b = served_submit(_metadata, path, &js, 5, &b_efd);

	/* A, still silent, was hung up: no reply, the end of its stream. */
	EXPECT_EQ(sock_recv_hdr(a, &m, &got), -EPIPE);
	snprintf(line, sizeof(line), "socket client pid %d (uid %u): no answer to "
		 "COPY_IN within %u ms: hanging up", (int)getpid(), (unsigned)getuid(),
		 CALL_MS);
	EXPECT_TRUE(log_says(log_fd, line));
	/* B goes on being served. */
	ASSERT_EQ(sock_call_ioctl(b, KB_IOCTL_JOB_SUBMIT, &js, NULL, &ret), 0);
	EXPECT_EQ(ret, 0);
	close(a);
	close(a_efd);
	close(b);
	close(b_efd);
}

TEST_F_TIMEOUT(stall, silent_copy_in_frees_the_others, 3 * GUARD_S)
{
	silent_client(_metadata, self->path, self->log_fd);
}

/* A's COPY_IN (the atoms, before the lock) unanswered and far from its
 * time limit: B opens, submits and reads its event all the same (were the
 * lock held, B's first request would wait out the guard and fail); then A
 * answers and its own atom runs. */
TEST_F_TIMEOUT(stall, a_stalled_copy_in_holds_up_no_other_client, 3 * GUARD_S)
{
	struct kb_atom_v2 atom = { .atom_number = 9, .core_req = KB_JD_REQ_DEP };
	struct kb_job_submit js = { .addr = (uintptr_t)&atom, .nr_atoms = 1,
				    .stride = sizeof(atom) };
	struct vgpu_sock_msg m = { .op = VGPU_SOCK_REPLY, .len = sizeof(atom) };
	int a, a_efd, b, b_efd, got;

	sock_server_set_call_ms(self->ss, 100 * GUARD_S * 1000);
	a = stalled_submit(_metadata, self->path, &js, &a_efd);
	b = served_submit(_metadata, self->path, &js, 9, &b_efd);

	/* A answers at last: its submission goes through, its atom runs. */
	ASSERT_EQ(sock_send(a, &m, &atom, -1), 0);
	ASSERT_EQ(sock_recv_hdr(a, &m, &got), 0);
	EXPECT_EQ(m.op, (uint32_t)VGPU_SOCK_REPLY);
	EXPECT_EQ(m.ret, 0);
	ASSERT_EQ(sock_recv_payload(a, NULL, m.len), 0);
	event_done(_metadata, a, a_efd, 9);
	close(a);
	close(a_efd);
	close(b);
	close(b_efd);
}

/* The same through `vgpu dev --client-timeout`. */
TEST_TIMEOUT(vgpu_dev_client_timeout, 3 * GUARD_S)
{
	char path[100], tree[108], ms[16];
	int log_fd = memfd_create("server-log", 0), status;
	struct stat st;
	pid_t pid;

	if (access(build_path("vgpu"), X_OK))
		SKIP(return, "vgpu binary not built");
	ASSERT_GE(log_fd, 0);
	snprintf(path, sizeof(path), "/tmp/vgpu-stall-cli-%d", (int)getpid());
	snprintf(tree, sizeof(tree), "%s%s", path, VGPU_SOCK_TREE_SUFFIX);
	snprintf(ms, sizeof(ms), "%u", CALL_MS);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (null >= 0)
			dup2(null, 1);
		dup2(log_fd, 2);
		execl(build_path("vgpu"), "vgpu", "dev", "--no-fuse", "--socket", path,
		      "--client-timeout", ms, (char *)NULL);
		_exit(127);
	}
	/* Up when its tree is there, made once the socket listens (the
	 * guard only bounds a failure). */
	for (int i = 0; i < GUARD_S * 100 && stat(tree, &st); i++) {
		ASSERT_EQ(waitpid(pid, &status, WNOHANG), 0);
		usleep(10000);
	}
	silent_client(_metadata, path, log_fd);
	kill(pid, SIGTERM);
	EXPECT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(log_fd);
}

/* The same bound on the sending side: a call-back the client does not
 * read (a COPY_OUT larger than the socket holds) is given up, not waited
 * on forever; so is one it does not answer. */
TEST(send_and_receive_give_up_at_the_deadline)
{
	size_t len = 8u << 20; /* far more than a socket buffers */
	struct vgpu_sock_msg m = { .op = VGPU_SOCK_COPY_OUT, .len = (uint32_t)len };
	void *big = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int sv[2], got;

	ASSERT_TRUE(big != MAP_FAILED);
	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	EXPECT_EQ(sock_send_by(sv[0], &m, big, -1, sock_deadline(CALL_MS)), -ETIMEDOUT);
	EXPECT_EQ(sock_recv_hdr_by(sv[0], &m, &got, sock_deadline(CALL_MS)), -ETIMEDOUT);
	EXPECT_EQ(got, -1);
	close(sv[0]);
	/* What did go is the start of the message: the stream is out of
	 * step now, which is why the server hangs such a client up. */
	ASSERT_EQ(sock_recv_hdr_by(sv[1], &m, &got, sock_deadline(CALL_MS)), 0);
	EXPECT_EQ(m.op, (uint32_t)VGPU_SOCK_COPY_OUT);
	EXPECT_EQ(sock_recv_payload_by(sv[1], NULL, len, sock_deadline(CALL_MS)), -EPIPE);
	close(sv[1]);
	munmap(big, len);
}

TEST_HARNESS_MAIN

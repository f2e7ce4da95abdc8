// SPDX-License-Identifier: MIT
/*
 * The nodes as a render node is, between users: `vgpu dev --group G
 * --mode 0660` lets members of G open them and gives others EACCES; two
 * members (different uids, forked and switched from root) cannot reach
 * each other's GPU memory, neither on the CPU side (/proc/<server>/fd,
 * /proc/<server>/mem, the other client's node file, the other's memfd
 * ticket (which not even a child of the same uid may redeem, and its
 * owner only once), the socket file of the other, a mapping of the
 * other's dma-buf) nor on the GPU side (a job of one
 * running the other's job descriptor); the server is not dumpable, even
 * to its own uid.
 */
#include <dirent.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "harness.h"
#include "node/devnode.h"
#include "node/pan_bo.h"
#include "fuse-dev/socket_io.h"

#define GROUP 4242u /* the nodes' group */
#define UID_A 65534u /* two members */
#define UID_B 65532u
#define UID_OUT 65533u /* not in the group */
#define MARKER 0x5ec2e700u
#define MAX_MEMFDS 64

static const char secret[] = "client A's secret";

/* What client A tells the others about itself. */
struct a_info {
	pid_t pid;
	int nodefd;
	uint64_t a_gpu, a2_gpu;
	struct vgpu_dev_mmap m; /* a prepared, unredeemed mmap of BO a */
	uint64_t token;         /* its socket file's */
	uint64_t buf_token;     /* a dma-buf's it exported there */
};

/* What the test gives the other clients. */
struct scene {
	pid_t server;
	int memfds[MAX_MEMFDS], n_memfds;
	struct a_info a;
	char render[96], mali[96], stats[96], sock[108];
};

/* In a forked child: leaves the test with @code, saying why. */
#define CHECK(cond, code)                                                   \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "# users: check %d failed: %s (errno %d)\n", \
				code, #cond, errno);                        \
			_exit(code);                                        \
		}                                                           \
	} while (0)

/* Drops root for good: @uid (its own gid), in GROUP if @member. */
static void become(uid_t uid, bool member)
{
	gid_t g = GROUP;

	CHECK(!setgroups(member ? 1 : 0, &g), 2);
	CHECK(!setresgid(uid, uid, uid), 3);
	CHECK(!setresuid(uid, uid, uid), 4);
}

static int child_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Runs @fn(@sc) as @uid in a child; its exit status. */
static int run_as(uid_t uid, bool member, void (*fn)(const struct scene *),
		  const struct scene *sc)
{
	pid_t pid = fork();

	if (pid == 0) {
		become(uid, member);
		fn(sc);
		_exit(0);
	}
	return pid < 0 ? -1 : child_status(pid);
}

/* The server under devnode's guardian: the guardian's only child. */
static pid_t server_pid(pid_t guardian)
{
	char path[64], *text;
	size_t len;
	long pid;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", guardian, guardian);
	text = read_file(path, &len);
	pid = text ? strtol(text, NULL, 10) : 0;
	free(text);
	return (pid_t)pid;
}

/* The server's descriptors that are context memfds (seen as root). */
static int find_memfds(pid_t server, int *fds)
{
	char dir[64], path[320], link[256];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", server);
	d = opendir(dir);
	while (d && (e = readdir(d)) && n < MAX_MEMFDS) {
		ssize_t k;

		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		k = readlink(path, link, sizeof(link) - 1);
		if (k > 0) {
			link[k] = 0;
			if (strstr(link, "memfd:vgpu-ctx"))
				fds[n++] = atoi(e->d_name);
		}
	}
	if (d)
		closedir(d);
	return n;
}

/* open(@path) fails with EACCES. */
static bool refused(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	return fd < 0 && errno == EACCES;
}

static bool proc_refused(pid_t pid, const char *what, int flags)
{
	char path[96];

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, what);
	return refused(path, flags);
}

/* Submits chain @jc on @fd listing @bo and waits for it (it may fault). */
static int submit_wait(int fd, uint64_t jc, uint32_t *bos, uint32_t nbos)
{
	struct pan_submit_arg s = { .jc = jc, .bo_handles = (uintptr_t)bos,
				    .bo_handle_count = nbos };
	uint32_t sync = syncobj_new(fd, 0);

	s.out_sync = sync;
	if (!sync || ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &s))
		return -1;
	return syncobj_wait(fd, &sync, 1, 0, 10000000000ll);
}

static int sock_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (s >= 0 && connect(s, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = errno;

		close(s);
		errno = e;
		return -1;
	}
	return s;
}

/* A first message (OPEN or ATTACH) on a new connection: the reply's ret,
 * its a in *@a; the connection in *@s. */
static int64_t sock_first(const char *path, uint32_t op, uint64_t arg, int *s,
			  uint64_t *a)
{
	struct vgpu_sock_msg req = { .op = op, .a = arg }, rep = { 0 };
	int got = -1;

	*s = sock_connect(path);
	if (*s < 0 || sock_exchange(*s, &req, NULL, &rep, NULL, 0, &got, NULL))
		return -EPIPE;
	if (got >= 0)
		close(got);
	*a = rep.a;
	return rep.ret;
}

/* An FD_INSTALL's descriptor kept (the object lives while it is open)
 * and its token noted; the program's number for it is its own. */
static uint64_t installed_token;

static int keep_fd(int sock, const struct vgpu_sock_msg *m, int *fd)
{
	struct vgpu_sock_msg r = { .op = VGPU_SOCK_REPLY, .ret = *fd };

	if (m->op != VGPU_SOCK_FD_INSTALL || *fd < 0)
		r.ret = -EPROTO;
	else
		installed_token = m->a;
	*fd = -1;
	return sock_send(sock, &r, NULL, -1);
}

/* MMAP_PREPARE of @len bytes at 0 on connection @s: the reply's ret; the
 * memfd sent with it, if any, closed. */
static int64_t sock_prepare(int s, uint64_t len)
{
	struct vgpu_sock_msg req = { .op = VGPU_SOCK_MMAP_PREPARE, .b = len,
				     .c = PROT_READ }, rep = { 0 };
	int memfd = -1;

	if (sock_exchange(s, &req, NULL, &rep, NULL, 0, &memfd, NULL))
		return -EPIPE;
	if (memfd >= 0)
		close(memfd);
	return memfd >= 0 || rep.ret < 0 ? rep.ret : -EPROTO;
}

/* A dma-buf of a new BO on socket connection @s: its token, or 0. */
static uint64_t sock_export(int s)
{
	struct pan_create_bo_arg cb = { .size = 4096 };
	struct drm_prime_handle_arg ph = { .flags = O_CLOEXEC };
	long r = -1;

	installed_token = 0;
	if (sock_call_ioctl(s, DRM_IOCTL_PANFROST_CREATE_BO, &cb, NULL, &r) || r)
		return 0;
	ph.handle = cb.handle;
	if (sock_call_ioctl(s, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph, keep_fd, &r) || r)
		return 0;
	return installed_token;
}

/*
 * Client A: a file with BO a (a secret in it) and BO a2 (a job that
 * writes MARKER into a), an mmap of a prepared but not redeemed, a
 * socket file; tells @info_fd, then waits on @go_fd for the others to be
 * done and checks that nothing of its own was touched or lost.
 */
static void client_a(const char *render, const char *sock, int info_fd, int go_fd)
{
	struct pan_mmap_bo_arg mm = { 0 };
	struct a_info in = { .pid = getpid() };
	struct bo a, a2;
	uint32_t bos[2];
	uint64_t unused;
	int fd, s, s2, mfd;
	char go;

	fd = open(render, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, 5);
	CHECK(!bo_new(fd, 8192, 0, &a) && !bo_new(fd, 8192, 0, &a2), 6);
	memcpy(a.cpu, secret, sizeof(secret));
	job_write_value(a2.cpu, 1, 0, 0, a.gpu + 4096, WRITE_VALUE_IMM32, MARKER);
	mm.handle = a.handle;
	CHECK(!ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &mm), 7);
	in.m.pgoff = mm.offset >> 12;
	in.m.length = 8192;
	in.m.prot = PROT_READ | PROT_WRITE;
	CHECK(!ioctl(fd, VGPU_DEV_IOC_MMAP_PREPARE, &in.m) && in.m.ticket, 8);
	CHECK(sock_first(sock, VGPU_SOCK_OPEN, VGPU_SOCK_NODE_PANFROST, &s,
			 &in.token) == 0, 9);
	in.buf_token = sock_export(s);
	CHECK(in.buf_token, 37);
	in.nodefd = fd;
	in.a_gpu = a.gpu;
	in.a2_gpu = a2.gpu;
	CHECK(write(info_fd, &in, sizeof(in)) == sizeof(in), 10);
	CHECK(read(go_fd, &go, 1) == 1, 11);
	/* The other ran A's job descriptor in vain, and left A's memory. */
	CHECK(*(volatile uint32_t *)(a.cpu + 4096) == 0, 12);
	CHECK(job_status(a2.cpu) == 0, 13);
	CHECK(!memcmp(a.cpu, secret, sizeof(secret)), 14);
	/* Nor may another process of A's uid (a child) redeem it. */
	{
		pid_t kid = fork();

		if (kid == 0)
			_exit(vgpu_dev_claim(&in.m) < 0 && errno == EACCES ? 0 : 1);
		CHECK(kid > 0 && child_status(kid) == 0, 19);
	}
	/* The ticket B and the child could not redeem is still good for A,
	 * once. */
	mfd = vgpu_dev_claim(&in.m);
	CHECK(mfd >= 0, 15);
	close(mfd);
	CHECK(vgpu_dev_claim(&in.m) < 0 && errno == EACCES, 36);
	/* A's own job runs: the descriptor B was given was a valid one. */
	bos[0] = a.handle;
	bos[1] = a2.handle;
	CHECK(!submit_wait(fd, a2.gpu, bos, 2), 16);
	CHECK(*(volatile uint32_t *)(a.cpu + 4096) == MARKER, 17);
	/* A may join its own socket file from another connection, and map
	 * its own dma-buf. */
	CHECK(sock_first(sock, VGPU_SOCK_ATTACH, in.token, &s2, &unused) == 0, 18);
	close(s2);
	CHECK(sock_first(sock, VGPU_SOCK_ATTACH, in.buf_token, &s2, &unused) == 0, 38);
	CHECK(sock_prepare(s2, 4096) == 0, 39);
	close(s2);
	close(s);
	_exit(0);
}

/* Client B, another member: every way to A's memory is shut, and the
 * node works for B itself. */
static void client_b(const struct scene *sc)
{
	uint64_t unused;
	uint32_t handle;
	struct bo b;
	int fd, s;

	for (int i = 0; i < sc->n_memfds; i++) {
		char what[32];

		snprintf(what, sizeof(what), "fd/%d", sc->memfds[i]);
		CHECK(proc_refused(sc->server, what, O_RDWR), 20);
		CHECK(proc_refused(sc->server, what, O_RDONLY), 21);
	}
	CHECK(proc_refused(sc->server, "mem", O_RDONLY), 22);
	CHECK(proc_refused(sc->server, "fd", O_RDONLY | O_DIRECTORY), 23);
	{
		char what[32];

		snprintf(what, sizeof(what), "fd/%d", sc->a.nodefd);
		CHECK(proc_refused(sc->a.pid, what, O_RDWR), 24);
	}
	CHECK(proc_refused(sc->a.pid, "mem", O_RDONLY), 25);
	/* A's mmap ticket, leaked to B, is not B's to redeem. */
	CHECK(vgpu_dev_claim(&sc->a.m) < 0 && errno == EACCES, 26);
	/* Nor is A's socket file B's to join. */
	CHECK(sock_first(sc->sock, VGPU_SOCK_ATTACH, sc->a.token, &s, &unused) ==
	      -EACCES, 27);
	close(s);
	/* A dma-buf's token, like its descriptor, lets B import it, but not
	 * map it: the memfd that would come is A's whole context. */
	CHECK(sock_first(sc->sock, VGPU_SOCK_ATTACH, sc->a.buf_token, &s, &unused) ==
	      0, 48);
	CHECK(sock_prepare(s, 4096) == -EACCES, 49);
	close(s);
	/* B's own file: the same GPU address as A's BO, B's own memory. */
	fd = open(sc->render, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, 28);
	CHECK(!bo_new(fd, 8192, 0, &b), 29);
	CHECK(b.gpu == sc->a.a_gpu, 30);
	for (size_t i = 0; i < b.size; i++)
		CHECK(b.cpu[i] == 0, 31);
	/* A's job descriptor, at an address B has no memory at. */
	handle = b.handle;
	CHECK(!submit_wait(fd, sc->a.a2_gpu, &handle, 1), 32);
	CHECK(*(volatile uint32_t *)(b.cpu + 4096) == 0, 33);
	/* B's own job writes B's memory. */
	job_write_value(b.cpu, 1, 0, 0, b.gpu + 4096, WRITE_VALUE_IMM32, 0x77);
	CHECK(!submit_wait(fd, b.gpu, &handle, 1), 34);
	CHECK(*(volatile uint32_t *)(b.cpu + 4096) == 0x77, 35);
	_exit(0);
}

/* Not a member: no node, no statistics, no socket, no memfd. */
static void client_outsider(const struct scene *sc)
{
	int s;

	CHECK(refused(sc->render, O_RDWR), 40);
	CHECK(refused(sc->mali, O_RDWR), 41);
	CHECK(refused(sc->stats, O_RDONLY), 42);
	s = sock_connect(sc->sock);
	CHECK(s < 0 && errno == EACCES, 43);
	for (int i = 0; i < sc->n_memfds; i++) {
		char what[32];

		snprintf(what, sizeof(what), "fd/%d", sc->memfds[i]);
		CHECK(proc_refused(sc->server, what, O_RDONLY), 44);
	}
	_exit(0);
}

/* A member: the node, the statistics and a job of its own. */
static void client_member(const struct scene *sc)
{
	struct bo b;
	uint32_t h;
	int fd;

	fd = open(sc->render, O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0, 50);
	CHECK(!bo_new(fd, 8192, 0, &b), 51);
	job_write_value(b.cpu, 1, 0, 0, b.gpu + 4096, WRITE_VALUE_IMM32, 9);
	h = b.handle;
	CHECK(!submit_wait(fd, b.gpu, &h, 1), 52);
	CHECK(*(volatile uint32_t *)(b.cpu + 4096) == 9, 53);
	CHECK(access(sc->stats, R_OK) == 0, 54);
	_exit(0);
}

FIXTURE(users)
{
	struct devnode d;
	const char *skip;
	char sockdir[64];
	struct scene sc;
};

FIXTURE_SETUP(users)
{
	const char *extra[] = { "--group", "4242", "--mode", "0660", "--socket",
				self->sc.sock, NULL };

	self->skip = devnode_unavailable();
	if (self->skip)
		return;
	/* A socket its clients of other uids can reach (mkdtemp: 0700). */
	snprintf(self->sockdir, sizeof(self->sockdir), "/tmp/vgpu-users-XXXXXX");
	ASSERT_TRUE(mkdtemp(self->sockdir) != NULL);
	ASSERT_EQ(chmod(self->sockdir, 0755), 0);
	snprintf(self->sc.sock, sizeof(self->sc.sock), "%s/s", self->sockdir);
	ASSERT_EQ(devnode_start(&self->d, extra), 0);
	self->sc.server = server_pid(self->d.pid);
	ASSERT_GT(self->sc.server, 0);
	snprintf(self->sc.render, sizeof(self->sc.render), "%s", self->d.render);
	snprintf(self->sc.mali, sizeof(self->sc.mali), "%s", self->d.mali);
	snprintf(self->sc.stats, sizeof(self->sc.stats), "%s", self->d.stats);
	for (int i = 0; i < 500 && access(self->sc.sock, F_OK); i++)
		usleep(10000);
}

FIXTURE_TEARDOWN(users)
{
	if (self->skip)
		return;
	EXPECT_EQ(devnode_stop(&self->d), 0);
	rmdir(self->sockdir);
}

TEST_F(users, nodes_are_root_group_0660)
{
	struct stat st;

	NEED_DEV();
	ASSERT_EQ(stat(self->sc.render, &st), 0);
	EXPECT_EQ(st.st_mode & 07777, 0660u);
	EXPECT_EQ(st.st_gid, GROUP);
	EXPECT_EQ(st.st_uid, 0u);
	ASSERT_EQ(stat(self->sc.mali, &st), 0);
	EXPECT_EQ(st.st_mode & 07777, 0660u);
	ASSERT_EQ(stat(self->sc.stats, &st), 0);
	EXPECT_EQ(st.st_mode & 07777, 0440u);
	ASSERT_EQ(stat(self->sc.sock, &st), 0);
	EXPECT_EQ(st.st_mode & 0777, 0660u);
	EXPECT_EQ(st.st_gid, GROUP);
}

TEST_F(users, outsider_gets_eacces_member_uses_the_node)
{
	NEED_DEV();
	EXPECT_EQ(run_as(UID_OUT, false, client_outsider, &self->sc), 0);
	/* The control: a member opens the same node and uses it. */
	EXPECT_EQ(run_as(UID_B, true, client_member, &self->sc), 0);
}

TEST_F_TIMEOUT(users, two_members_cannot_reach_each_others_memory, 120)
{
	int info[2], go[2];
	pid_t a;

	NEED_DEV();
	ASSERT_EQ(pipe2(info, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(go, O_CLOEXEC), 0);
	a = fork();
	ASSERT_GE(a, 0);
	if (a == 0) {
		become(UID_A, true);
		client_a(self->sc.render, self->sc.sock, info[1], go[0]);
	}
	close(info[1]);
	close(go[0]);
	ASSERT_EQ(read(info[0], &self->sc.a, sizeof(self->sc.a)),
		  (ssize_t)sizeof(self->sc.a));
	/* The test is about real memfds: A's context has one. */
	self->sc.n_memfds = find_memfds(self->sc.server, self->sc.memfds);
	EXPECT_GE(self->sc.n_memfds, 1);
	EXPECT_EQ(run_as(UID_B, true, client_b, &self->sc), 0);
	EXPECT_EQ(run_as(UID_OUT, false, client_outsider, &self->sc), 0);
	ASSERT_EQ(write(go[1], "g", 1), 1);
	EXPECT_EQ(child_status(a), 0);
	close(info[0]);
	close(go[1]);
}

/* The server's memfds once they number @want, or after 20 s: it closes
 * a redeemed ticket's copy just after handing it over, and a released
 * file's after close() has returned. */
static int memfds_settle(pid_t server, int want)
{
	int fds[MAX_MEMFDS], n = -1;

	for (int i = 0; i < 2000 && (n = find_memfds(server, fds)) != want; i++)
		usleep(10000);
	return n;
}

/* Unredeemed tickets pin copies of the memfd in the server: a few per
 * file at most, and none once the file is released. */
TEST_F(users, unredeemed_tickets_are_bounded_and_released)
{
	int fds[MAX_MEMFDS], fd;
	struct bo b;

	NEED_DEV();
	fd = open(self->sc.render, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(bo_new(fd, 4096, 0, &b), 0);
	/* bo_new redeemed its ticket: the context's own memfd only. */
	EXPECT_EQ(memfds_settle(self->sc.server, 1), 1);
	for (int i = 0; i < 40; i++) {
		struct pan_mmap_bo_arg mm = { .handle = b.handle };
		struct vgpu_dev_mmap m = { .length = 4096, .prot = PROT_READ };

		ASSERT_EQ(ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &mm), 0);
		m.pgoff = mm.offset >> 12;
		ASSERT_EQ(ioctl(fd, VGPU_DEV_IOC_MMAP_PREPARE, &m), 0);
		ASSERT_NE(m.ticket, 0u);
	}
	/* The context's memfd and 16 tickets' copies. */
	EXPECT_EQ(find_memfds(self->sc.server, fds), 17);
	munmap(b.cpu, b.size);
	close(fd);
	EXPECT_EQ(memfds_settle(self->sc.server, 0), 0);
}

/* A process of the server's own uid: /proc/<server>/fd and mem are shut
 * to it too, where a dumpable process of that uid is open to it. */
static void same_uid_peer(const struct scene *sc)
{
	CHECK(proc_refused(sc->server, "fd", O_RDONLY | O_DIRECTORY), 60);
	CHECK(proc_refused(sc->server, "mem", O_RDONLY), 61);
	/* sc->a.pid: the control, a dumpable process of the same uid. */
	{
		char path[64];
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/fd", sc->a.pid);
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		CHECK(fd >= 0, 62);
		close(fd);
	}
	_exit(0);
}

/* Execs @argv as @uid (dumpable again after exec), its output to null,
 * or its errors to @err_fd if >= 0. */
static pid_t spawn_as(uid_t uid, char *const *argv, int err_fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		become(uid, false);
		if (null >= 0) {
			dup2(null, 1);
			dup2(err_fd >= 0 ? err_fd : null, 2);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

TEST(server_is_not_dumpable_to_its_own_uid)
{
	char dir[64] = "/tmp/vgpu-users-XXXXXX", sock[96];
	char *server_argv[] = { (char *)build_path("vgpu"), "dev", "--socket", sock,
				"--no-fuse", NULL };
	char *sleep_argv[] = { "/bin/sleep", "60", NULL };
	struct scene sc = { 0 };
	pid_t server, sleeper;

	if (geteuid() != 0)
		SKIP(return, "switching to another uid needs root");
	if (access(build_path("vgpu"), X_OK))
		SKIP(return, "vgpu binary not built");
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	ASSERT_EQ(chown(dir, UID_A, UID_A), 0);
	snprintf(sock, sizeof(sock), "%s/s", dir);
	server = spawn_as(UID_A, server_argv, -1);
	sleeper = spawn_as(UID_A, sleep_argv, -1);
	ASSERT_GT(server, 0);
	ASSERT_GT(sleeper, 0);
	for (int i = 0; i < 2000 && access(sock, F_OK); i++)
		usleep(10000);
	EXPECT_EQ(access(sock, F_OK), 0);
	sc.server = server;
	sc.a.pid = sleeper;
	EXPECT_EQ(run_as(UID_A, false, same_uid_peer, &sc), 0);
	kill(server, SIGTERM);
	kill(sleeper, SIGKILL);
	EXPECT_EQ(child_status(server), 0);
	child_status(sleeper);
	rm_tree(dir);
}

/* Whether /etc/fuse.conf lets users other than root use allow_other. */
static bool fuse_conf_allows_other(void)
{
	size_t len;
	char *text = read_file("/etc/fuse.conf", &len), *line;
	bool yes = false;

	for (line = text; line; line = strchr(line, '\n')) {
		line += *line == '\n';
		while (*line == ' ' || *line == '\t')
			line++;
		yes |= !strncmp(line, "user_allow_other", 16);
	}
	free(text);
	return yes;
}

/* A server of another user than root: without user_allow_other it
 * says that only its user can open the nodes. (The mount point does not
 * exist, so it stops there.) */
TEST(user_server_without_user_allow_other_says_so)
{
	char *argv[] = { (char *)build_path("vgpu"), "dev", "--mount",
			 "/nonexistent/vgpu", NULL };
	char *err;
	size_t len;
	FILE *f;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "switching to another uid needs root");
	if (access(build_path("vgpu"), X_OK))
		SKIP(return, "vgpu binary not built");
	if (fuse_conf_allows_other())
		SKIP(return, "/etc/fuse.conf has user_allow_other");
	f = tmpfile();
	ASSERT_NONNULL(f);
	pid = spawn_as(UID_A, argv, fileno(f));
	ASSERT_GT(pid, 0);
	EXPECT_EQ(child_status(pid), 1);
	len = (size_t)ftell(f);
	err = calloc(1, len + 1);
	ASSERT_NONNULL(err);
	rewind(f);
	EXPECT_EQ(fread(err, 1, len, f), len);
	EXPECT_NONNULL(strstr(err, "no user_allow_other: only uid 65534 can open"));
	free(err);
	fclose(f);
}

/* Refused before anything is served, saying which option. */
TEST(bad_mode_or_group_is_refused)
{
	static const char *const bad[][3] = {
		{ "--mode", "999", "--mode" }, { "--mode", "x", "--mode" },
		{ "--mode", "01777", "--mode" }, { "--mode", "", "--mode" },
		{ "--group", "vgpu-no-such-group", "no group 'vgpu-no-such-group'" },
		{ "--group", "-5", "--group" },
	};

	if (access(build_path("vgpu"), X_OK))
		SKIP(return, "vgpu binary not built");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[] = { bad[i][0], bad[i][1], "--mount",
				       "/nonexistent/vgpu", NULL };
		struct proc_result r = devnode_run(args, NULL);

		EXPECT_EQ(r.status, 1);
		EXPECT_NONNULL(strstr(r.err, bad[i][2]));
		proc_result_free(&r);
	}
}

/* Without --group the nodes' group is render; where there is no such
 * group the server says so and uses its own. (The socket cannot be
 * made, so the server stops right after choosing.) */
TEST(default_group_is_render_or_said)
{
	const char *args[] = { "--no-fuse", "--socket", "/nonexistent/vgpu/s",
			       "--mode", "0660", NULL };
	struct proc_result r;

	if (access(build_path("vgpu"), X_OK))
		SKIP(return, "vgpu binary not built");
	r = devnode_run(args, NULL);
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.err, "--socket /nonexistent/vgpu/s"));
	if (getgrnam("render"))
		EXPECT_NULL(strstr(r.err, "no group 'render'"));
	else
		EXPECT_NONNULL(strstr(r.err, "no group 'render'"));
	proc_result_free(&r);
}

TEST(default_nodes_are_render_group_0660)
{
	struct group *g = getgrnam("render");
	struct devnode d = { 0 };
	const char *skip = devnode_unavailable();
	struct stat st;

	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(devnode_start(&d, NULL), 0);
	EXPECT_EQ(stat(d.render, &st), 0);
	EXPECT_EQ(st.st_mode & 07777, 0660u);
	EXPECT_EQ(st.st_uid, getuid());
	EXPECT_EQ(st.st_gid, g ? g->gr_gid : getgid());
	EXPECT_EQ(devnode_stop(&d), 0);
}

TEST(help_names_mode_and_group)
{
	char *argv[] = { (char *)build_path("vgpu"), "help", "dev", NULL };
	struct proc_result r;

	if (access(build_path("vgpu"), X_OK))
		SKIP(return, "vgpu binary not built");
	memset(&r, 0, sizeof(r));
	ASSERT_EQ(proc_run(argv, NULL, NULL, NULL, 0, 30, &r), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "--mode MODE"));
	EXPECT_NONNULL(strstr(r.out, "--group NAME"));
	EXPECT_NONNULL(strstr(r.out, "user_allow_other"));
	proc_result_free(&r);
}

TEST_HARNESS_MAIN

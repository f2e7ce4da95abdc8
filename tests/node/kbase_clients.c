// SPDX-License-Identifier: MIT
/*
 * kbase clients as a shared device sees them: the event stream's end and
 * non-blocking reads, two clients that cannot reach each other's memory,
 * clients killed mid-job or at random moments, a runaway job stopped while
 * others complete, many clients and more contexts than address spaces, a
 * server restarted over a stale mount, and what the trace and statistics
 * record of them.
 */
#include <signal.h>
#include <sys/vfs.h>
#include <sys/wait.h>

#include "node/kbase_fix.h"

TEST_F(kb, post_term_ends_the_event_stream)
{
	struct kb_event ev;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(ioctl(self->fd, KB_IOCTL_POST_TERM), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DRV_TERMINATED);
}

TEST_F(kb, nonblocking_read_without_events)
{
	struct kb_event ev;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(fcntl(self->fd, F_SETFL, O_NONBLOCK), 0);
	EXPECT_EQ(read(self->fd, &ev, sizeof(ev)), -1);
	EXPECT_EQ(errno, EAGAIN);
}

TEST_F(kb, two_clients_cannot_reach_each_others_memory)
{
	struct kb_atom_v2 atom;
	struct kb_event ev;
	uint8_t *a, *b;
	int fd2;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	fd2 = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	ASSERT_GE(fd2, 0);
	a = kb_alloc(self->fd, 2, 0);
	b = kb_alloc(fd2, 2, 0);
	ASSERT_NONNULL(a);
	ASSERT_NONNULL(b);
	*(volatile uint32_t *)(a + 4096) = 7;
	/* Client B's job aims at client A's GPU address. */
	job_write_value(b, 1, 0, 0, (uintptr_t)(a + 4096), WRITE_VALUE_IMM32, 666);
	atom = hw_atom(1, (uintptr_t)b);
	ASSERT_EQ(kb_submit(fd2, &atom, 1), 0);
	ASSERT_EQ(kb_event(fd2, &ev), 0);
	EXPECT_EQ(ev.event_code & 0xf8, 0xc0u);
	EXPECT_EQ(*(volatile uint32_t *)(a + 4096), 7u);
	/* And A still works. */
	job_write_value(a, 1, 0, 0, (uintptr_t)(a + 4096), WRITE_VALUE_IMM32, 8);
	atom = hw_atom(1, (uintptr_t)a);
	ASSERT_EQ(kb_submit(self->fd, &atom, 1), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	EXPECT_EQ(*(volatile uint32_t *)(a + 4096), 8u);
	close(fd2);
}

TEST_F(kb, client_killed_mid_job_is_reclaimed)
{
	int ready[2];
	pid_t child;
	char c, *st;
	long long live = -1;

	NEED_DEV();
	ASSERT_EQ(pipe(ready), 0);
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		struct kb_atom_v2 atom;
		uint8_t *mem;
		int fd = kb_open(&self->d);

		mem = fd >= 0 ? kb_alloc(fd, 2, 0) : NULL;
		if (!mem)
			_exit(1);
		/* Never signalled: the atom stays in flight; then block in
		 * read() so the server holds a request of ours too. */
		memset(&atom, 0, sizeof(atom));
		atom.atom_number = 1;
		atom.core_req = KB_JD_REQ_SOFT_EVENT_WAIT;
		atom.jc = (uintptr_t)(mem + 64);
		if (kb_submit(fd, &atom, 1))
			_exit(1);
		write(ready[1], "x", 1);
		read(fd, &atom, sizeof(struct kb_event));
		_exit(0);
	}
	close(ready[1]);
	ASSERT_EQ(read(ready[0], &c, 1), 1);
	usleep(100000);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	/* The context and its pages go away once the server notices. */
	live = devnode_wait_live(&self->d, 0, 20000);
	EXPECT_EQ(live, 0);
	st = devnode_stats(&self->d);
	EXPECT_EQ(json_num(st, "gpu_pages_mapped"), 0);
	EXPECT_EQ(json_num(st, "releases"), json_num(st, "opens"));
	free(st);
	/* The server still serves. */
	self->fd = kb_open(&self->d);
	EXPECT_GE(self->fd, 0);
}

TEST_F(kb, runaway_job_is_stopped_while_others_complete)
{
	const char *const args[] = { "--job-timeout", "200", NULL };
	struct kb_atom_v2 atom;
	struct kb_event ev;
	struct devnode d2;
	uint8_t *a, *b;
	int fd2;
	char *st;

	NEED_DEV();
	ASSERT_EQ(devnode_start(&d2, args), 0);
	self->fd = kb_open(&d2);
	fd2 = kb_open(&d2);
	ASSERT_GE(self->fd, 0);
	ASSERT_GE(fd2, 0);
	a = kb_alloc(self->fd, 1, 0);
	b = kb_alloc(fd2, 2, 0);
	ASSERT_NONNULL(a);
	ASSERT_NONNULL(b);
	/* A NULL job whose next pointer is itself never ends. */
	job_write(a, JOB_TYPE_NULL, 1, 0, (uintptr_t)a);
	atom = hw_atom(1, (uintptr_t)a);
	ASSERT_EQ(kb_submit(self->fd, &atom, 1), 0);
	/* Another client's job on the other slot completes meanwhile. */
	job_write_value(b, 1, 0, 0, (uintptr_t)(b + 4096), WRITE_VALUE_IMM32, 99);
	atom = hw_atom(1, (uintptr_t)b);
	atom.core_req = KB_JD_REQ_FS;
	ASSERT_EQ(kb_submit(fd2, &atom, 1), 0);
	ASSERT_EQ(kb_event(fd2, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	EXPECT_EQ(*(volatile uint32_t *)(b + 4096), 99u);
	/* The runaway one is soft-stopped, resumed, hard-stopped: it ends
	 * TERMINATED. */
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.atom_number, 1);
	EXPECT_EQ(ev.event_code, KB_EVENT_TERMINATED);
	/* Both contexts keep working. */
	job_write_value(a, 1, 0, 0, (uintptr_t)(a + 2048), WRITE_VALUE_IMM32, 5);
	atom = hw_atom(2, (uintptr_t)a);
	ASSERT_EQ(kb_submit(self->fd, &atom, 1), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	EXPECT_EQ(*(volatile uint32_t *)(a + 2048), 5u);
	st = devnode_stats(&d2);
	EXPECT_GE(json_num(st, "jobs_failed"), 1);
	free(st);
	close(fd2);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(devnode_stop(&d2), 0);
}

TEST_F(kb, trace_file_has_ioctls_and_jobs)
{
	char path[] = "/tmp/vgpu-trace-XXXXXX";
	const char *args[] = { "--trace", path, NULL };
	struct kb_atom_v2 atom;
	struct kb_event ev;
	struct devnode d2;
	uint8_t *mem;
	char *text;
	size_t len;
	int tfd;

	NEED_DEV();
	tfd = mkstemp(path);
	ASSERT_GE(tfd, 0);
	close(tfd);
	ASSERT_EQ(devnode_start(&d2, args), 0);
	self->fd = kb_open(&d2);
	ASSERT_GE(self->fd, 0);
	mem = kb_alloc(self->fd, 2, 0);
	ASSERT_NONNULL(mem);
	job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 4096), WRITE_VALUE_IMM32, 3);
	atom = hw_atom(1, (uintptr_t)mem);
	ASSERT_EQ(kb_submit(self->fd, &atom, 1), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(devnode_stop(&d2), 0);
	text = read_file(path, &len);
	unlink(path);
	ASSERT_NONNULL(text);
	EXPECT_EQ(strncmp(text, "{\"displayTimeUnit\"", 18), 0);
	EXPECT_NONNULL(strstr(text, "\"name\": \"JOB_SUBMIT\", \"cat\": \"ioctl\""));
	EXPECT_NONNULL(strstr(text, "\"name\": \"job slot 1\", \"cat\": \"job\""));
	EXPECT_NONNULL(strstr(text, "\"name\": \"read\""));
	EXPECT_NONNULL(strstr(text, "\n]}\n"));
	free(text);
}

TEST_F(kb, malformed_chain_fails_with_a_job_fault)
{
	struct kb_atom_v2 atom;
	struct kb_event ev;
	uint8_t *mem;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	mem = kb_alloc(self->fd, 1, 0);
	ASSERT_NONNULL(mem);
	/* Job type 15 does not exist. */
	job_write(mem, 15, 1, 0, 0);
	atom = hw_atom(1, (uintptr_t)mem);
	ASSERT_EQ(kb_submit(self->fd, &atom, 1), 0);
	ASSERT_EQ(kb_event(self->fd, &ev), 0);
	EXPECT_NE(ev.event_code, KB_EVENT_DONE);
	EXPECT_GE(ev.event_code, 0x40u); /* a job exception, not a success */
}

TEST_F_TIMEOUT(kb, many_clients_many_jobs_at_once, 120)
{
	enum { CLIENTS = 4, JOBS = 40 };
	pid_t pids[CLIENTS];
	int status, ok = 0;

	NEED_DEV();
	for (int c = 0; c < CLIENTS; c++) {
		pids[c] = fork();
		ASSERT_GE(pids[c], 0);
		if (pids[c] == 0) {
			int fd = kb_open(&self->d);
			uint8_t *mem = fd >= 0 ? kb_alloc(fd, 4, 0) : NULL;

			if (!mem)
				_exit(1);
			for (int j = 0; j < JOBS; j++) {
				struct kb_atom_v2 atom;
				struct kb_event ev;
				uint32_t want = (uint32_t)(c << 16 | j);

				job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 8192),
						WRITE_VALUE_IMM32, want);
				atom = hw_atom((uint8_t)(1 + j % 200), (uintptr_t)mem);
				if (kb_submit(fd, &atom, 1) || kb_event(fd, &ev) ||
				    ev.event_code != KB_EVENT_DONE ||
				    *(volatile uint32_t *)(mem + 8192) != want)
					_exit(2);
			}
			_exit(0);
		}
	}
	for (int c = 0; c < CLIENTS; c++) {
		ASSERT_EQ(waitpid(pids[c], &status, 0), pids[c]);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			ok++;
		else
			TH_LOG("client %d: status 0x%x", c, status);
	}
	EXPECT_EQ(ok, CLIENTS);
}

TEST_F(kb, more_contexts_than_address_spaces)
{
	enum { N = 12 };
	int fds[N];
	uint8_t *mem[N];

	NEED_DEV();
	for (int i = 0; i < N; i++) {
		fds[i] = kb_open(&self->d);
		ASSERT_GE(fds[i], 0);
		mem[i] = kb_alloc(fds[i], 2, 0);
		ASSERT_NONNULL(mem[i]);
	}
	/* Two rounds: the second reuses spaces taken from idle contexts. */
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < N; i++) {
			struct kb_atom_v2 atom;
			struct kb_event ev;

			job_write_value(mem[i], 1, 0, 0, (uintptr_t)(mem[i] + 4096),
					WRITE_VALUE_IMM32, (uint32_t)(round * 100 + i));
			atom = hw_atom(1, (uintptr_t)mem[i]);
			ASSERT_EQ(kb_submit(fds[i], &atom, 1), 0);
			ASSERT_EQ(kb_event(fds[i], &ev), 0);
			EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
		}
		for (int i = 0; i < N; i++)
			EXPECT_EQ(*(volatile uint32_t *)(mem[i] + 4096),
				  (uint32_t)(round * 100 + i));
	}
	for (int i = 0; i < N; i++)
		close(fds[i]);
}

/* Starts `vgpu dev` on @dir directly (no guardian); waits until a live
 * FUSE server answers there (statfs always reaches the server; a dead
 * server's mount answers ENOTCONN, a plain directory another magic). */
static pid_t raw_server(const char *dir)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execl(build_path("vgpu"), "vgpu", "dev", "--mount", dir, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; pid > 0 && i < 2000; i++) {
		struct statfs sfs;

		if (!statfs(dir, &sfs) && sfs.f_type == 0x65735546 /* FUSE */)
			break;
		usleep(10000);
	}
	return pid;
}

TEST_F(kb, restart_after_kill_clears_stale_mount)
{
	char dir[] = "/tmp/vgpu-stale-XXXXXX", node[64];
	struct statfs sfs;
	int status = -1;
	pid_t pid;

	NEED_DEV();
	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(node, sizeof(node), "%s/mali0", dir);
	pid = raw_server(dir);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(access(node, F_OK), 0);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* A dead server's mount (over io_uring, ECANCELED and then
	 * ECONNABORTED while the kernel tears the dead rings down). */
	EXPECT_EQ(statfs(dir, &sfs), -1);
	EXPECT_TRUE(errno == ENOTCONN || errno == ECONNABORTED || errno == ECANCELED);
	pid = raw_server(dir);
	ASSERT_GT(pid, 0);
	EXPECT_EQ(access(node, F_OK), 0);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	EXPECT_EQ(status, 0);
	EXPECT_FALSE(devnode_mounted(dir));
	if (devnode_mounted(dir))
		umount2(dir, MNT_DETACH);
	rmdir(dir);
}

/* A client that keeps the server busy in every way it can until killed. */
static void busy_client(const struct devnode *d, unsigned seed)
{
	int fd = kb_open(d);
	uint8_t *mem = fd >= 0 ? kb_alloc(fd, 4, 0) : NULL;

	if (!mem)
		_exit(1);
	for (unsigned i = 0;; i++) {
		struct kb_atom_v2 atom;
		struct kb_event ev;

		job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 8192), WRITE_VALUE_IMM32, i);
		atom = hw_atom((uint8_t)(1 + i % 250), (uintptr_t)mem);
		if ((i + seed) % 3 == 0) {
			/* A wait that only the kill ends. */
			atom.core_req = KB_JD_REQ_SOFT_EVENT_WAIT;
			atom.jc = (uintptr_t)(mem + 12288);
		}
		kb_submit(fd, &atom, 1);
		if ((i + seed) % 3 == 0)
			read(fd, &ev, sizeof(ev));
		else
			kb_event(fd, &ev);
	}
}

TEST_F_TIMEOUT(kb, clients_killed_at_random_moments, 120)
{
	enum { ROUNDS = 24 };
	long long live;

	NEED_DEV();
	srand(1234);
	for (int r = 0; r < ROUNDS; r++) {
		pid_t pid = fork();

		ASSERT_GE(pid, 0);
		if (pid == 0)
			busy_client(&self->d, (unsigned)r);
		usleep((useconds_t)(rand() % 20000));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	live = devnode_wait_live(&self->d, 0, 20000);
	EXPECT_EQ(live, 0);
	/* Still serving. */
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	{
		uint8_t *mem = kb_alloc(self->fd, 2, 0);
		struct kb_atom_v2 atom;
		struct kb_event ev;

		ASSERT_NONNULL(mem);
		job_write_value(mem, 1, 0, 0, (uintptr_t)(mem + 4096), WRITE_VALUE_IMM32, 77);
		atom = hw_atom(1, (uintptr_t)mem);
		ASSERT_EQ(kb_submit(self->fd, &atom, 1), 0);
		ASSERT_EQ(kb_event(self->fd, &ev), 0);
		EXPECT_EQ(ev.event_code, KB_EVENT_DONE);
	}
}

TEST_F(kb, stats_count_ioctls)
{
	struct kb_get_gpuprops g = { 0 };
	char *st;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	ASSERT_GT(ioctl(self->fd, KB_IOCTL_GET_GPUPROPS, &g), 0);
	st = devnode_stats(&self->d);
	ASSERT_NONNULL(st);
	EXPECT_NONNULL(strstr(st, "\"ioctl\": \"GET_GPUPROPS\""));
	EXPECT_NONNULL(strstr(st, "\"ioctl\": \"VERSION_CHECK\", \"nr\": 0, \"count\": 1"));
	/* Per context too (the handshake itself precedes the context). */
	EXPECT_NONNULL(strstr(st, "\"requests\": [{\"name\": \"SET_FLAGS\", \"count\": 1, "
				  "\"errors\": 0"));
	EXPECT_NONNULL(strstr(st, "{\"name\": \"GET_GPUPROPS\", \"count\": 1, \"errors\": 0"));
	EXPECT_EQ(json_num(st, "contexts_live"), 1);
	EXPECT_GT(json_num(st, "reg_reads"), 0);
	free(st);
}

TEST_F(kb, vgpu_stats_renders_tables)
{
	char *argv[] = { (char *)build_path("vgpu"), "stats", self->d.dir, NULL };
	struct kb_get_gpuprops g = { 0 };
	struct proc_result r;

	NEED_DEV();
	self->fd = kb_open(&self->d);
	ASSERT_GE(self->fd, 0);
	ASSERT_GT(ioctl(self->fd, KB_IOCTL_GET_GPUPROPS, &g), 0);
	ASSERT_EQ(proc_run(argv, NULL, NULL, NULL, 0, 30, &r), 0);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "GPU: Mali-G71"));
	EXPECT_NONNULL(strstr(r.out, "GET_GPUPROPS"));
	EXPECT_NONNULL(strstr(r.out, "kbase"));
	EXPECT_NONNULL(strstr(r.out, "GET_GPUPROPS x1"));
	proc_result_free(&r);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: MIT
/*
 * libvgpu-preload.so and `vgpu dev --socket`: the device view libdrm and
 * Mesa need and a GPU job without Mesa (x86-64 natively, aarch64 under
 * qemu-aarch64), then unmodified Debian arm64 Mesa under qemu-aarch64
 * (the oracle CPU, so nothing here depends on our translator): clinfo
 * lists the device, GLES 3.1 compute matches its C references, and so
 * do rusticl kernels (an SGEMM with local tiles, integer built-ins;
 * checked on the GPU, see lib/cl_stats.h). Each Mesa test first insists on the virtual Mali
 * ("Mali-G71 (Panfrost)"), never llvmpipe or another device. Tests that
 * need the sysroot or qemu-aarch64 skip without them.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "driver-shim/uapi_kbase.h"
#include "fuse-dev/socket_io.h"
#include "lib/cl_stats.h"
#include "lib/proc.h"

#define MESA_TIMEOUT 300

FIXTURE(pre)
{
	pid_t server;
	char dir[64], sock[96], tree[96], log[96], dump[128], cap[96];
	char lib[4096], lib64[4096], vgpu[4096];
	char sysroot[4096]; /* qemu's, when not the base sysroot */
};

/* @rel under the build directory as an absolute path (programs run with
 * the test's scratch directory as their working directory). */
static char *build_abs(const char *rel)
{
	static char bufs[4][4096];
	static int next;
	char *b = bufs[next++ % 4];
	const char *p = build_path(rel);

	if (p[0] == '/' || !getcwd(b, 2048))
		snprintf(b, 4096, "%s", p);
	else
		snprintf(b + strlen(b), 4096 - strlen(b), "/%s", p);
	return b;
}

/* `vgpu dev --socket` in its own process group (a harness timeout kills
 * ours with SIGKILL), stopped with SIGTERM if this test dies, so its
 * socket and tree never outlive the test. */
FIXTURE_SETUP(pre)
{
	int pipefd[2];
	char line[256];
	ssize_t n;

	snprintf(self->dir, sizeof(self->dir), "/tmp/vgpu-pre-XXXXXX");
	ASSERT_NONNULL(mkdtemp(self->dir));
	snprintf(self->sock, sizeof(self->sock), "%s/sock", self->dir);
	snprintf(self->tree, sizeof(self->tree), "%s/sock.d", self->dir);
	snprintf(self->log, sizeof(self->log), "%s/server.log", self->dir);
	snprintf(self->dump, sizeof(self->dump), "%s/pandecode.dump.0000", self->dir);
	snprintf(self->cap, sizeof(self->cap), "%s/capture", self->dir);
	snprintf(self->vgpu, sizeof(self->vgpu), "%s", build_abs("vgpu"));
	snprintf(self->lib, sizeof(self->lib), "%s", build_abs("libvgpu-preload.so"));
	snprintf(self->lib64, sizeof(self->lib64), "%s",
		 build_abs("aarch64/libvgpu-preload.so"));
	ASSERT_EQ(pipe(pipefd), 0);
	self->server = fork();
	ASSERT_GE(self->server, 0);
	if (self->server == 0) {
		int log = open(self->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(pipefd[1], 1);
		if (log >= 0)
			dup2(log, 2);
		close(pipefd[0]);
		/* --debug: the log names a failed job and its fault. */
		execl(self->vgpu, self->vgpu, "dev", "--socket", self->sock, "--no-fuse",
		      "--debug", "--capture", self->cap, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	/* Its first line says it listens. */
	n = read(pipefd[0], line, sizeof(line) - 1);
	close(pipefd[0]);
	ASSERT_GT(n, 0);
}

FIXTURE_TEARDOWN(pre)
{
	struct stat st;
	int status = -1;

	if (self->server > 0) {
		kill(self->server, SIGTERM);
		waitpid(self->server, &status, 0);
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	/* The server removes what it made. */
	EXPECT_NE(lstat(self->sock, &st), 0);
	EXPECT_NE(lstat(self->tree, &st), 0);
	unlink(self->log);
	unlink(self->dump);
	rm_tree(self->cap);
	rmdir(self->dir);
}

/* The server's statistics JSON (caller frees), through the socket. */
static char *server_stats(const char *sock)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct vgpu_sock_msg m = { .op = VGPU_SOCK_STATS };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), got = -1;
	char *text = NULL;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    sock_send(fd, &m, NULL, -1) || sock_recv_hdr(fd, &m, &got) ||
	    !(text = calloc(1, m.len + 1)) || sock_recv_payload(fd, text, m.len)) {
		free(text);
		text = NULL;
	}
	if (got >= 0)
		close(got);
	if (fd >= 0)
		close(fd);
	return text;
}

static long long stat_num(const char *json, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = json ? strstr(json, pat) : NULL;
	return p ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

/* The server's statistics once it has released every file its clients
 * opened: a client's exit closes its connections, and the server's
 * threads see that and release the files a moment later. */
static char *server_stats_settled(const char *sock)
{
	char *st = NULL;

	for (int i = 0; i < 500; i++) {
		free(st);
		st = server_stats(sock);
		if (st && stat_num(st, "opens") == stat_num(st, "releases"))
			break;
		usleep(10000);
	}
	return st;
}

/* Why Mesa cannot be run here, or NULL. */
static const char *mesa_unavailable(void)
{
	struct proc_result r;
	char *argv[] = { "qemu-aarch64", "-version", NULL };
	bool ok;

	if (!sysroot_path())
		return "no arm64 sysroot (make sysroot)";
	ok = !proc_run(argv, NULL, NULL, NULL, 0, 30, &r) && r.status == 0;
	proc_result_free(&r);
	return ok ? NULL : "no qemu-aarch64 (Debian package qemu-user)";
}

/* Prints what a failed run said, and the server's log (job faults). */
static void show_run(const char *log_path, const struct proc_result *r)
{
	size_t len;
	char *log = read_file(log_path, &len);

	TH_LOG("status %d, stdout:\n%s\nstderr:\n%s\nserver log:\n%s", r->status,
	       r->out, r->err, log ? log : "(none)");
	free(log);
}

/* `vgpu preload --socket S [--qemu] -- argv...` */
static int run_preloaded_env(struct __fixture_pre *self, bool qemu, char *const *cmd,
			     char *const *env, struct proc_result *r)
{
	char *argv[16];
	int n = 0;

	argv[n++] = self->vgpu;
	argv[n++] = "preload";
	argv[n++] = "--socket";
	argv[n++] = self->sock;
	if (qemu) {
		argv[n++] = "--qemu";
		argv[n++] = "--sysroot";
		argv[n++] = self->sysroot[0] ? self->sysroot : (char *)sysroot_path();
	}
	argv[n++] = "--";
	for (int i = 0; cmd[i] && n < 15; i++)
		argv[n++] = cmd[i];
	argv[n] = NULL;
	return proc_run(argv, env, self->dir, NULL, 0, MESA_TIMEOUT, r);
}

static int run_preloaded(struct __fixture_pre *self, bool qemu, char *const *cmd,
			 struct proc_result *r)
{
	return run_preloaded_env(self, qemu, cmd, NULL, r);
}

/*
 * A failed GPU program again with Mesa's command-stream trace: the
 * decoded job descriptors and the disassembled shader clauses of every
 * submission, beside the server's log, which names the job that failed
 * and the address and kind of its fault.
 */
static void show_failed_jobs(struct __fixture_pre *self, char *const *cmd)
{
	char *env[] = { "PAN_MESA_DEBUG=trace,sync", NULL };
	struct proc_result r;
	size_t len;
	char *log, *dump;

	if (run_preloaded_env(self, true, cmd, env, &r))
		return;
	proc_result_free(&r);
	log = read_file(self->log, &len);
	dump = read_file(self->dump, &len);
	TH_LOG("server log (failed jobs and their faults):\n%s", log ? log : "(none)");
	TH_LOG("Mesa's trace of the submissions (jobs, shader clauses):\n%s",
	       dump ? dump : "(none)");
	free(log);
	free(dump);
}

/* One GLES compute program: the virtual Mali first, then its results. */
static void gles_case(struct __test_metadata *_metadata, struct __fixture_pre *self,
		      const char *prog)
{
	char *cmd[] = { build_abs(prog), NULL };
	const char *skip = mesa_unavailable();
	struct proc_result r;
	char *st;

	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(run_preloaded(self, true, cmd, &r), 0);
	if (r.status)
		show_run(self->log, &r);
	/* The virtual Mali, never llvmpipe: checked before any result. */
	ASSERT_NONNULL(strstr(r.out, "renderer: Mali-G71 (Panfrost)\n"));
	st = server_stats(self->sock);
	if (r.status || stat_num(st, "jobs_failed"))
		show_failed_jobs(self, cmd);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "PASS: "));
	proc_result_free(&r);
	ASSERT_NONNULL(st);
	EXPECT_GE(stat_num(st, "jobs_done"), 1);
	EXPECT_EQ(stat_num(st, "jobs_failed"), 0);
	EXPECT_EQ(stat_num(st, "mmu_faults"), 0);
	free(st);
}

/* The x86-64 program @prog with the library, pointed at socket @sock. */
static int run_native(struct __fixture_pre *self, const char *prog,
		      const char *sock, struct proc_result *r)
{
	char env_preload[4200], env_sock[200];
	char *env[] = { env_preload, env_sock, NULL };
	char *argv[] = { build_abs(prog), NULL };

	snprintf(env_preload, sizeof(env_preload), "LD_PRELOAD=%s", self->lib);
	snprintf(env_sock, sizeof(env_sock), "VGPU_SOCKET=%s", sock);
	return proc_run(argv, env, NULL, NULL, 0, 60, r);
}

TEST_F_TIMEOUT(pre, device_view_and_job_native, 120)
{
	struct proc_result r;
	char *st;

	ASSERT_EQ(run_native(self, "gpu-progs/devview", self->sock, &r), 0);
	if (r.status)
		show_run(self->log, &r);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "devview: all checks passed"));
	proc_result_free(&r);
	/* The same driver and statistics as the FUSE nodes: the job is
	 * counted, and every file the client opened was released. */
	st = server_stats_settled(self->sock);
	ASSERT_NONNULL(st);
	/* devview opens renderD128 twice and mali0 once, and runs two
	 * jobs on the first and one on the second. */
	EXPECT_EQ(stat_num(st, "jobs_done"), 3);
	EXPECT_EQ(stat_num(st, "jobs_failed"), 0);
	EXPECT_EQ(stat_num(st, "opens"), 3);
	EXPECT_EQ(stat_num(st, "opens"), stat_num(st, "releases"));
	EXPECT_NONNULL(strstr(st, "\"PANFROST_SUBMIT\""));
	EXPECT_NONNULL(strstr(st, "\"JOB_SUBMIT\""));
	free(st);
}

TEST_F_TIMEOUT(pre, no_server_no_node, 60)
{
	char nobody[128];
	struct proc_result r;

	snprintf(nobody, sizeof(nobody), "%s/nobody", self->dir);
	ASSERT_EQ(run_native(self, "gpu-progs/devview", nobody, &r), 0);
	EXPECT_NE(r.status, 0);
	EXPECT_NULL(strstr(r.out, "all checks passed"));
	proc_result_free(&r);
}

/* Bad pointers in ioctls and read(), on both UAPIs: EFAULT, and the
 * program and its files live on (x86-64, then aarch64 under qemu). */
TEST_F_TIMEOUT(pre, bad_pointers_are_efault_not_crashes, MESA_TIMEOUT)
{
	char *cmd[] = { build_abs("aarch64/gpu-progs/efault"), NULL };
	const char *skip;
	struct proc_result r;
	char *st;

	ASSERT_EQ(run_native(self, "gpu-progs/efault", self->sock, &r), 0);
	if (r.status)
		show_run(self->log, &r);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "efault: all checks passed"));
	proc_result_free(&r);
	st = server_stats_settled(self->sock);
	ASSERT_NONNULL(st);
	EXPECT_EQ(stat_num(st, "jobs_done"), 1);
	EXPECT_EQ(stat_num(st, "opens"), stat_num(st, "releases"));
	free(st);
	skip = mesa_unavailable();
	if (skip)
		SKIP(return, "aarch64 half: %s", skip);
	ASSERT_EQ(run_preloaded(self, true, cmd, &r), 0);
	if (r.status)
		show_run(self->log, &r);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "efault: all checks passed"));
	proc_result_free(&r);
}

TEST_F_TIMEOUT(pre, device_view_and_job_aarch64, MESA_TIMEOUT)
{
	char *cmd[] = { build_abs("aarch64/gpu-progs/devview"), NULL };
	const char *skip = mesa_unavailable();
	struct proc_result r;

	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(run_preloaded(self, true, cmd, &r), 0);
	if (r.status)
		show_run(self->log, &r);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "devview: all checks passed"));
	proc_result_free(&r);
}

/* Through `vgpu preload`'s own private server this time: it starts one,
 * saves its statistics and leaves nothing behind in $TMPDIR. */
TEST_F_TIMEOUT(pre, clinfo_lists_mali_g71, MESA_TIMEOUT)
{
	char clinfo[4200], tmp[128], env_tmp[160], stats[128];
	char *env[] = { env_tmp, NULL };
	char *argv[] = { self->vgpu, "preload", "--qemu", "--sysroot", (char *)sysroot_path(),
			 "--stats", stats, "--", clinfo, "-l", NULL };
	const char *skip = mesa_unavailable();
	struct proc_result r;
	size_t len;
	char *st;

	if (skip)
		SKIP(return, "%s", skip);
	snprintf(clinfo, sizeof(clinfo), "%s/usr/bin/clinfo", sysroot_path());
	snprintf(tmp, sizeof(tmp), "%s/tmp", self->dir);
	snprintf(env_tmp, sizeof(env_tmp), "TMPDIR=%s", tmp);
	snprintf(stats, sizeof(stats), "%s/stats.json", self->dir);
	ASSERT_EQ(mkdir(tmp, 0755), 0);
	argv[4] = (char *)sysroot_path();
	ASSERT_EQ(proc_run(argv, env, self->dir, NULL, 0, MESA_TIMEOUT, &r), 0);
	if (r.status || !strstr(r.out, "Mali-G71 (Panfrost)"))
		show_run(self->log, &r);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "Device #0: Mali-G71 (Panfrost)"));
	proc_result_free(&r);
	/* Its server's directory (socket, tree) is gone: tmp is empty. */
	EXPECT_EQ(rmdir(tmp), 0);
	st = read_file(stats, &len);
	ASSERT_NONNULL(st);
	unlink(stats);
	/* Mesa asked for the driver's name and the GPU's parameters. */
	EXPECT_NONNULL(strstr(st, "\"ioctl\": \"VERSION\""));
	EXPECT_NONNULL(strstr(st, "\"ioctl\": \"PANFROST_GET_PARAM\""));
	EXPECT_EQ(stat_num(st, "opens"), stat_num(st, "releases"));
	free(st);
}

TEST_F_TIMEOUT(pre, gles31_vector_add, MESA_TIMEOUT)
{
	gles_case(_metadata, self, "aarch64/gpu-progs/gles_vadd");
}

TEST_F_TIMEOUT(pre, gles31_shared_memory_reduction, MESA_TIMEOUT)
{
	gles_case(_metadata, self, "aarch64/gpu-progs/gles_reduce");
}

TEST_F_TIMEOUT(pre, gles31_atomics_histogram, MESA_TIMEOUT)
{
	gles_case(_metadata, self, "aarch64/gpu-progs/gles_histogram");
}

TEST_F_TIMEOUT(pre, gles31_sgemm_shared_tiles, MESA_TIMEOUT)
{
	gles_case(_metadata, self, "aarch64/gpu-progs/gles_sgemm");
}

/*
 * The server captured the program's submission (--capture); `vgpu replay`
 * runs it again on a fresh model and finds memory identical, and finds
 * the difference once a captured result is changed.
 */
TEST_F_TIMEOUT(pre, capture_of_vector_add_replays_exactly, MESA_TIMEOUT)
{
	char *cmd[] = { build_abs("aarch64/gpu-progs/gles_vadd"), NULL };
	char *replay[] = { self->vgpu, "replay", self->cap, NULL };
	const char *skip = mesa_unavailable();
	char out[256], events[160];
	struct proc_result r;
	size_t len;
	char *ev;
	int fd;

	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(run_preloaded(self, true, cmd, &r), 0);
	ASSERT_NONNULL(strstr(r.out, "renderer: Mali-G71 (Panfrost)\n"));
	ASSERT_EQ(r.status, 0);
	proc_result_free(&r);
	snprintf(events, sizeof(events), "%s/events", self->cap);
	ev = read_file(events, &len);
	ASSERT_NONNULL(ev);
	EXPECT_NONNULL(strstr(ev, "submit 0 0 "));
	EXPECT_NONNULL(strstr(ev, "done 0 0\n"));
	free(ev);
	ASSERT_EQ(proc_run(replay, NULL, NULL, NULL, 0, MESA_TIMEOUT, &r), 0);
	if (r.status)
		show_run(self->log, &r);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "1 submissions, 1 identical, 0 differ"));
	proc_result_free(&r);
	/* Change one byte of every BO's captured result: replay must say
	 * so, with the offset. */
	snprintf(out, sizeof(out), "%s/0/bos", self->cap);
	ev = read_file(out, &len);
	ASSERT_NONNULL(ev);
	for (char *line = ev; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		unsigned long long va;

		if (sscanf(line, "%*u %llx", &va) != 1)
			continue;
		snprintf(out, sizeof(out), "%s/0/%016llx.out", self->cap, va);
		fd = open(out, O_WRONLY);
		if (fd >= 0) {
			EXPECT_EQ(pwrite(fd, "\x5a", 1, 8), 1);
			close(fd);
		}
	}
	free(ev);
	ASSERT_EQ(proc_run(replay, NULL, NULL, NULL, 0, MESA_TIMEOUT, &r), 0);
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.out, "bytes differ, first at +0x8"));
	EXPECT_NONNULL(strstr(r.out, "1 differ"));
	proc_result_free(&r);
}

/*
 * A native kbase client's JOB_SUBMIT (devview's WRITE_VALUE on mali0,
 * besides its panfrost jobs) is captured with its atoms and regions, and
 * replays to the same bytes; a captured result changed by one byte is
 * reported as a difference at that offset.
 */
TEST_F_TIMEOUT(pre, kbase_capture_replays_exactly, 120)
{
	char *replay[] = { self->vgpu, "replay", self->cap, NULL };
	char path[256], *ev, *line;
	unsigned file, n = ~0u;
	unsigned long long va = 0, pages, commit, flags;
	struct proc_result r;
	size_t len;
	int fd;

	ASSERT_EQ(run_native(self, "gpu-progs/devview", self->sock, &r), 0);
	ASSERT_EQ(r.status, 0);
	proc_result_free(&r);
	snprintf(path, sizeof(path), "%s/events", self->cap);
	ev = read_file(path, &len);
	ASSERT_NONNULL(ev);
	for (line = ev; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		sscanf(line, "kalloc %u %llx %llu %llu %llx", &file, &va, &pages, &commit, &flags);
		sscanf(line, "ksubmit %u %u", &file, &n);
	}
	EXPECT_NONNULL(strstr(ev, "kdone "));
	free(ev);
	ASSERT_NE(n, ~0u);
	ASSERT_NE(va, 0u);
	snprintf(path, sizeof(path), "%s/%u/atoms", self->cap, n);
	ev = read_file(path, &len);
	ASSERT_NONNULL(ev);
	EXPECT_EQ(len, sizeof(struct kb_atom_v2));
	free(ev);
	ASSERT_EQ(proc_run(replay, NULL, NULL, NULL, 0, 120, &r), 0);
	if (r.status)
		show_run(self->log, &r);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "3 submissions, 3 identical, 0 differ; 0 BOs at other"));
	proc_result_free(&r);
	/* The job's word (0xcafef00d at +2048) altered in the capture. */
	snprintf(path, sizeof(path), "%s/%u/%016llx.out", self->cap, n, va);
	fd = open(path, O_WRONLY);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(pwrite(fd, "\x5a", 1, 2049), 1);
	close(fd);
	ASSERT_EQ(proc_run(replay, NULL, NULL, NULL, 0, 120, &r), 0);
	EXPECT_EQ(r.status, 1);
	snprintf(path, sizeof(path), "submission %u: BO 0x%llx: 1 bytes differ, first at +0x801",
		 n, va);
	EXPECT_NONNULL(strstr(r.out, path));
	EXPECT_NONNULL(strstr(r.out, "1 differ"));
	proc_result_free(&r);
}

/* The Mali-G52 (Bifrost v7) model too, through a private g52 server. */
TEST_F_TIMEOUT(pre, gles31_vector_add_on_g52, MESA_TIMEOUT)
{
	char tmp[128], env_tmp[160];
	char *env[] = { env_tmp, "VGPU_EXPECT_RENDERER=Mali-G52 (Panfrost)", NULL };
	char *argv[] = { self->vgpu, "preload", "--gpu", "g52", "--qemu", "--sysroot",
			 (char *)sysroot_path(), "--", build_abs("aarch64/gpu-progs/gles_vadd"),
			 NULL };
	const char *skip = mesa_unavailable();
	struct proc_result r;

	if (skip)
		SKIP(return, "%s", skip);
	argv[6] = (char *)sysroot_path();
	snprintf(tmp, sizeof(tmp), "%s/tmp", self->dir);
	snprintf(env_tmp, sizeof(env_tmp), "TMPDIR=%s", tmp);
	ASSERT_EQ(mkdir(tmp, 0755), 0);
	ASSERT_EQ(proc_run(argv, env, self->dir, NULL, 0, MESA_TIMEOUT, &r), 0);
	if (r.status)
		show_run(self->log, &r);
	ASSERT_NONNULL(strstr(r.out, "renderer: Mali-G52 (Panfrost)\n"));
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "PASS: "));
	proc_result_free(&r);
	EXPECT_EQ(rmdir(tmp), 0);
}

/*
 * Mesa 22.3.6's limit for rusticl: its Bifrost compiler cannot load
 * kernel arguments (nir load_kernel_input), says so, and rusticl then
 * crashes, before anything reaches the GPU. Newer Mesa has no such limit;
 * Debian 12 has none with rusticl (bookworm-backports' Mesa 25 is built
 * without it). True when run @r ended exactly there.
 */
static bool mesa_cannot_load_kernel_args(const struct proc_result *r, const char *st)
{
	return r->status && strstr(r->err, "Unhandled intrinsic load_kernel_input") &&
	       strstr(r->out, "CRASH: ") && stat_num(st, "jobs_done") == 0 &&
	       stat_num(st, "jobs_failed") == 0;
}

/* cl_vadd: buffers as kernel arguments, every element checked against
 * C. On the base sysroot, Mesa 22.3's limit above is a skip. */
static void rusticl_vadd_case(struct __test_metadata *_metadata, struct __fixture_pre *self)
{
	char *cmd[] = { build_abs("aarch64/gpu-progs/cl_vadd"), NULL };
	const char *skip = mesa_unavailable();
	struct proc_result r;
	char *st;

	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(run_preloaded(self, true, cmd, &r), 0);
	ASSERT_NONNULL(strstr(r.out, "device: Mali-G71 (Panfrost)\n"));
	st = server_stats(self->sock);
	ASSERT_NONNULL(st);
	if (!self->sysroot[0] && mesa_cannot_load_kernel_args(&r, st)) {
		free(st);
		proc_result_free(&r);
		SKIP(return, "Mesa 22.3's Bifrost compiler cannot compile kernels that "
			     "take arguments (unhandled load_kernel_input; no job submitted)");
	}
	if (r.status || stat_num(st, "jobs_failed"))
		show_run(self->log, &r);
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, "PASS: vector add"));
	EXPECT_EQ(stat_num(st, "jobs_failed"), 0);
	EXPECT_GT(stat_num(st, "jobs_done"), 0);
	free(st);
	proc_result_free(&r);
}

TEST_F_TIMEOUT(pre, rusticl_vector_add, MESA_TIMEOUT)
{
	rusticl_vadd_case(_metadata, self);
}

/* The same on Debian 13's Mesa 25 (the trixie sysroot), whose Bifrost
 * compiler loads kernel arguments: there the vector add must run. */
TEST_F_TIMEOUT(pre, rusticl_vector_add_trixie, MESA_TIMEOUT)
{
	const char *trixie = sysroot_variant_path("trixie");

	if (!trixie)
		SKIP(return, "no Debian 13 sysroot (make sysroot-trixie)");
	snprintf(self->sysroot, sizeof(self->sysroot), "%s", trixie);
	rusticl_vadd_case(_metadata, self);
}

/*
 * A self-checking rusticl program (see lib/cl_stats.h): an argument-free
 * kernel, which Mesa 22.3 compiles, that compares its results with the C
 * reference on the GPU and faults the job on a wrong one. The statistics
 * judge it; with @wrong, one reference is wrong and the job must fault at
 * that result's address (the server's log says where).
 */
static void cl_selfcheck_case(struct __test_metadata *_metadata, struct __fixture_pre *self,
			      const struct cl_selfcheck *p, bool wrong)
{
	char *cmd[] = { build_abs(p->prog), NULL };
	char env_wrong[64], want[64];
	char *env[] = { env_wrong, NULL };
	const char *skip = mesa_unavailable(), *why, *at, *acc;
	struct proc_result r;
	size_t len;
	char *st, *log;

	if (skip)
		SKIP(return, "%s", skip);
	snprintf(env_wrong, sizeof(env_wrong), "VGPU_CL_WRONG=%s", wrong ? p->wrong : "");
	ASSERT_EQ(run_preloaded_env(self, true, cmd, env, &r), 0);
	if (!strstr(r.out, "device: Mali-G71 (Panfrost)\n") || r.status)
		show_run(self->log, &r);
	/* The virtual Mali, and a kernel that built and ran. */
	ASSERT_NONNULL(strstr(r.out, "device: Mali-G71 (Panfrost)\n"));
	EXPECT_EQ(r.status, 0);
	EXPECT_NONNULL(strstr(r.out, p->ran));
	st = server_stats(self->sock);
	ASSERT_NONNULL(st);
	why = wrong ? cl_fault_problem(st) : cl_run_problem(st, p);
	if (why) {
		TH_LOG("%s", why);
		if (!wrong)
			show_failed_jobs(self, cmd);
	}
	EXPECT_NULL(why);
	if (wrong) {
		/* The fault log's line: "... at VA 0x%016llx: EXC (code), write access". */
		snprintf(want, sizeof(want), " at VA 0x%016llx: ",
			 strtoull(p->fault, NULL, 16));
		log = read_file(self->log, &len);
		ASSERT_NONNULL(log);
		at = strstr(log, want);
		acc = at ? strstr(at, " write access,") : NULL;
		if (!acc || acc > strchr(at, '\n'))
			TH_LOG("server log:\n%s", log);
		EXPECT_TRUE(acc && acc < strchr(at, '\n'));
		free(log);
	}
	free(st);
	proc_result_free(&r);
}

static const struct cl_selfcheck cl_sgemm = CL_SGEMM, cl_intops = CL_INTOPS;

/* SGEMM with __local tiles and barriers (tests/gpu-progs/cl_sgemm.c). */
TEST_F_TIMEOUT(pre, rusticl_sgemm_local_tiles, MESA_TIMEOUT)
{
	cl_selfcheck_case(_metadata, self, &cl_sgemm, false);
}

TEST_F_TIMEOUT(pre, rusticl_sgemm_wrong_reference_faults, MESA_TIMEOUT)
{
	cl_selfcheck_case(_metadata, self, &cl_sgemm, true);
}

/* Integer built-ins and a __local reduction (tests/gpu-progs/cl_intops.c). */
TEST_F_TIMEOUT(pre, rusticl_integer_builtins, MESA_TIMEOUT)
{
	cl_selfcheck_case(_metadata, self, &cl_intops, false);
}

TEST_F_TIMEOUT(pre, rusticl_integer_builtins_wrong_reference_faults, MESA_TIMEOUT)
{
	cl_selfcheck_case(_metadata, self, &cl_intops, true);
}


/* Runs `vgpu replay` on self->dir holding @events (@len bytes; or on
 * @target when set): it must exit 1 saying @say. */
static void replay_refuses(struct __test_metadata *_metadata, struct __fixture_pre *self,
			   const void *events, size_t len, const char *target, const char *say)
{
	char *replay[] = { self->vgpu, "replay", (char *)(target ? target : self->dir), NULL };
	char path[160];
	struct proc_result r;
	FILE *f;

	snprintf(path, sizeof(path), "%s/events", self->dir);
	f = fopen(path, "w");
	ASSERT_NONNULL(f);
	ASSERT_EQ(fwrite(events, 1, len, f), len);
	ASSERT_EQ(fclose(f), 0);
	ASSERT_EQ(proc_run(replay, NULL, NULL, NULL, 0, MESA_TIMEOUT, &r), 0);
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.err, say));
	if (!strstr(r.err, say))
		TH_LOG("stderr: %s", r.err);
	proc_result_free(&r);
	unlink(path);
}

/* Malformed captures fail naming the file and line, before anything runs:
 * random bytes, a truncated record, an unknown one, a record with a
 * field too few; a plain file is not a capture directory. */
TEST_F(pre, replay_refuses_malformed_captures)
{
	static const char trunc[] = "create 0 1 4096 0 0x0000000001000000\nsubmit 0 1 0x10";
	static const char unknown[] = "close 0 1\nmunmap 0 1\n";
	static const char few[] = "kalloc 0 0x7f0000000000 16 16\n";
	char bytes[3000], events[160];
	uint32_t x = 0x9e3779b9;

	for (size_t i = 0; i < sizeof(bytes); i++) {
		x = x * 1664525u + 1013904223u;
		bytes[i] = (char)(x >> 24);
	}
	replay_refuses(_metadata, self, bytes, sizeof(bytes), NULL, "events: line ");
	replay_refuses(_metadata, self, trunc, sizeof(trunc) - 1, NULL, "events: line 2: not a capture record");
	replay_refuses(_metadata, self, unknown, sizeof(unknown) - 1, NULL, "events: line 2: not a capture record");
	replay_refuses(_metadata, self, few, sizeof(few) - 1, NULL, "events: line 1: not a capture record");
	snprintf(events, sizeof(events), "%s/events", self->dir);
	replay_refuses(_metadata, self, few, sizeof(few) - 1, events, "not a capture directory");
}

/* A capture is untrusted input: regions over the replay's own stack or
 * beyond the address space fail with a message, never a crash, and the
 * outcome is the same however the stack is placed from run to run. */
TEST_F(pre, replay_refuses_regions_over_its_own_memory)
{
	static const char events[] =
		"kalloc 0 7ffd00000000 2097152 1 f\nkalloc 0 7ffef0000000 1118207 1 f\n";

	for (int i = 0; i < 6; i++)
		replay_refuses(_metadata, self, events, sizeof(events) - 1, NULL, "events: line ");
}

/* Writes @len bytes of @data to self->dir/@name. */
static void put_file(struct __test_metadata *_metadata, struct __fixture_pre *self,
		     const char *name, const void *data, size_t len)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", self->dir, name);
	f = fopen(path, "w");
	ASSERT_NONNULL(f);
	ASSERT_EQ(fwrite(data, 1, len, f), len);
	ASSERT_EQ(fclose(f), 0);
}

/* A captured atom whose event never comes (a soft job waiting on an event
 * nothing sets) is reported naming its submission and atom once
 * --event-timeout has passed, and the replay exits 1. */
TEST_F(pre, replay_gives_up_on_an_event_that_never_comes)
{
	/* Above every mapping the kernel places on its own, and inside
	 * ThreadSanitizer's application range. */
	static const char events[] = "kalloc 0 7e9000000000 1 1 f\n"
				     "ksubmit 0 0 1 56\n"
				     "kdone 0 0\n";
	static const char bos[] = "0 7e9000000000 4096 15\n";
	char *replay[] = { self->vgpu, "replay", "--event-timeout", "300", self->dir, NULL };
	struct kb_atom_v2 atom = { .jc = 0x7e9000000100ull, .atom_number = 7,
				   .core_req = KB_JD_REQ_SOFT_EVENT_WAIT };
	char sub[128];
	struct proc_result r;

	snprintf(sub, sizeof(sub), "%s/0", self->dir);
	ASSERT_EQ(mkdir(sub, 0700), 0);
	put_file(_metadata, self, "events", events, sizeof(events) - 1);
	put_file(_metadata, self, "0/bos", bos, sizeof(bos) - 1);
	/* The region is fresh, so the byte the atom waits on is RESET. */
	put_file(_metadata, self, "0/atoms", &atom, sizeof(atom));
	ASSERT_EQ(proc_run(replay, NULL, NULL, NULL, 0, MESA_TIMEOUT, &r), 0);
	EXPECT_FALSE(r.timed_out);
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.out, "submission 0: no event within 300 ms "
				     "(--event-timeout) for atom 7\n"));
	EXPECT_NONNULL(strstr(r.out, "1 submissions, 0 identical, 1 differ"));
	if (r.status != 1)
		TH_LOG("stdout: %s\nstderr: %s", r.out, r.err);
	proc_result_free(&r);
	/* A malformed value is refused before anything runs. */
	replay[3] = "soon";
	ASSERT_EQ(proc_run(replay, NULL, NULL, NULL, 0, MESA_TIMEOUT, &r), 0);
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.err, "--event-timeout soon: not a number of milliseconds"));
	proc_result_free(&r);
	rm_tree(sub);
	snprintf(sub, sizeof(sub), "%s/events", self->dir);
	unlink(sub);
}

TEST_HARNESS_MAIN

// SPDX-License-Identifier: MIT
/*
 * `vgpu dev --transport`: over io_uring the nodes are served from the
 * rings (the server counts the requests they carried), auto falls back
 * to the classic transport where io_uring cannot work, and forcing io_uring
 * there fails before mounting, saying why: a kernel without it, or its
 * enable_uring off for a server that is not root. The fuse module's
 * parameter is read from VGPU_FUSE_URING_PARAM when set, so these cases
 * run on files the test makes instead of the host's setting. (The node
 * tier's FUSE suites run over both transports: tests/run.sh.)
 */
#include "harness.h"
#include "node/devnode.h"

#include <grp.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/time.h>

#include "driver-shim/uapi_kbase.h"

#define PARAM "/sys/module/fuse/parameters/enable_uring"

/* Skips unless a device node can be served and the kernel has FUSE over
 * io_uring. */
#define NEED_URING()                                                             \
	do {                                                                     \
		const char *why_ = devnode_unavailable();                        \
		if (why_)                                                        \
			SKIP(return, "%s", why_);                                \
		if (access(PARAM, F_OK))                                         \
			SKIP(return, "this kernel has no FUSE over io_uring (no %s)", \
			     PARAM);                                             \
	} while (0)
#define NOBODY 65534u

/* The whole of @f (written by a server), as a string (caller frees). */
static char *file_text(FILE *f)
{
	long len;
	char *s;

	fflush(f);
	len = lseek(fileno(f), 0, SEEK_END);
	s = calloc(1, len > 0 ? (size_t)len + 1 : 1);
	if (s && len > 0 && pread(fileno(f), s, (size_t)len, 0) != len)
		s[0] = 0;
	return s;
}

/* Starts a server with @extra, its stderr into @err. */
static int start_logged(struct devnode *d, const char *const *extra, FILE *err)
{
	int saved = dup(2), ret;

	fflush(stderr);
	dup2(fileno(err), 2);
	ret = devnode_start(d, extra);
	dup2(saved, 2);
	close(saved);
	return ret;
}

/* mali0 opened and through kbase's version handshake and flags. */
static int kb_setup(struct __test_metadata *_metadata, const struct devnode *d)
{
	struct kb_version_check v = { 11, 46 };
	struct kb_set_flags fl = { 0 };
	int fd = open(d->mali, O_RDWR);

	EXPECT_GE(fd, 0);
	EXPECT_EQ(ioctl(fd, KB_IOCTL_VERSION_CHECK, &v), 0);
	EXPECT_EQ(v.major, 11);
	EXPECT_EQ(ioctl(fd, KB_IOCTL_SET_FLAGS, &fl), 0);
	return fd;
}

/* The node answers: kbase's version handshake and a context id. */
static void use_mali(struct __test_metadata *_metadata, const struct devnode *d)
{
	struct kb_get_context_id id = { 0 };
	int fd = kb_setup(_metadata, d);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(ioctl(fd, KB_IOCTL_GET_CONTEXT_ID, &id), 0);
	/* An unknown ioctl: the driver's errno, whatever the transport. */
	EXPECT_EQ(ioctl(fd, _IO(0x80, 0x7f), 0), -1);
	EXPECT_EQ(errno, ENOTTY);
	close(fd);
}

TEST(transport_option_is_checked)
{
	const char *bad[] = { "--transport", "carrier-pigeon", "--mount", "/nonexistent/v", NULL };
	const char *none[] = { "--mount", "/nonexistent/v", NULL };
	char *env[] = { "VGPU_TRANSPORT=smoke", NULL };
	char *help[] = { (char *)build_path("vgpu"), "help", "dev", NULL };
	struct proc_result r;

	if (access(build_path("vgpu"), X_OK))
		SKIP(return, "vgpu binary not built");
	/* Only this test's value. */
	unsetenv("VGPU_TRANSPORT");
	r = devnode_run(bad, NULL);
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.err, "--transport wants classic, uring or auto"));
	proc_result_free(&r);
	r = devnode_run(none, env);
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.err, "VGPU_TRANSPORT wants classic, uring or auto"));
	proc_result_free(&r);
	ASSERT_EQ(proc_run(help, NULL, NULL, NULL, 0, 30, &r), 0);
	EXPECT_NONNULL(strstr(r.out, "--transport classic|uring|auto"));
	proc_result_free(&r);
}

/* A kernel without FUSE over io_uring has no enable_uring parameter. */
TEST(forced_uring_without_kernel_support_fails)
{
	const char *args[] = { "--transport", "uring", "--mount", "/nonexistent/v", NULL };
	char *env[] = { "VGPU_FUSE_URING_PARAM=/nonexistent/enable_uring", NULL };
	struct proc_result r;

	if (access(build_path("vgpu"), X_OK))
		SKIP(return, "vgpu binary not built");
	r = devnode_run(args, env);
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.err, "--transport uring: this kernel has no FUSE over io_uring"));
	EXPECT_NONNULL(strstr(r.err, "/nonexistent/enable_uring"));
	proc_result_free(&r);
}

/* enable_uring off, and a server that may not turn it on. */
TEST(forced_uring_off_and_not_root_fails)
{
	char param[] = "/tmp/vgpu-param-XXXXXX", envp[64], *text;
	char *argv[] = { (char *)build_path("vgpu"), "dev", "--transport", "uring",
			 "--mount", "/nonexistent/v", NULL };
	FILE *err;
	size_t len;
	int fd, status;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "switching to another uid needs root");
	if (access(build_path("vgpu"), X_OK))
		SKIP(return, "vgpu binary not built");
	fd = mkstemp(param);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, "N\n", 2), 2);
	fchmod(fd, 0644);
	close(fd);
	snprintf(envp, sizeof(envp), "VGPU_FUSE_URING_PARAM=%s", param);
	err = tmpfile();
	ASSERT_NONNULL(err);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(126);
		dup2(null, 1);
		dup2(fileno(err), 2);
		putenv(envp);
		execv(argv[0], argv);
		_exit(127);
	}
	ASSERT_GT(pid, 0);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		unlink(param);
		fclose(err);
		SKIP(return, "uid %u cannot run %s", NOBODY, argv[0]);
	}
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	text = file_text(err);
	ASSERT_NONNULL(text);
	EXPECT_NONNULL(strstr(text, "--transport uring: FUSE over io_uring is off"));
	EXPECT_NONNULL(strstr(text, "only root can turn it on"));
	free(text);
	/* Left as it was. */
	text = read_file(param, &len);
	EXPECT_TRUE(text && text[0] == 'N');
	free(text);
	unlink(param);
	fclose(err);
}

/* Root turns it on, and says so (the mount then fails: it stops there). */
TEST(root_turns_enable_uring_on)
{
	char param[] = "/tmp/vgpu-param-XXXXXX", envp[64], *text;
	const char *args[] = { "--transport", "uring", "--mount", "/nonexistent/v", NULL };
	char *env[] = { envp, NULL };
	struct proc_result r;
	size_t len;
	int fd;

	if (geteuid() != 0)
		SKIP(return, "turning enable_uring on needs root");
	if (access(build_path("vgpu"), X_OK))
		SKIP(return, "vgpu binary not built");
	fd = mkstemp(param);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, "N\n", 2), 2);
	close(fd);
	snprintf(envp, sizeof(envp), "VGPU_FUSE_URING_PARAM=%s", param);
	r = devnode_run(args, env);
	EXPECT_EQ(r.status, 1);
	EXPECT_NONNULL(strstr(r.err, "turned FUSE over io_uring on"));
	proc_result_free(&r);
	text = read_file(param, &len);
	EXPECT_TRUE(text && text[0] == 'Y');
	free(text);
	unlink(param);
}

/*
 * Serves a client with `--transport @transport` (the fuse module's
 * parameter read from @param, or the host's), and returns what the server
 * said on stderr (caller frees), or NULL when the server did not come up
 * or stop well.
 */
static char *serve_one_client(struct __test_metadata *_metadata,
			      const char *transport, const char *param)
{
	const char *extra[] = { "--transport", transport, NULL };
	struct devnode d;
	char *text = NULL, *stats;
	FILE *err = tmpfile();
	int started;

	if (!err)
		return NULL;
	if (param)
		setenv("VGPU_FUSE_URING_PARAM", param, 1);
	started = start_logged(&d, extra, err);
	unsetenv("VGPU_FUSE_URING_PARAM");
	if (!started) {
		use_mali(_metadata, &d);
		stats = devnode_stats(&d);
		EXPECT_GE(json_num(stats, "opens"), 1);
		free(stats);
		if (!devnode_stop(&d))
			text = file_text(err);
	}
	fclose(err);
	return text;
}

/* auto where io_uring cannot work: the classic transport, said once. */
TEST(auto_falls_back_to_classic)
{
	const char *why = devnode_unavailable();
	char *text;

	if (why)
		SKIP(return, "%s", why);
	text = serve_one_client(_metadata, "auto", "/nonexistent/enable_uring");
	ASSERT_NONNULL(text);
	EXPECT_NONNULL(strstr(text, "transport classic: this kernel has no FUSE over io_uring"));
	EXPECT_NULL(strstr(text, "io_uring served"));
	free(text);
}

/* The number in "io_uring served N requests", or -1. */
static long served(const char *text)
{
	const char *p = strstr(text, "io_uring served ");

	return p ? strtol(p + 16, NULL, 10) : -1;
}

/* Forced io_uring: the requests of a client travel through the rings. */
TEST(uring_serves_the_nodes)
{
	char *text;

	NEED_URING();
	text = serve_one_client(_metadata, "uring", NULL);
	ASSERT_NONNULL(text);
	EXPECT_NONNULL(strstr(text, "transport io_uring: "));
	/* At least the open, four ioctls, the stats file's open and read. */
	EXPECT_GE(served(text), 7);
	free(text);
}

/* The classic transport never reaches io_uring. */
TEST(classic_stays_off_io_uring)
{
	const char *why = devnode_unavailable();
	char *text;

	if (why)
		SKIP(return, "%s", why);
	text = serve_one_client(_metadata, "classic", NULL);
	ASSERT_NONNULL(text);
	EXPECT_NULL(strstr(text, "io_uring"));
	free(text);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * A read that waits for a kbase event ends with EINTR when its caller
 * takes a signal: the kernel's INTERRUPT stays on /dev/fuse while the read
 * came through a ring, and the handler hears of it all the same.
 */
TEST(a_waiting_read_is_interrupted_on_each_transport)
{
	static const char *const transports[] = { "classic", "uring" };
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	const char *why = devnode_unavailable();

	if (why)
		SKIP(return, "%s", why);
	sigaction(SIGALRM, &sa, &old); /* no SA_RESTART */
	for (int i = 0; i < 2; i++) {
		const char *extra[] = { "--transport", transports[i], NULL };
		struct itimerval it = { .it_value = { 0, 50000 } };
		struct kb_get_context_id id;
		struct kb_event ev;
		struct devnode d;
		int fd;

		if (i && access(PARAM, F_OK))
			break;
		ASSERT_EQ(devnode_start(&d, extra), 0);
		fd = kb_setup(_metadata, &d);
		setitimer(ITIMER_REAL, &it, NULL);
		EXPECT_EQ(read(fd, &ev, sizeof(ev)), -1);
		EXPECT_EQ(errno, EINTR);
		/* The node still serves the file. */
		EXPECT_EQ(ioctl(fd, KB_IOCTL_GET_CONTEXT_ID, &id), 0);
		close(fd);
		EXPECT_EQ(devnode_stop(&d), 0);
	}
	sigaction(SIGALRM, &old, NULL);
}

/*
 * More clients waiting in read() than the rings start with (sixteen entries
 * per CPU): the queues grow, so the ioctls of one more client are still
 * served (else they would wait with the readers).
 */
/*
 * Starts @n readers that each wait on @d's kbase node for an event that
 * never comes, one entry's worth of the server each; returns once all
 * have made their node ready (their reads are on the way).
 */
static pid_t *waiting_readers(struct __test_metadata *_metadata, const struct devnode *d, int n)
{
	pid_t *readers = calloc((size_t)n, sizeof(*readers));
	int ready[2];
	char said[2];

	ASSERT_NONNULL(readers);
	ASSERT_EQ(pipe(ready), 0);
	for (int i = 0; i < n; i++) {
		readers[i] = fork();
		if (readers[i] == 0) {
			struct kb_version_check v = { 11, 46 };
			struct kb_set_flags fl = { 0 };
			struct kb_event ev;
			int rfd = open(d->mali, O_RDWR);
			/* "r", or the step that failed and its errno */
			char say[2] = { 'r', 0 };

			if (rfd < 0)
				say[0] = 'o';
			else if (ioctl(rfd, KB_IOCTL_VERSION_CHECK, &v))
				say[0] = 'v';
			else if (ioctl(rfd, KB_IOCTL_SET_FLAGS, &fl))
				say[0] = 'f';
			say[1] = (char)(say[0] == 'r' ? 0 : errno);
			if (write(ready[1], say, 2) != 2 || say[0] != 'r')
				_exit(1);
			/* No event will come: it waits until killed, or until
			 * the read fails. */
			_exit(read(rfd, &ev, sizeof(ev)) < 0 ? 2 : 3);
		}
		ASSERT_GT(readers[i], 0);
	}
	for (int i = 0; i < n; i++) {
		ASSERT_EQ(read(ready[0], said, 2), 2);
		if (said[0] != 'r')
			TH_LOG("a reader's %s failed: %s",
			       said[0] == 'o' ? "open" : said[0] == 'v' ? "VERSION_CHECK" : "SET_FLAGS",
			       strerror(said[1]));
		ASSERT_EQ(said[0], 'r');
	}
	close(ready[0]);
	close(ready[1]);
	return readers;
}

/* Kills and reaps those of @n readers still there (not 0), and frees
 * the array. */
static void end_readers(pid_t *readers, int n)
{
	for (int i = 0; i < n; i++)
		if (readers[i]) {
			kill(readers[i], SIGKILL);
			waitpid(readers[i], NULL, 0);
		}
	free(readers);
}

/* With @n readers waiting, another client's ioctls are still served. */
static void waiting_readers_then_ioctls(struct __test_metadata *_metadata, int n)
{
	const char *extra[] = { "--transport", "uring", NULL };
	struct kb_get_context_id id;
	struct devnode d;
	pid_t *readers;
	int fd;

	NEED_URING();
	ASSERT_EQ(devnode_start(&d, extra), 0);
	readers = waiting_readers(_metadata, &d, n);
	fd = kb_setup(_metadata, &d);
	for (int i = 0; i < 100; i++)
		ASSERT_EQ(ioctl(fd, KB_IOCTL_GET_CONTEXT_ID, &id), 0);
	close(fd);
	end_readers(readers, n);
	EXPECT_EQ(devnode_stop(&d), 0);
}

TEST(uring_grows_past_waiting_readers)
{
	waiting_readers_then_ioctls(_metadata, 16 * get_nprocs_conf() + 8);
}

/*
 * One entry a queue and one spare: the readers' burst outruns the new
 * entries, so requests wait in the kernel for a commit on their queue,
 * which the request the server makes there after each registration
 * brings (without it, this stalled in each of four runs).
 */
TEST(uring_requests_that_waited_for_an_entry_are_served)
{
	setenv("VGPU_FUSE_URING_ENTRIES", "1,1", 1);
	waiting_readers_then_ioctls(_metadata, 4 * get_nprocs_conf() + 8);
	unsetenv("VGPU_FUSE_URING_ENTRIES");
}

/* The server's process (the guardian's child), or 0. */
static pid_t server_of(const struct devnode *d)
{
	char path[64];
	long pid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)d->pid, (int)d->pid);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	return (pid_t)pid;
}

/*
 * Ends the FUSE connection of the mount on @dev through fusectl, where a
 * server that cannot exit holds it: its clients' requests then fail
 * rather than wait for ever.
 */
static void abort_connection(struct __test_metadata *_metadata, dev_t dev)
{
	char path[96];
	int fd;

	(void)_metadata;
	snprintf(path, sizeof(path), "/sys/fs/fuse/connections/%u/abort", minor(dev));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "1", 1) != 1)
		TH_LOG("cannot end the connection (%s: %s): its clients hang", path,
		       strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * A server killed while its entries hold waiting reads, and requests and
 * nudges wait for entries: the kernel ends the connection, so every read
 * fails at once rather than hanging. (With the nudges made by threads of
 * the server, a third of such kills hung: a nudge waiting for its answer
 * kept the server's memory, and through the rings' mappings /dev/fuse.)
 */
TEST(uring_server_killed_under_waiting_readers_ends_their_reads)
{
	const char *extra[] = { "--transport", "uring", NULL };
	int n = 4 * get_nprocs_conf() + 8, ended = 0;
	struct devnode d;
	struct stat mnt;
	pid_t *readers, server;

	NEED_URING();
	setenv("VGPU_FUSE_URING_ENTRIES", "1,1", 1);
	ASSERT_EQ(devnode_start(&d, extra), 0);
	unsetenv("VGPU_FUSE_URING_ENTRIES");
	readers = waiting_readers(_metadata, &d, n);
	server = server_of(&d);
	ASSERT_GT(server, 0);
	ASSERT_EQ(stat(d.dir, &mnt), 0);
	ASSERT_EQ(kill(server, SIGKILL), 0);
	for (int t = 0; t < 1000 && ended < n; t++) {
		for (int i = 0; i < n; i++) {
			int status;

			if (readers[i] && waitpid(readers[i], &status, WNOHANG) == readers[i]) {
				EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2);
				readers[i] = 0;
				ended++;
			}
		}
		usleep(10000);
	}
	EXPECT_EQ(ended, n);
	if (ended < n)
		abort_connection(_metadata, mnt.st_dev);
	end_readers(readers, n);
	devnode_stop(&d);
}

TEST_HARNESS_MAIN

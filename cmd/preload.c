// SPDX-License-Identifier: MIT
/*
 * `vgpu preload [--qemu] -- CMD ARGS`: runs CMD with libvgpu-preload.so
 * (preload/preload.h) pointed at a `vgpu dev --socket` server, starting a
 * private one (no FUSE, no root) unless $VGPU_SOCKET already names a live
 * server. With --qemu, CMD is an aarch64 program run by qemu-aarch64 on
 * the arm64 sysroot, and the aarch64 build of the library is preloaded in
 * the guest (-E), not into qemu itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "cmd/stats_json.h"
#include "fuse-dev/socket_io.h"

struct preload_opts {
	bool qemu;
	const char *gpu;
	const char *socket;   /* an existing server, or NULL */
	const char *sysroot;
	const char *stats;    /* write the statistics JSON here at the end */
};

/* Connects to a server at @path; the socket, or -1. */
static int connect_to(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* The server's statistics JSON, malloc'ed and NUL-terminated, or NULL. */
static char *fetch_stats(const char *sock)
{
	struct vgpu_sock_msg m = { .op = VGPU_SOCK_STATS };
	int fd = connect_to(sock), got = -1;
	char *text = NULL;

	if (fd < 0 || sock_send(fd, &m, NULL, -1) || sock_recv_hdr(fd, &m, &got) ||
	    m.op != VGPU_SOCK_REPLY || !(text = malloc(m.len + 1)) ||
	    sock_recv_payload(fd, text, m.len)) {
		free(text);
		text = NULL;
	} else {
		text[m.len] = '\0';
	}
	if (got >= 0)
		close(got);
	if (fd >= 0)
		close(fd);
	return text;
}

/* Whether every file opened on the server has been released. */
static bool all_released(const char *text)
{
	struct json_object *root = sj_parse(text);
	const struct json_object *sys = sj_get(root, "system");
	bool done = sj_num(sys, "opens") == sj_num(sys, "releases");

	json_object_put(root);
	return done;
}

/*
 * The server's statistics JSON into @path. 0 or -1. CMD has exited, but
 * the server may not have handled the last of its disconnects yet; a
 * private server serves nobody else, so wait (briefly) until every file
 * opened has been released, and the statistics are complete.
 */
static int save_stats(const char *sock, const char *path, bool private_server)
{
	char *text = fetch_stats(sock);
	FILE *f;
	int ret = -1;

	for (int i = 0; private_server && text && i < 200 && !all_released(text); i++) {
		free(text);
		usleep(10000);
		text = fetch_stats(sock);
	}
	if (!text)
		return -1;
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		ret = fclose(f) ? -1 : 0;
	}
	free(text);
	return ret;
}

/*
 * Starts `vgpu dev --socket DIR/sock --no-fuse` in its own process group
 * (a Ctrl-C reaches CMD, which then closes its files; the server stops
 * when we do) and waits for its first line, which it prints once it
 * listens. Returns its pid, or -1.
 */
static pid_t start_server(const char *sock, const char *gpu)
{
	char exe[PATH_MAX], line[512];
	int pipefd[2];
	ssize_t n;
	pid_t pid;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || pipe2(pipefd, O_CLOEXEC))
		return -1;
	exe[n] = '\0';
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(pipefd[1], 1);
		execl(exe, exe, "dev", "--socket", sock, "--no-fuse", "--gpu", gpu,
		      (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		return -1;
	}
	n = read(pipefd[0], line, sizeof(line) - 1);
	close(pipefd[0]);
	if (n <= 0) {
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

static char *joined(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s%s", a, b);
	return s;
}

/* Runs CMD (argv) with the library; returns its exit status. */
static int run_cmd(const struct preload_opts *o, const char *sock, char **cmd)
{
	char exe[PATH_MAX], lib[PATH_MAX + 64], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *preload;
	int status;
	pid_t pid;

	if (n <= 0)
		return 127;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	*slash = '\0';
	snprintf(lib, sizeof(lib), "%s/%slibvgpu-preload.so", exe,
		 o->qemu ? "aarch64/" : "");
	if (access(lib, R_OK)) {
		fprintf(stderr, "vgpu preload: %s: %s (make builds it)\n", lib,
			strerror(errno));
		return 127;
	}
	pid = fork();
	if (pid)
		goto wait;
	setenv("VGPU_SOCKET", sock, 1);
	/* rusticl lists no device unless the driver is named. */
	setenv("RUSTICL_ENABLE", "panfrost", 0);
	if (!o->qemu) {
		const char *old = getenv("LD_PRELOAD");

		/* Ours first: its hooks must win over other preloads. */
		preload = old && *old ? joined(lib, ":") : NULL;
		if (preload)
			preload = joined(preload, old);
		setenv("LD_PRELOAD", preload ? preload : lib, 1);
		execvp(cmd[0], cmd);
	} else {
		size_t argc = 0;
		char **argv;

		while (cmd[argc])
			argc++;
		argv = calloc(argc + 8, sizeof(*argv));
		if (!argv)
			_exit(127);
		argv[0] = "qemu-aarch64";
		argv[1] = "-L";
		argv[2] = (char *)o->sysroot;
		argv[3] = "-E";
		argv[4] = joined("LD_PRELOAD=", lib);
		memcpy(argv + 5, cmd, argc * sizeof(*argv));
		execvp(argv[0], argv);
	}
	fprintf(stderr, "vgpu preload: %s: %s\n", o->qemu ? "qemu-aarch64" : cmd[0],
		strerror(errno));
	_exit(127);
wait:
	if (pid < 0)
		return 127;
	/* CMD gets the terminal's signals; we outlive it to clean up. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int preload_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "qemu", no_argument, NULL, 'q' },
		{ "gpu", required_argument, NULL, 'g' },
		{ "socket", required_argument, NULL, 's' },
		{ "sysroot", required_argument, NULL, 'r' },
		{ "stats", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	struct preload_opts o = { .gpu = "g71" };
	char dir[PATH_MAX], sock[PATH_MAX + 8], sysroot[PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	pid_t server = 0;
	int opt, ret, fd;

	while ((opt = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (opt) {
		case 'q': o.qemu = true; break;
		case 'g': o.gpu = optarg; break;
		case 's': o.socket = optarg; break;
		case 'r': o.sysroot = optarg; break;
		case 'S': o.stats = optarg; break;
		default:
			fputs(vgpu_cmd_preload.help, stderr);
			return 1;
		}
	}
	if (optind >= argc) {
		fputs(vgpu_cmd_preload.help, stderr);
		return 1;
	}
	if (o.qemu && !o.sysroot) {
		const char *env = getenv("VGPU_SYSROOT"), *cache = getenv("XDG_CACHE_HOME");

		if (env && *env)
			snprintf(sysroot, sizeof(sysroot), "%s", env);
		else if (cache && *cache)
			snprintf(sysroot, sizeof(sysroot), "%s/vgpu/sysroot", cache);
		else
			snprintf(sysroot, sizeof(sysroot), "%s/.cache/vgpu/sysroot",
				 getenv("HOME") ? getenv("HOME") : "");
		o.sysroot = sysroot;
	}
	if (!o.socket) {
		const char *env = getenv("VGPU_SOCKET");

		if (env && *env && (fd = connect_to(env)) >= 0) {
			close(fd);
			o.socket = env;
		}
	}
	if (!o.socket) {
		snprintf(dir, sizeof(dir), "%s/vgpu-preload-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir)) {
			fprintf(stderr, "vgpu preload: mkdtemp: %s\n", strerror(errno));
			return 1;
		}
		snprintf(sock, sizeof(sock), "%s/sock", dir);
		server = start_server(sock, o.gpu);
		if (server < 0) {
			fprintf(stderr, "vgpu preload: cannot start vgpu dev --socket %s\n", sock);
			rmdir(dir);
			return 1;
		}
		o.socket = sock;
	}
	ret = run_cmd(&o, o.socket, argv + optind);
	if (o.stats && save_stats(o.socket, o.stats, server > 0))
		fprintf(stderr, "vgpu preload: --stats %s: cannot save\n", o.stats);
	if (server > 0) {
		kill(server, SIGTERM);
		waitpid(server, NULL, 0);
		rmdir(dir);
	}
	return ret;
}

const struct vgpu_cmd vgpu_cmd_preload = {
	.name = "preload",
	.summary = "run a program with the virtual GPU through LD_PRELOAD",
	.help =
	"usage: vgpu preload [--qemu] [--sysroot DIR] [--gpu g71|g52]\n"
	"                    [--socket PATH] [--stats FILE] [--] CMD [ARGS]\n"
	"\n"
	"Runs CMD with libvgpu-preload.so loaded (LD_PRELOAD), so that an\n"
	"unmodified, dynamically linked driver (Mesa's panfrost and rusticl, or\n"
	"Arm's libmali) finds /dev/dri/renderD128 and /dev/mali0 and drives the\n"
	"virtual GPU through them. The library talks to `vgpu dev --socket`:\n"
	"the server at $VGPU_SOCKET if one listens there, else a private one\n"
	"started for CMD (no FUSE, no root; its socket lives in a fresh\n"
	"directory under $TMPDIR or /tmp) and stopped after it. Sets\n"
	"RUSTICL_ENABLE=panfrost unless it is set. Exits with CMD's status.\n"
	"\n"
	"  --qemu          CMD is an aarch64 program: run it under qemu-aarch64\n"
	"                  on the arm64 sysroot with the aarch64 library\n"
	"  --sysroot DIR   that sysroot (default $VGPU_SYSROOT, else\n"
	"                  ~/.cache/vgpu/sysroot, as scripts/sysroot.sh fetches)\n"
	"  --gpu g71|g52   the GPU of a private server (default g71)\n"
	"  --socket PATH   use the server listening at PATH\n"
	"  --stats FILE    write the server's statistics (JSON, as 'vgpu\n"
	"                  stats' reads them) to FILE when CMD has finished\n"
	"\n"
	"example: vgpu preload --qemu -- ~/.cache/vgpu/sysroot/usr/bin/clinfo\n",
	.main = preload_main,
	.value_opts = (const char *const[]){ "--gpu", "--socket", "--sysroot", "--stats", NULL },
};

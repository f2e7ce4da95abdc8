// SPDX-License-Identifier: MIT
/*
 * `vgpu dev`: mounts the FUSE file system with the device nodes, runs it
 * multi-threaded until SIGINT/SIGTERM/SIGHUP, then unmounts and tears the
 * driver and GPU model down.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "fuse-dev/fuse_server.h"
#include "fuse-dev/capture.h"
#include "fuse-dev/fuse_uring.h"
#include "fuse-dev/socket.h"

#define DEV_MAX_THREADS 256

struct bind_point {
	const char *target;
	const char *node;
	bool created_file, created_dir, mounted;
};

static struct bind_point binds[] = {
	{ "/dev/mali0", "mali0", false, false, false },
	{ "/dev/dri/renderD128", "renderD128", false, false, false },
};

static int default_mount_dir(char *buf, size_t size)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");

	if (geteuid() == 0)
		snprintf(buf, size, "/run/vgpu");
	else if (rt && *rt)
		snprintf(buf, size, "%s/vgpu", rt);
	else
		snprintf(buf, size, "/tmp/vgpu-%u", (unsigned)getuid());
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

static void unbind_all(void)
{
	for (size_t i = 0; i < sizeof(binds) / sizeof(binds[0]); i++) {
		struct bind_point *b = &binds[i];

		if (b->mounted && umount2(b->target, MNT_DETACH))
			fprintf(stderr, "vgpu dev: umount %s: %s\n", b->target,
				strerror(errno));
		if (b->created_file)
			unlink(b->target);
		if (b->created_dir)
			rmdir("/dev/dri");
		b->mounted = b->created_file = b->created_dir = false;
	}
}

static int bind_all(const char *mnt)
{
	char src[4096];

	for (size_t i = 0; i < sizeof(binds) / sizeof(binds[0]); i++) {
		struct bind_point *b = &binds[i];
		int fd;

		if (!strncmp(b->target, "/dev/dri/", 9)) {
			if (!mkdir("/dev/dri", 0755))
				b->created_dir = true;
			else if (errno != EEXIST)
				goto fail;
		}
		fd = open(b->target, O_WRONLY | O_CREAT | O_EXCL, 0666);
		if (fd >= 0) {
			close(fd);
			b->created_file = true;
		} else if (errno != EEXIST) {
			goto fail;
		}
		snprintf(src, sizeof(src), "%s/%s", mnt, b->node);
		if (mount(src, b->target, NULL, MS_BIND, NULL))
			goto fail;
		b->mounted = true;
	}
	return 0;
fail:
	fprintf(stderr, "vgpu dev: --bind: %s\n", strerror(errno));
	unbind_all();
	return -1;
}

static void emit_file(void *priv, const char *s, size_t n)
{
	fwrite(s, 1, n, priv);
}

static void write_trace(struct server *srv, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "vgpu dev: --trace %s: %s\n", path, strerror(errno));
		return;
	}
	shim_trace_write(srv->dev, emit_file, f);
	if (fclose(f))
		fprintf(stderr, "vgpu dev: --trace %s: %s\n", path, strerror(errno));
}

/*
 * Binding a node makes the kernel look it up in our own file system, so
 * it can only happen while the session loop runs: a helper thread does it
 * once the loop is up.
 */
struct binder {
	pthread_t thread;
	const char *mnt;
	struct fuse_session *se;
	int result; /* 0 done, -1 failed */
};

static void *bind_thread(void *arg)
{
	struct binder *b = arg;

	b->result = bind_all(b->mnt);
	if (b->result) {
		fprintf(stderr, "vgpu dev: stopping: --bind failed\n");
		fuse_session_exit(b->se);
		/* Wake the loop: any request will do. */
		kill(getpid(), SIGHUP);
	} else {
		printf("vgpu dev: bound at /dev/mali0 and /dev/dri/renderD128\n");
		fflush(stdout);
	}
	return NULL;
}

/* A time limit in ms for option @opt: 0, or -1 with a message. */
static int parse_ms(const char *opt, const char *arg, uint32_t *ms)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!*arg || *end || v < 1 || v > 3600000) {
		fprintf(stderr, "vgpu dev: %s wants 1..3600000 ms\n", opt);
		return -1;
	}
	*ms = (uint32_t)v;
	return 0;
}

/* --mode: permission bits only, in octal. */
static int parse_mode(const char *arg, unsigned *mode)
{
	char *end;
	long m = strtol(arg, &end, 8);

	if (!*arg || *end || m < 0 || m > 0777) {
		fprintf(stderr, "vgpu dev: --mode wants octal permission bits, 0..0777\n");
		return -1;
	}
	*mode = (unsigned)m;
	return 0;
}

/* --group: a name or a number. */
static int parse_group(const char *arg, gid_t *gid)
{
	struct group *g = getgrnam(arg);
	char *end;
	long n;

	if (g) {
		*gid = g->gr_gid;
		return 0;
	}
	n = strtol(arg, &end, 10);
	if (!*arg || *end || n < 0 || n > 0x7fffffff) {
		fprintf(stderr, "vgpu dev: --group: no group '%s'\n", arg);
		return -1;
	}
	*gid = (gid_t)n;
	return 0;
}

/* The default group, render, as udev gives /dev/dri/renderD128; where
 * there is none, the server's own. */
static gid_t default_group(void)
{
	struct group *g = getgrnam("render");

	if (g)
		return g->gr_gid;
	fprintf(stderr, "vgpu dev: no group 'render': the nodes' group is %u "
		"(--group sets another)\n", (unsigned)getgid());
	return getgid();
}

/* Whether fusermount3 lets a user other than root mount with allow_other. */
static bool user_allow_other(void)
{
	FILE *f = fopen("/etc/fuse.conf", "re");
	char line[256];
	bool yes = false;

	while (f && fgets(line, sizeof(line), f)) {
		char *p = line, *e;

		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strcspn(p, " \t\r\n#");
		yes |= e - p == 16 && !strncmp(p, "user_allow_other", 16);
	}
	if (f)
		fclose(f);
	return yes;
}

/* Mount options: anyone the nodes' mode admits may open them, like a
 * render node, and the kernel checks that mode (EACCES otherwise). */
static int add_mount_options(struct fuse_args *fargs, const char *argv0,
			     const struct server *srv)
{
	if (fuse_opt_add_arg(fargs, argv0))
		return -1;
	if (geteuid() == 0 || user_allow_other()) {
		if (fuse_opt_add_arg(fargs, "-oallow_other"))
			return -1;
	} else {
		fprintf(stderr, "vgpu dev: /etc/fuse.conf has no user_allow_other: only "
			"uid %u can open the nodes\n", (unsigned)srv->node_uid);
	}
	return fuse_opt_add_arg(fargs, "-odefault_permissions");
}

/* --socket without FUSE: serve until SIGINT/SIGTERM/SIGHUP. */
static int socket_only_main(const struct shim_config *cfg, const char *path,
			    const char *trace, struct capture *cap,
			    const struct server *perm, unsigned call_ms)
{
	struct server srv = { 0 };
	struct sock_server *sock;
	sigset_t set;
	int sig = 0;

	/* Blocked before any thread exists, so that sigwait() gets them. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	srv.node_uid = perm->node_uid;
	srv.node_gid = perm->node_gid;
	srv.node_mode = perm->node_mode;
	srv.node_perm_given = perm->node_perm_given;
	if (server_init(&srv, cfg)) {
		fprintf(stderr, "vgpu dev: cannot create the GPU\n");
		return 1;
	}
	if (trace && shim_trace_start(srv.dev)) {
		server_fini(&srv);
		return 1;
	}
	sock = sock_server_start(&srv, path, cap);
	if (sock) {
		sock_server_set_call_ms(sock, call_ms);
		printf("vgpu dev: %s, socket mode: %s\n", shim_dev_gpu_name(srv.dev), path);
		fflush(stdout);
		sigwait(&set, &sig);
		sock_server_stop(sock);
	}
	if (trace)
		write_trace(&srv, trace);
	server_fini(&srv);
	return sock ? 0 : 1;
}

static int dev_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "gpu", required_argument, NULL, 'g' },
		{ "cores", required_argument, NULL, 'c' },
		{ "workers", required_argument, NULL, 'w' },
		{ "shader-stats", required_argument, NULL, 's' },
		{ "mount", required_argument, NULL, 'm' },
		{ "bind", no_argument, NULL, 'b' },
		{ "unstable-ioctls", no_argument, NULL, 'u' },
		{ "debug", no_argument, NULL, 'd' },
		{ "job-timeout", required_argument, NULL, 't' },
		{ "client-timeout", required_argument, NULL, 'K' },
		{ "trace", required_argument, NULL, 'T' },
		{ "socket", required_argument, NULL, 'S' },
		{ "no-fuse", no_argument, NULL, 'N' },
		{ "capture", required_argument, NULL, 'C' },
		{ "mode", required_argument, NULL, 'M' },
		{ "group", required_argument, NULL, 'G' },
		{ "transport", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	struct shim_config cfg = { .gpu = SHIM_GPU_G71 };
	char mnt[4096] = "";
	struct fuse_args fargs = FUSE_ARGS_INIT(0, NULL);
	struct fuse_loop_config *loop;
	struct fuse_session *se;
	struct server srv = { 0 };
	const char *trace = NULL;
	struct binder binder = { 0 };
	struct sock_server *sock = NULL;
	const char *sock_path = NULL, *capture_dir = NULL;
	struct capture *cap = NULL;
	struct fuse_uring *uring = NULL;
	enum fuse_transport transport = FUSE_TRANSPORT_AUTO;
	const char *transport_env = getenv("VGPU_TRANSPORT");
	bool bind = false, no_fuse = false, group_given = false;
	uint32_t call_ms = 0;
	int opt, ret = 1;

	/* Not for users: the helper the io_uring transport starts. */
	if (argc == 3 && !strcmp(argv[1], "--uring-nudger"))
		return fuse_uring_nudger_main(argv[2]);

	/* Not dumpable: no other process, even of our uid, may open
	 * /proc/<pid>/fd (the contexts' memfds) or /proc/<pid>/mem. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	srv.node_uid = getuid();
	srv.node_mode = 0660;
	/* The test suites run the node tier once per transport this way. */
	if (transport_env && *transport_env &&
	    fuse_transport_parse(transport_env, &transport)) {
		fprintf(stderr, "vgpu dev: VGPU_TRANSPORT wants classic, uring or auto\n");
		return 1;
	}
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'g':
			if (!strcmp(optarg, "g71")) {
				cfg.gpu = SHIM_GPU_G71;
			} else if (!strcmp(optarg, "g52")) {
				cfg.gpu = SHIM_GPU_G52;
			} else {
				fprintf(stderr, "vgpu dev: unknown GPU '%s' (g71, g52)\n", optarg);
				return 1;
			}
			break;
		case 'c':
		case 'w': {
			char *end;
			long n = strtol(optarg, &end, 10);

			if (*end || n < 1 || n > (opt == 'c' ? 32 : 256)) {
				fprintf(stderr, "vgpu dev: --%s wants 1..%d\n",
					opt == 'c' ? "cores" : "workers", opt == 'c' ? 32 : 256);
				return 1;
			}
			*(opt == 'c' ? &cfg.cores : &cfg.workers) = (unsigned)n;
			break;
		}
		case 's':
			if (strcmp(optarg, "on") && strcmp(optarg, "off")) {
				fprintf(stderr, "vgpu dev: --shader-stats wants on or off\n");
				return 1;
			}
			cfg.no_shader_stats = !strcmp(optarg, "off");
			break;
		case 'm':
			snprintf(mnt, sizeof(mnt), "%s", optarg);
			break;
		case 'b':
			bind = true;
			break;
		case 'u':
			cfg.unstable_ioctls = true;
			break;
		case 'T':
			trace = optarg;
			break;
		case 'S':
			sock_path = optarg;
			break;
		case 'N':
			no_fuse = true;
			break;
		case 'C':
			capture_dir = optarg;
			break;
		case 'M':
			if (parse_mode(optarg, &srv.node_mode))
				return 1;
			srv.node_perm_given = true;
			break;
		case 'G':
			if (parse_group(optarg, &srv.node_gid))
				return 1;
			srv.node_perm_given = group_given = true;
			break;
		case 'R':
			if (fuse_transport_parse(optarg, &transport)) {
				fprintf(stderr, "vgpu dev: --transport wants classic, uring or auto\n");
				return 1;
			}
			break;
		case 'd':
			os_log_set_level(OS_LOG_DEBUG);
			break;
		case 't':
			if (parse_ms("--job-timeout", optarg, &cfg.job_timeout_ms))
				return 1;
			break;
		case 'K':
			if (parse_ms("--client-timeout", optarg, &call_ms))
				return 1;
			break;
		default:
			fputs(vgpu_cmd_dev.help, stderr);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "vgpu dev: unexpected argument '%s'\n", argv[optind]);
		return 1;
	}
	if (!group_given)
		srv.node_gid = no_fuse && !srv.node_perm_given ? getgid() : default_group();
	if (!mnt[0] && default_mount_dir(mnt, sizeof(mnt))) {
		fprintf(stderr, "vgpu dev: no runtime directory: %s\n", strerror(errno));
		return 1;
	}
	/* A server killed outright leaves its mount behind ("Transport
	 * endpoint is not connected"): clear it before mounting again.
	 * statfs always reaches the server, where stat may be answered
	 * from the kernel's caches. An io_uring server's mount answers
	 * ECANCELED, then ECONNABORTED, for the few ms the kernel takes to
	 * tear the dead server's rings down. */
	{
		struct statfs sfs;

		if (statfs(mnt, &sfs) &&
		    (errno == ENOTCONN || errno == ECONNABORTED || errno == ECANCELED) &&
		    !umount2(mnt, MNT_DETACH))
			fprintf(stderr, "vgpu dev: removed a stale mount at %s\n", mnt);
	}
	if (no_fuse && (!sock_path || bind)) {
		fprintf(stderr, "vgpu dev: --no-fuse wants --socket and no --bind\n");
		return 1;
	}
	if (capture_dir && !sock_path) {
		fprintf(stderr, "vgpu dev: --capture records the socket's clients: add --socket\n");
		return 1;
	}
	if (capture_dir && !(cap = capture_open(capture_dir)))
		return 1;
	if (no_fuse) {
		ret = socket_only_main(&cfg, sock_path, trace, cap, &srv, call_ms);
		capture_close(cap);
		return ret;
	}
	if (bind && geteuid() != 0) {
		fprintf(stderr, "vgpu dev: --bind needs root\n");
		return 1;
	}
	switch (fuse_uring_prepare(transport, "vgpu dev")) {
	case -1:
		return 1;
	case 0:
		transport = FUSE_TRANSPORT_CLASSIC;
		break;
	}
	if (server_init(&srv, &cfg)) {
		fprintf(stderr, "vgpu dev: cannot create the GPU\n");
		return 1;
	}
	if (trace && shim_trace_start(srv.dev)) {
		server_fini(&srv);
		return 1;
	}
	if (server_handoff_start(&srv)) {
		fprintf(stderr, "vgpu dev: no memfd hand-off socket: %s\n", strerror(errno));
		goto out_srv;
	}
	if (add_mount_options(&fargs, argv[0], &srv))
		goto out_srv;
	if (sock_path) {
		sock = sock_server_start(&srv, sock_path, cap);
		if (!sock)
			goto out_srv;
		sock_server_set_call_ms(sock, call_ms);
		printf("vgpu dev: socket at %s\n", sock_path);
	}
	se = fuse_session_new(&fargs, server_ops_get(), sizeof(struct fuse_lowlevel_ops),
			      &srv);
	if (!se)
		goto out_srv;
	if (fuse_set_signal_handlers(se))
		goto out_se;
	if (fuse_session_mount(se, mnt)) {
		fprintf(stderr, "vgpu dev: cannot mount FUSE at %s (FUSE needs /dev/fuse "
				"and root or fusermount3)\n", mnt);
		goto out_sig;
	}
	if (transport != FUSE_TRANSPORT_CLASSIC &&
	    !(uring = fuse_uring_attach(se, mnt, transport == FUSE_TRANSPORT_URING)) &&
	    transport == FUSE_TRANSPORT_URING)
		goto out_unmount;
	printf("vgpu dev: %s, FUSE mode: %s/mali0 (kbase), %s/renderD128 (panfrost), %s/stats\n",
	       shim_dev_gpu_name(srv.dev), mnt, mnt, mnt);
	fflush(stdout);
	loop = fuse_loop_cfg_create();
	if (!loop)
		goto out_unmount;
	fuse_loop_cfg_set_max_threads(loop, DEV_MAX_THREADS);
	fuse_loop_cfg_set_clone_fd(loop, 0);
	binder.mnt = mnt;
	binder.se = se;
	if (bind && pthread_create(&binder.thread, NULL, bind_thread, &binder))
		bind = false;
	ret = fuse_session_loop_mt(se, loop) < 0 ? 1 : 0;
	fuse_loop_cfg_destroy(loop);
	if (fuse_uring_failed(uring))
		ret = 1;
	fuse_uring_stop(uring);
	uring = NULL;
	if (bind) {
		pthread_join(binder.thread, NULL);
		if (binder.result)
			ret = 1;
		unbind_all();
	}
out_unmount:
	fuse_uring_stop(uring);
	fuse_session_unmount(se);
out_sig:
	fuse_remove_signal_handlers(se);
out_se:
	fuse_session_destroy(se);
out_srv:
	sock_server_stop(sock);
	if (trace)
		write_trace(&srv, trace);
	server_fini(&srv);
	capture_close(cap);
	fuse_opt_free_args(&fargs);
	return ret;
}

const struct vgpu_cmd vgpu_cmd_dev = {
	.name = "dev",
	.summary = "serve mali0 (kbase) and renderD128 (panfrost) over FUSE",
	.help =
	"usage: vgpu dev [--gpu g71|g52] [--cores N] [--workers N] [--shader-stats on|off]\n"
	"                [--mount DIR] [--bind] [--job-timeout MS] [--trace FILE]\n"
	"                [--unstable-ioctls] [--mode MODE] [--group NAME]\n"
	"                [--socket PATH [--no-fuse] [--capture DIR]\n"
	"                [--client-timeout MS]] [--transport classic|uring|auto]\n"
	"                [--debug]\n"
	"\n"
	"Serves the virtual Mali GPU's device nodes from a multi-threaded FUSE\n"
	"file system: mali0 (the kbase UAPI, for Arm's libmali), renderD128 (the\n"
	"panfrost DRM UAPI, for Mesa) and stats (JSON statistics; see 'vgpu\n"
	"stats'). Any number of clients may use them at once. Runs until SIGINT,\n"
	"SIGTERM or SIGHUP, then unmounts.\n"
	"\n"
	"  --gpu g71|g52      the modelled GPU (default g71)\n"
	"  --cores N          modelled shader cores, 1..32: SHADER_PRESENT and the\n"
	"                     core count clients see (default: the GPU's own, 8 on\n"
	"                     the G71, 4 on the G52)\n"
	"  --workers N        host threads sharing each shader job's workgroups,\n"
	"                     1..256 (default 1); speed only, never results\n"
	"  --shader-stats on|off\n"
	"                     count each shader instruction by class, clause sizes,\n"
	"                     operands and memory accesses (default on); off runs\n"
	"                     shaders faster and the stats file says they were off\n"
	"  --mount DIR        where the nodes appear (default /run/vgpu as root,\n"
	"                     else $XDG_RUNTIME_DIR/vgpu or /tmp/vgpu-UID)\n"
	"  --bind             also bind them at /dev/mali0 and /dev/dri/renderD128\n"
	"                     (root only; undone at exit)\n"
	"  --job-timeout MS   a job running longer in host time is soft-stopped,\n"
	"                     then hard-stopped, then the GPU is reset; only it\n"
	"                     fails (default 600000, ten minutes). Jobs are also\n"
	"                     timed by the modelled GPU's clock (work at the\n"
	"                     Mali's peak rate) and stopped after what Linux\n"
	"                     allows on hardware: panfrost 500 ms, kbase 5 s.\n"
	"                     The model is about a thousand times slower than a\n"
	"                     Mali, so 500 ms of GPU time is minutes of host\n"
	"                     time: the ten-minute ceiling stops a job that does\n"
	"                     not advance the GPU's clock, and binds first only\n"
	"                     for the very longest jobs\n"
	"  --trace FILE       write a Chrome/Perfetto trace of every ioctl and GPU\n"
	"                     job to FILE at exit (open it in ui.perfetto.dev)\n"
	"  --unstable-ioctls  allow panfrost's PERFCNT ioctls, like the module\n"
	"                     parameter of that name\n"
	"  --mode MODE        the nodes' permission bits, in octal (default 0660;\n"
	"                     stats gets the read bits only)\n"
	"  --group NAME       the nodes' group, a name or a number (default\n"
	"                     render, as udev gives /dev/dri/renderD128; without\n"
	"                     one, the server's own group, said at start)\n"
	"  --socket PATH      also serve the nodes on a unix socket at PATH, for\n"
	"                     the preload library (see 'vgpu preload'); creates\n"
	"                     PATH.d, the /dev/dri and sysfs entries its clients\n"
	"                     see; both are removed at exit\n"
	"  --no-fuse          serve the socket only (no FUSE, no root needed)\n"
	"  --capture DIR      record every panfrost submission of the socket's\n"
	"                     clients (job chain, its BOs before and after) in\n"
	"                     DIR, for 'vgpu replay DIR' (format: fuse-dev/capture.h)\n"
	"  --client-timeout MS\n"
	"                     a socket client must answer each of the driver's\n"
	"                     copies from or to its memory within MS (default\n"
	"                     2000): the driver waits meanwhile for every client\n"
	"                     (but for a submission's arrays, copied before its\n"
	"                     lock); past it the copy fails (EFAULT) and that\n"
	"                     client is hung up, with a line on stderr\n"
	"  --transport classic|uring|auto\n"
	"                     how FUSE requests reach the server (default auto,\n"
	"                     or $VGPU_TRANSPORT): classic reads and writes\n"
	"                     /dev/fuse; uring takes them from io_uring commands\n"
	"                     (Linux 6.14+, the fuse module's enable_uring, which\n"
	"                     root turns on, saying so) or fails saying why; auto\n"
	"                     is uring where it works, else classic (saying why).\n"
	"                     The same handlers serve both; uring saves about a\n"
	"                     sixth of an ioctl's round trip (README.md)\n"
	"  --debug            log driver debug messages\n"
	"\n"
	"The nodes are regular FUSE files: ioctl(), read() and poll() behave as\n"
	"on the real devices; mmap() goes through a side channel (the ioctls in\n"
	"fuse-dev/fuse_mmap.h) because FUSE cannot map device memory. Needs\n"
	"/dev/fuse and root (or fusermount3).\n"
	"\n"
	"Access is a render node's: the nodes belong to the server's user and\n"
	"the group, and the kernel checks MODE at open (EACCES otherwise); other\n"
	"users may open them (allow_other: a server not run by root needs\n"
	"user_allow_other in /etc/fuse.conf). A client gets its own context's\n"
	"memory only: the server hands a memfd to the process that asked for\n"
	"it (SO_PEERCRED) and is not dumpable, so /proc/<server>/fd and mem\n"
	"are closed even to its own user. --mode and --group also set the\n"
	"socket's permissions (else it has the umask's); a file opened on it\n"
	"is joined and mapped only by the uid that opened it (a dma-buf is\n"
	"mapped only by its exporter's).\n",
	.main = dev_main,
};

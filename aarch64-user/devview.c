// SPDX-License-Identifier: MIT
/*
 * The guest's device view: under `vgpu run`, /dev/dri/renderD128 (panfrost
 * DRM) and /dev/mali0 (kbase) look as they do on a board with a Mali, and
 * are served by the driver inside this process (fuse-dev/inproc.h).
 *
 * - Paths: the entries libdrm's scan and Mesa's probe read (/dev/dri, the
 *   nodes, /sys/dev/char/226:128/...; fuse-dev/dev_tree.h) are rewritten
 *   into a real directory made once per user, so every path system call
 *   (openat, getdents64 on it, stat, readlink, faccessat, statx) works
 *   unchanged; stat of a node shows the character device it stands for.
 * - Open nodes: the guest's descriptor is a duplicate of the file's
 *   eventfd, readable exactly while the file is, so poll/epoll/select work
 *   natively. ioctl, read, write, mmap, munmap, fstat, fcntl(F_GETFL/
 *   F_SETFL) and /proc/self/fd/N on it come here; dup/dup3/F_DUPFD copies
 *   share the file (GEM and syncobj handles), which is released when its
 *   last descriptor and mapping are gone, as the kernel does.
 *
 * The eventfd the driver keeps is never the guest's descriptor: the guest
 * may close or dup over its own numbers at will. O_NONBLOCK belongs to the
 * open file (shared by its copies) and is kept here, since the eventfd
 * itself must stay non-blocking for the driver.
 *
 * fork(): the driver lives in this process, so a child gets a copy of it
 * without its GPU threads (only the forking thread survives a fork). As on
 * Linux, where the child shares its parent's open files, the files the
 * child inherits stay the parent's: their ioctls and reads go over a
 * socket to a thread of the parent (fork_serve()), which runs them on its
 * driver with the child's memory (process_vm_readv/writev), so the
 * child's jobs run on the parent's GPU, its events are read from the
 * parent's file, and the guest descriptors keep the parent's eventfd.
 * What that cannot do is ENODEV: an import of the child's own memory, and
 * any use of a file inherited over two forks (its driver is not the
 * parent's; those files get an eventfd of the child's own). Mappings are
 * made from the child's copy of the driver: memory the child created
 * through such a file cannot be mapped (the copy does not know it). Nodes the
 * child opens itself get a device of its own, with its own GPU. The copy
 * is never released (its locks may have been held by a thread that did
 * not come along), and the child writes no -stats/-trace report.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "aarch64-user/abi.h"
#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"
#include "fuse-dev/dev_tree.h"
#include "fuse-dev/inproc.h"

/* The tree's layout version: a change of dev_tree.c's entries bumps it,
 * so an older tree is never mistaken for the current one. */
#define TREE_VERSION 1
#define TREE_MARKER ".vgpu-devview"

struct dv_file {
	struct vgpu_inproc_file *f;
	const struct dev_tree_node *node;
	int refs;	/* guest descriptors, mappings and calls in progress */
	int oflags;	/* host open flags as F_GETFL shows them */
	bool inherited;	/* a forked child's copy of its parent's file */
	unsigned forks;	/* the last fork that set @conn */
	struct dv_conn *conn; /* inherited: the parent that runs its calls */
};

/* A forked child's line to its parent, which runs the calls on the files
 * the child inherited (fork_serve()): one request at a time. */
struct dv_conn {
	int sock;
	pthread_mutex_t lock;
};

enum { DV_REQ_IOCTL = 1, DV_REQ_READ };

struct dv_req {
	uint32_t op, cmd, nonblock;
	int32_t pid;           /* the child: its memory holds @arg's bytes */
	uint64_t file;         /* the dv_file, at the same address in both */
	uint64_t arg, len;     /* ioctl argument, or read buffer and length */
};

/* What a parent serves one child: the files that were its own. */
struct dv_server {
	int sock;
	size_t n;
	struct dv_file *files[];
};

struct dv_map {
	uint64_t addr, len;
	struct dv_file *file;
	struct dv_map *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct vgpu_inproc *dev;
static enum shim_gpu_model gpu_model = SHIM_GPU_G71;
static char cores_arg[12], workers_arg[12], job_timeout_arg[12]; /* "" while the default */
static bool shader_stats_off;
/* Indexed by guest descriptor; @open_count lets every other descriptor
 * skip the lock (one load). */
static struct dv_file **fds;
static size_t nfds;
static int open_count;
static struct dv_map *maps;
static bool forked;	/* this process is a fork of the one that made @dev */
static unsigned forks;	/* forks this process's line went through */
/* Between fork_prepare() and the other two: the server for the child,
 * and the child's end of its line. */
static struct dv_server *fork_server;
static int fork_sock = -1;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static char tree_root[PATH_MAX];
static pthread_once_t tree_once = PTHREAD_ONCE_INIT;

int devview_set_gpu(const char *name)
{
	if (!strcmp(name, "g71"))
		gpu_model = SHIM_GPU_G71;
	else if (!strcmp(name, "g52"))
		gpu_model = SHIM_GPU_G52;
	else
		return -1;
	return 0;
}

const char *devview_gpu(void)
{
	return gpu_model == SHIM_GPU_G52 ? "g52" : "g71";
}

/* A whole number in 1..@max into @arg, or -1. */
static int set_count(const char *n, long max, char *arg, size_t size)
{
	char *end;
	long v = strtol(n, &end, 10);

	if (!*n || *end || v < 1 || v > max)
		return -1;
	snprintf(arg, size, "%ld", v);
	return 0;
}

int devview_set_cores(const char *n)
{
	return set_count(n, 32, cores_arg, sizeof(cores_arg));
}

int devview_set_workers(const char *n)
{
	return set_count(n, 256, workers_arg, sizeof(workers_arg));
}

int devview_set_job_timeout(const char *ms)
{
	return set_count(ms, 3600000, job_timeout_arg, sizeof(job_timeout_arg));
}

const char *devview_job_timeout(void)
{
	return job_timeout_arg[0] ? job_timeout_arg : NULL;
}

int devview_set_shader_stats(const char *on_off)
{
	if (strcmp(on_off, "on") && strcmp(on_off, "off"))
		return -1;
	shader_stats_off = !strcmp(on_off, "off");
	return 0;
}

const char *devview_shader_stats(void)
{
	return shader_stats_off ? "off" : NULL;
}

const char *devview_cores(void)
{
	return cores_arg[0] ? cores_arg : NULL;
}

const char *devview_workers(void)
{
	return workers_arg[0] ? workers_arg : NULL;
}

/* The device -gpu, -cores, -workers, -shader-stats and -job-timeout
 * describe. */
static struct vgpu_inproc *device_create(void)
{
	struct shim_config cfg = { .gpu = gpu_model,
				   .cores = (unsigned)atoi(cores_arg),
				   .workers = (unsigned)atoi(workers_arg),
				   .job_timeout_ms = (uint32_t)atoi(job_timeout_arg),
				   .no_shader_stats = shader_stats_off };

	return vgpu_inproc_create(&cfg);
}

/* Where -stats writes the driver's statistics at exit and -trace its
 * Chrome/Perfetto trace (absolute), or "". */
static char stats_path[PATH_MAX], trace_path[PATH_MAX];

/* @path made absolute into @out (PATH_MAX bytes), its directory checked
 * writable: the guest may chdir before it exits, and a report that
 * cannot be written should fail before the run. */
static int out_path(const char *path, char *out)
{
	char dir[PATH_MAX / 2], real[PATH_MAX / 2];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;

	if (!*base)
		return -1;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (!realpath(dir, real) || access(real, W_OK))
		return -1;
	if ((size_t)snprintf(out, PATH_MAX, "%s/%.*s", strcmp(real, "/") ? real : "",
			     PATH_MAX / 4, base) >= PATH_MAX)
		return -1;
	return 0;
}

int devview_set_stats(const char *path)
{
	return out_path(path, stats_path);
}

int devview_set_trace(const char *path)
{
	return out_path(path, trace_path);
}

static void emit_file(void *priv, const char *s, size_t n)
{
	fwrite(s, 1, n, priv);
}

static void write_trace(struct vgpu_inproc *ip)
{
	FILE *f = fopen(trace_path, "w");

	if (f)
		shim_trace_write(vgpu_inproc_shim(ip), emit_file, f);
	if (!f || fclose(f))
		fprintf(stderr, "vgpu run: -trace %s: %s\n", trace_path, strerror(errno));
}

const char *devview_stats(void)
{
	return stats_path[0] ? stats_path : NULL;
}

void devview_exit(void)
{
	struct vgpu_inproc *ip;
	size_t len;
	char *buf;
	FILE *f;

	/* The report is the run's: its first process writes it. */
	if ((!stats_path[0] && !trace_path[0]) || forked)
		return;
	pthread_mutex_lock(&lock);
	ip = dev;
	pthread_mutex_unlock(&lock);
	/* A program that never opened a node still gets a (zero) report. */
	if (!ip) {
		ip = dev = device_create();
		if (!ip)
			return;
		if (trace_path[0])
			shim_trace_start(vgpu_inproc_shim(ip));
	}
	if (trace_path[0])
		write_trace(ip);
	if (!stats_path[0])
		return;
	buf = vgpu_inproc_stats_dup(ip, &len);
	if (!buf)
		return;
	f = fopen(stats_path, "w");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		fprintf(stderr, "vgpu run: -stats %s: %s\n", stats_path, strerror(errno));
	free(buf);
}

/* ---- the tree ---- */

/* Ours: a directory owned by us, writable by nobody else, and marked. */
static bool tree_valid(const char *root)
{
	char p[PATH_MAX + 32];
	struct stat st;

	if (lstat(root, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
	    (st.st_mode & 022))
		return false;
	snprintf(p, sizeof(p), "%s/%s", root, TREE_MARKER);
	return !lstat(p, &st) && S_ISREG(st.st_mode) && st.st_uid == getuid();
}

/*
 * Its contents never change, so one tree per user serves every process
 * (forked and exec'd ones too) and needs no clean-up, whatever way a
 * process ends. It is built aside and renamed into place, so a concurrent
 * process sees either none or a whole one.
 */
static void tree_make(void)
{
	const char *tmp = getenv("TMPDIR");
	char base[PATH_MAX], work[PATH_MAX + 16], p[PATH_MAX + 32];
	int fd;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	snprintf(base, sizeof(base), "%s/vgpu-devview-%u-v%d", tmp,
		 (unsigned)getuid(), TREE_VERSION);
	if (!tree_valid(base)) {
		snprintf(work, sizeof(work), "%s.XXXXXX", base);
		if (!mkdtemp(work))
			goto fail;
		snprintf(p, sizeof(p), "%s/%s", work, TREE_MARKER);
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 || close(fd) || chmod(work, 0755) ||
		    dev_tree_populate(work) || (rename(work, base) && !tree_valid(base))) {
			dev_tree_remove(work);
			goto fail;
		}
		/* Another process won the race: its tree is as good. */
		dev_tree_remove(work);
	}
	if (!tree_valid(base))
		goto fail;
	snprintf(tree_root, sizeof(tree_root), "%s", base);
	return;
fail:
	fprintf(stderr, "vgpu run: cannot make the device view's directory %s: %s; "
		"/dev/dri stays the host's\n", base, strerror(errno));
}

const char *devview_path(const char *p, char *buf)
{
	if (!p || p[0] != '/' || !dev_tree_covers(p))
		return p;
	pthread_once(&tree_once, tree_make);
	if (!tree_root[0] || snprintf(buf, PATH_MAX, "%s%s", tree_root, p) >= PATH_MAX)
		return p;
	return buf;
}

/* ---- descriptors ---- */

static void file_put_locked(struct dv_file *df, struct vgpu_inproc_file **close_me)
{
	if (--df->refs == 0) {
		/* An inherited copy is left alone (see the top). */
		*close_me = df->inherited ? NULL : df->f;
		free(df);
	}
}

static void file_put(struct dv_file *df);

/* The parent's side of a child's line: the child's calls on the files it
 * inherited, run on this process's driver with the child's memory (as a
 * kernel runs a forked child's calls on a shared open file). */
static void *fork_serve(void *arg)
{
	struct dv_server *sv = arg;
	struct dv_req q;
	sigset_t all;

	/* Guest signals are for guest threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		ssize_t n = recv(sv->sock, &q, sizeof(q), 0);
		int64_t ret = -ENODEV;

		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(q))
			break; /* the child (and its children) are gone */
		for (size_t i = 0; i < sv->n; i++) {
			struct vgpu_inproc_file *f = sv->files[i]->f;

			if ((uintptr_t)sv->files[i] != q.file)
				continue;
			ret = q.op == DV_REQ_IOCTL ?
				      vgpu_inproc_ioctl_for(f, q.pid, q.cmd, q.arg) :
				      vgpu_inproc_read_for(f, q.pid, q.arg, q.len, q.nonblock);
			break;
		}
		if (send(sv->sock, &ret, sizeof(ret), MSG_NOSIGNAL) != sizeof(ret))
			break;
	}
	close(sv->sock);
	for (size_t i = 0; i < sv->n; i++)
		file_put(sv->files[i]);
	free(sv);
	return NULL;
}

/* A call on an inherited file, run by the parent. */
static long relay(struct dv_file *df, uint32_t op, uint32_t cmd, uint64_t arg,
		  uint64_t len, bool nonblock)
{
	struct dv_req q = { .op = op, .cmd = cmd, .nonblock = nonblock, .pid = getpid(),
			    .file = (uintptr_t)df, .arg = arg, .len = len };
	struct dv_conn *c = df->conn;
	int64_t ret = -ENODEV;
	ssize_t n;

	pthread_mutex_lock(&c->lock);
	if (send(c->sock, &q, sizeof(q), MSG_NOSIGNAL) == sizeof(q)) {
		while ((n = recv(c->sock, &ret, sizeof(ret), 0)) < 0 && errno == EINTR)
			;
		if (n != sizeof(ret))
			ret = -ENODEV; /* the parent is gone */
	}
	pthread_mutex_unlock(&c->lock);
	return ret;
}

static bool served(const struct dv_server *sv, const struct dv_file *df)
{
	for (size_t i = 0; sv && i < sv->n; i++)
		if (sv->files[i] == df)
			return true;
	return false;
}

/*
 * Around fork(): no other thread may hold the table's lock in the child.
 * The parent will serve the child's calls on the files that are its own
 * (the others it inherited itself, and cannot run); every file of the
 * child becomes inherited, and its next open gets a device of its own.
 */
static void fork_prepare(void)
{
	size_t n = 0;
	int sp[2];

	pthread_mutex_lock(&lock);
	fork_server = NULL;
	for (size_t i = 0; i < nfds; i++)
		n += fds[i] && !fds[i]->inherited;
	if (!n || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp))
		return;
	fork_server = malloc(sizeof(*fork_server) + n * sizeof(fork_server->files[0]));
	if (!fork_server) {
		close(sp[0]);
		close(sp[1]);
		return;
	}
	fork_server->sock = sp[0];
	fork_server->n = 0;
	fork_sock = sp[1];
	for (size_t i = 0; i < nfds; i++) {
		struct dv_file *df = fds[i];

		if (df && !df->inherited && !served(fork_server, df)) {
			df->refs++; /* the server's, until the child is gone */
			fork_server->files[fork_server->n++] = df;
		}
	}
}

static void fork_parent(void)
{
	struct dv_server *sv = fork_server;
	pthread_attr_t attr;
	pthread_t t;
	bool started = false;

	fork_server = NULL;
	if (sv) {
		close(fork_sock);
		fork_sock = -1;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		started = !pthread_create(&t, &attr, fork_serve, sv);
		pthread_attr_destroy(&attr);
	}
	pthread_mutex_unlock(&lock);
	if (sv && !started) {
		/* The child's calls then find the line closed: ENODEV. */
		close(sv->sock);
		for (size_t i = 0; i < sv->n; i++)
			file_put(sv->files[i]);
		free(sv);
	}
}

static void fork_child(void)
{
	struct dv_server *sv = fork_server;
	struct dv_conn *conn = NULL;

	forks++;
	if (sv) {
		close(sv->sock);
		conn = malloc(sizeof(*conn));
		if (conn) {
			conn->sock = fork_sock;
			pthread_mutex_init(&conn->lock, NULL);
		} else {
			close(fork_sock);
		}
	}
	for (size_t i = 0; i < nfds; i++) {
		struct dv_file *df = fds[i];

		if (!df || df->forks == forks)
			continue;
		df->forks = forks;
		df->inherited = true;
		/* A line of the parent's own (to its parent) is not ours. */
		if (df->conn && df->conn->sock >= 0) {
			close(df->conn->sock);
			df->conn->sock = -1;
		}
		df->conn = served(sv, df) ? conn : NULL;
		/* A file nobody runs for us shows an eventfd of our own, so
		 * that our calls on the copy never change the parent's
		 * readiness; a served one keeps the parent's, as a shared
		 * kernel file would. */
		if (!df->conn && df->node) {
			int efd = vgpu_inproc_after_fork(df->f);

			for (size_t j = i; efd >= 0 && j < nfds; j++)
				if (fds[j] == df)
					dup3(efd, (int)j, fcntl((int)j, F_GETFD) & FD_CLOEXEC ?
							   O_CLOEXEC : 0);
		}
	}
	for (struct dv_map *m = maps; m; m = m->next)
		m->file->inherited = true;
	free(sv);
	fork_server = NULL;
	fork_sock = -1;
	dev = NULL;
	forked = true;
	pthread_mutex_unlock(&lock);
}

static void fork_hooks(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* Whether ioctl @cmd needs the GPU to run something. */
static bool runs_on_gpu(unsigned cmd)
{
	return cmd == DRM_IOCTL_PANFROST_SUBMIT || cmd == KB_IOCTL_JOB_SUBMIT ||
	       cmd == DRM_IOCTL_PANFROST_PERFCNT_ENABLE ||
	       cmd == DRM_IOCTL_PANFROST_PERFCNT_DUMP;
}

/* What an inherited file cannot do here (see the top): ENODEV, said
 * once. */
static long inherited_submit(void)
{
	static bool said;

	if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		fprintf(stderr, "vgpu run: a GPU file inherited over two forks cannot be "
			"used (its driver runs in a process that does not serve this one); "
			"opening the node again gives a GPU of this process's own: ENODEV\n");
	return -ENODEV;
}

static void file_put(struct dv_file *df)
{
	struct vgpu_inproc_file *c = NULL;

	pthread_mutex_lock(&lock);
	file_put_locked(df, &c);
	pthread_mutex_unlock(&lock);
	/* Outside the lock: release waits for the file's calls to end. */
	vgpu_inproc_close(c);
}

/* The file behind guest descriptor @fd with a reference, or NULL. */
static struct dv_file *file_get(int fd)
{
	struct dv_file *df = NULL;

	if (!__atomic_load_n(&open_count, __ATOMIC_ACQUIRE) || fd < 0)
		return NULL;
	pthread_mutex_lock(&lock);
	if ((size_t)fd < nfds && (df = fds[fd]))
		df->refs++;
	pthread_mutex_unlock(&lock);
	return df;
}

/* @fd now refers to @df (or nothing); drops what it referred to. */
static int fd_bind_locked(int fd, struct dv_file *df, struct vgpu_inproc_file **close_me)
{
	struct dv_file *old;

	if ((size_t)fd >= nfds) {
		size_t n = nfds ? nfds : 64;
		struct dv_file **nv;

		if (!df)
			return 0;
		while (n <= (size_t)fd)
			n *= 2;
		nv = realloc(fds, n * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		memset(nv + nfds, 0, (n - nfds) * sizeof(*nv));
		fds = nv;
		nfds = n;
	}
	old = fds[fd];
	fds[fd] = df;
	if (df) {
		df->refs++;
		__atomic_add_fetch(&open_count, 1, __ATOMIC_RELEASE);
	}
	if (old) {
		__atomic_sub_fetch(&open_count, 1, __ATOMIC_RELEASE);
		file_put_locked(old, close_me);
	}
	return 0;
}

static void fd_bind(int fd, struct dv_file *df)
{
	struct vgpu_inproc_file *c = NULL;

	pthread_mutex_lock(&lock);
	if (fd_bind_locked(fd, df, &c) && df) {
		/* No room to remember it: the copy cannot reach the file. */
		close(fd);
	}
	pthread_mutex_unlock(&lock);
	vgpu_inproc_close(c);
}

/* A guest signal the calling thread does not block is waiting. */
static bool guest_signal_pending(void)
{
	struct gthread *t = thread_self();

	return t && (t->pending & ~t->sigmask);
}

/* A file the driver created in an ioctl (a PRIME dma-buf, a sync_file:
 * fuse-dev/inproc.h) gets a guest descriptor like a node's: a duplicate
 * of its pipe or eventfd, with calls on it routed to the file. It has no
 * node (@node NULL): fstat shows the pipe itself. */
static int install_object(struct vgpu_inproc_file *f, bool cloexec)
{
	struct dv_file *df = calloc(1, sizeof(*df));
	int fd;

	if (!df)
		return -ENOMEM;
	df->f = f;
	df->oflags = O_RDWR;
	fd = fcntl(vgpu_inproc_pollfd(f), cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (fd < 0) {
		fd = -errno;
		free(df);
		return fd;
	}
	fd_bind(fd, df);
	return fd;
}

static struct vgpu_inproc *device(void)
{
	struct vgpu_inproc *ip;

	pthread_once(&fork_once, fork_hooks);
	pthread_mutex_lock(&lock);
	if (!dev) {
		dev = device_create();
		vgpu_inproc_set_interrupt_check(guest_signal_pending);
		vgpu_inproc_set_install_hook(install_object);
		if (dev && trace_path[0])
			shim_trace_start(vgpu_inproc_shim(dev));
		/* Which mode serves the nodes: only when asked for,
		 * so that the program's own output stays clean. */
		if (dev && abi_opts.strace)
			fprintf(stderr, "vgpu run: /dev/dri/renderD128 and /dev/mali0 are "
				"served in process (%s, no FUSE)\n",
				gpu_model == SHIM_GPU_G52 ? "Mali-G52" : "Mali-G71");
	}
	ip = dev;
	pthread_mutex_unlock(&lock);
	return ip;
}

long devview_open(const char *raw, int host_flags)
{
	const struct dev_tree_node *n = dev_tree_node_of(raw);
	struct vgpu_inproc *ip;
	struct dv_file *df;
	int ret, fd;

	if (!n)
		return -ENOENT;
	if ((host_flags & O_DIRECTORY) || (host_flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return (host_flags & O_DIRECTORY) ? -ENOTDIR : -EEXIST;
	if (!(ip = device()))
		return -ENODEV;
	if (!(df = calloc(1, sizeof(*df))))
		return -ENOMEM;
	ret = vgpu_inproc_open(ip, n->name, &df->f);
	if (ret) {
		free(df);
		return ret;
	}
	df->node = n;
	df->oflags = host_flags & (O_ACCMODE | O_NONBLOCK | O_APPEND);
	fd = fcntl(vgpu_inproc_pollfd(df->f),
		   (host_flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (fd < 0) {
		ret = -errno;
		vgpu_inproc_close(df->f);
		free(df);
		return ret;
	}
	fd_bind(fd, df);
	return fd;
}

/* Whether guest descriptor @fd is a node (one load when none is open). */
static bool fd_is_node(int fd)
{
	bool yes;

	if (!__atomic_load_n(&open_count, __ATOMIC_ACQUIRE) || fd < 0)
		return false;
	pthread_mutex_lock(&lock);
	yes = (size_t)fd < nfds && fds[fd];
	pthread_mutex_unlock(&lock);
	return yes;
}

/* After a successful dup of @oldfd to @newfd (which the host closed
 * first if it was open). */
static void dup_done(int oldfd, int newfd)
{
	struct dv_file *df = file_get(oldfd);

	if (!df && !fd_is_node(newfd))
		return;
	fd_bind(newfd, df);
	if (df)
		file_put(df);
}

long sys_close(struct gthread *t, const uint64_t *a)
{
	struct vgpu_inproc_file *c = NULL;
	int fd = (int)a[0];
	long r;

	(void)t;
	if (!fd_is_node(fd))
		return close(fd) ? -errno : 0;
	/* Under the lock, so that no other thread's open can get the number
	 * before the table forgets it. The descriptor is gone even when
	 * close reports an error. */
	pthread_mutex_lock(&lock);
	r = close(fd) ? -errno : 0;
	if (r != -EBADF)
		fd_bind_locked(fd, NULL, &c);
	pthread_mutex_unlock(&lock);
	vgpu_inproc_close(c);
	return r;
}

long sys_dup(struct gthread *t, const uint64_t *a)
{
	long r = syscall(SYS_dup, (int)a[0]);

	(void)t;
	if (r < 0)
		return -errno;
	dup_done((int)a[0], (int)r);
	return r;
}

long sys_dup3(struct gthread *t, const uint64_t *a)
{
	long r = syscall(SYS_dup3, (int)a[0], (int)a[1], oflags_to_host(a[2]));

	(void)t;
	if (r < 0)
		return -errno;
	dup_done((int)a[0], (int)r);
	return r;
}

long sys_close_range(struct gthread *t, const uint64_t *a)
{
	unsigned first = (unsigned)a[0], last = (unsigned)a[1];

	(void)t;
	if (syscall(SYS_close_range, first, last, (unsigned)a[2]))
		return -errno;
	/* CLOSE_RANGE_CLOEXEC (4) only marks them. */
	if (a[2] & 4)
		return 0;
	/* Only descriptors the table knows can be nodes. */
	pthread_mutex_lock(&lock);
	size_t end = last < nfds ? (size_t)last + 1 : nfds;
	pthread_mutex_unlock(&lock);
	for (size_t fd = first; fd < end; fd++)
		if (fd_is_node((int)fd))
			fd_bind((int)fd, NULL);
	return 0;
}

/* ---- calls on an open node ---- */

long sys_ioctl(struct gthread *t, const uint64_t *a)
{
	struct dv_file *df = file_get((int)a[0]);
	long r;

	if (!df)
		return safe_syscall(t, SYS_ioctl, a);
	/* An import maps the caller's memory in place: the parent's. */
	if (df->inherited && df->conn && (unsigned)a[1] != KB_IOCTL_MEM_IMPORT)
		r = relay(df, DV_REQ_IOCTL, (unsigned)a[1], a[2], 0, false);
	else if (df->inherited && (df->conn || !df->node || runs_on_gpu((unsigned)a[1])))
		r = inherited_submit();
	else
		r = vgpu_inproc_ioctl(df->f, (unsigned)a[1], (void *)a[2]);
	file_put(df);
	return r;
}

long sys_read(struct gthread *t, const uint64_t *a)
{
	struct dv_file *df = file_get((int)a[0]);
	long r;

	if (!df)
		return safe_syscall(t, SYS_read, a);
	/* No GPU event reaches the copy: only the parent can read them. */
	if (df->inherited && df->conn)
		r = relay(df, DV_REQ_READ, 0, a[1], a[2], df->oflags & O_NONBLOCK);
	else if (df->inherited)
		r = inherited_submit();
	else
		r = vgpu_inproc_read(df->f, (void *)a[1], a[2], df->oflags & O_NONBLOCK);
	file_put(df);
	return r;
}

long sys_write(struct gthread *t, const uint64_t *a)
{
	struct dv_file *df = file_get((int)a[0]);

	if (!df)
		return safe_syscall(t, SYS_write, a);
	/* Neither driver has a write handler. */
	file_put(df);
	return -EINVAL;
}

long devview_dupfd(int fd, int cmd, uint64_t arg)
{
	long r = syscall(SYS_fcntl, fd, cmd, arg);

	if (r < 0)
		return -errno;
	dup_done(fd, (int)r);
	return r;
}

/* F_GETFL/F_SETFL of a node, or 1 when @fd is none. */
long devview_fcntl(int fd, int cmd, uint64_t arg)
{
	struct dv_file *df = file_get(fd);
	long r = 0;

	if (!df)
		return 1;
	if (cmd == F_GETFL) {
		r = (long)oflags_to_guest(df->oflags | 0100000 /* O_LARGEFILE */);
	} else {
		int h = oflags_to_host(arg);

		pthread_mutex_lock(&lock);
		df->oflags = (df->oflags & ~(O_NONBLOCK | O_APPEND)) |
			     (h & (O_NONBLOCK | O_APPEND));
		pthread_mutex_unlock(&lock);
	}
	file_put(df);
	return r;
}

/* What fstat shows for descriptor @fd if it is a node: 0 and @st filled,
 * 1 when it is none, or -errno. */
int devview_fstat(int fd, struct stat *st)
{
	struct dv_file *df = file_get(fd);
	char buf[PATH_MAX];
	int r = 0;

	if (!df)
		return 1;
	if (!df->node) {
		file_put(df);
		return 1;
	}
	/* The tree file's identity, so that stat and fstat agree. */
	if (stat(devview_path(df->node->path, buf), st))
		r = -errno;
	else
		dev_tree_stat_as_node(df->node, st);
	file_put(df);
	return r;
}

const char *devview_node_path(int fd)
{
	struct dv_file *df = file_get(fd);
	const char *p;

	if (!df)
		return NULL;
	p = df->node ? df->node->path : NULL;
	file_put(df);
	return p;
}

void devview_stat_as_node(const char *raw, struct stat *st)
{
	const struct dev_tree_node *n = dev_tree_node_of(raw);

	if (n)
		dev_tree_stat_as_node(n, st);
}

const char *devview_tree_root(void)
{
	return tree_root[0] ? tree_root : NULL;
}

/* ---- mappings ---- */

long devview_mmap(int fd, uint64_t addr, uint64_t len, int prot, int flags,
		  uint64_t off, bool *handled)
{
	struct dv_file *df = (flags & MAP_ANONYMOUS) ? NULL : file_get(fd);
	struct dv_map *m;
	int err = 0;
	void *p;

	*handled = df != NULL;
	if (!df)
		return 0;
	if (!(m = calloc(1, sizeof(*m)))) {
		file_put(df);
		return -ENOMEM;
	}
	p = vgpu_inproc_mmap(df->f, (void *)addr, len, prot, flags, (off_t)off, &err);
	if (p == MAP_FAILED) {
		free(m);
		file_put(df);
		return -err;
	}
	/* The mapping keeps the reference taken above, as a VMA keeps its
	 * file open. */
	m->addr = (uint64_t)p;
	m->len = len;
	m->file = df;
	pthread_mutex_lock(&lock);
	m->next = maps;
	maps = m;
	pthread_mutex_unlock(&lock);
	return (long)p;
}

long devview_munmap(uint64_t addr, uint64_t len, bool *handled)
{
	struct dv_map **pp, *m = NULL;
	long r;

	*handled = false;
	if (!__atomic_load_n(&maps, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&lock);
	for (pp = &maps; *pp; pp = &(*pp)->next) {
		if ((*pp)->addr == addr) {
			m = *pp;
			*pp = m->next;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	if (!m)
		return 0;
	*handled = true;
	/* The driver's vm_close, then the host unmap (an inherited copy's
	 * driver is left alone). */
	if (m->file->inherited)
		r = munmap((void *)addr, len ? len : m->len) ? -errno : 0;
	else
		r = vgpu_inproc_munmap(m->file->f, (void *)addr, len ? len : m->len);
	file_put(m->file);
	free(m);
	return r;
}

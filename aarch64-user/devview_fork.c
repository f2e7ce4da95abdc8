// SPDX-License-Identifier: MIT
/*
 * fork() and the device view: the driver lives in this process, so a
 * child gets a copy of it without its GPU threads (only the forking thread
 * survives a fork). As on Linux, where the child shares its parent's open
 * files, the files the child inherits stay the parent's: the child's
 * ioctls, reads and lseeks on them travel to the parent as requests of
 * the socket transport (fuse-dev/socket_proto.h, the protocol `vgpu dev
 * --socket` and the preload library speak), one connection per file,
 * served by a thread of the parent on its driver (vgpu_inproc_serve()).
 * The driver's user copies come back as COPY_IN/COPY_OUT, which the child
 * answers from its own memory, so the child's jobs run on the parent's
 * GPU, its events are read from the parent's file, and the guest
 * descriptors keep the parent's eventfd.
 *
 * What that cannot do is ENODEV: an import of the child's own memory, and
 * any use of a file inherited over two forks (its driver is not the
 * parent's; those files get an eventfd of the child's own). Mappings are
 * made from the child's copy of the driver: memory the child created
 * through such a file cannot be mapped (the copy does not know it). No
 * descriptor is handed to the child (a PRIME or sync_file export on an
 * inherited file fails as over FUSE). Nodes the child opens itself get a
 * device of its own, with its own GPU. The copy is never released (its
 * locks may have been held by a thread that did not come along), and the
 * child writes no -stats/-trace report.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "aarch64-user/devview.h"
#include "driver-shim/uapi_drm.h"
#include "driver-shim/uapi_kbase.h"
#include "fuse-dev/socket_io.h"

/* A forked child's connection to its parent for one inherited file:
 * one request at a time. */
struct dv_line {
	int sock;
	pthread_mutex_t lock;
};

/* One file a parent serves a child, and the two ends of its connection. */
struct dv_lent {
	struct dv_file *df;
	int sock[2]; /* the parent's, the child's */
};

/* Between fork_prepare() and the other two: the files the child will be
 * served. */
static struct dv_lent *lent;
static size_t nlent;
/* Forks this process's line went through. */
static unsigned forks;
static pthread_once_t watch_once = PTHREAD_ONCE_INIT;

static struct dv_lent *lent_of(const struct dv_file *df)
{
	for (size_t i = 0; i < nlent; i++)
		if (lent[i].df == df)
			return &lent[i];
	return NULL;
}

/* The parent's side of one line: the child's calls on the file, run on
 * this process's driver (as a kernel runs a forked child's calls on a
 * shared open file), until the child and its children are gone. */
static void *serve_child(void *arg)
{
	struct dv_lent *l = arg;
	sigset_t all;

	/* Guest signals are for guest threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	vgpu_inproc_serve(l->df->f, l->sock[0]);
	close(l->sock[0]);
	dv_file_put(l->df);
	free(l);
	return NULL;
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

	pthread_mutex_lock(&dv_lock);
	nlent = 0;
	for (size_t i = 0; i < dv_nfds; i++)
		n += dv_fds[i] && !dv_fds[i]->inherited;
	lent = n ? calloc(n, sizeof(*lent)) : NULL;
	for (size_t i = 0; lent && i < dv_nfds; i++) {
		struct dv_file *df = dv_fds[i];
		struct dv_lent *l = &lent[nlent];

		if (!df || df->inherited || lent_of(df) ||
		    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, l->sock))
			continue;
		l->df = df;
		df->refs++; /* the parent's line's, until the child is gone */
		nlent++;
	}
}

static void fork_parent(void)
{
	struct dv_lent *ls = lent;
	size_t n = nlent;
	bool *started = calloc(n ? n : 1, sizeof(*started));

	lent = NULL;
	nlent = 0;
	for (size_t i = 0; i < n; i++) {
		struct dv_lent *l = started ? malloc(sizeof(*l)) : NULL;
		pthread_attr_t attr;
		pthread_t t;

		close(ls[i].sock[1]);
		if (!l)
			continue;
		*l = ls[i];
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		started[i] = !pthread_create(&t, &attr, serve_child, l);
		pthread_attr_destroy(&attr);
		if (!started[i])
			free(l);
	}
	pthread_mutex_unlock(&dv_lock);
	for (size_t i = 0; i < n; i++) {
		if (started && started[i])
			continue;
		/* The child's calls then find the line closed: ENODEV. */
		close(ls[i].sock[0]);
		dv_file_put(ls[i].df);
	}
	free(started);
	free(ls);
}

/* @df's line to the parent that serves it, or NULL. */
static struct dv_line *line_new(struct dv_lent *l)
{
	struct dv_line *line = l ? malloc(sizeof(*line)) : NULL;

	if (!l)
		return NULL;
	if (!line) {
		close(l->sock[1]);
		return NULL;
	}
	line->sock = l->sock[1];
	pthread_mutex_init(&line->lock, NULL);
	return line;
}

static void fork_child(void)
{
	forks++;
	for (size_t i = 0; i < nlent; i++)
		close(lent[i].sock[0]);
	for (size_t i = 0; i < dv_nfds; i++) {
		struct dv_file *df = dv_fds[i];

		if (!df || df->forks == forks)
			continue;
		df->forks = forks;
		df->inherited = true;
		/* A line of the parent's own (to its parent) is not ours. */
		if (df->line && df->line->sock >= 0) {
			close(df->line->sock);
			df->line->sock = -1;
		}
		df->line = line_new(lent_of(df));
		/* A file nobody runs for us shows an eventfd of our own, so
		 * that our calls on the copy never change the parent's
		 * readiness; a served one keeps the parent's, as a shared
		 * kernel file would. */
		if (!df->line && df->node) {
			int efd = vgpu_inproc_after_fork(df->f);

			for (size_t j = i; efd >= 0 && j < dv_nfds; j++)
				if (dv_fds[j] == df)
					dup3(efd, (int)j, fcntl((int)j, F_GETFD) & FD_CLOEXEC ?
							   O_CLOEXEC : 0);
		}
	}
	for (struct dv_map *m = dv_maps; m; m = m->next)
		m->file->inherited = true;
	free(lent);
	lent = NULL;
	nlent = 0;
	dv_dev = NULL;
	dv_forked = true;
	pthread_mutex_unlock(&dv_lock);
}

static void fork_hooks(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

void dv_fork_watch(void)
{
	pthread_once(&watch_once, fork_hooks);
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
static long unusable(void)
{
	static bool said;

	if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		fprintf(stderr, "vgpu run: a GPU file inherited over two forks cannot be "
			"used (its driver runs in a process that does not serve this one); "
			"opening the node again gives a GPU of this process's own: ENODEV\n");
	return -ENODEV;
}

long dv_inherited_ioctl(struct dv_file *df, unsigned cmd, uint64_t arg)
{
	struct dv_line *line = df->line;
	long r;
	int err;

	/* An import maps the caller's memory in place: the parent's. */
	if (line && cmd != KB_IOCTL_MEM_IMPORT) {
		pthread_mutex_lock(&line->lock);
		err = sock_call_ioctl(line->sock, cmd, (void *)(uintptr_t)arg, NULL, &r);
		pthread_mutex_unlock(&line->lock);
		return err ? -ENODEV : r; /* the parent is gone */
	}
	/* The child's copy of the driver answers what runs nothing. */
	if (line || !df->node || runs_on_gpu(cmd))
		return unusable();
	return vgpu_inproc_ioctl(df->f, cmd, (void *)(uintptr_t)arg);
}

long dv_inherited_read(struct dv_file *df, uint64_t buf, uint64_t len)
{
	struct dv_line *line = df->line;
	long r;
	int err;

	/* No GPU event reaches the copy: only the parent can read them. */
	if (!line)
		return unusable();
	pthread_mutex_lock(&line->lock);
	err = sock_call_read(line->sock, (void *)(uintptr_t)buf, len,
			     df->oflags & O_NONBLOCK, NULL, &r);
	pthread_mutex_unlock(&line->lock);
	return err ? -ENODEV : r;
}

long dv_inherited_lseek(struct dv_file *df, int64_t off, int whence)
{
	struct dv_line *line = df->line;
	int64_t r;
	int err;

	/* Nothing runs for it: the copy of the driver knows every size. */
	if (!line)
		return (long)vgpu_inproc_lseek(df->f, (off_t)off, whence);
	pthread_mutex_lock(&line->lock);
	err = sock_call_lseek(line->sock, off, whence, &r);
	pthread_mutex_unlock(&line->lock);
	return err ? -ENODEV : (long)r;
}

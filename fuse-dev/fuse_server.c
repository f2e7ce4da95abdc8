// SPDX-License-Identifier: MIT
/*
 * The FUSE file system of `vgpu dev`: a root directory holding mali0,
 * renderD128 and stats. Device files use direct I/O (every read reaches
 * us: kbase events) and are not seekable. Requests run on libfuse's
 * worker threads, or on the io_uring transport's (fuse_uring.c), which
 * hands them to these same operations; each open file counts the requests
 * inside the driver so release() can wake blocked ones and wait for them
 * before the driver frees the file (a client may die in the middle of an
 * ioctl).
 */
#include "fuse-dev/fuse_server.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board/board.h"
#include "driver-shim/uapi_ioc.h"
#include "fuse-dev/fobj_fd.h"
#include "fuse-dev/fuse_handoff.h"
#include "fuse-dev/fuse_mmap.h"

enum { INO_ROOT = 1, INO_MALI, INO_RENDER, INO_STATS, INO_COUNT };

static const char *const ino_name[INO_COUNT] = {
	[INO_MALI] = "mali0", [INO_RENDER] = "renderD128", [INO_STATS] = "stats",
};

struct dev_fh {
	struct server_file hook; /* first: the shim's host data */
	struct server *srv;
	struct shim_file *sf; /* NULL for the stats file */
	char *text;           /* stats snapshot taken at open */
	size_t text_len;
	pthread_mutex_t lock;
	pthread_cond_t idle;
	int active;
	bool closing;
	struct fuse_pollhandle *ph;
	struct dev_fh *prev, *next; /* server.open_files */
};

bool node_fh_closing(struct dev_fh *fh)
{
	bool c;

	pthread_mutex_lock(&fh->lock);
	c = fh->closing;
	pthread_mutex_unlock(&fh->lock);
	return c;
}

static struct dev_fh *fh_of(struct fuse_file_info *fi)
{
	return (struct dev_fh *)(uintptr_t)fi->fh;
}

static bool fh_enter(struct dev_fh *fh)
{
	bool ok;

	pthread_mutex_lock(&fh->lock);
	ok = !fh->closing;
	if (ok)
		fh->active++;
	pthread_mutex_unlock(&fh->lock);
	return ok;
}

static void fh_leave(struct dev_fh *fh)
{
	pthread_mutex_lock(&fh->lock);
	if (!--fh->active)
		pthread_cond_broadcast(&fh->idle);
	pthread_mutex_unlock(&fh->lock);
}

/* The kernel checks opens against these (default_permissions). */
static void fill_attr(const struct server *srv, fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_uid = srv->node_uid;
	st->st_gid = srv->node_gid;
	if (ino == INO_ROOT) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else {
		/* The statistics describe every client's jobs: readable by
		 * those who may use the GPU. */
		st->st_mode = S_IFREG | (ino == INO_STATS ? srv->node_mode & 0444 :
					  srv->node_mode);
		st->st_nlink = 1;
	}
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	const struct server *srv = fuse_req_userdata(req);
	struct fuse_entry_param e;

	memset(&e, 0, sizeof(e));
	if (parent != INO_ROOT) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	for (fuse_ino_t i = INO_MALI; i < INO_COUNT; i++) {
		if (strcmp(ino_name[i], name))
			continue;
		e.ino = i;
		e.attr_timeout = e.entry_timeout = 3600.0;
		fill_attr(srv, i, &e.attr);
		fuse_reply_entry(req, &e);
		return;
	}
	fuse_reply_err(req, ENOENT);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (ino < INO_ROOT || ino >= INO_COUNT) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_attr(fuse_req_userdata(req), ino, &st);
	fuse_reply_attr(req, &st, 3600.0);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	static const char *const names[] = { ".", "..", "mali0", "renderD128", "stats" };
	static const fuse_ino_t inos[] = { INO_ROOT, INO_ROOT, INO_MALI, INO_RENDER, INO_STATS };
	char buf[1024];
	size_t pos = 0;

	(void)fi;
	if (ino != INO_ROOT) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	for (off_t i = off; i < (off_t)(sizeof(names) / sizeof(names[0])); i++) {
		struct stat st;
		size_t n;

		fill_attr(fuse_req_userdata(req), inos[i], &st);
		n = fuse_add_direntry(req, buf + pos, OS_MIN(size, sizeof(buf)) - pos,
				      names[i], &st, i + 1);
		if (n > OS_MIN(size, sizeof(buf)) - pos)
			break;
		pos += n;
	}
	fuse_reply_buf(req, buf, pos);
}

static void host_notify(void *priv, struct shim_file *f)
{
	struct server_file *hf = shim_file_host_data(f);

	(void)priv;
	if (hf)
		hf->notify(hf);
}

static void fh_notify(struct server_file *hf)
{
	struct dev_fh *fh = (struct dev_fh *)hf;
	struct fuse_pollhandle *ph;

	pthread_mutex_lock(&fh->lock);
	ph = fh->ph;
	fh->ph = NULL;
	pthread_mutex_unlock(&fh->lock);
	if (ph) {
		fuse_lowlevel_notify_poll(ph);
		fuse_pollhandle_destroy(ph);
	}
}

static void fh_track(struct server *srv, struct dev_fh *fh)
{
	pthread_mutex_lock(&srv->lock);
	fh->next = srv->open_files;
	if (fh->next)
		fh->next->prev = fh;
	srv->open_files = fh;
	pthread_mutex_unlock(&srv->lock);
}

static void fh_free(struct dev_fh *fh)
{
	struct server *srv = fh->srv;

	pthread_mutex_lock(&srv->lock);
	if (fh->prev)
		fh->prev->next = fh->next;
	else
		srv->open_files = fh->next;
	if (fh->next)
		fh->next->prev = fh->prev;
	pthread_mutex_unlock(&srv->lock);
	if (fh->sf)
		shim_release(fh->sf);
	handoff_forget(srv->handoff, fh);
	if (fh->ph)
		fuse_pollhandle_destroy(fh->ph);
	pthread_cond_destroy(&fh->idle);
	pthread_mutex_destroy(&fh->lock);
	free(fh->text);
	free(fh);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct server *srv = fuse_req_userdata(req);
	struct dev_fh *fh;
	struct node_caller c;
	int ret = 0;

	if (ino == INO_ROOT) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if (ino >= INO_COUNT) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fh = calloc(1, sizeof(*fh));
	if (!fh) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fh->hook.notify = fh_notify;
	fh->srv = srv;
	pthread_mutex_init(&fh->lock, NULL);
	pthread_cond_init(&fh->idle, NULL);
	if (ino == INO_STATS) {
		/* One whole snapshot per open: reads page through it. */
		fh->text = board_stats_json_dup(srv->board, &fh->text_len);
		if (!fh->text)
			ret = -ENOMEM;
	} else {
		node_caller_init(&c, req, NULL);
		ret = shim_open(srv->dev, ino == INO_MALI ? SHIM_NODE_KBASE : SHIM_NODE_PANFROST,
				&c.base, &fh->sf);
		if (!ret)
			shim_file_set_host_data(fh->sf, &fh->hook);
	}
	if (ret) {
		free(fh->text);
		free(fh);
		fuse_reply_err(req, -ret);
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)fh;
	fi->direct_io = 1;
	fi->nonseekable = ino != INO_STATS;
	fi->keep_cache = 0;
	fh_track(srv, fh);
	/* The opener vanished before the reply: no release will come. */
	if (fuse_reply_open(req, fi) == -ENOENT)
		fh_free(fh);
}

static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct dev_fh *fh = fh_of(fi);

	(void)ino;
	pthread_mutex_lock(&fh->lock);
	fh->closing = true;
	while (fh->active)
		pthread_cond_wait(&fh->idle, &fh->lock);
	pthread_mutex_unlock(&fh->lock);
	fh_free(fh);
	fuse_reply_err(req, 0);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct dev_fh *fh = fh_of(fi);
	struct node_caller c;
	char *buf;
	long n;

	(void)ino;
	if (!fh_enter(fh)) {
		fuse_reply_err(req, EBADF);
		return;
	}
	if (!fh->sf) {
		size_t o = (size_t)off < fh->text_len ? (size_t)off : fh->text_len;

		/* The client may close (and RELEASE may run) as soon as the
		 * kernel has the reply, before writev() returns here: keep
		 * the snapshot alive until then. */
		fuse_reply_buf(req, fh->text + o, OS_MIN(size, fh->text_len - o));
		fh_leave(fh);
		return;
	}
	buf = malloc(size ? size : 1);
	if (!buf) {
		fh_leave(fh);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	node_caller_init(&c, req, fh);
	n = shim_read(fh->sf, &c.base, buf, size, fi->flags & O_NONBLOCK);
	fh_leave(fh);
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	free(buf);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)ino, (void)buf, (void)size, (void)off, (void)fi;
	/* Neither driver implements write(). */
	fuse_reply_err(req, EINVAL);
}

static int mmap_ioctl(fuse_req_t req, struct dev_fh *fh, unsigned cmd,
		      struct vgpu_dev_mmap *m)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);
	struct shim_mmap_info info;
	int ret;

	switch (cmd) {
	case VGPU_DEV_IOC_MMAP_PREPARE:
		ret = shim_mmap_prepare(fh->sf, m->pgoff, m->length, m->prot, &info);
		if (ret)
			return ret;
		m->ticket = 0;
		m->channel = handoff_channel(fh->srv->handoff);
		/* The memfd goes to the caller's process only (no /proc path:
		 * the server is not dumpable, and that path would serve any
		 * process allowed to open it). */
		if (!(info.flags & SHIM_MMAP_RESERVE_ONLY)) {
			m->ticket = handoff_issue(fh->srv->handoff, fh, info.backing,
						  ctx->pid, ctx->uid);
			if (!m->ticket)
				return -ENOMEM;
		}
		m->offset = info.offset;
		m->flags = info.flags; /* SHIM_MMAP_* == VGPU_DEV_MMAP_* */
		return 0;
	case VGPU_DEV_IOC_MMAP_COMMIT:
		return shim_mmap_commit(fh->sf, m->pgoff, m->length, m->cpu_va);
	case VGPU_DEV_IOC_MUNMAP:
		return shim_munmap(fh->sf, m->cpu_va, m->length);
	}
	return -ENOTTY;
}

static void op_ioctl(fuse_req_t req, fuse_ino_t ino, unsigned int cmd, void *arg,
		     struct fuse_file_info *fi, unsigned flags, const void *in_buf,
		     size_t in_bufsz, size_t out_bufsz)
{
	struct dev_fh *fh = fh_of(fi);
	size_t size = SHIM_IOC_SIZE(cmd);
	struct node_caller c;
	uint8_t *buf;
	long ret;

	(void)ino, (void)arg;
	if (!fh->sf) {
		fuse_reply_err(req, ENOTTY);
		return;
	}
	if (flags & FUSE_IOCTL_COMPAT) {
		/* 32-bit clients are not supported (kbase would want compat
		 * handling of every pointer). */
		fuse_reply_err(req, ENOTTY);
		return;
	}
	if (!fh_enter(fh)) {
		fuse_reply_err(req, EBADF);
		return;
	}
	/* Zero beyond what the client passed: DRM's short-struct rule. */
	buf = calloc(1, OS_MAX(size, (size_t)SHIM_IOC_MAX_ARG));
	if (!buf) {
		fh_leave(fh);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (in_bufsz)
		memcpy(buf, in_buf, OS_MIN(in_bufsz, OS_MAX(size, (size_t)SHIM_IOC_MAX_ARG)));
	if (SHIM_IOC_TYPE(cmd) == VGPU_DEV_IOC_TYPE &&
	    size == sizeof(struct vgpu_dev_mmap)) {
		ret = mmap_ioctl(req, fh, cmd, (struct vgpu_dev_mmap *)buf);
	} else {
		node_caller_init(&c, req, fh);
		ret = shim_ioctl(fh->sf, &c.base, cmd, buf);
	}
	fh_leave(fh);
	if (ret < 0)
		fuse_reply_err(req, (int)-ret);
	else
		fuse_reply_ioctl(req, (int)ret, out_bufsz ? buf : NULL,
				 OS_MIN(out_bufsz, OS_MAX(size, (size_t)SHIM_IOC_MAX_ARG)));
	free(buf);
}

static void op_poll(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
		    struct fuse_pollhandle *ph)
{
	struct dev_fh *fh = fh_of(fi);
	struct fuse_pollhandle *old = NULL;
	unsigned mask;

	(void)ino;
	if (!fh->sf) {
		if (ph)
			fuse_pollhandle_destroy(ph);
		fuse_reply_poll(req, POLLIN | POLLRDNORM);
		return;
	}
	if (ph) {
		/* Keep only the newest handle; notify on the next event. */
		pthread_mutex_lock(&fh->lock);
		old = fh->ph;
		fh->ph = ph;
		pthread_mutex_unlock(&fh->lock);
		if (old)
			fuse_pollhandle_destroy(old);
	}
	mask = shim_poll(fh->sf);
	fuse_reply_poll(req, (mask & SHIM_POLLIN ? POLLIN : 0) |
				     (mask & SHIM_POLLRDNORM ? POLLRDNORM : 0));
}

static const struct fuse_lowlevel_ops server_ops = {
	.lookup = op_lookup,
	.getattr = op_getattr,
	.readdir = op_readdir,
	.open = op_open,
	.release = op_release,
	.read = op_read,
	.write = op_write,
	.ioctl = op_ioctl,
	.poll = op_poll,
};

int server_init(struct server *srv, const struct shim_config *cfg)
{
	struct board_config bc;
	struct shim_host host;

	memset(&host, 0, sizeof(host));
	pthread_mutex_init(&srv->lock, NULL);
	srv->open_files = NULL;
	node_host_init(&host, srv);
	host.file_notify = host_notify;
	host.fobj_notify = fobj_fd_notify; /* objects of the socket clients */
	board_config_from_shim(&bc, cfg);
	srv->board = board_create(&bc, &host);
	srv->dev = srv->board ? board_dev(srv->board) : NULL;
	return srv->dev ? 0 : -1;
}

int server_handoff_start(struct server *srv)
{
	srv->handoff = handoff_start();
	return srv->handoff ? 0 : -1;
}

const struct fuse_lowlevel_ops *server_ops_get(void)
{
	return &server_ops;
}

void server_fini(struct server *srv)
{
	/* The session is over: whatever is still open is released now. */
	while (srv->open_files)
		fh_free(srv->open_files);
	handoff_stop(srv->handoff);
	srv->handoff = NULL;
	board_destroy(srv->board);
	srv->board = NULL;
	srv->dev = NULL;
}

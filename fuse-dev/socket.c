// SPDX-License-Identifier: MIT
/*
 * The socket transport of `vgpu dev` (socket.h, socket_proto.h): one
 * thread per connection, each connection one open file of the shared
 * driver. The driver's user copies become COPY_IN/COPY_OUT round trips to
 * the client while it waits for its reply, so the client needs no
 * knowledge of the UAPIs' pointer layouts, and a pointer the client cannot
 * read is EFAULT for the driver as in the kernel.
 */
#include "fuse-dev/socket.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "board/board.h"
#include "driver-shim/uapi_errno.h"
#include "driver-shim/uapi_ioc.h"
#include "fuse-dev/capture.h"
#include "fuse-dev/fobj_fd.h"
#include "fuse-dev/fuse_mmap.h"
#include "fuse-dev/socket_io.h"

struct sock_conn;
struct sock_file;

struct sock_server {
	struct server *srv;
	char *path;
	int lfd;
	pthread_t accept_thread;
	pthread_mutex_t lock;
	pthread_cond_t gone; /* a connection ended */
	struct sock_conn *conns;
	struct sock_file *files;
	struct capture *cap; /* --capture, or NULL */
	unsigned desc_refs;  /* files with desc_ref set (reap()) */
	unsigned call_ms;    /* a call-back's time limit (call_client()) */
	bool stopping; /* set under @lock, read without it too: atomics */
};

/*
 * An open file: a node (@sf) or a file object the driver created (@obj,
 * a dma-buf, sync_file...). The connection that opened it and those that
 * ATTACHed to it with its token share it: a client gives each of its
 * threads its own connection, so that a blocking request (a wait, a read)
 * holds up no other. The last connection to go releases it; an object
 * whose descriptor is a pipe also lives while any read end of that pipe
 * is open in any process (@desc_ref), since clients pass them around.
 */
struct sock_file {
	struct server_file hook; /* first: the shim's host data */
	struct shim_file *sf;
	struct shim_fobj *obj;
	struct fobj_fd h;  /* @obj's descriptor */
	struct fobj_fd *lent_h; /* or, a lent file's, its owner's (sock_serve_lent()) */
	bool desc_ref;     /* @refs counts the client's descriptors too */
	int efd; /* readable while the file is (given to the client), or -1 */
	int refs; /* connections; under sock_server.lock */
	uint64_t token;
	uid_t owner; /* the opener's (a node) or exporter's (an object) uid */
	bool panfrost;
	unsigned cap_file; /* its number in a capture */
	struct sock_file *next;
};

struct sock_conn {
	struct sock_server *ss;
	int fd;
	uid_t uid; /* the peer's (SO_PEERCRED) */
	struct sock_file *file;
	struct shim_file *sf; /* file->sf */
	struct sock_conn *prev, *next;
};

/* The server of lent files: no listening socket, no device of its own.
 * Its peer is the translator's own forked child, not a stranger: no time
 * limit on call-backs (0), so a child stopped by job control or a
 * debugger mid-copy keeps its connection. */
static struct sock_server lent_server = { .lock = PTHREAD_MUTEX_INITIALIZER,
					   .call_ms = 0 };

struct sock_caller {
	struct shim_caller base;
	struct sock_conn *conn;
	uint64_t deadline; /* of the call-back under way (call_client()) */
	bool broken; /* the stream failed mid-request: drop the connection */
};

static const char *const call_names[] = {
	[VGPU_SOCK_COPY_IN] = "COPY_IN", [VGPU_SOCK_COPY_OUT] = "COPY_OUT",
	[VGPU_SOCK_FD_INSTALL] = "FD_INSTALL", [VGPU_SOCK_FD_GET] = "FD_GET",
};

/* @ret of call-back @op: a failure breaks the connection, and says why
 * when the client is too slow. */
static int call_failed(struct sock_caller *sc, uint32_t op, int ret)
{
	struct sock_conn *c = sc->conn;

	if (ret == -ETIMEDOUT)
		fprintf(stderr, "vgpu dev: socket client pid %d (uid %u): no answer to "
			"%s within %u ms: hanging up\n", sc->base.pid, (unsigned)c->uid,
			call_names[op], __atomic_load_n(&c->ss->call_ms, __ATOMIC_RELAXED));
	if (ret)
		sc->broken = true;
	return ret;
}

/*
 * One call-back to the client (@m, + @payload, + descriptor @pass_fd)
 * and the header of its answer; the caller receives any payload by
 * sc->deadline. Unless it is the copy of a submission's arrays (made
 * before the driver's lock, driver-shim/precopy.c), the lock is held all
 * the while, so every other client waits on this one: a client that
 * neither answers nor reads within the time limit is treated as a bad
 * pointer would be (the call fails) and then hung up, its files released
 * as when it dies. 0, or -errno of the stream (the connection is then
 * broken).
 */
static int call_client(struct sock_caller *sc, struct vgpu_sock_msg *m,
		       const void *payload, int pass_fd, int *got)
{
	struct sock_conn *c = sc->conn;
	uint32_t op = m->op;
	unsigned ms = __atomic_load_n(&c->ss->call_ms, __ATOMIC_RELAXED);
	int ret;

	*got = -1;
	/* Out of step since an earlier call-back failed: no more waiting. */
	if (sc->broken)
		return -EPIPE;
	sc->deadline = ms ? sock_deadline(ms) : 0;
	ret = sock_send_by(c->fd, m, payload, pass_fd, sc->deadline);
	if (!ret)
		ret = sock_recv_hdr_by(c->fd, m, got, sc->deadline);
	if (!ret && m->op != VGPU_SOCK_REPLY)
		ret = -EPROTO;
	return call_failed(sc, op, ret);
}

static void file_notify(struct server_file *hf)
{
	node_efd_ready(((struct sock_file *)hf)->efd, true);
}

static int user_copy(struct sock_caller *sc, uint32_t op, uint64_t uaddr,
		     void *buf, size_t len)
{
	struct vgpu_sock_msg m = { .op = op, .a = uaddr, .b = len };
	int got, ret;

	if (!len)
		return 0;
	if (len > VGPU_SOCK_MAX_PAYLOAD)
		return -SHIM_EFAULT;
	if (op == VGPU_SOCK_COPY_OUT)
		m.len = (uint32_t)len;
	ret = call_client(sc, &m, buf, -1, &got);
	if (got >= 0)
		close(got);
	if (!ret && m.ret >= 0 && op == VGPU_SOCK_COPY_IN && m.len != len)
		ret = call_failed(sc, op, -EPROTO);
	if (!ret && m.len)
		ret = call_failed(sc, op, sock_recv_payload_by(sc->conn->fd,
			op == VGPU_SOCK_COPY_IN && m.ret >= 0 ? buf : NULL, m.len,
			sc->deadline));
	if (ret)
		return -SHIM_EFAULT;
	return m.ret < 0 ? -SHIM_EFAULT : 0;
}

static int copy_from(struct shim_caller *c, void *dst, uint64_t uaddr, size_t len)
{
	return user_copy((struct sock_caller *)c, VGPU_SOCK_COPY_IN, uaddr, dst, len);
}

static int copy_to(struct shim_caller *c, uint64_t uaddr, const void *src,
		   size_t len)
{
	return user_copy((struct sock_caller *)c, VGPU_SOCK_COPY_OUT, uaddr,
			 (void *)src, len);
}

static bool interrupted(struct shim_caller *c)
{
	struct sock_caller *sc = (struct sock_caller *)c;
	struct pollfd p = { .fd = sc->conn->fd, .events = POLLRDHUP };

	/* The client is waiting for its reply: anything on the stream now
	 * means it hung up (or died). */
	if (sc->broken || __atomic_load_n(&sc->conn->ss->stopping, __ATOMIC_ACQUIRE))
		return true;
	return poll(&p, 1, 0) > 0;
}

static void file_put(struct sock_server *ss, struct sock_file *f);

/* fd_install (driver lock held): the object's descriptor goes to the
 * client, which answers with its number in the program. */
static int fd_install(struct shim_caller *c, struct shim_fobj *o, bool cloexec)
{
	struct sock_caller *sc = (struct sock_caller *)c;
	struct sock_server *ss = sc->conn->ss;
	struct sock_file *f = calloc(1, sizeof(*f));
	struct vgpu_sock_msg m = { .op = VGPU_SOCK_FD_INSTALL,
				   .b = cloexec ? VGPU_SOCK_FD_CLOEXEC : 0 };
	int ret, got = -1;

	if (!f)
		return -ENOMEM;
	f->efd = -1;
	ret = fobj_fd_make(&f->h, shim_fobj_level(o));
	if (!ret && getentropy(&f->token, sizeof(f->token)))
		ret = -errno;
	if (ret) {
		free(f);
		return ret;
	}
	m.a = f->token;
	ret = call_client(sc, &m, NULL, f->h.rfd, &got);
	if (got >= 0)
		close(got);
	if (!ret && m.len)
		ret = call_failed(sc, VGPU_SOCK_FD_INSTALL, -EPROTO);
	if (!ret)
		ret = (int)m.ret;
	if (ret < 0) {
		/* No reference was taken: nothing to drop under the lock. */
		fobj_fd_close(&f->h);
		free(f);
		return ret;
	}
	/* A pipe's read ends are all the client's now: when they are all
	 * closed, the write end reports it (reap()). */
	if (!f->h.level) {
		close(f->h.rfd);
		f->h.rfd = -1;
	}
	f->obj = shim_fobj_get(o);
	shim_fobj_set_host_data(o, &f->h);
	f->owner = sc->conn->uid;
	f->refs = 1;
	f->desc_ref = true;
	pthread_mutex_lock(&ss->lock);
	f->next = ss->files;
	ss->files = f;
	__atomic_add_fetch(&ss->desc_refs, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&ss->lock);
	return ret;
}

/* fd_get: the client sends the program's descriptor; its identity names
 * the object. */
static int fd_get(struct shim_caller *c, int fd, struct shim_fobj **out)
{
	struct sock_caller *sc = (struct sock_caller *)c;
	struct sock_server *ss = sc->conn->ss;
	struct vgpu_sock_msg m = { .op = VGPU_SOCK_FD_GET, .a = (uint64_t)fd };
	struct sock_file *f;
	struct stat st;
	int ret, got = -1;

	ret = call_client(sc, &m, NULL, -1, &got);
	if (!ret && m.len)
		ret = -EPROTO;
	if (ret) {
		sc->broken = true;
		if (got >= 0)
			close(got);
		return -EBADF;
	}
	if (m.ret < 0 || got < 0)
		return m.ret < 0 ? (int)m.ret : -EBADF;
	ret = fstat(got, &st) ? -EBADF : -EINVAL;
	close(got);
	pthread_mutex_lock(&ss->lock);
	for (f = ss->files; f && ret; f = f->next) {
		if (f->obj && fobj_fd_is(&f->h, &st)) {
			*out = shim_fobj_get(f->obj);
			ret = 0;
		}
	}
	pthread_mutex_unlock(&ss->lock);
	return ret;
}

/* Drops the descriptor reference of objects no process holds any more
 * (outside driver calls: the release may take the driver's lock). */
static void reap(struct sock_server *ss)
{
	struct sock_file *f, *dead = NULL;

	/* Every request passes here: one load when there is nothing. */
	if (!__atomic_load_n(&ss->desc_refs, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&ss->lock);
	for (f = ss->files; f; f = f->next) {
		if (f->desc_ref && fobj_fd_orphaned(&f->h)) {
			/* Its reference is dropped below, outside the lock. */
			f->desc_ref = false;
			__atomic_sub_fetch(&ss->desc_refs, 1, __ATOMIC_RELAXED);
			dead = f;
			break;
		}
	}
	pthread_mutex_unlock(&ss->lock);
	if (dead) {
		file_put(ss, dead);
		reap(ss);
	}
}

static void caller_init(struct sock_caller *sc, struct sock_conn *conn)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	memset(sc, 0, sizeof(*sc));
	sc->conn = conn;
	sc->base.pid = getsockopt(conn->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) ?
		0 : (int)cred.pid;
	sc->base.priv = sc;
	sc->base.copy_from_user = copy_from;
	sc->base.copy_to_user = copy_to;
	sc->base.interrupted = interrupted;
	/* A lent file's owner keeps its descriptors to itself: as for a
	 * FUSE caller, no descriptor can be given (fuse-dev/README.md). */
	if (conn->ss != &lent_server) {
		sc->base.fd_install = fd_install;
		sc->base.fd_get = fd_get;
	}
}

static int reply(struct sock_conn *c, int64_t ret, uint64_t a, uint64_t b,
		 const void *payload, uint32_t len, int pass_fd)
{
	struct vgpu_sock_msg m = { .op = VGPU_SOCK_REPLY, .len = len, .ret = ret,
				   .a = a, .b = b };

	return sock_send(c->fd, &m, payload, pass_fd);
}

/* After a call that may have consumed what made the file readable. */
static void rearm(struct sock_file *f)
{
	transport_rearm(f->obj, f->lent_h ? f->lent_h : &f->h, f->sf, f->efd);
}

static int do_ioctl(struct sock_conn *c, struct vgpu_sock_msg *m)
{
	unsigned cmd = (unsigned)m->a, dir = SHIM_IOC_DIR(cmd);
	size_t size = SHIM_IOC_SIZE(cmd), cap = OS_MAX(size, (size_t)SHIM_IOC_MAX_ARG);
	struct sock_caller sc;
	uint8_t *buf = calloc(1, cap);
	long ret;
	int err;

	if (!buf)
		return sock_recv_payload(c->fd, NULL, m->len) ?: reply(c, -ENOMEM, 0, 0, NULL, 0, -1);
	/* Missing bytes read as zero (DRM's short-struct rule); extra ones
	 * beyond the encoded size are the client's mistake. */
	err = sock_recv_payload(c->fd, buf, OS_MIN((size_t)m->len, cap));
	if (!err && m->len > cap)
		err = sock_recv_payload(c->fd, NULL, m->len - cap);
	if (err) {
		free(buf);
		return err;
	}
	caller_init(&sc, c);
	if (c->file->obj)
		ret = shim_fobj_ioctl(c->file->obj, &sc.base, cmd, buf);
	else if (c->ss->cap)
		ret = capture_ioctl(c->ss->cap, c->file->cap_file, c->file->panfrost,
				    c->sf, &sc.base, cmd, buf);
	else
		ret = shim_ioctl(c->sf, &sc.base, cmd, buf);
	rearm(c->file);
	if (sc.broken) {
		free(buf);
		return -EPIPE;
	}
	err = reply(c, ret, 0, 0, buf,
		    ret >= 0 && (dir & SHIM_IOC_READ) ? (uint32_t)size : 0, -1);
	free(buf);
	return err;
}

static int do_read(struct sock_conn *c, struct vgpu_sock_msg *m)
{
	size_t len = OS_MIN(m->a, (uint64_t)VGPU_SOCK_MAX_PAYLOAD);
	struct sock_caller sc;
	uint8_t *buf = malloc(len ? len : 1);
	long n;
	int err;

	if (!buf)
		return reply(c, -ENOMEM, 0, 0, NULL, 0, -1);
	caller_init(&sc, c);
	n = c->file->obj ? shim_fobj_read(c->file->obj, &sc.base, buf, len, m->b != 0)
			 : shim_read(c->sf, &sc.base, buf, len, m->b != 0);
	if (c->ss->cap && !c->file->obj && !c->file->panfrost)
		capture_kb_events(c->ss->cap, c->file->cap_file, buf, n);
	rearm(c->file);
	err = sc.broken ? -EPIPE :
		reply(c, n, 0, 0, buf, n > 0 ? (uint32_t)n : 0, -1);
	free(buf);
	return err;
}

static int do_mmap_prepare(struct sock_conn *c, struct vgpu_sock_msg *m)
{
	struct shim_mmap_info mi;
	int ret;

	/* The reply carries a whole context's memfd (a dma-buf's too: its
	 * exporter's), so only to a peer of the uid that owns it. */
	if (c->uid != c->file->owner)
		return reply(c, -EACCES, 0, 0, NULL, 0, -1);
	ret = c->file->obj ?
		shim_fobj_mmap_prepare(c->file->obj, m->a, m->b, (uint32_t)m->c, &mi) :
		shim_mmap_prepare(c->sf, m->a, m->b, (uint32_t)m->c, &mi);

	if (ret)
		return reply(c, ret, 0, 0, NULL, 0, -1);
	/* SHIM_MMAP_* == VGPU_DEV_MMAP_* (fuse_mmap.h). */
	return reply(c, 0, mi.flags, mi.offset, NULL, 0,
		     (mi.flags & SHIM_MMAP_RESERVE_ONLY) ? -1 : mi.backing);
}

static int do_stats(struct sock_conn *c)
{
	struct server *srv = c->ss->srv;
	size_t len;
	char *text = srv ? board_stats_json_dup(srv->board, &len) : NULL;
	int err;

	if (!srv)
		return reply(c, -EOPNOTSUPP, 0, 0, NULL, 0, -1);
	if (!text)
		return reply(c, -ENOMEM, 0, 0, NULL, 0, -1);
	err = reply(c, 0, 0, 0, text, (uint32_t)len, -1);
	free(text);
	return err;
}

/* One request on an open file. 0 to go on, < 0 to drop the connection. */
static int serve_one(struct sock_conn *c, struct vgpu_sock_msg *m)
{
	switch (m->op) {
	case VGPU_SOCK_IOCTL:
		return do_ioctl(c, m);
	case VGPU_SOCK_READ:
		return do_read(c, m);
	case VGPU_SOCK_MMAP_PREPARE:
		return do_mmap_prepare(c, m);
	case VGPU_SOCK_MMAP_COMMIT: { /* file objects do not care where */
		int ret = c->sf ? shim_mmap_commit(c->sf, m->a, m->b, m->c) : 0;

		if (!ret && c->sf && c->ss->cap && !c->file->panfrost)
			capture_kb_mapped(c->ss->cap, c->file->cap_file, m->a, m->c);
		return reply(c, ret, 0, 0, NULL, 0, -1);
	}
	case VGPU_SOCK_MUNMAP:
		return reply(c, c->sf ? shim_munmap(c->sf, m->a, m->b) : 0, 0, 0, NULL, 0, -1);
	case VGPU_SOCK_STATS:
		return do_stats(c);
	case VGPU_SOCK_LSEEK: /* a node's offset means nothing: ESPIPE */
		return reply(c, c->file->obj ? shim_fobj_llseek(c->file->obj, (int64_t)m->a,
								(int)m->b) : -ESPIPE,
			     0, 0, NULL, 0, -1);
	}
	return -EPROTO;
}

static void file_put(struct sock_server *ss, struct sock_file *f)
{
	struct sock_file **pp;
	bool last;

	pthread_mutex_lock(&ss->lock);
	last = !--f->refs;
	if (last)
		for (pp = &ss->files; *pp; pp = &(*pp)->next)
			if (*pp == f) {
				*pp = f->next;
				break;
			}
	pthread_mutex_unlock(&ss->lock);
	if (!last)
		return;
	/* Its last connection closed: the file's release. */
	if (f->sf && ss->cap && !f->panfrost)
		capture_kb_release(ss->cap, f->cap_file);
	if (f->sf)
		shim_release(f->sf);
	if (f->obj) {
		shim_fobj_set_host_data(f->obj, NULL);
		shim_fobj_put(f->obj);
		fobj_fd_close(&f->h);
	}
	if (f->efd >= 0)
		close(f->efd);
	free(f);
}

static int open_file(struct sock_conn *c, struct vgpu_sock_msg *m)
{
	struct sock_server *ss = c->ss;
	struct sock_caller sc;
	struct sock_file *f = calloc(1, sizeof(*f));
	int ret;

	if (!f)
		return reply(c, -ENOMEM, 0, 0, NULL, 0, -1);
	f->hook.notify = file_notify;
	f->refs = 1;
	f->owner = c->uid;
	f->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (f->efd < 0 || getentropy(&f->token, sizeof(f->token))) {
		ret = -errno;
		if (f->efd >= 0)
			close(f->efd);
		free(f);
		return reply(c, ret, 0, 0, NULL, 0, -1);
	}
	c->file = f;
	caller_init(&sc, c);
	ret = shim_open(ss->srv->dev, m->a == VGPU_SOCK_NODE_KBASE ?
			SHIM_NODE_KBASE : SHIM_NODE_PANFROST, &sc.base, &f->sf);
	if (ret) {
		c->file = NULL;
		close(f->efd);
		free(f);
		return reply(c, ret, 0, 0, NULL, 0, -1);
	}
	shim_file_set_host_data(f->sf, &f->hook);
	c->sf = f->sf;
	f->panfrost = m->a == VGPU_SOCK_NODE_PANFROST;
	if (ss->cap)
		f->cap_file = capture_new_file(ss->cap);
	pthread_mutex_lock(&ss->lock);
	f->next = ss->files;
	ss->files = f;
	pthread_mutex_unlock(&ss->lock);
	return reply(c, 0, f->token, 0, NULL, 0, f->efd);
}

static int attach_file(struct sock_conn *c, struct vgpu_sock_msg *m)
{
	struct sock_server *ss = c->ss;
	struct sock_file *f;

	pthread_mutex_lock(&ss->lock);
	for (f = ss->files; f && f->token != m->a; f = f->next)
		;
	/* A token is a secret, yet an open node's file (its context) is
	 * joined only by its opener's uid; an object's token is had by
	 * whoever holds its descriptor (IDENTIFY), as a dma-buf's holder
	 * may import it. */
	if (f && f->sf && f->owner != c->uid) {
		pthread_mutex_unlock(&ss->lock);
		return reply(c, -EACCES, 0, 0, NULL, 0, -1);
	}
	/* A level object's pipe has a reader here, so its descriptors
	 * cannot be counted: its client's connections keep it (the first
	 * one takes over the initial reference). */
	if (f && f->obj && f->h.level && f->desc_ref) {
		f->desc_ref = false;
		__atomic_sub_fetch(&ss->desc_refs, 1, __ATOMIC_RELAXED);
	}
	else if (f)
		f->refs++;
	pthread_mutex_unlock(&ss->lock);
	if (!f)
		return reply(c, -EBADF, 0, 0, NULL, 0, -1);
	c->file = f;
	c->sf = f->sf;
	return reply(c, 0, 0, 0, NULL, 0, -1);
}

/* Which of our file objects descriptor @fd is: its token to ATTACH to. */
static int identify(struct sock_conn *c, int fd)
{
	struct sock_server *ss = c->ss;
	struct sock_file *f;
	uint64_t token = 0;
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		return reply(c, -EBADF, 0, 0, NULL, 0, -1);
	pthread_mutex_lock(&ss->lock);
	for (f = ss->files; f && !token; f = f->next)
		if (f->obj && fobj_fd_is(&f->h, &st))
			token = f->token;
	pthread_mutex_unlock(&ss->lock);
	return reply(c, token ? 0 : -EINVAL, token, 0, NULL, 0, -1);
}

/* The first message: which node, which open file, or only statistics. */
static int serve_first(struct sock_conn *c, struct vgpu_sock_msg *m, int got)
{
	switch (m->op) {
	case VGPU_SOCK_IDENTIFY:
		return identify(c, got);
	case VGPU_SOCK_STATS:
		return do_stats(c);
	case VGPU_SOCK_OPEN:
		if (m->a <= VGPU_SOCK_NODE_PANFROST)
			return open_file(c, m);
		break;
	case VGPU_SOCK_ATTACH:
		return attach_file(c, m);
	}
	return -EPROTO;
}

/* The requests on an open file, until the client hangs up. */
static void serve_file(struct sock_conn *c)
{
	struct vgpu_sock_msg m;
	int got;

	while (!sock_recv_hdr(c->fd, &m, &got)) {
		if (got >= 0)
			close(got);
		reap(c->ss);
		if (serve_one(c, &m))
			break;
	}
}

void sock_serve_lent(int fd, struct shim_file *sf, struct shim_fobj *obj,
		     struct fobj_fd *h, int efd)
{
	struct sock_file f = { .sf = sf, .obj = obj, .lent_h = h, .efd = efd, .refs = 1 };
	struct sock_conn c = { .ss = &lent_server, .fd = fd, .file = &f, .sf = sf };

	serve_file(&c);
}

/* A connection's whole life, from its first message to its end. */
static void conn_serve(struct sock_conn *c)
{
	struct sock_server *ss = c->ss;
	struct vgpu_sock_msg m;
	int got;

	if (!sock_recv_hdr(c->fd, &m, &got)) {
		int first = m.len ? -EPROTO : serve_first(c, &m, got);

		if (got >= 0)
			close(got);
		if (!first && c->file)
			serve_file(c);
	}
	if (c->file)
		file_put(ss, c->file);
	reap(ss);
	pthread_mutex_lock(&ss->lock);
	if (c->prev)
		c->prev->next = c->next;
	else
		ss->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	close(c->fd);
	free(c);
	pthread_cond_broadcast(&ss->gone);
	pthread_mutex_unlock(&ss->lock);
}

static void *conn_thread(void *arg)
{
	sigset_t all;

	/* Signals are the main thread's business (it stops the server). */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	conn_serve(arg);
	return NULL;
}

/* The uid of the process at the other end of @fd; -1 if unknown. */
static uid_t peer_uid(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) ? (uid_t)-1 :
		cred.uid;
}

/* --mode/--group apply to the socket as to the FUSE nodes: connecting
 * needs write permission on it. */
static void set_perm(const struct server *srv, const char *path)
{
	if (!srv->node_perm_given)
		return;
	if (chmod(path, srv->node_mode) ||
	    chown(path, (uid_t)-1, srv->node_gid))
		fprintf(stderr, "vgpu dev: --socket %s: mode %o group %u: %s\n", path,
			srv->node_mode, (unsigned)srv->node_gid, strerror(errno));
}

/* A connection on @fd, in @ss's list (its lock held); NULL, @fd closed,
 * when out of memory or (*@stopping set) the server is stopping. */
static struct sock_conn *conn_add_locked(struct sock_server *ss, int fd, bool *stopping)
{
	struct sock_conn *c = calloc(1, sizeof(*c));

	*stopping = ss->stopping;
	if (!c || *stopping) {
		close(fd);
		free(c);
		return NULL;
	}
	c->ss = ss;
	c->fd = fd;
	c->uid = peer_uid(fd);
	c->next = ss->conns;
	if (c->next)
		c->next->prev = c;
	ss->conns = c;
	return c;
}

void sock_server_serve(struct sock_server *ss, int fd)
{
	struct sock_conn *c;
	bool stopping;

	pthread_mutex_lock(&ss->lock);
	c = conn_add_locked(ss, fd, &stopping);
	pthread_mutex_unlock(&ss->lock);
	if (c)
		conn_serve(c);
}

static void *accept_thread(void *arg)
{
	struct sock_server *ss = arg;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		int fd = accept4(ss->lfd, NULL, NULL, SOCK_CLOEXEC);
		struct sock_conn *c;
		pthread_attr_t attr;
		bool stopping;
		pthread_t t;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (__atomic_load_n(&ss->stopping, __ATOMIC_ACQUIRE) ||
			    errno == EINVAL || errno == EBADF)
				return NULL;
			continue;
		}
		pthread_mutex_lock(&ss->lock);
		c = conn_add_locked(ss, fd, &stopping);
		if (!c) {
			pthread_mutex_unlock(&ss->lock);
			if (stopping)
				return NULL;
			continue;
		}
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &attr, conn_thread, c)) {
			ss->conns = c->next;
			if (c->next)
				c->next->prev = NULL;
			close(fd);
			free(c);
		}
		pthread_attr_destroy(&attr);
		pthread_mutex_unlock(&ss->lock);
	}
}

struct sock_server *sock_server_start(struct server *srv, const char *path,
				      struct capture *cap)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct sock_server *ss;
	struct stat st;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "vgpu dev: --socket %s: path too long\n", path);
		return NULL;
	}
	ss = calloc(1, sizeof(*ss));
	if (!ss)
		return NULL;
	ss->srv = srv;
	ss->cap = cap;
	ss->call_ms = SOCK_CALL_MS_DEFAULT;
	ss->path = strdup(path);
	pthread_mutex_init(&ss->lock, NULL);
	pthread_cond_init(&ss->gone, NULL);
	strcpy(sa.sun_path, path);
	/* A server killed outright leaves its socket behind. */
	if (!lstat(path, &st) && S_ISSOCK(st.st_mode))
		unlink(path);
	ss->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (!ss->path || ss->lfd < 0 ||
	    bind(ss->lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(ss->lfd, 64)) {
		fprintf(stderr, "vgpu dev: --socket %s: %s\n", path, strerror(errno));
		goto fail;
	}
	set_perm(srv, path);
	if (sock_tree_create(path)) {
		fprintf(stderr, "vgpu dev: --socket %s: cannot create %s%s: %s\n", path,
			path, VGPU_SOCK_TREE_SUFFIX, strerror(errno));
		unlink(path);
		goto fail;
	}
	if (pthread_create(&ss->accept_thread, NULL, accept_thread, ss)) {
		sock_tree_remove(path);
		unlink(path);
		goto fail;
	}
	return ss;
fail:
	if (ss->lfd >= 0)
		close(ss->lfd);
	free(ss->path);
	free(ss);
	return NULL;
}

void sock_server_set_call_ms(struct sock_server *ss, unsigned ms)
{
	/* Atomic: connection threads may be reading it already. */
	__atomic_store_n(&ss->call_ms, ms ? ms : SOCK_CALL_MS_DEFAULT, __ATOMIC_RELAXED);
}

void sock_server_stop(struct sock_server *ss)
{
	if (!ss)
		return;
	pthread_mutex_lock(&ss->lock);
	__atomic_store_n(&ss->stopping, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&ss->lock);
	/* Wakes accept(): it fails on a shut-down socket. */
	shutdown(ss->lfd, SHUT_RDWR);
	pthread_join(ss->accept_thread, NULL);
	close(ss->lfd);
	pthread_mutex_lock(&ss->lock);
	/* Every connection thread sees end-of-stream and releases its file. */
	for (struct sock_conn *c = ss->conns; c; c = c->next)
		shutdown(c->fd, SHUT_RDWR);
	while (ss->conns)
		pthread_cond_wait(&ss->gone, &ss->lock);
	pthread_mutex_unlock(&ss->lock);
	/* Descriptors handed out hold their objects until reap() sees them
	 * closed; a client that closed its last one just now was not reaped
	 * yet. The server is going: their references go with it. */
	for (;;) {
		struct sock_file *f;

		pthread_mutex_lock(&ss->lock);
		for (f = ss->files; f && !f->desc_ref; f = f->next)
			;
		if (f) {
			f->desc_ref = false;
			__atomic_sub_fetch(&ss->desc_refs, 1, __ATOMIC_RELAXED);
		}
		pthread_mutex_unlock(&ss->lock);
		if (!f)
			break;
		file_put(ss, f);
	}
	unlink(ss->path);
	sock_tree_remove(ss->path);
	pthread_cond_destroy(&ss->gone);
	pthread_mutex_destroy(&ss->lock);
	free(ss->path);
	free(ss);
}

// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the socket transport of `vgpu dev` (fuse-dev/socket.c,
 * socket_proto.h) over real connections to a real server, with this
 * process as its client. Each connection is a socketpair whose server
 * end one of a few threads kept for all inputs serves as the server's
 * own thread for an accepted connection would (sock_server_serve()):
 * a thread made and ended per connection took a third of the time. The client keeps a 64 KiB "user memory" at a
 * fake address and answers the server's call-backs as the preload
 * library does (COPY_IN from it, or a fault outside it; COPY_OUT into it;
 * FD_INSTALL with a descriptor number; FD_GET with a descriptor it holds
 * or EBADF), so the driver behind the server sees whole ioctl sequences
 * with pointers, on both nodes, several connections, attached ones too.
 *
 * Input: a sequence of operations [op][bytes...]; op & 7 is what, op >> 3
 * which of four connections (see the switch). Raw bytes on a connection
 * make it "out of step": its replies are no longer awaited, only drained
 * when the input ends. Any reply that does not come within a while (a
 * blocking wait, a server stuck mid-message) makes the client hang up,
 * which the server must notice. Nothing may crash, leak or hang.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuse-dev/socket.h"
#include "fuse-dev/socket_io.h"
#include "fuse-dev/socket_proto.h"
#include "ioctl_cmds.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define UMEM_BASE 0x10000ull
#define UMEM_SIZE 0x10000ull
#define NCONN 4
#define NFDS 8
/* A reply that does not come (a blocking wait or read) is given up on
 * after this: at 50 ms such inputs took a third of the time (3000 execs:
 * 7.5-11.9 s, at 15 ms 5.2-5.6 s with the same coverage). */
#define REPLY_WAIT_MS 15
/* Connections an input may make: each costs a server thread. */
#define MAX_OPENS 8

struct input {
	const uint8_t *p;
	size_t n;
};

struct conn {
	int fd;       /* -1: none */
	bool in_step; /* its replies can be awaited */
	uint64_t token; /* an OPEN reply's */
};

static struct server srv;
static struct sock_server *ss;
static char sock_path[108];
static uint8_t umem[UMEM_SIZE];
static struct conn conns[NCONN];
static int held[NFDS]; /* descriptors the server installed, -1 if free */

/* The server ends waiting for a thread of the pool, and its idle ones. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cond = PTHREAD_COND_INITIALIZER;
static int pool_fds[2 * NCONN];
static unsigned pool_n, pool_idle;

static void *pool_thread(void *arg)
{
	sigset_t all;

	(void)arg;
	/* As the server's connection threads: signals are not theirs. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		int fd;

		pthread_mutex_lock(&pool_lock);
		pool_idle++;
		while (!pool_n)
			pthread_cond_wait(&pool_cond, &pool_lock);
		pool_idle--;
		fd = pool_fds[--pool_n];
		pthread_mutex_unlock(&pool_lock);
		sock_server_serve(ss, fd);
	}
	return NULL;
}

/* A new connection: its client end, its server end given to the pool
 * (which grows while none of its threads is idle). */
static int connect_pair(void)
{
	pthread_t t;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		abort();
	pthread_mutex_lock(&pool_lock);
	if (pool_n == OS_ARRAY_SIZE(pool_fds))
		abort(); /* more than NCONN connections at once: a harness bug */
	pool_fds[pool_n++] = sv[1];
	if (pool_idle < pool_n) {
		if (pthread_create(&t, NULL, pool_thread, NULL))
			abort();
		pthread_detach(t);
	}
	pthread_cond_signal(&pool_cond);
	pthread_mutex_unlock(&pool_lock);
	return sv[0];
}

static uint64_t take(struct input *in, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes && in->n; i++, in->p++, in->n--)
		v |= (uint64_t)*in->p << (8 * i);
	return v;
}

static void stop(void)
{
	sock_server_stop(ss);
	server_fini(&srv);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71, .cores = 2,
				   .backing_size = 64ull << 20, .job_timeout_ms = 20 };

	(void)argc;
	(void)argv;
	os_log_set_level(OS_LOG_ERR);
	snprintf(sock_path, sizeof(sock_path), "/tmp/vgpu-fuzz-sock-%d", (int)getpid());
	if (server_init(&srv, &cfg) || !(ss = sock_server_start(&srv, sock_path, NULL)))
		abort();
	atexit(stop);
	for (unsigned i = 0; i < NCONN; i++)
		conns[i].fd = -1;
	for (unsigned i = 0; i < NFDS; i++)
		held[i] = -1;
	return 0;
}

static uint8_t *user(uint64_t ua, uint64_t n)
{
	return ua >= UMEM_BASE && ua - UMEM_BASE <= UMEM_SIZE &&
		       n <= UMEM_SIZE - (ua - UMEM_BASE) ? umem + (ua - UMEM_BASE) : NULL;
}

static void hold(int fd)
{
	static unsigned next;

	next = (next + 1) % NFDS;
	if (held[next] >= 0)
		close(held[next]);
	held[next] = fd;
}

static int answer(struct conn *c, int64_t ret, const void *payload, uint32_t len, int fd)
{
	struct vgpu_sock_msg m = { .op = VGPU_SOCK_REPLY, .ret = ret, .len = len };

	return sock_send(c->fd, &m, payload, fd);
}

static void hang_up(struct conn *c)
{
	shutdown(c->fd, SHUT_WR);
	c->in_step = false;
}

/* Answers call-backs until the REPLY to our request, as the preload
 * library does; its header in *@out. */
static void await_reply(struct conn *c, struct vgpu_sock_msg *out)
{
	memset(out, 0, sizeof(*out));
	out->ret = -EPIPE;
	while (c->in_step) {
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		struct vgpu_sock_msg m;
		int got, err = 0;
		uint8_t *u;

		if (poll(&p, 1, REPLY_WAIT_MS) != 1 || sock_recv_hdr(c->fd, &m, &got)) {
			hang_up(c);
			return;
		}
		switch (m.op) {
		case VGPU_SOCK_REPLY:
			err = sock_recv_payload(c->fd, NULL, m.len);
			if (got >= 0)
				close(got);
			*out = m;
			if (err)
				hang_up(c);
			return;
		case VGPU_SOCK_COPY_IN:
			u = user(m.a, m.b);
			err = sock_recv_payload(c->fd, NULL, m.len) ?:
				(u ? answer(c, 0, u, (uint32_t)m.b, -1) : answer(c, -EFAULT, NULL, 0, -1));
			break;
		case VGPU_SOCK_COPY_OUT:
			u = user(m.a, m.len);
			err = sock_recv_payload(c->fd, u, m.len) ?: answer(c, u ? 0 : -EFAULT, NULL, 0, -1);
			break;
		case VGPU_SOCK_FD_INSTALL:
			err = sock_recv_payload(c->fd, NULL, m.len) ?:
				answer(c, got >= 0 ? got : -EBADF, NULL, 0, -1);
			if (got >= 0) {
				hold(got);
				got = -1;
			}
			break;
		case VGPU_SOCK_FD_GET: {
			int fd = -1;

			for (unsigned i = 0; i < NFDS; i++)
				if (held[i] >= 0 && (uint64_t)held[i] == m.a)
					fd = held[i];
			err = sock_recv_payload(c->fd, NULL, m.len) ?:
				answer(c, fd >= 0 ? 0 : -EBADF, NULL, 0, fd);
			break;
		}
		default:
			err = -EPROTO;
		}
		if (got >= 0)
			close(got);
		if (err)
			hang_up(c);
	}
}

static void conn_close(struct conn *c)
{
	struct vgpu_sock_msg m;
	int got;

	if (c->fd < 0)
		return;
	/* An out-of-step connection's server thread may sit in a call-back
	 * that is never answered, or in sending one (COPY_OUT) to a client
	 * that does not read, holding the driver's lock that this file's
	 * release needs: those hang up both ways first. */
	for (unsigned i = 0; i < NCONN; i++)
		if (conns[i].fd >= 0 && !conns[i].in_step && &conns[i] != c)
			shutdown(conns[i].fd, SHUT_RDWR);
	/* The server releases the file and closes its end: read to there,
	 * so that this input's files are gone before the next input. */
	shutdown(c->fd, SHUT_WR);
	for (;;) {
		struct pollfd p = { .fd = c->fd, .events = POLLIN };

		/* A hang detector, generous for a loaded machine and a
		 * sanitizer build. */
		if (poll(&p, 1, 60000) != 1)
			abort(); /* the server never let go of the connection */
		if (sock_recv_hdr(c->fd, &m, &got))
			break;
		if (got >= 0)
			close(got);
		if (sock_recv_payload(c->fd, NULL, m.len))
			break;
	}
	close(c->fd);
	c->fd = -1;
}

/* Sends @m (+ @len bytes of @payload) and, while in step, awaits its reply. */
static void request(struct conn *c, struct vgpu_sock_msg *m, const void *payload,
		    uint32_t len, int fd, struct vgpu_sock_msg *reply)
{
	m->len = len;
	if (sock_send(c->fd, m, payload, fd))
		c->in_step = false;
	if (c->in_step)
		await_reply(c, reply);
}

static void conn_open(struct conn *c, struct input *in)
{
	struct vgpu_sock_msg m = { 0 }, r;
	unsigned kind = (unsigned)take(in, 1);

	conn_close(c);
	c->fd = connect_pair();
	c->in_step = true;
	c->token = 0;
	switch (kind % 5) {
	case 0: /* a node */
		m.op = VGPU_SOCK_OPEN;
		m.a = (kind >> 3) % 3; /* 2: no such node */
		break;
	case 1: /* another connection's file */
		m.op = VGPU_SOCK_ATTACH;
		m.a = conns[(kind >> 3) % NCONN].token ^ ((kind & 0x80) ? take(in, 8) : 0);
		break;
	case 2:
		m.op = VGPU_SOCK_STATS;
		break;
	case 3: /* one of ours */
		m.op = VGPU_SOCK_IDENTIFY;
		request(c, &m, NULL, 0, held[(kind >> 3) % NFDS], &r);
		return;
	default: /* anything */
		m.op = (uint32_t)take(in, 1);
		m.a = take(in, 2);
	}
	request(c, &m, NULL, 0, -1, &r);
	if (m.op == VGPU_SOCK_OPEN && r.ret == 0)
		c->token = r.a;
}

/* One request on an open file: mostly well-formed, its fields from the
 * input. */
static void conn_request(struct conn *c, struct input *in)
{
	struct vgpu_sock_msg m = { 0 }, r;
	uint8_t payload[SHIM_IOC_MAX_ARG];
	unsigned kind = (unsigned)take(in, 1);
	uint32_t len = 0;

	switch (kind % 8) {
	case 0: /* an ioctl of either node's table */
	case 1:
	case 2:
		m.op = VGPU_SOCK_IOCTL;
		m.a = fuzz_cmd(kind & 8, (unsigned)take(in, 1));
		len = (uint32_t)OS_MIN(OS_MIN(in->n, (size_t)SHIM_IOC_SIZE((unsigned)m.a)),
				       sizeof(payload));
		break;
	case 3: /* any ioctl */
		m.op = VGPU_SOCK_IOCTL;
		m.a = take(in, 4);
		len = (uint32_t)take(in, 1);
		len = (uint32_t)OS_MIN((size_t)len, in->n);
		break;
	case 4:
		m.op = VGPU_SOCK_READ;
		m.a = take(in, 2);
		m.b = 1; /* a blocking one only times out */
		break;
	case 5:
		m.op = VGPU_SOCK_MMAP_PREPARE;
		m.a = take(in, 4);
		m.b = (take(in, 1) + 1) * 4096;
		m.c = 3;
		break;
	case 6:
		m.op = kind & 8 ? VGPU_SOCK_MMAP_COMMIT : VGPU_SOCK_MUNMAP;
		m.a = take(in, 4);
		m.b = (take(in, 1) + 1) * 4096;
		m.c = 0x200000000ull + take(in, 1) * 0x100000ull;
		if (m.op == VGPU_SOCK_MUNMAP)
			m.a = m.c;
		break;
	default:
		m.op = (uint32_t)take(in, 1);
		m.a = take(in, 8);
		m.b = take(in, 8);
	}
	memcpy(payload, in->p, len);
	in->p += len;
	in->n -= len;
	request(c, &m, payload, len, -1, &r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	unsigned opens = 0;

	memset(umem, 0, sizeof(umem));
	while (in.n) {
		unsigned op = (unsigned)take(&in, 1);
		struct conn *c = &conns[(op >> 3) % NCONN];

		switch (op & 7) {
		case 0:
			if (opens++ < MAX_OPENS)
				conn_open(c, &in);
			break;
		case 1:
		case 2:
		case 3:
			if (c->fd >= 0)
				conn_request(c, &in);
			break;
		case 4: { /* user memory: [offset:2][n:1][bytes] */
			size_t off = (size_t)take(&in, 2) % UMEM_SIZE, n = (size_t)take(&in, 1);

			n = OS_MIN(OS_MIN(n, in.n), UMEM_SIZE - off);

			memcpy(umem + off, in.p, n);
			in.p += n;
			in.n -= n;
			break;
		}
		case 5: { /* raw bytes: [n:1][bytes] */
			size_t n = (size_t)take(&in, 1);

			n = OS_MIN(n, in.n);
			if (c->fd >= 0 && n) {
				c->in_step = false;
				if (send(c->fd, in.p, n, MSG_NOSIGNAL) < 0)
					hang_up(c);
			}
			in.p += n;
			in.n -= n;
			break;
		}
		case 6:
			conn_close(c);
			break;
		default: /* the kbase handshake */
			if (c->fd >= 0) {
				struct kb_version_check v = { 11, 46 };
				struct kb_set_flags fl = { 0 };
				struct vgpu_sock_msg m = { .op = VGPU_SOCK_IOCTL }, r;

				m.a = KB_IOCTL_VERSION_CHECK;
				request(c, &m, &v, sizeof(v), -1, &r);
				m.a = KB_IOCTL_SET_FLAGS;
				request(c, &m, &fl, sizeof(fl), -1, &r);
			}
		}
	}
	for (unsigned i = 0; i < NCONN; i++)
		conn_close(&conns[i]);
	for (unsigned i = 0; i < NFDS; i++) {
		if (held[i] >= 0)
			close(held[i]);
		held[i] = -1;
	}
	return 0;
}

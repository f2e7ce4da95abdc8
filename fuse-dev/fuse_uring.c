// SPDX-License-Identifier: MIT
/*
 * FUSE over io_uring (kernel 6.14+, protocol 7.42) under libfuse 3.14,
 * which cannot negotiate it: the session's device I/O goes through a
 * custom read/writev pair that sees INIT go by, adds FUSE_OVER_IO_URING
 * to libfuse's INIT reply when the kernel offered it, and then registers
 * ring entries on every per-CPU queue.
 *
 * Each entry is one thread with its own small ring (SQE128: the command
 * lives in the big SQE): REGISTER, then a loop of "wait for a request,
 * serve it, COMMIT_AND_FETCH". A request arrives split into its in-header,
 * the opcode's own header and a payload; it is rebuilt as /dev/fuse would
 * give it and handed to fuse_session_process_buf(), so the session's
 * operations serve it exactly as on the classic transport. Their reply
 * comes back through the custom writev on the same thread, which copies it
 * into the entry, and the commit goes with the entry's wait for the next.
 * Handlers may sleep (kbase event reads), and the kernel hands a request
 * that found no free entry on its queue only to an entry that commits, not
 * to one registered later: so a queue keeps spare entries, adding one
 * whenever a request leaves fewer idle, before it can run out (libfuse's
 * loop grows its workers in the same way, but a new worker's read() takes
 * what waits). Spares can still run out in a burst, as they count from
 * their spawning: so after each new entry's registration a thread pinned
 * to the queue's CPU makes a statfs() of the mountpoint, a request that
 * lands on that queue, whose entry then commits and fetches what waits.
 * Those threads live in a helper process (`vgpu dev --uring-nudger`): a
 * thread of the server waiting on its own mount when the server is
 * killed would keep its memory, and with it the rings' mappings, the
 * rings' commands, /dev/fuse and the connection, alive for ever.
 *
 * What stays on /dev/fuse: INIT, INTERRUPT and FORGET requests (the
 * kernel keeps them there) and notifications (unique 0), so libfuse's own
 * loop keeps running beside the rings.
 */
#include "fuse-dev/fuse_uring.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/os.h"

/* The protocol's facts (include/uapi/linux/fuse.h, 7.42). */
enum {
	FUSE_OP_STATFS = 17,
	FUSE_OP_INIT = 26,
	CMD_REGISTER = 1,
	CMD_COMMIT_AND_FETCH = 2,
	HDR_IN_OUT = 128, /* room for the in- or out-header */
	HDR_OP = 128,     /* room for the opcode's header */
	MIN_PAYLOAD = 8192,
	DEFAULT_MAX_PAGES = 32,
};
#define INIT_EXT (1u << 30)
#define INIT_MAX_PAGES (1u << 22)
#define INIT2_OVER_IO_URING (1u << (41 - 32))

struct in_header {
	uint32_t len, opcode;
	uint64_t unique, nodeid;
	uint32_t uid, gid, pid;
	uint16_t total_extlen, padding;
};

struct out_header {
	uint32_t len;
	int32_t error;
	uint64_t unique;
};

struct init_in {
	uint32_t major, minor, max_readahead, flags, flags2;
};

struct init_out {
	uint32_t major, minor, max_readahead, flags;
	uint16_t max_background, congestion_threshold;
	uint32_t max_write, time_gran;
	uint16_t max_pages, map_alignment;
	uint32_t flags2, unused[7];
};

struct ring_ent_in_out {
	uint64_t flags, commit_id;
	uint32_t payload_sz, padding;
	uint64_t reserved;
};

struct ring_header {
	char in_out[HDR_IN_OUT];
	char op_in[HDR_OP];
	struct ring_ent_in_out ent;
};

struct ring_cmd {
	uint64_t flags, commit_id;
	uint16_t qid;
	uint8_t padding[6];
};

#define TAG_STOP 1 /* the stop eventfd's poll; entries use their address */
/* Entries a queue starts with, and idle ones it keeps. The nudge after
 * each registration makes any number safe; spares make it rare that a
 * request waits for one. VGPU_FUSE_URING_ENTRIES="INITIAL,SPARE" sets
 * them (the tests' few, to make requests wait). */
#define INITIAL_PER_QUEUE 16
#define SPARE_PER_QUEUE 8
#define MAX_ENTRIES 256 /* over all queues, as `vgpu dev`'s libfuse loop */

static const char *uring_prog = "fuse";
static const char *const param_default = "/sys/module/fuse/parameters/enable_uring";

struct ur_ent {
	struct fuse_uring *u;
	unsigned qid;
	pthread_t thread;
	struct io_uring ring;
	struct ring_header *hdr; /* iov[0] */
	char *payload;           /* iov[1] */
	struct iovec iov[2];
	char *req;       /* the request as /dev/fuse gives it */
	uint64_t unique; /* the request being served */
	bool committed;
	bool initial; /* one of those the ring needs to become ready */
	bool has_ring;
	struct ur_ent *next;
};

struct ur_queue {
	atomic_uint idle;
	atomic_uint count;
};

struct fuse_uring {
	struct fuse_session *se;
	int fd;
	bool forced;
	/* INIT, seen by the classic reader, answered by a libfuse worker. */
	atomic_ulong init_unique;
	atomic_bool offered, init_seen;
	atomic_bool failed, started;
	size_t payload_size;
	unsigned nq, cap;
	struct ur_queue *q;
	pthread_mutex_t lock;
	struct ur_ent *ents;
	atomic_bool stopping;
	int stop_fd;
	atomic_ulong served;
	unsigned initial, spare;
	int nudge_fd;     /* to the nudger's stdin, or -1 */
	pid_t nudger_pid; /* 0: none */
};

static struct fuse_uring *the_uring;
static __thread struct ur_ent *cur_ent;

int fuse_transport_parse(const char *s, enum fuse_transport *t)
{
	static const char *const names[] = { "classic", "uring", "auto" };

	for (unsigned i = 0; i < 3; i++)
		if (!strcmp(s, names[i])) {
			*t = (enum fuse_transport)i;
			return 0;
		}
	return -1;
}

/* The kernel makes one queue per possible CPU, numbered from 0. */
static unsigned possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	unsigned n = 0, a, b;
	int c;

	if (!f)
		return (unsigned)sysconf(_SC_NPROCESSORS_CONF);
	while (fscanf(f, "%u", &a) == 1) {
		b = a;
		c = fgetc(f);
		if (c == '-') {
			if (fscanf(f, "%u", &b) != 1)
				break;
			c = fgetc(f);
		}
		n += b - a + 1;
		if (c != ',')
			break;
	}
	fclose(f);
	return n ? n : 1;
}

static int ring_init(struct io_uring *ring)
{
	/* Completions run on the entry's own thread when it waits. */
	int r = io_uring_queue_init(4, ring, IORING_SETUP_SQE128 |
				    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);

	if (r == -EINVAL)
		r = io_uring_queue_init(4, ring, IORING_SETUP_SQE128);
	return r;
}

/* Why io_uring cannot carry FUSE here, in @why; 0 when it can. */
static int uring_unavailable(char *why, size_t n)
{
	const char *path = getenv("VGPU_FUSE_URING_PARAM");
	struct io_uring ring;
	char v = 0;
	int fd, r;

	path = path && *path ? path : param_default;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, n, "this kernel has no FUSE over io_uring (%s: %s; it needs "
			 "Linux 6.14+ with CONFIG_FUSE_IO_URING)", path, strerror(errno));
		return -1;
	}
	r = (int)read(fd, &v, 1);
	close(fd);
	if (r == 1 && v == 'N') {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			snprintf(why, n, "FUSE over io_uring is off (%s is N) and only root "
				 "can turn it on (%s)", path, strerror(errno));
			return -1;
		}
		r = (int)write(fd, "Y", 1);
		close(fd);
		if (r != 1) {
			snprintf(why, n, "cannot turn FUSE over io_uring on (%s): %s", path,
				 strerror(errno));
			return -1;
		}
		fprintf(stderr, "%s: turned FUSE over io_uring on (%s=Y, for every FUSE "
			"server from now on)\n", uring_prog, path);
	} else if (r != 1 || v != 'Y') {
		snprintf(why, n, "cannot read %s", path);
		return -1;
	}
	r = ring_init(&ring);
	if (r) {
		snprintf(why, n, "io_uring is not available: %s (see the sysctl "
			 "kernel.io_uring_disabled)", strerror(-r));
		return -1;
	}
	io_uring_queue_exit(&ring);
	return 0;
}

int fuse_uring_prepare(enum fuse_transport want, const char *prog)
{
	char why[512];

	uring_prog = prog;
	if (want == FUSE_TRANSPORT_CLASSIC)
		return 0;
	if (!uring_unavailable(why, sizeof(why)))
		return 1;
	if (want == FUSE_TRANSPORT_URING) {
		fprintf(stderr, "%s: --transport uring: %s\n", prog, why);
		return -1;
	}
	fprintf(stderr, "%s: transport classic: %s\n", prog, why);
	return 0;
}

static void fail(struct fuse_uring *u, const char *what)
{
	fprintf(stderr, "%s: %s%s\n", uring_prog, what,
		u->forced ? "" : "; serving on the classic transport");
	if (!u->forced)
		return;
	atomic_store(&u->failed, true);
	fuse_session_exit(u->se);
	/* Wake the session loop: any signal it handles will do. */
	kill(getpid(), SIGHUP);
}

/* Queues an io_uring command for the entry's ring (not yet submitted). */
static void ent_cmd(struct ur_ent *e, unsigned op, uint64_t commit_id)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&e->ring);
	struct ring_cmd c = { .commit_id = commit_id, .qid = (uint16_t)e->qid };

	/* The ring has room: an entry has at most two commands queued. */
	io_uring_prep_rw(IORING_OP_URING_CMD, sqe, e->u->fd,
			 op == CMD_REGISTER ? e->iov : NULL,
			 op == CMD_REGISTER ? 2 : 0, 0);
	sqe->cmd_op = op;
	memset(sqe->cmd, 0, 80);
	memcpy(sqe->cmd, &c, sizeof(c));
	io_uring_sqe_set_data(sqe, e);
}

static void ent_free(struct ur_ent *e)
{
	/* Only once every entry's thread is done: liburing maps and unmaps
	 * rings with raw system calls, which ThreadSanitizer does not see,
	 * so a new ring where a freed one was would look like a race. */
	if (e->has_ring)
		io_uring_queue_exit(&e->ring);
	free(e->hdr);
	free(e->payload);
	free(e->req);
	free(e);
}

static void *ent_main(void *arg);

static void *nudge_main(void *arg)
{
	struct statfs st;

	statfs(arg, &st);
	return NULL;
}

int fuse_uring_nudger_main(const char *mnt)
{
	uint32_t qids[64];
	ssize_t n;

	/* The server's Ctrl-C is not ours: we end when its pipe does. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	while ((n = read(STDIN_FILENO, qids, sizeof(qids))) > 0 || (n < 0 && errno == EINTR)) {
		for (ssize_t i = 0; i < n / (ssize_t)sizeof(qids[0]); i++) {
			pthread_attr_t attr;
			cpu_set_t one;
			pthread_t t;

			/* A thread each: a nudge that another request overtook
			 * waits for a commit, which the next nudge brings. */
			if (qids[i] >= CPU_SETSIZE || pthread_attr_init(&attr))
				continue;
			CPU_ZERO(&one);
			CPU_SET(qids[i], &one);
			if (!pthread_attr_setaffinity_np(&attr, sizeof(one), &one) &&
			    !pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED))
				pthread_create(&t, &attr, nudge_main, (void *)mnt);
			pthread_attr_destroy(&attr);
		}
	}
	/* Threads still waiting end with the connection, or at exit. */
	return 0;
}

/* The nudger process for @u, fed through a pipe; none (spares alone)
 * where it cannot start. Before the rings exist, so it maps none. */
static void nudger_start(struct fuse_uring *u, const char *mnt)
{
	char *argv[] = { "vgpu", "dev", "--uring-nudger", (char *)mnt, NULL };
	posix_spawn_file_actions_t fa;
	int p[2];

	u->nudge_fd = -1;
	if (pipe2(p, O_CLOEXEC))
		return;
	if (!posix_spawn_file_actions_init(&fa)) {
		/* Only stdio: a descriptor of the server's left open in the
		 * helper (a pipe, /dev/fuse) would outlive the server. */
		if (!posix_spawn_file_actions_adddup2(&fa, p[0], STDIN_FILENO) &&
		    !posix_spawn_file_actions_addclosefrom_np(&fa, STDERR_FILENO + 1) &&
		    posix_spawn(&u->nudger_pid, "/proc/self/exe", &fa, NULL, argv, environ))
			u->nudger_pid = 0;
		posix_spawn_file_actions_destroy(&fa);
	}
	close(p[0]);
	if (u->nudger_pid) {
		u->nudge_fd = p[1];
		fcntl(p[1], F_SETFL, O_NONBLOCK);
	} else {
		close(p[1]);
	}
}

/* A request on queue @qid, once an entry has registered there. */
static void nudge(struct fuse_uring *u, unsigned qid)
{
	uint32_t q = qid;

	if (u->nudge_fd >= 0 && write(u->nudge_fd, &q, sizeof(q)) != sizeof(q)) {
		/* a full pipe holds 16k nudges: a lost one leaves it to spares */
	}
}

/* A new entry on queue @qid, or -1 (at the cap, stopping, or no memory). */
static int ent_spawn(struct fuse_uring *u, unsigned qid, bool initial)
{
	struct ur_ent *e = calloc(1, sizeof(*e));
	sigset_t all, old;
	int r = -1;

	if (!e)
		return -1;
	e->u = u;
	e->qid = qid;
	e->initial = initial;
	if (posix_memalign((void **)&e->hdr, 4096, sizeof(*e->hdr)) ||
	    !(e->payload = malloc(u->payload_size)) ||
	    !(e->req = malloc(sizeof(struct in_header) + HDR_OP + u->payload_size))) {
		ent_free(e);
		return -1;
	}
	e->iov[0] = (struct iovec){ e->hdr, sizeof(*e->hdr) };
	e->iov[1] = (struct iovec){ e->payload, u->payload_size };
	pthread_mutex_lock(&u->lock);
	if (!atomic_load(&u->stopping) && atomic_load(&u->q[qid].count) < u->cap) {
		/* Signals go to the session loop's thread, as libfuse's
		 * workers leave them. */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		r = pthread_create(&e->thread, NULL, ent_main, e);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (!r) {
		atomic_fetch_add(&u->q[qid].count, 1);
		atomic_fetch_add(&u->q[qid].idle, 1);
		e->next = u->ents;
		u->ents = e;
	}
	pthread_mutex_unlock(&u->lock);
	if (r)
		ent_free(e);
	return r ? -1 : 0;
}

/*
 * Copies a reply into the entry and queues its commit, which the entry's
 * loop submits with its wait for the next request: one system call per
 * request. (The kernel keeps a ring request until it is committed, even
 * when its caller is interrupted or killed, so a commit fails only when
 * the connection is gone, and no handler needs to hear of it.) The
 * reply's length, or -1 with errno.
 */
static ssize_t ent_commit(struct ur_ent *e, const struct iovec *iov, int count)
{
	size_t off = 0, total = 0;
	char *dst;

	for (int i = 0; i < count; i++)
		total += iov[i].iov_len;
	if (total < sizeof(struct out_header) ||
	    total - sizeof(struct out_header) > e->u->payload_size) {
		errno = EINVAL;
		return -1;
	}
	/* The out-header goes in the header buffer, the rest in the payload. */
	for (int i = 0; i < count; i++)
		for (size_t k = 0, n; k < iov[i].iov_len; k += n, off += n) {
			if (off < sizeof(struct out_header)) {
				dst = e->hdr->in_out + off;
				n = OS_MIN(iov[i].iov_len - k, sizeof(struct out_header) - off);
			} else {
				dst = e->payload + off - sizeof(struct out_header);
				n = iov[i].iov_len - k;
			}
			memcpy(dst, (const char *)iov[i].iov_base + k, n);
		}
	memset(&e->hdr->ent, 0, sizeof(e->hdr->ent));
	e->hdr->ent.payload_sz = (uint32_t)(total - sizeof(struct out_header));
	ent_cmd(e, CMD_COMMIT_AND_FETCH, e->unique);
	e->committed = true;
	return (ssize_t)total;
}

/* Serves the request in the entry's buffers. */
static void ent_serve(struct ur_ent *e)
{
	struct fuse_uring *u = e->u;
	struct in_header in;
	struct ur_queue *q = &u->q[e->qid];
	uint32_t psz = e->hdr->ent.payload_sz;
	size_t opsz;
	bool counts;

	memcpy(&in, e->hdr->in_out, sizeof(in));
	e->unique = in.unique;
	e->committed = false;
	/* A statfs never sleeps: the nudges must not spawn more nudges. */
	counts = in.opcode != FUSE_OP_STATFS;
	if (counts && atomic_fetch_sub(&q->idle, 1) <= u->spare)
		ent_spawn(u, e->qid, false);
	if (in.len < sizeof(in) + psz || in.len - sizeof(in) - psz > HDR_OP ||
	    psz > u->payload_size) {
		fprintf(stderr, "%s: io_uring request %u of %u bytes does not fit its "
			"entry: EIO\n", uring_prog, in.opcode, in.len);
	} else {
		struct fuse_buf buf = { .size = in.len, .mem = e->req };

		opsz = in.len - sizeof(in) - psz;
		memcpy(e->req, &in, sizeof(in));
		memcpy(e->req + sizeof(in), e->hdr->op_in, opsz);
		memcpy(e->req + sizeof(in) + opsz, e->payload, psz);
		cur_ent = e;
		fuse_session_process_buf(u->se, &buf);
		cur_ent = NULL;
		atomic_fetch_add(&u->served, 1);
	}
	if (!e->committed) {
		/* Every ring request wants an answer, or the entry is lost. */
		struct out_header oh = { sizeof(oh), -EIO, e->unique };
		struct iovec iov = { &oh, sizeof(oh) };

		ent_commit(e, &iov, 1);
	}
	if (counts)
		atomic_fetch_add(&q->idle, 1);
}

/*
 * The kernel holds every request until each queue has an entry. Where one
 * cannot have any, a registration it refuses (no buffers) makes it serve
 * the connection on /dev/fuse instead.
 */
static void give_up(struct fuse_uring *u)
{
	struct ur_ent e = { .u = u };
	struct io_uring_cqe *cqe;

	if (u->forced || ring_init(&e.ring))
		return;
	ent_cmd(&e, CMD_REGISTER, 0);
	if (io_uring_submit_and_wait(&e.ring, 1) >= 0 && !io_uring_peek_cqe(&e.ring, &cqe))
		io_uring_cqe_seen(&e.ring, cqe);
	io_uring_queue_exit(&e.ring);
}

static void *ent_main(void *arg)
{
	struct ur_ent *e = arg;
	struct fuse_uring *u = e->u;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	char what[160];
	int r = ring_init(&e->ring);

	e->has_ring = !r;
	if (r) {
		atomic_fetch_sub(&u->q[e->qid].idle, 1);
		atomic_fetch_sub(&u->q[e->qid].count, 1);
		snprintf(what, sizeof(what), "io_uring entry: %s", strerror(-r));
		if (!e->initial) {
			/* The queue keeps the entries it has. */
			fprintf(stderr, "%s: %s\n", uring_prog, what);
			return NULL;
		}
		fail(u, what);
		give_up(u);
		return NULL;
	}
	sqe = io_uring_get_sqe(&e->ring);
	io_uring_prep_poll_add(sqe, u->stop_fd, POLLIN);
	io_uring_sqe_set_data64(sqe, TAG_STOP);
	ent_cmd(e, CMD_REGISTER, 0);
	/* Registered once submitted: requests that came before it wait
	 * until a commit on the queue, which the nudge's reply makes. */
	if (!e->initial && io_uring_submit(&e->ring) >= 0)
		nudge(u, e->qid);
	for (;;) {
		uint64_t tag;

		/* The last reply's commit goes with the wait. */
		r = io_uring_submit_and_wait(&e->ring, 1);
		if (r >= 0)
			r = io_uring_peek_cqe(&e->ring, &cqe);
		if (r == -EINTR || r == -EAGAIN)
			continue;
		if (r)
			break;
		tag = cqe->user_data;
		r = cqe->res;
		io_uring_cqe_seen(&e->ring, cqe);
		if (tag == TAG_STOP)
			break;
		if (r < 0 && e->committed && r != -ENOTCONN && r != -ECONNABORTED &&
		    !atomic_load(&u->stopping)) {
			/* A refused commit leaves the entry busy in the
			 * kernel: register it again. */
			fprintf(stderr, "%s: io_uring commit on queue %u: %s\n", uring_prog,
				e->qid, strerror(-r));
			e->committed = false;
			ent_cmd(e, CMD_REGISTER, 0);
			continue;
		}
		if (r < 0) {
			/* The connection ended (unmounted), or the kernel
			 * refused the entry: then it serves on /dev/fuse. */
			if (r != -ENOTCONN && r != -ECONNABORTED && !atomic_load(&u->stopping)) {
				snprintf(what, sizeof(what), "io_uring entry on queue %u: %s",
					 e->qid, strerror(-r));
				fail(u, what);
			}
			break;
		}
		ent_serve(e);
	}
	return NULL;
}

/* INIT has been answered with FUSE_OVER_IO_URING: fill every queue. */
static void uring_start(struct fuse_uring *u)
{
	bool all = true;

	for (unsigned qid = 0; qid < u->nq; qid++) {
		unsigned started = 0;

		for (unsigned i = 0; i < u->initial; i++)
			started += !ent_spawn(u, qid, true);
		all &= started > 0;
	}
	if (!all) {
		fail(u, "cannot start the io_uring queues' threads");
		give_up(u);
	} else
		fprintf(stderr, "%s: transport io_uring: %u queues\n", uring_prog, u->nq);
	atomic_store(&u->started, true);
}

static ssize_t ur_read(int fd, void *buf, size_t len, void *userdata)
{
	struct fuse_uring *u = the_uring;
	ssize_t n = read(fd, buf, len);
	const struct in_header *in = buf;

	(void)userdata;
	if (n >= (ssize_t)(sizeof(*in) + sizeof(struct init_in)) && in->opcode == FUSE_OP_INIT) {
		const struct init_in *ii = (const void *)(in + 1);

		atomic_store(&u->offered, (ii->flags & INIT_EXT) &&
					  (ii->flags2 & INIT2_OVER_IO_URING));
		atomic_store(&u->init_unique, in->unique);
		atomic_store(&u->init_seen, true);
	}
	return n;
}

/* libfuse's INIT reply, with FUSE_OVER_IO_URING when the kernel offered
 * it; remembers the payload size the kernel will want of each entry. */
static ssize_t init_reply(struct fuse_uring *u, int fd, struct iovec *iov, int count)
{
	struct init_out out;
	struct iovec patched[2];
	long page = sysconf(_SC_PAGESIZE);
	size_t pages;
	ssize_t n;

	if (count != 2 || iov[1].iov_len != sizeof(out) || !atomic_load(&u->offered)) {
		if (u->forced)
			fail(u, "the kernel did not offer FUSE over io_uring at INIT");
		return writev(fd, iov, count);
	}
	memcpy(&out, iov[1].iov_base, sizeof(out));
	out.flags |= INIT_EXT;
	out.flags2 |= INIT2_OVER_IO_URING;
	pages = out.flags & INIT_MAX_PAGES ? out.max_pages : DEFAULT_MAX_PAGES;
	u->payload_size = OS_MAX((size_t)MIN_PAYLOAD, OS_MAX((size_t)out.max_write,
							      pages * (size_t)page));
	patched[0] = iov[0];
	patched[1] = (struct iovec){ &out, sizeof(out) };
	n = writev(fd, patched, 2);
	/* The kernel is initialised once it has the reply: entries may
	 * register now. */
	if (n > 0)
		uring_start(u);
	return n;
}

static ssize_t ur_writev(int fd, struct iovec *iov, int count, void *userdata)
{
	struct fuse_uring *u = the_uring;
	const struct out_header *oh = iov[0].iov_base;
	struct ur_ent *e = cur_ent;

	(void)userdata;
	if (iov[0].iov_len >= sizeof(*oh)) {
		if (e && oh->unique == e->unique && !e->committed)
			return ent_commit(e, iov, count);
		if (atomic_load(&u->init_seen) && oh->unique == atomic_load(&u->init_unique) &&
		    !atomic_load(&u->started))
			return init_reply(u, fd, iov, count);
	}
	return writev(fd, iov, count);
}

/* The entries a queue starts with and keeps idle. */
static void entry_counts(struct fuse_uring *u)
{
	const char *env = getenv("VGPU_FUSE_URING_ENTRIES");
	unsigned a, b;
	char end;

	u->initial = INITIAL_PER_QUEUE;
	u->spare = SPARE_PER_QUEUE;
	if (!env || !*env)
		return;
	if (sscanf(env, "%u,%u%c", &a, &b, &end) == 2 && a >= 1 && a <= u->cap && b >= 1 && b < u->cap) {
		u->initial = a;
		u->spare = b;
	} else
		fprintf(stderr, "%s: VGPU_FUSE_URING_ENTRIES wants INITIAL,SPARE (1-%u, 1-%u), "
			"not '%s': using %u,%u\n", uring_prog, u->cap, u->cap - 1, env,
			u->initial, u->spare);
}

struct fuse_uring *fuse_uring_attach(struct fuse_session *se, const char *mnt, bool forced)
{
	static const struct fuse_custom_io io = { .read = ur_read, .writev = ur_writev };
	struct fuse_uring *u;

	if (the_uring) {
		fprintf(stderr, "%s: one io_uring session per process\n", uring_prog);
		return NULL;
	}
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->se = se;
	u->fd = fuse_session_fd(se);
	u->forced = forced;
	u->nq = possible_cpus();
	u->cap = OS_MAX(MAX_ENTRIES / u->nq, 4u);
	entry_counts(u);
	u->stop_fd = eventfd(0, EFD_CLOEXEC);
	u->q = calloc(u->nq, sizeof(*u->q));
	pthread_mutex_init(&u->lock, NULL);
	if (u->stop_fd < 0 || !u->q || fuse_session_custom_io(se, &io, u->fd)) {
		fprintf(stderr, "%s: cannot set up io_uring: %s\n", uring_prog,
			strerror(errno));
		if (u->stop_fd >= 0)
			close(u->stop_fd);
		free(u->q);
		free(u);
		return NULL;
	}
	nudger_start(u, mnt);
	the_uring = u;
	return u;
}

bool fuse_uring_failed(const struct fuse_uring *u)
{
	return u && atomic_load(&u->failed);
}

void fuse_uring_stop(struct fuse_uring *u)
{
	struct ur_ent *e;
	uint64_t one = 1;

	if (!u)
		return;
	pthread_mutex_lock(&u->lock);
	atomic_store(&u->stopping, true);
	pthread_mutex_unlock(&u->lock);
	if (write(u->stop_fd, &one, sizeof(one)) != sizeof(one))
		fprintf(stderr, "%s: io_uring stop: %s\n", uring_prog, strerror(errno));
	while ((e = u->ents)) {
		u->ents = e->next;
		pthread_join(e->thread, NULL);
		ent_free(e);
	}
	if (atomic_load(&u->started))
		fprintf(stderr, "%s: io_uring served %lu requests\n", uring_prog,
			(unsigned long)atomic_load(&u->served));
	if (u->nudge_fd >= 0)
		close(u->nudge_fd);
	/* It ends at the pipe's end, unless a nudge waits for an answer
	 * from these stopped rings: then it stays, without us, until the
	 * unmount ends that request. */
	if (u->nudger_pid)
		waitpid(u->nudger_pid, NULL, WNOHANG);
	close(u->stop_fd);
	pthread_mutex_destroy(&u->lock);
	free(u->q);
	the_uring = NULL;
	free(u);
}

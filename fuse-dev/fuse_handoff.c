// SPDX-License-Identifier: MIT
/*
 * The FUSE nodes' memfd hand-off (fuse_handoff.h): one thread accepts
 * on an abstract unix socket, reads a ticket, checks the peer's
 * credentials against the ticket's and answers one byte, with the memfd
 * attached when they match. Nothing else is ever sent on it.
 */
#include "fuse-dev/fuse_handoff.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "fuse-dev/fuse_mmap.h"
#include "fuse-dev/socket_io.h"

/* Unredeemed tickets one open file may hold (each pins a descriptor). */
#define HANDOFF_PER_OWNER 16

struct ticket {
	uint64_t id;
	int fd;
	pid_t tid;
	uid_t uid;
	const void *owner;
	struct ticket *next;
};

struct handoff {
	int lfd;
	uint64_t channel;
	pthread_t thread;
	pthread_mutex_t lock;
	struct ticket *tickets; /* newest first */
};

uint64_t handoff_channel(const struct handoff *h)
{
	return h->channel;
}

static void ticket_free(struct ticket *t)
{
	close(t->fd);
	free(t);
}

/* Unlinks and returns @owner's oldest ticket when it has too many. */
static struct ticket *over_quota(struct handoff *h, const void *owner)
{
	struct ticket **pp, **oldest = NULL, *t;
	int n = 0;

	for (pp = &h->tickets; *pp; pp = &(*pp)->next)
		if ((*pp)->owner == owner) {
			n++;
			oldest = pp;
		}
	if (n < HANDOFF_PER_OWNER)
		return NULL;
	t = *oldest;
	*oldest = t->next;
	return t;
}

uint64_t handoff_issue(struct handoff *h, const void *owner, int fd, pid_t tid,
		       uid_t uid)
{
	struct ticket *t = calloc(1, sizeof(*t)), *old;
	uint64_t id;

	if (!t)
		return 0;
	t->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (t->fd < 0 || getentropy(&t->id, sizeof(t->id)) || !t->id) {
		if (t->fd >= 0)
			close(t->fd);
		free(t);
		return 0;
	}
	t->tid = tid;
	t->uid = uid;
	t->owner = owner;
	/* Once listed, the ticket is the hand-off thread's: it may be
	 * redeemed and freed before this returns. */
	id = t->id;
	pthread_mutex_lock(&h->lock);
	old = over_quota(h, owner);
	t->next = h->tickets;
	h->tickets = t;
	pthread_mutex_unlock(&h->lock);
	if (old)
		ticket_free(old);
	return id;
}

void handoff_forget(struct handoff *h, const void *owner)
{
	struct ticket **pp = &h->tickets, *dead = NULL, *t;

	if (!h)
		return;
	pthread_mutex_lock(&h->lock);
	while ((t = *pp)) {
		if (t->owner == owner) {
			*pp = t->next;
			t->next = dead;
			dead = t;
		} else {
			pp = &t->next;
		}
	}
	pthread_mutex_unlock(&h->lock);
	while ((t = dead)) {
		dead = t->next;
		ticket_free(t);
	}
}

/* Is thread @tid one of process @pid's? (A FUSE request names the
 * calling thread; SO_PEERCRED the process.) */
static bool thread_of(pid_t tid, pid_t pid)
{
	char path[64];
	struct stat st;

	if (tid == pid)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)pid, (int)tid);
	return !stat(path, &st);
}

/* The ticket @id if the peer @cr may redeem it, unlinked; else NULL. */
static struct ticket *redeem(struct handoff *h, uint64_t id, const struct ucred *cr)
{
	struct ticket **pp, *t = NULL;

	pthread_mutex_lock(&h->lock);
	for (pp = &h->tickets; *pp; pp = &(*pp)->next)
		if ((*pp)->id == id) {
			t = *pp;
			break;
		}
	if (t && t->uid == cr->uid && thread_of(t->tid, cr->pid))
		*pp = t->next;
	else
		t = NULL;
	pthread_mutex_unlock(&h->lock);
	return t;
}

static void send_answer(int fd, int pass)
{
	char byte = pass >= 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	union sock_fd_ctl ctl;

	if (pass >= 0)
		sock_attach_fd(&mh, &ctl, pass);
	(void)!sendmsg(fd, &mh, MSG_NOSIGNAL);
}

/* Whether a ticket of uid @uid is outstanding. */
static bool uid_waited_for(struct handoff *h, uid_t uid)
{
	bool yes = false;

	pthread_mutex_lock(&h->lock);
	for (struct ticket *t = h->tickets; t && !yes; t = t->next)
		yes = t->uid == uid;
	pthread_mutex_unlock(&h->lock);
	return yes;
}

static void serve(struct handoff *h, int fd)
{
	/* A client that connects and says nothing holds up the others for
	 * this long; anyone may connect to an abstract socket, so only a
	 * uid with a ticket to redeem is listened to at all. */
	struct timeval tv = { .tv_sec = 2 };
	struct ucred cr;
	socklen_t len = sizeof(cr);
	struct ticket *t = NULL;
	uint64_t id;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (!getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) &&
	    uid_waited_for(h, cr.uid) &&
	    recv(fd, &id, sizeof(id), MSG_WAITALL) == sizeof(id))
		t = redeem(h, id, &cr);
	send_answer(fd, t ? t->fd : -1);
	if (t)
		ticket_free(t);
}

static void *accept_loop(void *arg)
{
	struct handoff *h = arg;
	sigset_t all;

	/* Signals are for the thread that stops the server. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		int fd = accept4(h->lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd >= 0) {
			serve(h, fd);
			close(fd);
		} else if (errno != EINTR && errno != ECONNABORTED) {
			return NULL; /* shut down */
		}
	}
}

struct handoff *handoff_start(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct handoff *h = calloc(1, sizeof(*h));
	socklen_t salen;
	int n;

	if (!h)
		return NULL;
	h->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (h->lfd < 0 || getentropy(&h->channel, sizeof(h->channel)))
		goto fail;
	/* Abstract: no file to create or clean up; the tickets guard it. */
	n = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1,
		     VGPU_DEV_MMAP_SOCKET, (unsigned long long)h->channel);
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
	if (bind(h->lfd, (struct sockaddr *)&sa, salen) || listen(h->lfd, 64))
		goto fail;
	pthread_mutex_init(&h->lock, NULL);
	if (pthread_create(&h->thread, NULL, accept_loop, h)) {
		pthread_mutex_destroy(&h->lock);
		goto fail;
	}
	return h;
fail:
	if (h->lfd >= 0)
		close(h->lfd);
	free(h);
	return NULL;
}

void handoff_stop(struct handoff *h)
{
	struct ticket *t;

	if (!h)
		return;
	/* Wakes accept(): it fails on a shut-down socket. */
	shutdown(h->lfd, SHUT_RDWR);
	pthread_join(h->thread, NULL);
	close(h->lfd);
	while ((t = h->tickets)) {
		h->tickets = t->next;
		ticket_free(t);
	}
	pthread_mutex_destroy(&h->lock);
	free(h);
}

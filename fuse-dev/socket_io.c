// SPDX-License-Identifier: MIT
/* Message I/O for the socket transport (socket_io.h): framing, and the
 * client's side of a request. */
#include "fuse-dev/socket_io.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

void sock_attach_fd(struct msghdr *mh, union sock_fd_ctl *ctl, int fd)
{
	struct cmsghdr *c;

	memset(ctl, 0, sizeof(*ctl));
	mh->msg_control = ctl->buf;
	mh->msg_controllen = sizeof(ctl->buf);
	c = CMSG_FIRSTHDR(mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
}

uint64_t sock_deadline(unsigned ms)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec +
		(uint64_t)ms * 1000000u;
}

/* Waits until @fd is ready for @events, or -ETIMEDOUT at @deadline (0:
 * no deadline, the blocking call itself waits). */
static int wait_until(int fd, short events, uint64_t deadline)
{
	while (deadline) {
		struct pollfd p = { .fd = fd, .events = events };
		uint64_t now = sock_deadline(0);
		int n;

		if (now >= deadline)
			return -ETIMEDOUT;
		/* Rounded up, so that it never spins on a 0 ms poll. */
		n = poll(&p, 1, (int)((deadline - now + 999999u) / 1000000u));
		/* Ready, or an error or hang-up the call itself reports. */
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
	return 0;
}

int sock_send(int fd, const struct vgpu_sock_msg *m, const void *payload,
	      int pass_fd)
{
	return sock_send_by(fd, m, payload, pass_fd, 0);
}

int sock_send_by(int fd, const struct vgpu_sock_msg *m, const void *payload,
		 int pass_fd, uint64_t deadline)
{
	union sock_fd_ctl ctl;
	struct iovec iov[2] = {
		{ .iov_base = (void *)m, .iov_len = sizeof(*m) },
		{ .iov_base = (void *)payload, .iov_len = m->len },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = m->len ? 2 : 1 };

	if (pass_fd >= 0)
		sock_attach_fd(&mh, &ctl, pass_fd);
	while (mh.msg_iovlen) {
		/* MSG_NOSIGNAL: a vanished peer is an error, not SIGPIPE.
		 * With a deadline, never block: wait_until() waits. */
		int err = wait_until(fd, POLLOUT, deadline);
		ssize_t n = err ? -1 : sendmsg(fd, &mh, MSG_NOSIGNAL |
					       (deadline ? MSG_DONTWAIT : 0));

		if (err)
			return err;
		if (n < 0) {
			if (errno == EINTR || (deadline && errno == EAGAIN))
				continue;
			return -errno;
		}
		/* The descriptor went with the first bytes; the rest is data. */
		mh.msg_control = NULL;
		mh.msg_controllen = 0;
		while (mh.msg_iovlen && (size_t)n >= mh.msg_iov->iov_len) {
			n -= (ssize_t)mh.msg_iov->iov_len;
			mh.msg_iov++;
			mh.msg_iovlen--;
		}
		if (mh.msg_iovlen) {
			mh.msg_iov->iov_base = (char *)mh.msg_iov->iov_base + n;
			mh.msg_iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

static int recv_some(int fd, void *buf, size_t len, int *got_fd, uint64_t deadline)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * 4)];
	} ctl;
	size_t done = 0;

	while (done < len) {
		struct iovec iov = { .iov_base = (char *)buf + done, .iov_len = len - done };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t n;

		if (got_fd) {
			mh.msg_control = ctl.buf;
			mh.msg_controllen = sizeof(ctl.buf);
		}
		n = wait_until(fd, POLLIN, deadline);
		if (n)
			return (int)n;
		n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC | (deadline ? MSG_DONTWAIT : 0));
		if (n < 0) {
			if (errno == EINTR || (deadline && errno == EAGAIN))
				continue;
			return -errno;
		}
		if (n == 0)
			return -EPIPE;
		if (got_fd) {
			for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
				size_t nfd;

				if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
					continue;
				nfd = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
				for (size_t i = 0; i < nfd; i++) {
					int f;

					memcpy(&f, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
					/* One descriptor per message; more is a
					 * confused peer: do not leak them. */
					if (*got_fd < 0)
						*got_fd = f;
					else
						close(f);
				}
			}
		}
		done += (size_t)n;
	}
	return 0;
}

int sock_recv_hdr(int fd, struct vgpu_sock_msg *m, int *got_fd)
{
	return sock_recv_hdr_by(fd, m, got_fd, 0);
}

int sock_recv_hdr_by(int fd, struct vgpu_sock_msg *m, int *got_fd, uint64_t deadline)
{
	int ret;

	*got_fd = -1;
	ret = recv_some(fd, m, sizeof(*m), got_fd, deadline);
	if (!ret && m->len > VGPU_SOCK_MAX_PAYLOAD)
		ret = -EPROTO;
	if (ret && *got_fd >= 0) {
		close(*got_fd);
		*got_fd = -1;
	}
	return ret;
}

int sock_recv_payload(int fd, void *buf, size_t len)
{
	return sock_recv_payload_by(fd, buf, len, 0);
}

int sock_recv_payload_by(int fd, void *buf, size_t len, uint64_t deadline)
{
	char sink[4096];

	if (buf)
		return recv_some(fd, buf, len, NULL, deadline);
	while (len) {
		size_t n = len < sizeof(sink) ? len : sizeof(sink);
		int ret = recv_some(fd, sink, n, NULL, deadline);

		if (ret)
			return ret;
		len -= n;
	}
	return 0;
}

/* ---- the client's side ---- */

/*
 * The kernel checks the addresses for us: process_vm_readv/writev on our
 * own pid, or, where those are missing (qemu-user), a pipe, whose read
 * and write fail with EFAULT alike.
 */
static int user_rw_pipe(uintptr_t user, uint8_t *buf, size_t len, bool to_user)
{
	int p[2], ret = 0;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	while (len && !ret) {
		size_t n = len < 65536 ? len : 65536; /* a pipe's default size */
		const void *from = to_user ? (const void *)buf : (const void *)user;
		void *to = to_user ? (void *)user : (void *)buf;

		if (write(p[1], from, n) != (ssize_t)n ||
		    read(p[0], to, n) != (ssize_t)n)
			ret = -EFAULT;
		user += n;
		buf += n;
		len -= n;
	}
	close(p[0]);
	close(p[1]);
	return ret;
}

int sock_user_rw(uintptr_t user, void *buf, size_t len, bool to_user)
{
	static int no_vm_rw;
	struct iovec local = { buf, len }, remote = { (void *)user, len };
	ssize_t n;

	if (!len)
		return 0;
	if (!__atomic_load_n(&no_vm_rw, __ATOMIC_RELAXED)) {
		n = to_user ? process_vm_writev(getpid(), &local, 1, &remote, 1, 0)
			    : process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
		if (n == (ssize_t)len)
			return 0;
		if (n >= 0 || errno == EFAULT)
			return -EFAULT;
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
		__atomic_store_n(&no_vm_rw, 1, __ATOMIC_RELAXED);
	}
	return user_rw_pipe(user, buf, len, to_user);
}

/* Answers one COPY_IN/COPY_OUT of the driver. 0 or -errno (stream). */
static int answer_copy(int sock, const struct vgpu_sock_msg *m)
{
	struct vgpu_sock_msg r = { .op = VGPU_SOCK_REPLY };
	uint8_t *tmp = malloc(m->op == VGPU_SOCK_COPY_IN ? m->b : m->len);
	int ret;

	if (!tmp && (m->op == VGPU_SOCK_COPY_IN ? m->b : m->len))
		return -ENOMEM;
	if (m->op == VGPU_SOCK_COPY_IN) {
		/* The driver reads user memory: our own, as a kernel would;
		 * what we cannot read is an error reply (EFAULT there). */
		r.ret = sock_user_rw(m->a, tmp, m->b, false);
		r.len = r.ret ? 0 : (uint32_t)m->b;
		ret = sock_send(sock, &r, tmp, -1);
	} else {
		ret = sock_recv_payload(sock, tmp, m->len);
		if (!ret) {
			r.ret = sock_user_rw(m->a, tmp, m->len, true);
			ret = sock_send(sock, &r, NULL, -1);
		}
	}
	free(tmp);
	return ret;
}

int sock_exchange(int sock, struct vgpu_sock_msg *req, const void *in,
		  struct vgpu_sock_msg *rep, void *out, size_t cap, int *got_fd,
		  sock_fd_answer *fdc)
{
	int ret, fd = -1;

	ret = sock_send(sock, req, in, -1);
	while (!ret) {
		bool fd_call;

		ret = sock_recv_hdr(sock, rep, &fd);
		if (ret)
			break;
		if (rep->op == VGPU_SOCK_REPLY) {
			size_t n = rep->len < cap ? rep->len : cap;

			ret = sock_recv_payload(sock, out, n);
			if (!ret && rep->len > n)
				ret = sock_recv_payload(sock, NULL, rep->len - n);
			break;
		}
		fd_call = rep->op == VGPU_SOCK_FD_INSTALL || rep->op == VGPU_SOCK_FD_GET;
		if (fd_call)
			ret = fdc ? fdc(sock, rep, &fd) : -EPROTO;
		else if (rep->op == VGPU_SOCK_COPY_IN || rep->op == VGPU_SOCK_COPY_OUT)
			ret = answer_copy(sock, rep);
		else
			ret = -EPROTO;
		if (fd >= 0) {
			close(fd);
			fd = -1;
		}
	}
	if (got_fd)
		*got_fd = fd;
	else if (fd >= 0)
		close(fd);
	return ret;
}

int sock_call_ioctl(int sock, unsigned long cmd, void *arg, sock_fd_answer *fdc,
		    long *ret)
{
	struct vgpu_sock_msg req = { .op = VGPU_SOCK_IOCTL, .a = (uint32_t)cmd }, rep;
	size_t size = _IOC_SIZE(cmd); /* 14 bits: at most 16 KiB */
	unsigned dir = _IOC_DIR(cmd);
	uint8_t kbuf[1u << 14];
	int err;

	/* The argument goes through a copy, as the kernel's ioctl entry
	 * copies it: a bad pointer is EFAULT before the driver sees it. */
	if (dir & _IOC_WRITE) {
		req.len = (uint32_t)size;
		if (sock_user_rw((uintptr_t)arg, kbuf, size, false)) {
			*ret = -EFAULT;
			return 0;
		}
	}
	err = sock_exchange(sock, &req, kbuf, &rep, (dir & _IOC_READ) ? kbuf : NULL,
			    (dir & _IOC_READ) ? size : 0, NULL, fdc);
	if (err)
		return err;
	*ret = (long)rep.ret;
	if ((dir & _IOC_READ) && rep.ret >= 0 &&
	    sock_user_rw((uintptr_t)arg, kbuf, size, true))
		*ret = -EFAULT;
	return 0;
}

int sock_call_read(int sock, void *buf, size_t len, bool nonblock,
		   sock_fd_answer *fdc, long *ret)
{
	size_t cap = len < VGPU_SOCK_MAX_PAYLOAD ? len : VGPU_SOCK_MAX_PAYLOAD;
	struct vgpu_sock_msg req = { .op = VGPU_SOCK_READ, .a = cap, .b = nonblock }, rep;
	uint8_t *tmp = malloc(cap ? cap : 1);
	int err;

	if (!tmp) {
		*ret = -ENOMEM;
		return 0;
	}
	err = sock_exchange(sock, &req, NULL, &rep, tmp, cap, NULL, fdc);
	if (!err) {
		*ret = (long)rep.ret;
		if (rep.ret > 0 && sock_user_rw((uintptr_t)buf, tmp, (size_t)rep.ret, true))
			*ret = -EFAULT;
	}
	free(tmp);
	return err;
}

int sock_call_lseek(int sock, int64_t off, int whence, int64_t *ret)
{
	struct vgpu_sock_msg req = { .op = VGPU_SOCK_LSEEK, .a = (uint64_t)off,
				     .b = (uint64_t)(unsigned)whence }, rep;
	int err = sock_exchange(sock, &req, NULL, &rep, NULL, 0, NULL, NULL);

	if (!err)
		*ret = rep.ret;
	return err;
}

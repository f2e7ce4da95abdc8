// SPDX-License-Identifier: MIT
/* Message framing for the socket transport (socket_io.h). */
#include "fuse-dev/socket_io.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

int sock_send(int fd, const struct vgpu_sock_msg *m, const void *payload,
	      int pass_fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov[2] = {
		{ .iov_base = (void *)m, .iov_len = sizeof(*m) },
		{ .iov_base = (void *)payload, .iov_len = m->len },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = m->len ? 2 : 1 };

	if (pass_fd >= 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
	}
	while (mh.msg_iovlen) {
		/* MSG_NOSIGNAL: a vanished peer is an error, not SIGPIPE. */
		ssize_t n = sendmsg(fd, &mh, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
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

static int recv_some(int fd, void *buf, size_t len, int *got_fd)
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
		n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);
		if (n < 0) {
			if (errno == EINTR)
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
	int ret;

	*got_fd = -1;
	ret = recv_some(fd, m, sizeof(*m), got_fd);
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
	char sink[4096];

	if (buf)
		return recv_some(fd, buf, len, NULL);
	while (len) {
		size_t n = len < sizeof(sink) ? len : sizeof(sink);
		int ret = recv_some(fd, sink, n, NULL);

		if (ret)
			return ret;
		len -= n;
	}
	return 0;
}

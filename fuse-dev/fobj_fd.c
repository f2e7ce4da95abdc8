// SPDX-License-Identifier: MIT
/* File objects as host descriptors (fobj_fd.h). */
#include "fuse-dev/fobj_fd.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver-shim/shim.h"

int fobj_fd_make(struct fobj_fd *h, bool level)
{
	int p[2];
	struct stat st;

	h->ready = false;
	h->level = level;
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	if (fstat(p[0], &st)) {
		int e = errno;

		close(p[0]);
		close(p[1]);
		return -e;
	}
	h->rfd = p[0];
	h->wfd = p[1];
	h->dev = st.st_dev;
	h->ino = st.st_ino;
	return 0;
}

void fobj_fd_ready(struct fobj_fd *h, unsigned mask)
{
	char buf[64];

	if (h->level && h->rfd >= 0) {
		/* One byte while readable: drain, then put one back. */
		while (read(h->rfd, buf, sizeof(buf)) > 0)
			;
		h->ready = false;
	}
	if (mask && !h->ready)
		h->ready = write(h->wfd, "", 1) == 1;
}

bool fobj_fd_is(const struct fobj_fd *h, const struct stat *st)
{
	return h->wfd >= 0 && S_ISFIFO(st->st_mode) && st->st_dev == h->dev &&
	       st->st_ino == h->ino;
}

bool fobj_fd_orphaned(const struct fobj_fd *h)
{
	struct pollfd p = { .fd = h->wfd, .events = 0 };

	return !h->level && h->wfd >= 0 && h->rfd < 0 && poll(&p, 1, 0) == 1 &&
	       (p.revents & POLLERR);
}

void fobj_fd_close(struct fobj_fd *h)
{
	if (h->rfd >= 0)
		close(h->rfd);
	if (h->wfd >= 0)
		close(h->wfd);
	h->rfd = h->wfd = -1;
}

void fobj_fd_notify(void *priv, struct shim_fobj *o, unsigned mask)
{
	struct fobj_fd *h = shim_fobj_host_data(o);

	(void)priv;
	if (h)
		fobj_fd_ready(h, mask);
}

void node_efd_ready(int efd, bool readable)
{
	uint64_t v;

	while (read(efd, &v, sizeof(v)) == sizeof(v))
		;
	v = 1;
	if (readable && write(efd, &v, sizeof(v)) != sizeof(v))
		return;
}

void transport_rearm(struct shim_fobj *obj, struct fobj_fd *h, struct shim_file *sf,
		     int efd)
{
	if (obj) {
		fobj_fd_ready(h, shim_fobj_poll(obj));
		if (shim_fobj_poll(obj))
			fobj_fd_ready(h, shim_fobj_poll(obj));
	} else {
		node_efd_ready(efd, shim_poll(sf) & SHIM_POLLIN);
		if (shim_poll(sf) & SHIM_POLLIN)
			node_efd_ready(efd, true);
	}
}

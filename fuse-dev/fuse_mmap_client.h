/* SPDX-License-Identifier: MIT */
/*
 * Client side of the mmap side channel (fuse_mmap.h), for native
 * programs and tests: vgpu_dev_mmap() does what mmap() on a real Mali or
 * DRM node does, vgpu_dev_munmap() what munmap() does.
 */
#ifndef VGPU_FUSE_DEV_FUSE_MMAP_CLIENT_H
#define VGPU_FUSE_DEV_FUSE_MMAP_CLIENT_H

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fuse-dev/fuse_mmap.h"

/*
 * An address range of @length that does not cross a 4 GiB boundary,
 * reserved (PROT_NONE) so the MAP_FIXED mapping that follows owns it.
 */
static inline void *vgpu_dev_4gb_hint(size_t length)
{
	const uint64_t four_g = 1ull << 32;
	size_t span = length + four_g;
	uint8_t *base = mmap(NULL, span, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uint64_t start, end;

	if (base == MAP_FAILED || length > four_g)
		return NULL;
	start = (uint64_t)(uintptr_t)base;
	if ((start >> 32) != ((start + length - 1) >> 32))
		start = (start + four_g - 1) & ~(four_g - 1);
	end = start + length;
	/* Keep [start, end), give the rest back. */
	if (start > (uint64_t)(uintptr_t)base)
		munmap(base, start - (uint64_t)(uintptr_t)base);
	if ((uint64_t)(uintptr_t)base + span > end)
		munmap((void *)(uintptr_t)end, (uint64_t)(uintptr_t)base + span - end);
	return (void *)(uintptr_t)start;
}

/*
 * Redeems a PREPARE's ticket on the server's hand-off socket: the memfd
 * (close-on-exec), or -1 with errno set (EACCES: not ours to have).
 */
static inline int vgpu_dev_claim(const struct vgpu_dev_mmap *m)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	char byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = u.buf, .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	int s, n, fd = -1;

	n = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, VGPU_DEV_MMAP_SOCKET,
		     (unsigned long long)m->channel);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	if (connect(s, (struct sockaddr *)&sa,
		    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n))) {
		close(s);
		return -1;
	}
	/* The server may refuse before reading (EPIPE): its answer is
	 * waiting all the same. */
	(void)!send(s, &m->ticket, sizeof(m->ticket), MSG_NOSIGNAL);
	n = (int)recvmsg(s, &mh, MSG_CMSG_CLOEXEC);
	close(s);
	if (n != 1) {
		if (n == 0)
			errno = EPROTO;
		return -1;
	}
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(&fd, CMSG_DATA(c), sizeof(int));
	if (fd < 0 || !byte) {
		if (fd >= 0)
			close(fd);
		errno = EACCES;
		return -1;
	}
	return fd;
}

/* Returns the mapping, or MAP_FAILED with errno set. */
static inline void *vgpu_dev_mmap(int devfd, size_t length, int prot,
				  uint64_t offset)
{
	struct vgpu_dev_mmap m = { .pgoff = offset >> 12, .length = length,
				   .prot = (uint32_t)prot };
	void *p, *hint;
	int mfd;

	if (ioctl(devfd, VGPU_DEV_IOC_MMAP_PREPARE, &m) < 0)
		return MAP_FAILED;
	if (m.flags & VGPU_DEV_MMAP_READONLY)
		prot &= ~PROT_WRITE;
	hint = (m.flags & VGPU_DEV_MMAP_SAME_4GB) ? vgpu_dev_4gb_hint(length) : NULL;
	if (m.flags & VGPU_DEV_MMAP_RESERVE_ONLY) {
		p = mmap(hint, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
			 (hint ? MAP_FIXED : 0), -1, 0);
	} else {
		mfd = vgpu_dev_claim(&m);
		if (mfd < 0) {
			if (hint)
				munmap(hint, length);
			return MAP_FAILED;
		}
		p = mmap(hint, length, prot, MAP_SHARED | (hint ? MAP_FIXED : 0), mfd,
			 (off_t)m.offset);
		close(mfd);
	}
	if (p == MAP_FAILED)
		return MAP_FAILED;
	m.cpu_va = (uint64_t)(uintptr_t)p;
	if (ioctl(devfd, VGPU_DEV_IOC_MMAP_COMMIT, &m) < 0) {
		int e = errno;

		munmap(p, length);
		errno = e;
		return MAP_FAILED;
	}
	return p;
}

static inline int vgpu_dev_munmap(int devfd, void *addr, size_t length)
{
	struct vgpu_dev_mmap m = { .length = length,
				   .cpu_va = (uint64_t)(uintptr_t)addr };

	ioctl(devfd, VGPU_DEV_IOC_MUNMAP, &m);
	return munmap(addr, length);
}

#endif

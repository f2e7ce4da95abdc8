// SPDX-License-Identifier: MIT
/*
 * File system calls whose arguments differ between aarch64 and x86-64:
 * open flags, struct stat, struct epoll_event; and the /proc/self files
 * that must describe the guest rather than the translator.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "aarch64-user/abi.h"

/*
 * The four open flags whose bits differ: aarch64 value, x86-64 kernel
 * value. Spelt as numbers: glibc defines O_LARGEFILE as 0 on x86-64, but
 * the kernel reports its bit in F_GETFL.
 */
static const struct {
	uint32_t guest, host;
} oflag_map[] = {
	{ 0040000, 0200000 }, /* O_DIRECTORY */
	{ 0100000, 0400000 }, /* O_NOFOLLOW */
	{ 0200000, 0040000 }, /* O_DIRECT */
	{ 0400000, 0100000 }, /* O_LARGEFILE */
};
#define OFLAG_MOVED (0040000 | 0100000 | 0200000 | 0400000)

int oflags_to_host(uint64_t g)
{
	int h = (int)(g & ~(uint64_t)OFLAG_MOVED);

	for (size_t i = 0; i < sizeof(oflag_map) / sizeof(oflag_map[0]); i++)
		if (g & oflag_map[i].guest)
			h |= (int)oflag_map[i].host;
	return h;
}

uint64_t oflags_to_guest(int h)
{
	uint64_t g = (uint32_t)(h & ~OFLAG_MOVED);

	for (size_t i = 0; i < sizeof(oflag_map) / sizeof(oflag_map[0]); i++)
		if (h & (int)oflag_map[i].host)
			g |= oflag_map[i].guest;
	return g;
}

static long ret(long r)
{
	return r < 0 ? -errno : r;
}

/* Reads a guest path argument. */
static long get_path(uint64_t p, char *buf)
{
	long r = strncpy_from_guest(buf, p, PATH_MAX);
	return r < 0 ? r : 0;
}

/* A /proc file as the guest's: a memfd holding a snapshot of @v. Only
 * O_CLOEXEC of the open flags matters for a read-only snapshot. */
static long open_snapshot(const char *name, const void *v, size_t len,
			  int flags)
{
	int fd = memfd_create(name, (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);

	if (fd < 0)
		return -errno;
	if ((len && write(fd, v, len) != (ssize_t)len) || lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return -EIO;
	}
	return fd;
}

long sys_openat(struct gthread *t, const uint64_t *a)
{
	char raw[PATH_MAX], buf[PATH_MAX];
	int flags = oflags_to_host(a[2]);
	long r;

	(void)t;
	if ((r = get_path(a[1], raw)))
		return r;
	switch (path_proc_self(raw)) {
	case PS_AUXV: {
		size_t len;
		const void *v = stack_auxv(&len);
		return open_snapshot("auxv", v, len, flags);
	}
	case PS_CMDLINE:
		return open_snapshot("cmdline", abi_opts.cmdline,
				     abi_opts.cmdline_len, flags);
	case PS_CPUINFO: {
		size_t len;
		char *text = abi_cpuinfo(&len);
		long fd = text ? open_snapshot("cpuinfo", text, len, flags)
			       : -ENOMEM;
		free(text);
		return fd;
	}
	default: /* exe: path_redirect() names the guest program */
		break;
	}
	if ((r = devview_open(raw, flags)) != -ENOENT)
		return r;
	return ret(syscall(SYS_openat, (int)a[0], path_redirect(raw, buf),
			   flags, (mode_t)a[3]));
}

/* /proc/self/fd/N (or /proc/<our pid>/fd/N): N, else -1. */
static int proc_self_fd(const char *p)
{
	const char *rest = path_proc_self_rest(p);
	char *end;
	long fd;

	if (!rest || strncmp(rest, "fd/", 3) || !rest[3])
		return -1;
	rest += 3;
	fd = strtol(rest, &end, 10);
	return *end || fd < 0 || fd > INT32_MAX ? -1 : (int)fd;
}

/* A link as the guest sees it: the device view's files by their board
 * paths, not where the view keeps them. */
static long put_link(uint64_t dst, uint64_t size, const char *link, size_t n)
{
	const char *root = devview_tree_root();
	size_t rl = root ? strlen(root) : 0;

	if (rl && n > rl && !strncmp(link, root, rl) && link[rl] == '/')
		link += rl, n -= rl;
	if (n > size)
		n = size;
	return copy_to_guest(dst, link, n) ? -EFAULT : (long)n;
}

long sys_readlinkat(struct gthread *t, const uint64_t *a)
{
	char raw[PATH_MAX], buf[PATH_MAX], link[PATH_MAX];
	const char *node;
	ssize_t n;
	long r;
	int fd;

	(void)t;
	if ((r = get_path(a[1], raw)))
		return r;
	if (path_proc_self(raw) == PS_EXE)
		return put_link(a[2], a[3], abi_opts.exe_path, strlen(abi_opts.exe_path));
	if ((fd = proc_self_fd(raw)) >= 0 && (node = devview_node_path(fd)))
		return put_link(a[2], a[3], node, strlen(node));
	n = readlinkat((int)a[0], path_redirect(raw, buf), link, sizeof(link));
	if (n < 0)
		return -errno;
	return put_link(a[2], a[3], link, (size_t)n);
}

/* struct stat of asm-generic (aarch64): 128 bytes, another field order
 * than x86-64's. */
struct a64_stat {
	uint64_t dev, ino;
	uint32_t mode, nlink, uid, gid;
	uint64_t rdev, pad1;
	int64_t size;
	int32_t blksize, pad2;
	int64_t blocks;
	int64_t atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns;
	uint32_t unused4, unused5;
};
_Static_assert(sizeof(struct a64_stat) == 128, "aarch64 struct stat");

static long put_stat(uint64_t dst, const struct stat *h)
{
	struct a64_stat g = {
		.dev = h->st_dev, .ino = h->st_ino, .mode = h->st_mode,
		.nlink = (uint32_t)h->st_nlink, .uid = h->st_uid,
		.gid = h->st_gid, .rdev = h->st_rdev, .size = h->st_size,
		.blksize = (int32_t)h->st_blksize, .blocks = h->st_blocks,
		.atime = h->st_atim.tv_sec, .atime_ns = h->st_atim.tv_nsec,
		.mtime = h->st_mtim.tv_sec, .mtime_ns = h->st_mtim.tv_nsec,
		.ctime = h->st_ctim.tv_sec, .ctime_ns = h->st_ctim.tv_nsec,
	};
	return copy_to_guest(dst, &g, sizeof(g)) ? -EFAULT : 0;
}

long sys_fstat(struct gthread *t, const uint64_t *a)
{
	struct stat st;
	int r;

	(void)t;
	if ((r = devview_fstat((int)a[0], &st)) <= 0)
		return r ? r : put_stat(a[1], &st);
	if (syscall(SYS_fstat, (int)a[0], &st))
		return -errno;
	return put_stat(a[1], &st);
}

long sys_newfstatat(struct gthread *t, const uint64_t *a)
{
	char raw[PATH_MAX], buf[PATH_MAX];
	const char *p;
	struct stat st;
	long r;

	(void)t;
	if ((r = get_path(a[1], raw)))
		return r;
	if (!raw[0] && (a[3] & AT_EMPTY_PATH) &&
	    (r = devview_fstat((int)a[0], &st)) <= 0)
		return r ? r : put_stat(a[2], &st);
	p = path_redirect(raw, buf);
	if (syscall(SYS_newfstatat, (int)a[0], p, &st, (int)a[3]))
		return -errno;
	devview_stat_as_node(raw, &st);
	return put_stat(a[2], &st);
}

long sys_fcntl(struct gthread *t, const uint64_t *a)
{
	long r;

	(void)t;
	switch (a[1]) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		/* A copy of a node shares its file. */
		return devview_dupfd((int)a[0], (int)a[1], a[2]);
	}
	if ((a[1] == F_GETFL || a[1] == F_SETFL) &&
	    (r = devview_fcntl((int)a[0], (int)a[1], a[2])) != 1)
		return r;
	switch (a[1]) {
	case F_GETFL:
		r = syscall(SYS_fcntl, (int)a[0], F_GETFL);
		return r < 0 ? -errno : (long)oflags_to_guest((int)r);
	case F_SETFL:
		return ret(syscall(SYS_fcntl, (int)a[0], F_SETFL,
				   oflags_to_host(a[2])));
	default:
		/* Every other command has the same number and layout. */
		return ret(syscall(SYS_fcntl, (int)a[0], (int)a[1], a[2]));
	}
}

long sys_pipe2(struct gthread *t, const uint64_t *a)
{
	(void)t;
	return ret(syscall(SYS_pipe2, a[0], oflags_to_host(a[1])));
}

/* aarch64's struct epoll_event is naturally aligned (16 bytes); x86-64's
 * is packed (12). */
struct a64_epoll_event {
	uint32_t events;
	uint32_t pad;
	uint64_t data;
};

long sys_epoll_ctl(struct gthread *t, const uint64_t *a)
{
	struct a64_epoll_event g;
	struct epoll_event h, *hp = NULL;

	(void)t;
	if (a[3]) {
		if (copy_from_guest(&g, a[3], sizeof(g)))
			return -EFAULT;
		h.events = g.events;
		h.data.u64 = g.data;
		hp = &h;
	}
	return ret(syscall(SYS_epoll_ctl, (int)a[0], (int)a[1], (int)a[2], hp));
}

static long epoll_wait_common(struct gthread *t, const uint64_t *a,
			      int host_nr)
{
	int max = (int)a[2];
	struct epoll_event *h;
	long n;

	if (max <= 0 || max > 1 << 20)
		return -EINVAL;
	if ((n = signal_push_mask(t, a[4], a[5])))
		return n;
	h = calloc((size_t)max, sizeof(*h));
	if (!h)
		return -ENOMEM;
	uint64_t ha[6] = { a[0], (uint64_t)h, a[2], a[3], a[4], a[5] };
	n = safe_syscall(t, host_nr, ha);
	for (long i = 0; i < n; i++) {
		struct a64_epoll_event g = { h[i].events, 0, h[i].data.u64 };
		if (copy_to_guest(a[1] + (uint64_t)i * sizeof(g), &g, sizeof(g))) {
			n = -EFAULT;
			break;
		}
	}
	free(h);
	return n;
}

long sys_epoll_pwait(struct gthread *t, const uint64_t *a)
{
	return epoll_wait_common(t, a, SYS_epoll_pwait);
}

long sys_epoll_pwait2(struct gthread *t, const uint64_t *a)
{
	return epoll_wait_common(t, a, 441 /* same number on x86-64 */);
}

/* ppoll(fds, nfds, timeout, sigmask, sigsetsize): same layouts; the mask
 * also holds for the handlers of the signals that end the wait. */
long sys_ppoll(struct gthread *t, const uint64_t *a)
{
	long r = signal_push_mask(t, a[3], a[4]);

	return r ? r : safe_syscall(t, SYS_ppoll, a);
}

/* pselect6(n, in, out, ex, timeout, {sigmask, size}). */
long sys_pselect6(struct gthread *t, const uint64_t *a)
{
	uint64_t ms[2] = { 0, 0 };
	long r;

	if (a[5] && copy_from_guest(ms, a[5], sizeof(ms)))
		return -EFAULT;
	if ((r = signal_push_mask(t, ms[0], ms[1])))
		return r;
	return safe_syscall(t, SYS_pselect6, a);
}

long sys_statx(struct gthread *t, const uint64_t *a)
{
	char raw[PATH_MAX], buf[PATH_MAX], tree[PATH_MAX];
	const char *p, *node = NULL;
	struct statx stx;
	long r;
	int dirfd = (int)a[0], flags = (int)a[2];

	(void)t;
	if ((r = get_path(a[1], raw)))
		return r;
	/* A node by descriptor: its tree file, as fstat shows it. */
	if (!raw[0] && (flags & AT_EMPTY_PATH) && (node = devview_node_path(dirfd))) {
		p = devview_path(node, tree);
		dirfd = AT_FDCWD;
		flags &= ~AT_EMPTY_PATH;
	} else {
		p = path_redirect(raw, buf);
		node = raw;
	}
	if (syscall(SYS_statx, dirfd, p, flags, (unsigned)a[3], &stx))
		return -errno;
	struct stat st = { .st_mode = stx.stx_mode, .st_rdev = makedev(
		stx.stx_rdev_major, stx.stx_rdev_minor) };
	devview_stat_as_node(node, &st);
	if (st.st_mode != stx.stx_mode) {
		stx.stx_mode = (uint16_t)st.st_mode;
		stx.stx_size = 0;
		stx.stx_blocks = 0;
		stx.stx_rdev_major = major(st.st_rdev);
		stx.stx_rdev_minor = minor(st.st_rdev);
	}
	/* struct statx is the same on both architectures. */
	return copy_to_guest(a[4], &stx, sizeof(stx)) ? -EFAULT : 0;
}

long sys_uname(struct gthread *t, const uint64_t *a)
{
	struct utsname u;

	(void)t;
	if (uname(&u))
		return -errno;
	snprintf(u.machine, sizeof(u.machine), "aarch64");
	return copy_to_guest(a[0], &u, sizeof(u)) ? -EFAULT : 0;
}

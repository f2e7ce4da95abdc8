// SPDX-License-Identifier: MIT
/*
 * Sysroot redirection, as `qemu-aarch64 -L` does it: an absolute guest
 * path that exists under the sysroot means the sysroot's file; any other
 * path (relative ones, and absolute ones missing from the sysroot, such as
 * /tmp/x or /proc/self/...) is the host's. Every system call that takes a
 * path goes through here (see path_args in the syscall table).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aarch64-user/abi.h"

static char sysroot[PATH_MAX];
static size_t sysroot_len;

void path_set_sysroot(const char *root)
{
	sysroot_len = 0;
	sysroot[0] = 0;
	if (!root || !*root)
		return;
	/* A canonical prefix: "/x/" and "/x/." must not double slashes, and
	 * a relative -L must keep working after the guest calls chdir(). */
	if (!realpath(root, sysroot))
		snprintf(sysroot, sizeof(sysroot), "%s", root);
	sysroot_len = strlen(sysroot);
	while (sysroot_len > 1 && sysroot[sysroot_len - 1] == '/')
		sysroot[--sysroot_len] = 0;
	if (!strcmp(sysroot, "/"))
		sysroot_len = 0, sysroot[0] = 0;
}

const char *path_sysroot(void)
{
	return sysroot_len ? sysroot : NULL;
}

/* /proc, /dev and /sys are the running system's even when an unpacked
 * sysroot happens to carry such directories. */
static bool never_redirected(const char *p)
{
	static const char *const live[] = { "/proc", "/dev", "/sys" };

	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		size_t n = strlen(live[i]);
		if (!strncmp(p, live[i], n) && (p[n] == 0 || p[n] == '/'))
			return true;
	}
	return false;
}

static bool join(char *buf, const char *p)
{
	return snprintf(buf, PATH_MAX, "%s%s", sysroot, p) < PATH_MAX;
}

const char *path_proc_self_rest(const char *p)
{
	char own[32];

	if (!p || strncmp(p, "/proc/", 6))
		return NULL;
	snprintf(own, sizeof(own), "/proc/%d/", getpid());
	if (!strncmp(p, "/proc/self/", 11))
		return p + 11;
	if (!strncmp(p, own, strlen(own)))
		return p + strlen(own);
	return NULL;
}

enum proc_self path_proc_self(const char *p)
{
	const char *rest;

	if (p && !strcmp(p, "/proc/cpuinfo"))
		return PS_CPUINFO;
	if (!(rest = path_proc_self_rest(p)))
		return PS_NONE;
	if (!strcmp(rest, "exe"))
		return PS_EXE;
	if (!strcmp(rest, "auxv"))
		return PS_AUXV;
	if (!strcmp(rest, "cmdline"))
		return PS_CMDLINE;
	return PS_NONE;
}

const char *path_redirect(const char *p, char *buf)
{
	if (abi_opts.exe_path && path_proc_self(p) == PS_EXE)
		return strcpy(buf, abi_opts.exe_path);
	/* The board's device view, never the host's nor the sysroot's. */
	if (devview_path(p, buf) == buf)
		return buf;
	if (!sysroot_len || !p || p[0] != '/' || never_redirected(p))
		return p;
	/* "/" itself is the host's root: listing it must not show the
	 * sysroot instead. */
	if (p[strspn(p, "/")] == 0)
		return p;
	if (!join(buf, p) || faccessat(AT_FDCWD, buf, F_OK, AT_SYMLINK_NOFOLLOW))
		return p;
	return buf;
}

const char *path_resolve_exec(const char *p, char *buf)
{
	char cur[PATH_MAX], link[PATH_MAX];
	const char *r;

	snprintf(cur, sizeof(cur), "%s", p);
	/* Bounded like the kernel's symlink limit. */
	for (int hops = 0; hops < 40; hops++) {
		r = path_redirect(cur, buf);
		if (r != buf)
			return hops ? strcpy(buf, cur) : p;
		ssize_t n = readlink(buf, link, sizeof(link) - 1);
		if (n < 0)
			return buf; /* not a symlink: the sysroot file */
		link[n] = 0;
		if (link[0] == '/') {
			/* An absolute target means the sysroot's file, not the
			 * host's: Debian's /lib/ld-linux-aarch64.so.1 is one. */
			snprintf(cur, sizeof(cur), "%s", link);
		} else {
			char *slash = strrchr(cur, '/');
			size_t dir = slash ? (size_t)(slash - cur) + 1 : 0;
			if (dir + (size_t)n >= sizeof(cur))
				return buf;
			memcpy(cur + dir, link, (size_t)n + 1);
		}
	}
	return buf;
}

// SPDX-License-Identifier: MIT
/*
 * An initramfs from a host directory: its tree packed as a newc cpio
 * archive in memory (directories, regular files, symbolic links), owned
 * by root, with /dev/console added as the character device the kernel
 * opens for init's standard streams.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aarch64-system/boot.h"

struct buf {
	uint8_t *p;
	size_t len, cap;
	unsigned ino;
};

static int put(struct buf *b, const void *data, size_t n)
{
	if (b->len + n + 3 > b->cap) {
		size_t cap = (b->cap + n + 3) * 2;
		uint8_t *q = realloc(b->p, cap);
		if (!q)
			return -ENOMEM;
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	while (b->len % 4) /* header+name and data are padded to 4 bytes */
		b->p[b->len++] = 0;
	return 0;
}

static int entry(struct buf *b, const char *name, unsigned mode, unsigned rmajor,
		    unsigned rminor, const void *data, size_t len)
{
	char hdr[111 + 4096];
	size_t nlen = strlen(name) + 1;
	if (nlen > 4096)
		return -ENAMETOOLONG;
	int n = snprintf(hdr, sizeof(hdr),
			 "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
			 ++b->ino, mode, 0u, 0u, 1u, 0u, len, 0u, 0u, rmajor, rminor, nlen, 0u);
	memcpy(hdr + n, name, nlen);
	int r = put(b, hdr, (size_t)n + nlen);
	return r ? r : len ? put(b, data, len) : 0;
}

/* Adds @path (relative name @rel) and, for a directory, what it holds. */
static int add_tree(struct buf *b, const char *path, const char *rel)
{
	struct stat st;
	if (lstat(path, &st))
		return -errno;
	unsigned mode = (unsigned)st.st_mode;
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(path, target, sizeof(target));
		if (n < 0)
			return -errno;
		return *rel ? entry(b, rel, mode, 0, 0, target, (size_t)n) : -EINVAL;
	}
	if (S_ISREG(st.st_mode)) {
		FILE *f = fopen(path, "rb");
		uint8_t *data = malloc((size_t)st.st_size + 1);
		size_t n = f && data ? fread(data, 1, (size_t)st.st_size, f) : 0;
		int r = f && data && n == (size_t)st.st_size ? entry(b, rel, mode, 0, 0, data, n)
							      : -EIO;
		free(data);
		if (f)
			fclose(f);
		return r;
	}
	if (!S_ISDIR(st.st_mode))
		return 0; /* sockets, fifos, devices: not carried over */
	if (*rel) {
		int r = entry(b, rel, mode, 0, 0, NULL, 0);
		if (r)
			return r;
	}
	DIR *d = opendir(path);
	if (!d)
		return -errno;
	int r = 0;
	for (struct dirent *e; !r && (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char sub[4096], subrel[4096];
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		snprintf(subrel, sizeof(subrel), "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		r = add_tree(b, sub, subrel);
	}
	closedir(d);
	return r;
}

int a64s_cpio_dir(const char *dir, uint8_t **out, size_t *len)
{
	struct buf b = { 0 };
	struct stat st;
	char dev[4096];
	snprintf(dev, sizeof(dev), "%s/dev", dir);
	int r = add_tree(&b, dir, "");
	if (!r && stat(dev, &st))
		r = entry(&b, "dev", 040755, 0, 0, NULL, 0);
	if (!r)
		r = entry(&b, "dev/console", 020600, 5, 1, NULL, 0);
	if (!r)
		r = entry(&b, "TRAILER!!!", 0, 0, 0, NULL, 0);
	if (r) {
		free(b.p);
		return r;
	}
	*out = b.p;
	*len = b.len;
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * The arm64 Linux boot protocol: the Image (Debian's vmlinuz is the
 * Image gzip-compressed; zlib inflates it) is placed text_offset bytes
 * above a 2 MiB-aligned address in RAM, the initrd after it, the device
 * tree at the start of RAM; vCPU 0 enters the Image at EL1 with the MMU
 * off, interrupts masked, x0 = the device tree's address, x1..x3 = 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "aarch64-system/boot.h"

#define MIB2 0x200000ull
#define IMAGE_MAGIC 0x644d5241u /* "ARM\x64" at offset 56 */
#define DTB_MAX 0x10000

static int read_file(const char *path, uint8_t **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -errno;
	size_t cap = 1 << 20, n = 0;
	uint8_t *p = malloc(cap);
	while (p) {
		n += fread(p + n, 1, cap - n, f);
		if (n < cap)
			break;
		uint8_t *q = realloc(p, cap *= 2);
		if (!q) {
			free(p);
			p = NULL;
		} else {
			p = q;
		}
	}
	int err = ferror(f) ? -EIO : 0;
	fclose(f);
	if (!p)
		return -ENOMEM;
	if (err) {
		free(p);
		return err;
	}
	*data = p;
	*len = n;
	return 0;
}

/* Inflates a gzip stream into a new buffer. */
static int gunzip(const uint8_t *in, size_t len, uint8_t **out, size_t *outlen)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -ENOMEM;
	size_t cap = len * 4, n = 0;
	uint8_t *p = malloc(cap);
	int r = Z_OK;
	z.next_in = (uint8_t *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	while (p && r == Z_OK) {
		if (n == cap) {
			uint8_t *q = realloc(p, cap *= 2);
			if (!q)
				break;
			p = q;
		}
		z.next_out = p + n;
		z.avail_out = (uInt)(cap - n);
		r = inflate(&z, Z_NO_FLUSH);
		n = cap - z.avail_out;
	}
	inflateEnd(&z);
	if (r != Z_STREAM_END) {
		free(p);
		return -EINVAL;
	}
	*out = p;
	*outlen = n;
	return 0;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

int a64s_load_linux(struct a64s_machine *m, const char *path, const char *initrd,
		    struct a64s_boot *b, char *err, size_t errlen)
{
	uint8_t *img = NULL, *raw = NULL;
	size_t len = 0, rawlen = 0;
	int r = read_file(path, &raw, &rawlen);
	if (r) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	if (rawlen > 2 && raw[0] == 0x1f && raw[1] == 0x8b) {
		r = gunzip(raw, rawlen, &img, &len);
		free(raw);
		if (r) {
			snprintf(err, errlen, "%s: not a valid gzip stream", path);
			return r;
		}
	} else {
		img = raw;
		len = rawlen;
	}
	uint32_t magic;
	if (len < 64 || (memcpy(&magic, img + 56, 4), magic != IMAGE_MAGIC)) {
		snprintf(err, errlen, "%s: not an arm64 Linux Image (no ARM\\x64 magic)", path);
		free(img);
		return -ENOEXEC;
	}
	uint64_t text_offset = le64(img + 8), image_size = le64(img + 16), flags = le64(img + 24);
	if (flags & 1) {
		snprintf(err, errlen, "%s: a big-endian kernel", path);
		free(img);
		return -ENOEXEC;
	}
	if (!image_size)
		image_size = len;
	uint64_t kbase = m->ram_base + MIB2 + text_offset;
	uint8_t *dst = a64s_ram_ptr(m, kbase, image_size > len ? image_size : len);
	if (!dst) {
		snprintf(err, errlen, "%s: %llu bytes do not fit in RAM", path,
			 (unsigned long long)image_size);
		free(img);
		return -ENOMEM;
	}
	memcpy(dst, img, len);
	free(img);

	uint64_t next = (kbase + image_size + MIB2 - 1) & ~(MIB2 - 1);
	if (initrd) {
		uint8_t *rd;
		size_t rdlen;
		struct stat st;
		if (!stat(initrd, &st) && S_ISDIR(st.st_mode))
			r = a64s_cpio_dir(initrd, &rd, &rdlen);
		else
			r = read_file(initrd, &rd, &rdlen);
		uint8_t *to = r ? NULL : a64s_ram_ptr(m, next, rdlen);
		if (!to) {
			snprintf(err, errlen, "%s: %s", initrd, r ? strerror(-r) : "does not fit in RAM");
			if (!r)
				free(rd);
			return r ? r : -ENOMEM;
		}
		memcpy(to, rd, rdlen);
		free(rd);
		b->initrd_start = next;
		b->initrd_end = next + rdlen;
	}
	int n = a64s_fdt_build(m, b, a64s_ram_ptr(m, m->ram_base, DTB_MAX), DTB_MAX);
	if (n < 0) {
		snprintf(err, errlen, "device tree: %s", strerror(-n));
		return n;
	}
	struct a64s_cpu *s = m->cpu[0];
	s->c.x[0] = m->ram_base;
	s->c.pc = kbase;
	return 0;
}

// SPDX-License-Identifier: MIT
/* Pictures and their comparisons (image.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/image.h"
#include "lib/proc.h"

/* Reads header line @key's number from PAM header text @hdr, or -1. */
static long pam_field(const char *hdr, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = hdr; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, k) && p[k] == ' ')
			return strtol(p + k + 1, NULL, 10);
	}
	return -1;
}

/* One image at @p (@left bytes): its size in the stream, or 0. */
static size_t pam_one(const char *p, size_t left, struct image *img)
{
	static const char end[] = "\nENDHDR\n";
	const char *e = memmem(p, left, end, strlen(end));
	char hdr[256];
	long w, h;
	size_t n, hlen;

	if (left < 3 || memcmp(p, "P7\n", 3) || !e || (size_t)(e - p) >= sizeof(hdr))
		return 0;
	hlen = (size_t)(e - p) + strlen(end);
	memcpy(hdr, p, e - p + 1);
	hdr[e - p + 1] = 0;
	w = pam_field(hdr, "WIDTH");
	h = pam_field(hdr, "HEIGHT");
	if (w < 1 || h < 1 || w > 16384 || h > 16384 || pam_field(hdr, "DEPTH") != 4 ||
	    pam_field(hdr, "MAXVAL") != 255)
		return 0;
	n = (size_t)w * h * 4;
	if (left - hlen < n || !(img->px = malloc(n)))
		return 0;
	img->w = (int)w;
	img->h = (int)h;
	/* PAM's rows are top-down, GL's bottom-up. */
	for (long y = 0; y < h; y++)
		memcpy(img->px + (size_t)(h - 1 - y) * w * 4, p + hlen + (size_t)y * w * 4,
		       (size_t)w * 4);
	return hlen + n;
}

int image_parse_pam(const void *data, size_t len, struct image *imgs, int max)
{
	const char *p = data;
	size_t off = 0, k;
	int n = 0;

	while (off < len && n < max) {
		k = pam_one(p + off, len - off, &imgs[n]);
		if (!k) {
			while (n > 0)
				image_free(&imgs[--n]);
			return -1;
		}
		off += k;
		n++;
	}
	return n;
}

int image_read_pam(const char *path, struct image *imgs, int max)
{
	size_t len;
	char *data = read_file(path, &len);
	int n;

	if (!data)
		return -1;
	n = image_parse_pam(data, len, imgs, max);
	free(data);
	return n;
}

void image_free(struct image *img)
{
	free(img->px);
	img->px = NULL;
}

static bool near(const unsigned char *a, const unsigned char *b, int tol)
{
	for (int c = 0; c < 4; c++)
		if (abs(a[c] - b[c]) > tol)
			return false;
	return true;
}

/* Counts a wrong pixel, keeping the first. */
static void diff_bad(struct image_diff *d, int x, int y, const unsigned char *got,
		     const unsigned char *want)
{
	if (!d->bad++) {
		d->x = x;
		d->y = y;
		memcpy(d->got, got, 4);
		memcpy(d->want, want, 4);
	}
}

/* Whether @got's (@x, @y) may be excused as an edge pixel of @want. */
static bool edge_pixel(const struct image *got, const struct image *want, int x, int y, int tol)
{
	const unsigned char *g = image_at(got, x, y), *w = image_at(want, x, y);
	bool edge = false, matches = false;

	for (int j = y - 1; j <= y + 1; j++)
		for (int i = x - 1; i <= x + 1; i++) {
			const unsigned char *n;

			if (i < 0 || j < 0 || i >= want->w || j >= want->h)
				continue;
			n = image_at(want, i, j);
			edge |= !near(n, w, tol);
			matches |= near(n, g, tol);
		}
	return edge && matches;
}

bool image_compare(const struct image *got, const struct image *want, int tol, bool edges,
		   struct image_diff *d)
{
	static const unsigned char none[4];

	memset(d, 0, sizeof(*d));
	if (got->w != want->w || got->h != want->h) {
		diff_bad(d, -1, -1, none, none);
		return false;
	}
	for (int y = 0; y < want->h; y++)
		for (int x = 0; x < want->w; x++) {
			const unsigned char *g = image_at(got, x, y), *w = image_at(want, x, y);

			if (near(g, w, tol))
				continue;
			if (edges && edge_pixel(got, want, x, y, tol))
				d->excused++;
			else
				diff_bad(d, x, y, g, w);
		}
	return !d->bad;
}

bool image_expect(const struct image *img, image_expect_fn *expect, const void *ctx,
		  struct image_diff *d)
{
	unsigned char want[4];
	int tol;

	memset(d, 0, sizeof(*d));
	for (int y = 0; y < img->h; y++)
		for (int x = 0; x < img->w; x++) {
			tol = expect(x, y, want, ctx);
			if (tol < 0)
				d->excused++;
			else if (!near(image_at(img, x, y), want, tol))
				diff_bad(d, x, y, image_at(img, x, y), want);
		}
	return !d->bad;
}

const char *image_diff_str(const struct image_diff *d, char *buf, size_t size)
{
	if (!d->bad)
		snprintf(buf, size, "no wrong pixel (%d excused)", d->excused);
	else if (d->x < 0)
		snprintf(buf, size, "the pictures differ in size");
	else
		snprintf(buf, size,
			 "%d wrong pixels (%d excused); first at (%d, %d): %u %u %u %u, want %u %u %u %u",
			 d->bad, d->excused, d->x, d->y, d->got[0], d->got[1], d->got[2],
			 d->got[3], d->want[0], d->want[1], d->want[2], d->want[3]);
	return buf;
}

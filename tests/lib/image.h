/* SPDX-License-Identifier: MIT */
/*
 * Pictures the GLES render programs write (tests/gpu-progs/gl.h: a PAM
 * stream of RGBA8 images) and the comparisons tests/e2e/gles_render.c
 * makes: one picture against another (the Mali's against llvmpipe's),
 * or against what a scene is known to contain.
 */
#ifndef VGPU_TESTS_IMAGE_H
#define VGPU_TESTS_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

/* RGBA8 pixels, row 0 at the bottom as in GL's window coordinates. */
struct image {
	int w, h;
	unsigned char *px;
};

/* The pixel at (@x, @y) in GL's coordinates. */
static inline unsigned char *image_at(const struct image *img, int x, int y)
{
	return img->px + ((size_t)y * img->w + x) * 4;
}

/*
 * Parses up to @max PAM images (P7, DEPTH 4, MAXVAL 255, top row first)
 * from @len bytes at @data into @imgs; the number parsed, or -1 when the
 * stream is malformed (nothing is then left allocated).
 */
int image_parse_pam(const void *data, size_t len, struct image *imgs, int max);
/* The same from the file @path. */
int image_read_pam(const char *path, struct image *imgs, int max);
void image_free(struct image *img);

/* The outcome of a comparison: pixels wrong and pixels excused as edge
 * pixels, and the first wrong one. */
struct image_diff {
	int bad, excused;
	int x, y;
	unsigned char got[4], want[4];
};

/*
 * @got against @want, pixel by pixel: a pixel agrees when each channel is
 * within @tol of @want's. With @edges, a pixel that does not is excused
 * when it lies on an edge of @want (a pixel of its 3 x 3 neighbourhood
 * differs from it by more than @tol: rasterisation may place an edge a
 * pixel differently) and is within @tol of one of that neighbourhood's
 * pixels (it took a colour of one side). Pictures of different sizes
 * disagree at (-1, -1). True when no pixel is wrong.
 */
bool image_compare(const struct image *got, const struct image *want, int tol, bool edges,
		   struct image_diff *d);

/*
 * @img against what a scene contains: @expect sets the colour pixel
 * (@x, @y) must have and returns the tolerance per channel, or -1 where
 * the scene does not say (an edge). True when no pixel is wrong.
 */
typedef int image_expect_fn(int x, int y, unsigned char rgba[4], const void *ctx);
bool image_expect(const struct image *img, image_expect_fn *expect, const void *ctx,
		  struct image_diff *d);

/* One line saying what @d found, in @buf. */
const char *image_diff_str(const struct image_diff *d, char *buf, size_t size);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The Sobel programs' image and C reference (gles_sobel.c, cl_sobel.c):
 * a 96x64 8-bit image, one uint per pixel, edges clamped; per pixel the
 * L1 gradient magnitude |Gx| + |Gy| and the gradient's octant, both
 * integers.
 */
#ifndef VGPU_PRELOAD_TESTS_SOBEL_REF_H
#define VGPU_PRELOAD_TESTS_SOBEL_REF_H

#include <stdint.h>

#define W 96
#define H 64

/* Rings and a diagonal ramp plus noise: edges in every direction. */
static inline void sobel_image(uint32_t *px)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int dx = x - W / 2, dy = y - H / 2;
			uint32_t noise = (uint32_t)(x * 73 + y * 151) * 2654435761u >> 28;

			px[y * W + x] = ((dx * dx + dy * dy) / 40 % 2 ? 200 : 30) +
					(uint32_t)(x + y) / 8 + noise;
		}
}

static inline int sobel_at(const uint32_t *px, int x, int y)
{
	x = x < 0 ? 0 : x >= W ? W - 1 : x;
	y = y < 0 ? 0 : y >= H ? H - 1 : y;
	return (int)px[y * W + x];
}

/* The filter of every pixel of @px into @out. */
static inline void sobel_ref(const uint32_t *px, uint32_t *out)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int gx = sobel_at(px, x + 1, y - 1) + 2 * sobel_at(px, x + 1, y) +
				 sobel_at(px, x + 1, y + 1) - sobel_at(px, x - 1, y - 1) -
				 2 * sobel_at(px, x - 1, y) - sobel_at(px, x - 1, y + 1);
			int gy = sobel_at(px, x - 1, y + 1) + 2 * sobel_at(px, x, y + 1) +
				 sobel_at(px, x + 1, y + 1) - sobel_at(px, x - 1, y - 1) -
				 2 * sobel_at(px, x, y - 1) - sobel_at(px, x + 1, y - 1);
			int ax = gx < 0 ? -gx : gx, ay = gy < 0 ? -gy : gy;
			uint32_t oct = (gx < 0 ? 4u : 0) | (gy < 0 ? 2u : 0) | (ax < ay ? 1u : 0);

			out[y * W + x] = (uint32_t)(ax + ay) | oct << 16;
		}
}

#endif

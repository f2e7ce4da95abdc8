// SPDX-License-Identifier: MIT
/*
 * OpenCL Sobel edge filter through ocl-icd + rusticl (see cl.h), as
 * gles_sobel.c: a 96x64 8-bit image (one uint per pixel), width and
 * height scalar arguments, 8x8 work-groups, edges clamped. The result is
 * the L1 gradient magnitude |Gx| + |Gy| and the gradient's octant, both
 * integers, so the C reference is exact.
 */
#include "cl.h"

#define W 96
#define H 64

static const char *const src =
	"int at(__global const uint *px, int w, int h, int x, int y) {\n"
	"  return (int)px[clamp(y, 0, h - 1) * w + clamp(x, 0, w - 1)];\n"
	"}\n"
	"__kernel void sobel(__global const uint *px, __global uint *mag, int w, int h) {\n"
	"  int x = get_global_id(0), y = get_global_id(1);\n"
	"  int gx = at(px, w, h, x + 1, y - 1) + 2 * at(px, w, h, x + 1, y)\n"
	"         + at(px, w, h, x + 1, y + 1) - at(px, w, h, x - 1, y - 1)\n"
	"         - 2 * at(px, w, h, x - 1, y) - at(px, w, h, x - 1, y + 1);\n"
	"  int gy = at(px, w, h, x - 1, y + 1) + 2 * at(px, w, h, x, y + 1)\n"
	"         + at(px, w, h, x + 1, y + 1) - at(px, w, h, x - 1, y - 1)\n"
	"         - 2 * at(px, w, h, x, y - 1) - at(px, w, h, x + 1, y - 1);\n"
	"  uint oct = (gx < 0 ? 4u : 0u) | (gy < 0 ? 2u : 0u) | (abs(gx) < abs(gy) ? 1u : 0u);\n"
	"  mag[y * w + x] = (uint)(abs(gx) + abs(gy)) | oct << 16;\n"
	"}\n";

static int at(const uint32_t *px, int x, int y)
{
	x = x < 0 ? 0 : x >= W ? W - 1 : x;
	y = y < 0 ? 0 : y >= H ? H - 1 : y;
	return (int)px[y * W + x];
}

static uint32_t sobel(const uint32_t *px, int x, int y)
{
	int gx = at(px, x + 1, y - 1) + 2 * at(px, x + 1, y) + at(px, x + 1, y + 1) -
		 at(px, x - 1, y - 1) - 2 * at(px, x - 1, y) - at(px, x - 1, y + 1);
	int gy = at(px, x - 1, y + 1) + 2 * at(px, x, y + 1) + at(px, x + 1, y + 1) -
		 at(px, x - 1, y - 1) - 2 * at(px, x, y - 1) - at(px, x + 1, y - 1);
	int ax = gx < 0 ? -gx : gx, ay = gy < 0 ? -gy : gy;
	uint32_t oct = (gx < 0 ? 4u : 0) | (gy < 0 ? 2u : 0) | (ax < ay ? 1u : 0);

	return (uint32_t)(ax + ay) | oct << 16;
}

int main(void)
{
	static uint32_t px[W * H], mag[W * H], want[W * H];
	size_t global[2] = { W, H }, local[2] = { 8, 8 };
	cl_int w = W, h = H;
	struct cl_env e;

	cl_init(&e);
	cl_kernel k = cl_build(&e, src, "sobel");
	/* Rings and a diagonal ramp plus noise: edges in every direction. */
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int dx = x - W / 2, dy = y - H / 2;
			uint32_t noise = (uint32_t)(x * 73 + y * 151) * 2654435761u >> 28;

			px[y * W + x] = ((dx * dx + dy * dy) / 40 % 2 ? 200 : 30) +
					(uint32_t)(x + y) / 8 + noise;
		}
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			want[y * W + x] = sobel(px, x, y);
	cl_mem in = cl_buffer(&e, CL_MEM_READ_ONLY, sizeof(px), px);
	cl_mem out = cl_buffer(&e, CL_MEM_WRITE_ONLY, sizeof(mag), NULL);
	CL_ARG(k, 0, in);
	CL_ARG(k, 1, out);
	CL_ARG(k, 2, w);
	CL_ARG(k, 3, h);
	cl_run(&e, k, 2, global, local, out, sizeof(mag), mag);
	return cl_verdict("sobel", mag, want, W * H);
}

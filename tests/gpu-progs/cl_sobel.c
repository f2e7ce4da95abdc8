// SPDX-License-Identifier: MIT
/*
 * OpenCL Sobel edge filter through ocl-icd + rusticl (see cl.h), as
 * gles_sobel.c: a 96x64 8-bit image (one uint per pixel), width and
 * height scalar arguments, 8x8 work-groups, edges clamped. The result is
 * the L1 gradient magnitude |Gx| + |Gy| and the gradient's octant, both
 * integers, so the C reference is exact.
 */
#include "cl.h"
#include "sobel_ref.h"

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

int main(void)
{
	static uint32_t px[W * H], mag[W * H], want[W * H];
	size_t global[2] = { W, H }, local[2] = { 8, 8 };
	cl_int w = W, h = H;
	struct cl_env e;

	cl_init(&e);
	cl_kernel k = cl_build(&e, src, "sobel");
	sobel_image(px);
	sobel_ref(px, want);
	cl_mem in = cl_buffer(&e, CL_MEM_READ_ONLY, sizeof(px), px);
	cl_mem out = cl_buffer(&e, CL_MEM_WRITE_ONLY, sizeof(mag), NULL);
	CL_ARGS(k, CL_V(in), CL_V(out), CL_V(w), CL_V(h));
	cl_run(&e, k, 2, global, local, out, sizeof(mag), mag);
	return cl_verdict("sobel", mag, want, W * H);
}

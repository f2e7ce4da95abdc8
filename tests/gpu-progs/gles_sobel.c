// SPDX-License-Identifier: MIT
/*
 * GLES 3.1 compute: a Sobel edge filter over a 96x64 8-bit image held in
 * shader storage buffers (one uint per pixel), 8x8 workgroups, edges
 * clamped (see gles.h). The result is the L1 gradient magnitude
 * |Gx| + |Gy| and the gradient's octant, both integers, so the C
 * reference is exact.
 */
#include "gles.h"
#include "sobel_ref.h"

static const char *const src =
	"#version 310 es\n"
	"layout(local_size_x = 8, local_size_y = 8) in;\n"
	"layout(std430, binding = 0) readonly buffer Img { uint px[]; };\n"
	"layout(std430, binding = 1) writeonly buffer Out { uint mag[]; };\n"
	"int at(int x, int y) {\n"
	"  x = clamp(x, 0, 95); y = clamp(y, 0, 63);\n"
	"  return int(px[y * 96 + x]);\n"
	"}\n"
	"void main() {\n"
	"  int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);\n"
	"  int gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1)\n"
	"         - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);\n"
	"  int gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1)\n"
	"         - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);\n"
	"  uint oct = (gx < 0 ? 4u : 0u) | (gy < 0 ? 2u : 0u) | (abs(gx) < abs(gy) ? 1u : 0u);\n"
	"  mag[y * 96 + x] = uint(abs(gx) + abs(gy)) | oct << 16;\n"
	"}\n";

int main(void)
{
	static uint32_t px[W * H], mag[W * H], want[W * H];
	GLuint out;

	gles_init();
	gles_program(src);
	sobel_image(px);
	sobel_ref(px, want);
	gles_ssbo(0, sizeof(px), px);
	out = gles_ssbo(1, sizeof(mag), NULL);
	gles_dispatch(W / 8, H / 8, 1);
	gles_read(out, sizeof(mag), mag);
	return gles_verdict("sobel", mag, want, W * H);
}

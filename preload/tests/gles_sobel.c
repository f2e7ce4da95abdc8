// SPDX-License-Identifier: MIT
/*
 * GLES 3.1 compute: a Sobel edge filter over a 96x64 8-bit image held in
 * shader storage buffers (one uint per pixel), 8x8 workgroups, edges
 * clamped (see gles.h). The result is the L1 gradient magnitude
 * |Gx| + |Gy| and the gradient's octant, both integers, so the C
 * reference is exact.
 */
#include "gles.h"

#define W 96
#define H 64

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

static int at(const uint32_t *px, int x, int y)
{
	x = x < 0 ? 0 : x >= W ? W - 1 : x;
	y = y < 0 ? 0 : y >= H ? H - 1 : y;
	return (int)px[y * W + x];
}

int main(void)
{
	static uint32_t px[W * H], mag[W * H], want[W * H];
	GLuint out;

	gles_init();
	gles_program(src);
	/* Rings and a diagonal ramp plus noise: edges in every direction. */
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int dx = x - W / 2, dy = y - H / 2;
			uint32_t noise = (uint32_t)(x * 73 + y * 151) * 2654435761u >> 28;

			px[y * W + x] = ((dx * dx + dy * dy) / 40 % 2 ? 200 : 30) +
					(uint32_t)(x + y) / 8 + noise;
		}
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int gx = at(px, x + 1, y - 1) + 2 * at(px, x + 1, y) +
				 at(px, x + 1, y + 1) - at(px, x - 1, y - 1) -
				 2 * at(px, x - 1, y) - at(px, x - 1, y + 1);
			int gy = at(px, x - 1, y + 1) + 2 * at(px, x, y + 1) +
				 at(px, x + 1, y + 1) - at(px, x - 1, y - 1) -
				 2 * at(px, x, y - 1) - at(px, x + 1, y - 1);
			int ax = gx < 0 ? -gx : gx, ay = gy < 0 ? -gy : gy;
			uint32_t oct = (gx < 0 ? 4u : 0) | (gy < 0 ? 2u : 0) | (ax < ay ? 1u : 0);

			want[y * W + x] = (uint32_t)(ax + ay) | oct << 16;
		}
	gles_ssbo(0, sizeof(px), px);
	out = gles_ssbo(1, sizeof(mag), NULL);
	gles_dispatch(W / 8, H / 8, 1);
	gles_read(out, sizeof(mag), mag);
	return gles_verdict("sobel", mag, want, W * H);
}

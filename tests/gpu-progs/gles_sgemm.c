// SPDX-License-Identifier: MIT
/*
 * GLES 3.1 compute: C = A x B for 64x64 single-precision matrices, with
 * 8x8 tiles staged in shared memory (see gles.h). Whether the compiler
 * fuses the multiply-adds is its choice, so the inputs are small integers
 * whose products and sums are exact in float either way: any difference
 * is a wrong result.
 */
#include "gles.h"

#define M 64
#define T 8

static const char *const src =
	"#version 310 es\n"
	"layout(local_size_x = 8, local_size_y = 8) in;\n"
	"layout(std430, binding = 0) readonly buffer A { float a[]; };\n"
	"layout(std430, binding = 1) readonly buffer B { float b[]; };\n"
	"layout(std430, binding = 2) writeonly buffer C { float c[]; };\n"
	"shared float ta[8][8];\n"
	"shared float tb[8][8];\n"
	"void main() {\n"
	"  uint r = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;\n"
	"  uint lr = gl_LocalInvocationID.y, lc = gl_LocalInvocationID.x;\n"
	"  float acc = 0.0;\n"
	"  for (uint t = 0u; t < 64u; t += 8u) {\n"
	"    ta[lr][lc] = a[r * 64u + t + lc];\n"
	"    tb[lr][lc] = b[(t + lr) * 64u + col];\n"
	"    barrier();\n"
	"    for (uint k = 0u; k < 8u; k++) acc += ta[lr][k] * tb[k][lc];\n"
	"    barrier();\n"
	"  }\n"
	"  c[r * 64u + col] = acc;\n"
	"}\n";

int main(void)
{
	static float a[M * M], b[M * M], c[M * M], want[M * M];
	GLuint out;

	gles_init();
	gles_program(src);
	for (int i = 0; i < M * M; i++) {
		a[i] = (float)((i * 7 + 3) % 17) - 8.0f;
		b[i] = (float)((i * 5 + 1) % 13) - 6.0f;
	}
	for (int r = 0; r < M; r++)
		for (int col = 0; col < M; col++) {
			float acc = 0.0f;

			for (int k = 0; k < M; k++)
				acc += a[r * M + k] * b[k * M + col];
			want[r * M + col] = acc;
		}
	gles_ssbo(0, sizeof(a), a);
	gles_ssbo(1, sizeof(b), b);
	out = gles_ssbo(2, sizeof(c), NULL);
	gles_dispatch(M / T, M / T, 1);
	gles_read(out, sizeof(c), c);
	return gles_verdict("sgemm", c, want, M * M);
}

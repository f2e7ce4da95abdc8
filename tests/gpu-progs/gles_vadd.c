// SPDX-License-Identifier: MIT
/* GLES 3.1 compute: c = a + b over 4096 floats (see gles.h). */
#include "gles.h"

#define N 4096

static const char *const src =
	"#version 310 es\n"
	"layout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) readonly buffer A { float a[]; };\n"
	"layout(std430, binding = 1) readonly buffer B { float b[]; };\n"
	"layout(std430, binding = 2) writeonly buffer C { float c[]; };\n"
	"void main() {\n"
	"  uint i = gl_GlobalInvocationID.x;\n"
	"  c[i] = a[i] + b[i];\n"
	"}\n";

int main(void)
{
	static float a[N], b[N], c[N], want[N];
	GLuint out;

	gles_init();
	gles_program(src);
	/* Values whose float sums are exact: any difference is the GPU's. */
	for (int i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(N - i) * 0.25f + 1.0f;
		want[i] = a[i] + b[i];
	}
	gles_ssbo(0, sizeof(a), a);
	gles_ssbo(1, sizeof(b), b);
	out = gles_ssbo(2, sizeof(c), NULL);
	gles_dispatch(N / 64, 1, 1);
	gles_read(out, sizeof(c), c);
	return gles_verdict("vector add", c, want, N);
}

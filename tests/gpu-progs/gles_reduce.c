// SPDX-License-Identifier: MIT
/*
 * GLES 3.1 compute: per-workgroup sums of 8192 integers by a tree
 * reduction in shared memory with barriers (see gles.h).
 */
#include "gles.h"

#define N 8192
#define GROUP 128

static const char *const src =
	"#version 310 es\n"
	"layout(local_size_x = 128) in;\n"
	"layout(std430, binding = 0) readonly buffer In { uint v[]; };\n"
	"layout(std430, binding = 1) writeonly buffer Out { uint sums[]; };\n"
	"shared uint part[128];\n"
	"void main() {\n"
	"  uint l = gl_LocalInvocationID.x;\n"
	"  part[l] = v[gl_GlobalInvocationID.x];\n"
	"  barrier();\n"
	"  for (uint s = 64u; s > 0u; s >>= 1) {\n"
	"    if (l < s) part[l] += part[l + s];\n"
	"    barrier();\n"
	"  }\n"
	"  if (l == 0u) sums[gl_WorkGroupID.x] = part[0];\n"
	"}\n";

int main(void)
{
	static uint32_t v[N], sums[N / GROUP], want[N / GROUP];
	GLuint out;

	gles_init();
	gles_program(src);
	for (uint32_t i = 0; i < N; i++) {
		v[i] = i * 2654435761u >> 12;
		want[i / GROUP] += v[i];
	}
	gles_ssbo(0, sizeof(v), v);
	out = gles_ssbo(1, sizeof(sums), NULL);
	gles_dispatch(N / GROUP, 1, 1);
	gles_read(out, sizeof(sums), sums);
	return gles_verdict("workgroup sums", sums, want, N / GROUP);
}

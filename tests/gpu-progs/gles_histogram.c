// SPDX-License-Identifier: MIT
/*
 * GLES 3.1 compute: a 64-bin histogram of 16384 values with atomicAdd on
 * shared counters, merged into the global ones with atomicAdd (see
 * gles.h): contended atomics in both memories.
 */
#include "gles.h"

#define N 16384
#define BINS 64

static const char *const src =
	"#version 310 es\n"
	"layout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) readonly buffer In { uint v[]; };\n"
	"layout(std430, binding = 1) buffer Hist { uint bins[64]; };\n"
	"shared uint local_bins[64];\n"
	"void main() {\n"
	"  uint l = gl_LocalInvocationID.x;\n"
	"  local_bins[l] = 0u;\n"
	"  barrier();\n"
	"  for (uint k = 0u; k < 4u; k++) {\n"
	"    uint i = gl_GlobalInvocationID.x * 4u + k;\n"
	"    atomicAdd(local_bins[v[i] % 64u], 1u);\n"
	"  }\n"
	"  barrier();\n"
	"  atomicAdd(bins[l], local_bins[l]);\n"
	"}\n";

int main(void)
{
	static uint32_t v[N], bins[BINS], want[BINS];
	GLuint out;

	gles_init();
	gles_program(src);
	/* Skewed, so some bins are hit far more often than others. */
	for (uint32_t i = 0; i < N; i++) {
		uint32_t x = i * 2246822519u;

		v[i] = (x >> 20) % 3 ? (x >> 7) % 7 : x >> 9;
		want[v[i] % BINS]++;
	}
	gles_ssbo(0, sizeof(v), v);
	out = gles_ssbo(1, sizeof(bins), NULL);
	gles_dispatch(N / 4 / 64, 1, 1);
	gles_read(out, sizeof(bins), bins);
	return gles_verdict("histogram", bins, want, BINS);
}

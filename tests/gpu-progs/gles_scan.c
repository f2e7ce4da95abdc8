// SPDX-License-Identifier: MIT
/*
 * GLES 3.1 compute: an exclusive prefix sum of 4096 integers, work
 * efficient (Blelloch: an up-sweep and a down-sweep over a 256-element
 * block in shared memory, 128 threads, a barrier between levels), in
 * three dispatches: scan each block and keep its total; scan the totals
 * with the same program; add each block's scanned total back (see
 * gles.h).
 *
 * The down-sweep reads both elements, meets a barrier, then writes: with
 * the textbook "x = t[a]; t[a] = t[b]; t[b] += x", Mesa 22.3.6's pre-RA
 * scheduler moves the load of t[a] after the store to it (a store there
 * depends only on the latest load, not on every load since the last
 * store), so real hardware would get it wrong too; BIFROST_MESA_DEBUG=
 * nopsched or llvmpipe give the right sums for that version.
 */
#include "gles.h"

#define N 4096
#define BLOCK 256

static const char *const scan_src =
	"#version 310 es\n"
	"layout(local_size_x = 128) in;\n"
	"layout(std430, binding = 0) buffer Data { uint d[]; };\n"
	"layout(std430, binding = 1) writeonly buffer Sums { uint sums[]; };\n"
	"shared uint t[256];\n"
	"void main() {\n"
	"  uint l = gl_LocalInvocationID.x, base = gl_WorkGroupID.x * 256u;\n"
	"  t[2u * l] = d[base + 2u * l];\n"
	"  t[2u * l + 1u] = d[base + 2u * l + 1u];\n"
	"  uint off = 1u;\n"
	"  for (uint n = 128u; n > 0u; n >>= 1) {\n"
	"    barrier();\n"
	"    if (l < n) {\n"
	"      uint a = off * (2u * l + 1u) - 1u, b = off * (2u * l + 2u) - 1u;\n"
	"      t[b] += t[a];\n"
	"    }\n"
	"    off <<= 1;\n"
	"  }\n"
	"  barrier();\n"
	"  if (l == 0u) { sums[gl_WorkGroupID.x] = t[255]; t[255] = 0u; }\n"
	"  for (uint n = 1u; n < 256u; n <<= 1) {\n"
	"    off >>= 1;\n"
	"    barrier();\n"
	"    uint a = off * (2u * l + 1u) - 1u, b = off * (2u * l + 2u) - 1u, x = 0u, y = 0u;\n"
	"    if (l < n) { x = t[a]; y = t[b]; }\n"
	"    barrier();\n"
	"    if (l < n) { t[a] = y; t[b] = x + y; }\n"
	"  }\n"
	"  barrier();\n"
	"  d[base + 2u * l] = t[2u * l];\n"
	"  d[base + 2u * l + 1u] = t[2u * l + 1u];\n"
	"}\n";

static const char *const add_src =
	"#version 310 es\n"
	"layout(local_size_x = 64) in;\n"
	"layout(std430, binding = 0) buffer Data { uint d[]; };\n"
	"layout(std430, binding = 1) readonly buffer Sums { uint sums[]; };\n"
	"void main() {\n"
	"  uint i = gl_GlobalInvocationID.x;\n"
	"  d[i] += sums[i / 256u];\n"
	"}\n";

int main(void)
{
	static uint32_t v[N], got[N], want[N], totals[BLOCK];
	GLuint scan, add, data, sums, spare;
	uint32_t acc = 0;

	gles_init();
	scan = gles_program(scan_src);
	add = gles_program(add_src);
	gles_use(scan);
	for (uint32_t i = 0; i < N; i++) {
		v[i] = (i * 2654435761u >> 20) % 1000;
		want[i] = acc;
		acc += v[i];
	}
	data = gles_ssbo(0, sizeof(v), v);
	/* The block totals, padded to one block so they scan the same way. */
	sums = gles_ssbo(1, sizeof(totals), NULL);
	spare = gles_ssbo(2, sizeof(uint32_t), NULL);
	gles_dispatch(N / BLOCK, 1, 1);

	GL(glBindBufferBase)(GL_SHADER_STORAGE_BUFFER, 0, sums);
	GL(glBindBufferBase)(GL_SHADER_STORAGE_BUFFER, 1, spare);
	gles_dispatch(1, 1, 1);

	gles_use(add);
	GL(glBindBufferBase)(GL_SHADER_STORAGE_BUFFER, 0, data);
	GL(glBindBufferBase)(GL_SHADER_STORAGE_BUFFER, 1, sums);
	gles_dispatch(N / 64, 1, 1);
	gles_read(data, sizeof(got), got);
	return gles_verdict("prefix sum", got, want, N);
}

// SPDX-License-Identifier: MIT
/*
 * The textbook Blelloch down-sweep, "x = t[a]; t[a] = t[b]; t[b] += x"
 * between barriers, through ocl-icd + rusticl (see cl.h): an exclusive
 * prefix sum of 16 blocks of 256 integers in __local memory. Correct
 * OpenCL C: within a work-item the load of t[a] comes before the store
 * to it. Mesa 25.0.7's Bifrost pre-RA scheduler moves that load after
 * the store (tests/e2e/opencl_args.c finds the order in Mesa's own
 * disassembly), so this program fails on its default scheduler and
 * passes with BIFROST_MESA_DEBUG=nopsched; cl_scan.c is the formulation
 * that does not depend on it.
 */
#include "cl.h"
#include "cl_blelloch.h"

#define N 4096
#define BLOCK 256

static const char *const src =
	"__kernel void downsweep(__global uint *d) {\n"
	"  __local uint t[256];\n"
	CL_BLELLOCH_UP
	"  if (l == 0) t[255] = 0;\n"
	"  for (uint n = 1; n < 256; n <<= 1) {\n"
	"    off >>= 1;\n"
	"    barrier(CLK_LOCAL_MEM_FENCE);\n"
	"    if (l < n) {\n"
	"      uint a = off * (2 * l + 1) - 1, b = off * (2 * l + 2) - 1;\n"
	"      uint x = t[a];\n"
	"      t[a] = t[b];\n"
	"      t[b] += x;\n"
	"    }\n"
	"  }\n"
	CL_BLELLOCH_STORE
	"}\n";

int main(void)
{
	static uint32_t v[N], got[N], want[N];
	size_t global = N / 2, local = BLOCK / 2;
	struct cl_env e;

	cl_init(&e);
	cl_kernel k = cl_build(&e, src, "downsweep");
	for (uint32_t i = 0, acc = 0; i < N; i++) {
		v[i] = (i * 2654435761u >> 20) % 1000;
		acc = i % BLOCK ? acc : 0;
		want[i] = acc;
		acc += v[i];
	}
	cl_mem data = cl_buffer(&e, CL_MEM_READ_WRITE, sizeof(v), v);
	CL_ARG(k, 0, data);
	cl_run(&e, k, 1, &global, &local, data, sizeof(got), got);
	return cl_verdict("block prefix sums", got, want, N);
}

// SPDX-License-Identifier: MIT
/*
 * OpenCL exclusive prefix sum through ocl-icd + rusticl (see cl.h), as
 * gles_scan.c: 4096 integers, work efficient (Blelloch: an up-sweep and
 * a down-sweep over a 256-element block in a __local argument, 128
 * work-items, a barrier between levels), in three enqueues of two
 * kernels of one program: scan each block and keep its total; scan the
 * totals with the same kernel; add each block's scanned total back.
 *
 * The down-sweep reads both elements into registers, meets a barrier,
 * then writes both. The textbook "x = t[a]; t[a] = t[b]; t[b] += x"
 * comes out wrong with Mesa 25.0.7's default scheduler, which moves the
 * load of t[a] after the store to it (cl_scan_order.c shows it); a
 * barrier is a scheduling boundary Mesa keeps, so here no load can pass
 * a store to the same word, with or without BIFROST_MESA_DEBUG=nopsched.
 */
#include "cl.h"
#include "cl_blelloch.h"

#define N 4096
#define BLOCK 256

static const char *const src =
	"__kernel void scan(__global uint *d, __global uint *sums, __local uint *t) {\n"
	CL_BLELLOCH_UP
	"  if (l == 0) { sums[get_group_id(0)] = t[255]; t[255] = 0; }\n"
	"  for (uint n = 1; n < 256; n <<= 1) {\n"
	"    off >>= 1;\n"
	"    barrier(CLK_LOCAL_MEM_FENCE);\n"
	"    uint a = off * (2 * l + 1) - 1, b = off * (2 * l + 2) - 1, x = 0, y = 0;\n"
	"    if (l < n) { x = t[a]; y = t[b]; }\n"
	"    barrier(CLK_LOCAL_MEM_FENCE);\n"
	"    if (l < n) { t[a] = y; t[b] = x + y; }\n"
	"  }\n"
	CL_BLELLOCH_STORE
	"}\n"
	"__kernel void add(__global uint *d, __global const uint *sums) {\n"
	"  uint i = get_global_id(0);\n"
	"  d[i] += sums[i / 256];\n"
	"}\n";

static void set_args(cl_kernel k, cl_mem a, cl_mem b)
{
	CL_ARG(k, 0, a);
	CL_ARG(k, 1, b);
}

int main(void)
{
	static uint32_t v[N], got[N], want[N];
	size_t blocks = N / BLOCK * BLOCK / 2, one = BLOCK / 2, all = N, local = BLOCK / 2;
	struct cl_env e;
	uint32_t acc = 0;

	cl_init(&e);
	cl_program prog = cl_program_of(&e, src);
	cl_kernel scan = cl_kernel_of(prog, "scan"), add = cl_kernel_of(prog, "add");
	for (uint32_t i = 0; i < N; i++) {
		v[i] = (i * 2654435761u >> 20) % 1000;
		want[i] = acc;
		acc += v[i];
	}
	cl_mem data = cl_buffer(&e, CL_MEM_READ_WRITE, sizeof(v), v);
	/* The block totals, padded to one block so they scan the same way. */
	cl_mem sums = cl_buffer(&e, CL_MEM_READ_WRITE, BLOCK * sizeof(uint32_t), NULL);
	cl_mem spare = cl_buffer(&e, CL_MEM_READ_WRITE, sizeof(uint32_t), NULL);
	CL_OK(CL(clSetKernelArg)(scan, 2, BLOCK * sizeof(uint32_t), NULL));
	set_args(scan, data, sums);
	cl_run(&e, scan, 1, &blocks, &local, NULL, 0, NULL);
	set_args(scan, sums, spare);
	cl_run(&e, scan, 1, &one, &local, NULL, 0, NULL);
	set_args(add, data, sums);
	cl_run(&e, add, 1, &all, &local, data, sizeof(got), got);
	return cl_verdict("prefix sum", got, want, N);
}

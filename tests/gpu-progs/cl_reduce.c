// SPDX-License-Identifier: MIT
/*
 * OpenCL reduction through ocl-icd + rusticl (see cl.h), as
 * gles_reduce.c: per-work-group sums of 8192 integers by a tree in a
 * __local argument with barriers, then one group sums those 64 partial
 * sums with the same kernel (the count a scalar argument; lanes past it
 * add zero). Integer sums wrap the same way in C: exact.
 */
#include "cl.h"

#define N 8192
#define GROUP 128

static const char *const src =
	"__kernel void reduce(__global const uint *v, __global uint *sums, uint n,\n"
	"                     __local uint *part) {\n"
	"  uint l = get_local_id(0), i = get_global_id(0);\n"
	"  part[l] = i < n ? v[i] : 0u;\n"
	"  barrier(CLK_LOCAL_MEM_FENCE);\n"
	"  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {\n"
	"    if (l < s) part[l] += part[l + s];\n"
	"    barrier(CLK_LOCAL_MEM_FENCE);\n"
	"  }\n"
	"  if (l == 0) sums[get_group_id(0)] = part[0];\n"
	"}\n";

int main(void)
{
	static uint32_t v[N], got[N / GROUP + 1], want[N / GROUP + 1];
	size_t global = N, local = GROUP, one = GROUP;
	cl_uint n = N, groups = N / GROUP;
	struct cl_env e;

	cl_init(&e);
	cl_kernel k = cl_build(&e, src, "reduce");
	for (uint32_t i = 0; i < N; i++) {
		v[i] = i * 2654435761u >> 12;
		want[i / GROUP] += v[i];
		want[N / GROUP] += v[i];
	}
	cl_mem in = cl_buffer(&e, CL_MEM_READ_ONLY, sizeof(v), v);
	cl_mem sums = cl_buffer(&e, CL_MEM_READ_WRITE, N / GROUP * sizeof(uint32_t), NULL);
	cl_mem total = cl_buffer(&e, CL_MEM_WRITE_ONLY, sizeof(uint32_t), NULL);
	CL_ARGS(k, CL_V(in), CL_V(sums), CL_V(n), CL_LOCAL(GROUP * sizeof(uint32_t)));
	cl_run(&e, k, 1, &global, &local, sums, N / GROUP * sizeof(uint32_t), got);
	/* The second pass: 64 partial sums in one group of 128. */
	CL_ARGS(k, CL_V(sums), CL_V(total), CL_V(groups));
	cl_run(&e, k, 1, &one, &local, total, sizeof(uint32_t), &got[N / GROUP]);
	return cl_verdict("work-group sums and total", got, want, N / GROUP + 1);
}

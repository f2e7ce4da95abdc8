// SPDX-License-Identifier: MIT
/*
 * OpenCL vector add through ocl-icd + rusticl (see cl.h): three buffers
 * passed as kernel arguments, every element compared with a C reference.
 * Mesa 22.3.6's Bifrost compiler cannot load kernel arguments (it stops
 * at nir load_kernel_input and rusticl then crashes), so on the base
 * sysroot this program ends there; cl_sgemm.c shows what runs anyway.
 */
#include "cl.h"

#define N 4096

static const char *const src =
	"__kernel void vadd(__global const float *a, __global const float *b,\n"
	"                   __global float *c) {\n"
	"  size_t i = get_global_id(0);\n"
	"  c[i] = a[i] + b[i];\n"
	"}\n";

int main(void)
{
	static float a[N], b[N], c[N];
	size_t global = N, local = 64;
	struct cl_env e;
	cl_int err = 0;
	int bad = 0;

	cl_init(&e);
	cl_kernel k = cl_build(&e, src, "vadd");
	/* Values whose float sums are exact: any difference is the GPU's. */
	for (int i = 0; i < N; i++) {
		a[i] = (float)i * 0.75f;
		b[i] = (float)(N - i) * 0.125f - 3.0f;
	}
	cl_mem ma = CL(clCreateBuffer)(e.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(a), a,
				       &err);
	CL_OK(err);
	cl_mem mb = CL(clCreateBuffer)(e.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(b), b,
				       &err);
	CL_OK(err);
	cl_mem mc = CL(clCreateBuffer)(e.ctx, CL_MEM_WRITE_ONLY, sizeof(c), NULL, &err);
	CL_OK(err);
	CL_OK(CL(clSetKernelArg)(k, 0, sizeof(ma), &ma));
	CL_OK(CL(clSetKernelArg)(k, 1, sizeof(mb), &mb));
	CL_OK(CL(clSetKernelArg)(k, 2, sizeof(mc), &mc));
	CL_OK(CL(clEnqueueNDRangeKernel)(e.q, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CL_OK(CL(clEnqueueReadBuffer)(e.q, mc, 1, 0, sizeof(c), c, 0, NULL, NULL));
	CL_OK(CL(clFinish)(e.q));
	for (int i = 0; i < N; i++) {
		float want = a[i] + b[i];

		if (memcmp(&c[i], &want, sizeof(want))) {
			if (bad < 8)
				printf("MISMATCH c[%d] = %a, want %a\n", i, (double)c[i],
				       (double)want);
			bad++;
		}
	}
	if (bad) {
		printf("FAIL: %d of %d elements differ\n", bad, N);
		return CL_EXIT_MISMATCH;
	}
	printf("PASS: vector add of %d floats matches the C reference\n", N);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * OpenCL SGEMM through ocl-icd + rusticl (see cl.h): C = alpha * A x B
 * for a 48x80 by 80x64 product, the matrices passed as buffers, M, N, K
 * and alpha as scalar arguments, 8x8 tiles staged in __local memory (one
 * tile a __local argument sized by the host, the other declared in the
 * kernel). Whether the compiler fuses the multiply-adds is its choice,
 * so the inputs are small integers and alpha a power of two: every
 * product and partial sum is exact in float either way, and any
 * difference is a wrong result.
 */
#include "cl.h"

#define M 48
#define N 64
#define K 80
#define T 8

static const char *const src =
	"__kernel void sgemm(__global const float *a, __global const float *b,\n"
	"                    __global float *c, int m, int n, int k, float alpha,\n"
	"                    __local float *ta) {\n"
	"  __local float tb[8][8];\n"
	"  int col = get_global_id(0), row = get_global_id(1);\n"
	"  int lc = get_local_id(0), lr = get_local_id(1);\n"
	"  float acc = 0.0f;\n"
	"  for (int t = 0; t < k; t += 8) {\n"
	"    ta[lr * 8 + lc] = a[row * k + t + lc];\n"
	"    tb[lr][lc] = b[(t + lr) * n + col];\n"
	"    barrier(CLK_LOCAL_MEM_FENCE);\n"
	"    for (int j = 0; j < 8; j++) acc += ta[lr * 8 + j] * tb[j][lc];\n"
	"    barrier(CLK_LOCAL_MEM_FENCE);\n"
	"  }\n"
	"  if (row < m) c[row * n + col] = alpha * acc;\n"
	"}\n";

int main(void)
{
	static float a[M * K], b[K * N], c[M * N], want[M * N];
	size_t global[2] = { N, M }, local[2] = { T, T };
	cl_int m = M, n = N, k = K;
	float alpha = 0.5f;
	struct cl_env e;

	cl_init(&e);
	cl_kernel kern = cl_build(&e, src, "sgemm");
	for (int i = 0; i < M * K; i++)
		a[i] = (float)((i * 7 + 3) % 17) - 8.0f;
	for (int i = 0; i < K * N; i++)
		b[i] = (float)((i * 5 + 1) % 13) - 6.0f;
	for (int r = 0; r < M; r++)
		for (int col = 0; col < N; col++) {
			float acc = 0.0f;

			for (int j = 0; j < K; j++)
				acc += a[r * K + j] * b[j * N + col];
			want[r * N + col] = alpha * acc;
		}
	cl_mem ma = cl_buffer(&e, CL_MEM_READ_ONLY, sizeof(a), a);
	cl_mem mb = cl_buffer(&e, CL_MEM_READ_ONLY, sizeof(b), b);
	cl_mem mc = cl_buffer(&e, CL_MEM_WRITE_ONLY, sizeof(c), NULL);
	CL_ARGS(kern, CL_V(ma), CL_V(mb), CL_V(mc), CL_V(m), CL_V(n), CL_V(k), CL_V(alpha),
		CL_LOCAL(T * T * sizeof(float)));
	cl_run(&e, kern, 2, global, local, mc, sizeof(c), c);
	return cl_verdict("sgemm", c, want, M * N);
}

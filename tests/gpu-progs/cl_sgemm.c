// SPDX-License-Identifier: MIT
/*
 * OpenCL C = A x B for 32x32 floats (see cl.h): each 8x8 work-group
 * stages 8x8 tiles of A and B in __local memory between barriers.
 *
 * The kernel takes no arguments, because Mesa 22.3.6's Bifrost compiler
 * cannot load any (kernel arguments and program-scope constants both
 * reach it as nir load_kernel_input, which it does not handle). So the
 * kernel makes its inputs from their indices, A[i][k] = i + 3 - 2k and
 * B[k][j] = 3j + 1 - k, and checks its own result against the closed
 * form of their product, which this program first proves equal to a C
 * triple loop for every element. A work-item whose element differs
 * writes to GPU address 0x100000 + 4 * (i * 32 + j), below anything
 * panfrost maps: the job faults there, and the driver's log names the
 * element. Whoever runs this judges it by the GPU's statistics (the job
 * done, no fault); $VGPU_CL_WRONG=INDEX makes the reference of one
 * element wrong, to show that the check is live. Every value is an
 * integer below 2^24, so float sums are exact in any order.
 */
#include "cl.h"

#define N 32
#define T 8
#define FAULT_BASE 0x100000ul
/* Sums over k < N of k and of k * k. */
#define S1 (N * (N - 1) / 2)
#define S2 ((N - 1) * N * (2 * N - 1) / 6)

static const char *const src_fmt =
	"#define N %d\n"
	"#define T %d\n"
	"__kernel void sgemm(void) {\n"
	"  __local float ta[T][T], tb[T][T];\n"
	/* No get_global_id: its global offset would be a kernel input. */
	"  int li = get_local_id(1), lj = get_local_id(0);\n"
	"  int i = get_group_id(1) * T + li, j = get_group_id(0) * T + lj;\n"
	"  float acc = 0.0f;\n"
	"  int n = get_num_groups(0) * T;\n"
	"  for (int t = 0; t < n; t += T) {\n"
	"    ta[li][lj] = (float)(i + 3 - 2 * (t + lj));\n"
	"    tb[li][lj] = (float)(3 * j + 1 - (t + li));\n"
	"    barrier(CLK_LOCAL_MEM_FENCE);\n"
	"    for (int k = 0; k < T; k++)\n"
	"      acc += ta[li][k] * tb[k][lj];\n"
	"    barrier(CLK_LOCAL_MEM_FENCE);\n"
	"  }\n"
	"  int a = i + 3, b = 3 * j + 1;\n"
	"  int want = N * a * b - (a + 2 * b) * %d + 2 * %d + (i * N + j == %ld);\n"
	"  if (acc != (float)want)\n"
	"    *(volatile __global int *)(%#lxul + 4ul * (ulong)(i * N + j)) = (int)acc;\n"
	"}\n";

/* The closed form of the product's element (i, j). */
static int closed_form(int i, int j)
{
	int a = i + 3, b = 3 * j + 1;

	return N * a * b - (a + 2 * b) * S1 + 2 * S2;
}

int main(void)
{
	static float a[N][N], b[N][N];
	const char *wrong = getenv("VGPU_CL_WRONG");
	long wrong_at = wrong && *wrong ? strtol(wrong, NULL, 0) : -1;
	size_t global[2] = { N, N }, local[2] = { T, T };
	char src[2048];
	struct cl_env e;

	for (int i = 0; i < N; i++)
		for (int k = 0; k < N; k++) {
			a[i][k] = (float)(i + 3 - 2 * k);
			b[i][k] = (float)(3 * k + 1 - i);
		}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			float c = 0.0f;

			for (int k = 0; k < N; k++)
				c += a[i][k] * b[k][j];
			if (c != (float)closed_form(i, j)) {
				printf("FAIL: the closed form %d differs from the C reference %a at "
				       "(%d, %d)\n", closed_form(i, j), (double)c, i, j);
				return CL_EXIT_SETUP;
			}
		}
	snprintf(src, sizeof(src), src_fmt, N, T, S1, S2, wrong_at, FAULT_BASE);
	cl_init(&e);
	cl_kernel k = cl_build(&e, src, "sgemm");
	CL_OK(CL(clEnqueueNDRangeKernel)(e.q, k, 2, NULL, global, local, 0, NULL, NULL));
	CL_OK(CL(clFinish)(e.q));
	printf("ran: sgemm %dx%dx%d in %dx%d __local tiles; each element was compared with "
	       "the C reference on the GPU (a wrong one faults at %#lx + 4 * index)\n",
	       N, N, N, T, T, FAULT_BASE);
	return 0;
}

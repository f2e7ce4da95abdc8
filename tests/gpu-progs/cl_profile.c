// SPDX-License-Identifier: MIT
/*
 * An OpenCL profiling queue (CL_QUEUE_PROFILING_ENABLE) through ocl-icd +
 * rusticl (see cl.h): rusticl offers it only when the kernel driver can
 * read the GPU's timestamp (panfrost 1.3's SYSTEM_TIMESTAMP params). One
 * kernel with a buffer argument runs; its event's QUEUED, SUBMIT, START
 * and END times must be non-zero and in that order, and the buffer right.
 */
#include "cl.h"

#define N 1024

#define CL_QUEUE_PROFILING_ENABLE (1u << 1)
#define CL_PROFILING_COMMAND_QUEUED 0x1280

/* Beyond what cl.h declares. */
cl_int clGetEventProfilingInfo_t(cl_event, cl_uint, size_t, void *, size_t *);
cl_int clWaitForEvents_t(cl_uint, const cl_event *);
cl_int clReleaseEvent_t(cl_event);

static const char *const src =
	"__kernel void fill(__global uint *out) {\n"
	"  uint i = get_global_id(0);\n"
	"  out[i] = i * 3u + 1u;\n"
	"}\n";

static const char *const names[4] = { "QUEUED", "SUBMIT", "START", "END" };

int main(void)
{
	static cl_uint out[N];
	size_t global = N, local = 64;
	cl_ulong t[4];
	struct cl_env e;
	cl_event ev;
	cl_int err = 0;
	int bad = 0;

	cl_init(&e);
	cl_command_queue q = CL(clCreateCommandQueue)(e.ctx, e.dev, CL_QUEUE_PROFILING_ENABLE,
						      &err);
	CL_OK(err);
	cl_kernel k = cl_build(&e, src, "fill");
	cl_mem m = CL(clCreateBuffer)(e.ctx, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &err);
	CL_OK(err);
	CL_OK(CL(clSetKernelArg)(k, 0, sizeof(m), &m));
	CL_OK(CL(clEnqueueNDRangeKernel)(q, k, 1, NULL, &global, &local, 0, NULL, &ev));
	CL_OK(CL(clWaitForEvents)(1, &ev));
	for (int i = 0; i < 4; i++)
		CL_OK(CL(clGetEventProfilingInfo)(ev, CL_PROFILING_COMMAND_QUEUED + (cl_uint)i,
						  sizeof(t[i]), &t[i], NULL));
	CL_OK(CL(clEnqueueReadBuffer)(q, m, 1, 0, sizeof(out), out, 0, NULL, NULL));
	CL_OK(CL(clFinish)(q));
	for (int i = 0; i < 4; i++) {
		printf("%-6s %llu ns\n", names[i], (unsigned long long)t[i]);
		if (!t[i] || (i && t[i] < t[i - 1])) {
			printf("FAIL: %s is zero or before %s\n", names[i], names[i ? i - 1 : 0]);
			bad++;
		}
	}
	for (cl_uint i = 0; i < N; i++)
		if (out[i] != i * 3u + 1u && bad++ < 8)
			printf("MISMATCH out[%u] = %u, want %u\n", i, out[i], i * 3u + 1u);
	CL(clReleaseEvent)(ev);
	if (bad) {
		printf("FAIL: %d problems\n", bad);
		return CL_EXIT_MISMATCH;
	}
	printf("PASS: profiling queue: kernel ran %llu ns (START to END), %llu ns after queueing\n",
	       (unsigned long long)(t[3] - t[2]), (unsigned long long)(t[3] - t[0]));
	return 0;
}
